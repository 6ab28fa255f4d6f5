"""The replay viewer's page and data.

``GET /matches/{id}/replay?hand=N&step=S&seat=K|all|none[&duplicate=1]`` is the page (a shell the
module ``static/replay/replay.js`` fills in); ``GET /api/matches/{id}/hands/{hand}/replay?seat=...``
is its data, computed for the perspective on the server (``frames.replay_hand``; a bidding game's
hand by ``bidding_frames.replay_bidding_hand``), so a seat's view never holds more than that seat
was told. The page refetches the data when the perspective changes;
it never filters hands itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, Response
from sqlalchemy.orm import Session

from arena.engine.bidding_records import is_bidding_record
from arena.engine.errors import ArenaError
from arena.engine.hand_records import replay_record
from arena.engine.match import FormatKind, MatchFormat
from arena.referee.tally import running_scores
from arena.replay.bidding_frames import replay_bidding_hand
from arena.replay.duplicate import PairSummary, other_perspective, pair_summary, partner_hand
from arena.replay.frames import (
    PERSPECTIVE_PATTERN,
    FrozenModel,
    HandReplay,
    Perspective,
    parse_perspective,
    replay_hand,
)
from ladder.store.schema import Match
from ladder.web.bounds import HandQuery, Number, RowId, StepQuery
from ladder.web.hand_outcomes import hand_outcomes
from ladder.web.replay_cache import ReplayCache
from ladder.web.store_access import SessionDep
from ladder.web.stored_record import MatchRecord, UnreadableRecordError, read_match, record_identity
from ladder.web.templating import templates

router = APIRouter()

SeatQuery = Annotated[str, Query(pattern=PERSPECTIVE_PATTERN,
                                 description="`all` (four hands open), a seat `0`..`3` (its own view), or `none`")]

UNREADABLE_STATUS = 422
"""The API's status for a match whose record cannot be read (the body says which and why)."""


class TensTally(FrozenModel):
    """A ``tens:N`` match's running totals around one hand: each team's captured tens, added up."""

    target: int
    """The N of ``tens:N``: the first team whose total reaches it (ahead of the other) wins."""
    before: tuple[int, int]
    """By team (A, B), before this hand."""
    after: tuple[int, int]
    """By team, with this hand's tens counted."""


class HandReplayBody(FrozenModel):
    """One hand of a match, step by step, as one perspective sees it (a ladder match's or a local one's)."""

    hand: int
    """The hand's number, from 1."""
    hands: int
    """How many hands the match record holds."""
    seats: list[str]
    """The names of the bots at seats 0..3, from the record's ``match_start`` line (untrusted text)."""
    preset: str
    format: str
    replay: HandReplay
    pair: PairSummary | None
    """For a duplicate match: the other play of this deal and how the two compare."""
    tens: TensTally | None = None
    """For a ``tens:N`` match: the tens totals before and after this hand."""


class ReplayResponse(HandReplayBody):
    """A ladder match's hand."""

    match_id: int


@dataclass(frozen=True, slots=True)
class ViewerLinks:
    """Whose viewer it is: the match's id and heading, its page, and where its hands' data lie."""

    match_id: str
    label: str
    """The match in a sentence: ``match 3``, ``local match ID``."""
    heading: str
    page: str
    data: str
    """The hands' data URL up to the hand number (``/api/matches/3/hands/``)."""


class MissingReplayError(Exception):
    """No such match or hand (a 404 naming which)."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


def _match(session: Session, match_id: int) -> Match:
    match = session.get(Match, match_id)
    if match is None:
        raise MissingReplayError(f"no match {match_id}")
    return match


def _match_record(session: Session, match_id: int) -> MatchRecord:
    match = _match(session, match_id)
    return read_match(session, match.id, match.record_path)


def replay_cache(request: Request) -> ReplayCache[bytes]:
    """The service's cache of computed replays as their JSON (one per application, made on first use)."""
    cache: ReplayCache[bytes] | None = getattr(request.app.state, "replay_cache", None)
    if cache is None:
        cache = request.app.state.replay_cache = ReplayCache()
    return cache


def _is_duplicate(record: MatchRecord) -> bool:
    try:
        return MatchFormat.parse(record.start.format).kind is FormatKind.DUPLICATE
    except ArenaError:
        return False


def tens_tally(label: str, record: MatchRecord, hand: int) -> TensTally | None:
    """The tens totals around ``hand`` of a ``tens:N`` match (``None`` for the other formats),
    counted as the referee counts them (``running_scores``)."""
    try:
        match_format = MatchFormat.parse(record.start.format)
    except ArenaError:
        return None
    if match_format.kind is not FormatKind.TENS or not 1 <= hand <= len(record.hands):
        return None
    if any(is_bidding_record(line.record) for line in record.hands[:hand]):
        return None  # a bidding game counts card points and game points, not tens
    try:
        states = [replay_record(line.record, require_complete=False) for line in record.hands[:hand]]
    except ArenaError as exc:
        raise UnreadableRecordError(f"{label}: {exc}") from None
    totals = [(0, 0), *running_scores(states[0].rules, match_format, [state.result for state in states])]
    return TensTally(target=match_format.count, before=totals[-2], after=totals[-1])


