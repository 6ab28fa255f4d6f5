"""``dehla author add / token / list``: the operator manages authors on the arena's machine.

A new or rotated token is printed once, alone on stdout (so ``TOKEN=$(dehla author add asha)``
captures exactly it), with a line on stderr telling to keep it; nothing prints it again, and
``list`` never shows a token or its hash. Bad input: one ``error:`` line, exit 2.
"""

from __future__ import annotations

import json
from pathlib import Path

import click
from rich.table import Table as RichTable

from arena.console.commands import dehla
from arena.console.errors import fail
from arena.console.options import utf8_text
from arena.console.text import plain, visible
from ladder.admin.authors import (
    AuthorError,
    AuthorView,
    IssuedToken,
    add_author,
    list_authors,
    revoke_token,
    rotate_token,
)
from ladder.cli.commands import console, data_option, open_store, store_errors
from ladder.store.schema import Role

KEEP_IT = "keep it safe: it is shown only this once (to replace it: {dehla} author token {name} --rotate)"


def author_json(author: AuthorView) -> dict[str, object]:
    """An author as ``list --json`` and the operator API show them: never a token or its hash."""
    return {"name": author.name, "email": author.email, "role": author.role.value,
            "token": "active" if author.has_token else "revoked"}


def show_token(issued: IssuedToken, what: str) -> None:
    click.echo(visible(f"{what} {issued.author.name} ({issued.author.role.value}); their API token is on stdout, "
                       + KEEP_IT.format(dehla=dehla(), name=issued.author.name)), err=True)
    click.echo(issued.token)


@click.group("author")
def author_group() -> None:
    """Authors and their API tokens (the operator's, on the arena's machine)."""


@author_group.command("add")
@click.argument("name", callback=utf8_text)
@click.option("--email", default=None, callback=utf8_text, help="Where to reach the author (optional).")
@click.option("--operator", "operator", is_flag=True, help="An operator (may disable, void, manage authors).")
@data_option
@store_errors
def add_command(name: str, email: str | None, operator: bool, data: Path | None) -> None:
    """Create the author NAME and print their API token, once."""
    store = open_store(data)
    try:
        issued = add_author(store, name, email, Role.OPERATOR if operator else Role.AUTHOR)
    except AuthorError as exc:
        fail(str(exc))
    show_token(issued, "added")


@author_group.command("token")
@click.argument("name", callback=utf8_text)
@click.option("--rotate", is_flag=True, help="Issue a new token (printed once); the old one stops working.")
@click.option("--revoke", is_flag=True, help="End the token; the author has none until a --rotate.")
@data_option
@store_errors
def token_command(name: str, rotate: bool, revoke: bool, data: Path | None) -> None:
    """Rotate or revoke NAME's API token."""
    if rotate == revoke:
        fail("dehla author token NAME: give one of --rotate and --revoke")
    store = open_store(data)
    try:
        if rotate:
            show_token(rotate_token(store, name), "new token for")
            return
        author = revoke_token(store, name)
    except AuthorError as exc:
        fail(str(exc))
    click.echo(visible(f"revoked the token of {author.name}: it no longer works (a new one: {dehla()} author token "
                       f"{author.name} --rotate)"))


@author_group.command("list")
@click.option("--json", "as_json", is_flag=True)
@data_option
@store_errors
def list_command(as_json: bool, data: Path | None) -> None:
    """Authors, their role and whether their token works (never the token)."""
    store = open_store(data)
    rows = [author_json(author) for author in list_authors(store)]
    if as_json:
        click.echo(json.dumps(rows))
        return
    if not rows:
        click.echo(f"no authors yet: {dehla()} author add NAME [--email E] [--operator]")
        return
    table = RichTable(title=plain(f"Authors in {store.data.root}"))
    for header in ("name", "role", "email", "token"):
        table.add_column(header)
    for row in rows:
        table.add_row(*(plain(str(row[key]) if row[key] is not None else "-") for key in ("name", "role", "email",
                                                                                          "token")))
    console().print(table)
