"""Typed errors of the learning environments: each names the problem in one line.

They subclass the engine's ``ArenaError`` (a ``ValueError``), so code that catches the engine's
bad-input errors catches these too. An error raised by ``step`` leaves the table as it was.
"""

from __future__ import annotations

from arena.engine.errors import ArenaError


class LearnEnvError(ArenaError):
    """Base class of every error a learning environment raises on bad input."""


class UnsupportedFormatError(LearnEnvError):
    """A match format the environment does not play (``duplicate:N``, which needs two tables)."""


class IllegalEnvActionError(LearnEnvError):
    """An action that is not an integer of the action space, or is masked out now."""


class FinishedEpisodeError(LearnEnvError):
    """A step after the episode is over: call ``reset`` first."""


class ActionShapeError(LearnEnvError):
    """A vector environment's actions that are not one integer per table."""


class OpponentPolicyError(LearnEnvError):
    """An opponent policy's answer that is not one legal action per seat asked; the step that
    asked it is undone."""
