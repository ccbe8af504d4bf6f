"""Message expiry on the model's clock.

Sources: "Expiry (MQLONG)" (MQMD) and "2013 MQRC_EXPIRY_ERROR" (cited by title and URL in fixtures/clauses.yaml).

Expiry is a time in tenths of a second, counted from the put (not from the commit of a put under syncpoint). An
expired message is never returned by MQGET, browse or not: it is discarded when a get meets the queue, and an
expiration report is sent if its Report field asks for one. Until then it still counts in CurrentQDepth. A message
returned before it expires carries the Expiry that remains. The model's clock moves only when a scenario says so
(``advance_clock``), so expiry is exact and repeatable.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import report
from .constants import VALUES
from .queue import VISIBLE, LocalQueue, StoredMessage

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


def discard_expired(qm: QueueManager, queue: LocalQueue) -> list[str]:
    """Discard every visible message of ``queue`` whose expiry has passed, sending the expiration reports their
    Report fields ask for; the clauses applied (none when nothing expired).

    Clauses: expiry.discarded-at-get, report.expiration.
    """
    now = qm.clock.now_ms
    expired: list[StoredMessage] = [m for m in queue.expiring.values()
                                    if m.state == VISIBLE and m.expires_at is not None and m.expires_at <= now]
    clauses: list[str] = []
    for message in expired:
        queue.remove(message)
        clauses.append("expiry.discarded-at-get")
        clauses += report.expired(qm, message)
    return clauses
