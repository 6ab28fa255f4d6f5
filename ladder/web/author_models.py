"""What an author's own pages and ``/api/me/...`` show: their bots, uploads and bots' logs."""

from __future__ import annotations

from pydantic import Field

from ladder.store.read_model import VersionStatus
from ladder.web.models import MatchSummary, _Model


class LogLink(_Model):
    """Where one bot log is shown: a page (escaped), the raw text, and the API."""

    label: str
    page: str
    raw: str
    api: str


class MyVersion(_Model):
    version_id: int
    number: int
    label: str
    content_hash: str
    submitted: str
    status: VersionStatus = Field(description="`active` (the newest, scheduled), `superseded` or `disabled`.")
    validation_logs: list[LogLink] = Field(description="The logs of its validation matches.")


class MyBot(_Model):
    name: str
    disabled: bool = Field(description="An operator disabled the bot: none of its versions is scheduled.")
    versions: list[MyVersion]


class MyMatch(_Model):
    """A match one of the author's bots played, with the logs of the seats it sat in."""

    match: MatchSummary
    logs: list[LogLink]


class BotLogModel(_Model):
    """One bot's log (its stdout and stderr as the referee kept them), for its author only."""

    bot: str
    source: str = Field(description="Which match or validation match, and which seat.")
    size: int = Field(description="The file's size in bytes.")
    truncated: bool = Field(description="Only the first `shown_bytes` are in `text`.")
    shown_bytes: int
    text: str = Field(description="UTF-8, undecodable bytes replaced; bot output, never markup.")
