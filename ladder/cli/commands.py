"""``dehla ladder ...``, ``dehla submit`` and ``dehla bots``.

Bad input exits with code 2 and one line naming the problem; never a traceback.
"""

from __future__ import annotations

import functools
import json
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table as RichTable
from sqlalchemy import select
from sqlalchemy.exc import SQLAlchemyError

from arena.console.commands import dehla
from arena.console.data import DATA_ENV
from arena.console.errors import fail
from arena.console.options import MAX_PER_MOVE, EnumChoice, FiniteFloatRange, utf8_text
from arena.console.text import plain, visible
from arena.contract.time_control import MoveRelease
from arena.engine.errors import ArenaError
from arena.engine.match import MatchFormat
from arena.sandbox.runner import RunnerKind
from ladder.coordinator.folder_lock import CoordinatorBusy, CoordinatorLock, several_coordinators
from ladder.coordinator.leases import DEFAULT_LEASE_SECONDS, MAX_LEASE_SECONDS, MIN_LEASE_SECONDS, LeaseTerms
from ladder.coordinator.queue import DEFAULT_BANK, DEFAULT_DEALS, MatchSettings
from ladder.execution.cluster import ClusterError, ClusterSpec, cluster_factory
from ladder.execution.runners import DEFAULT_RUNNER, RUNNER_ENV, RUNNERS, RunnerUnavailable, check_runner
from ladder.rating import formatting
from ladder.rating.ratings import RatingEnv
from ladder.rating.scheduler import Mode, Scheduler
from ladder.store.database import Store, damaged
from ladder.store.ownership import owner_label
from ladder.store.paths import DATABASE_URL_ENV, LIVE_FOLDER, ArenaData
from ladder.store.read_model import active_versions, head_to_head, history, matches, partnerships, ranking
from ladder.store.schema import Author, Bot, BotVersion

if TYPE_CHECKING:
    from ladder.coordinator.loop import RunSummary, StopRule

F = TypeVar("F", bound=Callable[..., Any])


RELEASE_ENV = "DEHLA_MOVE_RELEASE"
"""``dehla ladder run --release`` from the environment (the test suite sets ``on-reply``, for speed)."""

MAX_LIMIT = 100_000
"""``ladder matches --limit``: a bound SQLite's 64-bit integers (and a terminal) can hold."""


def data_option(function: F) -> F:
    return click.option("--data", "data", type=click.Path(file_okay=False, path_type=Path), default=None,
                        help="The arena's data folder (default: $DEHLA_DATA or ~/.local/share/dehla-arena).")(function)


def runner_option(function: F) -> F:
    return click.option("--runner", "runner", type=EnumChoice(RUNNERS), default=DEFAULT_RUNNER.value, show_default=True,
                        envvar=RUNNER_ENV,
                        help="How submitted bots are started: the sandbox, containers (each version in its own "
                             "image), or (only for bots you trust) plain local processes.")(function)


def open_store(data: Path | None) -> Store:
    """The store, or exit 2 with one line. A damaged store is refused up front, by readers too:
    a damaged page can read as no rows, and an empty table is no answer to give."""
    try:
        store = Store.open(ArenaData.locate(data))
        store.check_integrity()
    except ArenaError as exc:
        fail(str(exc))
    return store


def store_errors(function: F) -> F:
    """A database error while the command runs (a damaged page found by a query, a lost
    connection) ends it with one line naming the store, never a traceback."""
    @functools.wraps(function)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        except SQLAlchemyError as exc:
            fail(str(damaged(ArenaData.locate(kwargs.get("data")).database_url, exc)))
    return guarded  # type: ignore[return-value]


def require_runner(runner: RunnerKind) -> None:
    try:
        check_runner(runner)
    except RunnerUnavailable as exc:
        fail(f"--runner {runner}: {exc}")


PIPED_WIDTH = 1000
"""Columns for a table written to a file or a pipe: wide enough that no cell is cut short (at
160 a long stored name was cut with an ellipsis once the other columns grew)."""


def console() -> Console:
    """The terminal's width, or a table as wide as its rows when the output goes to a file or a pipe."""
    return Console() if sys.stdout.isatty() else Console(width=PIPED_WIDTH)


def print_rows(title: str, rows: Sequence[Any], columns: Sequence[tuple[str, str]], as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps([row.to_json() for row in rows]))
        return
    table = RichTable(title=plain(title))
    for header, _ in columns:
        table.add_column(header)
    for row in rows:
        table.add_row(*(plain(cell(field, getattr(row, field))) for _, field in columns))
    console().print(table)


