"""``dehla match`` (local head-to-head) and ``dehla replay`` (read a match record)."""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from arena.console.data import BOT_LOOKUPS, RECORD_LOOKUP, data_root
from arena.console.errors import fail
from arena.console.options import EnumChoice, FiniteFloatRange, writable_folder
from arena.console.text import visible
from arena.contract.faults import FaultKind, FaultPolicy
from arena.contract.status import OutcomeStatus
from arena.contract.time_control import MoveRelease, TimeControl
from arena.engine.bidding_rules import BIDDING_PRESETS, bidding_rules_for
from arena.engine.errors import ArenaError
from arena.engine.match import FormatKind, MatchFormat
from arena.engine.rules import parse_option, rules_for
from arena.referee.launcher import BotCommand, partnership_name, resolve_partnership
from arena.referee.local import play_local_match, play_local_pairs
from arena.referee.match_page import print_live_page, print_match_page
from arena.referee.match_recorder import match_record_lines, read_match_record
from arena.referee.match_report import live_line, match_report, print_match_report
from arena.referee.replay import checked_lines, print_replay
from arena.referee.sprt import SequentialTest, SprtSettings, SprtSettingsError
from arena.referee.table_options import table_options
from arena.referee.table_values import AnyResult, MatchOutcome, PlayedPair, TableConfig
from arena.sandbox import Runner, RunnerKind, SandboxError, runner_for

LOCAL_RECORDS = "local-matches"
"""The data folder's subfolder for ``dehla match`` records (the ladder's go to ``matches/``)."""
MAX_CONCURRENCY = 64
"""Tables at once in each of a duplicate match's two rooms (each runs four bot processes), or
tournament matches at once."""
MAX_SPRT_DEALS = 1_000_000
MAX_EFFECT = 10.0
"""Standard deviations per deal pair: an effect beyond this is a typo."""
LIVE_EVERY = 10
"""Deal pairs between the SPRT's live lines when stderr is not a terminal."""
OPEN_UNIT = FiniteFloatRange(min=0, max=1, min_open=True, max_open=True)
Partnership = tuple[BotCommand, BotCommand]



def default_records(data: Path | None) -> Path:
    """Where ``dehla match`` keeps records unless ``--records`` says: the data folder's ``local-matches/``."""
    return data_root(data) / LOCAL_RECORDS


@click.command("match")
@click.argument("partnership_a")
@click.argument("partnership_b")
@click.option("--deals", type=click.IntRange(min=1), default=20, show_default=True,
              help="Deals for --format duplicate (each is played twice).")
@click.option("--format", "format_text", default="duplicate", show_default=True,
              help="duplicate, hands:N, kots:K or tens:N (first team to N tens captured in all, docs/rules.md).")
@table_options
@click.option("--records", type=click.Path(file_okay=False, path_type=Path), default=None,
              help=f"Folder for the match record and bot logs (default: DATA/{LOCAL_RECORDS}).")
