"""MQOPEN of a local queue: option validation, the object's existence, and exclusive input.

The option rules are rows of fixtures/tables/open-options.yaml (IBM "Rules for validating MQI options",
MQOPEN part) and, for the kind of object opened, of open-object-types.yaml (IBM's MQOPEN page); the rest are the reason-code pages gathered in IBM's MQI reference (clauses.yaml document `facts`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import alias as alias_module
from . import distributed, dynamic_queues
from .constants import VALUES
from .handles import Connection, ObjectHandle
from .options import object_refused, object_rules, open_refused
from .result import Result, failure
from .structures import MQOD

if TYPE_CHECKING:
    from .qmgr import QueueManager

OO_INPUT_AS_Q_DEF = VALUES["MQOO_INPUT_AS_Q_DEF"]
OO_INPUT_SHARED = VALUES["MQOO_INPUT_SHARED"]
OO_INPUT_EXCLUSIVE = VALUES["MQOO_INPUT_EXCLUSIVE"]
OO_INPUT = OO_INPUT_AS_Q_DEF | OO_INPUT_SHARED | OO_INPUT_EXCLUSIVE
OO_OUTPUT = VALUES["MQOO_OUTPUT"]
MQOT_Q = VALUES["MQOT_Q"]


def open_queue(qm: QueueManager, conn: Connection, od: MQOD, options: int) -> Result:
    """Open a local queue and return a new object handle in ``Result.hobj``.

    An alias resolves to its target queue (reference/alias.py); a model queue makes a dynamic queue, whose name
    is returned in ``Result.object_name`` (reference/dynamic_queues.py).

    Clauses: open.options.*, the rows of open.object-types, open.unknown-object, open.input-exclusive-in-use, open.input-as-q-def,
    queue.alias.*, queue.dynamic.*.
    """
    refused = open_refused(qm.spec, options)
    if refused is not None:
        return refused
    # ObjectQMgrName, then ObjectName: a queue for another queue manager resolves to a transmission queue
    # (reference/distributed.py)
    routed = distributed.resolve(qm, od.ObjectName, od.ObjectQMgrName)
    route_clauses: list[str] = []
    if isinstance(routed, Result):
        return routed
    if routed is not None:
        # The options valid for the kind of object the name resolved to (fixtures/tables/open-object-types.yaml)
        kind = ("remote-queue" if routed.definition else "queue-on-remote-qmgr") if routed.xmitq \
            else "qmgr-alias-to-local"
        refused = object_refused(qm.spec, options, kind)
        if refused is not None:
            return refused
        if routed.xmitq:
            opened = distributed.open_remote(qm, conn, options, routed)
            opened.clauses += object_rules(qm.spec, kind)
            return opened
        route_clauses = [*routed.clauses, *object_rules(qm.spec, kind)]
    queue = qm.queues.get(od.ObjectName)
    if queue is None:
        # A queue whose name differs only in case is another queue (open.names-case-sensitive).
        other_case = any(name.upper() == od.ObjectName.upper() for name in qm.queues)
        return failure("MQRC_UNKNOWN_OBJECT_NAME", "open.unknown-object",
                       *(["open.names-case-sensitive"] if other_case else []))

    clauses: list[str] = route_clauses
    alias, created, object_name = "", False, None
    qtype = queue.definition.QType
    if qtype == dynamic_queues.MQQT_ALIAS:
        resolved = alias_module.resolve(qm, queue.definition)
        if isinstance(resolved, Result):
            return resolved
        alias, queue = od.ObjectName, resolved
        clauses.append("queue.alias.resolves-to-target")
    elif qtype == dynamic_queues.MQQT_MODEL:
        # Nothing after this can fail for a queue nobody else has open, so the new queue is made here.
        made = dynamic_queues.create(qm, od.DynamicQName, queue.definition)
        if isinstance(made, Result):
            return made
        queue, made_clauses = made
        created, object_name = True, queue.definition.name
        clauses += made_clauses
    if options & OO_INPUT_AS_Q_DEF:
        # MQOO_INPUT_AS_Q_DEF opens shared or exclusive as the queue's DefInputOpenOption says.
        exclusive = queue.definition.DefInputOpenOption == OO_INPUT_EXCLUSIVE
        clauses.append("open.input-as-q-def")
        if not exclusive:
            clauses.append("queue.def-input-open-option.default-shared")
    else:
        exclusive = bool(options & OO_INPUT_EXCLUSIVE) or (
            bool(options & OO_INPUT_SHARED) and queue.definition.Shareability == 0
        )
    if options & OO_INPUT:
        if queue.exclusive_input or (exclusive and queue.open_input_count):
            return failure("MQRC_OBJECT_IN_USE", "open.input-exclusive-in-use")
        queue.open_input_count += 1
        queue.exclusive_input = exclusive
    if options & OO_OUTPUT:
        queue.open_output_count += 1

    name = queue.definition.name
    if any(qm.handles[h].queue == name for h in conn.handles):
        clauses.append("open.same-object-twice")  # another handle of its own (open.same-object-twice)
    hobj = qm.next_handle()
    if options & VALUES["MQOO_CO_OP"]:
        queue.coop_handles.add(hobj)  # the co-operating set of handles on this queue (browse-mark.co-op-set)
        clauses.append("browse-mark.co-op-set")
    qm.handles[hobj] = ObjectHandle(hobj=hobj, hconn=conn.hconn, queue=queue.definition.name, options=options,
                                    alias=alias, created_dynamic=created)
    conn.handles.add(hobj)
    return Result(clauses=clauses, hobj=hobj, object_name=object_name)


def open_selecting(qm: QueueManager, od: MQOD, options: int, text: str, do_open) -> Result:
    """An MQOPEN (``do_open``) whose MQOD carries a SelectionString: only a queue (ObjectType MQOT_Q) opened with
    MQOO_BROWSE or an MQOO_INPUT_* option takes one; any other open fails with MQRC_SELECTOR_INVALID_FOR_TYPE
    before the string is read (open.selection.input-only). Otherwise the selector is read as reference/selection.py
    says.
    """
    from . import selection  # selection reads properties; open is imported before them

    if od.ObjectType != MQOT_Q or not options & (OO_INPUT | VALUES["MQOO_BROWSE"]):
        return failure("MQRC_SELECTOR_INVALID_FOR_TYPE", "open.selection.input-only")
    result = selection.open_with_selection(qm, text, do_open)
    result.clauses.append("open.selection.input-only")
    return result
