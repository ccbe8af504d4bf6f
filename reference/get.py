"""MQGET that removes messages: selection, matching, truncation, syncpoint, and the status outputs.

Sources: "Logical and physical ordering" (seed 000) for the order messages are met in; shared/mq-facts.md
sections 2.2, 2.5, 2.6 and 2.8 for match options, GroupStatus/SegmentStatus and reason codes. Browsing and
the logical-order, reassembly and mark options belong to their own modules and are not modelled here yet.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .constants import VALUES
from .errors import NotModelled
from .handles import Connection, ObjectHandle
from .options import first_broken, unknown_bits
from .queue import GET_PENDING, VISIBLE, LocalQueue, StoredMessage
from .result import MQCC_OK, MQCC_WARNING, Result, failure
from .structures import MQGMO, MQGMO_VERSION_2, MQGMO_VERSION_3, MQMD, MQMD_VERSION_2, NONE_ID

if TYPE_CHECKING:
    from .qmgr import QueueManager

GMO = {name: VALUES[name] for name in VALUES if name.startswith("MQGMO_")}
MO = {name: VALUES[name] for name in VALUES if name.startswith("MQMO_")}
OO_INPUT = VALUES["MQOO_INPUT_AS_Q_DEF"] | VALUES["MQOO_INPUT_SHARED"] | VALUES["MQOO_INPUT_EXCLUSIVE"]
MQWI_UNLIMITED = VALUES["MQWI_UNLIMITED"]

# Options whose behaviour lives in modules not written yet; a call using one is refused, never guessed at.
NOT_YET = (
    "MQGMO_BROWSE_FIRST", "MQGMO_BROWSE_NEXT", "MQGMO_BROWSE_MSG_UNDER_CURSOR", "MQGMO_MSG_UNDER_CURSOR",
    "MQGMO_LOCK", "MQGMO_UNLOCK", "MQGMO_LOGICAL_ORDER", "MQGMO_COMPLETE_MSG", "MQGMO_ALL_MSGS_AVAILABLE",
    "MQGMO_ALL_SEGMENTS_AVAILABLE", "MQGMO_MARK_BROWSE_HANDLE", "MQGMO_MARK_BROWSE_CO_OP",
    "MQGMO_UNMARK_BROWSE_CO_OP", "MQGMO_UNMARK_BROWSE_HANDLE", "MQGMO_UNMARKED_BROWSE_MSG",
)
MATCH_NEEDING_MD2 = MO["MQMO_MATCH_GROUP_ID"] | MO["MQMO_MATCH_MSG_SEQ_NUMBER"] | MO["MQMO_MATCH_OFFSET"]

MF_SEGMENTATION_ALLOWED = VALUES["MQMF_SEGMENTATION_ALLOWED"]
MF_SEGMENT = VALUES["MQMF_SEGMENT"]
MF_LAST_SEGMENT = VALUES["MQMF_LAST_SEGMENT"]
MF_MSG_IN_GROUP = VALUES["MQMF_MSG_IN_GROUP"]
MF_LAST_MSG_IN_GROUP = VALUES["MQMF_LAST_MSG_IN_GROUP"]


def group_status(flags: int) -> int:
    """MQGMO.GroupStatus for a message's MsgFlags (get.status.group-status)."""
    if flags & MF_LAST_MSG_IN_GROUP:
        return VALUES["MQGS_LAST_MSG_IN_GROUP"]
    if flags & MF_MSG_IN_GROUP:
        return VALUES["MQGS_MSG_IN_GROUP"]
    return VALUES["MQGS_NOT_IN_GROUP"]


def segment_status(flags: int) -> int:
    """MQGMO.SegmentStatus for a message's MsgFlags (get.status.segment-status)."""
    if flags & MF_LAST_SEGMENT:
        return VALUES["MQSS_LAST_SEGMENT"]
    if flags & MF_SEGMENT:
        return VALUES["MQSS_SEGMENT"]
    return VALUES["MQSS_NOT_A_SEGMENT"]


