"""Message properties: message handles (MQCRTMH, MQDLTMH), properties (MQSETMP, MQINQMP, MQDLTMP), and how MQPUT,
MQPUT1 and MQGET carry them.

Sources: "MQCRTMH - Create message handle", "MQDLTMH - Delete message handle", "MQSETMP - Set message property",
"MQINQMP - Inquire message property", "MQDLTMP - Delete message property", "Property names", "Property name
restrictions", "Property data types and values", "MQGMO - Get-message options" (the property options) and
"PropertyControl (MQLONG)" (clauses.yaml documents `property-*`, `mq*mp`, `gmo-properties`). The data types are
fixtures/tables/property-types.yaml, where MQGET puts the properties is property-control.yaml, and the type
conversions of MQINQMP are property-conversions.yaml: this module looks rows up and does not restate them.

A property's name is kept as the application gave it, less a leading ``usr.``: a name without a folder is in the
``usr`` folder, so ``Color`` and ``usr.Color`` are one property, returned as ``Color`` (properties.names.usr-folder).
A message handle belongs to the connection that made it (properties.handle.connection-scope). Values are the
call language's: ``True``/``False``, ``int``, ``float``, ``str``, ``bytes``, or None for MQTYPE_NULL.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from xml.etree import ElementTree
from xml.sax.saxutils import escape

from .constants import VALUES, name_of
from .errors import NotModelled
from .result import MQCC_FAILED, MQCC_OK, MQCC_WARNING, Result, failure
from .structures import MQMD

if TYPE_CHECKING:
    from .qmgr import QueueManager
    from .queue import StoredMessage

MAX_NAME_LENGTH = 4095  # MQ_MAX_PROPERTY_NAME_LENGTH ("Property names")
TYPES = {name: VALUES[name] for name in VALUES if name.startswith("MQTYPE_") and name != "MQTYPE_LONG"}
SQL_KEYWORDS = frozenset({"NULL", "TRUE", "FALSE", "NOT", "AND", "OR", "BETWEEN", "LIKE", "IN", "IS", "ESCAPE"})
# The JMS names an MQI application may set ("Property name restrictions", item 1); every other JMS* is refused.
SETTABLE_JMS = frozenset({"JMSCorrelationID", "JMSReplyTo", "JMSType", "JMSXGroupID", "JMSXGroupSeq"})
COMPAT_FOLDERS = frozenset({"mcd", "jms", "usr", "mqext"})  # PropertyControl MQPROP_COMPATIBILITY

CMHO_VALIDATE, CMHO_NO_VALIDATION = VALUES["MQCMHO_VALIDATE"], VALUES["MQCMHO_NO_VALIDATION"]
CMHO_KNOWN = CMHO_VALIDATE | CMHO_NO_VALIDATION
IMPO_INQ_NEXT, IMPO_CONVERT_TYPE = VALUES["MQIMPO_INQ_NEXT"], VALUES["MQIMPO_CONVERT_TYPE"]
IMPO_UNDER_CURSOR = VALUES["MQIMPO_INQ_PROP_UNDER_CURSOR"]
IMPO_KNOWN = (IMPO_INQ_NEXT | IMPO_CONVERT_TYPE | IMPO_UNDER_CURSOR | VALUES["MQIMPO_QUERY_LENGTH"]
              | VALUES["MQIMPO_CONVERT_VALUE"])
SMPO_KNOWN = (VALUES["MQSMPO_SET_PROP_UNDER_CURSOR"] | VALUES["MQSMPO_SET_PROP_AFTER_CURSOR"]
              | VALUES["MQSMPO_APPEND_PROPERTY"] | VALUES["MQSMPO_SET_PROP_BEFORE_CURSOR"])
DMPO_UNDER_CURSOR = VALUES["MQDMPO_DEL_PROP_UNDER_CURSOR"]
GMO_PROPERTY_OPTIONS = ("MQGMO_PROPERTIES_IN_HANDLE", "MQGMO_NO_PROPERTIES", "MQGMO_PROPERTIES_FORCE_MQRFH2",
                        "MQGMO_PROPERTIES_COMPATIBILITY")
MQTYPE_STRING, MQTYPE_NULL = VALUES["MQTYPE_STRING"], VALUES["MQTYPE_NULL"]
MQTYPE_BOOLEAN = VALUES["MQTYPE_BOOLEAN"]
RFH2_FORMAT = "MQHRF2  "
NAME_VALUE_CCSID = 1208  # UTF-8: the CCSID of the folders the model writes (properties.rfh2.layout)
MQENC_NATIVE = VALUES["MQENC_NATIVE"]
# "Message descriptor fields as properties": Root.MQMD.<Field> names a field of the handle's message descriptor (all
# but StrucId and Version); its property type is that of the field: MQLONG an INT32, MQCHAR a STRING, MQBYTE a
# BYTE_STRING (properties.descriptor.type). The fields and their kinds are the model's MQMD (reference/structures.py).
DESCRIPTOR_PREFIX = "Root.MQMD."
DESCRIPTOR_TYPES = {int: "MQTYPE_INT32", str: "MQTYPE_STRING", bytes: "MQTYPE_BYTE_STRING"}


@dataclass(frozen=True, slots=True)
class Property:
    """One property: its name as kept (no leading ``usr.``), its MQTYPE_* value and its value."""

    name: str
    type: int
    value: Any
    copy_options: int = 22  # MQPD CopyOptions, MQCOPY_DEFAULT: forward, publish and report (properties.pd.copy-publish)


@dataclass(slots=True)
class MessageHandle:
    """A message handle (Hmsg): the connection that made it, whether names are validated, its properties in the
    order they were set, and the inquiry cursor of MQIMPO_INQ_NEXT (the name asked for and the position)."""

    hmsg: int
    hconn: int
    validate: bool = True
    properties: dict[str, Property] = field(default_factory=dict)
    cursor: tuple[str, int] | None = None
    descriptor: MQMD = field(default_factory=MQMD)  # the message descriptor associated with the handle
    # Derived, not state: how many kept names lie under each group prefix ("a" and "a.b" for "a.b.c"), so the
    # mixed-content check of MQSETMP costs the name's levels, not a scan of every property already set. None
    # until needed, and again whenever the names change other than by one MQSETMP (group_index rebuilds it).
    groups: dict[str | None, int] | None = field(default=None, compare=False, repr=False)


# -- tables -------------------------------------------------------------------------------------------------

def type_row(qm: QueueManager, type_name: str):
    """The property-types row of an MQTYPE_* name (None for a name that is no property type)."""
    return qm.spec["properties.types"].lookup(type=type_name)


def type_name(number: int) -> str:
    """The MQTYPE_* name of a type value (MQTYPE_INT32 rather than its alias MQTYPE_LONG)."""
    return name_of(number, "MQTYPE")


# -- names --------------------------------------------------------------------------------------------------

def kept_name(name: str) -> str:
    """The name a property is kept under: without a leading ``usr.`` (properties.names.usr-folder)."""
    return name[4:] if name.startswith("usr.") else name


def rfh2_path(qm: QueueManager, name: str) -> list[str]:
    """Where a kept name goes in an MQRFH2: its folder, then the groups and the element. A name IBM maps to a folder
    of its own (fixtures/tables/property-folders.yaml: MQTopicString is ``mqps.Top``) goes there; any other name is
    split at its dots, its first part the folder, and a name without a dot is in ``usr``
    (properties.rfh2.folders, publish.properties.folders)."""
    row = qm.spec["properties.folders"].lookup(name=name)
    if row is not None:
        return [row.then["folder"], row.then["element"]]
    return name.split(".") if "." in name else ["usr", name]


def folder_of(qm: QueueManager, name: str) -> str:
    """The MQRFH2 folder a kept name belongs to (:func:`rfh2_path`)."""
    return rfh2_path(qm, name)[0]


def descriptor_field(name: str) -> str | None:
    """The MQMD field a ``Root.MQMD.<Field>`` name names (None for another name, StrucId, Version or no field)."""
    if not name.startswith(DESCRIPTOR_PREFIX):
        return None
    field_name = name[len(DESCRIPTOR_PREFIX):]
    if field_name in ("StrucId", "Version") or field_name not in MQMD._FIELDS:
        return None
    return field_name


def descriptor_type(field_name: str) -> str:
    """The property type of an MQMD field: that of its kind (properties.descriptor.type)."""
    return DESCRIPTOR_TYPES[type(getattr(MQMD, field_name))]


def _identifier(part: str) -> bool:
    """Whether ``part`` follows Java's identifier rules, as "Property names" requires of every name between dots."""
    return bool(part) and (part[0].isalpha() or part[0] in "_$") and all(c.isalnum() or c in "_$" for c in part)


