"""Taking other seats' fault evidence out of a served record: whatever the faults and the viewer's
seats, no evidence of a seat not theirs survives, theirs is kept, and every other line is as stored."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ladder.web.data_files import DataFileError
from ladder.web.evidence import withhold_record_evidence

faults = st.lists(st.fixed_dictionaries({"seat": st.integers(0, 3), "kind": st.just("crash"), "detail": st.text(),
                                         "evidence": st.one_of(st.none(), st.text(min_size=1))}), max_size=6)
seats = st.frozensets(st.integers(0, 3))


@given(faults, seats, st.text())
def test_only_the_viewers_evidence_survives(fault_list: list[dict[str, object]], visible: frozenset[int],
                                            seat_name: str) -> None:
    start = json.dumps({"type": "match_start", "seats": [seat_name] * 4}).encode()
    hand = b'{"type": "hand", "index": 0, "decisions": []}'
    end = json.dumps({"type": "match_end", "faults": fault_list}).encode()
    served = withhold_record_evidence(b"\n".join([start, hand, end, b""]), visible).split(b"\n")
    assert served[:2] == [start, hand] and served[3] == b""
    kept = json.loads(served[2])["faults"]
    assert len(kept) == len(fault_list)
    for before, after in zip(fault_list, kept, strict=True):
        assert after["evidence"] == (before["evidence"] if before["seat"] in visible else None)
        assert {key: value for key, value in after.items() if key != "evidence"} == \
            {key: value for key, value in before.items() if key != "evidence"}


def test_a_line_that_is_not_json_cannot_be_checked_so_is_not_served() -> None:
    with pytest.raises(DataFileError, match="line 2 is not JSON"):
        withhold_record_evidence(b'{"type": "match_start"}\n{"evidence": "x"\n', frozenset())


def test_a_fault_whose_seat_is_no_seat_loses_its_evidence() -> None:
    end = b'{"type": "match_end", "faults": [{"seat": [0], "evidence": "a"}, {"seat": true, "evidence": "b"}]}'
    served = json.loads(withhold_record_evidence(end, frozenset({0, 1})))
    assert [fault["evidence"] for fault in served["faults"]] == [None, None]
