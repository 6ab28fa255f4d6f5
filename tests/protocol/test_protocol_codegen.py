"""The bot protocol: generated code is up to date, the schema follows its conventions and
mirrors the engine, the guide's examples are valid, and every RPC works over a real socket."""

from __future__ import annotations

import dataclasses
import pickle
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from enum import StrEnum
from importlib import metadata
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.protobuf import descriptor_pb2, text_format
from google.protobuf.descriptor import Descriptor, EnumDescriptor
from google.protobuf.message import Message
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_tools import protoc

import protocol
from arena.engine import bidding_hand, bidding_rules, hand, match, outcome, ranking, rules, trump
from arena.engine.cards import CARDS, Suit
from arena.engine.observation import Observation
from protocol.gen.dehla.arena.v1 import arena_pb2 as pb
from protocol.gen.dehla.arena.v1 import arena_pb2_grpc as rpc

ROOT = Path(__file__).resolve().parents[2]
GEN_DIR = ROOT / "protocol" / "gen"
PROTO = ROOT / "protocol" / "dehla" / "arena" / "v1" / "arena.proto"
GUIDE = ROOT / "docs" / "protocol.md"
FILE = pb.DESCRIPTOR


# ------------------------------------------------------------------------ generated code


def _tree(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
    }


def _generate(out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "tools" / "gen_protocol.py"), "--out", str(out), *extra],
        capture_output=True, text=True, check=False, cwd=ROOT,
    )


def test_regenerating_gives_the_committed_files_byte_for_byte(tmp_path: Path) -> None:
    fresh = tmp_path / "gen"
    run = _generate(fresh)
    assert run.returncode == 0, run.stderr
    expected, committed = _tree(fresh), _tree(GEN_DIR)
    stale = sorted(
        [f"missing: {n}" for n in expected.keys() - committed.keys()]
        + [f"unexpected: {n}" for n in committed.keys() - expected.keys()]
        + [f"differs: {n}" for n in expected.keys() & committed.keys() if expected[n] != committed[n]]
    )
    header = committed.get("__init__.py", b"").decode().strip()
    assert not stale, (
        "protocol/gen is stale; run `python tools/gen_protocol.py` and commit the result.\n"
        f"installed grpcio-tools {metadata.version('grpcio-tools')}; committed: {header!r}\n"
        + "\n".join(stale)
    )


def test_check_mode_reports_a_difference(tmp_path: Path) -> None:
    out = tmp_path / "gen"
    assert _generate(out).returncode == 0
    assert _generate(out, "--check").returncode == 0
    target = out / "dehla" / "arena" / "v1" / "arena_pb2.py"
    target.write_bytes(target.read_bytes() + b"# edited\n")
    run = _generate(out, "--check")
    assert run.returncode == 1
    assert "differs: dehla/arena/v1/arena_pb2.py" in run.stderr


def test_generated_package_imports_under_its_package_path() -> None:
    assert FILE.package == "dehla.arena.v1"
    assert FILE.name == "dehla/arena/v1/arena.proto"
    assert pb.__name__ == "protocol.gen.dehla.arena.v1.arena_pb2"
    assert pb.DecideRequest.__module__ == pb.__name__
    assert FILE.services_by_name["BotService"].full_name == protocol.SERVICE_NAME
    assert (GEN_DIR / "dehla" / "arena" / "v1" / "arena_pb2.pyi").is_file()
    reply = pb.DecideResponse(request_id="r1", action=pb.Action(play_card=pb.PlayCard(card=pb.CARD_10H)))
    assert pickle.loads(pickle.dumps(reply)) == reply


# -------------------------------------------------------------------- schema conventions


def _all_messages() -> Iterator[Descriptor]:
    stack = list(FILE.message_types_by_name.values())
    while stack:
        message = stack.pop()
        yield message
        stack.extend(message.nested_types)


def _all_enums() -> Iterator[EnumDescriptor]:
    yield from FILE.enum_types_by_name.values()
    for message in _all_messages():
        yield from message.enum_types


def _upper_snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).upper()


def test_enums_are_prefixed_and_start_at_unspecified() -> None:
    for enum in _all_enums():
        prefix = _upper_snake(enum.name) + "_"
        assert enum.values[0].name == prefix + "UNSPECIFIED", enum.name
        assert enum.values[0].number == 0, enum.name
        assert all(v.name.startswith(prefix) for v in enum.values), enum.name


def test_every_rpc_has_its_own_request_and_response() -> None:
    seen: set[str] = set()
    for method in FILE.services_by_name["BotService"].methods:
        assert method.input_type.name == f"{method.name}Request"
        assert method.output_type.name == f"{method.name}Response"
        seen |= {method.input_type.name, method.output_type.name}
    assert {m.name for m in FILE.services_by_name["BotService"].methods} == {
        "StartMatch", "Decide", "EndHand", "EndMatch",
    }
    assert len(seen) == 8


