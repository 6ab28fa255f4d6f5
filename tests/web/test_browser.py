"""The service in a real browser: Debian's Chromium, driven by Playwright, against a real
``dehla serve`` process over a store filled by a real short ladder (fixtures in conftest.py).

What a replay must show is computed here from the record file with the engine
(``table_facts.py``), not taken from the page's data. Each test saves a screenshot of every page
it checks into ``test-artifacts/``. No sleeps: every wait is on the DOM (Playwright's ``expect``)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Response, expect

from ladder.store.paths import ArenaData
from tests.database import database_env
from tests.replay_page_helpers import cards, check_table, press, wait_loaded
from tests.web.table_facts import Sweep, TableFacts, cards_in, hand_records, match_ids, replayed, sweeps
from tests.web_helpers import copied_ladder, serving

Hands = dict[tuple[int, int], list[TableFacts]]
"""Every hand of the played ladder, replayed by the engine: (match id, hand from 1) -> its steps."""

WATCHED_SEAT = 2


@pytest.fixture(scope="module")
def hands(played: ArenaData) -> Hands:
    return {(match_id, number): replayed(record)
            for match_id in match_ids(played)
            for number, record in enumerate(hand_records(played, match_id), start=1)}


@pytest.fixture(scope="module")
def sweep(hands: Hands) -> Sweep:
    """A sweep that took tens off a pile holding an earlier trick (any sweep if none took tens),
    before its hand's last trick where one was played (after the last trick every card is known
    to every seat, and the perspective test has no unseen card left to check)."""
    found = [found for (match_id, number), steps in hands.items() for found in sweeps(match_id, number, steps)]
    assert found, "the played ladder has no sweep to step to"
    before_last = [c for c in found if c.trick < hands[c.match_id, c.hand][-1].tricks_done] or found
    return next((candidate for candidate in before_last if candidate.tens), before_last[0])


def replay_url(served: str, match_id: int, query: str) -> str:
    return f"{served}matches/{match_id}/replay?{query}"


def trick_ends(steps: list[TableFacts]) -> list[int]:
    return [facts.step for facts in steps if facts.trick_finished]


def test_from_the_leaderboard_to_a_bot_a_match_and_its_replay(page: Page, served: str, played: ArenaData,
                                                              hands: Hands, artifacts: Path) -> None:
    matches = match_ids(played)
    page.goto(served)
    rows = page.locator("table#leaderboard tr[data-version-id]")
    expect(rows).to_have_count(2)
    assert sorted(rows.locator("td[data-col=bot]").all_text_contents()) == ["heuristic", "random"]
    # Both bots play every match of this ladder: each version's count is the store's.
    assert rows.locator("td[data-col=matches]").all_text_contents() == [str(len(matches))] * 2
    page.screenshot(path=artifacts / "leaderboard.png", full_page=True)

    page.locator("a[data-bot=heuristic]").click()
    expect(page.locator("#bot")).to_have_attribute("data-bot", "heuristic")
    recent = page.locator("table#recent-matches tr[data-match-id]")
    expect(recent).to_have_count(len(matches))
    page.screenshot(path=artifacts / "bot.png", full_page=True)

    match_id = int(recent.first.get_attribute("data-match-id") or "0")
    recent.first.locator("td[data-col=match] a").click()
    expect(page.locator("#match")).to_have_attribute("data-match-id", str(match_id))
    links = page.locator("ol#hands a[data-hand]")
    expect(links).to_have_count(len(hand_records(played, match_id)))
    page.screenshot(path=artifacts / "match.png", full_page=True)

    links.first.click()
    wait_loaded(page)
    expect(page.locator("#replay")).to_have_attribute("data-match", str(match_id))
    expect(page.locator("#replay")).to_have_attribute("data-hand", "1")
    expect(page.locator("#steps")).to_have_text(str(len(hands[match_id, 1]) - 1))
    check_table(page, hands[match_id, 1][0])
    page.screenshot(path=artifacts / "replay-from-match.png", full_page=True)

    page.goto(f"{served}matches")
    listed = page.locator("table#matches tr[data-match-id]")
    expect(listed).to_have_count(len(matches))
    assert [int(row.get_attribute("data-match-id") or "0") for row in listed.all()] == sorted(matches, reverse=True)
    page.screenshot(path=artifacts / "matches.png", full_page=True)


def test_the_keyboard_steps_a_replay_to_a_sweep_shown_as_the_engine_played_it(
        page: Page, served: str, hands: Hands, sweep: Sweep, artifacts: Path) -> None:
    steps = hands[sweep.match_id, sweep.hand]
    page.goto(replay_url(served, sweep.match_id, f"hand={sweep.hand}"))
    wait_loaded(page)
    expect(page.locator("#step")).to_have_attribute("data-step", "0")
    for end in trick_ends(steps)[:sweep.trick]:  # ↓: to the end of the next trick
        press(page, "ArrowDown", end)
    assert sweep.step == trick_ends(steps)[sweep.trick - 1]

    before, at = steps[sweep.step - 1], steps[sweep.step]
    check_table(page, at)
    taken = page.locator("#sweep")
    expect(taken).to_be_visible()
    expect(taken).to_have_attribute("data-team", str(sweep.team))
    expect(taken).to_have_attribute("data-cards", str(sweep.cards))
    expect(page.locator("#events [data-kind=sweep]")).to_have_count(1)
    expect(page.locator("#table")).to_have_attribute("data-sweeping", "")
    page.screenshot(path=artifacts / "replay-sweep.png", full_page=True)

    press(page, "ArrowLeft", sweep.step - 1)  # the pile just before it was swept
    assert before.pile and before.streak_holder is not None
    check_table(page, before)
    expect(page.locator("#sweep")).to_be_hidden()
    page.screenshot(path=artifacts / "replay-before-sweep.png", full_page=True)
    press(page, "ArrowRight", sweep.step)
    check_table(page, at)

    press(page, "ArrowUp", trick_ends(steps)[sweep.trick - 2])
    press(page, "End", len(steps) - 1)
    check_table(page, steps[-1])
    press(page, "Home", 0)
    page.keyboard.press(" ")  # plays...
    expect(page.locator("#step")).not_to_have_attribute("data-step", "0")
    expect(page.locator("#play")).to_contain_text("pause")
    page.keyboard.press(" ")  # ...and pauses
    expect(page.locator("#play")).to_contain_text("play")


class Fetched:
    """Every response a page received, to scan what it loaded."""

    def __init__(self, page: Page) -> None:
        self.responses: list[Response] = []
        page.on("response", self._received)

    def _received(self, response: Response) -> None:
        self.responses.append(response)

    def bodies(self) -> list[tuple[str, bytes]]:
        return [(response.url, response.body()) for response in self.responses if response.status != 304]


def assert_no_unseen_card(page: Page, steps: list[TableFacts], seat: int, fetched: Fetched) -> None:
    """Neither the DOM (at the step shown) nor any response the page fetched holds a card ``seat``
    may not know: the replay data step by step (against the engine's facts of each step), anything
    else against the step shown."""
    shown = steps[int(page.locator("#step").get_attribute("data-step") or "0")]
    unseen = shown.unseen_by(seat)
    assert unseen, "a step at which every card is known checks nothing"
    assert not cards_in(page.content(), unseen), f"the DOM at step {shown.step}"
    bodies = fetched.bodies()
    assert any("/replay?seat=" in url for url, _ in bodies), "the page fetched no replay data"
    for url, body in bodies:
        text = body.decode("utf-8", "replace")
        if "/api/" not in url:
            assert not cards_in(text, unseen), url
            continue
        data: dict[str, Any] = json.loads(text)
        for step in data["replay"].pop("steps"):
            leaked = cards_in(json.dumps(step), steps[step["index"]].unseen_by(seat))
            assert not leaked, f"{url}: step {step['index']} holds {sorted(leaked)}"
        assert not cards_in(json.dumps(data), steps[0].unseen_by(seat)), url


def test_a_seats_perspective_holds_no_other_seats_unplayed_card(page: Page, served: str, hands: Hands,
                                                                 sweep: Sweep, artifacts: Path) -> None:
    steps = hands[sweep.match_id, sweep.hand]
    page.goto(replay_url(served, sweep.match_id, f"hand={sweep.hand}&seat=all"))
    wait_loaded(page)
    # The scan finds cards where they are: all four hands open show the other seats' hands.
    others = frozenset().union(*(steps[0].hands[seat] for seat in range(4) if seat != WATCHED_SEAT))
    assert others and cards_in(page.content(), others) == others

    ends = trick_ends(steps)
    press(page, "ArrowDown", ends[0])
    fetched = Fetched(page)
    page.locator(f"#perspective a[data-perspective='{WATCHED_SEAT}']").click()
    wait_loaded(page, str(WATCHED_SEAT))
    expect(page.locator("#step")).to_have_attribute("data-step", str(ends[0]))  # the step stays
    check_table(page, steps[ends[0]], open_seats=range(WATCHED_SEAT, WATCHED_SEAT + 1))
    assert_no_unseen_card(page, steps, WATCHED_SEAT, fetched)
    for end in ends[1:sweep.trick]:
        press(page, "ArrowDown", end)
    check_table(page, steps[sweep.step], open_seats=range(WATCHED_SEAT, WATCHED_SEAT + 1))
    assert_no_unseen_card(page, steps, WATCHED_SEAT, fetched)
    for step in (sweep.step - 1, sweep.step - 2):  # back into the trick: two cards on the table
        press(page, "ArrowLeft", step)
    check_table(page, steps[sweep.step - 2], open_seats=range(WATCHED_SEAT, WATCHED_SEAT + 1))
    assert_no_unseen_card(page, steps, WATCHED_SEAT, fetched)
    page.screenshot(path=artifacts / f"replay-seat-{WATCHED_SEAT}.png", full_page=True)
    press(page, "Home", 0)
    check_table(page, steps[0], open_seats=range(WATCHED_SEAT, WATCHED_SEAT + 1))
    assert_no_unseen_card(page, steps, WATCHED_SEAT, fetched)

    page.locator("#perspective a[data-perspective=none]").click()  # no hands: nobody's cards
    wait_loaded(page, "none")
    check_table(page, steps[0], open_seats=range(0))
    assert not cards_in(page.content(), frozenset().union(*steps[0].hands))
    page.screenshot(path=artifacts / "replay-no-hands.png", full_page=True)


def test_a_deep_link_opens_that_hand_step_and_perspective(page: Page, served: str, hands: Hands,
                                                         sweep: Sweep, artifacts: Path) -> None:
    hand = 2 if sweep.hand == 1 else 1
    steps = hands[sweep.match_id, hand]
    step, seat = trick_ends(steps)[1] + 1, 1  # a trick just led: one card on the table
    fetched = Fetched(page)
    page.goto(replay_url(served, sweep.match_id, f"hand={hand}&step={step}&seat={seat}"))
    wait_loaded(page, str(seat))
    replay = page.locator("#replay")
    expect(replay).to_have_attribute("data-hand", str(hand))
    expect(page.locator("#step")).to_have_attribute("data-step", str(step))
    expect(page.locator(f"#perspective a[data-perspective='{seat}']")).to_have_attribute("aria-current", "true")
    assert len(steps[step].trick) == 1
    check_table(page, steps[step], open_seats=range(seat, seat + 1))
    assert_no_unseen_card(page, steps, seat, fetched)
    assert any(url.endswith(f"step={step}&seat={seat}") for url, _ in fetched.bodies()), "the page itself is scanned"
    page.screenshot(path=artifacts / "replay-deep-link.png", full_page=True)


def test_the_duplicate_view_shows_both_tables_step_aligned(page: Page, served: str, played: ArenaData,
                                                          hands: Hands, artifacts: Path) -> None:
    match_id = match_ids(played)[0]
    here, there = hands[match_id, 1], hands[match_id, 2]
    # The second table's seat s + 1 holds the first table's seat s cards.
    assert all(here[0].hands[seat] == there[0].hands[(seat + 1) % 4] for seat in range(4))
    page.goto(replay_url(served, match_id, "hand=1&duplicate=1"))
    wait_loaded(page)
    expect(page.locator("#table")).to_be_visible()
    expect(page.locator("#table-b")).to_be_visible()
    records = hand_records(played, match_id)
    pairs = zip(records[0]["actions"], records[1]["actions"], strict=False)
    differ = next((index for index, (one, two) in enumerate(pairs, start=1)
                   if (one["seat"] + 1) % 4 != two["seat"] or one["action"] != two["action"]), None)
    expect(page.locator("#divergence")).to_have_attribute("data-step", "" if differ is None else str(differ))

    check_table(page, here[0])
    check_table(page, there[0], "-b")
    for key, step in (("ArrowRight", 1), ("ArrowRight", 2), ("ArrowLeft", 1)):  # stepping moves both tables
        press(page, key, step)
        check_table(page, here[step])
        check_table(page, there[step], "-b")
    for end in trick_ends(here)[:3]:
        press(page, "ArrowDown", end)
    check_table(page, here[end])
    check_table(page, there[end], "-b")
    page.screenshot(path=artifacts / "replay-duplicate.png", full_page=True)

    page.goto(replay_url(served, match_id, "hand=1&step=0&seat=0&duplicate=1"))
    wait_loaded(page, "0")
    # Seat 0's cards at the second table are seat 1's: its view there is that seat's own.
    check_table(page, here[0], open_seats=range(0, 1))
    check_table(page, there[0], "-b", open_seats=range(1, 2))
    page.screenshot(path=artifacts / "replay-duplicate-seat-0.png", full_page=True)


HIDDEN_TRUMP = "dehla-pakad-hidden"
"""The preset of the match the live test plays: its face-down trump is checked in the viewer."""


@dataclass(frozen=True, slots=True)
class Live:
    """A copy of the played store that a ladder writes to while ``dehla serve`` shows it."""

    data: ArenaData
    url: str


@pytest.fixture(scope="module")
def live(played: ArenaData, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    root = tmp_path_factory.mktemp("live") / "data"
    data = copied_ladder(played, root)
    with serving(root) as url:
        yield Live(data, url)


def ladder_run(data: ArenaData) -> subprocess.Popen[str]:
    """A real ``dehla ladder run`` of one hidden-trump match, started, not waited for."""
    return subprocess.Popen(
        [sys.executable, "-m", "arena", "ladder", "run", "--matches", "1", "--deals", "1", "--per-move", "0.5",
         "--preset", HIDDEN_TRUMP, "--data", str(data.root), "--runner", "local"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=database_env(data.root))


def test_the_pages_show_a_new_match_without_a_reload(browser: Browser, live: Live, artifacts: Path) -> None:
    before = match_ids(live.data)
    assert not match_ids(live.data, HIDDEN_TRUMP)
    url = live.url
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    board, listing = context.new_page(), context.new_page()
    board.goto(url)
    listing.goto(f"{url}matches")
    expect(listing.locator("tr[data-match-id]")).to_have_count(len(before))
    played_by = {name: board.locator(f"tr:has(a[data-bot='{name}']) td[data-col=matches]")
                 for name in ("heuristic", "random")}
    for count in played_by.values():
        expect(count).to_have_text(str(len(before)))
    for opened in (board, listing):
        opened.evaluate("window.notReloaded = true")
    ladder = ladder_run(live.data)
    try:
        rows = listing.locator("tr[data-match-id]")
        expect(rows).to_have_count(len(before) + 1, timeout=90_000)
        new = rows.first
        assert int(new.get_attribute("data-match-id") or "0") not in before
        expect(new.locator("td[data-col=preset]")).to_have_text(HIDDEN_TRUMP)
        expect(new.locator("td[data-col=status]")).to_have_text("done", timeout=90_000)
        for count in played_by.values():
            expect(count).to_have_text(str(len(before) + 1), timeout=30_000)
        for opened in (board, listing):
            assert opened.evaluate("window.notReloaded") is True, "the page was reloaded"
        board.screenshot(path=artifacts / "live-leaderboard.png", full_page=True)
        listing.screenshot(path=artifacts / "live-matches.png", full_page=True)
    finally:
        _, errors = ladder.communicate(timeout=180)
        context.close()
    assert ladder.returncode == 0, errors


@pytest.fixture
def hidden_trump_match(live: Live) -> int:
    """The live store's hidden-trump match (played by the live test, or here when run alone)."""
    if not match_ids(live.data, HIDDEN_TRUMP):
        ladder = ladder_run(live.data)
        _, errors = ladder.communicate(timeout=180)
        assert ladder.returncode == 0, errors
    return match_ids(live.data, HIDDEN_TRUMP)[-1]


def test_a_face_down_trump_stays_hidden_from_the_other_seats_until_turned_up(
        page: Page, live: Live, hidden_trump_match: int, artifacts: Path) -> None:
    steps = replayed(hand_records(live.data, hidden_trump_match)[0])
    down = [facts for facts in steps if facts.hidden_trump is not None]
    assert down, "the hidden-trump hand has no face-down trump"
    at = next((facts for facts in down if facts.trick), down[0])  # cards played above the face-down card
    assert at.hidden_trump is not None
    holder, card = at.hidden_trump
    seat = (holder + 1) % 4
    fetched = Fetched(page)
    page.goto(replay_url(live.url, hidden_trump_match, f"hand=1&step={at.step}&seat={seat}"))
    wait_loaded(page, str(seat))
    trump = page.locator("#trump")
    expect(trump).to_have_attribute("data-state", "face-down")
    expect(trump).to_have_attribute("data-suit", "")
    expect(trump.locator("[data-card]")).to_have_count(0)
    assert card in at.unseen_by(seat)
    assert_no_unseen_card(page, steps, seat, fetched)
    page.screenshot(path=artifacts / "replay-face-down-trump.png", full_page=True)

    page.locator(f"#perspective a[data-perspective='{holder}']").click()  # its owner sees it
    wait_loaded(page, str(holder))
    expect(trump).to_have_attribute("data-state", "face-down")
    assert cards(trump.locator("[data-card]")) == [card]

    turned = next((facts for facts in steps[at.step:] if facts.hidden_trump is None), None)
    if turned is not None:  # the reveal, seen by everyone
        page.locator(f"#perspective a[data-perspective='{seat}']").click()
        wait_loaded(page, str(seat))
        for step in range(at.step + 1, turned.step + 1):
            press(page, "ArrowRight", step)
        expect(trump).to_have_attribute("data-state", "revealed")
        assert cards(trump.locator("[data-card]")) == [card]
        expect(page.locator("#events [data-kind=trump_revealed]")).to_have_count(1)
        page.screenshot(path=artifacts / "replay-trump-revealed.png", full_page=True)


def test_the_replay_reads_like_a_card_game_tens_trump_symbols_and_local_times(
        browser: Browser, served: str, played: ArenaData, hands: Hands, artifacts: Path) -> None:
    """Issue 27 part 3, as drawn (the stylesheet and the scripts, not the markup alone): every card
    with its suit's symbol, each ten highlighted wherever it is and no other card, the trump large
    and still in view once the page is scrolled to its end, and the lists' times in local time."""
    context = browser.new_context(viewport={"width": 1280, "height": 400}, timezone_id="Asia/Kolkata")
    page = context.new_page()
    try:
        match_id = match_ids(played)[0]
        last = len(hands[match_id, 1]) - 1  # the hand's end: every ten is in a team's captures
        page.goto(replay_url(served, match_id, f"hand=1&step={last}"))
        wait_loaded(page)
        expect(page.locator("#step")).to_have_attribute("data-step", str(last))
        shown = page.locator("#replay .card[data-card]").evaluate_all(
            """nodes => nodes.map(node => [node.dataset.card, node.textContent,
                                           getComputedStyle(node).boxShadow])""")
        symbols = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
        assert shown and all(text == card[:-1] + symbols[card[-1]] for card, text, _ in shown), shown
        tens = [shadow for card, _, shadow in shown if card.startswith("10")]
        assert len({card for card, _, _ in shown if card.startswith("10")}) == 4, shown
        assert all(shadow != "none" for shadow in tens), tens
        assert all(shadow == "none" for card, _, shadow in shown if not card.startswith("10"))

        trump = page.locator("#trump-now")
        page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        assert page.evaluate("window.scrollY") > 0, "the page must scroll for the check to mean anything"
        box = trump.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 400, box
        sizes = trump.evaluate("node => [parseFloat(getComputedStyle(node).fontSize), "
                               "parseFloat(getComputedStyle(document.body).fontSize)]")
        assert sizes[0] > sizes[1], sizes
        page.screenshot(path=artifacts / "replay-scrolled-trump.png")

        page.goto(f"{served}matches")
        times = page.locator("table#matches time[datetime]")
        expect(times.first).to_have_attribute("data-local", "")
        stamp, text = times.first.evaluate("node => [node.getAttribute('datetime'), node.textContent]")
        assert not text.endswith("UTC") and text == page.evaluate(
            "s => new Date(s).toLocaleString(undefined, {dateStyle: 'medium', timeStyle: 'short'})", stamp)
    finally:
        context.close()
