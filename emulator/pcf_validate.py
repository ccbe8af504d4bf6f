"""A PCF command checked against its own length before IBM's reader sees it (hostile input, issue 36, item 2).

IBM's reader (``ibmmq.PCFExecute._unpack_option``) believes every count and length a message gives: a parameter
count that lies with a structure length of 0 loops 2**31 times, a string that claims 1 GiB is allocated. Here the
message is walked once, structure by structure, without allocating anything it claims: the MQCFH's
ParameterCount, each structure's StrucLength and the counts and lengths inside it (MQCFST StringLength, MQCFIL
Count, MQCFSL Count and StringLength, MQCFGR ParameterCount...) must fit the bytes that are really there, groups
nest at most :data:`MAX_DEPTH` deep, and the structures end where the message does. What fails is answered with
the MQRCCF_* reason IBM's "PCF reason codes" give for it (MQRCCF_CFH_PARM_COUNT_ERROR, MQRCCF_CFST_LENGTH_ERROR,
MQRCCF_CFST_STRING_LENGTH_ERR, MQRCCF_MSG_LENGTH_ERROR, MQRCCF_STRUCTURE_TYPE_ERROR...).

The name of an object a command names (a queue, channel, namelist, process, topic or authentication information
object) must be made of the characters IBM allows in MQ object names - A-Z, a-z, 0-9, '.', '/', '_' and '%' -
blank-padded on the right, with a '*' last for a generic name (IBM MQ, "Rules for naming IBM MQ objects"); any
other (a control character, an escape sequence) is MQRCCF_OBJECT_NAME_ERROR (4008), so DISPLAY never returns one.
"""

from __future__ import annotations

import struct
from typing import Any

MAX_DEPTH = 8  # MQCFGR groups inside groups: IBM's commands and responses nest one or two deep
HEADER_LENGTH = 36  # MQCFH_STRUC_LENGTH
_PARAMETER_MINIMUM = 16  # the shortest structure (MQCFIN, MQCFIL of no values, MQCFGR)
_NAME_CHARACTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789./_%")

# IBM's PCF structures by their Type: (the length of the fixed part, the reason for a StrucLength that is wrong,
# where the counted part is described: (offset of the count, offset of the element length or the element size,
# whether that is an offset into the structure (True) or a fixed size), the reason for a count that does not fit).
_LAYOUTS: dict[int, tuple[int, str, tuple[int, int, bool] | None, str]] = {
    3: (16, "MQRCCF_CFIN_LENGTH_ERROR", None, ""),  # MQCFIN
    4: (20, "MQRCCF_CFST_LENGTH_ERROR", (16, 1, False), "MQRCCF_CFST_STRING_LENGTH_ERR"),  # MQCFST
    5: (16, "MQRCCF_CFIL_LENGTH_ERROR", (12, 4, False), "MQRCCF_CFIL_COUNT_ERROR"),  # MQCFIL
    6: (24, "MQRCCF_CFSL_LENGTH_ERROR", (16, 20, True), "MQRCCF_CFSL_COUNT_ERROR"),  # MQCFSL: Count x StringLength
    9: (16, "MQRCCF_CFBS_LENGTH_ERROR", (12, 1, False), "MQRCCF_CFBS_STRING_LENGTH_ERR"),  # MQCFBS
    13: (20, "MQRCCF_CFIF_LENGTH_ERROR", None, ""),  # MQCFIF
    14: (24, "MQRCCF_CFSF_LENGTH_ERROR", (20, 1, False), "MQRCCF_CFSF_FILTER_VAL_LEN_ERR"),  # MQCFSF
    15: (20, "MQRCCF_CFBF_LENGTH_ERROR", (16, 1, False), "MQRCCF_CFBF_FILTER_VAL_LEN_ERR"),  # MQCFBF
    20: (16, "MQRCCF_CFGR_LENGTH_ERROR", None, ""),  # MQCFGR: its ParameterCount structures follow it
    23: (24, "MQRCCF_CFIN_LENGTH_ERROR", None, ""),  # MQCFIN64
    25: (16, "MQRCCF_CFIL_LENGTH_ERROR", (12, 8, False), "MQRCCF_CFIL_COUNT_ERROR"),  # MQCFIL64
}
_STRING, _GROUP = 4, 20
_COMMAND_HEADERS = ((1, HEADER_LENGTH), (16, HEADER_LENGTH))  # MQCFH Type MQCFT_COMMAND or _COMMAND_XR, StrucLength
# The parameters that name an object a command acts on (their values must be MQ object names).
OBJECT_NAME_PARAMETERS = ("MQCA_Q_NAME", "MQCACH_CHANNEL_NAME", "MQCA_NAMELIST_NAME", "MQCA_PROCESS_NAME",
                          "MQCA_TOPIC_NAME", "MQCA_AUTH_INFO_NAME", "MQCACF_FROM_Q_NAME", "MQCACF_TO_Q_NAME",
                          "MQCACF_FROM_CHANNEL_NAME", "MQCACF_TO_CHANNEL_NAME", "MQCACF_FROM_NAMELIST_NAME",
                          "MQCACF_TO_NAMELIST_NAME", "MQCACF_FROM_PROCESS_NAME", "MQCACF_TO_PROCESS_NAME",
                          "MQCACF_FROM_TOPIC_NAME", "MQCACF_TO_TOPIC_NAME", "MQCACF_FROM_AUTH_INFO_NAME",
                          "MQCACF_TO_AUTH_INFO_NAME", "MQCA_BASE_OBJECT_NAME")


