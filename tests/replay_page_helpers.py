"""The replay viewer in a browser, as the browser tests read it: waiting for it to load, stepping
it, and checking its table against the engine's facts of a step (``tests/web/table_facts.py``)."""

from __future__ import annotations

from playwright.sync_api import Locator, Page, expect

from tests.web.table_facts import TableFacts


def wait_loaded(page: Page, seat: str = "all") -> None:
    expect(page.locator("#replay")).to_have_attribute("data-loaded", "1")
    expect(page.locator("#replay")).to_have_attribute("data-seat", seat)


def press(page: Page, key: str, lands_on: int) -> None:
    """A key pressed, then wait until the viewer shows step ``lands_on``."""
    page.keyboard.press(key)
    expect(page.locator("#step")).to_have_attribute("data-step", str(lands_on))


def cards(locator: Locator) -> list[str]:
    return list(locator.evaluate_all("nodes => nodes.map(node => node.dataset.card)"))


def trick_shown(page: Page, suffix: str = "") -> list[tuple[int, str]]:
    plays = page.locator(f"#trick{suffix} [data-card]").evaluate_all(
        "nodes => nodes.map(node => [Number(node.dataset.seat), node.dataset.card])")
    return [(seat, card) for seat, card in plays]


def check_table(page: Page, facts: TableFacts, suffix: str = "", open_seats: range = range(4)) -> None:
    """The table ``#table{suffix}`` shows the engine's facts of the step: pile, streak holder,
    tens, captures, the trick, and the hands of ``open_seats``."""
    pile = page.locator(f"#pile{suffix}")
    expect(pile).to_have_attribute("data-count", str(len(facts.pile)))
    assert set(cards(pile.locator("[data-card]"))) == facts.pile
    streak = "" if facts.streak_holder is None else str(facts.streak_holder)
    expect(page.locator(f"#streak{suffix}")).to_have_attribute("data-seat", streak)
    for team in (0, 1):
        expect(page.locator(f"#tens{suffix}-{team}")).to_have_text(str(facts.tens[team]))
        assert set(cards(page.locator(f"#team{suffix}-{team} .captured [data-card]"))) == facts.captured[team]
    assert trick_shown(page, suffix) == list(facts.trick)
    for seat in range(4):
        hand = page.locator(f"#table{suffix} [data-seat='{seat}'] .hand")
        expect(hand).to_have_attribute("data-size", str(len(facts.hands[seat])))
        shown = set(cards(hand.locator("[data-card]")))
        assert shown == (facts.hands[seat] if seat in open_seats else set()), f"seat {seat} at step {facts.step}"
