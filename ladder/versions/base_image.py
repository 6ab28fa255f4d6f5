"""The arena's bot base image, built from local files (no image registry is needed).

Two stages, each named by a hash of its inputs and skipped when an image of that name exists:
the root file system (Debian bookworm by ``mmdebstrap``, with ``python3``; the mirror must be
reachable), imported as ``dehla-arena/rootfs:HASH``; then ``docker/bot-base.Dockerfile`` built on
it with no network, installing this project and the exact versions of its libraries that the
running interpreter has (so bots speak the referee's protocol with the referee's libraries),
tagged ``dehla-arena/bot-base:HASH`` and ``dehla-arena/bot-base:1`` (the name bots' Dockerfiles
use). ``python tools/build_base_image.py`` runs it.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from arena.engine.errors import ArenaError
from arena.sandbox.containers import BASE_IMAGE, ContainerConfig, Engine, image_exists

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "docker" / "bot-base.Dockerfile"
PROJECT = "dehla-arena"
SOURCES = ("arena", "protocol", "sdk", "sample_bots", "ladder")
SOURCE_FILES = ("pyproject.toml", "README.md")
BASE_REPOSITORY = BASE_IMAGE.rsplit(":", 1)[0]
ROOTFS_REPOSITORY = "dehla-arena/rootfs"
MIRROR_ENV = "DEHLA_DEBIAN_MIRROR"
BUILD_LIMITS = ("--memory", "2g", "--ulimit", "nofile=4096:4096", "--ulimit", "nproc=1024:1024")


class BaseImageError(ArenaError):
    """A step of the base image's build failed; the message names it and its last output line."""


@dataclass(frozen=True, slots=True)
class RootFs:
    """What ``mmdebstrap`` is asked for: the image's operating system."""

    suite: str = "bookworm"
    variant: str = "essential"
    packages: tuple[str, ...] = ("python3", "python-is-python3", "passwd", "libstdc++6")
    excluded: tuple[str, ...] = ("/usr/share/doc/*", "/usr/share/man/*", "/usr/share/locale/*", "/usr/share/info/*")

    def digest(self) -> str:
        return _digest(json.dumps([self.suite, self.variant, self.packages, self.excluded]).encode())


@dataclass(frozen=True, slots=True)
class Built:
    """The base image's tag, whether this call built anything, and how long it took."""

    image: str
    rootfs: str
    built: bool
    seconds: float


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def pinned_requirements(project: str = PROJECT) -> list[str]:
    """``name==version`` of every library ``project`` needs at run time, as installed here."""
    seen: dict[str, str] = {}
    todo = [project]
    while todo:
        name = todo.pop()
        try:
            dist = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            continue  # a requirement for another platform or Python
        for requirement in dist.requires or ():
            spec, _, marker = requirement.partition(";")
            if "extra" in marker:
                continue
            found = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", spec)
            if found and _canonical(found.group(1)) not in seen:
                needed = _canonical(found.group(1))
                try:
                    seen[needed] = importlib.metadata.version(needed)
                except importlib.metadata.PackageNotFoundError:
                    continue
                todo.append(needed)
    return sorted(f"{name}=={version}" for name, version in seen.items())


def source_files(root: Path = ROOT) -> list[Path]:
    """The project files the image installs, relative and sorted (caches left out)."""
    files = [Path(name) for name in SOURCE_FILES]
    for package in SOURCES:
        for folder, dirs, names in os.walk(root / package):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            files += [(Path(folder) / n).relative_to(root) for n in names if not n.endswith((".pyc", ".pyo"))]
    return sorted(files)


def inputs_digest(rootfs: RootFs, requirements: Iterable[str], root: Path = ROOT) -> str:
    """The base image's name: a hash of everything it is built from."""
    digest = hashlib.sha256()
    digest.update(rootfs.digest().encode() + b"\0" + DOCKERFILE.read_bytes() + b"\0")
    digest.update("\n".join(requirements).encode() + b"\0")
    digest.update(pip_version().encode() + b"\0")
    for relative in source_files(root):
        data = (root / relative).read_bytes()
        digest.update(relative.as_posix().encode() + b"\0" + str(len(data)).encode() + b"\0" + data)
    return digest.hexdigest()[:16]


def pip_version() -> str:
    return importlib.metadata.version("pip")


def _run(step: str, argv: list[str], **kwargs: object) -> None:
    done = subprocess.run(argv, capture_output=True, text=True, check=False, **kwargs)  # type: ignore[call-overload]
    if done.returncode != 0:
        lines = (done.stderr or done.stdout or "").strip().splitlines()
        raise BaseImageError(f"{step} failed (exit {done.returncode}): {lines[-1] if lines else 'no output'}")


