"""The file ``dehla serve`` leaves in the data folder, and who believes it: ``running_server_url``
reads a live server's address, and ignores a stale file, a forged address or a broken file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from arena.console.serving import (
    LOCAL_MATCHES,
    SERVER_FILE,
    announced,
    local_match_url,
    running_server_url,
    server_url,
)
from arena.referee.commands import LOCAL_RECORDS
from arena.referee.match_page import print_match_page


def write(root: Path, content: object) -> None:
    root.mkdir(parents=True, exist_ok=True)
    (root / SERVER_FILE).write_text(json.dumps(content))


def dead_pid() -> int:
    """The id of a process that has exited (and been reaped)."""
    child = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True,
                           check=True)
    return int(child.stdout)


def test_a_running_servers_address_is_read_while_it_runs_and_gone_after(tmp_path: Path) -> None:
    assert running_server_url(tmp_path) is None
    with announced(tmp_path, "http://127.0.0.1:8123/"):
        assert running_server_url(tmp_path) == "http://127.0.0.1:8123/"
    assert running_server_url(tmp_path) is None and not (tmp_path / SERVER_FILE).exists()


def test_a_file_left_by_a_server_that_died_is_ignored(tmp_path: Path) -> None:
    write(tmp_path, {"url": "http://127.0.0.1:8123/", "pid": os.getpid()})
    assert running_server_url(tmp_path) == "http://127.0.0.1:8123/"  # the same file, a live process
    write(tmp_path, {"url": "http://127.0.0.1:8123/", "pid": dead_pid()})
    assert running_server_url(tmp_path) is None


@pytest.mark.parametrize("content", [
    {"url": "javascript:alert(1)//", "pid": os.getpid()},
    {"url": "http://127.0.0.1:8123/../../etc/passwd", "pid": os.getpid()},
    {"url": "http://host:1/\x1b]0;title\x07", "pid": os.getpid()},
    {"url": "file:///etc/passwd", "pid": os.getpid()},
    {"url": "http://127.0.0.1:8123/", "pid": True},
    {"url": "http://127.0.0.1:8123/", "pid": -1},
    {"url": "http://127.0.0.1:8123/", "pid": 2**80},
    {"url": ["http://127.0.0.1:8123/"], "pid": os.getpid()},
    ["not", "an", "object"],
])
def test_only_an_http_address_of_a_live_process_is_believed(tmp_path: Path, content: object) -> None:
    write(tmp_path, content)
    assert running_server_url(tmp_path) is None


def test_a_broken_file_is_ignored(tmp_path: Path) -> None:
    (tmp_path / SERVER_FILE).write_bytes(b"\xff{")
    assert running_server_url(tmp_path) is None
    (tmp_path / SERVER_FILE).unlink()
    (tmp_path / SERVER_FILE).mkdir()
    assert running_server_url(tmp_path) is None


def test_a_server_leaves_another_servers_file_in_place(tmp_path: Path) -> None:
    with announced(tmp_path, "http://127.0.0.1:1111/"):
        write(tmp_path, {"url": "http://127.0.0.1:2222/", "pid": 1})  # a second server, started since
    assert json.loads((tmp_path / SERVER_FILE).read_text())["url"] == "http://127.0.0.1:2222/"


def test_the_page_address_of_a_local_match(tmp_path: Path) -> None:
    record = tmp_path / LOCAL_MATCHES / "match-20261202-101010-1.jsonl"
    assert local_match_url(tmp_path, record) is None  # no server
    with announced(tmp_path, "http://127.0.0.1:8123/"):
        assert local_match_url(tmp_path, record) == "http://127.0.0.1:8123/local/match-20261202-101010-1"
        assert local_match_url(tmp_path, tmp_path / "elsewhere" / record.name) is None  # --records elsewhere
        assert local_match_url(tmp_path, record.with_name("odd.name.jsonl")) is None  # no page for that name
    assert LOCAL_MATCHES == LOCAL_RECORDS


def test_a_server_on_every_address_is_reached_on_loopback() -> None:
    assert server_url("0.0.0.0", 80) == "http://127.0.0.1:80/"
    assert server_url("::", 80) == "http://[::1]:80/"
    assert server_url("192.0.2.1", 8000) == "http://192.0.2.1:8000/"


def test_dehla_match_prints_the_page_on_stdout_or_beside_json_on_stderr(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / LOCAL_MATCHES / "match-1.jsonl"
    print_match_page(tmp_path, record)
    assert capsys.readouterr() == ("", "")
    with announced(tmp_path, "http://127.0.0.1:8123/"):
        print_match_page(tmp_path, record)
        assert capsys.readouterr() == ("match page: http://127.0.0.1:8123/local/match-1\n", "")
        print_match_page(tmp_path, record, as_json=True)
        assert capsys.readouterr() == ("", "match page: http://127.0.0.1:8123/local/match-1\n")


def test_a_folder_that_cannot_be_written_leaves_no_file_and_no_error(tmp_path: Path) -> None:
    missing = tmp_path / "not-there"  # as a read-only folder would: the write fails
    with announced(missing, "http://127.0.0.1:8123/"):
        assert running_server_url(missing) is None
