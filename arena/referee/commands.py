"""``dehla match`` (local head-to-head) and ``dehla replay`` (read a match record)."""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table as RichTable
from rich.text import Text

from arena.console.data import BOT_LOOKUPS, RECORD_LOOKUP, data_root
from arena.console.errors import fail
from arena.console.options import MAX_BANK, MAX_PER_MOVE, EnumChoice, FiniteFloatRange, writable_folder
from arena.console.text import plain, visible
from arena.contract.faults import FaultKind, FaultPolicy
from arena.contract.status import OutcomeStatus
from arena.contract.time_control import MoveRelease, TimeControl
from arena.engine.errors import ArenaError
from arena.engine.match import FormatKind, MatchFormat
from arena.engine.outcome import HandResult
from arena.engine.rules import parse_option, rules_for
from arena.referee.launcher import partnership_name, resolve_partnership
from arena.referee.local import play_local_match
from arena.referee.match_page import print_match_page
from arena.referee.match_recorder import match_record_lines, read_match_record
from arena.referee.replay import checked_lines, print_replay
from arena.referee.stats import mean_interval
from arena.referee.table_values import MatchOutcome, TableConfig
from arena.sandbox import RunnerKind, SandboxError, runner_for

LOCAL_RECORDS = "local-matches"
"""The data folder's subfolder for ``dehla match`` records (the ladder's go to ``matches/``)."""



def default_records(data: Path | None) -> Path:
    """Where ``dehla match`` keeps records unless ``--records`` says: the data folder's ``local-matches/``."""
    return data_root(data) / LOCAL_RECORDS


@click.command("match")
@click.argument("partnership_a")
@click.argument("partnership_b")
@click.option("--deals", type=click.IntRange(min=1), default=20, show_default=True,
              help="Deals for --format duplicate (each is played twice).")
@click.option("--format", "format_text", default="duplicate", show_default=True,
              help="duplicate, hands:N or kots:K.")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--preset", default="dehla-pakad", show_default=True)
@click.option("--option", "options", multiple=True, metavar="NAME=VALUE", help="Override a rule option.")
@click.option("--policy", type=EnumChoice(FaultPolicy), default=FaultPolicy.FORFEIT.value, show_default=True)
@click.option("--per-move", type=FiniteFloatRange(min=0.001, max=MAX_PER_MOVE), default=1.0, show_default=True,
              help="Seconds.")
@click.option("--bank", type=FiniteFloatRange(min=0, max=MAX_BANK), default=30.0, show_default=True, help="Seconds.")
@click.option("--release", type=EnumChoice(MoveRelease), default=MoveRelease.ON_REPLY.value,
              show_default=True,
              help="When each move reaches the table: on-reply (as soon as it comes) or slot-end (at the end of the "
                   "mover's per-move slot, as the ladder plays, so reply times carry nothing to a partner; every "
                   "decision then takes --per-move).")
@click.option("--records", type=click.Path(file_okay=False, path_type=Path), default=None,
              help=f"Folder for the match record and bot logs (default: DATA/{LOCAL_RECORDS}).")