def test_every_element_of_the_proto_is_documented(tmp_path: Path) -> None:
    out = tmp_path / "set.pb"
    code = protoc.main([
        "protoc", f"--proto_path={ROOT / 'protocol'}", "--include_source_info",
        f"--descriptor_set_out={out}", str(PROTO),
    ])
    assert code == 0
    files = descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes())
    (file,) = files.file
    commented = {
        tuple(loc.path) for loc in file.source_code_info.location
        if (loc.leading_comments or loc.trailing_comments).strip()
    }
    missing: list[str] = []

    def need(path: tuple[int, ...], what: str) -> None:
        if path not in commented:
            missing.append(what)

    def visit_enum(enum: descriptor_pb2.EnumDescriptorProto, path: tuple[int, ...]) -> None:
        need(path, enum.name)
        for i, value in enumerate(enum.value):
            need((*path, 2, i), f"{enum.name}.{value.name}")

    def visit_message(message: descriptor_pb2.DescriptorProto, path: tuple[int, ...]) -> None:
        need(path, message.name)
        for i, field in enumerate(message.field):
            need((*path, 2, i), f"{message.name}.{field.name}")
        for i, oneof in enumerate(message.oneof_decl):
            if not oneof.name.startswith("_"):  # proto3 `optional` makes synthetic oneofs
                need((*path, 8, i), f"{message.name}.{oneof.name}")
        for i, nested in enumerate(message.nested_type):
            visit_message(nested, (*path, 3, i))
        for i, enum in enumerate(message.enum_type):
            visit_enum(enum, (*path, 4, i))

    for i, message in enumerate(file.message_type):
        visit_message(message, (4, i))
    for i, enum in enumerate(file.enum_type):
        visit_enum(enum, (5, i))
    for i, service in enumerate(file.service):
        need((6, i), service.name)
        for j, method in enumerate(service.method):
            need((6, i, 2, j), f"{service.name}.{method.name}")
    assert not missing, f"undocumented: {', '.join(missing)}"


# ---------------------------------------------------------------- mirrors of the engine


def _enum_names(enum: Any) -> set[str]:
    return {v.name for v in enum.DESCRIPTOR.values}


@pytest.mark.parametrize(
    ("engine", "proto", "prefix"),
    [
        (rules.Direction, pb.Direction, "DIRECTION_"),
        (rules.DeckKind, pb.DeckKind, "DECK_KIND_"),
        (rules.TrumpMethod, pb.TrumpMethod, "TRUMP_METHOD_"),
        (rules.Reveal, pb.Reveal, "REVEAL_"),
        (rules.Capture, pb.Capture, "CAPTURE_"),
        (rules.SweepLimits, pb.SweepLimits, "SWEEP_LIMITS_"),
        (rules.HandResultRule, pb.HandResultRule, "HAND_RESULT_RULE_"),
        (rules.TwoTwo, pb.TwoTwo, "TWO_TWO_"),
        (ranking.RankOrder, pb.RankOrder, "RANK_ORDER_"),
        (bidding_rules.AuctionKind, pb.AuctionKind, "AUCTION_KIND_"),
        (bidding_rules.NoExposure, pb.NoExposure, "NO_EXPOSURE_"),
        (bidding_rules.GamePoints, pb.GamePoints, "GAME_POINTS_"),
        (trump.RevealReason, pb.RevealReason, "REVEAL_REASON_"),
        (outcome.HandOutcome, pb.HandOutcome, "HAND_OUTCOME_"),
        (match.FormatKind, pb.MatchFormatKind, "MATCH_FORMAT_KIND_"),
    ],
)
def test_enum_values_are_the_engine_values(engine: type[StrEnum], proto: Any, prefix: str) -> None:
    """A proto enum value is PREFIX + the engine's value in capitals, plus UNSPECIFIED."""
    expected = {prefix + "UNSPECIFIED"} | {prefix + v.value.upper() for v in engine}
    assert _enum_names(proto) == expected


def test_the_decisions_are_both_games_decisions() -> None:
    """``Decision`` serves the trick-taking games and, from 1.6, the bidding games' ``DECISION_BID``."""
    values = {v.value for v in hand.Decision} | {v.value for v in bidding_hand.BiddingDecision}
    assert _enum_names(pb.Decision) == {"DECISION_UNSPECIFIED"} | {"DECISION_" + v.upper() for v in values}


def test_card_and_suit_numbers_follow_the_engine() -> None:
    assert len(pb.Card.DESCRIPTOR.values) == 53
    for card in CARDS:
        assert pb.Card.Value(f"CARD_{card}") == int(card) + 1
    for suit in Suit:
        assert pb.Suit.Value(f"SUIT_{suit.name}") == int(suit) + 1


def _field_names(message: type[Message]) -> set[str]:
    return {f.name for f in message.DESCRIPTOR.fields}


