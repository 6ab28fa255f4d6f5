"""An author's own rows: the bots they own, their uploads, the matches their bots played.

The page (``/me``) and the API (``/api/me/...``) share these, as the public pages share theirs.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from ladder.admin.authors import AuthorView
from ladder.store.read_model import VersionStatus, when
from ladder.store.schema import Bot, BotVersion
from ladder.web.author_models import MyBot, MyMatch, MyVersion
from ladder.web.bot_logs import match_log_links, validation_log_links
from ladder.web.models import MatchSummary, SeatBot
from ladder.web.queries import match_summaries

MY_MATCHES = 50
"""The newest matches of the author's bots on their page."""


def my_bots(session: Session, author: AuthorView) -> list[MyBot]:
    """The bots ``author`` owns, each with every version, newest first."""
    bots = list(session.scalars(select(Bot).where(Bot.owner_id == author.id).order_by(Bot.name)))
    versions: dict[int, list[BotVersion]] = {bot.id: [] for bot in bots}
    for version in session.scalars(select(BotVersion).where(BotVersion.bot_id.in_(versions))
                                   .order_by(BotVersion.number.desc())):
        versions[version.bot_id].append(version)
    return [MyBot(name=bot.name, disabled=bot.disabled_at is not None,
                  versions=[MyVersion(version_id=v.id, number=v.number, label=v.label, content_hash=v.content_hash,
                                      submitted=when(v.created_at) or "",
                                      status=VersionStatus.of(v.disabled_at is not None, newest=i == 0),
                                      validation_logs=validation_log_links(v.id))
                            for i, v in enumerate(versions[bot.id])])
            for bot in bots]


def my_matches(session: Session, author: AuthorView, limit: int = MY_MATCHES) -> list[MyMatch]:
    """The newest matches the author's bots played, with a log link for each seat they held."""
    mine = set(session.scalars(select(BotVersion.id).join(Bot, Bot.id == BotVersion.bot_id)
                               .where(Bot.owner_id == author.id)))
    if not mine:
        return []
    return [MyMatch(match=summary, logs=match_log_links(summary.match_id, [
                seat for seat, bot in enumerate(_seats(summary)) if bot.version_id in mine]))
            for summary in match_summaries(session, version_ids=mine, limit=limit)]


def _seats(summary: MatchSummary) -> list[SeatBot]:
    """Seats 0 to 3: partnership A holds 0 and 2, B holds 1 and 3."""
    (a0, a2), (b1, b3) = summary.team_a, summary.team_b
    return [a0, b1, a2, b3]
