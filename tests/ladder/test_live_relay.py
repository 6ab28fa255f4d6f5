"""The coordinator's end of a cluster match's live states (``ladder.execution.live_relay``), fed
events as Dask delivers them, ``(scheduler time, message)``: a state of a match and attempt in
play is written where ``dehla serve`` reads it, stamped with the relay's clock; every message
that is not exactly that is dropped, and nothing writes a file once its match has settled."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from arena.referee.live_view import MAX_LIVE_BYTES, LiveStateText, live_path
from ladder.execution.live_relay import LiveRelay
from ladder.store.paths import LIVE_FOLDER
from ladder.web.live_tables import Watch, ladder_live, read_live, watched

NOW = 1_800_000_000.0


def state(match: str = "m000007", updated: float = 5.0, **extra: Any) -> str:
    table = {"hand": 0, "moves": 4, "dealer": 1, **extra}
    return LiveStateText(match_id=match, seats=["a", "b", "c", "d"], updated=updated, delay_moves=0,
                         tables=[table]).model_dump_json()


def event(match: str = "m000007", attempt: int = 2, text: str | None = None) -> tuple[float, dict[str, Any]]:
    """As Dask delivers it: the scheduler adds the sending worker's address."""
    return (1.0, {"match": match, "attempt": attempt, "state": state() if text is None else text,
                  "worker": "tcp://10.0.0.2:40000"})


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return tmp_path


@pytest.fixture
def relay(root: Path) -> LiveRelay:
    relay = LiveRelay(root / LIVE_FOLDER, clock=lambda: NOW)
    relay.expect("m000007", 2)
    return relay


def test_a_state_of_a_match_in_play_is_written_with_the_relays_time_and_read_as_live(root: Path,
                                                                                     relay: LiveRelay) -> None:
    relay.receive(event())
    read = read_live(root, ladder_live(7))
    assert read is not None and read.updated == NOW and read.tables[0].moves == 4
    assert watched(root, ladder_live(7), ended=False, now=NOW + 1).watch is Watch.LIVE
    relay.receive((1.0, {"match": "m000007", "attempt": 2, "state": None}))
    assert not live_path(root / LIVE_FOLDER, "m000007").exists(), "the match's end withdraws it"


@pytest.mark.parametrize("bad", [
    event(match="m000008"),  # a match this coordinator does not have in play
    event(attempt=1),  # an earlier attempt's worker, still playing
    event(text=state(match="m000008")),  # a state of another match
    event(text="{not json"),
    event(text=state(secret="x")),  # a key a state has not
    event(text=state(updated=-1.0)),  # a time no writer has
    event(text=state(updated=1e300)),
    event(text=" " * (MAX_LIVE_BYTES + 1)),
    (1.0, {"match": "m000007", "attempt": 2, "state": state(), "path": "/etc/passwd"}),
    (1.0, {"match": "../m000007", "attempt": 2, "state": state()}),
    (1.0, "m000007"),
    "not an event",
])
def test_anything_else_is_dropped_and_writes_nothing(root: Path, relay: LiveRelay, bad: Any) -> None:
    relay.receive(bad)
    assert (relay.written, relay.dropped) == (0, 1)
    assert not (root / LIVE_FOLDER).exists() or not any((root / LIVE_FOLDER).iterdir())


def test_a_settled_match_loses_its_file_and_a_late_state_does_not_bring_it_back(root: Path,
                                                                              relay: LiveRelay) -> None:
    relay.receive(event())
    relay.settled("m000007")  # the worker died (KilledWorker), or its report came back
    assert read_live(root, ladder_live(7)) is None
    relay.receive(event())
    assert read_live(root, ladder_live(7)) is None and relay.dropped == 1


def test_closing_the_run_removes_the_files_of_matches_still_in_play(root: Path, relay: LiveRelay) -> None:
    relay.receive(event())
    relay.close()
    assert read_live(root, ladder_live(7)) is None
