"""The images: the base image's cache, a version's image from its own (hostile) Dockerfile, a
submission built, validated and played in containers. The Dockerfile rules are checked on text
first (no podman needed); the real builds show what each refused instruction would do."""

from __future__ import annotations

import asyncio
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from arena.bots.manifest import load_manifest
from arena.bots.scaffold import scaffold_bot
from arena.contract.faults import FaultPolicy
from arena.contract.time_control import TimeControl
from arena.engine.match import MatchFormat
from arena.engine.rules import rules_for
from arena.referee.launcher import BotCommand, resolve_bot
from arena.referee.local import play_local_match
from arena.referee.table_values import TableConfig
from arena.sandbox import Limits, Program
from arena.sandbox.containers import BASE_IMAGE, ContainerLaunch, ContainerRunner, image_exists
from ladder.execution.runners import make_runner
from ladder.rating.ratings import RatingEnv
from ladder.store.database import Store
from ladder.store.schema import BotVersion
from ladder.submission.submit import Submission, SubmissionRejected, submit
from ladder.versions.base_image import RootFs, build_base_image, inputs_digest, pinned_requirements, prune
from ladder.versions.folders import content_hash
from ladder.versions.images import (
    DEFAULT_DOCKERFILE,
    BuildPolicy,
    ImageRefused,
    build_argv,
    build_version_image,
    check_dockerfile,
    image_tag,
)
from tests.containers.conftest import PODMAN
from tests.ladder_helpers import open_store

POLICY = BuildPolicy()
BASE = f"FROM {BASE_IMAGE}\n"


# ------------------------------------------------------------------ the Dockerfile's rules
@pytest.mark.parametrize("text, problem", [
    ("FROM python:3.11-slim\nCOPY . /bot\n", "line 1: FROM must name the arena's base image"),
    ("COPY . /bot\n", "must start with FROM dehla-arena/bot-base:1"),
    ("", "must start with FROM"),
    (f"{BASE}FROM {BASE_IMAGE}\n", "line 2: FROM must name the arena's base image dehla-arena/bot-base:1, once"),
    (f"FROM {BASE_IMAGE} AS stage\n", "line 1: FROM must name"),
    (f"FROM --platform=linux/arm64 {BASE_IMAGE}\n", "line 1: FROM must name"),
    ("ARG IMAGE=alpine\nFROM $IMAGE\n", "must start with FROM"),
    (f"{BASE}COPY --from=dehla-bot/victim:0123456789ab /bot /stolen\n", "line 2: COPY --from is not allowed"),
    (f"{BASE}ADD https://example.com/x.tar.gz /bot/\n", "line 2: ADD is not allowed"),
    (f"{BASE}VOLUME /data\n", "line 2: VOLUME is not allowed"),
    (f"{BASE}ONBUILD RUN true\n", "line 2: ONBUILD is not allowed"),
    (f"{BASE}HEALTHCHECK CMD true\n", "line 2: HEALTHCHECK is not allowed"),
    (f"{BASE}RUN pip install numpy\n", "line 2: RUN is not allowed (the operator has not allowed RUN"),
    (f"# syntax=docker/dockerfile:1\n{BASE}", "line 1: parser directives"),
    (f"# escape=`\n{BASE}", "line 1: parser directives"),
    (f"{BASE}COPY . \\\n", "ends inside a continued line"),
])
def test_a_dockerfile_breaking_a_rule_is_refused_in_one_line(text: str, problem: str) -> None:
    with pytest.raises(ImageRefused) as refused:
        check_dockerfile(text, POLICY)
    assert problem in str(refused.value) and "\n" not in str(refused.value)


@pytest.mark.parametrize("text", [f"{BASE}\x1b[2J\x1b[31mEVIL x\n", f"{BASE}COPY --\x1b]0;pwned\x07=1 . /bot\n"])
def test_a_refusal_never_repeats_the_dockerfiles_odd_text(text: str) -> None:
    with pytest.raises(ImageRefused) as refused:
        check_dockerfile(text, POLICY)
    assert "line 2: " in str(refused.value) and "this is not allowed" in str(refused.value)
    assert "\x1b" not in str(refused.value) and "pwned" not in str(refused.value)


