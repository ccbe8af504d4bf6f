"""Units of work: MQCMIT and MQBACK on a connection.

A message put under syncpoint stays invisible until MQCMIT and disappears on MQBACK; a message got under
syncpoint is removed by MQCMIT and restored by MQBACK with its BackoutCount increased
(IBM's MQI reference (clauses.yaml document `facts`); IBM MQ "Units of work").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import publish, report
from .handles import Connection
from .queue import VISIBLE
from .result import Result

if TYPE_CHECKING:
    from .qmgr import QueueManager


def commit(qm: QueueManager, conn: Connection) -> Result:
    """End the connection's unit of work, making its puts visible and its gets final.

    Clauses: uow.commit.puts-visible, uow.commit.gets-final. Inhibition is not looked at: work done before a queue
    was put- or get-inhibited still commits (set.inhibit-after-uow).
    """
    uow, conn.uow = conn.uow, None
    clauses: list[str] = []
    if uow is None:
        return Result(clauses=["uow.commit.nothing-to-do"])
    for _name, message in uow.puts:
        message.state, message.uow = VISIBLE, None
    for name, message in uow.gets:
        _remove(qm, name, message)
    # Reports of the unit of work's puts and gets are sent when it commits (report.coa, report.cod).
    for name, message in uow.puts:
        if message.md.Report and qm.queues.get(name) is not None:
            clauses += report.arrived(qm, [message], name)
    delivered = [m for _n, m in uow.gets if m.md.Report]
    if delivered:
        clauses += report.delivered(qm, delivered)
    _forget_snapshots(qm, uow, restore=False)
    clauses += publish.end_unit_of_work(qm, uow.ident, committed=True)
    if uow.puts:
        clauses.append("uow.commit.puts-visible")
    if uow.gets:
        clauses.append("uow.commit.gets-final")
    if any(_has(qm, name, "InhibitPut") for name, _m in uow.puts) or \
            any(_has(qm, name, "InhibitGet") for name, _m in uow.gets):
        clauses.append("set.inhibit-after-uow")  # committed all the same
    return Result(clauses=clauses)


def _has(qm: QueueManager, name: str, attribute: str) -> bool:
    """Whether queue ``name`` has a non-zero ``attribute`` (InhibitPut, InhibitGet, BackoutThreshold)."""
    queue = qm.queues.get(name)
    return queue is not None and bool(getattr(queue.definition, attribute))


def backout(qm: QueueManager, conn: Connection) -> Result:
    """Undo the connection's unit of work: its puts vanish, its gets return with BackoutCount + 1.

    Clauses: uow.backout.puts-removed, uow.backout.gets-restored. BackoutCount rises by one whatever the queue's
    BackoutThreshold, on which the queue manager takes no action (set.backout-attributes-inquire-only).
    """
    uow, conn.uow = conn.uow, None
    clauses: list[str] = []
    if uow is None:
        return Result(clauses=["uow.backout.nothing-to-do"])
    for name, message in uow.puts:
        _remove(qm, name, message)
    for name, message in uow.gets:
        queue = qm.queues.get(name)
        if queue is not None:
            queue.restore(message)
        message.state, message.uow = VISIBLE, None
        message.md.BackoutCount += 1
    if _forget_snapshots(qm, uow, restore=True):
        clauses.append("uow.backout.restores-group-position")
    clauses += publish.end_unit_of_work(qm, uow.ident, committed=False)
    if uow.puts:
        clauses.append("uow.backout.puts-removed")
    if uow.gets:
        clauses.append("uow.backout.gets-restored")
    if any(_has(qm, name, "BackoutThreshold") for name, _m in uow.gets):
        clauses.append("set.backout-attributes-inquire-only")  # a threshold the queue manager does not act on
    return Result(clauses=clauses)


def _remove(qm: QueueManager, name: str, message) -> None:
    """Take a message of the unit of work off its queue, unless the queue was deleted meanwhile (a temporary
    dynamic queue goes with its uncommitted messages: queue.dynamic.temporary-deleted-at-close)."""
    queue = qm.queues.get(name)
    if queue is not None and queue.messages.get(message.seq) is message:
        queue.remove(message)


def _forget_snapshots(qm: QueueManager, uow, restore: bool) -> bool:
    """Drop the positions saved when handles joined the unit of work; on backout, put them back first.

    Clause: uow.backout.restores-group-position. Returns whether any handle was restored.
    """
    restored = False
    for hobj in uow.handles:
        handle = qm.handles.get(hobj)
        if handle is None or handle.uow_snapshot is None:
            continue
        if restore:
            handle.put_position, handle.get_position = handle.uow_snapshot
            restored = True
        handle.uow_snapshot = None
    return restored
