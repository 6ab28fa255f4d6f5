"""How a played match ended, as the referee reports it to the CLI and the ladder.

Stored and printed as the string values (``done``, ``void``), so records, ``--json`` output and
existing ladder stores keep their text; in code a status is always compared by member.
"""

from __future__ import annotations

from enum import StrEnum


class OutcomeStatus(StrEnum):
    """The status of a ``MatchOutcome``: either the bots decided the match or the platform failed."""

    DONE = "done"
    """Played to the end, or forfeited by a faulty partnership: the result stands (and is rated)."""
    VOID = "void"
    """A platform fault: no bot is blamed, no rating changes."""
