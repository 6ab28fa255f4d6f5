"""Bots' logs, and who may read them: the bot's owner and the operators, nobody else.

A bot's output (its log file, and the log tail and status text a fault keeps as evidence in the
match record) may hold anything: its strategy, its opponents' behaviour it noticed, secrets it
was given. So it is shown only to the author who owns the bot and to operators; a bot with no
owner (submitted on the arena's machine) only to operators. A match's seat logs are stored with
its record (``m000042.seat0.log`` beside ``m000042.jsonl``, ``ladder/store/match_files.py``, and
in a duplicate match the second room's ``m000042.room1.seat0.log``, shown after the first); a
version's validation logs are files under ``validation/HASH12/`` (``ladder/submission/submit.py``).
"""

from __future__ import annotations

from enum import StrEnum

from sqlalchemy import select
from sqlalchemy.orm import Session

from arena.referee.rooms import seat_log_name
from ladder.admin.authors import AuthorView
from ladder.store.database import Store
from ladder.store.match_files import DamagedFileError, StoredFile, read_stored, stored_name
from ladder.store.paths import ArenaData
from ladder.store.schema import Bot, BotVersion, Match
from ladder.submission.intake import log_path, upload_of, uploads_folder
from ladder.web.author_models import BotLogModel, LogLink
from ladder.web.data_files import DataFileError, read_inside
from ladder.web.queries import NotFoundError

LOG_SHOWN_BYTES = 512 * 1024
"""Twice the referee's log cap (``DEFAULT_LOG_CAP``): a log edited to be larger is cut here."""
WITHHELD = "shown only to the bot's author"


class LogsWithheldError(PermissionError):
    """The viewer may not read this bot's logs; the pages answer 403."""


class ValidationCheck(StrEnum):
    """The validation matches of a submission (``ladder/submission/submit.py``) and the seats the bot held."""

    SELF = "validate-self"
    RANDOM = "validate-random"

    @property
    def bot_seats(self) -> tuple[int, ...]:
        return (0, 1, 2, 3) if self is ValidationCheck.SELF else (0, 2)


def may_see_logs(viewer: AuthorView | None, owner_id: int | None) -> bool:
    """The owner and operators; nobody for the public; operators only for a bot with no owner."""
    if viewer is None:
        return False
    return viewer.is_operator or (owner_id is not None and owner_id == viewer.id)


def seat_owners(session: Session, match: Match) -> list[tuple[str, int | None]]:
    """Each seat's bot name and owner id, seat 0 first."""
    rows = dict((vid, (name, owner)) for vid, name, owner in session.execute(
        select(BotVersion.id, Bot.name, Bot.owner_id).join(Bot, Bot.id == BotVersion.bot_id)
        .where(BotVersion.id.in_(set(match.seats)))))
    return [rows[vid] for vid in match.seats]


def visible_seats(session: Session, match: Match, viewer: AuthorView | None) -> frozenset[int]:
    """The seats whose bots' logs and fault evidence ``viewer`` may see."""
    return frozenset(seat for seat, (_, owner) in enumerate(seat_owners(session, match)) if may_see_logs(viewer, owner))


def _read_log(data: ArenaData, relative: str, bot: str, source: str) -> BotLogModel:
    try:
        found = read_inside(data.root, relative, LOG_SHOWN_BYTES)
    except DataFileError as exc:
        raise NotFoundError(f"{source}: its log {exc}") from None
    return _log_model(found.content, found.size, bot, source)


def _log_model(content: bytes, size: int, bot: str, source: str) -> BotLogModel:
    return BotLogModel(bot=bot, source=source, size=size, truncated=size > len(content),
                       shown_bytes=len(content), text=content.decode("utf-8", "replace"))


