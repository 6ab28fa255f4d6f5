"""A bot belongs to one owner (an author's account, or the house: the arena's own machine), and
the sample bots' names are the house's from the start. Each attack is made as the hostile author
or submitter would make it; a refusal is one line naming the bot and its owner's kind, and leaves
nothing stored."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import func, select, update

from arena.bots.archive import PEEK_BYTES
from arena.referee.launcher import BotCommand
from ladder.admin.authors import add_author
from ladder.rating.ratings import RatingEnv
from ladder.store import ownership
from ladder.store.database import Store
from ladder.store.ownership import HOUSE_NAME, NotYourBotError, OwnerKind
from ladder.store.schema import Bot, BotVersion, Upload, UploadStatus
from ladder.submission.intake import Intake, IntakeSettings, upload_of, uploads_folder
from ladder.submission.submit import SubmissionRejected, submit
from ladder.versions.folders import sample_folder
from tests.bots.archives import MANIFEST, Entry, good_bot, tar_gz
from tests.database import database_env
from tests.ladder_helpers import bot_folder, no_validation, open_store


class Counting:
    """A validator that counts the validation runs it was asked for (none: refused before)."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, command: BotCommand, records: Path, runner: str) -> None:
        self.calls += 1


def fresh(tmp_path: Path) -> tuple[Store, int, int]:
    store = open_store(tmp_path / "data")
    return store, add_author(store, "mallory").author.id, add_author(store, "asha").author.id


def stored(store: Store) -> dict[str, tuple[int | None, int]]:
    """Each bot's owner id and number of versions."""
    with store.reading() as session:
        rows = session.execute(select(Bot.name, Bot.owner_id, func.count(BotVersion.id))
                               .join(BotVersion, BotVersion.bot_id == Bot.id).group_by(Bot.id))
        return {name: (owner, count) for name, owner, count in rows}


def named(parent: Path, folder: str, name: str, author: str = "t") -> Path:
    """A bot folder called ``folder`` whose manifest names the bot ``name``."""
    path = bot_folder(parent, folder)
    (path / "bot.toml").write_text(f'name = "{name}"\nversion = "1.0"\nauthor = "{author}"\n'
                                   'command = ["python", "bot.py"]\n')
    return path


def test_an_author_cannot_take_a_sample_name_before_the_operator_submits_it(tmp_path: Path) -> None:
    """The issue's attack: mallory uploads ``search`` first; the operator's ``--sample search``
    then landed in mallory's bot, and her next upload became its active version."""
    store, mallory, _ = fresh(tmp_path)
    counting = Counting()
    with pytest.raises(NotYourBotError) as refused:
        submit(store, RatingEnv(), named(tmp_path / "m", "squat", "search"), "local", counting, owner=mallory)
    assert str(refused.value) == ("bot name 'search' is reserved for the arena's own sample bot; only the house "
                                  "can submit it (choose another name in bot.toml)")
    assert "\n" not in str(refused.value) and refused.value.owner is OwnerKind.HOUSE
    assert counting.calls == 0 and stored(store) == {}
    sample = submit(store, RatingEnv(), sample_folder("search", store.data.samples), "local", no_validation)
    assert (sample.bot, sample.number, sample.created) == ("search", 1, True)
    with pytest.raises(NotYourBotError, match="bot 'search' belongs to the house"):
        submit(store, RatingEnv(), named(tmp_path / "m2", "squat", "search", "v2"), "local", counting, owner=mallory)
    assert stored(store) == {"search": (None, 1)} and counting.calls == 0


