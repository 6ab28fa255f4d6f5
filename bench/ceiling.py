"""How far can any bot get against ``heuristic``? Duplicate deal pairs against a clairvoyant team.

``python -m bench.ceiling [PAIRS] [PRESET] [SEED] [ARMS] [MOVE_MS]``

PAIRS ``A..B`` plays deals A to B-1 of the match only (a slice, to split one arm's pairs over
processes: the same deals and plays as in the whole match; the bots see each deal's tally on its
own, which none of them reads), a line per pair as it ends (its deal number and score).

Plays PAIRS (default 200) duplicate deal pairs of PRESET (default ``dehla-pakad``) from match
seed SEED (default 1) for each arm in ARMS (comma-separated, default all but ``replies``,
``sampled``, ``consistent``, ``ismcts`` and ``tree``), the arm's team in seats 0 and 2 against ``heuristic``
in 1 and 3, on a table whose clock never moves (no time faults; the bots' own budgets stand):

- ``control``: ``heuristic`` itself (must be about 50%: the measurement's control);
- ``clairvoyant``: ``bench.clairvoyant.ClairvoyantBot``, seeing the true deal, every decision its own;
- ``cards``: the clairvoyant's card plays, the heuristic's trump calls;
- ``calls``: the clairvoyant's trump calls, the heuristic's card plays;
- ``expert``: the expert sample bot's own search at MOVE_MS (default 50) a move, no clairvoyance;
- ``replies``: the same with ``--heuristic-replies`` (``sample_bots/expert/replies.py``);
- ``sampled``: the clairvoyant's search on ``SAMPLED_WORLDS`` deals drawn by the seat's sampler
  instead of the true one, no clock (``bench/sampled_search.py``); ``sampled+infer``: the worlds
  drawn in proportion to the likelihood of the plays seen (``SampledSearchBot.weigh``);
- ``consistent``: the same search on ``SAMPLED_WORLDS`` deals consistent with every play and the
  trump call of the heuristic seats under the heuristic's own policy
  (``bench/consistent_worlds.py``), no clock;
- ``ismcts:N``: the expert's information-set tree search (``sample_bots/expert/tree.py``), N
  iterations a card decision (default ``ISMCTS_ITERATIONS``) on uniform draws, no clock
  (``bench/ismcts.py``); ``ismcts:N+consistent``: on ``2 * SAMPLED_WORLDS`` consistent worlds in turn
  (``+consistentM``: M of them; ``+thinK``: their chain keeps one state every K proposals);
  ``+cycledM``: on M uniform draws in turn (drawn once a decision);
  ``+model``: the heuristic seats play the heuristic's cards inside the tree, on each deal;
  ``+prior``: the heuristic's card expanded first and played unless another's mean beats it by one
  standard error; ``+endgame``: from ``ENDGAME_TRICKS`` tricks left, the ``sampled`` arm's exact
  solves instead of the tree; ``+cN``: the tree's exploration constant N/10 (flags combine:
  ``ismcts:200+prior+endgame``);
- ``tree``: the expert bot's own ``--tree`` search at MOVE_MS a move (its wall clock), no clairvoyance.

``+rollout`` (``sampled``, ``consistent``, ``expert``): each candidate's world is finished by
policy rollouts (``sample_bots/expert/rollout.py``: the team's seats play the expert's tuned
heuristic, the other team the hand-set one, each on its own view), not greedily; ``+rolloutN``:
for the first N tricks only (the one in progress counting), greedily after. For ``sampled`` and
``consistent``: ``+wN`` searches N worlds a decision instead of ``SAMPLED_WORLDS``, ``+zN``
plays the heuristic's card unless the best mean beats it by N/10 standard errors (world by
world), and ``+tuned`` (implied by ``+rollout``) has the seat's own heuristic (its card on ties,
its calls) play the expert's tuned numbers; ``sampled+tuned+w0`` is that heuristic alone.

An arm ``NAME:TRICKS`` has its clairvoyant solve exactly from TRICKS tricks left (default
``bench.clairvoyant.ENDGAME_TRICKS``); ``NAME+model`` (either form) has its playouts let the
heuristic seats play their own cards (``Clairvoyant.opponents``): it knows the opponents' policy
as well as the deal; ``+modelN`` only in a playout's first N tricks (the one in progress counts).
``control+model`` and ``expert+model`` judge by that clairvoyant.

The pairs are scored by the table's own duplicate rule (``arena.referee.table``: what
``dehla match`` counts): won, drawn and lost pairs and the share (a draw counts half), the mean
per pair and its 95% interval. For the ``control``, ``expert`` and ``replies`` arms each of their team's
decisions is also judged by a clairvoyant on the true hand (``Shadowed``): per phase (the trump
call, each trick number) how often the bot's choice is among the clairvoyant's best and the
mean value it gives up by the clairvoyant's measure. Last line: one JSON object.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field

from arena.contract.faults import FaultPolicy
from arena.contract.time_control import TimeControl
from arena.engine.actions import Action, CallTrump
from arena.engine.hand import Decision
from arena.engine.match import MatchFormat
from arena.engine.rules import rules_for
from arena.referee.in_process import InProcessSeat
from arena.referee.stats import mean_interval
from arena.referee.table import Table
from arena.referee.table_values import DealPlays, MatchOutcome, TableConfig
from bench.clairvoyant import ENDGAME_TRICKS, Clairvoyant, ClairvoyantBot, TrueHand, call_options, card_options
from bench.consistent_worlds import THIN, ChainStats
from bench.ismcts import IsmctsBot
from bench.sampled_search import SampledSearchBot
from sample_bots.expert.bot import ExpertBot
from sample_bots.expert.tree import EXPLORATION
from sample_bots.expert.weights import expert_weights
from sample_bots.heuristic.bot import HeuristicBot
from sample_bots.heuristic.weights import DEFAULT_WEIGHTS
from sample_bots.search.bot import SearchBudget
from sdk.bot import Bot, BotView, DelegatingBot

SAMPLED_WORLDS = 16
"""Worlds a ``sampled`` seat searches per card decision."""
ISMCTS_ITERATIONS = 400
"""Iterations of an ``ismcts`` seat's tree per card decision."""
ISMCTS_FLAG = re.compile(r"consistent(?P<worlds>\d*)|cycled(?P<cycled>\d+)|thin(?P<thin>\d+)|c(?P<tenths>\d+)")
"""An ``ismcts`` arm's flags with a number: ``consistent[N]``, ``cycledN``, ``thinN`` and ``cN``."""
ARMS = ("control", "clairvoyant", "cards", "calls", "expert", "replies", "sampled", "consistent", "ismcts", "tree")


