"""IBM MQ as an adapter, through pymqi (or IBM's successor package ``ibmmq``, which keeps pymqi's API).

The call language's MQI verbs become pymqi calls on a real queue manager; the structures are built with
:func:`mq_conformance.reference.calls.decode_structure` (so every field and constant is read exactly as the model reads it) and
copied into pymqi's ``MD``/``GMO``/``PMO``; what comes back is encoded as the reference adapter encodes a model
``Result``. ``clauses`` is always empty: only the model explains its decisions.

Configuration, from the environment (read once, when the adapter is built):

- ``MQCONF_QMGR``: queue manager name (empty: the default queue manager).
- ``MQCONF_CHANNEL`` and ``MQCONF_CONN_INFO`` (``host(port)``, or a comma-separated list): a client
  connection. Without ``MQCONF_CHANNEL`` the adapter connects in bindings mode.
- ``MQCONF_USER`` with ``MQCONF_PASSWORD`` or ``MQCONF_PASSWORD_FILE`` (the file's content, one trailing
  newline dropped): sent in an MQCSP. Neither value is ever logged, shown in a repr, an exception or an outcome;
  any text the adapter passes on is scrubbed of both.
- ``MQCONF_TLS_CIPHER`` (MQCD SSLCipherSpec), ``MQCONF_TLS_KEY_REPOSITORY`` (MQSCO KeyRepository, the stem
  without ``.kdb``) and ``MQCONF_TLS_CERT_LABEL`` (MQSCO CertificateLabel): TLS on the client channel.
- ``MQCONF_QUEUES`` (default ``DEV.QUEUE.1,DEV.QUEUE.2,DEV.QUEUE.3``, the developer container's queues) and
  ``MQCONF_QUEUE_PREFIX`` (default ``DEV.QUEUE.``): the pool of existing local queues the suite's
  ``define_queue`` names are mapped onto. An entry that is only digits gets the prefix (``1,2`` means
  ``DEV.QUEUE.1,DEV.QUEUE.2``).
- ``MQCONF_GET_BUFFER_LENGTH`` (default 4194304, the default MAXMSGL): the buffer of a get that gives no
  ``BufferLength`` (the call language's "large enough for any message").
- ``MQCONF_PCF`` (``auto``, the default; ``yes``; ``no``) and ``MQCONF_PCF_PREFIX`` (default ``MQCONF.``): define
  the suite's queues through PCF (see Queues).
- ``MQCONF_REAL_TIME=1`` (opt-in, slower): ``advance_clock`` waits that long in real time (at most ten minutes
  a call), ``define_qmgr {MsgMarkBrowseInterval}`` changes the queue manager through MQCMD_CHANGE_Q_MGR (the
  first value is restored on reset), and the adapter claims ``browse-mark``.

Queues: with PCF allowed (``MQCONF_PCF`` auto or yes), ``define_queue {name: Q1, ...}`` creates queue
``MQCONF.Q1`` with every attribute of the definition through ``PCFExecute`` (MQCMD_CREATE_Q with REPLACE; local,
model or alias by QType, an alias's BaseQName renamed the same way; a new local queue is emptied, then given its
InhibitGet with MQCMD_CHANGE_Q), ``alter_queue`` changes it (MQCMD_CHANGE_Q) and ``reset`` deletes it
(MQCMD_DELETE_Q with PURGE), with the permanent dynamic queues the scenario's opens made. Every suite queue name
then stands for the prefixed name, a full DynamicQName too; a DynamicQName ending in ``*`` is sent as it is and
the name MQ makes is the suite's. ``set`` is MQSET through ``Queue.set`` (a {selector: value} dict: a selector
given twice cannot be sent, and is refused); ``inquire`` reads MQIA_* and MQCA_* selectors, queue names renamed
back. When PCF cannot be used (no command server or model queue, not
authorized, no answer) ``auto`` says so once and falls back to the pool: ``define_queue`` takes the next free queue
of the pool, empties it (destructive gets outside syncpoint on a separate administrative connection) and
remembers the mapping; ``reset`` backs out and disconnects every connection and empties every mapped queue again.
Attributes cannot be set on a pool queue: an attribute the call gives must equal the queue's actual value (read
with MQINQ), or ``define_queue`` returns an error saying so. Queue names that were never defined pass through
unchanged, so an undefined name reaches the queue manager as written.

pymqi behaviours this adapter is built around (dsuch/pymqi 1.12.11, code/pymqi/__init__.py unless noted):

- Every non-zero completion code raises ``MQMIError``, warnings included. For MQGET warnings pymqi first
  unpacks MD and GMO and puts the data in ``message`` and the real length in ``original_length`` (lines
  2143-2153); the outcome takes them from there. For MQPUT/MQPUT1 warnings it raises before unpacking (lines
  2063-2067, 1862-1866), so a put warning's outcome carries no MD/PMO rather than stale input values.
- ``Queue.close`` raises on a warning before clearing its handle (lines 2212-2215), and pymqe's MQCLOSE does not
  return the Hobj MQ wrote back (pymqe.c 482-498). After a close warning the adapter keeps the old handle value,
  so the next call on that handle lets the queue manager itself say whether it is still valid.
- ``Queue.put``/``get``/``inquire`` silently open a queue whose handle is unset (lines 2058, 2123, 2224); the
  adapter therefore never leaves an unset handle: after a successful close or a failed open the handle is
  MQHO_UNUSABLE_HOBJ, the value an application holds then, and the queue manager answers calls on it.
- ``QueueManager.disconnect`` ignores MQDISC's completion code (line 1783) and unsets the handle; the adapter
  then stores MQHC_UNUSABLE_HCONN in pymqi's private ``_QueueManager__handle`` so later calls on that connection
  reach the queue manager, as an application's would.
- MQGMO version 4 and MQPMO version 3 fields exist only when pymqi is built against MQ 7 or later (lines 519,
  554); the adapter falls back to GMO version 3 / PMO version 2 otherwise, and logs it.
- Connections use MQCNO_HANDLE_SHARE_BLOCK: a thread may hold only one non-shared connection handle
  (MQRC_ALREADY_CONNECTED), and scenarios use several connections from one thread. Client connections add
  MQCNO_CLIENT_BINDING (an MQCD is ignored by an application linked as a server application); bindings use
  the standard binding, so a client-only installation falls back to MQSERVER or the CCDT, as MQ does.

Known limits: a second MQDISC on the same connection reports MQCC_OK through pymqi 1.12 (it hides MQDISC's
result); an MQOPEN that completes with a warning loses its handle (pymqi raises before keeping it); MQINQ is
issued once per selector; a get with MQGMO_WAIT and an unlimited WaitInterval blocks as it would in any
application; ``advance_clock`` is refused unless ``MQCONF_REAL_TIME=1``, and the cluster set-up verbs always, so
``browse-mark`` is claimed only in real time and ``cluster`` never.

Status: written from pymqi's source and IBM's documentation. Its main check is ``ibmmq+model``
(emulator/): this adapter, unchanged, over IBM's real ``ibmmq`` Python layer over an emulated native
module that answers from the model; every claimed scenario runs that way in ``make test``. A fake pymqi
(tests/fake_pymqi.py) still checks what only it can: credentials, client-connection structures and pymqi 1.12's
own quirks. It has NOT been run against a live queue manager yet.
"""

from __future__ import annotations

import importlib
import logging
import os
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from mq_conformance.reference import calls as reference_calls
from mq_conformance.reference import constants
from mq_conformance.reference.calls import (
    OPS,
    STRUCTURES,
    Call,
    CallError,
    Outcome,
    decode_bytes,
    decode_od,
    decode_options,
    decode_queue,
    decode_structure,
    encode_bytes,
    encode_structure,
)

from .base import AdapterError

log = logging.getLogger(__name__)

