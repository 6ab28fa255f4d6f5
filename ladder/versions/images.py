"""Each accepted version's container image, built from its own Dockerfile on the arena's base image.

The Dockerfile is the author's, so it is hostile: before anything is built it must start ``FROM``
the arena's base image (the only ``FROM``: no other image, no stage to copy from) and use only
instructions that read the bot's own folder (``COPY`` without ``--from``; no ``ADD``, which
fetches URLs and unpacks archives on the host; no ``VOLUME``, a writable host folder at run time;
no ``ONBUILD``, ``HEALTHCHECK``, parser directives or heredocs). ``RUN`` executes the author's code
as root in the build, so it is refused unless the operator allows it (``$DEHLA_IMAGE_RUN=allow``);
then it runs with no network, dropped capabilities and memory/CPU/file limits. The build never
pulls, builds exactly the text checked (a copy outside the folder), stops after a time limit, and
the image is refused above a size. The image is named by the version's content hash:
``dehla-bot/NAME:HASH12``, built once, like the version folder it comes from.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from arena.engine.errors import ArenaError
from arena.sandbox.containers import BASE_IMAGE, ContainerConfig, Engine, image_exists
from arena.sandbox.runner import Program, SandboxError

DOCKERFILE = "Dockerfile"
REPOSITORY = "dehla-bot"
RUN_ENV = "DEHLA_IMAGE_RUN"
DEFAULT_DOCKERFILE = f"FROM {BASE_IMAGE}\nCOPY . /bot\nWORKDIR /bot\n"
"""For a version without a Dockerfile (the sample bots): its folder on the base image."""
ALLOWED = frozenset({"FROM", "COPY", "RUN", "ENV", "ARG", "WORKDIR", "USER", "LABEL", "CMD", "ENTRYPOINT", "EXPOSE"})
COPY_FLAGS = ("--chown=", "--chmod=", "--link")
MAX_DOCKERFILE_BYTES = 64 * 1024
BUILD_OUTPUT_TAIL = 1500
VERSION_FOLDER = re.compile(r"[a-z][a-z0-9_-]{1,31}/[0-9a-f]{12}")
"""``NAME/HASH12``: the tail of a stored version's folder (``ladder.submission.submit``)."""


class BaseImageMissing(ArenaError):  # noqa: N818 - reads as a state
    """The arena's base image is not built on this host: the operator's to fix, no bot's fault."""


class ImageRefused(ArenaError):  # noqa: N818 - reads as what happened
    """The version's Dockerfile breaks a rule, or its build failed: one line in the arena's own
    words (no text of the Dockerfile); ``output`` is the tail of the build's output, the
    author's to see only, like a bot's log."""

    def __init__(self, message: str, output: str = "") -> None:
        super().__init__(message)
        self.output = output


def _named(word: str, pattern: str = r"[A-Za-z-]{1,20}") -> str:
    """An instruction or flag of the Dockerfile, repeated in a message only if it is a plain word."""
    return word if re.fullmatch(pattern, word) else "this"


@dataclass(frozen=True, slots=True)
class BuildPolicy:
    """What a version's build may use."""

    base: str = BASE_IMAGE
    allow_run: bool = False
    memory_mb: int = 1024
    cpus: float = 1.0
    timeout: float = 300.0
    max_image_mb: int = 1024
    """The built image's size, the base image included."""
    file_mb: int = 256

    @classmethod
    def from_env(cls) -> BuildPolicy:
        return cls(allow_run=os.environ.get(RUN_ENV, "") == "allow")


def _instructions(text: str) -> list[tuple[int, str, str]]:
    """``(line, INSTRUCTION, arguments)`` of a Dockerfile, continuation lines joined."""
    found: list[tuple[int, str, str]] = []
    pending: list[str] = []
    start = 0
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            if found == [] and re.match(r"#\s*[a-zA-Z]+\s*=", line):
                raise ImageRefused(f"{DOCKERFILE} line {number}: parser directives (# syntax=, # escape=) "
                                   "are not allowed")
            continue
        if pending and line.startswith("#"):
            continue
        if not pending:
            start = number
        if line.endswith("\\"):
            pending.append(line[:-1])
            continue
        pending.append(line)
        joined = " ".join(pending)
        pending = []
        word, _, rest = joined.partition(" ")
        found.append((start, word.upper(), rest.strip()))
    if pending:
        raise ImageRefused(f"{DOCKERFILE} line {start}: ends inside a continued line")
    return found


def check_dockerfile(text: str, policy: BuildPolicy) -> None:
    """Raise ``ImageRefused`` unless the Dockerfile only builds on the base image from the folder."""
    instructions = _instructions(text)
    if not instructions or instructions[0][1] != "FROM":
        raise ImageRefused(f"{DOCKERFILE}: must start with FROM {policy.base}")
    allowed = ALLOWED if policy.allow_run else ALLOWED - {"RUN"}
    bases = {policy.base, f"localhost/{policy.base}"}
    for number, word, rest in instructions:
        where = f"{DOCKERFILE} line {number}"
        if word not in allowed:
            why = " (the operator has not allowed RUN in builds)" if word == "RUN" else ""
            raise ImageRefused(f"{where}: {_named(word)} is not allowed{why}; use {', '.join(sorted(allowed))}")
        if "<<" in rest and word in ("RUN", "COPY"):
            raise ImageRefused(f"{where}: heredocs are not allowed")
        if word == "FROM" and (number != instructions[0][0] or rest not in bases):
            raise ImageRefused(f"{where}: FROM must name the arena's base image {policy.base}, once, "
                               "with no flags or stage name")
        if word == "COPY":
            flags = [token for token in rest.split() if token.startswith("--")]
            bad = [flag for flag in flags if not flag.startswith(COPY_FLAGS)]
            if bad:
                raise ImageRefused(f"{where}: COPY {_named(bad[0].split('=')[0])} is not allowed (only the bot's own "
                                   "folder may be copied)")
        if word == "RUN" and re.match(r"--[a-z]", rest):
            raise ImageRefused(f"{where}: RUN flags (--mount, --network, --security) are not allowed")


