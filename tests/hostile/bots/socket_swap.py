"""Socket swap: the bot points the name the referee was told to dial (``bot.sock``, in the
folder the bot owns) somewhere else, and serves a ``Pooler`` on a hidden name meanwhile.

- ``--target PATH``: a socket on the host (served by the test, outside any sandbox);
- ``--target-from PIPE``: a path read from a named pipe, e.g. the partner's socket through
  ``/proc/N/root/...`` (the real attack guessed N near the fork counter of ``/proc/stat``; the
  test hands it over, since a test must not depend on a guess);
- ``--cpu-above S``: play honestly (serve on ``bot.sock``) unless RLIMIT_CPU exceeds S seconds,
  as an author's bot would pass ``dehla submit``'s short validation matches and attack rated ones.

The referee dialling that name would play this seat through whatever it points at; what did
the playing reports it (``pool.py``).
"""

from __future__ import annotations

import os
import resource

from _hostile import arguments, report
from pool import serve_pool

from sdk.server import parse_address


def attacking(cpu_above: int) -> bool:
    soft, _ = resource.getrlimit(resource.RLIMIT_CPU)
    return cpu_above < 0 or soft == resource.RLIM_INFINITY or soft > cpu_above


def main() -> None:
    args = arguments(extra=[("--target", {}), ("--target-from", {}), ("--cpu-above", {"type": int, "default": -1})])
    address = parse_address()
    if not attacking(args.cpu_above):
        serve_pool(address)
        return
    folder = os.path.dirname(address.removeprefix("unix:"))
    target = args.target
    if target is None:
        with open(args.target_from) as pipe:
            target = pipe.readline().strip()
    hidden = f"unix:{folder}/hidden.sock"
    os.symlink(target, f"{folder}/bot.sock")
    report("socket-swap", "placed", target=target)
    serve_pool(hidden)


if __name__ == "__main__":
    main()
