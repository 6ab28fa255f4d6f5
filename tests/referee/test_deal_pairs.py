"""Deal pairs on one or several tables, in one room or two (in-process bots): the same pairs, the
same record, in deal order, whatever the number of tables and rooms; a stop or a forfeit ends the
match at the same deal."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from arena.contract.faults import FaultPolicy
from arena.contract.status import OutcomeStatus
from arena.engine.cards import Card
from arena.engine.match import MatchFormat
from arena.engine.rules import rules_for
from arena.referee.deal_pairs import play_deal_pairs
from arena.referee.in_process import InProcessSeat, play_in_process
from arena.referee.match_recorder import MatchRecorder
from arena.referee.table_values import MatchOutcome, PlayedPair, TableConfig
from sample_bots.heuristic.bot import HeuristicBot
from sdk import HandEnd
from sdk.bot import Bot, BotView

ACE_OF_SPADES = Card.parse("AS")


class LowestBot(Bot):
    """Its lowest legal card: deterministic, and weaker than the heuristic."""

    name = "lowest"

    def play(self, view: BotView) -> Card:
        return min(view.legal_cards, key=lambda card: (int(card.rank), int(card.suit)))


class RaisesOnAceBot(LowestBot):
    """Raises at its first decision of a hand whose cards include the ace of spades, the two of
    hearts and the three of clubs: a fault at a deal fixed by the cards, not by the table's history."""

    name = "raises-on-ace"

    def play(self, view: BotView) -> Card:
        cards = set(view.observation.hand)
        if {ACE_OF_SPADES, Card.parse("2H"), Card.parse("3C")} <= cards and len(view.hand) == 13:
            raise RuntimeError("bug")
        return super().play(view)


def config(deals: int, seed: int = 3, policy: FaultPolicy = FaultPolicy.FORFEIT) -> TableConfig:
    return TableConfig("pairs", rules_for(), "dehla-pakad", MatchFormat.parse(f"duplicate:{deals}"), seed,
                       policy=policy)


def play(tables: int, deals: int, record: Path, make_b: Callable[[], Bot] = LowestBot,
         on_pair: Callable[[PlayedPair], bool] | None = None, seed: int = 3, rooms: int = 1,
         policy: FaultPolicy = FaultPolicy.FORFEIT) -> MatchOutcome:
    """``tables`` tables in each of ``rooms`` rooms, each with its own four bots."""
    seats = [[[InProcessSeat(HeuristicBot()), InProcessSeat(make_b()), InProcessSeat(HeuristicBot()),
               InProcessSeat(make_b())] for _ in range(tables)] for _ in range(rooms)]
    return asyncio.run(play_deal_pairs(config(deals, seed, policy), seats, MatchRecorder(record), on_pair))


def rooms_of(record: Path) -> list[int | None]:
    """Each hand line's room, in record order."""
    return [line.get("room") for line in map(json.loads, record.read_text().splitlines()) if line["type"] == "hand"]


def hands(record: Path) -> list[dict[str, Any]]:
    """The record's hands without what timing or chance decides (times, banks, request ids)."""
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    assert lines[0]["type"] == "match_start" and lines[-1]["type"] == "match_end"
    return [{"index": line["index"], "record": line["record"], "complete": line["complete"],
             "actions": [(d["seat"], d["action"], d["fault"]) for d in line["decisions"]]}
            for line in lines[1:-1]]


@pytest.mark.parametrize("tables", [2, 3])
def test_more_tables_give_the_same_pairs_and_record_in_deal_order(tmp_path: Path, tables: int) -> None:
    one = play(1, 7, tmp_path / "one.jsonl")
    many = play(tables, 7, tmp_path / "many.jsonl")
    assert many.deal_scores == one.deal_scores and len(one.deal_scores) == 7
    assert many.score == one.score and many.winner_team == one.winner_team
    assert hands(tmp_path / "many.jsonl") == hands(tmp_path / "one.jsonl")
    assert [h["index"] for h in hands(tmp_path / "many.jsonl")] == list(range(14))


