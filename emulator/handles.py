"""Message handles and properties for the emulator: IBM's ``ibmmq`` MessageHandle API (MQCRTMH, MQDLTMH, MQSETMP,
MQINQMP, MQDLTMP) and the handles of MQPUT, MQPUT1 and MQGET, answered by reference/properties.py.

The native functions take and return what IBM's ``ibmmqc.c`` does (mq-mqi-python ``code/ibmmq/ibmmqc.c``):
MQCRTMH ``(Hmsg, CompCode, Reason)``; MQDLTMH, MQSETMP and MQDLTMP ``(CompCode, Reason)``; MQINQMP ``(Value,
DataLength, ReturnedName, CompCode, Reason)``, the value as the C layer builds it from the type (a boolean as an
integer, a string as text, a byte string as bytes, a null as None), the returned name only for a name with a
wildcard. MQSETMP receives the value as the C layer would store it: an integer cut to its type's width, a
32-bit float rounded, a string or byte string cut to a ValueLength other than MQVL_NULL_TERMINATED.

An Hmsg is the emulator's number for a (queue manager, model handle) pair, so that a handle from one emulator
never reaches another's model.
"""

from __future__ import annotations

import ctypes
import itertools
import struct
from typing import TYPE_CHECKING, Any

from mq_conformance.reference import properties
from mq_conformance.reference.constants import VALUES as V
from mq_conformance.reference.constants import name_of
from mq_conformance.reference.result import Result

if TYPE_CHECKING:
    from .emulator import Emulator

MQCC_FAILED, MQRC_HCONN_ERROR, MQRC_HMSG_ERROR = 2, V["MQRC_HCONN_ERROR"], V["MQRC_HMSG_ERROR"]
MQVL_NULL_TERMINATED = -1
MQHM_NONE, MQHM_UNUSABLE_HMSG = 0, -1
_HMSGS = itertools.count(0x0200_0001)  # process-wide, like connection handles
# The bytes the C layer gives each fixed-length type (MQINQMP's DataLength).
_LENGTHS = {"MQTYPE_BOOLEAN": 4, "MQTYPE_INT8": 1, "MQTYPE_INT16": 2, "MQTYPE_INT32": 4, "MQTYPE_INT64": 8,
            "MQTYPE_FLOAT32": 4, "MQTYPE_FLOAT64": 8, "MQTYPE_NULL": 0}
_WIDTHS = {"MQTYPE_INT8": 8, "MQTYPE_INT16": 16, "MQTYPE_INT32": 32, "MQTYPE_INT64": 64}


def _options(emulator: Emulator, cls_name: str, raw: Any, what: str) -> int:
    from .emulator import unpack

    return unpack(cls_name, raw, what).Options


def _name(raw: Any) -> str:
    return raw.decode("utf-8", "replace") if isinstance(raw, bytes | bytearray) else str(raw)


def _model_handle(emulator: Emulator, hconn: int, hmsg: int) -> tuple[Any, int, int] | Result:
    """(model queue manager, model Hconn, model Hmsg) of an emulator Hmsg; an unknown Hmsg maps to an unusable one,
    for the model to refuse with MQRC_HMSG_ERROR."""
    conn = emulator._conn(hconn)
    if conn is None:
        return Result(MQCC_FAILED, MQRC_HCONN_ERROR, [])
    qmgr, model_hmsg = emulator.message_handles.get(hmsg, (conn.qmgr, MQHM_UNUSABLE_HMSG))
    return emulator.world.qmgr(qmgr), conn.hconn, model_hmsg if qmgr == conn.qmgr else MQHM_UNUSABLE_HMSG


def model_hmsg(emulator: Emulator, qmgr: str, hmsg: int) -> int | None:
    """The model's Hmsg of an emulator Hmsg given in an MQPMO or MQGMO (None for MQHM_NONE)."""
    if hmsg == MQHM_NONE:
        return None
    owner, model = emulator.message_handles.get(hmsg, (qmgr, MQHM_UNUSABLE_HMSG))
    return model if owner == qmgr else MQHM_UNUSABLE_HMSG


