"""Match record lines as models: old records load, and the writer cannot drift from the models."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.contract.faults import FaultKind
from arena.engine.errors import RecordError
from arena.referee.match_record_lines import DecisionEntry, HandLine, MatchEndLine, MatchStartLine, read_line, written
from arena.referee.match_recorder import read_match_record
from arena.referee.replay import checked_lines

OLD_MATCH = Path(__file__).resolve().parents[1] / "records" / "match-before-schema-version.jsonl"


def test_a_match_record_written_before_schema_version_still_loads() -> None:
    raw = list(read_match_record(OLD_MATCH))
    assert all("schema_version" not in line for line in raw)
    lines = checked_lines(OLD_MATCH, raw)
    assert [type(line) for line in lines] == [MatchStartLine, HandLine, HandLine, MatchEndLine]
    assert all(line.schema_version == 1 for line in lines)


def test_the_writer_refuses_data_its_model_does_not_describe() -> None:
    entry = {"seat": 0, "request_id": "r", "decision": "play", "legal": 3, "action": "play AS", "ms": 1.5,
             "bank_left": 30.0, "fault": "timeout", "substituted": False}
    assert written(DecisionEntry, entry) == entry
    with pytest.raises(TypeError, match=r"extra \['new_field'\]"):
        written(DecisionEntry, entry | {"new_field": 1})
    with pytest.raises(TypeError, match=r"missing \['substituted'\]"):
        written(DecisionEntry, {k: v for k, v in entry.items() if k != "substituted"})


def test_fault_kinds_are_the_contract_enum() -> None:
    line = {"type": "match_end", "status": "done", "winner_team": 0, "score": [1, 0],
            "faults": [{"seat": 1, "kind": "timeout", "detail": "d"}]}
    end = read_line(line, "m:1")
    assert isinstance(end, MatchEndLine) and end.faults[0].kind is FaultKind.TIMEOUT
    with pytest.raises(RecordError, match=r"^m:1: match_end line: faults\.0\.kind: Input should be"):
        read_line(line | {"faults": [{"seat": 1, "kind": "sulk", "detail": "d"}]}, "m:1")


def test_a_newer_schema_version_is_refused_in_one_line() -> None:
    with pytest.raises(RecordError, match="m:1: hand line: schema_version: this referee reads match records up to"):
        read_line({"type": "hand", "schema_version": 2, "index": 0, "record": {}, "decisions": []}, "m:1")
