"""Write the published JSON Schemas of the hand record and the match record lines into docs/.

The schemas are generated from the models (``arena.engine.hand_records.HandRecord``,
``arena.engine.bidding_records.BiddingHandRecord`` (Twenty-eight, Twenty-nine),
``arena.referee.match_record_lines.MATCH_RECORD_LINE``) and never edited by hand;
``tests/engine/test_record_schema.py`` fails when a committed schema differs from this output.

    python tools/gen_schemas.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from arena.engine.bidding_records import BiddingHandRecord  # noqa: E402
from arena.engine.hand_records import HandRecord  # noqa: E402
from arena.referee.match_record_lines import MATCH_RECORD_LINE  # noqa: E402

DOCS = ROOT / "docs"
DIALECT = "https://json-schema.org/draft/2020-12/schema"


def schemas() -> dict[str, str]:
    """Each schema file's name and its exact text."""
    hand = {"$schema": DIALECT, **HandRecord.model_json_schema()}
    line = {"$schema": DIALECT, "title": "Dehla match record line", **MATCH_RECORD_LINE.json_schema()}
    bidding = {"$schema": DIALECT, **BiddingHandRecord.model_json_schema()}
    return {"hand-record.schema.json": _text(hand), "bidding-hand-record.schema.json": _text(bidding),
            "match-record.schema.json": _text(line)}


def _text(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=2) + "\n"


def main() -> None:
    for name, text in schemas().items():
        (DOCS / name).write_text(text, encoding="utf-8")
        print(f"wrote docs/{name}")


if __name__ == "__main__":
    main()