def name_refusal(name: str, validate: bool, set_call: bool) -> tuple[str, str] | None:
    """Why ``name`` cannot name a property on this call (reason, clause), or None.

    Length first (properties.names.length), then, when the handle validates names, IBM's restrictions: Java
    identifier characters with ``.`` between parts (properties.names.characters, properties.names.dots), no
    JMS or usr.JMS name other than the settable ones (properties.names.jms-reserved), no SQL keyword
    (properties.names.sql-keywords), at most one ``.`` after an ``mq`` prefix other than ``mq_usr``
    (properties.names.mq-prefix), no ``Body``/``Root`` prefix (properties.names.body-root). Inquiry and
    deletion check only the length and, for an inquiry, a ``%`` only at the end (properties.inquire.wildcard).
    """
    if not name or len(name) > MAX_NAME_LENGTH:
        return "MQRC_PROPERTY_NAME_LENGTH_ERR", "properties.names.length"
    if not set_call:
        return None
    if not validate:
        return None
    bare = kept_name(name)
    if name.startswith("usr.JMS") or (name.startswith("JMS") and name not in SETTABLE_JMS):
        return "MQRC_PROPERTY_NAME_ERROR", "properties.names.jms-reserved"
    if bare.upper() in SQL_KEYWORDS:
        return "MQRC_PROPERTY_NAME_ERROR", "properties.names.sql-keywords"
    if name.startswith(("Body", "Root")) and not name.startswith("Root.MQMD."):
        return "MQRC_PROPERTY_NAME_ERROR", "properties.names.body-root"
    parts = name.split(".")
    if any(not part for part in parts):
        return "MQRC_PROPERTY_NAME_ERROR", "properties.names.dots"
    if not all(_identifier(part) for part in parts):
        return "MQRC_PROPERTY_NAME_ERROR", "properties.names.characters"
    if name[:2].lower() == "mq" and not name.startswith("mq_usr") and len(parts) > 2:
        return "MQRC_PROPERTY_NAME_ERROR", "properties.names.mq-prefix"
    return None


def name_clauses(name: str, validate: bool) -> list[str]:
    """The name rules a name that passed applied, named so that a scenario showing an allowed name can fail at them:
    the ``usr.`` prefix dropped (properties.names.usr-folder), a settable JMS name (properties.names.jms-reserved),
    an ``mq_usr`` name with several dots (properties.names.mq-prefix)."""
    found = ["properties.names.usr-folder"] if name.startswith("usr.") else []
    if validate and name in SETTABLE_JMS:
        found.append("properties.names.jms-reserved")
    if validate and name.startswith("mq_usr") and name.count(".") > 1:
        found.append("properties.names.mq-prefix")
    return found


def mixed_content(properties: Iterable[str], name: str) -> bool:
    """Whether setting ``name`` would make a name both a property and a group of properties ("a.b" and "a.b.c"):
    the mixed content IBM refuses (properties.names.mixed-content). The definition, by a scan of every name; the
    model's MQSETMP asks :func:`handle_mixed_content`, which answers the same from the handle's group index."""
    for other in properties:
        if other != name and (other.startswith(name + ".") or name.startswith(other + ".")):
            return True
    return False


def groups_of(name: str) -> list[str]:
    """The group prefixes a kept name lies under: "a" and "a.b" for "a.b.c" (none for "a")."""
    return [name[:at] for at, char in enumerate(name) if char == "."]


def group_index(handle: MessageHandle) -> dict[str | None, int]:
    """The handle's count of names under each group prefix, rebuilt when it is missing or does not count the
    handle's names (properties replaced or deleted since it was made)."""
    index = handle.groups
    if index is None or index[None] != len(handle.properties):
        index = {None: len(handle.properties)}  # None, no group: how many names the index counts
        for name in handle.properties:
            for group in groups_of(name):
                index[group] = index.get(group, 0) + 1
        handle.groups = index
    return index


def handle_mixed_content(handle: MessageHandle, name: str) -> bool:
    """:func:`mixed_content` of the handle's names and ``name``, in the name's levels rather than the handle's
    size: a group of ``name`` that is a property, or properties under ``name`` (properties.names.mixed-content)."""
    if any(group in handle.properties for group in groups_of(name)):
        return True
    return group_index(handle).get(name, 0) > 0


def _indexed_set(handle: MessageHandle, key: str, value: Property) -> None:
    """Store a property, keeping the group index in step when the name is new."""
    index = group_index(handle)
    if key not in handle.properties:
        for group in groups_of(key):
            index[group] = index.get(group, 0) + 1
        index[None] += 1
    handle.properties[key] = value


def wildcard_matches(pattern: str, name: str) -> bool:
    """Whether kept name ``name`` answers ``pattern``: equal, or, for a pattern ending in ``%``, starting with what
    comes before it (the wildcard matches any characters, dots included: properties.inquire.wildcard)."""
    pattern = kept_name(pattern)
    if pattern.endswith("%"):
        return name.startswith(pattern[:-1])
    return name == pattern


# -- handles ------------------------------------------------------------------------------------------------

def create(qm: QueueManager, hconn: int, options: int) -> Result:
    """MQCRTMH: a new message handle of connection ``hconn`` with no properties, in ``Result.hobj``.

    Clauses: properties.handle.create, properties.handle.options (unknown or contradictory MQCMHO options fail
    with MQRC_OPTIONS_ERROR), conn.hconn-error.
    """
    if hconn not in qm.connections:
        return failure("MQRC_HCONN_ERROR", "conn.hconn-error")
    if options & ~CMHO_KNOWN or options & CMHO_KNOWN == CMHO_KNOWN:
        return failure("MQRC_OPTIONS_ERROR", "properties.handle.options")
    qm.last_hmsg += 1
    qm.message_handles[qm.last_hmsg] = MessageHandle(qm.last_hmsg, hconn, validate=not options & CMHO_NO_VALIDATION)
    # the MQCMHO options given were checked and decide whether names are validated (properties.handle.options)
    return Result(hobj=qm.last_hmsg, clauses=["properties.handle.create",
                                              *(["properties.handle.options"] if options else [])])