ADAPTER_VERSION = "0.1.0"
CAPABILITIES = frozenset({"core", "groups", "units-of-work", "segmentation", "set"})
PCF_CAPABILITIES = frozenset({"dynamic-queues", "alias-queues", "reports"})  # claimed with MQCONF_PCF=yes
REAL_TIME_CAPABILITIES = frozenset({"browse-mark", "expiry"})  # claimed with MQCONF_REAL_TIME=1: they wait
DEFAULT_CONNECTION = "default"
DEFAULT_QUEUE_PREFIX = "DEV.QUEUE."
DEFAULT_QUEUES = "DEV.QUEUE.1,DEV.QUEUE.2,DEV.QUEUE.3"
DEFAULT_GET_BUFFER_LENGTH = 4_194_304
DRAIN_LIMIT = 100_000
DEFAULT_PCF_PREFIX = "MQCONF."
PCF_WAIT_MS = 10_000  # how long a PCF command may take to be answered
MAX_REAL_WAIT_MS = 600_000  # advance_clock in real time: at most ten minutes a call
REDACTED = "***"
MODULES = ("pymqi", "ibmmq")
INSTALL_HINT = (
    "the ibmmq adapter needs IBM's ibmmq package: install mq-conformance[ibmmq] (pip install "
    "'mq-conformance[ibmmq]'), or pymqi, its predecessor with the same API (pip install pymqi; it builds against the "
    "IBM MQ C client, which must be installed first)"
)

V = constants.VALUES
# Header values the reference constants do not carry (cmqc.h / cmqxc.h, as in pymqi 1.12.11 CMQC.py lines 526,
# 531, 1733, 3017, 3267, 3401 and CMQXC.py lines 121, 141).
EXTRA = {
    "MQCNO_HANDLE_SHARE_BLOCK": 0x40,
    "MQCNO_CLIENT_BINDING": 0x800,
    "MQHC_UNUSABLE_HCONN": -1,
    "MQHO_UNUSABLE_HOBJ": -1,
    "MQIA_DEF_INPUT_OPEN_OPTION": 4,
    "MQIA_SHAREABILITY": 23,
    "MQCHT_CLNTCONN": 6,
    "MQXPT_TCP": 2,
    # PCF (cmqcfc.h / cmqc.h; ibmmq 2.1.2 CMQCFC.py, CMQC.py)
    "MQCA_Q_NAME": 2016,
    "MQIA_Q_TYPE": 20,
    "MQQT_LOCAL": 1,
    "MQIACF_REPLACE": 1006,
    "MQRP_YES": 1,
    "MQIACF_PURGE": 1007,
    "MQPO_YES": 1,
    "MQIA_MSG_MARK_BROWSE_INTERVAL": 68,
    "MQOT_Q_MGR": 5,
    "MQRC_NOT_AUTHORIZED": 2035,
    "MQRC_UNKNOWN_OBJECT_NAME": 2085,
    "MQQT_MODEL": 2,
    "MQQT_ALIAS": 3,
}
# MQI reasons that say PCF cannot be used here (no command server or model queue, not authorized, no answer)
PCF_UNAVAILABLE = frozenset({2035, 2085, V["MQRC_NO_MSG_AVAILABLE"], 2059, 2161, 2162})
# A define_queue attribute's value as PCF (and MQINQ) spells it
PCF_VALUES: dict[str, Callable[[Any], int]] = {
    "InhibitPut": lambda v: V["MQQA_PUT_INHIBITED"] if v else V["MQQA_PUT_ALLOWED"],
    "InhibitGet": lambda v: V["MQQA_GET_INHIBITED"] if v else V["MQQA_GET_ALLOWED"],
}
UNUSABLE_HOBJ = EXTRA["MQHO_UNUSABLE_HOBJ"]
UNUSABLE_HCONN = EXTRA["MQHC_UNUSABLE_HCONN"]
MQCC_OK, MQCC_WARNING = V["MQCC_OK"], V["MQCC_WARNING"]

# define_queue attributes only PCF can give (not compared with a pool queue's): attribute -> (PCF parameter, MQSC)
PCF_ATTRIBUTES: dict[str, tuple[str, str]] = {
    "QType": ("MQIA_Q_TYPE", "DEFINE QLOCAL|QMODEL|QALIAS"),
    "DefinitionType": ("MQIA_DEFINITION_TYPE", "DEFTYPE(TEMPDYN|PERMDYN)"),
    "BaseQName": ("MQCA_BASE_Q_NAME", "TARGET"),
    "BackoutThreshold": ("MQIA_BACKOUT_THRESHOLD", "BOTHRESH"),
    "BackoutRequeueQName": ("MQCA_BACKOUT_REQ_Q_NAME", "BOQNAME"),
    "TriggerControl": ("MQIA_TRIGGER_CONTROL", "TRIGGER|NOTRIGGER"),
    "TriggerType": ("MQIA_TRIGGER_TYPE", "TRIGTYPE"),
    "TriggerDepth": ("MQIA_TRIGGER_DEPTH", "TRIGDPTH"),
    "TriggerMsgPriority": ("MQIA_TRIGGER_MSG_PRIORITY", "TRIGMPRI"),
}
PCF_TEXT = frozenset({"BaseQName", "BackoutRequeueQName"})
QUEUE_NAME_SELECTORS = frozenset({"MQCA_Q_NAME", "MQCA_BASE_Q_NAME", "MQCA_BACKOUT_REQ_Q_NAME"})
SELECTOR_NOT_FOR_TYPE = constants.VALUES["MQRC_SELECTOR_NOT_FOR_TYPE"]
NOT_APPLICABLE = constants.VALUES["MQIAV_NOT_APPLICABLE"]
# The attributes an alias queue has (DEFINE QALIAS): its own inhibitions and defaults, and its target.
ALIAS_ATTRIBUTES = ("InhibitPut", "InhibitGet", "DefPriority", "DefPersistence")

# define_qmgr attribute -> its PCF parameter (MQCMD_CHANGE_Q_MGR) and MQINQ selector
QMGR_ATTRIBUTES: dict[str, str] = {"MsgMarkBrowseInterval": "MQIA_MSG_MARK_BROWSE_INTERVAL"}

# define_queue attribute -> (MQINQ selector, how MQSC spells it, for the message that says what to change); the
# selector is also the attribute's PCF parameter in MQCMD_CREATE_Q / MQCMD_CHANGE_Q
QUEUE_ATTRIBUTES: dict[str, tuple[str, str]] = {
    "MaxMsgLength": ("MQIA_MAX_MSG_LENGTH", "MAXMSGL"),
    "MaxQDepth": ("MQIA_MAX_Q_DEPTH", "MAXDEPTH"),
    "InhibitPut": ("MQIA_INHIBIT_PUT", "PUT(ENABLED|DISABLED)"),
    "InhibitGet": ("MQIA_INHIBIT_GET", "GET(ENABLED|DISABLED)"),
    "MsgDeliverySequence": ("MQIA_MSG_DELIVERY_SEQUENCE", "MSGDLVSQ(PRIORITY|FIFO)"),
    "DefPersistence": ("MQIA_DEF_PERSISTENCE", "DEFPSIST(NO|YES)"),
    "DefPriority": ("MQIA_DEF_PRIORITY", "DEFPRTY"),
    "DefInputOpenOption": ("MQIA_DEF_INPUT_OPEN_OPTION", "DEFSOPT(SHARED|EXCL)"),
    "Shareability": ("MQIA_SHAREABILITY", "SHARE|NOSHARE"),
}

_CONN_NAME = re.compile(r"^[^\s(),]+(\(\d+\))?$")  # host or host(port); IPv6 hosts have colons
_HOST_COLON_PORT = re.compile(r"^[^\s:(),]+:\d+$")  # the common mistake host:port


class IbmMqUnavailable(Exception):
    """The adapter cannot issue a call (no connection, no free queue...): becomes ``Outcome.error``."""


class _PcfUnavailable(Exception):
    """PCF cannot be used on this queue manager (no command server, not authorized, no answer)."""


# -- configuration ------------------------------------------------------------------------------------------

