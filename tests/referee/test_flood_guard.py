"""The flood guard's frame meter (``arena.referee.flood_guard.FrameMeter``) on byte streams cut
at any point: the verdict depends on the frames, never on how the bot's bytes were chunked."""

from __future__ import annotations

import struct

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.referee.flood_guard import (
    CONTINUATION,
    DATA,
    END_HEADERS,
    END_STREAM,
    HEADERS,
    ControlBudget,
    FloodLimits,
    FrameMeter,
)

PING, SETTINGS, WINDOW_UPDATE = 0x6, 0x4, 0x8
CUTS = settings(max_examples=60, deadline=None, derandomize=True, database=None)
"""Seeded: the same cuts every run."""
LIMITS = FloodLimits(burst=32, per_second=4.0, header_block=1024)


def frame(kind: int, payload: bytes = b"", flags: int = 0, stream: int = 1) -> bytes:
    return struct.pack(">I", len(payload))[1:] + bytes((kind, flags)) + struct.pack(">I", stream) + payload


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def feed_in_pieces(meter: FrameMeter, data: bytes, cuts: list[int]) -> str | None:
    at = 0
    for cut in [*sorted({c % (len(data) + 1) for c in cuts}), len(data)]:
        if (breach := meter.feed(data[at:cut])) is not None:
            return breach
        at = cut
    return None


def honest_call(stream: int) -> bytes:
    """What a gRPC server sends for one unary call: a window update, headers, data, trailers."""
    return (frame(WINDOW_UPDATE, b"\0\0\0\x10", stream=0) + frame(HEADERS, b"h" * 40, END_HEADERS, stream)
            + frame(DATA, b"d" * 30, 0, stream) + frame(HEADERS, b"t" * 20, END_HEADERS | END_STREAM, stream))


@CUTS
@given(st.lists(st.integers(min_value=0), max_size=20))
def test_honest_calls_never_trip_and_headers_are_counted_however_cut(cuts: list[int]) -> None:
    data = frame(SETTINGS, b"\0" * 12, stream=0) + b"".join(honest_call(2 * n + 1) for n in range(10))
    meter = FrameMeter(ControlBudget(LIMITS, Clock()))
    assert feed_in_pieces(meter, data, cuts) is None
    assert meter.header_bytes == 10 * 60
    assert sum(meter.budget.controls.values()) == 31  # SETTINGS, then per call a WINDOW_UPDATE and two HEADERS


@CUTS
@given(st.lists(st.integers(min_value=0), max_size=20))
def test_one_control_frame_over_the_burst_trips_however_cut(cuts: list[int]) -> None:
    clock = Clock()
    pings = b"".join(frame(PING, struct.pack(">Q", n), stream=0) for n in range(LIMITS.burst))
    meter = FrameMeter(ControlBudget(LIMITS, clock))
    assert feed_in_pieces(meter, pings, cuts) is None
    breach = meter.feed(frame(PING, b"\0" * 8, stream=0))
    assert breach is not None and "33 control frames (PING the most)" in breach


def test_the_allowance_refills_with_time() -> None:
    clock = Clock()
    meter = FrameMeter(ControlBudget(LIMITS, clock))
    ping = frame(PING, b"\0" * 8, stream=0)
    assert meter.feed(ping * LIMITS.burst) is None
    clock.now = 1.0  # 4 more
    assert meter.feed(ping * 4) is None
    assert meter.feed(ping) is not None


def test_the_allowance_is_the_bots_across_its_connections() -> None:
    """A bot that lets each connection drop after a burst gets no new allowance from gRPC's reconnect."""
    budget = ControlBudget(LIMITS, Clock())
    ping = frame(PING, b"\0" * 8, stream=0)
    assert FrameMeter(budget).feed(ping * LIMITS.burst) is None
    assert FrameMeter(budget).feed(ping) is not None


def test_empty_data_frames_are_control_frames_but_data_is_not() -> None:
    meter = FrameMeter(ControlBudget(LIMITS, Clock()))
    assert meter.feed(frame(DATA, b"x" * 100) * 50 + frame(DATA, b"", END_STREAM)) is None
    assert meter.feed(frame(DATA) * LIMITS.burst) is None
    breach = meter.feed(frame(DATA))
    assert breach is not None and "empty DATA" in breach


@CUTS
@given(st.lists(st.integers(min_value=0), max_size=20))
def test_a_header_block_over_the_bound_trips_however_cut(cuts: list[int]) -> None:
    block = frame(HEADERS, b"h" * 100) + b"".join(frame(CONTINUATION, b"c" * 100) for _ in range(9))
    meter = FrameMeter(ControlBudget(LIMITS, Clock()))
    assert feed_in_pieces(meter, block + frame(CONTINUATION, b"c" * 24), cuts) is None  # exactly 1024
    breach = meter.feed(frame(CONTINUATION, b"c", END_HEADERS))
    assert breach is not None and "header block of more than 1024 bytes" in breach


def test_each_header_block_has_its_own_bound() -> None:
    meter = FrameMeter(ControlBudget(LIMITS, Clock()))
    block = frame(HEADERS, b"h" * 600) + frame(CONTINUATION, b"c" * 400, END_HEADERS)
    assert meter.feed(block * 5) is None  # 5 HEADERS frames from the allowance, 1000 bytes a block
    assert meter.header_bytes == 5000
