"""``dehla replay``'s hand viewer: the lines of a fixed record written out, the deal and the
running score checked against the engine, and a seat's view that never names a card it could not see."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.engine.cards import Card
from arena.engine.chance import derive_seed
from arena.engine.deal import Deal
from arena.engine.hand import HandState
from arena.engine.hand_records import hand_record
from arena.engine.match import MatchFormat
from arena.engine.observation import observe
from arena.engine.rules import rules_for
from arena.engine.selfplay import play_randomly, selfplay_hands
from arena.referee.hand_view import ViewOptions, card_text, hand_text, match_lines
from arena.referee.match_record_lines import AnyLine, HandLine, MatchEndLine, MatchStartLine
from arena.referee.match_recorder import read_match_record
from arena.referee.replay import checked_lines
from arena.referee.tally import running_scores
from tests.cli_helpers import run_dehla

RECORD = Path(__file__).resolve().parents[1] / "records" / "match-before-schema-version.jsonl"
CARD = re.compile(r"(10|[2-9JQKA])([♠♥♦♣])")
LISTING = re.compile(r"^  seat \d [AB] ")
SYMBOL_SUIT = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}

HAND_1 = """\
hand 1 of 2 | deal 1, table 1 | dealer seat 0
  seat 0 A random  ♠ J 9 3  ♥ 10 8 7 4  ♣ Q 4  ♦ A K 5 2
  seat 1 B random  ♠ A 8  ♥ A 5 3 2  ♣ A 10 9 5 2  ♦ 9 4
  seat 2 A random  ♠ 6 5  ♥ Q J 9  ♣ 7 6  ♦ Q J 10 7 6 3
  seat 3 B random  ♠ K Q 10 7 4 2  ♥ K 6  ♣ K J 8 3  ♦ 8
  seat 1 calls trumps: ♣
  trick  1  1 5♥  2 J♥  3 K♥  0 7♥  -> seat 3 (B) | pile 4 cards (1 trick) | streak seat 3 | tens A 0 B 0
  trick  2  3 10♠  0 3♠  1 8♠  2 5♠  -> seat 3 (B) | team B sweeps 8 cards (2 tricks, 1 ten) | tens A 0 B 1
  trick  3  3 8♦  0 K♦  1 9♦  2 J♦  -> seat 0 (A) | pile 4 cards (1 trick) | streak seat 0 | tens A 0 B 1
  trick  4  0 2♦  1 4♦  2 6♦  3 3♣  -> seat 3 (B) | pile 8 cards (2 tricks) | streak seat 3 | tens A 0 B 1
  trick  5  3 K♠  0 J♠  1 A♠  2 6♠  -> seat 1 (B) | pile 12 cards (3 tricks) | streak seat 1 | tens A 0 B 1
  trick  6  1 9♣  2 7♣  3 K♣  0 Q♣  -> seat 3 (B) | pile 16 cards (4 tricks) | streak seat 3 | tens A 0 B 1
  trick  7  3 8♣  0 4♣  1 5♣  2 6♣  -> seat 3 (B) | team B sweeps 20 cards (5 tricks, 0 tens) | tens A 0 B 1
  trick  8  3 6♥  0 10♥  1 2♥  2 9♥  -> seat 0 (A) | pile 4 cards (1 trick) | streak seat 0 | tens A 0 B 1
  trick  9  0 9♠  1 3♥  2 10♦  3 Q♠  -> seat 3 (B) | pile 8 cards (2 tricks) | streak seat 3 | tens A 0 B 1
  trick 10  3 7♠  0 8♥  1 A♥  2 Q♦  -> seat 3 (B) | team B sweeps 12 cards (3 tricks, 2 tens) | tens A 0 B 3
  trick 11  3 4♠  0 4♥  1 2♣  2 7♦  -> seat 1 (B) | pile 4 cards (1 trick) | streak seat 1 | tens A 0 B 3
  trick 12  1 10♣  2 Q♥  3 J♣  0 A♦  -> seat 3 (B) | pile 8 cards (2 tricks) | streak seat 3 | tens A 0 B 3
  trick 13  3 2♠  0 5♦  1 A♣  2 3♦  -> seat 1 (B) | team B sweeps 12 cards (3 tricks, 1 ten) | tens A 0 B 4
  result: team B wins (all four tens) | tens 0-4 | tricks 2-11 | kot | value for A -2
  score after hand 1: A 0 - B 2"""


def fixed_record() -> list[AnyLine]:
    return checked_lines(RECORD, read_match_record(RECORD))


EVERYTHING = ViewOptions()


def shown(lines: list[AnyLine], options: ViewOptions = EVERYTHING) -> list[str]:
    return [line.plain for line in match_lines(lines, options)]


def test_a_hand_reads_as_a_hand_viewer_shows_it() -> None:
    text = shown(fixed_record(), ViewOptions(hand=1))
    assert text[:2] == ["match-20261201-094611-1 | dehla-pakad | duplicate:1 | seed 1 | all hands",
                        "A (seats 0+2): random | B (seats 1+3): random"]
    assert "\n".join(text[3:]) == HAND_1


def test_the_whole_record_ends_with_the_running_score_and_the_recorded_result() -> None:
    lines = fixed_record()
    text = shown(lines)
    assert [line for line in text if line.startswith("  score after")] == [
        "  score after hand 1: A 0 - B 2", "  score after hand 2: A 1 - B 2"]
    assert text[-1] == "end: done, winner B (random), score 1 - 2"
    end = next(line for line in lines if isinstance(line, MatchEndLine))
    assert end.score == [1, 2]  # the running score ends where the referee's tally did


def test_a_hand_played_in_a_room_names_the_room() -> None:
    """A two-room record's hand lines carry their room; the fixed record (one room) has none."""
    lines = [line.model_copy(update={"room": line.index % 2}) if isinstance(line, HandLine) else line
             for line in fixed_record()]
    assert shown(lines, ViewOptions(hand=2))[3] == ("hand 2 of 2 | deal 1, table 2, the cards turned one seat on, "
                                                    "played by room 1's bots | dealer seat 1")
    assert shown(lines, ViewOptions(hand=1))[3] == ("hand 1 of 2 | deal 1, table 1, played by room 0's bots | "
                                                    "dealer seat 0")


