"""The two kinds of game an environment plays, behind one small interface.

The trick-taking games (``HandState``: Dehla Pakad, Mendikot, Court Piece) and the bidding games
(``BiddingHand``: Twenty-eight, Twenty-nine) differ in their tables, action spaces, views,
encodings and match scores; the agent-environment cycle (``aec``) is the same for both. A
``Game`` says, for one of them, how to deal a hand, read and apply an action id, observe a seat,
score a finished hand and tell when the match is over.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Protocol

from arena.engine.action_ids import (
    NUM_ACTIONS,
    NUM_BIDDING_ACTIONS,
    action_id,
    action_of,
    bidding_action_id,
    bidding_action_of,
)
from arena.engine.bidding_hand import BiddingHand
from arena.engine.bidding_observation import observe_bidding
from arena.engine.bidding_outcome import BiddingMatchScore, BiddingResult
from arena.engine.bidding_rules import BiddingRules
from arena.engine.chance import derive_seed
from arena.engine.deal import Deal
from arena.engine.hand import HandState
from arena.engine.match import MatchFormat, MatchScore
from arena.engine.observation import observe
from arena.engine.outcome import HandResult, hand_value
from arena.engine.rules import Rules
from arena.engine.seats import Seat, Team
from sdk.encoding import OBSERVATION_SIZE, MaskArray, action_mask, encode
from sdk.encoding_layout import FloatArray
from sdk.learn.bidding_encoding import BIDDING_OBSERVATION_SIZE, bidding_action_mask, encode_bidding
from sdk.learn.render import bidding_table_text, table_text


class Table(Protocol):
    """What the cycle asks of a hand in progress (``HandState`` and ``BiddingHand`` both are one)."""

    @property
    def to_move(self) -> Seat | None: ...

    @property
    def is_over(self) -> bool: ...

    def legal_actions(self) -> tuple[Any, ...]: ...

    def apply(self, action: Any) -> None: ...


class Game(ABC):
    """One kind of game: its action space, tables, views and scores."""

    num_actions: int
    observation_size: int

    @abstractmethod
    def new_score(self, dealer: Seat) -> Any:
        """The match score before the first hand."""

    @abstractmethod
    def new_table(self, seed: int, score: Any) -> Table:
        """The next hand of a match at ``score`` whose seed is ``seed`` (hand ``n`` of the match:
        ``Deal.from_seed`` of ``derive_seed(seed, "deal", n)``, as ``dehla selfplay`` deals)."""

    @abstractmethod
    def action_of(self, number: int) -> Any:
        """The action of an id (``ValueError`` outside the action space)."""

    @abstractmethod
    def action_id(self, action: Any) -> int:
        """The id of an action."""

    @abstractmethod
    def observed(self, table: Any, seat: Seat, score: Any) -> tuple[FloatArray, MaskArray]:
        """A seat's observation vector and action mask."""

    @abstractmethod
    def result(self, table: Any) -> Any:
        """The finished hand's result (``None`` while it is played)."""

    @abstractmethod
    def scored(self, score: Any, result: Any) -> tuple[Any, float]:
        """The match score with a finished hand counted, and the hand's value to team 0."""

    @abstractmethod
    def match_over(self, score: Any, match_format: MatchFormat | None) -> bool:
        """Whether the episode is over after a hand (one hand when ``match_format`` is ``None``)."""

    @abstractmethod
    def winner(self, score: Any, result: Any, match_format: MatchFormat | None) -> Team | None:
        """The team that won the episode (``None``: level)."""

    @abstractmethod
    def render(self, preset: str, table: Any, score: Any, number: int) -> str:
        """The table as text."""


class TrickGame(Game):
    """Dehla Pakad, Mendikot and Court Piece (``HandState``)."""

    num_actions = NUM_ACTIONS
    observation_size = OBSERVATION_SIZE

    def __init__(self, rules: Rules, match_format: MatchFormat | None) -> None:
        self.rules = rules
        self.match_format = match_format

    def new_score(self, dealer: Seat) -> MatchScore:
        return MatchScore(dealer=dealer)

    def new_table(self, seed: int, score: MatchScore) -> HandState:
        deal = Deal.from_seed(self.rules, derive_seed(seed, "deal", score.hands_played))
        return HandState(self.rules, deal, score.dealer)

    def action_of(self, number: int) -> Any:
        return action_of(number)

    def action_id(self, action: Any) -> int:
        return action_id(action)

    def observed(self, table: HandState, seat: Seat, score: MatchScore) -> tuple[FloatArray, MaskArray]:
        view = observe(table, seat, score)
        return encode(view), action_mask(view)

    def result(self, table: HandState) -> HandResult | None:
        return table.result

    def scored(self, score: MatchScore, result: HandResult) -> tuple[MatchScore, float]:
        return score.after(self.rules, result, self.match_format), hand_value(self.rules, result)

    def match_over(self, score: MatchScore, match_format: MatchFormat | None) -> bool:
        return match_format is None or score.is_over(self.rules, match_format)

    def winner(self, score: MatchScore, result: HandResult, match_format: MatchFormat | None) -> Team | None:
        return result.winner if match_format is None else score.winner(self.rules, match_format)

    def render(self, preset: str, table: HandState, score: MatchScore, number: int) -> str:
        return table_text(preset, table, score, number)


class BiddingGame(Game):
    """Twenty-eight and Twenty-nine (``BiddingHand``): a match ends at the rules' target in game
    points, or after ``hands:N``."""

    num_actions = NUM_BIDDING_ACTIONS
    observation_size = BIDDING_OBSERVATION_SIZE

    def __init__(self, rules: BiddingRules) -> None:
        self.rules = rules

    def new_score(self, dealer: Seat) -> BiddingMatchScore:
        return BiddingMatchScore(dealer=dealer)

    def new_table(self, seed: int, score: BiddingMatchScore) -> BiddingHand:
        deal = Deal.from_seed(self.rules.deal_rules, derive_seed(seed, "deal", score.hands_played))
        return BiddingHand(self.rules, deal, score.dealer)

    def action_of(self, number: int) -> Any:
        return bidding_action_of(number)

    def action_id(self, action: Any) -> int:
        return bidding_action_id(action)

    def observed(self, table: BiddingHand, seat: Seat, score: BiddingMatchScore) -> tuple[FloatArray, MaskArray]:
        view = observe_bidding(table, seat, score)
        return encode_bidding(view), bidding_action_mask(view)

    def result(self, table: BiddingHand) -> BiddingResult | None:
        return table.result

    def scored(self, score: BiddingMatchScore, result: BiddingResult) -> tuple[BiddingMatchScore, float]:
        value = float(result.game_points if result.bidding_team == 0 else -result.game_points)
        return score.after(self.rules, result), value

    def match_over(self, score: BiddingMatchScore, match_format: MatchFormat | None) -> bool:
        if match_format is None:
            return True
        return score.is_over(self.rules) or score.hands_played >= match_format.count

    def winner(self, score: BiddingMatchScore, result: BiddingResult, match_format: MatchFormat | None) -> Team | None:
        return result.winner if match_format is None else score.winner()

    def render(self, preset: str, table: BiddingHand, score: BiddingMatchScore, number: int) -> str:
        return bidding_table_text(preset, table, score, number)


def game_for(rules: Rules | BiddingRules, match_format: MatchFormat | None) -> Game:
    """The game that plays ``rules``."""
    if isinstance(rules, BiddingRules):
        return BiddingGame(rules)
    return TrickGame(rules, match_format)
