"""Fuzzing every command's arguments and input files (hypothesis, derandomized, bounded).

Each run asserts: no exception other than ``SystemExit`` (click's ``CliRunner`` captures a
traceback as ``result.exception``), exit code 0 or 2, a refusal is one ``error:`` line, and the
data folder (the store's rows, submitted bots, records) is unchanged afterwards. Commands run
in-process for speed; a few real subprocess runs check the same from the outside.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import subprocess
import sys
from itertools import count
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.cli import main
from arena.engine.hand_records import hand_record
from arena.engine.rules import PRESETS, rules_for
from arena.engine.selfplay import selfplay_hands
from ladder.coordinator.loop import StopRule
from tests.ladder_helpers import add_bots, make_run, open_store

EXAMPLES = int(os.environ.get("DEHLA_FUZZ_EXAMPLES", "30"))
"""Examples per command; ``DEHLA_FUZZ_EXAMPLES=1000`` for a longer hunt."""
FUZZ = settings(max_examples=EXAMPLES, derandomize=True, database=None, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
UNSTORED = ("validation", "samples")
"""Data subfolders a refused submission may write: its validation logs, the samples' folder forms."""

INTERESTING = ["", " ", "0", "-1", "1", "nan", "inf", "-inf", "1e308", "1e20", "99999999999999999999", "0x10",
               "[/bold]", "[link=https://e.vil/]x", "\x1b[2J", "\udcff", "random", "s1", "s1#1", "s1#x",
               "a+b+c", "random+random", "../..", "/proc/1", "/dev/null", "dehla-pakad", "kots:1", "hands:0",
               "duplicate:0", "trump=hidden", "reveal=on_request", "x=y", "=", "direction=sideways"]
argument = st.one_of(st.sampled_from(INTERESTING),
                     st.text(st.characters(blacklist_characters="\x00", blacklist_categories=["Cs"]), max_size=12))
"""Command-line text: anything but a NUL byte (which no real argv can carry)."""
json_value = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
                          lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                                      max_size=3),
                          max_leaves=8)


