"""The in-process queue manager behind the emulated ``ibmmq.ibmmqc``: the reference model, spoken to in IBM's
binary structures.

:class:`Emulator` owns one :class:`mq_conformance.reference.cluster.Cluster` (queue manager QM1 until more are defined) and
implements the native functions of IBM's ``ibmmqc`` module with the same arguments and return tuples (read from
IBM's mq-mqi-python ``ibmmqc.c``): structures arrive packed by the ``ibmmq`` package's own classes (``MD``,
``GMO``, ``PMO``, ``OD``...), are unpacked with their layouts (read once from those classes: :class:`Layout`)
straight into the model's structures, and the model's answers are packed back into IBM's layout; the structures
of every message (MQMD, MQPMO, MQGMO) go through a :class:`Codec` written out once per structure. Completion and
reason codes are the model's.

Beyond the model, the emulator answers what an application of a real queue manager expects to find there:

- ``MQOPEN`` of the queue manager object (MQOT_Q_MGR) for MQINQ of MQCA_Q_MGR_NAME, MQIA_MAX_MSG_LENGTH and
  MQIA_MSG_MARK_BROWSE_INTERVAL;
- the default model queue ``SYSTEM.DEFAULT.MODEL.QUEUE`` (temporary dynamic), defined in the model, from which
  PCFExecute makes its reply queue;
- the command server: SYSTEM.ADMIN.COMMAND.QUEUE is a local queue of the model; a PCF command put there is run
  and answered on its ReplyToQ (see :mod:`mq_conformance.emulator.pcf`).

Message handles and properties are handles.py's, publish/subscribe pubsub.py's, asynchronous consumption
(MQCB/MQCTL) async_consume.py's and MQSTAT native.py's; what is not modelled (MQBEGIN, global units of work;
MQGMO_SET_SIGNAL...) completes with MQCC_FAILED and MQRC_FUNCTION_NOT_SUPPORTED. Authentication (MQCSP) and client channels (MQCD) are accepted and ignored. The
descriptor fields the model does not keep (PutApplType, ApplIdentityData, ApplOriginData) come back from MQGET as
MQAT_DEFAULT and blanks.
"""

from __future__ import annotations

import itertools
import logging
import struct
import sys
import threading
import time
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from mq_conformance.reference import constants
from mq_conformance.reference.calls import GMO_FIELDS, MD_FIELDS, PMO_FIELDS, decode_queue
from mq_conformance.reference.clock import _EPOCH as clock_epoch
from mq_conformance.reference.cluster import Cluster
from mq_conformance.reference.errors import NotModelled
from mq_conformance.reference.inquire import queue_selector
from mq_conformance.reference.queue import QueueDefinition
from mq_conformance.reference.result import Result
from mq_conformance.reference.structures import MQGMO, MQMD, MQOD, MQPMO
from mq_conformance.reference.tables import Spec

from mq_conformance.reference import open as open_module
from mq_conformance.reference import properties

from . import handles
from . import standing as standing_objects
from .pcf import COMMAND_QUEUE

V = constants.VALUES
MQCC_OK, MQCC_WARNING, MQCC_FAILED = V["MQCC_OK"], V["MQCC_WARNING"], V["MQCC_FAILED"]

# Values from IBM's cmqc.h that the reference constants do not carry (ibmmq 2.1.2 CMQC: the same numbers).
MQRC_HCONN_ERROR = 2018
MQRC_HOBJ_ERROR = 2019
MQRC_OBJECT_TYPE_ERROR = 2043
MQRC_Q_MGR_NAME_ERROR = 2058
MQRC_Q_MGR_NOT_AVAILABLE = 2059
MQRC_SELECTOR_ERROR = 2067
MQRC_NOT_OPEN_FOR_INQUIRE = 2038
MQRC_NOT_OPEN_FOR_OUTPUT = 2039
MQRC_FUNCTION_NOT_SUPPORTED = 2298
MQRC_SELECTOR_NOT_FOR_TYPE = 2068
MQRC_CONNECTION_BROKEN = 2009
MQRC_NO_MSG_AVAILABLE = 2033
MQGMO_WAIT = 1
MQWI_UNLIMITED = -1
MQIAV_NOT_APPLICABLE = -1
MQHC_UNUSABLE_HCONN = -1
MQHO_UNUSABLE_HOBJ = -1
MQOT_Q = 1
MQOT_Q_MGR = 5
MQOT_TOPIC = 8
MQOO_INQUIRE = 0x20
MQOO_OUTPUT = 0x10
MQCA_Q_MGR_NAME = 2015
MQCA_Q_NAME = 2016
MQIA_MAX_MSG_LENGTH = 13
MQIA_MSG_MARK_BROWSE_INTERVAL = 68
MQIA_FIRST, MQIA_LAST = 1, 2000
MQAT_DEFAULT = 6
MQEVR_ENABLED = 1  # cmqc.h: the queue manager's PERFMEV switched on (statistics.performance)
_BROWSE = V["MQGMO_BROWSE_FIRST"] | V["MQGMO_BROWSE_NEXT"] | V["MQGMO_BROWSE_MSG_UNDER_CURSOR"]

DEFAULT_MODEL_QUEUE = "SYSTEM.DEFAULT.MODEL.QUEUE"
SPECIAL_HOBJ_BASE = 0x4000_0000  # the emulator's own object handles; the model numbers its handles from 1
_HCONNS = itertools.count(0x0100_0001)  # process-wide: a connection handle names its emulator


_EPOCH_MS = int(clock_epoch.timestamp() * 1000)  # the model clock's zero


def _wall_ms() -> int:
    """The wall clock on the model clock's scale (milliseconds since its epoch, reference/clock.py)."""
    return int(time.time() * 1000) - _EPOCH_MS


LOG = logging.getLogger("mq_conformance.emulator")


def refuse(feature: str) -> Result:
    """MQCC_FAILED, MQRC_FUNCTION_NOT_SUPPORTED for a feature the emulator does not offer; the log line names it."""
    LOG.warning("MQRC_FUNCTION_NOT_SUPPORTED (2298): %s is not modelled by the emulator", feature)
    return Result(MQCC_FAILED, MQRC_FUNCTION_NOT_SUPPORTED, [])


# Character attributes the model reads with their defaults (inquire.local-queue-attributes) but the call language
# cannot set: the emulator keeps them, so MQSET and PCF can change them.
KEPT_HERE = frozenset({"MQCA_Q_DESC", "MQCA_TRIGGER_DATA"})


def _standing(name: str) -> bool:
    """Whether the emulator's standing table answers (and sets) the attribute ``name`` rather than the model."""
    return not queue_selector(name) or name in KEPT_HERE



def identity_text(value: Any, length: int) -> str:
    """An identity field (user, program name, channel, connection name) as the MQMD and DISPLAY can carry it:
    bytes or a surrogate a name that is not UTF-8 decoded into (a program file named in Latin-1) become '?', MQ's
    substitution for a character it cannot convert, as do control characters; then cut to ``length`` bytes of
    UTF-8 without splitting a character. Never able to make a stored message fail on a later get."""
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    text = "".join("?" if "\ud800" <= char <= "\udfff" or char < " " or char in "\x7f\ufffd" else char
                   for char in str(value)[:length])
    return text.encode("utf-8")[:length].decode("utf-8", "ignore")

class EmulatorError(Exception):
    """A call the emulator cannot run (a malformed structure, a situation the model does not cover): raised to
    the caller, as IBM's native module raises ``ibmmqc.error`` for a structure of the wrong size."""


@dataclass
class _Special:
    """An object the emulator opens itself: the queue manager (``qmgr``) or the command queue (``command``)."""

    kind: str
    options: int


@dataclass
class _Conn:
    qmgr: str
    hconn: int  # the model's Hconn
    special: dict[int, _Special] = field(default_factory=dict)
    user: str = ""  # the identity a put with default context carries (UserIdentifier, PutApplName), cut to
    # the fields' lengths (12 and 28)
    appl: str = ""
    channel: str = ""  # the channel and connection name a client connected with (Inquire Connection)
    conname: str = ""
    started_ms: int = 0  # when it connected, on the model's clock (channel status)
    pid: int = 0  # the process it came from, when known (queue handle status)


def ibm() -> Any:
    """IBM's ``ibmmq`` package (imported on first use: it imports the native module this emulator stands for)."""
    import ibmmq

    return ibmmq


def object_type_name(number: int) -> str:
    """The MQOT_* name of an object type (a topic, a namelist, a process...), from IBM's CMQC."""
    for name, value in vars(ibm().CMQC).items():
        if value == number and name.startswith("MQOT_"):
            return name
    return "an unknown object type"


