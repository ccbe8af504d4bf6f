"""The emulated native module of an application whose queue manager is ``mqconf emulator --listen``: the same
functions as :mod:`.native`, each a request of the session protocol (emulator/session.py) to the listener.

Installed as ``ibmmq.ibmmqc`` by :func:`mq_conformance.emulator.install_remote` when the
environment variable ``MQCONF_EMULATOR`` is set (the suite's pytest plugin and ``.pth`` hook read it). Every
MQCONN/MQCONNX opens its own socket, to the address the application would reach a real queue manager at:

- ``MQCONF_EMULATOR=host(port)`` (or ``host:port``, ``unix:/path``): every connection goes there;
- ``MQCONF_EMULATOR=1``: the ConnectionName of the MQCD the application gives (``ibmmq.connect("QM1",
  "DEV.APP.SVRCONN", "localhost(1414)")``), else the MQSERVER variable (``CHANNEL/TCP/host(port)``), else
  ``localhost(1414)``.

The user and password of an MQCSP go to the emulator (which may refuse them with MQRC_NOT_AUTHORIZED); so do the
user this process runs as and the program's name, the identity its puts carry. An MQCD that asks for TLS
(SSLCipherSpec set) fails the connect with MQRC_SSL_INITIALIZATION_ERROR: the listener speaks no TLS, and a
connection meant to be encrypted is never made in clear. The strings an MQOD or MQSD points to (ObjectString,
SelectionString, SubName, SubUserData) are read here, in the process that owns them, and sent by value; MQCB and
MQCTL run here too (emulator/async_consume.py), their consumer's gets going to the listener.
"""

from __future__ import annotations

import ctypes
import itertools
import logging
import os
import sys
import threading
from typing import Any

from mq_conformance.reference.constants import VALUES, name_of

from . import async_consume, native
from . import session as protocol
from .emulator import MQCC_FAILED, MQCC_OK, MQHC_UNUSABLE_HCONN, MQRC_Q_MGR_NOT_AVAILABLE, EmulatorError, layout
from .session import ProtocolError, Verb

# The module attributes IBM's Python layer reads, as the in-process module has them.
__version__ = native.__version__
__cmdlevel__ = native.__cmdlevel__
__mqbuild__ = "client"
__strucversions__ = native.__strucversions__
error = EmulatorError
globals()["ibmmqc.error"] = EmulatorError

LOG = logging.getLogger("mq_conformance.emulator")
DEFAULT_ADDRESS = "localhost(1414)"
MQRC_HOST_NOT_AVAILABLE = 2538
MQRC_CHANNEL_NOT_AVAILABLE = 2537
MQRC_SSL_INITIALIZATION_ERROR = 2393
MQRC_HCONN_ERROR = 2018
MQRC_CONNECTION_BROKEN = 2009
MQHO_UNUSABLE_HOBJ = -1
MQHM_UNUSABLE_HMSG = -1
NAME_BUFFER = 4096  # the ReturnedName IBM's Python layer can take
ENVIRONMENT = "MQCONF_EMULATOR"


class _Channel:
    """One connection's socket: one call at a time on it."""

    def __init__(self, sock, address: str = ""):
        self.sock = sock
        self.address = address
        self.reader = protocol.Reader(sock)
        self.lock = threading.Lock()
        self.tags = itertools.count(1)
        self.hconn = MQHC_UNUSABLE_HCONN  # the listener's handle of this connection
        self.token = b""  # the session's, for ATTACH
        self.attached: _Channel | None = None  # the consumers' own socket (opened on their first get)

    def consumer(self) -> _Channel:
        """The socket the delivering thread's gets go over, ATTACHed to this session (as libmqm's consume.c does),
        so that the connection's other calls never wait for a consumer's get; opened on first use.
        :class:`ProtocolError` or OSError when it cannot be."""
        if self.attached is None:
            attached = _Channel(protocol.connect(self.address))
            try:
                attached.call(Verb.HELLO, protocol.MAGIC, protocol.VERSION, protocol.VERSION)
                comp, reason = attached.call(Verb.ATTACH, self.token)[:2]
                if comp != MQCC_OK:
                    raise ProtocolError(f"ATTACH refused with reason {reason}")
            except BaseException:
                attached.close()
                raise
            attached.hconn, self.attached = self.hconn, attached
        return self.attached

    def call(self, verb: int, *values: Any) -> list:
        """``[CompCode, Reason, outputs...]``; :class:`ProtocolError` or OSError when the session is gone."""
        with self.lock:
            return protocol.call(self.sock, self.reader, verb, next(self.tags) & 0xFFFF_FFFF, *values)

    def close(self) -> None:
        if self.attached is not None:
            self.attached.close()
        try:
            self.sock.close()
        except OSError:
            pass


