"""What an environment plays: the rules, how long an episode lasts and when rewards come.

Checked once, before any table exists, so a bad preset, option, match format or reward mode is
one clear error naming it (``LearnEnvError``, ``RulesError``, ``MatchFormatError``; all
``ValueError``), never a half-built environment.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from arena.engine.bidding_rules import BIDDING_PRESETS, BiddingRules, bidding_rules_for
from arena.engine.errors import RulesError
from arena.engine.match import FormatKind, MatchFormat
from arena.engine.rules import PRESETS, Rules, rules_for
from sdk.learn.errors import LearnEnvError, UnsupportedFormatError


class Reward(StrEnum):
    """When the environment pays out rewards."""

    HAND = "hand"
    """At the end of every hand: the hand's value to each seat's team (``hand_value``: +1 or +2
    with a kot under Dehla Pakad, the match points under Mendikot and Court Piece; lost: minus
    that; drawn: 0)."""
    MATCH = "match"
    """At the end of the match only: +1 to the winning team, -1 to the other, 0 if level."""


@dataclass(frozen=True, slots=True)
class EnvConfig:
    """The validated settings of one environment (build it with ``EnvConfig.of``)."""

    preset: str
    rules: Rules | BiddingRules
    """``BiddingRules`` for Twenty-eight and Twenty-nine, ``Rules`` for the other presets."""
    match_format: MatchFormat | None
    """``None``: an episode is one hand; else a whole match (``hands:N``, ``kots:K``, ``tens:N``)."""
    reward: Reward

    @classmethod
    def of(
        cls,
        preset: str = "dehla-pakad",
        options: Mapping[str, Any] | None = None,
        match: str | MatchFormat | None = None,
        reward: str | Reward = Reward.HAND,
    ) -> EnvConfig:
        """Validate the settings; each bad one raises a ``ValueError`` naming it."""
        if not isinstance(preset, str):
            raise LearnEnvError(f"preset must be a preset's name, not {preset!r}")
        if options is not None and not isinstance(options, Mapping):
            raise LearnEnvError(f"options must be a mapping of option names to values, not {options!r}")
        rules: Rules | BiddingRules
        if preset in BIDDING_PRESETS:
            rules = bidding_rules_for(preset, options)
        elif preset in PRESETS:
            rules = rules_for(preset, options)
        else:
            raise RulesError(f"unknown preset {preset!r} (known: {', '.join([*PRESETS, *BIDDING_PRESETS])})")
        match_format = None if match is None else _match_format(match, rules)
        try:
            mode = Reward(reward)
        except ValueError:
            raise LearnEnvError(
                f"unknown reward {reward!r} (known: {', '.join(r.value for r in Reward)})"
            ) from None
        return cls(preset, rules, match_format, mode)


def _match_format(match: str | MatchFormat, rules: Rules | BiddingRules) -> MatchFormat:
    if not isinstance(match, (str, MatchFormat)):
        raise LearnEnvError(f"match must be a match format such as 'hands:4' or 'kots:3', not {match!r}")
    match_format = MatchFormat.of(match)
    if match_format.kind is FormatKind.DUPLICATE:
        raise UnsupportedFormatError(
            f"match format {match_format}: duplicate matches are the referee's (two tables); "
            "an environment plays hands:N, kots:K or tens:N (a bidding game: hands:N, ending at its target too)"
        )
    match_format.check(rules)
    return match_format