@pytest.mark.parametrize("text, problem", [
    (f"{BASE}RUN --mount=type=cache,target=/root/.cache pip install x\n", "line 2: RUN flags"),
    (f"{BASE}RUN --network=host true\n", "line 2: RUN flags"),
    (f"{BASE}RUN <<EOF\necho hi\nEOF\n", "line 2: heredocs are not allowed"),
])
def test_run_when_allowed_still_has_no_flags_nor_heredocs(text: str, problem: str) -> None:
    with pytest.raises(ImageRefused, match=problem):
        check_dockerfile(text, BuildPolicy(allow_run=True))


def test_the_scaffolds_dockerfile_and_the_default_pass(tmp_path: Path) -> None:
    check_dockerfile((scaffold_bot("plain", tmp_path) / "Dockerfile").read_text(), POLICY)
    check_dockerfile(DEFAULT_DOCKERFILE, POLICY)
    check_dockerfile(f"{BASE}# a comment\nCOPY --chown=bot:bot \\\n  . /bot\nRUN true\n", BuildPolicy(allow_run=True))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["FROM ", BASE_IMAGE, "COPY", " . /bot", "RUN", "ADD", "--from=x", "\\", "\n", "#",
                                  " ", "=", "<<", "AS", "x", "\r", "\t", "\x1b", "\x00"]), max_size=40).map("".join))
def test_any_text_is_accepted_or_refused_in_one_line(text: str) -> None:
    try:
        check_dockerfile(text, POLICY)
    except ImageRefused as refused:
        assert "\n" not in str(refused) and "\x1b" not in str(refused) and "\x00" not in str(refused)


# ------------------------------------------------------------------------ the base image
def test_the_base_image_is_named_by_its_inputs_and_not_rebuilt(base_image: str, tmp_path: Path) -> None:
    again = build_base_image(PODMAN)
    assert again.image == base_image and not again.built, (again, base_image)
    root = tmp_path / "project"
    for name in ("arena", "protocol", "sdk", "sample_bots", "ladder"):
        (root / name).mkdir(parents=True)
        (root / name / "__init__.py").write_text("")
    (root / "pyproject.toml").write_text("[project]\n")
    (root / "README.md").write_text("readme\n")
    requirements = pinned_requirements()
    first = inputs_digest(RootFs(), requirements, root)
    (root / "sdk" / "__init__.py").write_text("# changed\n")
    assert inputs_digest(RootFs(), requirements, root) != first
    assert inputs_digest(RootFs(packages=("python3",)), requirements, root) != inputs_digest(RootFs(), requirements,
                                                                                              root)
    assert any(r.startswith("grpcio==") for r in requirements)


def test_the_base_image_installs_the_project_as_its_sources_are_now(base_image: str) -> None:
    """The image named by today's inputs holds today's code: podman's layer cache does not hash
    the wheels the install step reads through a bind mount, and once reused an older build's
    layer (an SDK without a class the scaffold imports: every container validation failed)."""
    installed = subprocess.run(PODMAN.command(
        "run", "--rm", "--network", "none", "--ulimit", "nofile=256:256", "--ulimit", "nproc=64:64", base_image,
        "cat", "/usr/local/lib/python3.11/dist-packages/sdk/__init__.py",
        "/usr/local/lib/python3.11/dist-packages/protocol/__init__.py"), capture_output=True, check=True).stdout
    here = Path(__file__).resolve().parents[2]
    assert installed == (here / "sdk" / "__init__.py").read_bytes() + (here / "protocol" / "__init__.py").read_bytes()


def test_older_base_images_are_untagged_after_a_build(base_image: str) -> None:
    old = f"{BASE_IMAGE.rsplit(':', 1)[0]}:0000000000000000"
    subprocess.run(PODMAN.command("tag", base_image, old), check=True)
    prune(PODMAN, BASE_IMAGE.rsplit(":", 1)[0], {base_image, BASE_IMAGE})
    assert not image_exists(PODMAN, old)
    assert image_exists(PODMAN, base_image) and image_exists(PODMAN, BASE_IMAGE)


# ------------------------------------------------------------------ a submission for real
CLOCK = TimeControl(per_move=2.0, bank=3.0, startup=60.0)