_lock = threading.Lock()
_channels: dict[int, _Channel] = {}  # this process's Hconn -> its connection
_HCONNS = itertools.count(0x0300_0001)  # this process's own numbering: two listeners may hand out the same one


def _cd_field(cd: bytes | None, name: str) -> str:
    """A character field of the application's MQCD ("" when there is none or it cannot be read)."""
    if not cd:
        return ""
    from .emulator import ibm

    try:
        structure = ibm().CD()
        if len(cd) != structure.get_length():
            return ""
        structure.unpack(cd)
    except Exception:  # noqa: BLE001 - an MQCD we cannot read names nothing: the defaults are used
        return ""
    raw = getattr(structure, name, b"")
    return (raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw)).rstrip("\0 ")


def _connection_name(cd: bytes) -> str:
    return _cd_field(cd, "ConnectionName")


def _credentials(csp: bytes | None) -> tuple[str | None, str | None]:
    """The user and password of an MQCSP (its pointers point into buffers the caller keeps alive)."""
    if not csp:
        return None, None
    from .emulator import ibm

    try:
        structure = ibm().CSP()
        if len(csp) != structure.get_length():
            return None, None
        structure.unpack(csp)
    except Exception:  # noqa: BLE001 - an unreadable MQCSP gives no credentials
        return None, None

    def text(pointer: Any, length: Any) -> str | None:
        if not pointer or not length:
            return None
        return ctypes.string_at(pointer, length).decode("utf-8", "replace")

    return (text(structure.CSPUserId, getattr(structure, "_CSPUserIdLength", 0)),
            text(structure.CSPPassword, getattr(structure, "_CSPPasswordLength", 0)))


def _cno_ccdt_url(cno: bytes | None) -> str:
    """The CCDT URL of an MQCNO (its pointer points into a buffer the caller keeps alive), "" for none."""
    if not cno:
        return ""
    from .emulator import ibm

    try:
        structure = ibm().CNO()
        if len(cno) != structure.get_length():
            return ""
        structure.unpack(cno)
        pointer, length = structure.CCDTUrl, getattr(structure, "_CCDTUrlLength", 0)
        if not isinstance(pointer, int) or not pointer or not length or length > 4096:
            return ""
        return ctypes.string_at(pointer, length).decode("utf-8", "replace")
    except Exception:  # noqa: BLE001 - an MQCNO we cannot read names no CCDT
        return ""


def routes_for(name: Any, cd: bytes | None, cno: bytes | None) -> list[tuple[str, str]]:
    """``(address, channel)`` to try in order for one connect: MQCONF_EMULATOR's address; else, as IBM's client
    chooses a channel, the MQCD's ConnectionName, the MQCNO's CCDT, MQSERVER, the CCDT of MQCCDTURL or
    MQCHLLIB/MQCHLTAB (emulator/ccdt.py), localhost(1414). ``ccdt.CcdtError`` for a CCDT that
    cannot be used."""
    from . import ccdt

    configured = os.environ.get(ENVIRONMENT, "").strip()
    server = os.environ.get("MQSERVER", "")
    server_channel = server.split("/")[0] if server.count("/") >= 2 else ""
    if configured and configured not in ("1", "yes", "true"):
        return [(configured, _cd_field(cd, "ChannelName") or (server_channel if cd is None else ""))]
    if cd and _connection_name(cd):
        return [(_connection_name(cd), _cd_field(cd, "ChannelName"))]
    qmgr = name.decode("utf-8", "replace") if isinstance(name, bytes) else str(name or "")
    url = _cno_ccdt_url(cno)
    if url:
        return [(address, route.channel) for route in ccdt.resolve(url, qmgr) for address in route.addresses]
    if server_channel:
        return [(server.split("/", 2)[2], server_channel)]
    url = ccdt.location(os.environ) or ""
    if url:
        return [(address, route.channel) for route in ccdt.resolve(url, qmgr) for address in route.addresses]
    return [(DEFAULT_ADDRESS, "")]


