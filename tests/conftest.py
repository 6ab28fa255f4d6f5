"""Fixtures of every test: the database the stores live in (tests/database.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests import database


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "sqlite_only(reason): a test of SQLite itself, skipped on PostgreSQL")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not database.POSTGRES:
        return
    for item in items:
        marker = item.get_closest_marker("sqlite_only")
        if marker is not None:
            reason = marker.args[0] if marker.args else "a test of SQLite itself"
            item.add_marker(pytest.mark.skip(reason=f"SQLite only: {reason}"))


@pytest.fixture(scope="session", autouse=True)
def test_databases() -> Iterator[None]:
    """On PostgreSQL, the databases this session made are dropped at its end."""
    yield
    if database.POSTGRES:
        database.drop_created()
