"""``dehla replay`` for a bidding game's record (Twenty-eight, Twenty-nine): per hand, the cards
dealt, the auction, the face-down trump and its exposure, every trick, the points each team took
and the game points.

Every hand is replayed by the engine (``replay_bidding_record``) and printed from the replay; a
seat's view (``--seat``) shows only its own cards, and the face-down card only to its bidder
until the exposure.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from arena.console.text import plain
from arena.engine.actions import HideTrump, PlayCard, RevealTrump
from arena.engine.bidding_hand import BiddingHand
from arena.engine.bidding_records import replay_bidding_record
from arena.engine.cards import format_cards
from arena.referee.hand_view import HEADING, TEAMS, ViewOptions, end_lines, header_lines
from arena.referee.match_record_lines import AnyLine, HandLine, MatchEndLine, MatchStartLine


def bidding_match_lines(lines: Sequence[AnyLine], options: ViewOptions) -> list[Text]:
    """The whole record (or ``options.hand``) as the viewer's lines."""
    start = next((line for line in lines if isinstance(line, MatchStartLine)), None)
    end = next((line for line in lines if isinstance(line, MatchEndLine)), None)
    hands = sorted((line for line in lines if isinstance(line, HandLine)), key=lambda line: line.index)
    if options.hand is not None and all(line.index + 1 != options.hand for line in hands):
        raise ValueError(f"--hand {options.hand}: the record has {len(hands)} hands")
    names = list(start.seats) if start is not None else []
    out: list[Text] = header_lines(start, options) if start is not None else []
    for line in hands:
        if options.hand is None or line.index + 1 == options.hand:
            out.append(Text())
            out += bidding_hand_lines(line, replay_bidding_record(line.record, require_complete=False),
                                      names, options)
    if end is not None and options.hand is None:
        out.append(Text())
        out += end_lines(end, names)
    return out


def bidding_hand_lines(line: HandLine, state: BiddingHand, names: Sequence[str], options: ViewOptions) -> list[Text]:
    """One hand: the cards each visible seat was dealt, the auction, the trump, the tricks, the result."""
    seen = options.perspective
    out = [Text.assemble((f"hand {line.index + 1}", HEADING), f" | dealer seat {state.dealer}")]
    for seat in range(4):
        name = names[seat] if seat < len(names) else "?"
        cards = " ".join(str(c) for c in state.deal.hands[seat])
        shown = cards if seen in ("all", seat) else "8 cards, not seen"
        out.append(Text.assemble(f"  seat {seat} {TEAMS[seat & 1]} ", plain(name), f"  {shown}"))
    calls = ", ".join(f"{seat} {call}" for seat, call in state.auction.calls)
    out.append(Text.assemble(("  auction: ", HEADING), calls or "-"))
    contract = state.contract
    trick_no = 1
    plays = 0
    for seat, action in state.history:
        if isinstance(action, HideTrump):
            card = str(action.card) if seen in ("all", seat) else "a card"
            assert contract is not None
            out.append(Text(f"  seat {seat} bid {contract.bid} and puts {card} face down as the trump"))
        elif isinstance(action, RevealTrump):
            exposed = f" {state.reveal.card}" if state.reveal is not None else ""  # public from the call on
            out.append(Text(f"  trick {trick_no}: seat {seat} calls for the trump: exposed{exposed}"))
        elif isinstance(action, PlayCard):
            plays += 1
            if plays % 4 == 0:
                trick = state.tricks[trick_no - 1] if trick_no <= len(state.tricks) else None
                if trick is not None:
                    cards = " ".join(f"{s}:{c}" for s, c in zip(trick.seats, trick.cards, strict=True))
                    out.append(Text(f"  trick {trick_no}: {cards}  won by seat {trick.winner}"))
                trick_no += 1
    result = state.result
    if result is None:
        out.append(Text("  unfinished: the record ends here"))
        return out
    team = TEAMS[result.bidding_team]
    verdict = "void (nobody called for the trump in seven tricks)" if result.void else (
        f"team {team} made its bid" if result.made else f"team {team} failed its bid")
    out.append(Text.assemble(("  result: ", HEADING),
                             f"seat {result.bidder} bid {result.bid} | points A {result.points[0]} - "
                             f"B {result.points[1]} | {verdict} | game points {result.game_points:+d} for {team}"))
    if seen == "all" and state.hidden_card is not None:
        out.append(Text(f"  the face-down card was never exposed: {format_cards(1 << state.hidden_card)}"))
    return out
