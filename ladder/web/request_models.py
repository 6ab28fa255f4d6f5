"""The base of every request body the service reads: strict types and text UTF-8 can hold.

Pydantic's default (lax) mode reads ``"yes"``, ``"true"`` and ``1`` as ``True``: an operator's
typo would grant a role. And JSON's ``"\\udcff"`` escape decodes to a lone surrogate, which no
store can write (a 500 once it reached the database); it is refused here with one line.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, field_validator


class RequestModel(BaseModel):
    """A request body: unknown fields, values of the wrong JSON type and unencodable text are 422s."""

    model_config = ConfigDict(extra="forbid", strict=True)

    @field_validator("*", mode="after")
    @classmethod
    def _utf8_text(cls, value: object) -> object:
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                raise ValueError("text must be valid Unicode (a lone surrogate such as \\udcff is not)") from None
        return value