def _charv(raw: bytes, cls_name: str, *names: str) -> list[bytes]:
    """The strings the MQCHARV fields ``names`` of a structure packed in this process point to (read here, where
    they live), empty for none or for a structure that cannot be read."""
    try:
        structure = layout(cls_name).unpack(bytes(raw))
    except Exception:  # noqa: BLE001 - an unreadable structure: the listener refuses it
        return [b""] * len(names)
    found = []
    for name in names:
        pointer = getattr(structure, f"{name}VSPtr", 0)
        length = getattr(structure, f"{name}VSLength", 0)
        found.append(ctypes.string_at(pointer, length) if pointer and 0 < length <= protocol.MAX_FRAME else b"")
    return found


def _open(name: Any, cd: bytes | None, csp: bytes | None, cno: bytes | None = None) -> tuple[int, int, int]:
    """MQCONN/MQCONNX over the session protocol: HELLO and CONNX on a socket of its own. A channel asking for TLS
    fails first (clause emulator.listener-tls)."""
    from .ccdt import CcdtError

    if _cd_field(cd, "SSLCipherSpec"):
        LOG.warning("MQRC_SSL_INITIALIZATION_ERROR (2393): the channel asks for TLS (SSLCipherSpec %s), which the "
                    "emulator's listener does not offer; not connecting in clear", _cd_field(cd, "SSLCipherSpec"))
        return MQHC_UNUSABLE_HCONN, MQCC_FAILED, MQRC_SSL_INITIALIZATION_ERROR
    try:
        candidates = routes_for(name, cd, cno)
    except CcdtError as exc:
        return MQHC_UNUSABLE_HCONN, MQCC_FAILED, exc.reason
    raw_name = name if isinstance(name, bytes) else str(name or "").encode("utf-8")
    sock, channel_name, address = None, "", ""
    for address, channel_name in candidates:
        try:
            sock = protocol.connect(address)
            break
        except (OSError, ValueError):
            continue
    if sock is None:
        # as a client: a host that cannot be reached over TCP is MQRC_HOST_NOT_AVAILABLE; a local socket with no
        # listener is a queue manager that is not running
        local = address.startswith(("unix:", "/"))
        return MQHC_UNUSABLE_HCONN, MQCC_FAILED, MQRC_Q_MGR_NOT_AVAILABLE if local else MQRC_HOST_NOT_AVAILABLE
    channel = _Channel(sock, address)
    user, password = _credentials(csp)
    os_user, appl = native._this_process()  # noqa: SLF001 - one definition of this process's identity
    try:
        comp, reason, version = channel.call(Verb.HELLO, protocol.MAGIC, protocol.VERSION, protocol.VERSION)
        if comp == MQCC_FAILED:
            channel.close()
            return MQHC_UNUSABLE_HCONN, comp, reason
        comp, reason, hconn, token = channel.call(
            Verb.CONNX, raw_name[:48].ljust(48, b" "), bytes(cno or b""), (user or "").encode("utf-8"),
            (password or "").encode("utf-8"), channel_name.encode("utf-8")[:20].ljust(20, b" "),
            appl.encode("utf-8")[:28].ljust(28, b" "), os_user.encode("utf-8"))
    except (ProtocolError, OSError):
        channel.close()  # closed before it answered: the listener has no room for another connection
        return MQHC_UNUSABLE_HCONN, MQCC_FAILED, MQRC_CHANNEL_NOT_AVAILABLE
    if comp == MQCC_FAILED:
        channel.close()
        return MQHC_UNUSABLE_HCONN, comp, reason
    channel.hconn, channel.token = hconn, token
    local = next(_HCONNS)
    with _lock:
        _channels[local] = channel
    return local, comp, reason


