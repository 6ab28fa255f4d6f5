"""The one way a command refuses bad input: a single ``error:`` line and exit code 2."""

from __future__ import annotations

import sys
from typing import NoReturn

import click

from arena.console.text import visible

USAGE_EXIT = 2


def fail(message: str) -> NoReturn:
    """Print ``error: MESSAGE`` (escaped: it may quote a bot's or a file's text) and exit 2."""
    click.echo(f"error: {visible(message)}", err=True)
    sys.exit(USAGE_EXIT)
