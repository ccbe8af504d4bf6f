"""Request, reply and report messages: MsgType, ReplyToQ and ReplyToQMgr, the Report options, and the report
messages the queue manager generates (confirm on arrival, confirm on delivery, expiration).

Sources: "Report (MQLONG)", "MsgType (MQLONG)", "Feedback (MQLONG)", "ReplyToQ (MQCHAR48)" and
"ReplyToQMgr (MQCHAR48)" (MQMD), "Reports and segmented messages", and the reason-code pages 2027, 2029, 2014 and
2061 (cited by title and URL in fixtures/clauses.yaml).

A report is a new message put on the ReplyToQ of the message it reports on, on this queue manager: MsgType
MQMT_REPORT, Feedback saying which event (MQFB_COA, MQFB_COD, MQFB_EXPIRATION), no data, the first 100 bytes, or
all the data as the option asks. By default its MsgId is new and its CorrelId is the original's MsgId;
MQRO_PASS_MSG_ID and MQRO_PASS_CORREL_ID pass the original's MsgId and CorrelId instead. A report of a segment
keeps the segment's GroupId, MsgSeqNumber, Offset and segment flags, with OriginalLength the segment's length, so
that reports can be reassembled.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from . import msgflags
from .constants import VALUES
from .queue import LocalQueue, StoredMessage
from .structures import MQMD, MQMD_VERSION_2

if TYPE_CHECKING:
    from .qmgr import QueueManager

MQMT_REQUEST, MQMT_REPLY = VALUES["MQMT_REQUEST"], VALUES["MQMT_REPLY"]
MQMT_REPORT, MQMT_DATAGRAM = VALUES["MQMT_REPORT"], VALUES["MQMT_DATAGRAM"]
SYSTEM_MSG_TYPES = (MQMT_REQUEST, MQMT_REPLY, MQMT_REPORT, MQMT_DATAGRAM)
APPL_FIRST, APPL_LAST = VALUES["MQMT_APPL_FIRST"], VALUES["MQMT_APPL_LAST"]
FEEDBACK_LAST = VALUES["MQFB_APPL_LAST"]
REJECT_UNSUP = VALUES["MQRO_REJECT_UNSUP_MASK"]
PASS_MSG_ID, PASS_CORREL_ID = VALUES["MQRO_PASS_MSG_ID"], VALUES["MQRO_PASS_CORREL_ID"]
PASS_DISCARD_AND_EXPIRY, DISCARD_MSG = VALUES["MQRO_PASS_DISCARD_AND_EXPIRY"], VALUES["MQRO_DISCARD_MSG"]
MQQT_ALIAS = VALUES["MQQT_ALIAS"]
MQPER_PERSISTENT = VALUES["MQPER_PERSISTENT"]
MQQDT_TEMPORARY_DYNAMIC = VALUES["MQQDT_TEMPORARY_DYNAMIC"]
DATA_BYTES = 100  # a *_WITH_DATA report carries the first 100 bytes
# Queues a message waits on before it arrives (reference/cluster/topology.py CLUSTER_XMITQ).
TRANSMISSION_QUEUES = ("SYSTEM.CLUSTER.TRANSMIT.QUEUE",)
# Each report type: (plain option, with data, with full data, its Feedback, its clause).
KINDS = {
    kind: (VALUES[f"MQRO_{kind}"], VALUES[f"MQRO_{kind}_WITH_DATA"], VALUES[f"MQRO_{kind}_WITH_FULL_DATA"],
           VALUES[f"MQFB_{kind}"], f"report.{kind.lower()}")
    for kind in ("COA", "COD", "EXPIRATION")
}
# An exception report's Feedback is the reason the message could not be delivered.
KINDS["EXCEPTION"] = (VALUES["MQRO_EXCEPTION"], VALUES["MQRO_EXCEPTION_WITH_DATA"],
                      VALUES["MQRO_EXCEPTION_WITH_FULL_DATA"], 0, "report.exception")
MQRC_MSG_TOO_BIG_FOR_Q = VALUES["MQRC_MSG_TOO_BIG_FOR_Q"]
# Report options that ask for a report message at all (so need a ReplyToQ): activity reports too.
REQUESTING = (VALUES["MQRO_EXCEPTION"] | VALUES["MQRO_EXPIRATION"] | VALUES["MQRO_COA"] | VALUES["MQRO_COD"]
              | VALUES["MQRO_PAN"] | VALUES["MQRO_NAN"] | VALUES["MQRO_ACTIVITY"])


def check_put(md: MQMD) -> tuple[str, str] | None:
    """The failure (reason name, clause) of an MQPUT or MQPUT1 whose MsgType, Report, Feedback or ReplyToQ is
    not valid, checked in that order; None when they are.

    Clauses: report.msg-type-error, report.options-error, report.feedback-error, report.missing-reply-to-q.
    """
    msg_type = md.MsgType
    if msg_type not in SYSTEM_MSG_TYPES and not APPL_FIRST <= msg_type <= APPL_LAST:
        return "MQRC_MSG_TYPE_ERROR", "report.msg-type-error"
    if md.Report & REJECT_UNSUP:
        return "MQRC_REPORT_OPTIONS_ERROR", "report.options-error"
    if md.Feedback != 0 and not 0 < md.Feedback <= FEEDBACK_LAST:
        return "MQRC_FEEDBACK_ERROR", "report.feedback-error"
    if not md.ReplyToQ.strip() and asks_for_reply(md):
        return "MQRC_MISSING_REPLY_TO_Q", "report.missing-reply-to-q"
    return None


def asks_for_reply(md: MQMD) -> bool:
    """Whether a message needs a ReplyToQ: a request, or one asking for a report (report.missing-reply-to-q)."""
    return md.MsgType == MQMT_REQUEST or bool(md.Report & REQUESTING)


def reply_to_qmgr(qm: QueueManager, md: MQMD) -> str:
    """The ReplyToQMgr a message is stored with: the local queue manager's name when ReplyToQ is given and
    ReplyToQMgr is blank. Clause: report.reply-to-qmgr-default."""
    if md.ReplyToQ.strip() and not md.ReplyToQMgr.strip():
        return qm.name
    return md.ReplyToQMgr


def reply_to(qm: QueueManager, md: MQMD) -> tuple[str, str, str]:
    """The ReplyToQ and ReplyToQMgr a message is stored with, and the clause deciding them: a reply-to queue
    alias's RemoteQName and RemoteQMgrName (reference/distributed.py), else ReplyToQ as given and ReplyToQMgr
    the local queue manager when blank. Clauses: distributed.reply-to-alias, report.reply-to-qmgr-default."""
    from . import distributed

    alias = distributed.reply_to(qm, md.ReplyToQ, md.ReplyToQMgr)
    if alias is not None:
        return alias
    return md.ReplyToQ, reply_to_qmgr(qm, md), "report.reply-to-qmgr-default"


def _option(report: int, kind: str) -> int | None:
    """How much data the report of ``kind`` asks for: None (no report), 0, DATA_BYTES, or -1 (all)."""
    plain, with_data, full, _feedback, _clause = KINDS[kind]
    chosen = report & full
    if chosen == full:
        return -1
    if chosen == with_data:
        return DATA_BYTES
    return 0 if chosen == plain else None


def _reply_queue(qm: QueueManager, md: MQMD) -> LocalQueue | None:
    target = md.ReplyToQMgr.strip()
    if target and target != qm.name:
        return None
    queue = qm.queues.get(md.ReplyToQ.strip())
    if queue is not None and queue.definition.QType == MQQT_ALIAS:
        queue = qm.queues.get(queue.definition.BaseQName)
    if queue is None or queue.definition.QType != VALUES["MQQT_LOCAL"]:
        return None
    return queue


def _send(qm: QueueManager, original: StoredMessage, kind: str, how_much: int, whole: bytes | None = None,
          feedback: int | None = None) -> list[str]:
    """Put the report of ``kind`` on ``original``'s reply queue; the clauses applied."""
    _plain, _with_data, _full, kind_feedback, clause = KINDS[kind]
    feedback = kind_feedback if feedback is None else feedback
    source = original.md
    clauses = [clause, "report.message-fields", "report.msg-id-and-correl-id"]
    queue = _reply_queue(qm, source)
    route = None
    refused = None  # why the report cannot be put where it is addressed: it goes to the dead-letter queue
    if queue is None:
        # Addressed to another queue manager: the report travels back as any message would
        # (reference/distributed.py, distributed.report.in-transit)
        route = _remote_route(qm, source)
        if route is None:
            refused = _no_reply_queue(qm, source)
            if refused is None:
                return clauses + ["report.undeliverable"]
    data = original.data if whole is None else whole
    body = data if how_much < 0 else data[:how_much]
    if queue is not None and queue.definition.name != source.ReplyToQ.strip():
        clauses.append("queue.alias.resolves-to-target")  # ReplyToQ named an alias of the queue
    if queue is not None and source.Persistence == MQPER_PERSISTENT \
            and queue.definition.DefinitionType == MQQDT_TEMPORARY_DYNAMIC:
        refused = "MQRC_PERSISTENT_NOT_ALLOWED"
        clauses.append("queue.dynamic.temporary-no-persistent")
    md = MQMD(Version=MQMD_VERSION_2, MsgType=MQMT_REPORT, Feedback=feedback, Persistence=source.Persistence,
              Priority=source.Priority, ReplyToQMgr=qm.name)
    expires_at = None
    if source.Report & PASS_DISCARD_AND_EXPIRY:
        # The report inherits MQRO_DISCARD_MSG and the original's remaining expiry (report.pass-discard-and-expiry).
        md.Report = source.Report & (DISCARD_MSG | PASS_DISCARD_AND_EXPIRY)
        expires_at = original.expires_at
        clauses.append("report.pass-discard-and-expiry")
    md.MsgId = source.MsgId if source.Report & PASS_MSG_ID else qm.ids.new_id()
    md.CorrelId = source.CorrelId if source.Report & PASS_CORREL_ID else source.MsgId
    if body:
        md.Format, md.CodedCharSetId, md.Encoding = source.Format, source.CodedCharSetId, source.Encoding
    if whole is None and source.MsgFlags & msgflags.SEGMENT:
        md.GroupId, md.MsgSeqNumber, md.Offset = source.GroupId, source.MsgSeqNumber, source.Offset
        md.MsgFlags = source.MsgFlags & (msgflags.ANY_SEGMENT | msgflags.ANY_GROUP)
        md.OriginalLength = len(original.data)
        clauses.append("report.segment-original-length")
    md.PutDate, md.PutTime = qm.clock.put_date_time()
    if expires_at is not None:
        md.Expiry = -(-(expires_at - qm.clock.now_ms) // 100)
    if refused is not None:
        return clauses + ["report.undeliverable"] + _dead_lettered(qm, source, md, body, expires_at, refused)
    if route is not None:
        from . import distributed

        if not distributed.enqueue(qm, route, md, body, expires_at):
            return clauses + ["report.undeliverable"]
        return clauses + ["report.on-reply-queue", "distributed.report.in-transit"]
    queue.add(StoredMessage(qm.next_seq(), md, body, qm.ids.new_token(), expires_at=expires_at))
    return clauses + ["report.on-reply-queue"]


def _no_reply_queue(qm: QueueManager, source: MQMD) -> str | None:
    """The reason a report cannot be put on a reply queue that is not a local queue of ``qm`` and has no route
    onward: none of that name here (MQRC_UNKNOWN_OBJECT_NAME), or another queue manager no route leads to
    (MQRC_UNKNOWN_REMOTE_Q_MGR); None for a queue of another type (a model queue), which IBM names no reason
    for: such a report is dropped (report.undeliverable, decision)."""
    target = source.ReplyToQMgr.strip()
    if target and target != qm.name:
        return "MQRC_UNKNOWN_REMOTE_Q_MGR"
    return "MQRC_UNKNOWN_OBJECT_NAME" if source.ReplyToQ.strip() not in qm.queues else None


def _dead_lettered(qm: QueueManager, source: MQMD, md: MQMD, body: bytes, expires_at: int | None,
                   reason: str) -> list[str]:
    """A report that cannot be put on its reply queue goes to ``qm``'s dead-letter queue behind an MQDLH giving
    ``reason`` and the reply queue it was addressed to (report.undeliverable); without a dead-letter queue that
    takes it, it is discarded. Clauses: distributed.dlq.put, distributed.dlq.header."""
    from . import channels

    report = StoredMessage(qm.next_seq(), md, body, qm.ids.new_token(), expires_at=expires_at)
    kept = channels.dead_letter(qm, source.ReplyToQ.strip(), source.ReplyToQMgr.strip() or qm.name, report,
                                VALUES[reason])
    return ["distributed.dlq.put", "distributed.dlq.header"] if kept else []


def _remote_route(qm: QueueManager, source: MQMD):
    """The route to a reply queue on another queue manager, or None when there is none."""
    from . import distributed

    target = source.ReplyToQMgr.strip()
    if not target or target == qm.name:
        return None
    route = distributed.resolve(qm, source.ReplyToQ.strip(), target)
    return route if isinstance(route, distributed.Route) and route.xmitq else None


def arrived(qm: QueueManager, messages: Iterable[StoredMessage], queue_name: str) -> list[str]:
    """Confirm-on-arrival reports of messages just placed (or committed) on queue ``queue_name``; none on a
    transmission queue, which is not where the message arrives. Clause: report.coa."""
    clauses: list[str] = []
    queue = qm.queues.get(queue_name)
    if queue_name in TRANSMISSION_QUEUES or (queue is not None and queue.definition.Usage):  # MQUS_TRANSMISSION
        # the rule applied, and made no report: the message has not arrived yet
        return ["report.coa"] if any(_option(m.md.Report, "COA") is not None for m in messages) else clauses
    for message in messages:
        how_much = _option(message.md.Report, "COA")
        if how_much is not None:
            clauses += _send(qm, message, "COA", how_much)
    return clauses


def delivered(qm: QueueManager, pieces: list[StoredMessage], reassembled: bytes | None = None) -> list[str]:
    """Confirm-on-delivery reports of messages an application has taken off their queue: one per physical
    message, or one for a whole logical message that MQGMO_COMPLETE_MSG reassembled. Clause: report.cod."""
    clauses: list[str] = []
    if reassembled is not None:
        how_much = _option(pieces[0].md.Report, "COD")
        if how_much is not None:
            clauses += _send(qm, pieces[0], "COD", how_much, whole=reassembled)
        return clauses + (["report.cod-complete-msg"] if how_much is not None else [])
    for piece in pieces:
        how_much = _option(piece.md.Report, "COD")
        if how_much is not None:
            clauses += _send(qm, piece, "COD", how_much)
    return clauses


def expired(qm: QueueManager, message: StoredMessage) -> list[str]:
    """The expiration report of a message discarded because its expiry passed. Clause: report.expiration."""
    how_much = _option(message.md.Report, "EXPIRATION")
    return [] if how_much is None else _send(qm, message, "EXPIRATION", how_much)


def exception(qm: QueueManager, message: StoredMessage, reason: int) -> list[str]:
    """The exception report of a message that could not be delivered to its destination queue for ``reason``
    (its Feedback), sent to the reply queue on ``qm``, the queue manager the reply is addressed to. Clauses:
    report.exception, report.discard-undeliverable."""
    return ["report.discard-undeliverable"] + exception_report(qm, message, reason)


def exception_report(qm: QueueManager, message: StoredMessage, reason: int) -> list[str]:
    """The exception report, if the message's Report asks for one, of a message that could not be put on its
    destination queue for ``reason``, made on ``qm``. Clause: report.exception."""
    how_much = _option(message.md.Report, "EXCEPTION")
    return [] if how_much is None else _send(qm, message, "EXCEPTION", how_much, feedback=reason)