def crtmh(emulator: Emulator, hconn: int, cmho: Any) -> tuple[int, int, int]:
    """MQCRTMH."""
    with emulator._call():
        options = _options(emulator, "CMHO", cmho, "MQCMHO")
        conn = emulator._conn(hconn)
        if conn is None:
            return MQHM_UNUSABLE_HMSG, MQCC_FAILED, MQRC_HCONN_ERROR
        result = properties.create(emulator.world.qmgr(conn.qmgr), conn.hconn, options)
        if result.failed:
            return MQHM_UNUSABLE_HMSG, result.comp_code, result.reason
        hmsg = next(_HMSGS)
        emulator.message_handles[hmsg] = (conn.qmgr, result.hobj)
        return hmsg, result.comp_code, result.reason


def dltmh(emulator: Emulator, hconn: int, hmsg: int, dmho: Any) -> tuple[int, int]:
    """MQDLTMH."""
    with emulator._call():
        _options(emulator, "DMHO", dmho, "MQDMHO")
        found = _model_handle(emulator, hconn, hmsg)
        if isinstance(found, Result):
            return found.comp_code, found.reason
        result = properties.delete(*found)
        if not result.failed:
            emulator.message_handles.pop(hmsg, None)
        return result.comp_code, result.reason


def _stored_value(type_name: str, value: Any, value_length: int) -> Any:
    """The value as IBM's C layer hands it to MQSETMP."""
    if type_name in _WIDTHS:
        bits = _WIDTHS[type_name]
        number = int(value) & ((1 << bits) - 1)
        return number - (1 << bits) if number >> (bits - 1) else number
    if type_name == "MQTYPE_BOOLEAN":
        return bool(value)
    if type_name == "MQTYPE_FLOAT32":
        return struct.unpack("=f", struct.pack("=f", float(value)))[0]
    if type_name == "MQTYPE_FLOAT64":
        return float(value)
    if type_name == "MQTYPE_STRING":
        raw = str(value).encode("utf-8", "ignore")
        return (raw if value_length == MQVL_NULL_TERMINATED else raw[:value_length]).decode("utf-8", "ignore")
    if type_name == "MQTYPE_BYTE_STRING":
        raw = bytes(value)
        return raw if value_length < 0 else raw[:value_length]
    return None


def setmp(emulator: Emulator, hconn: int, hmsg: int, smpo: Any, name: Any, pd: Any, type_: int, value: Any,
          value_length: int) -> tuple[int, int]:
    """MQSETMP."""
    with emulator._call():
        options = _options(emulator, "SMPO", smpo, "MQSMPO")
        found = _model_handle(emulator, hconn, hmsg)
        if isinstance(found, Result):
            return found.comp_code, found.reason
        type_name = name_of(type_, "MQTYPE")
        stored = _stored_value(type_name, value, value_length) if type_name in properties.TYPES else value
        if not _room_for_property(*found, _name(name), stored):
            return MQCC_FAILED, V["MQRC_STORAGE_NOT_AVAILABLE"]
        result = emulator._model(lambda: properties.set_property(*found, _name(name), type_name, stored, options))
        return result.comp_code, result.reason


# What message properties one connection may hold (docs/emulator.md, "Budgets"): per message handle, and over all
# the connection's handles; an MQSETMP past one fails with MQRC_STORAGE_NOT_AVAILABLE, as a queue manager out of
# storage answers, rather than growing the emulator (and its lock's hold) without bound.
MAX_MESSAGE_PROPERTIES = 4096
MAX_MESSAGE_PROPERTY_BYTES = 32 * 1024 * 1024
MAX_CONNECTION_PROPERTIES = 16384
MAX_CONNECTION_PROPERTY_BYTES = 64 * 1024 * 1024


def _property_bytes(name: str, value: Any) -> int:
    size = len(value) if isinstance(value, bytes) else len(value.encode("utf-8", "replace")) \
        if isinstance(value, str) else 8
    return len(name) + size


# handle's properties dict (by id) -> (its length, its bytes) when last counted: an MQSETMP recounts a handle only
# when something else (MQDLTMP, an MQGET into it) changed its length, so a budget check costs one lookup per handle
_TALLIES: dict[int, tuple[int, int]] = {}


def _tally(held: dict) -> int:
    """The bytes of a handle's properties, recounted only when its length changed since the last count."""
    count, size = _TALLIES.get(id(held), (-1, 0))
    if count != len(held):
        size = sum(_property_bytes(p.name, p.value) for p in held.values())
        if len(_TALLIES) > 65536:  # counts of handles long gone: forgetting them costs only a recount
            _TALLIES.clear()
        _TALLIES[id(held)] = (len(held), size)
    return size


