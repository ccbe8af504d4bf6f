"""The session protocol between a client and ``mqconf emulator --listen`` (docs/emulator.md, "The session
protocol"): binary frames of MQI verbs, spoken by the listener (emulator/server.py), the Python client
(emulator/remote.py) and the C library.

A frame is ``u32 length`` (of what follows), ``u16 verb``, ``u16 flags`` (0), ``u32 tag``, then the verb's items
in a fixed order: ``i32``, ``i64`` or ``bytes`` (``u32 length`` and the bytes); all little-endian. A reply has the
request's verb and tag, then ``i32 CompCode``, ``i32 Reason`` and the verb's outputs. Nothing in an item is ever
read as an address: the strings a structure points to travel as items of their own.

This module is only the codec (frames, items, the verbs' item lists, structures of any version made whole and
cut back, property values): what a verb does is the server's; where a client connects, the client's.
"""

from __future__ import annotations

import socket
import struct
import threading
import time
from collections.abc import Sequence
from enum import IntEnum
from typing import Any

MAGIC = b"MQCONF-SESSION"
VERSION = 1  # the only version so far: HELLO offers a range and the server picks
HEADER = struct.Struct("<IHHI")  # length of what follows, verb, flags, tag
HEADER_BODY = HEADER.size - 4  # the part of a frame's length that is its header
_I32, _I64, _U32 = struct.Struct("<i"), struct.Struct("<q"), struct.Struct("<I")
KIB = 1024
HANDSHAKE_FRAME = 64 * KIB  # a frame before CONNX succeeds is at most this long
MAX_MESSAGE = 104_857_600  # MQ's largest message (100 MB)
MAX_FRAME = MAX_MESSAGE + 64 * KIB  # a frame after CONNX: a message and its structures
TOKEN_BYTES = 16


class Verb(IntEnum):
    """The requests of the protocol (docs/emulator.md lists each one's items)."""

    HELLO = 1
    CONNX = 2
    ATTACH = 3
    DISC = 4
    OPEN = 5
    CLOSE = 6
    PUT = 7
    PUT1 = 8
    GET = 9
    INQ = 10
    SET = 11
    BEGIN = 12
    CMIT = 13
    BACK = 14
    CRTMH = 15
    DLTMH = 16
    SETMP = 17
    INQMP = 18
    DLTMP = 19
    SUB = 20
    SUBRQ = 21
    STAT = 22
    CANCEL = 23


