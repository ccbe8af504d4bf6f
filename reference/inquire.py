"""MQINQ of a queue's attributes: integer attributes (MQIA_*) and character attributes (MQCA_*).

A handle opened through an alias inquires the alias's own attributes (its InhibitPut, InhibitGet, DefPriority,
DefPersistence, BaseQName...), not its target's; what only a local queue has (its depth, open counts) is not an
attribute of an alias (queue.alias.inquire-own-attributes): MQINQ then completes with a warning,
MQRC_SELECTOR_NOT_FOR_TYPE, and the value MQIAV_NOT_APPLICABLE (asterisks for a character attribute), as
"MQINQ - Inquire object attributes" and "2068 MQRC_SELECTOR_NOT_FOR_TYPE" say (inquire.selector-not-for-type).
At most 256 selectors are allowed (inquire.selector-count-error).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .constants import VALUES
from .handles import ObjectHandle
from .result import Result, failure

if TYPE_CHECKING:
    from .qmgr import QueueManager

# Attributes every queue definition has, read from the definition (the alias's, through an alias).
DEFINITION_READERS = {
    "MQIA_INHIBIT_PUT": lambda d: VALUES["MQQA_PUT_INHIBITED" if d.InhibitPut else "MQQA_PUT_ALLOWED"],
    "MQIA_INHIBIT_GET": lambda d: VALUES["MQQA_GET_INHIBITED" if d.InhibitGet else "MQQA_GET_ALLOWED"],
    "MQIA_DEF_PERSISTENCE": lambda d: d.DefPersistence,
    "MQIA_DEF_PRIORITY": lambda d: d.DefPriority,
    "MQIA_Q_TYPE": lambda d: d.QType,
    "MQCA_Q_NAME": lambda d: d.name,
    "MQCA_Q_DESC": lambda d: d.QDesc,
    "MQIA_DEF_BIND": lambda d: d.DefBind,
}
ALIAS_READERS = {"MQCA_BASE_Q_NAME": lambda d: d.BaseQName}
LOCAL_READERS = {
    "MQIA_MAX_Q_DEPTH": lambda d: d.MaxQDepth,
    "MQIA_MAX_MSG_LENGTH": lambda d: d.MaxMsgLength,
    "MQIA_MSG_DELIVERY_SEQUENCE": lambda d: d.MsgDeliverySequence,
    "MQIA_DEFINITION_TYPE": lambda d: d.DefinitionType,
    "MQIA_BACKOUT_THRESHOLD": lambda d: d.BackoutThreshold,
    "MQCA_BACKOUT_REQ_Q_NAME": lambda d: d.BackoutRequeueQName,
    "MQIA_DEF_INPUT_OPEN_OPTION": lambda d: d.DefInputOpenOption,
    "MQIA_SHAREABILITY": lambda d: d.Shareability,
    "MQIA_TRIGGER_CONTROL": lambda d: d.TriggerControl,
    "MQIA_TRIGGER_TYPE": lambda d: d.TriggerType,
    "MQIA_TRIGGER_DEPTH": lambda d: d.TriggerDepth,
    "MQIA_TRIGGER_MSG_PRIORITY": lambda d: d.TriggerMsgPriority,
    "MQCA_TRIGGER_DATA": lambda d: d.TriggerData,
    "MQIA_CLWL_USEQ": lambda d: d.CLWLUseQ,
    "MQIA_USAGE": lambda d: d.Usage,  # MQUS_TRANSMISSION for a transmission queue (distributed.xmitq.usage)
}
# A local definition of a remote queue (reference/distributed.py): its own attributes, InhibitGet not among them
REMOTE_READERS = {
    **{k: v for k, v in DEFINITION_READERS.items() if k != "MQIA_INHIBIT_GET"},
    "MQCA_REMOTE_Q_NAME": lambda d: d.RemoteQName,
    "MQCA_REMOTE_Q_MGR_NAME": lambda d: d.RemoteQMgrName,
    "MQCA_XMIT_Q_NAME": lambda d: d.XmitQName,
}
QUEUE_STATE = {
    "MQIA_CURRENT_Q_DEPTH": lambda q: q.depth,
    "MQIA_OPEN_INPUT_COUNT": lambda q: q.open_input_count,
    "MQIA_OPEN_OUTPUT_COUNT": lambda q: q.open_output_count,
}


MAX_SELECTORS = 256
NOT_APPLICABLE = VALUES["MQIAV_NOT_APPLICABLE"]
# A character attribute that does not apply reads as asterisks: 48 of them, the most an attribute of the call
# language's outcome carries (reference/schemas/outcome.json), whatever the attribute's own length
NOT_APPLICABLE_TEXT = "*" * 48


def not_applicable(selector: str) -> int | str:
    """The value MQINQ returns for an attribute the queue's type does not have: MQIAV_NOT_APPLICABLE, or a
    character attribute's length of asterisks. Clause: inquire.selector-not-for-type."""
    return NOT_APPLICABLE_TEXT if selector.startswith("MQCA_") else NOT_APPLICABLE