def test_the_second_table_of_a_deal_says_so_and_holds_the_cards_one_seat_on() -> None:
    text = shown(fixed_record(), ViewOptions(hand=2))
    assert text[3] == "hand 2 of 2 | deal 1, table 2, the cards turned one seat on | dealer seat 1"
    first = shown(fixed_record(), ViewOptions(hand=1))
    listing = [line.split("random  ")[1] for line in first[4:8]]
    assert [line.split("random  ")[1] for line in text[4:8]] == [listing[3], *listing[:3]]


def test_a_seat_view_lists_its_own_cards_only() -> None:
    text = shown(fixed_record(), ViewOptions(hand=1, perspective=2))
    assert text[0].endswith("seat 2's view")
    assert text[4:8] == ["  seat 0 A random  13 cards, not seen", "  seat 1 B random  13 cards, not seen",
                         "  seat 2 A random  ♠ 6 5  ♥ Q J 9  ♣ 7 6  ♦ Q J 10 7 6 3",
                         "  seat 3 B random  13 cards, not seen"]


def test_cards_sort_by_suit_and_rank_and_read_without_symbols() -> None:
    cards = ["2H", "10S", "AS", "JD", "3C", "10H", "KH"]
    assert hand_text(cards).plain == "♠ A 10  ♥ K 10 2  ♣ 3  ♦ J"
    assert hand_text(cards, symbols=False).plain == "S A 10  H K 10 2  C 3  D J"
    assert hand_text([]).plain == "♠ -  ♥ -  ♣ -  ♦ -"
    assert card_text("10D").plain == "10♦" and card_text("10D").style == "red bold"
    assert card_text("QS").style == ""


def test_a_hand_the_record_lacks_is_refused() -> None:
    with pytest.raises(ValueError, match=r"^--hand 3: the record has 2 hands$"):
        match_lines(fixed_record(), ViewOptions(hand=3))


PRESETS = ["dehla-pakad", "dehla-pakad-cut", "dehla-pakad-hidden", "mendikot"]


def truncated_line(preset: str, seed: int, cut: float) -> tuple[HandLine, HandState]:
    """A hand played at random, its record cut after a share ``cut`` of its actions (the state there)."""
    rules = rules_for(preset)
    deal = Deal.from_seed(rules, derive_seed(seed, "deal", 0))
    full = HandState(rules, deal, seed % 4)
    play_randomly(full, random.Random(seed))
    keep = int(len(full.history) * cut)
    state = HandState(rules, deal, seed % 4)
    for _, action in full.history[:keep]:
        state.apply(action)
    record = hand_record(state)
    line = HandLine(index=0, complete=state.is_over, record=record,
                    decisions=[{"seat": seat, "action": str(action), "ms": 1.0} for seat, action in state.history])
    return line, state