def handle_of(qm: QueueManager, hconn: int, hmsg: int) -> MessageHandle | Result:
    """The message handle ``hmsg`` if connection ``hconn`` may use it, else the failure.

    Clauses: conn.hconn-error, properties.handle.hmsg-error (never made, deleted, or made by another connection:
    properties.handle.connection-scope).
    """
    if hconn not in qm.connections:
        return failure("MQRC_HCONN_ERROR", "conn.hconn-error")
    handle = qm.message_handles.get(hmsg)
    if handle is None:
        return failure("MQRC_HMSG_ERROR", "properties.handle.hmsg-error")
    if handle.hconn != hconn:
        return failure("MQRC_HMSG_ERROR", "properties.handle.hmsg-error", "properties.handle.connection-scope")
    return handle


def delete(qm: QueueManager, hconn: int, hmsg: int) -> Result:
    """MQDLTMH: the handle and its properties are gone; using it again fails with MQRC_HMSG_ERROR.

    Clauses: properties.handle.delete, properties.handle.hmsg-error.
    """
    handle = handle_of(qm, hconn, hmsg)
    if isinstance(handle, Result):
        return handle
    del qm.message_handles[hmsg]
    return Result(clauses=["properties.handle.delete"])


def disconnect(qm: QueueManager, hconn: int) -> list[str]:
    """MQDISC deletes the message handles of the connection (properties.handle.deleted-at-disconnect); the clause
    is named when there were any."""
    deleted = [h for h, handle in qm.message_handles.items() if handle.hconn == hconn]
    for hmsg in deleted:
        del qm.message_handles[hmsg]
    return ["properties.handle.deleted-at-disconnect"] if deleted else []


# -- MQSETMP, MQINQMP, MQDLTMP ------------------------------------------------------------------------------

def check_value(qm: QueueManager, type_name_: str, value: Any) -> tuple[str, str] | None:
    """Why ``value`` is not a value of the type (reason, clause), or None. A type that is no MQTYPE_* property
    type (MQTYPE_AS_SET included) fails with MQRC_PROPERTY_TYPE_ERROR (properties.set.type-error); an integer out
    of its type's range, or a floating-point number beyond its type's magnitude (a value no double holds included),
    with MQRC_PROPERTY_VALUE_TOO_BIG (properties.types.*)."""
    row = type_row(qm, type_name_)
    if row is None:
        return "MQRC_PROPERTY_TYPE_ERROR", "properties.set.type-error"
    kind = row.then["json"]
    ok = {
        "boolean": isinstance(value, bool),
        "hex": isinstance(value, bytes),
        "integer": isinstance(value, int) and not isinstance(value, bool),
        "number": isinstance(value, (int, float)) and not isinstance(value, bool),
        "string": isinstance(value, str),
        "null": value is None,
    }[kind]
    if not ok:
        return "MQRC_PROPERTY_TYPE_ERROR", "properties.set.type-error"
    if not in_range(row, value):
        return "MQRC_PROPERTY_VALUE_TOO_BIG", row.id
    return None


def in_range(row: Any, value: Any) -> bool:
    """Whether a number fits the type of its row of property-types.yaml: an integer between its low and high, a
    floating-point number of a magnitude no larger than its high (compared exactly, so 10**400 is refused rather
    than overflowing a float; NaN and infinity fit no type). Other values always fit."""
    kind = row.then["json"]
    if kind == "integer":
        return row.then["low"] <= value <= row.then["high"]
    if kind == "number":
        return -row.then["high"] <= value <= row.then["high"]  # False for NaN
    return True


def set_property(qm: QueueManager, hconn: int, hmsg: int, name: str, type_name_: str, value: Any,
                 options: int = 0, copy_options: int = VALUES["MQCOPY_DEFAULT"]) -> Result:
    """MQSETMP: set or replace the property ``name`` of the handle.

    Checks in order: the handle (properties.handle.*), the options (properties.set.options), the name
    (:func:`name_refusal`), the type and value (:func:`check_value`), mixed content
    (properties.names.mixed-content). A property set again keeps its place and takes the new type and value
    (properties.set.replaces). A ``Root.MQMD.<Field>`` name sets that field of the handle's message descriptor
    (:func:`set_descriptor`).
    """
    handle = handle_of(qm, hconn, hmsg)
    if isinstance(handle, Result):
        return handle
    if options & ~SMPO_KNOWN:
        return failure("MQRC_SMPO_ERROR", "properties.set.options")
    if options:
        raise NotModelled("MQSMPO cursor options (SET_PROP_UNDER/AFTER/BEFORE_CURSOR, APPEND_PROPERTY)")
    refused = name_refusal(name, handle.validate, set_call=True)
    if refused is not None:
        return failure(*refused)
    if name.startswith(DESCRIPTOR_PREFIX):
        return set_descriptor(qm, handle, name, type_name_, value)
    refused = check_value(qm, type_name_, value)
    if refused is not None:
        return failure(*refused)
    key = kept_name(name)
    if handle.validate and handle_mixed_content(handle, key):
        return failure("MQRC_PROPERTY_NAME_ERROR", "properties.names.mixed-content")
    row = type_row(qm, type_name_)
    if isinstance(value, int) and not isinstance(value, bool) and row.then["json"] == "number":
        value = float(value)
    if type_name_ == "MQTYPE_FLOAT32":
        value = _float32(value)  # a 32-bit float holds the nearest value it can (properties.types.float32)
    clauses = ["properties.set.replaces"] if key in handle.properties else []
    _indexed_set(handle, key, Property(key, TYPES[type_name_], value, copy_options))
    return Result(clauses=[*clauses, *name_clauses(name, handle.validate), "properties.set", row.id])


def set_descriptor(qm: QueueManager, handle: MessageHandle, name: str, type_name_: str, value: Any) -> Result:
    """MQSETMP of ``Root.MQMD.<Field>``: the field of the handle's message descriptor takes the value. A name that
    is no MQMD field (StrucId and Version included) fails with MQRC_PROPERTY_NAME_ERROR
    (properties.descriptor.names); a Type other than the field's with MQRC_PROPERTY_TYPE_ERROR
    (properties.descriptor.type), as does a value not of that type (properties.set.type-error).
    Clauses: properties.descriptor.set."""
    field_name = descriptor_field(name)
    if field_name is None:
        return failure("MQRC_PROPERTY_NAME_ERROR", "properties.descriptor.names")
    if type_name_ != descriptor_type(field_name):
        return failure("MQRC_PROPERTY_TYPE_ERROR", "properties.descriptor.type")
    refused = check_value(qm, type_name_, value)
    if refused is not None:
        return failure(*refused)
    setattr(handle.descriptor, field_name, value)
    return Result(clauses=["properties.descriptor.set", "properties.descriptor.type"])


def _float32(value: float) -> float:
    return struct.unpack("<f", struct.pack("<f", value))[0] if math.isfinite(value) else value