def data_digest(root: Path) -> str:
    """The store's rows (an SQL dump, so that a checkpoint of the WAL does not count as a change)
    and every other file's path and bytes."""
    digest = hashlib.sha256()
    database = root / "ladder.db"
    if database.exists():
        with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as connection:
            for statement in connection.iterdump():
                digest.update(statement.encode())
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root)
        if relative.parts[0] in UNSTORED or relative.name.startswith("ladder.db") or not path.is_file():
            continue
        digest.update(str(relative).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data folder with two submitted bots and two rated matches."""
    root = tmp_path_factory.mktemp("arena")
    store = open_store(root)
    add_bots(store, ["s1", "s2"], tmp_path_factory.mktemp("src"))
    make_run(store).run(StopRule(matches=2))
    store.close()
    return root


def run(args: list[str], data: Path | None = None) -> Result:
    """``dehla ARGS`` in-process, checked for the invariants above."""
    before = data_digest(data) if data is not None else ""
    result = CliRunner().invoke(main, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), (args, result.exception)
    assert result.exit_code in (0, 2), (args, result.exit_code, result.output)
    assert "Traceback" not in result.output, args
    if result.exit_code == 2:
        assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1, (args, result.stderr)
    if data is not None:
        assert data_digest(data) == before, ("the data folder changed", args)
    return result


def valid_record() -> dict[str, Any]:
    state, _ = next(iter(selfplay_hands(rules_for("dehla-pakad"), 1, seed=3)))
    return hand_record(state)


def mutated(record: Any, path: list[Any], value: Any) -> Any:
    """``record`` with the item at the first usable step of ``path`` replaced by ``value``
    (or deleted, when ``value`` is the string ``"<delete>"``)."""
    if not path or not isinstance(record, dict | list) or not record:
        return value
    keys = list(record) if isinstance(record, dict) else list(range(len(record)))
    key = keys[path[0] % len(keys)]
    copy = dict(record) if isinstance(record, dict) else list(record)
    if len(path) == 1 and value == "<delete>":
        del copy[key]
        return copy
    copy[key] = mutated(record[key], path[1:], value)
    return copy


mutated_record = st.builds(lambda p, v: json.dumps(mutated(valid_record(), p, v)).encode(),
                           st.lists(st.integers(0, 60), min_size=1, max_size=4), json_value | st.just("<delete>"))
file_content = st.one_of(
    mutated_record, mutated_record, mutated_record,
    st.binary(max_size=64),
    st.integers(1, 3000).map(lambda depth: ("[" * depth + "]" * depth).encode()),
    json_value.map(lambda value: json.dumps(value).encode()),
)

files = count()


def write_file(folder: Path, content: bytes, suffix: str = ".json") -> Path:
    path = folder / f"f{next(files)}{suffix}"
    path.write_bytes(content)
    return path


@FUZZ
@given(content=file_content)
def test_fuzz_score(tmp_path: Path, content: bytes) -> None:
    run(["score", str(write_file(tmp_path, content))])


def match_record_lines() -> list[dict[str, Any]]:
    record = valid_record()
    return [{"type": "match_start", "match_id": "m1", "preset": "dehla-pakad", "format": "duplicate:1", "seed": 1,
             "seats": ["a", "b", "a", "b"]},
            {"type": "hand", "index": 0, "record": record,
             "decisions": [{"seat": s, "action": a["action"], "ms": 1.5, "fault": None}
                           for s, a in ((a["seat"], a) for a in record["actions"])]},
            {"type": "match_end", "status": "done", "winner_team": 0, "score": [1, 0],
             "faults": [{"seat": 1, "kind": "crash", "detail": "boom"}]}]


mutated_match_record = st.builds(
    lambda p, v: "\n".join(json.dumps(line) for line in mutated(match_record_lines(), p, v)).encode(),
    st.lists(st.integers(0, 60), min_size=1, max_size=5), json_value | st.just("<delete>"))
replay_content = st.one_of(mutated_match_record, mutated_match_record, mutated_match_record, file_content)


@FUZZ
@given(content=replay_content)
def test_fuzz_replay(tmp_path: Path, content: bytes) -> None:
    run(["replay", str(write_file(tmp_path, content, ".jsonl"))])


def options(**choices: st.SearchStrategy[str]) -> st.SearchStrategy[list[str]]:
    """Some of ``--NAME VALUE`` for the given options, in any order."""
    pairs = [st.tuples(st.just(f"--{name.replace('_', '-')}"), values) for name, values in choices.items()]
    return st.lists(st.one_of(*pairs), max_size=4).map(lambda chosen: [part for pair in chosen for part in pair])


small_count = st.one_of(st.integers(1, 4).map(str), argument)
preset = st.one_of(st.sampled_from(list(PRESETS)), argument)
rule_option = st.one_of(st.sampled_from(["direction=anticlockwise", "trump=hidden", "deck=full52"]), argument)


@FUZZ
@given(args=options(hands=small_count, preset=preset, option=rule_option, seed=argument,
                    records=st.sampled_from(["recs", "/proc/1", "/dev/null", "f"])),
       as_json=st.booleans())
def test_fuzz_selfplay_and_rules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str],
                                 as_json: bool) -> None:
    monkeypatch.chdir(tmp_path)  # relative --records land in this example's folder
    (tmp_path / "f").touch()
    hands = ["--hands", "3"] if "--hands" not in args else []
    run(["selfplay", *hands, *args, *(["--json"] if as_json else [])])
    run(["rules", *(["--json"] if as_json else [])])


partnership = st.one_of(st.sampled_from(["random", "random+random", "s1", "s1#1", "random+s2"]), argument)
"""Mostly bots that exist, so that the fuzz reaches the checks after the bots'."""


@FUZZ
@given(a=partnership, b=partnership,
       args=options(deals=small_count, format=argument, seed=argument, preset=preset, option=rule_option,
                    policy=st.sampled_from(["forfeit", "substitute", "x"]), per_move=argument, bank=argument,
                    runner=st.sampled_from(["local", "sandbox", "docker", "x"])))
def test_fuzz_match_options_never_play_when_refused(data: Path, a: str, b: str, args: list[str]) -> None:
    # The last --records is unwritable, so a match whose options are all good is refused after
    # every other check and before any bot starts: the fuzz reaches every check but never plays.
    result = run(["match", a, b, *args, "--data", str(data), "--records", "/proc/self/fuzz"], data)
    assert result.exit_code == 2


toml_value = st.one_of(st.text(max_size=10), st.integers(), st.floats(allow_nan=False, allow_infinity=False),
                       st.lists(st.text(max_size=6), max_size=3), st.sampled_from(["ace", "1.0", "\x00", "a\nb"]))
def mostly(good: Any, fuzz: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """A good value two times in three, so that the fuzz gets past one field to the next."""
    return st.one_of(st.just(good), st.just(good), fuzz)


manifest_fields = st.fixed_dictionaries(
    {"name": mostly("ace", st.one_of(st.sampled_from(["s1", "Ace", "a"]), toml_value)),
     "version": mostly("1.0", toml_value), "author": mostly("A", toml_value),
     "command": mostly(["./missing-bot"], st.one_of(st.just(["./missing\x00bot"]), st.just([]), toml_value))},
    optional={"description": toml_value, "extra": toml_value,
              "resources": st.dictionaries(st.sampled_from(["memory_mb", "cpus", "processes", "x"]),
                                           st.integers(-10, 10**6), max_size=2)})


def toml_text(fields: dict[str, Any]) -> bytes:
    """TOML for the fields (JSON's strings, numbers and arrays are TOML's too); a table last."""
    lines = [f"{key} = {json.dumps(value, ensure_ascii=False)}" for key, value in fields.items() if key != "resources"]
    if "resources" in fields:
        lines += ["[resources]", *(f"{key} = {value}" for key, value in fields["resources"].items())]
    return "\n".join(lines).encode() + b"\n"


manifest_content = st.one_of(manifest_fields.map(toml_text), st.binary(max_size=64),
                             st.integers(1, 5000).map(lambda depth: b"x = " + b"[" * depth + b"]" * depth))


@settings(FUZZ, max_examples=2 * EXAMPLES)
@given(content=manifest_content)
def test_fuzz_submit_and_match_a_bot_folder(data: Path, tmp_path: Path, content: bytes) -> None:
    folder = tmp_path / f"bot{next(files)}"
    folder.mkdir()
    (folder / "bot.toml").write_bytes(content)
    (folder / "bot.py").write_text("raise SystemExit(3)\n")
    # No fuzzed manifest names a program that exists, so no submission is accepted.
    assert run(["submit", str(folder), "--runner", "local", "--data", str(data)], data).exit_code == 2
    assert run(["match", str(folder), "random", "--data", str(data), "--records", "/proc/self/fuzz"],
               data).exit_code == 2


@FUZZ
@given(samples=st.lists(argument.filter(lambda name: name not in ("random", "heuristic", "search")), max_size=2),
       folder=st.one_of(st.none(), argument))
def test_fuzz_submit_arguments(data: Path, samples: list[str], folder: str | None) -> None:
    args = ["submit", *([folder] if folder is not None else [])]
    for sample in samples:
        args += ["--sample", sample]
    run([*args, "--runner", "local", "--data", str(data)], data)


@FUZZ
@given(command=st.sampled_from([["bots"], ["ladder", "show"], ["ladder", "partnerships"], ["ladder", "matches"],
                                ["ladder", "history"], ["ladder"]]),
       extra=st.lists(st.one_of(argument, st.sampled_from(["--json", "--all", "--limit", "--bot", "s1"])),
                      max_size=3))
def test_fuzz_ladder_views(data: Path, command: list[str], extra: list[str]) -> None:
    run([*command, *extra, "--data", str(data)], data)


@FUZZ
@given(name=argument, author=argument, parent=st.sampled_from(["here", "f", "/proc/1", "/dev/null"]))
def test_fuzz_bot_new(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, author: str,
                      parent: str) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "f").touch()
    run(["bot", "new", name, "--dir", parent, "--author", author])


@pytest.mark.parametrize("args", [
    ["score", "\udcff"], ["replay", "/dev/null/x"], ["selfplay", "--hands", "1e20"],
    ["match", "random", "random", "--bank", "nan", "--data", "{data}"],
    ["ladder", "history", "\udcff", "--data", "{data}"],
    ["submit", "/proc/1", "--runner", "local", "--data", "{data}"],
])
def test_real_processes_refuse_in_one_line(data: Path, args: list[str]) -> None:
    """The same invariants from outside, with a non-UTF-8 argument as a shell passes it (bytes)."""
    before = data_digest(data)
    argv = [os.fsencode(arg.replace("{data}", str(data))) for arg in [sys.executable, "-m", "arena", *args]]
    out = subprocess.run(argv, capture_output=True, timeout=60, check=False)
    stderr = out.stderr.decode("utf-8", "replace")
    assert out.returncode == 2, stderr
    assert stderr.startswith("error: ") and stderr.count("\n") == 1 and "Traceback" not in stderr, stderr
    assert data_digest(data) == before
