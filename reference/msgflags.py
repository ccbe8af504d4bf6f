"""MQMD MsgFlags: what the segmentation and status flags say about a message, and what MQGET reports of them.

Source: "MQMD MsgFlags" (document `msgflags`) and IBM's MQI reference (clauses.yaml document `facts`). One place reads the flags so
that the put side, the get side and the handles' group positions agree on what "in a group" and "a segment"
mean.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple, TypeVar

from .constants import VALUES

T = TypeVar("T")

SEGMENTATION_ALLOWED = VALUES["MQMF_SEGMENTATION_ALLOWED"]
SEGMENT = VALUES["MQMF_SEGMENT"]
LAST_SEGMENT = VALUES["MQMF_LAST_SEGMENT"]
MSG_IN_GROUP = VALUES["MQMF_MSG_IN_GROUP"]
LAST_MSG_IN_GROUP = VALUES["MQMF_LAST_MSG_IN_GROUP"]
ANY_GROUP = MSG_IN_GROUP | LAST_MSG_IN_GROUP
ANY_SEGMENT = SEGMENT | LAST_SEGMENT
KNOWN = SEGMENTATION_ALLOWED | ANY_SEGMENT | ANY_GROUP
# Flags outside these masks are accepted and ignored (MQMF_ACCEPT_UNSUP_MASK); within them, unknown ones are not.
MUST_BE_KNOWN = VALUES["MQMF_REJECT_UNSUP_MASK"] | VALUES["MQMF_ACCEPT_UNSUP_IF_XMIT_MASK"]


class GroupFlags(NamedTuple):
    """The status flags of one message, read as the documents use them."""

    in_group: bool  # MQMF_MSG_IN_GROUP or MQMF_LAST_MSG_IN_GROUP
    last_in_group: bool
    segment: bool  # MQMF_SEGMENT or MQMF_LAST_SEGMENT
    last_segment: bool
    segmentation_allowed: bool

    @classmethod
    def of(cls, flags: int) -> GroupFlags:
        return _GROUP_FLAGS[flags & KNOWN]

    @classmethod
    def _read(cls, flags: int) -> GroupFlags:
        return cls(bool(flags & ANY_GROUP), bool(flags & LAST_MSG_IN_GROUP), bool(flags & ANY_SEGMENT),
                   bool(flags & LAST_SEGMENT), bool(flags & SEGMENTATION_ALLOWED))

    @property
    def ends_group(self) -> bool:
        """A message that is last in its group and not a non-last segment ends the group."""
        return self.last_in_group and (not self.segment or self.last_segment)


def every_combination(read: Callable[[int], T]) -> dict[int, T]:
    """``read`` of every combination of the known group and segment flags, worked out once: flags are read on
    every put and get, so the model looks the answers up (index by ``flags & KNOWN``)."""
    return {bits: read(bits) for bits in range(KNOWN + 1) if bits & ~KNOWN == 0}


_GROUP_FLAGS = every_combination(GroupFlags._read)  # GroupFlags.of


def stored_flags(flags: int, clauses: list[str]) -> int:
    """MsgFlags of the stored copy: LAST_MSG_IN_GROUP implies MSG_IN_GROUP, LAST_SEGMENT implies SEGMENT.

    Clauses: msgflags.last-msg-in-group-implies-msg-in-group, msgflags.last-segment-implies-segment.
    """
    if flags & LAST_MSG_IN_GROUP and not flags & MSG_IN_GROUP:
        flags |= MSG_IN_GROUP
        clauses.append("msgflags.last-msg-in-group-implies-msg-in-group")
    if flags & LAST_SEGMENT and not flags & SEGMENT:
        flags |= SEGMENT
        clauses.append("msgflags.last-segment-implies-segment")
    return flags


MQGS_LAST_MSG_IN_GROUP, MQGS_MSG_IN_GROUP = VALUES["MQGS_LAST_MSG_IN_GROUP"], VALUES["MQGS_MSG_IN_GROUP"]
MQGS_NOT_IN_GROUP = VALUES["MQGS_NOT_IN_GROUP"]
MQSS_LAST_SEGMENT, MQSS_SEGMENT = VALUES["MQSS_LAST_SEGMENT"], VALUES["MQSS_SEGMENT"]
MQSS_NOT_A_SEGMENT = VALUES["MQSS_NOT_A_SEGMENT"]
MQSEG_ALLOWED, MQSEG_INHIBITED = VALUES["MQSEG_ALLOWED"], VALUES["MQSEG_INHIBITED"]


def group_status(flags: int) -> int:
    """MQGMO.GroupStatus for a message's MsgFlags (get.status.group-and-segment)."""
    if flags & LAST_MSG_IN_GROUP:
        return MQGS_LAST_MSG_IN_GROUP
    if flags & MSG_IN_GROUP:
        return MQGS_MSG_IN_GROUP
    return MQGS_NOT_IN_GROUP


def segment_status(flags: int) -> int:
    """MQGMO.SegmentStatus for a message's MsgFlags (get.status.group-and-segment)."""
    if flags & LAST_SEGMENT:
        return MQSS_LAST_SEGMENT
    if flags & SEGMENT:
        return MQSS_SEGMENT
    return MQSS_NOT_A_SEGMENT


def segmentation_status(flags: int) -> int:
    """MQGMO.Segmentation for a message's MsgFlags (get.status.group-and-segment)."""
    return MQSEG_ALLOWED if flags & SEGMENTATION_ALLOWED else MQSEG_INHIBITED


def statuses(flags: int) -> tuple[int, int, int]:
    """MQGMO's GroupStatus, SegmentStatus and Segmentation for a message's MsgFlags (get.status.group-and-segment)."""
    return _STATUSES[flags & KNOWN]


_STATUSES = every_combination(lambda bits: (group_status(bits), segment_status(bits), segmentation_status(bits)))
