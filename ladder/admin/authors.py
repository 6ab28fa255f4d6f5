"""Authors and their API tokens: issue one (shown once), rotate, revoke, and check one.

A token reads ``dehla_<author id>_<secret>``: the id says which row to look at, the secret is
256 random bits of which only a SHA-256 is stored. A plain hash is enough for a secret that
cannot be guessed (a slow password hash protects low-entropy secrets; this one is not), and
the comparison is ``hmac.compare_digest``, so the time taken says nothing about how much of a
wrong secret matched. Nothing here logs or repeats a token; errors name the author, not it.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from arena.engine.errors import ArenaError
from ladder.store.database import Store
from ladder.store.schema import Author, Role, utcnow

TOKEN_PREFIX = "dehla_"
SECRET_BYTES = 32
"""256 bits: the issue asks for at least 128."""
NAME_PATTERN = re.compile(r"^[a-z][a-z0-9_-]{1,31}$")
"""The same shape as a bot's name: lowercase, 2-32 characters."""
EMAIL_PATTERN = re.compile(r"^[^@\s<>\"']{1,64}@[^@\s<>\"']{1,189}$")
TOKEN_PATTERN = re.compile(r"^dehla_([1-9][0-9]{0,17})_([A-Za-z0-9_-]{43})$")


class AuthorError(ArenaError):
    """A bad author name or e-mail, an author that exists already or is unknown."""


@dataclass(frozen=True, slots=True)
class AuthorView:
    """An author as the rest of the arena sees them: never with a token or its hash."""

    id: int
    name: str
    email: str | None
    role: Role
    has_token: bool

    @property
    def is_operator(self) -> bool:
        return self.role is Role.OPERATOR


@dataclass(frozen=True, slots=True)
class IssuedToken:
    """A new token, to be shown to its author once and then forgotten."""

    author: AuthorView
    token: str


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode("ascii")).hexdigest()


def _view(row: Author) -> AuthorView:
    return AuthorView(row.id, row.name, row.email, row.role, row.token_hash is not None)


def _new_secret() -> str:
    return secrets.token_urlsafe(SECRET_BYTES)


def check_name(name: str) -> str:
    if not NAME_PATTERN.fullmatch(name):
        raise AuthorError(f"author name {name!r}: use 2-32 characters: a lowercase letter, then lowercase "
                          "letters, digits, '-' or '_'")
    return name


def check_email(email: str | None) -> str | None:
    if email is not None and not EMAIL_PATTERN.fullmatch(email):
        raise AuthorError(f"e-mail {email!r}: not an address of the form name@host")
    return email


def add_author(store: Store, name: str, email: str | None = None, role: Role = Role.AUTHOR) -> IssuedToken:
    """Create the author ``name`` and issue their first token."""
    check_name(name)
    check_email(email)
    secret = _new_secret()
    with store.transaction() as session:
        if session.scalar(select(Author.id).where(Author.name == name)) is not None:
            raise AuthorError(f"author {name!r} exists already (to issue a new token: dehla author token "
                              f"{name} --rotate)")
        row = Author(name=name, email=email, role=role, token_hash=hash_secret(secret), token_issued_at=utcnow())
        session.add(row)
        session.flush()
        view = _view(row)
    return IssuedToken(view, f"{TOKEN_PREFIX}{view.id}_{secret}")


def rotate_token(store: Store, name: str) -> IssuedToken:
    """Issue ``name`` a new token; the old one stops working at once."""
    secret = _new_secret()
    with store.transaction() as session:
        row = _find(session, name)
        row.token_hash = hash_secret(secret)
        row.token_issued_at = utcnow()
        view = _view(row)
    return IssuedToken(view, f"{TOKEN_PREFIX}{view.id}_{secret}")


def revoke_token(store: Store, name: str) -> AuthorView:
    """``name`` has no working token until one is rotated in."""
    with store.transaction() as session:
        row = _find(session, name)
        row.token_hash = None
        row.token_issued_at = utcnow()
        return _view(row)


def list_authors(store: Store) -> list[AuthorView]:
    with store.reading() as session:
        return [_view(row) for row in session.scalars(select(Author).order_by(Author.name))]


def find_author(store: Store, name: str) -> AuthorView:
    with store.reading() as session:
        return _view(_find(session, name))


def authenticate(store: Store, token: str) -> AuthorView | None:
    """The author whose current token ``token`` is; ``None`` for a malformed, unknown, revoked or
    replaced one (the caller says only "not a valid token", never which)."""
    match = TOKEN_PATTERN.fullmatch(token)
    if match is None:
        return None
    author_id, secret = int(match.group(1)), match.group(2)
    with store.reading() as session:
        row = session.get(Author, author_id)
        if row is None or row.token_hash is None:
            hmac.compare_digest(hash_secret(secret), hash_secret(""))  # the same work as a real check
            return None
        if not hmac.compare_digest(hash_secret(secret), row.token_hash):
            return None
        return _view(row)


def _find(session: Session, name: str) -> Author:
    row = session.scalar(select(Author).where(Author.name == name))
    if row is None:
        raise AuthorError(f"no author {name!r} (see: dehla author list)")
    return row