def test_without_reserved_names_the_author_would_take_the_sample_name(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Negative control: no reserved names, and mallory's upload of ``search`` is accepted."""
    store, mallory, _ = fresh(tmp_path)
    monkeypatch.setattr(ownership, "reserved_names", frozenset)
    taken = submit(store, RatingEnv(), named(tmp_path / "m", "squat", "search"), "local", no_validation, owner=mallory)
    assert taken.created and stored(store) == {"search": (mallory, 1)}


def test_the_operator_submits_samples_beside_authors_bots(tmp_path: Path) -> None:
    store, _, asha = fresh(tmp_path)
    submit(store, RatingEnv(), bot_folder(tmp_path / "a", "foo"), "local", no_validation, owner=asha)
    for name in ("search", "random"):
        assert submit(store, RatingEnv(), sample_folder(name, store.data.samples), "local", no_validation).created
    assert stored(store) == {"foo": (asha, 1), "search": (None, 1), "random": (None, 1)}


def test_an_author_cannot_add_a_version_to_another_authors_bot(tmp_path: Path) -> None:
    store, mallory, asha = fresh(tmp_path)
    submit(store, RatingEnv(), bot_folder(tmp_path / "a", "foo"), "local", no_validation, owner=asha)
    counting = Counting()
    with pytest.raises(NotYourBotError) as refused:
        submit(store, RatingEnv(), bot_folder(tmp_path / "m", "foo", "# mallory's\n"), "local", counting,
               owner=mallory)
    assert str(refused.value) == ("bot 'foo' belongs to another author; only they can add versions to it "
                                  "(choose another name in bot.toml)")
    assert "asha" not in str(refused.value)  # the owner's kind, never who
    assert counting.calls == 0 and stored(store) == {"foo": (asha, 1)}


def test_a_local_submission_cannot_add_a_version_to_an_authors_bot(tmp_path: Path) -> None:
    """The house owns what it submits, and only that: a local folder named like an author's bot is
    refused (before today it became the author's active version)."""
    store, _, asha = fresh(tmp_path)
    submit(store, RatingEnv(), bot_folder(tmp_path / "a", "foo"), "local", no_validation, owner=asha)
    counting = Counting()
    with pytest.raises(NotYourBotError) as refused:
        submit(store, RatingEnv(), bot_folder(tmp_path / "house", "foo", "# the house's\n"), "local", counting)
    assert str(refused.value) == ("bot 'foo' belongs to an author's account; only they can add versions to it "
                                  "(choose another name in bot.toml)")
    with pytest.raises(NotYourBotError):  # the very same content as the author's: not "unchanged" either
        submit(store, RatingEnv(), bot_folder(tmp_path / "a", "foo"), "local", counting)
    assert counting.calls == 0 and stored(store) == {"foo": (asha, 1)}
    assert list((store.data.bots / "foo").iterdir()) == [next((store.data.bots / "foo").iterdir())]


def test_the_cli_refuses_a_local_folder_owned_by_an_author_in_one_line(tmp_path: Path) -> None:
    store, _, asha = fresh(tmp_path)
    submit(store, RatingEnv(), bot_folder(tmp_path / "a", "foo"), "local", no_validation, owner=asha)
    store.close()
    folder = bot_folder(tmp_path / "house", "foo", "# the house's\n")
    env = database_env(tmp_path / "data", {k: v for k, v in os.environ.items() if k != "DEHLA_TOKEN"})
    done = subprocess.run([sys.executable, "-m", "arena", "submit", str(folder), "--runner", "local", "--data",
                           str(tmp_path / "data")], capture_output=True, text=True, timeout=120, env=env, check=False)
    assert done.returncode == 2
    assert done.stderr == (f"error: {folder}: bot 'foo' belongs to an author's account; only they can add "
                           "versions to it (choose another name in bot.toml)\n")
    assert done.stdout == ""
    assert not (tmp_path / "data" / "validation").exists()  # no validation match was played
    assert stored(open_store(tmp_path / "data")) == {"foo": (asha, 1)}


def test_a_sample_name_an_author_took_before_the_rule_stays_theirs(tmp_path: Path) -> None:
    """A store from before: mallory owns ``search``. It is never handed over: the house's
    ``--sample search`` is refused, her bot and its versions are untouched and stay hers."""
    store, mallory, _ = fresh(tmp_path)
    submit(store, RatingEnv(), bot_folder(tmp_path / "m", "legacy"), "local", no_validation, owner=mallory)
    with store.transaction() as session:  # as an older arena let her
        session.execute(update(Bot).where(Bot.name == "legacy").values(name="search"))
    with pytest.raises(NotYourBotError) as refused:
        submit(store, RatingEnv(), sample_folder("search", store.data.samples), "local", no_validation)
    assert str(refused.value) == ("bot 'search' belongs to an author's account (taken before sample names were "
                                  "reserved); the sample cannot be submitted under that name in this store "
                                  "(docs/operating.md, Bot names)")
    assert stored(store) == {"search": (mallory, 1)}
    again = submit(store, RatingEnv(), named(tmp_path / "m2", "x", "search", "v2"), "local", no_validation,
                   owner=mallory)
    assert again.created and stored(store) == {"search": (mallory, 2)}


def test_a_file_name_with_a_newline_is_refused_before_any_match_is_played(tmp_path: Path) -> None:
    """Cheap checks first: the name would be refused when the version is packed for the store,
    which came after both validation matches."""
    store = open_store(tmp_path / "data")
    folder = bot_folder(tmp_path / "src", "newline")
    (folder / "data\nfile.txt").write_text("x")
    counting = Counting()
    with pytest.raises(SubmissionRejected) as refused:
        submit(store, RatingEnv(), folder, "local", counting)
    assert str(refused.value) == "files: 'data\\nfile.txt': a control character in the name"
    assert counting.calls == 0
    assert stored(store) == {} and list((store.data.bots).iterdir()) == []


def test_the_owner_shown_is_the_account_not_the_manifest(tmp_path: Path) -> None:
    """mallory's manifest says author = "Dehla Arena": the ladder shows mallory."""
    store, mallory, _ = fresh(tmp_path)
    submit(store, RatingEnv(), named(tmp_path / "m", "fake", "official", "Dehla Arena"), "local", no_validation,
           owner=mallory)
    submit(store, RatingEnv(), sample_folder("random", store.data.samples), "local", no_validation)
    from ladder.store.read_model import ranking  # noqa: PLC0415

    with store.reading() as session:
        shown = {row.bot: row.author for row in ranking(session)}
    assert shown == {"official": "mallory", "random": HOUSE_NAME}


def test_the_cli_shows_the_owning_account(tmp_path: Path) -> None:
    """``dehla bots`` and ``dehla ladder show``: the account, not ``author = "Dehla Arena"``."""
    from click.testing import CliRunner  # noqa: PLC0415

    from arena.cli import main  # noqa: PLC0415

    store, mallory, _ = fresh(tmp_path)
    submit(store, RatingEnv(), named(tmp_path / "m", "fake", "official", "Dehla Arena"), "local", no_validation,
           owner=mallory)
    store.close()
    env = database_env(tmp_path / "data", {})
    data = str(tmp_path / "data")
    bots = CliRunner().invoke(main, ["bots", "--json", "--data", data], env=env)
    show = CliRunner().invoke(main, ["ladder", "show", "--json", "--data", data], env=env)
    table = CliRunner().invoke(main, ["bots", "--data", data], env={**env, "COLUMNS": "200"})
    assert [row["author"] for row in json.loads(bots.output)] == ["mallory"]
    assert [row["author"] for row in json.loads(show.output)] == ["mallory"]
    assert "mallory" in table.output and "Dehla Arena" not in table.output


def receive(intake: Intake, author_id: int, archive: bytes) -> int:
    """What the web endpoint does with a received body."""
    with intake.staging() as (staged, file):
        file.write(archive)
        file.close()
        return intake.record(author_id, staged, len(archive)).id


def test_an_upload_for_another_owners_bot_is_refused_before_it_is_stored(tmp_path: Path) -> None:
    """The upload API answers 403 at once (``Intake.record``); no upload row, no archive kept."""
    store, mallory, asha = fresh(tmp_path)
    submit(store, RatingEnv(), bot_folder(tmp_path / "a", "foo"), "local", no_validation, owner=asha)
    intake = Intake(store, IntakeSettings(runner="local"), validate=no_validation)
    for archive in (tar_gz(good_bot("foo")), tar_gz(good_bot("search")), tar_gz([Entry("./bot.toml",
                                                                                       MANIFEST % b"foo")])):
        with pytest.raises(NotYourBotError):
            receive(intake, mallory, archive)
    with store.reading() as session:
        assert session.scalar(select(func.count()).select_from(Upload)) == 0
    assert [p.name for p in uploads_folder(store.data).iterdir()] == []
    assert receive(intake, mallory, tar_gz(good_bot("mine"))) == 1  # a free name: stored, pending


def test_a_manifest_the_peek_cannot_reach_is_left_to_the_queue(tmp_path: Path) -> None:
    """``bot.toml`` after a megabyte of other files: stored as pending (a request thread never
    unpacks a whole upload), then rejected by the queue's own owner check, nothing added."""
    store, mallory, asha = fresh(tmp_path)
    submit(store, RatingEnv(), bot_folder(tmp_path / "a", "foo"), "local", no_validation, owner=asha)
    late = tar_gz([Entry("a.bin", b"\0" * (PEEK_BYTES + 1)), Entry("bot.toml", MANIFEST % b"foo"),
                   Entry("bot.py", b"# x\n")])
    intake = Intake(store, IntakeSettings(runner="local"), validate=no_validation)
    upload = receive(intake, mallory, late)
    intake.start()
    try:
        assert intake.wait_until_idle(60)
    finally:
        intake.stop()
    view = upload_of(store, upload, mallory)
    assert view is not None and view.status is UploadStatus.REJECTED
    assert view.reason is not None and view.reason.startswith("bot 'foo' belongs to another author")
    assert stored(store) == {"foo": (asha, 1)}
