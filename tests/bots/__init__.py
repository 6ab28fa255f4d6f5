"""Misbehaving bots for the referee's fault tests, one misbehaviour per module.

Each runs as ``python -m tests.bots.NAME ARGS`` with the repository root on ``PYTHONPATH``
(``tests.referee_helpers.misbehaving_bot`` builds that command) and serves on ``$DEHLA_BOT_ADDRESS``
like any bot. Until it misbehaves, a bot plays its first legal card.
"""
