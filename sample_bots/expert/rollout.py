"""Policy rollouts: an imagined world finished by the policies of the seats, not greedily.

A greedy playout (``sample_bots/expert/playout.py``) lets every seat play knowing every hand,
so a candidate is judged against replies no real player makes. A rollout lets each seat play
its policy on its own view of the world, as it would at the table: the searching team the
expert's own heuristic, the other team the heuristic it models. A candidate is then valued by
what the policies make of it, and playing the best such candidate is, in expectation, no worse
than the policy's own card (policy improvement). It costs a heuristic decision a play (about
0.14 ms), so a rollout costs about 13 times a greedy playout (docs/bots.md, "Session 29"): it
may stop after ``tricks`` tricks and finish greedily.
"""

from __future__ import annotations

from arena.engine.hand import Decision, HandState
from arena.engine.observation import observe
from sample_bots.expert.playout import playout
from sample_bots.expert.replies import VIEW_CLOCK
from sample_bots.search.bot import reward
from sdk.bot import Bot, BotView


def rollout(world: HandState, team: int, partners: Bot, opponents: Bot, tricks: int | None = None) -> float:
    """Finish ``world`` (consumed) with ``partners`` for ``team``'s seats and ``opponents`` for
    the others, each on its own view of it, for the first ``tricks`` tricks (the one in progress
    counting; ``None``: to the end), then greedily; ``team``'s reward."""
    rules = world.rules
    last = len(world.tricks) + (tricks if tricks is not None else rules.hand_size)
    while not world.is_over:
        plain = world.decision is Decision.PLAY and world.hidden_card is None
        if plain and len(world.tricks) >= last:
            return playout(world, rules, team)
        mask = world.legal_mask()
        if plain and mask & (mask - 1) == 0:
            world.play(mask.bit_length() - 1)
            continue
        seat = world.to_move
        assert seat is not None
        policy = partners if seat & 1 == team else opponents
        world.apply(policy.decide(BotView(observe(world, seat), *VIEW_CLOCK)))
    return reward(rules, world, team)