FIELD_FORMATS: dict[str, Callable[[Any], str]] = {
    "win_rate": formatting.percent, "score": formatting.scores, "mean_score": formatting.scores,
    "change": formatting.change}
"""How a column's numbers read when its field is not a plain float (``formatting``: the web's filters too)."""


def cell(field: str, value: Any) -> str:
    """A table's cell as the web shows the same value (``ladder/rating/formatting.py``): ratings,
    μ and σ to two decimals, rates as percentages, scores without needless decimals."""
    if value is None:
        return formatting.MISSING
    if field in FIELD_FORMATS:
        return FIELD_FORMATS[field](value)
    if isinstance(value, float):
        return formatting.fixed(value)
    return str(value)


@click.group("ladder")
def ladder_group() -> None:
    """The ladder: run rated matches between submitted bots and show the rankings."""


@ladder_group.command("run")
@click.option("--matches", "count", type=click.IntRange(min=1), default=None,
              help="Stop after this many matches (default 30 unless --until-stable or --forever).")
@click.option("--until-stable", is_flag=True, help="Stop once the ranking has settled.")
@click.option("--forever", is_flag=True, help="Run until Ctrl-C.")
@click.option("--workers", type=click.IntRange(min=1, max=256), default=1, show_default=True,
              help="Matches played at once (worker processes).")
@click.option("--cluster", default=None, metavar="tcp://HOST:PORT | local:N",
              help="Play the matches on a Dask cluster instead: a running scheduler (its workers started "
                   "with `dehla worker`), or local:N for N worker processes on this machine.")
@click.option("--mode", type=EnumChoice(Mode), default=Mode.SELF.value, show_default=True,
              help="self: each bot partners a copy of itself; mixed: partnerships drawn among all bots.")
@click.option("--deals", type=click.IntRange(min=1, max=500), default=DEFAULT_DEALS, show_default=True,
              help="Deals per match, each played twice (duplicate format).")
@click.option("--format", "format_text", default="duplicate", show_default=True,
              help="duplicate (--deals deal pairs, rated pair by pair), or one rated game a match: tens:N (first "
                   "team to N tens captured in all), hands:N or kots:K (docs/ladder.md).")
@click.option("--preset", default="dehla-pakad", show_default=True,
              help="Rules preset, the bidding games twenty-eight and twenty-nine included (`dehla rules`).")
@click.option("--per-move", type=FiniteFloatRange(min=0.01, max=MAX_PER_MOVE), default=1.0, show_default=True,
              help="Seconds.")
@click.option("--bank", type=FiniteFloatRange(min=0.0, max=MAX_PER_MOVE), default=DEFAULT_BANK, show_default=True,
              help="Seconds a seat may run over --per-move once in a match; under slot-end the whole bank is "
                   "spent by the overrun (docs/ladder.md).")
@click.option("--release", type=EnumChoice(MoveRelease), default=MoveRelease.SLOT_END.value,
              show_default=True, envvar=RELEASE_ENV,
              help="When each move reaches the table: slot-end (at the end of the mover's per-move slot, so reply "
                   "times carry nothing to a partner; every decision takes --per-move) or on-reply (as soon as it "
                   "comes: faster, but partners can signal through their timing; not for rated play).")
@click.option("--seed", type=int, default=None, help="Seed the scheduler (for a reproducible run).")
@click.option("--lease-seconds", type=FiniteFloatRange(min=MIN_LEASE_SECONDS, max=MAX_LEASE_SECONDS),
              default=DEFAULT_LEASE_SECONDS, show_default=True,
              help="How long a match stays leased to this run unless it renews the lease (every third of it); "
                   "a coordinator that dies leaves its matches to others after this long.")
