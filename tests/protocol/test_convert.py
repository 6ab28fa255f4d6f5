"""The protobuf adapter: engine values survive a round trip; bad bot input names its field."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.contract.messages import DecisionReply
from arena.engine.actions import CALL, DECLINE, DOWN, HIDE, PLAY, REVEAL
from arena.engine.cards import CARDS
from arena.engine.deal import Deal
from arena.engine.hand import HandState
from arena.engine.match import FormatKind, MatchFormat, MatchScore
from arena.engine.observation import observe
from arena.engine.rules import PRESETS, rules_for
from arena.engine.selfplay import play_randomly
from protocol import convert
from protocol.gen.dehla.arena.v1 import arena_pb2 as pb

TRUMP_VARIANTS = {
    "court-piece trump_card=later": rules_for("court-piece", {"trump_card": "later", "trump_card_index": 10}),
    "court-piece decline=second_packet": rules_for("court-piece", {"decline": "second_packet"}),
    "court-piece-double-sir hidden_blind=true": rules_for("court-piece-double-sir", {"hidden_blind": True}),
}
"""Seed 003's trump variants (protocol 1.5)."""
WIRE_RULES = {preset: rules_for(preset) for preset in PRESETS} | TRUMP_VARIANTS


@pytest.mark.parametrize("preset", list(WIRE_RULES))
@settings(max_examples=15, deadline=None, derandomize=True, database=None)
@given(deal_seed=st.integers(0, 10**6), play_seed=st.integers(0, 99), stop=st.integers(0, 60))
def test_observations_round_trip_exactly(preset: str, deal_seed: int, play_seed: int, stop: int) -> None:
    rules = WIRE_RULES[preset]
    state = HandState(rules, Deal.from_seed(rules, deal_seed), deal_seed % 4)
    rng = random.Random(play_seed)
    play_randomly(state, rng, limit=stop)
    score = MatchScore(dealer=1, hands_played=3, kots=(1, 0), runs=(0, 2))
    for seat in range(4):
        view = observe(state, seat, score)
        # Twice: the second pass goes through the adapter's caches.
        for _ in range(2):
            assert convert.observation_from_pb(convert.observation_to_pb(view)) == view


def test_every_action_round_trips() -> None:
    for action in (*PLAY, *DOWN, *CALL, *HIDE, REVEAL, DECLINE):
        assert convert.action_from_pb(convert.action_to_pb(action)) is action


def face_down_state() -> HandState:
    """A court-piece-double-sir hand just after the trump maker discarded face down, not last
    in its trick (seeded random play that discards face down whenever it may)."""
    rules = rules_for("court-piece-double-sir")
    for seed in range(50):
        state = HandState(rules, Deal.from_seed(rules, seed), 0)
        rng = random.Random(seed)
        while not state.is_over:
            downs = [a for a in state.legal_actions() if a in DOWN]
            state.apply(downs[0] if downs else rng.choice(state.legal_actions()))
            if downs and state.current_trick:
                return state
    raise AssertionError("no face-down discard in 50 hands")


def test_a_face_down_play_goes_without_its_card_to_the_other_seats() -> None:
    state = face_down_state()
    maker = state.first_player
    for seat in range(4):
        view = observe(state, seat)
        message = convert.observation_to_pb(view)
        last = message.current_trick[-1]
        assert last.face_down and last.seat == maker
        assert (last.card == 0) == (seat != maker)  # CARD_UNSPECIFIED unless the maker's own
        assert convert.observation_from_pb(message) == view
    assert convert.rules_to_pb(state.rules).maker_discard == pb.MAKER_DISCARD_FACE_DOWN
    assert convert.rules_to_pb(rules_for("mendikot")).maker_discard == pb.MAKER_DISCARD_OPEN
    assert convert.rules_to_pb(rules_for()).maker_discard == pb.MAKER_DISCARD_UNSPECIFIED


def test_a_play_without_a_card_must_be_face_down() -> None:
    state = face_down_state()
    message = convert.observation_to_pb(observe(state, state.first_player ^ 1))
    assert message.current_trick[-1].card == 0
    message.current_trick[-1].face_down = False
    position = len(message.current_trick) - 1
    with pytest.raises(convert.ConversionError, match=rf"observation\.current_trick\[{position}\]: 0 is not a card"):
        convert.observation_from_pb(message)


def test_bad_replies_name_the_field() -> None:
    reply = convert.reply_to_pb(DecisionReply("r1", PLAY[0]))
    reply.action.play_card.card = 0
    with pytest.raises(convert.ConversionError, match=r"action\.play_card\.card: 0 is not a card"):
        convert.reply_from_pb(reply)
    reply.ClearField("action")
    with pytest.raises(convert.ConversionError, match="no action in the reply"):
        convert.reply_from_pb(reply)
    reply = convert.reply_to_pb(DecisionReply("x" * 65, REVEAL))
    with pytest.raises(convert.ConversionError, match="request_id: longer than 64"):
        convert.reply_from_pb(reply)