@settings(max_examples=25, deadline=None)
@given(preset=st.sampled_from(PRESETS), seed=st.integers(0, 10_000), cut=st.floats(0, 1), seat=st.integers(0, 3))
def test_a_seat_view_never_names_a_card_the_seat_could_not_see(preset: str, seed: int, cut: float,
                                                               seat: int) -> None:
    line, state = truncated_line(preset, seed, cut)
    start = MatchStartLine(match_id="m", seed=seed, preset=preset, format="hands:1", seats=["a", "b", "c", "d"])
    text = shown([start, line], ViewOptions(perspective=seat))
    held = {str(Card(c)) for other in range(4) if other != seat for c in _cards(state.hand(other))}
    unseen = held | {str(Card(c)) for other in range(4) if other != seat for c in _cards(state.undealt(other))}
    hidden, holder = state.hidden_card, observe(state, 0).hidden_trump_holder
    if hidden is not None and holder != seat:
        unseen.add(str(hidden))
    if state.reveal is not None:  # the turned-up trump is public, back in its holder's hand
        unseen.discard(str(state.reveal.card))
        held.discard(str(state.reveal.card))
    named = {rank + SYMBOL_SUIT[suit] for rank, suit in CARD.findall("\n".join(text))}
    assert not named & unseen
    listings = [row for row in text if LISTING.match(row)]
    assert len(listings) == 4
    assert all(row.endswith("not seen") for row in listings if not row.startswith(f"  seat {seat} "))
    # Without the seat's perspective the same lines would give the other hands away.
    everything = shown([start, line], ViewOptions(perspective="all"))
    listed = {card for row in everything if LISTING.match(row) and not row.startswith(f"  seat {seat} ")
              for card in _parse_listing(row.split("  ", 2)[2])}
    assert held <= listed


@settings(max_examples=10, deadline=None)
@given(preset=st.sampled_from(PRESETS), seed=st.integers(0, 10_000))
def test_every_seat_is_listed_with_the_whole_deal(preset: str, seed: int) -> None:
    line, state = truncated_line(preset, seed, 1.0)
    assert state.deal is not None
    text = shown([line])
    for seat, row in enumerate(text[2:6]):
        listing = row.split("  ", 2)[2]
        assert sorted(_parse_listing(listing)) == sorted(str(Card(c)) for c in state.deal.hands[seat])


def test_the_running_score_is_the_one_a_match_of_hands_counts() -> None:
    rules = rules_for("dehla-pakad")
    played = list(selfplay_hands(rules, 12, seed=3))
    scores = running_scores(rules, MatchFormat.parse("hands:12"), [state.result for state, _ in played])
    assert scores == [score.score(rules) for _, score in played]


ARGS = ("replay", str(RECORD), "--hand", "1")


def real_dehla(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "arena", *args], capture_output=True, text=True, check=False,
                          env=env)


def test_colour_only_on_a_terminal_and_never_under_no_color() -> None:
    """Piped: a real process's stdout is a pipe. The terminal (``FORCE_COLOR``, as rich reads it)
    and ``NO_COLOR`` in process (``tests/cli_helpers.run_dehla``): the same command, env and code."""
    def replay(run: Callable[..., subprocess.CompletedProcess[str]], **env: str) -> str:
        out = run(*ARGS, env={"PATH": "/usr/bin", **env})
        assert out.returncode == 0, out.stderr
        return out.stdout

    piped = replay(real_dehla)
    assert "\x1b[" not in piped and "♥ 10 8 7 4" in piped
    terminal = replay(run_dehla, FORCE_COLOR="1")
    assert "\x1b[31m♥\x1b[0m" in terminal
    assert "\x1b[31m" not in replay(run_dehla, FORCE_COLOR="1", NO_COLOR="1")


def _cards(mask: int) -> list[int]:
    return [card for card in range(52) if mask >> card & 1]


def _parse_listing(listing: str) -> list[str]:
    cards: list[str] = []
    for group in listing.split("  "):
        symbol, *ranks = group.split()
        cards += [rank + SYMBOL_SUIT[symbol] for rank in ranks if rank != "-"]
    return cards