def selector_name(number: int) -> str:
    """The MQIA_*/MQCA_* name of an attribute selector, as the model names it (IBM's CMQC for the rest; a number no
    one names becomes a name the model refuses with MQRC_SELECTOR_ERROR)."""
    family = "MQIA" if MQIA_FIRST <= number <= MQIA_LAST else "MQCA"
    known = constants.NAMES.get(family, {}).get(number)
    if known is not None:
        return known
    for name, value in vars(ibm().CMQC).items():
        if value == number and name.startswith(family + "_") and not name.endswith(("_FIRST", "_LAST")):
            return name
    return f"{family}_{number}"


def char_length_of(selector: int) -> int:
    """The length of a character attribute in MQINQ's CharAttrs, from IBM's own table (ibmmq's mqinq module)."""
    from .pymqi_compat import helper

    mqinq = helper("mqinq")
    length = mqinq.get_attr_length(selector) if mqinq is not None else 0
    return length or 48


def _text(raw: bytes) -> str:
    return raw.split(b"\0", 1)[0].decode("utf-8", errors="replace").rstrip(" ")


class Record(SimpleNamespace):
    """The fields of one of IBM's structures as the native module receives it, unpacked with the structure's
    layout; :meth:`pack` packs them back in that layout."""

    def pack(self) -> bytes:
        return self._layout.pack(self)


class Layout:
    """The binary layout of one of IBM's structures (MQMD, MQGMO, MQPMO, MQOD...) at the versions the emulated
    native module declares, read once from IBM's class (its field list and struct format): the emulator packs
    and unpacks with it directly rather than through IBM's classes a second time."""

    def __init__(self, sample: Any):
        entries = sample._MQOpts__list  # IBM's layout list: [name, default, struct format, count]
        self.struct = struct.Struct(sample._MQOpts__format)
        self.size = self.struct.size
        self.fields = tuple((e[0], e[3] if isinstance(e[1], list) else 0) for e in entries)
        self.names = tuple(name for name, _ in self.fields)
        self.scalar = all(count == 0 for _, count in self.fields)
        self.lengths = {e[0]: int(e[2][:-1]) for e in entries if e[2].endswith("s") and e[2][:-1].isdigit()}

    def unpack(self, raw: bytes) -> Record:
        values = self.struct.unpack(raw)
        if self.scalar:
            record = Record(**dict(zip(self.names, values)))
        else:
            record, index = Record(), 0
            for name, count in self.fields:
                setattr(record, name, list(values[index:index + count]) if count else values[index])
                index += count or 1
        record._layout = self
        return record

    def pack(self, record: Record) -> bytes:
        fields = record.__dict__
        if self.scalar:
            return self.struct.pack(*[fields[name] for name in self.names])
        values: list[Any] = []
        for name, count in self.fields:
            if count:
                values.extend(fields[name])
            else:
                values.append(fields[name])
        return self.struct.pack(*values)


_LAYOUTS: dict[str, Layout] = {}


def layout(cls_name: str) -> Layout:
    """The layout of IBM's structure class ``cls_name`` (read from the class once per process)."""
    found = _LAYOUTS.get(cls_name)
    if found is None:
        found = _LAYOUTS[cls_name] = Layout(getattr(ibm(), cls_name)())
    return found


def _lengths(structure: Any) -> dict[str, int]:
    """Field name -> length of each fixed-length character field of a structure, from its layout."""
    return structure._layout.lengths


def unpack(cls_name: str, raw: Any, what: str) -> Record:
    """The fields of IBM's structure ``cls_name`` from the bytes the Python layer packed; a wrong size is refused
    as IBM's native module refuses it."""
    if not isinstance(raw, bytes | bytearray):
        raise EmulatorError(f"{what}: expected the packed structure as bytes, not {type(raw).__name__}")
    shape = layout(cls_name)
    if len(raw) != shape.size:
        raise EmulatorError(f"{what} wrong size. Given: {len(raw)}, expected {shape.size}")
    return shape.unpack(bytes(raw))


_PLANS: dict[tuple[int, int], tuple[tuple[str, str, int], ...]] = {}


def _plan(kinds: dict[str, tuple], shape: Layout) -> tuple[tuple[str, str, int], ...]:
    """(field, kind, length) of every field of ``kinds`` that the layout has, worked out once per pair."""
    key = (id(kinds), id(shape))
    found = _PLANS.get(key)
    if found is None:
        found = _PLANS[key] = tuple(
            (name, kind[0], kind[2] if kind[0] == "id" else shape.lengths.get(name, 0))
            for name, kind in kinds.items() if name in shape.names)
    return found


def to_model(source: Record, kinds: dict[str, tuple], target: Any) -> Any:
    """Copy every field the model knows (``kinds``, reference/calls.py) from a structure as IBM's layer packed it
    into the model's structure: ids cut or padded to their length, text without its padding, formats as 8
    characters, numbers as they are (the layout unpacked them as integers)."""
    fields = source.__dict__
    for name, tag, length in _plan(kinds, source._layout):
        value = fields[name]
        if tag == "id":
            if len(value) != length:
                value = value.ljust(length, b"\0")[:length]
        elif tag == "text":
            value = value.decode("utf-8", errors="replace").rstrip("\0 ")
        elif tag == "format":
            value = value.decode("ascii", errors="replace").replace("\0", " ").ljust(8)[:8]
        setattr(target, name, value)
    return target


def from_model(source: Any, kinds: dict[str, tuple], structure: Record) -> Record:
    """Copy every field of the model's structure ``source`` into IBM's layout (character fields blank-padded,
    as a queue manager returns them)."""
    fields = structure.__dict__
    for name, tag, length in _plan(kinds, structure._layout):
        value = getattr(source, name)
        if tag == "id":
            value = bytes(value)
        elif tag in ("text", "format"):
            raw = value.encode("utf-8")
            value = raw[:length].ljust(length, b" ") if length else raw
        fields[name] = value
    return structure


class _Converted(dict):
    """A conversion remembered: the value of ``convert`` for each key asked (at most 1,024 kept, then it starts
    again). The character fields of a structure take few values (blanks, a queue's name, a user), and a hit costs
    a dict lookup rather than a decode or an encode."""

    __slots__ = ("convert",)

    def __init__(self, convert):
        super().__init__()
        self.convert = convert

    def __missing__(self, key: Any) -> Any:
        value = self.convert(key)
        if len(self) >= 1024:
            self.clear()
        self[key] = value
        return value


def _read_text(raw: bytes) -> str:
    """A character field for the model: text without its padding (as :func:`to_model`)."""
    return raw.decode("utf-8", errors="replace").rstrip("\0 ")


def _read_format(raw: bytes) -> str:
    """A format name for the model: 8 characters (as :func:`to_model`)."""
    return raw.decode("ascii", errors="replace").replace("\0", " ").ljust(8)[:8]


def _padder(length: int):
    """A character field of ``length`` bytes in IBM's layout, blank-padded (as :func:`from_model`)."""
    def pad(value: str) -> bytes:
        raw = value.encode("utf-8")
        return raw[:length].ljust(length, b" ") if length else raw
    return pad


