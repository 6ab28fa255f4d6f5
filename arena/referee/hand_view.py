"""``dehla replay``'s hand viewer: a checked match record as lines of text, one hand at a time.

Pure: the lines are built from the replay's frames (``arena.replay.frames.replay_hand``), the one
place that decides what a perspective may see, so ``--seat S`` shows that seat's own cards and
what was public (the cards played, a trump once revealed) and nothing else. Each line is a
``rich.text.Text``: suits as symbols, red suits and tens styled; a console without colour prints
its plain text. Every name from the record goes in through ``plain`` (shown literally).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text

from arena.console.text import plain
from arena.engine.cards import Card, Suit
from arena.engine.errors import ArenaError
from arena.engine.hand_records import replay_record
from arena.engine.match import FormatKind, MatchFormat
from arena.engine.outcome import HandOutcome, HandResult
from arena.referee.match_record_lines import AnyLine, DecisionEntry, HandLine, MatchEndLine, MatchStartLine
from arena.referee.tally import running_scores
from arena.replay.frames import Event, EventKind, HandReplay, Perspective, Play, Step, replay_hand

SUIT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)
"""Black and red suits alternate, as a player sorts a hand."""
SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
RED_SUITS = frozenset({Suit.HEARTS, Suit.DIAMONDS})
TEAMS = "AB"
RED = "red"
TEN = "bold"
HEADING = "bold"
SWEEP = "bold yellow"
OUTCOMES: dict[str, str] = {
    HandOutcome.FOUR_TENS: "all four tens", HandOutcome.THREE_TENS: "three tens",
    HandOutcome.TWO_TWO_NON_DEALER: "two tens each: to the side that did not deal",
    HandOutcome.TWO_TWO_TRICKS_AT_TABLE: "two tens each: more tricks won",
    HandOutcome.TWO_TWO_TRICKS_CAPTURED: "two tens each: more tricks captured",
    HandOutcome.TWO_TWO_DRAW: "two tens each: drawn", HandOutcome.MAJORITY_OF_TRICKS: "most tricks",
    HandOutcome.TRICKS_TIED: "tricks tied",
}
"""How a hand was decided, in words (``docs/rules.md``)."""


@dataclass(frozen=True, slots=True)
class ViewOptions:
    """What to show: one hand (from 1) or all, through whose eyes, with suit symbols or letters."""

    hand: int | None = None
    perspective: Perspective = "all"
    symbols: bool = True


EVERYTHING = ViewOptions()
"""Every hand, all four hands open, suits as symbols."""


def match_lines(lines: Sequence[AnyLine], options: ViewOptions = EVERYTHING) -> list[Text]:
    """The whole record (or ``options.hand``) as the viewer's lines; a hand the record lacks is a
    ``ValueError`` naming how many it has."""
    start = next((line for line in lines if isinstance(line, MatchStartLine)), None)
    end = next((line for line in lines if isinstance(line, MatchEndLine)), None)
    hands = sorted((line for line in lines if isinstance(line, HandLine)), key=lambda line: line.index)
    if options.hand is not None and all(line.index + 1 != options.hand for line in hands):
        raise ValueError(f"--hand {options.hand}: the record has {_count(len(hands), 'hand')}")
    names = list(start.seats) if start is not None else []
    scores = _running_scores(start, hands)
    out: list[Text] = []
    if start is not None:
        out += header_lines(start, options)
    for position, line in enumerate(hands):
        if options.hand is not None and line.index + 1 != options.hand:
            continue
        context = HandContext(names, len(hands), start.format if start else "",
                              scores[position] if scores else None)
        out.append(Text())
        out += hand_lines(line, replay_hand(line.record, options.perspective), context, options)
    if end is not None and options.hand is None:
        out.append(Text())
        out += end_lines(end, names)
    return out


@dataclass(frozen=True, slots=True)
class HandContext:
    """What a hand's lines need from the rest of the record."""

    names: Sequence[str]
    hands: int
    match_format: str
    score: tuple[int, int] | None
    """The match score after this hand (``None``: the record's format or rules cannot tell)."""


def header_lines(start: MatchStartLine, options: ViewOptions) -> list[Text]:
    names = start.seats
    teams = [_partnership(names, team) for team in (0, 1)]
    seen = "all hands" if options.perspective == "all" else (
        "no hands" if options.perspective == "none" else f"seat {options.perspective}'s view")
    return [
        Text.assemble(plain(start.match_id, HEADING), plain(f" | {start.preset} | {start.format} | seed {start.seed}"
                                                            f" | {seen}")),
        Text.assemble("A (seats 0+2): ", plain(teams[0]), " | B (seats 1+3): ", plain(teams[1])),
    ]