class StillClock:
    """A referee clock that never moves: no decision is late, whatever it takes."""

    def now(self) -> float:
        return 0.0

    async def hold_until(self, moment: float) -> None:
        return None


@dataclass(slots=True)
class PhaseTally:
    """A bot's decisions in one phase, judged by the clairvoyant."""

    decisions: int = 0
    agreed: int = 0
    regret: float = 0.0

    def add(self, other: PhaseTally) -> None:
        self.decisions += other.decisions
        self.agreed += other.agreed
        self.regret += other.regret

    def to_json(self) -> dict[str, float]:
        return {"decisions": self.decisions, "agreed": round(self.agreed / max(1, self.decisions), 3),
                "regret_mean": round(self.regret / max(1, self.decisions), 4), "regret_sum": round(self.regret, 2)}


class Shadowed(DelegatingBot):
    """``inner``'s decisions, each judged by a clairvoyant on the true hand (outside ``inner``'s
    own timing: after it answers). Only decisions with a choice are judged."""

    def __init__(self, inner: Bot, true_hand: TrueHand, search: Clairvoyant) -> None:
        super().__init__(inner)
        self.name = inner.name
        self.true_hand = true_hand
        self.search = search
        self.phases: dict[str, PhaseTally] = defaultdict(PhaseTally)

    def decide(self, view: BotView) -> Action:
        action = self.inner.decide(view)
        obs = view.observation
        state = self.true_hand.seen_by(view)
        if obs.decision is Decision.CALL_TRUMP:
            if not isinstance(action, CallTrump):
                return action
            judgement = self.search.judge(state, call_options(action.suit))
            phase = "call"
        elif len(obs.legal_actions) > 1 and obs.decision is Decision.PLAY:
            judgement = self.search.judge(state, card_options(view, action))
            phase = f"trick {obs.trick_number:02d}"
        else:
            return action
        tally = self.phases[phase]
        regret = judgement.regret(action)
        tally.decisions += 1
        tally.agreed += regret <= 0.0
        tally.regret += regret
        return action


