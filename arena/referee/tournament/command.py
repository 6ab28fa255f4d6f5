"""``dehla tournament``: several partnerships, each pairing one duplicate match, several at once,
one progress display; a cross table and an ordering at the end. Interrupted, it keeps every
finished match, and ``--resume`` plays the rest."""

from __future__ import annotations

import asyncio
import json
import os
import shlex
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click
from click.core import ParameterSource
from rich.console import Console

from arena.console.commands import dehla
from arena.console.data import BOT_LOOKUPS, data_root
from arena.console.errors import fail
from arena.console.options import EnumChoice, writable_folder
from arena.console.serving import LOCAL_MATCHES
from arena.console.text import plain
from arena.contract.faults import FaultPolicy
from arena.contract.messages import AnyRules
from arena.contract.time_control import MoveRelease
from arena.engine.bidding_rules import game_rules_for
from arena.engine.errors import ArenaError
from arena.engine.rules import parse_option
from arena.referee.launcher import NameLookup, partnership_name, resolve_partnership
from arena.referee.table_options import table_options
from arena.referee.tournament.plan import (
    MAX_ENTRANTS,
    NAME_PATTERN,
    PLAN_FILE,
    Entrant,
    TournamentError,
    TournamentPlan,
    check_name,
    create_plan,
    make_pairings,
    read_plan,
    read_results,
    tournaments_root,
)
from arena.referee.tournament.play import Partnership, TournamentSetup, play_pairings
from arena.referee.tournament.progress import ProgressDisplay
from arena.referee.tournament.report import print_tournament_report, tournament_report
from arena.sandbox import RunnerKind, SandboxError, runner_for

MAX_CONCURRENCY = 256
INTERRUPTED_EXIT = 130
"""A shell's code for a command ended by Ctrl-C."""
PLAN_OPTIONS = ("gauntlet", "deals", "seed", "preset", "options", "per_move", "bank", "release", "policy")
"""The options a plan fixes: given again with ``--resume``, they must say what the plan says."""


@click.command("tournament")
@click.argument("bots", nargs=-1, metavar="BOT...")
@click.option("--gauntlet", default=None, metavar="BOT",
              help="Play this bot against each of the others (who do not meet each other).")
@click.option("--deals", type=click.IntRange(min=1), default=20, show_default=True,
              help="Deal pairs per pairing (each deal is played twice, the cards swapped).")
@table_options
@click.option("--concurrency", type=click.IntRange(min=1, max=MAX_CONCURRENCY), default=None,
              help="Pairings played at once (default: the number of cores).")
@click.option("--name", default=None, help="The tournament's name: its folder DATA/tournaments/NAME "
                                           "(default: the date and time).")
@click.option("--resume", default=None, metavar="NAME|FOLDER",
              help="Play the unfinished pairings of this tournament (its plan decides what is played).")
