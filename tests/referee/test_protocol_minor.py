"""Protocol 1.5: a bot announcing an older minor version is refused at StartMatch for rules that
use seed 003's trump variants (it would not see them on the wire), and plays the rules it knows.

One real bot process (``tests.bots.old_minor``, an SDK bot whose StartMatch reply says 1.4) at
one seat, in-process random bots at the others, one hand.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

from arena.contract.faults import FaultKind
from arena.engine.bidding_rules import bidding_rules_for
from arena.engine.rules import rules_for
from tests.referee_helpers import among_in_process_bots, misbehaving_bot, run_seats, table_config


def test_an_older_minor_bot_is_refused_for_the_trump_variants_with_the_reason(tmp_path: Path) -> None:
    config = replace(table_config("old-minor-decline", preset="court-piece"),
                     rules=rules_for("court-piece", {"decline": "second_packet"}))
    seats = among_in_process_bots(misbehaving_bot("old_minor", "--minor", "4"), 1, tmp_path)
    played = asyncio.run(run_seats(config, seats, tmp_path))
    fault = played.fault
    assert (fault.seat, fault.kind) == (1, FaultKind.FAILED_START)
    assert fault.detail == (
        "failed_start: bot speaks protocol 1.4; these rules (decline=second_packet) need 1.5 or later"
    )
    assert played.outcome.forfeit_team == 1 and played.outcome.hands == []


def test_an_older_minor_bot_plays_the_rules_it_knows(tmp_path: Path) -> None:
    config = table_config("old-minor-plain", preset="court-piece")
    seats = among_in_process_bots(misbehaving_bot("old_minor", "--minor", "4"), 1, tmp_path)
    played = asyncio.run(run_seats(config, seats, tmp_path))
    assert played.outcome.faults == [] and played.outcome.status == "done"
    assert len(played.outcome.hands) == 1


def test_an_older_minor_bot_is_refused_for_the_bidding_games_with_the_reason(tmp_path: Path) -> None:
    """Protocol 1.6: a 1.5 bot would see no rules and no decision it can read in Twenty-eight."""
    config = replace(table_config("old-minor-28", preset="court-piece"),
                     rules=bidding_rules_for("twenty-eight"), preset="twenty-eight")
    seats = among_in_process_bots(misbehaving_bot("old_minor", "--minor", "5"), 2, tmp_path)
    played = asyncio.run(run_seats(config, seats, tmp_path))
    fault = played.fault
    assert (fault.seat, fault.kind) == (2, FaultKind.FAILED_START)
    assert fault.detail == (
        "failed_start: bot speaks protocol 1.5; these rules (the bidding game twenty-eight) need 1.6 or later"
    )
    assert played.outcome.forfeit_team == 0 and played.outcome.hands == []