def convert(qm: QueueManager, prop: Property, wanted: str) -> tuple[Any, str] | tuple[str, str, None]:
    """The property's value as type ``wanted`` (value, clause), or the failure (reason, clause, None), as the
    conversion rows say (fixtures/tables/property-conversions.yaml)."""
    have = type_name(prop.type)
    if have == wanted:
        return prop.value, "properties.inquire.as-set"
    row = qm.spec["properties.conversions"].lookup(**{"from": have, "to": wanted})
    if row is None:
        return "MQRC_PROP_CONV_NOT_SUPPORTED", "properties.conversions.not-supported", None
    how, value = row.then["how"], prop.value
    if how == "text":
        if isinstance(value, bool):
            return ("TRUE" if value else "FALSE"), row.id
        return (repr(value) if isinstance(value, float) else str(value)), row.id
    if how == "parse":
        parsed = _parse(value, wanted)
        if parsed is None:
            return "MQRC_PROP_NUMBER_FORMAT_ERROR", row.id, None
        value = parsed
    elif how == "widen":
        value = float(value)
    target = type_row(qm, wanted)
    if not in_range(target, value):  # an integer or a float beyond the wanted type (FLOAT64 1e300 as FLOAT32)
        return "MQRC_PROP_CONV_NOT_SUPPORTED", row.id, None
    if wanted == "MQTYPE_FLOAT32":
        value = _float32(float(value))
    return value, row.id


def _parse(text: str, wanted: str) -> Any:
    if wanted == "MQTYPE_BOOLEAN":
        return {"TRUE": True, "FALSE": False, "1": True, "0": False}.get(text.strip().upper())
    try:
        if wanted.startswith("MQTYPE_FLOAT"):
            value = float(text)  # "1e999" and "inf" read as infinity, "nan" as NaN: no number MQ converts to
            return value if math.isfinite(value) else None
        return int(text.strip(), 10)  # more than 4,300 digits is a ValueError too
    except ValueError:
        return None


# The length in bytes of a value of each fixed-size type ("Property data types and values"); a string's is that of
# its UTF-8 text, a byte string's its own (properties.inquire.value-length).
VALUE_SIZES = {"MQTYPE_BOOLEAN": 4, "MQTYPE_INT8": 1, "MQTYPE_INT16": 2, "MQTYPE_INT32": 4, "MQTYPE_INT64": 8,
               "MQTYPE_FLOAT32": 4, "MQTYPE_FLOAT64": 8, "MQTYPE_NULL": 0}


def value_bytes(type_name_: str, value: Any) -> bytes | None:
    """A string's or byte string's value as the bytes MQINQMP returns (None for a fixed-size type)."""
    if isinstance(value, bytes):
        return value
    return value.encode("utf-8") if type_name_ == "MQTYPE_STRING" and isinstance(value, str) else None


def fit_buffers(result: Result, value_length: int | None, name_length: int | None) -> Result:
    """MQINQMP's answer for the buffers given: DataLength is always the value's whole length; a value longer than
    ValueLength is returned truncated with a warning, MQRC_PROPERTY_VALUE_TOO_BIG (properties.inquire.value-length);
    a name longer than the ReturnedName buffer is not returned, a warning MQRC_PROPERTY_NAME_TOO_BIG
    (properties.inquire.name-length). Without the lengths the buffers are large enough."""
    answer = result.attributes
    raw = value_bytes(answer["Type"], answer["Value"])
    size = len(raw) if raw is not None else VALUE_SIZES[answer["Type"]]
    result.data_length = size
    if value_length is not None and size > value_length:
        cut = raw[:value_length] if raw is not None else None
        if isinstance(answer["Value"], str) and cut is not None:
            cut = cut.decode("utf-8", errors="ignore")
        answer["Value"] = cut
        result.comp_code, result.reason = MQCC_WARNING, VALUES["MQRC_PROPERTY_VALUE_TOO_BIG"]
        result.clauses.append("properties.inquire.value-length")
    elif name_length is not None and len(answer["Name"].encode("utf-8")) > name_length:
        del answer["Name"]
        result.comp_code, result.reason = MQCC_WARNING, VALUES["MQRC_PROPERTY_NAME_TOO_BIG"]
        result.clauses.append("properties.inquire.name-length")
    return result


def inquire_property(qm: QueueManager, hconn: int, hmsg: int, name: str, type_name_: str = "MQTYPE_AS_SET",
                     options: int = 0, value_length: int | None = None, name_length: int | None = None) -> Result:
    """MQINQMP with the buffers given (:func:`fit_buffers`; None: large enough) - see :func:`inquire`."""
    result = inquire(qm, hconn, hmsg, name, type_name_, options)
    return result if result.attributes is None else fit_buffers(result, value_length, name_length)


def inquire(qm: QueueManager, hconn: int, hmsg: int, name: str, type_name_: str = "MQTYPE_AS_SET",
            options: int = 0) -> Result:
    """MQINQMP: the value of the first property (MQIMPO_INQ_FIRST) or the next (MQIMPO_INQ_NEXT) that answers
    ``name`` (a ``%`` at its end is a wildcard), in ``Result.attributes`` as ``{Name, Type, Value}``.

    MQIMPO_INQ_NEXT continues after the property the last inquiry returned when it asks for the same name, else
    starts at the first (properties.inquire.next). None left: MQRC_PROPERTY_NOT_AVAILABLE
    (properties.inquire.not-available). The value is returned as set unless MQIMPO_CONVERT_TYPE asks for
    ``type_name_`` (properties.inquire.as-set, properties.conversions.*). A failed inquiry leaves the cursor.
    """
    handle = handle_of(qm, hconn, hmsg)
    if isinstance(handle, Result):
        return handle
    if options & ~IMPO_KNOWN:
        return failure("MQRC_IMPO_ERROR", "properties.inquire.options")
    if options & IMPO_UNDER_CURSOR:
        raise NotModelled("MQIMPO_INQ_PROP_UNDER_CURSOR")
    refused = name_refusal(name, handle.validate, set_call=False)
    if refused is not None:
        return failure(*refused)
    if "%" in name[:-1]:
        return failure("MQRC_PROPERTY_NAME_ERROR", "properties.inquire.wildcard")
    if type_name_ != "MQTYPE_AS_SET" and type_row(qm, type_name_) is None:
        return failure("MQRC_PROPERTY_TYPE_ERROR", "properties.inquire.type-error")
    if name.startswith(DESCRIPTOR_PREFIX) and "%" not in name:
        return _inquire_descriptor(qm, handle, name, type_name_, options)
    names = list(handle.properties)
    start, clauses = 0, name_clauses(name, False)
    if options & IMPO_INQ_NEXT:
        # continues after the cursor for the same name; another name (or none before) starts at the first
        clauses.append("properties.inquire.next")
        if handle.cursor is not None and handle.cursor[0] == name:
            start = handle.cursor[1] + 1
    for index in range(start, len(names)):
        prop = handle.properties[names[index]]
        if not wildcard_matches(name, prop.name):
            continue
        if "%" in name:
            clauses.append("properties.inquire.wildcard")
        if options & IMPO_CONVERT_TYPE and type_name_ != "MQTYPE_AS_SET":
            converted = convert(qm, prop, type_name_)
            if len(converted) == 3:
                return failure(converted[0], converted[1])
            value, clause = converted
            returned_type = type_name_
        else:
            value, clause, returned_type = prop.value, "properties.inquire.as-set", type_name(prop.type)
        handle.cursor = (name, index)
        return Result(clauses=[*clauses, clause],
                      attributes={"Name": prop.name, "Type": returned_type, "Value": value})
    return failure("MQRC_PROPERTY_NOT_AVAILABLE", *clauses, "properties.inquire.not-available")


