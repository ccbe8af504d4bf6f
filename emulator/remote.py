"""The emulated native module of an application whose queue manager is ``mqconf emulator --listen``: the same
functions as :mod:`.native`, each sent over a socket to the listening emulator (:mod:`.wire`).

Installed as ``ibmmq.ibmmqc`` by :func:`mq_conformance.emulator.install_remote` when the
environment variable ``MQCONF_EMULATOR`` is set (the suite's pytest plugin and ``.pth`` hook read it). Every
MQCONN/MQCONNX opens its own socket, to the address the application would reach a real queue manager at:

- ``MQCONF_EMULATOR=host(port)`` (or ``host:port``, ``unix:/path``): every connection goes there;
- ``MQCONF_EMULATOR=1``: the ConnectionName of the MQCD the application gives (``ibmmq.connect("QM1",
  "DEV.APP.SVRCONN", "localhost(1414)")``), else the MQSERVER variable (``CHANNEL/TCP/host(port)``), else
  ``localhost(1414)``.

The user and password of an MQCSP go to the emulator (which may refuse them with MQRC_NOT_AUTHORIZED); so do the
user this process runs as and the program's name, the identity its puts carry.
"""

from __future__ import annotations

import ctypes
import os
import sys
import threading
from typing import Any

from . import async_consume, native, wire
from .emulator import MQCC_FAILED, MQHC_UNUSABLE_HCONN, MQRC_Q_MGR_NOT_AVAILABLE, EmulatorError

# The module attributes IBM's Python layer reads, as the in-process module has them.
__version__ = native.__version__
__cmdlevel__ = native.__cmdlevel__
__mqbuild__ = "client"
__strucversions__ = native.__strucversions__
error = EmulatorError
globals()["ibmmqc.error"] = EmulatorError

DEFAULT_ADDRESS = "localhost(1414)"
MQRC_HOST_NOT_AVAILABLE = 2538
ENVIRONMENT = "MQCONF_EMULATOR"


class _Channel:
    """One connection's socket; one call at a time on it."""

    def __init__(self, sock):
        self.sock = sock
        self.lock = threading.Lock()

    def call(self, name: str, *args: Any) -> list:
        with self.lock:
            wire.send(self.sock, [name, *args])
            reply = wire.receive(self.sock)
        if reply[0] == "ok":
            return reply[1]
        raise EmulatorError(reply[1])

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass


_lock = threading.Lock()
_channels: dict[int, _Channel] = {}


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


def _open(name: Any, cd: bytes | None, csp: bytes | None, cno: bytes | None = None) -> tuple[int, int, int]:
    from .ccdt import CcdtError

    try:
        candidates = routes_for(name, cd, cno)
    except CcdtError as exc:
        return MQHC_UNUSABLE_HCONN, MQCC_FAILED, exc.reason
    if isinstance(name, bytes) and name.strip().startswith(b"*"):
        name = b""  # a queue-manager group: whichever queue manager the channel reaches
    sock, channel_name, address = None, "", ""
    for address, channel_name in candidates:
        try:
            sock = wire.connect(address)
            break
        except (OSError, ValueError):
            continue
    if sock is None:
        # as a client: a host that cannot be reached over TCP is MQRC_HOST_NOT_AVAILABLE; a local socket with no
        # listener is a queue manager that is not running
        local = address.startswith(("unix:", "/"))
        return MQHC_UNUSABLE_HCONN, MQCC_FAILED, MQRC_Q_MGR_NOT_AVAILABLE if local else MQRC_HOST_NOT_AVAILABLE
    channel = _Channel(sock)
    user, password = _credentials(csp)
    os_user, appl = native._this_process()  # noqa: SLF001 - one definition of this process's identity
    identity = {"user": user, "password": password, "os_user": os_user, "appl": appl, "channel": channel_name}
    try:
        hconn, comp, reason = channel.call("CONNECT", name, identity)
    except (wire.WireError, OSError):
        channel.close()
        return MQHC_UNUSABLE_HCONN, MQCC_FAILED, MQRC_Q_MGR_NOT_AVAILABLE
    if comp == MQCC_FAILED:
        channel.close()
    else:
        with _lock:
            _channels[hconn] = channel
    return hconn, comp, reason


