"""The call language: ``Call`` and ``Outcome``, the one currency between every producer and executor of MQI
calls, and the codec between their JSON-able form (MQ's own field and constant names) and the model's
structures.

A Call is ``{"op": <verb>, ...arguments}``; structure fields are spelled as MQ spells them (``MD``, ``PMO``,
``GMO`` with ``GroupId``, ``MsgFlags``, ``Options``...) and option lists are lists of constant names. An Outcome
is ``{"CompCode": ..., "Reason": ..., "MD": ..., "GMO": ..., "data": ..., "clauses": [...]}``. The JSON Schema
for both is ``reference/schemas/call.json`` and ``outcome.json``.

Byte values (message data, identifiers) are written as text (UTF-8, identifiers padded with NULs to their
length), as ``{"hex": "..."}``, or, for message data, as ``{"fill": "x", "length": N}``. Identifiers in an
Outcome are the "none" constant name or lowercase hexadecimal.

Where the call language chooses a default that MQ's initial values do not give: structure ``Version`` fields
default to the current version (MQMD_VERSION_2, MQPMO_VERSION_3, MQGMO_VERSION_4), because the suite is about
groups, segments and tokens that version-1 structures cannot carry. Write ``Version: 1`` to test version 1.
"""

from __future__ import annotations

import binascii
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from . import constants
from .queue import QueueDefinition
from .structures import MQGMO, MQMD, MQOD, MQPMO

OPS = {
    "define_queue", "connect", "disconnect", "open", "close", "put", "put1", "get", "commit", "backout",
    "inquire", "set", "advance_clock", "define_qmgr",
    # clusters (reference/cluster/): topology changes and channel delivery
    "define_channel", "set_channel", "suspend_qmgr", "resume_qmgr", "alter_queue", "deliver",
    # message properties (reference/properties.py): MQCRTMH, MQDLTMH, MQSETMP, MQINQMP, MQDLTMP, MQMHBUF, MQBUFMH
    "crtmh", "dltmh", "setmp", "inqmp", "dltmp", "mhbuf", "bufmh",
    # publish/subscribe (reference/pubsub_calls.py)
    "define_topic", "sub", "subrq",
    # distributed queuing (reference/distributed.py, reference/channels.py)
    "define_qremote", "define_sender", "start_channel", "stop_channel", "channel_status", "transmit",
}


class CallError(ValueError):
    """A call that cannot be built: unknown op, unknown field or constant, wrong type. ``path`` names the place."""

    def __init__(self, message: str, path: str = ""):
        super().__init__(f"{path}: {message}" if path else message)
        self.path = path
        self.detail = message


@dataclass(frozen=True)
class Call:
    """One MQI (or set-up) call in the call language."""

    op: str
    args: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"op": self.op, **self.args}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Call:
        if not isinstance(data, Mapping) or "op" not in data:
            raise CallError("a call is an object with an 'op'")
        op = data["op"]
        if op not in OPS:
            raise CallError(f"unknown op {op!r}; known ops: {', '.join(sorted(OPS))}", "op")
        return cls(op, {k: v for k, v in data.items() if k != "op"})


@dataclass
class Outcome:
    """What one call returned. ``error`` is set, instead of an MQ result, when the executor itself failed."""

    CompCode: str | None = None
    Reason: str | None = None
    MD: dict[str, Any] | None = None
    PMO: dict[str, Any] | None = None
    GMO: dict[str, Any] | None = None
    data: Any = None
    DataLength: int | None = None
    attributes: dict[str, Any] | None = None
    ObjectName: str | None = None  # MQOD ObjectName after MQOPEN of a model queue: the dynamic queue's name
    property: dict[str, Any] | None = None  # MQINQMP's answer: {Name, Type, Value} (reference/properties.py)
    SD: dict[str, Any] | None = None  # MQSUB's output MQSD fields (reference/pubsub_calls.py)
    SRO: dict[str, Any] | None = None  # MQSUBRQ's output MQSRO fields
    # Distributed queuing (reference/distributed.py, reference/channels.py): the MQXQH of a message got from a
    # transmission queue and the MQDLH of one got from a dead-letter queue (``data`` is then what follows the
    # header), and DISPLAY CHSTATUS's answer
    XQH: dict[str, Any] | None = None
    DLH: dict[str, Any] | None = None
    CHSTATUS: dict[str, Any] | None = None
    ResObjectString: str | None = None  # MQOD ResObjectString after MQOPEN of a topic: the full topic string
    clauses: list[str] = field(default_factory=list)
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) not in (None, [])}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Outcome:
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})