@runner_option
@data_option
@store_errors
def run_command(count: int | None, until_stable: bool, forever: bool, workers: int, cluster: str | None, mode: Mode,
                deals: int, format_text: str, preset: str, per_move: float, bank: float, release: MoveRelease,
                seed: int | None, lease_seconds: float, runner: RunnerKind, data: Path | None) -> None:
    """Play rated matches (duplicate format unless --format) between the newest version of every bot."""
    from ladder.coordinator.loop import StopRule  # noqa: PLC0415 - the referee loads only to play

    if sum((count is not None, until_stable, forever)) > 1:
        fail("choose one of --matches, --until-stable and --forever")
    spec = _cluster_spec(cluster, workers)
    from arena.engine.bidding_rules import game_rules_for  # noqa: PLC0415

    try:
        match_format = MatchFormat.parse(f"duplicate:{deals}" if format_text == "duplicate" else format_text)
        match_format.check(game_rules_for(preset))
    except ArenaError as exc:
        fail(str(exc))
    if spec is None or spec.address is None:  # a remote cluster's workers check their own runner
        require_runner(runner)
    store = open_store(data)
    with store.reading() as session:
        bots = len(active_versions(session))
    if bots < 2:
        fail(f"the ladder needs at least two submitted bots that are not disabled (have {bots}): "
             f"`{dehla()} submit FOLDER` or `{dehla()} submit --sample random --sample heuristic`")
    lock = CoordinatorLock(store.data, several=several_coordinators(store.data.database_url))
    try:
        lock.acquire()
    except CoordinatorBusy as exc:
        fail(str(exc))
    try:
        summary = _run_ladder(store, StopRule(matches=None if until_stable or forever else (count or 30),
                                              until_stable=until_stable),
                              MatchSettings(preset=preset, match_format=match_format,
                                            runner=runner, per_move=per_move, bank=bank, release=release), mode,
                              workers, seed,
                              LeaseTerms(lease_seconds), spec)
    except ClusterError as exc:
        fail(str(exc))
    finally:
        lock.release()
    state = "interrupted; " if summary.interrupted else ""
    click.echo(f"{state}{summary.counted} matches counted ({summary.voided} void), {summary.requeued} back in the "
               f"queue, {summary.failed} failed" + ("; ranking stable" if summary.stable else ""), err=True)
    print_rows("Ladder", ranking_rows(store), STANDING_COLUMNS, False)
    click.echo(browser_hint(), err=True)
    if summary.interrupted and not forever:
        sys.exit(INTERRUPTED_EXIT)  # stopped before its goal: the shell's Ctrl-C convention


def _cluster_spec(cluster: str | None, workers: int) -> ClusterSpec | None:
    """``--cluster``'s value checked before anything starts; with ``--workers`` it is one or the other."""
    if cluster is None:
        return None
    context = click.get_current_context()
    if context.get_parameter_source("workers") is not click.core.ParameterSource.DEFAULT:
        fail(f"--workers {workers} and --cluster: choose one (--workers: a local process pool; --cluster: the "
             "cluster's workers, one match per slot)")
    try:
        return ClusterSpec.parse(cluster)
    except ClusterError as exc:
        fail(str(exc))


def worker_environment(data: ArenaData) -> dict[str, str]:
    """What a local cluster's workers need to find this run's store, whatever option or variable
    named it (the job names no path of the coordinator's, nor any secret)."""
    return {DATA_ENV: str(data.root), DATABASE_URL_ENV: data.database_url}


def _run_ladder(store: Store, stop: StopRule, settings: MatchSettings, mode: Mode, workers: int,
                seed: int | None, terms: LeaseTerms, cluster: ClusterSpec | None = None) -> RunSummary:
    """The run itself, with a progress bar on stderr (the caller holds the coordinator lock)."""
    from ladder.coordinator.loop import LadderRun, RunProgress  # noqa: PLC0415
    from ladder.execution.executors import pool_factory  # noqa: PLC0415 - the referee loads only to play

    env = RatingEnv()
    rng = random.Random(seed)
    console = Console(stderr=True)
    with Progress(TextColumn("{task.description}", markup=False), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(),
                  console=console, transient=False) as progress:
        task = progress.add_task("ladder", total=stop.matches)

        def advance(update: RunProgress) -> None:
            last = update.last
            note = "" if last is None else f" (last: m{last.match_id} {last.status})"
            progress.update(task, completed=update.counted, description=visible(f"ladder{note}"))

        live = store.data.root / LIVE_FOLDER
        if cluster is None:  # the pool's workers share this machine with `dehla serve`: it shows their tables
            factory = pool_factory(workers)
            settings = replace(settings, live_folder=str(live))
        else:  # a cluster's workers send their tables to this run, which writes them there (live_relay)
            factory = cluster_factory(cluster, worker_environment(store.data), live)
        run = LadderRun(store, env, Scheduler(env, mode, random.Random(rng.getrandbits(64))), settings,
                        factory, workers=workers, rng=rng, on_progress=advance, terms=terms)
        return run.run(stop)


def browser_hint() -> str:
    return f"In a browser: `{dehla()} serve` shows these rankings, the matches and their replays (it prints where)."

INTERRUPTED_EXIT = 130
"""``dehla ladder run`` stopped by Ctrl-C before reaching ``--matches`` or stability (128 + SIGINT).
Ctrl-C is how ``--forever`` ends, so that run exits 0."""