@pytest.mark.parametrize("tables", [1, 2])
def test_two_rooms_give_the_pairs_and_record_of_one_each_hand_naming_its_room(tmp_path: Path, tables: int) -> None:
    """Bots whose moves depend only on what they see play the same hands in two rooms as at one
    table: the rooms change who plays, never the deals, the dealers or the pair arithmetic."""
    one = play(1, 7, tmp_path / "one.jsonl")
    two = play(tables, 7, tmp_path / "two.jsonl", rooms=2)
    assert two.deal_scores == one.deal_scores and len(one.deal_scores) == 7
    assert (two.score, two.winner_team, two.hand_values) == (one.score, one.winner_team, one.hand_values)
    assert two.final == one.final
    assert hands(tmp_path / "two.jsonl") == hands(tmp_path / "one.jsonl")
    assert rooms_of(tmp_path / "two.jsonl") == [0, 1] * 7
    assert rooms_of(tmp_path / "one.jsonl") == [None] * 14


def test_under_substitute_a_crash_silences_the_seat_in_its_own_room_only(tmp_path: Path) -> None:
    """Each room runs its own copy of a bot: the copy that crashed has its moves played by the
    referee for the rest of its room's hands, while the other room's copy plays on."""
    record = tmp_path / "m.jsonl"
    outcome = play(1, 30, record, RaisesOnAceBot, rooms=2, policy=FaultPolicy.SUBSTITUTE)
    assert outcome.forfeit_team is None and len(outcome.deal_scores) == 30
    crashed: dict[tuple[int, int], int] = {}  # (room, seat): the hand its copy crashed in
    for fault in sorted(outcome.faults, key=lambda f: f.hand or 0):
        assert fault.hand is not None
        crashed.setdefault((fault.hand % 2, fault.seat), fault.hand)
    assert any((1 - room, seat) not in crashed for room, seat in crashed), "a crash in one room only"
    lines = [json.loads(line) for line in record.read_text().splitlines()[1:-1]]
    for line in lines:
        for decision in line["decisions"]:
            crash = crashed.get((line["room"], decision["seat"]))
            if crash is None or line["index"] < crash:
                assert not decision["substituted"], (line["index"], decision)
            elif line["index"] > crash:
                assert decision["substituted"], (line["index"], decision)


class DealerNotingBot(LowestBot):
    """Notes each hand's dealer and what ``EndHand`` said the next dealer would be."""

    name = "dealer-noting"

    def __init__(self) -> None:
        self.dealers: list[int] = []
        self.announced: list[int] = []

    def play(self, view: BotView) -> Card:
        if not self.dealers or len(self.dealers) == len(self.announced):
            self.dealers.append(view.observation.dealer)
        return super().play(view)

    def on_hand_end(self, end: HandEnd) -> None:
        assert end.score is not None
        self.announced.append(end.score.dealer)


@pytest.mark.parametrize("rooms", [1, 2])
def test_the_tally_after_a_hand_names_the_dealer_of_the_tables_next_hand(rooms: int) -> None:
    bots = [[DealerNotingBot() for _ in range(4)] for _ in range(rooms)]
    asyncio.run(play_deal_pairs(config(6), [[[InProcessSeat(bot) for bot in room]] for room in bots]))
    for room in bots:
        for bot in room:
            assert len(bot.dealers) == len(bot.announced) == 12 // rooms
            assert bot.announced[:-1] == bot.dealers[1:]


def test_pairs_are_the_duplicate_formats_deals(tmp_path: Path) -> None:
    """Deal N's two plays are the same deals and dealers as a one-table duplicate match's."""
    play(2, 5, tmp_path / "pairs.jsonl")
    play_in_process([HeuristicBot(), LowestBot(), HeuristicBot(), LowestBot()], deals=5, seed=3,
                    record=tmp_path / "match.jsonl")
    paired = [(h["record"]["deal"], h["record"]["dealer"]) for h in hands(tmp_path / "pairs.jsonl")]
    single = [(h["record"]["deal"], h["record"]["dealer"]) for h in hands(tmp_path / "match.jsonl")]
    assert paired == single


