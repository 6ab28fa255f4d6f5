"""Typed errors of the engine.

Malformed input (text that is not a card, an unknown option) is a different error from a
well-formed but illegal action, as in python-chess. All subclass ``ValueError``.
"""

from __future__ import annotations


class ArenaError(ValueError):
    """Base class of every error the engine raises on bad input."""


class InvalidCardError(ArenaError):
    """Text that is not a card or suit."""


class InvalidActionError(ArenaError):
    """Text or data that is not an action at all."""


class IllegalActionError(ArenaError):
    """A well-formed action that the rules do not allow now; the message says why."""


class RulesError(ArenaError):
    """Unknown preset, unknown option, bad value or contradictory options."""


class DealError(ArenaError):
    """An explicit deal that is not a deal of the rules' deck (sizes, duplicates, missing)."""


class RecordError(ArenaError):
    """A hand record that is malformed or does not replay; the message names the first bad part."""


class MatchFormatError(ArenaError):
    """A match format text that is not ``hands:N`` or ``kots:K``."""
