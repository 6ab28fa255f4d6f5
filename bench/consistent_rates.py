"""What a consistent world costs: plain rejection against the chain, trick by trick (issue 26).

``python -m bench.consistent_rates [HANDS] [SEED] [CPU_SECONDS]``

Plays HANDS (default 6) hands of four ``heuristic`` seats, seeds SEED, SEED+1, ... (default 0),
on the default preset. At each card decision of seat 0 with a choice:

- *rejection*: uniform placements of the seat's sampler, each replayed play by play against the
  heuristic's choice for seats 1 and 3 (``Agreement``; out at the first play it would not have
  made; its answers cached for the hand), for CPU_SECONDS of CPU (default 0.3): draws, consistent
  draws, CPU per draw and per consistent world (the trump call is not checked here);
- *the chain*: ``ConsistentWorlds`` (the ceiling's ``consistent`` arm's, 16 worlds, calls
  included): CPU for the decision and per world, the Metropolis acceptance, distinct worlds;
- *playouts*: on each of those worlds, the heuristic's card played and the hand finished by the
  ceiling's greedy playout and by its ``+model`` playout (``bench.clairvoyant.Clairvoyant``, the
  heuristic's own cards for seats 1 and 3; tricks 1 to 8, where no exact solve runs):
  CPU per playout of each;
- *located*: the share of the unseen cards that a world puts in the hand that really holds it,
  for the chain's worlds and for as many uniform draws (what the plays tell about the deal).

One line per trick number (sums over the decisions), then one JSON object. CPU is
``time.process_time``: it does not move with the other processes' load.
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
from collections import defaultdict
from dataclasses import asdict, dataclass

from arena.engine.actions import Action
from arena.engine.deal import Deal
from arena.engine.hand import Decision, HandState
from arena.engine.observation import observe
from arena.engine.rules import rules_for
from bench.clairvoyant import ENDGAME_TRICKS, Clairvoyant
from bench.consistent_worlds import Agreement, ConsistentWorlds
from sample_bots.heuristic.bot import HeuristicBot, best_trump_suit
from sdk.bot import BotView
from sdk.inference import Inference, LikelihoodCache
from sdk.sampling import Placement, Sampler

WORLDS = 16
OPPONENTS = frozenset({1, 3})


@dataclass(slots=True)
class TrickRates:
    decisions: int = 0
    draws: int = 0
    consistent_draws: int = 0
    rejection_cpu: float = 0.0
    chain_cpu: float = 0.0
    chain_proposals: int = 0
    chain_accepted: int = 0
    distinct: int = 0
    playouts: int = 0
    located_chain: float = 0.0
    located_uniform: float = 0.0
    greedy_cpu: float = 0.0
    model_cpu: float = 0.0

    def line(self, trick: int) -> str:
        per_draw = 1000 * self.rejection_cpu / max(1, self.draws)
        per_world = 1000 * self.rejection_cpu / self.consistent_draws if self.consistent_draws else float("inf")
        return (f"trick {trick:2d}: {self.decisions:3d} decisions | rejection {self.consistent_draws}/{self.draws} "
                f"= {self.consistent_draws / max(1, self.draws):.2%}, {per_draw:.2f} ms a draw, "
                f"{per_world:.1f} ms a consistent world | chain {1000 * self.chain_cpu / self.decisions:.0f} ms "
                f"a decision, {1000 * self.chain_cpu / (WORLDS * self.decisions):.1f} ms a world, acceptance "
                f"{self.chain_accepted / max(1, self.chain_proposals):.0%}, distinct "
                f"{self.distinct / self.decisions:.1f} of {WORLDS} | located {self.located_chain / self.decisions:.0%}"
                f" (uniform {self.located_uniform / self.decisions:.0%})" + (
                    f" | playout {1000 * self.greedy_cpu / self.playouts:.2f} ms greedy, "
                    f"{1000 * self.model_cpu / self.playouts:.2f} ms +model" if self.playouts else ""))


def measure(hands: int, seed: int, seconds: float) -> dict[int, TrickRates]:
    rules = rules_for("dehla-pakad")
    bot = HeuristicBot()
    rates: dict[int, TrickRates] = defaultdict(TrickRates)
    for hand_seed in range(seed, seed + hands):
        state = HandState(rules, Deal.from_seed(rules, hand_seed), hand_seed % 4)
        generator = ConsistentWorlds(HeuristicBot(), OPPONENTS, best_trump_suit)
        cache = LikelihoodCache()
        rng = random.Random(hand_seed)
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            view = BotView(observe(state, seat), 1.0, 30.0)
            if seat == 0 and state.decision is Decision.PLAY and len(view.observation.legal_actions) > 1:
                tally = rates[len(state.tricks) + 1]
                tally.decisions += 1
                started = time.process_time()
                inference = Inference(view, Agreement(HeuristicBot(), OPPONENTS), cache)
                while time.process_time() - started < seconds:
                    tally.draws += 1
                    tally.consistent_draws += inference.likelihood(inference.sampler.sample(rng), floor=0.75) == 1.0
                tally.rejection_cpu += time.process_time() - started
                before = (generator.stats.seconds, generator.stats.chain_proposals, generator.stats.chain_accepted)
                sampler, worlds = generator.draw(view, WORLDS, rng)
                tally.chain_cpu += generator.stats.seconds - before[0]
                tally.chain_proposals += generator.stats.chain_proposals - before[1]
                tally.chain_accepted += generator.stats.chain_accepted - before[2]
                tally.distinct += len(set(worlds))
                true_hands = [state.hand(s) for s in range(4)]
                tally.located_chain += located(worlds, true_hands, seat)
                tally.located_uniform += located([sampler.sample(rng) for _ in worlds], true_hands, seat)
                if rules.hand_size - len(state.tricks) > ENDGAME_TRICKS + 1:  # no exact solve after the card
                    time_playouts(tally, sampler, worlds, bot.decide(view))
            state.apply(bot.decide(view))
    return rates


def located(worlds: list[Placement], true_hands: list[int], me: int) -> float:
    """The share of the unseen cards the worlds put where they really are."""
    unseen = sum(true_hands[s].bit_count() for s in range(4) if s != me)
    right = sum((w.hands[s] & true_hands[s]).bit_count() for w in worlds for s in range(4) if s != me)
    return right / (unseen * len(worlds))


def time_playouts(tally: TrickRates, sampler: Sampler, worlds: list[Placement], card: Action) -> None:
    greedy, model = Clairvoyant(), Clairvoyant(opponents=HeuristicBot())
    for placement in worlds:
        for search, attribute in ((greedy, "greedy_cpu"), (model, "model_cpu")):
            world = sampler.state(placement)
            world.apply(card)
            started = time.process_time()
            search.value(world, 0)
            setattr(tally, attribute, getattr(tally, attribute) + time.process_time() - started)
        tally.playouts += 1


def main(argv: list[str]) -> None:
    if argv[:1] in (["-h"], ["--help"]):
        print(__doc__)
        return
    hands, seed, seconds = (argv + ["6", "0", "0.3"][len(argv):])[:3]
    rates = measure(int(hands), int(seed), float(seconds))
    for trick in sorted(rates):
        print(rates[trick].line(trick), flush=True)
    print(json.dumps({"hands": int(hands), "seed": int(seed), "load_average": round(os.getloadavg()[0], 2),
                      "tricks": {t: asdict(rates[t]) for t in sorted(rates)}}))


if __name__ == "__main__":
    main(sys.argv[1:])
