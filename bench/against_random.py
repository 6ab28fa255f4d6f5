"""Issue 25 part 3, the room: how often does a strong player beat random play on duplicate deal pairs?

``nice -n 19 python -m bench.against_random PLAYER [PAIRS] [SEED] [MOVE_MS]``

Plays PAIRS (default 1,000) duplicate deal pairs of ``dehla-pakad``, the deals
``sdk.learn.evaluation.against_random(network, PAIRS, seed=SEED)`` plays (default seed 7: the
first PAIRS of its 10,000), PLAYER at team 0's seats and then at team 1's, the other seats
uniformly random legal play: the same measure as the trained policy's, so their figures compare
deal for deal (the random seats' draws differ). PLAYER is one of:

- ``heuristic``: the heuristic sample bot (the policy's teacher);
- ``search`` / ``expert``: the sample bots at MOVE_MS (default 5) a move, their own clock;
- ``policy:FOLDER``: the exported policy bot of a trained bot folder (``sdk.policy_bot``): the
  network (or ensemble) ``against_random`` plays in the vector environment, on the same deals
  through the scalar engine and the bot's own encoding;
- ``clairvoyant``: ``bench.clairvoyant.ClairvoyantBot``, which sees the true deal (every hand,
  the cards to come) and searches it with greedy playouts and an exact endgame: no bot can see
  what it sees, so it shows how much of the pairs' outcome play can decide at all (its playouts
  assume the others play greedily, not at random: a reference, not a strict bound).

Why: the pairs a policy does not win against ``random`` are nearly all drawn (one table lost to
random play); how many of those a player who sees every card still draws says how far above the
trained policy's rate the game leaves room. Prints progress every 100 pairs on stderr; the last
line is one JSON object (won / drawn / lost pairs, mean pair score, CPU and wall seconds, load).
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import numpy as np

from arena.engine.action_ids import action_id
from arena.engine.observation import observe
from bench.clairvoyant import Clairvoyant, ClairvoyantBot, TrueHand
from sample_bots.expert.bot import ExpertBot
from sample_bots.heuristic.bot import HeuristicBot
from sample_bots.search.bot import SearchBot, SearchBudget
from sdk.bot import Bot, BotView
from sdk.learn import dehla_v0
from sdk.learn.aec import seat_of
from sdk.policy_bot import PolicyBot

PLAYERS = ("heuristic", "search", "expert", "clairvoyant")
RANDOM_SEED = 12345
"""The random seats' draws (one generator for the whole run)."""


POLICY = "policy:"


def player(name: str, seat: int, true_hand: TrueHand, move_seconds: float) -> Bot:
    if name.startswith(POLICY):
        return PolicyBot.from_folder(Path(name.removeprefix(POLICY)))
    if name == "heuristic":
        return HeuristicBot()
    if name == "search":
        return SearchBot(seat, SearchBudget(max_per_move=move_seconds))
    if name == "expert":
        return ExpertBot(seat, SearchBudget(max_per_move=move_seconds))
    return ClairvoyantBot(true_hand, search=Clairvoyant())


def pair_scores(name: str, pairs: int, seed: int, move_seconds: float) -> list[float]:
    """Each deal's pair score: PLAYER's hand value at team 0's seats plus at team 1's."""
    deals = np.random.default_rng(seed).integers(2**62, size=pairs)  # against_random's deals
    env = dehla_v0.raw_env(preset="dehla-pakad")
    draws = np.random.default_rng(RANDOM_SEED)
    true_hand = TrueHand()
    bots = {seat: player(name, seat, true_hand, move_seconds) for seat in range(4)}
    scores: list[float] = []
    for deal in deals:
        score = 0.0
        for team in (0, 1):
            env.reset(seed=int(deal))
            for agent in env.agent_iter():
                _, reward, terminated, truncated, _ = env.last()
                seat = seat_of(agent)
                if terminated or truncated:
                    score += float(reward) if seat == team else 0.0
                    env.step(None)
                    continue
                table = env.unwrapped.table
                if seat % 2 == team:
                    true_hand.state = table  # the clairvoyant's view of the true deal (others ignore it)
                    view = observe(table, seat, env.unwrapped.score)
                    action = action_id(bots[seat].decide(BotView(view, 1.0, 30.0)))
                else:
                    legal = sorted(action_id(a) for a in table.legal_actions())
                    action = int(draws.choice(np.array(legal)))
                env.step(action)
        scores.append(score)
        if len(scores) % 100 == 0:
            done = np.array(scores)
            print(f"{name} {len(scores)}: won {(done > 0).sum()} drawn {(done == 0).sum()} lost {(done < 0).sum()}",
                  file=sys.stderr, flush=True)
    return scores


def main(argv: list[str]) -> None:
    if not argv or not (argv[0] in PLAYERS or argv[0].startswith(POLICY)):
        raise SystemExit(f"usage: python -m bench.against_random {{{','.join(PLAYERS)},policy:FOLDER}} "
                         "[PAIRS] [SEED] [MOVE_MS]")
    name = argv[0]
    pairs, seed = (int(argv[1]) if len(argv) > 1 else 1000), (int(argv[2]) if len(argv) > 2 else 7)
    move_ms = float(argv[3]) if len(argv) > 3 else 5.0
    cpu, wall = time.process_time(), time.perf_counter()
    scores = np.array(pair_scores(name, pairs, seed, move_ms / 1000))
    print(json.dumps({"player": name, "pairs": pairs, "seed": seed, "move_ms": move_ms, "won": int((scores > 0).sum()),
                      "drawn": int((scores == 0).sum()), "lost": int((scores < 0).sum()),
                      "mean": round(float(scores.mean()), 3), "cpu_s": round(time.process_time() - cpu, 1),
                      "wall_s": round(time.perf_counter() - wall, 1), "load_average": round(os.getloadavg()[0], 2)}))


if __name__ == "__main__":
    main(sys.argv[1:])
