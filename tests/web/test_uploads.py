"""Uploads over real HTTP against a real ``dehla serve``: an author's upload validated in the
sandbox, ownership, the hostile archives, the HTTP refusals, the rate limit, a restart.

The negative controls of the archive defences (the same archives through ``tarfile.extractall``,
or the reader's cap lifted) are in ``tests/ladder/test_intake_archive.py``.
"""

from __future__ import annotations

import gzip
import socket
import tarfile
from pathlib import Path
from urllib.parse import urlsplit

import httpx2 as httpx
from sqlalchemy import func, select

from arena.bots.archive import pack_bytes
from ladder.rating.ratings import RatingEnv
from ladder.store.schema import Bot, BotVersion
from ladder.submission.intake import Intake, IntakeSettings
from ladder.submission.submit import submit
from ladder.versions.folders import sample_folder
from tests.bots.archives import MANIFEST, Entry, big_file_bomb, good_bot, pax_bomb, tar_gz
from tests.ladder_helpers import bot_folder, no_validation
from tests.web.uploads_helpers import arena, bearer, post, uploaded, verdict
from tests.web_helpers import serving

LOCAL = ("--runner", "local", "--uploads-per-hour", "1000")


def playing_bot(parent: Path, name: str) -> Path:
    """The random sample bot's folder under another name: a bot that really plays."""
    folder = sample_folder("random", parent)
    manifest = folder / "bot.toml"
    manifest.write_text(manifest.read_text().replace('name = "random"', f'name = "{name}"'))
    return folder


def test_an_author_uploads_sees_pending_then_accepted_and_owns_the_bot(tmp_path: Path) -> None:
    data = arena(tmp_path)
    archive = pack_bytes(playing_bot(tmp_path / "src", "ashabot"))
    with serving(data.root) as url:  # the default runner: the sandbox
        accepted = uploaded(url, data.asha, archive)
        assert (accepted["status"], accepted["bot"], accepted["version"], accepted["reason"]) == \
            ("accepted", "ashabot", 1, None)
        again = uploaded(url, data.asha, archive)  # the same folder twice: one version
        assert (again["status"], again["version"], again["content_hash"]) == \
            ("accepted", 1, accepted["content_hash"])
        mine = httpx.get(url + "api/uploads", headers=bearer(data.asha), timeout=10).json()
        assert [u["id"] for u in mine] == [again["id"], accepted["id"]]
        assert httpx.get(url + "api/uploads", headers=bearer(data.bela), timeout=10).json() == []
        others = httpx.get(f"{url}api/uploads/{accepted['id']}", headers=bearer(data.bela), timeout=10)
        missing = httpx.get(f"{url}api/uploads/999", headers=bearer(data.bela), timeout=10)
        assert (others.status_code, missing.status_code) == (404, 404)
        assert others.json()["detail"] == f"no upload {accepted['id']} of yours"
        assert httpx.get(f"{url}api/uploads/{accepted['id']}", timeout=10).status_code == 401
        stolen = post(url, data.bela, pack_bytes(playing_bot(tmp_path / "bela", "ashabot")))
        assert (stolen.status_code, stolen.json()["detail"]) == (403, "bot 'ashabot' belongs to another author; "
                                                                 "only they can add versions to it (choose another "
                                                                 "name in bot.toml)")
        same = post(url, data.bela, archive)  # asha's very archive: still not bela's to add
        assert same.status_code == 403
        squat = post(url, data.bela, pack_bytes(playing_bot(tmp_path / "squat", "search")))  # a sample's name
        assert (squat.status_code, squat.json()["detail"]) == (403, "bot name 'search' is reserved for the arena's "
                                                               "own sample bot; only the house can submit it "
                                                               "(choose another name in bot.toml)")
        assert httpx.get(url + "api/uploads", headers=bearer(data.bela), timeout=10).json() == []  # nothing stored
    with data.store.reading() as session:
        assert session.scalar(select(Bot.owner_id).where(Bot.name == "ashabot")) == data.asha_id
        assert session.scalar(select(func.count()).select_from(BotVersion)) == 1


