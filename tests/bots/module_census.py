"""The random bot, which at the end of its match writes to stderr which of the referee-side
libraries it has loaded (``loaded: [...]``): a bot needs none of them. ``--load NAME`` imports
one first, so a test can show that the census sees it."""

from __future__ import annotations

import argparse
import importlib
import sys

from arena.contract.messages import MatchEnd
from sample_bots.random.bot import RandomBot
from sdk.server import run

HEAVY = ("pydantic", "pydantic_core", "sqlalchemy", "distributed")


class CensusBot(RandomBot):
    name = "module_census"

    def on_match_end(self, end: MatchEnd) -> None:
        print(f"loaded: {sorted(name for name in HEAVY if name in sys.modules)}", file=sys.stderr, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--load", action="append", default=[])
    for name in parser.parse_args().load:
        importlib.import_module(name)
    run(CensusBot())


if __name__ == "__main__":
    main()
