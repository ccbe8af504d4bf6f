"""The documents' tables, read from ``fixtures/tables/`` and looked up by the model.

A table is a list of rows; each row has an id (a clause id), the conditions under which it applies (``when``)
and what it decides (``then``). A condition is ``yes``/``no`` (true/false), a literal value, a list of
acceptable values, or ``either``. Inputs a row does not name are ``either``.

Tables are immutable values. The model receives them through a :class:`Spec`, so a mutant model is the same
code given a changed table.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import yaml

EITHER = "either"


class TableError(ValueError):
    """A table file that does not have the shape this module reads."""


@dataclass(frozen=True)
class Row:
    """One row of a table: its clause id, its conditions and its decision."""

    id: str
    when: Mapping[str, Any]
    then: Mapping[str, Any]

    def matches(self, facts: Mapping[str, Any]) -> bool:
        """True when every condition of the row holds for ``facts``."""
        for name, wanted in self.when.items():
            if wanted == EITHER:
                continue
            have = facts[name]
            if isinstance(wanted, list):
                if have not in wanted:
                    return False
            elif have != wanted:
                return False
        return True


@dataclass(frozen=True)
class Table:
    """A table of rows. ``match`` is ``unique`` (at most one row may apply) or ``first`` (first row wins)."""

    id: str
    title: str
    source: Mapping[str, Any]
    match: str
    inputs: tuple[str, ...]
    outputs: Mapping[str, Any]
    rows: tuple[Row, ...]
    _memo: dict = field(default_factory=dict, compare=False, repr=False, hash=False)
    # "decision": the model decides by the rows; "examples": IBM's worked examples, which tests check the model
    # against and the model never reads (so they are not in a Spec, and no mutant changes them)
    kind: str = "decision"

    def lookup(self, **facts: Any) -> Row | None:
        """The row that decides for ``facts``, or None when no row applies."""
        key = tuple(map(facts.__getitem__, self.inputs))
        try:
            return self._memo[key]
        except KeyError:
            pass
        found = [row for row in self.rows if row.matches(facts)]
        if self.match == "unique" and len(found) > 1:
            raise TableError(f"{self.id}: rows {[r.id for r in found]} all match {facts}")
        row = found[0] if found else None
        self._memo[key] = row
        return row

    def row(self, row_id: str) -> Row:
        """The row with id ``row_id``."""
        for row in self.rows:
            if row.id == row_id:
                return row
        raise KeyError(row_id)

    def with_row(self, row_id: str, **then: Any) -> Table:
        """A copy of this table with one row's decision changed (how table mutants are made)."""
        rows = tuple(replace(r, then={**r.then, **then}) if r.id == row_id else r for r in self.rows)
        return replace(self, rows=rows, _memo={})

    def input_values(self, name: str) -> list[Any]:
        """Every value input ``name`` takes in some row (``either`` expanded to yes and no)."""
        values: list[Any] = []
        for row in self.rows:
            wanted = row.when.get(name, EITHER)
            options = [True, False] if wanted == EITHER else wanted if isinstance(wanted, list) else [wanted]
            values.extend(v for v in options if v not in values)
        return values

    def combinations(self) -> list[dict[str, Any]]:
        """Every combination of input values the table's rows speak of."""
        names = list(self.inputs)
        return [dict(zip(names, combo)) for combo in itertools.product(*(self.input_values(n) for n in names))]


@dataclass(frozen=True)
class OptionRule:
    """One documented rule about which options of a field may be combined.

    Exactly one of the shapes applies: ``at_most_one`` (no two of these), ``at_least_one`` (one of these is
    needed), or ``if_any`` + ``requires_one_of`` (any of the first needs one of the second). ``calls`` limits
    the rule to some verbs (``MQPUT1``); ``forbidden`` names options a call must not use at all; ``objects``
    limits it to some kinds of object opened (fixtures/tables/open-object-types.yaml: ``topic``, ``remote-queue``...).
    """

    id: str
    reason: str
    at_most_one: tuple[str, ...] = ()
    at_least_one: tuple[str, ...] = ()
    if_any: tuple[str, ...] = ()
    requires_one_of: tuple[str, ...] = ()
    forbidden: tuple[str, ...] = ()
    calls: tuple[str, ...] = ()
    objects: tuple[str, ...] = ()


@dataclass(frozen=True)
class OptionRules:
    """A list of option rules for one option field (``family``: MQOO, MQPMO, MQGMO...), checked in order."""

    id: str
    title: str
    source: Mapping[str, Any]
    family: str
    rows: tuple[OptionRule, ...]
    memo: dict = field(default_factory=dict, compare=False, repr=False, hash=False)

    def row(self, row_id: str) -> OptionRule:
        """The rule with id ``row_id``."""
        for row in self.rows:
            if row.id == row_id:
                return row
        raise KeyError(row_id)


