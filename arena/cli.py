"""The ``dehla`` command line: rules, self-play and record scoring; the referee's and the
ladder's commands (``match``, ``replay``, ``ladder``, ``submit``, ``bots``) load on first use.

Bad input exits with code 2 and one line naming the problem; never a traceback.
"""

from __future__ import annotations

import importlib
import json
import shlex
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from arena.bots.scaffold import Template, scaffold_bot
from arena.console.commands import dehla, pytest
from arena.console.data import BOT_LOOKUPS, RECORD_LOOKUP
from arena.console.errors import fail
from arena.console.files import load_record
from arena.console.options import is_utf8, writable_folder
from arena.console.text import visible
from arena.engine.bidding_records import bidding_hand_record
from arena.engine.bidding_rules import (
    BIDDING_PRESET_SUMMARIES,
    BIDDING_PRESETS,
    BiddingRules,
    bidding_rules_for,
    game_rules_for,
)
from arena.engine.bidding_selfplay import BiddingSelfPlaySummary, selfplay_bidding_hands
from arena.engine.errors import ArenaError
from arena.engine.hand_records import hand_record
from arena.engine.rules import PRESET_SUMMARIES, PRESETS, Rules, parse_option, rules_for
from arena.engine.selfplay import SelfPlaySummary, selfplay_hands

MAX_SELFPLAY_HANDS = 1_000_000
"""About two minutes of self-play: a larger ``--hands`` is a typo, not a plan."""



def _submitted_bot_folder(spec: str) -> Path | None:
    """The ladder's lookup, imported (with SQLAlchemy) only when a name is not a sample bot; it
    looks in the running command's ``--data`` folder (``dehla match --data``), else the default."""
    from ladder.cli.lookup import submitted_bot_folder  # noqa: PLC0415 - SQLAlchemy loads only for a name that is not a sample bot
    from ladder.store.paths import ArenaData  # noqa: PLC0415

    if not is_utf8(spec):  # not a stored name, and the database could not encode it
        return None
    context = click.get_current_context(silent=True)
    data = context.params.get("data") if context is not None else None
    return submitted_bot_folder(spec, ArenaData.locate(data))


def _stored_record(match_id: int, data: Path | None) -> tuple[str, str]:
    """The ladder's reader of a match's record (SQLAlchemy loads only for ``--match``)."""
    from ladder.cli.lookup import stored_record  # noqa: PLC0415
    from ladder.store.paths import ArenaData  # noqa: PLC0415

    return stored_record(match_id, ArenaData.locate(data))


LAZY_COMMANDS: dict[str, str] = {
    "match": "arena.referee.commands:match_command",
    "replay": "arena.referee.commands:replay_command",
    "tournament": "arena.referee.tournament.command:tournament_command",
    "ladder": "ladder.cli.commands:ladder_group",
    "submit": "ladder.cli.commands:submit_command",
    "bots": "ladder.cli.commands:bots_command",
    "serve": "ladder.cli.serve_command:serve_command",
    "author": "ladder.cli.author_commands:author_group",
    "operator": "ladder.cli.operator_commands:operator_group",
    "worker": "ladder.cli.worker_command:worker_command",
}
"""Subcommands imported only when they run (or ``--help`` lists them): the referee's pull in
gRPC, the ladder's SQLAlchemy, which ``dehla rules`` and friends do not need."""

