"""``python -m sample_bots.expert [--move-ms MS]``: serve the expert bot on ``$DEHLA_BOT_ADDRESS``.

``--move-ms`` caps the thinking time per move; without it the budget is the search bot's
(``sample_bots/search/__main__.py``). ``--confidence Z``: the override rule's threshold before
the endgame (the search bot's 1.0 by default), for measuring variants against each other.
"""

import argparse

from sample_bots.expert.bot import ExpertBot
from sample_bots.search.bot import SearchBudget
from sdk.server import run

parser = argparse.ArgumentParser(description=__doc__)
parser.add_argument("--move-ms", type=float, default=None, help="thinking time per move, milliseconds")
parser.add_argument("--seed", type=int, default=0)
parser.add_argument("--confidence", type=float, default=SearchBudget().confidence,
                    help="standard errors a card needs over the heuristic's before the last 3 tricks")
args, rest = parser.parse_known_args()
budget = SearchBudget(max_per_move=args.move_ms / 1000 if args.move_ms else None, confidence=args.confidence)
run(ExpertBot(args.seed, budget), rest)
