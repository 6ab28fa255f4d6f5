"""The options every local table takes (the deals' seed, the rules, the fault policy, the
clocks), defined once for ``dehla match`` and ``dehla tournament`` so that they say the same."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import click

from arena.console.options import MAX_BANK, MAX_PER_MOVE, EnumChoice, FiniteFloatRange
from arena.contract.faults import FaultPolicy
from arena.contract.time_control import MoveRelease

Command = TypeVar("Command", bound=Callable[..., object])

TABLE_OPTIONS = (
    click.option("--seed", type=int, default=1, show_default=True,
                 help="The seed the deals come from (the same seed, the same cards)."),
    click.option("--preset", default="dehla-pakad", show_default=True,
                 help="Rules preset (`dehla rules` lists them; twenty-eight and twenty-nine are the bidding games)."),
    click.option("--option", "options", multiple=True, metavar="NAME=VALUE", help="Override a rule option."),
    click.option("--policy", type=EnumChoice(FaultPolicy), default=FaultPolicy.FORFEIT.value, show_default=True),
    click.option("--per-move", type=FiniteFloatRange(min=0.001, max=MAX_PER_MOVE), default=1.0, show_default=True,
                 help="Seconds."),
    click.option("--bank", type=FiniteFloatRange(min=0, max=MAX_BANK), default=30.0, show_default=True,
                 help="Seconds."),
    click.option("--release", type=EnumChoice(MoveRelease), default=MoveRelease.ON_REPLY.value, show_default=True,
                 help="When each move reaches the table: on-reply (as soon as it comes) or slot-end (at the end "
                      "of the mover's per-move slot, as the ladder plays, so reply times carry nothing to a "
                      "partner; every decision then takes --per-move)."),
)


def table_options(command: Command) -> Command:
    """Adds ``TABLE_OPTIONS`` to a click command, in their order in ``--help``."""
    for option in reversed(TABLE_OPTIONS):
        command = option(command)
    return command
