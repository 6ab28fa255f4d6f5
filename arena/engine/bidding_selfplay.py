"""Random legal self-play of a bidding game (Twenty-eight, Twenty-nine): random bids, trumps and
cards, hands played as one match in game points, and what they came to."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from arena.engine.bidding_hand import BiddingHand
from arena.engine.bidding_outcome import BiddingMatchScore, BiddingResult
from arena.engine.bidding_rules import BiddingRules
from arena.engine.chance import choose_index, derive_seed
from arena.engine.deal import Deal
from arena.engine.selfplay import play_randomly


def selfplay_bidding_hands(rules: BiddingRules, hands: int,
                           seed: int) -> Iterator[tuple[BiddingHand, BiddingMatchScore]]:
    """Play ``hands`` random hands as one match (a void hand is dealt again by the same dealer);
    yields each finished hand with the game points after it."""
    rng = random.Random(derive_seed(seed, "players"))
    score = BiddingMatchScore(dealer=choose_index(4, seed, "first-dealer"))
    for number in range(hands):
        deal = Deal.from_seed(rules.deal_rules, derive_seed(seed, "deal", number))
        state = BiddingHand(rules, deal, score.dealer)
        play_randomly(state, rng)
        assert state.result is not None
        score = score.after(rules, state.result)
        yield state, score


@dataclass
class BiddingSelfPlaySummary:
    """Tallies of a bidding game's self-play run: the winning bids, the contracts each team made
    or lost as the bidding team, the invalid (void) hands and the card points."""

    hands: int = 0
    bids: Counter[int] = field(default_factory=Counter)
    made: list[int] = field(default_factory=lambda: [0, 0])
    failed: list[int] = field(default_factory=lambda: [0, 0])
    invalid: int = 0
    card_points: list[int] = field(default_factory=lambda: [0, 0])
    final: BiddingMatchScore | None = None

    def add(self, result: BiddingResult) -> None:
        self.hands += 1
        self.bids[result.bid] += 1
        self.card_points[0] += result.points[0]
        self.card_points[1] += result.points[1]
        if result.void:
            self.invalid += 1
        elif result.made:
            self.made[result.bidding_team] += 1
        else:
            self.failed[result.bidding_team] += 1

    def to_json(self) -> dict[str, Any]:
        """The summary's figures as ``dehla selfplay --json`` prints them (without the run's
        preset, seed and timing)."""
        final = self.final
        assert final is not None and self.hands > 0
        return {
            "game": "bidding",
            "hands": self.hands,
            "bids": {str(bid): count for bid, count in sorted(self.bids.items())},
            "mean_bid": round(sum(bid * count for bid, count in self.bids.items()) / self.hands, 3),
            "contracts_made": self.made,
            "contracts_failed": self.failed,
            "invalid_hands": self.invalid,
            "mean_card_points": [round(p / self.hands, 3) for p in self.card_points],
            "match_unit": "game points",
            "match_score": list(final.points),
            "match_winner": final.winner(),
        }
