"""The JSON-lines protocol's versions: what each protocol number lets a server send and must let it receive.

A published protocol is a contract (docs/implementers.md, section 10, and its changelog). A server written to
protocol 1 *as first published* (``fixtures/compat/protocol-1/``) must be certified today exactly as then, so
this module keeps the two differences between what protocol 1 first allowed and how the call language has
spelled things since:

- **outcomes**: every option and flag field (``Report``, ``MsgFlags``, ``Options``, ``MatchOptions``) may come
  as a list of names or as the field's value, an integer; ``Report`` also as one MQRO_* name; every enumerated
  structure field (``MsgType``, ``Persistence``, ``GroupStatus``, ``SegmentStatus``, ``Segmentation``, and the
  numbers ``Feedback``, ``Expiry``, ...) as a name or an integer. :func:`canonical_outcome` spells them all the
  one way the comparison reads (lists of names, enumeration names), so nothing after the adapter sees a
  difference.
- **calls**: ``MD.Report`` was an MQLONG or one MQRO_* name when protocol 1 was published; the call language
  has written it as a list of names since. :func:`call_for` sends it as its value (an integer), which every
  protocol-1 server accepts: those written first and those written to today's ``call.json``.

Protocol numbers: :data:`SERVED` lists every protocol this suite can speak with a server; the hello names the
newest, and a server answering with any served number is spoken to in that protocol.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mq_conformance.reference import constants
from mq_conformance.reference.calls import STRUCTURES, decode_options

SERVED = (1,)  # every protocol this suite speaks, oldest first
NEWEST = SERVED[-1]


def _canonical_field(kind: tuple, value: Any) -> Any:
    tag = kind[0]
    if tag == "options":
        if isinstance(value, bool):
            return value
        if isinstance(value, int):
            return constants.option_names(value & 0xFFFFFFFF, kind[1])
        if isinstance(value, str):
            return [value]
        return value
    if tag == "enum" and isinstance(value, int) and not isinstance(value, bool):
        return constants.name_of(value, kind[1])
    return value


def canonical_outcome(outcome: Mapping[str, Any]) -> dict[str, Any]:
    """``outcome`` (valid for ``outcome.json``) with its option fields as lists of names and its enumerated
    structure fields as names: the spelling the comparison reads, whichever spelling protocol 1 let the server
    use. Other members are kept as they are."""
    result = dict(outcome)
    for key, (_cls, kinds) in STRUCTURES.items():
        structure = outcome.get(key)
        if isinstance(structure, Mapping):
            result[key] = {name: _canonical_field(kinds[name], value) if name in kinds else value
                           for name, value in structure.items()}
    return result


def call_for(protocol: int, call: Mapping[str, Any]) -> Mapping[str, Any]:
    """``call`` (valid for today's ``call.json``) as it is sent to a server speaking ``protocol``: in protocol 1,
    ``MD.Report`` as its integer value (the form every protocol-1 server reads)."""
    md = call.get("MD")
    if protocol == 1 and isinstance(md, Mapping) and isinstance(md.get("Report"), (list, str)):
        return {**call, "MD": {**md, "Report": decode_options(md["Report"], "MQRO", "MD.Report")}}
    return call