@pytest.mark.parametrize(
    ("engine_fields", "proto", "renamed"),
    [
        # A face-down play is marked on its Play (Play.face_down), in the trick's plays.
        ({f.name for f in dataclasses.fields(Observation)}, pb.Observation, {"current_face_down": "current_trick"}),
        ({f.name for f in dataclasses.fields(rules.Rules)}, pb.Rules, {}),
        ({f.name for f in dataclasses.fields(outcome.HandResult)}, pb.HandResult, {}),
        ({f.name for f in dataclasses.fields(outcome.Trick)}, pb.Trick,
         {"seats": "plays", "cards": "plays", "face_down": "plays"}),
        ({f.name for f in dataclasses.fields(trump.TrumpSetting)}, pb.TrumpSetting, {}),
        ({f.name for f in dataclasses.fields(trump.TrumpReveal)}, pb.TrumpReveal, {}),
        ({f.name for f in dataclasses.fields(match.MatchScore)}, pb.MatchScore, {}),
        ({f.name for f in dataclasses.fields(match.MatchFormat)}, pb.MatchFormat, {}),
    ],
)
def test_messages_carry_every_engine_field(
    engine_fields: set[str], proto: type[Message], renamed: dict[str, str]
) -> None:
    assert {renamed.get(name, name) for name in engine_fields} == _field_names(proto)


def test_optional_seats_have_presence() -> None:
    for message, name in [
        (pb.Observation, "to_move"), (pb.Observation, "hidden_trump_holder"),
        (pb.Observation, "streak_holder"), (pb.Trick, "taken_by"), (pb.TrumpSetting, "seat"),
        (pb.HandResult, "winner"), (pb.MatchResult, "winner"),
    ]:
        assert message.DESCRIPTOR.fields_by_name[name].has_presence, f"{message.__name__}.{name}"


# ------------------------------------------------------------------------------ the guide


def _guide_blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", GUIDE.read_text(encoding="utf-8"),
                      flags=re.MULTILINE | re.DOTALL)


def _guide_examples() -> dict[str, list[Message]]:
    """The textproto blocks of docs/protocol.md, parsed, by message name."""
    out: dict[str, list[Message]] = {}
    for block in _guide_blocks("textproto"):
        found = re.match(r"# message: dehla\.arena\.v1\.(\w+)\n", block)
        assert found, f"textproto block without a '# message:' line:\n{block[:80]}"
        message = getattr(pb, found.group(1))()
        text_format.Parse(block, message)
        out.setdefault(found.group(1), []).append(message)
    return out


def test_guide_examples_are_valid_messages() -> None:
    examples = _guide_examples()
    for name in ("StartMatchRequest", "StartMatchResponse", "DecideRequest", "DecideResponse",
                 "EndHandRequest", "EndMatchRequest"):
        assert name in examples, f"docs/protocol.md has no {name} example"
    (decide,) = examples["DecideRequest"]
    (reply,) = examples["DecideResponse"]
    assert reply.request_id == decide.request_id
    assert reply.action in decide.observation.legal_actions
    assert len(decide.observation.hand_sizes) == 4
    assert sum(len(c.cards) for c in examples["EndHandRequest"][0].deal) == 52


def _guide_bot() -> dict[str, Any]:
    (source,) = _guide_blocks("python")
    namespace: dict[str, Any] = {"__name__": "guide_bot"}
    exec(compile(source, str(GUIDE), "exec"), namespace)
    return namespace


# ------------------------------------------------------------------------ round trip


def test_every_rpc_round_trips_over_a_unix_socket() -> None:
    """The guide's bot, served on a real socket, answers health, StartMatch, Decide, EndHand
    and EndMatch, each with a deadline."""
    examples = _guide_examples()
    bot = _guide_bot()
    with tempfile.TemporaryDirectory(prefix="dehla-") as folder:
        address = f"unix:{folder}/seat2.sock"
        server = bot["serve"](address)
        try:
            with grpc.insecure_channel(address) as channel:
                health = health_pb2_grpc.HealthStub(channel)
                for name in ("", protocol.SERVICE_NAME):
                    status = health.Check(health_pb2.HealthCheckRequest(service=name), timeout=5)
                    assert status.status == health_pb2.HealthCheckResponse.SERVING
                stub = rpc.BotServiceStub(channel)
                started = stub.StartMatch(examples["StartMatchRequest"][0], timeout=5)
                assert tuple(
                    (started.protocol_version.major, started.protocol_version.minor)
                ) == protocol.PROTOCOL_VERSION
                request = examples["DecideRequest"][0]
                reply = stub.Decide(request, timeout=1.2)
                assert reply.request_id == request.request_id
                assert reply.action == request.observation.legal_actions[0]
                assert reply.action.WhichOneof("kind") == "play_card"
                assert stub.EndHand(examples["EndHandRequest"][0], timeout=1) == pb.EndHandResponse()
                for end in examples["EndMatchRequest"]:
                    assert stub.EndMatch(end, timeout=1) == pb.EndMatchResponse()
                wrong = pb.StartMatchRequest(protocol_version=pb.ProtocolVersion(major=2))
                with pytest.raises(grpc.RpcError) as refused:
                    stub.StartMatch(wrong, timeout=5)
                assert refused.value.code() is grpc.StatusCode.FAILED_PRECONDITION
        finally:
            server.stop(grace=None)