class LazyGroup(click.Group):
    """A group whose ``lazy_commands`` (name -> ``"module:attribute"``) are imported on first use."""

    def __init__(self, *args: Any, lazy_commands: Mapping[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy_commands = dict(lazy_commands or {})

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True, **extra: Any) -> Any:
        """As click's, but a usage error is one line (``error: dehla CMD: what was wrong``), exit 2."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        try:
            code = super().main(args, prog_name, complete_var, False, **extra)
        except click.exceptions.NoArgsIsHelpError as exc:
            exc.show()  # bare `dehla ladder`: the help is the answer
            sys.exit(exc.exit_code)
        except click.UsageError as exc:
            where = f"{exc.ctx.command_path}: " if exc.ctx is not None else ""
            click.echo(f"error: {visible(where + exc.format_message())} (see --help)", err=True)
            sys.exit(exc.exit_code)
        except click.ClickException as exc:
            click.echo(f"error: {visible(exc.format_message())}", err=True)
            sys.exit(exc.exit_code)
        except click.Abort:
            click.echo("Aborted!", err=True)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy_commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy_commands:
            return self._load(cmd_name)
        return super().get_command(ctx, cmd_name)

    def _load(self, cmd_name: str) -> click.Command:
        module_name, _, attribute = self.lazy_commands[cmd_name].partition(":")
        command = getattr(importlib.import_module(module_name), attribute)
        if not isinstance(command, click.Command):
            raise TypeError(f"{self.lazy_commands[cmd_name]} is not a click command")
        return command


@click.group(cls=LazyGroup, lazy_commands=LAZY_COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="dehla-arena")
@click.pass_context
def main(ctx: click.Context) -> None:
    """Dehla Arena: rules engine, referee and ladder for Dehla Pakad and its family."""
    ctx.meta[BOT_LOOKUPS] = (_submitted_bot_folder,)  # `dehla match NAME` finds submitted bots
    ctx.meta[RECORD_LOOKUP] = _stored_record  # `dehla replay --match ID` reads the store


@main.command("rules")
@click.option("--json", "as_json", is_flag=True, help="Print the presets as JSON.")
def rules_command(as_json: bool) -> None:
    """List the rule presets and their options (the bidding games, Twenty-eight and Twenty-nine,
    last: only `dehla match` plays them so far)."""
    presets = {name: rules_for(name).options() for name in PRESETS}
    presets |= {name: bidding_rules_for(name).options() for name in BIDDING_PRESETS}
    summaries = PRESET_SUMMARIES | BIDDING_PRESET_SUMMARIES
    if as_json:
        click.echo(json.dumps(presets, indent=2))
        return
    console = Console()
    table = Table(title="Rule presets (override any option with --option name=value)")
    table.add_column("preset", style="bold")
    table.add_column("what it is")
    table.add_column("options")
    for name, options in presets.items():
        table.add_row(name, summaries[name], "\n".join(f"{k}={v}" for k, v in options.items()))
    console.print(table)


@main.command("selfplay")
@click.option("--preset", default="dehla-pakad", show_default=True,
              help="Rules preset (`dehla rules` lists them; twenty-eight and twenty-nine are the bidding games).")
@click.option("--option", "options", multiple=True, metavar="NAME=VALUE", help="Override a rule option.")
@click.option("--hands", type=click.IntRange(min=1, max=MAX_SELFPLAY_HANDS), default=100, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--records", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Write every hand's JSON record into this folder.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as one JSON object.")
def selfplay_command(preset: str, options: tuple[str, ...], hands: int, seed: int,
                     records: Path | None, as_json: bool) -> None:
    """Play random legal hands as one match and print a summary (a bidding game's: its bids,
    contracts and invalid hands)."""
    try:
        rules = game_rules_for(preset, dict(parse_option(o) for o in options))
    except ArenaError as exc:
        fail(str(exc))
    if records is not None:
        try:
            writable_folder(records)
        except OSError as exc:
            fail(f"--records {records}: cannot write a file there ({exc.strerror})")
    start = time.perf_counter()
    if isinstance(rules, BiddingRules):
        bidding = BiddingSelfPlaySummary()
        for number, (hand, game_points) in enumerate(selfplay_bidding_hands(rules, hands, seed)):
            assert hand.result is not None
            bidding.add(hand.result)
            bidding.final = game_points
            _write_hand(records, number, bidding_hand_record(hand))
        report = {"preset": preset, "rules": rules.options(), "seed": seed, **bidding.to_json(),
                  **_speed(bidding.hands, time.perf_counter() - start)}
    else:
        summary = SelfPlaySummary()
        for number, (state, score) in enumerate(selfplay_hands(rules, hands, seed)):
            assert state.result is not None
            summary.add(state.result)
            summary.final = score
            _write_hand(records, number, hand_record(state))
        report = _summary_json(rules, preset, seed, summary, time.perf_counter() - start)
    if as_json:
        click.echo(json.dumps(report))
    else:
        _print_summary(report)


def _write_hand(records: Path | None, number: int, record: dict[str, Any]) -> None:
    """Self-play's hand ``number`` into ``records`` (None: no records)."""
    if records is None:
        return
    path = records / f"hand-{number:05d}.json"
    try:
        path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    except OSError as exc:
        fail(f"{path}: cannot write ({exc.strerror})")


def _speed(hands: int, elapsed: float) -> dict[str, Any]:
    return {"seconds": round(elapsed, 3), "hands_per_second": round(hands / elapsed) if elapsed else None}


def _summary_json(rules: Rules, preset: str, seed: int, summary: SelfPlaySummary,
                  elapsed: float) -> dict[str, Any]:
    final = summary.final
    assert final is not None
    unit = "kots" if rules.scores_kots else "points"
    return {
        "preset": preset,
        "rules": rules.options(),
        "seed": seed,
        "hands": summary.hands,
        "hands_won": summary.hands_won,
        "draws": summary.draws,
        "outcomes": dict(sorted(summary.outcomes.items())),
        "kot_hands": summary.hand_kots,
        "mean_tens": [round(t / summary.hands, 3) for t in summary.tens],
        "match_unit": unit,
        "match_score": list(final.score(rules)),
        "match_winner": final.winner(rules),
        **_speed(summary.hands, elapsed),
    }


def _print_summary(report: dict[str, Any]) -> None:
    """A self-play report for people: a table of per-team figures, then its lines (a bidding
    game's: contracts, card points, bids and invalid hands; else hands, kots, tens, outcomes)."""
    if report.get("game") == "bidding":
        rows = {"contracts made": "contracts_made", "contracts lost": "contracts_failed",
                "mean card points per hand": "mean_card_points"}
        bids = ", ".join(f"{bid}: {count}" for bid, count in report["bids"].items())
        line = f"winning bids: {bids} (mean {report['mean_bid']}); invalid hands: {report['invalid_hands']}"
    else:
        rows = {"hands won": "hands_won", "kot hands": "kot_hands", "mean tens per hand": "mean_tens"}
        outcomes = ", ".join(f"{k}: {v}" for k, v in report["outcomes"].items())
        line = f"outcomes: {outcomes}; draws: {report['draws']}"
    console = Console()
    table = Table(title=f"Self-play: {report['hands']} random hands of {report['preset']} "
                        f"(seed {report['seed']})")
    table.add_column("")
    table.add_column("team 0 (seats 0+2)", justify="right")
    table.add_column("team 1 (seats 1+3)", justify="right")
    for label, key in {**rows, f"match {report['match_unit']}": "match_score"}.items():
        table.add_row(label, *map(str, report[key]))
    console.print(table)
    console.print(line)
    winner = report["match_winner"]
    console.print("match: " + ("level" if winner is None else f"team {winner} wins"))
    console.print(f"{report['hands_per_second']} hands/s ({report['seconds']} s)")


@main.command("score")
@click.argument("record", type=click.Path(path_type=Path))
def score_command(record: Path) -> None:
    """Replay a JSON hand record and print its result as JSON (exit 2 if it is bad)."""
    try:
        state = load_record(record)
    except ArenaError as exc:
        fail(str(exc))
    assert state.result is not None
    click.echo(json.dumps(state.result.to_json()))


@main.group("bot")
def bot_group() -> None:
    """Bot folders: create one to start writing a bot."""


@bot_group.command("new")
@click.argument("name")
@click.option("--dir", "parent", type=click.Path(file_okay=False, path_type=Path), default=Path("."),
              show_default=True, help="Folder to create the bot folder in.")
@click.option("--author", default="you", show_default=True)
@click.option("--template", type=click.Choice([t.value for t in Template]), default=Template.PLAIN.value,
              show_default=True, help="plain: a bot to write by hand; policy: a bot that plays trained weights "
              "(policy.npz, untrained until `python examples/train_policy.py FOLDER`).")
def bot_new_command(name: str, parent: Path, author: str, template: str) -> None:
    """Create a bot folder NAME with code, manifest, Dockerfile and a test that passes."""
    try:
        folder = scaffold_bot(name, parent, author, Template(template))
    except ArenaError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"{parent / name}: {exc.strerror}")
    test = shlex.quote(str(folder / "test_bot.py"))
    first = (f"train it with `python examples/train_policy.py {shlex.quote(str(folder))}` (the learn extra, "
             "in the arena's checkout)"
             if template == Template.POLICY else "edit bot.py")
    click.echo(visible(f"created {folder}: {first}, then `{pytest()} {test}` "
                       f"and `{dehla()} match {shlex.quote(str(folder))} random`"))
