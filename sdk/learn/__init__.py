"""Learning environments for this game family (the ``learn`` extra: PettingZoo, Gymnasium, numba).

``from sdk.learn import dehla_v0; env = dehla_v0.env(preset="dehla-pakad")`` is a PettingZoo AEC
environment over ``arena.engine``; ``encoding`` is its observation layout and ``config`` what it
plays. ``sdk.learn.vector.vector_env(num_envs=1024)`` is a Gymnasium vector environment over the
batched engine (``arena.batch``) with the same observations. Nothing else of the SDK imports this
package, so a bot never needs the extra (import contracts in ``pyproject.toml``).
``docs/learning.md`` walks through it.
"""
