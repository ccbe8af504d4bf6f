"""Reading YAML while remembering where each mapping, key and list item came from, so that every error in a
scenario or table names its file and line."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

MAX_BYTES = 4 * 1024 * 1024  # a scenario larger than this is refused rather than read


class SourceError(Exception):
    """A problem in an input file, reported as ``file:line: message`` on one line."""

    def __init__(self, path: Path | str, line: int | None, message: str):
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


def load(path: Path) -> Any:
    """Parse one YAML file with line information; any failure is a :class:`SourceError`."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise SourceError(path, None, f"cannot read: {exc.strerror or exc}") from None
    if size > MAX_BYTES:
        raise SourceError(path, None, f"file is {size} bytes; the limit is {MAX_BYTES}")
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise SourceError(path, None, f"cannot read: {exc.strerror or exc}") from None
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


def loads(text: str, path: Path | str = "<string>") -> Any:
    """Parse YAML text with line information; any failure is a :class:`SourceError`."""
    try:
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
