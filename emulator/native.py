"""The stand-in for IBM's native module ``ibmmq.ibmmqc``, answering from the reference model.

IBM's ``ibmmq`` package is a Python layer over one C module, ``ibmmqc``, whose functions take and return packed
MQI structures. This module has the same functions with the same arguments and return tuples (as IBM's
mq-mqi-python ``code/ibmmq/ibmmqc.c`` builds them), and the same module attributes the Python layer reads
(``__version__``, ``__cmdlevel__``, ``__mqbuild__``, ``__strucversions__``). :func:`mq_conformance.emulator.install`
places it in ``sys.modules`` as ``ibmmq.ibmmqc`` before ``ibmmq`` is imported; nothing of IBM's is copied or
changed on disk.

Each connection handle belongs to the :class:`~mq_conformance.emulator.emulator.Emulator` that made it; MQCONN
and MQCONNX go to the emulator most recently activated (:func:`activate`). With none active, a connect fails
with MQRC_Q_MGR_NOT_AVAILABLE, as on a machine without a queue manager.

Return conventions (ibmmqc.c): MQCONN/MQCONNX ``(Hconn, CompCode, Reason)``; MQDISC, MQCLOSE, MQCMIT, MQBACK,
MQBEGIN, MQSET, MQCB, MQCTL ``(CompCode, Reason)``; MQOPEN ``(Hobj, MQOD, CompCode, Reason)``; MQPUT/MQPUT1
``(MQMD, MQPMO, CompCode, Reason)``; MQGET ``(data, MQMD, MQGMO, DataLength, CompCode, Reason)`` with at most the
buffer's length of data; MQINQ ``(IntAttrs, CharAttrs, CompCode, Reason)``; MQSTAT and MQSUBRQ ``(structure,
CompCode, Reason)``; MQSUB ``(MQSD, Hobj, Hsub, CompCode, Reason)``; MQCRTMH ``(Hmsg, CompCode, Reason)``.
"""

from __future__ import annotations

import getpass
import os
import sys
import threading
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from . import async_consume, handles
from .emulator import (
    MQCC_FAILED,
    MQCC_OK,
    MQCC_WARNING,
    MQHC_UNUSABLE_HCONN,
    MQRC_FUNCTION_NOT_SUPPORTED,
    MQRC_HCONN_ERROR,
    MQRC_Q_MGR_NOT_AVAILABLE,
    Emulator,
    EmulatorError,
    refuse,
)
from . import pubsub

try:
    __version__ = version("ibmmq")  # the Python layer refuses a native module of another version
except PackageNotFoundError:  # pragma: no cover - without ibmmq nothing imports this module as ibmmqc
    __version__ = "unknown"
__cmdlevel__ = 1001  # MQCMDL_CURRENT_LEVEL of the MQ headers ibmmq 2.1.2 is built against
__mqbuild__ = "common"
# The structure versions of those headers: the Python layer includes a structure's later fields only when the
# native module was built with them.
__strucversions__ = {
    "bno": 1, "cd": 13, "cfh": 3, "cmho": 1, "cno": 8, "csp": 3, "cbc": 2, "cbd": 1, "cih": 2, "ctlo": 1,
    "dlh": 1, "gmo": 4, "iih": 1, "impo": 1, "md": 2, "mde": 2, "od": 4, "pd": 1, "pmo": 3, "sco": 7, "sd": 1,
    "smpo": 1, "dmpo": 1, "dmho": 1, "sro": 1, "sts": 2, "tmc": 2, "tm": 1, "xqh": 1,
}

error = EmulatorError  # IBM's module raises "ibmmqc.error" for malformed arguments
globals()["ibmmqc.error"] = EmulatorError

_lock = threading.RLock()
_active: list[Emulator] = []  # the most recently activated emulator receives MQCONN
_owners: dict[int, Emulator] = {}  # Hconn -> its emulator


def activate(emulator: Emulator) -> None:
    """Route new connections to ``emulator`` until :func:`deactivate`."""
    with _lock:
        _active.append(emulator)


def deactivate(emulator: Emulator) -> None:
    """Stop routing new connections to ``emulator``; its connections fail with MQRC_HCONN_ERROR from now on."""
    with _lock:
        if emulator in _active:
            _active.remove(emulator)
        for hconn in [h for h, owner in _owners.items() if owner is emulator]:
            del _owners[hconn]


def active() -> Emulator | None:
    """The emulator new connections go to, if any."""
    with _lock:
        return _active[-1] if _active else None


