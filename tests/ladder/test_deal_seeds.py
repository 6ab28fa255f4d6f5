"""Deal seeds are keyed with the store's secret: a small ``--seed`` tells a bot nothing.

The attack: ``dehla ladder run --seed S`` with a small S. A bot sees its 13 cards, tries every S
from 0 to 1000 the way ``dehla ladder run`` turns S into match seeds, and finds the S that deals
it those cards: then it knows all four hands of every deal of the match."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from sqlalchemy import create_engine, select

from arena.engine.chance import derive_seed
from arena.engine.deal import Deal
from arena.engine.rules import rules_for
from ladder.coordinator import loop as loop_module
from ladder.coordinator.deal_seeds import KEY_NAME, MissingSecretError, deal_seed, seed_key
from ladder.coordinator.loop import MATCH_SEED_BITS, LadderRun, StopRule
from ladder.coordinator.queue import MatchSettings
from ladder.execution.executors import InlineExecutor
from ladder.rating.ratings import RatingEnv
from ladder.rating.scheduler import Mode, Scheduler
from ladder.store.database import Store, alembic_config
from ladder.store.paths import ArenaData
from ladder.store.schema import Match, StoreSecret
from tests.database import database_url, empty_database_url
from tests.ladder_helpers import add_bots, fake_play, open_store

SMALL_SEED = 417
TRIED = 1001
MATCHES = 3


def run_as_the_cli_does(store: Store, seed: int) -> list[int]:
    """``dehla ladder run --seed SEED --matches 3`` (``ladder/cli/commands.py``'s rng wiring), played
    by a fake player; the stored match seeds, in order."""
    env = RatingEnv()
    rng = random.Random(seed)
    run = LadderRun(store, env, Scheduler(env, Mode.SELF, random.Random(rng.getrandbits(64))),
                    MatchSettings(runner="local"), InlineExecutor, play=fake_play, rng=rng)
    run.run(StopRule(matches=MATCHES))
    with store.reading() as session:
        return list(session.scalars(select(Match.seed).order_by(Match.id)))


def seat_zero_hand(match_seed: int) -> frozenset[int]:
    """What seat 0 sees of the match's first deal: its own 13 cards."""
    rules = rules_for("dehla-pakad")
    return frozenset(Deal.from_seed(rules, derive_seed(match_seed, "deal", 0)).hands[0])


def recover(hand: frozenset[int]) -> int | None:
    """The attacker: the match seed, if some small ``--seed`` deals ``hand`` (the first few
    matches of each run tried)."""
    for seed in range(TRIED):
        rng = random.Random(seed)
        rng.getrandbits(64)  # the scheduler's own seed, drawn first
        for _ in range(MATCHES):
            candidate = rng.getrandbits(MATCH_SEED_BITS)
            if seat_zero_hand(candidate) == hand:
                return candidate
    return None


def stores(tmp_path: Path) -> tuple[Store, Store]:
    """Two stores with different keys (on PostgreSQL every test store is a copy of one migrated
    database, so the second store's key is drawn here, as its own migration would)."""
    first, second = open_store(tmp_path / "a"), open_store(tmp_path / "b")
    with second.transaction() as session:
        session.get_one(StoreSecret, KEY_NAME).value = random.Random(7).randbytes(32).hex()
    for store, name in ((first, "a"), (second, "b")):
        add_bots(store, ["s1", "s2"], tmp_path / name / "src")
    return first, second


def test_a_bot_cannot_recover_the_deal_from_a_small_seed(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    add_bots(store, ["s1", "s2"], tmp_path / "src")
    seeds = run_as_the_cli_does(store, SMALL_SEED)
    assert recover(seat_zero_hand(seeds[0])) is None


def test_with_the_draw_as_the_deal_seed_the_attack_recovers_it(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Negative control: the old derivation (the draw itself) gives the match seed away."""
    monkeypatch.setattr(loop_module, "deal_seed", lambda key, draw: draw)
    store = open_store(tmp_path)
    add_bots(store, ["s1", "s2"], tmp_path / "src")
    seeds = run_as_the_cli_does(store, SMALL_SEED)
    assert recover(seat_zero_hand(seeds[0])) == seeds[0]


def test_the_same_seed_deals_differently_in_another_store_and_the_same_in_the_same(tmp_path: Path) -> None:
    first, second = stores(tmp_path)
    in_first, in_second = run_as_the_cli_does(first, SMALL_SEED), run_as_the_cli_does(second, SMALL_SEED)
    assert len(in_first) == len(in_second) == MATCHES
    assert not set(in_first) & set(in_second)
    with first.reading() as session:
        key = seed_key(session)
    draws = random.Random(SMALL_SEED)
    draws.getrandbits(64)
    assert in_first == [deal_seed(key, draws.getrandbits(MATCH_SEED_BITS)) for _ in range(MATCHES)]
    assert all(0 <= seed < 2**63 for seed in in_first)


def test_each_store_draws_its_own_key_as_it_is_made_or_upgraded(tmp_path: Path) -> None:
    """A new store and one upgraded from 0007 each get a 256-bit key of their own."""
    from alembic import command  # noqa: PLC0415

    made = open_store_empty(tmp_path / "new")
    with made.reading() as session:
        new_key = seed_key(session)
    made.close()
    old = open_store_empty(tmp_path / "old")
    old.close()
    config = alembic_config()
    plain = create_engine(database_url(tmp_path / "old"))
    with plain.begin() as connection:  # the store as 0007 left it: no secret
        config.attributes["connection"] = connection
        command.downgrade(config, "0007")
    plain.dispose()
    upgraded = open_store(tmp_path / "old")
    with upgraded.reading() as session:
        old_key = seed_key(session)
    assert len(new_key) == len(old_key) == 32 and new_key != old_key


def open_store_empty(root: Path) -> Store:
    """A store its own migrations make (on PostgreSQL, not a copy of the session's template)."""
    return Store.open(ArenaData(root, empty_database_url(root)))


def test_a_store_without_its_key_is_refused_in_one_line(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    with store.transaction() as session:
        session.delete(session.get_one(StoreSecret, KEY_NAME))
    with store.reading() as session, pytest.raises(MissingSecretError, match="no deal-seed key"):
        seed_key(session)
