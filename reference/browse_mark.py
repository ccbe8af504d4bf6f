"""Browse with mark and co-operating browsers.

Source: "Avoiding repeated delivery of browsed messages" (document `browse-mark`) and IBM's MQI reference (clauses.yaml document `facts`). A
message can be marked for one handle (MQGMO_MARK_BROWSE_HANDLE) and for the co-operating set of handles on its
queue (MQGMO_MARK_BROWSE_CO_OP, handles opened with MQOO_CO_OP). A browse with MQGMO_UNMARKED_BROWSE_MSG passes
over messages marked for it (browse-mark.browse-handle-composite, browse-mark.browse-co-op-composite,
browse-mark.no-msg-when-all-marked); other browses and destructive gets ignore marks
(browse-mark.marks-only-steer-unmarked-browse). Co-operative marks lapse after the queue manager's MsgMarkBrowseInterval on the
model's clock; handle marks do not. Marks end when the marking handles close, when a destructive get takes the
message (even one later backed out), or on explicit unmark.
"""

from __future__ import annotations

from collections.abc import Iterable

from .constants import VALUES
from .queue import LocalQueue, StoredMessage

MQMMBI_UNLIMITED = VALUES["MQMMBI_UNLIMITED"]


def coop_marked(message: StoredMessage, now_ms: int, interval_ms: int) -> bool:
    """Whether the message still carries a co-operative mark (browse-mark.coop-mark-lapses); handle marks have no
    such limit."""
    if message.coop_marked_at is None:
        return False
    return interval_ms == MQMMBI_UNLIMITED or now_ms - message.coop_marked_at <= interval_ms


def marked_for(message: StoredMessage, hobj: int, co_op: bool, now_ms: int, interval_ms: int) -> bool:
    """Whether the message counts as marked for this handle (browse-mark.unmarked-browse-msg): marked by the
    handle itself, or, for a co-operating handle, marked for the co-operating set."""
    if message.handle_marks and hobj in message.handle_marks:
        return True
    return co_op and coop_marked(message, now_ms, interval_ms)


def mark_handle(message: StoredMessage, hobj: int) -> None:
    """Mark for one handle (browse-mark.mark-browse-handle)."""
    if message.handle_marks is None:
        message.handle_marks = set()
    message.handle_marks.add(hobj)


def unmark_handle(message: StoredMessage, hobj: int) -> None:
    """Remove this handle's mark (browse-mark.unmark-browse-handle)."""
    if message.handle_marks:
        message.handle_marks.discard(hobj)


def clear_marks(messages: Iterable[StoredMessage]) -> bool:
    """A destructive get ends every mark, even if it is later backed out; whether any of ``messages`` had one
    (browse-mark.destructive-get-unmarks)."""
    marked = False
    for message in messages:
        if message.handle_marks or message.coop_marked_at is not None:
            marked = True
        message.handle_marks = message.coop_marked_at = None
    return marked


def handle_closed(queue: LocalQueue, hobj: int) -> bool:
    """Closing a handle ends its marks; closing the last co-operating handle ends the co-operative marks
    (browse-mark.close-unmarks). Whether the rule applied: the handle had marks or was a co-operating handle."""
    applied = False
    for message in queue.messages.values():
        if message.handle_marks and hobj in message.handle_marks:
            message.handle_marks.discard(hobj)
            applied = True
    if hobj in queue.coop_handles:
        applied = True
        queue.coop_handles.discard(hobj)
        if not queue.coop_handles:
            for message in queue.messages.values():
                message.coop_marked_at = None
    return applied