@dataclass(slots=True)
class DealSlice:
    """A ``PairSource`` of deals ``first`` to ``end - 1``, both plays of each at this table: the
    pair scores in deal order, each printed as it ends (unless ``quiet``)."""

    first: int
    end: int
    scores: list[float] = field(default_factory=list)
    rotations: tuple[int, ...] = (0, 1)
    quiet: bool = False

    def take(self) -> int | None:
        number = self.first + len(self.scores)
        return number if number < self.end else None

    def played(self, plays: DealPlays) -> None:
        self.scores.append(sum(plays.hand_values))
        if not self.quiet:
            print(f"  deal {plays.number}: {self.scores[-1]:+g}", flush=True)


def play_table(bots: list[Bot], true_hand: TrueHand, pairs: int, preset: str, seed: int,
               first: int | None = None) -> MatchOutcome:
    """``pairs`` duplicate deal pairs of ``preset`` at a table that tells ``true_hand`` every move
    (from deal ``first`` on, as a ``DealSlice``, when it is given)."""
    config = TableConfig(match_id=f"ceiling-{seed}", rules=rules_for(preset), preset=preset,
                         match_format=MatchFormat.parse(f"duplicate:{(first or 0) + pairs}"), seed=seed,
                         time_control=TimeControl(), policy=FaultPolicy.FORFEIT)
    seats = [InProcessSeat(bot) for bot in bots]
    if first is None:
        return asyncio.run(Table(config, seats, clock=StillClock(), live=true_hand).run())
    source = DealSlice(first, first + pairs)
    outcome = asyncio.run(Table(config, seats, clock=StillClock(), pairs=source, live=true_hand).run())
    outcome.deal_scores[:] = source.scores
    return outcome


def ismcts_bot(seat: int, iterations: int, flags: set[str]) -> IsmctsBot:
    """An ``ismcts`` seat: ``consistent``, ``prior``, ``endgame`` and ``model`` as the module says;
    ``consistentN``: N consistent worlds in turn; ``thinN``: their chain keeps one state every N
    proposals (default ``bench.consistent_worlds.THIN``); ``cycledN``: N uniform worlds in turn; ``cN``:
    the tree's exploration constant N/10 (default ``tree.EXPLORATION``)."""
    consistent, cycled, thin, exploration = 0, 0, THIN, EXPLORATION
    for flag in flags - {"", "prior", "endgame", "model"}:
        found = ISMCTS_FLAG.fullmatch(flag)
        if found is None:
            raise SystemExit(f"unknown ismcts flag {flag} "
                             "(known: prior, endgame, model, consistent[N], cycledN, thinN, cN)")
        if found["worlds"] is not None:
            consistent = int(found["worlds"] or SAMPLED_WORLDS * 2)
        elif found["cycled"] is not None:
            cycled = int(found["cycled"])
        elif found["thin"] is not None:
            thin = int(found["thin"])
        else:
            exploration = int(found["tenths"]) / 10
    return IsmctsBot(iterations, seed=seat, consistent_worlds=consistent, cycled_worlds=cycled, thin=thin,
                     prior="prior" in flags, endgame_worlds=SAMPLED_WORLDS if "endgame" in flags else 0,
                     exploration=exploration, model="model" in flags)