def _inquire_descriptor(qm: QueueManager, handle: MessageHandle, name: str, type_name_: str, options: int
                        ) -> Result:
    """MQINQMP of ``Root.MQMD.<Field>``: the field of the handle's message descriptor, of the field's type
    (properties.descriptor.inquire, properties.descriptor.type), converted as any property is with
    MQIMPO_CONVERT_TYPE. A name that is no MQMD field has no property: MQRC_PROPERTY_NOT_AVAILABLE. A wildcard
    never returns descriptor fields (they are no properties of the MQRFH2: properties.descriptor.not-in-rfh2)."""
    field_name = descriptor_field(name)
    if field_name is None:
        return failure("MQRC_PROPERTY_NOT_AVAILABLE", "properties.descriptor.names", "properties.inquire.not-available")
    prop = Property(name, TYPES[descriptor_type(field_name)], getattr(handle.descriptor, field_name))
    clauses = ["properties.descriptor.inquire", "properties.descriptor.type"]
    if options & IMPO_CONVERT_TYPE and type_name_ != "MQTYPE_AS_SET":
        converted = convert(qm, prop, type_name_)
        if len(converted) == 3:
            return failure(converted[0], converted[1])
        return Result(clauses=[*clauses, converted[1]],
                      attributes={"Name": name, "Type": type_name_, "Value": converted[0]})
    return Result(clauses=[*clauses, "properties.inquire.as-set"],
                  attributes={"Name": name, "Type": type_name(prop.type), "Value": prop.value})


def delete_property(qm: QueueManager, hconn: int, hmsg: int, name: str, options: int = 0) -> Result:
    """MQDLTMP: delete the property ``name`` of the handle; none of that name: a warning, MQRC_PROPERTY_NOT_AVAILABLE.

    Clauses: properties.delete, properties.delete.not-available, properties.delete.no-wildcard,
    properties.delete.options, properties.names.length.
    """
    handle = handle_of(qm, hconn, hmsg)
    if isinstance(handle, Result):
        return handle
    if options & ~DMPO_UNDER_CURSOR:
        return failure("MQRC_DMPO_ERROR", "properties.delete.options")
    if options:
        raise NotModelled("MQDMPO_DEL_PROP_UNDER_CURSOR")
    refused = name_refusal(name, handle.validate, set_call=False)
    if refused is not None:
        return failure(*refused)
    if "%" in name:
        return failure("MQRC_PROPERTY_NAME_ERROR", "properties.delete.no-wildcard")
    field_name = descriptor_field(name)
    if field_name is not None:
        # A descriptor always has every field: deleting one gives it back its initial value (MQMD_DEFAULT).
        setattr(handle.descriptor, field_name, getattr(MQMD, field_name))
        return Result(clauses=["properties.descriptor.delete"])
    key = kept_name(name)
    if key not in handle.properties:
        return Result(MQCC_WARNING, VALUES["MQRC_PROPERTY_NOT_AVAILABLE"], ["properties.delete.not-available"])
    del handle.properties[key]
    handle.groups = None
    handle.cursor = None
    return Result(clauses=["properties.delete"])


# -- MQPUT and MQPUT1 ---------------------------------------------------------------------------------------

def put_properties(qm: QueueManager, hconn: int, original: int | None, new: int | None, action: int
                   ) -> tuple[tuple[Property, ...], list[str]] | Result:
    """The properties a put gives its message: those of the PMO's OriginalMsgHandle, then those of its
    NewMsgHandle over them (properties.put.original-handle, properties.put.new-handle). A handle the connection
    cannot use fails the put with MQRC_HMSG_ERROR before anything is put (properties.handle.hmsg-error). Action
    other than MQACTP_NEW is not modelled; one that is no MQACTP_* value fails with MQRC_ACTION_ERROR
    (properties.put.action)."""
    if action not in (VALUES["MQACTP_NEW"], VALUES["MQACTP_FORWARD"], VALUES["MQACTP_REPLY"],
                      VALUES["MQACTP_REPORT"]):
        return failure("MQRC_ACTION_ERROR", "properties.put.action")
    if action != VALUES["MQACTP_NEW"]:
        raise NotModelled("MQPMO Action other than MQACTP_NEW")
    found: dict[str, Property] = {}
    clauses = []
    for hmsg, clause in ((original, "properties.put.original-handle"), (new, "properties.put.new-handle")):
        if hmsg is None or hmsg == VALUES["MQHM_NONE"]:
            continue
        handle = handle_of(qm, hconn, hmsg)
        if isinstance(handle, Result):
            return handle
        found.update(handle.properties)
        clauses.append(clause)
    return tuple(found.values()), clauses


# -- MQGET --------------------------------------------------------------------------------------------------

def gmo_property_option(options: int) -> str:
    """The MQGMO property option in force: the one given, else MQGMO_PROPERTIES_AS_Q_DEF (zero)."""
    for name in GMO_PROPERTY_OPTIONS:
        if options & VALUES[name]:
            return name
    return "MQGMO_PROPERTIES_AS_Q_DEF"


@dataclass(frozen=True, slots=True)
class GetPlan:
    """What a get does with properties, decided before it chooses a message: the property option, the queue's
    PropertyControl, and the message handle to fill (None: none given, or one the option ignores)."""

    option: str
    property_control: str
    handle: MessageHandle | None

    def row(self, qm: QueueManager, properties: tuple[Property, ...]):
        """The property-control row for a message with these properties."""
        compat = any(folder_of(qm, p.name) in COMPAT_FOLDERS for p in properties)
        return qm.spec["properties.get"].lookup(option=self.option, property_control=self.property_control,
                                                handle=self.handle is not None, compat_folder=compat)


def plan_get(qm: QueueManager, hconn: int, options: int, hmsg: int | None, property_control: int
             ) -> GetPlan | Result:
    """The get's :class:`GetPlan`, or its failure: a MsgHandle the connection cannot use
    (properties.handle.hmsg-error), or MQGMO_PROPERTIES_IN_HANDLE without one (properties.get.in-handle-needs-handle).
    """
    handle = None
    if hmsg is not None and hmsg != VALUES["MQHM_NONE"]:
        handle = handle_of(qm, hconn, hmsg)
        if isinstance(handle, Result):
            return handle
    plan = GetPlan(gmo_property_option(options), name_of(property_control, "MQPROP"), handle)
    row = plan.row(qm, ())
    if row is not None and row.then["representation"] == "refused":
        return failure(row.then["Reason"], row.id)
    return plan


def header_for(qm: QueueManager, plan: GetPlan, message: StoredMessage) -> tuple[bytes, list[str]]:
    """The MQRFH2 header MQGET puts before the message's data (empty when it puts none) and the clauses that
    decided: the property-control row, and properties.rfh2.only-with-properties when it held a header back.

    A message without properties gets no header (properties.rfh2.only-with-properties).
    """
    properties = message.properties or ()
    row = plan.row(qm, properties)
    if row.then["representation"] == "not-modelled":
        raise NotModelled("PropertyControl MQPROP_V6COMPAT")
    if row.then["representation"] != "rfh2":
        return b"", [row.id]
    if not properties:
        return b"", [row.id, "properties.rfh2.only-with-properties"]
    return rfh2(qm, properties, message.md.Encoding, message.md.CodedCharSetId, message.md.Format), [row.id]