def test_a_bad_card_deep_in_a_request_names_its_path() -> None:
    rules = rules_for()
    state = HandState(rules, Deal.from_seed(rules, 1), 0)
    state.apply(state.legal_actions()[0])
    message = convert.observation_to_pb(observe(state, 1))
    message.hand[3] = 99
    with pytest.raises(convert.ConversionError, match=r"observation\.hand\[3\]: 99 is not a card"):
        convert.observation_from_pb(message)


def test_action_messages_handed_out_are_the_callers_to_change() -> None:
    """``action_to_pb`` copies from a shared cache; changing its result must not leak into it."""
    play = PLAY[CARDS[0]]
    mine = convert.action_to_pb(play)
    mine.play_card.card = convert.card_to_pb(CARDS[5])
    assert convert.action_from_pb(convert.action_to_pb(play)) == play
    assert convert.action_from_pb(convert.reply_to_pb(DecisionReply("r", play)).action) == play


# ------------------------------------------------------------------ protocol 1.2: on_play
def test_on_play_and_hide_from_travel_as_their_1_2_numbers_both_ways() -> None:
    rules = rules_for("mendikot-closed")
    message = convert.rules_to_pb(rules)
    assert message.reveal == 3 and message.hide_from == 2  # REVEAL_ON_PLAY, HIDE_FROM_FULL_HAND
    assert convert.rules_from_pb(message) == rules
    # Field 14 is on the wire (tag 14 << 3 | varint = 0x70), then HIDE_FROM_FULL_HAND.
    assert b"\x70\x02" in message.SerializeToString(deterministic=True)
    explicit = convert.rules_to_pb(rules_for("mendikot-closed", {"hide_from": "first_packet"}))
    assert explicit.hide_from == 0
    assert convert.rules_from_pb(explicit) == rules_for("mendikot-closed", {"hide_from": "first_packet"})


def test_the_older_presets_send_no_closed_trump_field_and_read_as_the_first_packet() -> None:
    # Additive: no older preset sends field 14 or REVEAL_ON_PLAY (their only 1.2 field is
    # maker_discard, 13, under reveal on_request), and a 1.1 referee's hidden trump (no field 14)
    # reads as the first packet.
    for preset in PRESETS:
        if preset == "mendikot-closed":
            continue
        message = convert.rules_to_pb(rules_for(preset))
        assert not message.hide_from and message.reveal != 3
        assert convert.rules_from_pb(message).hide_from.value == "first_packet"


def test_hide_from_full_hand_outside_a_hidden_trump_is_refused_in_one_line() -> None:
    message = convert.rules_to_pb(rules_for("dehla-pakad"))
    message.hide_from = 2
    with pytest.raises(convert.ConversionError, match=r"option hide_from=full_hand applies only under trump=hidden"):
        convert.rules_from_pb(message)
    message.hide_from = 7
    with pytest.raises(convert.ConversionError, match=r"rules\.hide_from: 7 is not a known value"):
        convert.rules_from_pb(message)


def test_an_on_play_reveal_round_trips_with_its_reason() -> None:
    rules = rules_for("mendikot-closed")
    state = HandState(rules, Deal.from_seed(rules, 17), 0)
    rng = random.Random(1)
    while state.reveal is None:
        play_randomly(state, rng, limit=1)
    for seat in range(4):
        view = observe(state, seat)
        assert view.reveal is not None and view.reveal.reason.value in ("played", "last_card")
        assert convert.observation_from_pb(convert.observation_to_pb(view)) == view


@pytest.mark.parametrize(("field", "value", "problem"), [
    ("per_move_ms", 0, r"time_control: time control per_move: must be above 0 \(got 0\.0\)"),
    ("start_up_ms", 0, r"time control startup: must be above 0"),
    ("time_bank_ms", -5, r"time control bank: must be 0 or more \(got -0\.005\)"),
])
def test_a_time_control_out_of_range_is_refused_in_one_line(field: str, value: int, problem: str) -> None:
    message = pb.TimeControl(per_move_ms=1000, time_bank_ms=0, grace_ms=50, start_up_ms=10000)
    setattr(message, field, value)
    with pytest.raises(convert.ConversionError, match=problem):
        convert.time_control_from_pb(message)


def test_rules_from_the_wire_are_the_presets_own() -> None:
    """Built directly from typed values (no pydantic on the bot's side), they equal what
    validation builds from the preset's plain values."""
    for preset in PRESETS:
        rules = rules_for(preset)
        assert convert.rules_from_pb(convert.rules_to_pb(rules)) == rules


