"""Mutants: the reference model with one documented rule broken, selectable as adapters (``mutant:NAME``).

They measure how strong the suite is: a suite that certifies implementations must fail every mutant that is
not equivalent to the model. Two kinds:

- table mutants, made from the data: ``mutant:table:<row id>:<Field>=<value>`` changes one output cell of one
  row of a table in fixtures/tables (the legal values of a cell are those the table's ``outputs`` list), and
  ``mutant:rule-removed:<rule id>`` drops one option rule, and ``mutant:row-moved:<row id>:<position>`` moves a
  row of an ordered table (the cluster workload steps);
- semantic mutants, written by hand: ``mutant:<name>`` from :data:`SEMANTIC`, each breaking one rule the way
  an implementation plausibly would, by rewriting the model's outcomes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace

from reference.calls import Call, Outcome
from reference.tables import OptionRules, Spec, Table, default_spec

from .base import AdapterError
from .reference import ReferenceAdapter

PREFIX = "mutant:"


def table_mutant_names(spec: Spec | None = None) -> Iterator[str]:
    """Every table mutant: each output cell of each row changed to each other legal value, and each option rule
    removed."""
    spec = spec or default_spec()
    for table in spec.tables.values():
        if isinstance(table, OptionRules):
            for rule in table.rows:
                yield f"{PREFIX}rule-removed:{rule.id}"
            continue
        for row in table.rows:
            for field, current in row.then.items():
                for value in _legal_values(table, field):
                    if value != current:
                        yield f"{PREFIX}table:{row.id}:{field}={value}"


def _legal_values(table: Table, field: str) -> list[str]:
    vocabulary = table.outputs.get(field)
    if isinstance(vocabulary, dict):
        return [str(v) for v in vocabulary]
    return sorted({str(row.then[field]) for row in table.rows if field in row.then})


def table_mutant(spec_text: str) -> ReferenceAdapter:
    """``table:<row id>:<Field>=<value>`` or ``rule-removed:<rule id>`` applied to the suite's own tables."""
    spec = default_spec()
    kind, _, rest = spec_text.partition(":")
    if kind == "row-moved":
        row_id, _, position = rest.rpartition(":")
        for table in spec.tables.values():
            if isinstance(table, Table) and any(r.id == row_id for r in table.rows):
                rows = [r for r in table.rows if r.id != row_id]
                if not position.isdigit() or int(position) > len(rows):
                    raise AdapterError(f"row position must be 0..{len(rows)}, not {position!r}")
                rows.insert(int(position), table.row(row_id))
                changed = replace(table, rows=tuple(rows), _memo={})
                return _named(ReferenceAdapter(spec=spec.with_table(changed)), f"{PREFIX}{spec_text}")
        raise AdapterError(f"no table row {row_id!r}")
    if kind == "rule-removed":
        for table in spec.tables.values():
            if isinstance(table, OptionRules) and any(r.id == rest for r in table.rows):
                changed = replace(table, rows=tuple(r for r in table.rows if r.id != rest))
                return _named(ReferenceAdapter(spec=spec.with_table(changed)), f"{PREFIX}{spec_text}")
        raise AdapterError(f"no option rule {rest!r} to remove")
    row_id, _, assignment = rest.rpartition(":")
    field, _, value = assignment.partition("=")
    for table in spec.tables.values():
        if isinstance(table, Table) and any(r.id == row_id for r in table.rows):
            row = table.row(row_id)
            if field not in row.then:
                raise AdapterError(f"row {row_id} has no output {field!r}; outputs: {', '.join(row.then)}")
            changed = table.with_row(row_id, **{field: _typed(value, row.then[field])})
            return _named(ReferenceAdapter(spec=spec.with_table(changed)), f"{PREFIX}{spec_text}")
    raise AdapterError(f"no table row {row_id!r}")


def _typed(value: str, like: object) -> object:
    return int(value) if isinstance(like, int) and not isinstance(like, bool) else value


