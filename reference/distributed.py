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
from typing import TYPE_CHECKING, Any

from . import put as put_module
from .constants import FORMATS, VALUES
from .handles import Connection, ObjectHandle
from .queue import LocalQueue, QueueDefinition, StoredMessage
from .result import Result, failure
from .tables import Spec, default_spec
from .structures import MQMD, MQMD_VERSION_2, MQPMO, NONE_ID

if TYPE_CHECKING:
    from .qmgr import QueueManager

MQQT_REMOTE = VALUES["MQQT_REMOTE"]
MQQT_LOCAL = VALUES["MQQT_LOCAL"]
MQQT_MODEL = VALUES["MQQT_MODEL"]
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


# The tables this module decides by (fixtures/tables/name-resolution.yaml, xmitq-choice.yaml), read from the queue
# manager's Spec so that a table mutant is the same code given a changed row.
NAME_RESOLUTION = "distributed.name-resolution"
XMITQ_CHOICE = "distributed.xmitq-choice"
# How a chosen transmission queue is refused (xmitq-choice.yaml's refused_as): the reasons for one that is missing,
# not a local queue, or not of Usage MQUS_TRANSMISSION, each with the clause documenting it.
XMITQ_REFUSALS = {
    "transmission-queue": (("MQRC_UNKNOWN_XMIT_Q", "distributed.resolve.xmitq-attribute"),
                           ("MQRC_XMIT_Q_TYPE_ERROR", "distributed.xmitq.usage"),
                           ("MQRC_XMIT_Q_USAGE_ERROR", "distributed.xmitq.usage")),
    "default-transmission-queue": (("MQRC_UNKNOWN_DEF_XMIT_Q", "distributed.resolve.default-xmitq-unknown"),
                                   ("MQRC_DEF_XMIT_Q_TYPE_ERROR", "distributed.resolve.default-xmitq-unknown"),
                                   ("MQRC_DEF_XMIT_Q_USAGE_ERROR", "distributed.xmitq.usage")),
}
# How many times a row may send resolution back to the input columns (IBM's table does it at most twice: a remote
# queue definition, then a queue-manager alias); a changed table that loops fails instead.
MAX_PASSES = 4


def qmgr_name_class(qm: QueueManager, target: str) -> str:
    """What ObjectQMgrName ``target`` names on ``qm``: the name-resolution table's ``object_qmgr`` input."""
    if not target:
        return "blank"
    if target == qm.name:
        return "local"
    found = qm.queues.get(target)
    if found is None:
        return "unknown"
    definition = found.definition
    if definition.QType == MQQT_REMOTE:
        return "remote-definition" if definition.RemoteQName.strip() else "qmgr-alias"
    return "model" if definition.QType == MQQT_MODEL else "queue"


def _object_class(found: LocalQueue | None) -> str:
    """What ObjectName names: the name-resolution table's ``object`` input."""
    if not is_remote_definition(found):
        return "other"
    return "remote-definition" if found.definition.RemoteQName.strip() else "qmgr-alias"


def _sends_here(qm: QueueManager, remote_qmgr: str) -> bool:
    """Whether a remote queue definition's RemoteQMgrName brings its messages back to ``qm``: blank, ``qm``'s own
    name, or a queue-manager alias naming ``qm``."""
    if not remote_qmgr or remote_qmgr == qm.name:
        return True
    found = qm.queues.get(remote_qmgr)
    return qmgr_name_class(qm, remote_qmgr) == "qmgr-alias" and found.definition.RemoteQMgrName.strip() == qm.name