@click.option("--data", "data", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="The arena's data folder, for records and submitted bots "
                   "(default: $DEHLA_DATA or ~/.local/share/dehla-arena).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
@click.option("--runner", "runner_kind", type=EnumChoice(RunnerKind), default=RunnerKind.LOCAL.value,
              show_default=True, envvar="DEHLA_RUNNER",
              help="How bots are started: local processes, bubblewrap sandboxes (root) or docker containers.")
def match_command(partnership_a: str, partnership_b: str, deals: int, format_text: str, seed: int,
                  preset: str, options: tuple[str, ...], policy: FaultPolicy, per_move: float, bank: float,
                  release: MoveRelease, records: Path | None, as_json: bool, runner_kind: RunnerKind,
                  data: Path | None) -> None:
    """Play PARTNERSHIP_A against PARTNERSHIP_B with local bot processes.

    A partnership is a bot (partnered with a copy of itself) or BOT1+BOT2. A bot is a sample
    bot name (e.g. random) or a command line that starts a bot serving the protocol.
    """
    records = records if records is not None else default_records(data)
    try:
        lookups = click.get_current_context().meta.get(BOT_LOOKUPS, ())
        a = resolve_partnership(partnership_a, lookups)
        b = resolve_partnership(partnership_b, lookups)
        name_a, name_b = partnership_name(partnership_a, a), partnership_name(partnership_b, b)
        rules = rules_for(preset, dict(parse_option(o) for o in options))
        match_format = MatchFormat.parse(f"duplicate:{deals}" if format_text == "duplicate" else format_text)
    except ArenaError as exc:
        fail(str(exc))
    try:
        writable_folder(records)
    except OSError as exc:
        fail(f"--records {records}: cannot write a file there ({exc.strerror})")
    records = records.resolve()
    runner = runner_for(runner_kind)
    try:
        runner.check()
    except SandboxError as exc:
        fail(f"--runner {runner_kind}: {exc}")
    match_id = f"match-{time.strftime('%Y%m%d-%H%M%S')}-{seed}"
    config = TableConfig(match_id, rules, preset, match_format, seed,
                         TimeControl(per_move=per_move, bank=bank, release=release), policy)
    total = match_format.count * (2 if match_format.kind is FormatKind.DUPLICATE else 1)
    with Progress(TextColumn("{task.description}", markup=False), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(),
                  console=Console(stderr=True), transient=True, disable=as_json) as progress:
        task = progress.add_task(visible(f"{name_a} vs {name_b}"),
                                 total=total if match_format.kind is not FormatKind.KOTS else None)

        def advance(index: int, result: HandResult) -> None:
            progress.advance(task)

        outcome = asyncio.run(play_local_match(a, b, config, records, advance, runner))
    report = match_report(outcome, name_a, name_b, records / f"{match_id}.jsonl")
    if as_json:
        click.echo(json.dumps(report))
    else:
        print_match_report(report)
    print_match_page(data, records / f"{match_id}.jsonl", as_json=as_json)
    if outcome.status is OutcomeStatus.VOID:
        sys.exit(1)
    first = next((f for f in outcome.faults if f.kind is FaultKind.FAILED_START), None)
    if first is not None:
        fail(f"bot {first.bot!r} (seat {first.seat}) did not start: {first.detail}")


def match_report(outcome: MatchOutcome, name_a: str, name_b: str, record: Path) -> dict[str, Any]:
    """Everything ``dehla match`` prints, as JSON (partnership A is team 0)."""
    units = outcome.deal_scores or outcome.hand_values
    interval = mean_interval(units)
    hands_won = [sum(1 for h in outcome.hands if h.winner == t) for t in (0, 1)]
    kots = [sum(1 for h in outcome.hands if h.winner == t and h.kot) for t in (0, 1)]
    return {
        "match_id": outcome.match_id,
        "status": outcome.status.value,
        "partnerships": [name_a, name_b],
        "winner": None if outcome.winner_team is None else "AB"[outcome.winner_team],
        "score": list(outcome.score),
        "hands": len(outcome.hands),
        "hands_won": hands_won,
        "kots": kots,
        "unit": "deal pair" if outcome.deal_scores else "hand",
        "mean_difference": round(interval.mean, 4),
        "ci95": [round(interval.low, 4), round(interval.high, 4)],
        "won_share": round(interval.won_share, 4),
        "faults": [f.to_json() for f in outcome.faults],
        "substitutions": outcome.substitutions,
        "void_reason": outcome.void_reason,
        "record": str(record),
    }


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
    low, high = report["ci95"]
    console.print(Text(f"mean difference per {report['unit']}: {report['mean_difference']:+.3f} "
                       f"(95% CI {low:+.3f} to {high:+.3f}); {report['won_share']:.0%} of {report['unit']}s won "
                       f"by A"))
    winner = report["winner"]
    console.print(plain("winner: " + (f"{winner} ({names['AB'.index(winner)]})" if winner else "none (level)")))
    for fault in report["faults"]:
        console.print(plain(f"fault: seat {fault['seat']} ({fault['bot']}) {fault['kind']}: {fault['detail']}"))
    if report["void_reason"]:
        console.print(plain(f"void: {report['void_reason']}"))
    console.print(plain(f"record: {report['record']}"), soft_wrap=True)  # a path to copy: never wrapped


@click.command("replay")
@click.argument("record", type=click.Path(path_type=Path), required=False)
@click.option("--match", "match_id", type=click.IntRange(min=1), default=None,
              help="A ladder match's record, read from the store (instead of a RECORD file).")
@click.option("--data", type=click.Path(path_type=Path, file_okay=False), default=None,
              help="The arena's data folder, for --match (default: $DEHLA_DATA, else ~/.local/share/dehla-arena).")
@click.option("--hand", type=click.IntRange(min=1), default=None, help="Only hand N (counting from 1).")
@click.option("--seat", type=click.IntRange(0, 3), default=None,
              help="Only what seat S saw: its own cards and what was public (cards played, trumps revealed).")
@click.pass_context
def replay_command(ctx: click.Context, record: Path | None, match_id: int | None, data: Path | None,
                   hand: int | None, seat: int | None) -> None:
    """Print a match record (JSON Lines) hand by hand: a RECORD file, or a ladder match's (--match)."""
    if (record is None) == (match_id is None):
        fail("give a RECORD file or --match ID (one of them)")
    try:
        if match_id is not None:
            lookup = ctx.meta.get(RECORD_LOOKUP)
            if lookup is None:
                fail("--match needs the ladder (run `dehla replay` from the `dehla` command)")
            where, text = lookup(match_id, data)
            lines = checked_lines(Path(where), match_record_lines(text, where))
        else:
            assert record is not None
            lines = checked_lines(record, read_match_record(record))
    except ArenaError as exc:
        fail(str(exc))
    print_replay(Console(), lines, hand=hand, seat=seat)