@pytest.fixture(scope="module")
def submitted(base_image: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Store, Submission]]:
    """A ``dehla bot new`` bot submitted with the container runner: its image built from its own
    Dockerfile (an image left by an earlier run is removed first), then validated by two
    matches in containers."""
    parent = tmp_path_factory.mktemp("submitted")
    store = open_store(parent / "data")
    folder = scaffold_bot("boxed", parent / "folders")
    tag = image_tag("boxed", content_hash(folder))
    subprocess.run(PODMAN.command("rmi", "--force", tag), capture_output=True, check=False)
    try:
        yield store, submit(store, RatingEnv(), folder, "container")
    finally:
        subprocess.run(PODMAN.command("rmi", "--force", tag), capture_output=True, check=False)


def version_command(store: Store, submission: Submission) -> BotCommand:
    folder = store.data.root / submission.path
    manifest = load_manifest(folder)
    return BotCommand(manifest.name, manifest.argv(), cwd=str(folder), resources=manifest.resources)


def test_a_scaffolded_bot_is_built_into_its_own_image_and_accepted(submitted: tuple[Store, Submission]) -> None:
    store, submission = submitted
    assert submission.created
    tag = image_tag("boxed", submission.content_hash)
    assert image_exists(PODMAN, tag)
    listed = subprocess.run(PODMAN.command("run", "--rm", "--network", "none", "--ulimit", "nofile=1024:1024",
                                           "--ulimit", "nproc=256:256", tag, "ls", "/bot"),
                            capture_output=True, text=True, check=True).stdout.split()
    assert {"bot.py", "bot.toml", "Dockerfile"} <= set(listed)
    logs = sorted((store.data.validation / submission.content_hash[:12]).glob("*.seat*.log"))
    # two validation matches, each duplicate in two rooms of four containers
    assert len(logs) == 16 and len([log for log in logs if ".room1." in log.name]) == 8
    assert all("[runner container; uid" in log.read_text() for log in logs)
    assert all("engine podman" in log.read_text() for log in logs)


def test_a_version_runs_in_its_own_image_without_its_folder_mounted(submitted: tuple[Store, Submission]) -> None:
    store, submission = submitted
    runner = make_runner("container")
    assert isinstance(runner, ContainerRunner)
    folder = store.data.root / submission.path
    launch = runner.prepare(version_command(store, submission).program(),
                            f"unix:{folder.parent.parent.parent / 'seat-test'}/s0/bot.sock", Limits())
    try:
        assert isinstance(launch, ContainerLaunch)
        assert image_tag("boxed", submission.content_hash) in launch.argv
        assert not [a for a in launch.argv if a.startswith("type=bind") and str(folder) in a]
    finally:
        launch.abandon()


def test_a_submitted_version_plays_a_match_in_containers(submitted: tuple[Store, Submission], tmp_path: Path) -> None:
    store, submission = submitted
    boxed = version_command(store, submission)
    config = TableConfig("contained", rules_for("dehla-pakad"), "dehla-pakad", MatchFormat.parse("duplicate:1"), 5,
                         CLOCK, FaultPolicy.FORFEIT)
    runner = make_runner("container")
    outcome = asyncio.run(play_local_match((boxed, boxed), (resolve_bot("random"), resolve_bot("random")), config,
                                           tmp_path, None, runner))
    assert outcome.status == "done" and outcome.faults == []
    assert all("[runner container; uid" in log.read_text() for log in tmp_path.glob("*.seat*.log"))


def test_a_hostile_dockerfile_is_rejected_at_submission_and_nothing_is_kept(base_image: str, tmp_path: Path) -> None:
    store = open_store(tmp_path / "data")
    folder = scaffold_bot("pulls", tmp_path / "folders")
    (folder / "Dockerfile").write_text("FROM python:3.11-slim\nCOPY . /bot\n")
    with pytest.raises(SubmissionRejected) as rejected:
        submit(store, RatingEnv(), folder, "container")
    assert rejected.value.check == "image"
    assert "FROM must name the arena's base image" in rejected.value.detail
    assert not (store.data.bots / "pulls").exists() or list((store.data.bots / "pulls").iterdir()) == []
    with store.reading() as session:
        assert session.scalars(select(BotVersion)).all() == []


