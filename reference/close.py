"""MQCLOSE of a queue handle: its options, what an unterminated group or logical message on it gives, and the
deletion of dynamic queues.

Sources: "Logical and physical ordering" (document `ordering`), Table 2's MQCLOSE row, with the reason from
fixtures/tables/put-group-consistency.yaml; "MQCLOSE - Close object" (document `mqclose`) for MQCO_DELETE and
MQCO_DELETE_PURGE, which only dynamic queues accept (the rows of fixtures/tables/close-delete.yaml), and its usage
notes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import browse_mark, dynamic_queues
from .constants import VALUES
from .handles import Connection, ObjectHandle
from .open import OO_INPUT
from .options import unknown_bits
from .put import check_consistency
from .result import Result, failure
from .tables import Row

if TYPE_CHECKING:
    from .qmgr import QueueManager



def close_queue(qm: QueueManager, conn: Connection, handle: ObjectHandle, options: int) -> Result:
    """Close ``handle``. An unterminated group or logical message gives Table 2's MQCLOSE outcome; the handle is
    closed whatever the completion code.

    Clauses: close.options.unknown, put.group-consistency.close-*, put.close-outcome.table2.row5/row6,
    close.handle-invalid-after, browse-mark.close-unmarks.
    """
    if unknown_bits(options, "MQCO"):
        return failure("MQRC_OPTIONS_ERROR", "close.options.unknown")
    delete = options & DELETE_OPTIONS
    if delete == DELETE_OPTIONS:
        return failure("MQRC_OPTIONS_ERROR", "close.delete.one-option")
    row = None if handle.deleted else delete_row(qm, handle, delete)
    if row is not None and row.then["Reason"] != "MQRC_NONE":
        return failure(row.then["Reason"], row.id)
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
        "left_logical_order": False,
    }
    comp_code, reason, clauses = check_consistency(qm, position, facts, "MQCLOSE")

    if not handle.deleted:
        queue = qm.queues[handle.queue]
        if browse_mark.handle_closed(queue, handle.hobj):
            clauses.append("browse-mark.close-unmarks")
        if handle.options & OO_INPUT:
            queue.open_input_count -= 1
            if queue.open_input_count == 0:
                queue.exclusive_input = False
        if handle.options & VALUES["MQOO_OUTPUT"]:
            queue.open_output_count -= 1
    else:
        clauses.append("close.delete.other-handles-q-deleted")
    del qm.handles[handle.hobj]
    conn.handles.discard(handle.hobj)
    if row is not None:
        clauses.append(row.id)
        if row.then["delete"] == "deleted":
            if handle.created_dynamic and row.id != TEMPORARY_DELETED and \
                    qm.queues[handle.queue].definition.DefinitionType == VALUES["MQQDT_TEMPORARY_DYNAMIC"]:
                clauses.append(TEMPORARY_DELETED)  # its creator's close deletes it, whatever the option
            dynamic_queues.delete(qm, handle.queue)
    clauses.append("close.handle-invalid-after")
    if conn.uow is not None and handle.hobj in conn.uow.handles:
        clauses.append("close.unrelated-to-syncpoint")  # its work stays in the unit of work
    return Result(comp_code, VALUES[reason], clauses)


DELETE_OPTIONS = VALUES["MQCO_DELETE"] | VALUES["MQCO_DELETE_PURGE"]
TEMPORARY_DELETED = "queue.dynamic.temporary-deleted-at-close"
CLOSE_DELETE = "close.delete"
DEFINITION_TYPES = {VALUES["MQQDT_PREDEFINED"]: "predefined", VALUES["MQQDT_PERMANENT_DYNAMIC"]: "permanent",
                    VALUES["MQQDT_TEMPORARY_DYNAMIC"]: "temporary"}
CLOSE_OPTIONS = {0: "MQCO_NONE", VALUES["MQCO_DELETE"]: "MQCO_DELETE",
                 VALUES["MQCO_DELETE_PURGE"]: "MQCO_DELETE_PURGE"}


def delete_row(qm: QueueManager, handle: ObjectHandle, delete: int) -> Row | None:
    """The row of fixtures/tables/close-delete.yaml for closing ``handle`` with ``delete`` (MQCO_NONE,
    MQCO_DELETE or MQCO_DELETE_PURGE): whether the call fails and whether the queue goes. None when the object
    is a predefined queue closed without a delete option (nothing to decide).

    Clauses: the rows close.delete.* and queue.dynamic.temporary-deleted-at-close.
    """
    queue = qm.queues[handle.queue]
    # An alias is itself a predefined object, whatever its target (MQCO_DELETE names the object opened).
    kind = "predefined" if handle.alias else DEFINITION_TYPES[queue.definition.DefinitionType]
    if kind == "predefined" and not delete:
        return None
    row = qm.spec[CLOSE_DELETE].lookup(
        definition_type=kind,
        option=CLOSE_OPTIONS[delete],
        creating_handle=handle.created_dynamic,
        uncommitted=dynamic_queues.uncommitted(queue),
        messages=queue.depth > 0,
    )
    if row is None:
        raise LookupError(f"{CLOSE_DELETE} has no row for {kind} {CLOSE_OPTIONS[delete]}")
    return row