def team_for(arm: str, true_hand: TrueHand, move_ms: float, preset: str = "dehla-pakad") -> tuple[Bot, Bot]:
    """Seats 0 and 2 of ``arm``: ``NAME``, ``NAME:TRICKS`` (the clairvoyant's exact solve from
    TRICKS tricks left instead of ``ENDGAME_TRICKS``), and either with ``+model`` (its playouts
    let the heuristic seats play their own cards: ``Clairvoyant.opponents``)."""
    spec, _, flag = arm.partition("+")
    flags = set(flag.split("+"))
    name, _, tricks = spec.partition(":")
    endgame = int(tricks) if tricks else ENDGAME_TRICKS

    tuned = expert_weights(rules_for(preset))
    rollout = next((f for f in flags if f.startswith("rollout")), None)
    rollout_tricks = 0 if rollout is None else int(rollout[7:] or rules_for(preset).hand_size)
    own = tuned if "tuned" in flags or rollout is not None else DEFAULT_WEIGHTS
    confidence = next((int(f[1:]) / 10 for f in flags if re.fullmatch(r"z\d+", f)), None)
    worlds = next((int(f[1:]) for f in flags if re.fullmatch(r"w\d+", f)), SAMPLED_WORLDS)

    def search() -> Clairvoyant:
        if rollout is not None and name != "expert":
            return Clairvoyant(endgame, HeuristicBot(), rollout_tricks, partners=HeuristicBot(tuned))
        model = flag.startswith("model")
        return Clairvoyant(endgame, HeuristicBot() if model else None, int(flag[5:]) if model and flag[5:] else None)

    makers: dict[str, Callable[[int], Bot]] = {
        "control": lambda seat: Shadowed(HeuristicBot(), true_hand, search()),
        "clairvoyant": lambda seat: ClairvoyantBot(true_hand, search=search()),
        "cards": lambda seat: ClairvoyantBot(true_hand, calls=False, search=search()),
        "calls": lambda seat: ClairvoyantBot(true_hand, cards=False, search=search()),
        "expert": lambda seat: Shadowed(ExpertBot(seat, SearchBudget(max_per_move=move_ms / 1000),
                                                  rollouts=rollout_tricks), true_hand, search()),
        "sampled": lambda seat: SampledSearchBot(worlds, search(), seat, weigh="infer" in flags,
                                                weights=own, confidence=confidence),
        "consistent": lambda seat: SampledSearchBot(worlds, search(), seat, consistent=True, weights=own,
                                                      confidence=confidence),
        "ismcts": lambda seat: ismcts_bot(seat, int(tricks) if tricks else ISMCTS_ITERATIONS, flags),
        "tree": lambda seat: ExpertBot(seat, SearchBudget(max_per_move=move_ms / 1000), tree=True),
        "replies": lambda seat: Shadowed(ExpertBot(seat, SearchBudget(max_per_move=move_ms / 1000),
                                                   heuristic_replies=True), true_hand, search()),
    }
    return makers[name](0), makers[name](2)