@pytest.mark.parametrize(("tables", "rooms"), [(1, 1), (2, 1), (3, 1), (1, 2), (2, 2)])
def test_a_stop_ends_the_match_after_that_pair_whatever_the_tables(tmp_path: Path, tables: int, rooms: int) -> None:
    seen: list[int] = []

    def stop_after_four(pair: PlayedPair) -> bool:
        seen.append(pair.number)
        return pair.number < 3

    outcome = play(tables, 20, tmp_path / "m.jsonl", on_pair=stop_after_four, rooms=rooms)
    assert seen == [0, 1, 2, 3]
    assert len(outcome.deal_scores) == 4 and len(outcome.hands) == 8
    indexes = [h["index"] for h in hands(tmp_path / "m.jsonl")]
    assert indexes == list(range(len(indexes))) and len(indexes) >= 8  # the other table may finish its pair
    lines = (tmp_path / "m.jsonl").read_text().splitlines()
    assert json.loads(lines[-1])["deal_scores"] == outcome.deal_scores


@pytest.mark.parametrize(("tables", "rooms"), [(2, 1), (1, 2), (2, 2)])
def test_a_forfeit_ends_the_match_at_its_deal_whatever_the_tables(tmp_path: Path, tables: int, rooms: int) -> None:
    """In two rooms too: the other room plays every hand before the forfeited one and no other."""
    one = play(1, 30, tmp_path / "one.jsonl", RaisesOnAceBot)
    two = play(tables, 30, tmp_path / "two.jsonl", RaisesOnAceBot, rooms=rooms)
    assert one.forfeit_team == 1 and one.winner_team == 0
    assert 0 < len(one.deal_scores) < 30  # the fault comes at a later deal, not the first
    assert (two.forfeit_team, two.deal_scores) == (one.forfeit_team, one.deal_scores)
    assert [replace(f, request_id="") for f in two.faults] == [replace(f, request_id="") for f in one.faults]
    recorded = hands(tmp_path / "two.jsonl")
    assert recorded == hands(tmp_path / "one.jsonl")
    assert recorded[-1]["complete"] is False and recorded[-1]["index"] // 2 == len(one.deal_scores)
    assert one.status is OutcomeStatus.DONE


@pytest.mark.parametrize("rooms", [[], [[]], [[], []], [[], [], []]])
def test_no_tables_or_a_third_room_is_refused(rooms: list[list[list[InProcessSeat]]]) -> None:
    with pytest.raises(ValueError, match="one room or two, each with at least one table"):
        asyncio.run(play_deal_pairs(config(1), rooms))


def test_an_interrupted_match_keeps_every_pair_released_before_it(tmp_path: Path) -> None:
    """Hands reach the record as their pair is released, not at the end: a Ctrl-C (the match's
    task cancelled) after pair 3 leaves pairs 0 to 3 on disk."""
    record = tmp_path / "m.jsonl"

    async def main() -> None:
        task = asyncio.current_task()
        assert task is not None

        def cancel_at_three(pair: PlayedPair) -> bool:
            if pair.number == 3:
                task.cancel()
            return True

        seats = [[[InProcessSeat(HeuristicBot()), InProcessSeat(LowestBot()), InProcessSeat(HeuristicBot()),
                   InProcessSeat(LowestBot())]] for _ in range(2)]
        await play_deal_pairs(config(20), seats, MatchRecorder(record), cancel_at_three)

    with pytest.raises(asyncio.CancelledError):
        asyncio.run(main())
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    assert lines[0]["type"] == "match_start" and all(line["type"] == "hand" for line in lines[1:])
    indexes = [line["index"] for line in lines[1:]]
    assert indexes == list(range(len(indexes))) and len(indexes) >= 8
