"""``python -m sample_bots.search [--move-ms MS]``: serve the search bot on ``$DEHLA_BOT_ADDRESS``.

``--move-ms`` caps the thinking time per move. Without it a move takes 0.6 of the per-move
limit, topped up from the bank by a twentieth of what is left (at most half a move), so under
the default clock (1 s + 30 s bank) a move takes 0.6 to 1.1 s and the bank never runs dry.
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