def queue_selector(selector: str) -> bool:
    """Whether ``selector`` names an attribute of some queue the model knows (local or alias)."""
    return selector in DEFINITION_READERS or selector in ALIAS_READERS or selector in LOCAL_READERS \
        or selector in QUEUE_STATE or selector in REMOTE_READERS


def _attribute(qm: QueueManager, handle: ObjectHandle, selector: str) -> int | str | None:
    if handle.remote:  # the remote queue definition's own attributes (distributed.inquire.remote-definition)
        reader = REMOTE_READERS.get(selector)
        return None if reader is None else reader(qm.queues[handle.remote].definition)
    if handle.alias:
        reader = DEFINITION_READERS.get(selector) or ALIAS_READERS.get(selector)
        return None if reader is None else reader(qm.queues[handle.alias].definition)
    queue = qm.queues[handle.queue]
    reader = DEFINITION_READERS.get(selector) or LOCAL_READERS.get(selector)
    if reader is not None:
        return reader(queue.definition)
    state = QUEUE_STATE.get(selector)
    return None if state is None else state(queue)


OWN_CLAUSES = {
    "MQIA_DEF_BIND": "inquire.local-queue-attributes", "MQIA_CLWL_USEQ": "inquire.local-queue-attributes",
    "MQCA_Q_DESC": "inquire.local-queue-attributes", "MQCA_TRIGGER_DATA": "inquire.local-queue-attributes",
    "MQIA_OPEN_INPUT_COUNT": "inquire.open-counts", "MQIA_OPEN_OUTPUT_COUNT": "inquire.open-counts",
    "MQIA_DEF_INPUT_OPEN_OPTION": "queue.def-input-open-option.default-shared",
    "MQIA_USAGE": "distributed.xmitq.usage",
}


def _attribute_clauses(qm: QueueManager, handle: ObjectHandle, attributes: dict) -> list[str]:
    """The clauses of the attributes read that have one of their own (inquire.local-queue-attributes,
    inquire.open-counts, queue.def-input-open-option.default-shared, inquire.current-depth.uncommitted-get)."""
    if handle.alias:
        return []
    if handle.remote:
        return ["distributed.inquire.remote-definition"]
    clauses = sorted({OWN_CLAUSES[s] for s in attributes if s in OWN_CLAUSES})
    if "MQIA_CURRENT_Q_DEPTH" in attributes and qm.queues[handle.queue].pending_gets:
        clauses.append("inquire.current-depth.uncommitted-get")
    return clauses


def inquire(qm: QueueManager, handle: ObjectHandle, selectors: list[str]) -> Result:
    """The values of the named MQIA_*/MQCA_* attributes, in ``Result.attributes``.

    Clauses: inquire.not-open-for-inquire, inquire.selector-count-error, inquire.selector-error,
    inquire.selector-not-for-type, inquire.attributes, queue.alias.inquire-own-attributes.
    """
    if not handle.options & VALUES["MQOO_INQUIRE"]:
        return failure("MQRC_NOT_OPEN_FOR_INQUIRE", "inquire.not-open-for-inquire")
    if len(selectors) > MAX_SELECTORS:
        return failure("MQRC_SELECTOR_COUNT_ERROR", "inquire.selector-count-error")
    attributes: dict[str, int | str] = {}
    inapplicable = False
    for selector in selectors:
        found = _attribute(qm, handle, selector)
        if found is None:
            if not queue_selector(selector):
                return failure("MQRC_SELECTOR_ERROR", "inquire.selector-error")
            found, inapplicable = not_applicable(selector), True
        attributes[selector] = found
    clauses = ["inquire.attributes" if selectors else "inquire.zero-selectors"] \
        + (["queue.alias.inquire-own-attributes"] if handle.alias else [])
    clauses += _attribute_clauses(qm, handle, attributes)
    if inapplicable:
        return Result(VALUES["MQCC_WARNING"], VALUES["MQRC_SELECTOR_NOT_FOR_TYPE"],
                      clauses + ["inquire.selector-not-for-type"], attributes=attributes)
    return Result(clauses=clauses, attributes=attributes)
