"""Cards: text round trip, parsing errors, masks."""

import pytest

from arena.engine.actions import CALL, HIDE, PLAY, REVEAL, parse_action
from arena.engine.cards import CARDS, TENS, Card, Rank, Suit, cards_of, mask_of, parse_cards
from arena.engine.errors import InvalidActionError, InvalidCardError


def test_every_card_round_trips_through_text() -> None:
    for card in CARDS:
        assert Card.parse(str(card)) == card
        assert Card.parse(str(card)) is card


@pytest.mark.parametrize(("text", "rank", "suit"), [
    ("10H", Rank.TEN, Suit.HEARTS), ("th", Rank.TEN, Suit.HEARTS), ("AS", Rank.ACE, Suit.SPADES),
    ("2c", Rank.TWO, Suit.CLUBS), ("Q♦", Rank.QUEEN, Suit.DIAMONDS),
])
def test_parse_accepts_common_spellings(text: str, rank: Rank, suit: Suit) -> None:
    card = Card.parse(text)
    assert (card.rank, card.suit) == (rank, suit)


@pytest.mark.parametrize("text", ["", "1H", "11S", "AX", "H10", "10", "ZZ"])
def test_parse_rejects_non_cards_with_the_text_in_the_message(text: str) -> None:
    with pytest.raises(InvalidCardError, match="is not a card"):
        Card.parse(text)


def test_masks_and_card_lists_agree() -> None:
    cards = parse_cards("AS 10H 2C 10D")
    assert cards_of(mask_of(cards)) == tuple(sorted(cards))
    assert [str(c) for c in cards_of(TENS)] == ["10S", "10H", "10D", "10C"]


def test_actions_round_trip_and_reject_garbage() -> None:
    for action in (PLAY[5], CALL[2], HIDE[40], REVEAL):
        assert parse_action(str(action)) is action
    assert parse_action("10H") is PLAY[Card.parse("10H")]
    for bad in ("", "play", "play XX", "call 10H", "fly AS", "hide"):
        with pytest.raises(InvalidActionError):
            parse_action(bad)