@click.option("--data", "data", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="The arena's data folder, for records and submitted bots "
                   "(default: $DEHLA_DATA or ~/.local/share/dehla-arena).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
@click.option("--runner", "runner_kind", type=EnumChoice(RunnerKind), default=RunnerKind.LOCAL.value,
              show_default=True, envvar="DEHLA_RUNNER",
              help="How bots are started: local processes, bubblewrap sandboxes (root) or docker containers.")
@click.option("--concurrency", type=click.IntRange(min=1, max=MAX_CONCURRENCY), default=1, show_default=True,
              help="Tables at once in each of the two rooms, each with its own four bots (duplicate format "
                   "only: 8 x K bots); the result and the record do not depend on it.")
@click.option("--sprt", is_flag=True,
              help="Play until a sequential test decides whether A is better than B (docs/writing-a-bot.md).")
@click.option("--alpha", type=OPEN_UNIT, default=SprtSettings().alpha, show_default=True,
              help="--sprt: the chance of accepting H1 when H0 holds (a false positive).")
@click.option("--beta", type=OPEN_UNIT, default=SprtSettings().beta, show_default=True,
              help="--sprt: the chance of accepting H0 when H1 holds (a false negative).")
@click.option("--h0", type=FiniteFloatRange(min=-MAX_EFFECT, max=MAX_EFFECT), default=0.0, show_default=True,
              help="--sprt: H0's effect of A over B, in standard deviations of a deal pair's score.")
@click.option("--h1", type=FiniteFloatRange(min=-MAX_EFFECT, max=MAX_EFFECT), default=0.2, show_default=True,
              help="--sprt: H1's effect (above --h0): the margin by which A counts as better.")
@click.option("--max-deals", type=click.IntRange(min=1, max=MAX_SPRT_DEALS), default=1000, show_default=True,
              help="--sprt: stop undecided after this many deal pairs.")
def match_command(partnership_a: str, partnership_b: str, deals: int, format_text: str, seed: int,
                  preset: str, options: tuple[str, ...], policy: FaultPolicy, per_move: float, bank: float,
                  release: MoveRelease, records: Path | None, as_json: bool, runner_kind: RunnerKind,
                  data: Path | None, concurrency: int, sprt: bool, alpha: float, beta: float, h0: float,
                  h1: float, max_deals: int) -> None:
    """Play PARTNERSHIP_A against PARTNERSHIP_B with local bot processes.

    A partnership is a bot (partnered with a copy of itself) or BOT1+BOT2. A bot is a sample
    bot name (e.g. random) or a command line that starts a bot serving the protocol.
    """
    settings = sprt_settings(sprt, alpha, beta, h0, h1, format_text)
    if sprt:
        deals = max_deals
    records = records if records is not None else default_records(data)
    try:
        lookups = click.get_current_context().meta.get(BOT_LOOKUPS, ())
        a = resolve_partnership(partnership_a, lookups)
        b = resolve_partnership(partnership_b, lookups)
        name_a, name_b = partnership_name(partnership_a, a), partnership_name(partnership_b, b)
        overrides = dict(parse_option(o) for o in options)
        rules = bidding_rules_for(preset, overrides) if preset in BIDDING_PRESETS else rules_for(preset, overrides)
        match_format = MatchFormat.parse(f"duplicate:{deals}" if format_text == "duplicate" else format_text)
        match_format.check(rules)
    except ArenaError as exc:
        fail(str(exc))
    if concurrency > 1 and match_format.kind is not FormatKind.DUPLICATE:
        raise click.BadParameter(f"{concurrency}: only duplicate matches are played on several tables "
                                 f"(not --format {format_text})", param_hint="'--concurrency'")
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
    test = SequentialTest(settings, max_deals) if settings is not None else None
    record = records / f"{match_id}.jsonl"
    print_live_page(data, record, as_json=as_json)
    if match_format.kind is FormatKind.DUPLICATE:
        outcome = play_pairs(a, b, config, records, concurrency, runner, test, f"{name_a} vs {name_b}", as_json)
    else:
        outcome = play_hands(a, b, config, records, runner, f"{name_a} vs {name_b}", as_json)
    report = match_report(outcome, name_a, name_b, record, test.current if test else None,
                          max_deals if test else None, match_format)
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


def sprt_settings(sprt: bool, alpha: float, beta: float, h0: float, h1: float,
                  format_text: str) -> SprtSettings | None:
    """The test's settings with ``--sprt``; the SPRT's options without it are a mistake, said so."""
    ctx = click.get_current_context()
    if not sprt:
        given = [name for name in ("alpha", "beta", "h0", "h1", "max_deals")
                 if ctx.get_parameter_source(name) is click.core.ParameterSource.COMMANDLINE]
        if given:
            raise click.UsageError(f"--{given[0].replace('_', '-')} is an option of --sprt (add --sprt)")
        return None
    if ctx.get_parameter_source("deals") is click.core.ParameterSource.COMMANDLINE:
        raise click.UsageError("--sprt plays until the test decides: give --max-deals, not --deals")
    if format_text != "duplicate":
        raise click.UsageError(f"--sprt tests deal pairs until it decides: leave --format at duplicate "
                               f"(not {format_text}) and cap the deals with --max-deals")
    try:
        return SprtSettings(alpha, beta, h0, h1)
    except SprtSettingsError as exc:
        raise click.UsageError(f"--sprt: {exc} (--alpha, --beta, --h0, --h1)") from None


def play_pairs(a: Partnership, b: Partnership, config: TableConfig, records: Path, tables: int, runner: Runner,
               test: SequentialTest | None, title: str, quiet: bool) -> MatchOutcome:
    """A duplicate match as deal pairs on ``tables`` tables; with ``test``, until it decides. Live:
    a progress bar on a terminal (the SPRT's figures in its title), else with ``test`` a line to
    stderr every ``LIVE_EVERY`` pairs."""
    count = config.match_format.count
    err = Console(stderr=True)
    with Progress(TextColumn("{task.description}", markup=False), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=err, transient=True, disable=quiet) as progress:
        task = progress.add_task(visible(title), total=count)

        def on_pair(pair: PlayedPair) -> bool:
            progress.advance(task)
            if test is None:
                return True
            status = test.add(pair.score)
            line = live_line(status, count)
            progress.update(task, description=visible(f"{title}  {line}"))
            if not quiet and not err.is_terminal and (status.pairs % LIVE_EVERY == 0 or test.done):
                click.echo(line, err=True)
            return not test.done

        return asyncio.run(play_local_pairs(a, b, config, records, tables, on_pair, None, runner, records))


def play_hands(a: Partnership, b: Partnership, config: TableConfig, records: Path, runner: Runner, title: str,
               quiet: bool) -> MatchOutcome:
    """A match in the hands:N, kots:K or tens:N format at one table."""
    match_format = config.match_format
    with Progress(TextColumn("{task.description}", markup=False), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=Console(stderr=True), transient=True, disable=quiet) as progress:
        task = progress.add_task(visible(title),
                                 total=match_format.count if match_format.kind is FormatKind.HANDS else None)

        def advance(index: int, result: AnyResult) -> None:
            progress.advance(task)

        return asyncio.run(play_local_match(a, b, config, records, advance, runner, records))


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
