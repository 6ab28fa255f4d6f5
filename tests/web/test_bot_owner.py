"""What the web shows as a bot's author is its owning account, never its manifest's ``author``
line, which anyone can write (``author = "Dehla Arena"``); that line is the bot's own words,
shown on its page and escaped."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from ladder.admin.authors import add_author
from ladder.rating.ratings import RatingEnv
from ladder.store.ownership import HOUSE_NAME
from ladder.submission.submit import submit
from ladder.versions.folders import sample_folder
from ladder.web.app import create_app
from tests.ladder_helpers import bot_folder, no_validation, open_store

CLAIM = 'Dehla Arena <b id="fake">official</b>'


def client(tmp_path: Path) -> TestClient:
    store = open_store(tmp_path / "data")
    mallory = add_author(store, "mallory").author.id
    folder = bot_folder(tmp_path / "src", "official")
    (folder / "bot.toml").write_text(f'name = "official"\nversion = "1.0"\nauthor = \'{CLAIM}\'\n'
                                     'command = ["python", "bot.py"]\n')
    submit(store, RatingEnv(), folder, "local", no_validation, owner=mallory)
    submit(store, RatingEnv(), sample_folder("random", store.data.samples), "local", no_validation)
    data = store.data
    store.close()
    return TestClient(create_app(data))


def test_the_leaderboard_api_and_pages_show_the_owning_account(tmp_path: Path) -> None:
    web = client(tmp_path)
    rows = {row["bot"]: row["author"] for row in web.get("/api/leaderboard").json()}
    assert rows == {"official": "mallory", "random": HOUSE_NAME}
    bot = web.get("/api/bots/official").json()
    assert (bot["author"], bot["owner_kind"], bot["self_described"]) == ("mallory", "author", CLAIM)
    assert web.get("/api/bots/random").json()["owner_kind"] == "house"
    page = web.get("/bots/official").text
    assert '<span id="bot-author" data-owner-kind="author">mallory</span>' in page
    assert '<b id="fake">' not in page and "&lt;b id=&#34;fake&#34;&gt;official&lt;/b&gt;" in page
    board = web.get("/").text
    assert "Dehla Arena &lt;b" not in board and "mallory" in board
