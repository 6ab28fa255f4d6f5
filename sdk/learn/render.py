"""The table as text, for ``render_mode="ansi"``: the whole table as an onlooker sees it.

This is for a person watching a run, not for a policy: it shows every hand. What a seat may see
is ``encoding.encode`` of its ``observe()``.
"""

from __future__ import annotations

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


