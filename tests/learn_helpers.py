"""Helpers of the learning environments' tests (tests/learn/)."""

from __future__ import annotations

import re
from pathlib import Path

DOCS = Path(__file__).resolve().parents[1] / "docs" / "learning.md"


def documented_blocks(heading: str) -> tuple[list[tuple[str, tuple[int, ...]]], str]:
    """The layout table under ``heading`` in docs/learning.md (to the next heading), and its text."""
    text = DOCS.read_text(encoding="utf-8")
    section = text[text.index(heading):]
    end = section.find("\n#", 1)
    section = section if end < 0 else section[:end]
    rows = re.findall(r"^\| `(\w+)` \| \(([\d, ]+)\) \|", section, flags=re.MULTILINE)
    return [(name, tuple(int(n) for n in shape.replace(" ", "").split(",") if n)) for name, shape in rows], section