def segmentation(flags: int) -> int:
    """MQGMO.Segmentation for a message's MsgFlags (get.status.segmentation)."""
    return VALUES["MQSEG_ALLOWED"] if flags & MF_SEGMENTATION_ALLOWED else VALUES["MQSEG_INHIBITED"]


def selection(md: MQMD, match: int) -> tuple[dict[str, bytes], dict[str, int]]:
    """What a get looks for: indexed identifier keys and the MsgSeqNumber/Offset it must have.

    An identifier field holding its "none" value matches any message (get.match.none-matches-any).
    Clauses: get.match.msg-id, get.match.correl-id, get.match.group-id, get.match.msg-seq-number,
    get.match.offset.
    """
    keys: dict[str, bytes] = {}
    if match & MO["MQMO_MATCH_MSG_ID"] and md.MsgId != NONE_ID:
        keys["MsgId"] = md.MsgId
    if match & MO["MQMO_MATCH_CORREL_ID"] and md.CorrelId != NONE_ID:
        keys["CorrelId"] = md.CorrelId
    if match & MO["MQMO_MATCH_GROUP_ID"] and md.GroupId != NONE_ID:
        keys["GroupId"] = md.GroupId
    numbers: dict[str, int] = {}
    if match & MO["MQMO_MATCH_MSG_SEQ_NUMBER"]:
        numbers["MsgSeqNumber"] = md.MsgSeqNumber
    if match & MO["MQMO_MATCH_OFFSET"]:
        numbers["Offset"] = md.Offset
    return keys, numbers


def find(queue: LocalQueue, keys: dict[str, bytes], numbers: dict[str, int]) -> StoredMessage | None:
    """The first visible message in delivery order that matches (get.order.priority-then-physical)."""
    for message in queue.candidates(keys):
        if message.state != VISIBLE:
            continue
        if all(getattr(message.md, name) == wanted for name, wanted in numbers.items()):
            return message
    return None


def match_clauses(keys: dict[str, bytes], numbers: dict[str, int]) -> list[str]:
    """The clause ids of the match options a selection used."""
    named = {"MsgId": "get.match.msg-id", "CorrelId": "get.match.correl-id", "GroupId": "get.match.group-id",
             "MsgSeqNumber": "get.match.msg-seq-number", "Offset": "get.match.offset"}
    return [named[name] for name in (*keys, *numbers)]


