"""The sandbox runner end to end: real bots in bubblewrap sandboxes at real tables.

Four sandboxed bots play full matches; the four bots of a table share no uid, writable folder
or namespace; sandboxed bots die with their referee; a sandbox that cannot be set up voids the
match without blaming a bot; ``dehla match --runner sandbox`` works. The docker runner's
integration test runs only where ``docker info`` answers.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.bots.scaffold import scaffold_bot
from arena.contract.time_control import TimeControl
from arena.referee import commands
from arena.referee.commands import match_command
from arena.referee.launcher import resolve_bot
from arena.sandbox.bwrap import SandboxConfig, SandboxRunner
from arena.sandbox.containers import ContainerConfig, ContainerRunner, Engine, container_problem
from arena.sandbox.uids import processes_of
from sample_bots.random.bot import RandomBot
from tests.hostile.harness import RANDOM, hostile, play, sandbox_runner, table_config, wait_gone

ROOT = Path(__file__).resolve().parents[2]
needs_sandbox = pytest.mark.usefixtures("sandbox_available")


@needs_sandbox
def test_four_sandboxed_bots_play_a_full_match_and_leave_nothing_behind(tmp_path: Path) -> None:
    folder = scaffold_bot("lowcard", tmp_path)
    mine = resolve_bot(str(folder))
    played = play(table_config("full", match_format="duplicate:1"), [mine, RANDOM, mine, RANDOM], tmp_path / "records")
    assert played.outcome.status == "done" and played.outcome.faults == []
    assert len(played.outcome.hands) == 2
    uids = [played.uid(seat) for seat in range(4)]
    assert len(set(uids)) == 4
    for seat in range(4):
        log = played.log(seat)
        assert "serving on unix:/run/dehla/bot.sock" in log
        assert f"[runner sandbox; uid {uids[seat]};" in log
        assert processes_of(uids[seat]) == []
    for hierarchy in sandbox_runner().cgroups.hierarchies:
        assert not [p for p in hierarchy.parent.glob("seat-*")], "seat cgroups left behind"


@needs_sandbox
def test_the_four_bots_of_a_table_share_no_uid_writable_folder_or_namespace(tmp_path: Path) -> None:
    played = play(table_config("probe"), [hostile("probe")] * 4, tmp_path / "records")
    assert played.outcome.faults == []
    probes = [next(f for f in played.findings(seat) if f["attack"] == "probe") for seat in range(4)]
    referee = {name: os.readlink(f"/proc/self/ns/{name}") for name in probes[0]["namespaces"]}
    assert len({p["uid"] for p in probes}) == 4
    for probe in probes:
        assert probe["uid"] >= 1000 and probe["gid"] == probe["uid"] and probe["groups"] == []
        assert probe["capabilities"] == "0000000000000000"
        assert probe["no_new_privs"] == "1" and probe["seccomp"] == "2"
        assert probe["cwd"] == "/bot" and probe["hostname"] == "dehla-bot"
        assert probe["environment"] == ["DEHLA_BOT_ADDRESS", "HOME", "LANG", "PATH", "PWD",
                                        "PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED", "TMPDIR"]
        assert "root" not in probe["root"] or Path(sys.base_prefix).is_relative_to("/root")
        for name, ident in probe["namespaces"].items():
            assert ident != referee[name], f"shares the referee's {name} namespace"
    for name in referee:
        assert len({p["namespaces"][name] for p in probes}) == 4, f"two bots share a {name} namespace"
    for folder in ("/tmp", "/dev/shm", "/run/dehla"):
        assert len({tuple(p["folders"][folder]) for p in probes}) == 4, f"two bots share {folder}"


@needs_sandbox
def test_the_bots_processes_show_nothing_of_the_referees_environment_or_working_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``/proc/1/environ`` (bubblewrap's init keeps the environment the chain started with)
    used to show ``PWD=`` the referee's working folder."""
    referee_cwd = tmp_path / "referee-working-folder"
    referee_cwd.mkdir()
    monkeypatch.chdir(referee_cwd)
    monkeypatch.setenv("DEHLA_REFEREE_ONLY", "referee-secret")
    played = play(table_config("environ"), [hostile("probe"), RandomBot(1), RandomBot(2), RandomBot(3)],
                  tmp_path / "records")
    assert played.outcome.faults == []
    environ = next(f for f in played.findings(0) if f["attack"] == "probe")["environ"]
    assert isinstance(environ["init"], list) and isinstance(environ["self"], list), environ
    for seen in (environ["init"], environ["self"]):
        assert not [entry for entry in seen if "referee" in entry or str(tmp_path) in entry], seen
    assert [entry for entry in environ["init"] if entry.startswith("PWD")] == []
    assert "PWD=/bot" in environ["self"]


