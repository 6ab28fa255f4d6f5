"""``python -m sample_bots.expert [--level N] [--move-ms MS]``: serve the expert bot on ``$DEHLA_BOT_ADDRESS``.

``--level`` (1 to 5, ``sample_bots/expert/levels.py``) caps the thinking time per move: level 1
searches nothing (the heuristic bot's card), level 5, the default, the search bot's budget
(``sample_bots/search/__main__.py``). ``--move-ms`` caps a move at that many milliseconds
instead. ``--confidence Z``: the override rule's threshold before the endgame (the search
bot's 1.0 by default), and ``--inference-tricks N``: the tricks left from which worlds are
weighted (``INFERENCE_TRICKS``; 0: never), and ``--window N``: only the plays of the last N
tricks weigh (``sdk.inference.Inference``'s window), for measuring variants against each other;
``--min-advantage X``: the least mean advantage (points a hand) a card needs over the
heuristic's before the endgame; ``--batch`` / ``--no-batch``: greedy playouts a batch of worlds
at a time on numpy arrays (``sample_bots/expert/batch_playout.py``) or one at a time (the default);
``--search-calls``: trump calls by batched playouts of sampled deals under each suit;
``--blind-playouts``: greedy playouts in which a seat judges a card safe against every card it
cannot see (the voids shown still count), not against the later seats' actual cards;
``--cautious`` (with ``--batch``): a card overrides the heuristic's only on its worse value of
the sighted and the blind playouts; ``--no-middle-search``: the heuristic's card at once before
the last 3 tricks (only the endgame searched); ``--heuristic-replies``: before the endgame, the
trick in progress finished with the heuristic's cards (each seat on its own view of the imagined
world) before each greedy playout (``sample_bots/expert/replies.py``).
"""

import argparse

from sample_bots.expert.bot import BATCH, INFERENCE_TRICKS, SEARCH_CALLS, ExpertBot
from sample_bots.expert.levels import Level, budget_for
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
parser.add_argument("--batch", action=argparse.BooleanOptionalAction, default=BATCH,
                    help="play the greedy playouts a batch of worlds at a time (numpy arrays)")
parser.add_argument("--min-advantage", type=float, default=0.0,
                    help="before the last 3 tricks, the least mean advantage a card needs over the heuristic's")
parser.add_argument("--search-calls", action=argparse.BooleanOptionalAction, default=SEARCH_CALLS,
                    help="call trumps by batched playouts of sampled deals under each suit")
parser.add_argument("--blind-playouts", action="store_true",
                    help="greedy playouts in which a seat judges a card safe against every card it cannot see")
parser.add_argument("--cautious", action="store_true",
                    help="with --batch: a card overrides the heuristic's only on its worse value of the "
                         "sighted and blind playouts")
parser.add_argument("--middle-search", action=argparse.BooleanOptionalAction, default=True,
                    help="search before the last 3 tricks (--no-middle-search: the heuristic's card at once)")
parser.add_argument("--heuristic-replies", action="store_true",
                    help="before the last 3 tricks, finish the trick in progress with the heuristic's cards "
                         "before each greedy playout")
args, rest = parser.parse_known_args()
budget = budget_for(Level(args.level), args.move_ms, args.confidence)
run(ExpertBot(args.seed, budget, window=args.window, inference_tricks=args.inference_tricks, batch=args.batch,
                 min_advantage=args.min_advantage, search_calls=args.search_calls,
                 blind_playouts=args.blind_playouts, cautious=args.cautious, middle_search=args.middle_search,
                 heuristic_replies=args.heuristic_replies), rest)
