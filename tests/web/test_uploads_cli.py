"""``dehla submit FOLDER --server URL`` against a real ``dehla serve``: as a real subprocess once,
in process (``run_dehla``, the same command line) for the other cases."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from ladder.rating.ratings import RatingEnv
from ladder.submission.submit import submit
from tests.cli_helpers import run_dehla
from tests.database import database_env
from tests.ladder_helpers import bot_folder, no_validation
from tests.web.uploads_helpers import Arena, arena, verdict
from tests.web_helpers import serving


def dehla_submit(*args: str, token: str | None = None, real: bool = False) -> subprocess.CompletedProcess[str]:
    """``dehla submit ARGS`` with ``token`` as ``$DEHLA_TOKEN``; a real subprocess if ``real``."""
    env = {k: v for k, v in os.environ.items() if k != "DEHLA_TOKEN"}
    if token is not None:
        env["DEHLA_TOKEN"] = token
    if "--data" in args:  # a local submission: into the test database of that folder
        env = database_env(Path(args[args.index("--data") + 1]), env)
    if not real:
        return run_dehla("submit", *args, env=env)
    return subprocess.run([sys.executable, "-m", "arena", "submit", *args], check=False, capture_output=True,
                          text=True, timeout=300, env=env)


@pytest.fixture
def stored(tmp_path: Path) -> tuple[Arena, Path]:
    """asha's bot ``kept``, stored already (validated elsewhere), and its folder."""
    data = arena(tmp_path)
    folder = bot_folder(tmp_path / "src", "kept")
    (folder / "__pycache__").mkdir()
    (folder / "__pycache__" / "bot.cpython-311.pyc").write_bytes(b"cache")  # left out by packing
    submit(data.store, RatingEnv(), folder, "local", no_validation, owner=data.asha_id)
    return data, folder


def test_submit_to_a_server_waits_for_the_verdict(stored: tuple[Arena, Path]) -> None:
    data, folder = stored
    with serving(data.root, "--runner", "local") as url:
        done = dehla_submit(str(folder), "--server", url, token=data.asha, real=True)
        assert (done.returncode, done.stdout.split()[:3]) == (0, ["accepted", "kept", "#1"]), done.stderr
        quick = dehla_submit(str(folder), "--server", url, "--no-wait", "--token", data.asha)
        assert quick.returncode == 0, quick.stderr
        assert quick.stdout.startswith("uploaded: upload 2 is pending; its status: ")
        assert quick.stdout.split()[-1] == f"{url}api/uploads/2"
        assert verdict(url, data.asha, 2)["status"] == "accepted"
    for result in (done, quick):
        assert data.asha not in result.stdout + result.stderr


def test_every_refusal_is_one_line_and_exit_2(stored: tuple[Arena, Path], tmp_path: Path) -> None:
    data, folder = stored
    odd = bot_folder(tmp_path / "odd", "odd")
    (odd / "bot.toml").write_text((odd / "bot.toml").read_text() + "[resources]\nmemory_mb = 99999\n")
    crash = bot_folder(tmp_path / "crash", "crash", "import sys\nprint('BOT-OUTPUT-5521', flush=True)\nsys.exit(3)\n")
    linked = bot_folder(tmp_path / "linked", "linked")
    (linked / "passwd").symlink_to("/etc/passwd")
    with serving(data.root, "--runner", "local") as url:
        cases = {
            "rejected": dehla_submit(str(folder), "--server", url, token=data.bela),
            "manifest": dehla_submit(str(odd), "--server", url, token=data.asha),
            "crash": dehla_submit(str(crash), "--server", url, token=data.asha),
            "token": dehla_submit(str(folder), "--server", url, token=data.asha + "x"),
            "no token": dehla_submit(str(folder), "--server", url),
            "symlink": dehla_submit(str(linked), "--server", url, token=data.asha),
            "bad url": dehla_submit(str(folder), "--server", "ftp://example.org", token=data.asha),
            "sample": dehla_submit("--sample", "random", "--server", url, token=data.asha),
        }
    expected = {
        "rejected": "error: upload refused: the server said 403: bot 'kept' belongs to another author; only they "
                    "can add versions to it (choose another name in bot.toml)",
        "manifest": f"error: rejected {odd}: bot.toml: resources.memory_mb: Input should be less than or equal "
                    "to 4096 (got 99999)",
        "crash": f"error: rejected {crash}: validation match 1 (four seats): seat ",
        "token": "error: upload refused: the server said 401: not a valid API token",
        "no token": "error: --server needs your API token: --token TOKEN or $DEHLA_TOKEN",
        "symlink": f"error: {linked}: 'passwd': a symlink; a bot folder holds plain files only",
        "bad url": "error: --server 'ftp://example.org': give the arena's address",
        "sample": "error: --server uploads a bot FOLDER",
    }
    assert "--- the bot's output (tail) ---\nBOT-OUTPUT-5521" in cases["crash"].stderr  # to its author
    for name, result in cases.items():
        lines = [line for line in result.stderr.splitlines() if line.startswith("error:")]
        assert result.returncode == 2, (name, result.stderr)
        assert len(lines) == 1 and lines[0].startswith(expected[name]), (name, result.stderr)
        assert "Traceback" not in result.stderr
        assert data.asha not in result.stdout + result.stderr and data.bela not in result.stdout + result.stderr


def test_without_server_submit_still_works_locally(stored: tuple[Arena, Path]) -> None:
    """Locally the house submits its own bots; asha's ``kept`` is hers alone, even its very content."""
    data, folder = stored
    done = dehla_submit("--sample", "random", "--data", str(data.root), "--runner", "local")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(("accepted random #1", "unchanged: random #1"))
    refused = dehla_submit(str(folder), "--data", str(data.root), "--runner", "local")
    assert refused.returncode == 2
    assert refused.stderr == f"error: {folder}: bot 'kept' belongs to an author's account; only they can add " \
                             "versions to it (choose another name in bot.toml)\n"
    assert dehla_submit(str(folder), "--no-wait", "--data", str(data.root)).returncode == 2