def match_log(session: Session, viewer: AuthorView | None, match_id: int, seat: int) -> BotLogModel:
    """The log of the bot at ``seat`` in the match, if ``viewer`` may read it."""
    match = session.get(Match, match_id)
    if match is None:
        raise NotFoundError(f"no match {match_id}")
    if not 0 <= seat < 4:
        raise NotFoundError(f"match {match_id} has no seat {seat} (seats are 0 to 3)")
    bot, owner = seat_owners(session, match)[seat]
    if not may_see_logs(viewer, owner):
        raise LogsWithheldError(f"match {match_id}, seat {seat}: a bot's log is {WITHHELD}")
    source = f"match {match_id}, seat {seat}"
    if match.record_path is None:
        raise NotFoundError(f"{source}: the match has no record or logs yet")
    stem = stored_name(match.record_path).removesuffix('.jsonl')
    try:
        stored = [read_stored(session, match_id, seat_log_name(stem, seat, room), LOG_SHOWN_BYTES) for room in (0, 1)]
    except DamagedFileError as exc:
        raise NotFoundError(f"{source}: its log {exc}") from None
    first, second = stored
    if first is None:
        raise NotFoundError(f"{source}: its log is not in the store")
    if second is None:  # one room: a match played before rooms, or not in duplicate
        return _log_model(first.content, first.size, bot, source)
    return _rooms_log(first, second, bot, source)


ROOM_HEADINGS = (b"== room 0: each deal's first play ==\n", b"\n== room 1: each deal's second play ==\n")
"""What separates a seat's two logs in a duplicate match (two processes of the same bot, one a room)."""


def _rooms_log(first: StoredFile, second: StoredFile, bot: str, source: str) -> BotLogModel:
    """A seat's two rooms' logs, one after the other under a heading each (the same bot's, so the
    same owner's); cut where either was."""
    content = ROOM_HEADINGS[0] + first.content + ROOM_HEADINGS[1] + second.content
    size = len(ROOM_HEADINGS[0]) + first.size + len(ROOM_HEADINGS[1]) + second.size
    return _log_model(content, size, bot, source)


def validation_log(session: Session, data: ArenaData, viewer: AuthorView | None, version_id: int,
                   check: ValidationCheck, seat: int) -> BotLogModel:
    """The log of a version's bot at ``seat`` in one of its validation matches."""
    found = session.execute(select(BotVersion, Bot).join(Bot, Bot.id == BotVersion.bot_id)
                            .where(BotVersion.id == version_id)).first()
    if found is None:
        raise NotFoundError(f"no bot version {version_id}")
    version, bot = found
    if not may_see_logs(viewer, bot.owner_id):
        raise LogsWithheldError(f"version {version_id}: a bot's log is {WITHHELD}")
    if seat not in check.bot_seats:
        raise NotFoundError(f"{check.value}: the bot sat in seats {', '.join(map(str, check.bot_seats))}, not {seat}")
    source = f"{bot.name} #{version.number}, {check.value}, seat {seat}"
    return _read_log(data, f"validation/{version.content_hash[:12]}/{check.value}.seat{seat}.log", bot.name, source)


def match_log_links(match_id: int, seats: list[int]) -> list[LogLink]:
    return [LogLink(label=f"seat {seat}", page=f"/matches/{match_id}/logs/{seat}",
                    raw=f"/matches/{match_id}/logs/{seat}/raw", api=f"/api/matches/{match_id}/logs/{seat}")
            for seat in seats]


def validation_log_links(version_id: int) -> list[LogLink]:
    return [LogLink(label=f"{check.value} seat {seat}", page=f"/versions/{version_id}/validation/{check.value}/{seat}",
                    raw=f"/versions/{version_id}/validation/{check.value}/{seat}/raw",
                    api=f"/api/versions/{version_id}/validation/{check.value}/{seat}")
            for check in ValidationCheck for seat in check.bot_seats]


def viewer_log_links(session: Session, match_id: int, viewer: AuthorView | None) -> list[LogLink]:
    """Links to the logs of the match's seats ``viewer`` may read (none for the public)."""
    match = session.get(Match, match_id)
    if viewer is None or match is None:
        return []
    return match_log_links(match_id, sorted(visible_seats(session, match, viewer)))


def upload_output(store: Store, viewer: AuthorView, upload_id: int) -> BotLogModel:
    """The bot's own output from the upload's failed validation: for the upload's author only
    (anyone else is told there is no such upload, as the API does)."""
    upload = upload_of(store, upload_id, viewer.id)
    if upload is None or not upload.has_log:
        raise NotFoundError(f"no log of upload {upload_id} of yours")
    relative = log_path(store.data, upload_id).relative_to(uploads_folder(store.data).parent)
    return _read_log(store.data, str(relative), upload.bot or "(unnamed)", f"upload {upload_id}, validation")