def resolve(qm: QueueManager, name: str, qmgr_name: str) -> Route | Result | None:
    """Resolve an MQOD's ObjectName and ObjectQMgrName on ``qm`` by IBM's name-resolution table
    (fixtures/tables/name-resolution.yaml, then xmitq-choice.yaml for the transmission queue): None when they name
    a local object (no row applies: the usual open does), a :class:`Route`, or the failure of MQOPEN/MQPUT1.

    Clauses: the rows' (distributed.resolve.remote-definition, distributed.resolve.remote-definition-local-qmgr,
    distributed.resolve.alias-not-a-queue, distributed.resolve.qmgr-alias-names-queue,
    distributed.resolve.qmgr-name-model-queue, distributed.resolve.qmgr-alias-local, distributed.resolve.qmgr-alias,
    distributed.resolve.qmgr-name-is-xmitq, distributed.resolve.qmgr-not-a-local-object,
    distributed.resolve.xmitq-attribute, distributed.resolve.xmitq-named-for-qmgr, distributed.resolve.default-xmitq,
    distributed.resolve.unknown-remote-qmgr), distributed.resolve.qmgr-name-first, distributed.xmitq.usage,
    distributed.resolve.default-xmitq-unknown.
    """
    target = qmgr_name.strip()
    object_qmgr = qmgr_name_class(qm, target)
    if object_qmgr not in ("blank", "local"):
        return _resolve(qm, name, target, None, "", ("distributed.resolve.qmgr-name-first",), 1)
    found = qm.queues.get(name)
    kind = _object_class(found)
    if kind == "other":
        return None
    definition = found.definition
    destination = "local" if _sends_here(qm, definition.RemoteQMgrName.strip()) else "remote"
    row = qm.spec[NAME_RESOLUTION].lookup(object_qmgr=object_qmgr, object=kind, destination=destination)
    if row is None:
        return None
    return _follow(qm, row, name, target, definition, name, (), 1)


def _resolve(qm: QueueManager, name: str, target: str, carried: QueueDefinition | None, opened: str,
             clauses: tuple[str, ...], passes: int) -> Route | Result:
    """Queue ``name`` at queue manager ``target``, read from the table's ObjectQMgrName rows; ``carried`` is the
    remote queue definition resolution came through (its XmitQName counts first), ``opened`` its name."""
    object_qmgr = qmgr_name_class(qm, target)
    named = qm.queues[target].definition if object_qmgr in ("qmgr-alias", "remote-definition") else None
    alias = named if object_qmgr == "qmgr-alias" else None
    real = (alias.RemoteQMgrName.strip() or target) if alias is not None else target
    destination = "local" if real == qm.name else "remote"
    if alias is not None:  # a queue-manager alias remaps the name, whichever queue manager it names
        clauses += ("distributed.resolve.qmgr-alias",)
    row = qm.spec[NAME_RESOLUTION].lookup(object_qmgr=object_qmgr, object="other", destination=destination)
    if row is None:  # the name is this queue manager's (a changed table can bring resolution back here)
        return Route("", name, qm.name, opened, clauses)
    return _follow(qm, row, name, target, named, opened, clauses, passes, carried)


def _follow(qm: QueueManager, row, name: str, target: str, definition: QueueDefinition | None, opened: str,
            clauses: tuple[str, ...], passes: int, carried: QueueDefinition | None = None) -> Route | Result:
    """Do what name-resolution row ``row`` says for queue ``name`` at ``target`` (``definition``: the remote
    queue definition or queue-manager alias the row read; ``carried``: one read on an earlier pass)."""
    resolve_as, clauses = row.then["resolve"], tuple(dict.fromkeys(clauses + (row.id,)))
    if resolve_as.startswith("MQRC_") or (resolve_as == "again" and passes >= MAX_PASSES):
        return failure(resolve_as if resolve_as.startswith("MQRC_") else "MQRC_UNKNOWN_REMOTE_Q_MGR", *clauses)
    if resolve_as == "local-queue" or (resolve_as == "again" and definition is None):
        return Route("", name, qm.name, opened, clauses)
    if resolve_as == "again":
        return _resolve(qm, definition.RemoteQName.strip() or name, definition.RemoteQMgrName.strip(), definition,
                        opened, clauses, passes + 1)
    real = target
    if resolve_as == "to-alias-qmgr":
        if definition is None:  # no alias to read the queue manager from
            return failure("MQRC_UNKNOWN_REMOTE_Q_MGR", *clauses)
        real = definition.RemoteQMgrName.strip() or target
    via = carried if carried is not None and carried.XmitQName.strip() else definition
    return _choose_xmitq(qm, name, real or qm.name, via, opened, clauses)


