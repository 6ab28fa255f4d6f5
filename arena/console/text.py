"""Printing untrusted text (from a bot, a manifest, a record or the store) on a terminal.

Such text is shown literally: control characters (an ESC sequence can move the cursor, rewrite
earlier lines or set the window title) become visible escapes such as ``\\x1b``, and Rich never
reads it as markup (``[/bold]`` would crash the print, ``[link=...]`` would inject a link):
``plain`` makes a ``rich.text.Text``, which Rich prints as it is, without markup or emoji codes.
"""

from __future__ import annotations

import re

from rich.text import Text

_HIDDEN = re.compile(
    "[\x00-\x08\x0a-\x1f\x7f-\x9f"  # C0 (all but tab), DEL, C1 (0x9b is a one-byte CSI)
    "\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2069\ufeff]"  # bidi and invisible format marks
)
_HIDDEN_KEEP_NEWLINES = re.compile(_HIDDEN.pattern.replace("\x0a-\x1f", "\x0b-\x1f"))


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(value: object, *, multiline: bool = False) -> str:
    """``value`` as text with every control or invisible formatting character shown as an escape
    (newlines too, unless ``multiline``), so that it cannot act on the terminal or fake a line."""
    pattern = _HIDDEN_KEEP_NEWLINES if multiline else _HIDDEN
    return pattern.sub(_escape, str(value))


def plain(value: object, style: str = "", *, multiline: bool = False) -> Text:
    """``value`` as Rich text shown literally (no markup, no emoji codes, no control characters)."""
    return Text(visible(value, multiline=multiline), style=style)
