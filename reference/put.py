"""MQPUT and MQPUT1: the put side of messages, groups and segments.

Source: "Logical and physical ordering" (document `ordering`) and "MQMD MsgFlags" (document `msgflags`). The GroupId, MsgSeqNumber
and Offset a put uses come from Table 1 (fixtures/tables/put-options.yaml); whether a put that does not fit the
retained group information fails, warns or passes comes from Table 2 (put-close-outcome.yaml) and the
consistency rows (put-group-consistency.yaml). This module finds rows; it does not restate them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .constants import FORMATS, VALUES
from . import context, expiry, msgflags, report, segmentation
from .handles import Connection, GroupPosition, ObjectHandle
from .msgflags import GroupFlags
from .options import first_broken, unknown_bits
from .queue import MAX_PRIORITY, PUT_PENDING, LocalQueue, QueueDefinition, StoredMessage
from .result import MQCC_FAILED, MQCC_OK, MQCC_WARNING, Result, failure
from .structures import MQMD, MQMD_VERSION_2, MQPMO, NONE_ID

if TYPE_CHECKING:
    from .qmgr import QueueManager

PMO_SYNCPOINT = VALUES["MQPMO_SYNCPOINT"]
PMO_LOGICAL_ORDER = VALUES["MQPMO_LOGICAL_ORDER"]
# What a logical-order put reads: its handle's own group information, kept apart from the get side's
PER_HANDLE = ("put.logical-order.state-per-handle",)
FMT_STRING = FORMATS["MQFMT_STRING"]
PER_HANDLE_BESIDE_GET = (*PER_HANDLE, "put.logical-order.state-separate-from-get")
OO_INPUT = VALUES["MQOO_INPUT_AS_Q_DEF"] | VALUES["MQOO_INPUT_SHARED"] | VALUES["MQOO_INPUT_EXCLUSIVE"]
PMO_NEW_MSG_ID = VALUES["MQPMO_NEW_MSG_ID"]
PMO_NEW_CORREL_ID = VALUES["MQPMO_NEW_CORREL_ID"]

MQPER_NOT_PERSISTENT = VALUES["MQPER_NOT_PERSISTENT"]
MQPER_PERSISTENT = VALUES["MQPER_PERSISTENT"]
MQPER_PERSISTENCE_AS_Q_DEF = VALUES["MQPER_PERSISTENCE_AS_Q_DEF"]
MQPRI_PRIORITY_AS_Q_DEF = VALUES["MQPRI_PRIORITY_AS_Q_DEF"]
MQQDT_TEMPORARY_DYNAMIC = VALUES["MQQDT_TEMPORARY_DYNAMIC"]
MAX_SEQ_OR_OFFSET = 999_999_999
MQMT_REPORT = VALUES["MQMT_REPORT"]
MQMT_DATAGRAM = VALUES["MQMT_DATAGRAM"]
MQEI_UNLIMITED = VALUES["MQEI_UNLIMITED"]
MQOL_UNDEFINED = VALUES["MQOL_UNDEFINED"]
MQCCSI_Q_MGR = VALUES["MQCCSI_Q_MGR"]
# Each report type as (the option, its with-data form, its with-full-data form): the full form's bits cover the
# others, so ``report & full`` reads which of the three a Report field asks for.
REPORT_TYPES = tuple((VALUES[f"MQRO_{kind}"], VALUES[f"MQRO_{kind}_WITH_DATA"], VALUES[f"MQRO_{kind}_WITH_FULL_DATA"])
                     for kind in ("EXCEPTION", "EXPIRATION", "COA", "COD"))
REPORT_DATA_BYTES = 100  # a *_WITH_DATA report carries the first 100 bytes of the message's data

TABLE1 = "put.logical-order.table1"
TABLE2 = "put.close-outcome.table2"
CONSISTENCY = "put.group-consistency"
PUT_OPTIONS = "put.options"


class SpecGap(RuntimeError):
    """The tables leave a combination undecided: a defect of the fixtures, never of the caller."""


def table2_call(logical_order: bool) -> str:
    """The "current call" column value of Table 2 for an MQPUT."""
    return "MQPUT with MQPMO_LOGICAL_ORDER" if logical_order else "MQPUT without MQPMO_LOGICAL_ORDER"


def resolve_persistence(persistence: int, defaults: QueueDefinition) -> int | None:
    """The Persistence a message whose MQMD gives ``persistence`` is stored with; None when that is not a valid
    value. ``defaults`` is the definition whose DefPersistence applies: the queue's, or the alias's it was opened
    through.

    Clauses: put.persistence.as-q-def, put.persistence.invalid, queue.alias.def-persistence.
    """
    if persistence == MQPER_PERSISTENCE_AS_Q_DEF:
        return defaults.DefPersistence
    if persistence in (MQPER_NOT_PERSISTENT, MQPER_PERSISTENT):
        return persistence
    return None


def check_consistency(qm: QueueManager, position: GroupPosition, facts: dict, call: str) -> tuple[int, str, list[str]]:
    """Whether a put or close fits the retained group information: (CompCode, reason name, clauses).

    The reason is the first matching row of put-group-consistency.yaml; the completion code is Table 2's for
    this call and the previous put's MQPMO_LOGICAL_ORDER. Clauses: put.group-consistency.*, put.close-outcome.*.
    """
    row = qm.spec[CONSISTENCY].lookup(**facts)
    if row is None:
        return MQCC_OK, "MQRC_NONE", []
    outcome = qm.spec[TABLE2].lookup(call=call, previous_logical_order=position.logical_order)
    if outcome is None:
        raise SpecGap(f"{TABLE2} has no row for {call!r}")
    comp_code = VALUES[outcome.then["CompCode"]]
    reason = row.then["Reason"] if comp_code != MQCC_OK else "MQRC_NONE"
    return comp_code, reason, [row.id, outcome.id]


def check_options(qm: QueueManager, options: int, call: str) -> Result | None:
    """The failure for MQPMO options that are unknown or may not be combined on ``call``, else None (as a
    Result, for MQPUT1 and the cluster's puts, which check options before they choose a queue).

    Clauses: put.options.unknown and the rows of fixtures/tables/put-options-rules.yaml.
    """
    refused = options_refusal(qm, options, call)
    return failure(*refused) if refused is not None else None


def options_refusal(qm: QueueManager, options: int, call: str) -> tuple[str, str] | None:
    """The failure (reason name, clause) for MQPMO options that are unknown or may not be combined on ``call``,
    else None.

    Clauses: put.options.unknown and the rows of fixtures/tables/put-options-rules.yaml.
    """
    if unknown_bits(options, "MQPMO"):
        return "MQRC_OPTIONS_ERROR", "put.options.unknown"
    broken = first_broken(qm.spec[PUT_OPTIONS], options, call)
    if broken is not None:
        return broken.reason, broken.id
    return None


@dataclass(frozen=True, slots=True, eq=False)
class PutRequest:
    """What a put's options, MQMD version and MsgFlags decide before the message or the queue is looked at.

    ``refused`` is the failure (reason name, clause) of the first of those checks a put breaks, if any. There is
    one request per combination (they are remembered), so a request is compared by identity.
    """

    refused: tuple[str, str] | None
    logical: bool
    syncpoint: bool
    msg_flags: int  # MsgFlags as the put reads them (none in a version-1 MQMD)
    flags: GroupFlags
    clauses: tuple[str, ...]


def put_request(qm: QueueManager, options: int, call: str, version2: bool, flags: int) -> PutRequest:
    """The first checks of put.check-order: options, MQMD version, MsgFlags.

    A pure function of its arguments and the tables, so it is remembered on the queue manager's Spec.
    Clauses: put.options.*, put.logical-order.md-version, md.version-1-ignores-group-fields, msgflags.unknown-flag.
    """
    key = ("put_request", options, call, version2, flags)
    memo = qm.spec.memo
    request = memo.get(key)
    if request is None:
        request = memo[key] = _put_request(qm, options, call, version2, flags)
    return request


def _put_request(qm: QueueManager, options: int, call: str, version2: bool, flags: int) -> PutRequest:
    logical = bool(options & PMO_LOGICAL_ORDER)
    refused = options_refusal(qm, options, call)
    if refused is None and logical and not version2:
        refused = ("MQRC_WRONG_MD_VERSION", "put.logical-order.md-version")
    if refused is None and flags & msgflags.MUST_BE_KNOWN & ~msgflags.KNOWN:
        refused = ("MQRC_MSG_FLAGS_ERROR", "msgflags.unknown-flag")
    clauses = () if version2 else ("md.version-1-ignores-group-fields",)
    return PutRequest(refused, logical, bool(options & PMO_SYNCPOINT), flags, GroupFlags.of(flags), clauses)


@dataclass(frozen=True, slots=True)
class GroupDecision:
    """What the consistency rows, Table 2 and Table 1 decide for a put: its completion code and reason, the
    clauses, and Table 1's rules for the GroupId, MsgSeqNumber and Offset (None when the put fails)."""

    comp_code: int
    reason: str
    clauses: tuple[str, ...]
    then: Mapping[str, str] | None


def group_decision(qm: QueueManager, request: PutRequest, position: GroupPosition | None, persistence: int
                   ) -> GroupDecision:
    """The rows that decide a put's group and segment fields, for ``position`` (None for MQPUT1, which keeps no
    group information).

    The answer depends only on the request, the position's group state and whether the put repeats its
    Persistence and unit-of-work setting, so it is remembered on the queue manager's Spec.
    Clauses: put.put1-no-group-check, put.logical-order.restart-in-middle, put.group-consistency.*,
    put.close-outcome.*, put.logical-order.table1.*.
    """
    if position is None:
        key = ("group_decision", request)
    else:
        key = ("group_decision", request, position.current_group, position.current_logical_message,
               position.in_group, position.last_in_group, position.logical_order,
               persistence != position.persistence, request.syncpoint != position.in_syncpoint)
    memo = qm.spec.memo
    decision = memo.get(key)
    if decision is None:
        decision = memo[key] = _group_decision(qm, request, position, persistence)
    return decision


def _group_decision(qm: QueueManager, request: PutRequest, position: GroupPosition | None, persistence: int
                    ) -> GroupDecision:
    logical, syncpoint = request.logical, request.syncpoint
    in_group, last_in_group, segment, _last_segment, segmentation_allowed = request.flags
    comp_code, reason, clauses = MQCC_OK, "MQRC_NONE", []
    if position is None:
        position = GroupPosition()
        clauses.append("put.put1-no-group-check")
    else:
        if not logical and (in_group or segment):
            clauses.append("put.logical-order.restart-in-middle")
        facts = {
            "closing": False,
            "current_group": position.current_group,
            "current_logical_message": position.current_logical_message,
            "in_group": in_group,
            "segment": segment,
            "group_flags_changed": (in_group, last_in_group) != (position.in_group, position.last_in_group),
            "persistence_differs": persistence != position.persistence,
            "syncpoint_differs": syncpoint != position.in_syncpoint,
            "left_logical_order": position.logical_order and not logical,
        }
        comp_code, reason, decided = check_consistency(qm, position, facts, table2_call(logical))
        clauses.extend(decided)
        if comp_code == MQCC_FAILED:
            return GroupDecision(comp_code, reason, tuple(clauses), None)
    row = qm.spec[TABLE1].lookup(
        logical_order=logical,
        in_group=in_group,
        segment=segment,
        segmentation_allowed=segmentation_allowed,
        current_group=position.current_group,
        current_logical_message=position.current_logical_message,
    )
    if row is None:
        raise SpecGap(f"{TABLE1} and {CONSISTENCY} leave this put undecided: flags {request.msg_flags}, {position}")
    clauses.append(row.id)
    return GroupDecision(comp_code, reason, tuple(clauses), row.then)


def put(
    qm: QueueManager,
    conn: Connection,
    handle: ObjectHandle | None,
    queue: LocalQueue,
    md: MQMD,
    pmo: MQPMO,
    data: bytes,
    call: str = "MQPUT",
    via: QueueDefinition | None = None,
) -> Result:
    """Put one message on ``queue``; ``handle`` is None for MQPUT1, which keeps no group information. ``via`` is
    the alias the queue was opened through: its InhibitPut counts too, and its DefPersistence and DefPriority are
    the defaults (queue.alias.inhibit-put, queue.alias.def-persistence, queue.alias.def-priority).

    When a put breaks several rules, the first in the order of the checks below is reported (put.check-order).
    What the options, flags and retained group information decide is looked up once per combination
    (:func:`put_request`, :func:`group_decision`); the rest is done here.

    Clauses: put.options.*, put.logical-order.*, put.group-consistency.*, put.close-outcome.*, msgflags.*,
    md.version-1-ignores-group-fields, put.persistence.*, put.priority.*, put.put-inhibited,
    put.msg-too-big-for-q, put.msg-too-big-for-q-mgr, put.q-full, put.msg-seq-number-range, put.offset-range,
    put.msgid.*, put.correlid.*, put.syncpoint.*, put.put1-no-group-check, put.original-length.*, report.*
    (reference/report.py), expiry.* (reference/expiry.py).
    """
    options, given_flags = pmo.Options, md.MsgFlags
    version2 = md.Version >= MQMD_VERSION_2
    request = put_request(qm, options, call, version2, given_flags if version2 else 0)
    if request.refused is not None:
        return failure(*request.refused)
    refused = context.check(handle, options)
    if refused is not None:
        return failure(*refused)
    logical, syncpoint, flags = request.logical, request.syncpoint, request.flags
    clauses = list(request.clauses)
    if flags.segment and not data:
        if not flags.last_segment:
            return failure("MQRC_SEGMENT_LENGTH_ZERO", "msgflags.segment-length-zero")
        clauses.append("msgflags.segment-length-zero")  # the last segment may be empty
    if flags.segment and md.MsgType == MQMT_REPORT and not _original_length_valid(md.OriginalLength, len(data),
                                                                                    flags.last_segment):
        return failure("MQRC_ORIGINAL_LENGTH_ERROR", "put.original-length.report-segment")

    definition = queue.definition
    defaults = definition if via is None else via
    given_persistence = md.Persistence
    persistence = resolve_persistence(given_persistence, defaults)
    if persistence is None:
        return failure("MQRC_PERSISTENCE_ERROR", "put.persistence.invalid")
    if given_persistence == MQPER_PERSISTENCE_AS_Q_DEF:
        clauses.append("put.persistence.as-q-def" if via is None else "queue.alias.def-persistence")
    priority = md.Priority
    if priority == MQPRI_PRIORITY_AS_Q_DEF:
        priority = defaults.DefPriority
        clauses.append("put.priority.as-q-def" if via is None else "queue.alias.def-priority")
    elif priority < 0:
        return failure("MQRC_PRIORITY_ERROR", "put.priority.invalid")
    everyday = md.Report or md.MsgType != MQMT_DATAGRAM or md.Feedback or md.Expiry != MQEI_UNLIMITED or md.ReplyToQ
    if everyday:  # MsgType, Report, Feedback, ReplyToQ and Expiry other than a plain datagram's
        refused = report.check_put(md)
        if refused is not None:
            return failure(*refused)
        if report.asks_for_reply(md):
            clauses.append("report.missing-reply-to-q")  # a reply or report is asked for, and ReplyToQ says where
        if expiry.invalid(md.Expiry):
            return failure("MQRC_EXPIRY_ERROR", "expiry.invalid")

    if via is not None and via.InhibitPut:
        return failure("MQRC_PUT_INHIBITED", "queue.alias.inhibit-put")
    if definition.InhibitPut:
        return failure("MQRC_PUT_INHIBITED", "put.put-inhibited")
    if persistence == MQPER_PERSISTENT and definition.DefinitionType == MQQDT_TEMPORARY_DYNAMIC:
        return failure("MQRC_PERSISTENT_NOT_ALLOWED", "queue.dynamic.temporary-no-persistent")
    if type(data) is not bytes:
        data = bytes(data)
    length = len(data)
    pieces = [data]
    if length > definition.MaxMsgLength or length > qm.max_msg_length:
        limit = min(qm.max_msg_length, definition.MaxMsgLength)
        too_big = ("MQRC_MSG_TOO_BIG_FOR_Q_MGR", "put.msg-too-big-for-q-mgr") if length > qm.max_msg_length \
            else ("MQRC_MSG_TOO_BIG_FOR_Q", "put.msg-too-big-for-q")
        if not flags.segmentation_allowed:
            return failure(*too_big)
        split = segmentation.split(data, limit, qm.segment_boundary)
        if split is None:
            return failure(too_big[0], too_big[1], "segmentation.too-small-to-split")
        if persistence == MQPER_PERSISTENT and not syncpoint and conn.uow is not None:
            return failure("MQRC_UOW_NOT_AVAILABLE", "segmentation.persistent-needs-unit-of-work")
        pieces = split
        # cut on 16-byte boundaries, MQFMT_STRING alike; a unit of work holds persistent segments (or none is
        # needed); a segment is split further
        clauses += ["segmentation.sixteen-byte-boundaries", "segmentation.persistent-needs-unit-of-work",
                    *(["segmentation.format-string"] if md.Format == FMT_STRING else []),
                    *(["segmentation.segment-split-further"] if request.msg_flags & msgflags.SEGMENT else [])]

    position = handle.put_position if handle is not None else None
    if position is not None and request.logical:  # the handle's own put-side group information
        clauses += PER_HANDLE if not handle.options & OO_INPUT else PER_HANDLE_BESIDE_GET
    decision = group_decision(qm, request, position, persistence)
    clauses += decision.clauses
    comp_code, reason, then = decision.comp_code, decision.reason, decision.then
    if then is None:
        return Result(comp_code, VALUES[reason], clauses)
    if position is None:
        position = GroupPosition()
    # The caller's GroupId, MsgSeqNumber and Offset, read once (a version-1 MQMD has none to give).
    given_group_id, given_seq, given_offset = md.GroupId, md.MsgSeqNumber, md.Offset
    group_id = _group_id(qm, then["GroupId"], position, given_group_id if version2 else NONE_ID)
    seq = position.msg_seq_number(then["MsgSeqNumber"], given_seq if version2 else 1)
    offset = position.offset_after(then["Offset"], given_offset if version2 else 0)
    if not 1 <= seq <= MAX_SEQ_OR_OFFSET:
        return Result(MQCC_FAILED, VALUES["MQRC_MSG_SEQ_NUMBER_ERROR"], clauses + ["put.msg-seq-number-range"])
    if not 0 <= offset <= MAX_SEQ_OR_OFFSET:
        return Result(MQCC_FAILED, VALUES["MQRC_OFFSET_ERROR"], clauses + ["put.offset-range"])

    if queue.depth + len(pieces) > definition.MaxQDepth:
        # A segmented put that does not fit leaves no segment behind (segmentation.failure-leaves-nothing).
        return Result(MQCC_FAILED, VALUES["MQRC_Q_FULL"], clauses + ["put.q-full"] + (
            ["segmentation.failure-leaves-nothing"] if len(pieces) > 1 else []))

    if options & PMO_NEW_MSG_ID or md.MsgId == NONE_ID:
        msg_id = qm.ids.new_id()
        clauses.append("put.msgid.generated")
    else:
        msg_id = md.MsgId
        clauses.append("put.msgid.from-field")
    given_correl_id = correl_id = md.CorrelId
    if options & PMO_NEW_CORREL_ID:
        correl_id = qm.ids.new_id()
        clauses.append("put.correlid.generated")

    stored_flags = msgflags.stored_flags(request.msg_flags, clauses)
    stored = md.copy()
    stored.Version, stored.MsgId, stored.Persistence, stored.Priority = MQMD_VERSION_2, msg_id, persistence, priority
    clauses += context.clauses_of(context.apply(qm, conn, options, stored))
    if md.CodedCharSetId == MQCCSI_Q_MGR:  # never returned by MQGET (put.coded-char-set-id.q-mgr-replaced)
        stored.CodedCharSetId = qm.coded_char_set_id
        clauses.append("put.coded-char-set-id.q-mgr-replaced")
    # The group fields are set even where they keep the caller's values: every get reads them, and a field that
    # a structure holds reads faster than one left at its initial value. The other fields usually keep the
    # caller's values; a copy that sets only what changes stays small.
    stored.GroupId, stored.MsgSeqNumber, stored.Offset, stored.MsgFlags = group_id, seq, offset, stored_flags
    if correl_id != given_correl_id:
        stored.CorrelId = correl_id
    if md.BackoutCount:
        stored.BackoutCount = 0
    expires_at = None
    if everyday:
        reply_q, reply_qmgr, decided_by = report.reply_to(qm, md)
        if reply_qmgr != md.ReplyToQMgr or reply_q != md.ReplyToQ:
            stored.ReplyToQ, stored.ReplyToQMgr = reply_q, reply_qmgr
            clauses.append(decided_by)
        expires_at = expiry.deadline(qm, md.Expiry)
        if expires_at is not None:
            clauses.append("expiry.tenths")
            if len(pieces) > 1:
                clauses.append("expiry.segments-each")
    original_length = _stored_original_length(md, flags.segment, length)
    if original_length != md.OriginalLength:
        stored.OriginalLength = original_length
    if flags.segment or len(pieces) > 1 or original_length != md.OriginalLength:
        clauses.append("put.original-length.stored")
    uow = None
    if syncpoint:
        uow = qm.unit_of_work(conn)
        if handle is not None:
            qm.enlist(uow, handle)
        clauses.append("put.syncpoint.invisible-until-commit")
    placed = []
    for piece_md, piece in _segments(stored, pieces, clauses):
        message = StoredMessage(qm.next_seq(), piece_md, piece, qm.ids.new_token())
        # every segment carries the message's one expiry, so a logical message expires whole (expiry.segments-each)
        message.expires_at = expires_at
        if uow is not None:
            message.state, message.uow = PUT_PENDING, uow.ident
            uow.puts.append((definition.name, message))
        queue.add(message)
        placed.append(message)
    if stored.Report and uow is None:
        clauses += report.arrived(qm, placed, definition.name)  # under syncpoint, at commit (syncpoint.py)

    if handle is not None:
        position.advance(stored, length, logical, persistence, syncpoint)

    if priority > MAX_PRIORITY and comp_code == MQCC_OK:
        comp_code, reason = MQCC_WARNING, "MQRC_PRIORITY_EXCEEDS_MAXIMUM"
        clauses.append("put.priority.exceeds-maximum")

    out = md.copy()  # the caller's MsgFlags stay as given (msgflags.caller-md-unchanged)
    if len(pieces) > 1 or stored.MsgFlags != md.MsgFlags:  # the stored copy carries flags the caller's MQMD does not
        clauses.append("msgflags.caller-md-unchanged")
    out.MsgId, out.CorrelId = msg_id, correl_id
    if version2:
        out.GroupId, out.MsgSeqNumber, out.Offset = group_id, seq, offset
    context.returned(stored, out)
    pmo_out = pmo.copy()
    pmo_out.ResolvedQName, pmo_out.ResolvedQMgrName = definition.name, qm.name
    return Result(comp_code, VALUES[reason], clauses, out, pmo_out)  # md, pmo


def _original_length_valid(original_length: int, length: int, last_segment: bool) -> bool:
    """Whether a report message that is a segment gives an OriginalLength the queue manager accepts: more than
    zero (not less than zero for a last segment) and not less than the data put. Clause:
    put.original-length.report-segment."""
    return original_length >= length and (original_length >= 0 if last_segment else original_length > 0)


def _stored_original_length(md: MQMD, segment: bool, length: int) -> int:
    """The OriginalLength the message is stored with: a report segment's own value, the data length of any other
    segment, MQOL_UNDEFINED for everything else. Clause: put.original-length.stored."""
    if not segment:
        return MQOL_UNDEFINED
    return md.OriginalLength if md.MsgType == MQMT_REPORT else length


def reduced_report(report: int) -> int:
    """``report`` with each *_WITH_DATA report option changed to the plain option (a segment that holds none of
    the first 100 bytes of the message's data). *_WITH_FULL_DATA is left as it is. Clause:
    segmentation.report-options."""
    for plain, with_data, full in REPORT_TYPES:
        if report & full == with_data:
            report = (report & ~full) | plain
    return report


def _group_id(qm: QueueManager, rule: str, position: GroupPosition, field: bytes) -> bytes:
    if rule == "MQGI_NONE":
        return NONE_ID
    if rule == "previous":
        return position.group_id
    if rule == "new-if-none-else-field" and field != NONE_ID:
        return field
    return qm.ids.new_id()


def _segments(stored: MQMD, pieces: list[bytes], clauses: list[str]) -> list[tuple[MQMD, bytes]]:
    """The stored copies of a message split into ``pieces`` by the queue manager (one piece: the message itself).

    Each segment has MQMF_SEGMENT, the last also MQMF_LAST_SEGMENT unless the application's own message was a
    segment that is not the last; offsets run on from the message's own Offset. Every segment keeps the
    message's MsgId. A segment put with segmentation allowed is split further the same way
    (segmentation.segment-split-further). Format, CodedCharSetId and Encoding describe the data at the start of
    each segment, which for the opaque data of user-defined formats and MQFMT_STRING are the message's own; a
    segment that starts at or after byte 100 of the message's data has its *_WITH_DATA report options reduced.
    Clauses: segmentation.flags-on-stored-copies, segmentation.msgid-shared, segmentation.segment-describes-its-data,
    segmentation.report-options.
    """
    if len(pieces) == 1:
        return [(stored, pieces[0])]
    clauses.extend(["segmentation.flags-on-stored-copies", "segmentation.msgid-shared",
                    "segmentation.segment-describes-its-data"])
    reduced = reduced_report(stored.Report)
    ends_logical_message = not (stored.MsgFlags & msgflags.SEGMENT) or bool(stored.MsgFlags & msgflags.LAST_SEGMENT)
    result, offset = [], stored.Offset
    for index, piece in enumerate(pieces):
        md = stored.copy()
        md.MsgFlags = (md.MsgFlags & ~msgflags.LAST_SEGMENT) | msgflags.SEGMENT
        if index == len(pieces) - 1 and ends_logical_message:
            md.MsgFlags |= msgflags.LAST_SEGMENT
        md.Offset = offset
        if offset >= REPORT_DATA_BYTES and reduced != md.Report:
            md.Report = reduced
            if "segmentation.report-options" not in clauses:
                clauses.append("segmentation.report-options")
        offset += len(piece)
        result.append((md, piece))
    return result