def _request(hconn: Any, verb: int, *values: Any) -> tuple[list | None, int]:
    """``(reply items, 0)``, or ``(None, reason)`` when ``hconn`` is no connection of this process
    (MQRC_HCONN_ERROR) or the listener went away during the call (MQRC_CONNECTION_BROKEN; the connection is
    then gone). A get of the connection's delivering thread goes over the consumers' own socket."""
    channel = _channels.get(hconn) if type(hconn) is int else None
    if channel is None:
        return None, MQRC_HCONN_ERROR
    try:
        if verb == Verb.GET and async_consume.delivering_here(hconn):
            channel = channel.consumer()
        return channel.call(verb, channel.hconn, *values), 0
    except (ProtocolError, OSError):
        _drop(hconn)
        return None, MQRC_CONNECTION_BROKEN


def _drop(hconn: int) -> None:
    with _lock:
        channel = _channels.pop(hconn, None)
    if channel is not None:
        channel.close()


def _resolved_string(cls_name: str, sent: bytes, returned: bytes, resolved: bytes,
                     field: str = "ResObjectString") -> bytes:
    """A string the listener sent for the MQCHARV ``field`` (ResObjectString; MQSTS's ObjectString), copied into
    the caller's buffer (at most its VSBufSize) with its full length in VSLength, as IBM's client returns it; the
    structure unchanged when there is none or no buffer."""
    if not resolved or f"{field}VSLength" not in protocol.shape(cls_name).offsets:
        return returned
    shape = protocol.shape(cls_name)
    try:
        structure = layout(cls_name).unpack(bytes(sent))
    except Exception:  # noqa: BLE001 - a structure the listener accepted but this layout cannot read: left as is
        return returned
    if getattr(structure, "Version", 0) < (2 if cls_name == "STS" else 0):
        return returned  # MQSTS version 1 has no ObjectString
    pointer, size = getattr(structure, f"{field}VSPtr"), getattr(structure, f"{field}VSBufSize")
    if pointer and size > 0:
        ctypes.memmove(pointer, resolved, min(size, len(resolved)))
    at = shape.offsets[f"{field}VSLength"]
    return returned[:at] + len(resolved).to_bytes(4, "little", signed=True) + returned[at + 4:]


def _keep(cls_name: str, sent: bytes, returned: bytes) -> bytes:
    """A returned structure with the caller's own pointers in it again (the listener zeroes them)."""
    return protocol.shape(cls_name).pointers_of(sent, returned)


# -- the native functions -----------------------------------------------------------------------------------

def MQCONN(name: Any) -> tuple[int, int, int]:  # noqa: N802 - IBM's names
    return _open(name, None, None)


def MQCONNX(name: bytes, cno: bytes | None, cd: bytes | None, csp: bytes | None, sco: bytes | None,  # noqa: N802
            bno: bytes | None) -> tuple[int, int, int]:
    if not isinstance(name, bytes):
        raise TypeError("MQCONNX: the queue manager name must be bytes")
    return _open(name, cd, csp, cno)


def MQDISC(hconn: Any) -> tuple[int, int]:  # noqa: N802
    async_consume.forget(hconn)  # its callbacks stop and are deregistered first
    out, failed = _request(hconn, Verb.DISC)
    if out is None:
        return MQCC_FAILED, failed
    if out[0] != MQCC_FAILED:
        _drop(hconn)
    return out[0], out[1]


def MQOPEN(hconn: Any, od: bytes, options: int) -> tuple[int, bytes, int, int]:  # noqa: N802
    object_string, selection_string = _charv(od, "OD", "ObjectString", "SelectionString")
    out, failed = _request(hconn, Verb.OPEN, od, options, object_string, selection_string, 0)
    if out is None:
        return MQHO_UNUSABLE_HOBJ, od, MQCC_FAILED, failed
    comp, reason, od_out, hobj, resolved = out
    return hobj, _resolved_string("OD", od, _keep("OD", od, od_out), resolved), comp, reason


def MQCLOSE(hconn: Any, hobj: int, options: int) -> tuple[int, int]:  # noqa: N802
    out, failed = _request(hconn, Verb.CLOSE, hobj, options)
    return (MQCC_FAILED, failed) if out is None else (out[0], out[1])


