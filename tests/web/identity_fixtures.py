"""A played ladder with authors: asha owns ``random`` (hostile text in its log, label, evidence and
uploads), ``heuristic`` has no owner, bilal owns nothing, omar is an operator."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx2 as httpx
from sqlalchemy import select, update

from ladder.admin.authors import add_author
from ladder.store.database import Store
from ladder.store.paths import ArenaData
from ladder.store.schema import Bot, BotVersion, Match, Upload, UploadStatus
from ladder.submission.intake import log_path
from tests.web_helpers import copied_ladder, match_file, put_match_file, serving

SCRIPT = '<script>alert("dehla")</script>'
LOG_LINE = f"asha's secret plan {SCRIPT}"
ROOM1_LOG_LINE = f"asha's secret plan, second plays {SCRIPT}"
"""Her bot's log in the match's second room (a duplicate match has two: the same seat, another process)."""
EVIDENCE = f"log tail: asha's evidence {SCRIPT}"
OTHER_EVIDENCE = "log tail: the unowned bot's evidence"
UPLOAD_OUTPUT = f"asha's upload output {SCRIPT}"
QUEUE_OFF = ("--validations", "0")
"""The seeded uploads have no archives: a service validating them would reject the pending one
while a test reads it."""
CSRF_INPUT = re.compile(r'name="csrf_token" value="([^"]+)"')


@dataclass(frozen=True)
class Ladder:
    data: ArenaData
    tokens: dict[str, str]
    match_id: int
    asha_seat: int
    other_seat: int
    """A seat of the same match held by ``heuristic`` (no owner)."""
    asha_version: int
    asha_rejected_upload: int
    """Its validation output (``UPLOAD_OUTPUT``) is in the upload's log."""


def authored_ladder(played: ArenaData, root: Path, extra_authors: tuple[str, ...] = ()) -> Ladder:
    data = copied_ladder(played, root)
    store = Store.open(data)
    tokens = {name: add_author(store, name).token for name in ("asha", "bilal", *extra_authors)}
    from ladder.store.schema import Role  # noqa: PLC0415 - only the operator needs it

    tokens["omar"] = add_author(store, "omar", role=Role.OPERATOR).token
    with store.transaction() as session:
        asha = session.scalar(select(Bot.id).where(Bot.name == "random"))
        owner = session.scalar(select(Bot.owner_id).where(Bot.name == "random"))
        assert owner is None
        session.execute(update(Bot).where(Bot.name == "random").values(owner_id=_author_id(tokens["asha"])))
        session.execute(update(BotVersion).where(BotVersion.bot_id == asha).values(label=SCRIPT[:64]))
        version = session.scalars(select(BotVersion).where(BotVersion.bot_id == asha)).one()
        matches = list(session.scalars(select(Match).order_by(Match.id)))
        match = next(m for m in matches if version.id in m.seats and set(m.seats) - {version.id})
        asha_seat = match.seats.index(version.id)
        other_seat = next(seat for seat, vid in enumerate(match.seats) if vid != version.id)
        rejected = Upload(author_id=_author_id(tokens["asha"]), status=UploadStatus.REJECTED, bot_name="random",
                          reason=f"validation match 1 (four seats): seat 0 crash: {SCRIPT}", size_bytes=1234)
        session.add_all([
            rejected,
            Upload(author_id=_author_id(tokens["asha"]), status=UploadStatus.ACCEPTED, bot_name="random",
                   version_id=version.id, content_hash=version.content_hash, size_bytes=2048),
            Upload(author_id=_author_id(tokens["asha"]), status=UploadStatus.PENDING, bot_name=SCRIPT[:32],
                   size_bytes=99),
            Upload(author_id=_author_id(tokens["bilal"]), status=UploadStatus.REJECTED, bot_name="bilals",
                   reason="bilal's own reason", size_bytes=10),
        ])
        session.flush()
        record = match.record_path or ""
        ids = (match.id, version.id, version.content_hash, rejected.id)
    store.close()
    put_match_file(data, ids[0], f"{record.removesuffix('.jsonl')}.seat{asha_seat}.log", (LOG_LINE + "\n").encode())
    put_match_file(data, ids[0], f"{record.removesuffix('.jsonl')}.room1.seat{asha_seat}.log",
                   (ROOM1_LOG_LINE + "\n").encode())
    (data.validation / ids[2][:12] / "validate-self.seat0.log").write_text(f"validation says {SCRIPT}\n")
    log_path(data, ids[3]).parent.mkdir(parents=True, exist_ok=True)
    log_path(data, ids[3]).write_text(UPLOAD_OUTPUT + "\n")
    lines = [json.loads(line) for line in match_file(data, ids[0], record).splitlines()]
    for line in lines:
        if line["type"] == "match_end":
            line["faults"] = [{"seat": asha_seat, "kind": "crash", "detail": "exit code 1", "evidence": EVIDENCE},
                              {"seat": other_seat, "kind": "crash", "detail": "exit code 2",
                               "evidence": OTHER_EVIDENCE}]
    put_match_file(data, ids[0], record, "".join(json.dumps(line) + "\n" for line in lines).encode())
    return Ladder(data, tokens, ids[0], asha_seat, other_seat, ids[1], ids[3])


def _author_id(token: str) -> int:
    return int(token.split("_")[1])


def csrf_of(page: httpx.Response) -> str:
    found = CSRF_INPUT.search(page.text)
    assert found is not None, page.text[:500]
    return found.group(1)


def signed_in(url: str, token: str) -> httpx.Client:
    """A client (a browser, as far as the service can tell) signed in with ``token``."""
    client = httpx.Client(base_url=url, timeout=10)
    answer = client.post("/signin", data={"csrf_token": csrf_of(client.get("/signin")), "token": token})
    assert answer.status_code == 303, answer.text
    assert answer.headers["location"] == "/me"
    return client


@dataclass(frozen=True)
class Served:
    ladder: Ladder
    url: str


@contextmanager
def served_ladder(played: ArenaData, root: Path, extra_authors: tuple[str, ...] = ()) -> Iterator[Served]:
    """An authored copy of the played ladder behind a real ``dehla serve`` (its queue off)."""
    ladder = authored_ladder(played, root, extra_authors)
    with serving(ladder.data.root, *QUEUE_OFF) as url:
        yield Served(ladder, url)