def _room_for_property(qm: Any, hconn: int, hmsg: int, name: str, value: Any) -> bool:
    """Whether an MQSETMP of ``name`` fits the budgets of its message handle and of its connection (a property
    set again gives back what it held); counts what it admits into the handle's tally."""
    handle = qm.message_handles.get(hmsg)
    if handle is None or not isinstance(name, str):
        return True  # the model refuses it
    held = handle.properties
    grows = _property_bytes(name, value)
    old = held.get(properties.kept_name(name))
    if old is not None:
        grows -= _property_bytes(old.name, old.value)
    mine = [h.properties for h in qm.message_handles.values() if h.hconn == hconn]
    if old is None and (len(held) >= MAX_MESSAGE_PROPERTIES
                        or sum(map(len, mine)) >= MAX_CONNECTION_PROPERTIES):
        return False
    own = _tally(held)
    if own + grows > MAX_MESSAGE_PROPERTY_BYTES or sum(map(_tally, mine)) + grows > MAX_CONNECTION_PROPERTY_BYTES:
        return False
    _TALLIES[id(held)] = (len(held) + (old is None), own + grows)  # as the set will leave it
    return True


def _data_length(type_name: str, value: Any) -> int:
    if type_name == "MQTYPE_STRING":
        return len(str(value).encode("utf-8"))
    if type_name == "MQTYPE_BYTE_STRING":
        return len(value)
    return _LENGTHS.get(type_name, 0)


def inqmp(emulator: Emulator, hconn: int, hmsg: int, impo: Any, name: Any, pd: Any, type_: int,
          max_value_length: int) -> tuple[Any, int, str, int, int]:
    """MQINQMP. A value longer than ``max_value_length`` fails with MQRC_PROPERTY_VALUE_TOO_BIG and its
    DataLength, so that the application can ask again with a buffer that fits (properties.inquire.value-length)."""
    value, length, returned, _type, comp, reason = inqmp_typed(emulator, hconn, hmsg, impo, name, pd, type_,
                                                               max_value_length)
    return value, length, returned, comp, reason


def inqmp_typed(emulator: Emulator, hconn: int, hmsg: int, impo: Any, name: Any, pd: Any, type_: int,
                max_value_length: int) -> tuple[Any, int, str, str, int, int]:
    """MQINQMP as :func:`inqmp`, with the property's type name (MQTYPE_*) before CompCode: a C caller is told
    the type (the listener's INQMP)."""
    with emulator._call():
        options = _options(emulator, "IMPO", impo, "MQIMPO")
        found = _model_handle(emulator, hconn, hmsg)
        if isinstance(found, Result):
            return None, 0, "", "", found.comp_code, found.reason
        wanted = name_of(type_, "MQTYPE")
        asked = _name(name)
        result = emulator._model(lambda: properties.inquire_property(*found, asked, wanted, options))
        if result.failed or result.attributes is None:
            return None, 0, "", "", result.comp_code, result.reason
        answer = result.attributes
        type_name, value = answer["Type"], answer["Value"]
        length = _data_length(type_name, value)
        if length > max_value_length:
            return None, length, "", type_name, MQCC_FAILED, V["MQRC_PROPERTY_VALUE_TOO_BIG"]
        returned = answer["Name"] if "%" in asked else ""
        if type_name == "MQTYPE_BOOLEAN":
            value = int(bool(value))
        return value, length, returned, type_name, result.comp_code, result.reason


def dltmp(emulator: Emulator, hconn: int, hmsg: int, dmpo: Any, name: Any) -> tuple[int, int]:
    """MQDLTMP."""
    with emulator._call():
        options = _options(emulator, "DMPO", dmpo, "MQDMPO")
        found = _model_handle(emulator, hconn, hmsg)
        if isinstance(found, Result):
            return found.comp_code, found.reason
        result = emulator._model(lambda: properties.delete_property(*found, _name(name), options))
        return result.comp_code, result.reason


def selection_string(od: Any) -> str | None:
    """The MQOD's SelectionString (version 4), read where its MQCHARV points as IBM's native module reads it: the
    Python layer keeps the text alive for the call. None when the structure has none."""
    length = getattr(od, "SelectionStringVSLength", 0)
    pointer = getattr(od, "SelectionStringVSPtr", 0)
    if getattr(od, "Version", 1) < 4 or length <= 0 or not pointer:
        return None
    return ctypes.string_at(pointer, length).decode("utf-8", "replace")