def finish_get(qm: QueueManager, plan: GetPlan, message: StoredMessage, result: Result, header: bytes,
               decided: list[str]) -> None:
    """After a successful get: fill the message handle (its properties replaced by the message's:
    properties.get.handle-replaced), or describe the MQRFH2 in the returned MQMD (properties.rfh2.md-format)."""
    properties = message.properties or ()
    row = plan.row(qm, properties)
    result.clauses.extend(decided)
    if row.then["representation"] == "handle" and plan.handle is not None:
        plan.handle.properties = {p.name: p for p in properties}
        plan.handle.groups = None
        plan.handle.cursor = None
        if result.md is not None:
            plan.handle.descriptor = result.md.copy()  # the handle's descriptor is the message's (MsgHandle field)
            result.clauses.append("properties.descriptor.from-get")
        result.clauses.append("properties.get.handle-replaced")
    if header:
        result.clauses += ["properties.rfh2.layout", "properties.rfh2.folders"]  # the header written (rfh2())
    if header and result.md is not None:
        result.md.Format, result.md.Encoding, result.md.CodedCharSetId = RFH2_FORMAT, MQENC_NATIVE, NAME_VALUE_CCSID
        result.clauses.append("properties.rfh2.md-format")


def _element(qm: QueueManager, leaf: str, prop: Property) -> str:
    dt = type_row(qm, type_name(prop.type)).then["dt"]
    if prop.type == MQTYPE_NULL:
        return f'<{leaf} xsi:nil="true"></{leaf}>'
    value = prop.value
    if isinstance(value, bool):
        text = "1" if value else "0"
    elif isinstance(value, bytes):
        text = value.hex()
    elif isinstance(value, float):
        text = repr(value)
    else:
        text = escape(str(value))
    attribute = "" if dt == "string" else f' dt="{dt}"'
    return f"<{leaf}{attribute}>{text}</{leaf}>"


def folders(qm: QueueManager, properties: Iterable[Property]) -> list[str]:
    """The NameValueData folders of an MQRFH2 holding ``properties``: one folder per first name part, each
    property an element (nested for further dots), with its ``dt`` type (properties.rfh2.folders)."""
    grouped: dict[str, list[tuple[list[str], Property]]] = {}
    for prop in properties:
        parts = rfh2_path(qm, prop.name)
        grouped.setdefault(parts[0], []).append((parts[1:], prop))
    result = []
    for folder, members in grouped.items():
        body = ""
        for path, prop in members:
            element = _element(qm, path[-1], prop)
            for parent in reversed(path[:-1]):
                element = f"<{parent}>{element}</{parent}>"
            body += element
        result.append(f"<{folder}>{body}</{folder}>")
    return result


def rfh2(qm: QueueManager, properties: Iterable[Property], encoding: int, ccsid: int, fmt: str) -> bytes:
    """An MQRFH2 (version 2) holding ``properties``, for data of ``encoding``, ``ccsid`` and ``fmt``: StrucId
    ``RFH ``, Version 2, StrucLength, the data's Encoding, CodedCharSetId and Format, Flags 0, NameValueCCSID 1208,
    then each folder as its length and its text padded with blanks to a multiple of four; integers little-endian
    as MQENC_NATIVE on the platforms the suite runs on (properties.rfh2.layout)."""
    tail = b""
    for text in folders(qm, properties):
        raw = text.encode("utf-8")
        raw += b" " * (-len(raw) % 4)
        tail += struct.pack("<i", len(raw)) + raw
    length = 36 + len(tail)
    head = b"RFH " + struct.pack("<iiii", 2, length, encoding, ccsid) + fmt.encode("ascii")[:8].ljust(8) + \
        struct.pack("<ii", 0, NAME_VALUE_CCSID)
    return head + tail


# -- MQMHBUF and MQBUFMH: a handle's properties as an MQRFH2 and back ---------------------------------------------

MHBO_IN_RFH2, MHBO_DELETE = VALUES["MQMHBO_PROPERTIES_IN_MQRFH2"], VALUES["MQMHBO_DELETE_PROPERTIES"]
BMHO_DELETE = VALUES["MQBMHO_DELETE_PROPERTIES"]
XSI = "http://www.w3.org/2001/XMLSchema-instance"  # the namespace of the xsi:nil a NULL's element carries


def to_buffer(qm: QueueManager, hconn: int, hmsg: int, name: str, options: int, md: MQMD,
              buffer_length: int | None) -> Result:
    """MQMHBUF: the handle's properties that answer ``name`` (a ``%`` at its end a wildcard) as an MQRFH2, written
    exactly as MQGET writes one (:func:`rfh2`) for data of the MsgDesc's Encoding, CodedCharSetId and Format; the
    returned MsgDesc describes the buffer (MQFMT_RF_HEADER_2, MQENC_NATIVE, 1208). None answers:
    MQRC_PROPERTY_NOT_AVAILABLE. A BufferLength shorter than the header: MQRC_PROPERTY_VALUE_TOO_BIG, with the
    length needed in DataLength. MQMHBO_DELETE_PROPERTIES deletes from the handle the properties written.

    Clauses: properties.mhbuf.rfh2, properties.mhbuf.not-available, properties.mhbuf.buffer-too-small,
    properties.mhbuf.delete-properties, properties.handle.hmsg-error.
    """
    handle = handle_of(qm, hconn, hmsg)
    if isinstance(handle, Result):
        return handle
    if options & ~(MHBO_IN_RFH2 | MHBO_DELETE) or not options & MHBO_IN_RFH2:
        raise NotModelled("MQMHBUF without MQMHBO_PROPERTIES_IN_MQRFH2, or with an unknown option (IBM names no "
                          "reason code)")
    refused = name_refusal(name, handle.validate, set_call=False)
    if refused is not None:
        return failure(*refused)
    if "%" in name[:-1]:
        return failure("MQRC_PROPERTY_NAME_ERROR", "properties.inquire.wildcard")
    chosen = [p for p in handle.properties.values() if wildcard_matches(name, p.name)]
    if not chosen:
        return failure("MQRC_PROPERTY_NOT_AVAILABLE", "properties.mhbuf.not-available")
    header = rfh2(qm, chosen, md.Encoding, md.CodedCharSetId, md.Format)
    if buffer_length is not None and buffer_length < len(header):
        result = failure("MQRC_PROPERTY_VALUE_TOO_BIG", "properties.mhbuf.buffer-too-small")
        result.data_length = len(header)
        return result
    clauses = ["properties.mhbuf.rfh2", "properties.rfh2.layout", "properties.rfh2.folders"]
    if options & MHBO_DELETE:
        for prop in chosen:
            del handle.properties[prop.name]
        handle.groups, handle.cursor = None, None
        clauses.append("properties.mhbuf.delete-properties")
    out = md.copy()
    out.Format, out.Encoding, out.CodedCharSetId = RFH2_FORMAT, MQENC_NATIVE, NAME_VALUE_CCSID
    return Result(clauses=clauses, md=out, data=header, data_length=len(header))


