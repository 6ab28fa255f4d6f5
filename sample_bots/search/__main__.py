"""``python -m sample_bots.search [--move-ms MS]``: serve the search bot on ``$DEHLA_BOT_ADDRESS``.

``--move-ms`` caps the thinking time per move (default: half the per-move limit, plus a little
of the bank).
"""

import argparse

from sample_bots.search.bot import SearchBot, SearchBudget
from sdk.server import run

parser = argparse.ArgumentParser(description=__doc__)
parser.add_argument("--move-ms", type=float, default=None, help="thinking time per move, milliseconds")
parser.add_argument("--seed", type=int, default=0)
args, rest = parser.parse_known_args()
budget = SearchBudget(max_per_move=args.move_ms / 1000 if args.move_ms else None)
run(SearchBot(args.seed, budget), rest)