def _choose_xmitq(qm: QueueManager, name: str, real: str, definition: QueueDefinition | None, opened: str,
                  clauses: tuple[str, ...]) -> Route | Result:
    """The transmission queue to queue manager ``real`` by xmitq-choice.yaml: ``definition``'s XmitQName, the
    queue named like ``real``, or DefXmitQName; checked to be a local queue of Usage MQUS_TRANSMISSION."""
    attribute = definition.XmitQName.strip() if definition is not None else ""
    own = qm.queues.get(real)
    row = qm.spec[XMITQ_CHOICE].lookup(xmitq_attribute=bool(attribute),
                                       named_queue=own is not None and own.definition.QType != MQQT_REMOTE,
                                       default_xmitq=bool(qm.def_xmitq_name.strip()))
    choice, clauses = row.then["xmitq"], clauses + (row.id,)
    if choice.startswith("MQRC_"):
        return failure(choice, *clauses)
    chosen = {"attribute": attribute, "named": real, "default": qm.def_xmitq_name.strip()}.get(choice, "")
    refusals = XMITQ_REFUSALS.get(row.then["refused_as"], XMITQ_REFUSALS["transmission-queue"])
    checked = _xmitq(qm, chosen, refusals)
    if isinstance(checked, Result):
        checked.clauses[:0] = clauses[:-1]
        return checked
    return Route(checked, name, real, opened, clauses)


def _xmitq(qm: QueueManager, name: str, refusals: tuple = XMITQ_REFUSALS["transmission-queue"]) -> str | Result:
    """``name`` checked as a transmission queue: a local queue whose Usage is MQUS_TRANSMISSION; otherwise the
    failure ``refusals`` gives (reason and clause) for a missing queue, one of another type, one of another Usage."""
    queue = qm.queues.get(name) if name else None
    missing, wrong_type, wrong_usage = refusals
    if queue is None:
        return failure(*missing)
    if queue.definition.QType != MQQT_LOCAL:
        return failure(*wrong_type)
    if queue.definition.Usage != MQUS_TRANSMISSION:
        return failure(*wrong_usage)
    return name


# -- MQOPEN, MQPUT and MQPUT1 through a route ----------------------------------------------------------------------

def open_remote(qm: QueueManager, conn: Connection, options: int, route: Route) -> Result:
    """MQOPEN of a queue that resolved to transmission queue ``route.xmitq``, its options already found valid for
    it (output, and inquire through a local definition, only: reference/open.py reads
    fixtures/tables/open-object-types.yaml). Clause: distributed.open.resolves-to-xmitq."""
    if options & OO_OUTPUT:
        qm.queues[route.xmitq].open_output_count += 1
    hobj = qm.next_handle()
    qm.handles[hobj] = ObjectHandle(hobj=hobj, hconn=conn.hconn, queue=route.xmitq, options=options,
                                    remote=route.definition, route=(route.queue, route.qmgr))
    conn.handles.add(hobj)
    return Result(clauses=[*route.clauses, "distributed.open.resolves-to-xmitq"], hobj=hobj)


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
    result.clauses += ["distributed.xmitq.header", *header_clauses(qm), "distributed.xmitq.separate-descriptor",
                       *separate_descriptor_clauses(qm), "distributed.put.resolved-names"]
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
    message.data = pack_xqh(route[0], route[1], embedded, qm.spec) + message.data
    message.md = separate_descriptor(qm, embedded)


SEPARATE_DESCRIPTOR = "distributed.xmitq.separate-descriptor-fields"
MD_FIELDS = tuple(MQMD.__annotations__)  # the MQMD fields the model holds, in IBM's order
HEADER_FIELDS = "distributed.xmitq.header-fields"
XQH_FIELDS = ("StrucId", "Version", "RemoteQName", "RemoteQMgrName", "MsgDesc")  # IBM's C declaration