def hand_lines(line: HandLine, replay: HandReplay, context: HandContext,
               options: ViewOptions = EVERYTHING) -> list[Text]:
    """One hand: the cards each visible seat was dealt, sorted; every trick with its winner, the
    pile and streak or the sweep, and the tens each team holds; calls and reveals; the result."""
    symbols = options.symbols
    out = [_hand_heading(line, replay, context)]
    dealt = _dealt(replay.steps)
    for seat in range(4):
        name = context.names[seat] if seat < len(context.names) else "?"
        head = Text.assemble(f"  seat {seat} {TEAMS[seat & 1]} ", plain(name))
        if seat in dealt:
            head.append("  ")
            head.append_text(hand_text(dealt[seat], symbols))
        else:
            first = replay.steps[0].seats[seat]
            head.append(f"  {_count(first.size + first.to_come, 'card')}, not seen")
        out.append(head)
    faults: dict[int, Text] = {}
    for step in replay.steps[1:]:
        decision = line.decisions[step.index - 1] if step.index - 1 < len(line.decisions) else None
        out += _step_lines(step, decision, faults, symbols)
    last = replay.steps[-1]
    if last.trick and not last.trick_complete:
        out.append(_plays_text(Text("  unfinished trick", style=HEADING), last.trick, faults, symbols))
    result = replay.steps[-1].result
    if result is None:
        out.append(Text("  unfinished: the record ends here"))
    else:
        who = "drawn" if result.winner is None else f"team {TEAMS[result.winner]} wins"
        kot = " | kot" if result.kot else ""
        how = OUTCOMES.get(result.outcome, result.outcome)
        out.append(Text.assemble(("  result: ", HEADING), f"{who} ({how}) | tens "
                                 f"{result.tens[0]}-{result.tens[1]} | tricks {result.tricks_won[0]}-"
                                 f"{result.tricks_won[1]}{kot} | value for A {result.value:+g}"))
    if context.score is not None:
        kind = "tens" if context.match_format.lower().startswith(f"{FormatKind.TENS.value}:") else "score"
        out.append(Text(f"  {kind} after hand {line.index + 1}: A {context.score[0]} - B {context.score[1]}"))
    return out


def end_lines(end: MatchEndLine, names: Sequence[str]) -> list[Text]:
    winner = "none (level)" if end.winner_team is None else (
        f"{TEAMS[end.winner_team]} ({_partnership(names, end.winner_team)})" if 0 <= end.winner_team <= 1
        else str(end.winner_team))
    score = " - ".join(f"{value:g}" for value in end.score)
    out = [Text.assemble(("end", HEADING), plain(f": {end.status}, winner {winner}, score {score}"))]
    out += [plain(f"  fault: seat {fault.seat} {fault.kind}: {fault.detail}") for fault in end.faults]
    if end.void_reason:
        out.append(plain(f"  void: {end.void_reason}"))
    return out


def card_text(card: str, symbols: bool = True) -> Text:
    """``10H`` as ``10♥`` (``10H`` without symbols); red suits red, tens bold."""
    parsed = Card.parse(card)
    suit = SYMBOLS[parsed.suit] if symbols else parsed.suit.letter
    style = " ".join(part for part in (RED if parsed.suit in RED_SUITS else "",
                                       TEN if parsed.rank.label == "10" else "") if part)
    return Text(f"{parsed.rank.label}{suit}", style=style)


def hand_text(cards: Sequence[str], symbols: bool = True) -> Text:
    """A hand by suit (♠ ♥ ♣ ♦) and rank, high to low: ``♠ A K 10 4  ♥ Q 9  ♣ -  ♦ 10 8``."""
    parsed = [Card.parse(card) for card in cards]
    text = Text()
    for number, suit in enumerate(SUIT_ORDER):
        if number:
            text.append("  ")
        ranks = sorted((card.rank for card in parsed if card.suit == suit), reverse=True)
        style = RED if suit in RED_SUITS else ""
        text.append(SYMBOLS[suit] if symbols else suit.letter, style=style)
        if not ranks:
            text.append(" -")
        for rank in ranks:
            text.append(" ")
            text.append(rank.label, style=" ".join(part for part in (style, TEN if rank.label == "10" else "")
                                                   if part))
    return text


def _hand_heading(line: HandLine, replay: HandReplay, context: HandContext) -> Text:
    heading = Text(f"hand {line.index + 1} of {context.hands}", style=HEADING)
    try:
        duplicate = MatchFormat.parse(context.match_format).kind is FormatKind.DUPLICATE
    except ArenaError:
        duplicate = False
    if duplicate:
        table = line.index % 2 + 1
        turned = ", the cards turned one seat on" if table == 2 else ""
        room = "" if line.room is None else f", played by room {line.room}'s bots"  # None: one room
        heading.append(f" | deal {line.index // 2 + 1}, table {table}{turned}{room}", style="")
    heading.append(f" | dealer seat {replay.dealer}", style="")
    return heading


def _dealt(steps: Sequence[Step]) -> dict[int, list[str]]:
    """Every card each seat held at some step, as the perspective sees it: the whole deal of each
    open seat, also where it came in packets or a card went face down as trumps."""
    held: dict[int, set[str]] = {}
    for step in steps:
        for seat in step.seats:
            if seat.cards is not None:
                held.setdefault(seat.seat, set()).update(seat.cards)
    return {seat: sorted(cards) for seat, cards in held.items()}


