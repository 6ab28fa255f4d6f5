"""Fair play in duplicate: a real bot process that remembers every hand it saw
(``tests/bots/remember.py``) recognises each deal's second play when the same four processes play
both (one room, the control), and never in a local duplicate match, which plays in two rooms of
four processes each: room 0's play only hands ``2N``, room 1's only ``2N + 1``."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

from arena.contract.status import OutcomeStatus
from arena.referee.local import play_local_match
from tests.bots.remember import FRESH, RECOGNISED
from tests.referee_helpers import misbehaving_bot, play, table_config

REMEMBER = misbehaving_bot("remember")
DEALS = 3
HAND_LINE = re.compile(r"^hand (\d+) (\w+)$", re.MULTILINE)


def verdicts(log: str) -> dict[int, str]:
    """What the bot wrote after each hand it played: hand index -> recognised or fresh."""
    return {int(index): word for index, word in HAND_LINE.findall(log)}


def test_control_one_room_every_second_play_is_recognised(tmp_path: Path) -> None:
    """The old way (one table plays both plays with the same four bots): the fairness check fails."""
    played = play(table_config("one-room", match_format=f"duplicate:{DEALS}"), [REMEMBER] * 4, tmp_path)
    assert played.outcome.status is OutcomeStatus.DONE and len(played.outcome.hands) == 2 * DEALS
    for seat in range(4):
        assert verdicts(played.log(seat)) == {hand: RECOGNISED if hand % 2 else FRESH for hand in range(2 * DEALS)}


def test_two_rooms_no_bot_process_ever_sees_a_deal_twice(tmp_path: Path) -> None:
    config = table_config("two-rooms", match_format=f"duplicate:{DEALS}")
    outcome = asyncio.run(play_local_match((REMEMBER, REMEMBER), (REMEMBER, REMEMBER), config, tmp_path))
    assert outcome.status is OutcomeStatus.DONE and outcome.faults == []
    assert len(outcome.hands) == 2 * DEALS and len(outcome.deal_scores) == DEALS
    logs = {path.name: verdicts(path.read_text()) for path in tmp_path.glob("*.log")}
    recognised = {name: [hand for hand, word in seen.items() if word == RECOGNISED] for name, seen in logs.items()}
    assert all(hands == [] for hands in recognised.values()), f"a bot recognised a deal it had seen: {recognised}"
    room0 = {f"two-rooms.seat{seat}.log" for seat in range(4)}
    room1 = {f"two-rooms.room1.seat{seat}.log" for seat in range(4)}
    assert set(logs) == room0 | room1, "eight bot processes, four a room"
    for name, seen in logs.items():
        assert set(seen.values()) == {FRESH}, name
        first_plays = name in room0
        assert sorted(seen) == [2 * deal + (0 if first_plays else 1) for deal in range(DEALS)], name
    lines = [json.loads(line) for line in (tmp_path / "two-rooms.jsonl").read_text().splitlines()]
    hand_lines = [line for line in lines if line["type"] == "hand"]
    assert [(line["index"], line["room"]) for line in hand_lines] == [(h, h % 2) for h in range(2 * DEALS)]
    assert lines[-1]["deal_scores"] == outcome.deal_scores


def test_two_rooms_score_the_deals_as_one_room_does(tmp_path: Path) -> None:
    """The remembering bot plays its lowest card whatever it remembers: the two rooms' pair
    scores are the one room's, hand for hand."""
    config = table_config("m", match_format=f"duplicate:{DEALS}")
    one = play(config, [REMEMBER] * 4, tmp_path / "one").outcome
    (tmp_path / "two").mkdir()
    two = asyncio.run(play_local_match((REMEMBER, REMEMBER), (REMEMBER, REMEMBER), config, tmp_path / "two"))
    assert (two.hand_values, two.deal_scores, two.score, two.winner_team) == (
        one.hand_values, one.deal_scores, one.score, one.winner_team)
