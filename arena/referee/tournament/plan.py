"""A tournament's folder: its plan and one result file per finished pairing.

```text
DATA/tournaments/NAME/
  plan.json                   the entrants, deals, seed, rules, clocks and the pairings in order
  results/pairing-001.json    one per finished pairing (written whole, then renamed into place)
```

Its matches' records (and their seats' logs) go where ``dehla match`` puts its own, to
``DATA/local-matches/NAME-pairing-001.jsonl``: ``dehla serve`` lists them with the other local
matches, and while it runs the tournament prints each match's page.

A pairing is finished when its result file is there; resuming plays the others. Every file is
read back through its model and checked against the plan: a file that does not fit is an error
naming it, never overwritten (stored data is never lost).
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Sequence
from itertools import combinations
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from arena.contract.faults import FaultKind, FaultPolicy
from arena.contract.status import OutcomeStatus
from arena.contract.time_control import MoveRelease
from arena.engine.errors import ArenaError
from arena.referee.table_values import MatchOutcome
from arena.referee.tournament.standings import MatchResult

TOURNAMENTS = "tournaments"
"""The data folder's subfolder for tournaments."""
PLAN_FILE = "plan.json"
RESULTS = "results"
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
"""A tournament's name is its folder's, and the first part of its records' names: no separators,
no dot (a local match's id, ``arena.console.serving.LOCAL_MATCH_ID``, has none)."""
MAX_ENTRANTS = 64


class TournamentError(ArenaError):
    """A tournament that cannot be planned, found or resumed as asked."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Entrant(_Frozen):
    """A partnership as the command line gave it (``spec``) and as the tables name it."""

    spec: str
    name: str


class Pairing(_Frozen):
    index: int = Field(ge=1)
    a: str
    b: str

    @property
    def match_id(self) -> str:
        return f"pairing-{self.index:03d}"

    def record_id(self, tournament: str) -> str:
        """The pairing's match id and record name among the data folder's local matches."""
        return f"{tournament}-{self.match_id}"


class TournamentPlan(_Frozen):
    """Everything that decides what is played; a resumed tournament plays by it."""

    version: Literal[1] = 1
    name: str
    entrants: tuple[Entrant, ...]
    gauntlet: str | None = None
    """The entrant that plays every other (the others do not meet); None: a round robin."""
    deals: int = Field(ge=1)
    seed: int
    preset: str
    options: tuple[str, ...] = ()
    per_move: float
    bank: float
    release: MoveRelease
    policy: FaultPolicy
    pairings: tuple[Pairing, ...]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(entrant.name for entrant in self.entrants)


def make_pairings(names: Sequence[str], gauntlet: str | None) -> tuple[Pairing, ...]:
    """Every pair of ``names`` in order (a round robin), or ``gauntlet`` against each other one."""
    pairs = [(gauntlet, name) for name in names if name != gauntlet] if gauntlet else combinations(names, 2)
    return tuple(Pairing(index=k, a=a, b=b) for k, (a, b) in enumerate(pairs, start=1))


class RecordedFault(_Frozen):
    seat: int = Field(ge=0, le=3)
    bot: str
    kind: FaultKind
    detail: str


class PairingResult(_Frozen):
    """A finished pairing's result file: what the table and the ordering need of its match."""

    index: int = Field(ge=1)
    a: str
    b: str
    status: OutcomeStatus
    deal_scores: tuple[float, ...]
    """Per deal pair, from ``a``'s side (``a`` sat at seats 0 and 2)."""
    hands: int = Field(ge=0)
    forfeit_team: Literal[0, 1] | None = None
    faults: tuple[RecordedFault, ...] = ()
    void_reason: str | None = None

    @classmethod
    def of(cls, pairing: Pairing, outcome: MatchOutcome) -> PairingResult:
        forfeit = outcome.forfeit_team
        return cls(index=pairing.index, a=pairing.a, b=pairing.b, status=outcome.status,
                   deal_scores=tuple(outcome.deal_scores), hands=len(outcome.hands),
                   forfeit_team=None if forfeit is None else (0 if forfeit == 0 else 1),
                   faults=tuple(RecordedFault(seat=f.seat, bot=f.bot, kind=f.kind, detail=f.detail)
                                for f in outcome.faults),
                   void_reason=outcome.void_reason)

    def team_name(self, seat: int) -> str:
        return self.a if seat % 2 == 0 else self.b

    def as_match_result(self, deals: int) -> MatchResult:
        return MatchResult(self.a, self.b, deals, self.deal_scores,
                           None if self.forfeit_team is None else (self.a, self.b)[self.forfeit_team],
                           self.status is OutcomeStatus.VOID, tuple(self.team_name(f.seat) for f in self.faults))