class Codec:
    """One of IBM's structures straight to the model's and back, for the calls made once per message (MQPUT,
    MQPUT1, MQGET): the conversions of :func:`to_model` and :func:`from_model`, written out once per structure as
    one function over the layout's unpacked values, so a call costs one ``struct`` unpack, one dict and one
    ``struct`` pack rather than a loop over the fields twice. Same results as ``unpack`` + ``to_model`` and
    ``from_model`` + ``pack`` (tests/test_ibmmq_emulator.py compares them)."""

    def __init__(self, cls_name: str, kinds: dict[str, tuple], model_cls: type, what: str):
        self.layout = shape = layout(cls_name)
        self.model_cls, self.what = model_cls, what
        position, index = 0, {}
        for name, count in shape.fields:
            index[name] = position
            position += count or 1
        self.index = index
        reads, writes = [], [f"v[{at}]" for at in range(position)]
        space: dict[str, Any] = {"text": _Converted(_read_text), "format": _Converted(_read_format),
                                 "pack": shape.struct.pack}
        for name, tag, length in _plan(kinds, shape):
            at = index[name]
            if tag == "id":
                given = shape.lengths.get(name, 0)
                read = f"v[{at}]" if given == length else f"v[{at}].ljust({length}, b'\\0')[:{length}]"
                write = f"bytes(m.{name})"
            elif tag in ("text", "format"):
                read = f"{tag}[v[{at}]]"
                space.setdefault(f"padded{length}", _Converted(_padder(length)))
                write = f"padded{length}[m.{name}]"
            else:
                read, write = f"v[{at}]", f"m.{name}"
            reads.append(f"{name!r}: {read}")
            writes[at] = write
        # MQGET's descriptor: the fields the model does not keep, as a default application type and blanks
        blanks = list(writes)
        for name, value in (("PutApplType", MQAT_DEFAULT), ("ApplIdentityData", b" " * 32),
                            ("ApplOriginData", b" " * 4)) if cls_name == "MD" else ():
            if name in index:
                blanks[index[name]] = repr(value)
        source = (f"def read(v):\n    return {{{', '.join(reads)}}}\n"
                  f"def write(v, m):\n    return pack({', '.join(writes)})\n"
                  f"def write_blanks(v, m):\n    return pack({', '.join(blanks)})\n")
        exec(compile(source, f"<codec {cls_name}>", "exec"), space)  # noqa: S102 - our own generated code
        self._read, self._write, self._write_blanks = space["read"], space["write"], space["write_blanks"]
        self._unpack, self._pack = shape.struct.unpack, shape.struct.pack
        self._of = model_cls.of
        self._seen: dict[bytes, tuple[tuple, dict[str, Any]]] = {}  # raw -> (values, the model's fields)
        self._handles = (index.get("OriginalMsgHandle"), index.get("NewMsgHandle"))  # both or neither (MQPMO v3)

    def decode(self, raw: Any) -> tuple[tuple, Any]:
        """(the layout's values, the model's structure) of the bytes IBM's layer packed; a wrong size is refused
        as by :func:`unpack`. An application sends the same structure again and again (a fresh MD() for every
        get, an MQPMO set once): the last 256 are remembered, and each call gets a structure of its own."""
        if type(raw) is bytes:
            seen = self._seen.get(raw)
            if seen is not None:
                return seen[0], self._of(seen[1].copy())
        elif isinstance(raw, bytearray):
            raw = bytes(raw)
        else:
            raise EmulatorError(f"{self.what}: expected the packed structure as bytes, not {type(raw).__name__}")
        if len(raw) != self.layout.size:
            raise EmulatorError(f"{self.what} wrong size. Given: {len(raw)}, expected {self.layout.size}")
        values = self._unpack(raw)
        fields = self._read(values)
        if len(self._seen) >= 256:
            self._seen.clear()
        self._seen[raw] = (values, fields.copy())
        return values, self._of(fields)

    def encode(self, values: tuple, model: Any, blanks: bool = False) -> bytes:
        """The structure packed again with the model's fields in place. ``blanks``: an MQGET's MQMD, whose
        PutApplType, ApplIdentityData and ApplOriginData (which the model does not keep) come back as
        MQAT_DEFAULT and blanks."""
        return self._write_blanks(values, model) if blanks else self._write(values, model)

    def repack(self, values: tuple) -> bytes:
        """The structure as it came (packed again from its values)."""
        return self._pack(*values)

    def names_handles(self, values: tuple) -> bool:
        """Whether an MQPMO names a message handle (OriginalMsgHandle or NewMsgHandle: handles.py)."""
        original, new = self._handles
        return bool(values[original] or values[new]) if original is not None else False

    def value(self, values: tuple, name: str, default: Any = 0) -> Any:
        """One field of the unpacked values (``default`` when this structure version has none)."""
        at = self.index.get(name)
        return default if at is None else values[at]


_CODECS: dict[str, Codec] = {}


def codec(cls_name: str) -> Codec:
    """The codec of MD, PMO or GMO (made on first use, once IBM's layer is importable)."""
    found = _CODECS.get(cls_name)
    if found is None:
        kinds, model_cls, what = {"MD": (MD_FIELDS, MQMD, "MQMD"), "PMO": (PMO_FIELDS, MQPMO, "MQPMO"),
                                  "GMO": (GMO_FIELDS, MQGMO, "MQGMO")}[cls_name]
        found = _CODECS[cls_name] = Codec(cls_name, kinds, model_cls, what)
    return found


class _CallGuard:
    """The discipline of one native call (see :meth:`Emulator._call`), as a plain context manager: a generator
    one costs more than the rest of the emulator's share of a put."""

    __slots__ = ("emulator",)

    def __init__(self, emulator: Emulator):
        self.emulator = emulator

    def __enter__(self) -> None:
        emulator = self.emulator
        emulator._lock.acquire()
        if emulator.real_time:
            try:
                emulator._tick()
            except BaseException:
                emulator._lock.release()
                raise

    def __exit__(self, *exc: Any) -> None:
        emulator = self.emulator
        try:
            if emulator._waiting:
                emulator._changed.notify_all()
        finally:
            emulator._lock.release()