def _named(adapter: ReferenceAdapter, name: str) -> ReferenceAdapter:
    adapter.name = name
    return adapter


class OutcomeMutant(ReferenceAdapter):
    """The model, with each outcome passed through ``rewrite`` (one broken rule)."""

    def __init__(self, name: str, rewrite: Callable[[Call, Outcome], Outcome]):
        super().__init__()
        self.name = name
        self._rewrite = rewrite

    def execute(self, call: Call) -> Outcome:
        return self._rewrite(call, super().execute(call))


def _silence(reason: str) -> Callable[[Call, Outcome], Outcome]:
    """A mutant that reports a warning's call as plain success."""
    def rewrite(call: Call, outcome: Outcome) -> Outcome:
        if outcome.CompCode == "MQCC_WARNING" and outcome.Reason == reason:
            outcome.CompCode, outcome.Reason = "MQCC_OK", "MQRC_NONE"
        return outcome
    return rewrite


def _no_status(call: Call, outcome: Outcome) -> Outcome:
    if outcome.GMO is not None and outcome.GMO.get("GroupStatus") == "MQGS_LAST_MSG_IN_GROUP":
        outcome.GMO["GroupStatus"] = "MQGS_MSG_IN_GROUP"
    return outcome


def _companion_missing(call: Call, outcome: Outcome) -> Outcome:
    if call.op == "get" and outcome.MD and "MQMF_LAST_MSG_IN_GROUP" in outcome.MD.get("MsgFlags", []):
        outcome.MD["MsgFlags"] = [f for f in outcome.MD["MsgFlags"] if f != "MQMF_MSG_IN_GROUP"]
    return outcome


def _no_backout_count(call: Call, outcome: Outcome) -> Outcome:
    if call.op == "get" and outcome.MD:
        outcome.MD["BackoutCount"] = 0
    return outcome


SEMANTIC: dict[str, tuple[str, Callable[[Call, Outcome], Outcome]]] = {
    "incomplete-group-warning-dropped": ("put.close-outcome.table2.row3", _silence("MQRC_INCOMPLETE_GROUP")),
    "truncation-warning-dropped": ("get.truncated.accepted", _silence("MQRC_TRUNCATED_MSG_ACCEPTED")),
    "last-in-group-status-wrong": ("get.status.group-and-segment", _no_status),
    "stored-copy-lacks-msg-in-group": ("msgflags.last-msg-in-group-implies-msg-in-group", _companion_missing),
    "backout-count-not-kept": ("uow.backout.gets-restored", _no_backout_count),
}


class CoopMarksNeverLapse(ReferenceAdapter):
    """browse-mark.coop-mark-lapses broken: MsgMarkBrowseInterval is treated as unlimited."""

    def reset(self) -> None:
        super().reset()
        self.qm.mark_browse_interval = -1


# Mutants that change the model's state rather than its outcomes.
SEMANTIC_MODELS: dict[str, tuple[str, type[ReferenceAdapter]]] = {
    "co-op-marks-never-lapse": ("browse-mark.coop-mark-lapses", CoopMarksNeverLapse),
}


def load_mutant(name: str) -> ReferenceAdapter:
    """The mutant adapter ``mutant:<rest>``."""
    rest = name[len(PREFIX):]
    if rest.startswith(("table:", "rule-removed:", "row-moved:")):
        return table_mutant(rest)
    if rest in SEMANTIC:
        return OutcomeMutant(name, SEMANTIC[rest][1])
    if rest in SEMANTIC_MODELS:
        return _named(SEMANTIC_MODELS[rest][1](), name)
    raise AdapterError(f"unknown mutant {name!r}; semantic mutants: {', '.join(sorted({*SEMANTIC, *SEMANTIC_MODELS}))}; "
                       "table mutants: mutant:table:<row id>:<Field>=<value>, mutant:rule-removed:<rule id>, "
                       "mutant:row-moved:<row id>:<position>")