# The items of each verb: i = i32, q = i64, b = bytes; after "/" the ones a sender may leave off (the receiver
# reads them as 0 or empty). A reply's items follow its CompCode and Reason.
REQUEST: dict[int, str] = {
    Verb.HELLO: "bii",  # magic, lowest version, highest version
    Verb.CONNX: "bbbbbb/b",  # QMgrName, MQCNO, user, password, channel, ApplName / the process's own user
    Verb.ATTACH: "b",  # session token
    Verb.DISC: "i",  # Hconn
    Verb.OPEN: "ibibbi",  # Hconn, MQOD, Options, ObjectString, SelectionString, ResObjectString buffer size
    Verb.CLOSE: "iii",  # Hconn, Hobj, Options
    Verb.PUT: "iibbb",  # Hconn, Hobj, MQMD, MQPMO, data
    Verb.PUT1: "ibbbbbb",  # Hconn, MQOD, ObjectString, SelectionString, MQMD, MQPMO, data
    Verb.GET: "iibbi",  # Hconn, Hobj, MQMD, MQGMO, BufferLength
    Verb.INQ: "iibii",  # Hconn, Hobj, selectors, IntAttrCount, CharAttrLength
    Verb.SET: "iibbb",  # Hconn, Hobj, selectors, IntAttrs, CharAttrs
    Verb.BEGIN: "ib",  # Hconn, MQBO
    Verb.CMIT: "i",
    Verb.BACK: "i",
    Verb.CRTMH: "ib",  # Hconn, MQCMHO
    Verb.DLTMH: "iqb",  # Hconn, Hmsg, MQDMHO
    Verb.SETMP: "iqbbbib",  # Hconn, Hmsg, MQSMPO, Name, MQPD, Type, Value
    Verb.INQMP: "iqbbbiii",  # Hconn, Hmsg, MQIMPO, Name, MQPD, Type, ValueLength, ReturnedName buffer size
    Verb.DLTMP: "iqbb",  # Hconn, Hmsg, MQDMPO, Name
    Verb.SUB: "ibibbbbi",  # Hconn, MQSD, Hobj, ObjectString, SubName, SelectionString, SubUserData, ResObjectString size
    Verb.SUBRQ: "iiib",  # Hconn, Hsub, Action, MQSRO
    Verb.STAT: "iib",  # Hconn, Type, MQSTS
    Verb.CANCEL: "i",  # Hconn
}
REPLY: dict[int, str] = {
    Verb.HELLO: "i",  # chosen version
    Verb.CONNX: "ib",  # Hconn, session token
    Verb.ATTACH: "",
    Verb.DISC: "",
    Verb.OPEN: "bib",  # MQOD, Hobj, ResObjectString
    Verb.CLOSE: "i",  # Hobj
    Verb.PUT: "bb",  # MQMD, MQPMO
    Verb.PUT1: "bbb",  # MQOD, MQMD, MQPMO
    Verb.GET: "bbbi",  # MQMD, MQGMO, data, DataLength
    Verb.INQ: "bb",  # IntAttrs, CharAttrs
    Verb.SET: "",
    Verb.BEGIN: "",
    Verb.CMIT: "",
    Verb.BACK: "",
    Verb.CRTMH: "q",  # Hmsg
    Verb.DLTMH: "q",  # Hmsg
    Verb.SETMP: "b",  # MQPD
    Verb.INQMP: "bbbibi",  # MQIMPO, ReturnedName, MQPD, Type, Value, DataLength
    Verb.DLTMP: "",
    Verb.SUB: "biib",  # MQSD, Hobj, Hsub, ResObjectString
    Verb.SUBRQ: "b",  # MQSRO
    Verb.STAT: "bbb",  # MQSTS, ObjectString, SubName
    Verb.CANCEL: "",
}


class ProtocolError(Exception):
    """A frame this protocol does not allow (too long, unknown verb, items that do not parse), or the peer gone:
    the session ends."""


class OverBudget(Exception):
    """A frame longer than the reader's buffer that the listener's memory budget could not hold: it was read and
    dropped without being kept (the socket is at the next frame); ``prefix`` is the start of its body (at most the
    buffer's size), for the items before its long one."""

    def __init__(self, verb: int, tag: int, length: int, prefix: bytes):
        super().__init__(f"a frame of {length} bytes over the memory budget")
        self.verb, self.tag, self.length, self.prefix = verb, tag, length, prefix


class MemoryBudget:
    """Bytes of long frames (longer than a reader's buffer) held at once by every socket of a listener together:
    a frame is counted from before its buffer is allocated until the next frame of its socket is read."""

    def __init__(self, limit: int):
        self.limit = limit
        self.used = 0
        self._lock = threading.Lock()

    def take(self, count: int) -> bool:
        """Count ``count`` bytes more, unless that would pass the limit (then False, nothing counted)."""
        with self._lock:
            if self.used + count > self.limit:
                return False
            self.used += count
            return True

    def give(self, count: int) -> None:
        """``count`` bytes taken are no longer held."""
        with self._lock:
            self.used -= count


# -- where a listener is ---------------------------------------------------------------------------------------

def parse_address(text: str) -> tuple[str, Any]:
    """``("unix", path)`` or ``("tcp", (host, port))`` from ``unix:/path``, ``/path``, ``host:port``, ``host(port)``
    (MQ's CONNAME; the first of a comma-separated list) or ``port``. ValueError for anything else."""
    text = text.strip()
    if text.startswith("unix:"):
        return "unix", text[len("unix:"):]
    if text.startswith("/"):
        return "unix", text
    text = text.split(",")[0].strip()
    if text.endswith(")") and "(" in text:
        host, port = text[:-1].split("(", 1)
    elif ":" in text:
        host, port = text.rsplit(":", 1)
    else:
        host, port = "localhost", text
    try:
        number = int(port)
    except ValueError:
        raise ValueError(f"not an address: {text!r} (host(port), host:port or unix:/path)") from None
    return "tcp", (host.strip() or "localhost", number)


