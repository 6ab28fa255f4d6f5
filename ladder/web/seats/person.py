"""The person's seat as the referee sees it: an SDK ``Bot`` served over the protocol, whose
decisions wait for the browser.

The referee sends it what it sends every bot (``MatchStart``, each ``DecisionRequest``'s
observation, ``HandEnd``, ``MatchEnd``); the bot keeps the newest of them as a ``SeatMoment``,
which is all the browser is ever shown (``ladder.web.seats.view``). A decision waits until the
browser sends one of the observation's legal actions, or until the seat's own allowance (per
move plus bank) has passed: then the referee has already recorded a timeout, and the answer is
only there to free the call.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from arena.contract.messages import BiddingHandEnd
from arena.engine.actions import Action, PlayCard, RevealTrump, parse_action
from arena.engine.bidding_hand import BiddingAction
from arena.engine.bidding_observation import BiddingObservation
from arena.engine.bidding_outcome import BiddingMatchScore, BiddingResult
from arena.engine.bidding_records import parse_bidding_action
from arena.engine.cards import Card
from arena.engine.errors import ArenaError
from arena.engine.match import MatchScore
from arena.engine.observation import Observation
from arena.engine.outcome import HandResult
from sdk import BiddingView, Bot, BotView, HandEnd, MatchEnd, MatchStart

SeatObservation = Observation | BiddingObservation
"""A trick-taking game's view of the seat, or a bidding game's (Twenty-eight, Twenty-nine)."""
AnyAction = Action | BiddingAction

ANSWER_SLACK = 1.0
"""Seconds past the allowance a decision still waits (the referee's grace is 0.05 s): after this
the referee has timed the seat out, and the call is freed."""


class MoveRefusedError(ValueError):
    """A move from the browser that the seat may not make now: said in one line, nothing played."""


@dataclass(frozen=True, slots=True)
class SeatMoment:
    """What the seat knows now: the newest observation the referee sent it and, while it waits,
    the decision's number and deadline. Nothing else of the table is ever here."""

    seat: int
    observation: SeatObservation | None = None
    turn: int = 0
    """How many decisions the seat has been asked for in this match (the current one included)."""
    waiting: bool = False
    """The referee waits for the person's move (``observation.legal_actions`` are theirs to choose)."""
    deadline: float | None = None
    """``time.monotonic()`` at which the seat's allowance runs out (while ``waiting``)."""
    per_move: float = 0.0
    bank_left: float = 0.0
    hands_done: int = 0
    """Hands finished so far (``HandEnd``s received): the hand in play is hand ``hands_done``."""
    at_hand_end: bool = False
    """The newest observation is a finished hand's last (``HandEnd``), until the next decision."""
    last_result: HandResult | BiddingResult | None = None
    """The last finished hand's result."""
    score: MatchScore | BiddingMatchScore | None = None
    """The match score as the seat was last told it (a decision's observation, or ``HandEnd``'s after the hand)."""
    match_over: bool = False
    winner_team: int | None = None
    termination: str | None = None


class PersonBot(Bot):
    """A bot whose every decision is the person's, sent from the browser (``answer``)."""

    name = "person"

    def __init__(self, seat: int = 0) -> None:
        self._lock = threading.Condition()
        self._moment = SeatMoment(seat)
        self._answer: AnyAction | None = None
        self._stopped = False
        self.changed = threading.Event()
        """Set whenever the moment changes (a test's or a poll's cue; never needed to play)."""
        self.on_asked: Callable[[], None] | None = None
        """Called (on the protocol's thread) when a decision is asked, before the browser is shown
        it: the table then writes its spectators' file, which the table waits on the person to change."""

    # ------------------------------------------------------------ the browser's side
    @property
    def moment(self) -> SeatMoment:
        with self._lock:
            return self._moment

    def answer(self, turn: int, text: str) -> AnyAction:
        """Play ``text`` (``play 10H``, ``call S``, ``reveal``, ``bid 16``, ``pass``, ...) for
        decision ``turn``: refused with ``MoveRefusedError`` if the seat is not waiting, ``turn`` is
        not the current decision (a stale page), the text is no action or the action is not legal now."""
        with self._lock:
            moment = self._moment
        action = _parse(text, bidding=isinstance(moment.observation, BiddingObservation))
        with self._lock:
            moment = self._moment
            if not moment.waiting or moment.observation is None or self._answer is not None:
                raise MoveRefusedError("it is not your turn: wait for the table")
            if turn != moment.turn:
                raise MoveRefusedError(f"that move was for decision {turn}; the table is at decision {moment.turn} "
                                       "(reload to see it)")
            if action not in moment.observation.legal_actions:
                raise MoveRefusedError(f"{action} is not legal now: choose one of "
                                       f"{', '.join(str(a) for a in moment.observation.legal_actions)}")
            self._answer = action
            self._set(replace(moment, waiting=False, deadline=None))  # answered: no second move for it
        return action

    def settle(self, turn: int, timeout: float) -> SeatMoment:
        """The moment once the table has moved on from decision ``turn`` (the next decision, the
        hand's or the match's end), or after ``timeout`` seconds: so the page a move returns shows
        the bots' answers, which take milliseconds, rather than a board that waits for a poll."""
        with self._lock:
            self._lock.wait_for(lambda: self._moment.turn > turn or self._moment.at_hand_end
                                or self._moment.match_over or self._stopped, timeout)
            return self._moment

    def stop(self) -> None:
        """Free a waiting decision (the service is stopping); the referee records it as it finds it."""
        with self._lock:
            self._stopped = True
            self._lock.notify_all()

    # ------------------------------------------------------------ the referee's side
    def _set(self, moment: SeatMoment) -> None:
        """(Under the lock.) The new moment, and a cue to whoever waits for one."""
        self._moment = moment
        self.changed.set()
        self._lock.notify_all()

    def on_match_start(self, start: MatchStart) -> None:
        with self._lock:
            self._set(SeatMoment(start.seat))

    def decide(self, view: BotView) -> Action:
        answer = self._wait_for_person(view.observation, view.per_move, view.bank_left)
        assert isinstance(answer, Action)  # one of this observation's legal actions
        return answer

    def _wait_for_person(self, observation: SeatObservation, per_move: float, bank_left: float) -> AnyAction:
        """Show the decision and wait for the browser's answer (``answer``), at most the seat's
        allowance and the slack; then the referee has timed the seat out, and any legal action frees the call."""
        allowance = per_move + bank_left
        if self.on_asked is not None:
            self.on_asked()
        with self._lock:
            before = self._moment
            self._answer = None
            self._set(replace(before, observation=observation, turn=before.turn + 1, waiting=True,
                              deadline=time.monotonic() + allowance, per_move=per_move,
                              bank_left=bank_left, at_hand_end=False,
                              score=observation.match or before.score))
            give_up = time.monotonic() + allowance + ANSWER_SLACK
            while self._answer is None and not self._stopped:
                left = give_up - time.monotonic()
                if left <= 0:
                    break
                self._lock.wait(left)
            answer = self._answer if self._answer is not None else observation.legal_actions[0]
            self._answer = None
            self._set(replace(self._moment, waiting=False, deadline=None))
        return answer

    def decide_bidding(self, view: BiddingView) -> BiddingAction:
        """A bidding game's decision (a call, the face-down trump, a card or a reveal): the person's too."""
        answer = self._wait_for_person(view.observation, view.per_move, view.bank_left)
        assert isinstance(answer, BiddingAction)  # one of this observation's legal actions
        return answer

    def play(self, view: BotView) -> Card | PlayCard | RevealTrump:
        """Never called: ``decide`` (overridden) takes every decision, the person's."""
        raise TypeError("the person's seat decides in decide(), never in play()")

    def on_hand_end(self, end: HandEnd) -> None:
        """Only the seat's final observation and the result are kept: the four hands ``HandEnd``
        also carries are the replay's to show, once the match is a record."""
        with self._lock:
            self._set(replace(self._moment, observation=end.observation, waiting=False, deadline=None,
                              hands_done=end.hand_index + 1, at_hand_end=True, last_result=end.result,
                              score=end.score))

    def on_bidding_hand_end(self, end: BiddingHandEnd) -> None:
        """As ``on_hand_end``: the seat's final view and the result only, never the four hands."""
        with self._lock:
            self._set(replace(self._moment, observation=end.observation, waiting=False, deadline=None,
                              hands_done=end.hand_index + 1, at_hand_end=True, last_result=end.result,
                              score=end.score))

    def on_match_end(self, end: MatchEnd) -> None:
        with self._lock:
            self._set(replace(self._moment, waiting=False, deadline=None, match_over=True,
                              winner_team=end.winner_team, termination=str(end.termination)))


def _parse(text: str, bidding: bool) -> AnyAction:
    """The browser's move as an action of the game being played (``MoveRefusedError`` if it is none)."""
    try:
        return parse_bidding_action(text) if bidding else parse_action(text)
    except (ArenaError, ValueError) as exc:
        raise MoveRefusedError(f"not a move: {exc}") from None
