"""MQSET: changing the attributes of an open queue that an application may change.

Sources: "MQSET - Set object attributes" (its table of selectors, the order of IntAttrs, a selector given twice,
no partial completion), "Setting queue attributes", "InhibitPut" and "InhibitGet" (what inhibition does to later
calls), and the reason-code pages 2040, 2065, 2067, 2020, 2021 and 2075-2078 (cited in fixtures/clauses.yaml).
Which selectors may be set, the values each takes and the reason for another value are the rows of
fixtures/tables/set-selectors.yaml.

A handle opened through an alias sets the alias's own attributes; one made by opening a model queue sets the
dynamic queue's. Either every attribute given is set, or none is (set.no-partial-completion).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .constants import VALUES
from .errors import NotModelled
from .handles import ObjectHandle
from .result import Result, failure
from .tables import Row

if TYPE_CHECKING:
    from .qmgr import QueueManager

SELECTORS = "set.selectors"
MAX_SELECTORS = 256
OO_SET = VALUES["MQOO_SET"]
BOOLEAN_ATTRIBUTES = ("InhibitGet", "InhibitPut")


def allowed(row: Row, value: int) -> bool:
    """Whether ``value`` is one the row's ``values`` lists (constant names, or a range ``low..high``)."""
    spelled = str(row.then["values"])
    if ".." in spelled:
        low, high = (int(part) for part in spelled.split("..", 1))
        return low <= value <= high
    return value in {VALUES[name] for name in spelled.split()}


def set_attributes(qm: QueueManager, handle: ObjectHandle, selectors: list[str], int_attrs: list[int]) -> Result:
    """MQSET on ``handle``: the integer attributes ``selectors`` name take the values of ``int_attrs``, in order.

    Clauses: set.not-open-for-set, set.selector-count-error, set.int-attr-count-error, set.selector-error,
    set.selectors.*, set.last-value-wins, set.no-partial-completion, set.attributes.
    """
    if not handle.options & OO_SET:
        return failure("MQRC_NOT_OPEN_FOR_SET", "set.not-open-for-set")
    if len(selectors) > MAX_SELECTORS:
        return failure("MQRC_SELECTOR_COUNT_ERROR", "set.selector-count-error")
    integer = [s for s in selectors if s.startswith("MQIA_")]
    if len(int_attrs) < len(integer):
        return failure("MQRC_INT_ATTR_COUNT_ERROR", "set.int-attr-count-error")
    table = qm.spec[SELECTORS]
    clauses: list[str] = []
    changes: dict[str, int] = {}
    values = iter(int_attrs)
    for selector in selectors:
        if selector == "MQCA_TRIGGER_DATA":
            raise NotModelled("MQSET of MQCA_TRIGGER_DATA (character attributes are not modelled)")
        row = table.lookup(selector=selector) if selector.startswith("MQIA_") else None
        if row is None or (handle.alias and row.then["alias"] != "yes"):
            return failure("MQRC_SELECTOR_ERROR", "set.selector-error", "set.no-partial-completion")
        value = next(values)
        if not allowed(row, value):
            return failure(row.then["Reason"], row.id, "set.no-partial-completion")
        if row.then["attribute"] in changes:
            clauses.append("set.last-value-wins")
        changes[row.then["attribute"]] = value
        clauses.append(row.id)
    definition = qm.queues[handle.alias or handle.queue].definition
    for attribute, value in changes.items():
        setattr(definition, attribute, bool(value) if attribute in BOOLEAN_ATTRIBUTES else value)
    return Result(clauses=clauses + ["set.attributes" if selectors else "set.zero-selectors"])
