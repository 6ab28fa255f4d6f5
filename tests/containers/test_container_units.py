"""The container runner's command lines and seccomp profile, engine by engine (no engine needed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.sandbox import Limits, Program, SandboxUnavailable
from arena.sandbox.containers import (
    CLONE_NAMESPACES,
    ContainerConfig,
    ContainerRunner,
    Engine,
    container_argv,
    default_engine,
    seccomp_profile,
)

PROGRAM = Program(("python", "bot.py"), code="/srv/bots/alice")
LIMITS = Limits(memory_mb=256, cpus=0.5, processes=20, disk_mb=16, open_files=64, cpu_seconds=90)
PODMAN_DEFAULT = Path("/usr/share/containers/seccomp.json")


def option(argv: list[str], name: str) -> list[str]:
    return [argv[i + 1] for i, a in enumerate(argv) if a == name]


def test_podman_gets_its_runtime_and_the_options_docker_needs_not(tmp_path: Path) -> None:
    base = tmp_path / "seccomp.json"
    base.write_text(json.dumps({"defaultAction": "SCMP_ACT_ERRNO", "syscalls": [
        {"names": ["read", "unshare", "clone", "clone3", "flock"], "action": "SCMP_ACT_ALLOW"}]}))
    config = ContainerConfig(Engine.PODMAN, image="bots:1", seccomp_base=str(base), lock_dir=tmp_path / "uids")
    argv = container_argv(config, PROGRAM, LIMITS, 1_900_000_003, "dehla-bot-x", "/run/seats/s0")
    assert argv[:5] == ["podman", "--runtime", "/usr/sbin/runc", "run", "--pull=never"]
    assert option(argv, "--userns") == ["host"] and option(argv, "--image-volume") == ["ignore"]
    assert "--read-only-tmpfs=false" in argv and "--http-proxy=false" in argv and "--read-only" in argv
    assert option(argv, "--systemd") == ["false"] and option(argv, "--network") == ["none"]
    assert set(option(argv, "--ulimit")) >= {"nofile=64:64", "nproc=22:22"}
    seccomp = [o for o in option(argv, "--security-opt") if o.startswith("seccomp=")]
    assert "no-new-privileges" in option(argv, "--security-opt") and len(seccomp) == 1
    profile = json.loads(Path(seccomp[0].removeprefix("seccomp=")).read_text())
    assert profile == seccomp_profile(json.loads(base.read_text()))
    docker = container_argv(ContainerConfig(Engine.DOCKER, image="bots:1"), PROGRAM, LIMITS, 1_900_000_003, "x",
                            "/run/seats/s0")
    assert docker[:2] == ["docker", "run"] and "--userns" not in docker and "--http-proxy=false" not in docker


def test_an_engine_is_chosen_by_configuration(monkeypatch: pytest.MonkeyPatch) -> None:
    assert default_engine({"DEHLA_CONTAINER_ENGINE": "docker"}) is Engine.DOCKER
    assert ContainerConfig.from_env({"DEHLA_CONTAINER_ENGINE": "podman", "DEHLA_PODMAN": "/opt/podman",
                                     "DEHLA_CONTAINER_RUNTIME": ""}).command("ps") == ["/opt/podman", "ps"]
    with pytest.raises(SandboxUnavailable, match=r"^\$DEHLA_CONTAINER_ENGINE='lxc': choose docker or podman$"):
        default_engine({"DEHLA_CONTAINER_ENGINE": "lxc"})
    monkeypatch.setenv("PATH", "/nonexistent")
    assert default_engine({}) is Engine.DOCKER


def rules_for(profile: dict[str, object], name: str) -> list[dict[str, object]]:
    rules = profile["syscalls"]
    assert isinstance(rules, list)
    return [rule for rule in rules if name in rule["names"]]


@pytest.mark.skipif(not PODMAN_DEFAULT.exists(), reason=f"{PODMAN_DEFAULT} (containers-common) is not installed")
def test_the_profile_narrows_podmans_default() -> None:
    default = json.loads(PODMAN_DEFAULT.read_text())
    assert [r["action"] for r in rules_for(default, "unshare")] == ["SCMP_ACT_ALLOW"]  # what it would allow
    profile = seccomp_profile(default)
    for name in ("unshare", "setns", "mount", "keyctl", "flock", "inotify_init1", "mincore", "sysinfo", "setsid",
                 "pidfd_open"):
        assert [(r["action"], r.get("errnoRet")) for r in rules_for(profile, name)] == [("SCMP_ACT_ERRNO", 1)], name
    assert [(r["action"], r.get("errnoRet")) for r in rules_for(profile, "clone3")] == [("SCMP_ACT_ERRNO", 38)]
    (clone,) = rules_for(profile, "clone")
    assert clone["args"] == [{"index": 0, "value": CLONE_NAMESPACES | 0x1000, "valueTwo": 0,  # and CLONE_PIDFD
                              "op": "SCMP_CMP_MASKED_EQ"}]
    for name, option in (("getsockopt", 77), ("setsockopt", 76)):  # SO_PEERPIDFD, SO_PASSPIDFD
        allow, refuse = rules_for(profile, name)
        assert allow["args"] == [{"index": 2, "value": option, "valueTwo": 0, "op": "SCMP_CMP_NE"}], name
        assert refuse["args"] == [{"index": 2, "value": option, "valueTwo": 0, "op": "SCMP_CMP_EQ"}], name
        assert (allow["action"], refuse["action"], refuse["errnoRet"]) == ("SCMP_ACT_ALLOW", "SCMP_ACT_ERRNO", 1)
    for name in ("read", "fstatfs", "execve"):
        assert [r["action"] for r in rules_for(profile, name)] == ["SCMP_ACT_ALLOW"], name


def test_a_missing_seccomp_profile_makes_podman_unavailable_before_any_seat(tmp_path: Path) -> None:
    config = ContainerConfig(Engine.PODMAN, client="true", runtime="", image="", seccomp_base=str(tmp_path / "none"),
                             lock_dir=tmp_path / "run" / "uids")
    runner = ContainerRunner(config)
    with pytest.raises(SandboxUnavailable, match=r"^podman runner unavailable: cannot read podman's seccomp profile"):
        runner.check()
    assert not (tmp_path / "run" / "uids").exists() or list((tmp_path / "run" / "uids").iterdir()) == []


def test_podman_shows_the_sandboxs_proc_stand_ins(tmp_path: Path) -> None:
    """Issue 23: the frozen copies bound (runc allows binds over exactly these ``/proc`` files),
    the emptied counters and ``/sys`` masked; docker gets none of it (no ``mask`` option)."""
    masks = (("/run/x/stat", "/proc/stat"), ("/run/x/loadavg", "/proc/loadavg"), ("/run/x/vmstat", "/proc/vmstat"),
             ("/run/x/sys_fs_file-nr", "/proc/sys/fs/file-nr"))
    config = ContainerConfig(Engine.PODMAN, image="bots:1", seccomp_base=str(PODMAN_DEFAULT), lock_dir=tmp_path / "u")
    if not PODMAN_DEFAULT.exists():
        config = ContainerConfig(Engine.PODMAN, image="bots:1", lock_dir=tmp_path / "u",
                                 seccomp_base=str(tmp_path / "base.json"))
        Path(config.seccomp_base).write_text(json.dumps({"defaultAction": "SCMP_ACT_ERRNO", "syscalls": []}))
    argv = container_argv(config, PROGRAM, LIMITS, 1_900_000_003, "x", "/run/seats/s0", proc_masks=masks)
    assert [m for m in option(argv, "--mount") if "/proc/" in m] == [
        "type=bind,source=/run/x/stat,target=/proc/stat,readonly",
        "type=bind,source=/run/x/loadavg,target=/proc/loadavg,readonly"]
    assert [o for o in option(argv, "--security-opt") if o.startswith("mask=")] == [
        "mask=/proc/vmstat:/proc/sys/fs/file-nr:/sys"]
    docker = container_argv(ContainerConfig(Engine.DOCKER, image="bots:1"), PROGRAM, LIMITS, 1_900_000_003, "x",
                            "/run/seats/s0", proc_masks=masks)
    assert not [m for m in option(docker, "--mount") if "/proc/" in m]
