"""``dehla tournament``'s one progress display: a bar of all the hands to play, one per running
pairing, and a line per finished pairing. Names come from the command line or bot manifests:
shown literally."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn

from arena.console.text import plain, visible
from arena.contract.status import OutcomeStatus
from arena.referee.stats import mean_interval
from arena.referee.table_values import AnyResult
from arena.referee.tournament.plan import Pairing, PairingResult, TournamentPlan


class ProgressDisplay:
    """One progress display for the whole tournament: a bar of all hands to play and one per
    running pairing; a line for each finished pairing (on the terminal above the bars, elsewhere
    as it ends)."""

    def __init__(self, console: Console, plan: TournamentPlan, pending: Sequence[Pairing], *, disable: bool) -> None:
        self.console = console
        self.progress = Progress(TextColumn("{task.description}", markup=False), BarColumn(), MofNCompleteColumn(),
                                 TimeElapsedColumn(), console=console, transient=True, disable=disable)
        self.hands = 2 * plan.deals
        self.total = len(plan.pairings)
        self.finished_count = self.total - len(pending)
        self.overall = self.progress.add_task("all pairings (hands)", total=self.hands * len(pending))
        self.running: dict[int, TaskID] = {}
        self.played: dict[int, int] = {}

    def __enter__(self) -> ProgressDisplay:
        self.progress.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.progress.__exit__(None, None, None)

    def started(self, pairing: Pairing) -> None:
        self.running[pairing.index] = self.progress.add_task(
            visible(f"{pairing.index}. {pairing.a} vs {pairing.b}"), total=self.hands)

    def hand_played(self, pairing: Pairing, index: int, result: AnyResult) -> None:
        self.progress.advance(self.running[pairing.index])
        self.progress.advance(self.overall)
        self.played[pairing.index] = self.played.get(pairing.index, 0) + 1

    def finished(self, pairing: Pairing, result: PairingResult) -> None:
        self.progress.remove_task(self.running.pop(pairing.index))
        self.progress.advance(self.overall, self.hands - self.played.pop(pairing.index, 0))  # a forfeit ends early
        self.finished_count += 1
        self.console.print(plain(f"finished {self.finished_count}/{self.total}: {finished_line(result)}"),
                           soft_wrap=True)


def finished_line(result: PairingResult) -> str:
    """A finished pairing in one line, from ``a``'s side."""
    head = f"pairing {result.index}, {result.a} vs {result.b}: "
    if result.status is OutcomeStatus.VOID:
        return head + f"void ({result.void_reason})"
    interval = mean_interval(result.deal_scores)
    line = head + f"{interval.mean:+.2f} per deal pair over {interval.n}" if interval.n else head + "no pair played"
    if result.forfeit_team is not None:
        line += f"; {(result.a, result.b)[result.forfeit_team]} forfeited"
    for fault in result.faults:
        line += f"; fault {fault.kind.value} at seat {fault.seat} ({fault.bot})"
    return line
