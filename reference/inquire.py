"""MQINQ of a local queue's integer attributes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .constants import VALUES
from .handles import ObjectHandle
from .result import Result, failure

if TYPE_CHECKING:
    from .qmgr import QueueManager


def _attribute(qm: QueueManager, handle: ObjectHandle, selector: str) -> int | None:
    queue = qm.queues[handle.queue]
    d = queue.definition
    readers = {
        "MQIA_CURRENT_Q_DEPTH": lambda: queue.depth,
        "MQIA_MAX_Q_DEPTH": lambda: d.MaxQDepth,
        "MQIA_MAX_MSG_LENGTH": lambda: d.MaxMsgLength,
        "MQIA_INHIBIT_PUT": lambda: VALUES["MQQA_PUT_INHIBITED" if d.InhibitPut else "MQQA_PUT_ALLOWED"],
        "MQIA_INHIBIT_GET": lambda: VALUES["MQQA_GET_INHIBITED" if d.InhibitGet else "MQQA_GET_ALLOWED"],
        "MQIA_DEF_PERSISTENCE": lambda: d.DefPersistence,
        "MQIA_DEF_PRIORITY": lambda: d.DefPriority,
        "MQIA_MSG_DELIVERY_SEQUENCE": lambda: d.MsgDeliverySequence,
        "MQIA_OPEN_INPUT_COUNT": lambda: queue.open_input_count,
        "MQIA_OPEN_OUTPUT_COUNT": lambda: queue.open_output_count,
    }
    reader = readers.get(selector)
    return None if reader is None else reader()


def inquire(qm: QueueManager, handle: ObjectHandle, selectors: list[str]) -> Result:
    """The values of the named MQIA_* attributes, in ``Result.attributes``.

    Clauses: inquire.not-open-for-inquire, inquire.selector-error, inquire.attributes.
    """
    if not handle.options & VALUES["MQOO_INQUIRE"]:
        return failure("MQRC_NOT_OPEN_FOR_INQUIRE", "inquire.not-open-for-inquire")
    attributes = {}
    for selector in selectors:
        found = _attribute(qm, handle, selector)
        if found is None:
            return failure("MQRC_SELECTOR_ERROR", "inquire.selector-error")
        attributes[selector] = found
    return Result(clauses=["inquire.attributes"], attributes=attributes)