def test_a_tens_match_travels_as_its_1_4_numbers_and_the_older_formats_as_before() -> None:
    # Protocol 1.4 (issue 29): MATCH_FORMAT_KIND_TENS = 4 and MatchScore.tens = 7.
    fmt = convert.match_format_to_pb(MatchFormat(FormatKind.TENS, 12))
    assert fmt.kind == 4 and fmt.count == 12
    assert convert.match_format_from_pb(fmt) == MatchFormat(FormatKind.TENS, 12)
    score = MatchScore(dealer=1, hands_played=3, hands_won=(2, 1), tens=(7, 5))
    message = convert.score_to_pb(score)
    assert list(message.tens) == [7, 5]
    assert b"\x3a\x02\x07\x05" in message.SerializeToString(deterministic=True)  # field 7, packed
    assert convert.score_from_pb(message) == score
    # Without tens (every other format) field 7 is absent: the 1.3 bytes, read back as 0, 0.
    plain = MatchScore(dealer=1, hands_played=3, hands_won=(2, 1))
    old = pb.MatchScore(dealer=1, hands_played=3, kots=[0, 0], points=[0, 0], hands_won=[2, 1], runs=[0, 0])
    wire = convert.score_to_pb(plain).SerializeToString(deterministic=True)
    assert wire == old.SerializeToString(deterministic=True)
    assert convert.score_from_pb(old) == plain
    with pytest.raises(convert.ConversionError, match=r"match\.tens: expected 2 entries"):
        convert.score_from_pb(pb.MatchScore(kots=[0, 0], points=[0, 0], hands_won=[0, 0], runs=[0, 0], tens=[1]))


def test_the_trump_variants_travel_as_their_1_5_numbers_and_the_older_rules_as_before() -> None:
    # Protocol 1.5: Rules.hidden_blind = 15, trump_card = 16, trump_card_index = 17, decline = 18.
    later = convert.rules_to_pb(TRUMP_VARIANTS["court-piece trump_card=later"])
    assert (later.trump_card, later.trump_card_index) == (2, 10)  # TRUMP_CARD_LATER
    assert b"\x80\x01\x02\x88\x01\x0a" in later.SerializeToString(deterministic=True)  # fields 16, 17
    declined = convert.rules_to_pb(TRUMP_VARIANTS["court-piece decline=second_packet"])
    assert declined.decline == 2  # DECLINE_SECOND_PACKET
    blind = convert.rules_to_pb(TRUMP_VARIANTS["court-piece-double-sir hidden_blind=true"])
    assert blind.hidden_blind and b"\x78\x01" in blind.SerializeToString(deterministic=True)  # field 15
    for rules in TRUMP_VARIANTS.values():
        assert convert.rules_from_pb(convert.rules_to_pb(rules)) == rules
    # Every older preset's rules are the 1.4 bytes: none of fields 15-18 is sent.
    for preset in PRESETS:
        message = convert.rules_to_pb(rules_for(preset))
        assert not (message.hidden_blind or message.trump_card or message.trump_card_index or message.decline)
    assert convert.action_to_pb(DECLINE).WhichOneof("kind") == "decline_trump"


def test_a_trump_variant_out_of_place_on_the_wire_is_refused_in_one_line() -> None:
    message = convert.rules_to_pb(rules_for("court-piece"))
    message.trump_card_index = 9
    with pytest.raises(convert.ConversionError, match=r"trump_card_index=9 applies only under trump_card=later"):
        convert.rules_from_pb(message)
    message = convert.rules_to_pb(rules_for("court-piece"))
    message.decline = 5
    with pytest.raises(convert.ConversionError, match=r"rules\.decline: 5 is not a known value"):
        convert.rules_from_pb(message)
    message = convert.rules_to_pb(rules_for("court-piece"))
    message.hidden_blind = True
    with pytest.raises(convert.ConversionError, match=r"hidden_blind=true applies only under trump=hidden"):
        convert.rules_from_pb(message)


def test_the_minor_version_needed_names_the_options() -> None:
    assert all(convert.minor_needed(rules_for(preset)) is None for preset in PRESETS)
    assert convert.minor_needed(TRUMP_VARIANTS["court-piece decline=second_packet"]) == (5, "decline=second_packet")
    assert convert.minor_needed(TRUMP_VARIANTS["court-piece-double-sir hidden_blind=true"]) == (5, "hidden_blind=true")
    assert convert.minor_needed(TRUMP_VARIANTS["court-piece trump_card=later"]) == (
        5, "trump_card=later, trump_card_index=10"
    )
