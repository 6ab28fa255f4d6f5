"""Authors' tokens: shown once, stored only as a hash, replaced by a rotation, ended by a revoke."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from ladder.admin.authors import (
    AuthorError,
    add_author,
    authenticate,
    find_author,
    hash_secret,
    list_authors,
    revoke_token,
    rotate_token,
)
from ladder.store.database import Store
from ladder.store.schema import Author, Role
from tests.database import contents
from tests.ladder_helpers import open_store


@pytest.fixture()
def store(tmp_path: Path) -> Store:
    return open_store(tmp_path)


def test_a_new_token_works_and_only_its_hash_is_stored(store: Store) -> None:
    issued = add_author(store, "asha", "asha@example.org")
    assert authenticate(store, issued.token) == issued.author
    assert issued.author.role is Role.AUTHOR and issued.author.has_token
    secret = issued.token.split("_", 2)[2]  # the secret itself may hold a "_"
    assert len(secret) == 43  # 256 bits, urlsafe base64
    with store.reading() as session:
        row = session.scalars(select(Author)).one()
        assert row.token_hash == hash_secret(secret)
        assert secret not in repr(vars(row))
    store.close()
    assert secret.encode() not in b"".join(path.read_bytes() for path in store.data.root.glob("ladder.db*"))
    assert secret not in repr(contents(store.data.database_url))  # on PostgreSQL, the rows


def test_rotation_replaces_the_token_and_revocation_ends_it(store: Store) -> None:
    old = add_author(store, "asha")
    new = rotate_token(store, "asha")
    assert new.token != old.token
    assert authenticate(store, old.token) is None
    assert authenticate(store, new.token) == new.author
    revoked = revoke_token(store, "asha")
    assert not revoked.has_token
    assert authenticate(store, new.token) is None
    assert find_author(store, "asha") == revoked


def test_another_authors_secret_under_my_id_is_refused(store: Store) -> None:
    asha = add_author(store, "asha")
    bilal = add_author(store, "bilal")
    forged = f"dehla_{asha.author.id}_{bilal.token.rsplit('_', 1)[1]}"
    assert authenticate(store, forged) is None


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=80))
def test_no_arbitrary_string_authenticates(token: str) -> None:
    assert authenticate(_SHARED, token) is None


def test_names_emails_and_duplicates_are_refused_in_one_line(store: Store) -> None:
    add_author(store, "asha")
    for name, email, message in [("asha", None, "exists already"), ("Asha", None, "author name 'Asha'"),
                                 ("a", None, "author name 'a'"), ("bilal", "not-an-address", "e-mail"),
                                 ("bilal", "<b>@x", "e-mail")]:
        with pytest.raises(AuthorError, match=message):
            add_author(store, name, email)
    with pytest.raises(AuthorError, match="no author 'zed'"):
        rotate_token(store, "zed")
    assert [a.name for a in list_authors(store)] == ["asha"]


def test_an_operator_is_an_operator(store: Store) -> None:
    boss = add_author(store, "boss", role=Role.OPERATOR)
    assert boss.author.is_operator and not add_author(store, "asha").author.is_operator


_SHARED: Store


@pytest.fixture(autouse=True, scope="module")
def _shared_store(tmp_path_factory: pytest.TempPathFactory) -> None:
    global _SHARED
    _SHARED = open_store(tmp_path_factory.mktemp("shared"))
    add_author(_SHARED, "asha")
