"""``dehla operator disable / enable / void``: the operator's switches (``ladder/admin/operator.py``).

Bad input (an unknown bot, version or match, a match that was never rated, an empty reason):
one ``error:`` line, exit 2. Voiding a match again is not an error: it changes nothing and says so.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import click

from arena.console.errors import fail
from arena.console.options import utf8_text
from arena.console.text import visible
from ladder.admin.operator import OperatorError, Switched, Target, disable, enable, switched_line, void_match
from ladder.cli.commands import data_option, open_store, store_errors
from ladder.rating.ratings import RatingEnv
from ladder.store.database import Store

MAX_MATCH_ID = 2**63 - 1
"""The largest id SQLite's integers hold: a larger one is a typo, refused before the store is asked."""


def _target(spec: str) -> Target:
    try:
        return Target.parse(spec)
    except OperatorError as exc:
        fail(str(exc))


@click.group("operator")
def operator_group() -> None:
    """An operator's switches: disable or enable a bot or version, void a played match."""


def _switch(action: Callable[[Store, Target], Switched], target: str, data: Path | None, done: str) -> None:
    """Disable or enable ``target`` and say what changed, or fail with the one-line reason."""
    parsed = _target(target)
    store = open_store(data)
    try:
        click.echo(visible(switched_line(action(store, parsed), done)))
    except OperatorError as exc:
        fail(str(exc))


@operator_group.command("disable")
@click.argument("target", metavar="BOT|BOT@N", callback=utf8_text)
@data_option
@store_errors
def disable_command(target: str, data: Path | None) -> None:
    """Never schedule BOT (every version) or BOT@N again; its queued matches are cancelled."""
    _switch(disable, target, data, "disabled")


@operator_group.command("enable")
@click.argument("target", metavar="BOT|BOT@N", callback=utf8_text)
@data_option
@store_errors
def enable_command(target: str, data: Path | None) -> None:
    """Schedule BOT or BOT@N again (the matches cancelled when it was disabled stay cancelled)."""
    _switch(enable, target, data, "enabled")


@operator_group.command("void")
@click.argument("match_id", metavar="MATCH_ID", type=click.IntRange(min=1, max=MAX_MATCH_ID))
@click.option("--reason", required=True, callback=utf8_text, help="Why (shown with the match; one line).")
@data_option
@store_errors
def void_command(match_id: int, reason: str, data: Path | None) -> None:
    """Void the played match MATCH_ID: its rating changes are undone, every later rating re-computed."""
    store = open_store(data)
    try:
        done = void_match(store, RatingEnv(), match_id, reason)
    except OperatorError as exc:
        fail(str(exc))
    when = done.voided_at.isoformat(timespec="seconds")
    if done.already:
        click.echo(visible(f"match {match_id} was already voided ({when}: {done.reason}): nothing changed"))
        return
    assert done.rerated is not None
    click.echo(visible(f"voided match {match_id} ({done.reason}); its rating changes are undone: "
                       f"{done.rerated.recomputed} of the {done.rerated.later_matches} later rated matches "
                       "re-rated"))
