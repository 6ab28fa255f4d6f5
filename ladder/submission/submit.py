"""``dehla submit``: validate a bot folder, store it as an immutable version, prove it plays.

Steps: copy the folder (no symlink followed, regular files only, checked on the opened file)
into a staging folder; read ``bot.toml`` and hash the content *of the copy* (same content:
nothing to do); move the copy to ``bots/NAME/HASH12/`` read-only; play two validation matches
from that copy (the bot in all four seats, then its copies against ``random``), one deal each
in duplicate, with the ladder's runner and clock; accept only if both end without a fault. A
rejection removes the copy and names the failing check with the tail of the bot's own log. An
accepted version's archive (``ladder/store/archives.py``) is stored in the transaction that adds it,
so workers on any machine can fetch it by content hash.

A version is added only by its bot's owner (``ladder/store/ownership.py``): an upload (``owner``: the
author's id) to a bot that author owns, a local submission (``owner`` None: the house) to a house
bot; either creates a new bot it then owns, a sample's name only by the house. Checked before
anything is played and again in the insert's transaction. The cheap static checks (the manifest,
the owner, every file's name as an archive would hold it) all come before the validation matches.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from arena.bots.archive import ArchiveError, folder_files
from arena.bots.manifest import BotManifest, ManifestError, load_manifest
from arena.contract.faults import FaultPolicy
from arena.contract.status import OutcomeStatus
from arena.contract.time_control import TimeControl
from arena.engine.errors import ArenaError
from arena.engine.match import FormatKind, MatchFormat
from arena.engine.rules import rules_for
from arena.referee.launcher import BotCommand, resolve_bot
from arena.referee.rooms import hand_room, seat_log_name
from arena.referee.table_values import MatchOutcome, TableConfig
from arena.sandbox.runner import RunnerKind
from ladder.execution.runners import ladder_runner, make_runner
from ladder.rating.ratings import RatingEnv
from ladder.store.archives import add_archive, pack_version
from ladder.store.database import Store
from ladder.store.ownership import NotYourBotError, check_owner
from ladder.store.schema import Bot, BotVersion
from ladder.versions.folders import content_hash, put_in_place, remove_tree, store_copy
from ladder.versions.images import ImageRefused, build_version_image

__all__ = ["NotYourBotError", "Submission", "SubmissionRejected", "Validator", "submit", "validation_matches"]
"""``NotYourBotError`` too: ``submit`` raises it (it lives in ``ladder/store/ownership.py``)."""

LOG_TAIL = 1500


class SubmissionRejected(ArenaError):  # noqa: N818 - reads as what happened
    """The bot did not pass a check; ``check`` names it, ``log_tail`` is the bot's own output."""

    def __init__(self, check: str, detail: str, log_tail: str = "") -> None:
        super().__init__(f"{check}: {detail}")
        self.check = check
        self.detail = detail
        self.log_tail = log_tail


@dataclass(frozen=True, slots=True)
class Submission:
    bot: str
    number: int
    label: str
    content_hash: str
    path: str
    created: bool
    """False: the same content was already stored (a no-op)."""
    version_id: int


Validator = Callable[[BotCommand, Path, RunnerKind], None]


def validation_matches(command: BotCommand, records: Path, runner: RunnerKind) -> None:
    """Raise ``SubmissionRejected`` unless the bot plays two clean validation matches."""
    checks = [
        ("four seats", (command, command), (command, command), "validate-self"),
        ("against random", (command, command), (resolve_bot("random"), resolve_bot("random")), "validate-random"),
    ]
    for number, (check, a, b, key) in enumerate(checks, 1):
        config = TableConfig(key, rules_for("dehla-pakad"), "dehla-pakad", MatchFormat(FormatKind.DUPLICATE, 1),
                             1000 + number, TimeControl(), FaultPolicy.FORFEIT)
        outcome = _play(a, b, config, records, runner)
        _judge(f"validation match {number} ({check})", outcome, records, key, bot_seats=(0, 2) if number == 2
               else (0, 1, 2, 3))


def _play(a: tuple[BotCommand, BotCommand], b: tuple[BotCommand, BotCommand], config: TableConfig,
          records: Path, kind: RunnerKind) -> MatchOutcome:
    from arena.referee.local import play_local_match  # noqa: PLC0415 - gRPC only when playing

    runner = make_runner(kind)
    if runner is None:
        return asyncio.run(play_local_match(a, b, config, records))
    return asyncio.run(play_local_match(a, b, config, records, None, runner))  # type: ignore[call-arg,unused-ignore]


def _judge(check: str, outcome: MatchOutcome, records: Path, key: str, bot_seats: tuple[int, ...]) -> None:
    mine = [f for f in outcome.faults if f.seat in bot_seats]
    if mine:
        fault = mine[0]
        room = 0 if fault.hand is None else hand_room(fault.hand)  # a validation match is duplicate: two rooms
        tail = _tail(records / seat_log_name(key, fault.seat, room))
        raise SubmissionRejected(check, f"seat {fault.seat} {fault.kind.value}: {fault.detail}", tail)
    if outcome.status is OutcomeStatus.VOID:
        raise SubmissionRejected(check, f"the match was void (platform fault, not the bot's): {outcome.void_reason}; "
                                 "try again")


