"""Typed errors of the batched engine: each names the problem (and the table) in one line.

They subclass the engine's ``ArenaError`` (a ``ValueError``), so a caller that already catches
the engine's bad-input errors catches these too.
"""

from __future__ import annotations

from arena.engine.errors import ArenaError


class BatchError(ArenaError):
    """Base class of every error the batched engine raises on bad input."""


class UnsupportedRulesError(BatchError):
    """Rules whose options the batched engine does not play yet; the message names them."""


class BatchShapeError(BatchError):
    """An array argument of the wrong shape or type (actions, seeds, dealers, uniforms)."""


class IllegalBatchActionError(BatchError):
    """An action out of range or masked out at a table; no table was changed."""


class FinishedTableError(BatchError):
    """An action for a table whose hand is over; no table was changed."""
