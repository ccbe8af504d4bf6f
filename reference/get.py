"""MQGET: destructive gets and browsing, in physical or logical order, with reassembly.

Sources: "Logical and physical ordering" (document `ordering`) for physical and logical order, browse state kept apart from
get state, MQGMO_BROWSE_FIRST resetting it, BROWSE_NEXT keeping the LOGICAL_ORDER setting, and the warning
about browsing past the end of a group; IBM's MQI reference (clauses.yaml document `facts`) for match options, the logical-order
table (fixtures/tables/get-logical-order.yaml), reassembly, GroupStatus/SegmentStatus and reason codes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import browse_mark, expiry, msgflags, report, segmentation
from .constants import VALUES, name_of
from .errors import NotModelled
from .handles import Connection, GroupPosition, ObjectHandle
from .msgflags import group_status, segment_status
from .open import OO_INPUT
from .options import first_broken, held, unknown_bits
from .queue import MQMDS_PRIORITY, VISIBLE, LocalQueue, QueueDefinition, StoredMessage
from .result import MQCC_FAILED, MQCC_OK, MQCC_WARNING, Result, failure
from .tables import Row
from .structures import MQGMO, MQGMO_VERSION_2, MQGMO_VERSION_3, MQMD, MQMD_VERSION_2, NONE_ID

if TYPE_CHECKING:
    from .qmgr import QueueManager

GMO = {name: VALUES[name] for name in VALUES if name.startswith("MQGMO_")}
MO = {name: VALUES[name] for name in VALUES if name.startswith("MQMO_")}
OO_BROWSE = VALUES["MQOO_BROWSE"]
OO_CO_OP = VALUES["MQOO_CO_OP"]
MQWI_UNLIMITED = VALUES["MQWI_UNLIMITED"]
MQPER_PERSISTENT = VALUES["MQPER_PERSISTENT"]
TABLE4 = "get.logical-order.table4"

GMO_WAIT, GMO_SET_SIGNAL = GMO["MQGMO_WAIT"], GMO["MQGMO_SET_SIGNAL"]
GMO_SYNCPOINT, GMO_SYNCPOINT_IF_PERSISTENT = GMO["MQGMO_SYNCPOINT"], GMO["MQGMO_SYNCPOINT_IF_PERSISTENT"]
GMO_BROWSE_FIRST, GMO_BROWSE_NEXT = GMO["MQGMO_BROWSE_FIRST"], GMO["MQGMO_BROWSE_NEXT"]
GMO_LOGICAL_ORDER, GMO_COMPLETE_MSG = GMO["MQGMO_LOGICAL_ORDER"], GMO["MQGMO_COMPLETE_MSG"]
GMO_ALL_MSGS_AVAILABLE = GMO["MQGMO_ALL_MSGS_AVAILABLE"]
GMO_ALL_SEGMENTS_AVAILABLE = GMO["MQGMO_ALL_SEGMENTS_AVAILABLE"]
GMO_ACCEPT_TRUNCATED_MSG = GMO["MQGMO_ACCEPT_TRUNCATED_MSG"]
GMO_MARK_BROWSE_HANDLE, GMO_UNMARK_BROWSE_HANDLE = GMO["MQGMO_MARK_BROWSE_HANDLE"], GMO["MQGMO_UNMARK_BROWSE_HANDLE"]
GMO_MARK_BROWSE_CO_OP, GMO_UNMARK_BROWSE_CO_OP = GMO["MQGMO_MARK_BROWSE_CO_OP"], GMO["MQGMO_UNMARK_BROWSE_CO_OP"]
GMO_UNMARKED_BROWSE_MSG = GMO["MQGMO_UNMARKED_BROWSE_MSG"]
MO_MATCH_MSG_ID, MO_MATCH_CORREL_ID = MO["MQMO_MATCH_MSG_ID"], MO["MQMO_MATCH_CORREL_ID"]
MO_MATCH_GROUP_ID, MO_MATCH_MSG_TOKEN = MO["MQMO_MATCH_GROUP_ID"], MO["MQMO_MATCH_MSG_TOKEN"]
LAPSES = "browse-mark.coop-mark-lapses"
MO_MATCH_MSG_SEQ_NUMBER, MO_MATCH_OFFSET = MO["MQMO_MATCH_MSG_SEQ_NUMBER"], MO["MQMO_MATCH_OFFSET"]

BROWSE = GMO_BROWSE_FIRST | GMO_BROWSE_NEXT | GMO["MQGMO_BROWSE_MSG_UNDER_CURSOR"]
UNDER_CURSOR = GMO["MQGMO_BROWSE_MSG_UNDER_CURSOR"] | GMO["MQGMO_MSG_UNDER_CURSOR"]
# Options whose behaviour lives in modules not written yet; a call using one is refused, never guessed at.
NOT_YET = ("MQGMO_LOCK", "MQGMO_UNLOCK")
NOT_YET_OPTIONS = sum(GMO[name] for name in NOT_YET)
CO_OP_OPTIONS = GMO_MARK_BROWSE_CO_OP | GMO_UNMARK_BROWSE_CO_OP
MATCH_NEEDING_MD2 = MO_MATCH_GROUP_ID | MO_MATCH_MSG_SEQ_NUMBER | MO_MATCH_OFFSET
# Only these options can make a message that matches unavailable (see _available).
WHOLE_OPTIONS = GMO_ALL_MSGS_AVAILABLE | GMO_ALL_SEGMENTS_AVAILABLE | GMO_COMPLETE_MSG
MATCH_CLAUSES = {"MsgId": "get.match.msg-id", "CorrelId": "get.match.correl-id", "GroupId": "get.match.group-id",
                 "MsgSeqNumber": "get.match.msg-seq-number", "Offset": "get.match.offset"}

GROUPED = msgflags.ANY_GROUP | msgflags.ANY_SEGMENT


def selection(md: MQMD, match: int) -> tuple[dict[str, bytes], dict[str, int]]:
    """What a get looks for: indexed identifier keys and the MsgSeqNumber/Offset it must have.

    An identifier field holding its "none" value matches any message.
    Clauses: get.match.msg-id, get.match.correl-id, get.match.group-id, get.match.msg-seq-number,
    get.match.offset.
    """
    keys: dict[str, bytes] = {}
    numbers: dict[str, int] = {}
    if not match:
        return keys, numbers
    if match & MO_MATCH_MSG_ID and md.MsgId != NONE_ID:
        keys["MsgId"] = md.MsgId
    if match & MO_MATCH_CORREL_ID and md.CorrelId != NONE_ID:
        keys["CorrelId"] = md.CorrelId
    if match & MO_MATCH_GROUP_ID and md.GroupId != NONE_ID:
        keys["GroupId"] = md.GroupId
    if match & MO_MATCH_MSG_SEQ_NUMBER:
        numbers["MsgSeqNumber"] = md.MsgSeqNumber
    if match & MO_MATCH_OFFSET:
        numbers["Offset"] = md.Offset
    return keys, numbers


def match_clauses(keys: dict[str, bytes], numbers: dict[str, int]) -> list[str]:
    """The clause ids of the match options a selection used."""
    return [MATCH_CLAUSES[name] for name in (*keys, *numbers)]


def _available(queue: LocalQueue, message: StoredMessage, options: int, clauses: list[str]) -> bool:
    """Whether MQGMO_ALL_MSGS_AVAILABLE, ALL_SEGMENTS_AVAILABLE or COMPLETE_MSG let ``message`` be returned.

    Clauses: get.all-msgs-available.complete, get.all-segments-available.complete, get.complete-msg.only-whole.
    """
    flags = message.md.MsgFlags
    if options & GMO_ALL_MSGS_AVAILABLE and flags & msgflags.ANY_GROUP:
        if not segmentation.group_complete(queue, message.md.GroupId):
            clauses.append("get.all-msgs-available.complete")
            return False
    # MQGMO_ALL_MSGS_AVAILABLE implies MQGMO_ALL_SEGMENTS_AVAILABLE (get.all-msgs-available.implies-all-segments).
    if flags & msgflags.SEGMENT and options & WHOLE_OPTIONS:
        start = message if message.md.Offset == 0 else None
        if options & GMO_COMPLETE_MSG and start is None:
            return False  # only the first segment stands for a whole logical message
        if start is None:
            start = _first_segment(queue, message)
        if start is None or segmentation.logical_message(queue, start) is None:
            clauses.append("get.complete-msg.only-whole" if options & GMO_COMPLETE_MSG
                           else "get.all-segments-available.complete")
            return False
    return True


def _first_segment(queue: LocalQueue, message: StoredMessage) -> StoredMessage | None:
    for other in queue.index("GroupId").get(message.md.GroupId, {}).values():
        if other.md.MsgSeqNumber == message.md.MsgSeqNumber and other.md.Offset == 0 and other.state == VISIBLE:
            return other
    return None


def _after(queue: LocalQueue, message: StoredMessage, key: tuple[int, int] | None) -> bool:
    return key is None or queue.delivery_key(message) > key


def find_physical(queue: LocalQueue, keys: dict, numbers: dict, options: int, after: tuple[int, int] | None,
                  clauses: list[str], skip=None) -> StoredMessage | None:
    """The first visible message in delivery order after ``after`` that matches and is available, and that
    ``skip`` (the browse-mark filter) does not pass over. Because BROWSE_NEXT looks only past the cursor, a
    group whose last message precedes its first is found again (get.browse.past-group-end-repeats)."""
    for message in queue.candidates(keys):
        if message.state != VISIBLE or (after is not None and not _after(queue, message, after)) or \
                (skip and skip(message)):
            continue
        if numbers and any(getattr(message.md, name) != wanted for name, wanted in numbers.items()):
            continue
        if not options & WHOLE_OPTIONS or _available(queue, message, options, clauses):
            return message
    return None


def find_group_start(queue: LocalQueue, keys: dict, options: int, after: tuple[int, int] | None,
                     clauses: list[str], skip=None, seq: int = 1, offset: int = 0,
                     first_item_only: bool = True) -> StoredMessage | None:
    """Logical order with no current group or logical message: the first item (the get table's MsgSeqNumber
    and Offset, 1 and 0) of a group, logical message or lone message, in the physical order of first items
    (get.logical-order.first-item). ``first_item_only`` False (a mutant's) lets any item start."""
    for message in queue.candidates(keys):
        if message.state != VISIBLE or not _after(queue, message, after) or (skip and skip(message)):
            continue
        first = message.md.MsgSeqNumber == seq and message.md.Offset == offset
        if (first or not first_item_only) and (not options & WHOLE_OPTIONS or
                                                _available(queue, message, options, clauses)):
            return message
    return None


def find_next_item(queue: LocalQueue, group_id: bytes, seq: int, offset: int) -> StoredMessage | None:
    """Logical order inside a group or logical message: exactly the next item, wherever it is on the queue."""
    for message in queue.index("GroupId").get(group_id, {}).values():
        md = message.md
        if message.state == VISIBLE and md.MsgSeqNumber == seq and md.Offset == offset:
            return message
    return None


def _arrived_behind(queue: LocalQueue, cursor: tuple[tuple[int, int], int]) -> bool:
    """Whether a visible message arrived after the one under the browse cursor at a higher priority, so sorts
    before the cursor where BROWSE_NEXT does not look (get.browse.priority-arrivals-need-browse-first)."""
    key, seq = cursor
    if queue.definition.MsgDeliverySequence != MQMDS_PRIORITY:
        return False
    level = -key[0]
    return any(m.seq > seq and m.state == VISIBLE for higher in queue.levels[level + 1:] for m in higher.values())


def _choose(qm: QueueManager, queue: LocalQueue, find, clauses: list[str]) -> StoredMessage | None:
    """The message ``find`` chooses, once the expired messages it would have chosen first are discarded: an
    expired message is never returned, browse or not, and only a get that would have returned it discards it
    (expiry.discarded-at-get)."""
    if not queue.expiring:
        return find()
    return expiry.first_unexpired(qm, queue, find, clauses)


def _no_message(qm: QueueManager, gmo: MQGMO, clauses: list[str]) -> Result:
    # Nothing moves: a browse at the end of the queue keeps its cursor (get.browse.end-of-queue-cursor-stays).
    if gmo.Options & GMO_WAIT:
        if gmo.WaitInterval == MQWI_UNLIMITED:
            raise NotModelled("an unlimited MQGMO_WAIT with no message would never return")
        # Nothing else runs while a call waits in the model, so the wait always ends empty-handed.
        qm.clock.advance(gmo.WaitInterval)
        clauses.append("get.wait.expires")
    if "browse-mark.unmarked-browse-msg" in clauses:  # every message it could browse is marked for it
        clauses = [*clauses, "browse-mark.no-msg-when-all-marked"]
    return Result(MQCC_FAILED, VALUES["MQRC_NO_MSG_AVAILABLE"], clauses + ["get.no-msg-available"])


@dataclass(frozen=True, slots=True)
class GetRequest:
    """What a get's options, match options, MQGMO and MQMD versions and the handle's open options decide.

    The checks are those :func:`get` makes before it chooses a message, in its order; the queue's InhibitGet
    is checked between ``refused`` and ``refused_later`` (each a failure's reason name and clause).
    """

    refused: tuple[str, ...] | None  # the reason and the clauses
    refused_later: tuple[str, str] | None
    not_modelled: str | None
    browse: bool
    under_cursor: bool
    logical: bool
    complete: bool
    match: int  # the match options in force (a version-1 MQGMO has none: MsgId and CorrelId)
    token: bool  # MQMO_MATCH_MSG_TOKEN chooses the message
    clauses: tuple[str, ...]


def get_request(qm: QueueManager, gmo: MQGMO, md: MQMD, handle: ObjectHandle) -> GetRequest:
    """The option checks of a get, remembered on the queue manager's Spec (they depend on nothing else).

    Clauses: get.options.*, get.browse.not-open-for-browse, get.browse.msg-under-cursor-needs-input,
    get.not-open-for-input, get.match.gmo-version-1, get.match.unknown-option, get.match.needs-md-version-2,
    browse-mark.match-msg-token-needs-gmo-version-3, browse-mark.match-msg-token-not-with-wait,
    browse-mark.co-op-needs-co-op-handle.
    """
    key = ("get_request", gmo.Options, gmo.Version, gmo.MatchOptions, md.Version >= MQMD_VERSION_2, handle.options)
    memo = qm.spec.memo
    request = memo.get(key)
    if request is None:
        request = memo[key] = _get_request(qm, *key[1:])
    return request


def _get_request(qm: QueueManager, options: int, gmo_version: int, match_options: int, md_version2: bool,
                 handle_options: int) -> GetRequest:
    refused = refused_later = not_modelled = None
    browse = bool(options & BROWSE)
    under_cursor = bool(options & UNDER_CURSOR)
    if unknown_bits(options, "MQGMO"):
        refused = ("MQRC_OPTIONS_ERROR", "get.options.unknown")
    else:
        broken = first_broken(qm.spec["get.options"], options, "MQGET-BROWSE" if browse else "MQGET")
        if broken is not None:
            refused = (broken.reason, broken.id)
    if refused is None and options & NOT_YET_OPTIONS:
        name = next(name for name in NOT_YET if options & GMO[name])
        raise NotModelled(f"{name} is not modelled by the reference model yet")
    if refused is None and (browse or under_cursor) and not handle_options & OO_BROWSE:
        refused = ("MQRC_NOT_OPEN_FOR_BROWSE", "get.browse.not-open-for-browse")
    if refused is None and not browse and not handle_options & OO_INPUT:
        # MQGMO_MSG_UNDER_CURSOR removes a message: it is a destructive get (get.not-open-for-input) too
        refused = ("MQRC_NOT_OPEN_FOR_INPUT", *(["get.browse.msg-under-cursor-needs-input"] if under_cursor else []),
                   "get.not-open-for-input")

    # -- after the queue's InhibitGet --
    # the option rules and open options the call met, named as applied (a get that keeps them can fail at them)
    clauses = [] if refused is not None else [
        *held(qm.spec["get.options"], options, "MQGET-BROWSE" if browse else "MQGET"),
        *(["get.browse.not-open-for-browse"] if browse or under_cursor else []),
        *([] if browse else ["get.browse.msg-under-cursor-needs-input" if under_cursor else "get.not-open-for-input"])]
    if gmo_version >= MQGMO_VERSION_2:
        match = match_options
    else:
        match = MO_MATCH_MSG_ID | MO_MATCH_CORREL_ID
        clauses.append("get.match.gmo-version-1")
    token = bool(match & MO_MATCH_MSG_TOKEN) and not under_cursor
    if unknown_bits(match, "MQMO"):
        refused_later = ("MQRC_MATCH_OPTIONS_ERROR", "get.match.unknown-option")
    elif token and gmo_version < MQGMO_VERSION_3:
        refused_later = ("MQRC_WRONG_GMO_VERSION", "browse-mark.match-msg-token-needs-gmo-version-3")
    elif token and options & (GMO_WAIT | GMO_SET_SIGNAL):
        refused_later = ("MQRC_MSG_TOKEN_ERROR", "browse-mark.match-msg-token-not-with-wait")
    elif options & CO_OP_OPTIONS and not handle_options & OO_CO_OP:
        refused_later = ("MQRC_OPTIONS_ERROR", "browse-mark.co-op-needs-co-op-handle")
    elif match & MATCH_NEEDING_MD2 and not md_version2:
        refused_later = ("MQRC_WRONG_MD_VERSION", "get.match.needs-md-version-2")
    logical = bool(options & GMO_LOGICAL_ORDER)
    if token and logical:
        not_modelled = "MQMO_MATCH_MSG_TOKEN together with MQGMO_LOGICAL_ORDER"
    return GetRequest(refused, refused_later, not_modelled, browse, under_cursor, logical,
                      bool(options & GMO_COMPLETE_MSG), match, token, tuple(clauses))


def get(
    qm: QueueManager,
    conn: Connection,
    handle: ObjectHandle,
    queue: LocalQueue,
    md: MQMD,
    gmo: MQGMO,
    buffer_length: int | None,
    via: QueueDefinition | None = None,
    header=None,
    exclude=None,
) -> Result:
    """MQGET on ``handle``: remove, set aside under syncpoint, or browse the message the options select.

    What the options decide is looked up once per combination (:func:`get_request`); the rest is done here.

    Clauses: get.options.*, get.not-open-for-input, get.browse.*, get.get-inhibited, get.match.*,
    get.logical-order.*, get.all-msgs-available.*, get.all-segments-available.*, get.complete-msg.* (with
    get.complete-msg.inconsistent-ccsids and get.complete-msg.inconsistent-encodings),
    get.no-msg-available, get.wait.* (get.wait.interval-error), get.returned-length, get.order.*, get.truncated.*,
    get.syncpoint.*, get.status.*, get.browse.mode-fixed-by-call.

    ``header`` (reference/properties.py) gives the bytes put before the chosen message's data (an MQRFH2), so that
    truncation counts them; ``exclude`` (reference/selection.py) passes over messages a selection string does not
    select. The returned Result names the message chosen (``message``).
    """
    request = get_request(qm, gmo, md, handle)
    if request.refused is not None:
        return failure(*request.refused)
    options, wait_interval = gmo.Options, gmo.WaitInterval
    if options & GMO_WAIT and wait_interval < 0 and wait_interval != MQWI_UNLIMITED:
        return failure("MQRC_WAIT_INTERVAL_ERROR", "get.wait.interval-error")
    if via is not None and via.InhibitGet:
        return failure("MQRC_GET_INHIBITED", "queue.alias.inhibit-get",  # every definition on the path counts
                       *(["set.inhibit-get-browse"] if request.browse else []))
    if queue.definition.InhibitGet:  # browses too, however the attribute was set (set.inhibit-get-browse)
        return failure("MQRC_GET_INHIBITED", "get.get-inhibited",
                       *(["set.inhibit-get-browse"] if request.browse else []))
    if request.refused_later is not None:
        return failure(*request.refused_later)
    if request.not_modelled is not None:
        raise NotModelled(request.not_modelled)
    match = request.match
    browse, under_cursor, logical, complete = request.browse, request.under_cursor, request.logical, request.complete
    token = gmo.MsgToken if request.token else None
    clauses = list(request.clauses)
    skip = None
    if options & GMO_UNMARKED_BROWSE_MSG:
        co_op, now, interval = bool(handle.options & OO_CO_OP), qm.clock.now_ms, qm.mark_browse_interval

        def skip(message: StoredMessage) -> bool:
            if LAPSES not in clauses and (message.handle_marks or message.coop_marked_at is not None):
                clauses.append(LAPSES)  # whether its mark still counts: a co-operative one lapses, a handle's never
            return browse_mark.marked_for(message, handle.hobj, co_op, now, interval)
        clauses.append("browse-mark.unmarked-browse-msg")
        if options & GMO_BROWSE_FIRST:  # MQGMO_BROWSE_HANDLE or MQGMO_BROWSE_CO_OP, spelt out or not
            clauses += [name for bit, name in ((GMO_MARK_BROWSE_HANDLE, "browse-mark.browse-handle-composite"),
                                               (GMO_MARK_BROWSE_CO_OP, "browse-mark.browse-co-op-composite"))
                        if options & bit]
    if exclude is not None:
        marked = skip
        skip = exclude if marked is None else (lambda m: exclude(m) or marked(m))  # noqa: E731
    if browse and not under_cursor:
        if options & GMO_BROWSE_NEXT and handle.browse_logical is not None:
            if handle.browse_logical != logical:
                return failure("MQRC_INCONSISTENT_BROWSE", "get.browse.next-keeps-logical-order")
            clauses.append("get.browse.next-keeps-logical-order")
        restart = bool(options & GMO_BROWSE_FIRST) or handle.browse_logical is None
    else:
        restart = False
    # A browse that starts again works on a fresh position and cursor, which replace the handle's only if the
    # call moves the cursor: a failed call changes nothing (mqi.failed-call-no-effect).
    if restart:
        clauses.append("get.browse.first-resets")
        position, cursor, anchor = GroupPosition(), None, None
    else:
        position = handle.browse_position if browse else handle.get_position
        cursor, anchor = handle.cursor, handle.anchor

    # -- choose the message --------------------------------------------------------------------------------
    started_group = False
    if under_cursor:
        under = [queue.messages.get(cursor[1]) if cursor else None]
        message = _choose(qm, queue, lambda: under.pop() if under else None, clauses)
        if message is None or message.state != VISIBLE:
            return failure("MQRC_NO_MSG_UNDER_CURSOR", "get.browse.no-msg-under-cursor")
        if complete and message.md.Offset > 0:
            return failure("MQRC_INVALID_MSG_UNDER_CURSOR", "get.complete-msg.invalid-msg-under-cursor")
        clauses.append("get.browse.under-cursor-ignores-match-options")
        if not browse:
            clauses.append("get.browse.cursor-moves-forward")  # removed from under it, the cursor stays
        if match & MO_MATCH_MSG_TOKEN:
            clauses.append("browse-mark.match-msg-token")  # under the cursor the token chooses nothing
    elif logical:
        row = logical_order_row(qm, position.flags)
        clauses.append(row.id)
        if position.unterminated and not position.logical_order:
            clauses.append("get.logical-order.position-after-any-get")  # a get without the option left it there
        # The row says which MsgSeqNumber and Offset the next message must have, whether it continues a group
        # or starts one; "start" rows say 1 and 0 (get.logical-order.first-item).
        then = row.then
        seq, offset = position.msg_seq_number(then["MsgSeqNumber"]), position.offset_after(then["Offset"])
        if then["select"] == "next":
            message = _choose(qm, queue, lambda: find_next_item(queue, position.group_id, seq, offset), clauses)
            mismatch = _inapplicable_mismatch(md, match, position.group_id, seq, offset, message)
            if mismatch:
                return failure("MQRC_MATCH_OPTIONS_ERROR", "get.logical-order.match-options-must-agree")
            if message is None:
                nothing = _no_message(qm, gmo, clauses + ["get.logical-order.next-item-only"])
                return _browse_started(handle, restart, logical, nothing)
            clauses.append("get.logical-order.next-item-only")
        else:
            if (match & MO_MATCH_MSG_SEQ_NUMBER and md.MsgSeqNumber != seq) or \
                    (match & MO_MATCH_OFFSET and md.Offset != offset):
                return failure("MQRC_MATCH_OPTIONS_ERROR", "get.logical-order.match-options-must-agree")
            keys, _numbers = selection(md, match & ~(MO_MATCH_MSG_SEQ_NUMBER | MO_MATCH_OFFSET))
            clauses.extend(match_clauses(keys, {}))
            after = anchor if browse else None
            message = _choose(qm, queue, lambda: find_group_start(queue, keys, options, after, clauses, skip, seq,
                                                                  offset, qm.group_start_needs_first_item), clauses)
            if message is None:
                return _browse_started(handle, restart, logical, _no_message(qm, gmo, clauses))
            clauses.append("get.logical-order.first-item")
            clauses.append("get.order.priority-then-physical" if queue.definition.MsgDeliverySequence == 0
                           else "get.order.fifo")  # which group starts first
            started_group = True
    else:
        keys, numbers = selection(md, match)
        if keys or numbers:
            clauses.extend(match_clauses(keys, numbers))
        after = None
        if browse and options & GMO_BROWSE_NEXT and cursor:
            after = cursor[0]
            clauses.append("get.browse.cursor-moves-forward")
        if token is not None:
            message = _choose(qm, queue, lambda: _by_token(queue, token, keys, numbers, after, skip, clauses), clauses)
        else:
            message = _choose(qm, queue, lambda: find_physical(queue, keys, numbers, options, after, clauses, skip),
                              clauses)
        if after is not None and _arrived_behind(queue, cursor):
            clauses.append("get.browse.priority-arrivals-need-browse-first")
        if message is None:
            if after is not None:
                clauses.append("get.browse.end-of-queue-cursor-stays")
            return _browse_started(handle, restart, logical, _no_message(qm, gmo, clauses))
        clauses.append("get.order.priority-then-physical" if queue.definition.MsgDeliverySequence == 0
                       else "get.order.fifo")
    if not options & GMO_UNMARKED_BROWSE_MSG and (message.handle_marks or message.coop_marked_at is not None):
        clauses.append("browse-mark.marks-only-steer-unmarked-browse")  # a marked message, returned all the same

    pieces, inconsistent = [message], None
    if complete and message.md.MsgFlags & msgflags.SEGMENT:
        pieces = segmentation.logical_message(queue, message)
        if pieces is None:
            return _no_message(qm, gmo, clauses + ["get.complete-msg.only-whole"])
        clauses.append("get.complete-msg.reassembled")
        pieces, inconsistent = segmentation.consistent_prefix(pieces)
    data = pieces[0].data if len(pieces) == 1 else b"".join(piece.data for piece in pieces)
    if header is not None:
        data = header(message) + data
    persistent = message.md.Persistence == MQPER_PERSISTENT
    if options & GMO_MARK_BROWSE_CO_OP and message.coop_marked_at is not None:
        if browse_mark.coop_marked(message, qm.clock.now_ms, qm.mark_browse_interval):
            return failure("MQRC_MSG_MARKED_BROWSE_CO_OP", "browse-mark.already-co-op-marked", LAPSES)
        clauses.append(LAPSES)

    # -- completion code and warnings ----------------------------------------------------------------------
    comp_code, reason = MQCC_OK, "MQRC_NONE"
    destructive = not browse
    syncpoint = destructive and bool(
        options & GMO_SYNCPOINT or (options & GMO_SYNCPOINT_IF_PERSISTENT and persistent))
    if destructive:
        if complete and len(pieces) > 1 and not syncpoint:
            # reassembled outside syncpoint: a persistent message needs a temporary unit of work, none if one exists
            if persistent and conn.uow is not None:
                return failure("MQRC_UOW_NOT_AVAILABLE", "get.complete-msg.uow-not-available")
            clauses.append("get.complete-msg.uow-not-available")
        if position.unterminated and message.md.MsgFlags & GROUPED and (logical or position.logical_order):
            # the rest of a group or logical message repeats its first item's syncpoint setting
            if syncpoint != position.in_syncpoint:
                if logical:
                    return failure("MQRC_INCONSISTENT_UOW", "get.logical-order.uow-consistency")
                comp_code, reason = MQCC_WARNING, "MQRC_INCONSISTENT_UOW"
            clauses.append("get.logical-order.uow-consistency")
        if not logical and position.unterminated:
            if position.logical_order:  # logical order dropped mid-group warns; physical gets never did
                comp_code = MQCC_WARNING
                reason = "MQRC_INCOMPLETE_MSG" if position.current_logical_message else "MQRC_INCOMPLETE_GROUP"
            clauses.append("get.logical-order.dropped-mid-group")
    if inconsistent is not None:
        # Only the leading segments that agree are returned; the rest stay on the queue.
        comp_code, reason = MQCC_WARNING, inconsistent[0]
        clauses.append(inconsistent[1])
    remove = destructive  # a browse never removes (get.browse.does-not-remove)
    if browse:
        clauses.append("get.browse.does-not-remove")
    if buffer_length is not None and len(data) > buffer_length:
        comp_code = MQCC_WARNING
        if options & GMO_ACCEPT_TRUNCATED_MSG:
            reason = "MQRC_TRUNCATED_MSG_ACCEPTED"
            clauses.append("get.truncated.accepted")
        else:
            reason = "MQRC_TRUNCATED_MSG_FAILED"
            clauses.append("get.truncated.failed")
            remove = False
        returned = data[:buffer_length]
    else:
        returned = data

    # -- take the message, move the cursor, remember the position ------------------------------------------
    out = message.md.copy()
    if message.expires_at is not None:
        out.Expiry = expiry.remaining(message.expires_at, qm.clock.now_ms)
        clauses.append("expiry.remaining-returned")
    if inconsistent is not None:
        # Part of a logical message: the first segment's descriptor, still a segment that is not the last.
        out.MsgFlags = (out.MsgFlags & ~msgflags.LAST_SEGMENT) | msgflags.SEGMENT
    elif len(pieces) > 1 or complete and message.md.MsgFlags & msgflags.SEGMENT:
        # The reassembled message carries the first segment's descriptor, flagged as the only segment.
        out.MsgFlags |= msgflags.ANY_SEGMENT
    if remove:
        if syncpoint:
            uow = qm.unit_of_work(conn)
            qm.enlist(uow, handle)
            for piece in pieces:
                queue.get_pending(piece, uow.ident)
                uow.gets.append((queue.definition.name, piece))
            clauses.append("get.syncpoint.pending-until-commit")
        else:
            for piece in pieces:
                queue.remove(piece)
            if message.md.Report:
                clauses += report.delivered(qm, pieces, data if len(pieces) > 1 else None)
        if browse_mark.clear_marks(pieces):
            clauses.append("browse-mark.destructive-get-unmarks")
    if browse and reason != "MQRC_TRUNCATED_MSG_FAILED":
        _apply_marks(qm, handle, message, options, clauses)
    moved = browse and not under_cursor and reason != "MQRC_TRUNCATED_MSG_FAILED"
    if browse and not under_cursor and reason in ("MQRC_TRUNCATED_MSG_FAILED", "MQRC_TRUNCATED_MSG_ACCEPTED"):
        clauses.append("get.browse.truncated-keeps-cursor")
    if moved:
        # A browse that fails for truncation leaves the cursor where it was (get.browse.truncated-keeps-cursor).
        handle.browse_position, handle.browse_logical = position, logical
        handle.cursor = (queue.delivery_key(message), message.seq)
        handle.anchor = queue.delivery_key(message) if logical and started_group else anchor
    if remove or moved:
        # Any get, in logical order or not, sets the previous message (get.logical-order.position-after-any-get).
        position.advance(out, len(data), logical, message.md.Persistence, syncpoint)

    if md.Version < MQMD_VERSION_2:
        # A version-1 descriptor has no group fields to return (md.version-1-ignores-group-fields).
        template = MQMD()
        out.GroupId, out.MsgSeqNumber, out.Offset = template.GroupId, template.MsgSeqNumber, template.Offset
        out.MsgFlags, out.OriginalLength = template.MsgFlags, template.OriginalLength
    out.Version = md.Version
    gmo_out = MQGMO.of({"Version": gmo.Version, "Options": options, "WaitInterval": wait_interval,
                        "ResolvedQName": queue.definition.name, "MatchOptions": gmo.MatchOptions})
    if gmo.Version >= MQGMO_VERSION_2:
        flags = out.MsgFlags if inconsistent is not None else \
            message.md.MsgFlags | (out.MsgFlags & msgflags.ANY_SEGMENT if len(pieces) > 1 else 0)
        gmo_out.GroupStatus, gmo_out.SegmentStatus, gmo_out.Segmentation = msgflags.statuses(flags)
        clauses.append("get.status.group-and-segment")
    if gmo.Version >= MQGMO_VERSION_3:
        gmo_out.ReturnedLength = len(returned)
        clauses.append("get.returned-length")
        gmo_out.MsgToken = message.token
        clauses.append("browse-mark.msg-token-returned")
    result = Result(comp_code, VALUES[reason], clauses, out, None, gmo_out, returned, len(data))  # md, pmo, gmo, data
    result.message = message
    return result


def _browse_started(handle: ObjectHandle, restart: bool, logical: bool, result: Result) -> Result:
    """A browse that starts again (BROWSE_FIRST, or the first BROWSE_NEXT) and finds nothing still starts the browse
    again: the handle's browse state is fresh and the MQGMO_LOGICAL_ORDER setting of this call is the one later
    BROWSE_NEXT calls must repeat (get.browse.mode-fixed-by-call)."""
    if restart:
        handle.browse_position, handle.browse_logical = GroupPosition(), logical
        handle.cursor = handle.anchor = None
        result.clauses.append("get.browse.mode-fixed-by-call")
    return result


def logical_order_row(qm: QueueManager, previous_flags: int) -> Row:
    """Table 4's row for the MsgFlags of the previous message returned on the handle, remembered on the Spec.

    Clauses: get.logical-order.table4.*.
    """
    key = ("table4", previous_flags & GROUPED)
    memo = qm.spec.memo
    row = memo.get(key)
    if row is None:
        row = memo[key] = qm.spec[TABLE4].lookup(
            previous_group_status=name_of(group_status(previous_flags), "MQGS"),
            previous_segment_status=name_of(segment_status(previous_flags), "MQSS"),
        )
    return row


def _inapplicable_mismatch(md: MQMD, match: int, group_id: bytes, seq: int, offset: int,
                           message: StoredMessage | None) -> bool:
    """Inside a group, match options cannot choose; any given must agree with the next item
    (get.logical-order.match-options-must-agree)."""
    if match & MO_MATCH_GROUP_ID and md.GroupId not in (NONE_ID, group_id):
        return True
    if match & MO_MATCH_MSG_SEQ_NUMBER and md.MsgSeqNumber != seq:
        return True
    if match & MO_MATCH_OFFSET and md.Offset != offset:
        return True
    if message is not None:
        if match & MO_MATCH_MSG_ID and md.MsgId not in (NONE_ID, message.md.MsgId):
            return True
        if match & MO_MATCH_CORREL_ID and md.CorrelId not in (NONE_ID, message.md.CorrelId):
            return True
    return False


def _by_token(queue: LocalQueue, token: bytes, keys: dict, numbers: dict, after, skip, clauses: list[str]):
    """MQMO_MATCH_MSG_TOKEN: only the message with that token, if it is still on the queue, matches the other
    match options, and (for BROWSE_NEXT) lies beyond the cursor (browse-mark.match-msg-token)."""
    clauses.append("browse-mark.match-msg-token")
    message = queue.tokens.get(token)
    if message is None or message.state != VISIBLE or not _after(queue, message, after) or (skip and skip(message)):
        return None
    md = message.md
    if any(getattr(md, name) != wanted for name, wanted in {**keys, **numbers}.items()):
        return None
    clauses.append("browse-mark.msg-token-stable")  # the token it was given still finds it
    return message


def _apply_marks(qm: QueueManager, handle: ObjectHandle, message: StoredMessage, options: int,
                 clauses: list[str]) -> None:
    """Set or remove the marks a browse asks for on the message it returned.

    Clauses: browse-mark.mark-browse-handle, browse-mark.unmark-browse-handle, browse-mark.mark-browse-co-op,
    browse-mark.unmark-browse-co-op.
    """
    if options & GMO_MARK_BROWSE_HANDLE:
        browse_mark.mark_handle(message, handle.hobj)
        clauses.append("browse-mark.mark-browse-handle")
    if options & GMO_UNMARK_BROWSE_HANDLE:
        browse_mark.unmark_handle(message, handle.hobj)
        clauses.append("browse-mark.unmark-browse-handle")
    if options & GMO_MARK_BROWSE_CO_OP:
        message.coop_marked_at = qm.clock.now_ms
        clauses.append("browse-mark.mark-browse-co-op")
    if options & GMO_UNMARK_BROWSE_CO_OP:
        message.coop_marked_at = None
        clauses.append("browse-mark.unmark-browse-co-op")