def _step_lines(step: Step, decision: DecisionEntry | None, faults: dict[int, Text], symbols: bool) -> list[Text]:
    """A step's lines: a call, hide or reveal at once, a play with its trick when the trick is
    complete (``faults`` holds the notes of the trick's faulty plays until then)."""
    out: list[Text] = []
    action = step.action
    assert action is not None
    fault = _fault_note(decision, action.seat)
    if action.kind != "play":
        out.append(Text.assemble(f"  seat {action.seat} ", _action_text(step, symbols), fault))
    elif fault.plain:
        faults[action.seat] = fault
    for event in step.events:
        if event.kind in (EventKind.TRUMP_SET, EventKind.TRUMP_REVEALED):  # a call is its action's line
            out.append(Text.assemble("  ", _trump_text(step, event, symbols)))
    if step.trick_complete and step.trick_winner is not None:
        out.append(_trick_text(step, faults, symbols))
        faults.clear()
    return out


def _action_text(step: Step, symbols: bool) -> Text:
    action = step.action
    assert action is not None
    if action.kind == "call":
        suit = step.trump.in_force
        return Text.assemble("calls trumps: ", _suit_text(suit, symbols) if suit else Text("?"))
    if action.kind == "hide":
        card = step.trump.card
        return Text.assemble("puts ", card_text(card, symbols) if card else Text("a card"), " face down as trumps")
    if action.kind == "decline":
        return Text(action.text)  # the card turned up follows as the trump event's line
    return Text("asks for the face-down trump")


def _trump_text(step: Step, event: Event, symbols: bool) -> Text:
    suit = step.trump.in_force
    shown = _suit_text(suit, symbols) if suit else Text("?")
    if event.kind is EventKind.TRUMP_REVEALED:
        card = card_text(event.card, symbols) if event.card else Text("the card")
        return Text.assemble("trump revealed: ", card, f" (for seat {event.seat}): trumps are ", shown)
    how = Text.assemble(" by ", card_text(event.card, symbols)) if event.card else Text()
    who = f" (seat {event.seat})" if event.seat is not None else ""
    return Text.assemble("trumps are ", shown, how, who)


def _trick_text(step: Step, faults: dict[int, Text], symbols: bool) -> Text:
    winner = step.trick_winner
    assert winner is not None
    number = step.teams[0].tricks_won + step.teams[1].tricks_won  # this trick is counted already
    text = _plays_text(Text(f"  trick {number:>2}", style=HEADING), step.trick, faults, symbols)
    text.append(f"  -> seat {winner} ({TEAMS[winner & 1]})")
    taken = next((event for event in step.events if event.kind in (EventKind.SWEEP, EventKind.CAPTURE)), None)
    if taken is not None and taken.team is not None:
        verb = "sweeps" if taken.kind is EventKind.SWEEP else "takes"
        text.append(f" | team {TEAMS[taken.team]} {verb} {_count(taken.cards, 'card')} "
                    f"({_count(taken.tricks, 'trick')}, {_count(taken.tens, 'ten')})", style=SWEEP)
    else:
        pile = len(step.pile) + step.pile_face_down
        text.append(f" | pile {_count(pile, 'card')} ({_count(step.pile_tricks, 'trick')})")
        if step.streak_holder is not None:
            text.append(f" | streak seat {step.streak_holder}")
    text.append(f" | tens A {step.teams[0].tens} B {step.teams[1].tens}")
    return text


def _plays_text(text: Text, plays: Sequence[Play], faults: dict[int, Text], symbols: bool) -> Text:
    for play in plays:
        text.append(f"  {play.seat} ")
        text.append_text(_play_text(play, symbols))
        if play.seat in faults:
            text.append_text(faults[play.seat])
    return text


def _play_text(play: Play, symbols: bool) -> Text:
    if play.card is None:
        return Text("(a card face down)")
    card = card_text(play.card, symbols)
    return Text.assemble(card, " face down") if play.face_down else card


def _fault_note(decision: DecisionEntry | None, seat: int) -> Text:
    if decision is None or decision.seat != seat or decision.fault is None:
        return Text()
    substituted = ", the referee played for it" if decision.substituted else ""
    return Text(f" [fault: {decision.fault}{substituted}]", style=RED)


def _suit_text(letter: str, symbols: bool) -> Text:
    suit = Suit.parse(letter)
    return Text(SYMBOLS[suit] if symbols else suit.letter, style=RED if suit in RED_SUITS else "")


def _partnership(names: Sequence[str], team: int) -> str:
    members = [names[seat] for seat in (team, team + 2) if seat < len(names)]
    if len(members) == 2 and members[0] == members[1]:
        return members[0]
    return "+".join(members) or "?"


def _running_scores(start: MatchStartLine | None, hands: Sequence[HandLine]) -> list[tuple[int, int]] | None:
    """The score after each hand, counted as the referee counts it, or ``None`` when the record's
    format does not say how (a hand-written record)."""
    if start is None or not hands:
        return None
    try:
        match_format = MatchFormat.parse(start.format)
        states = [replay_record(line.record, require_complete=False) for line in hands]
    except ArenaError:
        return None
    results: list[HandResult | None] = [state.result for state in states]
    return running_scores(states[0].rules, match_format, results)


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"
