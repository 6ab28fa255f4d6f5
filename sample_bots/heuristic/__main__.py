"""``python -m sample_bots.heuristic``: serve the heuristic bot on ``$DEHLA_BOT_ADDRESS``."""

from sample_bots.heuristic.bot import HeuristicBot
from sdk.server import run

run(HeuristicBot())