def from_buffer(qm: QueueManager, hconn: int, hmsg: int, options: int, md: MQMD, data: bytes) -> Result:
    """MQBUFMH: the properties of the MQRFH2 that begins ``data`` (MsgDesc Format MQFMT_RF_HEADER_2) set on the
    handle, each as MQSETMP would set it (the handle's other properties stay). With MQBMHO_DELETE_PROPERTIES the
    header leaves the buffer and the MsgDesc takes its Encoding, CodedCharSetId and Format, describing what
    remains; without, buffer and MsgDesc are returned as given. DataLength is the buffer's length after.

    Clauses: properties.bufmh.properties, properties.bufmh.delete-properties, properties.handle.hmsg-error.
    """
    handle = handle_of(qm, hconn, hmsg)
    if isinstance(handle, Result):
        return handle
    if options & ~BMHO_DELETE:
        raise NotModelled("MQBUFMH with an unknown option (IBM names no reason code)")
    read = read_rfh2(qm, data) if md.Format == RFH2_FORMAT else None
    if read is None:
        raise NotModelled("MQBUFMH of a buffer that does not begin with an MQRFH2 version 2 as MQGET writes one")
    found, encoding, ccsid, fmt, length = read
    for prop in found:
        handle.properties[prop.name] = prop
    handle.groups, handle.cursor = None, None
    clauses = ["properties.bufmh.properties"]
    out, rest = md.copy(), data
    if options & BMHO_DELETE:
        out.Encoding, out.CodedCharSetId, out.Format, rest = encoding, ccsid, fmt, data[length:]
        clauses.append("properties.bufmh.delete-properties")
    return Result(clauses=clauses, md=out, data=rest, data_length=len(rest))


def read_rfh2(qm: QueueManager, raw: bytes) -> tuple[list[Property], int, int, str, int] | None:
    """The inverse of :func:`rfh2`: the properties of the MQRFH2 (version 2, integers little-endian) that begins
    ``raw``, with the Encoding, CodedCharSetId and Format it gives the data after it and its StrucLength; None when
    ``raw`` begins with none, or with one whose folders are not well-formed XML."""
    if len(raw) < 36 or raw[:4] != b"RFH ":
        return None
    version, length, encoding, ccsid = struct.unpack_from("<iiii", raw, 4)
    if version != 2 or not 36 <= length <= len(raw):
        return None
    fmt = raw[20:28].decode("ascii", "replace")
    found: list[Property] = []
    offset = 36
    while offset + 4 <= length:
        (size,) = struct.unpack_from("<i", raw, offset)
        offset += 4
        if size < 0 or offset + size > length:
            return None
        text = raw[offset:offset + size].decode("utf-8", "replace").rstrip(" ")
        offset += size
        try:  # the writer declares no namespace for xsi:nil: declared here, around the folder
            folder = ElementTree.fromstring(f'<f xmlns:xsi="{XSI}">{text}</f>')[0]
            found += _folder_properties(qm, folder)
        except (ElementTree.ParseError, IndexError, ValueError):  # not XML, no folder, a value not of its dt
            return None
    return found, encoding, ccsid, fmt, length


def _folder_properties(qm: QueueManager, folder: ElementTree.Element) -> list[Property]:
    """The properties of one folder, in document order: each leaf element a property named by its path (``usr``
    and IBM's own folders as fixtures/tables/property-folders.yaml maps them), typed by its ``dt``."""
    by_place = {(row.then["folder"], row.then["element"]): row.when["name"]
                for row in qm.spec["properties.folders"].rows}
    by_dt = {row.then["dt"]: row.when["type"] for row in qm.spec["properties.types"].rows}
    found = []

    def walk(element: ElementTree.Element, path: list[str]) -> None:
        if len(element):
            for child in element:
                walk(child, [*path, child.tag])
            return
        if (folder.tag, path[-1]) in by_place and len(path) == 1:
            name = by_place[(folder.tag, path[-1])]
        else:
            name = ".".join(path) if folder.tag == "usr" else ".".join([folder.tag, *path])
        nil = element.get(f"{{{XSI}}}nil") == "true"
        type_name_ = "MQTYPE_NULL" if nil else by_dt.get(element.get("dt", "string"), "MQTYPE_STRING")
        found.append(Property(name, TYPES[type_name_], _element_value(type_name_, element.text or "")))

    for child in folder:
        walk(child, [child.tag])
    return found


def _element_value(type_name_: str, text: str) -> Any:
    """A property's value from its element's text, as :func:`_element` wrote it."""
    if type_name_ == "MQTYPE_NULL":
        return None
    if type_name_ == "MQTYPE_BOOLEAN":
        return text.strip() in ("1", "true", "TRUE")
    if type_name_ == "MQTYPE_BYTE_STRING":
        return bytes.fromhex(text.strip())
    if type_name_ in ("MQTYPE_FLOAT32", "MQTYPE_FLOAT64"):
        return float(text)
    if type_name_ != "MQTYPE_STRING":
        return int(text)
    return text


def put_with_properties(qm: QueueManager, hconn: int, original: int | None, new: int | None, action: int,
                        do_put: Callable[[], Result]) -> Result:
    """An MQPUT or MQPUT1 (``do_put``) whose message takes the properties of the PMO's message handles
    (:func:`put_properties`); every message the put places on this queue manager carries them, each segment of a
    message the queue manager segments included (properties.put.copied)."""
    found = put_properties(qm, hconn, original, new, action)
    if isinstance(found, Result):
        return found
    properties, clauses = found
    before = qm.last_seq
    qm.pubsub.put_properties = properties  # a publication's copies take them as they are made (publish.py)
    try:
        result = do_put()
    finally:
        qm.pubsub.put_properties = ()
    if result.failed or not properties:
        return result
    for seq in range(before + 1, qm.last_seq + 1):
        for queue in qm.queues.values():
            message = queue.messages.get(seq)
            if message is not None:
                if message.properties is None:  # a publication's copy has its own already
                    message.properties = properties
                break
    result.clauses.extend([*clauses, "properties.put.copied"])
    return result


def may_have_properties(qm: QueueManager) -> bool:
    """Whether a message of this queue manager may have properties: it made a message handle, or a subscription
    (every publication a subscription is sent carries properties: reference/publish.py). Adapters skip the property
    path of MQGET otherwise."""
    return bool(qm.last_hmsg or qm.pubsub.last_subscription)


def get_with_properties(qm: QueueManager, hconn: int, hobj: int, md, gmo, buffer_length: int | None,
                        hmsg: int | None) -> Result:
    """An MQGET that returns the message's properties as the property option, the queue's PropertyControl and the
    MsgHandle decide (fixtures/tables/property-control.yaml): into the handle, as an MQRFH2 before the data, or
    not at all. A get that fails changes no handle."""
    handle = qm.handles.get(hobj)
    queue = qm.queues.get(handle.queue) if handle is not None else None
    if hconn not in qm.connections or queue is None or handle.hconn != hconn or handle.deleted:
        # no queue behind the handle (a topic's has none): the get's own checks give its reason
        return qm.get(hconn, hobj, md, gmo, buffer_length)
    control = queue.definition.PropertyControl
    plan = plan_get(qm, hconn, gmo.Options, hmsg, control)
    if isinstance(plan, Result):
        return plan
    decided: list[list[str]] = []
    made: list[bytes] = []

    def header(message: StoredMessage) -> bytes:
        prefix, row = header_for(qm, plan, message)
        decided.append(row)
        made.append(prefix)
        return prefix

    result = qm.get(hconn, hobj, md, gmo, buffer_length, header=header)
    if result.comp_code != MQCC_FAILED and result.message is not None and made and \
            result.reason != VALUES["MQRC_TRUNCATED_MSG_FAILED"]:
        finish_get(qm, plan, result.message, result, made[-1], decided[-1])
    return result


