"""Emulated queue managers that any number of processes reach: ``mqconf emulator --listen HOST:PORT`` (or
``unix:/path``), speaking the session protocol (emulator/session.py; docs/emulator.md, "The session protocol").

Every session is a stranger. A socket must say HELLO, then CONNX with a user and password the listener accepts,
within the handshake time and in frames of at most 64 KiB; anything else ends it before a byte of the rest is
read. A session then touches only what it created: its connection handle, the object, subscription and message
handles its calls returned (any other is IBM's reason for that parameter: MQRC_HCONN_ERROR, MQRC_HOBJ_ERROR,
MQRC_HMSG_ERROR), and the server never reads an address a client sent (every pointer in a structure is zeroed;
the strings they point to come as items of their own). When a session ends (MQDISC, its socket closed, a
timeout) its waiting gets end, its unit of work is backed out and it is disconnected. The listener bounds what a
socket may cost: connections, frame sizes, the handshake and idle times (:class:`Budgets`).

One listener may hold several queue managers (``--qmgr`` repeated): CONNX's QMgrName chooses one by name, blank
(or a ``*group``) the first. Their sender and receiver channels move messages between them while the listener
serves (emulator/channels.py).

In this mode the queue manager runs in real time (PutDate/PutTime from the wall clock, expiry and browse-mark
intervals in real milliseconds) and a put with default context carries the identity of the connecting user: the
user of the MQCSP when one is given (as a developer queue manager adopts it), otherwise the user the application's
process runs as.
"""

from __future__ import annotations

import ipaddress
import logging
import os
import secrets
import select
import socket
import stat
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mq_conformance.reference.constants import VALUES, name_of

from . import handles, native
from . import session as protocol
from .emulator import MQCC_FAILED, MQCC_OK, MQCC_WARNING, MQHC_UNUSABLE_HCONN, Emulator, \
    char_length_of
from .session import ProtocolError, Verb

LOG = logging.getLogger("mq_conformance.emulator")
MQRC_NOT_AUTHORIZED = 2035
MQRC_HCONN_ERROR = 2018
MQRC_HOBJ_ERROR = 2019
MQRC_HMSG_ERROR = 2460
MQRC_ALREADY_CONNECTED = 2002
MQRC_Q_MGR_NAME_ERROR = 2058
MQRC_CONNECTION_BROKEN = 2009
MQRC_CALL_INTERRUPTED = 2549
MQRC_UNEXPECTED_ERROR = 2195
MQRC_SELECTOR_COUNT_ERROR = 2065
MQRC_INT_ATTR_COUNT_ERROR = 2021
MQRC_INT_ATTR_COUNT_TOO_SMALL = 2022
MQRC_CHAR_ATTR_LENGTH_ERROR = 2006
MQRC_CHAR_ATTRS_TOO_SHORT = 2008
MQRC_BUFFER_LENGTH_ERROR = 2005
MQRC_STORAGE_NOT_AVAILABLE = 2071
MQHO_NONE, MQHO_UNUSABLE_HOBJ, MQHM_UNUSABLE_HMSG = 0, -1, -1
_NO_HMSG, _UNUSABLE_HMSG = bytes(8), MQHM_UNUSABLE_HMSG.to_bytes(8, "little", signed=True)
MAX_SELECTORS = 256  # MQINQ and MQSET take at most 256 selectors (MQRC_SELECTOR_COUNT_ERROR)
MQIA_FIRST, MQIA_LAST = 1, 2000
MQOT_TOPIC = 8


@dataclass(frozen=True)
class Budgets:
    """What one socket may cost the listener (``mqconf emulator --listen`` options; docs/emulator.md)."""

    max_connections: int = 256  # sockets at once, handshaking or connected (more are closed on accept)
    handshake_seconds: float = 10.0  # HELLO and CONNX must both have arrived within this time
    handshake_frame: int = protocol.HANDSHAKE_FRAME  # the longest frame before CONNX succeeds
    max_frame: int = protocol.MAX_FRAME  # the longest frame after
    idle_seconds: float = 0.0  # a connected socket silent this long is ended (0: never, as DISCINT(0))
    # bytes of frames longer than a socket's 64 KiB buffer held at once by all sockets together (1 GiB: ten of
    # MQ's largest messages); a frame past it is read through and dropped, its call MQRC_STORAGE_NOT_AVAILABLE
    memory: int = 1 << 30