def test_hostile_archives_are_rejected_with_one_line(tmp_path: Path) -> None:
    data = arena(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    secret = outside / "secret"
    secret.write_bytes(b"HOST SECRET")
    bot = good_bot("hostile")
    cases = {
        "'../escaped.py': a '..' in the path": tar_gz([*bot, Entry("../escaped.py", b"x")]),
        "an absolute path": tar_gz([*bot, Entry(str(outside / "abs.py"), b"x")]),
        "'escape': a symlink": tar_gz([*bot, Entry("escape", kind=tarfile.SYMTYPE, link=str(outside)),
                                       Entry("escape/pwned.py", b"x")]),
        "'copied': a hard link": tar_gz([*bot, Entry("copied", kind=tarfile.LNKTYPE, link=str(secret))]),
        "'null': a device": tar_gz([*bot, Entry("null", kind=tarfile.CHRTYPE)]),
        "'pipe': a FIFO": tar_gz([*bot, Entry("pipe", kind=tarfile.FIFOTYPE)]),
        "unpacks to more than 64 MB": pax_bomb(),
        "'bot.py': a file larger than 32 MB": big_file_bomb(),
        "more than 2000 files": tar_gz([*bot, *(Entry(f"f/{n}", b"") for n in range(2001))]),
        "not a tar archive": gzip.compress(b"not a tar archive, only text " * 100),
        "not gzip-compressed data, or damaged": tar_gz(bot)[:40],
        "bot.toml: resources.memory_mb: Input should be less than or equal to 4096":
            tar_gz([Entry("bot.toml", MANIFEST % b"hostile" + b"[resources]\nmemory_mb = 100000000000000000000\n"),
                    Entry("bot.py", b"")]),
        "bot.toml: name: String should match pattern":
            tar_gz([Entry("bot.toml", MANIFEST % "h\u202eostile".encode()), Entry("bot.py", b"")]),
        "bot.toml: description: String should have at most 500 characters":
            tar_gz([Entry("bot.toml", MANIFEST % b"hostile" + b'description = "' + b"d" * 100_000 + b'"\n')]),
        "bot.toml: nested too deeply to read":
            tar_gz([Entry("bot.toml", MANIFEST % b"hostile" + b"x = " + b"[" * 100_000 + b"]" * 100_000 + b"\n")]),
        "no bot.toml": tar_gz([Entry("bot.py", b"")]),
    }
    with serving(data.root, *LOCAL) as url:
        for expected, archive in cases.items():
            result = uploaded(url, data.asha, archive)
            assert result["status"] == "rejected", expected
            assert expected in result["reason"], (expected, result["reason"])
            assert "\n" not in result["reason"] and "\u202e" not in result["reason"]
            assert str(data.root) not in result["reason"]
    assert sorted(p.name for p in outside.iterdir()) == ["secret"]  # nothing written outside
    assert not (tmp_path / "escaped.py").exists()
    assert list((data.root / "uploads" / "work").iterdir()) == []  # nothing left unpacked
    with data.store.reading() as session:
        assert session.scalar(select(func.count()).select_from(BotVersion)) == 0


def test_http_refusals_are_one_line_4xx(tmp_path: Path) -> None:
    data = arena(tmp_path)
    archive = tar_gz(good_bot())
    with serving(data.root, *LOCAL) as url:
        assert post(url, data.asha, archive, "application/json").status_code == 415
        not_gzip = post(url, data.asha, b"PK\x03\x04 a zip file")
        assert (not_gzip.status_code, not_gzip.json()["detail"]) == \
            (415, "the body is not gzip data: send the tar.gz of the bot folder")
        chunked = httpx.post(url + "api/uploads", content=iter([archive]), timeout=10,
                             headers={**bearer(data.asha), "Content-Type": "application/gzip"})
        assert chunked.status_code == 411 and chunked.json()["detail"].startswith("Content-Length is required")
        assert post(url, "dehla_1_" + "x" * 43, archive).status_code == 401
        assert post(url, data.asha, b"").status_code == 400
        too_big = raw_post(url, data.asha, 32 * 1024 * 1024 + 1)  # refused from the header, before the body
        assert too_big.startswith(b"HTTP/1.1 413 "), too_big
        assert b"the upload is larger than 32 MB" in too_big
        assert httpx.get(url + "api/uploads", headers=bearer(data.asha), timeout=10).json() == []


def raw_post(url: str, token: str, length: int) -> bytes:
    """Send only the headers of an upload of ``length`` bytes: the answer."""
    parts = urlsplit(url)
    assert parts.hostname is not None and parts.port is not None
    with socket.create_connection((parts.hostname, parts.port), timeout=10) as connection:
        connection.sendall(f"POST /api/uploads HTTP/1.1\r\nHost: {parts.netloc}\r\nAuthorization: Bearer {token}\r\n"
                           f"Content-Type: application/gzip\r\nContent-Length: {length}\r\n\r\n".encode())
        answer = b""
        while b"\r\n\r\n" not in answer or not answer.endswith(b"}"):
            chunk = connection.recv(65536)
            if not chunk:
                break
            answer += chunk
    return answer


def test_the_rate_limit_refuses_with_429_and_retry_after(tmp_path: Path) -> None:
    data = arena(tmp_path)
    with serving(data.root, "--runner", "local", "--uploads-per-hour", "2") as url:
        for _ in range(2):
            assert post(url, data.asha, tar_gz([Entry("x", b"")])).status_code == 202
        refused = post(url, data.asha, tar_gz([Entry("x", b"")]))
        assert refused.status_code == 429
        assert refused.json()["detail"].startswith("at most 2 uploads per hour; try again in ")
        assert 3500 < int(refused.headers["retry-after"]) <= 3600
        assert post(url, data.bela, tar_gz([Entry("x", b"")])).status_code == 202  # per author


def test_uploads_pending_when_the_service_stopped_are_validated_after_a_restart(tmp_path: Path) -> None:
    data = arena(tmp_path)
    folder = bot_folder(tmp_path / "src", "kept")
    submit(data.store, RatingEnv(), folder, "local", no_validation, owner=data.asha_id)  # a version already
    stopped = Intake(data.store, IntakeSettings(runner="local"))  # the service, down: it never starts
    with stopped.staging() as (staged, file):
        file.write(pack_bytes(folder))
        file.close()
        upload = stopped.record(data.asha_id, staged, staged.stat().st_size)
    with serving(data.root, *LOCAL) as url:
        result = verdict(url, data.asha, upload.id)
    assert (result["status"], result["bot"], result["version"]) == ("accepted", "kept", 1)


def test_a_failed_validation_shows_the_bot_output_to_its_author_only(tmp_path: Path) -> None:
    data = arena(tmp_path)
    crasher = tar_gz([Entry("bot.toml", b'name = "crasher"\nversion = "1.0"\nauthor = "t"\n'
                                        b'command = ["python", "bot.py"]\n'),
                      Entry("bot.py", b"import sys\nprint('BOT-OUTPUT-7781 asha only', flush=True)\nsys.exit(3)\n")])
    with serving(data.root, *LOCAL) as url:
        result = uploaded(url, data.asha, crasher)
        assert result["status"] == "rejected" and result["has_log"], result
        assert result["reason"].startswith("validation match 1 (four seats): seat ")
        assert "BOT-OUTPUT-7781" not in result["reason"]
        mine = httpx.get(f"{url}api/uploads/{result['id']}/log", headers=bearer(data.asha), timeout=10)
        assert mine.status_code == 200 and "BOT-OUTPUT-7781" in mine.json()["log"]
        theirs = httpx.get(f"{url}api/uploads/{result['id']}/log", headers=bearer(data.bela), timeout=10)
        assert theirs.status_code == 404 and "BOT-OUTPUT" not in theirs.text
        listed = httpx.get(url + "api/uploads", headers=bearer(data.bela), timeout=10)
        assert "BOT-OUTPUT" not in listed.text