@click.option("--data", "data", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="The arena's data folder (default: $DEHLA_DATA or ~/.local/share/dehla-arena).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
@click.option("--runner", "runner_kind", type=EnumChoice(RunnerKind), default=RunnerKind.LOCAL.value,
              show_default=True, envvar="DEHLA_RUNNER", help="How bots are started (as `dehla match`).")
@click.pass_context
def tournament_command(ctx: click.Context, bots: tuple[str, ...], gauntlet: str | None, deals: int, seed: int,
                       preset: str, options: tuple[str, ...], policy: FaultPolicy, per_move: float, bank: float,
                       release: MoveRelease, concurrency: int | None, name: str | None, resume: str | None,
                       data: Path | None, as_json: bool, runner_kind: RunnerKind) -> None:
    """Play every pairing of BOT... (or --gauntlet BOT against each), each a duplicate match.

    A BOT is what `dehla match` takes: a sample bot, a submitted bot, a bot folder, a command
    line, or BOT1+BOT2 for a mixed partnership. Every pairing plays the same deals.
    """
    lookups: Sequence[NameLookup] = ctx.meta.get(BOT_LOOKUPS, ())
    root = tournaments_root(data_root(data))
    try:
        if resume is not None:
            if name is not None:
                fail("give --name for a new tournament or --resume for an old one, not both")
            folder = locate(root, resume)
            plan = read_plan(folder)
            check_resume(ctx, plan, folder)
            partnerships: dict[str, Partnership] = {}
        else:
            plan, partnerships = new_plan(bots, gauntlet, name or default_name(root), deals, seed, preset, options,
                                          per_move, bank, release, policy, lookups)
            folder = root / plan.name
        rules = plan_rules(plan)
        runner = runner_for(runner_kind)
        try:
            runner.check()
        except SandboxError as exc:
            fail(f"--runner {runner_kind}: {exc}")
        if resume is None:
            try:
                writable_folder(folder)
            except OSError as exc:
                fail(f"{folder}: cannot write a file there ({exc.strerror})")
            create_plan(folder, plan)
        results = read_results(folder, plan)
        pending = [p for p in plan.pairings if p.index not in results]
        if pending and not partnerships:  # a finished tournament is shown without its bots
            partnerships = resolve_entrants(plan, lookups)
    except ArenaError as exc:
        fail(str(exc))
    records = data_root(data) / LOCAL_MATCHES
    setup = TournamentSetup(plan, folder, records, rules, partnerships, runner, concurrency or os.cpu_count() or 1)
    console = Console(stderr=True)
    if pending:
        console.print(plain(f"{plan.name}: {len(pending)} of {len(plan.pairings)} pairings to play, "
                            f"{setup.concurrency} at once; folder {folder}"), soft_wrap=True)
    try:
        with ProgressDisplay(console, plan, pending, disable=as_json) as display:
            asyncio.run(play_pairings(setup, pending, display))
    except OSError as exc:  # the folder became unwritable midway: what finished is on disk
        fail(f"{folder}: cannot write the tournament's files ({exc.strerror or exc})")
    except KeyboardInterrupt:
        try:
            kept = len(read_results(folder, plan))
        except ArenaError:
            kept = len(results)
        where = "" if data is None else f" --data {shlex.quote(str(data))}"
        which = plan.name if folder == root / plan.name else shlex.quote(str(folder))
        console.print(plain(f"interrupted: {kept} of {len(plan.pairings)} pairings finished, kept in {folder}; "
                            f"`{dehla()} tournament --resume {which}{where}` plays the rest"), soft_wrap=True)
        sys.exit(INTERRUPTED_EXIT)
    try:
        report = tournament_report(plan, folder, read_results(folder, plan), records, data)
    except ArenaError as exc:
        fail(str(exc))
    if as_json:
        click.echo(json.dumps(report))
    else:
        print_tournament_report(report)


def default_name(root: Path) -> str:
    """The date and time, with a number after it if a tournament of that name exists."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    name, number = stamp, 1
    while (root / name / PLAN_FILE).exists():
        number += 1
        name = f"{stamp}-{number}"
    return name


def locate(root: Path, resume: str) -> Path:
    """A tournament's folder from its name (under ``root``) or from a folder's path."""
    if NAME_PATTERN.fullmatch(resume) and (root / resume / PLAN_FILE).is_file():
        return root / resume
    folder = Path(resume)
    if (folder / PLAN_FILE).is_file():
        return folder.resolve()
    raise TournamentError(f"--resume {resume}: no tournament of that name in {root}, and no {PLAN_FILE} "
                          "in a folder of that path")


def new_plan(bots: Sequence[str], gauntlet: str | None, name: str, deals: int, seed: int, preset: str,
             options: Sequence[str], per_move: float, bank: float, release: MoveRelease, policy: FaultPolicy,
             lookups: Sequence[NameLookup]) -> tuple[TournamentPlan, dict[str, Partnership]]:
    """The plan of a new tournament, with its partnerships resolved; bad input is an ``ArenaError``."""
    check_name(name)
    specs = ([gauntlet] if gauntlet is not None else []) + list(bots)
    if gauntlet is not None and not bots:
        raise TournamentError("--gauntlet plays against the other bots: name at least one BOT")
    if len(specs) < 2:
        raise TournamentError("a tournament needs at least two bots (or one and --gauntlet BOT)")
    if len(specs) > MAX_ENTRANTS:
        raise TournamentError(f"{len(specs)} bots: at most {MAX_ENTRANTS} in one tournament")
    entrants, partnerships = [], {}
    for spec in specs:
        pair = resolve_partnership(spec, lookups)
        shown = partnership_name(spec, pair)
        if shown in partnerships:
            raise TournamentError(f"bot {shown!r} is named twice: each plays once in a tournament")
        entrants.append(Entrant(spec=durable_spec(spec, pair), name=shown))
        partnerships[shown] = pair
    gauntlet_name = entrants[0].name if gauntlet is not None else None
    plan = TournamentPlan(name=name, entrants=tuple(entrants), gauntlet=gauntlet_name, deals=deals, seed=seed,
                          preset=preset, options=tuple(options), per_move=per_move, bank=bank, release=release,
                          policy=policy, pairings=make_pairings([e.name for e in entrants], gauntlet_name))
    plan_rules(plan)
    return plan, partnerships


def durable_spec(spec: str, pair: Partnership) -> str:
    """``spec`` with each bot folder it names by a relative path made absolute, so that the plan
    starts the same bots when resumed from another working folder."""
    parts = [part.strip() for part in spec.split("+")]
    bots = pair if len(parts) == 2 else pair[:1]
    durable = []
    for part, bot in zip(parts, bots, strict=True):
        folder = Path(part)
        is_folder = bot.cwd is not None and folder.is_dir() and Path(bot.cwd) == folder.resolve()
        durable.append(str(folder.resolve()) if is_folder else part)
    return "+".join(durable)


def plan_rules(plan: TournamentPlan) -> AnyRules:
    """The plan's rules: a trick-taking game's, or a bidding game's (Twenty-eight, Twenty-nine)."""
    return game_rules_for(plan.preset, dict(parse_option(option) for option in plan.options))


def resolve_entrants(plan: TournamentPlan, lookups: Sequence[NameLookup]) -> dict[str, Partnership]:
    """The plan's partnerships, started as they were: a spec that names another bot now is refused."""
    partnerships = {}
    for entrant in plan.entrants:
        pair = resolve_partnership(entrant.spec, lookups)
        shown = partnership_name(entrant.spec, pair)
        if shown != entrant.name:
            raise TournamentError(f"{entrant.spec!r} is {shown!r} now, not {entrant.name!r} as planned")
        partnerships[entrant.name] = pair
    return partnerships


def check_resume(ctx: click.Context, plan: TournamentPlan, folder: Path) -> None:
    """Options given with ``--resume`` must agree with the plan: it, not the command line, decides."""
    given = {p for p in (*PLAN_OPTIONS, "bots") if ctx.get_parameter_source(p) in
             (ParameterSource.COMMANDLINE, ParameterSource.ENVIRONMENT)}
    if "bots" in given:
        planned = [e.spec for e in plan.entrants if e.name != plan.gauntlet]
        if list(ctx.params["bots"]) != planned:
            raise TournamentError(f"BOT... {' '.join(ctx.params['bots'])}: the tournament in {folder} plays "
                                  f"{' '.join(planned)}")
    planned_values: dict[str, Any] = {
        "gauntlet": next((e.spec for e in plan.entrants if e.name == plan.gauntlet), None),
        "deals": plan.deals, "seed": plan.seed, "preset": plan.preset, "options": plan.options,
        "per_move": plan.per_move, "bank": plan.bank, "release": plan.release, "policy": plan.policy,
    }
    for option in PLAN_OPTIONS:
        if option in given and ctx.params[option] != planned_values[option]:
            flag = "--option" if option == "options" else "--" + option.replace("_", "-")
            raise TournamentError(f"{flag} {_shown(ctx.params[option])}: the tournament in {folder} was planned "
                                  f"with {_shown(planned_values[option])}")


def _shown(value: object) -> str:
    if isinstance(value, tuple):
        return " ".join(map(str, value)) or "none"
    return str(value)
