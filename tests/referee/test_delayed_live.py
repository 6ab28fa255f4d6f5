"""A delayed live board (a person's table's spectators): a real match played in process, the file
read back after every move. What it shows is exactly the newest state at least the delay's moves
old (never one with a move made more recently), nothing before the first such state, no card held
by any seat at the moment it shows nor, while it shows the hand being played, at the moment it is
read (the last tricks of the previous hand, shown while the next is dealt, are that hand's public
cards), a hand's end rather than the next deal (no move separates them), and nothing once the
match is closed. An undelayed board
fails the same lag check."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from arena.contract.faults import FaultPolicy
from arena.contract.time_control import TimeControl
from arena.engine.bidding_hand import BiddingHand
from arena.engine.hand import HandState
from arena.engine.match import MatchFormat
from arena.engine.rules import rules_for
from arena.referee.delayed_live import SPECTATOR_DELAY_MOVES, DelayedBoard
from arena.referee.in_process import InProcessSeat
from arena.referee.live_view import LiveBoard, LiveState
from arena.referee.table import Table
from arena.referee.table_values import TableConfig
from sample_bots.heuristic.bot import HeuristicBot
from sample_bots.random.bot import RandomBot
from tests.live_helpers import Written, leaks, secret_cards


class Watching:
    """A ``LiveSink`` in front of the board under test: counts the moves made at the table (every
    hand's), and after each one reads what a spectator would find in the file."""

    def __init__(self, sink: LiveBoard | DelayedBoard, path: Path, clock: MoveClock | None = None) -> None:
        self.sink = sink
        self.path = path
        self.clock = clock
        self.made = 0
        self.last: tuple[int, int] = (0, 0)
        self.made_at: dict[tuple[int, int], int] = {}
        """Moves made in the match when the hand ``hand`` had had ``moves`` moves."""
        self.secret_at: dict[tuple[int, int], list[str]] = {}
        """The cards held (or face down) at that moment."""
        self.seen: list[tuple[int, Written | None]] = []
        """(moves made in the match, the file as a spectator found it then)."""

    def moved(self, room: int | None, hand: int, state: HandState | BiddingHand, points: tuple[float, float],
              moves: int) -> None:
        assert isinstance(state, HandState)
        self.made += moves - self.last[1] if hand == self.last[0] else moves
        self.last = (hand, moves)
        self.made_at[(hand, moves)] = self.made
        if self.clock is not None:
            self.clock.now = self.made * self.clock.step
        now = secret_cards(state)
        self.secret_at[(hand, moves)] = now
        self.sink.moved(room, hand, state, points, moves)
        if not self.path.exists():
            self.seen.append((self.made, None))
            return
        text = self.path.read_text()
        shown = LiveState.model_validate_json(text).tables[0]
        secret = set(self.secret_at[(shown.hand, shown.moves)]) | (set(now) if shown.hand == hand else set())
        self.seen.append((self.made, Written(text=text, secret=sorted(secret))))


class MoveClock:
    """The board's clock in a test: ``step`` seconds a move (the ``Watching`` sink sets it)."""

    def __init__(self, step: float) -> None:
        self.step = step
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def play(tmp_path: Path, preset: str, seed: int, delay: int | None, interval: float = 0.0,
         clock: MoveClock | None = None) -> tuple[Watching, LiveBoard]:
    """``interval``: the board's ``min_interval`` (0: every move written), on ``clock``'s time."""
    config = TableConfig(match_id="spectated", rules=rules_for(preset), preset=preset,
                         match_format=MatchFormat.parse("hands:2"), seed=seed, time_control=TimeControl(),
                         policy=FaultPolicy.FORFEIT)
    bots = [RandomBot(), HeuristicBot(), RandomBot(), HeuristicBot()]
    board = LiveBoard(tmp_path / "spectated.live.json", config.match_id, [b.name for b in bots],
                      min_interval=interval, clock=clock or MoveClock(1.0))
    watching = Watching(board if delay is None else DelayedBoard(board, delay), board.path, clock)
    asyncio.run(Table(config, [InProcessSeat(b) for b in bots], live=watching).run())
    return watching, board


def lag_problems(watching: Watching, delay: int, held: int = 0) -> list[str]:
    """Every moment a spectator saw a state other than the newest one ``delay`` moves old (with
    ``held``: other than the newest one ``delay`` moves old as of one of the last ``held`` moves,
    the board's writes being throttled; never a newer one)."""
    problems = []
    for made, written in watching.seen:
        ripe = [at for at in watching.made_at.values() if at <= made - delay - held]
        if written is None:
            if ripe:
                problems.append(f"at move {made}: nothing shown, though move {max(ripe)}'s state is old enough")
            continue
        table = LiveState.model_validate_json(written.text).tables[0]
        shown = watching.made_at[(table.hand, table.moves)]
        newest = max(at for at in watching.made_at.values() if at <= made - delay) if ripe or held else None
        oldest = max(ripe) if ripe else None
        late_enough = newest is not None and shown <= newest and (oldest is None or oldest <= shown)
        if shown != newest and not (held and late_enough):
            problems.append(f"at move {made}: shown hand {table.hand} move {table.moves} "
                            f"(match move {shown}), due match move {newest}")
    return problems


@pytest.mark.parametrize(("preset", "seed", "delay"), [
    ("dehla-pakad", 1, SPECTATOR_DELAY_MOVES), ("dehla-pakad-hidden", 2, SPECTATOR_DELAY_MOVES),
    ("mendikot-closed", 4, SPECTATOR_DELAY_MOVES), ("court-piece", 3, 13), ("dehla-pakad", 5, 1)])
def test_spectators_see_the_table_delay_moves_late(tmp_path: Path, preset: str, seed: int, delay: int) -> None:
    watching, board = play(tmp_path, preset, seed, delay)
    assert watching.made > 80  # two whole hands
    assert lag_problems(watching, delay) == []
    written = [w for _, w in watching.seen if w is not None]
    assert len(written) == len(watching.seen) - delay
    assert leaks(written) == []
    shown = [LiveState.model_validate_json(w.text).tables[0] for w in written]
    assert any(t.hand == 0 and t.to_move is None and len(t.tricks) == 13 for t in shown), "a hand's end is seen"
    last = shown[-1]
    assert (last.hand, last.moves) != watching.last, "the final state is not shown live"
    board_path = board.path
    watching.sink.close()
    assert not board_path.exists() and not any(tmp_path.iterdir())


def test_the_lag_check_catches_an_undelayed_board(tmp_path: Path) -> None:
    watching, _ = play(tmp_path, "dehla-pakad", 1, None)
    assert len(lag_problems(watching, SPECTATOR_DELAY_MOVES)) == len(watching.seen)


@pytest.mark.parametrize(("step", "held"), [(0.1, 3), (0.05, 5)])
def test_a_throttled_board_stays_the_delay_late_and_never_further_than_its_interval(
        tmp_path: Path, step: float, held: int) -> None:
    """Writes at most every 0.25 s, a move every ``step`` s: a spectator sees a state at least 4
    moves old, and never older than the one due ``held`` moves (0.25 s) ago; once the table waits
    (``flush``, which the board's timer calls), exactly the one due now."""
    watching, board = play(tmp_path, "dehla-pakad", 1, SPECTATOR_DELAY_MOVES, interval=0.25, clock=MoveClock(step))
    assert lag_problems(watching, SPECTATOR_DELAY_MOVES, held) == []
    assert lag_problems(watching, SPECTATOR_DELAY_MOVES) != [], "some moves' states were held back"
    assert board.writes <= watching.made * step / 0.25 + 2
    board.flush()
    table = LiveState.model_validate_json(board.path.read_text()).tables[0]
    due = max(at for at in watching.made_at.values() if at <= watching.made - SPECTATOR_DELAY_MOVES)
    assert watching.made_at[(table.hand, table.moves)] == due


def test_a_delay_of_no_moves_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="at least 1"):
        DelayedBoard(LiveBoard(tmp_path / "m.live.json", "m", ["a", "b", "c", "d"]), 0)
