"""``dehla serve`` as a real process: it prints the address it serves, and answers there."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from pathlib import Path

from fastapi.testclient import TestClient

from ladder.store.paths import ArenaData
from ladder.web.app import create_app
from tests.database import database_env, database_url


def test_serve_prints_the_address_it_serves_and_the_empty_leaderboard_says_how_to_submit(tmp_path: Path) -> None:
    env = {**database_env(tmp_path / "data"), "DEHLA_DATA": str(tmp_path / "data")}
    server = subprocess.Popen([sys.executable, "-m", "arena", "serve", "--port", "0"], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        assert line.startswith("Dehla Arena is at http://127.0.0.1:"), line
        base = line.split()[4]
        with urllib.request.urlopen(base, timeout=10) as response:
            page = response.read().decode()
        assert "dehla submit" in page
        with urllib.request.urlopen(base + "api/leaderboard", timeout=10) as response:
            assert json.load(response) == []
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_a_port_in_use_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    import socket  # noqa: PLC0415

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "arena", "serve", "--port", str(port), "--data",
                               str(tmp_path / "data")], check=False, capture_output=True, text=True, timeout=60,
                              env=database_env(tmp_path / "data"))
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert f"--port {port}: cannot listen there" in done.stderr


def test_the_leaderboard_page_escapes_a_bot_name(tmp_path: Path) -> None:
    from tests.ladder_helpers import add_bots, open_store  # noqa: PLC0415

    store = open_store(tmp_path)
    add_bots(store, ["s1", "s2"], tmp_path / "folders")
    with store.transaction() as session:
        from ladder.store.schema import Bot  # noqa: PLC0415

        session.query(Bot).filter(Bot.name == "s1").update({"name": "<b>x</b>"})
    store.close()
    client = TestClient(create_app(ArenaData(tmp_path, database_url(tmp_path))))
    page = client.get("/").text
    assert "<b>x</b>" not in page
    assert "&lt;b&gt;x&lt;/b&gt;" in page


def test_a_played_ladders_leaderboard_page_and_api_show_the_same_bots(played: ArenaData) -> None:
    client = TestClient(create_app(played))
    rows = client.get("/api/leaderboard").json()
    assert sorted(row["bot"] for row in rows) == ["heuristic", "random"]
    assert all(row["matches"] == 2 for row in rows)
    page = client.get("/").text
    assert all(row["bot"] in page for row in rows)
