"""``dehla`` loads the referee (gRPC) and ladder (SQLAlchemy) commands only when they are used."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from arena.engine.bidding_rules import BIDDING_PRESETS
from arena.engine.rules import PRESETS

HEAVY = ("grpc", "sqlalchemy", "fastapi", "uvicorn", "arena.referee.commands", "ladder.cli.commands",
         "ladder.cli.serve_command", "numpy")

RULES_THEN_MODULES = f"""
import json, sys
from arena.cli import main
main(["rules", "--json"], standalone_mode=False)
print(json.dumps({{name: name in sys.modules for name in {HEAVY!r}}}), file=sys.stderr)
"""


def test_rules_imports_neither_grpc_nor_sqlalchemy() -> None:
    out = subprocess.run([sys.executable, "-c", RULES_THEN_MODULES], capture_output=True, text=True, timeout=60,
                         check=False)
    assert out.returncode == 0, out.stderr
    assert set(json.loads(out.stdout)) == set(PRESETS) | set(BIDDING_PRESETS)
    loaded = json.loads(out.stderr.strip().splitlines()[-1])
    assert loaded == dict.fromkeys(HEAVY, False)


def test_help_lists_every_command() -> None:
    out = subprocess.run([sys.executable, "-m", "arena", "--help"], capture_output=True, text=True, timeout=60,
                         check=False)
    assert out.returncode == 0, out.stderr
    commands = out.stdout.split("Commands:", maxsplit=1)[1]
    listed = {line.split()[0] for line in commands.splitlines() if line.strip()}
    assert listed == {"author", "bot", "bots", "ladder", "match", "operator", "replay", "rules", "score", "selfplay",
                      "serve", "submit", "tournament", "worker"}


def test_the_command_line_hands_match_the_submitted_bot_lookup_which_loads_the_store_only_for_other_names(
        tmp_path: Path) -> None:
    script = f"""
import os, sys
os.environ["DEHLA_DATA"] = {str(tmp_path)!r}
import click
from arena.cli import main
from arena.console.data import BOT_LOOKUPS
from arena.referee import launcher
context = click.Context(main)
context.invoke(main.callback)  # the group's own callback: what it hands its subcommands
lookups = context.meta[BOT_LOOKUPS]
assert len(lookups) == 1 and "ladder.cli.lookup" not in sys.modules
launcher.resolve_bot("random", lookups)  # a sample bot: the store is not needed
assert "sqlalchemy" not in sys.modules and "ladder.cli.lookup" not in sys.modules
try:
    launcher.resolve_bot("no-such-bot", lookups)
except Exception as exc:
    assert "no-such-bot" in str(exc), exc
assert "ladder.cli.lookup" in sys.modules  # another name: the ladder's store was asked
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False)
    assert out.returncode == 0, out.stderr
