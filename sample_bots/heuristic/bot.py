"""The heuristic sample bot: plays as the rule texts advise, with a little arithmetic.

Every candidate card gets an expected value in "tens" (Dehla Pakad, Mendikot) or "tricks"
(Court Piece): who is likely to end up winning the trick if the card is played (the tracker's
voids and unseen cards give rough odds for the players still to play), what that winner then
gains (the pile if they hold the streak or it is the last trick; otherwise an edge on the pile
for becoming the streak holder), minus the value of the card as a resource (a master trump kept
for the decisive second trick or the last one). The texts' advice falls out of it:

- break an opponent's streak: if they win this trick they sweep, so winning it is worth a lot;
- help a partner who has just won: their win sweeps, mine would only start a new streak;
- play tens late: a ten thrown into a trick the opponents may take counts against us;
- plan double tricks: a winner is worth more when another sure winner can follow it;
- lead an ace before its ten; discard low cards of long suits.

Trumps: call (or hide) the longest, strongest suit of the first five; hide its top card, which,
if never shown, is its owner's last card and takes the last trick. With on-request reveals, ask
(or show) when the expected value with trumps in force beats the best plain card, averaged over
the suits the face-down card may be; under Court Piece Double Sir, where no claim counts before
the reveal, the owner's side never shows it and the other side asks at once. Where the rules let
the caller decline (seed 003), it does when no suit has three of its first five cards. A blind
face-down trump (``hidden_blind``) is as unknown to its holder as to the others.

Deterministic: the same observation always gets the same answer.
"""

from __future__ import annotations

from dataclasses import dataclass

from arena.engine import NO_SUIT, TRUMP_BONUS, claims_pile, play_key
from arena.engine.actions import DECLINE, REVEAL, DeclineTrump, PlayCard, RevealTrump
from arena.engine.cards import SUIT_MASKS, TENS, Card, CardMask, Rank, Suit, cards_of
from arena.engine.rules import Capture, HandResultRule, Reveal, Rules, SweepLimits, TrumpMethod, TwoTwo
from arena.engine.seats import Seat
from sample_bots.heuristic import bidding
from sample_bots.heuristic.weights import DEFAULT_WEIGHTS, Weights
from sdk.bot import BiddingView, Bot, BotView
from sdk.tracker import CardTracker

NO_TRUMP = NO_SUIT
DECLINE_BELOW = 3
"""Seed 003's decline: a caller whose best suit has fewer first-five cards lets a later card
set trumps (where the rules allow it)."""

_HCP = {Rank.ACE: 4.0, Rank.KING: 3.0, Rank.QUEEN: 2.0, Rank.JACK: 1.0, Rank.TEN: 1.0}
"""High-card points for the cut-trump discard (the ten counts: it is the prize)."""


@dataclass(frozen=True, slots=True)
class Values:
    """What a card and a trick are worth under the rules in force, in one unit."""

    ten: float
    trick: float
    keep_master_trump: float
    """Cost of spending the highest trump still in play: it is the sure winner of a later trick."""
    streak_edge: float
    """Share of a pile's value a player gains (or an opponent loses) by holding the streak."""

    @classmethod
    def for_rules(cls, rules: Rules) -> Values:
        sweep = rules.capture is Capture.SWEEP
        if rules.hand_result is HandResultRule.SEVEN_TRICKS:
            return cls(ten=0.0, trick=1.0, keep_master_trump=0.35, streak_edge=0.35 if sweep else 0.0)
        if rules.hand_result is HandResultRule.MENDIKOT:
            return cls(ten=1.0, trick=0.2, keep_master_trump=0.25, streak_edge=0.35 if sweep else 0.0)
        by_tricks = rules.two_two in (TwoTwo.TRICKS_CAPTURED, TwoTwo.TRICKS_WON_AT_TABLE)
        return cls(ten=1.0, trick=0.1 if by_tricks else 0.04, keep_master_trump=0.3,
                   streak_edge=0.35 if sweep else 0.0)

    def scaled(self, weights: Weights) -> Values:
        """These values with ``weights``' multipliers (the defaults leave them as they are)."""
        return Values(ten=self.ten, trick=self.trick * weights.trick_scale,
                      keep_master_trump=self.keep_master_trump * weights.keep_master_scale,
                      streak_edge=self.streak_edge * weights.streak_edge_scale)


