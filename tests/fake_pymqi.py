"""A stand-in for pymqi, for testing the IBM MQ adapter's translation layer on machines without IBM MQ.

Two layers, as in pymqi itself:

- ``Backend`` plays pymqe, the C layer: it records every MQI call with a snapshot of the structures it received
  (as the bytes/ints pymqi would pack) and answers with a scripted reply, or with a deliberately small default
  (a dict of queues holding messages, generated MsgIds). It is **not** a model of MQ: tests script what MQ
  would answer when it matters.
- ``QueueManager``, ``Queue``, ``MD``, ``GMO``... reproduce the *wrapper* behaviours of dsuch/pymqi 1.12.11
  (code/pymqi/__init__.py) that the adapter depends on: MQMIError on every non-zero completion code; MD/GMO
  unpacked before an MQGET warning is raised, with ``message``/``original_length`` (lines 2143-2153); MD/PMO
  not unpacked on MQPUT/MQPUT1 warnings (2063-2067, 1862-1866); ``close`` raising before it clears the handle
  (2212-2215); lazy opens when a handle is unset (2058, 2123, 2224); ``disconnect`` ignoring MQDISC's result
  (1783); ``get(None)`` trying 4096 bytes first (2127-2131); str rejected where bytes are packed
  (``ensure_not_unicode``, 194-198); GMO/PMO having their version-4/3 fields only when built against MQ 7+.

``make_module()`` returns a module object; ``install()`` puts it into ``sys.modules`` with monkeypatch.
"""

from __future__ import annotations

import itertools
import sys
import types
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from mq_conformance.reference.constants import VALUES

CMQC_VALUES = {
    **VALUES,
    # not in mq_conformance.reference.constants; values as pymqi 1.12.11 CMQC.py / CMQXC.py
    "MQCNO_NONE": 0, "MQCNO_HANDLE_SHARE_NONE": 0x20, "MQCNO_HANDLE_SHARE_BLOCK": 0x40,
    "MQHC_UNUSABLE_HCONN": -1, "MQHO_UNUSABLE_HOBJ": -1, "MQIA_DEF_INPUT_OPEN_OPTION": 4,
    "MQIA_SHAREABILITY": 23, "MQCD_VERSION_6": 6, "MQCD_VERSION_7": 7, "MQCHT_CLNTCONN": 6, "MQXPT_TCP": 2,
    "MQOT_Q": 1, "MQRC_ALREADY_CONNECTED": 2002, "MQRC_SSL_INITIALIZATION_ERROR": 2393,
}

CC_OK, CC_WARNING, CC_FAILED = 0, 1, 2
RC = VALUES  # reason codes by name

DEFAULT_ATTRIBUTES = {  # MQIA selector -> value, as DEFINE QLOCAL's defaults (the developer container's queues)
    VALUES["MQIA_MAX_MSG_LENGTH"]: 4_194_304, VALUES["MQIA_MAX_Q_DEPTH"]: 5000, VALUES["MQIA_INHIBIT_PUT"]: 0,
    VALUES["MQIA_INHIBIT_GET"]: 0, VALUES["MQIA_MSG_DELIVERY_SEQUENCE"]: 0, VALUES["MQIA_DEF_PERSISTENCE"]: 0,
    VALUES["MQIA_DEF_PRIORITY"]: 0, 4: 2, 23: 1,
}


# -- the C layer --------------------------------------------------------------------------------------------

@dataclass
class Record:
    """One MQI call as the fake C layer received it."""

    verb: str
    args: dict[str, Any]

    def __getitem__(self, key: str) -> Any:
        return self.args[key]


@dataclass
class Reply:
    """A scripted answer to one MQI call. ``md``/``pmo``/``gmo`` are fields MQ writes back; ``data`` is what an
    MQGET returns (``data_length`` the message's real length); ``value`` an MQINQ result; ``hobj`` an MQOPEN
    handle; ``exception`` is raised instead (a library-level failure)."""

    cc: int = CC_OK
    rc: int = 0
    md: dict[str, Any] | None = None
    pmo: dict[str, Any] | None = None
    gmo: dict[str, Any] | None = None
    data: bytes | None = None
    data_length: int | None = None
    value: Any = None
    hobj: int | None = None
    exception: BaseException | None = None