def tournaments_root(data: Path) -> Path:
    return data / TOURNAMENTS


def check_name(name: str) -> str:
    if not NAME_PATTERN.fullmatch(name):
        raise TournamentError(f"tournament name {name!r}: use 1 to 64 letters, digits, '_' or '-', "
                              "starting with a letter or digit")
    return name


def write_json_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all: a Ctrl-C or a crash never leaves half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=path.parent, prefix=f".{path.name}.",
                                     delete=False) as handle:
        handle.write(text)
        temporary = Path(handle.name)
    os.replace(temporary, path)


def create_plan(folder: Path, plan: TournamentPlan) -> None:
    """Start the tournament's folder; a folder that already holds a plan is refused."""
    path = folder / PLAN_FILE
    if path.exists():
        raise TournamentError(f"tournament {plan.name!r} exists ({folder}): resume it with --resume {plan.name}")
    write_json_atomically(path, plan.model_dump_json(indent=1) + "\n")
    (folder / RESULTS).mkdir(exist_ok=True)


def read_plan(folder: Path) -> TournamentPlan:
    path = folder / PLAN_FILE
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise TournamentError(f"{folder}: no tournament here (no {PLAN_FILE})") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise TournamentError(f"{path}: cannot read ({exc})") from None
    try:
        plan = TournamentPlan.model_validate_json(text)
    except ValidationError as exc:
        raise TournamentError(f"{path}: not a tournament plan ({_first_error(exc)})") from None
    names = plan.names
    if len(set(names)) != len(names) or any(p.a not in names or p.b not in names for p in plan.pairings) \
            or [p.index for p in plan.pairings] != list(range(1, len(plan.pairings) + 1)):
        raise TournamentError(f"{path}: its pairings do not fit its entrants")
    return plan


def result_path(folder: Path, pairing: Pairing) -> Path:
    return folder / RESULTS / f"{pairing.match_id}.json"


def write_result(folder: Path, result: PairingResult) -> None:
    pairing = Pairing(index=result.index, a=result.a, b=result.b)
    write_json_atomically(result_path(folder, pairing), result.model_dump_json() + "\n")


def read_results(folder: Path, plan: TournamentPlan) -> dict[int, PairingResult]:
    """The finished pairings' results by index; a result file that does not fit the plan is an error."""
    results = {}
    for pairing in plan.pairings:
        path = result_path(folder, pairing)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            continue
        except (OSError, UnicodeDecodeError) as exc:
            raise TournamentError(f"{path}: cannot read ({exc})") from None
        try:
            result = PairingResult.model_validate_json(text)
        except ValidationError as exc:
            raise TournamentError(f"{path}: not a pairing result ({_first_error(exc)})") from None
        if (result.index, result.a, result.b) != (pairing.index, pairing.a, pairing.b) \
                or len(result.deal_scores) > plan.deals:
            raise TournamentError(f"{path}: not the result of pairing {pairing.index} "
                                  f"({pairing.a} vs {pairing.b}) of this plan")
        results[pairing.index] = result
    return results


def _first_error(exc: ValidationError) -> str:
    error = exc.errors()[0]
    where = ".".join(str(part) for part in error["loc"]) or "top level"
    return f"{where}: {error['msg']}"