def connect(address: str, timeout: float | None = 5.0) -> socket.socket:
    """A socket connected to an emulator listening at ``address``; OSError when nothing listens there."""
    kind, where = parse_address(address)
    if kind == "unix":
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    else:
        sock = socket.socket(socket.AF_INET6 if ":" in where[0] else socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.settimeout(timeout)
    try:
        sock.connect(where)
    except OSError:
        sock.close()
        raise
    sock.settimeout(None)
    return sock


# -- items ------------------------------------------------------------------------------------------------------

def _compile(kinds: str) -> tuple[Any, Any]:
    """An encoder and a decoder for one item list, written out once (a call then costs a few ``struct`` calls
    rather than a loop over the items)."""
    required, _, optional = kinds.partition("/")
    names = [f"v{n}" for n in range(len(required + optional))]
    enc, fixed, fixed_args = [], "", []
    for name, kind in zip(names, required + optional):
        if kind == "b":
            fixed += "I"
            fixed_args.append(f"len({name})")
            enc.append(f"pack({'<' + fixed!r}, {', '.join(fixed_args)})")
            enc.append(name)
            fixed, fixed_args = "", []
        else:
            fixed += kind
            fixed_args.append(name)
    if fixed:
        enc.append(f"pack({'<' + fixed!r}, {', '.join(fixed_args)})")
    source = [f"def encode(values):\n    {', '.join(names)}{',' if len(names) == 1 else ''} = values\n"
              f"    return b''.join(({', '.join(enc)},))\n" if names else "def encode(values):\n    return b''\n"]
    dec = ["def decode(body, at, end):"]
    for index, (name, kind) in enumerate(zip(names, required + optional)):
        indent = "    "
        if index >= len(required):  # an optional item: absent when the frame ends before it
            dec.append(f"    if at == end:\n        {name} = {'b' + repr('') if kind == 'b' else 0}")
            dec.append("    else:")
            indent = "        "
        if kind == "b":
            dec.append(f"{indent}n = U32(body, at)[0]\n{indent}at += 4\n{indent}if at + n > end:\n"
                       f"{indent}    raise ProtocolError('an item runs past the end of its frame')\n"
                       f"{indent}{name} = bytes(body[at:at + n])\n{indent}at += n")
        else:
            size = 4 if kind == "i" else 8
            dec.append(f"{indent}{name} = {'I32' if kind == 'i' else 'I64'}(body, at)[0]\n{indent}at += {size}")
    dec.append(f"    if at != end:\n        raise ProtocolError('a frame has more than its verb\\'s items')")
    dec.append(f"    return [{', '.join(names)}]")
    space: dict[str, Any] = {"pack": struct.pack, "U32": _U32.unpack_from, "I32": _I32.unpack_from,
                             "I64": _I64.unpack_from, "ProtocolError": ProtocolError}
    exec(compile(source[0] + "\n".join(dec) + "\n", f"<items {kinds}>", "exec"), space)  # noqa: S102 - ours
    return space["encode"], space["decode"]


_CODECS: dict[str, tuple[Any, Any]] = {}


def _codec(kinds: str) -> tuple[Any, Any]:
    found = _CODECS.get(kinds)
    if found is None:
        found = _CODECS[kinds] = _compile(kinds)
    return found


def encode_items(kinds: str, values: Sequence[Any]) -> bytes:
    """The items ``values`` of the kinds ``kinds`` (i = i32, q = i64, b = bytes; after "/" the optional ones, all
    given here), concatenated."""
    return _codec(kinds)[0](values)


def decode_all_but_last(kinds: str, prefix: bytes) -> list[Any] | None:
    """The items of a frame's body of which only ``prefix`` was kept, when every item but the last is whole in
    it (the last, the long one, given as empty); None when not."""
    kinds = kinds.replace("/", "")
    items: list[Any] = []
    at = 0
    for kind in kinds[:-1]:
        size = 4 if kind in "ib" else 8
        if at + size > len(prefix):
            return None
        value = (_I32 if kind == "i" else _I64 if kind == "q" else _U32).unpack_from(prefix, at)[0]
        at += size
        if kind == "b":
            if at + value > len(prefix):
                return None
            value, at = bytes(prefix[at:at + value]), at + value
        items.append(value)
    return items + [b"" if kinds[-1:] == "b" else 0]


def decode_items(kinds: str, body: Any, start: int = 0) -> list[Any]:
    """The items of ``body`` from ``start``, of the kinds ``kinds``; :class:`ProtocolError` when they do not fit
    exactly. Items after a "/" may be missing (0 or empty)."""
    try:
        return _codec(kinds)[1](body, start, len(body))
    except struct.error:
        raise ProtocolError("a frame ends inside an item") from None


def frame(verb: int, tag: int, payload: bytes) -> bytes:
    """One frame: the header, then ``payload`` (encoded items)."""
    return HEADER.pack(HEADER_BODY + len(payload), verb, 0, tag) + payload


def request(verb: int, tag: int, *values: Any) -> bytes:
    """A request frame of ``verb`` with its items."""
    return frame(verb, tag, encode_items(REQUEST[verb], values))


def decode_request(verb: int, body: Any) -> list[Any]:
    """The items of a request of ``verb`` (:func:`decode_items` with the verb's kinds)."""
    return decode_items(REQUEST[verb], body)


_REPLY_KINDS = {verb: "ii" + kinds for verb, kinds in REPLY.items()}  # CompCode and Reason first


def reply(verb: int, tag: int, comp: int, reason: int, *values: Any) -> bytes:
    """A reply frame: CompCode, Reason, then the verb's outputs."""
    return frame(verb, tag, encode_items(_REPLY_KINDS[verb], (comp, reason, *values)))


# -- reading frames ---------------------------------------------------------------------------------------------

class Reader:
    """Frames from a socket, with a bound on their length checked before anything of the body is read (so a
    length alone allocates nothing), and an optional deadline for the whole of the next frames (the handshake).
    Frames are read into one buffer of 64 KiB (a longer frame gets a buffer of its own); the body :meth:`read`
    returns is a view of it, valid until the next read."""

    SIZE = 64 * 1024

    def __init__(self, sock: socket.socket):
        self.sock = sock
        self._timeout: Any = 0  # what the socket's timeout was last set to (0: not yet)
        self._buffer = bytearray(self.SIZE)
        self._view = memoryview(self._buffer)
        self._start = self._end = 0  # the bytes received and not yet read
        self.deadline: float | None = None  # monotonic time by which the frames asked for must have arrived
        self.idle: float | None = None  # otherwise: how long a read may wait (None: for ever)
        self.budget: MemoryBudget | None = None  # the listener's, for frames longer than the buffer
        self._held = 0  # bytes of the budget the last frame holds (until the next read)

    def _receive(self, view: memoryview) -> int:
        """Receive into ``view`` (at least one byte)."""
        if self.deadline is not None:
            remaining = self.deadline - time.monotonic()
            if remaining <= 0:
                raise ProtocolError("the handshake took too long")
            self.sock.settimeout(remaining)
            self._timeout = remaining
        elif self._timeout != self.idle:  # a system call: only when it changes
            self.sock.settimeout(self.idle)
            self._timeout = self.idle
        try:
            count = self.sock.recv_into(view)
        except TimeoutError:
            raise ProtocolError("no frame within the time allowed") from None
        except OSError as exc:
            raise ProtocolError(f"the socket failed: {exc}") from None
        if not count:
            raise ProtocolError("the peer closed the connection")
        return count

    def _have(self, count: int) -> None:
        """At least ``count`` bytes (at most the buffer's size) from ``_start`` in the buffer."""
        if self._end - self._start >= count:
            return
        if self._start + count > self.SIZE:  # move what is left to the front
            left = self._end - self._start
            self._buffer[:left] = self._buffer[self._start:self._end]
            self._start, self._end = 0, left
        while self._end - self._start < count:
            self._end += self._receive(self._view[self._end:])

    def release(self) -> None:
        """The last frame's body is no longer used: what it holds of the budget is given back."""
        if self._held and self.budget is not None:
            self.budget.give(self._held)
        self._held = 0

    def read(self, limit: int) -> tuple[int, int, memoryview]:
        """``(verb, tag, body)`` of the next frame; :class:`ProtocolError` for a frame longer than ``limit``,
        :class:`OverBudget` (the frame read and dropped) for a long one the budget cannot hold."""
        if self._held:
            self.release()
        if self._end - self._start < HEADER.size:
            self._have(HEADER.size)
        start = self._start
        length, verb, _flags, tag = HEADER.unpack_from(self._buffer, start)
        if length < HEADER_BODY or length > limit:
            raise ProtocolError(f"a frame of {length} bytes (at most {limit} here)")
        total = 4 + length
        if total <= self.SIZE:
            if self._end - start < total:
                self._have(total)
                start = self._start
            body = self._view[start + HEADER.size:start + total]
            if start + total == self._end:  # all read: the next frame starts at the front
                self._start = self._end = 0
            else:
                self._start = start + total
            return verb, tag, body
        if self.budget is not None:
            if not self.budget.take(total - HEADER.size):
                raise OverBudget(verb, tag, total, self._drop(total))
            self._held = total - HEADER.size
        big = bytearray(total - HEADER.size)  # a long frame: its own buffer, filled straight from the socket
        view = memoryview(big)
        have = min(self._end - self._start - HEADER.size, len(big))
        big[:have] = self._buffer[self._start + HEADER.size:self._start + HEADER.size + have]
        self._start = self._end = 0
        while have < len(big):
            have += self._receive(view[have:])
        return verb, tag, view

    def _drop(self, total: int) -> bytes:
        """Read the frame of ``total`` bytes at ``_start`` through the buffer without keeping it; the start of its
        body (as much as the buffer holds)."""
        self._have(self.SIZE)
        prefix = bytes(self._buffer[self._start + HEADER.size:self._start + self.SIZE])
        left = total - (self._end - self._start)
        self._start = self._end = 0
        while left:
            left -= self._receive(self._view[:min(left, self.SIZE)])
        return prefix

    def pending(self) -> bool:
        """Whether bytes of a next frame are already buffered."""
        return self._end > self._start


def call(sock: socket.socket, reader: Reader, verb: int, tag: int, *values: Any) -> list[Any]:
    """Send one request and read its reply: ``[CompCode, Reason, outputs...]``; :class:`ProtocolError` when the
    session ends or the reply is not this request's."""
    try:
        sock.sendall(request(verb, tag, *values))
    except OSError as exc:
        raise ProtocolError(f"the socket failed: {exc}") from None
    got_verb, got_tag, body = reader.read(MAX_FRAME)
    if got_verb != verb or got_tag != tag:
        raise ProtocolError("a reply to another request")
    return decode_items("ii" + REPLY[verb], body)


# -- structures -------------------------------------------------------------------------------------------------

class Shape:
    """One of IBM's structures as the emulator's layout has it (the versions the emulated native module declares):
    where its pointers are, and its default bytes, so that a structure of any version a C caller has can be made
    whole for the emulator (the later fields at their defaults) and cut back to the caller's length."""

    def __init__(self, cls_name: str):
        from .emulator import ibm, layout

        self.size = layout(cls_name).size
        sample = getattr(ibm(), cls_name)()
        self.default = sample.pack()
        self.offsets: dict[str, int] = {}  # field -> offset in the packed structure
        prefix = ""
        for name, _default, fmt, *_rest in sample._MQOpts__list:  # IBM's layout list (as emulator.Layout reads it)
            self.offsets[name] = struct.calcsize(prefix + "0" + fmt[-1])
            prefix += fmt
        self.pointers = tuple(at for name, _d, fmt, *_r in sample._MQOpts__list if fmt == "P"
                              for at in (self.offsets[name],))
        # the message handles it names (MQPMO's OriginalMsgHandle and NewMsgHandle, MQGMO's MsgHandle)
        self.message_handles = tuple(self.offsets[name] for name in self.offsets if name.endswith("MsgHandle"))

    def whole(self, raw: bytes) -> tuple[bytes, int, bytes]:
        """``(structure at the layout's size with every pointer zeroed, the caller's length, the bytes past the
        layout)``; :class:`ProtocolError` for a structure too short to have a StrucId and a Version."""
        length = len(raw)
        if length < 8:
            raise ProtocolError("a structure shorter than its StrucId and Version")
        tail = b""
        if length < self.size:
            raw = raw + self.default[length:]
        elif length > self.size:
            raw, tail = raw[:self.size], raw[self.size:]
        for at in self.pointers:
            if raw[at:at + 8] != _NULL_POINTER:
                raw = raw[:at] + _NULL_POINTER + raw[at + 8:]
        return raw, length, tail

    def pointers_of(self, sent: bytes, returned: bytes) -> bytes:
        """``returned`` with the pointer fields the caller ``sent`` (a client gives its caller back its own
        addresses, which the server zeroed)."""
        for at in self.pointers:
            if at + 8 <= len(sent) and at + 8 <= len(returned) and sent[at:at + 8] != returned[at:at + 8]:
                returned = returned[:at] + sent[at:at + 8] + returned[at + 8:]
        return returned

    def back(self, raw: bytes, length: int, tail: bytes) -> bytes:
        """The structure the emulator returned, as long as the caller's was (its pointers zeroed)."""
        if length == self.size:
            return raw
        return raw[:length] if length < self.size else raw + tail


_NULL_POINTER = b"\0" * 8
_SHAPES: dict[str, Shape] = {}


def shape(cls_name: str) -> Shape:
    """The :class:`Shape` of IBM's structure class ``cls_name`` (MD, PMO, GMO, OD, SD, ...)."""
    found = _SHAPES.get(cls_name)
    if found is None:
        found = _SHAPES[cls_name] = Shape(cls_name)
    return found


# -- message property values ------------------------------------------------------------------------------------

_FIXED = {"MQTYPE_INT8": "<b", "MQTYPE_INT16": "<h", "MQTYPE_INT32": "<i", "MQTYPE_INT64": "<q",
          "MQTYPE_FLOAT32": "<f", "MQTYPE_FLOAT64": "<d", "MQTYPE_BOOLEAN": "<i"}
_WIDTH = {"MQTYPE_INT8": 8, "MQTYPE_INT16": 16, "MQTYPE_INT32": 32, "MQTYPE_INT64": 64, "MQTYPE_BOOLEAN": 32}


def value_bytes(type_name: str, value: Any, value_length: int = -1) -> bytes:
    """A property value as a C caller's memory holds it (MQSETMP's Value, MQINQMP's answer): a number in its
    type's width, a string in UTF-8 (cut to ``value_length`` unless MQVL_NULL_TERMINATED), a null as nothing."""
    if type_name in _FIXED:
        if type_name in _WIDTH:
            bits = _WIDTH[type_name]
            number = int(value) & ((1 << bits) - 1)
            value = number - (1 << bits) if number >> (bits - 1) else number
        return struct.pack(_FIXED[type_name], value)
    if type_name == "MQTYPE_STRING":
        raw = value.encode("utf-8") if isinstance(value, str) else bytes(value or b"")
        raw = raw.split(b"\0", 1)[0] if value_length < 0 else raw[:value_length]
        return raw
    if type_name == "MQTYPE_BYTE_STRING":
        raw = bytes(value or b"")
        return raw if value_length < 0 else raw[:value_length]
    return b""


def value_of(type_name: str, raw: bytes) -> Any:
    """The value a C caller's bytes hold for a property of ``type_name``, as IBM's Python layer sees it (a
    boolean as an integer, a string as text, a null as None); :class:`ValueError` when the bytes do not fit."""
    if type_name in _FIXED:
        fmt = _FIXED[type_name]
        if len(raw) != struct.calcsize(fmt):
            raise ValueError(f"a {type_name} value of {len(raw)} bytes")
        return struct.unpack(fmt, raw)[0]
    if type_name == "MQTYPE_STRING":
        return raw.decode("utf-8", "replace")
    if type_name == "MQTYPE_BYTE_STRING":
        return bytes(raw)
    return None