@needs_sandbox
def test_sandboxed_bots_die_with_their_referee(tmp_path: Path) -> None:
    """A referee killed with SIGKILL cleans nothing up; its bots must die anyway."""
    script = textwrap.dedent(f"""
        import asyncio, sys
        from pathlib import Path
        sys.path.insert(0, {str(ROOT)!r})
        import grpc
        from grpc_health.v1 import health_pb2, health_pb2_grpc
        from arena.referee.launcher import BotProcess
        from tests.hostile.harness import RANDOM, sandbox_runner

        async def main():
            bot = BotProcess(RANDOM, "unix:{tmp_path}/s/bot.sock", Path({str(tmp_path)!r}) / "bot.log",
                             runner=sandbox_runner())
            await bot.start()
            address = await bot.dial_address(asyncio.get_running_loop().time() + 60)
            async with grpc.aio.insecure_channel(address) as channel:
                await health_pb2_grpc.HealthStub(channel).Check(
                    health_pb2.HealthCheckRequest(service=""), wait_for_ready=True, timeout=60)
            print(bot.launch.uid, flush=True)
            await asyncio.Event().wait()

        asyncio.run(main())
    """)
    referee = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert referee.stdout is not None
        uid = int(referee.stdout.readline())
        pids = processes_of(uid)
        assert len(pids) >= 3
    finally:
        referee.send_signal(signal.SIGKILL)
        referee.wait()
    assert wait_gone(pids, 10) == []
    assert processes_of(uid) == []


@needs_sandbox
def test_a_sandbox_that_cannot_be_set_up_voids_the_match_and_blames_no_bot(tmp_path: Path) -> None:
    config = SandboxConfig(first_uid=1_900_100_000, uid_count=1)
    played = play(table_config("no-uids"), [RANDOM, RandomBot(1), RANDOM, RandomBot(3)], tmp_path / "records",
                  SandboxRunner(config))
    assert played.outcome.status == "void"
    assert "no free sandbox uid" in (played.outcome.void_reason or "")
    assert processes_of(1_900_100_000) == []


@needs_sandbox
def test_dehla_match_runs_bots_in_the_sandbox(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Four interpreters starting at once on a busy 2-core machine can take longer than the
    # default 10 s start-up budget; the budget is not what this test is about.
    monkeypatch.setattr(commands, "TimeControl", functools.partial(TimeControl, startup=60.0))
    result = CliRunner().invoke(match_command, ["random", "random", "--format", "hands:1", "--runner", "sandbox",
                                                "--records", str(tmp_path), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["status"] == "done" and report["faults"] == []
    logs = sorted(tmp_path.glob("*.seat*.log"))
    assert len(logs) == 4 and all("[runner sandbox; uid" in log.read_text() for log in logs)


def test_dehla_match_explains_an_unavailable_runner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEHLA_DOCKER", "no-such-docker-client")
    result = CliRunner().invoke(match_command, ["random", "random", "--runner", "docker", "--records", str(tmp_path)])
    assert result.exit_code == 2
    assert "--runner docker: docker runner unavailable: no 'no-such-docker-client' command" in result.output


DOCKER = ContainerConfig(Engine.DOCKER)


@pytest.mark.skipif(bool(container_problem(DOCKER)), reason=f"docker: {container_problem(DOCKER)}")
def test_docker_runner_plays_a_match(tmp_path: Path) -> None:  # pragma: no cover - needs a docker engine
    runner = ContainerRunner(DOCKER)
    runner.check()
    played = play(table_config("docker"), [RANDOM, RandomBot(1), RANDOM, RandomBot(3)], tmp_path / "records", runner)
    assert played.outcome.status == "done" and played.outcome.faults == []


@needs_sandbox
def test_the_seccomp_filter_file_is_named_by_its_content_so_another_referee_keeps_its_own() -> None:
    """Two referees of different versions on one host share the runtime folder: each must run
    its sandboxes with its own filter, so a filter is never written over another's."""
    runtime = Path(tempfile.mkdtemp(prefix="dehla-sandbox-test-", dir="/run"))  # seat uids must reach it
    runtime.chmod(0o755)
    try:
        check_filter_naming(runtime)
    finally:
        shutil.rmtree(runtime)


def check_filter_naming(runtime: Path) -> None:
    others = runtime / f"seccomp-{os.uname().machine}-0000000000000000.bpf"
    others.write_bytes(b"another referee's filter")
    runner = SandboxRunner(SandboxConfig(runtime_dir=runtime))
    runner.check()
    ours = Path(runner._seccomp)
    assert ours.parent == runtime and ours != others
    assert ours.name.endswith(f"-{hashlib.sha256(ours.read_bytes()).hexdigest()[:16]}.bpf")
    assert others.read_bytes() == b"another referee's filter"
