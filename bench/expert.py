"""Strength and cost figures for the expert sample bot, in this process (no gRPC).

``python -m bench.expert inproc DEALS MOVE_MS [PRESET] [SEED] [OPPONENT]``
    expert (seats 0 and 2) against OPPONENT (``heuristic``, default, or ``search`` at the same
    budget; 1 and 3), duplicate: the mean score per deal pair, its 95% CI, the share of deal
    pairs won, move times, and per searched move the worlds drawn, played out and their
    effective number under the weights, and the model cache's hit rate.

``python -m bench.expert clock DEALS MOVE_MS [SEED]``
    The expert's own log of its moves against ``heuristic`` on a simulated ``on-reply`` clock of
    MOVE_MS a move and a 30 s bank (its views carry that clock; the bank is charged what a move
    takes past the limit, as the referee does): its move times, its overrun past its own planned
    deadline, the share of moves over the limit and its learnt margin at the end. No gRPC: the
    referee's figures add the reply's trip (``dehla match``, ``bench.search times``); the worlds
    played out per searched move before the endgame (the greedy playouts'). Last line JSON.

``python -m bench.expert playouts [POSITIONS] [PRESET] [WORLDS]``
    Greedy playouts per second from random positions (a random number of random plays into a
    seeded deal), the search bot's (``sample_bots.search.bot.playout``, the baseline, in the same
    run) against the expert's (``sample_bots.expert.playout``) on the same worlds: WORLDS (default
    64) worlds per position, drawn by the sampler of the seat to move, each side finishing every
    one of them; a position only where the expert's lean playout applies (``lean_applies``). The
    two sides' values are checked equal. The last line is JSON: playouts per ms of each side and
    ``speedup``, the ratio. (Sessions 18 and 19 also timed a batched playout,
    ``sample_bots/expert/batch_playout.py``, removed in session 20 with the dropped variants that
    used it: at commit 269556c.)
"""

from __future__ import annotations

import json
import os
import random
import statistics
import sys
import time

from arena.engine.actions import Action, PlayCard, RevealTrump
from arena.engine.cards import Card
from arena.engine.deal import Deal
from arena.engine.hand import HandState
from arena.engine.observation import observe
from arena.engine.rules import rules_for
from arena.referee.in_process import play_in_process
from arena.referee.stats import mean_interval
from bench.search import percentile
from sample_bots.expert import playout as expert_playout
from sample_bots.expert.bot import ExpertBot
from sample_bots.expert.playout import lean_applies
from sample_bots.heuristic.bot import HeuristicBot
from sample_bots.search import bot as search_bot
from sample_bots.search.bot import SearchBot, SearchBudget
from sdk.bot import Bot, BotView
from sdk.sampling import Sampler


def inproc(deals: int, move_ms: float, preset: str, seed: int, opponent: str) -> None:
    started = time.perf_counter()
    budget = SearchBudget(max_per_move=move_ms / 1000)
    window = int(os.environ["EXPERT_WINDOW"]) if os.environ.get("EXPERT_WINDOW") else None
    experts = [ExpertBot(0, budget, window=window), ExpertBot(2, budget, window=window)]
    others: list[Bot] = [HeuristicBot(), HeuristicBot()] if opponent == "heuristic" else [
        SearchBot(1, budget), SearchBot(3, budget)]
    outcome = play_in_process([experts[0], others[0], experts[1], others[1]], deals=deals, seed=seed, preset=preset)
    stats = mean_interval(outcome.deal_scores)
    times = [t * 1000 for bot in experts for t in bot.move_times]
    drawn = [n for bot in experts for n in bot.drawn]
    played = [n for bot in experts for n in bot.worlds]
    effective = [n for bot in experts for n in bot.effective]
    hits = sum(bot._cache.hits for bot in experts)
    misses = sum(bot._cache.misses for bot in experts)
    print(f"expert vs {opponent} {preset} deals {stats.n} mean {stats.mean:+.3f} "
          f"CI [{stats.low:+.3f}, {stats.high:+.3f}] won {stats.won_share:.1%} faults {len(outcome.faults)} "
          f"move ms median {statistics.median(times):.1f} p99 {percentile(times, 0.99):.1f}; per move: "
          f"drawn {statistics.median(drawn)}, played {statistics.median(played)}, "
          f"effective {statistics.median(effective):.1f} (medians); cache hits {hits / max(1, hits + misses):.0%} "
          f"({time.perf_counter() - started:.0f} s)")


class ClockedExpert(ExpertBot):
    """The expert on a simulated clock, logging each move's time and its overrun past its plan."""

    def __init__(self, seed: int, per_move: float) -> None:
        super().__init__(seed)
        self.per_move, self.bank = per_move, 30.0
        self.took: list[float] = []
        self.overrun: list[float] = []

    def play(self, view: BotView) -> Card | PlayCard | RevealTrump:
        clocked = BotView(view.observation, self.per_move, round(self.bank, 3))  # the protocol's whole ms
        started = time.perf_counter()
        action = super().play(clocked)
        took = time.perf_counter() - started
        self.took.append(took)
        self.bank = max(0.0, self.bank - max(0.0, took - self.per_move))
        return action

    def _search(self, view: BotView, start: float) -> Action:
        deadline = self._deadline(view, start)
        action = super()._search(view, start)
        if len(view.observation.legal_actions) > 1:
            self.overrun.append(time.perf_counter() - deadline)
        return action


