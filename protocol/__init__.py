"""The bot protocol: gRPC service ``dehla.arena.v1.BotService``, served by bots, called by the referee.

The source of truth is ``protocol/dehla/arena/v1/arena.proto``; ``protocol/gen`` holds the
Python code generated from it by ``python tools/gen_protocol.py`` (never edit it by hand).
``docs/protocol.md`` is the guide for bot authors. This module holds the protocol's constants
only, so that importing it does not load the generated code.
"""

from __future__ import annotations

PROTOCOL_VERSION: tuple[int, int] = (1, 6)
"""(major, minor) sent in StartMatch; the major is the proto package's ``v1``. 1.1 added
``StartMatchRequest.seat_seed``; 1.2 ``Reveal.REVEAL_ON_PLAY``, ``Rules.hide_from`` and
``RevealReason.REVEAL_REASON_PLAYED``; 1.3 ``TimeControl.release`` (enum ``MoveRelease``); 1.4 the
tens-total format; 1.5 seed 003's trump variants (``Rules`` fields 15-18, ``DeclineTrump``); 1.6 the bidding games
(Twenty-eight, Twenty-nine: ``BiddingRules``, ``BiddingObservation``, the ``bid`` and ``pass_bid``
actions, ``DECISION_BID``)."""

TRUMP_VARIANTS_MINOR = 5
"""The minor version that brought seed 003's trump variants: a bot announcing an older one is
refused at StartMatch for rules that use them (it could not see or play them)."""

BIDDING_MINOR = 6
"""The minor version that brought the bidding games: a bot announcing an older one is refused at
StartMatch for them (it would see no rules and no decision it can read)."""

SERVICE_NAME = "dehla.arena.v1.BotService"
"""The gRPC service a bot serves; also the name the referee asks the health service about."""

ADDRESS_ENV = "DEHLA_BOT_ADDRESS"
"""Environment variable with the address a bot must serve on (``unix:PATH`` or ``HOST:PORT``)."""

ADDRESS_ARG = "--address"
"""Command-line option with the same meaning; it wins over the environment variable."""