def _owner(hconn: Any) -> Emulator | None:
    # every call starts here: one dict read, atomic without the module's lock (the writers keep it)
    return _owners.get(hconn) if isinstance(hconn, int) else None


def _this_process() -> tuple[str, str]:
    """The identity of this process: the user it runs as and the program's name (PutApplName)."""
    try:
        user = getpass.getuser()
    except (KeyError, OSError):  # no name for this uid (a container)
        user = str(os.getuid()) if hasattr(os, "getuid") else ""
    return user, os.path.basename(sys.argv[0] if sys.argv and sys.argv[0] else sys.executable)


def connect_as(name: Any, user: str, appl: str, emulator: Emulator | None = None, channel: str | None = None,
               conname: str = "") -> tuple[int, int, int]:
    """MQCONN to ``emulator`` (default: the active one) with an identity given by the caller (the listener's
    clients: the channel they name is checked, clause emulator.channel-admission)."""
    return _connect(name, (user, appl), emulator, channel, conname)


def disconnected(hconn: int) -> None:
    """Forget a connection the listener ended (its emulator has disconnected it)."""
    with _lock:
        _owners.pop(hconn, None)
        _put_status.pop(hconn, None)


def _connect(name: Any, identity: tuple[str, str] | None = None, emulator: Emulator | None = None,
             channel: str | None = None, conname: str = "") -> tuple[int, int, int]:
    emulator = emulator or active()
    if emulator is None:
        return MQHC_UNUSABLE_HCONN, MQCC_FAILED, MQRC_Q_MGR_NOT_AVAILABLE
    user, appl = identity or _this_process()
    hconn, comp, reason = emulator.connect(name, user=user, appl=appl, channel=channel, conname=conname)
    if comp != MQCC_FAILED:
        with _lock:
            _owners[hconn] = emulator
    return hconn, comp, reason


# -- the native functions -----------------------------------------------------------------------------------

def MQCONN(name: Any) -> tuple[int, int, int]:  # noqa: N802 - IBM's names
    """MQCONN(name) -> (Hconn, CompCode, Reason)."""
    return _connect(name)


def MQCONNX(name: bytes, cno: bytes | None, cd: bytes | None, csp: bytes | None, sco: bytes | None,  # noqa: N802
            bno: bytes | None) -> tuple[int, int, int]:
    """MQCONNX(name, MQCNO, MQCD, MQCSP, MQSCO, MQBNO) -> (Hconn, CompCode, Reason). The channel, TLS and
    security structures are accepted and ignored: the queue manager is in this process."""
    if not isinstance(name, bytes):
        raise TypeError("MQCONNX: the queue manager name must be bytes")
    from .remote import _cd_field, _credentials  # noqa: PLC0415 - one reading of the MQCD and MQCSP

    user, _password = _credentials(csp)
    identity = _this_process()
    if user:  # as the listener does: a connection with a user and password is that user's (authority.py)
        identity = (user, identity[1])
    hconn, comp, reason = _connect(name, identity)
    if comp != MQCC_FAILED and cd:  # the channel an MQCD names, for channel status (not checked in process)
        emulator = _owner(hconn)
        if emulator is not None:
            emulator.describe_connection(hconn, _cd_field(cd, "ChannelName") or "", _cd_field(cd, "ConnectionName")
                                         or "")
    return hconn, comp, reason


def MQDISC(hconn: int) -> tuple[int, int]:  # noqa: N802
    emulator = _owner(hconn)
    if emulator is None:
        return MQCC_FAILED, MQRC_HCONN_ERROR
    async_consume.forget(hconn)  # its callbacks stop and are deregistered first
    with _lock:
        _put_status.pop(hconn, None)
    return emulator.MQDISC(hconn)


def MQOPEN(hconn: int, od: bytes, options: int,  # noqa: N802
           strings: dict | None = None) -> tuple[int, bytes, int, int]:
    """``strings``: the MQOD's MQCHARV strings as a remote application's process read them; none: read here."""
    emulator = _owner(hconn)
    if emulator is None:
        return -1, od, MQCC_FAILED, MQRC_HCONN_ERROR
    return emulator.MQOPEN(hconn, od, options, pubsub.local_strings(od, "OD") if strings is None else strings)


def MQCLOSE(hconn: int, hobj: int, options: int) -> tuple[int, int]:  # noqa: N802
    emulator = _owner(hconn)
    return emulator.MQCLOSE(hconn, hobj, options) if emulator else (MQCC_FAILED, MQRC_HCONN_ERROR)