def run_arm(arm: str, pairs: int, preset: str, seed: int, move_ms: float,
            first: int | None = None) -> dict[str, object]:
    started = time.perf_counter()
    true_hand = TrueHand()
    north, south = team_for(arm, true_hand, move_ms, preset)
    outcome = play_table([north, HeuristicBot(), south, HeuristicBot()], true_hand, pairs, preset, seed, first)
    scores = outcome.deal_scores
    stats = mean_interval(scores)
    result: dict[str, object] = {
        "arm": arm, "pairs": stats.n, "first": first or 0, "won": sum(s > 0 for s in scores),
        "drawn": sum(s == 0 for s in scores),
        "lost": sum(s < 0 for s in scores), "share": round(stats.won_share, 4), "mean": round(stats.mean, 3),
        "ci": [round(stats.low, 3), round(stats.high, 3)], "faults": len(outcome.faults),
        "seconds": round(time.perf_counter() - started, 1), "load_average": round(os.getloadavg()[0], 2)}
    trees = [b for b in (north, south) if isinstance(b, IsmctsBot)]
    if trees:
        decisions = sum(b.decisions for b in trees)
        result["cpu_ms_per_decision"] = round(1000 * sum(b.cpu_seconds for b in trees) / max(1, decisions), 1)
        result["decisions"] = decisions
        print(f"  CPU {result['cpu_ms_per_decision']} ms a card decision with a choice ({decisions})", flush=True)
    searchers = [b for b in (north, south) if isinstance(b, SampledSearchBot)]
    if searchers:
        decisions = sum(b.decisions for b in searchers)
        result["cpu_ms_per_decision"] = round(1000 * sum(b.cpu_seconds for b in searchers) / max(1, decisions), 1)
        result["decisions"] = decisions
        result["playouts"] = sum(b.search.playouts for b in searchers)
        result["solves"] = sum(b.search.solves for b in searchers)
        result["uniform_fallbacks"] = sum(b.unsupported for b in searchers)
        if any(b.consistent for b in searchers):
            chain = ChainStats()
            for b in searchers:
                chain.add(b.chain_stats)
            result["worlds"] = chain.to_json()
    shadows = [b for b in (north, south) if isinstance(b, Shadowed)]
    if shadows:
        merged: dict[str, PhaseTally] = defaultdict(PhaseTally)
        for shadow in shadows:
            for phase, tally in shadow.phases.items():
                merged[phase].add(tally)
        result["phases"] = {p: merged[p].to_json() for p in sorted(merged)}
    print(f"{arm}: pairs {stats.n} won {result['won']} drawn {result['drawn']} lost {result['lost']} "
          f"share {stats.won_share:.1%} mean {stats.mean:+.3f} CI [{stats.low:+.3f}, {stats.high:+.3f}] "
          f"faults {len(outcome.faults)} ({result['seconds']} s, load {result['load_average']})", flush=True)
    if searchers:
        print(f"  CPU {result['cpu_ms_per_decision']} ms a card decision with a choice ({result['decisions']}; "
              f"{result['playouts']} playouts, {result['solves']} exact solves), "
              f"worlds {result.get('worlds', 'sampler')}", flush=True)
    if shadows:
        for phase, tally in result["phases"].items():  # type: ignore[attr-defined]
            print(f"  {phase}: {tally['decisions']} decisions, clairvoyant's best {tally['agreed']:.1%}, "
                  f"regret mean {tally['regret_mean']:+.4f} sum {tally['regret_sum']:+.1f}", flush=True)
    return result


def main(argv: list[str]) -> None:
    if argv[:1] in (["-h"], ["--help"]):
        print(__doc__)
        return
    defaults = ["200", "dehla-pakad", "1", ",".join(ARMS[:5]), "50"]
    pairs, preset, seed, arms, move_ms = (argv + defaults[len(argv):])[:5]
    chosen = [a for a in arms.split(",") if a]
    unknown = sorted({a.partition("+")[0].partition(":")[0] for a in chosen} - set(ARMS))
    if unknown:
        raise SystemExit(f"unknown arm {', '.join(unknown)} (known: {', '.join(ARMS)})")
    if ".." in pairs:
        low, high = (int(x) for x in pairs.split(".."))
        results = [run_arm(arm, high - low, preset, int(seed), float(move_ms), low) for arm in chosen]
    else:
        results = [run_arm(arm, int(pairs), preset, int(seed), float(move_ms)) for arm in chosen]
    print(json.dumps({"preset": preset, "seed": int(seed), "move_ms": float(move_ms), "arms": results}))


if __name__ == "__main__":
    main(sys.argv[1:])