def _tail(path: Path) -> str:
    try:
        return path.read_bytes()[-LOG_TAIL:].decode("utf-8", "replace")
    except OSError:
        return ""


def submit(store: Store, env: RatingEnv, folder: Path, runner: RunnerKind,
           validate: Validator = validation_matches, owner: int | None = None) -> Submission:
    """Store ``folder`` as a new version of its bot (or find it stored already).

    Everything after the copy reads the copy: the manifest, the hash, the validation matches.
    The source folder belongs to the submitter, who may change it while we work. ``owner``: the
    uploading author's id (``None``: the house, on the arena's own machine)."""
    runner = ladder_runner(runner)  # a caller may name it as text
    staging = store_copy(folder, store.data.bots)
    try:
        manifest = _manifest_of(staging, folder)
        with store.reading() as session:
            _check_owner(session, manifest.name, owner)
        _check_names(staging)
        digest = content_hash(staging)
        with store.reading() as session:
            known = session.execute(select(BotVersion, Bot.name).join(Bot, Bot.id == BotVersion.bot_id)
                                    .where(BotVersion.content_hash == digest)).first()
        if known is not None:
            version, name = known
            remove_tree(staging)
            return Submission(name, version.number, version.label, digest, version.path, False, version.id)
        relative = Path("bots") / manifest.name / digest[:12]
        destination = store.data.root / relative
        put_in_place(staging, destination)
    except BaseException:
        remove_tree(staging)
        raise
    try:
        command = BotCommand(manifest.name, manifest.argv(), cwd=str(destination), resources=manifest.resources)
        _build_image(runner, destination, manifest.name, digest)
        validate(command, store.data.validation / digest[:12], runner)
        archive = pack_version(destination, digest)
    except BaseException:
        remove_tree(destination)
        raise
    try:
        return _insert(store, env, manifest, digest, str(relative), owner, archive)
    except NotYourBotError:  # the name was taken by another author while this one validated
        with store.reading() as session:
            stored = session.scalar(select(BotVersion.id).where(BotVersion.content_hash == digest))
        if stored is None:
            remove_tree(destination)
        raise


def _build_image(runner: RunnerKind, folder: Path, name: str, digest: str) -> None:
    """Under the container runner the version runs in its own image: build it (from its own
    Dockerfile) before the validation matches play it."""
    if runner is RunnerKind.CONTAINER:
        try:
            build_version_image(folder, name, digest)
        except ImageRefused as exc:
            raise SubmissionRejected("image", str(exc), exc.output) from None


def _manifest_of(staging: Path, folder: Path) -> BotManifest:
    """The copy's manifest; its errors name the submitted folder, not the staging copy."""
    try:
        return load_manifest(staging)
    except ManifestError as exc:
        raise ManifestError(str(exc).replace(str(staging), str(folder))) from None


def _check_owner(session: Session, name: str, owner: int | None) -> Bot | None:
    """The bot ``name`` if ``owner`` owns it, ``None`` if there is none yet; else refused."""
    return check_owner(session, name, owner)


def _check_names(staging: Path) -> None:
    """Every file name as the version's archive will hold it (no control character, no long
    path), before any match is played: the packing after validation would refuse it anyway."""
    try:
        folder_files(staging)
    except ArchiveError as exc:
        raise SubmissionRejected("files", str(exc)) from None


def _insert(store: Store, env: RatingEnv, manifest: BotManifest, digest: str, path: str,
            owner: int | None, archive: bytes) -> Submission:
    skill = env.new()
    try:
        with store.transaction() as session:
            _check_owner(session, manifest.name, owner)
            bot = session.scalar(select(Bot).where(Bot.name == manifest.name))
            if bot is None:
                bot = Bot(name=manifest.name, author=manifest.author, owner_id=owner)
                session.add(bot)
                session.flush()
            number = (session.scalar(select(func.max(BotVersion.number)).where(BotVersion.bot_id == bot.id)) or 0) + 1
            row = BotVersion(bot_id=bot.id, number=number, label=manifest.version, content_hash=digest,
                             path=path, mu=skill.mu, sigma=skill.sigma, matches=0, wins=0, draws=0,
                             losses=0, faults=0)
            session.add(row)
            session.flush()
            version_id = row.id
            add_archive(session, digest, archive)
    except IntegrityError:  # the same content stored by a concurrent submission: a no-op
        with store.reading() as session:
            version = session.scalars(select(BotVersion).where(BotVersion.content_hash == digest)).one()
        return Submission(manifest.name, version.number, version.label, digest, version.path, False, version.id)
    return Submission(manifest.name, number, manifest.version, digest, path, True, version_id)
