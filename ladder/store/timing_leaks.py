"""The timing-leak detector in the ladder (issue 23): figures per seat at report time, a flag per version.

Each counted match's record is fed to ``arena.referee.timing_leak`` before the report's
transaction takes any lock (the replay and shuffles cost tens of milliseconds). Each seat's
figures are a ``timing_leaks`` row, credited to the version at that seat (a mixed partnership
credits each its own seat), and added to the version's ``timing_leak_totals``, so the leaderboard
reads one row a version. The threshold is ``docs/ladder.md``'s "Timing-leak detector".
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from sqlalchemy.orm import Session

from arena.engine.errors import RecordError
from arena.referee.timing_leak import LeakEstimate, record_leaks
from ladder.store.report_files import ReportFile
from ladder.store.schema import TimingLeak, TimingLeakTotals

FLAG_BITS = 0.05
"""Mean excess bits per decision at or above which a version is flagged (with ``FLAG_Z``)."""
FLAG_Z = 4.0
"""Stouffer's combined z at or above which the excess is no accident (with ``FLAG_BITS``)."""
FLAG_SEATS = 4
"""Measured seat-matches before a flag (two matches of a version partnering itself): one
match's figures swing too far when the machine's load changes from hand to hand."""


@dataclass(frozen=True, slots=True)
class TimingFigures:
    """A version's detector figures over its measured seat-matches."""

    seats: int
    bits: float
    """Mean excess bits per decision (decision-weighted)."""
    z: float
    """Stouffer's combined z of the seats' z."""

    @property
    def flagged(self) -> bool:
        return self.seats >= FLAG_SEATS and flagged(self.bits, self.z)


def flagged(bits: float, z: float) -> bool:
    """Both large (``FLAG_BITS``) and certain (``FLAG_Z``): a channel worth a look, not a fluke
    (a version needs ``FLAG_SEATS`` measured seats as well: ``TimingFigures.flagged``)."""
    return bits >= FLAG_BITS and z >= FLAG_Z


def figures(totals: TimingLeakTotals | None) -> TimingFigures | None:
    """A version's figures from its totals row (None: never measured)."""
    if totals is None or totals.seats <= 0 or totals.decisions <= 0:
        return None
    return TimingFigures(totals.seats, totals.weighted_bits / totals.decisions, totals.z_sum / math.sqrt(totals.seats))


def totals_figures(seats: int | None, decisions: int | None, weighted_bits: float | None,
                   z_sum: float | None) -> TimingFigures | None:
    """The same from the columns of an outer join (all None: never measured)."""
    if not seats or not decisions or weighted_bits is None or z_sum is None:
        return None
    return TimingFigures(seats, weighted_bits / decisions, z_sum / math.sqrt(seats))


def measure(files: list[ReportFile], record: str) -> dict[int, LeakEstimate]:
    """Each seat's estimate from the report's record ``record`` (none if it has no record, or a
    record the detector cannot replay: the match still counts, it is just not measured)."""
    data = next((file.data for file in files if file.name == record), None)
    if data is None:
        return {}
    try:
        return record_leaks(data.decode("utf-8"), where=record)
    except (RecordError, UnicodeDecodeError):
        return {}


def store_leaks(session: Session, match_id: int, seats: tuple[int, int, int, int],
                leaks: dict[int, LeakEstimate]) -> None:
    """The seats' rows and their versions' totals. Called with the versions' rows locked
    (``results.lock_rated``), so two reports never race to create a totals row."""
    for seat, estimate in sorted(leaks.items()):
        version = seats[seat]
        session.add(TimingLeak(match_id=match_id, seat=seat, version_id=version, decisions=estimate.decisions,
                               bits=estimate.bits, z=estimate.z, p_value=estimate.p_value))
        totals = session.get(TimingLeakTotals, version, with_for_update={"key_share": True})
        if totals is None:
            totals = TimingLeakTotals(version_id=version, seats=0, decisions=0, weighted_bits=0.0, z_sum=0.0)
            session.add(totals)
        totals.seats += 1
        totals.decisions += estimate.decisions
        totals.weighted_bits += estimate.bits * estimate.decisions
        totals.z_sum += estimate.z
