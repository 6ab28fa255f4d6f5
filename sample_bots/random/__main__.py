"""``python -m sample_bots.random``: serve the random bot on ``$DEHLA_BOT_ADDRESS``."""

from sample_bots.random.bot import RandomBot
from sdk.server import run

run(RandomBot())
