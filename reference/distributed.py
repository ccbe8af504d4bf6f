"""Distributed queuing: name resolution to a transmission queue, the transmission-queue header (MQXQH), and the
dead-letter header (MQDLH).

Sources (each cited by title and URL in fixtures/clauses.yaml, documents `name-resolution`, `opening-remote-queues`,
`qmgr-alias`, `xmitqname`, `mqxqh`, `mqdlh`, `replytoq`, `rc2045`, `rc2087`): MQOPEN and MQPUT1 resolve the name in
ObjectQMgrName first, then ObjectName. A local definition of a remote queue (QType MQQT_REMOTE with RemoteQName)
sends to RemoteQName at RemoteQMgrName; one with a blank RemoteQName, named in ObjectQMgrName, is a queue-manager
alias; a local queue named like the destination queue manager is its transmission queue, and the queue manager's
DefXmitQName the default one. A queue that resolves elsewhere can be opened for output and (through a local
definition) inquire only. A message for another queue manager waits on the transmission queue behind an MQXQH
holding where it goes and its own descriptor; the descriptor the transmission queue shows is another, made by the
queue manager.

The channels that move these messages, and what they do with one that cannot be delivered, are
reference/channels.py; this module holds what one queue manager decides alone.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import put as put_module
from .constants import FORMATS, VALUES
from .handles import Connection, ObjectHandle
from .queue import LocalQueue, StoredMessage
from .result import Result, failure
from .structures import MQMD, MQMD_VERSION_2, MQPMO, NONE_ID

if TYPE_CHECKING:
    from .qmgr import QueueManager

MQQT_REMOTE = VALUES["MQQT_REMOTE"]
MQQT_LOCAL = VALUES["MQQT_LOCAL"]
MQUS_TRANSMISSION = VALUES["MQUS_TRANSMISSION"]
FMT_XQH = FORMATS["MQFMT_XMIT_Q_HEADER"]
FMT_DLH = FORMATS["MQFMT_DEAD_LETTER_HEADER"]
FMT_MDE = FORMATS["MQFMT_MD_EXTENSION"]
HEADER_FORMATS = (FMT_XQH, FMT_DLH)
ENC_NATIVE = VALUES["MQENC_NATIVE"]
# The Report bits the separate descriptor of a message on a transmission queue clears: those of
# MQRO_ACCEPT_UNSUP_IF_XMIT_MASK, so no COA or COD is made when the message is placed on or taken off the
# transmission queue (distributed.xmitq.separate-descriptor).
ACCEPT_UNSUP_IF_XMIT_MASK = 0x0003FF00
# The options a queue that resolves to a transmission queue can be opened with besides output: inquire (through
# a local definition); input, browse and set need a local queue (distributed.open.options-not-valid).
OO_NOT_REMOTE = (VALUES["MQOO_INPUT_AS_Q_DEF"] | VALUES["MQOO_INPUT_SHARED"] | VALUES["MQOO_INPUT_EXCLUSIVE"]
                 | VALUES["MQOO_BROWSE"] | VALUES["MQOO_SET"])
OO_INQUIRE = VALUES["MQOO_INQUIRE"]
OO_OUTPUT = VALUES["MQOO_OUTPUT"]
PRIORITY_AS_Q_DEF = VALUES["MQPRI_PRIORITY_AS_Q_DEF"]
PERSISTENCE_AS_Q_DEF = VALUES["MQPER_PERSISTENCE_AS_Q_DEF"]


# -- name resolution ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Route:
    """Where an MQOPEN or MQPUT1 resolved: the transmission queue ``xmitq`` ("" when the name resolved to a
    local queue through a queue-manager alias naming this queue manager), and the RemoteQName and RemoteQMgrName
    its messages carry; ``definition`` is the remote queue definition opened, whose InhibitPut, DefPriority and
    DefPersistence count; ``clauses`` what resolved it."""

    xmitq: str
    queue: str
    qmgr: str
    definition: str = ""
    clauses: tuple[str, ...] = ()


def is_remote_definition(queue: LocalQueue | None) -> bool:
    return queue is not None and queue.definition.QType == MQQT_REMOTE


def resolve(qm: QueueManager, name: str, qmgr_name: str) -> Route | Result | None:
    """Resolve an MQOD's ObjectName and ObjectQMgrName on ``qm``: None when they name a local object (the usual
    open applies), a :class:`Route`, or the failure of MQOPEN/MQPUT1.

    Clauses: distributed.resolve.qmgr-name-first, distributed.resolve.remote-definition,
    distributed.resolve.remote-definition-local-qmgr, distributed.resolve.xmitq-attribute,
    distributed.resolve.xmitq-named-for-qmgr, distributed.resolve.qmgr-alias, distributed.resolve.qmgr-alias-local,
    distributed.resolve.default-xmitq, distributed.resolve.unknown-remote-qmgr, distributed.xmitq.usage.
    """
    target = qmgr_name.strip()
    if target and target != qm.name:
        return _to_qmgr(qm, name, target, ("distributed.resolve.qmgr-name-first",))
    found = qm.queues.get(name)
    if not is_remote_definition(found):
        return None
    definition = found.definition
    remote_q, remote_qmgr = definition.RemoteQName.strip(), definition.RemoteQMgrName.strip()
    if not remote_q:
        # A queue-manager alias (or reply-to alias) is not a queue that can be opened by its own name.
        return failure("MQRC_UNKNOWN_OBJECT_NAME", "distributed.resolve.alias-not-a-queue")
    if not remote_qmgr or remote_qmgr == qm.name:
        return failure("MQRC_UNKNOWN_REMOTE_Q_MGR", "distributed.resolve.remote-definition-local-qmgr")
    clauses = ("distributed.resolve.remote-definition",)
    if definition.XmitQName.strip():
        checked = _xmitq(qm, definition.XmitQName.strip())
        if isinstance(checked, Result):
            return checked
        return Route(checked, remote_q, remote_qmgr, name, clauses + ("distributed.resolve.xmitq-attribute",))
    route = _to_qmgr(qm, remote_q, remote_qmgr, clauses)
    if isinstance(route, Route):
        if not route.xmitq:  # an alias bringing the name back here: a remote definition must resolve elsewhere
            return failure("MQRC_UNKNOWN_REMOTE_Q_MGR", "distributed.resolve.remote-definition-local-qmgr")
        route = Route(route.xmitq, route.queue, route.qmgr, name, route.clauses)
    return route


def _to_qmgr(qm: QueueManager, name: str, target: str, clauses: tuple[str, ...]) -> Route | Result:
    """The route to queue ``name`` at queue manager ``target`` (not this one): a queue-manager alias, a
    transmission queue named like the queue manager, or the default transmission queue."""
    found = qm.queues.get(target)
    if found is not None:
        definition = found.definition
        if definition.QType == MQQT_REMOTE:
            if definition.RemoteQName.strip():
                return failure("MQRC_UNKNOWN_REMOTE_Q_MGR", "distributed.resolve.qmgr-alias-names-queue")
            real = definition.RemoteQMgrName.strip() or target
            clauses += ("distributed.resolve.qmgr-alias",)
            if real == qm.name:
                return Route("", name, real, "", clauses + ("distributed.resolve.qmgr-alias-local",))
            if definition.XmitQName.strip():
                checked = _xmitq(qm, definition.XmitQName.strip())
                if isinstance(checked, Result):
                    return checked
                return Route(checked, name, real, "", clauses + ("distributed.resolve.xmitq-attribute",))
            own = qm.queues.get(real)
            if own is not None and own.definition.QType != MQQT_REMOTE:
                checked = _xmitq(qm, real)
                return checked if isinstance(checked, Result) else \
                    Route(checked, name, real, "", clauses + ("distributed.resolve.xmitq-named-for-qmgr",))
            return _default(qm, name, real, clauses)
        checked = _xmitq(qm, target)
        return checked if isinstance(checked, Result) else \
            Route(checked, name, target, "", clauses + ("distributed.resolve.xmitq-named-for-qmgr",))
    return _default(qm, name, target, clauses)


def _default(qm: QueueManager, name: str, target: str, clauses: tuple[str, ...]) -> Route | Result:
    default = qm.def_xmitq_name.strip()
    if not default:
        return failure("MQRC_UNKNOWN_REMOTE_Q_MGR", "distributed.resolve.unknown-remote-qmgr")
    checked = _xmitq(qm, default, DEFAULT_XMITQ_FAILURES)
    return checked if isinstance(checked, Result) else \
        Route(default, name, target, "", clauses + ("distributed.resolve.default-xmitq",))


# How a queue fails to be a transmission queue - missing, not a local queue, not of Usage MQUS_TRANSMISSION -
# when a definition's XmitQName (or a queue named like the queue manager) names it, and when DefXmitQName does.
XMITQ_FAILURES = (("MQRC_UNKNOWN_XMIT_Q", "distributed.resolve.xmitq-attribute"),
                  ("MQRC_XMIT_Q_TYPE_ERROR", "distributed.xmitq.usage"),
                  ("MQRC_XMIT_Q_USAGE_ERROR", "distributed.xmitq.usage"))
DEFAULT_XMITQ_FAILURES = (("MQRC_UNKNOWN_DEF_XMIT_Q", "distributed.resolve.default-xmitq-unknown"),
                          ("MQRC_DEF_XMIT_Q_TYPE_ERROR", "distributed.resolve.default-xmitq-unknown"),
                          ("MQRC_DEF_XMIT_Q_USAGE_ERROR", "distributed.xmitq.usage"))


def _xmitq(qm: QueueManager, name: str, failures: tuple = XMITQ_FAILURES) -> str | Result:
    """``name`` checked as a transmission queue: a local queue whose Usage is MQUS_TRANSMISSION; otherwise the
    failure ``failures`` gives for a missing queue, one of another type, one of another Usage."""
    queue = qm.queues.get(name)
    missing, wrong_type, wrong_usage = failures
    if queue is None:
        return failure(*missing)
    if queue.definition.QType != MQQT_LOCAL:
        return failure(*wrong_type)
    if queue.definition.Usage != MQUS_TRANSMISSION:
        return failure(*wrong_usage)
    return name


# -- MQOPEN, MQPUT and MQPUT1 through a route ----------------------------------------------------------------------

def open_remote(qm: QueueManager, conn: Connection, options: int, route: Route) -> Result:
    """MQOPEN of a queue that resolved to transmission queue ``route.xmitq``: output, and inquire through a local
    definition, only. Clauses: distributed.open.options-not-valid, distributed.open.inquire-needs-definition,
    distributed.open.resolves-to-xmitq."""
    if options & OO_NOT_REMOTE:
        return failure("MQRC_OPTION_NOT_VALID_FOR_TYPE", "distributed.open.options-not-valid")
    if options & OO_INQUIRE and not route.definition:
        return failure("MQRC_OPTION_NOT_VALID_FOR_TYPE", "distributed.open.inquire-needs-definition")
    if options & OO_OUTPUT:
        qm.queues[route.xmitq].open_output_count += 1
    hobj = qm.next_handle()
    qm.handles[hobj] = ObjectHandle(hobj=hobj, hconn=conn.hconn, queue=route.xmitq, options=options,
                                    remote=route.definition, route=(route.queue, route.qmgr))
    conn.handles.add(hobj)
    return Result(clauses=[*route.clauses, "distributed.open.resolves-to-xmitq"], hobj=hobj)


def check_local_alias_options(options: int) -> Result | None:
    """A queue-manager alias naming this queue manager resolves to a local queue, but only for output
    (distributed.resolve.qmgr-alias-local; IBM's 2045 page)."""
    if options & (OO_NOT_REMOTE | OO_INQUIRE):
        return failure("MQRC_OPTION_NOT_VALID_FOR_TYPE", "distributed.resolve.qmgr-alias-local")
    return None


def put_remote(qm: QueueManager, conn: Connection, handle: ObjectHandle, md: MQMD, pmo: MQPMO, data: bytes,
               call: str = "MQPUT") -> Result:
    """Put a message for another queue manager: on the handle's transmission queue, behind an MQXQH.

    The remote queue definition opened is the first definition of the path: its InhibitPut refuses the put and its
    DefPriority and DefPersistence are the defaults. The message is put on the transmission queue as any put
    is (its inhibition, length, depth, syncpoint...), then given its transmission header. The MQPMO returns the
    destination: ResolvedQName and ResolvedQMgrName.

    Clauses: distributed.put.definition-inhibit-put, distributed.put.definition-defaults,
    distributed.put.resolved-names, distributed.xmitq.header, distributed.xmitq.separate-descriptor.
    """
    definition = qm.queues[handle.remote].definition if handle.remote and handle.remote in qm.queues else None
    clauses: list[str] = []
    given = md
    if definition is not None:
        if definition.InhibitPut:
            return failure("MQRC_PUT_INHIBITED", "distributed.put.definition-inhibit-put")
        if md.Priority == PRIORITY_AS_Q_DEF or md.Persistence == PERSISTENCE_AS_Q_DEF:
            md = md.copy()
            if md.Priority == PRIORITY_AS_Q_DEF:
                md.Priority = definition.DefPriority
            if md.Persistence == PERSISTENCE_AS_Q_DEF:
                md.Persistence = definition.DefPersistence
            clauses.append("distributed.put.definition-defaults")
    xmitq = qm.queues[handle.queue]
    before = qm.last_seq
    result = put_module.put(qm, conn, handle if call == "MQPUT" else None, xmitq, md, pmo, data, call=call)
    if result.failed:
        return result
    for seq in [s for s in xmitq.messages if s > before]:
        message = xmitq.messages[seq]
        xmitq.remove(message)  # its descriptor changes: out of the queue's indexes and back
        wrap(qm, message, handle.route)
        xmitq.add(message)
    result.clauses[:0] = clauses
    result.clauses += ["distributed.xmitq.header", "distributed.xmitq.separate-descriptor",
                       "distributed.put.resolved-names"]
    if result.md is not None:
        result.md.Priority, result.md.Persistence = given.Priority, given.Persistence
    if result.pmo is not None:
        result.pmo.ResolvedQName, result.pmo.ResolvedQMgrName = handle.route
    return result


def wrap(qm: QueueManager, message: StoredMessage, route: tuple[str, str]) -> None:
    """Give a message just placed on a transmission queue its MQXQH (and, for version-2 fields, an MQMDE) and the
    separate descriptor the queue manager makes for it (distributed.xmitq.header,
    distributed.xmitq.separate-descriptor)."""
    embedded = message.md
    message.data = pack_xqh(route[0], route[1], embedded) + message.data
    message.md = separate_descriptor(qm, embedded)


def separate_descriptor(qm: QueueManager, embedded: MQMD) -> MQMD:
    """The descriptor a message on a transmission queue is stored with and MQGET returns: most fields copied from
    the embedded one, Report without the MQRO_ACCEPT_UNSUP_IF_XMIT_MASK bits, the queue manager's encoding and character
    set, Format MQFMT_XMIT_Q_HEADER, a new MsgId and CorrelId the embedded MsgId (distributed.xmitq.separate-descriptor)."""
    md = embedded.copy()
    md.Version = MQMD_VERSION_2
    md.Report = embedded.Report & ~ACCEPT_UNSUP_IF_XMIT_MASK
    md.Encoding, md.CodedCharSetId, md.Format = ENC_NATIVE, qm.coded_char_set_id, FMT_XQH
    md.MsgId, md.CorrelId, md.BackoutCount = qm.ids.new_id(), embedded.MsgId, 0
    return md


# -- the headers as bytes ------------------------------------------------------------------------------------------
# IBM's layouts in the queue manager's native encoding (little-endian here, MQENC_NATIVE 546): MQXQH 428 bytes
# with its version-1 MQMD of 324; MQMDE 72; MQDLH 172. Character fields are blank-padded.

_MD1 = struct.Struct("<4s7i8s2i24s24si48s48s12s32s32si28s8s8s4s")
_XQH = struct.Struct("<4si48s48s")
_MDE = struct.Struct("<4s3ii8si24s4i")
_DLH = struct.Struct("<4s2i48s48s2i8si28s8s8s")
XQH_LENGTH = _XQH.size + _MD1.size
DLH_LENGTH = _DLH.size


def _text(value: str, length: int) -> bytes:
    return value.encode("utf-8")[:length].ljust(length, b" ")


def _untext(raw: bytes) -> str:
    return raw.split(b"\0", 1)[0].decode("utf-8", "replace").rstrip(" ")


def _md1(md: MQMD) -> bytes:
    return _MD1.pack(b"MD  ", 1, md.Report, md.MsgType, md.Expiry, md.Feedback, md.Encoding, md.CodedCharSetId,
                     _text(md.Format, 8), md.Priority, md.Persistence, md.MsgId, md.CorrelId, md.BackoutCount,
                     _text(md.ReplyToQ, 48), _text(md.ReplyToQMgr, 48), _text(md.UserIdentifier, 12),
                     md.AccountingToken, bytes(32), 0,
                     _text(md.PutApplName, 28), _text(md.PutDate, 8), _text(md.PutTime, 8), b"    ")


def _unmd1(raw: bytes) -> MQMD:
    f = _MD1.unpack(raw)
    return MQMD(Version=MQMD_VERSION_2, Report=f[2], MsgType=f[3], Expiry=f[4], Feedback=f[5], Encoding=f[6],
                CodedCharSetId=f[7], Format=f[8].decode("utf-8", "replace"), Priority=f[9], Persistence=f[10],
                MsgId=f[11], CorrelId=f[12], BackoutCount=f[13], ReplyToQ=_untext(f[14]),
                ReplyToQMgr=_untext(f[15]), UserIdentifier=_untext(f[16]), AccountingToken=f[17],
                PutApplName=_untext(f[20]), PutDate=_untext(f[21]), PutTime=_untext(f[22]))


def _has_version2_fields(md: MQMD) -> bool:
    return md.GroupId != NONE_ID or md.MsgSeqNumber != 1 or md.Offset != 0 or md.MsgFlags != 0 \
        or md.OriginalLength != VALUES["MQOL_UNDEFINED"]


def pack_xqh(remote_q: str, remote_qmgr: str, md: MQMD) -> bytes:
    """An MQXQH for ``md`` going to ``remote_q`` at ``remote_qmgr``; the version-2 fields, when any is not its
    initial value, follow in an MQMDE, and the embedded descriptor's Format then says so
    (distributed.xmitq.header)."""
    version2 = _has_version2_fields(md)
    embedded = md.copy()
    if version2:
        embedded.Format = FMT_MDE
    header = _XQH.pack(b"XQH ", 1, _text(remote_q, 48), _text(remote_qmgr, 48)) + _md1(embedded)
    if version2:
        header += _MDE.pack(b"MDE ", 2, _MDE.size, md.Encoding, md.CodedCharSetId, _text(md.Format, 8), 0,
                            md.GroupId, md.MsgSeqNumber, md.Offset, md.MsgFlags, md.OriginalLength)
    return header


def unpack_xqh(data: bytes) -> tuple[str, str, MQMD, bytes] | None:
    """RemoteQName, RemoteQMgrName, the original descriptor (with its MQMDE's fields) and the application data of
    a message from a transmission queue; None when ``data`` does not start with an MQXQH."""
    if len(data) < XQH_LENGTH or data[:4] != b"XQH ":
        return None
    _sid, _version, remote_q, remote_qmgr = _XQH.unpack_from(data)
    md = _unmd1(data[_XQH.size:XQH_LENGTH])
    rest = data[XQH_LENGTH:]
    if md.Format == FMT_MDE and len(rest) >= _MDE.size and rest[:4] == b"MDE ":
        f = _MDE.unpack_from(rest)
        md.Encoding, md.CodedCharSetId, md.Format = f[3], f[4], f[5].decode("utf-8", "replace")
        md.GroupId, md.MsgSeqNumber, md.Offset, md.MsgFlags, md.OriginalLength = f[7], f[8], f[9], f[10], f[11]
        rest = rest[_MDE.size:]
    return _untext(remote_q), _untext(remote_qmgr), md, rest


def pack_dlh(reason: int, dest_q: str, dest_qmgr: str, md: MQMD, qmgr: str, put_date: str, put_time: str) -> bytes:
    """An MQDLH: why the message is on the dead-letter queue, where it was going, the Encoding, CodedCharSetId and
    Format of the data that follows, and who put it there - the queue manager (PutApplType MQAT_QMGR, PutApplName
    the first 28 characters of its name) (distributed.dlq.header)."""
    return _DLH.pack(b"DLH ", 1, reason, _text(dest_q, 48), _text(dest_qmgr, 48), md.Encoding, md.CodedCharSetId,
                     _text(md.Format, 8), VALUES["MQAT_QMGR"], _text(qmgr, 28), _text(put_date, 8),
                     _text(put_time, 8))


def unpack_dlh(data: bytes) -> tuple[dict, bytes] | None:
    """The MQDLH's fields (by MQ's names) and the data that follows; None when ``data`` has none."""
    if len(data) < DLH_LENGTH or data[:4] != b"DLH ":
        return None
    f = _DLH.unpack_from(data)
    fields = {"Reason": f[2], "DestQName": _untext(f[3]), "DestQMgrName": _untext(f[4]), "Encoding": f[5],
              "CodedCharSetId": f[6], "Format": f[7].decode("utf-8", "replace"), "PutApplType": f[8],
              "PutApplName": _untext(f[9]), "PutDate": _untext(f[10]), "PutTime": _untext(f[11])}
    return fields, data[DLH_LENGTH:]


# -- reply-to queue aliases ----------------------------------------------------------------------------------------

def reply_to(qm: QueueManager, reply_q: str, reply_qmgr: str) -> tuple[str, str, str] | None:
    """With ReplyToQMgr blank, a remote queue definition named by ReplyToQ (a reply-to queue alias) replaces
    ReplyToQ with its RemoteQName and ReplyToQMgr with its RemoteQMgrName; None when there is none. Clause:
    distributed.reply-to-alias."""
    if not reply_q.strip() or reply_qmgr.strip():
        return None
    found = qm.queues.get(reply_q.strip())
    if not is_remote_definition(found):
        return None
    definition = found.definition
    return (definition.RemoteQName.strip() or reply_q.strip(), definition.RemoteQMgrName.strip() or qm.name,
            "distributed.reply-to-alias")


def enqueue(qm: QueueManager, route: Route, md: MQMD, data: bytes, expires_at: int | None) -> bool:
    """Place a message the queue manager itself makes (a report) on ``route``'s transmission queue, behind its
    MQXQH; False when the transmission queue cannot take it (distributed.report.in-transit)."""
    xmitq = qm.queues[route.xmitq]
    if xmitq.depth >= xmitq.definition.MaxQDepth or xmitq.definition.InhibitPut:
        return False
    message = StoredMessage(qm.next_seq(), md, data, qm.ids.new_token(), expires_at=expires_at)
    wrap(qm, message, (route.queue, route.qmgr))
    xmitq.add(message)
    return True