def MQPUT(hconn: int, hobj: int, md: bytes, pmo: bytes, msg: bytes) -> tuple[bytes, bytes, int, int]:  # noqa: N802
    emulator = _owner(hconn)
    if emulator is None:
        return md, pmo, MQCC_FAILED, MQRC_HCONN_ERROR
    result = emulator.MQPUT(hconn, hobj, md, pmo, msg)
    if _asynchronous(pmo):
        return _asynchronous_reply(hconn, result, _queue_of(emulator, hconn, hobj))
    return result


def MQPUT1(hconn: int, od: bytes, md: bytes, pmo: bytes, msg: bytes,  # noqa: N802
           strings: dict | None = None) -> tuple[bytes, bytes, int, int]:
    """``strings`` as for MQOPEN."""
    emulator = _owner(hconn)
    if emulator is None:
        return md, pmo, MQCC_FAILED, MQRC_HCONN_ERROR
    result = emulator.MQPUT1(hconn, od, md, pmo, msg,
                             pubsub.local_strings(od, "OD") if strings is None else strings)
    if _asynchronous(pmo):
        from .emulator import layout

        return _asynchronous_reply(hconn, result, layout("OD").unpack(od).ObjectName if len(od) == layout(
            "OD").size else b"")
    return result


def MQGET(hconn: int, hobj: int, md: bytes, gmo: bytes,  # noqa: N802
          max_length: int, cancel: Any = None) -> tuple[bytes, bytes, bytes, int, int, int]:
    """``cancel``: the listener's session (Emulator.MQGET)."""
    emulator = _owner(hconn)
    if emulator is None:
        return b"", md, gmo, 0, MQCC_FAILED, MQRC_HCONN_ERROR
    result = emulator.MQGET(hconn, hobj, md, gmo, max_length, cancel)
    if result[5] == MQRC_NO_MSG_AVAILABLE and isinstance(gmo, bytes | bytearray) and len(gmo) >= 12 and \
            int.from_bytes(gmo[8:12], sys.byteorder) & MQGMO_SET_SIGNAL:
        # the model checked the call and found no message: where a queue manager would set the signal
        refused = refuse("MQGMO_SET_SIGNAL (a get that signals when a message arrives)")
        return b"", md, gmo, 0, refused.comp_code, refused.reason
    return result


def MQCMIT(hconn: int) -> tuple[int, int]:  # noqa: N802
    emulator = _owner(hconn)
    return emulator.MQCMIT(hconn) if emulator else (MQCC_FAILED, MQRC_HCONN_ERROR)


def MQBACK(hconn: int) -> tuple[int, int]:  # noqa: N802
    emulator = _owner(hconn)
    return emulator.MQBACK(hconn) if emulator else (MQCC_FAILED, MQRC_HCONN_ERROR)


def MQINQ(hconn: int, hobj: int, selectors: list, int_attrs: list, int_count: int, char_count: int,  # noqa: N802
          char_length: int) -> tuple[list, bytes, int, int]:
    if not isinstance(selectors, list) or not isinstance(int_attrs, list):
        raise EmulatorError("Arg is not a list")
    emulator = _owner(hconn)
    if emulator is None:
        return int_attrs, b"\0" * char_length, MQCC_FAILED, MQRC_HCONN_ERROR
    return emulator.MQINQ(hconn, hobj, selectors, int_attrs, int_count, char_count, char_length)


def _unsupported(hconn: Any, feature: str) -> tuple[int, int]:
    """MQRC_FUNCTION_NOT_SUPPORTED for a verb the emulator does not offer (its log line names it)."""
    if not _owner(hconn):
        return MQCC_FAILED, MQRC_HCONN_ERROR
    refused = refuse(feature)
    return refused.comp_code, refused.reason


def MQSET(hconn: int, hobj: int, selectors: list, int_attrs: list, char_attrs: bytes) -> tuple[int, int]:  # noqa: N802
    if not isinstance(selectors, list) or not isinstance(int_attrs, list):
        raise EmulatorError("Selectors arg is not a list")
    emulator = _owner(hconn)
    if emulator is None:
        return MQCC_FAILED, MQRC_HCONN_ERROR
    return emulator.MQSET(hconn, hobj, selectors, int_attrs, char_attrs)


