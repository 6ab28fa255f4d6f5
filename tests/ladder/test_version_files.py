"""Versions by content hash and matches' files in the store (ladder/store/archives.py,
ladder/versions/version_cache.py, ladder/store/report_files.py, ladder/store/match_files.py).

A worker needs nothing from the coordinator's disk: it fetches a version's archive by hash
from a source its own environment names, checks the archive's sha256 and the unpacked files'
content hash, and fills its cache atomically; a tampered archive never runs. A report's files
come back as bytes and are stored as rows under the names the coordinator expects, never used
as paths. Negative controls show each attack working without its defence.
"""

from __future__ import annotations

import gzip
import io
import re
import tarfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import delete, select, text, update

from arena.bots.archive import pack_bytes
from arena.contract.time_control import MoveRelease
from ladder.coordinator.loop import StopRule
from ladder.coordinator.queue import MatchSettings, enqueue, job_for, lease
from ladder.coordinator.results import record_report
from ladder.execution.executors import InlineExecutor
from ladder.execution.jobs import MatchJob, MatchReport, SeatBot, play_match_job
from ladder.rating.ratings import RatingEnv
from ladder.rating.scheduler import Pairing
from ladder.store.archives import ArchiveUnavailableError, archive_of, store_source
from ladder.store.database import Store
from ladder.store.match_files import read_stored, store_files, stored_names
from ladder.store.report_files import LOG_CAP, RECORD_CAP, ReportFile, accepted, collect, log_name, record_name
from ladder.store.schema import Archive, BotVersion, Match, MatchFile, MatchStatus
from ladder.submission.submit import submit
from ladder.versions.folders import content_hash
from ladder.versions.version_cache import (
    ArchiveRef,
    VersionCache,
    VersionTamperedError,
    VersionUnavailableError,
    blob_source,
    sha256_of,
)
from tests.ladder_helpers import add_bots, bot_folder, fake_play, make_run, no_validation, open_store

MARKED_BOT = '''
import pathlib

pathlib.Path({marker!r}).write_text("ran {name}")

from sample_bots.random.bot import RandomBot
from sdk.server import run

run(RandomBot())
'''
"""A random bot that leaves a mark when it starts: a version that must not run leaves none."""


def marked_bots(store: Store, tmp_path: Path) -> Path:
    """Two submitted versions of bots that leave ``tmp_path/marks/NAME`` when started."""
    marks = tmp_path / "marks"
    marks.mkdir()
    for name in ("ma", "mb"):
        folder = bot_folder(tmp_path / "src", name, MARKED_BOT.format(marker=str(marks / name), name=name))
        submit(store, RatingEnv(), folder, "local", no_validation)
    return marks


def a_job(store: Store, runner: str = "local") -> MatchJob:
    """Match 1 between the store's first two versions, leased, as its job."""
    settings = MatchSettings(runner=runner, match_format="duplicate:1", per_move=2.0, release=MoveRelease.ON_REPLY)
    with store.transaction() as session:
        ids = sorted(session.scalars(select(BotVersion.id)))
        match = enqueue(session, RatingEnv(), Pairing((ids[0], ids[0]), (ids[1], ids[1])), 5, settings)
        attempt = lease(session, match.id, "test")
        assert attempt is not None
        return job_for(session, match.id, attempt, settings)


def worker_environment(monkeypatch: pytest.MonkeyPatch, store: Store, cache: Path) -> None:
    """A worker whose environment names the store (and an empty cache of its own)."""
    monkeypatch.setenv("DEHLA_CACHE", str(cache))
    monkeypatch.setenv("DEHLA_DATABASE_URL", store.data.database_url)
    monkeypatch.setenv("DEHLA_DATA", str(store.data.root))
    monkeypatch.delenv("DEHLA_BLOBS", raising=False)


def entries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def other_archive(tmp_path: Path) -> bytes:
    return pack_bytes(bot_folder(tmp_path / "evil", "ma", "print('not the submitted bot')\n"))