@dataclass
class Backend:
    """Records calls; answers from ``script`` first, otherwise with the small defaults below."""

    calls: list[Record] = field(default_factory=list)
    script: dict[str, deque] = field(default_factory=dict)
    queues: dict[str, list[tuple[bytes, dict]]] = field(default_factory=dict)
    attributes: dict[str, dict[int, int]] = field(default_factory=dict)
    handles: dict[int, tuple[int, str]] = field(default_factory=dict)  # hobj -> (hconn, queue)
    connected: set[int] = field(default_factory=set)
    _hconns: Any = field(default_factory=lambda: itertools.count(101))
    _hobjs: Any = field(default_factory=lambda: itertools.count(1))
    _ids: Any = field(default_factory=lambda: itertools.count(1))

    def __post_init__(self) -> None:
        for name in ("DEV.QUEUE.1", "DEV.QUEUE.2", "DEV.QUEUE.3"):
            self.queues.setdefault(name, [])

    # scripting
    def on(self, verb: str, *replies: Reply) -> None:
        self.script.setdefault(verb, deque()).extend(replies)

    def of(self, verb: str) -> list[Record]:
        return [record for record in self.calls if record.verb == verb]

    def _scripted(self, verb: str) -> Reply | None:
        queue = self.script.get(verb)
        if queue:
            reply = queue.popleft()
            if reply.exception is not None:
                raise reply.exception
            return reply
        return None

    def _record(self, verb: str, **args: Any) -> None:
        self.calls.append(Record(verb, args))

    # the verbs, answering as pymqe does: tuples ending (..., comp, reason)
    def MQCONNX(self, name, options, cd, user_password, sco):
        self._record("MQCONNX", name=name, options=options, cd=cd, sco=sco, **user_password)
        reply = self._scripted("MQCONNX")
        if reply is not None and reply.cc == CC_FAILED:
            return 0, reply.cc, reply.rc
        hconn = next(self._hconns)
        self.connected.add(hconn)
        return hconn, (reply.cc if reply else 0), (reply.rc if reply else 0)

    def MQDISC(self, hconn):
        self._record("MQDISC", hconn=hconn)
        if hconn not in self.connected:
            return CC_FAILED, RC["MQRC_HCONN_ERROR"]
        self.connected.discard(hconn)
        for hobj in [h for h, (owner, _q) in self.handles.items() if owner == hconn]:
            del self.handles[hobj]
        return CC_OK, 0

    def _check_hconn(self, hconn) -> tuple[int, int] | None:
        return None if hconn in self.connected else (CC_FAILED, RC["MQRC_HCONN_ERROR"])

    def _check_hobj(self, hconn, hobj) -> tuple[int, int] | None:
        bad = self._check_hconn(hconn)
        if bad:
            return bad
        owner = self.handles.get(hobj)
        return None if owner is not None and owner[0] == hconn else (CC_FAILED, RC["MQRC_HOBJ_ERROR"])

    def MQOPEN(self, hconn, od, options):
        self._record("MQOPEN", hconn=hconn, od=od, options=options)
        reply = self._scripted("MQOPEN")
        if reply is not None and reply.cc:
            return 0, od, reply.cc, reply.rc
        bad = self._check_hconn(hconn)
        if bad:
            return (0, od) + bad
        name = od["ObjectName"].rstrip(b"\0 ").decode()
        if name not in self.queues:
            return 0, od, CC_FAILED, RC["MQRC_UNKNOWN_OBJECT_NAME"]
        hobj = reply.hobj if reply is not None and reply.hobj else next(self._hobjs)
        self.handles[hobj] = (hconn, name)
        return hobj, od, CC_OK, 0

    def MQCLOSE(self, hconn, hobj, options, by_del=False):
        self._record("MQCLOSE", hconn=hconn, hobj=hobj, options=options, by_del=by_del)
        bad = self._check_hobj(hconn, hobj)
        if bad:
            return bad
        reply = self._scripted("MQCLOSE")
        if reply is None or reply.cc != CC_FAILED:
            del self.handles[hobj]
        return (reply.cc, reply.rc) if reply else (CC_OK, 0)

    def _put(self, verb, hconn, queue, md, pmo, msg, **extra):
        self._record(verb, hconn=hconn, md=md, pmo=pmo, msg=msg, **extra)
        reply = self._scripted(verb)
        if reply is not None and reply.cc:
            return md, pmo, reply.cc, reply.rc
        md_out, pmo_out = dict(md), dict(pmo)
        if md_out["MsgId"] == bytes(24):
            md_out["MsgId"] = b"FAKE-MSGID-%06d" % next(self._ids) + bytes(6)
        pmo_out["ResolvedQName"] = queue.encode().ljust(48)
        if reply is not None:
            md_out.update(reply.md or {})
            pmo_out.update(reply.pmo or {})
        self.queues[queue].append((msg, dict(md_out)))
        return md_out, pmo_out, CC_OK, 0

    def MQPUT(self, hconn, hobj, md, pmo, msg):
        bad = self._check_hobj(hconn, hobj)
        if bad:
            self._record("MQPUT", hconn=hconn, hobj=hobj, md=md, pmo=pmo, msg=msg)
            return (md, pmo) + bad
        return self._put("MQPUT", hconn, self.handles[hobj][1], md, pmo, msg, hobj=hobj)

    def MQPUT1(self, hconn, od, md, pmo, msg):
        bad = self._check_hconn(hconn)
        name = od["ObjectName"].rstrip(b"\0 ").decode()
        if bad or name not in self.queues:
            self._record("MQPUT1", hconn=hconn, od=od, md=md, pmo=pmo, msg=msg)
            return (md, pmo) + (bad or (CC_FAILED, RC["MQRC_UNKNOWN_OBJECT_NAME"]))
        return self._put("MQPUT1", hconn, name, md, pmo, msg, od=od)

    def MQGET(self, hconn, hobj, md, gmo, max_length):
        self._record("MQGET", hconn=hconn, hobj=hobj, md=md, gmo=gmo, max_length=max_length)
        reply = self._scripted("MQGET")
        if reply is not None:
            data = reply.data or b""
            md_out, gmo_out = {**md, **(reply.md or {})}, {**gmo, **(reply.gmo or {})}
            length = len(data) if reply.data_length is None else reply.data_length
            return data[:max_length], md_out, gmo_out, length, reply.cc, reply.rc
        bad = self._check_hobj(hconn, hobj)
        if bad:
            return (b"", md, gmo, 0) + bad
        messages = self.queues[self.handles[hobj][1]]
        if not messages:
            return b"", md, gmo, 0, CC_FAILED, RC["MQRC_NO_MSG_AVAILABLE"]
        data, stored = messages[0]
        browse = gmo["Options"] & (VALUES["MQGMO_BROWSE_FIRST"] | VALUES["MQGMO_BROWSE_NEXT"])
        cc, rc = CC_OK, 0
        if len(data) > max_length:
            cc = CC_WARNING
            accept = gmo["Options"] & VALUES["MQGMO_ACCEPT_TRUNCATED_MSG"]
            rc = RC["MQRC_TRUNCATED_MSG_ACCEPTED" if accept else "MQRC_TRUNCATED_MSG_FAILED"]
            if not accept:
                return data[:max_length], {**md, **stored}, gmo, len(data), cc, rc
        if not browse:
            messages.pop(0)
        return data[:max_length], {**md, **stored}, {**gmo, "ReturnedLength": min(len(data), max_length)}, \
            len(data), cc, rc

    def MQCMIT(self, hconn):
        self._record("MQCMIT", hconn=hconn)
        reply = self._scripted("MQCMIT")
        return (reply.cc, reply.rc) if reply else (self._check_hconn(hconn) or (CC_OK, 0))

    def MQBACK(self, hconn):
        self._record("MQBACK", hconn=hconn)
        reply = self._scripted("MQBACK")
        return (reply.cc, reply.rc) if reply else (self._check_hconn(hconn) or (CC_OK, 0))

    def MQINQ(self, hconn, hobj, selector):
        self._record("MQINQ", hconn=hconn, hobj=hobj, selector=selector)
        reply = self._scripted("MQINQ")
        if reply is not None:
            return reply.value, reply.cc, reply.rc
        bad = self._check_hobj(hconn, hobj)
        if bad:
            return (0,) + bad
        queue = self.handles[hobj][1]
        values = {**DEFAULT_ATTRIBUTES, **self.attributes.get(queue, {})}
        if selector == VALUES["MQIA_CURRENT_Q_DEPTH"]:
            return len(self.queues[queue]), CC_OK, 0
        if selector not in values:
            return 0, CC_FAILED, RC["MQRC_SELECTOR_ERROR"]
        return values[selector], CC_OK, 0


