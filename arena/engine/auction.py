"""The auction of Twenty-eight and Twenty-nine: bids and passes, who may say what, when it ends.

An ``Auction`` is an immutable value: the calls so far and the rules, from which the speaker,
the legal calls and the winner follow. The hand (``bidding_hand.py``) keeps one and replaces
it with ``after(call)``; tests and bots can reason about an auction without a hand.

Seed 003: "The player to dealer's right speaks first, and subsequent players, in anticlockwise
order, may either bid higher or pass. The minimum bid allowed is 14 and the maximum is 28 [...]
If any player bids, the auction continues for as many rounds as necessary until three players
pass in succession. The player to dealer's right must bid at least the minimum."

A bid of the maximum ends the auction at once: nobody may bid higher, so the three passes that
would end it are forced.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, TypeAlias

from arena.engine.bidding_rules import AuctionKind, BiddingRules
from arena.engine.errors import IllegalActionError, InvalidActionError
from arena.engine.seats import Seat, next_seats, partner_of


@dataclass(frozen=True, slots=True)
class Bid:
    """Undertake that one's side will take at least ``amount`` points."""

    amount: int

    JSON_AS_TEXT: ClassVar[bool] = True

    def __str__(self) -> str:
        return f"bid {self.amount}"


@dataclass(frozen=True, slots=True)
class Pass:
    """Decline to bid higher."""

    JSON_AS_TEXT: ClassVar[bool] = True

    def __str__(self) -> str:
        return "pass"


Call: TypeAlias = Bid | Pass

PASS = Pass()
MAX_AMOUNT = 64
"""Bid values are small: the singletons ``BID[n]`` cover every amount a rule can allow."""
BID: tuple[Bid, ...] = tuple(Bid(n) for n in range(MAX_AMOUNT + 1))


def parse_call(text: str) -> Call:
    """Parse ``bid 16`` (or a bare ``16``) or ``pass``."""
    if not isinstance(text, str):
        raise InvalidActionError(f"{text!r} is not a call (expected 'bid N' or 'pass')")
    words = text.lower().split()
    if words == ["pass"]:
        return PASS
    number = words[1] if len(words) == 2 and words[0] == "bid" else words[0] if len(words) == 1 else ""
    if number.isdigit() and int(number) <= MAX_AMOUNT:
        return BID[int(number)]
    raise InvalidActionError(f"{text!r} is not a call (expected 'bid N' or 'pass')")


@dataclass(frozen=True, slots=True)
class Auction:
    """The calls of an auction so far, in order, opened by ``opener``."""

    rules: BiddingRules
    opener: Seat
    calls: tuple[tuple[Seat, Call], ...] = ()

    @property
    def high(self) -> tuple[Seat, int] | None:
        """The highest bid so far and its bidder (``None`` before the opening bid)."""
        best: tuple[Seat, int] | None = None
        for seat, call in self.calls:
            if isinstance(call, Bid):
                best = (seat, call.amount)
        return best

    @property
    def is_over(self) -> bool:
        high = self.high
        if high is None:
            return False
        if high[1] >= self.rules.max_bid:
            return True
        if self.rules.auction is AuctionKind.SINGLE_ROUND:
            return len(self.calls) >= 4
        last = self.calls[-3:]
        return len(last) == 3 and all(call is PASS for _, call in last)

    @property
    def to_speak(self) -> Seat | None:
        """The seat whose call it is (``None`` once the auction is over)."""
        if self.is_over:
            return None
        if not self.calls:
            return self.opener
        return next_seats(self.rules.direction)[self.calls[-1][0]]

    def least_bid(self) -> int:
        """The smallest bid the speaker may make now (above ``max_bid`` when none is left)."""
        high = self.high
        if high is None:
            return self.rules.min_bid
        least = high[1] + 1
        speaker = self.to_speak
        overbid = self.rules.overbid_partner_min
        if overbid and speaker is not None and high[0] == partner_of(speaker) and self.calls[-1][1] is PASS:
            least = max(least, overbid)  # the partner's bid, the left-hand opponent passed
        return least

    def legal_calls(self) -> tuple[Call, ...]:
        """Every call the speaker may make: bids from the least allowed to the maximum, and a
        pass unless it opens (the opener must bid at least the minimum)."""
        if self.is_over:
            return ()
        bids = BID[self.least_bid():self.rules.max_bid + 1]
        return bids if self.high is None else (*bids, PASS)

    def after(self, call: Call) -> Auction:
        """The auction with the speaker's ``call`` added; an illegal call is explained."""
        speaker = self.to_speak
        if speaker is None:
            raise IllegalActionError(f"cannot {call}: the auction is over")
        if call not in self.legal_calls():
            raise IllegalActionError(self._why_not(speaker, call))
        return Auction(self.rules, self.opener, (*self.calls, (speaker, call)))

    def _why_not(self, speaker: Seat, call: Call) -> str:
        if isinstance(call, Pass):
            return f"seat {speaker} opens the auction and must bid at least {self.rules.min_bid}"
        if not isinstance(call, Bid):
            return f"{call!r} is not a call (expected a bid or a pass)"
        if call.amount > self.rules.max_bid:
            return f"cannot bid {call.amount}: the maximum is {self.rules.max_bid}"
        least = self.least_bid()
        high = self.high
        if high is not None and least > high[1] + 1:
            return (
                f"cannot bid {call.amount}: overbidding your partner after your left-hand opponent "
                f"passed needs at least {least}"
            )
        return f"cannot bid {call.amount}: the least bid now is {least}"
