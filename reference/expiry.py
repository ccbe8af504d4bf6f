"""Message expiry on the model's clock.

Sources: "Expiry (MQLONG)" (MQMD) and "2013 MQRC_EXPIRY_ERROR" (cited by title and URL in fixtures/clauses.yaml).

Expiry is a time in tenths of a second, counted from the put (not from the commit of a put under syncpoint). An
expired message is never returned by MQGET, browse or not: it is discarded when a get that would have returned it
(had it not expired) is made, and an expiration report is sent if its Report field asks for one. Until then it
still counts in CurrentQDepth, however many other gets the queue sees. A message
returned before it expires carries the Expiry that remains. The model's clock moves only when a scenario says so
(``advance_clock``), so expiry is exact and repeatable.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from . import report
from .constants import VALUES
from .queue import VISIBLE, LocalQueue, StoredMessage

SEGMENT = VALUES["MQMF_SEGMENT"]

if TYPE_CHECKING:
    from .qmgr import QueueManager

MQEI_UNLIMITED = VALUES["MQEI_UNLIMITED"]
TENTH_MS = 100


def invalid(expiry: int) -> bool:
    """Whether an MQPUT's Expiry is refused (MQRC_EXPIRY_ERROR): neither MQEI_UNLIMITED nor more than zero.
    Clause: expiry.invalid."""
    return expiry != MQEI_UNLIMITED and expiry <= 0


def deadline(qm: QueueManager, expiry: int) -> int | None:
    """The clock time a message put now with ``expiry`` expires at (None: never). Clause: expiry.tenths."""
    return None if expiry == MQEI_UNLIMITED else qm.clock.now_ms + expiry * TENTH_MS


def remaining(expires_at: int, now_ms: int) -> int:
    """The Expiry a get returns: the tenths of a second that remain, rounded up (never 0 for a message that has
    not expired). Clause: expiry.remaining-returned."""
    return -(-(expires_at - now_ms) // TENTH_MS)


def has_expired(message: StoredMessage, now_ms: int) -> bool:
    """Whether ``message``'s expiry has passed at ``now_ms``. Clause: expiry.tenths."""
    return message.expires_at is not None and message.expires_at <= now_ms


def first_unexpired(qm: QueueManager, queue: LocalQueue, find: Callable[[], StoredMessage | None],
                    clauses: list[str]) -> StoredMessage | None:
    """The message a get chooses (``find``), after discarding each expired message it would have chosen first,
    with the expiration reports their Report fields ask for. An expired segment goes with the other expired
    segments of its logical message (they expire together: expiry.segments-each).

    Clauses: expiry.discarded-at-get, report.expiration.
    """
    now = qm.clock.now_ms
    while True:
        message = find()
        if message is None or not has_expired(message, now):
            return message
        for gone in _with_expired_segments(queue, message, now):
            queue.remove(gone)
            clauses.append("expiry.discarded-at-get")
            clauses += report.expired(qm, gone)


def _with_expired_segments(queue: LocalQueue, message: StoredMessage, now: int) -> list[StoredMessage]:
    if not message.md.MsgFlags & SEGMENT:
        return [message]
    md = message.md
    return [m for m in queue.index("GroupId").get(md.GroupId, {}).values()
            if m.md.MsgSeqNumber == md.MsgSeqNumber and m.state == VISIBLE and has_expired(m, now)]