# -- the Python layer, as pymqi's wrappers ------------------------------------------------------------------

class Error(Exception):
    pass


class MQMIError(Error):
    def __init__(self, comp, reason, **kw):
        self.comp, self.reason = comp, reason
        for key, value in kw.items():
            setattr(self, key, value)

    def __str__(self):
        return f"MQI Error. Comp: {self.comp}, Reason {self.reason}"


class PYIFError(Error):
    def __init__(self, e):
        self.error = e

    def __str__(self):
        return f"PYMQI Error: {self.error}"


class _Struct:
    """pymqi's MQOpts, reduced: named fields with defaults; 'packing' rejects str and fixes byte lengths."""

    FIELDS: tuple[tuple[str, Any, int | None], ...] = ()  # name, default, byte length (None for integers)

    def __init__(self, **kw):
        for name, default, _length in self.FIELDS:
            setattr(self, name, default)
        self.set(**kw)

    def set(self, **kw):
        for key, value in kw.items():
            self[key] = value

    def __setitem__(self, key, value):
        getattr(self, key)  # AttributeError for an unknown field, as pymqi
        if isinstance(value, str):
            raise TypeError(f"Python 3 style string (unicode) found but not allowed here: `{value}`. "
                            "Convert to bytes.")
        setattr(self, key, value)

    def __getitem__(self, key):
        return getattr(self, key)

    def pack(self) -> dict[str, Any]:
        packed = {}
        for name, _default, length in self.FIELDS:
            value = getattr(self, name)
            if isinstance(value, str):
                raise TypeError(f"Python 3 style string (unicode) found but not allowed here: `{value}`. "
                                "Convert to bytes.")
            if length is not None:
                if not isinstance(value, bytes):
                    raise TypeError(f"{name}: expected bytes, got {type(value).__name__}")
                value = value.ljust(length, b"\0")[:length]
            elif not isinstance(value, int):
                raise TypeError(f"{name}: expected an integer, got {type(value).__name__}")
            packed[name] = value
        return packed

    def unpack(self, packed: dict[str, Any]) -> None:
        for name, _default, _length in self.FIELDS:
            if name in packed:
                setattr(self, name, packed[name])

    def __repr__(self):
        return f"{type(self).__name__}({self.pack()})"