STANDING_COLUMNS = [("rank", "rank"), ("bot", "bot"), ("version", "version"), ("rating", "rating"), ("mu", "mu"),
                    ("sigma", "sigma"), ("matches", "matches"), ("win rate", "win_rate"), ("faults", "faults"),
                    ("last played", "last_played"), ("note", "note")]


def nothing_submitted(store: Store) -> str:
    """What an empty store says instead of an empty table: how to fill it."""
    return (f"no bots submitted yet in {store.data.root}: `{dehla()} submit FOLDER` (a folder with a bot.toml) or "
            f"`{dehla()} submit --sample random --sample heuristic`")


def ranking_rows(store: Store, all_versions: bool = False) -> list[Any]:
    with store.reading() as session:
        return list(ranking(session, all_versions))


@ladder_group.command("show")
@click.option("--json", "as_json", is_flag=True)
@click.option("--all", "all_versions", is_flag=True, help="Include older versions.")
@data_option
@store_errors
def show_command(as_json: bool, all_versions: bool, data: Path | None) -> None:
    """Rankings by conservative rating (mu - 3 sigma)."""
    store = open_store(data)
    rows = ranking_rows(store, all_versions)
    if not rows and not as_json:
        click.echo(nothing_submitted(store))
        return
    print_rows("Ladder (rating = mu - 3 sigma)", rows, STANDING_COLUMNS, as_json)


@ladder_group.command("partnerships")
@click.option("--json", "as_json", is_flag=True)
@data_option
@store_errors
def partnerships_command(as_json: bool, data: Path | None) -> None:
    """Partnerships (unordered pairs of versions) rated as units."""
    store = open_store(data)
    with store.reading() as session:
        rows = partnerships(session)
    print_rows("Partnerships", rows, [("rank", "rank"), ("partnership", "partnership"), ("rating", "rating"),
                                      ("mu", "mu"), ("sigma", "sigma"), ("matches", "matches"),
                                      ("win rate", "win_rate"), ("last played", "last_played")], as_json)


@ladder_group.command("history")
@click.argument("bot", callback=utf8_text)
@click.option("--json", "as_json", is_flag=True)
@data_option
@store_errors
def history_command(bot: str, as_json: bool, data: Path | None) -> None:
    """BOT's rating after each of its matches."""
    store = open_store(data)
    with store.reading() as session:
        if session.scalar(select(Bot.id).where(Bot.name == bot)) is None:
            fail(f"unknown bot {bot!r} (see `{dehla()} bots`)")
        rows = history(session, bot)
    print_rows(f"History of {bot}", rows, [("match", "match_id"), ("version", "version"), ("result", "outcome"),
                                           ("rating", "rating"), ("change", "change"), ("mu", "mu"),
                                           ("sigma", "sigma"), ("when", "when")], as_json)


@ladder_group.command("head-to-head")
@click.option("--bot", default=None, callback=utf8_text, help="Only this bot's rows: its record against each opponent.")
@click.option("--json", "as_json", is_flag=True)
@data_option
@store_errors
def head_to_head_command(bot: str | None, as_json: bool, data: Path | None) -> None:
    """How each pair of bots did against each other in rated matches on opposite sides (the web's
    head-to-head table): both ways round, most matches first."""
    store = open_store(data)
    with store.reading() as session:
        if bot is not None and session.scalar(select(Bot.id).where(Bot.name == bot)) is None:
            fail(f"unknown bot {bot!r} (see `{dehla()} bots`)")
        rows = head_to_head(session, bot)
    if not rows and not as_json:
        click.echo(f"no two bots have met in a rated match yet (`{dehla()} ladder run` plays them)")
        return
    print_rows("Head to head (mean score: the bot's side – the opponent's)", rows,
               [("bot", "bot"), ("opponent", "opponent"), ("matches", "matches"), ("W–D–L", "record"),
                ("win rate", "win_rate"), ("mean score", "mean_score")], as_json)


@ladder_group.command("matches")
@click.option("--bot", default=None, callback=utf8_text, help="Only matches this bot played.")
@click.option("--limit", type=click.IntRange(min=1, max=MAX_LIMIT), default=50, show_default=True,
              help=f"At most this many matches (1 to {MAX_LIMIT}).")
