"""Hand records as models: the published schema, the field-driven JSON, old records still load."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from arena.engine.errors import RecordError
from arena.engine.hand_records import HAND_RECORD_SCHEMA_VERSION, RecordedResult, hand_record, replay_record
from arena.engine.observation import Observation, observe
from arena.engine.outcome import HandResult, Trick
from tests.golden_transcript import play_golden

ROOT = Path(__file__).resolve().parents[2]
OLD_HAND = ROOT / "tests" / "records" / "hand-before-schema-version.json"


def _gen_schemas() -> Any:
    spec = importlib.util.spec_from_file_location("gen_schemas", ROOT / "tools" / "gen_schemas.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_committed_schemas_are_the_generated_ones() -> None:
    for name, text in _gen_schemas().schemas().items():
        committed = (ROOT / "docs" / name).read_text(encoding="utf-8")
        assert committed == text, f"docs/{name} is stale: run python tools/gen_schemas.py"


def _field_names(cls: type) -> set[str]:
    return {field.name for field in dataclasses.fields(cls)}


def test_every_observation_field_reaches_its_json() -> None:
    state, _ = play_golden("dehla-pakad-hidden")
    data = observe(state, 0).to_json()
    assert {"rules"} == Observation.JSON_OMIT  # leaving a field out is a visible decision
    # Fields written only when set (a face-down discard: tests/engine/test_scenarios_face_down.py).
    assert {"current_face_down", "pile_face_down", "captured_face_down"} == Observation.JSON_IF_SET
    assert {"face_down"} == Trick.JSON_IF_SET
    assert set(data) == _field_names(Observation) - Observation.JSON_OMIT - Observation.JSON_IF_SET
    assert set(data["tricks"][0]) == _field_names(Trick) - {"seats", "cards", "face_down"} | {"plays"}
    assert set(data["result"]) == _field_names(HandResult)
    assert all(data[key] is not None for key in ("result", "reveal", "trump_setting"))


def test_the_recorded_result_has_every_field_of_the_hand_result() -> None:
    assert list(RecordedResult.model_fields) == [field.name for field in dataclasses.fields(HandResult)]


def test_a_record_written_before_schema_version_still_loads_and_rewrites_the_same() -> None:
    old = json.loads(OLD_HAND.read_text(encoding="utf-8"))
    assert "schema_version" not in old
    state = replay_record(old)
    new = hand_record(state)
    assert new.pop("schema_version") == HAND_RECORD_SCHEMA_VERSION == 1
    assert new == old and list(new) == list(old)


@pytest.mark.parametrize(("mutate", "message"), [
    (lambda r: r.update(schema_version=2),
     "schema_version: this engine reads hand records up to schema version 1, got 2"),
    (lambda r: r.update(schema_version="1"), "schema_version: Input should be a valid integer, got '1'"),
    (lambda r: r.update(dealer=True), "dealer: Input should be a valid integer, got True"),
    (lambda r: r["actions"][2].pop("seat"), "actions[2]: missing field 'seat'"),
    (lambda r: r["deal"]["hands"][3].__setitem__(1, 5), "deal.hands[3][1]: Input should be a valid string, got 5"),
    (lambda r: r["result"].update(kot="no"), "result.kot: Input should be a valid boolean, got 'no'"),
])
def test_a_bad_record_names_the_field(mutate: Any, message: str) -> None:
    record = json.loads(OLD_HAND.read_text(encoding="utf-8"))
    mutate(record)
    with pytest.raises(RecordError) as caught:
        replay_record(record)
    assert str(caught.value) == message
