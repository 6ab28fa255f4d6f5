"""Each ladder match's deal seed: the scheduler's draw, keyed with the store's secret.

``dehla ladder run --seed S`` makes a run repeatable, but ``S`` is the operator's and may be
small. Were a match dealt from a draw of ``random.Random(S)`` itself, a bot could try every small
``S`` until one deals it its own 13 cards, and then know all four hands. So the deal seed is
HMAC-SHA256 of the draw under a key only the store holds (``store_secrets``, made by migration
0008), as a seat seed is a keyed hash of the match seed (``arena/referee/seeds.py``): the same
store and ``--seed`` deal the same cards; without the key, the draw tells nothing about the deal.
"""

from __future__ import annotations

import hashlib
import hmac

from sqlalchemy.orm import Session

from arena.engine.errors import ArenaError
from ladder.store.schema import StoreSecret

KEY_NAME = "deal_seeds"
DOMAIN = b"dehla.deal-seed.v1:"
SEED_BITS = 63
"""What the ``matches.seed`` column holds (a signed 64-bit integer, migration 0003)."""


class MissingSecretError(ArenaError):
    """The store has no deal-seed key: not made by its migrations, or deleted since."""


def seed_key(session: Session) -> bytes:
    """The store's deal-seed key."""
    row = session.get(StoreSecret, KEY_NAME)
    if row is None:
        raise MissingSecretError("the store has no deal-seed key (table store_secrets, row 'deal_seeds'); it is "
                                 "made by the store's migrations: restore the store from a backup")
    return bytes.fromhex(row.value)


def deal_seed(key: bytes, draw: int) -> int:
    """The match's deal seed from the scheduler's ``draw`` (one per match) under ``key``."""
    digest = hmac.new(key, DOMAIN + str(draw).encode("ascii"), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - SEED_BITS)
