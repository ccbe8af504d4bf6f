"""Alias queues: MQOPEN through an alias, and the attributes taken from the alias rather than its target.

Sources: "DEFINE QALIAS" (TARGET, the alias's own PUT, GET, DEFPRTY, DEFPSIST, DEFBIND), "BaseQName", "InhibitPut",
"InhibitGet", "DefPriority" and "DefPersistence" (attributes for queues), "2082 MQRC_UNKNOWN_ALIAS_BASE_Q" and
"2001 MQRC_ALIAS_BASE_Q_TYPE_ERROR" (cited by title and URL in fixtures/clauses.yaml).

An alias resolves to the local queue its BaseQName names: the handle puts to and gets from that queue. Every
definition on the resolution path must allow a put or get, and the defaults a message takes (Priority and
Persistence "as queue definition") come from the first definition on the path, the alias.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .constants import VALUES
from .queue import LocalQueue, QueueDefinition
from .result import Result, failure

if TYPE_CHECKING:
    from .qmgr import QueueManager

MQQT_LOCAL = VALUES["MQQT_LOCAL"]


def resolve(qm: QueueManager, alias: QueueDefinition) -> LocalQueue | Result:
    """The local queue an alias resolves to, or the failure of MQOPEN.

    Clauses: queue.alias.unknown-base, queue.alias.base-type-error, queue.alias.resolves-to-target.
    """
    target = qm.queues.get(alias.BaseQName)
    if target is None:
        return failure("MQRC_UNKNOWN_ALIAS_BASE_Q", "queue.alias.unknown-base")
    if target.definition.QType != MQQT_LOCAL:
        return failure("MQRC_ALIAS_BASE_Q_TYPE_ERROR", "queue.alias.base-type-error")
    return target


def definition_of(qm: QueueManager, name: str) -> QueueDefinition | None:
    """The alias definition a handle was opened through ("" or a deleted alias: None), whose defaults and
    inhibitions count for the handle's puts and gets (queue.alias.def-priority, queue.alias.inhibit-put,
    queue.alias.inhibit-get)."""
    if not name:
        return None
    found = qm.queues.get(name)
    return found.definition if found is not None else None


def local_target(qm: QueueManager, name: str) -> tuple[LocalQueue | None, QueueDefinition | None]:
    """Where a message for queue ``name`` on ``qm`` lands, and the alias it came through (None if ``name`` is a
    queue): an instance of a cluster queue alias puts to its target on its own queue manager. The target is None
    when the alias resolves to no local queue there. Clause: queue.alias.cluster-alias."""
    queue = qm.queues.get(name)
    if queue is None or queue.definition.QType != VALUES["MQQT_ALIAS"]:
        return queue, None
    target = qm.queues.get(queue.definition.BaseQName)
    if target is None or target.definition.QType != MQQT_LOCAL:
        return None, queue.definition
    return target, queue.definition
