"""Learning environments for this game family (the ``learn`` extra: PettingZoo, Gymnasium).

``from sdk.learn import dehla_v0; env = dehla_v0.env(preset="dehla-pakad")`` is a PettingZoo AEC
environment over ``arena.engine``; ``encoding`` is its observation layout and ``config`` what it
plays. Nothing else of the SDK imports this package, so a bot never needs the extra (an import
contract in ``pyproject.toml``). ``docs/learning.md`` walks through it.
"""
