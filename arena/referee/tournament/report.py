"""What ``dehla tournament`` prints: the cross table and the ordering, as JSON and for a terminal.
Names and fault details come from the command line or from bots: they are printed literally."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table as RichTable
from rich.text import Text

from arena.console.serving import local_match_url
from arena.console.text import plain
from arena.contract.status import OutcomeStatus
from arena.engine.bidding_rules import BIDDING_PRESETS
from arena.referee.stats import MeanInterval
from arena.referee.tournament.ordering import Ordering, fit_ordering
from arena.referee.tournament.plan import PairingResult, TournamentPlan
from arena.referee.tournament.standings import CrossTable, PairCount, cross_table


def standings_of(plan: TournamentPlan, results: dict[int, PairingResult]) -> tuple[CrossTable, Ordering]:
    """The cross table of the finished pairings and the ordering fitted on it (over the plan's pairings)."""
    names = plan.names
    table = cross_table(names, (results[p.index].as_match_result(plan.deals) for p in plan.pairings
                                if p.index in results))
    points = {key: cell.pairs.points for key, cell in table.cells.items()}
    ordering = fit_ordering(names, points, [(p.a, p.b) for p in plan.pairings])
    return table, ordering


def pair_unit(preset: str) -> str:
    """What a deal pair's score counts: a bidding game's game points, else the hands' values
    (1 per hand won, plus 1 per kot, or the hand's points)."""
    return "game points" if preset in BIDDING_PRESETS else "hand values"


def _bound(value: float) -> float | None:
    return round(value, 4) if math.isfinite(value) else None


def _interval_json(interval: MeanInterval) -> dict[str, Any]:
    if interval.n == 0:
        return {"deal_pairs": 0, "mean": None, "ci95": [None, None]}
    return {"deal_pairs": interval.n, "mean": round(interval.mean, 4),
            "ci95": [_bound(interval.low), _bound(interval.high)]}


def _pairs_json(pairs: PairCount) -> dict[str, int]:
    return {"won": pairs.won, "drawn": pairs.drawn, "lost": pairs.lost}


def tournament_report(plan: TournamentPlan, folder: Path, results: dict[int, PairingResult], records: Path,
                      data: Path | None = None) -> dict[str, Any]:
    """Everything ``dehla tournament`` prints, as JSON: each match's record in ``records`` and,
    while a ``dehla serve`` runs for the data folder ``data``, its page."""
    table, ordering = standings_of(plan, results)
    matches = []
    for pairing in plan.pairings:
        result = results.get(pairing.index)
        if result is None:
            matches.append({"pairing": pairing.index, "a": pairing.a, "b": pairing.b, "status": "pending"})
            continue
        forfeit = result.forfeit_team
        record = records / f"{pairing.record_id(plan.name)}.jsonl"
        matches.append({
            "pairing": pairing.index, "a": pairing.a, "b": pairing.b, "status": result.status.value,
            "hands": result.hands, "deal_scores": list(result.deal_scores),
            "forfeited_by": None if forfeit is None else (pairing.a, pairing.b)[forfeit],
            "faults": [f.model_dump(mode="json") for f in result.faults], "void_reason": result.void_reason,
            "record": str(record), "page": local_match_url(data, record),
        })
    cells = []
    for bot in plan.names:
        for opponent in plan.names:
            cell = table.cell(bot, opponent)
            if cell is not None:
                cells.append({"bot": bot, "opponent": opponent, "matches": cell.matches,
                              **_interval_json(cell.interval), **_pairs_json(cell.pairs),
                              "forfeits": cell.forfeits, "void": cell.void})
    standings = []
    for rank, rating in enumerate(ordering.ratings, start=1):
        totals = table.totals[rating.bot]
        standings.append({
            "rank": rank, "bot": rating.bot, "rating": round(rating.elo, 1), "sd": round(rating.sd, 1),
            "superiority": None if rating.superiority is None else round(rating.superiority, 4),
            "matches": totals.matches, **_pairs_json(totals.pairs), **_interval_json(totals.interval),
            "faults": totals.faults, "forfeits": totals.forfeits,
        })
    return {
        "tournament": plan.name, "folder": str(folder),
        "complete": len(results) == len(plan.pairings), "pairings_done": len(results),
        "pairings": len(plan.pairings), "plan": plan.model_dump(mode="json"), "unit": pair_unit(plan.preset),
        "matches": matches,
        "cross_table": cells, "standings": standings, "model": ordering.model,
    }


def _cell_text(cell: dict[str, Any]) -> str:
    if cell["deal_pairs"] == 0:
        mean = "no pair played"
    else:
        low, high = cell["ci95"]
        mean = f"{cell['mean']:+.2f}" + ("" if low is None or high is None else f" ±{(high - low) / 2:.2f}")
    line = f"{cell['won']}-{cell['drawn']}-{cell['lost']}"
    if cell["forfeits"]:
        line += " forfeit"
    if cell["void"]:
        line += " void"
    return f"{mean}\n{line}"


def print_tournament_report(report: dict[str, Any], console: Console | None = None) -> None:
    """The cross table (rows in the ordering, each cell from the row's side: mean per deal pair ±
    half its 95% interval, then pairs won-drawn-lost) and the ordering."""
    console = console or Console()
    standings = report["standings"]
    order = [row["bot"] for row in standings]
    cells = {(c["bot"], c["opponent"]): c for c in report["cross_table"]}
    title = (f"tournament {report['tournament']}: {report['pairings_done']} of {report['pairings']} pairings "
             f"played, {report['plan']['deals']} deal pairs each, in {report['unit']}")
    cross = RichTable(title=plain(title), show_lines=True)
    cross.add_column("")
    cross.add_column("partnership")
    for rank in range(1, len(order) + 1):
        cross.add_column(str(rank), justify="right")
    for rank, bot in enumerate(order, start=1):
        line: list[str | Text] = [str(rank), plain(bot)]
        for opponent in order:
            cell = cells.get((bot, opponent))
            line.append("" if cell is None else _cell_text(cell))
        cross.add_row(*line)
    console.print(cross)
    ordering = RichTable(title="ordering (Bradley-Terry on deal pairs)")
    for heading in ("", "partnership", "rating", "sd", "P(> next)", "pairs W-D-L", "mean/pair", "faults"):
        ordering.add_column(heading, justify="left" if heading == "partnership" else "right")
    for row in standings:
        superiority = "" if row["superiority"] is None else f"{row['superiority']:.0%}"
        mean = "" if row["mean"] is None else f"{row['mean']:+.2f}"
        ordering.add_row(str(row["rank"]), plain(row["bot"]), f"{row['rating']:+.0f}", f"{row['sd']:.0f}",
                         superiority, f"{row['won']}-{row['drawn']}-{row['lost']}", mean, str(row["faults"]))
    console.print(ordering)
    console.print(Text(f"model: {report['model']}"))
    for match in report["matches"]:
        for fault in match.get("faults", []):
            console.print(plain(f"fault: pairing {match['pairing']}, seat {fault['seat']} ({fault['bot']}) "
                                f"{fault['kind']}: {fault['detail']}"))
        if match["status"] == OutcomeStatus.VOID.value:
            console.print(plain(f"void: pairing {match['pairing']}: {match['void_reason']}"))
        if match.get("page"):
            console.print(plain(f"match page: pairing {match['pairing']} ({match['a']} vs {match['b']}): "
                                f"{match['page']}"), soft_wrap=True)
    console.print(plain(f"folder: {report['folder']}"), soft_wrap=True)
