"""BLAKE2b-512 of short messages in compiled code: the seeds' digests for many tables at once.

``hashlib`` gives the same digest, one Python call per seed (about a microsecond each, more than
the rest of a batched hand's deal and play): this kernel computes it for a whole batch of
decimal seeds followed by a fixed label text, as ``arena.engine.chance.random_number`` hashes
them. Written from RFC 7693 (one block, no key, 64-byte digest); ``tests/batch/test_dealing.py``
holds it to ``hashlib`` on any seed.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_IV = np.array([
    0x6A09E667F3BCC908, 0xBB67AE8584CAA73B, 0x3C6EF372FE94F82B, 0xA54FF53A5F1D36F1,
    0x510E527FADE682D1, 0x9B05688C2B3E6C1F, 0x1F83D9ABFB41BD6B, 0x5BE0CD19137E2179,
], dtype=np.uint64)
_SIGMA = np.array([
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
    [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
    [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
    [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
    [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
    [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
    [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
    [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
    [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
    [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
], dtype=np.int64)
_PARAMETERS = np.uint64(0x01010040)
"""Digest length 64, no key, fanout 1, depth 1 (the parameter block's first word)."""
_BLOCK = 128


@njit(cache=True, inline="always")
def _rotr(x: np.uint64, n: int) -> np.uint64:
    return (x >> np.uint64(n)) | (x << np.uint64(64 - n))


@njit(cache=True, inline="always")
def _mix(v, a, b, c, d, x, y):
    v[a] = v[a] + v[b] + x
    v[d] = _rotr(v[d] ^ v[a], 32)
    v[c] = v[c] + v[d]
    v[b] = _rotr(v[b] ^ v[c], 24)
    v[a] = v[a] + v[b] + y
    v[d] = _rotr(v[d] ^ v[a], 16)
    v[c] = v[c] + v[d]
    v[b] = _rotr(v[b] ^ v[c], 63)


@njit(cache=True)
def seed_digests(seeds, tail, out):
    """``out[t]``: the BLAKE2b-512 digest of ``str(seeds[t]).encode() + tail`` (at most 128 bytes)."""
    block = np.zeros(_BLOCK, dtype=np.uint8)
    digits = np.zeros(20, dtype=np.uint8)
    m = np.zeros(16, dtype=np.uint64)
    v = np.zeros(16, dtype=np.uint64)
    h = np.zeros(8, dtype=np.uint64)
    for t in range(seeds.shape[0]):
        block[:] = 0
        seed = seeds[t]
        length = 0
        if seed < 0:
            block[0] = 45  # "-"
            length = 1
            magnitude = np.uint64(-(seed + 1)) + np.uint64(1)
        else:
            magnitude = np.uint64(seed)
        count = 0
        while True:
            digits[count] = np.uint8(np.uint64(48) + magnitude % np.uint64(10))
            magnitude //= np.uint64(10)
            count += 1
            if magnitude == 0:
                break
        for k in range(count):
            block[length + k] = digits[count - 1 - k]
        length += count
        for k in range(tail.shape[0]):
            block[length + k] = tail[k]
        length += tail.shape[0]
        for w in range(16):
            word = np.uint64(0)
            for k in range(8):
                word |= np.uint64(block[8 * w + k]) << np.uint64(8 * k)
            m[w] = word
        for k in range(8):
            h[k] = _IV[k]
            v[k] = _IV[k]
            v[k + 8] = _IV[k]
        h[0] ^= _PARAMETERS
        v[0] = h[0]
        v[12] ^= np.uint64(length)
        v[14] = ~v[14]
        for r in range(12):
            s = _SIGMA[r % 10]
            _mix(v, 0, 4, 8, 12, m[s[0]], m[s[1]])
            _mix(v, 1, 5, 9, 13, m[s[2]], m[s[3]])
            _mix(v, 2, 6, 10, 14, m[s[4]], m[s[5]])
            _mix(v, 3, 7, 11, 15, m[s[6]], m[s[7]])
            _mix(v, 0, 5, 10, 15, m[s[8]], m[s[9]])
            _mix(v, 1, 6, 11, 12, m[s[10]], m[s[11]])
            _mix(v, 2, 7, 8, 13, m[s[12]], m[s[13]])
            _mix(v, 3, 4, 9, 14, m[s[14]], m[s[15]])
        for k in range(8):
            word = h[k] ^ v[k] ^ v[k + 8]
            for b in range(8):
                out[t, 8 * k + b] = np.uint8((word >> np.uint64(8 * b)) & np.uint64(0xFF))
