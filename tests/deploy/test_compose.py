"""docker/compose.yaml against the code it deploys: every command a service runs parses with our
CLI (or Dask's), the image copies every package, the services find each other, and no secret is
written in the file (no container engine runs here: docs/deploy.md, "What was checked")."""

from __future__ import annotations

import subprocess
import tomllib
from pathlib import Path

import click
import pytest
from distributed.cli.dask_scheduler import main as dask_scheduler
from sqlalchemy import make_url

from arena.cli import main as dehla
from tests.deploy_helpers import COMPOSE, services

ROOT = Path(__file__).resolve().parents[2]
DOCKER = ROOT / "docker"
DOCKERFILE = DOCKER / "arena.Dockerfile"

THIRD_PARTY = {"postgres", "proxy"}
"""Services that run an official image (PostgreSQL, nginx), not the arena's."""


class CommandError(Exception):
    """A service's command that our CLI would refuse; the message is the CLI's own."""


def check_command(argv: list[str]) -> click.Command:
    """Parse ``argv`` as its program would (options, choices, ranges, arguments), running nothing;
    the command that would run. ``CommandError`` if the program would refuse it."""
    program, *args = argv
    roots: dict[str, click.Command] = {"dehla": dehla}
    if program == "dask":
        if args[:1] != ["scheduler"]:
            raise CommandError(f"dask {args[:1]}: only `dask scheduler` is deployed")
        program, args, roots = "scheduler", args[1:], {"scheduler": dask_scheduler}
    if program not in roots:
        raise CommandError(f"{program}: not a program of this image")
    command, context = roots[program], None
    try:
        while isinstance(command, click.Group):
            context = click.Context(command, info_name=command.name, parent=context)
            if not args:
                raise CommandError(f"{context.command_path}: no subcommand")
            found = command.get_command(context, args[0])
            if found is None:
                raise CommandError(f"{context.command_path} {args[0]}: no such command")
            command, args = found, args[1:]
        command.make_context(command.name, list(args), parent=context)
    except click.ClickException as exc:
        raise CommandError(exc.format_message()) from None
    return command


def test_the_checker_refuses_what_the_cli_would() -> None:
    """Negative controls: a wrong option, a bad value, an unknown command are each caught."""
    check_command(["dehla", "serve", "--host", "0.0.0.0", "--port", "8000", "--validations", "1"])
    for wrong in (["dehla", "serve", "--hots", "0.0.0.0"], ["dehla", "serve", "--port", "eighty"],
                  ["dehla", "ladder", "runn"], ["dehla", "ladder", "run", "--mode", "solo"],
                  ["dask", "scheduler", "--prot", "8786"], ["dask", "worker", "tcp://scheduler:8786"],
                  ["sh", "-c", "dehla serve"]):
        with pytest.raises(CommandError):
            check_command(wrong)


@pytest.mark.parametrize("service", [name for name, spec in services().items() if "command" in spec])
def test_every_service_command_parses_with_our_cli(service: str) -> None:
    command = services()[service]["command"]
    assert isinstance(command, list), "commands are lists (no shell to quote through)"
    check_command([str(word) for word in command])


def test_the_workers_and_the_coordinator_reach_the_scheduler_where_it_listens() -> None:
    spec = services()
    scheduler = spec["scheduler"]["command"]
    port = scheduler[scheduler.index("--port") + 1]
    address = f"tcp://scheduler:{port}"
    assert spec["worker"]["command"][:3] == ["dehla", "worker", address]
    coordinator = spec["coordinator"]["command"]
    assert coordinator[coordinator.index("--cluster") + 1] == address


def test_the_scheduler_never_retries_a_match_itself() -> None:
    """A match on a lost worker goes back to the ladder's queue (counted once), not to Dask's retries."""
    assert services()["scheduler"]["environment"]["DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES"] == "0"


def test_the_arena_image_is_built_from_the_arena_dockerfile_and_copies_every_package() -> None:
    for name, spec in services().items():
        if name in THIRD_PARTY:
            continue
        assert spec["build"] == {"context": "..", "dockerfile": "docker/arena.Dockerfile"}, name
    packages = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]
    wanted = {pattern.rstrip("*") for pattern in packages["include"]}
    copies = [line.split()[1:-1] for line in DOCKERFILE.read_text().splitlines() if line.startswith("COPY ")]
    copied = {source for sources in copies for source in sources}
    assert wanted <= copied, f"packages the image leaves out: {sorted(wanted - copied)}"
    for source in copied:
        assert (ROOT / source).exists(), f"COPY {source}: not in the repository"


def test_no_secret_is_written_in_the_compose_file() -> None:
    """Secrets come from env files that git ignores; each has a committed example with the same keys."""
    text = COMPOSE.read_text()
    for spec in services().values():
        for key, value in dict(spec.get("environment") or {}).items():
            assert not any(word in key.upper() for word in ("PASSWORD", "SECRET", "TOKEN", "DATABASE_URL")), key
            assert "@" not in str(value), f"{key}: a URL with credentials"
    assert "CHANGE-ME" not in text and "postgresql+psycopg://" not in text
    env_files = {name for spec in services().values() for name in spec.get("env_file") or []}
    assert env_files == {"arena.env", "postgres.env"}
    for name in env_files:
        ignored = subprocess.run(["git", "check-ignore", "-q", f"docker/{name}"], cwd=ROOT, check=False)
        assert ignored.returncode == 0, f"docker/{name} is not ignored by git"
        assert (DOCKER / f"{name}.example").is_file()


def example(name: str) -> dict[str, str]:
    lines = (DOCKER / f"{name}.example").read_text().splitlines()
    return dict(line.split("=", 1) for line in lines if line and not line.startswith("#"))


def test_the_example_store_url_names_the_postgres_service_and_its_database() -> None:
    url = make_url(example("arena.env")["DEHLA_DATABASE_URL"])
    postgres = example("postgres.env")
    assert url.drivername == "postgresql+psycopg"
    assert (url.host, url.username, url.database) == ("postgres", postgres["POSTGRES_USER"], postgres["POSTGRES_DB"])
    assert url.password == postgres["POSTGRES_PASSWORD"]


SANDBOX_CAPS = {"SYS_ADMIN", "SETUID", "SETGID", "SYS_PTRACE"}
CGROUPS = "/sys/fs/cgroup:/sys/fs/cgroup:rw"


def test_the_services_that_run_bots_get_what_the_sandbox_needs_and_no_other_does() -> None:
    """A service's own ``volumes:`` replaces the merged anchor's list: the cgroup mount must be
    repeated there, or the limits fall back to rlimits (what docs/deploy.md found without it)."""
    for name, spec in services().items():
        runs_bots = name in {"worker", "web"}
        assert (set(spec.get("cap_add") or []) >= SANDBOX_CAPS) is runs_bots, name
        assert ("systempaths=unconfined" in (spec.get("security_opt") or [])) is runs_bots, name
        assert (CGROUPS in (spec.get("volumes") or [])) is runs_bots, name
        assert not spec.get("privileged"), name
