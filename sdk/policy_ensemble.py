"""Several trained policies playing as one: the legal action with the highest sum of their scores.

Why: policies trained from different seeds make different mistakes, and on the same deals an
ensemble of two won more pairs against random play than the mean of its members and about as
many as the better one (``docs/performance.md``, issue 25, session 21). A network's scores are
the logits of its softmax policy over the legal actions, so their sum picks the action with the
largest product of the members' probabilities (each member's normaliser is the same for every
action of a row).

A weights file holds either one network (the plain names of ``sdk.policy_network``: every file
written before ensembles) or member ``k``'s arrays under ``member{k}_NAME``, members numbered
from 0. ``load_policy`` reads both; the file is untrusted input and every member is checked as a
network is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, Protocol

import numpy as np
import numpy.typing as npt

from sdk.policy_network import (
    CARD_HEAD_NAMES,
    MAX_DEEP,
    WEIGHT_NAMES,
    FloatArray,
    PolicyFileError,
    PolicyNetwork,
    deep_names,
    read_arrays,
)

MAX_MEMBERS = 8
"""The most members a weights file may hold (a bound on time per move)."""
MEMBER_PREFIX = "member"


class Policy(Protocol):
    """What plays: a network or an ensemble of them."""

    def choose(self, observations: FloatArray, masks: npt.NDArray[np.int8]) -> npt.NDArray[np.int64]: ...

    def save(self, target: Path | BinaryIO) -> None: ...


def member_name(member: int, name: str) -> str:
    """The file's name of member ``member``'s array ``name``."""
    return f"{MEMBER_PREFIX}{member}_{name}"


NETWORK_NAMES = WEIGHT_NAMES + CARD_HEAD_NAMES + tuple(
    name for layer in range(1, MAX_DEEP + 2) for name in deep_names(layer))
"""Every array name a network's file may hold (one hidden layer more than allowed: it is refused by name)."""


@dataclass(frozen=True, eq=False)
class PolicyEnsemble:
    """The legal action with the highest sum of ``members``' scores."""

    members: tuple[PolicyNetwork, ...]

    def __post_init__(self) -> None:
        if not 1 <= len(self.members) <= MAX_MEMBERS:
            raise ValueError(f"an ensemble has 1 to {MAX_MEMBERS} members, not {len(self.members)}")

    def scores(self, observations: FloatArray) -> FloatArray:
        """The members' scores added: one per action id for each observation row."""
        total: FloatArray = self.members[0].scores(observations)
        for member in self.members[1:]:
            total = total + member.scores(observations)
        return total

    def choose(self, observations: FloatArray, masks: npt.NDArray[np.int8]) -> npt.NDArray[np.int64]:
        """The legal action with the highest summed score, per row (each row needs a legal action)."""
        scores = np.where(masks.astype(bool), self.scores(observations), -np.inf)
        chosen: npt.NDArray[np.int64] = np.argmax(scores, axis=1).astype(np.int64)
        return chosen

    def save(self, target: Path | BinaryIO) -> None:
        """Write every member's arrays, under its prefix, as one ``.npz`` of float32 arrays."""
        named: dict[str, Any] = {member_name(k, name): array for k, member in enumerate(self.members)
                                 for name, array in member.arrays().items()}
        np.savez(target, **named)


def ensemble_of(policies: Sequence[PolicyNetwork]) -> Policy:
    """One network as itself (its file stays a plain network's), several as their ensemble."""
    return policies[0] if len(policies) == 1 else PolicyEnsemble(tuple(policies))


def load_policy(source: Path) -> PolicyNetwork | PolicyEnsemble:
    """The network or ensemble in ``source``; a wrong file is a ``PolicyFileError`` naming it, the
    member and the problem."""
    wanted = NETWORK_NAMES + tuple(member_name(k, name) for k in range(MAX_MEMBERS) for name in NETWORK_NAMES)
    arrays, files = read_arrays(source, wanted)
    prefixed = sorted({name.split("_", 1)[0] for name in files if name.startswith(MEMBER_PREFIX)})
    if not prefixed:
        return PolicyNetwork.from_arrays(arrays, str(source))
    plain = [name for name in files if name in NETWORK_NAMES]
    if plain:
        raise PolicyFileError(f"{source}: both a network's arrays ({', '.join(plain)}) and ensemble members' "
                              f"({', '.join(prefixed)}): a policy file holds one or the other")
    count = len(prefixed)
    if count > MAX_MEMBERS:
        raise PolicyFileError(f"{source}: {count} ensemble members, at most {MAX_MEMBERS}")
    expected = [f"{MEMBER_PREFIX}{k}" for k in range(count)]
    if set(prefixed) != set(expected):
        raise PolicyFileError(f"{source}: ensemble members {', '.join(prefixed)}; expected them numbered from 0 "
                              f"without a gap ({', '.join(expected)})")
    members = []
    for k in range(count):
        own = {name: arrays[member_name(k, name)] for name in NETWORK_NAMES if member_name(k, name) in arrays}
        missing = [name for name in WEIGHT_NAMES if name not in own]
        if missing:
            raise PolicyFileError(f"{source}: member {k} has no array {', '.join(missing)} (each member holds "
                                  f"{', '.join(WEIGHT_NAMES)})")
        members.append(PolicyNetwork.of(own, f"{source} (member {k})"))
    return PolicyEnsemble(tuple(members))
