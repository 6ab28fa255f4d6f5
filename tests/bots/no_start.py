"""Never becomes ready: ``exit`` writes a line to stderr and exits at once with code 3;
``silent`` never serves at all (it just sleeps until the referee stops it). A second argument
is written to stderr too, as a bot's debug log would."""

from __future__ import annotations

import sys
import time

EXIT_CODE = 3

if __name__ == "__main__":
    mode = sys.argv[1] if len(sys.argv) > 1 else "exit"
    print(f"no_start: {mode}: not serving today", *sys.argv[2:3], file=sys.stderr, flush=True)
    if mode == "exit":
        sys.exit(EXIT_CODE)
    time.sleep(3600)