def get(
    qm: QueueManager,
    conn: Connection,
    handle: ObjectHandle,
    queue: LocalQueue,
    md: MQMD,
    gmo: MQGMO,
    buffer_length: int | None,
) -> Result:
    """Remove (or, under syncpoint, set aside) the first matching message of ``queue``.

    Clauses: get.options.*, get.not-open-for-input, get.get-inhibited, get.match.*, get.no-msg-available,
    get.wait.*, get.order.*, get.truncated.*, get.syncpoint.*, get.status.*.
    """
    options = gmo.Options
    if unknown_bits(options, "MQGMO"):
        return failure("MQRC_OPTIONS_ERROR", "get.options.unknown")
    broken = first_broken(qm.spec["get.options"], options, "MQGET")
    if broken is not None:
        return failure(broken.reason, broken.id)
    for name in NOT_YET:
        if options & GMO[name]:
            raise NotModelled(f"{name} is not modelled by the reference model yet")
    if not handle.options & OO_INPUT:
        return failure("MQRC_NOT_OPEN_FOR_INPUT", "get.not-open-for-input")
    if queue.definition.InhibitGet:
        return failure("MQRC_GET_INHIBITED", "get.get-inhibited")

    clauses: list[str] = []
    if gmo.Version >= MQGMO_VERSION_2:
        match = gmo.MatchOptions
    else:
        match = MO["MQMO_MATCH_MSG_ID"] | MO["MQMO_MATCH_CORREL_ID"]
        clauses.append("get.match.gmo-version-1")
    if unknown_bits(match, "MQMO"):
        return failure("MQRC_MATCH_OPTIONS_ERROR", "get.match.unknown-option")
    if match & MO["MQMO_MATCH_MSG_TOKEN"]:
        raise NotModelled("MQMO_MATCH_MSG_TOKEN is not modelled by the reference model yet")
    if match & MATCH_NEEDING_MD2 and md.Version < MQMD_VERSION_2:
        return failure("MQRC_WRONG_MD_VERSION", "get.match.needs-md-version-2")

    keys, numbers = selection(md, match)
    clauses.extend(match_clauses(keys, numbers))
    message = find(queue, keys, numbers)
    if message is None:
        if options & GMO["MQGMO_WAIT"]:
            if gmo.WaitInterval == MQWI_UNLIMITED:
                raise NotModelled("an unlimited MQGMO_WAIT with no message would never return")
            # Nothing else runs while a call waits in the model, so the wait always ends empty-handed.
            qm.clock.advance(max(gmo.WaitInterval, 0))
            clauses.append("get.wait.expires")
        return Result(VALUES["MQCC_FAILED"], VALUES["MQRC_NO_MSG_AVAILABLE"], clauses + ["get.no-msg-available"])
    clauses.append("get.order.priority-then-physical" if queue.definition.MsgDeliverySequence == 0
                   else "get.order.fifo")

    comp_code, reason = MQCC_OK, VALUES["MQRC_NONE"]
    data = message.data
    remove = True
    if buffer_length is not None and len(data) > buffer_length:
        comp_code = MQCC_WARNING
        if options & GMO["MQGMO_ACCEPT_TRUNCATED_MSG"]:
            reason = VALUES["MQRC_TRUNCATED_MSG_ACCEPTED"]
            clauses.append("get.truncated.accepted")
        else:
            reason = VALUES["MQRC_TRUNCATED_MSG_FAILED"]
            clauses.append("get.truncated.failed")
            remove = False
        data = data[:buffer_length]

    if remove:
        persistent = message.md.Persistence == VALUES["MQPER_PERSISTENT"]
        if options & GMO["MQGMO_SYNCPOINT"] or (options & GMO["MQGMO_SYNCPOINT_IF_PERSISTENT"] and persistent):
            uow = qm.unit_of_work(conn)
            message.state, message.uow = GET_PENDING, uow.ident
            uow.gets.append((queue.definition.name, message))
            clauses.append("get.syncpoint.pending-until-commit")
        else:
            queue.remove(message)

    out = message.md.copy()
    if md.Version < MQMD_VERSION_2:
        # A version-1 descriptor has no group fields to return (md.version-1-ignores-group-fields).
        template = MQMD()
        out.GroupId, out.MsgSeqNumber, out.Offset = template.GroupId, template.MsgSeqNumber, template.Offset
        out.MsgFlags, out.OriginalLength = template.MsgFlags, template.OriginalLength
    out.Version = md.Version
    gmo_out = MQGMO(Version=gmo.Version, Options=gmo.Options, WaitInterval=gmo.WaitInterval,
                    ResolvedQName=queue.definition.name, MatchOptions=gmo.MatchOptions)
    if gmo.Version >= MQGMO_VERSION_2:
        flags = message.md.MsgFlags
        gmo_out.GroupStatus, gmo_out.SegmentStatus = group_status(flags), segment_status(flags)
        gmo_out.Segmentation = segmentation(flags)
        clauses.append("get.status.group-and-segment")
    if gmo.Version >= MQGMO_VERSION_3:
        gmo_out.ReturnedLength = len(data)
        gmo_out.MsgToken = message.token
    return Result(comp_code, reason, clauses, md=out, gmo=gmo_out, data=data, data_length=len(message.data))
