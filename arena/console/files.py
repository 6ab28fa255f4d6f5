"""Reading record files for the commands: the I/O around the engine's pure record parsing."""

from __future__ import annotations

from pathlib import Path

from arena.engine.errors import RecordError
from arena.engine.hand import HandState
from arena.engine.hand_records import parse_json, replay_record


def read_record_text(path: Path) -> str:
    """A record file's text; unreadable or non-UTF-8 content is a ``RecordError``."""
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"{path}: cannot read ({exc.strerror})") from None
    except UnicodeDecodeError as exc:
        raise RecordError(f"{path}: not UTF-8 text (byte {exc.start})") from None


def load_record(path: Path) -> HandState:
    """Read and replay a hand record file; every failure is a ``RecordError`` naming the problem."""
    return replay_record(parse_json(read_record_text(path), str(path)))