# ------------------------------------------------------- what the refused builds would do
def unchecked_build(tmp_path: Path, dockerfile: str, tag: str, policy: BuildPolicy = POLICY,
                    without: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    """A build of ``dockerfile`` as ``build_version_image`` runs it, without the text's check."""
    folder = tmp_path / "context"
    folder.mkdir(exist_ok=True)
    (folder / "bot.py").write_text("# an innocent-looking bot\n")
    path = tmp_path / "Dockerfile"
    path.write_text(dockerfile)
    argv = build_argv(PODMAN, policy, str(path), folder, tag, "0" * 64)
    for option in without:
        at = argv.index(option)
        del argv[at: at + 2]
    return subprocess.run(argv, capture_output=True, text=True, timeout=300, check=False)


def test_control_copy_from_would_steal_another_versions_code(submitted: tuple[Store, Submission],
                                                               tmp_path: Path) -> None:
    _, victim = submitted
    dockerfile = f"{BASE}COPY --from={image_tag('boxed', victim.content_hash)} /bot/bot.py /bot/stolen.py\n"
    thief = "dehla-bot/thief:000000000000"
    try:
        assert unchecked_build(tmp_path, dockerfile, thief).returncode == 0
        stolen = subprocess.run(PODMAN.command("run", "--rm", "--network", "none", "--ulimit", "nofile=1024:1024",
                                               "--ulimit", "nproc=256:256", thief, "cat", "/bot/stolen.py"),
                                capture_output=True, text=True, check=True).stdout
        assert "class BoxedBot" in stolen
    finally:
        subprocess.run(PODMAN.command("rmi", "--force", thief), capture_output=True, check=False)
    with pytest.raises(ImageRefused, match="COPY --from is not allowed"):
        check_dockerfile(dockerfile, POLICY)


CONNECT = "RUN python -c \"import socket; socket.create_connection(('deb.debian.org', 80), timeout=10)\"\n"


def test_run_when_allowed_has_no_network_in_the_build(base_image: str, tmp_path: Path) -> None:
    folder = tmp_path / "bot"
    folder.mkdir()
    (folder / "Dockerfile").write_text(f"{BASE}{CONNECT}")
    with pytest.raises(ImageRefused, match=r"^the image build failed \(exit \d+; its output follows\)$") as failed:
        build_version_image(folder, "online", "1" * 64, PODMAN, BuildPolicy(allow_run=True))
    assert "socket.gaierror" in failed.value.output  # no name service, no network: the author's to see only
    assert not image_exists(PODMAN, image_tag("online", "1" * 64))


def test_control_the_same_build_reaches_the_network_without_network_none(base_image: str, tmp_path: Path) -> None:
    tag = "dehla-bot/online:222222222222"
    try:
        done = unchecked_build(tmp_path, f"{BASE}{CONNECT}", tag, BuildPolicy(allow_run=True), without=("--network",))
        assert done.returncode == 0, done.stderr[-500:]
    finally:
        subprocess.run(PODMAN.command("rmi", "--force", tag), capture_output=True, check=False)


def test_the_manifests_command_runs_never_the_images_entrypoint(base_image: str, tmp_path: Path) -> None:
    folder = tmp_path / "bot"
    folder.mkdir()
    (folder / "Dockerfile").write_text(f'{BASE}ENTRYPOINT ["sh", "-c", "echo ENTRYPOINT-RAN; exec \\"$@\\"", "x"]\n')
    tag = build_version_image(folder, "entry", "3" * 64, PODMAN, POLICY)
    try:
        runner = ContainerRunner(PODMAN, lambda program: tag)
        said = []
        for without in ((), ("--entrypoint",)):
            launch = runner.prepare(Program(("python", "-c", "print('the command ran')")),
                                    f"unix:{tmp_path / 'seats' / str(len(said))}/bot.sock", Limits())
            assert isinstance(launch, ContainerLaunch)
            argv = list(launch.argv)
            for option in without:  # the control: the same run without the override
                at = argv.index(option)
                del argv[at: at + 2]
                argv.insert(argv.index(tag) + 1, "python")
            try:
                said.append(subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False).stdout)
            finally:
                asyncio.run(launch.finish())
        assert said[0].split("\n") == ["the command ran", ""]
        assert said[1].split("\n") == ["ENTRYPOINT-RAN", "the command ran", ""]
    finally:
        subprocess.run(PODMAN.command("rmi", "--force", tag), capture_output=True, check=False)
