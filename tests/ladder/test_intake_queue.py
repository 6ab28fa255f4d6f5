"""The uploads' queue and the owner check, in process: a real store, real threads, real archives;
validators stand in for the validation matches (they record what they see and never sleep)."""

from __future__ import annotations

import threading
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import func, select

from arena.referee.launcher import BotCommand
from ladder.rating.ratings import RatingEnv
from ladder.store.schema import Bot, BotVersion, Upload, UploadStatus, utcnow
from ladder.submission import submit as submit_module
from ladder.submission.intake import (
    LONG_POLLS,
    Intake,
    IntakeSettings,
    RateLimitedError,
    check_rate,
    log_path,
    upload_log,
    upload_of,
    uploads_of,
)
from ladder.submission.submit import NotYourBotError, SubmissionRejected, submit
from tests.bots.archives import Entry, good_bot, tar_gz
from tests.intake_helpers import SETTLE, Recorder, fresh, send
from tests.ladder_helpers import bot_folder, no_validation


def test_fifo_and_a_restart_picks_pending_uploads_up(tmp_path: Path) -> None:
    store, asha, _ = fresh(tmp_path)
    down = Intake(store, IntakeSettings(runner="local"))  # received, never started: the service stopped
    ids = [send(down, asha, tar_gz(good_bot(f"bot{n}"))) for n in range(3)]
    assert [upload_of(store, i, asha).status for i in ids] == [UploadStatus.PENDING] * 3  # type: ignore[union-attr]
    recorder = Recorder()
    restarted = Intake(store, IntakeSettings(runner="local"), validate=recorder)
    restarted.start()
    try:
        assert restarted.wait_until_idle(SETTLE)
    finally:
        restarted.stop()
    assert recorder.order == ["bot0", "bot1", "bot2"]
    views = [upload_of(store, i, asha) for i in ids]
    assert all(v is not None and v.status is UploadStatus.ACCEPTED and v.version == 1 for v in views)


@pytest.mark.parametrize(("limit", "uploads"), [(1, 3), (2, 4), (3, 3)])
def test_at_most_the_set_number_of_validations_run_at_once(tmp_path: Path, limit: int, uploads: int) -> None:
    store, asha, _ = fresh(tmp_path)
    recorder = Recorder(together=limit)  # the first `limit` wait for each other: the peak reaches it
    intake = Intake(store, IntakeSettings(runner="local", concurrency=limit), validate=recorder)
    for n in range(uploads):
        send(intake, asha, tar_gz(good_bot(f"bot{n}")))
    intake.start()
    try:
        assert sum(t.name.startswith("intake-") for t in threading.enumerate()) == limit  # one upload each
        assert intake.wait_until_idle(SETTLE)
    finally:
        intake.stop()
    assert recorder.peak == limit
    assert sorted(recorder.order) == [f"bot{n}" for n in range(uploads)]


def test_the_same_folder_twice_is_one_version(tmp_path: Path) -> None:
    store, asha, _ = fresh(tmp_path)
    recorder = Recorder()
    intake = Intake(store, IntakeSettings(runner="local"), validate=recorder)
    first, second = (send(intake, asha, tar_gz(good_bot("twice"))) for _ in range(2))
    intake.start()
    try:
        assert intake.wait_until_idle(SETTLE)
    finally:
        intake.stop()
    a, b = upload_of(store, first, asha), upload_of(store, second, asha)
    assert a is not None and b is not None
    assert (a.status, b.status) == (UploadStatus.ACCEPTED, UploadStatus.ACCEPTED)
    assert a.version == b.version == 1 and a.content_hash == b.content_hash
    assert recorder.order == ["twice"]  # the second was known by its hash: not validated again
    with store.reading() as session:
        assert session.scalar(select(func.count()).select_from(BotVersion)) == 1


def test_a_bot_belongs_to_its_first_author(tmp_path: Path) -> None:
    store, asha, bela = fresh(tmp_path)
    env = RatingEnv()
    first = submit(store, env, bot_folder(tmp_path / "a", "mine"), "local", no_validation, owner=asha)
    assert first.created
    recorder = Recorder()
    with pytest.raises(NotYourBotError, match="bot 'mine' belongs to another author"):
        submit(store, env, bot_folder(tmp_path / "b", "mine", "# bela's\n"), "local", recorder, owner=bela)
    with pytest.raises(NotYourBotError):  # the very same content: still not bela's to add
        submit(store, env, bot_folder(tmp_path / "a", "mine"), "local", recorder, owner=bela)
    assert recorder.order == []  # refused before validating
    again = submit(store, env, bot_folder(tmp_path / "a2", "mine", "# v2\n"), "local", no_validation, owner=asha)
    assert (again.created, again.number) == (True, 2)
    local = submit(store, env, bot_folder(tmp_path / "c", "house"), "local", no_validation)
    with store.reading() as session:
        owners = {name: owner for name, owner in session.execute(select(Bot.name, Bot.owner_id))}
    assert owners == {"mine": asha, "house": None}
    assert local.created
    with pytest.raises(NotYourBotError):  # the arena's own bots are nobody's to add to
        submit(store, env, bot_folder(tmp_path / "d", "house", "# x\n"), "local", no_validation, owner=bela)