def object_name_parameters(ibmmq: Any) -> frozenset[int]:
    """The values of :data:`OBJECT_NAME_PARAMETERS` in IBM's modules (those the installed ibmmq defines)."""
    modules = (getattr(ibmmq, "CMQC", None), getattr(ibmmq, "CMQCFC", None))
    return frozenset(value for name in OBJECT_NAME_PARAMETERS for module in modules
                     if isinstance(value := getattr(module, name, None), int))


def refusal(data: bytes, ibmmq: Any = None) -> str | None:
    """The MQRCCF_* reason name for a PCF message (MQCFH then its parameters) whose counts, lengths or nesting do
    not fit its own length, or whose MQCFST naming an object (the parameters of :data:`OBJECT_NAME_PARAMETERS`,
    read from ``ibmmq``'s constants) holds no MQ object name; None when IBM's reader may be given it. Reads each
    structure's fixed fields only, in one pass, with a stack for groups."""
    object_names = object_name_parameters(ibmmq) if ibmmq is not None else frozenset()
    if len(data) < HEADER_LENGTH or struct.unpack_from("=ii", data) not in _COMMAND_HEADERS:
        return None  # no PCF command at all: the command server answers MQRCCF_STRUCTURE_TYPE_ERROR
    (count,) = struct.unpack_from("=i", data, 32)
    offset, end = HEADER_LENGTH, len(data)
    if not 0 <= count <= (end - offset) // _PARAMETER_MINIMUM:
        return "MQRCCF_CFH_PARM_COUNT_ERROR"
    remaining = [count]  # structures still to read at each level of nesting
    while remaining:
        if remaining[-1] == 0:
            remaining.pop()
            continue
        remaining[-1] -= 1
        if offset + 12 > end:
            return "MQRCCF_MSG_LENGTH_ERROR"
        kind, length, parameter = struct.unpack_from("=iii", data, offset)
        layout = _LAYOUTS.get(kind)
        if layout is None:
            return "MQRCCF_STRUCTURE_TYPE_ERROR"
        fixed, length_reason, counted, count_reason = layout
        if length < fixed or length % 4 or offset + length > end:
            return length_reason
        if counted is not None and not _counted_fits(data, offset, length, fixed, counted):
            return count_reason
        if kind == _STRING and parameter in object_names and not _is_object_name(data, offset):
            return "MQRCCF_OBJECT_NAME_ERROR"
        offset += length
        if kind == _GROUP:
            (inner,) = struct.unpack_from("=i", data, offset - length + 12)
            if not 0 <= inner <= (end - offset) // _PARAMETER_MINIMUM or len(remaining) > MAX_DEPTH:
                return "MQRCCF_CFGR_PARM_COUNT_ERROR"
            remaining.append(inner)
    return None if offset == end else "MQRCCF_MSG_LENGTH_ERROR"


def _counted_fits(data: bytes, offset: int, length: int, fixed: int, counted: tuple[int, int, bool]) -> bool:
    """Whether the counted part of a structure (a string, a list of values or of strings) fits its StrucLength."""
    count_at, size, size_is_offset = counted
    (count,) = struct.unpack_from("=i", data, offset + count_at)
    if size_is_offset:
        (size,) = struct.unpack_from("=i", data, offset + size)
        if size < 0:
            return False
    return count >= 0 and fixed + count * size <= length


def _is_object_name(data: bytes, offset: int) -> bool:
    """Whether an MQCFST holds an MQ object name: IBM's characters, blanks only at the end, '*' only last."""
    (string_length,) = struct.unpack_from("=i", data, offset + 16)
    return is_object_name(data[offset + 20:offset + 20 + string_length].rstrip(b" \x00").decode("latin-1"))


def is_object_name(text: str) -> bool:
    """Whether ``text`` is an MQ object name, or a generic one: IBM's characters, '*' only last (PCF's MQCFST
    here, and the names of MQSC commands, emulator/mqsc.py)."""
    if text.endswith("*"):
        text = text[:-1]
    return all(char in _NAME_CHARACTERS for char in text)
