"""Reading YAML while remembering where each mapping, key and list item came from, so that every error in a
scenario or table names its file and line."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

MAX_BYTES = 4 * 1024 * 1024  # a scenario larger than this is refused rather than read
# Budgets checked on the parser's events before anything is built, so that a hostile file costs at most one pass
# over its text in bounded memory: libyaml's composer recurses in C (30,000 nested '[' overflow its stack) and ours
# in Python, and aliases let a few lines stand for gigabytes that a later walk or str() would expand.
MAX_DEPTH = 64  # nested mappings and lists (the scenarios need 6)
MAX_ALIASES = 1000  # *alias references in one file
MAX_EXPANDED = MAX_BYTES  # characters of the document with every alias replaced by what it names


class SourceError(Exception):
    """A problem in an input file, reported as ``file:line: message`` on one line."""

    MAX_MESSAGE = 600  # characters: a message quoting a huge value is cut short

    def __init__(self, path: Path | str, line: int | None, message: str):
        if len(message) > self.MAX_MESSAGE:
            message = message[: self.MAX_MESSAGE - 3] + "..."
        self.path, self.line, self.message = str(path), line, message
        where = f"{self.path}:{line}" if line else self.path
        super().__init__(f"{where}: {message}")


class LineDict(dict):
    """A mapping that knows the line it starts on and the line of each key."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.line = 0
        self.key_lines: dict = {}

    def line_of(self, key: Any) -> int:
        return self.key_lines.get(key, self.line)


class LineList(list):
    """A list that knows the line it starts on and the line of each item."""

    def __init__(self, *args):
        super().__init__(*args)
        self.line = 0
        self.item_lines: list = []

    def line_of(self, index: int) -> int:
        return self.item_lines[index] if 0 <= index < len(self.item_lines) else self.line


# libyaml's loader when it is there (about eight times faster on the scenario files), the pure one otherwise.
class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    pass


def _mapping(loader: _Loader, node: yaml.MappingNode) -> LineDict:
    result = LineDict()
    result.line = node.start_mark.line + 1
    result.key_lines = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        try:
            hash(key)
        except TypeError:
            raise yaml.constructor.ConstructorError(None, None, "a mapping key must be a plain value",
                                                    key_node.start_mark) from None
        if key in result:
            raise yaml.constructor.ConstructorError(None, None, f"duplicate key {key!r}", key_node.start_mark)
        result[key] = loader.construct_object(value_node, deep=True)
        result.key_lines[key] = key_node.start_mark.line + 1
    return result


def _sequence(loader: _Loader, node: yaml.SequenceNode) -> LineList:
    result = LineList(loader.construct_object(child, deep=True) for child in node.value)
    result.line = node.start_mark.line + 1
    result.item_lines = [child.start_mark.line + 1 for child in node.value]
    return result


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _sequence)


def load(path: Path, root: Path | None = None) -> Any:
    """Parse one YAML file with line information; any failure is a :class:`SourceError`. A file on disk is read
    through the confined reader (infiles.py): a regular file, inside ``root`` when given (the folder it was found
    in), at most :data:`MAX_BYTES` counted while reading; a FIFO, a device or a link out of ``root`` is refused."""
    from .infiles import UnsafeFile, read_bytes

    try:
        if isinstance(path, Path):
            raw = read_bytes(path, MAX_BYTES, root)
        else:  # a file of the suite inside the zip shipped to Spark's executors (importlib.resources)
            raw = path.read_bytes()
    except UnsafeFile as exc:
        too_big = exc.why.startswith("more than")
        why = f"file is more than {MAX_BYTES} bytes; the limit is {MAX_BYTES}" if too_big else exc.why
        raise SourceError(path, None, why) from None
    except (OSError, KeyError) as exc:  # KeyError: no such member of a zip
        raise SourceError(path, None, f"cannot read: {getattr(exc, 'strerror', None) or exc}") from None
    if len(raw) > MAX_BYTES:
        raise SourceError(path, None, f"file is {len(raw)} bytes; the limit is {MAX_BYTES}")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - raw.rfind(b"\n", 0, exc.start)
        raise SourceError(path, line, f"not UTF-8 text: byte 0x{raw[exc.start]:02x} at column {column}") from None
    if "\0" in text:
        index = text.index("\0")
        raise SourceError(path, text.count("\n", 0, index) + 1, "a NUL character is not allowed in YAML") from None
    return loads(text, path)