def outcome_value(value: Any) -> Any:
    """A property value in the call language: bytes as ``{hex: ...}``, everything else as JSON has it."""
    return {"hex": value.hex()} if isinstance(value, bytes) else value


__all__ = ["MessageHandle", "Property", "create", "delete", "set_property", "inquire_property", "delete_property",
           "put_properties", "plan_get", "header_for", "finish_get", "rfh2", "MQCC_OK", "MQCC_FAILED"]


# -- the call language (reference/calls.py) -----------------------------------------------------------------
# crtmh {hmsg, Options: [MQCMHO_*]}; dltmh {hmsg}; setmp {hmsg, Name, Type: MQTYPE_*, Value, Options: [MQSMPO_*]};
# inqmp {hmsg, Name, Type (default MQTYPE_AS_SET), Options: [MQIMPO_*]}; dltmp {hmsg, Name, Options: [MQDMPO_*]};
# mhbuf {hmsg, Name (default %), Options: [MQMHBO_*] (default MQMHBO_PROPERTIES_IN_MQRFH2), MD, BufferLength} and
# bufmh {hmsg, Options: [MQBMHO_*], MD, data}, answered in the Outcome's data, DataLength and MD;
# each with an optional connection. put and put1 take OriginalMsgHandle and NewMsgHandle (hmsg names) and Action
# (an MQACTP_* name), get takes MsgHandle: the MQPMO and MQGMO fields, given beside the structure because they
# name message handles rather than hold numbers. An inquiry's answer is the Outcome's ``property``.

PROPERTY_OPS = {
    "crtmh": {"hmsg", "connection", "Options"},
    "dltmh": {"hmsg", "connection", "Options"},
    "setmp": {"hmsg", "connection", "Name", "Type", "Value", "Options", "PD"},
    "inqmp": {"hmsg", "connection", "Name", "Type", "Options", "ValueLength", "ReturnedNameLength"},
    "dltmp": {"hmsg", "connection", "Name", "Options"},
    "mhbuf": {"hmsg", "connection", "Name", "Options", "MD", "BufferLength"},
    "bufmh": {"hmsg", "connection", "Options", "MD", "data"},
}
OPTION_FAMILY = {"crtmh": "MQCMHO", "dltmh": "MQDMHO", "setmp": "MQSMPO", "inqmp": "MQIMPO", "dltmp": "MQDMPO",
                 "mhbuf": "MQMHBO", "bufmh": "MQBMHO"}
PUT_HANDLE_FIELDS = ("OriginalMsgHandle", "NewMsgHandle", "Action")
GET_HANDLE_FIELDS = ("MsgHandle",)


def decode_type(value: Any, path: str, allow_as_set: bool = False) -> str:
    """An MQTYPE_* name (MQTYPE_LONG reads as MQTYPE_INT32). A name that is no property type is kept, for the call
    to fail with MQRC_PROPERTY_TYPE_ERROR as MQ's would."""
    from .calls import CallError

    if not isinstance(value, str) or not value.startswith("MQTYPE_") or value not in VALUES:
        raise CallError(f"expected an MQTYPE_* name, not {value!r}", path)
    return type_name(VALUES[value])


def decode_value(type_name_: str, value: Any, path: str) -> Any:
    """A property value from the call language: {hex: ...} for a byte string, JSON's own value otherwise."""
    from .calls import CallError, decode_bytes

    if type_name_ == "MQTYPE_BYTE_STRING":
        if isinstance(value, str) or (isinstance(value, dict) and set(value) == {"hex"}):
            return decode_bytes(value, path)
        raise CallError("a byte string is text or {hex: ...}", path)
    if value is not None and not isinstance(value, (bool, int, float, str)):
        raise CallError(f"expected true/false, a number, text or null, not {value!r}", path)
    return value


def decode_name(args: dict, path: str = "Name") -> str:
    """A property name: text (its length is checked by the call, as MQ's is)."""
    from .calls import CallError

    name = args.get("Name")
    if not isinstance(name, str):
        raise CallError("needs a property 'Name' (text)", path)
    return name


def check_property_call(op: str, args: dict) -> None:
    """Decode a property op's arguments as the model would (for loading scenarios)."""
    from .calls import CallError, decode_options

    unknown = set(args) - PROPERTY_OPS[op]
    if unknown:
        raise CallError(f"unknown argument {sorted(unknown)[0]!r} of {op}", sorted(unknown)[0])
    hmsg = args.get("hmsg")
    if not isinstance(hmsg, str) or not hmsg:
        raise CallError("needs an 'hmsg' name", "hmsg")
    decode_options(args.get("Options", []), OPTION_FAMILY[op], "Options")
    if op in ("setmp", "inqmp", "dltmp"):
        decode_name(args)
    if op == "setmp":
        decode_value(decode_type(args.get("Type"), "Type"), args.get("Value"), "Value")
    if op == "inqmp" and "Type" in args:
        decode_type(args["Type"], "Type")
    if op == "setmp":
        decode_copy_options(args.get("PD"), "PD")
    if op == "inqmp":
        decode_length(args, "ValueLength")
        decode_length(args, "ReturnedNameLength")
    if op in ("mhbuf", "bufmh"):
        decode_buffer_call(op, args)


def decode_buffer_call(op: str, args: dict) -> tuple[str, MQMD, int | None, bytes]:
    """The Name (mhbuf; default ``%``), MsgDesc, BufferLength (mhbuf) and data (bufmh) of an mhbuf or bufmh."""
    from .calls import CallError, decode_bytes, decode_structure

    name = args.get("Name", "%")
    if not isinstance(name, str):
        raise CallError("a property 'Name' is text", "Name")
    md = decode_structure("MD", args.get("MD"), "MD")
    if op == "bufmh" and "data" not in args:
        raise CallError("bufmh needs the buffer's 'data'", "data")
    data = decode_bytes(args["data"], "data") if op == "bufmh" else b""
    return name, md, decode_length(args, "BufferLength"), data


def decode_copy_options(pd: Any, path: str) -> int:
    """The MQPD of a ``setmp``: ``{CopyOptions: [MQCOPY_*]}`` (default MQCOPY_DEFAULT)."""
    from .calls import CallError

    if pd is None:
        return VALUES["MQCOPY_DEFAULT"]
    if not isinstance(pd, dict) or set(pd) - {"CopyOptions"}:
        raise CallError("PD takes CopyOptions, a list of MQCOPY_* names", path)
    names = pd.get("CopyOptions", ["MQCOPY_DEFAULT"])
    if not isinstance(names, list) or not all(isinstance(n, str) and n.startswith("MQCOPY_") and n in VALUES
                                             for n in names):
        raise CallError("CopyOptions is a list of MQCOPY_* names", f"{path}.CopyOptions")
    total = 0
    for name in names:
        total |= VALUES[name]
    return total


def decode_length(args: dict, key: str) -> int | None:
    """A buffer length of ``inqmp`` (a whole number >= 0), or None when not given (a buffer large enough)."""
    from .calls import CallError

    value = args.get(key)
    if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 0):
        raise CallError(f"expected a whole number >= 0, not {value!r}", key)
    return value
