"""Playing a seat against three bots from the browser (``docs/web.md``, "Play a seat").

``/play`` chooses a preset, a match length and the three bots and lists the person's open
tables; ``/play/{id}`` is the table (``/play/{id}/board`` its fragment, which htmx polls; 204
while nothing changed), ``POST /play/{id}/move`` plays one of the seat's legal actions (refused
with 409 and one line otherwise), ``/api/play/{id}`` the same facts as JSON. Every fact comes
from ``ladder.web.seats.view.seat_view``, the seat's own observations.

On a local service anyone who can reach it may play (it listens on a loopback address); on a
public one only a signed-in author, their own tables, at most ``tables_per_author`` open at once.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, HTTPException, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from arena.engine.errors import MatchFormatError
from ladder.admin.authors import AuthorView
from ladder.store.archives import ArchiveUnavailableError
from ladder.store.database import Store
from ladder.versions.version_cache import VersionUnavailableError
from ladder.web.seats.ladder_bots import UnknownLadderBotError, ladder_command, playable_bots
from ladder.web.seats.person import MoveRefusedError
from ladder.web.seats.tables import (
    PLAYABLE_PRESETS,
    TABLE_ID_BYTES,
    BotChoice,
    BotsUnavailableError,
    MatchLength,
    NoTableError,
    PersonTable,
    SeatPick,
    TableChoice,
    TableRefusedError,
    TableRegistry,
)
from ladder.web.seats.view import SeatView, seat_view
from ladder.web.security.auth import MaybeAuthor, token_author
from ladder.web.security.csrf import CSRF_FIELD, csrf_token
from ladder.web.security.sessions import Viewer
from ladder.web.store_access import StoreDep
from ladder.web.templating import templates

router = APIRouter()

PRIVATE = {"Cache-Control": "private, no-store", "X-Frame-Options": "DENY"}
"""A table's pages show one seat's cards: never kept by a shared cache, never framed."""

TableId = Annotated[str, PathParam(pattern=f"^[0-9a-f]{{{2 * TABLE_ID_BYTES}}}$",
                                   description="A table with a person: 24 hex digits.")]
MAX_ACTION_CHARS = 16
MAX_TURN = 100_000
SETTLE_SECONDS = 1.5
"""How long a move's answer waits for the bots to play up to the person's next decision (they
take milliseconds; slower bots leave it to the board's poll)."""


ChoiceField = Annotated[str, Form(max_length=60)]


def _length(value: str) -> MatchLength:
    try:
        return MatchLength(value)
    except ValueError:
        raise HTTPException(422, f"length: choose one of {', '.join(c.value for c in MatchLength)}") from None


def _pick(store: Store, field: str, value: str) -> SeatPick:
    """A sample bot by its name, or a playable ladder bot (``NAME#N``) found by the ladder's own
    list: 422 naming the field for anything else, 503 if its archive cannot be had."""
    if value in {choice.value for choice in BotChoice}:
        return SeatPick.sample(BotChoice(value))
    try:
        return SeatPick(value, ladder_command(store, store.data, value), from_ladder=True)
    except UnknownLadderBotError:
        raise HTTPException(422, f"{field}: not a sample bot ({', '.join(c.value for c in BotChoice)}) nor a "
                                 "playable ladder bot (NAME#N, as the form lists them)") from None
    except (ArchiveUnavailableError, VersionUnavailableError) as exc:
        raise HTTPException(503, f"{field}: {value} cannot be started here: {exc}") from None


def tables(request: Request) -> TableRegistry:
    registry: TableRegistry = request.app.state.tables
    return registry


Tables = Annotated[TableRegistry, Depends(tables)]


def _player(registry: TableRegistry, viewer: AuthorView | None) -> int | None:
    """Who plays: an author's id on a public service (``None`` if nobody is signed in, refused
    by the caller), ``None`` on a local one (everyone is the one person at the keyboard)."""
    return viewer.id if registry.settings.public and viewer is not None else None


def _may_play(registry: TableRegistry, viewer: AuthorView | None) -> bool:
    return not registry.settings.public or viewer is not None


def _render(request: Request, template: str, context: dict[str, Any], status_code: int = 200) -> HTMLResponse:
    return templates.TemplateResponse(request, template, {"csrf": csrf_token(request), "csrf_field": CSRF_FIELD,
                                                          **context}, status_code=status_code, headers=PRIVATE)


def _table(registry: TableRegistry, table_id: str, viewer: AuthorView | None) -> PersonTable:
    if not _may_play(registry, viewer):
        raise HTTPException(401, "sign in to play: on this server only signed-in authors may take a seat")
    try:
        return registry.get(table_id, _player(registry, viewer))
    except NoTableError as exc:
        raise HTTPException(404, str(exc)) from None


def _choices(store: Store) -> dict[str, Any]:
    return {"presets": PLAYABLE_PRESETS, "lengths": [length.value for length in MatchLength],
            "bots": [choice.value for choice in BotChoice], "ladder_bots": [bot.name for bot in playable_bots(store)]}


@router.get("/play", response_class=HTMLResponse, include_in_schema=False)
def play_page(request: Request, registry: Tables, store: StoreDep, viewer: Viewer) -> HTMLResponse:
    allowed = _may_play(registry, viewer)
    mine = registry.of(_player(registry, viewer)) if allowed else []
    return _render(request, "play_new.html", {"allowed": allowed, "tables": mine, "problem": None,
                                              "settings": registry.settings, **_choices(store)})


@router.post("/play", include_in_schema=False)
def open_table(request: Request, registry: Tables, store: StoreDep, viewer: Viewer,
               preset: ChoiceField, length: ChoiceField, partner: ChoiceField, left: ChoiceField,
               right: ChoiceField) -> Response:
    """Opens a table and goes to it; past a limit, the form again with why (429). Each field must
    be one of its closed set (422 naming the field otherwise)."""
    if not _may_play(registry, viewer):
        raise HTTPException(401, "sign in to play: on this server only signed-in authors may take a seat")
    if preset not in PLAYABLE_PRESETS:
        raise HTTPException(422, f"preset: choose one of {', '.join(PLAYABLE_PRESETS)}")
    try:
        choice = TableChoice(preset, _length(length), _pick(store, "partner", partner), _pick(store, "left", left),
                             _pick(store, "right", right))
    except MatchFormatError as exc:
        raise HTTPException(422, str(exc)) from None
    try:
        table = registry.open(choice, _player(registry, viewer))
    except (TableRefusedError, BotsUnavailableError) as exc:
        mine = registry.of(_player(registry, viewer))
        status = 429 if isinstance(exc, TableRefusedError) else 503
        return _render(request, "play_new.html", {"allowed": True, "tables": mine, "problem": str(exc),
                                                  "settings": registry.settings, **_choices(store)}, status_code=status)
    return RedirectResponse(f"/play/{table.table_id}", status_code=303)


def _version(view: SeatView) -> str:
    """What changes the board: a poll that brings the same version gets 204 (htmx swaps nothing).
    The table's outcome counts: the seat may see the match over before the table has ended."""
    return f"{view.phase}.{view.turn}.{view.hands_done}.{'ended' if view.outcome else 'on'}"


@router.get("/play/{table_id}", response_class=HTMLResponse, include_in_schema=False)
def table_page(request: Request, registry: Tables, viewer: Viewer, table_id: TableId) -> HTMLResponse:
    table = _table(registry, table_id, viewer)
    view = seat_view(table, table.person.moment)
    return _render(request, "play_table.html", {"view": view, "version": _version(view), "problem": None})


@router.get("/play/{table_id}/board", response_class=HTMLResponse, include_in_schema=False)
def board_fragment(request: Request, registry: Tables, viewer: Viewer, table_id: TableId,
                   seen: Annotated[str, Query(max_length=40, description="the board's version shown")] = "",
                   ) -> Response:
    table = _table(registry, table_id, viewer)
    view = seat_view(table, table.person.moment)
    version = _version(view)
    if seen == version:
        return Response(status_code=204, headers=PRIVATE)
    return _render(request, "fragments/play_board.html", {"view": view, "version": version, "problem": None})


@router.post("/play/{table_id}/move", include_in_schema=False)
def play_move(request: Request, registry: Tables, viewer: Viewer, table_id: TableId,
              turn: Annotated[str, Form(max_length=6)],
              action: Annotated[str, Form(max_length=MAX_ACTION_CHARS)]) -> Response:
    """Plays ``action`` for decision ``turn``: the board after it (htmx), or back to the table;
    a move the seat may not make now is refused with 409 and one line, and nothing is played."""
    table = _table(registry, table_id, viewer)
    if not turn.isdigit() or not 1 <= int(turn) <= MAX_TURN:
        raise HTTPException(422, f"turn: expected a decision number 1 to {MAX_TURN}")
    problem = None
    try:
        table.person.answer(int(turn), action)
    except MoveRefusedError as exc:
        problem = str(exc)
    else:
        table.person.settle(int(turn), SETTLE_SECONDS)
    if request.headers.get("hx-request") != "true":
        if problem is None:
            return RedirectResponse(f"/play/{table_id}", status_code=303)
        view = seat_view(table, table.person.moment)
        return _render(request, "play_table.html", {"view": view, "version": _version(view), "problem": problem},
                       status_code=409)
    view = seat_view(table, table.person.moment)
    return _render(request, "fragments/play_board.html", {"view": view, "version": _version(view),
                                                          "problem": problem},
                   status_code=200 if problem is None else 409)


@router.get("/api/play/{table_id}", response_model=SeatView, tags=["api"], dependencies=[Depends(token_author)])
def table_api(registry: Tables, viewer: MaybeAuthor, table_id: TableId) -> Response:
    """A table with a person, as its seat sees it (the bearer token's author's own, on a public service)."""
    table = _table(registry, table_id, viewer)
    return Response(seat_view(table, table.person.moment).model_dump_json(), media_type="application/json",
                    headers=PRIVATE)