class Secret:
    """A credential that never shows itself in a repr, str or pickle."""

    __slots__ = ("_value",)

    def __init__(self, value: str):
        self._value = value

    def reveal(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return f"Secret({REDACTED!r})"

    __str__ = __repr__

    def __reduce__(self):
        raise TypeError("a Secret cannot be pickled")


def _env_value(env: Mapping[str, str], name: str) -> str | None:
    value = env.get(name)
    if value is None or value.strip() == "":
        return None
    return value.strip()


@dataclass(frozen=True)
class ConnectionConfig:
    """Where and how to connect, and which existing queues stand in for the suite's queues."""

    queue_manager: str = ""
    channel: str | None = None
    conn_info: str | None = None
    user: str | None = None
    password: Secret | None = field(default=None, repr=False)
    tls_cipher: str | None = None
    key_repository: str | None = None
    certificate_label: str | None = None
    queues: tuple[str, ...] = tuple(DEFAULT_QUEUES.split(","))
    get_buffer_length: int = DEFAULT_GET_BUFFER_LENGTH
    pcf: str = "auto"  # define queues through PCF: auto (try, fall back to the pool), yes, no
    pcf_prefix: str = DEFAULT_PCF_PREFIX
    real_time: bool = False  # advance_clock waits real time; browse-mark is claimed
    max_wait_ms: int = MAX_REAL_WAIT_MS  # the longest advance_clock waited in real time

    @property
    def client(self) -> bool:
        return self.channel is not None

    def describe(self) -> str:
        """A one-line description safe for logs: no credential values."""
        qm = repr(self.queue_manager) if self.queue_manager else "the default queue manager"
        if self.client:
            text = f"client connection to {qm} over channel {self.channel} at {self.conn_info}"
            if self.tls_cipher:
                text += f", TLS {self.tls_cipher}"
                if self.key_repository:
                    text += f" with key repository {self.key_repository}"
        else:
            text = f"bindings connection to {qm}"
        if self.user is not None:
            text += ", user id and password set"
        return text

    def __repr__(self) -> str:
        return f"ConnectionConfig({self.describe()}; queues {', '.join(self.queues)})"

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> ConnectionConfig:
        """The configuration the ``MQCONF_*`` variables describe; :class:`AdapterError` names a bad one."""
        env = os.environ if env is None else env
        channel = _env_value(env, "MQCONF_CHANNEL")
        conn_info = _env_value(env, "MQCONF_CONN_INFO")
        if channel is not None and conn_info is None:
            raise AdapterError("MQCONF_CHANNEL is set but MQCONF_CONN_INFO is not; give host(port), "
                               "e.g. MQCONF_CONN_INFO='127.0.0.1(1414)'")
        if conn_info is not None and channel is None:
            raise AdapterError("MQCONF_CONN_INFO is set but MQCONF_CHANNEL is not; give the server-connection "
                               "channel, e.g. MQCONF_CHANNEL=DEV.APP.SVRCONN (leave both unset for bindings)")
        if conn_info is not None and not all(_CONN_NAME.match(part) and not _HOST_COLON_PORT.match(part)
                                             for part in conn_info.split(",")):
            raise AdapterError(f"MQCONF_CONN_INFO={conn_info!r} is not host(port), e.g. 127.0.0.1(1414), "
                               "or a comma-separated list of them")
        user = _env_value(env, "MQCONF_USER")
        password = _read_password(env)
        if password is not None and user is None:
            raise AdapterError("a password is set (MQCONF_PASSWORD or MQCONF_PASSWORD_FILE) but MQCONF_USER is not")
        if user is not None and password is None:
            raise AdapterError("MQCONF_USER is set but neither MQCONF_PASSWORD nor MQCONF_PASSWORD_FILE is")
        cipher = _env_value(env, "MQCONF_TLS_CIPHER")
        key_repository = _env_value(env, "MQCONF_TLS_KEY_REPOSITORY")
        label = _env_value(env, "MQCONF_TLS_CERT_LABEL")
        if (cipher or key_repository or label) and channel is None:
            raise AdapterError("MQCONF_TLS_* settings need a client connection: set MQCONF_CHANNEL and "
                               "MQCONF_CONN_INFO")
        if (key_repository or label) and cipher is None:
            raise AdapterError("MQCONF_TLS_KEY_REPOSITORY/MQCONF_TLS_CERT_LABEL are set but MQCONF_TLS_CIPHER "
                               "(the channel's SSLCIPH) is not")
        return cls(
            queue_manager=_env_value(env, "MQCONF_QMGR") or "",
            channel=channel,
            conn_info=conn_info,
            user=user,
            password=password,
            tls_cipher=cipher,
            key_repository=key_repository,
            certificate_label=label,
            queues=_queue_pool(env),
            get_buffer_length=_get_buffer_length(env),
            pcf=_choice(env, "MQCONF_PCF", ("auto", "yes", "no"), "auto"),
            pcf_prefix=_pcf_prefix(env),
            real_time=_choice(env, "MQCONF_REAL_TIME", ("0", "1"), "0") == "1",
        )


def _read_password(env: Mapping[str, str]) -> Secret | None:
    inline = env.get("MQCONF_PASSWORD")
    path = _env_value(env, "MQCONF_PASSWORD_FILE")
    if inline and path:
        raise AdapterError("both MQCONF_PASSWORD and MQCONF_PASSWORD_FILE are set; set only one")
    if path is not None:
        try:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
        except OSError as exc:
            reason = exc.strerror or type(exc).__name__
            raise AdapterError(f"cannot read MQCONF_PASSWORD_FILE {path}: {reason}") from None
        if text.endswith("\n"):
            text = text[:-1]
        if text.endswith("\r"):
            text = text[:-1]
        if not text:
            raise AdapterError(f"MQCONF_PASSWORD_FILE {path} is empty")
        return Secret(text)
    return Secret(inline) if inline else None


def _queue_pool(env: Mapping[str, str]) -> tuple[str, ...]:
    prefix = env.get("MQCONF_QUEUE_PREFIX", DEFAULT_QUEUE_PREFIX)
    listed = env.get("MQCONF_QUEUES") or DEFAULT_QUEUES
    pool = []
    for entry in (item.strip() for item in listed.split(",")):
        if not entry:
            continue
        name = prefix + entry if entry.isdigit() else entry
        if len(name) > 48:
            raise AdapterError(f"MQCONF_QUEUES: {name!r} is longer than 48 characters, MQ's limit for a queue name")
        if name in pool:
            raise AdapterError(f"MQCONF_QUEUES names {name} twice")
        pool.append(name)
    if not pool:
        raise AdapterError("MQCONF_QUEUES lists no queues")
    return tuple(pool)


def _choice(env: Mapping[str, str], name: str, choices: tuple[str, ...], default: str) -> str:
    text = _env_value(env, name)
    if text is None:
        return default
    if text.lower() not in choices:
        raise AdapterError(f"{name}={text!r} is not one of {', '.join(choices)}")
    return text.lower()


def _pcf_prefix(env: Mapping[str, str]) -> str:
    prefix = env.get("MQCONF_PCF_PREFIX", DEFAULT_PCF_PREFIX)
    if not re.fullmatch(r"[A-Za-z0-9._/%]{1,32}", prefix):
        raise AdapterError(f"MQCONF_PCF_PREFIX={prefix!r} is not 1-32 characters of MQ object names "
                           "(A-Z a-z 0-9 . _ / %)")
    return prefix


def _get_buffer_length(env: Mapping[str, str]) -> int:
    text = _env_value(env, "MQCONF_GET_BUFFER_LENGTH")
    if text is None:
        return DEFAULT_GET_BUFFER_LENGTH
    if not text.isdigit() or int(text) < 1:
        raise AdapterError(f"MQCONF_GET_BUFFER_LENGTH={text!r} is not a whole number of bytes >= 1")
    return int(text)


# -- finding pymqi ------------------------------------------------------------------------------------------

def _import(name: str) -> Any:
    return importlib.import_module(name)


def load_mq_module() -> tuple[str, Any]:
    """``(name, module)`` of pymqi, or of ``ibmmq`` when pymqi is not installed; :class:`AdapterError` otherwise."""
    broken = []
    for name in MODULES:
        try:
            return name, _import(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue
            broken.append(f"{name} is installed but cannot be imported ({exc})")
        except (ImportError, OSError) as exc:
            broken.append(f"{name} is installed but cannot be imported ({exc})")
    if broken:
        raise AdapterError("; ".join(broken) + " - is the IBM MQ C client installed and on the library path "
                           "(e.g. LD_LIBRARY_PATH=/opt/mqm/lib64)?")
    raise AdapterError(INSTALL_HINT)


# -- state ------------------------------------------------------------------------------------------------

@dataclass
class _Connection:
    qmgr: Any
    connected: bool = True
    stale: bool = False  # disconnected, and its handle could not be made MQHC_UNUSABLE_HCONN


@dataclass
class _Handle:
    queue: Any  # a pymqi Queue
    connection: str
    queue_name: str  # the real queue's name
    state: str  # open | open-failed | closed | close-warned


def _text(value: Any) -> str:
    if isinstance(value, bytes):
        value = value.decode("utf-8", errors="replace")
    return str(value).rstrip("\0 ")


def to_model(source: Any, kinds: Mapping[str, tuple], target: Any) -> Any:
    """Copy every field the model knows (``kinds``, as reference/calls.py describes them) from a pymqi or
    ``ibmmq`` structure ``source`` into the model's structure ``target``: ids padded or cut to their length, text
    without its padding, formats as 8 characters, the rest as integers. The ibmmq adapter reads what a queue
    manager returned with it, the emulator (emulator/) what IBM's Python layer passed down."""
    for name, kind in kinds.items():
        value = getattr(source, name, None)
        if value is None:
            continue
        tag = kind[0]
        if tag == "id":
            value = bytes(value).ljust(kind[2], b"\0")[: kind[2]]
        elif tag == "text":
            value = _text(value)
        elif tag == "format":
            raw = value.decode("ascii", errors="replace") if isinstance(value, bytes) else str(value)
            value = raw.replace("\0", " ").ljust(8)[:8]
        else:
            value = int(value)
        setattr(target, name, value)
    return target


class IbmMqAdapter:
    """Runs calls on a real IBM MQ queue manager through pymqi (see the module docstring)."""

    name = "ibmmq"
    capabilities = CAPABILITIES

    def __init__(self, config: ConnectionConfig | None = None, env: Mapping[str, str] | None = None,
                 module: tuple[str, Any] | None = None):
        # ``module``: (name, module) of the pymqi-compatible package to use instead of finding one (the
        # ibmmq+model adapter passes IBM's ibmmq over the emulated native module).
        self.module_name, self.mq = module if module is not None else load_mq_module()
        native = getattr(getattr(self.mq, "ibmmqc", None), "__name__", "")
        if module is None and native.startswith("mq_conformance.emulator"):
            raise AdapterError("ibmmq in this process runs over the model's emulator (emulator/), "
                               "not IBM's client: use the ibmmq+model adapter, or run the ibmmq adapter in a "
                               "process without the emulator (pytest --adapter ibmmq does not install it)")
        self.config = config if config is not None else ConnectionConfig.from_env(env)
        self.version = f"{ADAPTER_VERSION} ({self.module_name} {getattr(self.mq, '__version__', 'unknown')})"
        self._admin: Any = None
        self._mapping: dict[str, str] = {}  # suite name -> real queue name
        self._connections: dict[str, _Connection] = {}
        self._spare_connections: list[_Connection] = []  # replaced by a second connect on the same name
        self._handles: dict[str, _Handle] = {}
        self._spare_handles: list[_Handle] = []  # replaced by a second open on the same name
        self._noted: set[str] = set()
        self._reason_names: dict[int, str] | None = None
        self._pcf: Any = None  # a PCFExecute on the administrative connection, once PCF has worked
        self._pcf_state = "off" if self.config.pcf == "no" else "untried"  # untried | on | off
        self._created: set[str] = set()  # queues this adapter defined through PCF (deleted on reset)
        self._aliases: set[str] = set()  # those of them that are alias queues
        self._qmgr_originals: dict[str, int] = {}  # queue-manager attributes changed, with their first values
        self._dynamic: dict[str, str] = {}  # suite name -> dynamic queue the scenario's opens made (PCF deletes)
        claimed = set(CAPABILITIES)
        if self.config.real_time:
            claimed |= REAL_TIME_CAPABILITIES
        if self.config.pcf == "yes":
            claimed |= PCF_CAPABILITIES
        self.capabilities = frozenset(claimed)
        self._sleep: Callable[[float], None] = time.sleep

    def __repr__(self) -> str:
        return f"IbmMqAdapter({self.module_name}; {self.config.describe()})"

    # -- the protocol ---------------------------------------------------------------------------------------
    def reset(self) -> None:
        """Back out and disconnect every connection, empty every mapped queue, forget the mapping."""
        self._release()
        for real in list(self._mapping.values()):
            if real in self._created:
                self._pcf_quietly("MQCMD_DELETE_Q", {EXTRA["MQCA_Q_NAME"]: real.encode("ascii"),
                                                     EXTRA["MQIACF_PURGE"]: EXTRA["MQPO_YES"]})
                self._created.discard(real)
            else:
                self._drain_quietly(real)
        self._mapping.clear()
        for dynamic in sorted(self._dynamic.values()):  # permanent ones outlive their handles
            self._pcf_quietly("MQCMD_DELETE_Q", {EXTRA["MQCA_Q_NAME"]: dynamic.encode("ascii"),
                                                 EXTRA["MQIACF_PURGE"]: EXTRA["MQPO_YES"]}, missing_ok=True)
        self._dynamic.clear()
        if self._qmgr_originals:
            self._pcf_quietly("MQCMD_CHANGE_Q_MGR", {self._value(QMGR_ATTRIBUTES[name]): value
                                                     for name, value in self._qmgr_originals.items()})
            self._qmgr_originals.clear()

    def close(self) -> None:
        self.reset()
        if self._pcf is not None:
            pcf, self._pcf = self._pcf, None
            self._quietly("PCF reply queue close", pcf.disconnect)
        if self._admin is not None:
            admin, self._admin = self._admin, None
            try:
                admin.disconnect()
            except Exception as exc:  # noqa: BLE001 - closing is best effort
                log.debug("ibmmq: administrative disconnect failed: %s", self.redact(str(exc)))

    def execute(self, call: Call) -> Outcome:
        run = self._OPS.get(call.op)
        if run is None:
            if call.op in OPS:
                return Outcome(error=f"{call.op} is not supported by the ibmmq adapter: queue managers, channels "
                                     "and clusters of a real installation are set up by hand (MQSC), not by the suite")
            return Outcome(error=f"unknown op {call.op!r}")
        log.debug("ibmmq: %s", self.redact(repr(call.to_json())))
        try:
            out = run(self, dict(call.args))
        except CallError as exc:
            out = Outcome(error=f"bad call: {exc}")
        except IbmMqUnavailable as exc:
            out = Outcome(error=str(exc))
        except self.mq.MQMIError as exc:
            out = self._mq_outcome(exc)
        except Exception as exc:  # noqa: BLE001 - a library failure is a result to report, not a crash
            out = Outcome(error=f"{call.op}: {self.module_name} raised {type(exc).__name__}: {exc}")
        return self._scrub(out)

    # -- credentials ------------------------------------------------------------------------------------------
    def redact(self, text: str) -> str:
        """``text`` with the password and the user id replaced by ``***``."""
        password = self.config.password.reveal() if self.config.password else None
        if password:
            text = text.replace(password, REDACTED)
        if self.config.user and len(self.config.user) >= 3:  # a shorter id would mangle every word it is in
            text = text.replace(self.config.user, REDACTED)
        return text

    def _scrub(self, out: Outcome) -> Outcome:
        if out.error is not None:
            out.error = self.redact(out.error)
        password = self.config.password.reveal() if self.config.password else None
        for key in ("MD", "PMO", "GMO"):
            fields_ = getattr(out, key)
            if not fields_:
                continue
            for name, value in fields_.items():
                if not isinstance(value, str):
                    continue
                if self.config.user and value == self.config.user:
                    fields_[name] = REDACTED
                elif password and password in value:
                    fields_[name] = value.replace(password, REDACTED)
        return out

    # -- connections ------------------------------------------------------------------------------------------
    def _new_qmgr(self) -> tuple[Any, Exception | None]:
        """A connected pymqi QueueManager, and the MQMIError of a connect that completed with a warning."""
        mq, cfg = self.mq, self.config
        log.debug("ibmmq: connecting: %s", cfg.describe())
        qmgr = mq.QueueManager(None)
        kwargs: dict[str, Any] = {"opts": EXTRA["MQCNO_HANDLE_SHARE_BLOCK"]}
        if cfg.client:
            # ClientConnPtr is ignored unless the application runs as a client; a pymqi linked with the server
            # library needs MQCNO_CLIENT_BINDING to become one (IBM MQ docs, MQCNO ClientConnPtr).
            kwargs["opts"] |= EXTRA["MQCNO_CLIENT_BINDING"]
            cd = mq.CD()
            cd["ChannelName"] = cfg.channel.encode("ascii")
            cd["ConnectionName"] = cfg.conn_info.encode("ascii")
            cd["ChannelType"] = EXTRA["MQCHT_CLNTCONN"]
            cd["TransportType"] = EXTRA["MQXPT_TCP"]
            if cfg.tls_cipher:
                cd["SSLCipherSpec"] = cfg.tls_cipher.encode("ascii")
                sco = mq.SCO()
                if cfg.key_repository:
                    sco["KeyRepository"] = cfg.key_repository.encode("utf-8")
                if cfg.certificate_label:
                    sco["CertificateLabel"] = cfg.certificate_label.encode("utf-8")
                kwargs["sco"] = sco
            kwargs["cd"] = cd
        if cfg.user is not None and cfg.password is not None:
            kwargs["user"] = cfg.user
            kwargs["password"] = cfg.password.reveal()
        try:
            qmgr.connect_with_options(cfg.queue_manager.encode("ascii"), **kwargs)
        except self.mq.MQMIError as exc:
            if exc.comp == MQCC_WARNING:  # pymqi keeps the handle of a connect that warned (line 1742)
                return qmgr, exc
            raise
        return qmgr, None

    def _connection(self, args: Mapping[str, Any]) -> _Connection:
        name = args.get("connection", DEFAULT_CONNECTION)
        if not isinstance(name, str) or not name:
            raise CallError("expected a connection name", "connection")
        conn = self._connections.get(name)
        if conn is None:
            try:
                qmgr, _warning = self._new_qmgr()
            except self.mq.MQMIError as exc:
                raise IbmMqUnavailable(f"cannot connect ({self.config.describe()}) for connection {name!r}: "
                                       f"{self._reason(exc.reason)}") from None
            conn = self._connections[name] = _Connection(qmgr)
        if conn.stale:
            raise IbmMqUnavailable(f"connection {name!r} was disconnected and {self.module_name} keeps no handle "
                                   "to pass to the queue manager, so MQ's answer cannot be observed")
        return conn

    def _admin_qmgr(self) -> Any:
        if self._admin is None:
            try:
                self._admin, _warning = self._new_qmgr()
            except self.mq.MQMIError as exc:
                raise IbmMqUnavailable(f"cannot connect ({self.config.describe()}) to prepare queues: "
                                       f"{self._reason(exc.reason)}") from None
        return self._admin

    def _release(self) -> None:
        """Back out, close and disconnect everything the scenario's calls created."""
        connections = list(self._connections.values()) + self._spare_connections
        for conn in connections:
            if conn.connected:
                self._quietly("backout", conn.qmgr.backout)
        for handle in list(self._handles.values()) + self._spare_handles:
            owner = self._connections.get(handle.connection)
            if handle.state == "open" and owner is not None and owner.connected:
                self._quietly("close", handle.queue.close)
            self._quietly("forget handle", handle.queue.set_handle, None)  # pymqi's __del__ must not close it
        for conn in connections:
            if conn.connected:
                self._quietly("disconnect", conn.qmgr.disconnect)
            conn.connected = False
        self._connections.clear()
        self._spare_connections.clear()
        self._handles.clear()
        self._spare_handles.clear()

    def _quietly(self, what: str, action: Callable, *args: Any) -> None:
        try:
            action(*args)
        except Exception as exc:  # noqa: BLE001 - clean-up is best effort
            log.debug("ibmmq: %s during reset: %s", what, self.redact(str(exc)))

    # -- queues -----------------------------------------------------------------------------------------------
    def _prefixed(self) -> bool:
        """Whether the suite's queue names are the queue manager's with MQCONF_PCF_PREFIX (PCF defines them)."""
        return self._pcf_state == "on" or self.config.pcf == "yes"

    def _real_name(self, name: str) -> str:
        if name in self._mapping:
            return self._mapping[name]
        if name in self._dynamic:
            return self._dynamic[name]
        return self._pcf_name(name) if self._prefixed() else name

    def _suite_name(self, real: str) -> str:
        for name, mapped in (*self._mapping.items(), *self._dynamic.items()):
            if mapped == real:
                return name
        if self._prefixed() and real.startswith(self.config.pcf_prefix):
            return real[len(self.config.pcf_prefix):]
        return real

    def _admin_open(self, real: str, options: int) -> Any:
        queue = self.mq.Queue(self._admin_qmgr())
        queue.open(self.mq.OD(ObjectName=real.encode("ascii")), options)
        return queue

    def _admin_close(self, queue: Any) -> None:
        try:
            queue.close()
        except Exception as exc:  # noqa: BLE001
            log.debug("ibmmq: closing an administrative handle: %s", self.redact(str(exc)))
        finally:
            queue.set_handle(None)

    def drain(self, real: str) -> int:
        """Destructively get every message on queue ``real`` outside syncpoint; how many there were."""
        try:
            queue = self._admin_open(real, V["MQOO_INPUT_SHARED"] | V["MQOO_FAIL_IF_QUIESCING"])
        except self.mq.MQMIError as exc:
            raise IbmMqUnavailable(f"cannot open {real} to empty it: {self._reason(exc.reason)}") from None
        options = (V["MQGMO_NO_WAIT"] | V["MQGMO_NO_SYNCPOINT"] | V["MQGMO_ACCEPT_TRUNCATED_MSG"]
                   | V["MQGMO_FAIL_IF_QUIESCING"])
        try:
            for removed in range(DRAIN_LIMIT):
                md = self.mq.MD()
                gmo = self.mq.GMO(Version=2, Options=options, MatchOptions=V["MQMO_NONE"])
                try:
                    queue.get(1, md, gmo)
                except self.mq.MQMIError as exc:
                    if exc.reason == V["MQRC_NO_MSG_AVAILABLE"]:
                        if removed:
                            log.debug("ibmmq: emptied %s (%d messages)", real, removed)
                        return removed
                    if exc.comp != MQCC_WARNING:  # MQRC_TRUNCATED_MSG_ACCEPTED: the message is gone
                        raise IbmMqUnavailable(f"cannot empty {real}: {self._reason(exc.reason)}") from None
            raise IbmMqUnavailable(f"{real} still has messages after {DRAIN_LIMIT} gets; is another application "
                                   "putting to it?")
        finally:
            self._admin_close(queue)

    def _drain_quietly(self, real: str) -> None:
        try:
            self.drain(real)
        except Exception as exc:  # noqa: BLE001 - define_queue drains again and reports
            log.warning("ibmmq: could not empty %s on reset: %s", real, self.redact(str(exc)))

    def _actual_attributes(self, real: str, wanted: list[str]) -> tuple[dict[str, int], dict[str, str]]:
        """The queue's values of every define_queue attribute, and why any could not be read."""
        values: dict[str, int] = {}
        problems: dict[str, str] = {}
        try:
            queue = self._admin_open(real, V["MQOO_INQUIRE"] | V["MQOO_FAIL_IF_QUIESCING"])
        except self.mq.MQMIError as exc:
            reason = self._reason(exc.reason)
            return values, {name: f"cannot open {real} to inquire: {reason}" for name in wanted}
        try:
            for name in wanted:
                selector = QUEUE_ATTRIBUTES[name][0]
                try:
                    values[name] = int(queue.inquire(self._value(selector)))
                except self.mq.MQMIError as exc:
                    problems[name] = f"MQINQ {selector} failed: {self._reason(exc.reason)}"
        finally:
            self._admin_close(queue)
        return values, problems

    # -- structures -------------------------------------------------------------------------------------------
    def _note_once(self, key: str, message: str) -> None:
        if key not in self._noted:
            self._noted.add(key)
            log.warning("ibmmq: %s", message)

    def _to_mq(self, key: str, structure: Any) -> Any:
        """A pymqi MD/PMO/GMO carrying every field of a reference structure."""
        cls, kinds = STRUCTURES[key]
        target = {"MD": self.mq.MD, "PMO": self.mq.PMO, "GMO": self.mq.GMO}[key]()
        defaults = cls()
        for name, kind in kinds.items():
            value = getattr(structure, name)
            if not hasattr(target, name) and value == getattr(defaults, name):
                continue  # a later version's field (PMO.PubLevel) the library lacks, left at its default
            tag = kind[0]
            if tag == "id":
                value = bytes(value).ljust(kind[2], b"\0")[: kind[2]]
            elif tag == "text":
                value = value.encode("utf-8")
            elif tag == "format":
                value = value.encode("ascii")
            target[name] = value
        local = structure.ReplyToQMgr.strip() in ("", self.config.queue_manager) if key == "MD" else False
        if local and structure.ReplyToQ.strip():  # a suite queue of this queue manager: its real name
            target.ReplyToQ = self._real_name(structure.ReplyToQ.strip()).encode("utf-8")
        if key == "GMO" and target.Version >= V["MQGMO_VERSION_4"] and not hasattr(target, "MsgHandle"):
            self._note_once("gmo-v4", f"{self.module_name} was built without MQGMO version 4 fields; "
                                      "using MQGMO_VERSION_3")
            target.Version = V["MQGMO_VERSION_3"]
        if key == "PMO" and target.Version >= V["MQPMO_VERSION_3"] and not hasattr(target, "OriginalMsgHandle"):
            self._note_once("pmo-v3", f"{self.module_name} was built without MQPMO version 3 fields; "
                                      "using MQPMO_VERSION_2")
            target.Version = V["MQPMO_VERSION_2"]
        return target

    def _from_mq(self, key: str, source: Any) -> dict[str, Any]:
        """The call-language mapping of a pymqi MD/PMO/GMO, as the reference adapter encodes a model structure."""
        cls, kinds = STRUCTURES[key]
        structure = to_model(source, kinds, cls())
        if key in ("PMO", "GMO"):
            structure.ResolvedQName = self._suite_name(structure.ResolvedQName)
        if key == "MD" and structure.ReplyToQ:
            structure.ReplyToQ = self._suite_name(structure.ReplyToQ)
        return encode_structure(key, structure)

    # -- outcomes ---------------------------------------------------------------------------------------------
    def _value(self, name: str) -> int:
        if name in V:
            return V[name]
        if name in EXTRA:
            return EXTRA[name]
        for module in ("CMQC", "CMQCFC"):
            value = getattr(getattr(self.mq, module, None), name, None)
            if isinstance(value, int):
                return value
        raise CallError(f"unknown MQ constant {name}")

    def _reason(self, reason: int) -> str:
        known = constants.NAMES.get("MQRC", {}).get(reason)
        if known is not None:
            return known
        if self._reason_names is None:
            self._reason_names = {}
            for attr, value in sorted(vars(getattr(self.mq, "CMQC", object())).items()):
                if attr.startswith("MQRC_") and isinstance(value, int):
                    self._reason_names.setdefault(value, attr)
        return self._reason_names.get(reason, f"MQRC_{reason}")

    def _mq_outcome(self, exc: Any) -> Outcome:
        return Outcome(CompCode=constants.name_of(exc.comp, "MQCC"), Reason=self._reason(exc.reason))

    @staticmethod
    def _ok(**fields_: Any) -> Outcome:
        return Outcome(CompCode="MQCC_OK", Reason="MQRC_NONE", **fields_)

    # -- the calls --------------------------------------------------------------------------------------------
    def _handle(self, args: Mapping[str, Any]) -> _Handle:
        name = args.get("handle")
        if not isinstance(name, str):
            raise CallError("needs a 'handle' name", "handle")
        handle = self._handles.get(name)
        if handle is None:
            raise CallError(f"handle {name!r} was never opened", "handle")
        owner = self._connections.get(handle.connection)
        if owner is not None and owner.stale:
            raise IbmMqUnavailable(f"handle {name!r} belongs to connection {handle.connection!r}, which was "
                                   f"disconnected; {self.module_name} keeps no handle to pass to the queue manager")
        if handle.queue.get_handle() is None:
            handle.queue.set_handle(UNUSABLE_HOBJ)  # never let pymqi open the queue behind the call's back
        return handle

    def _define_queue(self, args: dict) -> Outcome:
        # Where the queue is and its cluster attributes (when the call language has them) are beyond this adapter.
        elsewhere = {"qmgr", *getattr(reference_calls, "CLUSTER_QUEUE_FIELDS", {})}
        unsupported = sorted(key for key in args if key in elsewhere)
        if unsupported:
            return Outcome(error=f"define_queue {args.get('name')}: {', '.join(unsupported)} not supported by the "
                                 "ibmmq adapter (it maps queues onto existing local queues of one queue manager)")
        definition = decode_queue(args, "define_queue")
        name = definition.name
        explicit = [key for key in args if key != "name"]
        real = self._mapping.get(name)
        fresh = real is None
        if (fresh or real in self._created) and self._pcf_usable():
            created = self._pcf_define(name, real, definition, explicit)
            if created is not None:
                return created
        if fresh:
            taken = set(self._mapping.values())
            free = [queue for queue in self.config.queues if queue not in taken]
            if not free:
                raise IbmMqUnavailable(
                    f"define_queue {name}: all {len(self.config.queues)} queues of the pool "
                    f"({', '.join(self.config.queues)}) are in use; list more in MQCONF_QUEUES")
            real = free[0]
        actual, unreadable = self._actual_attributes(real, list(QUEUE_ATTRIBUTES))
        problems = []
        for key in explicit:
            wanted = int(getattr(definition, key))
            if key not in QUEUE_ATTRIBUTES:
                problems.append(f"{key}={wanted} cannot be checked by this adapter")
            elif key in unreadable:
                problems.append(f"{key} could not be checked ({unreadable[key]})")
            elif actual[key] != wanted:
                problems.append(f"{key}={wanted} (the queue has {actual[key]}; MQSC {QUEUE_ATTRIBUTES[key][1]})")
        if problems:
            return Outcome(error=(
                f"define_queue {name} -> {real}: {'; '.join(problems)}: queue attributes are not settable on a "
                f"pre-defined queue by this adapter (PCF definition is not implemented); ALTER QLOCAL({real}) to "
                "match, or run this scenario on the reference adapter"))
        for key, value in actual.items():
            assumed = int(getattr(definition, key))
            if key not in explicit and assumed != value:
                self._note_once(f"default:{real}:{key}",
                                f"{real} (standing in for {name}) has {key}={value}; the suite assumes {assumed}")
        if fresh:
            self.drain(real)
            self._mapping[name] = real
            log.debug("ibmmq: %s is %s", name, real)
        return self._ok()

    # -- PCF ------------------------------------------------------------------------------------------------
    def _pcf_usable(self) -> bool:
        return self._pcf_state != "off"

    def _pcf_command(self, command: str, parameters: dict[int, Any], missing_ok: bool = False) -> None:
        """Run one PCF command; :class:`_PcfUnavailable` when PCF cannot be used here (MQMIError otherwise)."""
        if self._pcf is None:
            execute = getattr(self.mq, "PCFExecute", None)
            if execute is None:
                raise _PcfUnavailable(f"{self.module_name} has no PCFExecute")
            try:
                self._pcf = execute(self._admin_qmgr(), response_wait_interval=PCF_WAIT_MS)
            except self.mq.MQMIError as exc:
                raise _PcfUnavailable(f"cannot open the PCF reply queue: {self._reason(exc.reason)}") from None
        try:
            getattr(self._pcf, command)(parameters)
        except self.mq.MQMIError as exc:
            if missing_ok and exc.reason == EXTRA["MQRC_UNKNOWN_OBJECT_NAME"]:
                return
            if exc.reason in PCF_UNAVAILABLE:
                raise _PcfUnavailable(f"{command} failed: {self._reason(exc.reason)}") from None
            raise
        self._pcf_state = "on"

    def _pcf_quietly(self, command: str, parameters: dict[int, Any], missing_ok: bool = False) -> None:
        if self._pcf_state != "on":
            return
        try:
            self._pcf_command(command, parameters, missing_ok)
        except Exception as exc:  # noqa: BLE001 - clean-up is best effort
            log.warning("ibmmq: %s during reset: %s", command, self.redact(str(exc)))

    def _pcf_unavailable(self, why: str) -> Outcome | None:
        """PCF cannot be used: with MQCONF_PCF=yes an error, with auto a note and the pool from now on."""
        if self.config.pcf == "yes":
            return Outcome(error=f"PCF is required (MQCONF_PCF=yes) but {why}")
        self._pcf_state = "off"
        self._note_once("pcf-off", f"PCF not available ({why}); define_queue maps names onto the queues of "
                                   "MQCONF_QUEUES instead")
        return None

    def _pcf_define(self, name: str, real: str | None, definition: Any, explicit: list[str]) -> Outcome | None:
        """Define ``name`` as a local queue with every attribute of ``definition`` through MQCMD_CREATE_Q
        (REPLACE); None when PCF turned out to be unavailable (the caller falls back to the pool)."""
        beyond = sorted(key for key in explicit if key not in QUEUE_ATTRIBUTES and key not in PCF_ATTRIBUTES)
        if beyond:  # never define a plain local queue where the call asked for something else
            return Outcome(error=f"define_queue {name}: {', '.join(beyond)} not supported by the ibmmq adapter")
        fresh = real is None
        real = real or self._pcf_name(name)
        qtype = int(getattr(definition, "QType", EXTRA["MQQT_LOCAL"]))
        if qtype == EXTRA["MQQT_ALIAS"]:  # an alias has no queue of its own: its own attributes and its target
            attributes = {key: getattr(definition, key) for key in ALIAS_ATTRIBUTES}
            base = str(getattr(definition, "BaseQName", ""))
            attributes["BaseQName"] = self._mapping.get(base) or self._pcf_name(base) if base else ""
        else:
            attributes = {key: getattr(definition, key) for key in QUEUE_ATTRIBUTES}
            attributes.update({key: getattr(definition, key) for key in explicit if key in PCF_ATTRIBUTES})
        if attributes.get("BackoutRequeueQName"):  # a suite queue's name, like BaseQName
            named = attributes["BackoutRequeueQName"]
            attributes["BackoutRequeueQName"] = self._mapping.get(named) or self._pcf_name(named)
        attributes.pop("QType", None)
        # A queue of that name left by an earlier run keeps its messages under REPLACE: a fresh local queue is
        # created with gets allowed, emptied, and only then given its InhibitGet.
        local = qtype == EXTRA["MQQT_LOCAL"]
        first = dict(attributes, InhibitGet=False) if fresh and local else attributes
        command = "MQCMD_CREATE_Q"
        try:
            self._pcf_command(command, self._queue_parameters(real, first, replace=True, qtype=qtype))
            self._created.add(real)
            if fresh and local:
                self.drain(real)
                if attributes["InhibitGet"]:
                    command = "MQCMD_CHANGE_Q"
                    self._pcf_command(command, self._queue_parameters(real, {"InhibitGet": True}))
        except _PcfUnavailable as exc:
            return self._pcf_unavailable(str(exc))
        except self.mq.MQMIError as exc:
            return Outcome(error=f"define_queue {name} -> {real}: {command} failed: {self._reason(exc.reason)}")
        self._mapping[name] = real
        log.debug("ibmmq: %s is %s (PCF)", name, real)
        return self._ok()

    def _dynamic_name(self, requested: str) -> str:
        """The DynamicQName to send: a full name is prefixed like every suite queue when PCF names them (an alias
        may target it, a later open name it); a template ending in ``*`` is sent as it is, since MQ allows the
        asterisk only up to position 33 and the name it makes is the queue manager's own."""
        if self._prefixed() and requested and not requested.endswith("*"):
            return self._pcf_name(requested)
        return requested

    def _pcf_name(self, name: str) -> str:
        """The name of the queue PCF defines for the suite's queue ``name``."""
        return (self.config.pcf_prefix + name)[:48]

    def _queue_parameters(self, real: str, attributes: Mapping[str, Any], replace: bool = False,
                          qtype: int | None = None) -> dict[int, Any]:
        """The PCF parameters of MQCMD_CREATE_Q / MQCMD_CHANGE_Q for queue ``real`` with ``attributes``."""
        if qtype is None:
            qtype = EXTRA["MQQT_ALIAS"] if real in self._created and self._is_alias(real) else EXTRA["MQQT_LOCAL"]
        parameters: dict[int, Any] = {EXTRA["MQCA_Q_NAME"]: real.encode("ascii"), EXTRA["MQIA_Q_TYPE"]: qtype}
        if replace:
            parameters[EXTRA["MQIACF_REPLACE"]] = EXTRA["MQRP_YES"]
        for key, value in attributes.items():
            selector = (QUEUE_ATTRIBUTES.get(key) or PCF_ATTRIBUTES[key])[0]
            if key in PCF_TEXT:
                parameters[self._value(selector)] = str(value).encode("ascii")
            else:
                parameters[self._value(selector)] = PCF_VALUES[key](value) if key in PCF_VALUES else int(value)
        if qtype == EXTRA["MQQT_ALIAS"]:
            self._aliases.add(real)
        return parameters

    def _is_alias(self, real: str) -> bool:
        return real in self._aliases

    def _define_qmgr(self, args: dict) -> Outcome:
        unsupported = sorted(key for key in args if key not in QMGR_ATTRIBUTES)
        if unsupported:
            return Outcome(error=f"define_qmgr: {', '.join(unsupported)} not supported by the ibmmq adapter (only "
                                 f"{', '.join(QMGR_ATTRIBUTES)} of the connected queue manager, through PCF)")
        attributes = reference_calls.decode_qmgr(args, "define_qmgr")
        if not self._pcf_usable():
            return Outcome(error="define_qmgr needs PCF (MQCMD_CHANGE_Q_MGR), which is not available")
        parameters = {}
        for key, value in attributes.items():
            selector = self._value(QMGR_ATTRIBUTES[key])
            if key not in self._qmgr_originals:
                try:
                    self._qmgr_originals[key] = self._qmgr_attribute(selector)
                except self.mq.MQMIError as exc:
                    return Outcome(error=f"define_qmgr: cannot read {key} to restore it later (MQINQ on the queue "
                                         f"manager: {self._reason(exc.reason)}); not changed")
            parameters[selector] = value
        try:
            self._pcf_command("MQCMD_CHANGE_Q_MGR", parameters)
        except _PcfUnavailable as exc:
            return self._pcf_unavailable(str(exc)) or Outcome(error=f"define_qmgr needs PCF: {exc}")
        return self._ok()

    def _qmgr_attribute(self, selector: int) -> int:
        """An integer attribute of the queue manager (MQINQ on the queue-manager object)."""
        queue = self.mq.Queue(self._admin_qmgr())
        queue.open(self.mq.OD(ObjectType=EXTRA["MQOT_Q_MGR"]), V["MQOO_INQUIRE"])
        try:
            return int(queue.inquire(selector))
        finally:
            self._admin_close(queue)

    def _alter_queue(self, args: dict) -> Outcome:
        qmgr, name, local, cluster = reference_calls.decode_alter_queue(args, "alter_queue")
        if qmgr is not None or cluster:
            return Outcome(error="alter_queue: qmgr and cluster attributes are not supported by the ibmmq adapter")
        real = self._mapping.get(name)
        if real not in self._created:
            return Outcome(error=f"alter_queue {name}: only queues this adapter defined through PCF can be altered")
        try:
            self._pcf_command("MQCMD_CHANGE_Q", self._queue_parameters(real, local))
        except _PcfUnavailable as exc:
            return Outcome(error=f"alter_queue {name}: {exc}")
        except self.mq.MQMIError as exc:
            return Outcome(error=f"alter_queue {name} -> {real}: MQCMD_CHANGE_Q failed: {self._reason(exc.reason)}")
        return self._ok()

    def _connect(self, args: dict) -> Outcome:
        name = args.get("connection", DEFAULT_CONNECTION)
        if not isinstance(name, str) or not name:
            raise CallError("expected a connection name", "connection")
        if "qmgr" in args:
            raise IbmMqUnavailable("connect: 'qmgr' (a queue manager of a modelled cluster) is not supported by the "
                                   "ibmmq adapter, which connects to MQCONF_QMGR")
        qmgr, warning = self._new_qmgr()
        old = self._connections.get(name)
        if old is not None:
            self._spare_connections.append(old)
        self._connections[name] = _Connection(qmgr)
        return self._mq_outcome(warning) if warning is not None else self._ok()

    def _disconnect(self, args: dict) -> Outcome:
        conn = self._connection(args)
        out = self._ok()
        try:
            conn.qmgr.disconnect()  # pymqi 1.12 ignores MQDISC's completion code; ibmmq raises
        except self.mq.MQMIError as exc:
            out = self._mq_outcome(exc)
        conn.connected = False
        if hasattr(conn.qmgr, "_QueueManager__handle"):
            conn.qmgr._QueueManager__handle = UNUSABLE_HCONN  # what MQDISC leaves in an application's Hconn
        else:
            conn.stale = True
        return out

    def _open(self, args: dict) -> Outcome:
        name = args.get("handle")
        if not isinstance(name, str) or not name:
            raise CallError("needs a 'handle' name", "handle")
        conn_name = args.get("connection", DEFAULT_CONNECTION)
        conn = self._connection(args)
        od_ = decode_od(args, "open")
        options = decode_options(args.get("Options", []), "MQOO", "Options")
        real = self._real_name(od_.ObjectName)
        od = self.mq.OD(ObjectName=real.encode("ascii"), ObjectQMgrName=od_.ObjectQMgrName.encode("ascii"),
                        DynamicQName=self._dynamic_name(od_.DynamicQName).encode("ascii"))
        queue = self.mq.Queue(conn.qmgr)
        previous = self._handles.get(name)
        if previous is not None:
            self._spare_handles.append(previous)
        try:
            queue.open(od, options)
        except self.mq.MQMIError as exc:
            # pymqi raises before keeping the handle, even on a warning (lines 1959-1961): treat it as unusable.
            queue.set_handle(UNUSABLE_HOBJ)
            self._handles[name] = _Handle(queue, conn_name, real, "open-failed")
            return self._mq_outcome(exc)
        opened = _text(od.ObjectName)  # MQ returns the dynamic queue's name when ``real`` is a model queue
        if opened and opened != real:
            suite = opened
            if self._prefixed() and not od_.DynamicQName.endswith("*"):
                suite = od_.DynamicQName
            self._dynamic[suite] = opened
            self._handles[name] = _Handle(queue, conn_name, opened, "open")
            return self._ok(ObjectName=suite)
        self._handles[name] = _Handle(queue, conn_name, real, "open")
        return self._ok()

    def _close(self, args: dict) -> Outcome:
        handle = self._handle(args)
        options = decode_options(args.get("Options", []), "MQCO", "Options")
        try:
            handle.queue.close(options)
        except self.mq.MQMIError as exc:
            if exc.comp == MQCC_WARNING:
                # pymqi leaves the old handle in place; the queue manager decides what a later call on it does.
                handle.state = "close-warned"
            return self._mq_outcome(exc)
        handle.queue.set_handle(UNUSABLE_HOBJ)  # MQCLOSE sets the application's Hobj to MQHO_UNUSABLE_HOBJ
        handle.state = "closed"
        return self._ok()

    def _put(self, args: dict) -> Outcome:
        handle = self._handle(args)
        md = self._to_mq("MD", decode_structure("MD", args.get("MD"), "MD"))
        pmo = self._to_mq("PMO", decode_structure("PMO", args.get("PMO"), "PMO"))
        data = decode_bytes(args.get("data", ""), "data")
        try:
            handle.queue.put(data, md, pmo)
        except self.mq.MQMIError as exc:
            return self._mq_outcome(exc)  # no MD/PMO: pymqi does not update them when MQPUT warns
        return self._ok(MD=self._from_mq("MD", md), PMO=self._from_mq("PMO", pmo))

    def _put1(self, args: dict) -> Outcome:
        conn = self._connection(args)
        od_ = decode_od(args, "put1")
        md = self._to_mq("MD", decode_structure("MD", args.get("MD"), "MD"))
        pmo = self._to_mq("PMO", decode_structure("PMO", args.get("PMO"), "PMO"))
        data = decode_bytes(args.get("data", ""), "data")
        od = self.mq.OD(ObjectName=self._real_name(od_.ObjectName).encode("ascii"),
                        ObjectQMgrName=od_.ObjectQMgrName.encode("ascii"),
                        DynamicQName=self._dynamic_name(od_.DynamicQName).encode("ascii"))
        try:
            conn.qmgr.put1(od, data, md, pmo)
        except self.mq.MQMIError as exc:
            return self._mq_outcome(exc)  # as for put: no MD/PMO on a warning
        return self._ok(MD=self._from_mq("MD", md), PMO=self._from_mq("PMO", pmo))

    def _get(self, args: dict) -> Outcome:
        handle = self._handle(args)
        md = self._to_mq("MD", decode_structure("MD", args.get("MD"), "MD"))
        gmo = self._to_mq("GMO", decode_structure("GMO", args.get("GMO"), "GMO"))
        length = args.get("BufferLength")
        if length is not None and (not isinstance(length, int) or isinstance(length, bool) or length < 0):
            raise CallError(f"expected a whole number >= 0, not {length!r}", "BufferLength")
        buffer = self.config.get_buffer_length if length is None else length
        try:
            data = handle.queue.get(buffer, md, gmo)
        except self.mq.MQMIError as exc:
            out = self._mq_outcome(exc)
            if exc.comp == MQCC_WARNING:
                # pymqi unpacked MD and GMO before raising, and carries the data and its real length.
                out.MD, out.GMO = self._from_mq("MD", md), self._from_mq("GMO", gmo)
                message = getattr(exc, "message", None)
                if message is not None:
                    out.data = encode_bytes(bytes(message))
                    out.DataLength = int(getattr(exc, "original_length", len(message)))
            return out
        data = bytes(data)
        return self._ok(MD=self._from_mq("MD", md), GMO=self._from_mq("GMO", gmo), data=encode_bytes(data),
                        DataLength=len(data))

    def _commit(self, args: dict) -> Outcome:
        self._connection(args).qmgr.commit()
        return self._ok()

    def _backout(self, args: dict) -> Outcome:
        self._connection(args).qmgr.backout()
        return self._ok()

    def _inquire(self, args: dict) -> Outcome:
        handle = self._handle(args)
        selectors = args.get("Selectors", [])
        if not isinstance(selectors, list) or not all(isinstance(s, str) for s in selectors):
            raise CallError("expected a list of MQIA_* names", "Selectors")
        numbers = []
        for index, selector in enumerate(selectors):
            if not selector.startswith(("MQIA_", "MQCA_")):
                raise CallError(f"{selector} is not an MQIA_* or MQCA_* selector", f"Selectors[{index}]")
            try:
                numbers.append(self._value(selector))
            except CallError as exc:
                raise CallError(exc.detail, f"Selectors[{index}]") from None
        attributes: dict[str, Any] = {}
        warning = None
        for selector, number in zip(selectors, numbers):
            # One MQINQ per selector: pymqi 1.12's inquire takes a single selector (pymqe.c MQINQ).
            try:
                value = handle.queue.inquire(number)
            except self.mq.MQMIError as exc:
                if exc.reason != SELECTOR_NOT_FOR_TYPE or not selector.startswith("MQIA_"):
                    raise
                # The library raises on the warning without the value; for the one selector asked, IBM's
                # "2068 MQRC_SELECTOR_NOT_FOR_TYPE" page defines it: MQIAV_NOT_APPLICABLE.
                warning, attributes[selector] = exc, NOT_APPLICABLE
                continue
            if selector.startswith("MQIA_"):
                attributes[selector] = int(value)
            elif selector in QUEUE_NAME_SELECTORS:
                attributes[selector] = self._suite_name(_text(value))
            else:
                attributes[selector] = _text(value)
        if warning is not None:
            outcome = self._mq_outcome(warning)
            outcome.attributes = attributes
            return outcome
        return self._ok(attributes=attributes)

    def _set(self, args: dict) -> Outcome:
        handle = self._handle(args)
        selectors, values = reference_calls.decode_set(args, "set")
        if any(not s.startswith("MQIA_") for s in selectors):
            return Outcome(error="set: character attributes (MQCA_*) are not supported by the ibmmq adapter")
        numbers = [self._value(s) for s in selectors]
        if len(set(numbers)) != len(numbers) or len(values) != len(numbers):
            # ibmmq's Queue.set takes a {selector: value} dict (pymqi's one pair): a selector given twice, or
            # IntAttrs of another length than Selectors, cannot reach MQSET through it.
            return Outcome(error=f"set: {self.module_name}'s Queue.set cannot pass a selector twice or a "
                                 "different number of IntAttrs than Selectors")
        if len(numbers) == 1:
            handle.queue.set(numbers[0], values[0])
        else:
            handle.queue.set(dict(zip(numbers, values)))
        return self._ok()

    def _advance_clock(self, args: dict) -> Outcome:
        if not self.config.real_time:
            return Outcome(error="advance_clock: a real queue manager's clock cannot be advanced by the suite "
                                 "(MQCONF_REAL_TIME=1 waits real time instead)")
        ms = args.get("milliseconds")
        if not isinstance(ms, int) or isinstance(ms, bool) or ms < 0:
            raise CallError(f"expected a whole number of milliseconds >= 0, not {ms!r}", "milliseconds")
        if ms > self.config.max_wait_ms:
            return Outcome(error=f"advance_clock: {ms} ms is longer than the {self.config.max_wait_ms} ms this "
                                 "adapter waits in real time")
        self._sleep(ms / 1000)
        return self._ok()

    _OPS: dict[str, Callable[[IbmMqAdapter, dict], Outcome]] = {
        "define_queue": _define_queue, "connect": _connect, "disconnect": _disconnect, "open": _open,
        "close": _close, "put": _put, "put1": _put1, "get": _get, "commit": _commit, "backout": _backout,
        "inquire": _inquire, "advance_clock": _advance_clock, "define_qmgr": _define_qmgr,
        "alter_queue": _alter_queue, "set": _set,
    }