def clock(deals: int, move_ms: float, seed: int) -> None:
    per_move = move_ms / 1000
    experts = [ClockedExpert(0, per_move), ClockedExpert(2, per_move)]
    play_in_process([experts[0], HeuristicBot(), experts[1], HeuristicBot()], deals=deals, seed=seed)
    took = [t * 1000 for bot in experts for t in bot.took]
    overrun = [t * 1000 for bot in experts for t in bot.overrun]
    over = sum(t > move_ms for t in took) / len(took)
    result = {"deals": deals, "move_ms": move_ms, "moves": len(took),
              "took_median_ms": round(statistics.median(took), 1), "took_p99_ms": round(percentile(took, 0.99), 1),
              "took_max_ms": round(max(took), 1), "overrun_median_ms": round(statistics.median(overrun), 2),
              "overrun_p99_ms": round(percentile(overrun, 0.99), 1), "over_limit_share": round(over, 4),
              "margin_ms_at_end": [round(bot.margin.seconds * 1000, 1) for bot in experts],
              "worlds_median": statistics.median(n for bot in experts for n in bot.greedy_worlds),
              "worlds_p90": percentile([float(n) for bot in experts for n in bot.greedy_worlds], 0.9),
              "load_average": os.getloadavg()[0]}
    print(f"expert's own moves at {move_ms:g} ms: median {result['took_median_ms']} p99 {result['took_p99_ms']} "
          f"max {result['took_max_ms']} ms; past its deadline median {result['overrun_median_ms']} p99 "
          f"{result['overrun_p99_ms']} ms; over the limit {over:.2%}; "
          f"margin at the end {result['margin_ms_at_end']} ms; worlds a move before the endgame median "
          f"{result['worlds_median']}, p90 {result['worlds_p90']}")
    print(json.dumps(result))


def playouts(positions: int, preset: str, worlds: int) -> None:
    rules = rules_for(preset)
    rng = random.Random(7)
    starts: list[list[HandState]] = []
    seed = 0
    while len(starts) < positions:
        state = HandState(rules, Deal.from_seed(rules, seed), seed % 4)
        seed += 1
        for _ in range(rng.randrange(0, 4 * rules.hand_size // 2)):
            state.apply(rng.choice(state.legal_actions()))
        if not lean_applies(state, rules) or state.to_move is None:
            continue
        sampler = Sampler(observe(state, state.to_move))
        placements = [sampler.sample(rng) for _ in range(worlds)]
        starts.append([sampler.state(p) for p in placements])
    total = positions * worlds
    seconds: dict[str, float] = {}
    values: dict[str, list[float]] = {}
    sides = (("search", lambda w: [search_bot.playout(x.clone(), rules, 0) for x in w]),
             ("expert", lambda w: [expert_playout.playout(x.clone(), rules, 0) for x in w]))
    for name, run in sides:
        best = float("inf")
        for _ in range(3):
            started = time.perf_counter()
            out = [v for states in starts for v in run(states)]
            best = min(best, time.perf_counter() - started)
        seconds[name], values[name] = best, out
        print(f"{name}: {total / best / 1000:,.2f} playouts/ms ({best / total * 1e6:.1f} us each)")
    mismatches = sum(bool(a != b) for a, b in zip(values["search"], values["expert"], strict=True))
    print(json.dumps({"preset": preset, "positions": positions, "worlds_per_position": worlds,
                      "search_per_ms": round(total / seconds["search"] / 1000, 2),
                      "expert_per_ms": round(total / seconds["expert"] / 1000, 2),
                      "speedup": round(seconds["search"] / seconds["expert"], 2),
                      "mismatches": mismatches, "load_average": os.getloadavg()[0]}))


def main(argv: list[str]) -> None:
    if argv[:1] == ["inproc"]:
        defaults = ["20", "50", "dehla-pakad", "1", "heuristic"]
        deals, move_ms, preset, seed, opponent = (argv[1:] + defaults[len(argv) - 1:])[:5]
        inproc(int(deals), float(move_ms), preset, int(seed), opponent)
    elif argv[:1] == ["clock"]:
        deals, move_ms, seed = (argv[1:] + ["10", "50", "1"][len(argv) - 1:])[:3]
        clock(int(deals), float(move_ms), int(seed))
    elif argv[:1] == ["playouts"]:
        positions, preset, worlds = (argv[1:] + ["200", "dehla-pakad", "64"][len(argv) - 1:])[:3]
        playouts(int(positions), preset, int(worlds))
    else:
        print(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