# -- byte values --------------------------------------------------------------------------------------------

# The largest MaxMsgLength a queue manager or queue can have (IBM, "ALTER QMGR": MAXMSGL is at most 104 857 600
# bytes): no message is longer, so no fill need be.
MAX_FILL = 104_857_600


def decode_bytes(value: Any, path: str, length: int | None = None) -> bytes:
    """Bytes from the call language's spelling: text, {"hex": ...}, {"fill": c, "length": n}, or a constant."""
    if isinstance(value, str):
        if value in constants.BYTES:
            raw = constants.BYTES[value]
        else:
            raw = value.encode("utf-8")
    elif isinstance(value, Mapping) and set(value) == {"hex"} and isinstance(value["hex"], str):
        try:
            raw = binascii.unhexlify(value["hex"])
        except (binascii.Error, ValueError):
            raise CallError(f"not hexadecimal: {value['hex']!r}", path) from None
    elif isinstance(value, Mapping) and set(value) == {"fill", "length"}:
        fill, count = value["fill"], value["length"]
        if not isinstance(fill, str) or not fill or not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise CallError("fill needs a non-empty text 'fill' and a whole 'length' >= 0", path)
        if count > MAX_FILL:  # checked before a byte is made: a scenario (or lint) never builds gigabytes
            raise CallError(f"a fill of {count} bytes is longer than any message MQ takes ({MAX_FILL} bytes, the "
                            "largest MaxMsgLength)", path)
        raw = (fill.encode("utf-8") * (count // max(len(fill.encode()), 1) + 1))[:count]
    else:
        raise CallError(f"expected text, {{hex: ...}} or {{fill: ..., length: ...}}, not {value!r}", path)
    if length is not None:
        if len(raw) > length:
            raise CallError(f"longer than {length} bytes", path)
        raw = raw.ljust(length, b"\0")
    return raw


def encode_bytes(raw: bytes, none_name: str | None = None) -> Any:
    """The call language's spelling of bytes: the "none" constant, UTF-8 text for data, hex otherwise."""
    if none_name is not None:
        return none_name if raw == constants.BYTES[none_name] else raw.hex()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return {"hex": raw.hex()}
    return text if text.isprintable() or text == "" else {"hex": raw.hex()}


# -- structure fields ---------------------------------------------------------------------------------------
# kind: ("int", families accepted as names) | ("options", family) | ("enum", family) | ("id", none-name, length)
#       | ("text",) | ("format",)

_INT = ("int", ())
MD_FIELDS: dict[str, tuple] = {
    "Version": ("int", ("MQMD",)), "Report": ("options", "MQRO"), "MsgType": ("enum", "MQMT"),
    "Expiry": ("int", ("MQEI",)), "Feedback": ("int", ("MQFB",)), "Encoding": ("int", ("MQENC",)),
    "CodedCharSetId": ("int", ("MQCCSI",)), "Format": ("format",), "Priority": ("int", ("MQPRI",)),
    "Persistence": ("enum", "MQPER"), "MsgId": ("id", "MQMI_NONE", 24), "CorrelId": ("id", "MQCI_NONE", 24),
    "BackoutCount": _INT, "ReplyToQ": ("text",), "ReplyToQMgr": ("text",), "UserIdentifier": ("text",),
    "AccountingToken": ("id", "MQACT_NONE", 32), "PutApplName": ("text",), "PutDate": ("text",),
    "PutTime": ("text",), "GroupId": ("id", "MQGI_NONE", 24), "MsgSeqNumber": _INT, "Offset": _INT,
    "MsgFlags": ("options", "MQMF"), "OriginalLength": ("int", ("MQOL",)),
}
PMO_FIELDS: dict[str, tuple] = {
    "Version": ("int", ("MQPMO",)), "Options": ("options", "MQPMO"), "ResolvedQName": ("text",),
    "ResolvedQMgrName": ("text",),
    "PubLevel": ("int", ()),  # optional, publish/subscribe (reference/publish.py): an input field, never returned
}
# Fields a call takes but an Outcome never returns: what protocol 1 returned stays all it returns.
INPUT_ONLY: dict[str, frozenset[str]] = {"PMO": frozenset({"PubLevel"})}
GMO_FIELDS: dict[str, tuple] = {
    "Version": ("int", ("MQGMO",)), "Options": ("options", "MQGMO"), "WaitInterval": ("int", ("MQWI",)),
    "ResolvedQName": ("text",), "MatchOptions": ("options", "MQMO"), "GroupStatus": ("enum", "MQGS"),
    "SegmentStatus": ("enum", "MQSS"), "Segmentation": ("enum", "MQSEG"), "MsgToken": ("id", "MQMTOK_NONE", 16),
    "ReturnedLength": ("int", ("MQRL",)),
}
CURRENT_VERSION = {"MD": 2, "PMO": 3, "GMO": 4}
STRUCTURES = {"MD": (MQMD, MD_FIELDS), "PMO": (MQPMO, PMO_FIELDS), "GMO": (MQGMO, GMO_FIELDS)}


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


MQLONG_MIN, MQLONG_MAX_UNSIGNED = -(2**31), 2**32 - 1  # flag fields use all 32 bits


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def decode_int(value: Any, families: tuple[str, ...], path: str) -> int:
    """An integer field: a number that fits an MQLONG, or a constant name of one of ``families``."""
    if _is_int(value):
        if not MQLONG_MIN <= value <= MQLONG_MAX_UNSIGNED:
            raise CallError(f"{value} does not fit a 32-bit MQLONG", path)
        return value
    if isinstance(value, str):
        if constants.family_of(value) not in families or value not in constants.VALUES:
            accepted = ", ".join(f"{f}_*" for f in families) or "no constant names"
            raise CallError(f"{value} is not a value for this field (it takes a number or {accepted})", path)
        return constants.VALUES[value]
    raise CallError(f"expected a whole number, not {value!r}", path)


def decode_options(value: Any, family: str, path: str) -> int:
    """An option field: a list of constant names of ``family`` (or a number)."""
    if _is_int(value):
        return decode_int(value, (), path)
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        raise CallError(f"expected a list of {family}_* names, not {value!r}", path)
    total = 0
    for index, name in enumerate(value):
        if not isinstance(name, str):
            raise CallError(f"expected a {family}_* name, not {name!r}", f"{path}[{index}]")
        try:
            number = constants.value(name, family)
        except constants.UnknownConstant as exc:
            raise CallError(str(exc), f"{path}[{index}]") from None
        if not constants.is_option_name(name, family):
            raise CallError(f"{name} is not an option (it is a version, length or mask)", f"{path}[{index}]")
        total |= number
    return total


def decode_field(kind: tuple, value: Any, path: str) -> Any:
    """One structure field from the call language."""
    tag = kind[0]
    if tag == "int":
        return decode_int(value, kind[1], path)
    if tag == "options":
        return decode_options(value, kind[1], path)
    if tag == "enum":
        return decode_int(value, (kind[1],), path)
    if tag == "id":
        return decode_bytes(value, path, kind[2])
    if tag == "format":
        if isinstance(value, str) and value in constants.FORMATS:
            return constants.FORMATS[value]
        if isinstance(value, str) and len(value) <= 8:
            return value.ljust(8)
        raise CallError(f"expected an MQFMT_* name or up to 8 characters, not {value!r}", path)
    if not isinstance(value, str):
        raise CallError(f"expected text, not {value!r}", path)
    return value


def encode_field(kind: tuple, value: Any) -> Any:
    """One structure field in the call language."""
    tag = kind[0]
    if tag == "options":
        return constants.option_names(value, kind[1])
    if tag == "enum":
        return constants.name_of(value, kind[1])
    if tag == "id":
        return encode_bytes(value, kind[1])
    if tag == "format":
        for name, text in constants.FORMATS.items():
            if value == text:
                return name
        return value
    return value


def decode_structure(key: str, value: Any, path: str) -> Any:
    """An MQMD, MQPMO or MQGMO from its call-language mapping (``key`` is MD, PMO or GMO)."""
    cls, kinds = STRUCTURES[key]
    if value is None:
        value = {}
    if not isinstance(value, Mapping):
        raise CallError(f"expected a mapping of {key} fields, not {value!r}", path)
    structure = cls(Version=CURRENT_VERSION[key])
    for name, item in value.items():
        if name not in kinds:
            raise CallError(f"{key} has no field {name!r}; fields: {', '.join(kinds)}", f"{path}.{name}")
        setattr(structure, name, decode_field(kinds[name], item, f"{path}.{name}"))
    return structure


def encode_structure(key: str, structure: Any) -> dict[str, Any]:
    """An MQMD, MQPMO or MQGMO as a call-language mapping of every field."""
    _cls, kinds = STRUCTURES[key]
    skip = INPUT_ONLY.get(key, frozenset())
    return {name: encode_field(kind, getattr(structure, name)) for name, kind in kinds.items() if name not in skip}


# -- queue definitions --------------------------------------------------------------------------------------

QUEUE_FIELDS: dict[str, tuple] = {
    "MaxMsgLength": _INT, "MaxQDepth": _INT, "InhibitPut": ("enum", "MQQA"), "InhibitGet": ("enum", "MQQA"),
    "MsgDeliverySequence": ("enum", "MQMDS"), "DefPersistence": ("enum", "MQPER"), "DefPriority": _INT,
    "DefInputOpenOption": ("options", "MQOO"), "Shareability": ("enum", "MQQA"),
    # object types (reference/dynamic_queues.py, reference/alias.py), backout and trigger attributes (MQINQ/MQSET)
    "QType": ("enum", "MQQT"), "DefinitionType": ("enum", "MQQDT"), "BaseQName": ("text",),
    "BackoutThreshold": _INT, "BackoutRequeueQName": ("text",), "TriggerControl": ("enum", "MQTC"),
    "TriggerType": ("enum", "MQTT"), "TriggerDepth": _INT, "TriggerMsgPriority": _INT,
    "PropertyControl": ("enum", "MQPROP"),  # reference/properties.py
    "Usage": ("enum", "MQUS"),  # MQUS_TRANSMISSION: a transmission queue (reference/distributed.py)
    # a transmission queue that triggers its channel (reference/channels.py): INITQ and TRIGDATA
    "InitiationQName": ("text",), "TriggerData": ("text",),
}


QMGR_FIELDS: dict[str, tuple] = {"MsgMarkBrowseInterval": ("int", ("MQMMBI",)), "MaxMsgLength": _INT,
                                 # reference/distributed.py, reference/channels.py
                                 "DefXmitQName": ("text",), "DeadLetterQName": ("text",)}


def decode_qmgr(args: Mapping[str, Any], path: str) -> dict[str, int]:
    """Queue-manager attributes from ``define_qmgr`` arguments, by their MQ names."""
    attributes = {}
    for key, item in args.items():
        if key not in QMGR_FIELDS:
            raise CallError(f"unknown queue-manager attribute {key!r}; attributes: {', '.join(QMGR_FIELDS)}",
                            _join(path, key))
        attributes[key] = decode_field(QMGR_FIELDS[key], item, _join(path, key))
    return attributes


def decode_queue(args: Mapping[str, Any], path: str) -> QueueDefinition:
    """A local queue definition from ``define_queue`` arguments (``name`` plus MQ attribute names)."""
    name = args.get("name")
    if not isinstance(name, str) or not name:
        raise CallError("a queue needs a 'name'", _join(path, "name"))
    definition = QueueDefinition(name)
    for key, item in args.items():
        if key == "name" or key == "qmgr" or key in CLUSTER_QUEUE_FIELDS:
            continue  # where the queue is, and its cluster attributes: decode_cluster_queue
        if key not in QUEUE_FIELDS:
            raise CallError(f"unknown queue attribute {key!r}; attributes: {', '.join(QUEUE_FIELDS)}",
                            _join(path, key))
        number = decode_field(QUEUE_FIELDS[key], item, _join(path, key))
        if key in ("InhibitPut", "InhibitGet"):
            number = bool(number)
        setattr(definition, key, number)
    return _check_object_type(args, definition, path)


def _check_object_type(args: Mapping[str, Any], definition: QueueDefinition, path: str) -> QueueDefinition:
    """A queue's type and its DefinitionType agree: DEFINE QLOCAL/QALIAS make predefined queues, DEFINE QMODEL
    a model of temporary dynamic queues unless DefinitionType says permanent; an alias names its target."""
    qtype, kind = definition.QType, definition.DefinitionType
    if qtype not in (constants.VALUES["MQQT_LOCAL"], constants.VALUES["MQQT_MODEL"], constants.VALUES["MQQT_ALIAS"]):
        raise CallError("QType is MQQT_LOCAL, MQQT_MODEL or MQQT_ALIAS", _join(path, "QType"))
    dynamic = (constants.VALUES["MQQDT_PERMANENT_DYNAMIC"], constants.VALUES["MQQDT_TEMPORARY_DYNAMIC"])
    if qtype == constants.VALUES["MQQT_MODEL"]:
        if "DefinitionType" not in args:
            definition.DefinitionType = constants.VALUES["MQQDT_TEMPORARY_DYNAMIC"]
        elif kind not in dynamic:
            raise CallError("a model queue's DefinitionType is MQQDT_PERMANENT_DYNAMIC or MQQDT_TEMPORARY_DYNAMIC",
                            _join(path, "DefinitionType"))
    elif kind != constants.VALUES["MQQDT_PREDEFINED"]:
        raise CallError("only MQOPEN of a model queue makes a dynamic queue; a defined queue is MQQDT_PREDEFINED",
                        _join(path, "DefinitionType"))
    if (qtype == constants.VALUES["MQQT_ALIAS"]) != bool(definition.BaseQName):
        raise CallError("an alias queue (QType MQQT_ALIAS), and only an alias, names its target in BaseQName",
                        _join(path, "BaseQName"))
    return definition


def decode_od(args: Mapping[str, Any], path: str) -> MQOD:
    """The MQOD of an open or put1: ``queue`` (ObjectName), optional ``ObjectQMgrName`` and ``DynamicQName``
    (the name, or a prefix ending in ``*``, of the dynamic queue an open of a model queue makes; MQ's initial
    value ``AMQ.*`` when absent). ``topic`` or ``ObjectString`` instead name a topic (reference/pubsub_calls.py)."""
    from .pubsub_calls import decode_topic_od, is_topic_od

    if is_topic_od(args):
        return decode_topic_od(args, path)
    queue = args.get("queue")
    if not isinstance(queue, str) or not queue:
        raise CallError("needs a 'queue' name", _join(path, "queue"))
    qmgr = args.get("ObjectQMgrName", "")
    if not isinstance(qmgr, str):
        raise CallError("expected text", _join(path, "ObjectQMgrName"))
    dynamic = args.get("DynamicQName", "AMQ.*")
    if not isinstance(dynamic, str) or len(dynamic) > 48:
        raise CallError("expected text of at most 48 characters", _join(path, "DynamicQName"))
    return MQOD(queue, qmgr, dynamic)


def decode_set(args: Mapping[str, Any], path: str) -> tuple[list[str], list[int]]:
    """``set`` (MQSET): ``Selectors`` (MQIA_*/MQCA_* names) and ``IntAttrs`` (numbers, or MQQA_*, MQTC_*, MQTT_*
    names), the values of the integer selectors in their order."""
    selectors = args.get("Selectors", [])
    if not isinstance(selectors, list) or not all(isinstance(s, str) and s.startswith(("MQIA_", "MQCA_"))
                                                  for s in selectors):
        raise CallError("expected a list of MQIA_* or MQCA_* names", _join(path, "Selectors"))
    unknown = [s for s in selectors if s not in constants.VALUES]
    if unknown:
        raise CallError(f"unknown MQ constant {unknown[0]}", _join(path, "Selectors"))
    values = args.get("IntAttrs", [])
    if not isinstance(values, list):
        raise CallError("expected a list of whole numbers or MQQA_*/MQTC_*/MQTT_* names", _join(path, "IntAttrs"))
    ints = [decode_int(v, ("MQQA", "MQTC", "MQTT"), f"{_join(path, 'IntAttrs')}[{i}]") for i, v in enumerate(values)]
    return selectors, ints


def names(value: int, family: str) -> str:
    """The name of an enumerated value, for CompCode and Reason."""
    return constants.name_of(value, family)


# -- clusters (reference/cluster/) --------------------------------------------------------------------------
# Queue managers, channels and the cluster attributes of queues, spelled as MQSC spells them (CLWLRANK,
# CLWLPRTY, CLWLUSEQ, NETPRTY, CLWLWGHT, CLWLMRUC, CLUSTER) except DefBind, which is the MQI attribute name the
# documents use. Channel states are MQCHS_* names. Ranges from IBM's MQI reference (clauses.yaml document
# `facts`).
# A put to a cluster queue reports the destination chosen in its Outcome's PMO: ResolvedQMgrName and ResolvedQName
# (cluster.destination.resolved-qmgr). A connection names its queue manager: connect {connection, qmgr}.

CLUSTER_QMGR_FIELDS: dict[str, tuple] = {"CLWLUSEQ": ("enum", "MQCLWL_USEQ"), "CLWLMRUC": _INT}
CLUSTER_QUEUE_FIELDS: dict[str, tuple] = {
    "CLUSTER": ("text",), "CLWLRANK": _INT, "CLWLPRTY": _INT, "CLWLUSEQ": ("enum", "MQCLWL_USEQ"),
    "DefBind": ("enum", "MQBND"),
}
CHANNEL_FIELDS: dict[str, tuple] = {"CLWLRANK": _INT, "CLWLPRTY": _INT, "NETPRTY": _INT, "CLWLWGHT": _INT}
RANGES = {"CLWLRANK": (0, 9), "CLWLPRTY": (0, 9), "NETPRTY": (0, 9), "CLWLWGHT": (1, 99),
          "CLWLMRUC": (1, 999_999_999), "MRRTY": (0, 999_999_999), "SHORTRTY": (0, 999_999_999),
          "LONGRTY": (0, 999_999_999), "SHORTTMR": (0, 999_999), "LONGTMR": (0, 999_999)}


def _name(args: Mapping[str, Any], key: str, path: str, required: bool = True, what: str = "name") -> str | None:
    """A non-empty string argument (a queue, handle or other symbolic name); ``what`` words the error."""
    value = args.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value:
        raise CallError(f"needs a {key!r} {what}", _join(path, key))
    return value


def _attributes(args: Mapping[str, Any], kinds: dict[str, tuple], path: str, skip: tuple[str, ...]) -> dict:
    found = {}
    for key, item in args.items():
        if key in skip:
            continue
        if key not in kinds:
            raise CallError(f"unknown attribute {key!r}; attributes: {', '.join(kinds)}", _join(path, key))
        value = decode_field(kinds[key], item, _join(path, key))
        low, high = RANGES.get(key, (None, None))
        if low is not None and not low <= value <= high:
            raise CallError(f"{key} is {low} to {high}, not {value}", _join(path, key))
        found[key] = value
    return found


def decode_define_qmgr(args: Mapping[str, Any], path: str) -> tuple[str | None, dict[str, int], dict[str, int]]:
    """``define_qmgr``: an optional ``name`` (a new or existing queue manager; none: the default one), its
    attributes (MsgMarkBrowseInterval, MaxMsgLength) and its cluster attributes (CLWLUSEQ, CLWLMRUC)."""
    name = _name(args, "name", path, required=False)
    rest = {k: v for k, v in args.items() if k != "name"}
    local = decode_qmgr({k: v for k, v in rest.items() if k not in CLUSTER_QMGR_FIELDS}, path)
    cluster = _attributes({k: v for k, v in rest.items() if k in CLUSTER_QMGR_FIELDS}, CLUSTER_QMGR_FIELDS, path, ())
    return name, local, cluster


def decode_cluster_queue(args: Mapping[str, Any], path: str) -> tuple[str | None, dict[str, Any]]:
    """The ``qmgr`` a ``define_queue`` defines its queue on (none: the default one) and the queue's cluster
    attributes (CLUSTER, CLWLRANK, CLWLPRTY, CLWLUSEQ, DefBind)."""
    qmgr = _name(args, "qmgr", path, required=False)
    cluster = {k: v for k, v in args.items() if k in CLUSTER_QUEUE_FIELDS}
    return qmgr, _attributes(cluster, CLUSTER_QUEUE_FIELDS, path, ())


def decode_alter_queue(args: Mapping[str, Any], path: str) -> tuple[str | None, str, dict, dict[str, Any]]:
    """``alter_queue``: ``qmgr``, ``name`` and the attributes to change, local and cluster ones."""
    name = _name(args, "name", path)
    qmgr = _name(args, "qmgr", path, required=False)
    local = _attributes({k: v for k, v in args.items() if k not in CLUSTER_QUEUE_FIELDS}, QUEUE_FIELDS, path,
                        ("name", "qmgr"))
    for key in ("InhibitPut", "InhibitGet"):
        if key in local:
            local[key] = bool(local[key])
    return qmgr, name, local, decode_cluster_queue({k: v for k, v in args.items() if k != "qmgr"}, path)[1]


def decode_channel(args: Mapping[str, Any], path: str) -> tuple[str, str | None, dict[str, Any]]:
    """``define_channel``: ``name``, the ``qmgr`` it leads to (for a new channel), workload attributes
    (CLWLRANK, CLWLPRTY, NETPRTY, CLWLWGHT) and optionally its ``state``."""
    name = _name(args, "name", path)
    qmgr = _name(args, "qmgr", path, required=False)
    attributes = _attributes(args, CHANNEL_FIELDS, path, ("name", "qmgr", "state"))
    if "state" in args:
        attributes["state"] = decode_channel_state(args, path)
    return name, qmgr, attributes


def decode_channel_state(args: Mapping[str, Any], path: str) -> str:
    """A channel ``state``: an MQCHS_* name."""
    from .cluster.topology import CHANNEL_STATES

    state = args.get("state")
    if state not in CHANNEL_STATES:
        raise CallError(f"state must be one of {', '.join(CHANNEL_STATES)}, not {state!r}", _join(path, "state"))
    return state


def decode_deliver(args: Mapping[str, Any], path: str) -> tuple[str | None, str | None, bool]:
    """``deliver``: optionally the sending ``qmgr`` and the ``channel``; ``indoubt: true`` loses the batch's
    confirmation."""
    indoubt = args.get("indoubt", False)
    if not isinstance(indoubt, bool):
        raise CallError("expected true or false", _join(path, "indoubt"))
    return _name(args, "qmgr", path, required=False), _name(args, "channel", path, required=False), indoubt


CLUSTER_ARGUMENTS: dict[str, set[str]] = {
    "define_channel": {"name", "qmgr", "state", *CHANNEL_FIELDS},
    "set_channel": {"name", "state"},
    "suspend_qmgr": {"qmgr"},
    "resume_qmgr": {"qmgr"},
    "alter_queue": {"name", "qmgr", *QUEUE_FIELDS, *CLUSTER_QUEUE_FIELDS},
    "deliver": {"qmgr", "channel", "indoubt"},
}


# -- distributed queuing (reference/distributed.py, reference/channels.py) ---------------------------------------
# Remote queue definitions by their MQI attribute names (RemoteQName, RemoteQMgrName, XmitQName: MQSC's RNAME,
# RQMNAME, XMITQ), sender channels by MQSC's (CONNAME names the receiving queue manager, XMITQ, NPMSPEED), channel
# states by MQCHS_* names.

REMOTE_QUEUE_FIELDS: dict[str, tuple] = {
    "RemoteQName": ("text",), "RemoteQMgrName": ("text",), "XmitQName": ("text",), "InhibitPut": ("enum", "MQQA"),
    "DefPriority": _INT, "DefPersistence": ("enum", "MQPER"), "DefBind": ("enum", "MQBND"),
}
SENDER_FIELDS: dict[str, tuple] = {"CONNAME": ("text",), "XMITQ": ("text",), "NPMSPEED": ("enum", "MQNPMS"),
                                   "MRRTY": _INT, "USEDLQ": ("enum", "MQUSEDLQ"), "SHORTRTY": _INT,
                                   "SHORTTMR": _INT, "LONGRTY": _INT, "LONGTMR": _INT}
# The sender attributes the channel keeps as given (reference/channels.py SenderChannel), IBM's defaults otherwise.
SENDER_ATTRIBUTES = ("USEDLQ", "SHORTRTY", "SHORTTMR", "LONGRTY", "LONGTMR")
STOP_STATES = ("MQCHS_STOPPED", "MQCHS_INACTIVE", "MQCHS_RETRYING")
MAX_NAME = 48


def _text_name(args: Mapping[str, Any], key: str, path: str, required: bool = True) -> str | None:
    value = _name(args, key, path, required)
    if value is not None and len(value) > MAX_NAME:
        raise CallError(f"a name is at most {MAX_NAME} characters", _join(path, key))
    return value


def decode_qremote(args: Mapping[str, Any], path: str) -> tuple[str | None, QueueDefinition]:
    """``define_qremote``: the ``qmgr`` it is defined on (none: the default one), its ``name`` and attributes; a
    blank RemoteQName makes a queue-manager alias (or a reply-to queue alias)."""
    name = _text_name(args, "name", path)
    qmgr = _text_name(args, "qmgr", path, required=False)
    definition = QueueDefinition(name, QType=constants.VALUES["MQQT_REMOTE"])
    for key, value in _attributes(args, REMOTE_QUEUE_FIELDS, path, ("name", "qmgr")).items():
        if isinstance(value, str) and len(value) > MAX_NAME:
            raise CallError(f"a name is at most {MAX_NAME} characters", _join(path, key))
        setattr(definition, key, bool(value) if key == "InhibitPut" else value)
    return qmgr, definition


def decode_sender(args: Mapping[str, Any], path: str) -> tuple[str, str | None, str, str, int, int]:
    """``define_sender``: ``name``, the ``qmgr`` it sends from, CONNAME (the receiving queue manager), XMITQ,
    NPMSPEED (MQNPMS_FAST, IBM's default, or MQNPMS_NORMAL) and MRRTY (0 to 999,999,999; default 10)."""
    name = _text_name(args, "name", path)
    qmgr = _text_name(args, "qmgr", path, required=False)
    found = _attributes(args, SENDER_FIELDS, path, ("name", "qmgr"))
    for key in ("CONNAME", "XMITQ"):
        if not found.get(key):
            raise CallError(f"needs {key}", _join(path, key))
    npmspeed = found.get("NPMSPEED", constants.VALUES["MQNPMS_FAST"])
    if npmspeed not in (constants.VALUES["MQNPMS_FAST"], constants.VALUES["MQNPMS_NORMAL"]):
        raise CallError("NPMSPEED is MQNPMS_FAST or MQNPMS_NORMAL", _join(path, "NPMSPEED"))
    return name, qmgr, found["CONNAME"], found["XMITQ"], npmspeed, found.get("MRRTY", 10)


def decode_sender_attributes(args: Mapping[str, Any], path: str) -> dict[str, int]:
    """``define_sender``'s optional USEDLQ (MQUSEDLQ_YES, IBM's default, or MQUSEDLQ_NO), SHORTRTY and LONGRTY (0
    to 999,999,999), SHORTTMR and LONGTMR (seconds, 0 to 999,999): only those given."""
    found = _attributes(args, SENDER_FIELDS, path, ("name", "qmgr"))
    usedlq = found.get("USEDLQ", constants.VALUES["MQUSEDLQ_YES"])
    if usedlq not in (constants.VALUES["MQUSEDLQ_YES"], constants.VALUES["MQUSEDLQ_NO"]):
        raise CallError("USEDLQ is MQUSEDLQ_YES or MQUSEDLQ_NO", _join(path, "USEDLQ"))
    return {key: found[key] for key in SENDER_ATTRIBUTES if key in found}


def decode_stop_channel(args: Mapping[str, Any], path: str) -> tuple[str, str]:
    """``stop_channel``: ``name`` and the STATUS it is left in - MQCHS_STOPPED (STOP CHANNEL, the default),
    MQCHS_INACTIVE (STOP CHANNEL STATUS(INACTIVE)) or MQCHS_RETRYING (the partner could not be reached)."""
    name = _text_name(args, "name", path)
    state = args.get("STATUS", "MQCHS_STOPPED")
    if state not in STOP_STATES:
        raise CallError(f"STATUS is one of {', '.join(STOP_STATES)}, not {state!r}", _join(path, "STATUS"))
    return name, state


def decode_transmit(args: Mapping[str, Any], path: str) -> tuple[str, int | None]:
    """``transmit``: the sender ``channel`` and optionally how many messages it moves (``count``; all waiting)."""
    channel = _text_name(args, "channel", path)
    count = args.get("count")
    if count is not None and (not _is_int(count) or count < 0):
        raise CallError(f"expected a whole number >= 0, not {count!r}", _join(path, "count"))
    return channel, count


DISTRIBUTED_ARGUMENTS: dict[str, set[str]] = {
    "define_qremote": {"name", "qmgr", *REMOTE_QUEUE_FIELDS},
    "define_sender": {"name", "qmgr", *SENDER_FIELDS},
    "start_channel": {"name"},
    "stop_channel": {"name", "STATUS"},
    "channel_status": {"name"},
    "transmit": {"channel", "count"},
}


def _set_channel(args: Mapping[str, Any], path: str) -> None:
    _name(args, "name", path)
    decode_channel_state(args, path)


def _define_sender(args: Mapping[str, Any], path: str) -> None:
    decode_sender(args, path)
    decode_sender_attributes(args, path)


# How the model decodes the arguments of each cluster and distributed-queuing op (reference/cluster/,
# reference/distributed.py, reference/channels.py): one decoder per op, each raising CallError for what the model
# would refuse. define_queue and define_qmgr are decoded here for their cluster attributes only.
TOPOLOGY_DECODERS: dict[str, Callable[[Mapping[str, Any], str], Any]] = {
    "define_qmgr": decode_define_qmgr,
    "define_queue": decode_cluster_queue,
    "connect": lambda args, path: _name(args, "qmgr", path, required=False),
    "define_channel": decode_channel,
    "set_channel": _set_channel,
    "suspend_qmgr": lambda args, path: _name(args, "qmgr", path),
    "resume_qmgr": lambda args, path: _name(args, "qmgr", path),
    "alter_queue": decode_alter_queue,
    "deliver": decode_deliver,
    "define_qremote": decode_qremote,
    "define_sender": _define_sender,
    "start_channel": lambda args, path: _text_name(args, "name", path),
    "stop_channel": decode_stop_channel,
    "channel_status": lambda args, path: _text_name(args, "name", path),
    "transmit": decode_transmit,
}


def check_topology_call(op: str, args: Mapping[str, Any]) -> None:
    """Decode a cluster or distributed-queuing call's arguments as the model would (for loading scenarios); other
    ops are not checked here."""
    decoder = TOPOLOGY_DECODERS.get(op)
    if decoder is not None:
        decoder(args, "")


# The names the scenario loader has long imported: one check for both areas.
check_cluster_call = check_distributed_call = check_topology_call
