"""Which table cells each scenario and each certification test reads, and which options and outputs its calls
meet, so that ``mqconf strength`` runs a mutant only against the checks that can see it.

A table mutant (adapters/mutants.py) is the model with one cell changed: the ``then`` value ``Field`` of one row
(``table:<row>:<Field>=<value>``), or one option rule gone (``rule-removed:<rule>``). An option-ignored mutant
(adapters/families.py) is the model except on a call that gives its option; an output-unset mutant is the model
except where an outcome returns its field with a value other than the caller's. The model and the suite's checks
are deterministic (the model draws from its seed, the certification tests run with a fixed Hypothesis seed), so a
check that never reads the cell (or never gives the option, or is never returned the field changed) when it runs
against the model runs exactly alike against the mutant: both take the same steps until the first place they
could differ, and there is none. Such a check cannot kill the mutant, and skipping it changes no verdict.

What is read is recorded, not guessed: the model runs on a copy of the tables whose rows log every read of their
``then`` values (a ``Mapping`` that is not a ``dict``, so no read can bypass it) and whose option rules log every
attribute read (a rule is read when it is evaluated), and every call it answers is logged with the options it
gives and the outputs it returns changed (by the same functions the mutants use to decide whether to differ). The
memos of the tables (``Spec.memo``, a table's lookups, an option list's answers) are emptied before each check, so
a check reads for itself what an earlier one could have left remembered. A mutant that runs a check with a memo
already filled by other checks answers as if it computed afresh (the memos are caches of pure functions of the
tables).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

import pytest

from mq_conformance.adapters.families import OPTION_IGNORED, OUTPUT_UNSET, ignorable_options, unset_outputs
from mq_conformance.adapters.reference import ReferenceAdapter
from mq_conformance.reference.calls import Call, Outcome
from mq_conformance.reference.tables import OptionRule, OptionRules, Spec, Table, default_spec

ANY_FIELD = "*"  # the cell of a whole option rule (``rule-removed``)


class Log:
    """The cells read, as ``row id:field`` (``rule id:*`` for an option rule), while :attr:`on` is true."""

    def __init__(self) -> None:
        self.cells: set[str] = set()
        self.on = True

    def add(self, cell: str) -> None:
        if self.on:
            self.cells.add(cell)

    def take(self) -> set[str]:
        """The cells read since the last take, and a fresh start."""
        cells, self.cells = self.cells, set()
        return cells


class RecordingThen(Mapping):
    """A row's ``then``: each value read is logged as ``row id:field``. Iterating or testing membership shows
    keys only, which every mutant keeps; reading a value goes through :meth:`__getitem__` however it is asked
    for (``get``, ``items``, ``values``, ``==``, ``**``)."""

    def __init__(self, row_id: str, data: Mapping[str, Any], log: Log):
        self._row_id, self._data, self._log = row_id, dict(data), log

    def __getitem__(self, key: str) -> Any:
        value = self._data[key]
        self._log.add(f"{self._row_id}:{key}")
        return value

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, key: object) -> bool:
        return key in self._data


def _recording_rule(rule: OptionRule, log: Log) -> OptionRule:
    """A copy of ``rule`` that logs ``rule id:*`` whenever one of its fields is read."""
    names = frozenset(f.name for f in fields(OptionRule))
    cell = f"{rule.id}:{ANY_FIELD}"

    class RecordingRule(OptionRule):
        def __getattribute__(self, name: str) -> Any:
            if name in names:
                log.add(cell)
            return object.__getattribute__(self, name)

    log.on = False  # copying reads every field
    try:
        return RecordingRule(**{f.name: getattr(rule, f.name) for f in fields(OptionRule)})
    finally:
        log.on = True


def recording_spec(log: Log, spec: Spec | None = None) -> Spec:
    """A copy of ``spec`` (the suite's tables by default) whose every read of a row's decision or of an option
    rule is logged in ``log``."""
    spec = spec or default_spec()
    tables: dict[str, Table | OptionRules] = {}
    for table_id, table in spec.tables.items():
        if isinstance(table, OptionRules):
            tables[table_id] = replace(table, rows=tuple(_recording_rule(r, log) for r in table.rows), memo={})
        else:
            rows = tuple(replace(r, then=RecordingThen(r.id, r.then, log)) for r in table.rows)
            tables[table_id] = replace(table, rows=rows, _memo={})
    return Spec(tables)


def forget(spec: Spec) -> None:
    """Empty every memo of ``spec`` and its tables, so the next check reads the cells it needs itself."""
    spec.memo.clear()
    for table in spec.tables.values():
        (table.memo if isinstance(table, OptionRules) else table._memo).clear()


def mutant_cell(rest: str) -> str | None:
    """What a mutant changes, as the checks' reads name it (``rest`` is its name without ``mutant:``): a table
    cell, an option given (``option:NAME``) or an output field returned (``output:KEY.Field``); None for a mutant
    of code, which any call may meet."""
    kind, _, tail = rest.partition(":")
    if kind == "rule-removed":
        return f"{tail}:{ANY_FIELD}"
    if kind == "table":
        row_id, _, assignment = tail.rpartition(":")
        return f"{row_id}:{assignment.partition('=')[0]}"
    if kind == OPTION_IGNORED:
        return f"option:{tail}"
    if kind == OUTPUT_UNSET:
        return f"output:{tail}"
    return None


def log_call(log: Log, call: Call, outcome: Outcome) -> None:
    """Log what an option-ignored or output-unset mutant could answer differently in this call: each option it
    gives to a verb taking it (``option:NAME``; the mutant changes no other call), and each output field returned
    with a value other than the caller's (``output:KEY.Field``; the mutant changes no other outcome)."""
    for name in ignorable_options(call):
        log.add(f"option:{name}")
    for name in unset_outputs(call, outcome):
        log.add(f"output:{name}")


def recording_adapter(log: Log, spec: Spec) -> ReferenceAdapter:
    """The model on ``spec``, logging each call's options and outputs (:func:`log_call`)."""
    class Recording(ReferenceAdapter):
        def execute(self, call: Call) -> Outcome:
            outcome = super().execute(call)
            log_call(log, call, outcome)
            return outcome
    return Recording(spec=spec)


def scenario_reads(scenarios) -> dict[str, set[str]]:
    """The cells each scenario reads when it runs against the model: scenario id -> cells."""
    from .runner import run_scenario

    log = Log()
    spec = recording_spec(log)
    adapter = recording_adapter(log, spec)
    reads: dict[str, set[str]] = {}
    for scenario in scenarios:
        forget(spec)
        log.take()
        run_scenario(scenario, adapter)
        reads[scenario.id] = log.take()
    return reads


def invert(reads: Mapping[str, set[str]]) -> dict[str, list[str]]:
    """cell -> the checks (in ``reads``' order) that read it."""
    readers: dict[str, list[str]] = {}
    for check, cells in reads.items():
        for cell in cells:
            readers.setdefault(cell, []).append(check)
    return readers


def save(reads: Mapping[str, set[str]], path: Path) -> None:
    path.write_text(json.dumps({k: sorted(v) for k, v in reads.items()}, indent=1) + "\n", encoding="utf-8")


def load(path: Path) -> dict[str, set[str]]:
    return {k: set(v) for k, v in json.loads(path.read_text(encoding="utf-8")).items()}


class PytestRecorder:
    """A pytest plugin (``--mq-record-reads PATH``): the suite's tables become a recording copy for the whole
    session (what ``default_spec()`` gives the model from here on), and each test's reads - its setup, call and
    teardown, with the memos emptied first - are written to PATH at the end as ``node id -> cells``."""

    def __init__(self, path: Path):
        from mq_conformance.reference import tables

        self.path, self.log = path, Log()
        self.spec = recording_spec(self.log, default_spec())
        tables._DEFAULT[:] = [self.spec]  # the model reads its tables through default_spec() (reference/tables.py)
        original, log = ReferenceAdapter.execute, self.log

        def execute(adapter: ReferenceAdapter, call: Call) -> Outcome:
            outcome = original(adapter, call)
            log_call(log, call, outcome)
            return outcome
        ReferenceAdapter.execute = execute  # this recording process only: every call the model answers is logged
        self.reads: dict[str, set[str]] = {}

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_protocol(self, item, nextitem):  # noqa: ANN001 - pytest's hook signature
        forget(self.spec)
        self.log.take()

    def pytest_runtest_logfinish(self, nodeid, location):  # noqa: ANN001
        self.reads[nodeid] = self.reads.get(nodeid, set()) | self.log.take()

    def pytest_sessionfinish(self, session, exitstatus):  # noqa: ANN001
        save(self.reads, self.path)
