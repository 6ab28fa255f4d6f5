"""The container tests run for real under podman, as root, on the arena's base image (built
once, cached by the hash of its inputs). Without podman (or root) they are skipped with the
reason, except in CI, where that is a failure."""

from __future__ import annotations

import functools
import os

import pytest

from arena.sandbox import Limits, Program
from arena.sandbox.containers import ContainerConfig, ContainerRunner, Engine, container_problem
from arena.sandbox.runner import Launch
from ladder.versions.base_image import BaseImageError, build_base_image
from tests.environment_helpers import unavailable

PODMAN = ContainerConfig(Engine.PODMAN)


@functools.cache
def podman_problem() -> str:
    """Why the container runner cannot run under podman here ("" if it can)."""
    if os.geteuid() != 0:
        return "the container runner needs root (seat folders are tmpfs mounts, seats are leased uids)"
    return container_problem(PODMAN)


@pytest.fixture(scope="session")
def base_image() -> str:
    """The arena's base image, built unless an image of the same inputs exists."""
    if podman_problem():
        unavailable(f"podman: {podman_problem()} (apt-get install podman runc; scripts/setup.sh dev does it as root)")
    try:
        return build_base_image(PODMAN).image
    except BaseImageError as exc:
        unavailable(f"the base image cannot be built here: {exc}")
        raise


@pytest.fixture
def podman(base_image: str) -> ContainerRunner:
    """Bots under podman, on the base image with their code mounted at /bot (checked before
    the table, as the ladder does: the first check takes seconds)."""
    runner = ContainerRunner(PODMAN)
    runner.check()
    return runner


class WithoutRunner(ContainerRunner):
    """The container runner with some of its options left out, for negative controls: each
    name in ``without`` is a whole argument (``--http-proxy=false``), an option and its value
    (``--network``), or an option and the start of its value (``--security-opt seccomp=``)."""

    def __init__(self, without: tuple[str, ...], instead: dict[str, str] | None = None) -> None:
        super().__init__(PODMAN)
        self.without = without
        self.instead = instead or {}
        """Arguments replaced (``nproc=34:34`` by a high one: podman cannot run without one
        here, and without CAP_SYS_RESOURCE nothing goes above this VM's hard limit 96363)."""
        self.check()

    def prepare(self, program: Program, address: str, limits: Limits) -> Launch:
        launch = super().prepare(program, address, limits)
        argv = list(launch.argv)
        for name in self.without:
            option, _, value = name.partition(" ")
            at = next(i for i, a in enumerate(argv) if a == option and argv[i + 1].startswith(value))
            del argv[at: at + (1 if "=" in option else 2)]
        for start, value in self.instead.items():
            argv = [value if a.startswith(start) else a for a in argv]
        launch.argv = tuple(argv)
        return launch