class Emulator:
    """An in-process IBM MQ: the reference model behind IBM's native-module interface.

    Application-facing helpers (:meth:`define_queue`, :attr:`clock`, :meth:`depth`, :meth:`messages`,
    :meth:`advance_clock`) let a test set up and inspect the queue manager; the ``MQ*`` methods are the native
    functions (see :mod:`mq_conformance.emulator.native`).
    """

    def __init__(self, qmgr: str = "QM1", seed: int = 0, spec: Spec | None = None, queues: tuple[str, ...] = (),
                 real_time: bool = False, waits: bool = True):
        self._qmgr_name = qmgr
        self._seed = seed
        self._spec = spec
        self._queues = tuple(queues)
        # One lock for the whole queue manager; a get that waits sleeps on the condition, which every call that
        # may make a message available (put, commit, backout, disconnect, set, time passing...) notifies.
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._waiting = 0  # gets asleep on the condition: a call notifies only when there are some
        self._guard = _CallGuard(self)
        self.real_time = real_time  # the clock follows the wall clock (PutDate/PutTime, expiry, mark intervals)
        self.waits = waits  # MQGMO_WAIT waits in real time; False: the model's wait (its clock moves instead)
        self.context = waits  # a put with default context carries the connection's identity (the model's: none)
        self.reset()

    def _call(self) -> _CallGuard:
        """One native call: under the lock, the clock brought to now (real time), waiting gets told at the end
        (when there are any)."""
        return self._guard

    def _tick(self) -> None:
        """Bring the model's clock to the wall clock (it only moves forward)."""
        clock = self.world.clock
        behind = _wall_ms() - clock.now_ms
        if behind > 0:
            clock.advance(behind)
        if clock.now_ms >= self._statistics_check_ms:  # at most once a second of the clock
            self._statistics_check_ms = clock.now_ms + 1000
            self._statistics_due()

    def _statistics_due(self) -> None:
        """Write the statistics messages of the intervals that have ended (statistics.py)."""
        if not self._counters:
            return
        from . import statistics

        for qmgr in list(self._counters):
            try:
                statistics.due(self, qmgr)
            except Exception:  # noqa: BLE001 - statistics never break the call that happened to see them due
                LOG.exception("statistics of %s were not written", qmgr)

    # -- set-up and inspection ------------------------------------------------------------------------------
    def reset(self) -> None:
        """Start again from an empty queue manager (every connection, handle and message is forgotten); the
        queues given at construction are defined again."""
        kwargs: dict[str, Any] = {"seed": self._seed, "default": self._qmgr_name}
        if self._spec is not None:
            kwargs["spec"] = self._spec
        with getattr(self, "_lock", threading.RLock()):
            self.world = Cluster(**kwargs)
            self._counters: dict[str, Any] = {}  # queue manager -> its counts (statistics.py)
            self._statistics_check_ms = 0
            self._conns: dict[int, _Conn] = {}
            self._special_hobjs = itertools.count(SPECIAL_HOBJ_BASE + 1)
            self._servers: dict[str, tuple[int, int]] = {}  # queue manager -> command server's Hconn, Hobj
            # (queue manager, queue) -> the attributes the model keeps no rule about (standing.py)
            self._extras: dict[tuple[str, str], dict[str, Any]] = {}
            if self.real_time:
                self._tick()
            self._created = self._stamp()
            self.message_handles: dict[int, tuple[str, int]] = {}  # Hmsg -> (queue manager, model Hmsg): handles.py
            self.qmgr_changes: dict[str, Any] = {}  # queue-manager attributes changed since creation
            self.admin_objects: dict[str, Any] = {}  # namelists, channels, authentication info (pcf_objects.py)
            self.topic_extras: dict[tuple[str, str], dict[str, Any]] = {}  # a topic object's description, dates
            self.admin_subscriptions: set[str] = set()  # subscriptions made by command (pcf_subscriptions.py)
            self._authority: dict[str, Any] = {}  # queue manager -> its authority records (authority.py)
            self._system_conns: dict[str, int] = {}  # queue manager -> the emulator's own model connection
            self._define_objects(standing_objects.standing().objects)
            self._model_dead_letter_queue()
            for name in self._queues:
                self.define_queue(name)

    def _model_dead_letter_queue(self) -> None:
        """The model's DeadLetterQName is the DEADQ the queue manager shows (SYSTEM.DEAD.LETTER.QUEUE, or the
        developer configuration's DEV.DEAD.LETTER.QUEUE), so a report or message the model cannot deliver goes
        there in process as through a channel, instead of being dropped as by a queue manager with none."""
        number = standing_objects.constant("MQCA_DEAD_LETTER_Q_NAME")
        if number is None:
            return
        value = self.qmgr_attribute_values(self._qmgr_name, [number]).get(number, "")
        if isinstance(value, bytes | bytearray):
            value = bytes(value).split(b"\0", 1)[0].decode("utf-8", errors="replace")
        self.world.qmgr(self._qmgr_name).alter_qmgr(DeadLetterQName=str(value).strip())

    @property
    def qmgr(self):
        """The model's default queue manager (:class:`reference.QueueManager`): its queues, handles, clock."""
        return self.world.qm

    @property
    def name(self) -> str:
        return self._qmgr_name

    @property
    def clock(self):
        """The model's clock (:class:`mq_conformance.reference.clock.Clock`): ``now_ms``, ``advance(ms)``. It never moves by
        itself: MQGMO_WAIT returns at once when no message can arrive meanwhile."""
        return self.world.clock

    @property
    def queues(self) -> dict:
        """The default queue manager's local queues by name (:class:`mq_conformance.reference.queue.LocalQueue`)."""
        return self.world.qm.queues

    def define_topic(self, name: str, **attributes: Any) -> None:
        """Define (or redefine) a topic object; attributes as in scenarios' ``define_topic`` (TopicString,
        InhibitPublications, InhibitSubscriptions, DurableSubscriptions, DefPersistence, DefPriority; numbers or MQ
        constant names). ``ValueError`` names a bad attribute."""
        from mq_conformance.reference.pubsub_calls import decode_topic

        _qmgr, definition = decode_topic({"name": name, **attributes}, "define_topic")
        with self._lock:
            self.world.define_topic(self._qmgr_name, definition)

    def define_queue(self, name: str, **attributes: Any) -> None:
        """Define (or redefine) a local queue; attributes as in scenarios' ``define_queue`` (MaxQDepth,
        MaxMsgLength, InhibitPut, MsgDeliverySequence, DefPersistence, DefPriority, DefInputOpenOption,
        Shareability; numbers or MQ constant names). ``ValueError`` names a bad attribute."""
        definition = decode_queue({"name": name, **attributes}, "define_queue")
        with self._lock:
            self.world.define_queue(None, definition, {})
            self.defined(self._qmgr_name, name)

    def _define_objects(self, rows: tuple[dict[str, Any], ...]) -> None:
        for row in rows:
            attributes = {key: standing_objects.resolve(value, {}) for key, value in row.items()}
            extras = {key: attributes.pop(key) for key in list(attributes) if key.startswith("MQ")}
            self.world.define_queue(None, QueueDefinition(**attributes), {})
            if extras:  # the table's standing attributes of this object (its description)
                self.defined(self._qmgr_name, attributes["name"], **extras)

    def developer(self) -> None:
        """Add what IBM's developer configuration has (DEV.QUEUE.1-3, DEV.DEAD.LETTER.QUEUE as the dead-letter
        queue, DEV.APP.MODEL.QUEUE). Clause: emulator.default-objects."""
        table = standing_objects.standing()
        with self._lock:
            self._define_objects(table.developer_objects)
            self.qmgr_changes.update(table.developer_qmgr)
            self._model_dead_letter_queue()
            from .pcf_objects import add_rows

            add_rows(self, self._qmgr_name, developer=True)
            from .authority import add_developer

            add_developer(self.authority(self._qmgr_name), self._qmgr_name)
            for row in table.developer_topics:
                self.define_topic(row["name"], **{k: v for k, v in row.items() if k != "name"})
            self.authority_changed(self._qmgr_name)

    def counters(self, qmgr: str):
        """The counts of one queue manager's queues and connections (statistics.py)."""
        found = self._counters.get(qmgr)
        if found is None:
            from .statistics import Counters

            now = self.world.clock.now_ms
            found = self._counters[qmgr] = Counters(started_ms=now, interval_start_ms=now)
        return found

    def authority(self, qmgr: str):
        """One queue manager's authority records and groups (authority.py)."""
        found = self._authority.get(qmgr)
        if found is None:
            from .authority import new_authority

            found = self._authority[qmgr] = new_authority()
        return found

    def permits(self, conn: _Conn, object_type: str, name: str, needed: set[str]) -> bool:
        """Whether the connection's user has ``needed`` (MQAUTH_* names) on an object. Clauses: authority.*."""
        return self.authority(conn.qmgr).allows(conn.user, object_type, name, needed)

    def system_hconn(self, qmgr: str) -> int:
        """The emulator's own model connection to ``qmgr`` (the messages the queue manager writes itself)."""
        hconn = self._system_conns.get(qmgr)
        if hconn is None or hconn not in self.world.qmgr(qmgr).connections:
            _name, connected = self.world.connect(qmgr)
            hconn = self._system_conns[qmgr] = connected.hconn
        return hconn

    def authority_changed(self, qmgr: str) -> None:
        """Keep the records as messages on SYSTEM.AUTH.DATA.QUEUE, one a record, as a real queue manager keeps
        them (authority.py)."""
        from .authority import AUTH_DATA_QUEUE, record_text

        if AUTH_DATA_QUEUE not in self.world.qmgr(qmgr).queues:
            return
        hconn = self.system_hconn(qmgr)
        opened = self.world.open(qmgr, hconn, MQOD(AUTH_DATA_QUEUE, ""), V["MQOO_INPUT_SHARED"])
        if opened.failed:
            return
        options = V["MQGMO_NO_SYNCPOINT"] | V["MQGMO_NO_WAIT"]
        for _ in range(100_000):
            got = self.world.get(qmgr, hconn, opened.hobj, MQMD(Version=2), MQGMO(Version=2, Options=options), None)
            if got.failed:
                break
        self.world.close(qmgr, hconn, opened.hobj, 0)
        pmo = MQPMO(Version=2, Options=V["MQPMO_NO_SYNCPOINT"])
        for record in self.authority(qmgr).records.values():
            self.world.put1(qmgr, hconn, MQOD(AUTH_DATA_QUEUE, ""), MQMD(Version=2, Format="MQSTR   "), pmo,
                            record_text(record))

    @property
    def created(self) -> tuple[str, str]:
        """When the queue manager was made, as MQINQ shows a creation date and time."""
        return self._created

    def started(self, qmgr: str) -> tuple[str, str]:
        """When ``qmgr`` started (Inquire Queue Manager Status): when the emulator made it."""
        return self._created

    def define_topic_definition(self, qmgr: str, definition: Any) -> None:
        """Define (or replace) a topic object of the model (PCF and MQSC DEFINE TOPIC)."""
        self.world.define_topic(qmgr, definition)

    def _count_put(self, conn: _Conn, queue: str | None, result: Result, length: int, put1: bool = False) -> None:
        """A put's counts (Reset Queue Statistics, statistics and accounting: statistics.py)."""
        stored = self.world.qmgr(conn.qmgr).queues.get(queue) if queue else None
        if stored is None:
            return
        persistent = result.md is not None and result.md.Persistence == 1
        self.counters(conn.qmgr).put(conn.hconn, queue, persistent, length, stored.depth, self.world.clock.now_ms,
                                     put1=put1, failed=result.failed)
        if self.qmgr_changes.get("MQIA_PERFORMANCE_EVENT") == MQEVR_ENABLED and (
                not result.failed or result.reason == V["MQRC_Q_FULL"]):
            from . import statistics

            statistics.performance(self, conn.qmgr, queue, stored.depth, result.failed, got=False)

    # -- the attributes the model keeps no rule about -------------------------------------------------------
    def _stamp(self) -> tuple[str, str]:
        """Now, as MQINQ shows a creation date and time: the model's clock."""
        return standing_objects.stamp(*self.world.clock.put_date_time())

    def defined(self, qmgr: str, name: str, **extras: Any) -> None:
        """A queue was (re)defined: it starts with the standing defaults of its type, then ``extras`` (selector
        name -> value, e.g. a PCF command's MQCA_Q_DESC). Clause: emulator.queue-attributes."""
        self._extras.pop((qmgr, name), None)
        self.extras(qmgr, name).update(extras)

    def extras(self, qmgr: str, name: str) -> dict[str, Any]:
        """The standing attributes of a queue (made with its type's defaults the first time they are asked)."""
        key = (qmgr, name)
        found = self._extras.get(key)
        if found is None:
            queue = self.world.qmgr(qmgr).queues.get(name)
            qtype = queue.definition.QType if queue is not None else V["MQQT_LOCAL"]
            kind = {V["MQQT_MODEL"]: standing_objects.MODEL, V["MQQT_ALIAS"]: standing_objects.ALIAS}.get(
                qtype, standing_objects.LOCAL)
            date, time = self._stamp()
            found = self._extras[key] = standing_objects.queue_defaults(kind, {"created": date, "created_time": time})
        return found

    def advance_clock(self, milliseconds: int) -> None:
        """Let ``milliseconds`` pass on the queue manager's clock (expiry, browse-mark intervals)."""
        with self._lock:
            self.world.advance_clock(milliseconds)
            self._statistics_due()

    def depth(self, name: str) -> int:
        """CurrentQDepth of a queue (committed or not); ``KeyError`` for an undefined queue."""
        return self.queues[name].depth

    def messages(self, name: str) -> list[tuple[MQMD, bytes]]:
        """``(descriptor, data)`` of every message on a queue, in physical order (uncommitted ones included)."""
        return [(message.md, message.data) for message in self.queues[name].messages.values()]

    # -- connections and handles ----------------------------------------------------------------------------
    def owns(self, hconn: int) -> bool:
        return hconn in self._conns

    def _conn(self, hconn: int) -> _Conn | None:
        return self._conns.get(hconn)

    def _qmgr_of(self, name: bytes | str) -> str | None:
        text = _text(name) if isinstance(name, bytes) else str(name).rstrip("\0 ")
        text = text or self._qmgr_name
        return text if text in self.world.qmgrs else None

    def connect(self, name: Any, user: str = "", appl: str = "", channel: str | None = None,
                conname: str = "") -> tuple[int, int, int]:
        """MQCONN/MQCONNX: ``(hconn, CompCode, Reason)``; ``user`` and ``appl`` are the connection's identity
        (UserIdentifier and PutApplName of its puts with default context); ``channel`` the server-connection
        channel a client names (None: a connection in this process, no channel checked) and ``conname`` where
        it came from. Clauses: emulator.channel-admission, authority.mqi."""
        with self._call():
            qmgr = self._qmgr_of(name if isinstance(name, bytes | str) else b"")
            if qmgr is None:
                return MQHC_UNUSABLE_HCONN, MQCC_FAILED, MQRC_Q_MGR_NAME_ERROR
            # the identity is made safe at the door: every later put stores it, and every get returns it
            user, appl, conname = identity_text(user, 12), identity_text(appl, 28), identity_text(conname, 264)
            channel = identity_text(channel, 20) if channel else channel
            refused = self._admit(qmgr, user, channel)
            if refused:
                return MQHC_UNUSABLE_HCONN, MQCC_FAILED, refused
            _name, result = self.world.connect(qmgr)
            if result.failed:
                return MQHC_UNUSABLE_HCONN, result.comp_code, result.reason
            hconn = next(_HCONNS)
            conn = self._conns[hconn] = _Conn(qmgr, result.hconn, user=user, appl=appl,
                                              started_ms=self.world.clock.now_ms, channel=channel or "",
                                              conname=conname)
            if self.context:
                # MQPMO_DEFAULT_CONTEXT (or no context option): the model sets the identity and origin context
                # from the connection's environment, this process's user and program (reference/context.py)
                model_conn = self.world.qmgr(qmgr).connections[result.hconn]
                model_conn.user, model_conn.appl_name = conn.user, conn.appl
            return hconn, result.comp_code, result.reason

    def _admit(self, qmgr: str, user: str, channel: str | None) -> int:
        """The reason a connect is refused (0: admitted): a channel that is not a defined server-connection
        channel, a user without connect authority on the queue manager. Clauses: emulator.channel-admission,
        authority.mqi."""
        from . import authority

        if channel:
            from .pcf_objects import objects

            definition = objects(self, qmgr)["CHANNEL"].get(channel.strip())
            channel_type = None if definition is None else definition.get(standing_objects.constant(
                "MQIACH_CHANNEL_TYPE"))
            reason = authority.admit_channel(channel_type, standing_objects.constant("MQCHT_SVRCONN"))
            if reason:
                LOG.warning("%s: channel %r is %s", reason, channel,
                            "not defined" if channel_type is None else "not a server-connection channel")
                return standing_objects.constant(reason)
        if not self.authority(qmgr).allows(user, "QMGR", qmgr, {"MQAUTH_CONNECT"}):
            LOG.warning("MQRC_NOT_AUTHORIZED (2035): user %r has no connect authority on %s", user, qmgr)
            return V["MQRC_NOT_AUTHORIZED"]
        return 0

    def connections(self, qmgr: str) -> dict[int, _Conn]:
        """The applications' connections to ``qmgr`` now, by handle (Inquire Connection)."""
        live = self.world.qmgr(qmgr).connections
        return {hconn: conn for hconn, conn in self._conns.items() if conn.qmgr == qmgr and conn.hconn in live}

    def resolved_topic(self, hconn: int, name: str, object_string: str) -> str:
        """The full topic string an MQOD or MQSD of connection ``hconn`` names (its ResObjectString), "" when it
        names none. Clause: topic.string.concatenated."""
        from mq_conformance.reference.publish import resolve_topic

        with self._lock:
            conn = self._conn(hconn)
            found = resolve_topic(self.world.qmgr(conn.qmgr), name, object_string) if conn is not None else None
        return found[0] if isinstance(found, tuple) else ""

    def describe_connection(self, hconn: int, channel: str, conname: str) -> None:
        """Record the channel and connection name a client connection came in on (the listener's)."""
        conn = self._conns.get(hconn)
        if conn is not None:
            conn.channel, conn.conname = channel[:20], conname[:264]

    def wake(self) -> None:
        """Wake every waiting get to look again (a session of the listener cancelled or ended)."""
        with self._lock:
            self._changed.notify_all()

    def abandon(self, hconn: int) -> None:
        """A connection whose application went away (its socket closed): uncommitted work is backed out, then it
        is disconnected."""
        with self._call():
            if self._conn(hconn) is not None:
                self.MQBACK(hconn)
                self.MQDISC(hconn)

    def MQDISC(self, hconn: int) -> tuple[int, int]:
        with self._call():
            conn = self._conn(hconn)
            if conn is None:
                return MQCC_FAILED, MQRC_HCONN_ERROR
            conn.special.clear()
            result = self.world.disconnect(conn.qmgr, conn.hconn)
            if conn.qmgr in self._counters:  # its accounting (statistics.py)
                from . import statistics
                from .pcf_objects import connection_id_of

                statistics.disconnected(self, conn.qmgr, conn.hconn, conn.appl, conn.user,
                                        connection_id_of(conn.qmgr, hconn))
            self._serve(conn.qmgr)
            return result.comp_code, result.reason

    def MQOPEN(self, hconn: int, od_raw: bytes, options: int,
               strings: dict[str, str] | None = None) -> tuple[int, bytes, int, int]:
        """MQOPEN; ``strings`` are the MQOD's MQCHARV strings (ObjectString), read by the caller's process."""
        with self._call():
            od = unpack("OD", od_raw, "MQOD")
            conn = self._conn(hconn)
            if conn is None:
                return MQHO_UNUSABLE_HOBJ, od.pack(), MQCC_FAILED, MQRC_HCONN_ERROR
            if od.ObjectType == MQOT_Q_MGR:
                if not self._may_open(conn, "QMGR", conn.qmgr, options):
                    return MQHO_UNUSABLE_HOBJ, od.pack(), MQCC_FAILED, V["MQRC_NOT_AUTHORIZED"]
                return self._open_special(conn, od, "qmgr", options)
            if od.ObjectType == MQOT_TOPIC:  # emulator/pubsub.py
                from .pubsub import topic_od

                model = topic_od(od, strings or {})
                if self.authority(conn.qmgr).enforcing and not self._may_open(
                        conn, "TOPIC", self._topic_object(conn.qmgr, model), options):
                    return MQHO_UNUSABLE_HOBJ, od.pack(), MQCC_FAILED, V["MQRC_NOT_AUTHORIZED"]
                result = self._model(lambda: self.world.open(conn.qmgr, conn.hconn, model, options))
                return (MQHO_UNUSABLE_HOBJ if result.failed else result.hobj), od.pack(), result.comp_code, \
                    result.reason
            if od.ObjectType != MQOT_Q:
                refused = refuse(f"MQOPEN of object type {od.ObjectType} ({object_type_name(od.ObjectType)})")
                return MQHO_UNUSABLE_HOBJ, od.pack(), refused.comp_code, refused.reason
            name = _text(od.ObjectName)
            if not self._may_open(conn, "QUEUE", name, options):
                return MQHO_UNUSABLE_HOBJ, od.pack(), MQCC_FAILED, V["MQRC_NOT_AUTHORIZED"]
            model_od = MQOD(ObjectName=name, ObjectQMgrName=_text(od.ObjectQMgrName),
                            DynamicQName=_text(od.DynamicQName))
            selection_string = (strings or {}).get("SelectionString") or handles.selection_string(od)
            if selection_string is None:
                result = self._model(lambda: self.world.open(conn.qmgr, conn.hconn, model_od, options))
            else:  # MQOD SelectionString (reference/selection.py)
                result = self._model(lambda: open_module.open_selecting(
                    self.world.qmgr(conn.qmgr), model_od, options, selection_string,
                    lambda: self.world.open(conn.qmgr, conn.hconn, model_od, options)))
            if result.failed:
                return MQHO_UNUSABLE_HOBJ, od.pack(), result.comp_code, result.reason
            if result.object_name:  # a model queue made a dynamic queue: MQ returns its name in ObjectName
                name = result.object_name
                od.ObjectName = name.encode("ascii").ljust(48, b" ")
                authority = self.authority(conn.qmgr)
                if authority.enforcing:  # its creator may do everything with it (authority.mqi)
                    from .authority import MQZAET_PRINCIPAL

                    authority.set(name, "QUEUE", conn.user, MQZAET_PRINCIPAL, {"MQAUTH_ALL"}, set())
            self._resolved(od, name, conn.qmgr)
            opened = self.world.qmgr(conn.qmgr).handles.get(result.hobj)
            if opened is not None:
                self.counters(conn.qmgr).opened(conn.hconn, opened.queue, self.world.clock.now_ms)
            return result.hobj, od.pack(), result.comp_code, result.reason

    def _may_open(self, conn: _Conn, object_type: str, name: str, options: int) -> bool:
        """Whether the connection's user has the authorities an MQOPEN's options need on the object (a topic:
        pub to open it for output). Clause: authority.mqi."""
        authority = self.authority(conn.qmgr)
        if not authority.enforcing:
            return True
        from .authority import needed_for_open

        needed = needed_for_open(options, standing_objects.constant)
        if object_type == "TOPIC":
            needed = {"MQAUTH_PUBLISH"} if options & MQOO_OUTPUT else set()
        allowed = authority.allows(conn.user, object_type, name, needed)
        if not allowed:
            LOG.warning("MQRC_NOT_AUTHORIZED (2035): user %r may not open %s %s with options %d", conn.user,
                        object_type.lower(), name, options)
        return allowed

    def _topic_object(self, qmgr: str, od: MQOD) -> str:
        """The topic object whose node holds the topic an MQOD or MQSD names (its nearest administrative
        ancestor; SYSTEM.BASE.TOPIC at the top), whose records decide pub and sub. Clause: authority.mqi."""
        from mq_conformance.reference import publish

        qm = self.world.qmgr(qmgr)
        resolved = publish.resolve_topic(qm, od.ObjectName, od.ObjectString)
        topic = resolved[0] if isinstance(resolved, tuple) else ""
        # a topic object's string with a trailing '/' (IBM's developer configuration's 'dev/') names the node
        # itself, under which the strings below it are
        by_string = {definition.TopicString.rstrip("/"): name for name, definition in qm.pubsub.topics.items()}
        levels = topic.rstrip("/").split("/")
        for cut in range(len(levels), 0, -1):
            found = by_string.get("/".join(levels[:cut]))
            if found is not None:
                return found
        return "SYSTEM.BASE.TOPIC"

    def _open_special(self, conn: _Conn, od: Any, kind: str, options: int) -> tuple[int, bytes, int, int]:
        other = options & ~(MQOO_INQUIRE | V["MQOO_FAIL_IF_QUIESCING"])
        if not options & MQOO_INQUIRE or other:
            return MQHO_UNUSABLE_HOBJ, od.pack(), MQCC_FAILED, V["MQRC_OPTION_NOT_VALID_FOR_TYPE"]
        hobj = next(self._special_hobjs)
        conn.special[hobj] = _Special(kind, options)
        self._resolved(od, "", conn.qmgr)
        return hobj, od.pack(), MQCC_OK, 0

    @staticmethod
    def _resolved(od: Any, name: str, qmgr: str) -> None:
        if hasattr(od, "ResolvedQName"):
            od.ResolvedQName = name.encode("ascii").ljust(48, b" ")
            od.ResolvedQMgrName = qmgr.encode("ascii").ljust(48, b" ")

    def forget_queue(self, qmgr: str, name: str) -> None:
        """Delete a queue and its messages (DELETE QLOCAL PURGE; the caller has checked it is not open)."""
        self.world.qmgr(qmgr).queues.pop(name, None)
        self._extras.pop((qmgr, name), None)
        self.counters(qmgr).forget(name)

    def _serve(self, qmgr: str) -> None:
        """Let the command server answer what has become visible on the command queue."""
        qm = self.world.qmgr(qmgr)
        queue = qm.queues.get(COMMAND_QUEUE)
        if queue is None or not queue.depth:
            return
        from .pcf import CommandServer

        server = self._servers.get(qmgr)
        if server is None or server[0] not in qm.connections:
            _name, connected = self.world.connect(qmgr)
            opened = self.world.open(qmgr, connected.hconn, MQOD(COMMAND_QUEUE, ""), V["MQOO_INPUT_SHARED"])
            if opened.failed:
                return
            server = self._servers[qmgr] = (connected.hconn, opened.hobj)
        CommandServer(self, qmgr).serve(*server)

    def MQCLOSE(self, hconn: int, hobj: int, options: int) -> tuple[int, int]:
        with self._call():
            conn = self._conn(hconn)
            if conn is None:
                return MQCC_FAILED, MQRC_HCONN_ERROR
            if hobj in conn.special:
                del conn.special[hobj]
                return MQCC_OK, 0
            result = self._model(lambda: self.world.close(conn.qmgr, conn.hconn, hobj, options))
            return result.comp_code, result.reason

    def MQPUT(self, hconn: int, hobj: int, md_raw: bytes, pmo_raw: bytes, data: bytes) -> tuple[bytes, bytes, int, int]:
        md_codec, pmo_codec = codec("MD"), codec("PMO")
        with self._guard:
            md, model_md = md_codec.decode(md_raw)
            pmo, model_pmo = pmo_codec.decode(pmo_raw)
            conn = self._conns.get(hconn)
            if conn is None:
                return md_codec.repack(md), pmo_codec.repack(pmo), MQCC_FAILED, MQRC_HCONN_ERROR
            if hobj in conn.special:
                return md_codec.repack(md), pmo_codec.repack(pmo), MQCC_FAILED, MQRC_NOT_OPEN_FOR_OUTPUT
            try:
                if pmo_codec.names_handles(pmo):
                    result = self._with_handles(conn, pmo_codec, pmo, lambda: self.world.put(
                        conn.qmgr, conn.hconn, hobj, model_md, model_pmo, bytes(data)))()
                else:
                    result = self.world.put(conn.qmgr, conn.hconn, hobj, model_md, model_pmo, bytes(data))
            except NotModelled as exc:
                result = refuse(str(exc))
            handle = self.world.qmgr(conn.qmgr).handles.get(hobj)
            if handle is not None and handle.topic is None:
                self._count_put(conn, handle.queue, result, len(data))
            self._serve(conn.qmgr)
            return (md_codec.repack(md) if result.md is None else md_codec.encode(md, result.md),
                    pmo_codec.repack(pmo) if result.pmo is None else pmo_codec.encode(pmo, result.pmo),
                    result.comp_code, result.reason)

    def MQPUT1(self, hconn: int, od_raw: bytes, md_raw: bytes, pmo_raw: bytes,
               data: bytes, strings: dict[str, str] | None = None) -> tuple[bytes, bytes, int, int]:
        """MQPUT1; ``strings`` are the MQOD's MQCHARV strings (ObjectString), read by the caller's process."""
        md_codec, pmo_codec = codec("MD"), codec("PMO")
        with self._guard:
            od = unpack("OD", od_raw, "MQOD")
            md, model_md = md_codec.decode(md_raw)
            pmo, model_pmo = pmo_codec.decode(pmo_raw)
            conn = self._conn(hconn)
            if conn is None:
                return md_codec.repack(md), pmo_codec.repack(pmo), MQCC_FAILED, MQRC_HCONN_ERROR
            name = _text(od.ObjectName)
            if od.ObjectType == MQOT_TOPIC:  # emulator/pubsub.py
                from .pubsub import topic_od

                model = topic_od(od, strings or {})
                if self.authority(conn.qmgr).enforcing and not self._may_open(
                        conn, "TOPIC", self._topic_object(conn.qmgr, model), MQOO_OUTPUT):
                    return md_codec.repack(md), pmo_codec.repack(pmo), MQCC_FAILED, V["MQRC_NOT_AUTHORIZED"]
                result = self._model(lambda: self.world.put1(conn.qmgr, conn.hconn, model, model_md, model_pmo,
                                                             bytes(data)))
                return self._put_reply(md, pmo, result)
            if od.ObjectType != MQOT_Q:
                refused = refuse(f"MQPUT1 to object type {od.ObjectType} ({object_type_name(od.ObjectType)})")
                return md_codec.repack(md), pmo_codec.repack(pmo), refused.comp_code, refused.reason
            model_od = MQOD(ObjectName=name, ObjectQMgrName=_text(od.ObjectQMgrName),
                            DynamicQName=_text(od.DynamicQName))
            if self.authority(conn.qmgr).enforcing:
                from .authority import needed_for_put1

                if not self.permits(conn, "QUEUE", name, needed_for_put1(model_pmo.Options,
                                                                          standing_objects.constant)):
                    LOG.warning("MQRC_NOT_AUTHORIZED (2035): user %r may not put to %s", conn.user, name)
                    return md_codec.repack(md), pmo_codec.repack(pmo), MQCC_FAILED, V["MQRC_NOT_AUTHORIZED"]
            result = self._model(self._with_handles(conn, pmo_codec, pmo, lambda: self.world.put1(
                conn.qmgr, conn.hconn, model_od, model_md, model_pmo, bytes(data))))
            target = self.world.qmgr(conn.qmgr).queues.get(name)
            if target is not None and target.definition.QType == V["MQQT_ALIAS"]:
                name = target.definition.BaseQName
            self._count_put(conn, name, result, len(data), put1=True)
            self._serve(conn.qmgr)
            return self._put_reply(md, pmo, result)

    def _with_handles(self, conn: _Conn, pmo_codec: Codec, pmo: tuple, put):
        """The put, given the properties of the MQPMO's message handles when it names any (handles.py)."""
        if not pmo_codec.names_handles(pmo):
            return put
        original, new = pmo_codec.value(pmo, "OriginalMsgHandle"), pmo_codec.value(pmo, "NewMsgHandle")
        qm = self.world.qmgr(conn.qmgr)
        return lambda: properties.put_with_properties(
            qm, conn.hconn, handles.model_hmsg(self, conn.qmgr, original), handles.model_hmsg(self, conn.qmgr, new),
            pmo_codec.value(pmo, "Action"), put)

    def _get_once(self, conn: _Conn, hobj: int, md: MQMD, gmo: MQGMO, max_length: int, hmsg: int) -> Result:
        """One model MQGET; with a MsgHandle, or on a queue manager that has message handles, its properties go
        where the MQGMO and the queue's PropertyControl say (reference/properties.py)."""
        qm = self.world.qmgr(conn.qmgr)
        if not hmsg and not properties.may_have_properties(qm):
            return self.world.get(conn.qmgr, conn.hconn, hobj, md, gmo, max_length)
        return properties.get_with_properties(qm, conn.hconn, hobj, md, gmo, max_length,
                                              handles.model_hmsg(self, conn.qmgr, hmsg))

    @staticmethod
    def _put_reply(md: tuple, pmo: tuple, result: Result) -> tuple[bytes, bytes, int, int]:
        md_codec, pmo_codec = _CODECS["MD"], _CODECS["PMO"]
        return (md_codec.repack(md) if result.md is None else md_codec.encode(md, result.md),
                pmo_codec.repack(pmo) if result.pmo is None else pmo_codec.encode(pmo, result.pmo),
                result.comp_code, result.reason)

    def MQGET(self, hconn: int, hobj: int, md_raw: bytes, gmo_raw: bytes, max_length: int,
              cancel: Any = None) -> tuple[bytes, bytes, bytes, int, int, int]:
        """MQGET; ``cancel`` (the listener's): called while the get waits, a reason ends the wait with it."""
        md_codec, gmo_codec = codec("MD"), codec("GMO")
        with self._guard:
            md, model_md = md_codec.decode(md_raw)
            gmo, model_gmo = gmo_codec.decode(gmo_raw)
            conn = self._conns.get(hconn)
            if conn is None:
                return b"", md_codec.repack(md), gmo_codec.repack(gmo), 0, MQCC_FAILED, MQRC_HCONN_ERROR
            if hobj in conn.special:
                return (b"", md_codec.repack(md), gmo_codec.repack(gmo), 0, MQCC_FAILED,
                        V["MQRC_NOT_OPEN_FOR_INPUT"])
            if not isinstance(max_length, int) or max_length < 0:
                return (b"", md_codec.repack(md), gmo_codec.repack(gmo), 0, MQCC_FAILED,
                        V["MQRC_BUFFER_LENGTH_ERROR"])
            result = self._get(conn, hobj, model_md, model_gmo, gmo_codec.value(gmo, "MsgHandle"), max_length,
                               cancel)
            self._count_get(conn, hobj, model_gmo.Options, result)
            # the descriptor fields the model does not keep come back as a default application type and blanks
            md_out = md_codec.repack(md) if result.md is None else md_codec.encode(md, result.md, blanks=True)
            gmo_out = gmo_codec.repack(gmo) if result.gmo is None else gmo_codec.encode(gmo, result.gmo)
            data = (result.data or b"")[:max_length]
            length = result.data_length if result.data_length is not None else 0
            return data, md_out, gmo_out, length, result.comp_code, result.reason

    def _count_get(self, conn: _Conn, hobj: int, options: int, result: Result) -> None:
        """A get's counts (statistics.py); a browse removes nothing."""
        qm = self.world.qmgr(conn.qmgr)
        handle = qm.handles.get(hobj)
        stored = qm.queues.get(handle.queue) if handle is not None and handle.topic is None else None
        if stored is None:
            return
        browse = bool(options & _BROWSE)
        persistent = result.md is not None and result.md.Persistence == 1
        self.counters(conn.qmgr).got(conn.hconn, handle.queue, persistent, result.data_length or 0, stored.depth,
                                     self.world.clock.now_ms, browse=browse, failed=result.failed)
        if not browse and not result.failed and \
                self.qmgr_changes.get("MQIA_PERFORMANCE_EVENT") == MQEVR_ENABLED:
            from . import statistics

            statistics.performance(self, conn.qmgr, handle.queue, stored.depth, False, got=True)

    def _get(self, conn: _Conn, hobj: int, model_md: MQMD, model_gmo: MQGMO, hmsg: int, max_length: int,
             cancel: Any = None) -> Result:
        """The model's MQGET; with MQGMO_WAIT and no message, wait on the condition in real time until a matching
        message becomes available (put or committed by another connection, backed out, its mark lapsed) or the
        WaitInterval ends (MQWI_UNLIMITED: no end). The model itself never waits: it is asked with a zero
        interval, as often as something changes. ``cancel()`` (a session of the listener) is asked before each
        try after the first and at least every second: a reason it gives ends the wait, so a client gone or
        cancelling never takes a message it cannot receive. Clauses: get.wait.*."""
        interval = model_gmo.WaitInterval
        waiting = self.waits and model_gmo.Options & MQGMO_WAIT and (interval >= 0 or interval == MQWI_UNLIMITED)
        if not waiting:
            try:
                return self._get_once(conn, hobj, model_md, model_gmo, max_length, hmsg)
            except NotModelled as exc:
                return refuse(str(exc))
        deadline = None if interval == MQWI_UNLIMITED else time.monotonic() + interval / 1000
        longest = 60 if cancel is None else 1
        first = True
        while True:
            if not first and cancel is not None:
                ended = cancel()
                if ended:
                    return Result(MQCC_FAILED, ended, [])
            first = False
            asked_md, asked_gmo = model_md.copy(), model_gmo.copy()
            asked_gmo.WaitInterval = 0
            result = self._model(lambda: self._get_once(conn, hobj, asked_md, asked_gmo, max_length, hmsg))
            if result.reason != MQRC_NO_MSG_AVAILABLE:
                if result.gmo is not None:
                    result.gmo.WaitInterval = interval
                return result
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and remaining <= 0:
                return result
            self._waiting += 1
            try:
                self._changed.wait(longest if remaining is None or remaining > longest else remaining)
            finally:
                self._waiting -= 1
            if not any(other is conn for other in self._conns.values()):  # gone meanwhile (MQDISC, reset)
                return Result(MQCC_FAILED, MQRC_CONNECTION_BROKEN, [])
            if self.real_time:
                self._tick()

    def MQCMIT(self, hconn: int) -> tuple[int, int]:
        with self._call():
            conn = self._conn(hconn)
            if conn is None:
                return MQCC_FAILED, MQRC_HCONN_ERROR
            result = self._model(lambda: self.world.commit(conn.qmgr, conn.hconn))
            self._serve(conn.qmgr)
            return result.comp_code, result.reason

    def MQBACK(self, hconn: int) -> tuple[int, int]:
        with self._call():
            conn = self._conn(hconn)
            if conn is None:
                return MQCC_FAILED, MQRC_HCONN_ERROR
            result = self._model(lambda: self.world.backout(conn.qmgr, conn.hconn))
            return result.comp_code, result.reason

    def MQINQ(self, hconn: int, hobj: int, selectors: list, int_attrs: list, int_count: int, char_count: int,
              char_length: int) -> tuple[list, bytes, int, int]:
        with self._call():
            blank = b"\0" * max(char_length, 0)
            conn = self._conn(hconn)
            if conn is None:
                return int_attrs, blank, MQCC_FAILED, MQRC_HCONN_ERROR
            numbers = [int(s) for s in selectors]
            special = conn.special.get(hobj)
            comp, reason = MQCC_OK, 0
            if special is not None:
                if special.kind != "qmgr" or not special.options & MQOO_INQUIRE:
                    return int_attrs, blank, MQCC_FAILED, MQRC_NOT_OPEN_FOR_INQUIRE
                values = self._qmgr_attributes(conn.qmgr, numbers)
                if values is None:
                    return int_attrs, blank, MQCC_FAILED, MQRC_SELECTOR_ERROR
            else:
                found = self._queue_attributes(conn, hobj, numbers)
                if isinstance(found, Result):
                    return int_attrs, blank, found.comp_code, found.reason
                values, comp, reason = found
            char_bytes = b""
            for selector in numbers:
                if MQIA_FIRST <= selector <= MQIA_LAST:
                    int_attrs.append(int(values[selector]))
                else:
                    length = char_length_of(selector)
                    char_bytes += str(values[selector]).encode("utf-8")[:length].ljust(length, b" ")
            return int_attrs, char_bytes.ljust(char_length, b"\0")[:char_length], comp, reason

    def _qmgr_attributes(self, qmgr: str, numbers: list[int]) -> dict[int, Any] | None:
        """MQINQ of the queue-manager object from the standing table (None: a selector it does not have).
        Clause: emulator.qmgr-attributes."""
        qm = self.world.qmgr(qmgr)
        date, time = self._created
        names = {"name": qmgr, "created": date, "created_time": time}
        model = {"mark_browse_interval": qm.mark_browse_interval, "max_msg_length": qm.max_msg_length}
        values: dict[int, Any] = {}
        for number in numbers:
            value = standing_objects.qmgr_attribute(selector_name(number), names, model, self.qmgr_changes)
            if value is None:
                return None
            values[number] = value
        return values

    def qmgr_attribute_values(self, qmgr: str, numbers: list[int]) -> dict[int, Any]:
        """The queue manager's attributes among ``numbers`` (those it has), for Inquire Queue Manager."""
        values = {}
        for number in numbers:
            found = self._qmgr_attributes(qmgr, [number])
            if found is not None:
                values[number] = found[number]
        return values

    def _queue_attributes(self, conn: _Conn, hobj: int, numbers: list[int]) -> Result | tuple[dict, int, int]:
        """MQINQ of a queue: the model answers the attributes it keeps, the standing table the others (a
        selector of another type of queue: MQRC_SELECTOR_NOT_FOR_TYPE, a warning, with MQIAV_NOT_APPLICABLE or
        blanks). Clauses: inquire.*, emulator.queue-attributes."""
        names = [selector_name(s) for s in numbers]
        table = standing_objects.standing().queue
        qm = self.world.qmgr(conn.qmgr)
        handle = qm.handles.get(hobj)
        ours = [n for n in names if n in table and _standing(n)] if handle is not None else []
        theirs = [n for n in names if n not in ours]
        result = self._model(lambda: self.world.inquire(conn.qmgr, conn.hconn, hobj, theirs))
        if result.failed:
            return result
        by_name: dict[str, Any] = dict(result.attributes or {})
        comp, reason = result.comp_code, result.reason
        if ours:
            extras = self.extras(conn.qmgr, handle.alias or handle.queue)
            for name in ours:
                if name in extras:
                    by_name[name] = extras[name]
                else:
                    by_name[name] = MQIAV_NOT_APPLICABLE if name.startswith("MQIA") else ""
                    comp, reason = MQCC_WARNING, MQRC_SELECTOR_NOT_FOR_TYPE
        return {s: by_name[n] for s, n in zip(numbers, names)}, comp, reason

    def MQSET(self, hconn: int, hobj: int, selectors: list, int_attrs: list, char_attrs: bytes) -> tuple[int, int]:
        with self._call():
            conn = self._conn(hconn)
            if conn is None:
                return MQCC_FAILED, MQRC_HCONN_ERROR
            if hobj in conn.special:
                return MQCC_FAILED, V["MQRC_NOT_OPEN_FOR_SET"]
            return self._set(conn, hobj, [int(s) for s in selectors], [int(v) for v in int_attrs],
                             bytes(char_attrs or b""))

    def _set(self, conn: _Conn, hobj: int, numbers: list[int], int_values: list[int],
             char_attrs: bytes) -> tuple[int, int]:
        """MQSET: the model sets the attributes it keeps; the standing attributes MQSET may change
        (MQCA_TRIGGER_DATA, MQIA_DIST_LISTS) are set here once the model has accepted the rest. Clauses:
        set.*, emulator.queue-attributes."""
        table = standing_objects.standing().queue
        handle = self.world.qmgr(conn.qmgr).handles.get(hobj)
        names = [selector_name(number) for number in numbers]
        if handle is None or not any(n in table and table[n].settable and _standing(n) for n in names):
            result = self._model(lambda: self.world.set(conn.qmgr, conn.hconn, hobj, names, int_values))
            return result.comp_code, result.reason
        model_names, model_values, ours = [], [], {}
        ints, offset = iter(int_values), 0
        for number in numbers:
            name = selector_name(number)
            if MQIA_FIRST <= number <= MQIA_LAST:
                value: Any = next(ints, None)
                if value is None:
                    return MQCC_FAILED, V["MQRC_INT_ATTR_COUNT_ERROR"]
            else:
                length = char_length_of(number)
                value = _text(char_attrs[offset:offset + length])
                offset += length
            row = table.get(name)
            if row is not None and row.settable and _standing(name):
                kind = standing_objects.ALIAS if handle.alias else standing_objects.LOCAL
                if kind not in row.types:
                    return MQCC_FAILED, MQRC_SELECTOR_ERROR
                ours[name] = value
            elif MQIA_FIRST <= number <= MQIA_LAST:
                model_names.append(name)
                model_values.append(value)
            else:
                return MQCC_FAILED, MQRC_SELECTOR_ERROR  # the model sets no character attribute
        result = self._model(lambda: self.world.set(conn.qmgr, conn.hconn, hobj, model_names, model_values))
        if not result.failed and ours:
            self.extras(conn.qmgr, handle.alias or handle.queue).update(ours)
        return result.comp_code, result.reason

    # -- the model ------------------------------------------------------------------------------------------
    @staticmethod
    def _model(call) -> Result:
        """The model's answer; what the model does not cover is refused as a queue manager refuses a function it
        does not offer (MQRC_FUNCTION_NOT_SUPPORTED), the feature named in the emulator's log."""
        try:
            return call()
        except NotModelled as exc:
            return refuse(str(exc))