def separate_descriptor(qm: QueueManager, embedded: MQMD) -> MQMD:
    """The descriptor a message on a transmission queue is stored with and MQGET returns, field by field as
    fixtures/tables/xmitq-separate-descriptor.yaml says: most fields copied from the embedded one, Report without
    the MQRO_ACCEPT_UNSUP_IF_XMIT_MASK bits, the queue manager's version, encoding, character set and Format
    MQFMT_XMIT_Q_HEADER, a new MsgId, CorrelId the embedded MsgId, BackoutCount zero.

    Clauses: distributed.xmitq.separate-descriptor and the table's rows (distributed.xmitq.descriptor.*)."""
    table = qm.spec[SEPARATE_DESCRIPTOR]
    own = {"Version": MQMD_VERSION_2, "Encoding": ENC_NATIVE, "CodedCharSetId": qm.coded_char_set_id,
           "Format": FMT_XQH}
    md = embedded.copy()
    for name in MD_FIELDS:
        row = table.lookup(field=name)
        value = "copied" if row is None else row.then["value"]
        given, initial = getattr(embedded, name), getattr(MQMD, name)
        # A value that does not apply to the field (a changed table's) gives the field its initial value.
        if value == "copied":
            continue
        if value == "report-masked" and isinstance(given, int):
            setattr(md, name, given & ~ACCEPT_UNSUP_IF_XMIT_MASK)
        elif value == "queue-manager":
            setattr(md, name, own.get(name, initial))
        elif value == "new-id" and isinstance(given, bytes):
            setattr(md, name, qm.ids.new_id())
        elif value == "embedded-msg-id" and isinstance(given, bytes):
            setattr(md, name, embedded.MsgId)
        elif value == "zero":
            setattr(md, name, bytes(len(given)) if isinstance(given, bytes) else type(given)())
        else:
            setattr(md, name, initial)
    return md


def header_clauses(qm: QueueManager) -> list[str]:
    """The rows of the MQXQH field table (named when a message is wrapped)."""
    table = qm.spec[HEADER_FIELDS]
    rows = (table.lookup(field=name) for name in XQH_FIELDS)
    return list(dict.fromkeys(row.id for row in rows if row is not None))


def separate_descriptor_clauses(qm: QueueManager) -> list[str]:
    """The rows of the separate-descriptor table that set the MQMD's fields (named when a message is wrapped)."""
    table = qm.spec[SEPARATE_DESCRIPTOR]
    rows = (table.lookup(field=name) for name in MD_FIELDS)
    return list(dict.fromkeys(row.id for row in rows if row is not None))


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


def pack_xqh(remote_q: str, remote_qmgr: str, md: MQMD, spec: Spec | None = None) -> bytes:
    """An MQXQH for ``md`` going to ``remote_q`` at ``remote_qmgr``, each field as
    fixtures/tables/xmitq-header.yaml gives it (from ``spec``, the suite's tables by default); the version-2
    fields, when any is not its initial value, follow in an MQMDE, and the embedded descriptor's Format then says
    so (distributed.xmitq.header, distributed.xmitq.header.*)."""
    table = (spec or default_spec())[HEADER_FIELDS]
    sources = {"destination-queue": remote_q, "destination-qmgr": remote_qmgr, "embedded-descriptor": md}

    def field(name: str) -> Any:
        row = table.lookup(field=name)
        value = None if row is None else row.then["value"]
        return sources.get(value, value) if isinstance(value, str) else value

    version2 = _has_version2_fields(md)
    embedded = field("MsgDesc")
    embedded = embedded.copy() if isinstance(embedded, MQMD) else MQMD()
    if version2:
        embedded.Format = FMT_MDE
    header = _XQH.pack(_text(str(field("StrucId")), 4), VALUES.get(str(field("Version")), 0),
                       _text(str(field("RemoteQName")), 48), _text(str(field("RemoteQMgrName")), 48)) + _md1(embedded)
    if version2:
        header += _MDE.pack(b"MDE ", 2, _MDE.size, md.Encoding, md.CodedCharSetId, _text(md.Format, 8), 0,
                            md.GroupId, md.MsgSeqNumber, md.Offset, md.MsgFlags, md.OriginalLength)
    return header


def unpack_xqh(data: bytes) -> tuple[str, str, MQMD, bytes] | None:
    """RemoteQName, RemoteQMgrName, the original descriptor (with its MQMDE's fields) and the application data of
    a message from a transmission queue; None when ``data`` does not start with an MQXQH."""
    if len(data) < XQH_LENGTH or data[:4] != b"XQH ":
        return None
    _sid, version, remote_q, remote_qmgr = _XQH.unpack_from(data)
    if version != VALUES["MQXQH_VERSION_1"]:  # the only version there is
        return None
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