def _forward(name: str, hconn: Any, *args: Any) -> Any:
    with _lock:
        channel = _channels.get(hconn) if isinstance(hconn, int) else None
    if channel is None:  # not a connection of this process: the in-process module's answer (MQRC_HCONN_ERROR)
        return getattr(native, name)(hconn, *args)
    try:
        result = tuple(channel.call(name, hconn, *args))
    except (wire.WireError, OSError):
        with _lock:
            _channels.pop(hconn, None)
        channel.close()
        return getattr(native, name)(hconn, *args)  # the queue manager is gone: MQRC_HCONN_ERROR
    if name == "MQDISC" and result and result[0] != MQCC_FAILED:
        with _lock:
            _channels.pop(hconn, None)
        channel.close()
    return result


# -- the native functions -----------------------------------------------------------------------------------

def MQCONN(name: Any) -> tuple[int, int, int]:  # noqa: N802 - IBM's names
    return _open(name, None, None)


def MQCONNX(name: bytes, cno: bytes | None, cd: bytes | None, csp: bytes | None, sco: bytes | None,  # noqa: N802
            bno: bytes | None) -> tuple[int, int, int]:
    if not isinstance(name, bytes):
        raise TypeError("MQCONNX: the queue manager name must be bytes")
    return _open(name, cd, csp, cno)


def _forwarder(name: str):
    def call(hconn: Any, *args: Any) -> Any:
        return _forward(name, hconn, *args)

    call.__name__ = call.__qualname__ = name
    call.__doc__ = f"{name}, answered by the listening emulator."
    return call


# Every native function of the in-process module that works on a connection is forwarded to the listener (those
# other helpers add, message properties and publish/subscribe, included); the ones that need no connection are
# answered here.
_LOCAL = {"MQCONN", "MQCONNX", "MQCBINIT", "MQLOGCF", "MQCB", "MQCTL"}
for _name in dir(native):
    if _name.startswith("MQ") and _name.isupper() and callable(getattr(native, _name)) and _name not in _LOCAL:
        globals()[_name] = _forwarder(_name)
# The calls whose structures carry MQCHARV strings: read here, where their pointers point, and sent as text (the
# listening emulator never follows a pointer into this process; emulator/pubsub.py).
from . import pubsub as _pubsub  # noqa: E402 - after the forwarders it overrides


def MQOPEN(hconn: Any, od: bytes, options: int) -> Any:  # noqa: N802
    return _forward("MQOPEN", hconn, od, options, _pubsub.local_strings(od, "OD"))


def MQPUT1(hconn: Any, od: bytes, md: bytes, pmo: bytes, msg: bytes) -> Any:  # noqa: N802
    return _forward("MQPUT1", hconn, od, md, pmo, msg, _pubsub.local_strings(od, "OD"))


def MQSUB(hconn: Any, sd: bytes, hobj: int) -> Any:  # noqa: N802
    return _forward("MQSUB", hconn, sd, hobj, _pubsub.local_strings(sd, "SD"))


def MQDISC(hconn: Any) -> Any:  # noqa: N802
    async_consume.forget(hconn)  # its callbacks stop and are deregistered first
    return _forward("MQDISC", hconn)


def _connected(hconn: Any) -> bool:
    with _lock:
        return isinstance(hconn, int) and hconn in _channels


def MQCB(hconn: Any, operation: int, cbd: bytes, hobj: int, md: bytes, gmo: bytes) -> Any:  # noqa: N802
    """MQCB: the callbacks run in this process, on a consumer thread whose gets go to the listener
    (async_consume.py)."""
    if not _connected(hconn):
        return MQCC_FAILED, native.MQRC_HCONN_ERROR
    return async_consume.mqcb(sys.modules[__name__], hconn, operation, cbd, hobj, md, gmo)


def MQCTL(hconn: Any, operation: int, ctlo: bytes) -> Any:  # noqa: N802
    if not _connected(hconn):
        return MQCC_FAILED, native.MQRC_HCONN_ERROR
    return async_consume.mqctl(sys.modules[__name__], hconn, operation, ctlo)


for _name in ("MQCBINIT", "MQLOGCF"):
    if hasattr(native, _name):
        globals()[_name] = getattr(native, _name)