@click.option("--json", "as_json", is_flag=True)
@data_option
@store_errors
def matches_command(bot: str | None, limit: int, as_json: bool, data: Path | None) -> None:
    """Recent matches with their record (replay with `dehla replay --match ID`)."""
    store = open_store(data)
    with store.reading() as session:
        if bot is not None and session.scalar(select(Bot.id).where(Bot.name == bot)) is None:
            fail(f"unknown bot {bot!r} (see `{dehla()} bots`)")
        rows = matches(session, bot, limit)
    print_rows(f"Matches (replay one with `{dehla()} replay --match ID`)", rows,
               [("match", "match_id"), ("status", "shown_status"), ("A (seats 0+2)", "team_a"),
                ("B (seats 1+3)", "team_b"), ("score", "score"), ("winner", "winner"), ("faults", "faults"),
                ("record", "record"), ("voided because", "voided")], as_json)


@click.command("submit")
@click.argument("folder", required=False, type=click.Path(path_type=Path))
@click.option("--sample", "samples", multiple=True, metavar="NAME",
              help="Submit a sample bot (random, heuristic, search, expert) in its folder form; repeatable.")
@click.option("--server", default=None, metavar="URL",
              help="Upload FOLDER to the arena at URL (validated there) instead of submitting it here.")
@click.option("--token", default=None, envvar="DEHLA_TOKEN", metavar="TOKEN",
              help="With --server: your API token (default: $DEHLA_TOKEN). Never printed.")
@click.option("--no-wait", is_flag=True, help="With --server: return once uploaded, with the upload's status URL.")
@runner_option
@data_option
@store_errors
def submit_command(folder: Path | None, samples: tuple[str, ...], server: str | None, token: str | None,
                   no_wait: bool, runner: RunnerKind, data: Path | None) -> None:
    """Validate a bot FOLDER (with bot.toml), store it as a version and prove it plays.

    With --server URL the folder is packed and uploaded to that arena, which validates it."""
    from ladder.submission.submit import SubmissionRejected, submit  # noqa: PLC0415
    from ladder.versions.folders import FolderError, sample_folder  # noqa: PLC0415 - the referee loads only to play

    if (folder is None) == (not samples):
        fail("give a bot FOLDER or --sample NAME (not both)")
    if server is not None:
        if folder is None:
            fail("--server uploads a bot FOLDER (the sample bots are the arena's own: --sample runs locally)")
        from ladder.cli.remote_submit import remote_submit  # noqa: PLC0415 - the HTTP client loads only to upload

        remote_submit(folder, server, token, no_wait)
        return
    if no_wait:
        fail("--no-wait needs --server (a local submission always waits for its validation)")
    require_runner(runner)
    store = open_store(data)
    try:
        folders = [folder] if folder is not None else [sample_folder(name, store.data.samples) for name in samples]
    except FolderError as exc:
        fail(str(exc))
    env = RatingEnv()
    for path in folders:
        try:
            result = submit(store, env, path, runner)
        except SubmissionRejected as exc:
            click.echo(f"error: rejected {visible(path)}: {visible(exc)}", err=True)
            if exc.log_tail.strip():
                click.echo("--- the bot's output (tail) ---", err=True)
                click.echo(visible(exc.log_tail.rstrip(), multiline=True), err=True)
            sys.exit(2)
        except (ArenaError, OSError) as exc:
            fail(f"{path}: {exc}")
        if result.created:
            click.echo(visible(f"accepted {result.bot} #{result.number} ({result.label}) {result.content_hash[:12]}"))
        else:
            click.echo(visible(f"unchanged: {result.bot} #{result.number} ({result.label}) is already stored "
                               f"({result.content_hash[:12]})"))


@click.command("bots")
@click.option("--json", "as_json", is_flag=True)
@data_option
@store_errors
def bots_command(as_json: bool, data: Path | None) -> None:
    """Submitted bots and their versions."""
    store = open_store(data)
    with store.reading() as session:
        rows = [{"bot": name, "author": owner_label(owner), "version": v.number, "label": v.label,
                 "hash": v.content_hash[:12], "submitted": v.created_at.isoformat(timespec="seconds"),
                 "matches": v.matches, "path": v.path}
                for v, name, owner in session.execute(
                    select(BotVersion, Bot.name, Author.name).join(Bot, Bot.id == BotVersion.bot_id)
                    .outerjoin(Author, Author.id == Bot.owner_id).order_by(Bot.name, BotVersion.number))]
    if as_json:
        click.echo(json.dumps(rows))
        return
    if not rows:
        click.echo(nothing_submitted(store))
        return
    table = RichTable(title=plain(f"Bots in {store.data.root}"))
    for header in ("bot", "author", "version", "label", "hash", "submitted", "matches"):
        table.add_column(header)
    for row in rows:
        table.add_row(*(plain(row[k]) for k in ("bot", "author", "version", "label", "hash", "submitted", "matches")))
    console().print(table)
