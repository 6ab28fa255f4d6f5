"""Text from bots, manifests, records and the store is printed literally by every command.

``HOSTILE`` holds Rich markup (``[/bold]`` crashed the old printing with ``MarkupError``,
``[link=...]`` injected a link), an emoji code, and terminal control sequences (clear the
screen, set the window title, a one-byte C1 CSI, a carriage return that overwrites the line, a
right-to-left override). Every check runs a real command and looks for the text shown as it is,
with each control character as a visible escape and no raw control byte in the output.

The first test runs ``dehla match`` and ``dehla replay`` as real processes (the output a terminal
gets from the real entry point); the others run the command in this process
(``tests.cli_helpers.run_dehla`` or ``CliRunner``): the subject is the text printed, which
``arena.cli.main`` prints here as it does under ``python -m arena`` (the same ``LazyGroup.main``,
program name and environment, ``COLUMNS`` included; a traceback fails the test).
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from sqlalchemy import select, update

from arena.cli import main
from arena.console.text import visible
from arena.engine.hand_records import hand_record
from arena.engine.rules import rules_for
from arena.engine.selfplay import selfplay_hands
from ladder.coordinator.loop import StopRule
from ladder.store.schema import Bot, BotVersion, Match
from tests.cli_helpers import run_dehla
from tests.ladder_helpers import add_bots, make_run, open_store

HOSTILE = "[/bold] [link=https://e.vil/]x[/link] :cat: \x1b[2J \x1b]0;owned\x07 \x9b31m \r \u202egnp"
SHOWN = visible(HOSTILE)
"""What the terminal must show: ``\\x1b[2J`` as eight visible characters, and so on."""
RAW_CONTROLS = ("\x1b", "\x07", "\x9b", "\r", "\u202e")


def assert_literal(output: str, shown: str = SHOWN) -> None:
    """Every word of ``shown`` appears as it is, and no raw control character at all."""
    for control in RAW_CONTROLS:
        assert control not in output, f"raw {control!r} reached the terminal"
    assert "🐱" not in output, "an emoji code was interpreted"
    for word in shown.split():
        assert word in output, (word, output)


def dehla_process(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, COLUMNS="400")
    return subprocess.run([sys.executable, "-m", "arena", *args], capture_output=True, text=True, timeout=180,
                          check=False, cwd=cwd, env=env)


def dehla(*args: str) -> subprocess.CompletedProcess[str]:
    return run_dehla(*args, env=dict(os.environ, COLUMNS="400"))


def test_match_and_replay_print_a_bots_fault_text_and_name_literally(tmp_path: Path) -> None:
    # The bot's spec (its display name) and its error text (the fault's detail) carry HOSTILE.
    spec = f"{sys.executable} -m tests.bots.raises --at 2 --message {shlex.quote(HOSTILE)}"
    out = dehla_process("match", spec, "random", "--deals", "1", "--records", str(tmp_path), cwd=Path.cwd())
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr and "MarkupError" not in out.stderr
    assert "fault: seat" in out.stdout and "crash" in out.stdout
    assert_literal(out.stdout)
    record = next(tmp_path.glob("*.jsonl"))
    replay = dehla_process("replay", str(record))
    assert replay.returncode == 0, replay.stderr
    assert "fault: seat" in replay.stdout and "crash" in replay.stdout
    assert_literal(replay.stdout)


def hostile_match_record(path: Path) -> Path:
    """A record whose every printed free-text field (ids, names, actions, fault details) is
    HOSTILE; its hand still replays. Closed sets (fault kinds, statuses) are validated as such:
    a HOSTILE one is refused, as the next test shows."""
    state, _ = next(iter(selfplay_hands(rules_for("dehla-pakad"), 1, seed=5)))
    hand = hand_record(state)
    decisions = [{"seat": seat, "action": f"{action} {HOSTILE}", "ms": 1.0, "fault": "crash"}
                 for seat, action in state.history]
    lines = [
        {"type": "match_start", "match_id": HOSTILE, "preset": HOSTILE, "format": HOSTILE, "seed": 1,
         "seats": [HOSTILE] * 4},
        {"type": "hand", "index": 0, "record": hand, "decisions": decisions},
        {"type": "match_end", "status": "void", "winner_team": 0, "score": [1, 0],
         "faults": [{"seat": 0, "kind": "crash", "detail": HOSTILE}]},
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def test_replay_prints_every_field_of_a_hostile_record_literally(tmp_path: Path) -> None:
    out = dehla("replay", str(hostile_match_record(tmp_path / "hostile.jsonl")))
    assert out.returncode == 0, out.stderr
    assert_literal(out.stdout)
    assert out.stdout.count(SHOWN.split()[0]) >= 10  # start, seats, decisions, end, fault


@pytest.mark.parametrize("field", ["fault", "kind", "status"])
def test_replay_refuses_a_hostile_value_where_a_closed_set_belongs_in_one_escaped_line(
        tmp_path: Path, field: str) -> None:
    path = hostile_match_record(tmp_path / "hostile.jsonl")
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    if field == "fault":
        lines[1]["decisions"][0]["fault"] = HOSTILE
    elif field == "kind":
        lines[2]["faults"][0]["kind"] = HOSTILE
    else:
        lines[2]["status"] = HOSTILE
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    out = dehla("replay", str(path))
    assert out.returncode == 2 and out.stderr.startswith("error: ") and len(out.stderr.splitlines()) == 1
    assert not [control for control in RAW_CONTROLS if control in out.stderr]


def test_a_rejected_submission_shows_the_bots_output_literally(tmp_path: Path) -> None:
    folder = tmp_path / "noisy"
    folder.mkdir()
    (folder / "bot.toml").write_text('name = "noisy"\nversion = "1"\nauthor = "t"\ncommand = ["python", "bot.py"]\n')
    (folder / "bot.py").write_text(f"import sys\nprint({HOSTILE!r}, file=sys.stderr)\nsys.exit(4)\n")
    out = dehla("submit", str(folder), "--runner", "local", "--data", str(tmp_path / "arena"))
    assert out.returncode == 2
    assert "rejected" in out.stderr and "Traceback" not in out.stderr
    assert_literal(out.stderr)


@pytest.fixture(scope="module")
def hostile_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store with two bots and rated matches, whose bot name, author, version label and record
    paths have been made HOSTILE (as a tampered or hostile store would hold)."""
    root = tmp_path_factory.mktemp("arena")
    store = open_store(root)
    add_bots(store, ["s1", "s2"], root / "src")
    make_run(store).run(StopRule(matches=2))
    with store.transaction() as session:
        session.execute(update(Bot).where(Bot.name == "s1").values(name=HOSTILE, author=HOSTILE))
        session.execute(update(BotVersion).values(label=HOSTILE))
        session.execute(update(Match).values(record_path=HOSTILE))
        assert session.scalar(select(Bot.id).where(Bot.name == HOSTILE)) is not None
    store.close()
    return root


def invoke(*args: str) -> Result:
    result = CliRunner().invoke(main, list(args), env={"COLUMNS": "400"})
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


@pytest.mark.parametrize("command", [
    ("bots",), ("ladder", "show"), ("ladder", "show", "--all"), ("ladder", "matches"),
    ("ladder", "matches", "--bot", HOSTILE), ("ladder", "history", HOSTILE), ("ladder", "partnerships"),
])
def test_ladder_tables_print_stored_text_literally(hostile_store: Path, command: tuple[str, ...]) -> None:
    result = invoke(*command, "--data", str(hostile_store))
    assert result.exit_code == 0, result.output
    if command[-1] == "partnerships":  # names only as NAME#N+NAME#N
        assert_literal(result.output, visible(f"{HOSTILE}#1"))
    else:
        assert_literal(result.output)


def test_an_error_line_shows_the_text_it_names_literally(tmp_path: Path) -> None:
    path = str(tmp_path / HOSTILE)
    result = invoke("score", path)
    assert result.exit_code == 2
    assert_literal(result.output, visible(path))
    assert result.output.count("\n") == 1