class Session:
    """One application connection: its queue manager, its handles, and the sockets that serve it (the one that
    connected and those ATTACHed to it). Clause: emulator.listener-handles (a handle is the session's own)."""

    def __init__(self, listener: Listener, emulator: Emulator, hconn: int):
        self.listener = listener
        self.emulator = emulator
        self.hconn = hconn
        self.token = secrets.token_bytes(protocol.TOKEN_BYTES)
        self.hobjs: set[int] = set()
        self.hsubs: set[int] = set()
        self.hmsgs: set[int] = set()
        self.sockets: list[socket.socket] = []  # the attached ones
        self.cancel_pending = False
        self.ended = False
        self.lock = threading.Lock()

    def end(self) -> None:
        """The session is over: its other sockets close, its waits end, its work is backed out, it is gone.
        Clause: emulator.listener-session-end."""
        with self.lock:
            if self.ended:
                return
            self.ended = True
            attached = list(self.sockets)
        self.listener.forget(self)
        for sock in attached:
            _shut(sock)
        self.emulator.wake()
        if self.hconn != MQHC_UNUSABLE_HCONN:
            try:
                self.emulator.abandon(self.hconn)
            finally:
                native.disconnected(self.hconn)


def _shut(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass


def _gone(sock: socket.socket) -> bool:
    """Whether the peer of ``sock`` has closed it (readable with nothing to read), without blocking or reading."""
    try:
        poller = select.poll()  # not select(): no limit on the descriptor's number
        poller.register(sock, select.POLLIN)
        if not poller.poll(0):
            return False
        return sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
    except BlockingIOError:
        return False
    except (OSError, ValueError):
        return True


def _field(shape: protocol.Shape, raw: bytes, name: str) -> int:
    """An MQLONG field of a structure made whole by ``shape``."""
    return int.from_bytes(raw[shape.offsets[name]:shape.offsets[name] + 4], "little", signed=True)


def _text(raw: bytes) -> str:
    return raw.split(b"\0", 1)[0].decode("utf-8", "replace").strip()


def _strings(**items: bytes) -> dict[str, str]:
    """The strings a structure points to, sent by value (the empty ones left out)."""
    return {name: raw.decode("utf-8", "replace") for name, raw in items.items() if raw}


def _int_array(raw: bytes) -> list[int]:
    if len(raw) % 4:
        raise ProtocolError("an i32 array whose length is not a multiple of 4")
    return list(memoryview(raw).cast("i")) if raw else []


def _array(values: Sequence[int]) -> bytes:
    import array

    return array.array("i", values).tobytes()


# What each verb returns when it fails before it runs (a foreign handle): its outputs as they came.
_UNCHANGED: dict[int, Callable[[list], list]] = {
    Verb.DISC: lambda i: [],
    Verb.OPEN: lambda i: [i[1], MQHO_UNUSABLE_HOBJ, b""],
    Verb.CLOSE: lambda i: [i[1]],
    Verb.PUT: lambda i: [i[2], i[3]],
    Verb.PUT1: lambda i: [i[1], i[4], i[5]],
    Verb.GET: lambda i: [i[2], i[3], b"", 0],
    Verb.INQ: lambda i: [b"", b""],
    Verb.SET: lambda i: [],
    Verb.BEGIN: lambda i: [],
    Verb.CMIT: lambda i: [],
    Verb.BACK: lambda i: [],
    Verb.CRTMH: lambda i: [MQHM_UNUSABLE_HMSG],
    Verb.DLTMH: lambda i: [i[1]],
    Verb.SETMP: lambda i: [i[4]],
    Verb.INQMP: lambda i: [i[2], b"", i[4], i[5], b"", 0],
    Verb.DLTMP: lambda i: [],
    Verb.SUB: lambda i: [i[1], i[2], MQHO_UNUSABLE_HOBJ, b""],
    Verb.SUBRQ: lambda i: [i[3]],
    Verb.STAT: lambda i: [i[2], b"", b""],
    Verb.CANCEL: lambda i: [],
}


class Refused(Exception):
    """A call refused before it runs: CompCode MQCC_FAILED and ``reason``, the outputs unchanged."""

    def __init__(self, reason: int):
        super().__init__(reason)
        self.reason = reason


class _Socket:
    """One socket of the listener: the handshake, then the calls of its session."""

    def __init__(self, listener: Listener, sock: socket.socket, peer: str):
        self.listener = listener
        self.sock = sock
        self.peer = peer
        self.reader = protocol.Reader(sock)
        self.reader.budget = listener.memory
        self.session: Session | None = None
        self.attached = False

    # -- the socket's life ----------------------------------------------------------------------------------
    def serve(self) -> None:
        budgets = self.listener.budgets
        try:
            self.reader.deadline = time.monotonic() + budgets.handshake_seconds
            if not self._handshake():
                return
            self.reader.deadline = None
            self.reader.idle = budgets.idle_seconds or None
            handlers = self.listener.handlers
            while True:
                try:
                    verb, tag, body = self.reader.read(budgets.max_frame)
                except protocol.OverBudget as over:
                    self._over_budget(over)
                    continue
                handler = handlers.get(verb)
                if handler is None or verb in (Verb.HELLO, Verb.ATTACH):
                    raise ProtocolError(f"verb {verb} out of order")
                if self.session is None or self.session.ended:
                    return
                if verb == Verb.CONNX:
                    self._connect_again(tag, body)
                    continue
                items = protocol.decode_request(verb, body)
                self.sock.sendall(protocol.reply(verb, tag, *self._run(verb, handler, items)))
        except ProtocolError as exc:
            LOG.debug("a session ended: %s", exc)
        except OSError as exc:
            LOG.debug("a session's socket failed: %s", exc)
        except Exception as exc:  # noqa: BLE001 - a defect ends this session, never the listener
            LOG.warning("a session ended on an unexpected %s: %s", type(exc).__name__, exc)
        finally:
            self.reader.release()
            self.listener.release(self)
            session = self.session
            if session is not None and not self.attached:
                session.end()
            elif session is not None:
                with session.lock:
                    if self.sock in session.sockets:
                        session.sockets.remove(self.sock)
            try:
                self.sock.close()
            except OSError:
                pass

    def _over_budget(self, over: protocol.OverBudget) -> None:
        """A long frame the listener's memory budget could not hold, read through and dropped: its call is
        MQRC_STORAGE_NOT_AVAILABLE with the outputs unchanged when everything but its long last item (message
        data, a property value) was in the part kept; otherwise the session ends. One log line either way."""
        memory = self.listener.memory
        items = None
        if over.verb in _UNCHANGED and over.verb != Verb.CONNX and self.session is not None:
            items = protocol.decode_all_but_last(protocol.REQUEST[over.verb], over.prefix)
        if items is None:
            LOG.warning("a session ended: a frame of %d bytes over the memory budget (%d of %d bytes held)",
                        over.length, memory.used, memory.limit)
            raise ProtocolError("a long frame over the memory budget")
        LOG.warning("MQRC_STORAGE_NOT_AVAILABLE (2071): %s of %d bytes over the memory budget (%d of %d bytes "
                    "held)", Verb(over.verb).name, over.length, memory.used, memory.limit)
        self.sock.sendall(protocol.reply(over.verb, over.tag, MQCC_FAILED, MQRC_STORAGE_NOT_AVAILABLE,
                                         *_UNCHANGED[over.verb](items)))

    def _run(self, verb: int, handler: Callable, items: list) -> list:
        session = self.session
        assert session is not None
        try:
            if items[0] != session.hconn:
                raise Refused(MQRC_HCONN_ERROR)
            return handler(self, session, items)
        except Refused as refused:
            return [MQCC_FAILED, refused.reason, *_UNCHANGED[verb](items)]
        except ProtocolError:
            raise
        except Exception as exc:  # noqa: BLE001 - one call's failure is that call's, the session goes on
            LOG.warning("MQRC_UNEXPECTED_ERROR (2195): %s of a session: %s: %s", Verb(verb).name,
                        type(exc).__name__, exc)
            return [MQCC_FAILED, MQRC_UNEXPECTED_ERROR, *_UNCHANGED[verb](items)]

    def _handshake(self) -> bool:
        """HELLO, then CONNX (or ATTACH to a session): True when this socket now serves a session."""
        limit = self.listener.budgets.handshake_frame
        verb, tag, body = self.reader.read(limit)
        if verb != Verb.HELLO:
            raise ProtocolError("the first frame is not HELLO")
        magic, lowest, highest = protocol.decode_items(protocol.REQUEST[Verb.HELLO], body)
        if magic != protocol.MAGIC:
            raise ProtocolError("not this protocol")
        if not lowest <= protocol.VERSION <= highest:
            self.sock.sendall(protocol.reply(Verb.HELLO, tag, MQCC_FAILED, native.MQRC_Q_MGR_NOT_AVAILABLE, 0))
            return False
        self.sock.sendall(protocol.reply(Verb.HELLO, tag, MQCC_OK, 0, protocol.VERSION))
        verb, tag, body = self.reader.read(limit)
        if verb == Verb.ATTACH:
            (token,) = protocol.decode_items(protocol.REQUEST[Verb.ATTACH], body)
            session = self.listener.session_of(token)
            if session is None:
                self.sock.sendall(protocol.reply(Verb.ATTACH, tag, MQCC_FAILED, MQRC_HCONN_ERROR))
                return False
            with session.lock:
                if session.ended:
                    return False
                session.sockets.append(self.sock)
            self.session, self.attached = session, True
            self.sock.sendall(protocol.reply(Verb.ATTACH, tag, MQCC_OK, 0))
            return True
        if verb != Verb.CONNX:
            raise ProtocolError("the second frame is neither CONNX nor ATTACH")
        items = protocol.decode_items(protocol.REQUEST[Verb.CONNX], body)
        hconn, comp, reason, emulator = self.listener.connect(items, self.peer)
        if comp == MQCC_FAILED or emulator is None:
            self.sock.sendall(protocol.reply(Verb.CONNX, tag, comp, reason, MQHC_UNUSABLE_HCONN, b""))
            return False
        self.session = self.listener.register(Session(self.listener, emulator, hconn))
        self.sock.sendall(protocol.reply(Verb.CONNX, tag, comp, reason, hconn, self.session.token))
        return True

    def _connect_again(self, tag: int, body: Any) -> None:
        """CONNX on a connected session: MQRC_ALREADY_CONNECTED with its handle, as a second MQCONN of a thread."""
        protocol.decode_items(protocol.REQUEST[Verb.CONNX], body)
        session = self.session
        assert session is not None
        self.sock.sendall(protocol.reply(Verb.CONNX, tag, MQCC_WARNING, MQRC_ALREADY_CONNECTED, session.hconn,
                                         session.token))

    # -- the verbs ------------------------------------------------------------------------------------------
    def disc(self, session: Session, items: list) -> list:
        comp, reason = native.MQDISC(session.hconn)
        if comp != MQCC_FAILED:
            native.disconnected(session.hconn)
            session.hconn = MQHC_UNUSABLE_HCONN
        return [comp, reason]

    def open(self, session: Session, items: list) -> list:
        _hconn, od_raw, options, object_string, selection_string, _size = items
        od = protocol.shape("OD")
        whole, length, tail = od.whole(od_raw)
        hobj, od_out, comp, reason = native.MQOPEN(
            session.hconn, whole, options, _strings(ObjectString=object_string, SelectionString=selection_string))
        resolved = b""
        if comp != MQCC_FAILED:
            with session.lock:
                session.hobjs.add(hobj)
            if _field(od, whole, "ObjectType") == MQOT_TOPIC:
                resolved = self._resolved(session, od, whole, object_string)
        return [comp, reason, od.back(od_out, length, tail), hobj, resolved]

    @staticmethod
    def _resolved(session: Session, shape: protocol.Shape, raw: bytes, object_string: bytes) -> bytes:
        """ResObjectString: the full topic string an MQOD or MQSD names (its ObjectName's topic object, then its
        ObjectString)."""
        at = shape.offsets["ObjectName"]
        name = _text(raw[at:at + 48])
        return session.emulator.resolved_topic(session.hconn, name, object_string.decode("utf-8", "replace")).encode(
            "utf-8")

    def close(self, session: Session, items: list) -> list:
        _hconn, hobj, options = items
        if hobj not in session.hobjs and hobj not in session.hsubs:
            raise Refused(MQRC_HOBJ_ERROR)
        comp, reason = native.MQCLOSE(session.hconn, hobj, options)
        if comp != MQCC_FAILED:
            with session.lock:
                session.hobjs.discard(hobj)
                session.hsubs.discard(hobj)
            hobj = MQHO_UNUSABLE_HOBJ
        return [comp, reason, hobj]

    @staticmethod
    def _hmsgs(session: Session, shape: protocol.Shape, raw: bytes) -> bytes:
        """The structure (made whole) with each message handle it names that is not the session's made unusable
        (the model then refuses it as the handle it is)."""
        for at in shape.message_handles:
            if raw[at:at + 8] == _NO_HMSG:  # most calls name none
                continue
            hmsg = int.from_bytes(raw[at:at + 8], "little", signed=True)
            if hmsg not in session.hmsgs:
                raw = raw[:at] + _UNUSABLE_HMSG + raw[at + 8:]
        return raw

    def put(self, session: Session, items: list) -> list:
        _hconn, hobj, md_raw, pmo_raw, data = items
        if hobj not in session.hobjs:
            raise Refused(MQRC_HOBJ_ERROR)
        md_shape, pmo_shape = protocol.shape("MD"), protocol.shape("PMO")
        md, md_length, md_tail = md_shape.whole(md_raw)
        pmo, pmo_length, pmo_tail = pmo_shape.whole(pmo_raw)
        pmo = self._hmsgs(session, pmo_shape, pmo)
        md_out, pmo_out, comp, reason = native.MQPUT(session.hconn, hobj, md, pmo, data)
        return [comp, reason, md_shape.back(md_out, md_length, md_tail), pmo_shape.back(pmo_out, pmo_length, pmo_tail)]

    def put1(self, session: Session, items: list) -> list:
        _hconn, od_raw, object_string, selection_string, md_raw, pmo_raw, data = items
        shapes = protocol.shape("OD"), protocol.shape("MD"), protocol.shape("PMO")
        od, md, pmo = (shape.whole(raw) for shape, raw in zip(shapes, (od_raw, md_raw, pmo_raw)))
        pmo_whole = self._hmsgs(session, shapes[2], pmo[0])
        md_out, pmo_out, comp, reason = native.MQPUT1(
            session.hconn, od[0], md[0], pmo_whole, data,
            _strings(ObjectString=object_string, SelectionString=selection_string))
        return [comp, reason, shapes[0].back(od[0], *od[1:]), shapes[1].back(md_out, *md[1:]),
                shapes[2].back(pmo_out, *pmo[1:])]

    def get(self, session: Session, items: list) -> list:
        _hconn, hobj, md_raw, gmo_raw, buffer_length = items
        if hobj not in session.hobjs:
            raise Refused(MQRC_HOBJ_ERROR)
        if not 0 <= buffer_length <= protocol.MAX_MESSAGE:
            raise Refused(MQRC_BUFFER_LENGTH_ERROR)
        md_shape, gmo_shape = protocol.shape("MD"), protocol.shape("GMO")
        md, md_length, md_tail = md_shape.whole(md_raw)
        gmo, gmo_length, gmo_tail = gmo_shape.whole(gmo_raw)
        gmo = self._hmsgs(session, gmo_shape, gmo)
        sock = self.sock

        def cancel() -> int:
            """Why this get's wait must end now (0: it need not)."""
            if session.ended:
                return MQRC_CONNECTION_BROKEN
            if session.cancel_pending:
                session.cancel_pending = False
                return MQRC_CALL_INTERRUPTED
            return MQRC_CONNECTION_BROKEN if _gone(sock) else 0

        data, md_out, gmo_out, data_length, comp, reason = native.MQGET(session.hconn, hobj, md, gmo,
                                                                         buffer_length, cancel)
        return [comp, reason, md_shape.back(md_out, md_length, md_tail), gmo_shape.back(gmo_out, gmo_length, gmo_tail),
                data, data_length]

    @staticmethod
    def _selectors(session: Session, hobj: int, raw: bytes) -> list[int]:
        """MQINQ's and MQSET's object handle checked and selectors read."""
        if hobj not in session.hobjs:
            raise Refused(MQRC_HOBJ_ERROR)
        selectors = _int_array(raw)
        if len(selectors) > MAX_SELECTORS:
            raise Refused(MQRC_SELECTOR_COUNT_ERROR)
        return selectors

    def inq(self, session: Session, items: list) -> list:
        _hconn, hobj, selectors_raw, int_count, char_length = items
        selectors = self._selectors(session, hobj, selectors_raw)
        if int_count < 0:
            raise Refused(MQRC_INT_ATTR_COUNT_ERROR)
        if char_length < 0:
            raise Refused(MQRC_CHAR_ATTR_LENGTH_ERROR)
        ints_wanted = sum(1 for s in selectors if MQIA_FIRST <= s <= MQIA_LAST)
        char_selectors = [s for s in selectors if not MQIA_FIRST <= s <= MQIA_LAST]
        needed = sum(char_length_of(s) for s in char_selectors)  # never more than the attributes' own length
        ints, chars, comp, reason = native.MQINQ(session.hconn, hobj, selectors, [], ints_wanted,
                                                 len(char_selectors), min(char_length, needed))
        if comp == MQCC_FAILED:
            return [comp, reason, b"", b""]
        if len(ints) > int_count or needed > char_length:
            if comp == MQCC_OK:
                comp, reason = MQCC_WARNING, (MQRC_INT_ATTR_COUNT_TOO_SMALL if len(ints) > int_count
                                              else MQRC_CHAR_ATTRS_TOO_SHORT)
        return [comp, reason, _array(ints[:int_count]), bytes(chars)]

    def set(self, session: Session, items: list) -> list:
        _hconn, hobj, selectors_raw, ints_raw, chars = items
        selectors = self._selectors(session, hobj, selectors_raw)
        return list(native.MQSET(session.hconn, hobj, selectors, _int_array(ints_raw), chars))

    def begin(self, session: Session, items: list) -> list:
        return list(native.MQBEGIN(session.hconn))

    def cmit(self, session: Session, items: list) -> list:
        return list(native.MQCMIT(session.hconn))

    def back(self, session: Session, items: list) -> list:
        return list(native.MQBACK(session.hconn))

    def crtmh(self, session: Session, items: list) -> list:
        hmsg, comp, reason = native.MQCRTMH(session.hconn, protocol.shape("CMHO").whole(items[1])[0])
        if comp != MQCC_FAILED:
            with session.lock:
                session.hmsgs.add(hmsg)
        return [comp, reason, hmsg]

    def _own_hmsg(self, session: Session, hmsg: int) -> None:
        if hmsg not in session.hmsgs:
            raise Refused(MQRC_HMSG_ERROR)

    def dltmh(self, session: Session, items: list) -> list:
        _hconn, hmsg, dmho = items
        self._own_hmsg(session, hmsg)
        comp, reason = native.MQDLTMH(session.hconn, hmsg, protocol.shape("DMHO").whole(dmho)[0])
        if comp != MQCC_FAILED:
            with session.lock:
                session.hmsgs.discard(hmsg)
            hmsg = MQHM_UNUSABLE_HMSG
        return [comp, reason, hmsg]

    def setmp(self, session: Session, items: list) -> list:
        _hconn, hmsg, smpo, name, pd, type_number, raw = items
        self._own_hmsg(session, hmsg)
        type_name = name_of(type_number, "MQTYPE")
        try:
            value = protocol.value_of(type_name, raw)
        except ValueError:
            raise Refused(MQRC_BUFFER_LENGTH_ERROR) from None
        comp, reason = native.MQSETMP(session.hconn, hmsg, protocol.shape("SMPO").whole(smpo)[0], name,
                                      protocol.shape("PD").whole(pd)[0], type_number, value, len(raw))
        return [comp, reason, pd]

    def inqmp(self, session: Session, items: list) -> list:
        _hconn, hmsg, impo, name, pd, type_number, value_length, _name_size = items
        self._own_hmsg(session, hmsg)
        value, data_length, returned, type_name, comp, reason = handles.inqmp_typed(
            session.emulator, session.hconn, hmsg, protocol.shape("IMPO").whole(impo)[0], name,
            protocol.shape("PD").whole(pd)[0], type_number, max(value_length, 0))
        raw = b"" if comp == MQCC_FAILED else protocol.value_bytes(type_name, value)
        returned_type = VALUES.get(type_name, type_number) if type_name else type_number
        return [comp, reason, impo, str(returned or "").encode("utf-8"), pd, returned_type, raw, data_length]

    def dltmp(self, session: Session, items: list) -> list:
        _hconn, hmsg, dmpo, name = items
        self._own_hmsg(session, hmsg)
        return list(native.MQDLTMP(session.hconn, hmsg, protocol.shape("DMPO").whole(dmpo)[0], name))

    def sub(self, session: Session, items: list) -> list:
        _hconn, sd_raw, hobj, object_string, sub_name, selection_string, user_data, _size = items
        if hobj not in (MQHO_NONE, MQHO_UNUSABLE_HOBJ) and hobj not in session.hobjs:
            raise Refused(MQRC_HOBJ_ERROR)
        sd_shape = protocol.shape("SD")
        sd, length, tail = sd_shape.whole(sd_raw)
        sd_out, hobj_out, hsub, comp, reason = native.MQSUB(
            session.hconn, sd, hobj, _strings(ObjectString=object_string, SubName=sub_name,
                                              SelectionString=selection_string, SubUserData=user_data))
        resolved = b""
        if comp != MQCC_FAILED:
            with session.lock:
                session.hsubs.add(hsub)
                if hobj_out not in (MQHO_NONE, MQHO_UNUSABLE_HOBJ):
                    session.hobjs.add(hobj_out)
            resolved = self._resolved(session, sd_shape, sd, object_string)
        return [comp, reason, sd_shape.back(sd_out, length, tail), hobj_out, hsub, resolved]

    def subrq(self, session: Session, items: list) -> list:
        _hconn, hsub, action, sro_raw = items
        if hsub not in session.hsubs:
            raise Refused(MQRC_HOBJ_ERROR)
        sro_shape = protocol.shape("SRO")
        sro, length, tail = sro_shape.whole(sro_raw)
        sro_out, comp, reason = native.MQSUBRQ(session.hconn, hsub, action, sro)
        return [comp, reason, sro_shape.back(sro_out, length, tail)]

    def stat(self, session: Session, items: list) -> list:
        _hconn, status_type, sts_raw = items
        sts_shape = protocol.shape("STS")
        sts, length, tail = sts_shape.whole(sts_raw)
        sts_out, comp, reason = native.MQSTAT(session.hconn, status_type, sts)
        # MQSTS version 2's strings, as IBM's MQSTS page gives them for MQSTAT_TYPE_ASYNC_ERROR: ObjectString the
        # long name of the queue or topic of the first failing put (the model records its name), SubName empty
        at = sts_shape.offsets["ObjectName"]
        object_string = bytes(sts_out[at:at + 48]).rstrip(b" \0") if comp == MQCC_OK else b""
        return [comp, reason, sts_shape.back(sts_out, length, tail), object_string, b""]

    def cancel(self, session: Session, items: list) -> list:
        session.cancel_pending = True
        session.emulator.wake()
        return [MQCC_OK, 0]


_HANDLERS: dict[int, Callable] = {
    Verb.DISC: _Socket.disc, Verb.OPEN: _Socket.open, Verb.CLOSE: _Socket.close, Verb.PUT: _Socket.put,
    Verb.PUT1: _Socket.put1, Verb.GET: _Socket.get, Verb.INQ: _Socket.inq, Verb.SET: _Socket.set,
    Verb.BEGIN: _Socket.begin, Verb.CMIT: _Socket.cmit, Verb.BACK: _Socket.back, Verb.CRTMH: _Socket.crtmh,
    Verb.DLTMH: _Socket.dltmh, Verb.SETMP: _Socket.setmp, Verb.INQMP: _Socket.inqmp, Verb.DLTMP: _Socket.dltmp,
    Verb.SUB: _Socket.sub, Verb.SUBRQ: _Socket.subrq, Verb.STAT: _Socket.stat, Verb.CANCEL: _Socket.cancel,
    Verb.CONNX: _Socket._connect_again, Verb.HELLO: None, Verb.ATTACH: None,  # handled in the handshake
}


class ListenError(ValueError):
    """The listener cannot start here (an address in use, a path that is not ours to replace...): one line."""


def _loopback(host: str) -> bool:
    if host in ("localhost", "ip6-localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _unix_socket(path: str) -> socket.socket:
    """A listening socket at ``path``: an existing file that is not a socket, or a socket an emulator still
    listens on, is refused; a socket nobody listens on (left by an emulator that died) is replaced."""
    try:
        found = os.lstat(path)
    except FileNotFoundError:
        found = None
    if found is not None:
        if not stat.S_ISSOCK(found.st_mode):
            raise ListenError(f"{path} exists and is not a socket: not replaced (remove it or choose another path)")
        probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            probe.settimeout(2)
            probe.connect(path)
        except (ConnectionRefusedError, FileNotFoundError):
            os.unlink(path)  # stale: its listener is gone
        except OSError as exc:
            raise ListenError(f"{path}: cannot tell whether a listener is there ({exc}): not replaced") from None
        else:
            raise ListenError(f"{path}: another emulator is listening there: not replaced")
        finally:
            probe.close()
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.bind(path)  # fails if anything appeared at the path meanwhile: never replaced silently
    except OSError as exc:
        sock.close()
        raise ListenError(f"cannot listen at {path}: {exc.strerror or exc}") from None
    return sock


class Listener:
    """Emulated queue managers listening at ``address`` (``host:port``, ``host(port)`` or ``unix:/path``).

    ``emulators``: one :class:`Emulator` or several (CONNX chooses by name; the first is the default).
    ``users``: name -> password; with any, a connect naming a user must give that user's password, and a user
    not listed, or an empty password, is MQRC_NOT_AUTHORIZED (2035). ``require_user``: the channels ("*": all)
    on which a connect must give a user. A TCP address other than loopback needs ``users`` (:class:`ListenError`).
    """

    def __init__(self, address: str, emulators: Emulator | Sequence[Emulator],
                 users: Mapping[str, str] | None = None, require_user: tuple[str, ...] = (),
                 budgets: Budgets | None = None):
        self.emulators = [emulators] if isinstance(emulators, Emulator) else list(emulators)
        if not self.emulators:
            raise ListenError("a listener needs at least one queue manager")
        self.emulator = self.emulators[0]
        self.users = dict(users or {})
        self.require_user = {name.upper() for name in require_user}
        self.budgets = budgets or Budgets()
        self.memory = protocol.MemoryBudget(self.budgets.memory)
        self.handlers = _HANDLERS
        self._lock = threading.Lock()
        self._sockets: set[_Socket] = set()
        self._sessions: dict[bytes, Session] = {}
        self._closed = False
        self._warned_full = 0.0
        kind, where = protocol.parse_address(address)
        self._path: str | None = None
        if kind == "unix":
            self._sock = _unix_socket(where)
            self._path = where
            self._inode = os.stat(where).st_ino
            self.address = address
        else:
            host, port = where
            if not _loopback(host) and not self.users:
                raise ListenError(f"{host}:{port} is reachable from other machines: give --user NAME:PASSWORD (and "
                                  f"--require-user '*') or listen on localhost")
            family = socket.AF_INET6 if ":" in host else socket.AF_INET
            try:
                self._sock = socket.create_server((host, port), family=family, backlog=128)
            except OSError as exc:
                raise ListenError(f"cannot listen at {host}:{port}: {exc.strerror or exc}") from None
            self.address = f"{host}({self._sock.getsockname()[1]})"
            if not _loopback(host) and not ("*" in self.require_user):
                LOG.warning("listening at %s for other machines: a connect without a user is still admitted; "
                            "--require-user '*' refuses it", self.address)
        if kind == "unix":
            self._sock.listen(128)
        self._sock.settimeout(0.5)  # the accept loop looks at _closed this often
        for emulator in reversed(self.emulators):  # the first last: an in-process MQCONN reaches the default one
            native.activate(emulator)
        self._thread: threading.Thread | None = None
        from .channels import ChannelAgent

        self.channels = ChannelAgent(self.emulators)  # distributed queuing between them, from start to close

    # -- sessions -------------------------------------------------------------------------------------------
    def authorized(self, user: str, password: str, channel: str) -> bool:
        """Whether a connect with this user (empty: none given) and password may proceed on ``channel``."""
        if user:
            if not password:
                LOG.warning("MQRC_NOT_AUTHORIZED (2035): user %r gave no password", user)
                return False
            if self.users and self.users.get(user) != password:
                LOG.warning("MQRC_NOT_AUTHORIZED (2035): user %r gave a wrong password or is not known", user)
                return False
            return True
        if "*" in self.require_user or channel.upper() in self.require_user:
            LOG.warning("MQRC_NOT_AUTHORIZED (2035): channel %r needs a user and password", channel)
            return False
        return True

    def queue_manager(self, name: bytes) -> Emulator | None:
        """The queue manager CONNX's QMgrName names: blank or a ``*group`` the first, else by name."""
        text = _text(name)
        if not text or text.startswith("*"):
            return self.emulators[0]
        return next((e for e in self.emulators if e.name == text), None)

    def connect(self, items: list, peer: str) -> tuple[int, int, int, Emulator | None]:
        """CONNX: ``(Hconn, CompCode, Reason, the queue manager connected to)``."""
        qmgr, _cno, user_raw, password_raw, channel_raw, appl_raw, process_user = items
        user, channel = _text(user_raw), _text(channel_raw)
        if not self.authorized(user, password_raw.decode("utf-8", "replace"), channel):
            return MQHC_UNUSABLE_HCONN, MQCC_FAILED, MQRC_NOT_AUTHORIZED, None
        emulator = self.queue_manager(qmgr)
        if emulator is None:
            return MQHC_UNUSABLE_HCONN, MQCC_FAILED, MQRC_Q_MGR_NAME_ERROR, None
        hconn, comp, reason = native.connect_as(b"", user=user or _text(process_user), appl=_text(appl_raw),
                                                emulator=emulator, channel=channel.upper(), conname=peer)
        if comp == MQCC_FAILED:
            return hconn, comp, reason, None
        emulator.describe_connection(hconn, channel.upper(), peer)
        return hconn, comp, reason, emulator

    def register(self, session: Session) -> Session:
        with self._lock:
            self._sessions[session.token] = session
        return session

    def session_of(self, token: bytes) -> Session | None:
        with self._lock:
            return self._sessions.get(token) if len(token) == protocol.TOKEN_BYTES else None

    def forget(self, session: Session) -> None:
        with self._lock:
            self._sessions.pop(session.token, None)

    def release(self, connection: _Socket) -> None:
        with self._lock:
            self._sockets.discard(connection)

    # -- serving --------------------------------------------------------------------------------------------
    def _accept(self) -> None:
        while not self._closed:
            try:
                sock, address = self._sock.accept()
            except TimeoutError:
                continue
            except OSError:
                if self._closed:
                    return
                time.sleep(0.05)  # out of descriptors: let some close
                continue
            peer = str(address[0]) if isinstance(address, tuple) and address else "localhost"
            with self._lock:
                full = len(self._sockets) >= self.budgets.max_connections
                if not full:
                    connection = _Socket(self, sock, peer)
                    self._sockets.add(connection)
            if full:
                sock.close()
                now = time.monotonic()
                if now - self._warned_full > 10:
                    self._warned_full = now
                    LOG.warning("%d connections at once: further sockets are closed (--max-connections)",
                                self.budgets.max_connections)
                continue
            if sock.family != socket.AF_UNIX:
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            threading.Thread(target=connection.serve, name="mq-emulator-session", daemon=True).start()

    def start(self) -> Listener:
        """Serve in a background thread (tests); :meth:`serve_forever` serves in this one."""
        self._thread = threading.Thread(target=self._accept, name="mq-emulator", daemon=True)
        self.channels.start()
        self._thread.start()
        return self

    def serve_forever(self) -> None:
        self.channels.start()
        self._accept()

    def close(self) -> None:
        """Stop listening and end every session (their work backed out), and the channels between them."""
        self._closed = True
        self.channels.close()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)
        try:
            self._sock.close()
        except OSError:
            pass
        with self._lock:
            sockets = [connection.sock for connection in self._sockets]
        for sock in sockets:
            _shut(sock)
        if self._path is not None:
            try:
                if os.stat(self._path).st_ino == self._inode:
                    os.unlink(self._path)
            except OSError:
                pass
        for emulator in self.emulators:
            native.deactivate(emulator)

