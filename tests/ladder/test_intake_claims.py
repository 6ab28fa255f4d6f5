"""Claims on uploads (ladder/submission/intake.py, ladder/coordinator/leases.py): two validating services on one store
never validate the same upload, a dead service's expired claim is taken again, a live one is
not, a claim is renewed while its validation outlasts it, and a verdict is written only by the
claim's holder. Real store, real threads, real archives; validators stand in for the matches."""

from __future__ import annotations

import threading
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import update

from arena.referee.launcher import BotCommand
from ladder.coordinator.leases import LeaseTerms, store_now
from ladder.store.database import Store
from ladder.store.schema import Upload, UploadStatus
from ladder.submission import intake as intake_module
from ladder.submission.intake import Intake, IntakeSettings, upload_of
from tests.bots.archives import good_bot, tar_gz
from tests.intake_helpers import SETTLE, Recorder, fresh, send


def claim_by(store: Store, upload_id: int, owner: str, seconds: float) -> None:
    """``owner`` holds the upload's claim for ``seconds`` more (negative: it expired)."""
    with store.transaction() as session:
        until = store_now(session) + timedelta(seconds=seconds)
        session.execute(update(Upload).where(Upload.id == upload_id).values(lease_owner=owner, lease_until=until))


def row(store: Store, upload_id: int) -> Upload:
    with store.reading() as session:
        return session.get_one(Upload, upload_id)


def test_two_services_on_one_store_never_validate_the_same_upload(tmp_path: Path) -> None:
    """Both services validate at once (the barrier holds the first until the second is inside):
    with claims kept only in each service's memory both would take the oldest upload."""
    store, asha, _ = fresh(tmp_path)
    recorder = Recorder(together=2)
    services = [Intake(store, IntakeSettings(runner="local"), validate=recorder) for _ in range(2)]
    ids = [send(services[0], asha, tar_gz(good_bot(f"bot{n}"))) for n in range(4)]
    for service in services:
        service.start()
    try:
        assert all(service.wait_until_idle(SETTLE) for service in services)
    finally:
        for service in services:
            service.stop()
    assert sorted(recorder.order) == [f"bot{n}" for n in range(4)] and recorder.peak == 2
    assert all(upload_of(store, i, asha).status is UploadStatus.ACCEPTED for i in ids)  # type: ignore[union-attr]
    assert all(row(store, i).lease_owner is None for i in ids)


def test_an_expired_claim_is_taken_again_and_a_live_one_is_not(tmp_path: Path) -> None:
    store, asha, _ = fresh(tmp_path)
    recorder = Recorder()
    intake = Intake(store, IntakeSettings(runner="local"), validate=recorder)
    held, dead = (send(intake, asha, tar_gz(good_bot(name))) for name in ("held", "dead"))
    claim_by(store, held, "live-service", 600)
    claim_by(store, dead, "dead-service", -1)
    intake.start()
    try:
        intake.wait_for(dead, SETTLE)
    finally:
        intake.stop()
    assert row(store, dead).status is UploadStatus.ACCEPTED and recorder.order == ["dead"]
    kept = row(store, held)
    assert (kept.status, kept.lease_owner) == (UploadStatus.PENDING, "live-service")


def test_a_verdict_is_written_only_while_its_claim_is_held(tmp_path: Path) -> None:
    """The claim ends while the upload validates (another service took it after it expired):
    this service's verdict is dropped; the upload stays the other's, pending."""
    store, asha, _ = fresh(tmp_path)

    def taken_meanwhile(command: BotCommand, records: Path, runner: str) -> None:
        claim_by(store, upload, "other-service", 600)

    intake = Intake(store, IntakeSettings(runner="local"), validate=taken_meanwhile)
    upload = send(intake, asha, tar_gz(good_bot("slow")))
    with intake._wake:
        assert intake._claim() == upload
    intake.process(upload)
    after = row(store, upload)
    assert (after.status, after.lease_owner, after.finished_at) == (UploadStatus.PENDING, "other-service", None)


def test_a_claim_is_renewed_while_its_validation_outlasts_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A one-second claim, a validation that lasts four renewals (more than a second): another
    service finds the upload still claimed. Without renewal it would take it once a second passed."""
    store, asha, _ = fresh(tmp_path)
    renewals = threading.Semaphore(0)
    real_renew = intake_module.renew_claims

    def counted(*args: object, **kwargs: object) -> set[int]:
        kept = real_renew(*args, **kwargs)  # type: ignore[arg-type]
        renewals.release()
        return kept

    monkeypatch.setattr(intake_module, "renew_claims", counted)
    settings = IntakeSettings(runner="local", claim=LeaseTerms(seconds=1))
    other = Intake(store, settings)
    outcome: list[int | None] = []

    def long_validation(command: BotCommand, records: Path, runner: str) -> None:
        if all(renewals.acquire(timeout=SETTLE) for _ in range(4)):
            with other._wake:
                outcome.append(other._claim())

    intake = Intake(store, settings, validate=long_validation)
    upload = send(intake, asha, tar_gz(good_bot("long")))
    intake.start()
    try:
        assert intake.wait_until_idle(SETTLE)
    finally:
        intake.stop()
    assert outcome == [None]  # still claimed by the first service, four renewals on
    assert row(store, upload).status is UploadStatus.ACCEPTED


def test_an_idle_service_validates_an_upload_another_service_received(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing tells an idle service that another one on the store received an upload: its
    workers read the store again on their own (``STORE_RECHECK``, shortened here) instead of
    sleeping until an upload of their own arrives."""
    monkeypatch.setattr(intake_module, "STORE_RECHECK", 0.05)
    store, asha, _ = fresh(tmp_path)
    recorder = Recorder()
    idle = Intake(store, IntakeSettings(runner="local"), validate=recorder)
    receiving = Intake(store, IntakeSettings(runner="local"), validate=recorder)  # never started
    idle.start()
    try:
        upload = send(receiving, asha, tar_gz(good_bot("elsewhere")))
        assert idle.wait_until_idle(SETTLE)
    finally:
        idle.stop()
    assert row(store, upload).status is UploadStatus.ACCEPTED and recorder.order == ["elsewhere"]


def test_a_long_poll_ends_when_another_service_writes_the_verdict(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """An author's long poll on one service (``GET /api/uploads/{id}?wait=``) for an upload
    another service validates ends when that verdict is written, not at the poll's timeout
    (``STORE_RECHECK`` shortened here)."""
    monkeypatch.setattr(intake_module, "STORE_RECHECK", 0.05)
    store, asha, _ = fresh(tmp_path)
    release = threading.Event()

    def held(command: BotCommand, records: Path, runner: str) -> None:
        release.wait(SETTLE)

    validating = Intake(store, IntakeSettings(runner="local"), validate=held)
    polled = Intake(store, IntakeSettings(runner="local"))  # never started: it only answers polls
    polling = threading.Event()
    checked = polled._is_pending

    def watched(upload_id: int) -> bool:
        pending = checked(upload_id)
        polling.set()
        return pending

    polled._is_pending = watched  # type: ignore[method-assign]
    upload = send(validating, asha, tar_gz(good_bot("there")))
    validating.start()
    poll = threading.Thread(target=polled.wait_for, args=(upload, 600), daemon=True)
    try:
        poll.start()
        assert polling.wait(SETTLE)  # the poll found the upload pending and waits
        release.set()
        poll.join(SETTLE)
        assert not poll.is_alive()  # ended by the verdict, long before its 600 s
    finally:
        release.set()
        validating.stop()
    assert row(store, upload).status is UploadStatus.ACCEPTED