def MQBEGIN(hconn: int) -> tuple[int, int]:  # noqa: N802
    """Global units of work are not modelled: MQCC_FAILED, MQRC_FUNCTION_NOT_SUPPORTED."""
    return _unsupported(hconn, "MQBEGIN (global units of work)")


# MQSTAT of MQSTAT_TYPE_ASYNC_ERROR (clause emulator.mqstat): per connection, the puts with
# MQPMO_ASYNC_RESPONSE since the last MQSTAT that succeeded, warned and failed, and the first warning or failure.
_put_status: dict[int, dict[str, Any]] = {}
MQPMO_ASYNC_RESPONSE = 0x10000
MQGMO_SET_SIGNAL = 0x8
MQRC_NO_MSG_AVAILABLE = 2033
MQSTAT_TYPE_ASYNC_ERROR = 0
MQRC_STAT_TYPE_ERROR = 2430


def _asynchronous(pmo: Any) -> bool:
    """Whether a packed MQPMO asks for an asynchronous put (its Options, after StrucId and Version)."""
    return isinstance(pmo, bytes | bytearray) and len(pmo) >= 12 and bool(
        int.from_bytes(pmo[8:12], sys.byteorder) & MQPMO_ASYNC_RESPONSE)


# What a queue manager finds when it processes the put on the queue, which an asynchronous put does not wait for
# (our list): the put completes MQCC_OK and MQSTAT reports it.
DEFERRED = frozenset({2024, 2030, 2031, 2048, 2051, 2053, 2056})  # SYNCPOINT_LIMIT_REACHED, MSG_TOO_BIG_FOR_Q,
# MSG_TOO_BIG_FOR_Q_MGR, PERSISTENT_NOT_ALLOWED, PUT_INHIBITED, Q_FULL, Q_SPACE_NOT_AVAILABLE


def _queue_of(emulator: Emulator, hconn: int, hobj: int) -> bytes:
    conn = emulator._conn(hconn)  # noqa: SLF001 - the emulator's own connection record
    handle = emulator.world.qmgr(conn.qmgr).handles.get(hobj) if conn is not None else None
    return handle.queue.encode("utf-8") if handle is not None else b""


def _asynchronous_reply(hconn: int, result: tuple, name: bytes) -> tuple:
    """An asynchronous put's reply: counted for MQSTAT; a warning, or a failure the queue manager finds on the
    queue, is not returned by the put but by MQSTAT (the first warning or failure since the last MQSTAT, a later
    failure replacing a warning). Clause: emulator.mqstat."""
    md, pmo, comp, reason = result
    with _lock:
        status = _put_status.setdefault(hconn, {"ok": 0, "warning": 0, "failed": 0, "first": None})
        status[("ok", "warning", "failed")[min(comp, 2)]] += 1
        first = status["first"]
        if comp and (first is None or (first[0] == MQCC_WARNING and comp == MQCC_FAILED)):
            status["first"] = (comp, reason, name)
    if comp == MQCC_WARNING or reason in DEFERRED:
        return md, pmo, MQCC_OK, 0
    return result


def MQSTAT(hconn: int, status_type: int, sts: bytes) -> tuple[bytes, int, int]:  # noqa: N802
    """MQSTAT: with MQSTAT_TYPE_ASYNC_ERROR the MQSTS of the connection's asynchronous puts since the last
    MQSTAT (then counted afresh); the reconnection types are not modelled (MQRC_FUNCTION_NOT_SUPPORTED, as no
    connection here reconnects). Clause: emulator.mqstat."""
    if _owner(hconn) is None:
        return sts, MQCC_FAILED, MQRC_HCONN_ERROR
    if status_type != MQSTAT_TYPE_ASYNC_ERROR:
        if status_type in (1, 2):  # MQSTAT_TYPE_RECONNECTION, MQSTAT_TYPE_RECONNECTION_ERROR
            return (sts, *_unsupported(hconn, "MQSTAT of the reconnection status (reconnectable clients)"))
        return sts, MQCC_FAILED, MQRC_STAT_TYPE_ERROR
    from .emulator import layout

    shape = layout("STS")
    if not isinstance(sts, bytes | bytearray) or len(sts) != shape.size:
        raise EmulatorError(f"MQSTS wrong size. Given: {len(sts) if sts else 0}, expected {shape.size}")
    with _lock:
        status = _put_status.pop(hconn, None) or {"ok": 0, "warning": 0, "failed": 0, "first": None}
    record = shape.unpack(bytes(sts))
    record.PutSuccessCount, record.PutWarningCount = status["ok"], status["warning"]
    record.PutFailureCount = status["failed"]
    record.CompCode, record.Reason = (status["first"] or (0, 0, b""))[:2]
    if status["first"] and status["first"][2]:
        record.ObjectName = status["first"][2][:48].ljust(48, b" ")
    return record.pack(), MQCC_OK, 0


