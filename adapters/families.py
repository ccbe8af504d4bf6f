"""Mutant families generated from the data, beside the hand-written mutants of adapters/mutants.py.

Each family is one kind of plausible single bug, applied systematically to everything the data names:

- ``mutant:option-ignored:<option>``: every single-bit option of MQPMO, MQGMO, MQOO, MQCO and MQSO
  (reference/constants.py FLAGS) ignored by the calls that take it - the call runs as if the option were not given,
  and the options the implementation echoes back are the caller's;
- ``mutant:output-unset:<structure>.<field>``: every output field of MQMD, MQPMO and MQGMO (reference/calls.py
  STRUCTURES, less the input-only fields), and the outputs of MQSUB, MQSUBRQ and MQINQMP (:data:`OTHER_OUTPUTS`),
  left as the caller passed it in;
- ``mutant:limit:<limit>:<+1|-1>``: every numeric limit of :data:`LIMITS` off by one, in both directions;
- ``mutant:selector:...``, ``mutant:topic-matcher:...`` and ``mutant:property-type:...``: the faults of the new
  areas, generated from the selector grammar, the wildcard schemes and the property tables
  (adapters/fault_families.py).

They rewrite calls and outcomes in the call language, or shift one named limit of the model, so they behave as
an outside implementation with that one bug would. Survivors are either killed by a scenario or recorded as
equivalent in adapters/mutants.py EQUIVALENT, with the argument.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from mq_conformance.reference import properties as properties_module
from mq_conformance.reference import put as put_module
from mq_conformance.reference.calls import STRUCTURES, Call, CallError, Outcome, decode_options, decode_structure, encode_field
from mq_conformance.reference.calls import encode_structure
from mq_conformance.reference.constants import FLAGS, family_of
from mq_conformance.reference.pubsub_calls import decode_sd, encode_sub_correl_id
from mq_conformance.reference.queue import QueueDefinition

from .base import AdapterError
from .fault_families import FAULT_FAMILIES, fault_equivalent_notes, fault_hint, fault_mutant_names, load_fault_mutant
from .reference import ReferenceAdapter

PREFIX = "mutant:"
OPTION_IGNORED, OUTPUT_UNSET, LIMIT = "option-ignored", "output-unset", "limit"
FAMILIES = (OPTION_IGNORED, OUTPUT_UNSET, LIMIT, *FAULT_FAMILIES)

# Which calls take each option family, and where the options are in the call (a structure, or the call itself).
OPTION_CALLS: dict[str, tuple[tuple[str, ...], str | None]] = {
    "MQPMO": (("put", "put1"), "PMO"),
    "MQGMO": (("get",), "GMO"),
    "MQOO": (("open",), None),
    "MQCO": (("close",), None),
    "MQSO": (("sub",), "SD"),
    # message properties (reference/properties.py): the options of MQCRTMH, MQINQMP, MQSETMP and MQDLTMP
    "MQCMHO": (("crtmh",), None),
    "MQIMPO": (("inqmp",), None),
    "MQSMPO": (("setmp",), None),
    "MQDMPO": (("dltmp",), None),
}
OPTION_AREAS = {"MQPMO": "put", "MQGMO": "get", "MQOO": "open", "MQCO": "close", "MQSO": "sub", "MQCMHO": "properties",
                "MQIMPO": "properties", "MQSMPO": "properties", "MQDMPO": "properties"}

# The fields of each structure that only the caller sets; every other field is an output of some call.
INPUT_ONLY: dict[str, frozenset[str]] = {
    "MD": frozenset({"Version"}),
    "PMO": frozenset({"Version", "Options"}),
    "GMO": frozenset({"Version", "Options", "WaitInterval", "MatchOptions"}),
}
STRUCTURE_AREAS = {"MD": "md", "PMO": "put", "GMO": "get", "SD": "sub", "SRO": "sub", "property": "properties"}
# Outputs of the publish/subscribe and message-property calls, beside MQMD, MQPMO and MQGMO: MQSUB's SubCorrelId (the
# queue manager's for a managed subscription), MQSUBRQ's NumPubs, and MQINQMP's Name and Type (the property found,
# for a pattern or MQTYPE_AS_SET). What the caller passed in for each: the SD's SubCorrelId, nothing for the MQSRO
# (its initial NumPubs, 0), the Name and the Type asked for.
OTHER_OUTPUTS: tuple[tuple[str, str], ...] = (("SD", "SubCorrelId"), ("SRO", "NumPubs"), ("property", "Name"),
                                             ("property", "Type"))

# Every numeric limit of the model: name -> (what it is, how a mutant shifts it). ``module`` limits are constants
# of reference/put.py, ``properties`` limits constants of reference/properties.py; ``queue`` limits are attributes
# every queue is defined with; ``qmgr`` limits are attributes of every queue manager (a value of 0 or below -
# unlimited - is left alone).
LIMITS: dict[str, tuple[str, str, str]] = {
    "MsgSeqNumber-and-Offset-maximum": (
        "999 999 999, the largest MsgSeqNumber and Offset a put may give or make", "module", "MAX_SEQ_OR_OFFSET"),
    "MaxPriority": ("9, the largest priority before MQRC_PRIORITY_EXCEEDS_MAXIMUM", "module", "MAX_PRIORITY"),
    "report-data-bytes": ("100, the bytes of data a *_WITH_DATA report carries", "module", "REPORT_DATA_BYTES"),
    "property-name-length": (
        "4095, MQ_MAX_PROPERTY_NAME_LENGTH, the longest property name (MQRC_PROPERTY_NAME_LENGTH_ERR)", "properties",
        "MAX_NAME_LENGTH"),
    "MaxQDepth": ("a queue's MaxQDepth (MQRC_Q_FULL)", "queue", "MaxQDepth"),
    "queue-MaxMsgLength": ("a queue's MaxMsgLength (MQRC_MSG_TOO_BIG_FOR_Q)", "queue", "MaxMsgLength"),
    "qmgr-MaxMsgLength": ("the queue manager's MaxMsgLength (MQRC_MSG_TOO_BIG_FOR_Q_MGR)", "qmgr", "max_msg_length"),
    "segment-boundary": ("16, the multiple of bytes segments are cut on", "qmgr", "segment_boundary"),
    "MsgMarkBrowseInterval": ("the queue manager's MsgMarkBrowseInterval in milliseconds", "qmgr",
                              "mark_browse_interval"),
}
LIMIT_MODULES = {"module": put_module, "properties": properties_module}  # where ``module`` limits are constants
QUEUE_DEFAULTS = {f.name: f.default for f in dataclasses.fields(QueueDefinition)}  # the model's, read, not re-typed


# Options the model reads nowhere - no table of fixtures/tables and no module of reference/ names them (a test checks
# it) - by the documented feature they belong to, which the model leaves out (fixtures/reason-codes.yaml scopes).
# The model ignores them itself, so a mutant that ignores one is the model: equivalent (EQUIVALENT_NOTES).
UNREAD_OPTIONS: dict[str, str] = {
    "MQPMO_ALTERNATE_USER_AUTHORITY": "security", "MQOO_ALTERNATE_USER_AUTHORITY": "security",
    "MQPMO_FAIL_IF_QUIESCING": "environment (the queue manager never quiesces)",
    "MQGMO_FAIL_IF_QUIESCING": "environment (the queue manager never quiesces)",
    "MQCO_QUIESCE": "environment (read-ahead and quiescing)",
    "MQPMO_ASYNC_RESPONSE": "environment (client asynchronous put responses)",
    "MQPMO_SYNC_RESPONSE": "environment (client asynchronous put responses)",
    "MQPMO_RESOLVE_LOCAL_Q": "remote-queues (name resolution)",
    "MQOO_RESOLVE_LOCAL_Q": "remote-queues (name resolution)",
    "MQOO_RESOLVE_NAMES": "remote-queues (name resolution)",
    "MQPMO_SCOPE_QMGR": "publish-subscribe (publication scope across queue managers)",
    "MQOO_NO_MULTICAST": "publish-subscribe (multicast)",
    "MQSO_NO_MULTICAST": "publish-subscribe (multicast)",
    "MQSO_SCOPE_QMGR": "publish-subscribe (subscription scope across queue managers)",
    "MQSO_ALTERNATE_USER_AUTHORITY": "security", "MQSO_SET_IDENTITY_CONTEXT": "message-context",
    "MQSO_FAIL_IF_QUIESCING": "environment (the queue manager never quiesces)",
    "MQSO_READ_AHEAD": "environment (read-ahead)", "MQSO_NO_READ_AHEAD": "environment (read-ahead)",
    "MQPMO_MD_FOR_OUTPUT_ONLY": "message-properties (MQPMO_MD_FOR_OUTPUT_ONLY, which reference/properties.py does "
                                "not model: the MQMD of a put from a message handle)",
    "MQGMO_CONVERT": "data-conversion",
}
# Options the model refuses as not modelled: no conforming scenario can use them, so their mutants cannot be told
# from the model by the suite; they are named here so that the gap stays visible.
REFUSED_OPTIONS: dict[str, str] = {
    "MQGMO_LOCK": "locking a browsed message (MQRC_NO_MSG_LOCKED is not-modelled in the ledger)",
    "MQGMO_UNLOCK": "locking a browsed message (MQRC_NO_MSG_LOCKED is not-modelled in the ledger)",
    **{name: "the property cursor of MQSETMP, MQINQMP and MQDLTMP (reference/properties.py raises NotModelled)"
       for name in ("MQIMPO_INQ_PROP_UNDER_CURSOR", "MQSMPO_SET_PROP_UNDER_CURSOR", "MQSMPO_SET_PROP_AFTER_CURSOR",
                    "MQSMPO_APPEND_PROPERTY", "MQSMPO_SET_PROP_BEFORE_CURSOR", "MQDMPO_DEL_PROP_UNDER_CURSOR")},
}
# Output fields the model never sets (it returns what was put), by the feature that would set them. None since
# issue 30: the queue manager sets UserIdentifier, AccountingToken and PutApplName on a put with default context
# (reference/context.py), and scenarios context-* tell a mutant that returns the caller's values.
UNSET_OUTPUTS: dict[str, str] = {}


# The argument for each mutant of a list above: (family, the list, the argument for one of its entries).
_LISTED_ARGUMENTS = (
    (OPTION_IGNORED, UNREAD_OPTIONS,
     "the model reads {name} nowhere (no table row and no model code names it; {why} is outside the model), so it "
     "ignores the option itself and the mutant is the model"),
    (OPTION_IGNORED, REFUSED_OPTIONS,
     "not modelled: the model refuses {name} ({why}), so no conforming scenario can use it and nothing the suite "
     "runs can tell the mutant from the model; a gap named, not a proof"),
    (OUTPUT_UNSET, UNSET_OUTPUTS,
     "the model never sets {name} ({why} is outside the model): it returns the value put, as the mutant does, so "
     "the mutant is the model"),
)


def equivalent_notes() -> dict[str, str]:
    """The family mutants that cannot differ from the model, each with the argument (merged into
    adapters/mutants.py EQUIVALENT)."""
    notes = {f"{family}:{name}": argument.format(name=name, why=why)
             for family, named, argument in _LISTED_ARGUMENTS for name, why in named.items()}
    notes[f"{OPTION_IGNORED}:MQOO_FAIL_IF_QUIESCING"] = (
        "the model names MQOO_FAIL_IF_QUIESCING only among the options an open of a cluster queue with no local "
        "instance accepts (reference/cluster/binding.py OO_OUTPUT_ONLY), where leaving it out is accepted alike; "
        "the queue manager never quiesces, so ignoring it changes no outcome of the model")
    for name in ("MQIMPO_QUERY_LENGTH", "MQIMPO_CONVERT_VALUE"):
        notes[f"{OPTION_IGNORED}:{name}"] = (
            f"reference/properties.py names {name} only among the MQIMPO options it accepts: the call language "
            "passes a property's whole value in the application's own character set and encoding, so there is no "
            "length to report alone and no value to convert, and ignoring the option changes no outcome")
    for delta in ("+1", "-1"):
        notes[f"{LIMIT}:MsgMarkBrowseInterval:{delta}"] = (
            "IBM calls the interval approximate (browse-mark.coop-mark-lapses decision): an implementation may "
            "unmark a millisecond earlier or later, and the scenarios step well past the interval (as for "
            "mark-lapses-one-ms-early)")
    notes.update(fault_equivalent_notes())
    return notes


def option_ignored_names() -> Iterator[str]:
    """``option-ignored`` mutants: one per single-bit option of MQPMO, MQGMO, MQOO, MQCO and MQSO."""
    for family in OPTION_CALLS:
        for name in FLAGS[family]:
            yield f"{PREFIX}{OPTION_IGNORED}:{name}"


def output_fields() -> Iterator[tuple[str, str]]:
    """Every output field of MQMD, MQPMO and MQGMO, and :data:`OTHER_OUTPUTS`, as (structure, field)."""
    for key, (_cls, kinds) in STRUCTURES.items():
        for field in kinds:
            if field not in INPUT_ONLY[key]:
                yield key, field
    yield from OTHER_OUTPUTS


def output_unset_names() -> Iterator[str]:
    """``output-unset`` mutants: one per output field."""
    for key, field in output_fields():
        yield f"{PREFIX}{OUTPUT_UNSET}:{key}.{field}"


def limit_names() -> Iterator[str]:
    """``limit`` mutants: each limit one above and one below."""
    for name in LIMITS:
        for delta in ("+1", "-1"):
            yield f"{PREFIX}{LIMIT}:{name}:{delta}"


def family_mutant_names() -> list[str]:
    """Every family mutant, as an adapter name."""
    return [*option_ignored_names(), *output_unset_names(), *limit_names(), *fault_mutant_names()]


def family_of_mutant(name: str) -> str | None:
    """The family of mutant ``name`` (``mutant:<family>:...``), or None for another kind of mutant."""
    rest = name[len(PREFIX):] if name.startswith(PREFIX) else name
    family = rest.split(":", 1)[0]
    return family if family in FAMILIES else None


def hint(name: str) -> tuple[str, str]:
    """What a family mutant breaks, as (the word a scenario that could kill it mentions, its area)."""
    rest = name[len(PREFIX):]
    family, _, subject = rest.partition(":")
    if family in FAULT_FAMILIES:
        return fault_hint(family, subject)
    if family == OPTION_IGNORED:
        return subject, OPTION_AREAS[family_of(subject)]
    if family == OUTPUT_UNSET:
        key, _, field = subject.partition(".")
        return field, STRUCTURE_AREAS[key]
    limit = subject.rsplit(":", 1)[0]
    return LIMITS[limit][2] if LIMITS[limit][1] == "queue" else limit, "limit"


def given_options(call: Call, family: str) -> int | None:
    """The options of ``family`` that ``call`` gives, or None when its verb does not take them or it gives none
    the model could read (an option-ignored mutant of that family changes such a call only)."""
    calls, where = OPTION_CALLS[family]
    if call.op not in calls:
        return None
    holder = (call.args.get(where) or {}) if where else call.args
    if not isinstance(holder, Mapping) or "Options" not in holder:
        return None
    try:
        return decode_options(holder["Options"], family, "Options")
    except CallError:
        return None


def ignorable_options(call: Call) -> set[str]:
    """Every single-bit option that ``call`` gives to a verb taking it: the option-ignored mutants that can answer
    this call differently from the model (conformance/reads.py records them)."""
    found = set()
    for family in OPTION_CALLS:
        given = given_options(call, family)
        if given:
            found.update(name for name, bit in FLAGS[family].items() if given & bit)
    return found


NOT_RETURNED = object()


def caller_value(call: Call, outcome: Outcome, key: str, field: str) -> Any:
    """What the caller passed in field ``field`` of structure ``key`` when ``outcome`` returns that field, else
    :data:`NOT_RETURNED` (what an output-unset mutant returns instead of the model's value)."""
    returned = getattr(outcome, key, None)
    if not isinstance(returned, dict) or field not in returned:
        return NOT_RETURNED
    try:
        if key == "SD":
            return encode_sub_correl_id(decode_sd(call.args.get("SD"), "SD").SubCorrelId)[field]
        if key == "SRO":
            return 0
        if key == "property":
            return call.args.get(field, "MQTYPE_AS_SET" if field == "Type" else None)
        return encode_structure(key, decode_structure(key, call.args.get(key), key))[field]
    except CallError:
        return NOT_RETURNED


def unset_outputs(call: Call, outcome: Outcome) -> set[str]:
    """``KEY.Field`` for each output field ``outcome`` returns with a value other than the caller's: the
    output-unset mutants that answer this call differently from the model."""
    found = set()
    for key, field in output_fields():
        given = caller_value(call, outcome, key, field)
        if given is not NOT_RETURNED and given != getattr(outcome, key)[field]:
            found.add(f"{key}.{field}")
    return found


class OptionIgnored(ReferenceAdapter):
    """The model, except that one option is ignored by the calls that take it (the echoed options are the
    caller's)."""

    def __init__(self, option: str):
        family = family_of(option)
        if option not in FLAGS.get(family, {}) or family not in OPTION_CALLS:
            raise AdapterError(f"{option} is not a single-bit option of MQPMO, MQGMO, MQOO, MQCO or MQSO")
        self.option, self.family, self.bit = option, family, FLAGS[family][option]
        super().__init__()
        self.name = f"{PREFIX}{OPTION_IGNORED}:{option}"

    def execute(self, call: Call) -> Outcome:
        given = given_options(call, self.family)
        if given is None or not given & self.bit:
            return super().execute(call)
        _calls, where = OPTION_CALLS[self.family]
        args = dict(call.args)
        holder = dict(args[where]) if where else args
        holder["Options"] = given & ~self.bit
        if where:
            args[where] = holder
        result = super().execute(Call(call.op, args))
        echoed = getattr(result, where) if where else None
        if isinstance(echoed, dict) and "Options" in echoed:
            echoed["Options"] = encode_field(("options", self.family), given)
        return result


class OutputUnset(ReferenceAdapter):
    """The model, except that one output field of one structure is returned as the caller passed it in."""

    def __init__(self, key: str, field: str):
        if (key, field) not in set(output_fields()):
            raise AdapterError(f"{key}.{field} is not an output field of MQMD, MQPMO, MQGMO, MQSD, MQSRO or MQINQMP")
        self.key, self.field = key, field
        super().__init__()
        self.name = f"{PREFIX}{OUTPUT_UNSET}:{key}.{field}"

    def execute(self, call: Call) -> Outcome:
        result = super().execute(call)
        given = caller_value(call, result, self.key, self.field)
        if given is not NOT_RETURNED:
            getattr(result, self.key)[self.field] = given
        return result


class LimitShifted(ReferenceAdapter):
    """The model, except that one numeric limit is one more or one less than documented."""

    def __init__(self, limit: str, delta: int):
        if limit not in LIMITS or delta not in (1, -1):
            raise AdapterError(f"no limit {limit!r} (limits: {', '.join(LIMITS)}), or a shift other than +1/-1")
        self.limit, self.delta = limit, delta
        _what, self.where, self.attribute = LIMITS[limit]
        super().__init__()
        self.name = f"{PREFIX}{LIMIT}:{limit}:{'+1' if delta > 0 else '-1'}"

    def execute(self, call: Call) -> Outcome:
        if self.where == "queue":
            if call.op != "define_queue":
                return super().execute(call)
            args = dict(call.args)
            value = args.get(self.attribute, QUEUE_DEFAULTS[self.attribute])
            if isinstance(value, int) and not isinstance(value, bool):
                args[self.attribute] = value + self.delta
            return super().execute(Call(call.op, args))
        with self._shifted():
            return super().execute(call)

    @contextmanager
    def _shifted(self) -> Iterator[None]:
        """Shift the limit for the duration of one call, and put back what the call did not change itself."""
        if self.where in LIMIT_MODULES:
            module = LIMIT_MODULES[self.where]
            base = getattr(module, self.attribute)
            setattr(module, self.attribute, base + self.delta)
            try:
                yield
            finally:
                setattr(module, self.attribute, base)
            return
        shifted: dict[int, tuple[Any, int]] = {}
        for qm in list(self.world.qmgrs.values()):
            base = getattr(qm, self.attribute)
            if base > 0:
                setattr(qm, self.attribute, base + self.delta)
                shifted[id(qm)] = (qm, base)
        try:
            yield
        finally:
            for qm, base in shifted.values():
                if getattr(qm, self.attribute) == base + self.delta:  # the call did not set the limit itself
                    setattr(qm, self.attribute, base)


def load_family_mutant(name: str) -> ReferenceAdapter:
    """The family mutant ``mutant:<family>:<subject>``."""
    rest = name[len(PREFIX):]
    family, _, subject = rest.partition(":")
    if family in FAULT_FAMILIES:
        return load_fault_mutant(family, subject)
    if family == OPTION_IGNORED:
        return OptionIgnored(subject)
    if family == OUTPUT_UNSET:
        key, _, field = subject.partition(".")
        return OutputUnset(key, field)
    limit, _, delta = subject.rpartition(":")
    return LimitShifted(limit, {"+1": 1, "-1": -1}.get(delta, 0))

