"""``python -m sample_bots.expert [--level N] [--move-ms MS]``: serve the expert bot on ``$DEHLA_BOT_ADDRESS``.

``--level`` (1 to 5, ``sample_bots/expert/levels.py``) caps the thinking time per move: level 1
searches nothing (the heuristic bot's card), level 5, the default, the search bot's budget
(``sample_bots/search/__main__.py``). ``--move-ms`` caps a move at that many milliseconds
instead. ``--confidence Z``: the override rule's threshold before the endgame (the search
bot's 1.0 by default), and ``--inference-tricks N``: the tricks left from which worlds are
weighted (``INFERENCE_TRICKS``; 0: never), and ``--window N``: only the plays of the last N
tricks weigh (``sdk.inference.Inference``'s window), for measuring variants against each other;
``--heuristic-replies``: before the endgame, the trick in progress finished with the heuristic's
cards (each seat on its own view of the imagined world) before each greedy playout
(``sample_bots/expert/replies.py``; version 22, dropped, kept for ``bench.ceiling``'s ``replies``
arm). ``--hand-set``: the heuristic's hand-set numbers for ranking the candidates and calling
trumps instead of the expert's tuned ones (``sample_bots/expert/weights.py``), as version 11
played. ``--tree``: the card play by information-set tree search until the move's deadline
(``sample_bots/expert/tree.py``; version 23). ``--rollouts N``: before the endgame, each
candidate's world finished by the seats' own policies for N tricks, then greedily
(``sample_bots/expert/rollout.py``; variant 27, not adopted at 50 ms a move). The switches of
the variants dropped in session 18 (``--batch``, ``--search-calls``, ``--blind-playouts``,
``--cautious``, ``--min-advantage``, ``--no-middle-search``) were removed in session 20: their
rows in docs/bots.md run at commit 269556c.
"""

import argparse

from sample_bots.expert.bot import INFERENCE_TRICKS, ExpertBot
from sample_bots.expert.levels import Level, budget_for
from sample_bots.expert.weights import expert_weights
from sample_bots.heuristic.weights import hand_set
from sdk.server import run

parser = argparse.ArgumentParser(description=__doc__)
parser.add_argument("--level", type=int, choices=[int(level) for level in Level], default=int(Level.FULL),
                    help="1 (the heuristic's card) to 5 (the clock's budget)")
parser.add_argument("--move-ms", type=float, default=None, help="thinking time per move, milliseconds")
parser.add_argument("--seed", type=int, default=0)
parser.add_argument("--confidence", type=float, default=None,
                    help="standard errors a card needs over the heuristic's before the last 3 tricks")
parser.add_argument("--inference-tricks", type=int, default=INFERENCE_TRICKS,
                    help="tricks left from which the worlds are weighted by the plays seen (0: never)")
parser.add_argument("--window", type=int, default=None,
                    help="weigh only the plays of the last N tricks, the one in progress included (default: all)")
parser.add_argument("--heuristic-replies", action="store_true",
                    help="before the last 3 tricks, finish the trick in progress with the heuristic's cards "
                         "before each greedy playout")
parser.add_argument("--tree", action="store_true",
                    help="play the cards by information-set tree search (sample_bots/expert/tree.py) until the "
                         "move's deadline")
parser.add_argument("--hand-set", action="store_true",
                    help="rank the candidates and call trumps with the heuristic's hand-set numbers, not the "
                         "expert's tuned ones (sample_bots/expert/weights.py; version 11's)")
parser.add_argument("--rollouts", type=int, default=0,
                    help="before the last 3 tricks, finish each world with the seats' policies for N tricks, then "
                         "greedily (sample_bots/expert/rollout.py; 0, the default: greedy playouts)")
args, rest = parser.parse_known_args()
budget = budget_for(Level(args.level), args.move_ms, args.confidence)
run(ExpertBot(args.seed, budget, window=args.window, inference_tricks=args.inference_tricks,
              heuristic_replies=args.heuristic_replies, tree=args.tree,
              weights=hand_set if args.hand_set else expert_weights, rollouts=args.rollouts), rest)
