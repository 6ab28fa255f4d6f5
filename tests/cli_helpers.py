"""Run ``dehla ARGS`` in this process, as ``python -m arena ARGS`` would run in a subprocess.

A ``python -m arena`` subprocess costs 0.8-3 CPU-seconds of interpreter and import start-up
before it does any work; a test whose subject is a command's output, exit code or stored data
(not the process) gets the same answer from ``arena.cli.main`` run here. It is the same code:
``python -m arena`` calls ``main()``, i.e. ``LazyGroup.main`` with ``standalone_mode=True``, which
turns every usage error into one ``error:`` line and every exit into ``sys.exit``; click's
``CliRunner`` calls that same ``main`` with the same arguments, the same program name
(``PROG_NAME``, what click derives for ``python -m arena``), the environment the subprocess
would get, the working folder it would start in, and stdout and stderr captured apart.

What a subprocess would show that an in-process call would not, this helper adds or refuses:
- an exception other than ``SystemExit`` (a subprocess prints a traceback and exits 1) is raised
  again here, so the test fails with the traceback;
- the stores a command opened and left open (a process's exit would close them) are closed, so
  no connection or file stays open into the next test;
- a Python warning or a log record of level WARNING and above (a fresh interpreter prints them on
  stderr, with the default warning filters and logging's last-resort handler) is appended to the
  returned stderr, so "stderr is one line" checks stay as strict as they were.

The entry point itself (the ``dehla`` script, ``python -m arena``, a traceback-free exit on the
real interpreter) keeps real subprocess tests in each command group's test file.
"""

from __future__ import annotations

import contextlib
import logging
import os
import subprocess
import warnings
from collections.abc import Iterator, Mapping
from pathlib import Path
from unittest import mock

from click.testing import CliRunner

from arena.cli import main
from ladder.store.database import Store
from ladder.store.paths import ArenaData

PROG_NAME = "python -m arena"
"""What click names the program started as ``python -m arena`` (it shows in usage errors)."""


class _Collected(logging.Handler):
    """Log records a fresh interpreter's last-resort handler would print (WARNING and above)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


@contextlib.contextmanager
def _as_a_fresh_interpreter() -> Iterator[list[str]]:
    """Collect what a fresh interpreter would print on stderr besides the command's own output:
    warnings under the default filters, and log records at WARNING and above."""
    handler = _Collected()
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.resetwarnings()
            warnings.simplefilter("default")
            for category in (DeprecationWarning, PendingDeprecationWarning, ImportWarning, ResourceWarning):
                warnings.simplefilter("ignore", category)  # put first, so it wins over "default"
            lines: list[str] = []
            yield lines
        lines.extend(warnings.formatwarning(w.message, w.category, w.filename, w.lineno) for w in caught)
        lines.extend(line + "\n" for line in handler.lines)
    finally:
        root.removeHandler(handler)


@contextlib.contextmanager
def _stores_closed_afterwards() -> Iterator[None]:
    """Close every store opened meanwhile, as the end of a ``dehla`` process releases them."""
    opened: list[Store] = []
    real_open = Store.open

    def recorded(data: ArenaData) -> Store:
        store = real_open(data)
        opened.append(store)
        return store

    try:
        with mock.patch.object(Store, "open", recorded):
            yield
    finally:
        for store in opened:
            store.close()


def run_dehla(*args: str, cwd: Path | None = None,
              env: Mapping[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``dehla ARGS`` run here, answered as ``subprocess.run([python, "-m", "arena", *ARGS],
    capture_output=True, text=True, cwd=cwd, env=env)`` would answer. ``env`` is the whole
    environment of that subprocess (this process's when None); it, the working folder and the
    warning and logging set-up are restored afterwards, the stores it opened closed."""
    wanted = dict(os.environ if env is None else env)
    changes: dict[str, str | None] = {key: value for key, value in wanted.items() if os.environ.get(key) != value}
    changes.update({key: None for key in os.environ if key not in wanted})
    with contextlib.chdir(cwd or Path.cwd()), _stores_closed_afterwards(), _as_a_fresh_interpreter() as printed:
        result = CliRunner().invoke(main, list(args), prog_name=PROG_NAME, env=changes)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception  # a subprocess would have printed this traceback and exited 1
    return subprocess.CompletedProcess([PROG_NAME, *args], result.exit_code, result.stdout,
                                       result.stderr + "".join(printed))