def _hand_replay(label: str, record: MatchRecord, hand: int, perspective: Perspective) -> HandReplay:
    if not 1 <= hand <= len(record.hands):
        raise MissingReplayError(f"{label} has no hand {hand} (it has {len(record.hands)})")
    data = record.hands[hand - 1].record
    try:
        if is_bidding_record(data):
            return replay_bidding_hand(data, perspective)
        return replay_hand(data, perspective)
    except ArenaError as exc:
        raise UnreadableRecordError(f"{label}: hand {hand}: {exc}") from None


def replay_body(label: str, record: MatchRecord, hand: int, perspective: Perspective) -> HandReplayBody:
    """The data of one hand's replay, with its duplicate twin compared where the match has one
    (``label`` names the match in an error: ``match 3``, ``local match ID``)."""
    here = _hand_replay(label, record, hand, perspective)
    pair = None
    other = partner_hand(hand)
    if _is_duplicate(record) and other <= len(record.hands):
        there = _hand_replay(label, record, other, other_perspective(hand, perspective))
        pair = pair_summary(hand, here, there)
    return HandReplayBody(hand=hand, hands=len(record.hands), seats=list(record.start.seats),
                          preset=record.start.preset, format=record.start.format, replay=here, pair=pair,
                          tens=tens_tally(label, record, hand))


def replay_response(match_id: int, record: MatchRecord, hand: int, perspective: Perspective) -> ReplayResponse:
    body = replay_body(f"match {match_id}", record, hand, perspective)
    return ReplayResponse(match_id=match_id, **dict(body))


@router.get("/api/matches/{match_id}/hands/{hand}/replay", response_model=ReplayResponse, tags=["api"],
            responses={404: {"description": "No such match or hand"},
                       UNREADABLE_STATUS: {"description": "A bad seat, or the match's record cannot be read"}})
def replay_data(request: Request, session: SessionDep, match_id: RowId, hand: Number,
                seat: SeatQuery = "all") -> Response:
    """A hand's replay: a step per action, for the perspective ``seat``. The JSON is kept once
    written (``ReplayResponse`` is its schema), so a replay seen again is not serialised again."""
    try:
        match = _match(session, match_id)
        identity = record_identity(session, match.id, match.record_path)

        def compute() -> bytes:
            record = read_match(session, match.id, match.record_path)
            return replay_response(match_id, record, hand, parse_perspective(seat)).model_dump_json().encode()

        return Response(replay_cache(request).get(identity, hand, seat, compute), media_type="application/json")
    except MissingReplayError as exc:
        raise HTTPException(404, exc.what) from None
    except UnreadableRecordError as exc:
        raise HTTPException(UNREADABLE_STATUS, str(exc)) from None


@router.get("/matches/{match_id}/replay", response_class=HTMLResponse)
def replay_page(request: Request, session: SessionDep, match_id: RowId,
                hand: HandQuery = 1, step: StepQuery = 0,
                seat: SeatQuery = "all", duplicate: bool = False) -> HTMLResponse:
    """The viewer: the table, the controls, and the data URL its script loads."""
    try:
        record = _match_record(session, match_id)
    except MissingReplayError as exc:
        return error_page(request, 404, "Not found", exc.what)
    except UnreadableRecordError as exc:
        return error_page(request, 200, "This match's record cannot be read", str(exc))
    return viewer_page(request, record, hand, step, seat, duplicate, ViewerLinks(
        match_id=str(match_id), label=f"match {match_id}", heading=f"Match {match_id}", page=f"/matches/{match_id}",
        data=f"/api/matches/{match_id}/hands/"))


def viewer_page(request: Request, record: MatchRecord, hand: int, step: int, seat: str, duplicate: bool,
                links: ViewerLinks) -> HTMLResponse:
    """The viewer of a checked record's hand: a ladder match's or a local one's (one template)."""
    if not 1 <= hand <= len(record.hands):
        return error_page(request, 404, "Not found", f"{links.label} has no hand {hand} "
                                                      f"(it has {len(record.hands)})", links.page)
    is_duplicate = _is_duplicate(record)
    try:
        tens = tens_tally(links.label, record, hand)
    except UnreadableRecordError as exc:
        return error_page(request, 200, "This match's record cannot be read", str(exc), links.page)
    other = partner_hand(hand)
    side_by_side = duplicate and is_duplicate and other <= len(record.hands)
    outcomes = hand_outcomes(record.start.format, [line.record for line in record.hands])
    context = {
        "match_id": links.match_id, "label": links.label, "heading": links.heading, "match_page": links.page,
        "data_base": links.data,
        "hand": hand, "hands": len(record.hands), "step": step, "seat": seat,
        "names": record.start.seats, "preset": record.start.preset, "format": record.start.format,
        "is_duplicate": is_duplicate, "duplicate_asked": duplicate, "side_by_side": side_by_side,
        "other_hand": other if side_by_side else None, "tens": tens,
        "outcome": outcomes[hand - 1] if outcomes else None,
        "score_before": outcomes[hand - 2].score if outcomes and hand > 1 else (0, 0) if outcomes else None,
    }
    return templates.TemplateResponse(request, "replay.html", context)


def error_page(request: Request, status: int, title: str, message: str, back: str = "/matches") -> HTMLResponse:
    """The viewer's error page: what and why, and a way back."""
    return templates.TemplateResponse(request, "replay_error.html", {"title": title, "message": message, "back": back},
                                      status_code=status)