class MD(_Struct):
    FIELDS = (
        ("StrucId", b"MD  ", 4), ("Version", 1, None), ("Report", 0, None), ("MsgType", 8, None),
        ("Expiry", -1, None), ("Feedback", 0, None), ("Encoding", 546, None), ("CodedCharSetId", 0, None),
        ("Format", b"", 8), ("Priority", -1, None), ("Persistence", 2, None), ("MsgId", b"", 24),
        ("CorrelId", b"", 24), ("BackoutCount", 0, None), ("ReplyToQ", b"", 48), ("ReplyToQMgr", b"", 48),
        ("UserIdentifier", b"", 12), ("AccountingToken", b"", 32), ("ApplIdentityData", b"", 32),
        ("PutApplType", 0, None), ("PutApplName", b"", 28), ("PutDate", b"", 8), ("PutTime", b"", 8),
        ("ApplOriginData", b"", 4), ("GroupId", b"", 24), ("MsgSeqNumber", 1, None), ("Offset", 0, None),
        ("MsgFlags", 0, None), ("OriginalLength", -1, None),
    )


_GMO_FIELDS = (
    ("StrucId", b"GMO ", 4), ("Version", 1, None), ("Options", 0, None), ("WaitInterval", 0, None),
    ("Signal1", 0, None), ("Signal2", 0, None), ("ResolvedQName", b"", 48), ("MatchOptions", 3, None),
    ("GroupStatus", 32, None), ("SegmentStatus", 32, None), ("Segmentation", 32, None),
    ("Reserved1", b" ", 1), ("MsgToken", b"", 16), ("ReturnedLength", -1, None),
)
_PMO_FIELDS = (
    ("StrucId", b"PMO ", 4), ("Version", 1, None), ("Options", 0, None), ("Timeout", -1, None),
    ("Context", 0, None), ("KnownDestCount", 0, None), ("UnknownDestCount", 0, None),
    ("InvalidDestCount", 0, None), ("ResolvedQName", b"", 48), ("ResolvedQMgrName", b"", 48),
    ("RecsPresent", 0, None), ("PutMsgRecFields", 0, None), ("PutMsgRecOffset", 0, None),
    ("ResponseRecOffset", 0, None), ("PutMsgRecPtr", 0, None), ("ResponseRecPtr", 0, None),
)


