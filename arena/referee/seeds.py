"""Each seat's seed: repeatable from the match seed, and telling a bot nothing about the deals.

A seat seed is BLAKE2b keyed with (a digest of) the match seed, over the seat number, in its
own domain (BLAKE2b's ``person`` field). The deals come from unkeyed BLAKE2b over other text
(``arena.engine.chance``), so the two streams never meet; and as a keyed hash is one-way in its key,
a bot that knows its seat seed learns no more about the match seed, and so about the deals,
than it could by guessing the match seed itself. That last part is why the seed of a rated
match must be drawn at random from a large space: a small ``--seed`` can be guessed by trying
them all against one's own cards, seat seed or not.
"""

from __future__ import annotations

import hashlib

DOMAIN = b"dehla.seat.v1"
"""The seat seeds' domain separator (at most 16 bytes, BLAKE2b's ``person``)."""

KEY_DOMAIN = b"dehla.seatkey.v1"


def seat_seed(match_seed: int, seat: int) -> int:
    """A 64-bit seed for ``seat``'s own random choices in the match seeded ``match_seed``."""
    key = hashlib.blake2b(str(match_seed).encode(), digest_size=32, person=KEY_DOMAIN).digest()
    digest = hashlib.blake2b(str(seat).encode(), digest_size=8, key=key, person=DOMAIN).digest()
    return int.from_bytes(digest, "big")
