"""What a new user finds in the checkout: the rules page the docs point to, and no stray files."""

from __future__ import annotations

import re
import subprocess
from enum import StrEnum
from pathlib import Path

from arena.engine import rules

ROOT = Path(__file__).resolve().parents[2]
RULES_PAGE = ROOT / "docs" / "rules.md"
READ_BY_USERS = ("README.md", "docs", "arena", "ladder", "sdk", "sample_bots", "protocol", "tests", "tools", "bench",
                 "scripts", "docker", "pyproject.toml")


def tracked(*paths: str) -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "-z", "--", *paths], cwd=ROOT, capture_output=True, check=True)
    return [ROOT / name for name in listed.stdout.decode().split("\0") if name]


def test_no_reference_points_outside_the_repository_for_the_rules() -> None:
    """The rules were read from ``shared/docs/rules.md``, which is not part of the repository."""
    found = [str(path.relative_to(ROOT)) for path in tracked(*READ_BY_USERS)
             if path.is_file() and path != Path(__file__) and b"shared/docs" in path.read_bytes()]
    assert found == []


def test_the_rules_page_names_every_preset_option_and_value() -> None:
    page = RULES_PAGE.read_text(encoding="utf-8")
    missing = [f"preset {name}" for name in rules.PRESETS if f"`{name}`" not in page]
    missing += [f"option {name}" for name in rules.OPTION_NAMES if f"`{name}`" not in page]
    for option in rules.OPTION_NAMES:
        kind = rules.Rules.__annotations__[option]
        enum = getattr(rules, re.sub(r" \| None$", "", kind), None)
        if isinstance(enum, type) and issubclass(enum, StrEnum):
            missing += [f"{option}={member.value}" for member in enum if f"`{member.value}`" not in page]
    assert missing == []


def test_every_link_to_the_rules_page_finds_it() -> None:
    linking = [path for path in tracked("README.md", "docs") if path.suffix == ".md"
               and "rules.md" in path.read_text(encoding="utf-8")]
    assert linking and RULES_PAGE.is_file()


def test_the_root_holds_no_empty_stray_file() -> None:
    """An empty ``oom`` sat at the root (a stray shell redirection, committed by a merge)."""
    stray = [path.name for path in tracked(".") if path.parent == ROOT and path.stat().st_size == 0]
    assert stray == []
