"""What ``dehla match`` reports: the figures as JSON, the same for a terminal, the live SPRT line.

A winner is named only when the evidence says so: a forfeit, or a 95% interval of the mean
difference per unit (deal pair, or hand outside duplicate play) that excludes zero; otherwise
the match shows "no significant difference". A drawn unit counts half in the share won.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table as RichTable
from rich.text import Text

from arena.console.text import plain
from arena.contract.status import OutcomeStatus
from arena.engine.match import FormatKind, MatchFormat
from arena.engine.outcome import HandResult
from arena.referee.sprt import SprtStatus
from arena.referee.stats import mean_interval, t95
from arena.referee.table_values import MatchOutcome

NO_DIFFERENCE = "no significant difference"


def match_report(outcome: MatchOutcome, name_a: str, name_b: str, record: Path,
                 sprt: SprtStatus | None = None, max_deals: int | None = None,
                 match_format: MatchFormat | None = None) -> dict[str, Any]:
    """Everything ``dehla match`` prints, as JSON (partnership A is team 0); a ``tens:N`` match
    adds its race (``tens``: the target, the totals, who reached it first)."""
    units = outcome.deal_scores or outcome.hand_values
    interval = mean_interval(units)
    hands_won = [sum(1 for h in outcome.hands if h.winner == t) for t in (0, 1)]
    kots = [sum(1 for h in outcome.hands if h.winner == t and isinstance(h, HandResult) and h.kot) for t in (0, 1)]
    has_interval = interval.n >= 2
    if outcome.status is OutcomeStatus.VOID:
        winner, decided_by = None, "void"
    elif outcome.forfeit_team is not None:
        winner, decided_by = "AB"[1 - outcome.forfeit_team], "forfeit"
    elif has_interval and interval.excludes_zero:
        winner, decided_by = ("A" if interval.mean > 0 else "B"), "interval"
    else:
        winner, decided_by = None, NO_DIFFERENCE
    report: dict[str, Any] = {
        "match_id": outcome.match_id,
        "status": outcome.status.value,
        "partnerships": [name_a, name_b],
        "winner": winner,
        "decided_by": decided_by,
        "score": list(outcome.score),
        "hands": len(outcome.hands),
        "hands_won": hands_won,
        "kots": kots,
        "unit": "deal pair" if outcome.deal_scores else "hand",
        "units": len(units),
        "units_won": [sum(1 for u in units if u > 0), sum(1 for u in units if u < 0)],
        "units_drawn": sum(1 for u in units if u == 0),
        "mean_difference": round(interval.mean, 4),
        "ci95": [round(interval.low, 4), round(interval.high, 4)] if has_interval else None,
        "won_share": round(interval.won_share, 4),
        "drawn_count": "half",
        "faults": [f.to_json() for f in outcome.faults],
        "substitutions": outcome.substitutions,
        "void_reason": outcome.void_reason,
        "record": str(record),
    }
    if sprt is not None:
        report["sprt"] = sprt_report(sprt, max_deals)
    if match_format is not None and match_format.kind is FormatKind.TENS and outcome.final is not None:
        reached = outcome.final.tens_race_winner(match_format.count)
        report["tens"] = {"target": match_format.count, "totals": list(outcome.final.tens),
                          "reached_by": None if reached is None else "AB"[reached]}
    return report


def sprt_report(sprt: SprtStatus, max_deals: int | None) -> dict[str, Any]:
    settings = sprt.settings
    return {
        "verdict": sprt.verdict.value,
        "pairs": sprt.pairs,
        "max_deals": max_deals,
        "llr": round(sprt.llr, 4),
        "lower": round(settings.lower, 4),
        "upper": round(settings.upper, 4),
        "alpha": settings.alpha,
        "beta": settings.beta,
        "h0": settings.t0,
        "h1": settings.t1,
        "effect": round(sprt.sums.normalized, 4),
        "model": "normal GSPRT on pair scores; H0/H1 on the effect mean/sd per deal pair",
    }


def live_line(sprt: SprtStatus, max_deals: int) -> str:
    """One line while the test runs: deals played, the LLR between its bounds, the mean and its interval."""
    settings, sums = sprt.settings, sprt.sums
    text = (f"deal pairs {sums.n}/{max_deals}  LLR {sprt.llr:+.2f} "
            f"(H0 at {settings.lower:+.2f}, H1 at {settings.upper:+.2f})  mean {sums.mean:+.3f}")
    if sums.n < 2:
        return text
    half = t95(sums.n - 1) * math.sqrt(sums.variance * sums.n / (sums.n - 1) / sums.n)
    return text + f" (95% CI {sums.mean - half:+.3f} to {sums.mean + half:+.3f})"


def interval_text(report: dict[str, Any]) -> str:
    unit = report["unit"]
    if report["ci95"] is None:
        return f"(no interval from {report['units']} {unit}{'s' if report['units'] != 1 else ''})"
    low, high = report["ci95"]
    return f"(95% CI {low:+.3f} to {high:+.3f})"


def print_match_report(report: dict[str, Any]) -> None:
    """The report for a terminal; names and fault details come from bots and are shown literally."""
    console = Console()
    names = report["partnerships"]
    table = RichTable(title=plain(f"{names[0]} vs {names[1]}: {report['hands']} hands ({report['status']})"))
    table.add_column("")
    table.add_column("partnership")
    table.add_column("seats")
    table.add_column("hands won", justify="right")
    table.add_column("kots", justify="right")
    table.add_column("score", justify="right")
    for team in (0, 1):
        table.add_row("AB"[team], plain(names[team]), "0+2" if team == 0 else "1+3",
                      str(report["hands_won"][team]), str(report["kots"][team]), f"{report['score'][team]:g}")
    console.print(table)
    unit = report["unit"]
    won_a, won_b = report["units_won"]
    console.print(Text(f"mean difference per {unit}: {report['mean_difference']:+.3f} {interval_text(report)}; "
                       f"{unit}s won: A {won_a}, B {won_b}, drawn {report['units_drawn']} "
                       f"({report['won_share']:.0%} to A, a drawn {unit} counting half)"))
    winner = report["winner"]
    if winner:
        how = {"forfeit": "the other side forfeited", "interval": "the 95% interval excludes zero"}
        console.print(plain(f"winner: {winner} ({names['AB'.index(winner)]}): {how[report['decided_by']]}"))
    elif report["status"] == OutcomeStatus.VOID.value:
        console.print(plain("winner: none (void)"))
    else:
        console.print(plain(f"winner: none: {NO_DIFFERENCE} (the 95% interval includes zero or there is none)"))
    if "tens" in report:
        race = report["tens"]
        first = race["reached_by"]
        who = f"{first} ({names['AB'.index(first)]}) reached it first" if first else "nobody reached it first"
        console.print(plain(f"tens to {race['target']}: A {race['totals'][0]} - B {race['totals'][1]}: {who}"))
    if "sprt" in report:
        console.print(Text(sprt_text(report["sprt"], names)))
    for fault in report["faults"]:
        console.print(plain(f"fault: seat {fault['seat']} ({fault['bot']}) {fault['kind']}: {fault['detail']}"))
    if report["void_reason"]:
        console.print(plain(f"void: {report['void_reason']}"))
    console.print(plain(f"record: {report['record']}"), soft_wrap=True)  # a path to copy: never wrapped


def sprt_text(sprt: dict[str, Any], names: list[str]) -> str:
    """The verdict in one line, with the figures it rests on."""
    meaning = {
        "H1 accepted": f"A ({names[0]}) is better: the pairs favour an effect of {sprt['h1']:g} sd over "
                       f"{sprt['h0']:g}",
        "H0 accepted": f"A ({names[0]}) is not better by {sprt['h1']:g} sd: the pairs favour an effect of "
                       f"{sprt['h0']:g} sd over {sprt['h1']:g}",
        "undecided at the cap": f"no verdict within {sprt['max_deals']} deal pairs",
    }[sprt["verdict"]]
    return (f"SPRT: {sprt['verdict']} after {sprt['pairs']} deal pairs: {meaning}; "
            f"LLR {sprt['llr']:+.2f} (H0 at {sprt['lower']:+.2f}, H1 at {sprt['upper']:+.2f}; "
            f"H0 {sprt['h0']:g}, H1 {sprt['h1']:g}, alpha {sprt['alpha']:g}, beta {sprt['beta']:g}); "
            f"effect {sprt['effect']:+.3f} sd")
