"""MQCLOSE of a queue handle, and what an unterminated group or logical message on it gives.

Source: "Logical and physical ordering" (document `ordering`), Table 2's MQCLOSE row, with the reason from
fixtures/tables/put-group-consistency.yaml.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import browse_mark
from .constants import VALUES
from .handles import Connection, ObjectHandle
from .open import OO_INPUT
from .options import unknown_bits
from .put import check_consistency
from .result import Result, failure

if TYPE_CHECKING:
    from .qmgr import QueueManager



def close_queue(qm: QueueManager, conn: Connection, handle: ObjectHandle, options: int) -> Result:
    """Close ``handle``. An unterminated group or logical message gives Table 2's MQCLOSE outcome; the handle is
    closed whatever the completion code.

    Clauses: close.options.unknown, put.group-consistency.close-*, put.close-outcome.table2.row5/row6,
    close.handle-invalid-after.
    """
    if unknown_bits(options, "MQCO"):
        return failure("MQRC_OPTIONS_ERROR", "close.options.unknown")
    position = handle.put_position
    facts = {
        "closing": True,
        "current_group": position.current_group,
        "current_logical_message": position.current_logical_message,
        "in_group": False,
        "segment": False,
        "group_flags_changed": False,
        "persistence_differs": False,
        "syncpoint_differs": False,
    }
    comp_code, reason, clauses = check_consistency(qm, position, facts, "MQCLOSE")

    queue = qm.queues[handle.queue]
    browse_mark.handle_closed(queue, handle.hobj)
    if handle.options & OO_INPUT:
        queue.open_input_count -= 1
        if queue.open_input_count == 0:
            queue.exclusive_input = False
    if handle.options & VALUES["MQOO_OUTPUT"]:
        queue.open_output_count -= 1
    del qm.handles[handle.hobj]
    conn.handles.discard(handle.hobj)
    clauses.append("close.handle-invalid-after")
    return Result(comp_code, VALUES[reason], clauses)
