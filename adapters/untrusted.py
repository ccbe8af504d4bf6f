"""Text an implementation wrote (its name, version, error messages, stderr lines), made safe for where it goes.

Everything an implementation says is untrusted: it may hold terminal escape codes (clear the screen, move the
cursor), CR and LF (forge a line such as ``332 passed``), bidirectional overrides (show text reversed), or
Markdown and HTML (``<script>``). One helper per destination, used wherever such text is printed or written:

- :func:`for_terminal`: one line, every control or invisible formatting character shown as a visible escape
  (``\\x1b``, ``\\r``, ``\\n``, ``\\u202e``), cut to a length;
- :func:`for_markdown`: the same, with Markdown's and HTML's special characters escaped as well (summary.md);
- HTML pages escape through Jinja's autoescape (conformance/html.py).

The text itself is kept as it was in the JSON records (run records, conformance.json): escaping happens where
it is shown, never where it is stored.
"""

from __future__ import annotations

import re
from typing import Any

# C0 and C1 controls, DEL, and the invisible formatting characters (bidirectional overrides and isolates,
# zero-width characters, line and paragraph separators) that change how the rest of a line is shown, and lone
# surrogates (JSON can carry them; no terminal or file encoding can).
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ufff9-\ufffb"
                     "\ud800-\udfff]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
_MARKDOWN = re.compile(r"[\\`*_{}\[\]<>()#+!|~&]")
_ENTITIES = {"<": "&lt;", ">": "&gt;", "&": "&amp;"}


def _visible(match: re.Match) -> str:
    char = match.group()
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _cut(text: str, limit: int | None) -> str:
    return text if limit is None or len(text) <= limit else text[: max(limit - 3, 0)] + "..."


def for_terminal(text: object, limit: int | None = 500) -> str:
    """``text`` as one line that a terminal shows as it is: control characters, invisible formatting characters
    and lone surrogates written as visible escapes, at most ``limit`` characters (None: no limit)."""
    return _cut(_UNSAFE.sub(_visible, str(text)), limit)


# NUL, the C0 controls but tab and newline, DEL, and lone surrogates: what no text file should hold as it is.
_INVISIBLE = re.compile("[\x00-\x08\x0b-\x1f\x7f\ud800-\udfff]")


def visible(text: object) -> str:
    """``text`` as valid, visible text for any file: NUL, control characters (but tab and newline) and lone
    surrogates written as escapes (``\\x00``, ``\\udc80``). The one function every string from outside passes
    through before a renderer escapes it for its format (HTML, Markdown, terminal)."""
    text = str(text)
    return _INVISIBLE.sub(_visible, text) if _INVISIBLE.search(text) else text


MAX_RECORDED = 4096  # characters of one text of an implementation's answer kept in a run's records


def bounded(value: Any, limit: int = MAX_RECORDED) -> Any:
    """``value`` (a JSON value from an implementation) as a run records it: every text longer than ``limit``
    characters cut, saying how long it was (``"xxxx... [1048576 characters]"``), every lone surrogate written as
    an escape (no file encoding can hold one). Containers are walked; anything else is kept as it is."""
    if isinstance(value, str):
        text = value if len(value) <= limit else f"{value[:limit]}... [{len(value)} characters]"
        return _SURROGATE.sub(_visible, text) if _SURROGATE.search(text) else text
    if isinstance(value, dict):
        return {bounded(k, 200) if isinstance(k, str) else k: bounded(v, limit) for k, v in value.items()}
    if isinstance(value, list):
        return [bounded(item, limit) for item in value]
    return value


def for_markdown(text: object, limit: int | None = 500) -> str:
    """``text`` for one line (or table cell) of Markdown: as :func:`for_terminal`, then every character that
    Markdown or HTML gives a meaning (``<``, ``|``, ``*``, `````...) escaped, so it shows as written."""
    text = for_terminal(text, limit)
    return _MARKDOWN.sub(lambda m: _ENTITIES.get(m.group(), "\\" + m.group()), text)
