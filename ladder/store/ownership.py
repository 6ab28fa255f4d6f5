"""Who a bot belongs to, and who may add a version to it.

A bot has one owner from its first version on: an author's account (``bots.owner_id``), or the
house, the arena itself (``owner_id`` NULL: a bot submitted on the arena's machine with
``dehla submit FOLDER`` or ``--sample``, by whoever runs the arena). Only the owner adds versions:
an author's upload to someone else's bot or to a house bot, and a local submission to an author's
bot, are refused with one line that names the bot and the kind of its owner (never who). The
sample bots' names are the house's from the start, for every store old or new, whether or not the
sample was submitted yet: they are a list in code, not rows. A store in which an author took a
sample's name before this rule keeps that bot as the author's (never handed over); the house's
``--sample`` of that name is refused (docs/operating.md says what the operator can do).
"""

from __future__ import annotations

from enum import StrEnum

from sqlalchemy import select
from sqlalchemy.orm import Session

from arena.engine.errors import ArenaError
from ladder.store.schema import Bot

HOUSE_NAME = "Dehla Arena (house)"
"""How the house shows as a bot's owner: never an author's name (those are lowercase, no space)."""


class OwnerKind(StrEnum):
    """Who owns a bot: the closed set of kinds a refusal may name."""

    HOUSE = "house"
    """The arena itself: submitted on its machine (``dehla submit FOLDER``, ``--sample``)."""
    AUTHOR = "author"
    """An author's account: uploaded with its token."""

    @classmethod
    def of(cls, owner_id: int | None) -> OwnerKind:
        return cls.HOUSE if owner_id is None else cls.AUTHOR


def reserved_names() -> frozenset[str]:
    """The bot names only the house may use: the sample bots'."""
    from arena.referee.launcher import sample_bot_names  # noqa: PLC0415 - readers of the store never need it

    return frozenset(sample_bot_names())


class NotYourBotError(ArenaError):
    """A version for a bot (or a reserved name) whose owner is not the submitter."""

    def __init__(self, name: str, owner: OwnerKind, submitter: OwnerKind, reserved: bool = False) -> None:
        super().__init__(_reason(name, owner, submitter, reserved))
        self.name = name
        self.owner = owner


def _reason(name: str, owner: OwnerKind, submitter: OwnerKind, reserved: bool) -> str:
    rename = "(choose another name in bot.toml)"
    if reserved:
        return f"bot name {name!r} is reserved for the arena's own sample bot; only the house can submit it {rename}"
    if owner is OwnerKind.HOUSE:
        return f"bot {name!r} belongs to the house (the arena's own bots); only its operator can add versions {rename}"
    if submitter is OwnerKind.HOUSE and name in reserved_names():
        return (f"bot {name!r} belongs to an author's account (taken before sample names were reserved); the "
                "sample cannot be submitted under that name in this store (docs/operating.md, Bot names)")
    whose = "another author" if submitter is OwnerKind.AUTHOR else "an author's account"
    return f"bot {name!r} belongs to {whose}; only they can add versions to it {rename}"


def check_owner(session: Session, name: str, submitter: int | None) -> Bot | None:
    """The bot ``name`` if ``submitter`` (an author's id; ``None``: the house) owns it, ``None`` if
    there is none yet and the name is free to them; else ``NotYourBotError``."""
    bot = session.scalar(select(Bot).where(Bot.name == name))
    kind = OwnerKind.of(submitter)
    if bot is None:
        if kind is OwnerKind.AUTHOR and name in reserved_names():
            raise NotYourBotError(name, OwnerKind.HOUSE, kind, reserved=True)
        return None
    if bot.owner_id != submitter:
        raise NotYourBotError(name, OwnerKind.of(bot.owner_id), kind)
    return bot


def owner_label(account: str | None) -> str:
    """A bot's public author: the owning account's name, or the house's (``account`` None).
    Never the manifest's ``author`` text, which anyone can write."""
    return HOUSE_NAME if account is None else account