# ------------------------------------------------------------------ archives in the store
def test_submitting_stores_the_versions_archive_and_a_worker_fills_its_cache_from_the_store(tmp_path: Path) -> None:
    store = open_store(tmp_path / "data")
    [added] = add_bots(store, ["s1"], tmp_path / "src")
    with store.reading() as session:
        row = session.get_one(Archive, added.content_hash)
        ref = ArchiveRef(row.content_hash, row.archive_sha256)
        assert row.archive_sha256 == sha256_of(row.data) and row.size_bytes == len(row.data)
    folder = VersionCache(tmp_path / "cache").resolve(ref, [store_source(store.data)])
    assert folder == tmp_path / "cache" / added.content_hash
    assert content_hash(folder) == added.content_hash
    assert (folder / "bot.toml").stat().st_mode & 0o222 == 0, "a cached version is read-only"
    assert [p.name for p in (tmp_path / "cache").iterdir()] == [added.content_hash], "no fill left behind"


def as_before_archives(store: Store) -> None:
    """The store as one made before versions' archives were stored: none, and the store at the
    migration before 0011, which the next open runs (packing them); closed."""
    with store.transaction() as session:
        session.execute(delete(Archive))
        session.execute(text("UPDATE alembic_version SET version_num = '0010'"))
    store.close()


def test_a_version_stored_before_gets_its_archive_when_the_store_is_upgraded(tmp_path: Path) -> None:
    store = open_store(tmp_path / "data")
    add_bots(store, ["s1", "s2"], tmp_path / "src")
    with store.reading() as session:
        submitted = {row.content_hash: row.archive_sha256 for row in session.scalars(select(Archive))}
    as_before_archives(store)
    upgraded = open_store(tmp_path / "data")
    with upgraded.reading() as session:
        packed = {row.content_hash: row.archive_sha256 for row in session.scalars(select(Archive))}
    assert packed == submitted and len(packed) == 2, "the same bytes again"
    job = a_job(upgraded)
    assert {bot.content_hash: bot.archive_sha256 for bot in job.seats} == submitted


