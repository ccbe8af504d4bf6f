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

# C0 and C1 controls, DEL, and the invisible formatting characters (bidirectional overrides and isolates,
# zero-width characters, line and paragraph separators) that change how the rest of a line is shown, and lone
# surrogates (JSON can carry them; no terminal or file encoding can).
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ufff9-\ufffb"
                     "\ud800-\udfff]")
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


def for_markdown(text: object, limit: int | None = 500) -> str:
    """``text`` for one line (or table cell) of Markdown: as :func:`for_terminal`, then every character that
    Markdown or HTML gives a meaning (``<``, ``|``, ``*``, `````...) escaped, so it shows as written."""
    text = for_terminal(text, limit)
    return _MARKDOWN.sub(lambda m: _ENTITIES.get(m.group(), "\\" + m.group()), text)
