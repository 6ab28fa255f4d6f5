"""The ``bot.toml`` manifest: who the bot is, how to start it, what it may use.

Example::

    name = "mybot"
    version = "0.1.0"
    author = "Ada Lovelace"
    description = "Leads aces, keeps tens back."
    command = ["python", "bot.py"]     # run in the bot's folder

    [resources]
    memory_mb = 512
    cpus = 1.0
    processes = 32

Errors name the field and the problem, e.g. ``bot.toml: resources.memory_mb: must be at
most 4096 (got 99999)``.
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError

from arena.engine.errors import ArenaError
from arena.sandbox.limits import Limits

MANIFEST = "bot.toml"


class ManifestError(ArenaError):
    """A missing or invalid ``bot.toml``; the message names the field."""


class Resources(BaseModel):
    """What the bot asks for; the sandbox enforces it (and caps it)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    memory_mb: int = Field(512, ge=32, le=4096, description="memory limit for the whole bot")
    cpus: float = Field(1.0, gt=0, le=2, description="CPU share (1.0 = one core)")
    processes: int = Field(32, ge=1, le=256, description="processes and threads at once")
    disk_mb: int = Field(64, ge=1, le=1024, description="private /tmp size")
    open_files: int = Field(256, ge=16, le=4096, description="open file descriptors")

    def limits(self, cpu_seconds: int = 3600) -> Limits:
        """What the sandbox enforces for this bot, with a CPU-time budget for the whole match."""
        return Limits(self.memory_mb, self.cpus, self.processes, self.disk_mb, self.open_files, cpu_seconds)


def _no_nul(argument: str) -> str:
    """A NUL byte cannot be passed to a program: it is the manifest's fault, not the platform's."""
    if "\0" in argument:
        raise ValueError("contains a NUL byte")
    return argument


Argument = Annotated[str, Field(min_length=1), AfterValidator(_no_nul)]


class BotManifest(BaseModel):
    """A validated ``bot.toml``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(pattern=r"^[a-z][a-z0-9_-]{1,31}$", description="lowercase name, 2-32 characters")
    version: str = Field(pattern=r"^[0-9]+(\.[0-9]+){0,2}([-+][0-9A-Za-z.-]+)?$")
    author: str = Field(min_length=1, max_length=100)
    description: str = Field("", max_length=500)
    command: tuple[Argument, ...] = Field(min_length=1, description="argv, run in the bot's folder")
    resources: Resources = Field(default_factory=Resources)

    def argv(self) -> tuple[str, ...]:
        """The command, with ``python``/``python3`` meaning the arena's own interpreter."""
        first, *rest = self.command
        if first in ("python", "python3"):
            first = sys.executable
        return (first, *rest)


def load_manifest(folder: Path) -> BotManifest:
    path = folder / MANIFEST
    if not folder.is_dir():
        raise ManifestError(f"{folder}: not a folder")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as exc:
        raise ManifestError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    except RecursionError:
        raise ManifestError(f"{path}: nested too deeply to read") from None
    except FileNotFoundError:
        raise ManifestError(f"{folder}: no {MANIFEST} (a bot folder needs a manifest)") from None
    except OSError as exc:
        raise ManifestError(f"{path}: cannot read ({exc.strerror})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ManifestError(f"{path}: not valid TOML ({exc})") from None
    try:
        return BotManifest.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"]) or "(top level)"
        if err["type"] == "missing":
            raise ManifestError(f"{path}: {where}: missing") from None
        if err["type"] == "extra_forbidden":
            raise ManifestError(f"{path}: {where}: unknown field") from None
        message = str(err["msg"]).removeprefix("Value error, ")
        raise ManifestError(f"{path}: {where}: {message} (got {_shown(err.get('input'))})") from None


def _shown(value: object, limit: int = 80) -> str:
    """A short ``repr`` of a rejected value: enough to recognise it, never a page of it."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."
