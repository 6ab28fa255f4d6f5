"""Rewrite the golden transcripts in ``tests/golden/`` after an intended change.

Usage: ``python tools/regen_golden.py`` rewrites every preset's transcript and removes files of
presets that no longer exist; ``--check`` only reports (exit 1 when a file would change).
The transcript itself is made by ``tests/golden_transcript.py``, the same code the test uses.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.golden_transcript import GOLDEN_DIR, GOLDEN_PRESETS, golden_path, transcript  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="report differences, write nothing")
    args = parser.parse_args(argv)
    wanted = {golden_path(preset): transcript(preset) for preset in GOLDEN_PRESETS}
    stale = sorted(set(GOLDEN_DIR.glob("*.txt")) - set(wanted))
    changed = [p for p, text in wanted.items() if not p.exists() or p.read_text(encoding="utf-8") != text]
    for path in changed:
        print(f"{'differs' if args.check else 'wrote'}: {path.relative_to(ROOT)}")
    for path in stale:
        print(f"{'stale' if args.check else 'removed'}: {path.relative_to(ROOT)}")
    if not changed and not stale:
        print(f"golden transcripts up to date ({len(wanted)} files)")
        return 0
    if args.check:
        return 1
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    for path in changed:
        path.write_text(wanted[path], encoding="utf-8", newline="\n")
    for path in stale:
        path.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