def MQPUT(hconn: Any, hobj: int, md: bytes, pmo: bytes, msg: bytes) -> tuple[bytes, bytes, int, int]:  # noqa: N802
    out, failed = _request(hconn, Verb.PUT, hobj, md, pmo, bytes(msg))
    if out is None:
        return md, pmo, MQCC_FAILED, failed
    comp, reason, md_out, pmo_out = out
    return md_out, _keep("PMO", pmo, pmo_out), comp, reason


def MQPUT1(hconn: Any, od: bytes, md: bytes, pmo: bytes, msg: bytes) -> tuple[bytes, bytes, int, int]:  # noqa: N802
    object_string, selection_string = _charv(od, "OD", "ObjectString", "SelectionString")
    out, failed = _request(hconn, Verb.PUT1, od, object_string, selection_string, md, pmo, bytes(msg))
    if out is None:
        return md, pmo, MQCC_FAILED, failed
    comp, reason, _od_out, md_out, pmo_out = out
    return md_out, _keep("PMO", pmo, pmo_out), comp, reason


def MQGET(hconn: Any, hobj: int, md: bytes, gmo: bytes,  # noqa: N802
          max_length: int) -> tuple[bytes, bytes, bytes, int, int, int]:
    out, failed = _request(hconn, Verb.GET, hobj, md, gmo, max_length)
    if out is None:
        return b"", md, gmo, 0, MQCC_FAILED, failed
    comp, reason, md_out, gmo_out, data, data_length = out
    return data, md_out, gmo_out, data_length, comp, reason


def MQCMIT(hconn: Any) -> tuple[int, int]:  # noqa: N802
    out, failed = _request(hconn, Verb.CMIT)
    return (MQCC_FAILED, failed) if out is None else (out[0], out[1])


def MQBACK(hconn: Any) -> tuple[int, int]:  # noqa: N802
    out, failed = _request(hconn, Verb.BACK)
    return (MQCC_FAILED, failed) if out is None else (out[0], out[1])


def MQBEGIN(hconn: Any) -> tuple[int, int]:  # noqa: N802
    out, failed = _request(hconn, Verb.BEGIN, b"")
    return (MQCC_FAILED, failed) if out is None else (out[0], out[1])


def MQINQ(hconn: Any, hobj: int, selectors: list, int_attrs: list, int_count: int, char_count: int,  # noqa: N802
          char_length: int) -> tuple[list, bytes, int, int]:
    if not isinstance(selectors, list) or not isinstance(int_attrs, list):
        raise EmulatorError("Arg is not a list")
    out, failed = _request(hconn, Verb.INQ, hobj, _array(selectors), int_count, char_length)
    if out is None:
        return int_attrs, b"\0" * max(char_length, 0), MQCC_FAILED, failed
    comp, reason, ints, chars = out
    return int_attrs + list(memoryview(ints).cast("i")) if ints else int_attrs, chars, comp, reason


def MQSET(hconn: Any, hobj: int, selectors: list, int_attrs: list, char_attrs: bytes) -> tuple[int, int]:  # noqa: N802
    if not isinstance(selectors, list) or not isinstance(int_attrs, list):
        raise EmulatorError("Selectors arg is not a list")
    out, failed = _request(hconn, Verb.SET, hobj, _array(selectors), _array(int_attrs), bytes(char_attrs or b""))
    return (MQCC_FAILED, failed) if out is None else (out[0], out[1])


def _array(values: list) -> bytes:
    import array

    return array.array("i", [int(v) for v in values]).tobytes()


def MQSTAT(hconn: Any, status_type: int, sts: bytes) -> tuple[bytes, int, int]:  # noqa: N802
    out, failed = _request(hconn, Verb.STAT, status_type, sts)
    if out is None:
        return sts, MQCC_FAILED, failed
    comp, reason, sts_out, object_string, _sub_name = out  # SubName: always empty for MQSTAT_TYPE_ASYNC_ERROR
    return _resolved_string("STS", sts, _keep("STS", sts, sts_out), object_string, "ObjectString"), comp, reason


