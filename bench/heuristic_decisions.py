"""The heuristic's card choice, as it is against the same with its odds cached per decision.

The heuristic's ``Thinking`` is the model of play inside the expert's inference and the
consistent worlds' chain (``bench/consistent_worlds.py``), where it costs most of their time.
``p_any`` and ``p_beats`` are pure functions of one decision's tracker and are asked again and
again for the same arguments (``_spread`` per candidate card, ``lead_odds``); the ``cached``
arm memoizes both in a subclass. Both arms choose the card of every decision with a choice in
heuristic self-play hands of the given presets (seeded deals), alternating, best of 3 rounds;
the chosen cards must be the same.

    .venv/bin/python bench/heuristic_decisions.py [HANDS] [PRESET,PRESET,...]

The last line printed is one JSON object.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.engine.cards import Card, CardMask
from arena.engine.deal import Deal
from arena.engine.hand import HandState
from arena.engine.observation import observe
from arena.engine.rules import NOT_YET_PLAYABLE, PRESETS, rules_for
from arena.engine.seats import Seat
from sample_bots.heuristic.bot import HeuristicBot, Thinking
from sdk.bot import BotView


class CachedThinking(Thinking):
    """``Thinking`` with ``p_any`` and ``p_beats`` remembered for the rest of the decision."""

    def __init__(self, view: BotView) -> None:
        self._any: dict[tuple[Seat, CardMask], float] = {}
        self._beats: dict[tuple[Seat, int, int, int, int], float] = {}
        super().__init__(view)

    def p_any(self, seat: Seat, mask: CardMask) -> float:
        found = self._any.get((seat, mask))
        if found is None:
            found = self._any[(seat, mask)] = super().p_any(seat, mask)
        return found

    def p_beats(self, seat: Seat, card: int, key: int, led: int, trump: int) -> float:
        found = self._beats.get((seat, card, key, led, trump))
        if found is None:
            found = self._beats[(seat, card, key, led, trump)] = super().p_beats(seat, card, key, led, trump)
        return found


def card_decisions(hands: int, presets: list[str]) -> list[BotView]:
    """The views of every card decision with more than one legal card in heuristic self-play."""
    bot = HeuristicBot()
    views = []
    for preset in presets:
        rules = rules_for(preset)
        for number in range(hands):
            state = HandState(rules, Deal.from_seed(rules, 100 + number), number % 4)
            while not state.is_over:
                seat = state.to_move
                assert seat is not None
                view = BotView(observe(state, seat), 1.0, 30.0)
                if len(view.legal_cards) > 1:
                    views.append(view)
                state.apply(bot.decide(view))
    return views


def main(argv: list[str]) -> None:
    hands = int(argv[1]) if len(argv) > 1 else 30
    presets = argv[2].split(",") if len(argv) > 2 else sorted(set(PRESETS) - NOT_YET_PLAYABLE)
    views = card_decisions(hands, presets)
    best = {"plain": 1e9, "cached": 1e9}
    chosen: dict[str, list[Card]] = {}
    for _ in range(3):
        for name, thinking in (("plain", Thinking), ("cached", CachedThinking)):
            start = time.process_time()
            chosen[name] = [thinking(view).best_card(view.legal_cards) for view in views]
            best[name] = min(best[name], time.process_time() - start)
    same = chosen["plain"] == chosen["cached"]
    for name, seconds in best.items():
        print(f"{name}: {1e6 * seconds / len(views):.1f} µs a decision")
    print(json.dumps({"bench": "heuristic_decisions", "presets": presets, "decisions": len(views),
                      "plain_us": round(1e6 * best["plain"] / len(views), 1),
                      "cached_us": round(1e6 * best["cached"] / len(views), 1),
                      "speedup": round(best["plain"] / best["cached"], 3), "same_cards": same}))


if __name__ == "__main__":
    main(sys.argv)