def test_the_owner_is_checked_again_at_insert(tmp_path: Path) -> None:
    """A name taken by another author while this upload validated: refused, its copy removed."""
    store, asha, bela = fresh(tmp_path)

    def taken_meanwhile(command: BotCommand, records: Path, runner: str) -> None:
        with store.transaction() as session:
            session.add(Bot(name="contested", author="asha", owner_id=asha))

    with pytest.raises(NotYourBotError):
        submit(store, RatingEnv(), bot_folder(tmp_path / "b", "contested"), "local", taken_meanwhile, owner=bela)
    with store.reading() as session:
        assert session.scalar(select(func.count()).select_from(BotVersion)) == 0
    assert list((store.data.bots / "contested").iterdir()) == []


def test_without_the_insert_check_the_version_would_be_added(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Negative control: with the owner check disabled, bela adds a version to asha's bot."""
    store, asha, bela = fresh(tmp_path)
    submit(store, RatingEnv(), bot_folder(tmp_path / "a", "mine"), "local", no_validation, owner=asha)
    monkeypatch.setattr(submit_module, "_check_owner", lambda session, name, owner: None)
    stolen = submit(store, RatingEnv(), bot_folder(tmp_path / "b", "mine", "# bela\n"), "local", no_validation,
                    owner=bela)
    assert (stolen.created, stolen.number) == (True, 2)


def test_rejections_keep_the_bot_output_out_of_the_reason(tmp_path: Path) -> None:
    store, asha, bela = fresh(tmp_path)

    def crashes(command: BotCommand, records: Path, runner: str) -> None:
        raise SubmissionRejected("validation match 1 (four seats)", "seat 0 crash: exited with 1",
                                 "Traceback...\nBOT-LOG-LINE secret of asha\n")

    intake = Intake(store, IntakeSettings(runner="local"), validate=crashes)
    upload = send(intake, asha, tar_gz(good_bot("crasher")))
    broken = send(intake, asha, tar_gz([Entry("bot.toml", b'name = "x"\n\x1b[31m')]))
    intake.start()
    try:
        assert intake.wait_until_idle(SETTLE)
    finally:
        intake.stop()
    view = upload_of(store, upload, asha)
    assert view is not None and view.status is UploadStatus.REJECTED and view.has_log
    assert view.reason == "validation match 1 (four seats): seat 0 crash: exited with 1"
    assert "BOT-LOG-LINE" in log_path(store.data, upload).read_text()
    assert "BOT-LOG-LINE" in (upload_log(store, upload, asha) or "")
    assert upload_log(store, upload, bela) is None and upload_of(store, upload, bela) is None
    odd = upload_of(store, broken, asha)
    assert odd is not None and odd.reason is not None
    assert odd.reason.startswith("bot.toml: not valid TOML") and "\x1b" not in odd.reason
    assert str(tmp_path) not in odd.reason  # the server's own paths stay out
    assert [v.id for v in uploads_of(store, asha)] == [broken, upload] and uploads_of(store, bela) == []


def test_the_rate_limit_counts_the_last_hour(tmp_path: Path) -> None:
    store, asha, bela = fresh(tmp_path)
    intake = Intake(store, IntakeSettings(runner="local", uploads_per_hour=2))
    send(intake, asha, b"1")
    send(intake, asha, b"2")
    with pytest.raises(RateLimitedError, match="at most 2 uploads per hour") as caught:
        send(intake, asha, b"3")
    assert 3590 <= caught.value.retry_after <= 3600
    send(intake, bela, b"4")  # per author
    with store.transaction() as session:  # an hour later
        for row in session.scalars(select(Upload)):
            row.created_at = utcnow() - timedelta(hours=1, seconds=1)
    check_rate(store, asha, 2)
    with store.reading() as session:
        assert session.scalar(select(func.count()).select_from(Upload)) == 3


def test_long_polls_beyond_the_limit_answer_at_once(tmp_path: Path) -> None:
    """Each waiting status request holds a service thread: past ``LONG_POLLS`` they do not wait."""
    store, asha, _ = fresh(tmp_path)
    intake = Intake(store, IntakeSettings(runner="local"))  # not started: the upload stays pending
    upload = send(intake, asha, tar_gz(good_bot()))
    for _ in range(LONG_POLLS):
        assert intake._pollers.acquire(blocking=False)
    intake.wait_for(upload, timeout=600)  # returns at once (a failure here would hang for 10 minutes)
    assert upload_of(store, upload, asha).status is UploadStatus.PENDING  # type: ignore[union-attr]