def MQSUB(hconn: Any, sd: bytes, hobj: int) -> tuple[bytes, int, int, int, int]:  # noqa: N802
    strings = _charv(sd, "SD", "ObjectString", "SubName", "SelectionString", "SubUserData")
    out, failed = _request(hconn, Verb.SUB, sd, hobj, *strings, 0)
    if out is None:
        return sd, hobj, MQHO_UNUSABLE_HOBJ, MQCC_FAILED, failed
    comp, reason, sd_out, hobj_out, hsub, resolved = out
    return _resolved_string("SD", sd, _keep("SD", sd, sd_out), resolved), hobj_out, hsub, comp, reason


def MQSUBRQ(hconn: Any, hsub: int, action: int, sro: bytes) -> tuple[bytes, int, int]:  # noqa: N802
    out, failed = _request(hconn, Verb.SUBRQ, hsub, action, sro)
    return (sro, MQCC_FAILED, failed) if out is None else (out[2], out[0], out[1])


def MQCRTMH(hconn: Any, cmho: bytes) -> tuple[int, int, int]:  # noqa: N802
    out, failed = _request(hconn, Verb.CRTMH, cmho)
    return (MQHM_UNUSABLE_HMSG, MQCC_FAILED, failed) if out is None else (out[2], out[0], out[1])


def MQDLTMH(hconn: Any, hmsg: int, dmho: bytes) -> tuple[int, int]:  # noqa: N802
    out, failed = _request(hconn, Verb.DLTMH, hmsg, dmho)
    return (MQCC_FAILED, failed) if out is None else (out[0], out[1])


def MQSETMP(hconn: Any, hmsg: int, smpo: bytes, name: bytes, pd: bytes, type_: int, value: Any,  # noqa: N802
            value_length: int) -> tuple[int, int]:
    raw = protocol.value_bytes(name_of(type_, "MQTYPE"), value, value_length)
    out, failed = _request(hconn, Verb.SETMP, hmsg, smpo, bytes(name), pd, type_, raw)
    return (MQCC_FAILED, failed) if out is None else (out[0], out[1])


def MQINQMP(hconn: Any, hmsg: int, impo: bytes, name: bytes, pd: bytes, type_: int,  # noqa: N802
            value_length: int) -> tuple[Any, int, str, int, int]:
    out, failed = _request(hconn, Verb.INQMP, hmsg, impo, bytes(name), pd, type_, value_length, NAME_BUFFER)
    if out is None:
        return None, 0, "", MQCC_FAILED, failed
    comp, reason, _impo, returned, _pd, type_out, raw, data_length = out
    if comp == MQCC_FAILED:
        return None, data_length, "", comp, reason
    type_name = name_of(type_out, "MQTYPE")
    value = protocol.value_of(type_name, raw) if type_name in VALUES else None
    return value, data_length, returned.decode("utf-8", "replace"), comp, reason


def MQDLTMP(hconn: Any, hmsg: int, dmpo: bytes, name: bytes) -> tuple[int, int]:  # noqa: N802
    out, failed = _request(hconn, Verb.DLTMP, hmsg, dmpo, bytes(name))
    return (MQCC_FAILED, failed) if out is None else (out[0], out[1])


def _connected(hconn: Any) -> bool:
    return type(hconn) is int and hconn in _channels


def MQCB(hconn: Any, operation: int, cbd: bytes, hobj: int, md: bytes, gmo: bytes) -> Any:  # noqa: N802
    """MQCB: the callbacks run in this process, on a consumer thread whose gets go to the listener
    (async_consume.py)."""
    if not _connected(hconn):
        return MQCC_FAILED, MQRC_HCONN_ERROR
    return async_consume.mqcb(sys.modules[__name__], hconn, operation, cbd, hobj, md, gmo)


def MQCTL(hconn: Any, operation: int, ctlo: bytes) -> Any:  # noqa: N802
    if not _connected(hconn):
        return MQCC_FAILED, MQRC_HCONN_ERROR
    return async_consume.mqctl(sys.modules[__name__], hconn, operation, ctlo)


MQCBINIT = native.MQCBINIT
MQLOGCF = native.MQLOGCF