def _load_option_rules(path: Path, data: dict) -> OptionRules:
    rows = []
    for r in data["rows"]:
        rows.append(OptionRule(
            id=r["id"],
            reason=r.get("reason", "MQRC_OPTIONS_ERROR"),
            at_most_one=tuple(r.get("at-most-one", ())),
            at_least_one=tuple(r.get("at-least-one", ())),
            if_any=tuple(r.get("if-any", ())),
            requires_one_of=tuple(r.get("requires-one-of", ())),
            forbidden=tuple(r.get("forbidden", ())),
            calls=tuple(r.get("calls", ())),
            objects=tuple(r.get("objects", ())),
        ))
    return OptionRules(data["id"], data.get("title", ""), data.get("source", {}), data["family"], tuple(rows))


# libyaml's safe loader where PyYAML has it (about seven times faster: every model, mutant and Spark worker reads
# the tables), the pure-Python one otherwise; both give the same values.
_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_table(path: Path) -> Table | OptionRules:
    """Read one table file; raise :class:`TableError` naming the file for anything malformed."""
    try:
        data = yaml.load(path.read_text(), Loader=_SAFE_LOADER)  # noqa: S506 - a safe loader
    except yaml.YAMLError as exc:
        raise TableError(f"{path}: not valid YAML: {exc}") from None
    if isinstance(data, dict) and data.get("kind") == "option-rules":
        try:
            return _load_option_rules(path, data)
        except (KeyError, TypeError) as exc:
            raise TableError(f"{path}: missing or malformed field {exc}") from None
    try:
        inputs = tuple(data["inputs"])
        rows = tuple(Row(id=r["id"], when=dict(r.get("when") or {}), then=dict(r["then"])) for r in data["rows"])
        table = Table(
            id=data["id"],
            title=data.get("title", ""),
            source=data.get("source", {}),
            match=data.get("match", "unique"),
            inputs=inputs,
            outputs=data.get("outputs", {}),
            rows=rows,
            kind=data.get("kind", "decision"),
        )
    except (KeyError, TypeError) as exc:
        raise TableError(f"{path}: missing or malformed field {exc}") from None
    for row in rows:
        unknown = set(row.when) - set(inputs)
        if unknown:
            raise TableError(f"{path}: row {row.id} names unknown inputs {sorted(unknown)}")
    if table.kind not in ("decision", "examples"):
        raise TableError(f"{path}: kind must be 'decision', 'examples' or 'option-rules', not {table.kind!r}")
    if table.match not in ("unique", "first"):
        raise TableError(f"{path}: match must be 'unique' or 'first', not {table.match!r}")
    return table


def tables_dir() -> Traversable:
    """Where the installed suite keeps its table files: a folder, or a folder inside the zip a campaign ships to
    Spark's executors (read through importlib.resources either way)."""
    return files("mq_conformance.fixtures") / "tables"


@dataclass(frozen=True)
class Spec:
    """The tables the model decides by, keyed by table id.

    ``memo`` remembers what the model derives from the tables for a combination of options and state
    (reference/put.py, reference/get.py); a changed Spec (:meth:`with_table`) starts with an empty one, so a
    mutant never sees the model's answers.
    """

    tables: Mapping[str, Table | OptionRules]
    memo: dict = field(default_factory=dict, compare=False, repr=False, hash=False)

    def __getitem__(self, table_id: str) -> Any:
        return self.tables[table_id]

    def with_table(self, table: Table | OptionRules) -> Spec:
        """A copy with one table replaced."""
        return Spec({**self.tables, table.id: table})

    @classmethod
    def load(cls, directory: Path | Traversable | None = None) -> Spec:
        """Read every ``*.yaml`` table in ``directory`` (default: the suite's fixtures)."""
        directory = directory or tables_dir()
        tables = {}
        for path in sorted((p for p in directory.iterdir() if p.name.endswith(".yaml") and p.is_file()),
                           key=lambda p: p.name):
            table = load_table(path)
            if getattr(table, "kind", "decision") != "examples":
                tables[table.id] = table
        return cls(tables)


def every_table(directory: Path | Traversable | None = None) -> list[Table | OptionRules]:
    """Every table file's table, the examples included (for checks that each row has a clause)."""
    directory = directory or tables_dir()
    return [load_table(p) for p in sorted((p for p in directory.iterdir() if p.name.endswith(".yaml") and p.is_file()),
                                          key=lambda p: p.name)]


def load_examples(name: str, directory: Path | Traversable | None = None) -> Table:
    """A table of IBM's worked examples (``kind: examples``) by its file name, for the tests that check the model
    against it."""
    table = load_table((directory or tables_dir()) / name)
    if not isinstance(table, Table) or table.kind != "examples":
        raise TableError(f"{name}: not a table of examples")
    return table


_DEFAULT: list[Spec] = []


def default_spec() -> Spec:
    """The suite's own tables, read once per process (they are immutable)."""
    if not _DEFAULT:
        _DEFAULT.append(Spec.load())
    return _DEFAULT[0]