def build_rootfs(config: ContainerConfig, rootfs: RootFs, say: Callable[[str], None]) -> tuple[str, bool]:
    """The root file system image (``mmdebstrap`` piped into ``import``), unless present."""
    tag = f"{ROOTFS_REPOSITORY}:{rootfs.digest()}"
    if image_exists(config, tag):
        return tag, False
    if shutil.which("mmdebstrap") is None:
        raise BaseImageError("no mmdebstrap command (apt-get install mmdebstrap)")
    mirror = os.environ.get(MIRROR_ENV, "http://deb.debian.org/debian")
    say(f"root file system: mmdebstrap {rootfs.suite} ({', '.join(rootfs.packages)}) from {mirror}")
    strap = ["mmdebstrap", "--quiet", f"--variant={rootfs.variant}", f"--include={','.join(rootfs.packages)}",
             *[f"--dpkgopt=path-exclude={path}" for path in rootfs.excluded], rootfs.suite, "-", mirror]
    with subprocess.Popen(strap, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as producer:
        assert producer.stdout is not None
        imported = subprocess.run(config.command("import", "--quiet", "-", tag), stdin=producer.stdout,
                                  capture_output=True, text=True, check=False)
        producer.stdout.close()
        _, errors = producer.communicate()
    if producer.returncode != 0:
        lines = errors.decode(errors="replace").strip().splitlines()
        raise BaseImageError(f"mmdebstrap failed (exit {producer.returncode}): {lines[-1] if lines else 'no output'}")
    if imported.returncode != 0:
        lines = (imported.stderr or "").strip().splitlines()
        raise BaseImageError(f"image import failed: {lines[-1] if lines else 'no output'}")
    return tag, True


def gather_wheels(context: Path, requirements: list[str], root: Path = ROOT) -> None:
    """The build context: this project's wheel and its libraries' in ``wheels/``, pip as ``pip.whl``."""
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--quiet"]
    wheels = context / "wheels"
    _run("building the project's wheel", [*pip, "wheel", "--no-deps", "--no-build-isolation", "-w", str(wheels),
                                          str(root)])
    _run("fetching the libraries' wheels", [*pip, "wheel", "--no-deps", "--no-build-isolation", "-w", str(wheels),
                                            *requirements])  # wheels as published; an sdist (trueskill) built
    pip_dir = context / "pip-download"
    _run("fetching pip's wheel", [*pip, "download", "--no-deps", "--only-binary=:all:", "-d", str(pip_dir),
                                  f"pip=={pip_version()}"])
    (next(pip_dir.glob("pip-*.whl"))).rename(context / "pip.whl")
    pip_dir.rmdir()


def build_base_image(config: ContainerConfig | None = None, rootfs: RootFs | None = None,
                     say: Callable[[str], None] = lambda _: None, root: Path = ROOT) -> Built:
    """Build the base image unless an image of the same inputs exists; tag it ``...:1``."""
    config = config or ContainerConfig.from_env()
    rootfs = rootfs or RootFs()
    start = time.monotonic()
    requirements = pinned_requirements()
    tag = f"{BASE_REPOSITORY}:{inputs_digest(rootfs, requirements, root)}"
    rootfs_tag, built = build_rootfs(config, rootfs, say)
    if not image_exists(config, tag):
        built = True
        say(f"base image {tag}: {len(requirements)} libraries and the project on {rootfs_tag}")
        with tempfile.TemporaryDirectory(prefix="dehla-base-") as folder:
            context = Path(folder)
            gather_wheels(context, requirements, root)
            podman = config.engine is Engine.PODMAN
            pull = ["--pull=never"] if podman else []
            parent = f"localhost/{rootfs_tag}" if podman else rootfs_tag
            # --no-cache: the RUN that installs the wheels reads them through a bind mount, which
            # the layer cache does not hash, so a cached layer of the same command on the same
            # root file system would install an older build of the project (seen: an SDK without
            # a class the sources had). The image is built only when its inputs changed anyway.
            _run("building the base image", config.command(
                "build", "--no-cache", *pull, "--network", "none", *BUILD_LIMITS, "--build-arg", f"ROOTFS={parent}",
                "--label", f"dehla.inputs={tag.rsplit(':', 1)[1]}", "-f", str(DOCKERFILE), "-t", tag, str(context)))
    _run("tagging the base image", config.command("tag", tag, BASE_IMAGE))
    if built:
        prune(config, BASE_REPOSITORY, {tag, BASE_IMAGE})
        prune(config, ROOTFS_REPOSITORY, {rootfs_tag})
    return Built(tag, rootfs_tag, built, time.monotonic() - start)


def prune(config: ContainerConfig, repository: str, keep: set[str]) -> None:
    """Untag the older builds of ``repository`` (a CI machine builds one per change of the
    code); an image that versions' images are built on stays (the engine refuses to remove it)."""
    listed = subprocess.run(config.command("images", "--format", "{{.Repository}}:{{.Tag}}", repository),
                            capture_output=True, text=True, check=False).stdout.split()
    stale = [name for name in listed if name.removeprefix("localhost/") not in keep]
    for name in stale:
        subprocess.run(config.command("rmi", name), capture_output=True, check=False)
