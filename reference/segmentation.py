"""Segmentation and reassembly by the queue manager, and when a group or logical message is complete.

Sources: "MQMD MsgFlags" (document `msgflags`: segments on 16-byte boundaries, flags set on the stored copies and not on
the caller's MQMD, persistent segmentation only within a unit of work) and IBM's MQI reference
(clauses.yaml document `facts`: MQGMO_COMPLETE_MSG, MQGMO_ALL_MSGS_AVAILABLE, MQGMO_ALL_SEGMENTS_AVAILABLE).
"""

from __future__ import annotations

from collections.abc import Iterable

from .msgflags import LAST_MSG_IN_GROUP, LAST_SEGMENT, SEGMENT
from .queue import VISIBLE, LocalQueue, StoredMessage

SEGMENT_BOUNDARY = 16  # user formats and MQFMT_STRING are split on multiples of 16 bytes


def split(data: bytes, limit: int, boundary: int = SEGMENT_BOUNDARY) -> list[bytes] | None:
    """Pieces of ``data`` no longer than ``limit``, each but the last a multiple of ``boundary`` (16) bytes long.

    None when ``limit`` is below 16 bytes: the queue manager cannot make a segment that small. User formats and
    MQFMT_STRING are cut alike (segmentation.format-string).
    Clauses: segmentation.sixteen-byte-boundaries, segmentation.too-small-to-split.
    """
    size = limit - limit % boundary
    if size < boundary:
        return None
    return [data[i:i + size] for i in range(0, len(data), size)]


def is_segment(message: StoredMessage) -> bool:
    return bool(message.md.MsgFlags & SEGMENT)


def logical_message(queue: LocalQueue, first: StoredMessage) -> list[StoredMessage] | None:
    """The visible segments of the logical message that starts with ``first``, in Offset order, if it is
    complete (offsets contiguous from 0 up to a last segment); otherwise None.

    Clause: get.all-segments-available.complete.
    """
    if not is_segment(first):
        return [first]
    md = first.md
    pieces = {m.md.Offset: m for m in _visible(queue.index("GroupId").get(md.GroupId, {}).values())
              if m.md.MsgSeqNumber == md.MsgSeqNumber and is_segment(m)}
    found, offset = [], md.Offset
    while offset in pieces:
        piece = pieces[offset]
        found.append(piece)
        if piece.md.MsgFlags & LAST_SEGMENT:
            return found
        offset += len(piece.data)
        if not piece.data:
            return None
    return None


def consistent_prefix(pieces: list[StoredMessage]) -> tuple[list[StoredMessage], tuple[str, str] | None]:
    """The leading segments of a complete logical message whose CodedCharSetId and Encoding equal the first
    segment's, and the warning (reason name, clause) when some segment differs; (pieces, None) otherwise.

    When one segment differs in both, MQRC_INCONSISTENT_CCSIDS is the reason (a decision: IBM does not rank them).
    Clauses: get.complete-msg.inconsistent-ccsids, get.complete-msg.inconsistent-encodings.
    """
    first = pieces[0].md
    for index, piece in enumerate(pieces[1:], start=1):
        if piece.md.CodedCharSetId != first.CodedCharSetId:
            return pieces[:index], ("MQRC_INCONSISTENT_CCSIDS", "get.complete-msg.inconsistent-ccsids")
        if piece.md.Encoding != first.Encoding:
            return pieces[:index], ("MQRC_INCONSISTENT_ENCODINGS", "get.complete-msg.inconsistent-encodings")
    return pieces, None


def group_complete(queue: LocalQueue, group_id: bytes) -> bool:
    """Whether every message of a group, and every segment of each, is on the queue and visible.

    Clause: get.all-msgs-available.complete.
    """
    members = list(_visible(queue.index("GroupId").get(group_id, {}).values()))
    lasts = [m.md.MsgSeqNumber for m in members if m.md.MsgFlags & LAST_MSG_IN_GROUP]
    if not lasts:
        return False
    starts = {m.md.MsgSeqNumber: m for m in members if m.md.Offset == 0}
    for seq in range(1, max(lasts) + 1):
        if seq not in starts or logical_message(queue, starts[seq]) is None:
            return False
    return True


def _visible(messages: Iterable[StoredMessage]) -> Iterable[StoredMessage]:
    return (m for m in messages if m.state == VISIBLE)
