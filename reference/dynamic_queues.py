"""Model queues and the dynamic queues MQOPEN makes from them; deleting a dynamic queue.

Sources: "DynamicQName (MQCHAR48)" (MQOD), "Creating dynamic queues", "MQCLOSE - Close object" (its options and
usage notes on dynamic queues), "2011 MQRC_DYNAMIC_Q_NAME_ERROR", "2100 MQRC_OBJECT_ALREADY_EXISTS",
"2052 MQRC_Q_DELETED" and "2048 MQRC_PERSISTENT_NOT_ALLOWED" (cited by title and URL in fixtures/clauses.yaml).

An MQOPEN of a model queue defines a new local queue with the model's attributes under the name DynamicQName
gives (a trailing ``*`` is replaced by characters that make the name unique), whatever the open options, and the
handle refers to the new queue. The model's DefinitionType says whether the queue is temporary (deleted when the
handle that made it is closed, with its messages, committed or not) or permanent (kept unless MQCLOSE asks for
MQCO_DELETE or MQCO_DELETE_PURGE).
"""

from __future__ import annotations

import dataclasses
import re
from typing import TYPE_CHECKING

from .constants import VALUES
from .queue import LocalQueue, QueueDefinition
from .result import Result, failure

if TYPE_CHECKING:
    from .qmgr import QueueManager

MQQT_LOCAL, MQQT_MODEL, MQQT_ALIAS = VALUES["MQQT_LOCAL"], VALUES["MQQT_MODEL"], VALUES["MQQT_ALIAS"]
PREDEFINED = VALUES["MQQDT_PREDEFINED"]
PERMANENT = VALUES["MQQDT_PERMANENT_DYNAMIC"]
TEMPORARY = VALUES["MQQDT_TEMPORARY_DYNAMIC"]
NAME_LENGTH = 48  # MQ_Q_NAME_LENGTH
LAST_ASTERISK_POSITION = 33  # the asterisk is valid only in positions 1 to 33
NAME_CHARACTERS = re.compile(r"^[A-Za-z0-9._/%]*$")


def dynamic_name(qm: QueueManager, requested: str) -> str | None:
    """The name DynamicQName asks for, with a trailing ``*`` replaced by generated characters; None when the
    field is not valid (blank, characters not valid in a queue name, an asterisk after position 33 or followed by
    other characters).

    Clauses: queue.dynamic.full-name, queue.dynamic.prefix-generated, queue.dynamic.name-error.
    """
    text = requested.split("\0", 1)[0].rstrip(" ")
    if not text or len(text) > NAME_LENGTH:
        return None
    star = text.find("*")
    if star < 0:
        return text if NAME_CHARACTERS.match(text) else None
    prefix = text[:star]
    if star != len(text) - 1 or star + 1 > LAST_ASTERISK_POSITION or not NAME_CHARACTERS.match(prefix):
        return None
    while True:
        qm.last_dynamic += 1
        name = f"{prefix}{qm.clock.now_ms & 0xFFFFFFFF:08X}{qm.last_dynamic:08X}"[:NAME_LENGTH]
        if name not in qm.queues:
            return name


def create(qm: QueueManager, requested: str, model: QueueDefinition) -> tuple[LocalQueue, list[str]] | Result:
    """Define the dynamic queue an MQOPEN of ``model`` makes: its name (or the failure), with the model's
    attributes and DefinitionType.

    Clauses: queue.dynamic.model-creates-local, queue.dynamic.name-error, queue.dynamic.already-exists,
    queue.dynamic.full-name, queue.dynamic.prefix-generated, queue.dynamic.object-name-returned,
    queue.dynamic.definition-type.
    """
    name = dynamic_name(qm, requested)
    if name is None:
        return failure("MQRC_DYNAMIC_Q_NAME_ERROR", "queue.dynamic.name-error")
    if name in qm.queues:
        return failure("MQRC_OBJECT_ALREADY_EXISTS", "queue.dynamic.already-exists")
    clauses = ["queue.dynamic.model-creates-local",
               "queue.dynamic.prefix-generated" if "*" in requested else "queue.dynamic.full-name",
               "queue.dynamic.object-name-returned", "queue.dynamic.definition-type"]
    definition = dataclasses.replace(model, name=name, QType=MQQT_LOCAL)
    queue = qm.queues[name] = LocalQueue(definition)
    return queue, clauses


def delete(qm: QueueManager, name: str) -> None:
    """Delete dynamic queue ``name`` with its messages. Every other handle open on it now meets MQRC_Q_DELETED
    on any call but MQCLOSE; messages of a unit of work still in progress are gone with the queue (syncpoint.py
    passes over them). Clauses: close.delete.other-handles-q-deleted."""
    del qm.queues[name]
    for handle in qm.handles.values():
        if handle.queue == name:
            handle.deleted = True


def uncommitted(queue: LocalQueue) -> bool:
    """Whether a unit of work still has gets or puts outstanding against the queue (close.delete.uncommitted)."""
    return any(message.uow is not None for message in queue.messages.values())