class HeuristicBot(Bot):
    """Rule-of-thumb play for every preset; see the module docstring."""

    name = "heuristic"
    version = "1"

    def __init__(self, weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.weights = weights

    def call_trump(self, view: BotView) -> Suit | DeclineTrump:
        suit = best_trump_suit(view.hand, self.weights)
        if view.may_decline and sum(c.suit == suit for c in view.hand) < DECLINE_BELOW:
            # Seed 003: no suit of length on five cards; a later card sets trumps instead.
            return DECLINE
        return suit

    def hide_trump(self, view: BotView) -> Card:
        suit = best_trump_suit(view.hand, self.weights)
        in_suit = sorted((c for c in view.hand if c.suit == suit), key=lambda c: c.rank)
        # Hide the highest: a card never shown is its owner's last card, and then, as the top
        # trump, it surely takes the last trick (and with it the whole pile under sweep rules).
        return in_suit[-1]

    def bid(self, view: BiddingView) -> int | None:
        """Twenty-eight: bid the least while the four cards' points and honours are worth it."""
        return bidding.choose_bid(view)

    def set_trump(self, view: BiddingView) -> Card:
        return bidding.choose_hidden(view)

    def play_bidding(self, view: BiddingView) -> Card | RevealTrump:
        card = bidding.choose_play(view)
        return REVEAL if card is None else card

    def play(self, view: BotView) -> Card | PlayCard | RevealTrump:
        legal = view.legal_cards
        think = Thinking(view, self.weights)
        if view.may_reveal and think.should_reveal():
            return REVEAL
        if len(legal) == 1:
            return view.unseen_if_allowed(legal[0])
        return view.unseen_if_allowed(think.best_card(legal))


def best_trump_suit(hand: tuple[Card, ...], weights: Weights = DEFAULT_WEIGHTS) -> Suit:
    """The longest, strongest suit of the first cards (by default a card of length is worth 2.5
    points, an ace 4, a king 3, a queen 2, a jack or a ten 1)."""
    points = {Rank.ACE: 4.0, Rank.KING: weights.call_king, Rank.QUEEN: weights.call_queen,
              Rank.JACK: weights.call_jack, Rank.TEN: weights.call_ten}

    def score(suit: Suit) -> tuple[float, int]:
        cards = [c for c in hand if c.suit == suit]
        return weights.call_length * len(cards) + sum(points.get(c.rank, 0.0) for c in cards), -int(suit)
    return max(Suit, key=score)


class Thinking:
    """One decision's worth of reasoning over a ``CardTracker``."""

    def __init__(self, view: BotView, weights: Weights = DEFAULT_WEIGHTS) -> None:
        obs = view.observation
        self.obs = obs
        self.rules = obs.rules
        self.w = weights
        self.t = CardTracker.from_view(obs)
        self.me: Seat = obs.seat
        self.values = Values.for_rules(obs.rules).scaled(weights)
        self.sweep = obs.rules.capture is Capture.SWEEP
        t = self.t
        self.room = [t.hand_sizes[s] - t.known[s].bit_count() for s in range(4)]
        self.spare = sum(t.cards_to_come) + (
            1 if t.hidden_holder is not None and t.own_hidden is None else 0  # a blind one: its holder's too
        )
        self.active = int(t.trump_in_force) if t.trump_in_force is not None else NO_TRUMP
        self._lead_odds: dict[tuple[int, int], float] = {}
        self._p_card = self._card_odds()
        self.claim_next = self._claim_next()

    # ------------------------------------------------------------ card odds
    def p_card(self, seat: Seat, suit: int) -> float:
        """Rough chance that ``seat`` holds a given unknown card of ``suit`` in hand now."""
        return self._p_card[seat][suit]

    def _card_odds(self) -> list[list[float]]:
        t = self.t
        odds = [[0.0] * 4 for _ in range(4)]
        for suit in range(4):
            places = self.spare + sum(
                self.room[s] for s in range(4) if s != self.me and not t.void(s, suit)
            )
            for seat in range(4):
                if seat != self.me and places and not t.void(seat, suit):
                    odds[seat][suit] = self.room[seat] / places
        return odds

    def p_any(self, seat: Seat, mask: CardMask) -> float:
        """Rough chance that ``seat`` holds at least one card of ``mask``."""
        t = self.t
        if seat == self.me:
            return 1.0 if t.hand & mask else 0.0
        if t.known[seat] & mask:
            return 1.0
        unknown = t.unknown & mask
        if not unknown:
            return 0.0
        miss = 1.0
        odds = self._p_card[seat]
        for suit in range(4):
            n = (unknown & SUIT_MASKS[suit]).bit_count()
            if n:
                miss *= (1.0 - odds[suit]) ** n
        return 1.0 - miss

    def p_void(self, seat: Seat, suit: int) -> float:
        t = self.t
        if t.known[seat] & SUIT_MASKS[suit]:
            return 0.0
        if t.void(seat, suit):
            return 1.0
        return 1.0 - self.p_any(seat, t.unknown & SUIT_MASKS[suit])

    def p_ruff(self, seat: Seat, led: int, trump: int) -> float:
        """Chance that ``seat``, out of ``led``, can play a trump that counts."""
        t = self.t
        if trump == NO_TRUMP:
            if t.trump_may_be_set_now:
                return 1.0  # the first card off the led suit sets trumps and wins
            if t.hidden_holder is not None and t.trump is None:
                return 1.0 if seat == t.hidden_holder else self.w.hidden_ruff  # a reveal may follow
            return 0.0
        if trump == led:
            return 0.0
        if seat == t.hidden_holder:
            return 1.0  # the face-down card comes back to its owner's hand on a reveal
        return self.p_any(seat, t.out & SUIT_MASKS[trump])

    def p_beats(self, seat: Seat, card: int, key: int, led: int, trump: int) -> float:
        """Chance that ``seat`` can beat ``card`` (with trick key ``key``) in a trick led ``led``."""
        higher = self.t.higher_out(card)
        if key >= TRUMP_BONUS:
            over = self.p_any(seat, higher) if higher else 0.0
            if card // 13 == led:
                return over
            return self.p_void(seat, led) * over
        over = self.p_any(seat, higher) if higher else 0.0
        return min(1.0, over + self.p_void(seat, led) * self.p_ruff(seat, led, trump))

    def beat_odds(self, seat: Seat, card: int, key: int, led: int, trump: int) -> float:
        """``p_beats`` as this seat judges it: scaled by who ``seat`` is (``Weights``' beat
        scales; the hand-set ones leave it as it is)."""
        scale = self.w.partner_beat_scale if (seat ^ self.me) & 1 == 0 else self.w.opponent_beat_scale
        odds = scale * self.p_beats(seat, card, key, led, trump)
        return odds if odds < 1.0 else 1.0

    # ------------------------------------------------------------ trick outcomes
    def key_of(self, card: int, trump: int) -> int:
        """The key ``card`` gets if played now with ``trump`` in force (``arena.engine.trick``)."""
        led = self.t.led
        return play_key(card, NO_SUIT if led is None else int(led), trump, self.t.trump_may_be_set_now)

    def winners(self, card: int, trump: int) -> dict[Seat, float]:
        """Who ends up winning the trick, with what chance, if this seat plays ``card``."""
        t = self.t
        key = self.key_of(card, trump)
        led = t.led if t.led is not None else card // 13
        if key > t.best_key:
            holder, top, top_key = self.me, card, key
        else:
            assert t.winning is not None
            holder, top = t.winning
            top_key = t.best_key
        out: dict[Seat, float] = {}
        self._spread(list(t.to_play), holder, top, top_key, led, trump, 1.0, 1.0, out)
        return out

    def _spread(self, later: list[Seat], holder: Seat, top: int, key: int, led: int, trump: int,
                strength: float, weight: float, out: dict[Seat, float]) -> None:
        if not later:
            out[holder] = out.get(holder, 0.0) + weight
            return
        seat, rest = later[0], later[1:]
        if (seat ^ holder) & 1 == 0:  # the holder's partner does not overtake
            self._spread(rest, holder, top, key, led, trump, strength, weight, out)
            return
        beat = strength * self.beat_odds(seat, top, key, led, trump)
        if beat > 0:
            self._spread(rest, seat, top, key, led, trump, strength * self.w.overtake_strength, weight * beat, out)
        self._spread(rest, holder, top, key, led, trump, strength, weight * (1 - beat), out)

    def trick_value(self, card: int, winner: Seat, follow_up: bool) -> float:
        """The value for this seat's team of ``winner`` taking the trick with ``card`` in it."""
        t, v = self.t, self.values
        side = 1.0 if (winner ^ self.me) & 1 == 0 else -1.0
        trick = t.trick_cards | (1 << card)
        if not self.sweep:
            return side * (v.ten * (trick & TENS).bit_count() + v.trick)
        total = v.ten * ((trick | t.pile) & TENS).bit_count() + v.trick * (t.pile_tricks + 1)
        if t.last_trick or (winner == t.streak_holder and t.sweep_on_win):
            return side * total
        edge = v.streak_edge if self.claim_next else self.w.edge_no_claim
        if winner == self.me:
            edge += self.w.follow_up_edge if follow_up else 0.0
        elif side < 0:
            edge += self.w.opponent_edge
        return side * edge * total

    def _claim_next(self) -> bool:
        """Could the winner of this trick take the pile by winning the next one too? (Under a
        hidden trump, only once it is turned up; under first discard, once trumps are set: a
        claim needs a win with trumps set.)"""
        t = self.t
        return claims_pile(self.rules, t.trick_number + 1, t.hidden_holder is None and t.trump is not None)

    def card_cost(self, card: int, trump: int) -> float:
        """What playing ``card`` spends: high cards and trumps are worth keeping."""
        t, w = self.t, self.w
        suit, rank = card // 13, card % 13
        cost = w.rank_cost * rank / 12
        known_trump = trump if trump != NO_TRUMP else (int(t.trump) if t.trump is not None else NO_TRUMP)
        if suit == known_trump:
            cost += w.trump_cost + w.trump_rank_cost * rank / 12
            cost += w.trump_short_cost * max(0, 4 - (t.hand & SUIT_MASKS[suit]).bit_count())
            if t.is_master(card) and not t.last_trick:
                cost += self.keep_master(t)
        elif t.is_master(card) and rank >= Rank.JACK:
            cost += w.master_cost
        if t.led is not None and suit not in (t.led, known_trump):
            # Discard from long suits; keep the short ones (they guard tens and make voids later).
            length = (t.hand & SUIT_MASKS[suit]).bit_count()
            cost += w.short_suit_cost * max(0, 3 - length)
        if t.trump_may_be_set_now and t.led is not None and suit != t.led:
            cost -= w.cut_length * (t.hand & SUIT_MASKS[suit]).bit_count() + w.cut_points * _suit_hcp(t.hand, suit)
        return cost

    def keep_master(self, t: CardTracker) -> float:
        """Cost of spending the master trump: the last trick (or a decisive second) needs it."""
        v = self.values
        keep = v.keep_master_trump * (self.w.last_tricks_keep if t.trick_number >= t.tricks_per_hand - 1 else 1.0)
        if self.sweep:
            pile = v.ten * (t.pile & TENS).bit_count() + v.trick * t.pile_tricks
            keep += self.w.pile_keep * pile
        return keep

    def lead_odds(self, card: int, trump: int) -> float:
        """Chance that ``card``, led, is not beaten by an opponent (for planning a second trick)."""
        cached = self._lead_odds.get((card, trump))
        if cached is not None:
            return cached
        key = play_key(card, NO_SUIT, trump)
        keep = 1.0
        for opp in (self.me ^ 1, self.me ^ 3):
            keep *= 1.0 - self.beat_odds(opp, card, key, card // 13, trump)
        self._lead_odds[(card, trump)] = keep
        return keep

    def follow_up(self, card: int, trump: int) -> bool:
        """After ``card``, does this seat still hold a likely winner to lead next?"""
        rest = self.t.hand & ~(1 << card)
        return any(self.lead_odds(c, trump) >= self.w.sure_lead for c in cards_of(rest))

    def value(self, card: int, trump: int) -> float:
        """Expected value of playing ``card`` now with ``trump`` in force."""
        t = self.t
        chances = self.winners(card, trump)
        follow = self.follow_up(card, trump) if self.sweep and chances.get(self.me, 0.0) > 0 else False
        total = sum(p * self.trick_value(card, w, follow and w == self.me) for w, p in chances.items())
        total -= self.card_cost(card, trump)
        if t.led is None:
            total += self.lead_bonus(card, trump)
        return total

    def lead_bonus(self, card: int, trump: int) -> float:
        """Leading advice: an ace (or master) before its ten; no bare ten; no trumps for nothing."""
        t = self.t
        suit, rank = card // 13, card % 13
        ten_bit = 1 << (suit * 13 + Rank.TEN)
        bonus = 0.0
        if rank > Rank.TEN and t.hand & ten_bit and t.is_master(card):
            bonus += self.w.ace_before_ten * self.values.ten
        if rank == Rank.TEN and not t.is_master(card):
            bonus -= self.w.bare_ten * self.values.ten
        if suit != trump and t.is_master(card):
            bonus += self.w.lead_master * self._stakes_unit()
        length = (t.hand & SUIT_MASKS[suit]).bit_count()
        per_card = self.w.lead_trumps if suit == trump else self.w.lead_length
        return bonus + per_card * (length - 3) * self._stakes_unit()

    # ------------------------------------------------------------ decisions
    def best_card(self, legal: tuple[Card, ...]) -> Card:
        scored = [(self.value(c, self.active), -int(c)) for c in legal]
        best = max(range(len(legal)), key=lambda i: scored[i])
        return legal[best]

    def should_reveal(self) -> bool:
        """On-request hidden trump: ask for (or show) the trump when a trump is worth it."""
        t = self.t
        obs = self.obs
        if obs.rules.trump is not TrumpMethod.HIDDEN or obs.rules.reveal is not Reveal.ON_REQUEST:
            return False
        if obs.rules.sweep_limits is SweepLimits.COURT_PIECE and t.hidden_holder is not None:
            # Double Sir: no claim counts until the trump is shown, and a card never shown is its
            # owner's last card, a trump that takes the last trick and with it the whole pile.
            # So the owner's side keeps it down and the other side asks as soon as it may.
            return (t.hidden_holder ^ self.me) & 1 == 1
        plain = max(self.value(c, self.active) for c in cards_of(self._legal_mask()))
        if t.trump is not None:
            # This seat set the trump: it knows the suit, and the card comes back to its hand.
            trump = int(t.trump)
            own = t.hand & SUIT_MASKS[trump]
            if t.own_hidden is not None:
                own |= 1 << t.own_hidden
            revealed = max(self.value(c, trump) for c in cards_of(own))
            return revealed - self.w.show_cost * self._stakes_unit() > plain
        # Asking: the suit is unknown; weigh each suit by the unseen cards that could be the one.
        led = t.led
        weights = [(t.unknown & SUIT_MASKS[s]).bit_count() for s in range(4)]
        total = sum(weights)
        if not total or led is None:
            return False
        expected = 0.0
        for s in range(4):
            if not weights[s]:
                continue
            options = (t.hand & SUIT_MASKS[s]) or t.hand  # a trump if able, else anything
            expected += weights[s] / total * max(self.value(c, s) for c in cards_of(options))
        return expected - self.w.ask_cost * self._stakes_unit() > plain

    def _legal_mask(self) -> CardMask:
        mask = 0
        for action in self.obs.legal_actions:
            c = getattr(action, "card", None)
            if c is not None:
                mask |= 1 << c
        return mask

    def _stakes_unit(self) -> float:
        v = self.values
        return v.ten if v.ten else v.trick


def _suit_hcp(hand: CardMask, suit: int) -> float:
    return sum(_HCP.get(c.rank, 0.0) for c in cards_of(hand & SUIT_MASKS[suit]))
