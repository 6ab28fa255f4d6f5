"""Bad input to ``score``, ``replay``, ``match``, ``selfplay`` and bot manifests: exit 2, one line
naming what was wrong and where, never a traceback (each case crashed or ran without end before).

The commands run in this process (``tests.cli_helpers.run_dehla``): what is tested is the error
line, the exit code and the files written, which ``arena.cli.main`` gives here exactly as it does
under ``python -m arena`` (the same ``LazyGroup.main``, program name, environment and working
folder; a traceback still fails the test). One test keeps real subprocesses for the entry point.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from arena.bots.manifest import ManifestError, load_manifest
from tests.cli_helpers import run_dehla

GOOD_MANIFEST = 'name = "ace"\nversion = "1"\nauthor = "A"\ncommand = ["python", "bot.py"]\n'
DEEP = "[" * 100_000 + "]" * 100_000


def dehla_env(data: Path | None) -> dict[str, str]:
    env = dict(os.environ)
    if data is not None:
        env["DEHLA_DATA"] = str(data)
    return env


def dehla(*args: str, cwd: Path | None = None, data: Path | None = None) -> subprocess.CompletedProcess[str]:
    return run_dehla(*args, cwd=cwd, env=dehla_env(data))


def dehla_process(*args: str, data: Path | None = None) -> subprocess.CompletedProcess[str]:
    """A real ``python -m arena`` process: the entry point and its exit code on the real interpreter."""
    return subprocess.run([sys.executable, "-m", "arena", *args], capture_output=True, text=True, timeout=120,
                          check=False, env=dehla_env(data))


def assert_one_line_error(out: subprocess.CompletedProcess[str], *fragments: str) -> None:
    assert out.returncode == 2, (out.returncode, out.stderr)
    assert "Traceback" not in out.stderr
    assert out.stderr.startswith("error: ") and out.stderr.count("\n") == 1, out.stderr
    for fragment in fragments:
        assert fragment in out.stderr, out.stderr


@pytest.mark.parametrize("command", ["score", "replay"])
@pytest.mark.parametrize(("content", "message"), [
    (b"\xff\xfe{}", "not UTF-8 text (byte 0)"),
    (DEEP.encode(), "nested too deeply"),
    (b"1" * 5000, "a number with too many digits"),
])
def test_score_and_replay_refuse_unreadable_json(tmp_path: Path, command: str, content: bytes, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    assert_one_line_error(dehla(command, str(path)), str(path), message)


@pytest.mark.parametrize(("line", "message"), [
    ({"type": "hand"}, ":1: hand line: index: missing"),
    ({"type": "hand", "index": 0, "decisions": []}, ":1: hand line: record: missing"),
    ({"type": "hand", "index": 0, "record": {}, "decisions": []}, ":1: hand 1: record: missing field 'rules'"),
    ({"type": "hand", "index": 0, "record": {}, "decisions": [{"seat": 0}]}, "decisions.0.action: missing"),
    ({"type": "match_end", "status": "done", "winner_team": 0, "score": [1, 0], "faults": [{"seat": 1}]},
     ":1: match_end line: faults.0.kind: missing"),
    ({"type": "match_start", "match_id": "m", "preset": "p", "format": "f", "seats": []},
     ":1: match_start line: seed: missing"),
    ({"type": "match_start", "match_id": "m", "preset": "p", "format": "f", "seed": "x", "seats": []},
     ":1: match_start line: seed: Input should be a valid integer"),
    ({"type": "hand", "schema_version": 9, "index": 0, "record": {}, "decisions": []},
     ":1: hand line: schema_version: this referee reads match records up to schema version 1, got 9"),
    ({"type": "hand", "index": 0, "record": {"schema_version": 9}, "decisions": []},
     ":1: hand 1: schema_version: this engine reads hand records up to schema version 1, got 9"),
    ({"type": "hand", "index": 0, "record": {}, "decisions": [{"seat": 0, "action": "play AS", "ms": 1,
                                                                "fault": "sulk"}]},
     ":1: hand line: decisions.0.fault: Input should be"),
])
def test_replay_names_the_line_and_field_that_is_missing_or_wrong(
        tmp_path: Path, line: dict[str, object], message: str) -> None:
    path = tmp_path / "m.jsonl"
    path.write_text(json.dumps(line) + "\n")
    assert_one_line_error(dehla("replay", str(path)), message)


@pytest.mark.parametrize(("args", "message"), [
    (["--per-move", "nan"], "'--per-move': 'nan' is not a finite number"),
    (["--per-move", "inf"], "'--per-move': inf is not in the range"),
    (["--bank", "nan"], "'--bank': 'nan' is not a finite number"),
    (["--bank", "1e308"], "'--bank': 1e+308 is not in the range"),
    (["--records", "/proc/1"], "--records /proc/1: cannot write a file there"),
    (["--release", "later"], "'--release': 'later' is not one of 'on-reply', 'slot-end'"),
])
def test_match_refuses_bad_clock_and_records_options(tmp_path: Path, args: list[str], message: str) -> None:
    assert_one_line_error(dehla("match", "random", "random", "--deals", "1", *args, data=tmp_path), message)


@pytest.mark.parametrize(("value", "message"), [
    ("nan", "'--per-move': 'nan' is not a finite number"),
    ("inf", "'--per-move': inf is not in the range"),
])
def test_ladder_run_refuses_a_per_move_limit_that_is_not_a_finite_number(tmp_path: Path, value: str,
                                                                       message: str) -> None:
    assert_one_line_error(dehla("ladder", "run", "--matches", "1", "--per-move", value, data=tmp_path), message)


@pytest.mark.parametrize(("value", "message"), [
    ("nan", "'--bank': 'nan' is not a finite number"),
    ("-1", "'--bank': -1.0 is not in the range"),
])
def test_ladder_run_refuses_a_bank_that_is_not_a_finite_nonnegative_number(tmp_path: Path, value: str,
                                                                         message: str) -> None:
    assert_one_line_error(dehla("ladder", "run", "--matches", "1", "--bank", value, data=tmp_path), message)


def test_ladder_run_refuses_an_unknown_move_release(tmp_path: Path) -> None:
    assert_one_line_error(dehla("ladder", "run", "--matches", "1", "--release", "soon", data=tmp_path),
                          "'--release': 'soon' is not one of 'on-reply', 'slot-end'")


def test_selfplay_refuses_an_endless_number_of_hands() -> None:
    assert_one_line_error(dehla("selfplay", "--hands", "100000000000000000000"),
                          "'--hands': 100000000000000000000 is not in the range 1<=x<=1000000")
    assert_one_line_error(dehla("selfplay", "--hands", "1e20"), "'--hands'")


def write_manifest(folder: Path, content: bytes) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "bot.toml").write_bytes(content)
    (folder / "bot.py").write_text("")
    return folder


BAD_MANIFESTS = [
    (GOOD_MANIFEST.replace('"A"', '"\xe9"').encode("latin-1"), "not UTF-8 text (byte"),
    (GOOD_MANIFEST.encode() + b"x = " + b"[" * 5000 + b"]" * 5000 + b"\n", "nested too deeply to read"),
    (GOOD_MANIFEST.replace('"bot.py"', '"bot\\u0000.py"').encode(), "command.1: contains a NUL byte"),
]


@pytest.mark.parametrize(("content", "message"), BAD_MANIFESTS)
def test_manifest_refuses_bad_encoding_deep_nesting_and_nul_bytes(
        tmp_path: Path, content: bytes, message: str) -> None:
    with pytest.raises(ManifestError, match=re.escape(message)):
        load_manifest(write_manifest(tmp_path / "ace", content))


@pytest.mark.parametrize(("content", "message"), BAD_MANIFESTS)
def test_match_and_submit_refuse_a_bad_manifest_in_one_line(tmp_path: Path, content: bytes, message: str) -> None:
    folder = write_manifest(tmp_path / "ace", content)
    assert_one_line_error(dehla("match", str(folder), "random", "--deals", "1", data=tmp_path / "data"),
                          f"{folder / 'bot.toml'}: {message}")
    submit = dehla("submit", str(folder), "--runner", "local", data=tmp_path / "data")
    assert_one_line_error(submit, f"{folder / 'bot.toml'}: {message}")


def test_usage_errors_are_one_line_from_a_real_process() -> None:
    assert_one_line_error(dehla_process("score"), "Missing argument 'RECORD'")
    assert_one_line_error(dehla_process("match", "random", "random", "--deals", "0"), "'--deals'")


def test_match_writes_its_record_into_the_data_folder_and_prints_where(tmp_path: Path) -> None:
    work, data = tmp_path / "work", tmp_path / "data"
    work.mkdir()
    out = dehla("match", "random", "random", "--deals", "1", cwd=work, data=data)
    assert out.returncode == 0, out.stderr
    assert list(work.iterdir()) == []  # nothing written where it ran
    records = list((data / "local-matches").glob("*.jsonl"))
    assert len(records) == 1
    assert f"record: {records[0]}" in out.stdout
    chosen = tmp_path / "chosen"
    by_option = dehla("match", "random", "random", "--deals", "1", "--data", str(chosen), "--json", cwd=work)
    assert by_option.returncode == 0, by_option.stderr
    record = Path(json.loads(by_option.stdout)["record"])
    assert record.parent == chosen / "local-matches" and record.is_file()
    assert list(work.iterdir()) == []


def test_score_and_replay_read_records_written_before_schema_version() -> None:
    records = Path(__file__).resolve().parents[1] / "records"
    score = dehla("score", str(records / "hand-before-schema-version.json"))
    assert score.returncode == 0, score.stderr
    replay = dehla("replay", str(records / "match-before-schema-version.jsonl"))
    assert replay.returncode == 0, replay.stderr
    assert replay.stdout.count("result: team") == 2
