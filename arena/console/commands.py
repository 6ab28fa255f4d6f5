"""How a hint names a command so that it runs as printed: ``dehla`` only when the shell finds this
very program by that name, else the path it was run from (``.venv/bin/dehla`` after the README's
commands, which never put ``.venv/bin`` on the PATH); the same for ``pytest``."""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from pathlib import Path


def _shown(path: Path) -> str:
    """``path`` relative to the working folder when it lies under it, quoted for a shell."""
    try:
        text = str(path.relative_to(Path.cwd()))
    except ValueError:
        text = str(path)
    return shlex.quote(text)


def _tool(name: str) -> Path:
    """``name`` beside this interpreter (``.venv/bin/NAME``): where setup.sh installs it."""
    return Path(sys.executable).parent / name


def _on_path(name: str, program: Path) -> bool:
    found = shutil.which(name)
    return found is not None and os.path.realpath(found) == os.path.realpath(program)


def dehla() -> str:
    """The ``dehla`` command as this shell can run it."""
    program = _tool("dehla")
    if _on_path("dehla", program):
        return "dehla"
    if program.exists():
        return _shown(program)
    return f"{_shown(Path(sys.executable))} -m arena"


def pytest() -> str:
    """``pytest`` as this shell can run it; when it is not installed, how to install it first."""
    program = _tool("pytest")
    if _on_path("pytest", program):
        return "pytest"
    if program.exists():
        return _shown(program)
    pip = _shown(_tool("pip"))
    return f"{pip} install pytest && {_shown(program)}"
