"""What a new user sees first: the README's main command, and an empty store."""

from __future__ import annotations

import json
import re
import shlex
import shutil
from pathlib import Path

from tests.coordinator_helpers import dehla

README = Path(__file__).resolve().parents[2] / "README.md"
RANKING_COMMANDS = (("ladder", "run"), ("ladder", "show"))
"""``ladder run`` ends by printing the rankings; ``ladder show`` prints them."""


def first_command() -> list[list[str]]:
    """The README's first command line, as the argument lists of its ``&&``-joined commands."""
    block = re.search(r"```bash\n(.*?)\n", README.read_text(encoding="utf-8"))
    assert block, "the README starts with a bash block"
    return [shlex.split(part) for part in block[1].split("&&")]


def test_the_readme_main_command_prints_the_rankings_once() -> None:
    commands = first_command()
    assert any(c[0].endswith("dehla") and c[1:2] == ["submit"] for c in commands), commands
    printing = [c for c in commands if c[0].endswith("dehla") and tuple(c[1:3]) in RANKING_COMMANDS]
    assert len(printing) == 1, printing


def test_an_empty_store_says_how_to_submit_instead_of_empty_tables(tmp_path: Path) -> None:
    data = tmp_path / "arena"
    for command in (("ladder", "show"), ("bots",)):
        out = dehla(*command, data=data)
        assert out.returncode == 0, out.stderr
        shown = re.fullmatch(f"no bots submitted yet in {re.escape(str(data.resolve()))}: `(.+) submit FOLDER` "
                             r"\(a folder with a bot.toml\) or `(.+) submit --sample random --sample heuristic`\n",
                             out.stdout)
        assert shown is not None and shown[1] == shown[2], out.stdout
        assert shown[1] == "dehla" or shutil.which(shlex.split(shown[1])[0]), "the hint runs as printed"
        assert json.loads(dehla(*command, "--json", data=data).stdout) == []  # scripts still get JSON