def test_a_stored_folder_changed_since_it_was_submitted_is_never_packed_under_its_old_hash(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    store = open_store(tmp_path / "data")
    add_bots(store, ["s1", "s2"], tmp_path / "src")
    with store.reading() as session:
        version = session.scalars(select(BotVersion).order_by(BotVersion.id)).first()
        assert version is not None
        stored = store.data.root / version.path
    as_before_archives(store)
    stored.chmod(0o755)
    (stored / "bot.py").chmod(0o644)
    (stored / "bot.py").write_text("print('edited after submission')\n")
    store = open_store(tmp_path / "data")
    assert "now holds other files" in caplog.text, "the upgrade says which version it did not pack"
    summary = make_run(store).run(StopRule(matches=1))
    assert summary.counted == 0
    with store.reading() as session:
        errors = [m.error for m in session.scalars(select(Match))]
        assert errors and all(e and "has no archive in the store" in e for e in errors), errors
        assert session.get(Archive, version.content_hash) is None, "never packed under its old hash"
        with pytest.raises(ArchiveUnavailableError, match="has no archive in the store"):
            archive_of(session, session.get_one(BotVersion, version.id))


# ------------------------------------------------------------------ tampered archives never run
def tamper(store: Store, tmp_path: Path, how: str) -> None:
    """Replace every stored archive by another bot's: its bytes only (the sha256 in the row then
    names the old bytes), or its bytes and sha256 (only the content hash can tell)."""
    evil = other_archive(tmp_path)
    values = {"data": evil} if how == "bytes" else {"data": evil, "archive_sha256": sha256_of(evil)}
    with store.transaction() as session:
        session.execute(update(Archive).values(**values))


@pytest.mark.parametrize(("how", "reason"), [("bytes", "sha256"), ("bytes and sha256", "holds other files")])
def test_a_worker_never_runs_an_archive_tampered_with_in_the_store(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str, reason: str) -> None:
    store = open_store(tmp_path / "data")
    marks = marked_bots(store, tmp_path)
    tamper(store, tmp_path, how)
    job = a_job(store)  # built from the tampered rows, as a coordinator would
    worker_environment(monkeypatch, store, tmp_path / "cache")
    with pytest.raises(VersionTamperedError, match=reason):
        play_match_job(job)
    assert list(marks.iterdir()) == [], "no bot of the match started"
    assert entries(tmp_path / "cache") == [], "nothing was put in the cache"


def test_the_negative_control_the_same_job_untampered_runs_its_bots_and_reports_its_files(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = open_store(tmp_path / "data")
    marks = marked_bots(store, tmp_path)
    job = a_job(store)
    worker_environment(monkeypatch, store, tmp_path / "cache")
    report = play_match_job(job)
    assert sorted(p.name for p in marks.iterdir()) == ["ma", "mb"]
    assert report.status == "done", report
    assert [f.name for f in report.files] == [record_name(1), *(log_name(1, seat, room) for room in (0, 1)
                                                                for seat in range(4))]
    assert report.files[0].data.startswith(b'{"type":"match_start"') or b"match_start" in report.files[0].data
    assert not (store.data.root / "matches").exists(), "the worker wrote nothing under the data folder"


def test_the_coordinator_fails_a_match_whose_archive_was_tampered_with_and_runs_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = open_store(tmp_path / "data")
    marks = marked_bots(store, tmp_path)
    tamper(store, tmp_path, "bytes")
    monkeypatch.setenv("DEHLA_CACHE", str(tmp_path / "cache"))
    summary = make_run(store, play=play_match_job).run(StopRule(matches=1))
    assert summary.counted == 0
    assert list(marks.iterdir()) == []
    with store.reading() as session:
        matches = list(session.scalars(select(Match)))
    assert matches and all(m.error and "sha256" in m.error and "not run" in m.error for m in matches)
    assert all(m.status in (MatchStatus.QUEUED, MatchStatus.FAILED) for m in matches)


# ------------------------------------------------------------------ unsafe archives, hashes, blobs
def crafted_archive(*members: tuple[tarfile.TarInfo, bytes]) -> bytes:
    buffer = io.BytesIO()
    with gzip.GzipFile(fileobj=buffer, mode="wb", mtime=0) as compressed, \
            tarfile.open(fileobj=compressed, mode="w") as tar:
        for info, data in members:
            tar.addfile(info, io.BytesIO(data) if info.isfile() else None)
    return buffer.getvalue()


def member(name: str, data: bytes = b"", link: str | None = None) -> tuple[tarfile.TarInfo, bytes]:
    info = tarfile.TarInfo(name)
    if link is not None:
        info.type, info.linkname = tarfile.SYMTYPE, link
    else:
        info.size = len(data)
    return info, data


@pytest.mark.parametrize(("members", "problem"), [
    ((member("bot.toml", b"x"), member("bot.py", link="/etc/passwd")), "a symlink"),
    ((member("bot.toml", b"x"), member("../escaped.py", b"print('out')")), re.escape("a '..' in the path")),
])
def test_an_archive_with_unsafe_members_is_refused_even_with_a_matching_sha256(
        tmp_path: Path, members: tuple[tuple[tarfile.TarInfo, bytes], ...], problem: str) -> None:
    archive = crafted_archive(*members)
    cache = VersionCache(tmp_path / "cache")
    ref = ArchiveRef("a" * 64, sha256_of(archive))  # as if the store's row had been rewritten to match
    with pytest.raises(VersionTamperedError, match=problem):
        cache.fill(ref, archive)
    assert cache.cached(ref) is None and entries(cache.root) == []
    assert not (tmp_path / "escaped.py").exists() and not (cache.root / "escaped.py").exists()
    # the negative control: a plain extraction makes what the archive says
    naive = tmp_path / "naive" / "inner"
    naive.mkdir(parents=True)
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(naive, filter="fully_trusted")
    assert (naive / "bot.py").is_symlink() or (tmp_path / "naive" / "escaped.py").exists()


@pytest.mark.parametrize("digest", ["../../etc/passwd", "A" * 64, "a" * 63, "a" * 64 + "\n"])
def test_a_malformed_hash_is_refused_before_it_names_any_file(tmp_path: Path, digest: str) -> None:
    with pytest.raises(VersionUnavailableError, match="malformed content hash"):
        SeatBot(1, "x#1", digest, "b" * 64).ref  # noqa: B018 - the property checks
    assert blob_source(tmp_path / "blobs")(digest) is None


def test_a_worker_fills_its_cache_from_the_operators_blob_folder_without_the_store(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blobs = tmp_path / "blobs"
    monkeypatch.setenv("DEHLA_BLOBS", str(blobs))
    store = open_store(tmp_path / "data")
    [added] = add_bots(store, ["s1"], tmp_path / "src")  # submitting writes the blob too
    with store.reading() as session:
        row = session.get_one(Archive, added.content_hash)
        ref = ArchiveRef(row.content_hash, row.archive_sha256)
    assert (blobs / f"{added.content_hash}.tar.gz").read_bytes() == row.data
    folder = VersionCache(tmp_path / "cache").resolve(ref, [blob_source(blobs)])
    assert content_hash(folder) == added.content_hash


def test_a_blob_that_is_a_link_is_not_followed(tmp_path: Path) -> None:
    outside = tmp_path / "outside.tar.gz"
    outside.write_bytes(pack_bytes(bot_folder(tmp_path / "src", "s1")))
    blobs = tmp_path / "blobs"
    blobs.mkdir()
    (blobs / f"{'c' * 64}.tar.gz").symlink_to(outside)
    assert blob_source(blobs)("c" * 64) is None
    with pytest.raises(VersionUnavailableError, match="no configured source has it"):
        VersionCache(tmp_path / "cache").resolve(ArchiveRef("c" * 64, sha256_of(outside.read_bytes())),
                                                 [blob_source(blobs)])


def test_a_second_fill_of_the_same_version_keeps_the_first_and_leaves_nothing_behind(tmp_path: Path) -> None:
    archive = pack_bytes(bot_folder(tmp_path / "src", "s1"))
    digest = content_hash(tmp_path / "src" / "s1")
    ref = ArchiveRef(digest, sha256_of(archive))
    cache = VersionCache(tmp_path / "cache")
    first = cache.fill(ref, archive)
    assert cache.fill(ref, archive) == first  # another worker of the machine raced us: theirs stays
    assert [p.name for p in cache.root.iterdir()] == [digest]


# ------------------------------------------------------------------ a report's files
def counted_report(store: Store, files: tuple[ReportFile, ...]) -> None:
    add_bots(store, ["s1", "s2"], store.data.root.parent / "src")
    job = a_job(store)
    report = MatchReport(job.match_id, job.attempt, "done", 0, (1.0, 0.0), 2, files=files)
    with store.transaction() as session:
        assert record_report(session, RatingEnv(), report)


HOSTILE_NAMES = ("../../evil.jsonl", "/tmp/evil-abs.jsonl", "m000001.jsonl/../../evil2", "m000002.jsonl",
                 "m000001.seat9.log", "m000001.jsonl\x00x")


def test_a_reports_file_names_are_never_paths_only_the_expected_names_are_stored(tmp_path: Path) -> None:
    store = open_store(tmp_path / "data")
    files = (ReportFile("m000001.jsonl", b"{}\n"), ReportFile("m000001.seat0.log", b"log"),
             *(ReportFile(name, b"evil") for name in HOSTILE_NAMES),
             ReportFile("m000001.seat1.log", b"x" * (LOG_CAP + 1)),  # over its cap
             ReportFile("m000001.seat0.log", b"second copy"))  # a name twice: the first is kept
    counted_report(store, files)
    with store.reading() as session:
        assert stored_names(session, 1) == ["m000001.jsonl", "m000001.seat0.log"]
        assert session.get_one(Match, 1).record_path == "m000001.jsonl"
        log = read_stored(session, 1, "m000001.seat0.log", 100)
        assert log is not None and log.content == b"log"
    written = {p.name for p in tmp_path.rglob("*")} | {p.name for p in Path("/tmp").glob("evil*")}
    assert not {name for name in written if "evil" in name}, "no name from the report became a file"
    # the negative control: the names did reach the coordinator; `accepted` is what drops them
    assert {f.name for f in files} >= set(HOSTILE_NAMES)
    assert [f.name for f in accepted(files, 1)] == ["m000001.jsonl", "m000001.seat0.log"]
    with store.reading() as session:  # never committed
        store_files(session, 1, [ReportFile(name, b"evil") for name in HOSTILE_NAMES[:2]])
        session.flush()
        assert set(stored_names(session, 1)) >= set(HOSTILE_NAMES[:2]), "unfiltered, they would be stored"


def test_a_report_without_its_record_leaves_the_match_without_one(tmp_path: Path) -> None:
    store = open_store(tmp_path / "data")
    counted_report(store, (ReportFile("m000001.seat2.log", b"only a log"),))
    with store.reading() as session:
        assert session.get_one(Match, 1).record_path is None
        assert stored_names(session, 1) == ["m000001.seat2.log"]


def test_a_worker_sends_the_files_the_referee_wrote_each_within_its_cap(tmp_path: Path) -> None:
    played = tmp_path / "played"
    played.mkdir()
    (played / "m000007.jsonl").write_bytes(b"r" * (RECORD_CAP + 1))
    (played / "m000007.seat0.log").write_bytes(b"l" * (LOG_CAP + 5))
    (played / "m000007.seat1.log").symlink_to("/etc/passwd")
    (played / "m000007.seat2.log").write_bytes(b"fine")
    (played / "stray.txt").write_bytes(b"not a match file")
    sent = {f.name: f.data for f in collect(played, 7)}
    assert sent == {"m000007.seat0.log": b"l" * LOG_CAP, "m000007.seat2.log": b"fine"}


def test_a_stale_attempts_report_stores_no_file(tmp_path: Path) -> None:
    store = open_store(tmp_path / "data")
    add_bots(store, ["s1", "s2"], tmp_path / "src")
    job = a_job(store)
    stale = MatchReport(job.match_id, job.attempt - 1, "done", 0, (1.0, 0.0), 2,
                        files=(ReportFile("m000001.jsonl", b"stale"),))
    with store.transaction() as session:
        assert not record_report(session, RatingEnv(), stale)
    with store.reading() as session:
        assert session.scalar(select(MatchFile.name)) is None


def test_a_fake_ladder_counts_without_files_and_keeps_none(tmp_path: Path) -> None:
    store = open_store(tmp_path / "data")
    add_bots(store, ["s1", "s2"], tmp_path / "src")
    assert make_run(store, play=fake_play, factory=InlineExecutor).run(StopRule(matches=2)).counted == 2
    with store.reading() as session:
        assert session.scalar(select(MatchFile.name)) is None
        assert all(m.record_path is None for m in session.scalars(select(Match)))


NAMES = st.one_of(st.sampled_from(["m000003.jsonl", *(f"m000003.seat{seat}.log" for seat in range(6)),
                                   *(f"m000003.room{room}.seat{seat}.log" for room in range(3) for seat in range(5)),
                                   "m000004.jsonl", "../m000003.jsonl", "m000003.jsonl/x"]), st.text(max_size=30))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(NAMES, st.sampled_from([0, 10, LOG_CAP, LOG_CAP + 1])), max_size=12))
def test_what_the_coordinator_keeps_of_any_report_is_expected_names_within_their_caps_once(
        files: list[tuple[str, int]]) -> None:
    """Of each expected name, the first copy within its cap; nothing else, in a fixed order."""
    report = tuple(ReportFile(name, b"x" * size) for name, size in files)
    expected = [record_name(3), *(log_name(3, seat, room) for room in (0, 1) for seat in range(4))]
    firsts: dict[str, ReportFile] = {}
    for file in report:
        cap = RECORD_CAP if file.name.endswith(".jsonl") else LOG_CAP
        if file.name in expected and len(file.data) <= cap and file.name not in firsts:
            firsts[file.name] = file
    assert accepted(report, 3) == [firsts[name] for name in expected if name in firsts]