def MQSUB(hconn: int, sd: bytes, hobj: int,  # noqa: N802
          strings: dict | None = None) -> tuple[bytes, int, int, int, int]:
    """MQSUB (emulator/pubsub.py); ``strings`` as for MQOPEN."""
    emulator = _owner(hconn)
    if emulator is None:
        return sd, hobj, -1, MQCC_FAILED, MQRC_HCONN_ERROR
    return pubsub.sub(emulator, hconn, sd, hobj, pubsub.local_strings(sd, "SD") if strings is None else strings)


def MQSUBRQ(hconn: int, hsub: int, action: int, sro: bytes) -> tuple[bytes, int, int]:  # noqa: N802
    """MQSUBRQ (emulator/pubsub.py)."""
    emulator = _owner(hconn)
    if emulator is None:
        return sro, MQCC_FAILED, MQRC_HCONN_ERROR
    return pubsub.subrq(emulator, hconn, hsub, action, sro)


def MQCB(hconn: int, operation: int, cbd: bytes, hobj: int, md: bytes, gmo: bytes) -> tuple[int, int]:  # noqa: N802
    """MQCB: asynchronous consumption, delivered on a consumer thread of this process (async_consume.py)."""
    if _owner(hconn) is None:
        return MQCC_FAILED, MQRC_HCONN_ERROR
    return async_consume.mqcb(sys.modules[__name__], hconn, operation, cbd, hobj, md, gmo)


def MQCTL(hconn: int, operation: int, ctlo: bytes) -> tuple[int, int]:  # noqa: N802
    """MQCTL: start, stop, suspend and resume the connection's callbacks (async_consume.py)."""
    if _owner(hconn) is None:
        return MQCC_FAILED, MQRC_HCONN_ERROR
    return async_consume.mqctl(sys.modules[__name__], hconn, operation, ctlo)


def MQCBINIT(function: Any) -> None:  # noqa: N802
    """Registers the Python layer's callback dispatcher, which the consumer threads call."""
    async_consume.init(function)


def MQCRTMH(hconn: int, cmho: bytes) -> tuple[int, int, int]:  # noqa: N802
    """Message handles: emulator/handles.py."""
    emulator = _owner(hconn)
    return handles.crtmh(emulator, hconn, cmho) if emulator else (-1, MQCC_FAILED, MQRC_HCONN_ERROR)


def MQDLTMH(hconn: int, hmsg: int, dmho: bytes) -> tuple[int, int]:  # noqa: N802
    emulator = _owner(hconn)
    return handles.dltmh(emulator, hconn, hmsg, dmho) if emulator else (MQCC_FAILED, MQRC_HCONN_ERROR)


def MQSETMP(hconn: int, hmsg: int, smpo: bytes, name: bytes, pd: bytes, type_: int, value: Any,  # noqa: N802
            value_length: int) -> tuple[int, int]:
    emulator = _owner(hconn)
    if emulator is None:
        return MQCC_FAILED, MQRC_HCONN_ERROR
    return handles.setmp(emulator, hconn, hmsg, smpo, name, pd, type_, value, value_length)


def MQINQMP(hconn: int, hmsg: int, impo: bytes, name: bytes, pd: bytes, type_: int,  # noqa: N802
            value_length: int) -> tuple[Any, int, str, int, int]:
    emulator = _owner(hconn)
    if emulator is None:
        return None, 0, "", MQCC_FAILED, MQRC_HCONN_ERROR
    return handles.inqmp(emulator, hconn, hmsg, impo, name, pd, type_, value_length)


def MQDLTMP(hconn: int, hmsg: int, dmpo: bytes, name: bytes) -> tuple[int, int]:  # noqa: N802
    emulator = _owner(hconn)
    return handles.dltmp(emulator, hconn, hmsg, dmpo, name) if emulator else (MQCC_FAILED, MQRC_HCONN_ERROR)


def MQLOGCF(level: int, filename: str | None = None) -> tuple[int]:  # noqa: N802
    """Native trace configuration: there is no native layer to trace."""
    return (0,)
