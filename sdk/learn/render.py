"""The table as text, for ``render_mode="ansi"``: the whole table as an onlooker sees it.

This is for a person watching a run, not for a policy: it shows every hand. What a seat may see
is ``encoding.encode`` of its ``observe()``.
"""

from __future__ import annotations

from arena.engine.bidding_hand import BiddingHand
from arena.engine.bidding_outcome import BiddingMatchScore
from arena.engine.cards import format_cards
from arena.engine.hand import HandState
from arena.engine.match import MatchScore
from arena.engine.rules import Rules


def table_text(preset: str, state: HandState, score: MatchScore, hand_number: int) -> str:
    """A few lines: the hands, the trick in progress, the centre, the captures and the score."""
    rules = state.rules
    trump = "not set" if state.trump is None else str(state.trump)
    if state.hidden_card is not None:
        trump = f"face down ({state.hidden_card}, held by player_{state.first_player})"
    lines = [f"{preset}  hand {hand_number}  dealer player_{state.dealer}  trump {trump}  "
             f"score {_score_text(rules, score)}"]
    for seat in range(4):
        lines.append(f"  player_{seat}: {format_cards(state.hand(seat)) or '-'}")
    trick = ", ".join(f"player_{seat} {card}" for seat, card in state.current_trick)
    lines.append(f"  trick {state.trick_number}: {trick or '-'}")
    lines.append(f"  centre: {state.pile_tricks} tricks ({format_cards(state.pile) or '-'})")
    for team in (0, 1):
        lines.append(f"  team {team} took {state.captured_tricks(team)} tricks: "
                     f"{format_cards(state.captured(team)) or '-'}")
    if state.result is not None:
        winner = "a draw" if state.result.winner is None else f"team {state.result.winner} wins"
        lines.append(f"  hand over: {winner} ({state.result.outcome.value})")
    elif state.to_move is not None and state.decision is not None:
        legal = " ".join(str(a) for a in state.legal_actions())
        lines.append(f"  to move: player_{state.to_move} ({state.decision.value}): {legal}")
    return "\n".join(lines)


def _score_text(rules: Rules, score: MatchScore) -> str:
    a, b = score.score(rules)
    unit = "kots" if rules.scores_kots else "points"
    text = f"{unit} {a}-{b}"
    if any(score.tens):
        text += f", tens {score.tens[0]}-{score.tens[1]}"
    return text




def bidding_table_text(preset: str, hand: BiddingHand, score: BiddingMatchScore, hand_number: int) -> str:
    """The same for a Twenty-eight or Twenty-nine hand: the auction, the contract, the points."""
    contract = "none yet" if hand.contract is None else f"player_{hand.contract.bidder} bid {hand.contract.bid}"
    trump = "not set" if hand.trump is None else str(hand.trump)
    if hand.hidden_card is not None:
        trump = f"face down ({hand.hidden_card})"
    lines = [f"{preset}  hand {hand_number}  dealer player_{hand.dealer}  contract {contract}  trump {trump}  "
             f"game points {score.points[0]}-{score.points[1]}"]
    calls = ", ".join(f"player_{seat} {call}" for seat, call in hand.auction.calls)
    lines.append(f"  auction: {calls or '-'}")
    for seat in range(4):
        lines.append(f"  player_{seat}: {format_cards(hand.hand(seat)) or '-'}")
    trick = ", ".join(f"player_{seat} {card}" for seat, card in hand.current_trick)
    lines.append(f"  trick {hand.trick_number}: {trick or '-'}")
    for team in (0, 1):
        lines.append(f"  team {team} took {format_cards(hand.captured(team)) or '-'}")
    if hand.result is not None:
        outcome = "void" if hand.result.void else ("made" if hand.result.made else "set")
        points = hand.result.points
        lines.append(f"  hand over: the contract {outcome}, card points {points[0]}-{points[1]}")
    elif hand.to_move is not None and hand.decision is not None:
        legal = " ".join(str(a) for a in hand.legal_actions())
        lines.append(f"  to move: player_{hand.to_move} ({hand.decision.value}): {legal}")
    return "\n".join(lines)