class OD(_Struct):
    FIELDS = (("StrucId", b"OD  ", 4), ("Version", 1, None), ("ObjectType", 1, None), ("ObjectName", b"", 48),
              ("ObjectQMgrName", b"", 48), ("DynamicQName", b"AMQ.*", 48), ("AlternateUserId", b"", 12))


class CD(_Struct):
    FIELDS = (("ChannelName", b"", 20), ("Version", 6, None), ("ChannelType", 6, None), ("TransportType", 2, None),
              ("ConnectionName", b"", 264), ("MaxMsgLength", 4_194_304, None), ("SSLCipherSpec", b"", 32),
              ("CertificateLabel", b"", 64))


class SCO(_Struct):
    FIELDS = (("StrucId", b"SCO ", 4), ("Version", 5, None), ("KeyRepository", b"", 256),
              ("CertificateLabel", b"", 64))


def _common_q_args(module, *opts):
    if len(opts) > 2:
        raise TypeError("Too many args")
    md = opts[0] if len(opts) > 0 else None
    other = opts[1] if len(opts) == 2 else None
    return (md if md is not None else module.MD()), other


def make_module(name: str = "pymqi", *, mq7: bool = True, version: str = "1.12.11-fake") -> tuple[Any, Backend]:
    """A fresh fake pymqi module and the backend it talks to. ``mq7=False`` builds GMO/PMO without their
    version-4/version-3 fields, as pymqi built against an MQ older than 7."""
    backend = Backend()
    module = types.ModuleType(name)
    module.__version__ = version
    module.backend = backend
    module.CMQC = types.SimpleNamespace(**CMQC_VALUES)
    module.CMQXC = types.SimpleNamespace(MQCHT_CLNTCONN=6, MQXPT_TCP=2, MQCD_VERSION_6=6, MQCD_VERSION_7=7)
    module.Error, module.MQMIError, module.PYIFError = Error, MQMIError, PYIFError
    module.MD, module.OD, module.CD, module.SCO = MD, OD, CD, SCO

    class GMO(_Struct):
        FIELDS = _GMO_FIELDS + ((("Reserved2", 0, None), ("MsgHandle", 0, None)) if mq7 else ())

    class PMO(_Struct):
        FIELDS = _PMO_FIELDS + ((("OriginalMsgHandle", 0, None), ("NewMsgHandle", 0, None), ("Action", 0, None),
                                 ("PubLevel", 0, None)) if mq7 else ())

    module.GMO, module.PMO = GMO, PMO

    class QueueManager:
        def __init__(self, name="", disconnect_on_exit=True):
            self.__handle = None
            self.__name = name
            if name is not None:
                self.connect(name)

        def connect(self, name):
            rv = backend.MQCONNX(name, 0, None, {}, None)
            if rv[1]:
                raise MQMIError(rv[1], rv[2])
            self.__handle = rv[0]

        def connect_with_options(self, name, *args, **kwargs):
            if args:
                kwargs["cd"] = args[0]
                if len(args) == 2:
                    kwargs["sco"] = args[1]
            user, password = kwargs.get("user"), kwargs.get("password")
            credentials = {}
            if user:
                if password is None:
                    raise ValueError("Password must not be None if user is provided")
                credentials = {"user": user, "password": password}
            cd = kwargs.get("cd")
            if cd is not None:
                if cd.SSLCipherSpec and cd.Version < 7:
                    cd.Version = 7
                cd = cd.pack()
            sco = kwargs.get("sco") or SCO()
            rv = backend.MQCONNX(name, kwargs.get("opts", 0), cd, credentials, sco.pack())
            if rv[1] <= CC_WARNING:
                self.__handle = rv[0]
                self.__name = name
            if rv[1]:
                raise MQMIError(rv[1], rv[2])

        def disconnect(self):
            if not self.__handle:
                raise PYIFError("not connected")
            backend.MQDISC(self.__handle)  # result ignored, as pymqi 1.12.11 line 1783
            self.__handle = None

        def get_handle(self):
            if self.__handle:
                return self.__handle
            raise PYIFError("not connected")

        getHandle = get_handle

        def commit(self):
            rv = backend.MQCMIT(_long(self.__handle))
            if rv[0]:
                raise MQMIError(rv[0], rv[1])

        def backout(self):
            rv = backend.MQBACK(_long(self.__handle))
            if rv[0]:
                raise MQMIError(rv[0], rv[1])

        def put1(self, q_desc, msg, *opts):
            md, pmo = _common_q_args(module, *opts)
            if not isinstance(msg, bytes):
                raise TypeError("fake: put1 expects bytes")
            pmo = pmo if pmo is not None else PMO()
            od = q_desc if isinstance(q_desc, OD) else OD(ObjectName=q_desc)
            rv = backend.MQPUT1(_long(self.__handle), od.pack(), md.pack(), pmo.pack(), msg)
            if rv[-2]:
                raise MQMIError(rv[-2], rv[-1])
            md.unpack(rv[0])
            pmo.unpack(rv[1])

    class Queue:
        def __init__(self, qmgr, *opts):
            self.__qmgr = qmgr
            self.__handle = self.__desc = self.__opts = None
            if len(opts) > 0:
                self.__desc = opts[0] if isinstance(opts[0], OD) else OD(ObjectName=opts[0])
            if len(opts) == 2:
                self.__opts = opts[1]
                self.__real_open()

        def __real_open(self):
            rv = backend.MQOPEN(self.__qmgr.get_handle(), self.__desc.pack(), self.__opts)
            if rv[-2]:
                raise MQMIError(rv[-2], rv[-1])
            self.__handle = rv[0]

        def __del__(self):
            if self.__handle:
                try:
                    backend.MQCLOSE(self.__qmgr.get_handle(), self.__handle, 0, by_del=True)
                except Exception:  # noqa: BLE001 - as pymqi's __del__
                    pass

        def open(self, q_desc, *opts):
            if self.__handle:
                raise PYIFError("The Queue is already open")
            self.__desc = q_desc if isinstance(q_desc, OD) else OD(ObjectName=q_desc)
            if len(opts) == 1:
                self.__opts = opts[0]
                self.__real_open()

        def put(self, msg, *opts):
            md, pmo = _common_q_args(module, *opts)
            if not isinstance(msg, bytes):
                raise TypeError("fake: put expects bytes")
            pmo = pmo if pmo is not None else PMO()
            if not self.__handle:  # the lazy open of pymqi line 2058
                self.__opts = CMQC_VALUES["MQOO_OUTPUT"]
                self.__real_open()
            rv = backend.MQPUT(self.__qmgr.get_handle(), self.__handle, md.pack(), pmo.pack(), msg)
            if rv[-2]:
                raise MQMIError(rv[-2], rv[-1])
            md.unpack(rv[0])
            pmo.unpack(rv[1])

        def get(self, max_length=None, *opts):
            md, gmo = _common_q_args(module, *opts)
            gmo = gmo if gmo is not None else GMO()
            if not self.__handle:  # the lazy open of pymqi line 2123
                self.__opts = CMQC_VALUES["MQOO_INPUT_AS_Q_DEF"]
                self.__real_open()
            if max_length is None:
                length = 0 if gmo.Options & CMQC_VALUES["MQGMO_ACCEPT_TRUNCATED_MSG"] else 4096
            else:
                length = max_length
            rv = backend.MQGET(self.__qmgr.get_handle(), self.__handle, md.pack(), gmo.pack(), length)
            if not rv[-2]:
                md.unpack(rv[1])
                gmo.unpack(rv[2])
                return rv[0]
            truncated_failed = CMQC_VALUES["MQRC_TRUNCATED_MSG_FAILED"]
            if rv[-1] != truncated_failed or max_length is not None:
                if rv[-2] == CC_WARNING:
                    md.unpack(rv[1])
                    gmo.unpack(rv[2])
                raise MQMIError(rv[-2], rv[-1], message=rv[0], original_length=rv[-3])
            rv = backend.MQGET(self.__qmgr.get_handle(), self.__handle, md.pack(), gmo.pack(), rv[-3])
            if rv[-2]:
                raise MQMIError(rv[-2], rv[-1])
            md.unpack(rv[1])
            gmo.unpack(rv[2])
            return rv[0]

        def close(self, options=0):
            if not self.__handle:
                raise PYIFError("not open")
            rv = backend.MQCLOSE(self.__qmgr.get_handle(), self.__handle, options)
            if rv[0]:
                raise MQMIError(rv[-2], rv[-1])
            self.__handle = self.__desc = self.__opts = None

        def inquire(self, attribute):
            if not self.__handle:  # the lazy open of pymqi line 2224
                self.__opts = CMQC_VALUES["MQOO_INQUIRE"]
                self.__real_open()
            rv = backend.MQINQ(self.__qmgr.get_handle(), self.__handle, attribute)
            if rv[1]:
                raise MQMIError(rv[-2], rv[-1])
            return rv[0]

        def set_handle(self, queue_handle):
            self.__handle = queue_handle

        def get_handle(self):
            return self.__handle

    module.QueueManager, module.Queue = QueueManager, Queue
    return module, backend


def _long(handle):
    """pymqe parses handles with "l": None is a TypeError there, not a PYIFError."""
    if not isinstance(handle, int):
        raise TypeError("an integer is required (got type NoneType)")
    return handle


def install(monkeypatch, name: str = "pymqi", **options: Any) -> tuple[Any, Backend]:
    """Make ``import <name>`` give a fresh fake (and the other package name unimportable)."""
    module, backend = make_module(name, **options)
    other = "ibmmq" if name == "pymqi" else "pymqi"
    monkeypatch.setitem(sys.modules, name, module)
    monkeypatch.setitem(sys.modules, other, None)
    return module, backend