_INDENT = re.compile(r"^[ \t?:-]*", re.MULTILINE)


def _may_exceed_budget(text: str) -> bool:
    """False when ``text`` certainly has no alias and nests at most :data:`MAX_DEPTH` deep: every level of block
    nesting takes at least one more column of indentation (or of ``- ``), every level of flow nesting a bracket."""
    if "*" in text:
        return True
    flow = text.count("[") + text.count("{")
    if flow > MAX_DEPTH:
        return True
    block = max((len(match) for match in _INDENT.findall(text)), default=0)
    return flow + block + 1 > MAX_DEPTH


def check_budget(text: str, path: Path | str = "<string>") -> None:
    """Refuse, with a :class:`SourceError` naming the line, YAML that nests more than :data:`MAX_DEPTH` deep,
    uses more than :data:`MAX_ALIASES` aliases, an alias inside what it names, or expands beyond
    :data:`MAX_EXPANDED` characters. Reads the parser's events only (no recursion, nothing built)."""
    if not _may_exceed_budget(text):
        return
    open_sizes = [0]  # expanded size of each collection being read
    open_anchors: list[str | None] = []
    anchors: dict[str, int] = {}
    total = aliases = 0
    for event in yaml.parse(text, Loader=_Loader):
        line = event.start_mark.line + 1 if event.start_mark else None
        if isinstance(event, yaml.CollectionStartEvent):
            if len(open_anchors) >= MAX_DEPTH:
                raise SourceError(path, line, f"nested more than {MAX_DEPTH} deep")
            open_anchors.append(event.anchor)
            open_sizes.append(1)
            size = 1
        elif isinstance(event, yaml.CollectionEndEvent):
            size = open_sizes.pop()
            anchor = open_anchors.pop()
            if anchor is not None:
                anchors[anchor] = size
            open_sizes[-1] += size
            continue
        elif isinstance(event, yaml.ScalarEvent):
            size = 1 + len(event.value)
            if event.anchor is not None:
                anchors[event.anchor] = size
            open_sizes[-1] += size
        elif isinstance(event, yaml.AliasEvent):
            aliases += 1
            if aliases > MAX_ALIASES:
                raise SourceError(path, line, f"more than {MAX_ALIASES} aliases")
            if event.anchor in open_anchors:
                raise SourceError(path, line, f"alias *{event.anchor} refers to a collection that contains it")
            size = anchors.get(event.anchor, 1)
            open_sizes[-1] += size
        else:
            continue
        total += size
        if total > MAX_EXPANDED:
            raise SourceError(path, line, f"its aliases expand the file beyond {MAX_EXPANDED} characters, the limit "
                                          f"(an alias bomb?)")


def loads(text: str, path: Path | str = "<string>") -> Any:
    """Parse YAML text with line information; any failure is a :class:`SourceError`. Texts that nest too deep or
    expand too far through aliases are refused before anything is built (:func:`check_budget`)."""
    try:
        check_budget(text, path)
        return yaml.load(text, Loader=_Loader)  # noqa: S506 - _Loader is a SafeLoader
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        problem = " ".join(str(part) for part in (exc.context, exc.problem) if part)
        raise SourceError(path, line, f"not valid YAML: {problem}") from None
    except (yaml.YAMLError, RecursionError, ValueError, OverflowError) as exc:
        raise SourceError(path, None, f"not valid YAML: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}") from None


_SEGMENT = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def line_at(node: Any, path: str, default: int) -> int:
    """The line of the deepest element of ``node`` that a dotted path such as ``MD.MsgFlags[0]`` reaches."""
    line = default
    for name, index in _SEGMENT.findall(path):
        if isinstance(node, LineDict) and name and name in node:
            line = node.line_of(name)
            node = node[name]
        elif isinstance(node, LineList) and index:
            line = node.line_of(int(index))
            node = node[int(index)]
        else:
            break
    return line