def image_tag(name: str, digest: str) -> str:
    """A version's image: its bot's name and the first 12 hex digits of its content hash."""
    return f"{REPOSITORY}/{name}:{digest[:12]}"


def _read_dockerfile(folder: Path) -> str:
    path = folder / DOCKERFILE
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except FileNotFoundError:
        return DEFAULT_DOCKERFILE
    except OSError as exc:
        raise ImageRefused(f"{DOCKERFILE}: cannot be read ({exc.strerror})") from None
    with os.fdopen(fd, "rb") as source:
        data = source.read(MAX_DOCKERFILE_BYTES + 1)
    if len(data) > MAX_DOCKERFILE_BYTES:
        raise ImageRefused(f"{DOCKERFILE}: larger than {MAX_DOCKERFILE_BYTES // 1024} KiB")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ImageRefused(f"{DOCKERFILE}: not UTF-8 text (byte {exc.start})") from None


def build_argv(config: ContainerConfig, policy: BuildPolicy, dockerfile: str, folder: Path, tag: str,
               digest: str) -> list[str]:
    """The ``build`` command line: never pull, no network, limits, the checked Dockerfile."""
    limits = ["--network", "none", "--memory", f"{policy.memory_mb}m", "--memory-swap", f"{policy.memory_mb}m",
              "--cpu-period", "100000", "--cpu-quota", str(int(policy.cpus * 100000)),
              "--ulimit", "nofile=1024:1024", "--ulimit", "nproc=256:256",
              "--ulimit", f"fsize={policy.file_mb * 1024 * 1024}:{policy.file_mb * 1024 * 1024}"]
    if config.engine is Engine.PODMAN:
        limits += ["--pull=never", "--layers=false", "--force-rm", "--cap-drop", "ALL",
                   "--http-proxy=false", "--identity-label=false"]
    return config.command("build", *limits, "--label", "dehla.arena=version", "--label", f"dehla.content={digest}",
                          "-f", dockerfile, "-t", tag, str(folder))


def build_version_image(folder: Path, name: str, digest: str, config: ContainerConfig | None = None,
                        policy: BuildPolicy | None = None) -> str:
    """The version's image tag, built from ``folder`` (the stored copy) unless it exists."""
    config = config or ContainerConfig.from_env()
    policy = policy or BuildPolicy.from_env()
    tag = image_tag(name, digest)
    if image_exists(config, tag):
        return tag
    text = _read_dockerfile(folder)
    check_dockerfile(text, policy)
    if not image_exists(config, policy.base):
        raise BaseImageMissing(f"the arena's base image {policy.base} is missing (python tools/build_base_image.py)")
    with tempfile.TemporaryDirectory(prefix="dehla-image-") as scratch:
        dockerfile = Path(scratch) / DOCKERFILE
        dockerfile.write_text(text, encoding="utf-8")
        argv = build_argv(config, policy, str(dockerfile), folder, tag, digest)
        try:
            done = subprocess.run(argv, capture_output=True, text=True, timeout=policy.timeout, check=False)
        except subprocess.TimeoutExpired:
            _remove(config, tag)
            raise ImageRefused(f"the image build took longer than {policy.timeout:g} s") from None
    if done.returncode != 0:
        _remove(config, tag)
        output = (done.stdout + done.stderr)[-BUILD_OUTPUT_TAIL:]
        raise ImageRefused(f"the image build failed (exit {done.returncode}; its output follows)", output)
    size = subprocess.run(config.command("image", "inspect", "--format", "{{.Size}}", tag), capture_output=True,
                          text=True, check=False).stdout.strip()
    if size.isdigit() and int(size) > policy.max_image_mb * 1024 * 1024:
        _remove(config, tag)
        raise ImageRefused(f"the image is {int(size) // (1024 * 1024)} MB, more than {policy.max_image_mb} MB")
    return tag


def _remove(config: ContainerConfig, tag: str) -> None:
    subprocess.run(config.command("rmi", "--force", tag), capture_output=True, check=False)


@dataclass
class VersionImages:
    """``ContainerRunner.image_of`` for the ladder: a stored version runs in its own image.

    A program whose code is not a stored version's folder (``NAME/HASH12``: the sample bots as
    the referee names them, a test's folder) runs on the base image with its code mounted. A
    version whose image is missing is a platform fault (no bot is blamed): building it at the
    table would eat the other seats' start-up time."""

    config: ContainerConfig = field(default_factory=ContainerConfig.from_env)
    known: set[str] = field(default_factory=set)
    """Tags seen to exist: an image is never changed under its tag, so it is asked about once."""

    def __call__(self, program: Program) -> str | None:
        if not program.code:
            return None
        folder = Path(program.code)
        if not VERSION_FOLDER.fullmatch(f"{folder.parent.name}/{folder.name}"):
            return None
        tag = f"{REPOSITORY}/{folder.parent.name}:{folder.name}"
        if tag in self.known:
            return tag
        if not image_exists(self.config, tag):
            raise SandboxError(f"the image {tag} of version folder {folder} is missing (build it: "
                               "python tools/build_base_image.py --versions DATA)")
        self.known.add(tag)
        return tag
