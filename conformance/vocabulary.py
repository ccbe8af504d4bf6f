"""The one vocabulary of generated calls: what the differential state machines (conformance/differential.py) and
the campaign generator (conformance/campaign/generate.py) both draw from.

An :class:`Area` is a set-up (calls run first) and :class:`Rule` s; a rule is a name, the *domains* of its
arguments and a function from drawn arguments to calls (in the call language, reference/calls.py). A domain is a
description, not a generator: :func:`strategy` turns it into a Hypothesis strategy (for the state machines) and
:func:`draw` draws from it with a seeded :class:`random.Random` (for the campaign, reproducible from a seed and
an index). So both sides generate from this one description.

No option list is kept here: option names come from the model's constants (``mq_conformance.reference.constants.FLAGS``) and
from the option-rules tables (fixtures/tables/*-rules.yaml), read through ``mq_conformance.reference.tables``.

Table-directed generation (:func:`recipe`): for a row of a decision table, the calls that set up the facts its
``when`` needs and then make the call the row decides. The facts of each table input are data here
(:data:`PUT_FACTS`, :data:`CONSISTENCY_FACTS`...); option-rules rows are broken on purpose from their own lists;
cluster workload rows from the ``by`` attribute each elimination step compares. A row for which no recipe can
be made is unreachable by construction, and :func:`unreachable` says why.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from mq_conformance.reference import constants
from mq_conformance.reference.get import NOT_YET
from mq_conformance.reference.options import first_broken
from mq_conformance.reference.tables import EITHER, OptionRules, Table, default_spec

# -- domains ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class OneOf:
    """One of ``values``."""

    values: tuple


@dataclass(frozen=True)
class SomeOf:
    """A list of distinct items of ``values`` (at most ``max_size``), in drawing order."""

    values: tuple
    max_size: int


@dataclass(frozen=True)
class Between:
    """A whole number from ``low`` to ``high`` inclusive."""

    low: int
    high: int


@dataclass(frozen=True)
class Known:
    """An identifier an earlier call returned in outcome field ``path`` (``MD.GroupId``, ``GMO.MsgToken``), or
    ``none`` when there is none: the state machines' bundle of that name, the generator's bound variables."""

    path: str
    none: str


BOOL = OneOf((False, True))
Domain = OneOf | SomeOf | Between | Known


@dataclass(frozen=True)
class Rule:
    """One kind of generated step: its arguments' domains and the calls it makes from drawn arguments.

    ``binds`` is a :class:`Known` when the outcome of the rule's last call carries an identifier later rules
    may name (its ``path``): the state machines put it in the bundle of that name, the generator binds a
    variable to it."""

    name: str
    build: Callable[..., list[dict[str, Any]]]
    args: Mapping[str, Domain]
    binds: Known | None = None
    weight: int = 1


def rule(binds: Known | None = None, weight: int = 1, **args: Domain):
    """Decorator: a function from drawn arguments to calls becomes a :class:`Rule`."""
    def wrap(build: Callable[..., list[dict[str, Any]]]) -> Rule:
        return Rule(build.__name__, build, args, binds, weight)
    return wrap


GROUP_ID = Known("MD.GroupId", "MQGI_NONE")
MSG_ID = Known("MD.MsgId", "MQMI_NONE")
MSG_TOKEN = Known("GMO.MsgToken", "MQMTOK_NONE")


@dataclass(frozen=True)
class Area:
    """A vocabulary area: the capabilities an adapter must claim for it, its set-up calls and its rules.

    ``tables`` are the decision tables whose rows the area's recipes reach (table-directed generation)."""

    name: str
    title: str
    capabilities: frozenset[str]
    setup: tuple[Mapping[str, Any], ...]
    rules: tuple[Rule, ...]
    tables: tuple[str, ...] = ()
    clauses: tuple[str, ...] = ()  # prefixes of the clause ids the area's calls are decided by

    def setup_calls(self) -> list[dict[str, Any]]:
        return [dict(call) for call in self.setup]

    def declared_clauses(self) -> list[str]:
        """The clauses the area checks: its tables' rows and the registered clauses under its prefixes, less those
        in no certificate (capabilities.yaml ``outside``: no call of the language can show them)."""
        from .clauses import load_registry

        rows = [row.id for table in self.tables for row in default_spec()[table].rows]
        registry = load_registry().clauses
        prefixed = [c for c in registry if c.startswith(self.clauses)] if self.clauses else []
        return sorted(c for c in set(rows) | set(prefixed) if c not in registry or not registry[c].outside)


# -- drawing with a seeded generator (the campaign) ---------------------------------------------------------

class Ids:
    """The seeded generator's bound identifiers: for each outcome field, the variables (``$GroupId1``...) bound
    to it so far. A variable whose call returned no identifier stays unbound; the replay then passes the same
    unknown identifier on both sides."""

    def __init__(self) -> None:
        self.bound: dict[str, int] = {}

    def pick(self, rng: random.Random, known: Known) -> str:
        count = self.bound.get(known.path, 0)
        if not count or rng.random() < 0.1:
            return known.none
        return f"${known.path.split('.')[-1]}{rng.randint(1, count)}"

    def bind(self, known: Known) -> dict[str, str]:
        """A new variable for ``known``'s field of the next outcome: the call's ``binds`` entry."""
        self.bound[known.path] = self.bound.get(known.path, 0) + 1
        return {f"${known.path.split('.')[-1]}{self.bound[known.path]}": known.path}


def draw(domain: Domain, rng: random.Random, ids: Ids) -> Any:
    """One value of ``domain`` from ``rng``."""
    if isinstance(domain, OneOf):
        value = domain.values[rng.randrange(len(domain.values))]
        return list(value) if isinstance(value, (list, tuple)) else value
    if isinstance(domain, SomeOf):
        return rng.sample(domain.values, rng.randint(0, min(domain.max_size, len(domain.values))))
    if isinstance(domain, Between):
        return rng.randint(domain.low, domain.high)
    return ids.pick(rng, domain)


def draw_step(area: Area, rng: random.Random, ids: Ids) -> tuple[list[dict[str, Any]], list[dict[str, str]]]:
    """One rule of ``area`` (chosen by weight) with drawn arguments: its calls, and each call's ``binds``."""
    chosen = rng.choices(area.rules, weights=[r.weight for r in area.rules])[0]
    calls = chosen.build(**{name: draw(domain, rng, ids) for name, domain in chosen.args.items()})
    binds: list[dict[str, str]] = [{} for _ in calls]
    if calls and chosen.binds is not None:
        binds[-1] = ids.bind(chosen.binds)
    return calls, binds


# -- Hypothesis strategies (the state machines) ------------------------------------------------------------

def strategy(domain: Domain, bundles: Mapping[str, Any] | None = None):
    """The Hypothesis strategy for ``domain``; a :class:`Known` draws from the machine's bundle of its path."""
    from hypothesis import strategies as st

    if isinstance(domain, OneOf):
        return st.sampled_from([list(v) if isinstance(v, (list, tuple)) else v for v in domain.values])
    if isinstance(domain, SomeOf):
        return st.lists(st.sampled_from(domain.values), max_size=domain.max_size, unique=True)
    if isinstance(domain, Between):
        return st.integers(domain.low, domain.high)
    return (bundles or {})[domain.path]


# -- names from the model's constants and tables ------------------------------------------------------------

def option_names(family: str, leave_out: Sequence[str] = ()) -> tuple[str, ...]:
    """Every documented option of ``family`` (the model's constants), less ``leave_out``."""
    return tuple(sorted(n for n in constants.FLAGS[family] if n not in leave_out))


def names_within(names: Sequence[str], capabilities: frozenset[str]) -> tuple[str, ...]:
    """``names`` less those that fixtures/capabilities.yaml lists under a capability outside ``capabilities``
    (an area an implementation claiming only those can run must not use them)."""
    from mq_conformance.adapters.capabilities import load_capabilities

    beyond = {n for c in load_capabilities().values() if c.name not in capabilities for n in c.names}
    return tuple(n for n in names if n not in beyond)


def core_names(names: Sequence[str]) -> tuple[str, ...]:
    """``names`` less those of any capability but ``core``."""
    return names_within(names, frozenset({"core"}))


def rules_table(table_id: str) -> OptionRules:
    return default_spec()[table_id]


def _names(family: str, *parts: str) -> tuple[str, ...]:
    """Option names of ``family`` whose suffix is one of ``parts`` (``_names("MQGMO", "SYNCPOINT")``)."""
    found = tuple(f"{family}_{p}" for p in parts)
    for name in found:
        constants.value(name, family)  # an unknown name is a programming error here, caught by the tests
    return found


MF = {name.removeprefix("MQMF_"): name for name in constants.FLAGS["MQMF"]}
GROUP_FLAGS = {"none": [], "in": [MF["MSG_IN_GROUP"]], "last": [MF["LAST_MSG_IN_GROUP"]]}
SEGMENT_FLAGS = {"none": [], "in": [MF["SEGMENT"]], "last": [MF["LAST_SEGMENT"]]}
# Every combination of group and segment flags, and segmentation allowed alone.
FLAG_SETS = tuple(GROUP_FLAGS[g] + SEGMENT_FLAGS[s] for g in GROUP_FLAGS for s in SEGMENT_FLAGS) + (
    [MF["SEGMENTATION_ALLOWED"]],)
# Get options taken from those the get tables and the option rules speak of.
GET_OPTIONS = _names("MQGMO", "LOGICAL_ORDER", "SYNCPOINT", "COMPLETE_MSG", "ALL_MSGS_AVAILABLE",
                     "ALL_SEGMENTS_AVAILABLE", "ACCEPT_TRUNCATED_MSG")
BROWSE_OPTIONS = (["MQGMO_BROWSE_FIRST"], ["MQGMO_BROWSE_NEXT"], ["MQGMO_BROWSE_FIRST", "MQGMO_LOGICAL_ORDER"],
                  ["MQGMO_BROWSE_NEXT", "MQGMO_LOGICAL_ORDER"], ["MQGMO_BROWSE_MSG_UNDER_CURSOR"])
CO_OP_BROWSE_OPTIONS = (
    ["MQGMO_BROWSE_CO_OP"], ["MQGMO_BROWSE_HANDLE"],
    ["MQGMO_BROWSE_NEXT", "MQGMO_UNMARKED_BROWSE_MSG", "MQGMO_MARK_BROWSE_CO_OP"],
    ["MQGMO_BROWSE_MSG_UNDER_CURSOR", "MQGMO_UNMARK_BROWSE_CO_OP"],
    ["MQGMO_BROWSE_MSG_UNDER_CURSOR", "MQGMO_UNMARK_BROWSE_HANDLE"],
    ["MQGMO_BROWSE_FIRST", "MQGMO_MARK_BROWSE_CO_OP"], ["MQGMO_BROWSE_FIRST", "MQGMO_MARK_BROWSE_HANDLE"],
)
PUT_DATA = ("", "a", "bcd", "efghijklmnopqrstuvwxyz0123")
QUEUE = {"name": "Q1"}
HANDLE_OPTIONS = ["MQOO_OUTPUT", "MQOO_INPUT_SHARED", "MQOO_BROWSE"]
BROWSER_OPTIONS = ["MQOO_BROWSE", "MQOO_CO_OP"]
ALL_ACCESS = ["MQOO_OUTPUT", "MQOO_INPUT_SHARED", "MQOO_BROWSE", "MQOO_INQUIRE"]
PERSISTENCE = ("MQPER_PERSISTENT", "MQPER_NOT_PERSISTENT")


def _call(op: str, **args: Any) -> dict[str, Any]:
    return {"op": op, **args}


def _open(handle: str, options: list[str], queue: str = "Q1", **more: Any) -> dict[str, Any]:
    return _call("open", handle=handle, queue=queue, Options=list(options), **more)


def _reopen(handle: str, options: list[str], queue: str = "Q1", **more: Any) -> list[dict[str, Any]]:
    return [_call("close", handle=handle, **({"connection": more["connection"]} if "connection" in more else {})),
            _open(handle, options, queue, **more)]


def _put(logical: bool = False, syncpoint: bool = False, flags: Sequence[str] = (), persistent: bool = False,
         data: Any = "x", handle: str = "h", **md: Any) -> dict[str, Any]:
    options = (["MQPMO_LOGICAL_ORDER"] if logical else []) + (["MQPMO_SYNCPOINT"] if syncpoint else [])
    return _call("put", handle=handle, PMO={"Options": options},
                 MD={"MsgFlags": list(flags), "Persistence": PERSISTENCE[not persistent], **md}, data=data)


def _get(options: Sequence[str] = (), match: Sequence[str] = (), handle: str = "h", **more: Any) -> dict[str, Any]:
    return _call("get", handle=handle, GMO={"Options": list(options), "MatchOptions": list(match)}, **more)


def _end_unit_of_work(commit: bool) -> list[dict[str, Any]]:
    return [_call("commit" if commit else "backout")]


# -- groups and segments ------------------------------------------------------------------------------------

@rule(binds=GROUP_ID, flags=OneOf(FLAG_SETS), logical=BOOL, syncpoint=BOOL, persistent=BOOL,
      data=OneOf(PUT_DATA), weight=3)
def put(flags, logical, syncpoint, persistent, data):
    return [_put(logical, syncpoint, flags, persistent, data)]


@rule(binds=GROUP_ID, group=GROUP_ID, seq=Between(0, 3), offset=OneOf((-1, 0, 1, 3)),
      flags=OneOf(FLAG_SETS))
def put_explicit(group, seq, offset, flags):
    return [_call("put", handle="h", MD={"GroupId": group, "MsgSeqNumber": seq, "Offset": offset,
                                         "MsgFlags": list(flags)}, data="x")]


@rule(options=SomeOf(GET_OPTIONS, 3), buffer=OneOf((None, None, 0, 2)), weight=2)
def get(options, buffer):
    return [_get(options, **({} if buffer is None else {"BufferLength": buffer}))]


@rule(group=GROUP_ID)
def get_by_group(group):
    return [_call("get", handle="h", MD={"GroupId": group}, GMO={"MatchOptions": ["MQMO_MATCH_GROUP_ID"]})]


@rule(options=OneOf(BROWSE_OPTIONS))
def browse(options):
    return [_get(options)]


@rule(commit=BOOL)
def end_unit_of_work(commit):
    return _end_unit_of_work(commit)


@rule()
def reopen():
    return _reopen("h", HANDLE_OPTIONS)


@rule(flags=OneOf(FLAG_SETS), logical=BOOL)
def put1(flags, logical):
    return [_call("put1", queue="Q1", PMO={"Options": ["MQPMO_LOGICAL_ORDER"] if logical else []},
                  MD={"MsgFlags": list(flags)}, data="p")]


@rule(flags=OneOf(FLAG_SETS), seq=Between(0, 2), offset=OneOf((-1, 0, 2)))
def put_version_1(flags, seq, offset):
    return [_call("put", handle="h", MD={"Version": 1, "MsgFlags": list(flags), "MsgSeqNumber": seq,
                                         "Offset": offset}, data="v")]


@rule(seq=OneOf((1, 2)), offset=OneOf((0, 1)), match=SomeOf(_names("MQMO", "MATCH_MSG_SEQ_NUMBER", "MATCH_OFFSET",
                                                                    "MATCH_GROUP_ID"), 2), logical=BOOL,
      md_version=OneOf((2, 2, 1)))
def get_logical_matching(seq, offset, match, logical, md_version):
    md: dict[str, Any] = {"MsgSeqNumber": seq, "Offset": offset}
    if md_version == 1:
        md["Version"] = 1
    return [_call("get", handle="h", MD=md,
                  GMO={"Options": ["MQGMO_LOGICAL_ORDER"] if logical else [], "MatchOptions": list(match)})]


@rule(browse_=OneOf((["MQGMO_BROWSE_FIRST"], ["MQGMO_BROWSE_NEXT"])), complete=BOOL)
def get_under_cursor(browse_, complete):
    options = ["MQGMO_MSG_UNDER_CURSOR"] + (["MQGMO_COMPLETE_MSG"] if complete else [])
    return [_get(browse_), _get(options)]


@rule(logical=BOOL, flags=OneOf((1 << 20, 1 << 24)))
def put_unknown_flags(logical, flags):
    return [_call("put", handle="h", PMO={"Options": ["MQPMO_LOGICAL_ORDER"] if logical else []},
                  MD={"Version": 1 if logical else 2, "MsgFlags": flags}, data="f")]


GROUPS = Area(
    "groups", "Puts and gets of groups and segments, in logical and physical order, with units of work",
    frozenset({"core", "groups", "segmentation", "units-of-work"}), ({"op": "define_queue", **QUEUE}, _open("h", HANDLE_OPTIONS)),
    (put, put_explicit, get, get_by_group, browse, end_unit_of_work, reopen, put1, put_version_1,
     get_logical_matching, get_under_cursor, put_unknown_flags),
    ("put.logical-order.table1", "put.group-consistency", "put.close-outcome.table2", "get.logical-order.table4"), clauses=("put.logical-order", "put.group-consistency", "put.close-outcome", "get.logical-order"))


# -- segmentation by the queue manager ----------------------------------------------------------------------

@rule(binds=GROUP_ID, length=OneOf((3, 16, 20, 33, 70)), allowed=BOOL, persistent=BOOL,
      syncpoint=BOOL, string=BOOL, flags=OneOf(FLAG_SETS), weight=3)
def put_long(length, allowed, persistent, syncpoint, string, flags):
    flags = list(flags) + ([MF["SEGMENTATION_ALLOWED"]] if allowed and MF["SEGMENTATION_ALLOWED"] not in flags else [])
    md = {"Format": "MQFMT_STRING"} if string else {}
    handle = "tiny" if length == 3 else "small"
    return [_put(False, syncpoint, flags, persistent, {"fill": "s", "length": length * (handle == "small") or 12},
                 handle=handle, **md)]


@rule(options=SomeOf(GET_OPTIONS, 3), buffer=OneOf((None, None, 4, 40)), weight=2)
def get_small(options, buffer):
    return [_get(options, handle="small", **({} if buffer is None else {"BufferLength": buffer}))]


@rule(commit=BOOL)
def end_unit_of_work_small(commit):
    return _end_unit_of_work(commit)


SEGMENTATION = Area(
    "segmentation", "Messages longer than the queue takes, segmented by the queue manager or refused",
    frozenset({"core", "groups", "segmentation", "units-of-work"}),
    ({"op": "define_queue", "name": "SMALL", "MaxMsgLength": 20}, _open("small", HANDLE_OPTIONS, "SMALL"),
     {"op": "define_queue", "name": "TINY", "MaxMsgLength": 8}, _open("tiny", HANDLE_OPTIONS, "TINY")),
    (put_long, get_small, end_unit_of_work_small), clauses=("segmentation", "get.complete-msg", "get.all-segments-available"))


# -- browse and marks ---------------------------------------------------------------------------------------

@rule(binds=MSG_ID, data=OneOf(("a", "b", "c")), weight=2)
def put_plain(data):
    return [_call("put", handle="h", data=data)]


@rule(binds=MSG_TOKEN, browser=OneOf(("d1", "d2")), options=OneOf(CO_OP_BROWSE_OPTIONS), weight=2)
def browse_marked(browser, options):
    return [_get(options, handle=browser)]


@rule(token=MSG_TOKEN, syncpoint=BOOL, version=OneOf((4, 4, 2)), wait=OneOf((False, False, True)))
def consume(token, syncpoint, version, wait):
    if not token.startswith("$"):
        return []
    options = (["MQGMO_SYNCPOINT"] if syncpoint else []) + (["MQGMO_WAIT"] if wait else [])
    gmo: dict[str, Any] = {"Options": options, "MatchOptions": ["MQMO_MATCH_MSG_TOKEN"], "MsgToken": token}
    if version != 4:
        gmo["Version"] = version
    return [_call("get", handle="h", GMO=gmo)]


@rule(milliseconds=OneOf((1000, 6000)))
def time_passes(milliseconds):
    return [_call("advance_clock", milliseconds=milliseconds)]


@rule(browser=OneOf(("d1", "d2")))
def reopen_browser(browser):
    return _reopen(browser, BROWSER_OPTIONS)


@rule(browser=OneOf(("d1", "d2", "h")), buffer=OneOf((0, 1)), then=OneOf(("", "", "MQGMO_MSG_UNDER_CURSOR")))
def browse_truncated(browser, buffer, then):
    calls = [_get(["MQGMO_BROWSE_NEXT"], handle=browser, BufferLength=buffer)]
    return calls + ([_get([then], handle=browser)] if then else [])


BROWSE_MARK = Area(
    "browse-mark", "Co-operating browsers, handle marks, MsgToken hand-over and the mark interval on the clock",
    frozenset({"core", "browse-mark", "units-of-work"}),
    ({"op": "define_queue", **QUEUE}, _open("h", HANDLE_OPTIONS), _open("d1", BROWSER_OPTIONS),
     _open("d2", BROWSER_OPTIONS)),
    (put_plain, browse_marked, consume, end_unit_of_work, time_passes, reopen_browser, browse_truncated), clauses=("browse-mark",))


# -- option validation (MQOO, MQPMO, MQGMO, MQCO) -----------------------------------------------------------

# The capabilities whose options the option-validation area combines; options of any other capability
# (fixtures/capabilities.yaml) are left out.
OPTION_CAPABILITIES = frozenset({"core", "units-of-work", "groups", "segmentation", "browse-mark", "cluster"})
OPEN_OPTIONS = names_within(option_names("MQOO"), OPTION_CAPABILITIES)
PUT_OPTIONS = names_within(option_names("MQPMO"), OPTION_CAPABILITIES)
# The model answers MQGMO_LOCK and MQGMO_UNLOCK with "not modelled": they are not generated.
GET_OPTION_NAMES = names_within(option_names("MQGMO", NOT_YET), OPTION_CAPABILITIES)
CLOSE_OPTIONS = names_within(option_names("MQCO"), OPTION_CAPABILITIES)


@rule(options=SomeOf(OPEN_OPTIONS, 4), queue=OneOf(("Q1", "Q1", "Q1", "NOSUCHQ")), weight=2)
def open_with(options, queue):
    return [_open("t", options, queue)]


@rule(options=SomeOf(PUT_OPTIONS, 3), weight=2)
def put_with(options):
    return [_call("put", handle="h", PMO={"Options": options}, data="o")]


@rule(options=SomeOf(PUT_OPTIONS, 3))
def put1_with(options):
    return [_call("put1", queue="Q1", PMO={"Options": options}, data="o")]


@rule(options=SomeOf(GET_OPTION_NAMES, 3), weight=2)
def get_with(options):
    return [_get(options)]


@rule(options=SomeOf(CLOSE_OPTIONS, 2), handle=OneOf(("t", "h")))
def close_with(options, handle):
    calls = [_call("close", handle=handle, Options=options)]
    return calls + ([_open("h", ALL_ACCESS)] if handle == "h" else [])


@rule(field=OneOf(("open", "put", "get", "close")), bit=OneOf((1 << 30, 1 << 29)))
def unknown_option(field, bit):
    if field == "open":
        return [_call("open", handle="t", queue="Q1", Options=bit | constants.VALUES["MQOO_OUTPUT"])]
    if field == "put":
        return [_call("put", handle="h", PMO={"Options": bit}, data="u")]
    if field == "get":
        return [_call("get", handle="h", GMO={"Options": bit})]
    return [_call("close", handle="t", Options=bit)]


@rule(persistent=BOOL)
def put_some(persistent):
    return [_put(persistent=persistent, data="m")]


OPTIONS = Area(
    "options", "Option validation: combinations of MQOO, MQPMO, MQGMO and MQCO options, documented or not "
    "(every documented option of each field: an implementation must claim every area they belong to)",
    OPTION_CAPABILITIES, ({"op": "define_queue", **QUEUE}, _open("h", ALL_ACCESS), _open("t", ["MQOO_OUTPUT"])),
    (open_with, put_with, put1_with, get_with, close_with, unknown_option, put_some),
    ("open.options", "put.options", "get.options"), clauses=("open.options", "put.options", "get.options", "close.options"))


# -- matching and truncation ---------------------------------------------------------------------------------

IDS = ("M1", "M2", "MQMI_NONE")
CORRELS = ("C1", "C2", "MQCI_NONE")
# MsgId and CorrelId: matching by group, sequence number, offset or token belongs to those areas' capabilities.
MATCH_OPTIONS = core_names(option_names("MQMO"))


@rule(binds=MSG_ID, msg_id=OneOf(IDS), correl=OneOf(CORRELS), new=SomeOf(
    _names("MQPMO", "NEW_MSG_ID", "NEW_CORREL_ID"), 2), data=OneOf(PUT_DATA), priority=OneOf((0, 5, 9)),
    weight=3)
def put_identified(msg_id, correl, new, data, priority):
    return [_call("put", handle="h", PMO={"Options": new},
                  MD={"MsgId": msg_id, "CorrelId": correl, "Priority": priority}, data=data)]


@rule(match=SomeOf(MATCH_OPTIONS, 2), msg_id=OneOf(IDS), correl=OneOf(CORRELS), known=MSG_ID,
      seq=OneOf((1, 2)), offset=OneOf((0, 1)), gmo_version=OneOf((4, 4, 1, 2)), md_version=OneOf((2, 2, 1)),
      browse_=OneOf(([], [], ["MQGMO_BROWSE_FIRST"], ["MQGMO_BROWSE_NEXT"])), weight=3)
def get_matching(match, msg_id, correl, known, seq, offset, gmo_version, md_version, browse_):
    md: dict[str, Any] = {"MsgId": known if known.startswith("$") else msg_id, "CorrelId": correl,
                          "MsgSeqNumber": seq, "Offset": offset}
    if md_version != 2:
        md["Version"] = md_version
    gmo: dict[str, Any] = {"Options": list(browse_), "MatchOptions": list(match)}
    if gmo_version != 4:
        gmo["Version"] = gmo_version
    return [_call("get", handle="h", MD=md, GMO=gmo)]


@rule(buffer=OneOf((0, 1, 2, 100)), accept=BOOL, browse_=OneOf(([], ["MQGMO_BROWSE_NEXT"],
                                                                ["MQGMO_BROWSE_FIRST"])), weight=2)
def get_truncated(buffer, accept, browse_):
    options = list(browse_) + (["MQGMO_ACCEPT_TRUNCATED_MSG"] if accept else [])
    return [_get(options, BufferLength=buffer)]


@rule(options=OneOf((["MQGMO_BROWSE_FIRST"], ["MQGMO_BROWSE_NEXT"], ["MQGMO_BROWSE_MSG_UNDER_CURSOR"])))
def browse_in_order(options):
    """Browsing in physical order (logical order belongs to groups)."""
    return [_get(options)]


MATCHING = Area(
    "matching", "Gets matching MsgId, CorrelId, GroupId, sequence numbers and offsets, and truncated messages",
    frozenset({"core"}), ({"op": "define_queue", **QUEUE}, _open("h", HANDLE_OPTIONS)),
    (put_identified, get_matching, get_truncated, browse_in_order, reopen), clauses=("get.match", "get.truncated"))


# -- units of work ------------------------------------------------------------------------------------------

@rule(syncpoint=OneOf((["MQPMO_SYNCPOINT"], ["MQPMO_NO_SYNCPOINT"], [])), persistent=BOOL,
      connection=OneOf(("app", "app", "other")), weight=3)
def put_in_unit(syncpoint, persistent, connection):
    return [_call("put", handle="h" if connection == "app" else "h2", PMO={"Options": syncpoint},
                  MD={"Persistence": PERSISTENCE[not persistent]}, data="u")]


@rule(options=OneOf((["MQGMO_SYNCPOINT"], ["MQGMO_NO_SYNCPOINT"], ["MQGMO_SYNCPOINT_IF_PERSISTENT"],
                     ["MQGMO_SYNCPOINT", "MQGMO_MARK_SKIP_BACKOUT"], [])), handle=OneOf(("h", "h", "h2")),
      weight=3)
def get_in_unit(options, handle):
    return [_get(options, handle=handle)]


@rule(commit=BOOL, connection=OneOf(("app", "other")), weight=2)
def end_unit(commit, connection):
    return [_call("commit" if commit else "backout", connection=connection)]


@rule(connection=OneOf(("app", "other")))
def disconnect(connection):
    handle = "h" if connection == "app" else "h2"
    return [_call("disconnect", connection=connection), _call("connect", connection=connection),
            _open(handle, HANDLE_OPTIONS, connection=connection)]


@rule(call=OneOf(("get", "put", "close")))
def use_after_disconnect(call):
    calls = [_call("disconnect", connection="other")]
    if call == "get":
        calls.append(_get(handle="h2"))
    elif call == "put":
        calls.append(_call("put", handle="h2", data="late"))
    else:
        calls.append(_call("close", handle="h2"))
    return calls + [_call("connect", connection="other"), _open("h2", HANDLE_OPTIONS, connection="other")]


UNITS_OF_WORK = Area(
    "units-of-work", "Puts and gets inside and outside units of work on two connections, commits, backouts and "
    "disconnects", frozenset({"core", "units-of-work"}),
    ({"op": "define_queue", **QUEUE}, _call("connect", connection="app"), _open("h", HANDLE_OPTIONS, connection="app"),
     _call("connect", connection="other"), _open("h2", HANDLE_OPTIONS, connection="other")),
    (put_in_unit, get_in_unit, end_unit, disconnect, use_after_disconnect), clauses=("uow", "get.syncpoint", "put.syncpoint", "conn"))


# -- queues: attributes, limits, handles and inquiry ---------------------------------------------------------

SELECTORS = core_names(tuple(sorted(n for n in constants.VALUES if n.startswith("MQIA_"))))


@rule(selectors=SomeOf(SELECTORS, 3), handle=OneOf(("i", "i", "i", "h")), weight=2)
def inquire(selectors, handle):
    return [_call("inquire", handle=handle, Selectors=selectors or ["MQIA_CURRENT_Q_DEPTH"])]


@rule(count=OneOf((0, 300)), handle=OneOf(("lim", "i")))
def inquire_counted(count, handle):
    """An MQINQ of no selector (nothing to do), or of more selectors than MQINQ takes."""
    return [_call("inquire", handle=handle, Selectors=["MQIA_DEF_PRIORITY"] * count)]


@rule(queue=OneOf(("LIMITED", "LIMITED", "Q1")), priority=OneOf((0, 9, 10, -1, -2)),
      persistence=OneOf(("MQPER_PERSISTENT", "MQPER_NOT_PERSISTENT", "MQPER_PERSISTENCE_AS_Q_DEF", 7)),
      length=OneOf((1, 4, 5, 12)), weight=3)
def put_to(queue, priority, persistence, length):
    return [_call("put", handle="lim" if queue == "LIMITED" else "h", MD={"Priority": priority,
                  "Persistence": persistence}, data={"fill": "q", "length": length})]


@rule(queue=OneOf(("LIMITED", "Q1")), wait=OneOf((None, 0, 500, -5)), weight=2)
def get_from(queue, wait):
    gmo: dict[str, Any] = {"Options": ["MQGMO_WAIT"] if wait is not None else []}
    if wait:
        gmo["WaitInterval"] = wait
    return [_call("get", handle="lim" if queue == "LIMITED" else "h", GMO=gmo)]


@rule(attribute=OneOf(("InhibitPut", "InhibitGet")), inhibited=BOOL)
def inhibit(attribute, inhibited):
    value = {"InhibitPut": ("MQQA_PUT_ALLOWED", "MQQA_PUT_INHIBITED"),
             "InhibitGet": ("MQQA_GET_ALLOWED", "MQQA_GET_INHIBITED")}[attribute][inhibited]
    return [_call("alter_queue", name="LIMITED", **{attribute: value})]


@rule(options=OneOf((["MQOO_INPUT_EXCLUSIVE"], ["MQOO_INPUT_SHARED"], ["MQOO_INPUT_AS_Q_DEF"], ["MQOO_OUTPUT"],
                     ["MQOO_INQUIRE"])), queue=OneOf(("LIMITED", "EXCL", "NOSUCHQ")), qmgr=OneOf(("", "", "QMX")))
def open_object(options, queue, qmgr):
    return [_open("o", options, queue, **({"ObjectQMgrName": qmgr} if qmgr else {}))]


@rule(handle=OneOf(("o", "lim")), then=OneOf(("put", "get", "inquire")))
def use_closed(handle, then):
    calls = [_call("close", handle=handle)]
    if then == "put":
        calls.append(_call("put", handle=handle, data="c"))
    elif then == "get":
        calls.append(_get(handle=handle))
    else:
        calls.append(_call("inquire", handle=handle, Selectors=["MQIA_CURRENT_Q_DEPTH"]))
    return calls + ([_open("lim", ALL_ACCESS, "LIMITED")] if handle == "lim" else [])


@rule(call=OneOf(("put", "get", "browse", "match")))
def wrong_access(call):
    if call == "put":
        return [_call("put", handle="i", data="w")]
    if call == "match":
        return [_call("get", handle="h", GMO={"MatchOptions": 1 << 28})]
    return [_get(["MQGMO_BROWSE_FIRST"] if call == "browse" else [], handle="i")]


@rule(length=OneOf((4, 64)))
def qmgr_max_length(length):
    return [_call("define_qmgr", MaxMsgLength=length)]


@rule(sequence=OneOf(("MQMDS_PRIORITY", "MQMDS_FIFO")))
def delivery_sequence(sequence):
    return [_call("alter_queue", name="LIMITED", MsgDeliverySequence=sequence)]


QUEUES = Area(
    "queues", "Queue attributes and limits, inquiries, handles and objects that are not there",
    frozenset({"core"}),
    ({"op": "define_queue", **QUEUE}, {"op": "define_queue", "name": "LIMITED", "MaxQDepth": 3, "MaxMsgLength": 4},
     {"op": "define_queue", "name": "EXCL", "DefInputOpenOption": ["MQOO_INPUT_EXCLUSIVE"]},
     _open("h", HANDLE_OPTIONS), _open("lim", ALL_ACCESS, "LIMITED"), _open("i", ["MQOO_INQUIRE"], "LIMITED"),
     _open("o", ["MQOO_INQUIRE"], "LIMITED")),
    (inquire, put_to, get_from, inhibit, open_object, use_closed, qmgr_max_length, delivery_sequence, wrong_access,
     inquire_counted), clauses=("inquire", "open.unknown", "open.input", "put.priority", "put.persistence", "get.wait"))


# -- model queues and dynamic queues -------------------------------------------------------------------------

MODELS = {"temporary": "TEMP.MODEL", "permanent": "PERM.MODEL"}
DYNAMIC_NAMES = ("DYN.A", "DYN.B", "DYN.*")
DYNAMIC_CLOSE_OPTIONS = names_within(option_names("MQCO"), frozenset({"core", "dynamic-queues"}))


@rule(kind=OneOf(tuple(MODELS)), name=OneOf(DYNAMIC_NAMES + ("BAD*NAME",)), handle=OneOf(("c", "c", "d")),
      weight=3)
def open_model(kind, name, handle):
    return [_open(handle, ["MQOO_INPUT_SHARED", "MQOO_OUTPUT", "MQOO_INQUIRE"], MODELS[kind], DynamicQName=name)]


@rule(handle=OneOf(("c", "d", "o")), name=OneOf(DYNAMIC_NAMES[:2]))
def open_dynamic(handle, name):
    return [_open(handle, ["MQOO_OUTPUT", "MQOO_INPUT_SHARED", "MQOO_INQUIRE"], name)]


@rule(handle=OneOf(("c", "d", "o", "model")), persistent=BOOL, syncpoint=BOOL, weight=3)
def put_dynamic(handle, persistent, syncpoint):
    if handle == "model":
        return [_call("put1", queue="TEMP.MODEL", data="m")]
    return [_put(False, syncpoint, (), persistent, "d", handle=handle)]


@rule(handle=OneOf(("c", "d", "o")), syncpoint=BOOL, weight=2)
def get_dynamic(handle, syncpoint):
    return [_get(["MQGMO_SYNCPOINT"] if syncpoint else [], handle=handle)]


@rule(handle=OneOf(("c", "d", "o", "h")), options=SomeOf(DYNAMIC_CLOSE_OPTIONS, 2), weight=3)
def close_dynamic(handle, options):
    return [_call("close", handle=handle, Options=options)]


@rule(handle=OneOf(("c", "d", "o")))
def inquire_dynamic(handle):
    return [_call("inquire", handle=handle, Selectors=["MQIA_CURRENT_Q_DEPTH"])]


@rule(commit=BOOL)
def end_unit_dynamic(commit):
    return _end_unit_of_work(commit)


@rule()
def reconnect():
    return [_call("disconnect"), _call("connect"), _open("h", HANDLE_OPTIONS)]


DYNAMIC = Area(
    "dynamic-queues", "Model queues, the temporary and permanent dynamic queues opened from them, and their "
    "deletion at close (MQCO_DELETE, MQCO_DELETE_PURGE) or disconnect", frozenset({"core", "dynamic-queues",
                                                                                   "units-of-work"}),
    ({"op": "define_queue", **QUEUE}, {"op": "define_queue", "name": "TEMP.MODEL", "QType": "MQQT_MODEL"},
     {"op": "define_queue", "name": "PERM.MODEL", "QType": "MQQT_MODEL", "DefinitionType": "MQQDT_PERMANENT_DYNAMIC"},
     *[_open(handle, HANDLE_OPTIONS) for handle in ("h", "c", "d", "o")]),
    (open_model, open_dynamic, put_dynamic, get_dynamic, close_dynamic, inquire_dynamic, end_unit_dynamic, reconnect),
    ("close.delete",), clauses=("queue.dynamic", "close.delete"))


def _close_delete(row, rng: random.Random) -> list[dict[str, Any]]:
    """The queue of the row's definition type, messages and units of work as it says, then the close."""
    when = row.when
    kind = when.get("definition_type", "predefined")
    option = when.get("option", "MQCO_NONE")
    option = rng.choice(option) if isinstance(option, list) else option
    options = [] if option == "MQCO_NONE" else [option]
    if kind == "predefined":
        return [_open("c", ["MQOO_OUTPUT"]), _call("close", handle="c", Options=options)]
    access = ["MQOO_INPUT_SHARED", "MQOO_OUTPUT", "MQOO_INQUIRE"]
    calls = [_open("c", access, MODELS[kind], DynamicQName="DYN.A"), _open("o", access, "DYN.A")]
    if _yes(when.get("messages", EITHER), rng):
        calls.append(_put(handle="c", data="m"))
    if _yes(when.get("uncommitted", "no"), rng):
        calls.append(_put(syncpoint=True, handle="o", data="u"))
    closing = "c" if _yes(when.get("creating_handle", EITHER), rng) else "o"
    return calls + [_call("close", handle=closing, Options=options)]


# -- MQSET and alias queues ---------------------------------------------------------------------------------

def _set_values(row) -> tuple[Any, ...]:
    """Values for a settable selector from its set.selectors row: each documented value or the ends of its
    range, and one just outside (the row's reason code)."""
    values = str(row.then["values"])
    if ".." in values:
        low, high = (int(v) for v in values.split(".."))
        return (low, high, low - 1, high + 1)
    names = values.split()
    return (*names, 99)


def _settable() -> dict[str, tuple[Any, ...]]:
    return {row.when["selector"]: _set_values(row) for row in default_spec()["set.selectors"].rows}


@rule(selector=OneOf(("settable", "settable", "settable", "MQIA_CURRENT_Q_DEPTH", "MQCA_BASE_Q_NAME")),
      pick=Between(0, 99), value=Between(0, 99), handle=OneOf(("h", "h", "n", "a")), count=OneOf((1, 1, 1, 0, 2)),
      weight=4)
def set_attribute(selector, pick, value, handle, count):
    settable = _settable()
    if selector == "settable":
        selector = sorted(settable)[pick % len(settable)]
        values = settable[selector]
        chosen = values[value % len(values)]
    else:
        chosen = value
    selectors = [selector] * (max(count, 1) if pick % 10 else 300)
    return [_call("set", handle=handle, Selectors=selectors, IntAttrs=[chosen] * count)]


@rule(handle=OneOf(("h", "a")), syncpoint=BOOL, weight=2)
def put_set(handle, syncpoint):
    return [_put(syncpoint=syncpoint, handle=handle, data="s")]


@rule(handle=OneOf(("h", "a")), browse_=BOOL, weight=2)
def get_set(handle, browse_):
    return [_get(["MQGMO_BROWSE_FIRST"] if browse_ else [], handle=handle)]


@rule(handle=OneOf(("h", "a")))
def set_nothing(handle):
    """An MQSET of no selector: nothing to do."""
    return [_call("set", handle=handle, Selectors=[], IntAttrs=[])]


@rule(handle=OneOf(("h", "a")))
def inquire_set(handle):
    return [_call("inquire", handle=handle, Selectors=["MQIA_INHIBIT_PUT", "MQIA_INHIBIT_GET"])]


SET_ACCESS = ["MQOO_SET", "MQOO_INQUIRE", "MQOO_OUTPUT", "MQOO_INPUT_SHARED", "MQOO_BROWSE"]
SET = Area(
    "set", "MQSET of a queue's (and an alias's) settable attributes, values in and out of range, and their "
    "effect on puts and gets", frozenset({"core", "set", "alias-queues", "units-of-work"}),
    ({"op": "define_queue", **QUEUE}, {"op": "define_queue", "name": "A1", "QType": "MQQT_ALIAS", "BaseQName": "Q1"},
     _open("h", SET_ACCESS), _open("n", ["MQOO_OUTPUT"]), _open("a", SET_ACCESS, "A1")),
    (set_attribute, put_set, get_set, inquire_set, end_unit_of_work, set_nothing), ("set.selectors",),
    clauses=("set",))


def _set_selector(row, rng: random.Random) -> list[dict[str, Any]]:
    values = _set_values(row)
    return [_call("set", handle="h", Selectors=[row.when["selector"]], IntAttrs=[rng.choice(values[:2])])]


ALIASES = ("A1", "A2", "AX")


@rule(alias=OneOf(ALIASES), options=OneOf((["MQOO_OUTPUT"], ["MQOO_INPUT_SHARED", "MQOO_BROWSE"], ["MQOO_INQUIRE"],
                                           ["MQOO_OUTPUT", "MQOO_INPUT_AS_Q_DEF"])), weight=2)
def open_alias(alias, options):
    return [_open("a", options, alias)]


@rule(via=OneOf(("a", "a", "h")), priority=OneOf((None, 3)), weight=3)
def put_alias(via, priority):
    return [_call("put", handle=via, MD={} if priority is None else {"Priority": priority}, data="x")]


@rule(alias=OneOf(ALIASES[:2]), persistent=BOOL)
def put1_alias(alias, persistent):
    return [_call("put1", queue=alias, MD={"Persistence": PERSISTENCE[not persistent]}, data="p")]


@rule(via=OneOf(("a", "h")), weight=2)
def get_alias(via):
    return [_get(handle=via)]


@rule(alias=OneOf(("A1", "Q1")), attribute=OneOf(("InhibitPut", "InhibitGet")), inhibited=BOOL)
def inhibit_alias(alias, attribute, inhibited):
    value = {"InhibitPut": ("MQQA_PUT_ALLOWED", "MQQA_PUT_INHIBITED"),
             "InhibitGet": ("MQQA_GET_ALLOWED", "MQQA_GET_INHIBITED")}[attribute][inhibited]
    return [_call("alter_queue", name=alias, **{attribute: value})]


@rule(handle=OneOf(("a", "h")))
def inquire_alias(handle):
    return [_call("inquire", handle=handle, Selectors=["MQIA_INHIBIT_PUT", "MQIA_DEF_PRIORITY"])]


ALIAS = Area(
    "alias-queues", "Alias queues: opens, puts and gets resolved to the base queue, unknown and wrong-type bases, "
    "default priority and persistence, and inhibition on the alias or the target", frozenset({"core", "alias-queues"}),
    ({"op": "define_queue", **QUEUE},
     {"op": "define_queue", "name": "A1", "QType": "MQQT_ALIAS", "BaseQName": "Q1", "DefPriority": 7,
      "DefPersistence": "MQPER_PERSISTENT"},
     {"op": "define_queue", "name": "A2", "QType": "MQQT_ALIAS", "BaseQName": "A1"},
     {"op": "define_queue", "name": "AX", "QType": "MQQT_ALIAS", "BaseQName": "NOSUCHQ"},
     _open("h", HANDLE_OPTIONS + ["MQOO_INQUIRE"]), _open("a", ["MQOO_OUTPUT", "MQOO_INPUT_SHARED", "MQOO_INQUIRE"], "A1")),
    (open_alias, put_alias, put1_alias, get_alias, inhibit_alias, inquire_alias), clauses=("queue.alias",))


# -- expiry and reports -------------------------------------------------------------------------------------

@rule(expiry=OneOf((-1, 0, -5, 1, 20, 50)), syncpoint=BOOL, put1_=OneOf((False, False, True)), weight=3)
def put_expiring(expiry, syncpoint, put1_):
    md = {"Expiry": expiry}
    if put1_:
        return [_call("put1", queue="Q1", MD=md, data="e")]
    return [_call("put", handle="h", PMO={"Options": ["MQPMO_SYNCPOINT"] if syncpoint else []}, MD=md, data="e")]


@rule(milliseconds=OneOf((100, 1000, 3000)), weight=2)
def clock_moves(milliseconds):
    return [_call("advance_clock", milliseconds=milliseconds)]


@rule(browse_=BOOL, weight=2)
def get_expiring(browse_):
    return [_get(["MQGMO_BROWSE_FIRST"] if browse_ else [])]


@rule()
def depth():
    return [_call("inquire", handle="h", Selectors=["MQIA_CURRENT_Q_DEPTH"])]


EXPIRY = Area(
    "expiry", "Message expiry on the model's clock: expired messages never returned and discarded, the remaining "
    "Expiry returned, invalid Expiry refused", frozenset({"core", "expiry", "units-of-work"}),
    ({"op": "define_queue", **QUEUE}, _open("h", ALL_ACCESS)),
    (put_expiring, clock_moves, get_expiring, depth, end_unit_of_work), clauses=("expiry",))


REPORT_OPTIONS = names_within(option_names("MQRO"), frozenset({"core", "reports", "expiry", "segmentation"}))
# An unknown report option MQPUT must refuse: one of MQRO_REJECT_UNSUP_MASK's bits (others it may accept).
_REJECTED = constants.VALUES["MQRO_REJECT_UNSUP_MASK"] & ~constants.NAMED_BITS["MQRO"]
UNKNOWN_REPORT = _REJECTED & -_REJECTED


@rule(report=SomeOf(REPORT_OPTIONS, 2), reply=OneOf(("REPLYQ", "REPLYQ", "", "NOSUCHQ")),
      msg_type=OneOf((None, None, "MQMT_REQUEST", "MQMT_DATAGRAM", 99)), feedback=OneOf((None, None, 5, None, -3)),
      qmgr=OneOf(("", "", "QM1")), syncpoint=BOOL, length=OneOf((5, 150)), put1_=BOOL,
      unknown=OneOf((False,) * 7 + (True,)), weight=4)
def put_reporting(report, reply, msg_type, feedback, qmgr, syncpoint, length, put1_, unknown):
    """A put asking for reports (or with a report option MQ does not know, or a Feedback no message may have)."""
    md: dict[str, Any] = {"Report": UNKNOWN_REPORT if unknown else report}
    if reply:
        md["ReplyToQ"] = reply
    if qmgr:
        md["ReplyToQMgr"] = qmgr
    if msg_type is not None:
        md["MsgType"] = msg_type
    if feedback is not None:
        md["Feedback"] = feedback
    data = {"fill": "r", "length": length}
    if put1_:
        return [_call("put1", queue="Q1", MD=md, data=data)]
    return [_call("put", handle="h", PMO={"Options": ["MQPMO_SYNCPOINT"] if syncpoint else []}, MD=md, data=data)]


@rule(handle=OneOf(("h", "r", "r")), complete=BOOL, weight=3)
def get_report(handle, complete):
    return [_get(["MQGMO_COMPLETE_MSG"] if complete and handle == "h" else [], handle=handle)]


REPORTS = Area(
    "reports", "Request, reply and report messages: report options, ReplyToQ, MsgType and Feedback, COA and COD "
    "reports on the reply queue", frozenset({"core", "reports", "expiry", "segmentation", "units-of-work"}),
    ({"op": "define_queue", **QUEUE}, {"op": "define_queue", "name": "REPLYQ"}, _open("h", ALL_ACCESS),
     _open("r", ["MQOO_INPUT_SHARED", "MQOO_BROWSE"], "REPLYQ")),
    (put_reporting, get_report, clock_moves, end_unit_of_work), clauses=("report",))


# -- clusters -----------------------------------------------------------------------------------------------

CLUSTER_QMGRS = ("QM2", "QM4")
CHANNELS = ("TO.QM2", "TO.QM4")
CHANNEL_STATES_DRAWN = ("MQCHS_RUNNING", "MQCHS_INACTIVE", "MQCHS_STOPPING", "MQCHS_RETRYING", "MQCHS_STOPPED")
BINDS = ("MQOO_BIND_NOT_FIXED", "MQOO_BIND_ON_OPEN", "MQOO_BIND_ON_GROUP")
CLUSTER_HANDLES = ("nf", "oo", "og", "dq")


@rule(handle=OneOf(CLUSTER_HANDLES), data=OneOf(("a", "b")), group=OneOf(("none", "none", "in", "last")),
      syncpoint=OneOf((False, False, True)), weight=4)
def cluster_put(handle, data, group, syncpoint):
    logical = group != "none"
    return [_put(logical, syncpoint, GROUP_FLAGS[group], data=data, handle=handle)]


@rule(qmgr=OneOf(("", "", "QM2", "QM1")))
def cluster_put1(qmgr):
    return [_call("put1", queue="Q3", **({"ObjectQMgrName": qmgr} if qmgr else {}), data="p")]


@rule(channel=OneOf(CHANNELS), state=OneOf(CHANNEL_STATES_DRAWN), weight=3)
def set_channel(channel, state):
    return [_call("set_channel", name=channel, state=state)]


@rule(channel=OneOf(CHANNELS), attribute=OneOf(("CLWLRANK", "CLWLPRTY", "NETPRTY", "CLWLWGHT")),
      value=OneOf((1, 3, 5)), weight=2)
def alter_channel(channel, attribute, value):
    return [_call("define_channel", name=channel, **{attribute: value})]


@rule(qmgr=OneOf(("QM1", "QM2", "QM4")), attribute=OneOf(("CLWLRANK", "CLWLPRTY", "InhibitPut", "CLWLUSEQ",
                                                          "DefBind")), value=Between(0, 2), weight=2)
def alter_instance(qmgr, attribute, value):
    values = {"InhibitPut": ("MQQA_PUT_ALLOWED", "MQQA_PUT_INHIBITED", "MQQA_PUT_ALLOWED"),
              "CLWLUSEQ": ("MQCLWL_USEQ_LOCAL", "MQCLWL_USEQ_ANY", "MQCLWL_USEQ_AS_Q_MGR"),
              "DefBind": ("MQBND_BIND_ON_OPEN", "MQBND_BIND_NOT_FIXED", "MQBND_BIND_ON_GROUP")}
    chosen = values[attribute][value] if attribute in values else value * 2
    return [_call("alter_queue", qmgr=qmgr, name="Q3", **{attribute: chosen})]


@rule(qmgr=OneOf(CLUSTER_QMGRS), suspend=BOOL)
def suspension(qmgr, suspend):
    return [_call("suspend_qmgr" if suspend else "resume_qmgr", qmgr=qmgr)]


@rule(channel=OneOf((None, None, "TO.QM2", "TO.QM4")), indoubt=OneOf((False, False, False, True)), weight=3)
def deliver(channel, indoubt):
    args: dict[str, Any] = {}
    if channel:
        args["channel"] = channel
    if indoubt:
        args["indoubt"] = True
    return [_call("deliver", **args)]


@rule(commit=BOOL)
def cluster_end_unit(commit):
    return _end_unit_of_work(commit)


@rule(handle=OneOf(CLUSTER_HANDLES), bind=OneOf(BINDS + ("",)), qmgr=OneOf(("", "", "", "QM4", "QM1")))
def cluster_reopen(handle, bind, qmgr):
    options = ["MQOO_OUTPUT"] + ([bind] if bind else [])
    return _reopen(handle, options, "Q3", **({"ObjectQMgrName": qmgr} if qmgr else {}))


@rule(what=OneOf(("input", "nosuch")))
def cluster_open_other(what):
    if what == "input":
        return [_open("in", ["MQOO_INPUT_SHARED"], "Q3")]
    return [_open("in", ["MQOO_OUTPUT"], "Q9")]


@rule(qmgr=OneOf(CLUSTER_QMGRS))
def cluster_depths(qmgr):
    return [_call("inquire", handle=f"q3-{qmgr}", Selectors=["MQIA_CURRENT_Q_DEPTH"]),
            _call("inquire", handle="xmit", Selectors=["MQIA_CURRENT_Q_DEPTH"])]


@rule(qmgr=OneOf(CLUSTER_QMGRS))
def cluster_consume(qmgr):
    return [_get(handle=f"q3-{qmgr}")]


@rule(join=BOOL, useq=OneOf(("MQCLWL_USEQ_LOCAL", "MQCLWL_USEQ_ANY", "MQCLWL_USEQ_AS_Q_MGR")))
def local_instance(join, useq):
    if not join:
        return [_call("define_qmgr", name="QM1", CLWLUSEQ=useq)]
    return [_call("define_queue", name="Q3", qmgr="QM1", CLUSTER="DEMO", CLWLUSEQ=useq)]


@rule(mruc=OneOf((1, 2, 999)))
def most_recently_used(mruc):
    return [_call("define_qmgr", name="QM1", CLWLMRUC=mruc)]


@rule(local=BOOL, bind=OneOf(BINDS))
def all_put_disabled(local, bind):
    calls = [_call("alter_queue", qmgr=q, name="Q3", InhibitPut="MQQA_PUT_INHIBITED") for q in CLUSTER_QMGRS]
    if local:
        calls = [_call("define_queue", name="Q3", qmgr="QM1", CLUSTER="DEMO", InhibitPut="MQQA_PUT_INHIBITED")]
    return calls + _reopen("oo", ["MQOO_OUTPUT", bind], "Q3") + [_call("put", handle="oo", data="d"),
                                                                  _call("deliver")]


@rule(handle=OneOf(("nf", "dq")), weight=3)
def put_and_look(handle):
    """A put, the channels' delivery, and the depths that show where it went."""
    return [_call("put", handle=handle, data="l"), _call("deliver"),
            *[_call("inquire", handle=h, Selectors=["MQIA_CURRENT_Q_DEPTH"]) for h in ("xmit", "q3-QM2", "q3-QM4")]]


# The channels start with different CLWLPRTY, so the documents fix every choice until a rule makes them equal
# (then the least recently used wins, and a first tie is the model's own choice: ResolvedQMgrName is compared
# only by the depths it leads to).
CLUSTER_SETUP: tuple[dict[str, Any], ...] = (
    _call("define_qmgr", name="QM1"), _call("define_qmgr", name="QM2"), _call("define_qmgr", name="QM4"),
    _call("define_queue", name="Q3", qmgr="QM2", CLUSTER="DEMO"),
    _call("define_queue", name="Q3", qmgr="QM4", CLUSTER="DEMO"),
    _call("define_channel", name="TO.QM2", CLWLPRTY=5), _call("define_channel", name="TO.QM4", CLWLPRTY=3),
    *[c for qmgr in CLUSTER_QMGRS for c in (
        _call("connect", connection=f"on-{qmgr}", qmgr=qmgr),
        _open(f"q3-{qmgr}", ["MQOO_INQUIRE", "MQOO_INPUT_SHARED"], "Q3", connection=f"on-{qmgr}"))],
    _open("nf", ["MQOO_OUTPUT", "MQOO_BIND_NOT_FIXED"], "Q3"), _open("oo", ["MQOO_OUTPUT", "MQOO_BIND_ON_OPEN"], "Q3"),
    _open("og", ["MQOO_OUTPUT", "MQOO_BIND_ON_GROUP"], "Q3"), _open("dq", ["MQOO_OUTPUT"], "Q3"),
    _open("xmit", ["MQOO_INQUIRE"], "SYSTEM.CLUSTER.TRANSMIT.QUEUE"),
)

CLUSTER = Area(
    "cluster", "Puts to a queue with instances on QM2 and QM4 from QM1: topology, bind options, channel states, "
    "suspension, delivery and reallocation", frozenset({"core", "cluster", "groups", "units-of-work"}), CLUSTER_SETUP,
    (cluster_put, cluster_put1, set_channel, alter_channel, alter_instance, suspension, deliver, cluster_end_unit,
     cluster_reopen, cluster_open_other, cluster_depths, cluster_consume, local_instance, most_recently_used,
     all_put_disabled, put_and_look),
    ("cluster.workload",), clauses=("cluster",))


# -- publish/subscribe ---------------------------------------------------------------------------------------
# Topics of a small tree, subscriptions on them by both wildcard schemes (a destination queue opened as "q", or
# managed), publications with the publish/subscribe put options, retained ones asked for with subrq, subscriptions
# kept or removed at close and resumed by name, all under units of work (reference/topics.py, publish.py,
# subscriptions.py).

# "Sports/Football/Results" has more levels than a single-level wildcard matches; "Sports/#" is published as a
# literal string; "Closed" lies under a topic object inhibiting publication and subscription, "Temp" under one
# refusing durable subscriptions.
TOPIC_STRINGS = ("Sports", "Sports/Football", "Sports/Golf", "News", "Sports/Football/Results", "Sports/#", "Closed",
                 "Temp")
SUBSCRIBED_STRINGS = ("Sports/#", "Sports/+", "#", "Sports/Football", "News", "Sports/*", "S?orts")
SUB_OPTIONS = _names("MQSO", "DURABLE", "MANAGED", "PUBLICATIONS_ON_REQUEST", "NEW_PUBLICATIONS_ONLY",
                     "WILDCARD_CHAR", "SET_CORREL_ID", "RESUME", "ALTER")
PUBLISH_OPTIONS = _names("MQPMO", "RETAIN", "WARN_IF_NO_SUBS_MATCHED", "NOT_OWN_SUBS", "SUPPRESS_REPLYTO",
                         "SYNCPOINT")
SUBSCRIBERS = ("s1", "s2", "s3")
# Every documented MQSO option a claim of publish/subscribe covers, for option rules broken at random.
ALL_SUB_OPTIONS = names_within(option_names("MQSO"), frozenset({"core", "pubsub"}))


LEVELS = (None, None, None, 1, 5, 9)  # SubLevel and PubLevel; None: the default (SubLevel 1, PubLevel 9)


@rule(handle=OneOf(SUBSCRIBERS), string=OneOf(SUBSCRIBED_STRINGS), options=SomeOf(SUB_OPTIONS, 3),
      level=OneOf(LEVELS), weight=3)
def subscribe(handle, string, options, level):
    # the handle's subscription is closed first (removed unless durable), then made, resumed or altered anew
    destination = "m" + handle if "MQSO_MANAGED" in options else "q"
    sd = {"Options": ["MQSO_CREATE", *options], "ObjectString": string, "SubName": handle.upper(), "SubCorrelId": handle}
    if level is not None and "MQSO_PUBLICATIONS_ON_REQUEST" not in options:  # that pair the model does not model
        sd["SubLevel"] = level
    return [_call("close", handle=handle), _call("sub", handle=handle, Hobj=destination, SD=sd)]


# Character-scheme patterns: ? and * within a level, * across levels, + taken literally.
CHARACTER_PATTERNS = ("S?orts", "Sports/*", "Sports/+", "*Football*", "Sp*", "Sports/Football")


@rule(pattern=OneOf(CHARACTER_PATTERNS), handle=OneOf(SUBSCRIBERS), weight=2)
def subscribe_by_characters(pattern, handle):
    return [_call("close", handle=handle), _call("sub", handle=handle, Hobj="q", SD={
        "Options": ["MQSO_CREATE", "MQSO_WILDCARD_CHAR"], "ObjectString": pattern, "SubName": handle.upper()})]


@rule(topic=OneOf(TOPIC_STRINGS), options=SomeOf(PUBLISH_OPTIONS, 2), group=OneOf(([], [], [], [MF["MSG_IN_GROUP"]])),
      put1_=BOOL, level=OneOf(LEVELS), copies=OneOf((1, 1, 1, 2)), weight=4)
def publish(topic, options, group, put1_, level, copies):
    """One publication (or two: a destination that holds one is then full for the second)."""
    md = {"MsgFlags": list(group), "ReplyToQ": "REPLYQ"}
    pmo: dict[str, Any] = {"Options": list(options)}
    if level is not None:
        pmo["PubLevel"] = level
    if put1_:
        return [_call("put1", ObjectString=topic, PMO=pmo, MD=md, data=topic) for _ in range(copies)]
    return [_call("open", handle="p", ObjectString=topic, Options=["MQOO_OUTPUT"]),
            *[_call("put", handle="p", PMO=pmo, MD=md, data=topic) for _ in range(copies)],
            _call("close", handle="p")]


@rule(handle=OneOf(SUBSCRIBERS + ("ms1", "ms2")), options=OneOf(([], [], ["MQCO_KEEP_SUB"], ["MQCO_REMOVE_SUB"],
      ["MQCO_KEEP_SUB", "MQCO_REMOVE_SUB"])))
def unsubscribe(handle, options):
    """A subscription handle closed (kept, removed, or both asked for), or a managed destination's handle (the
    managed queue goes with its subscription)."""
    if handle.startswith("m"):
        return [_call("close", handle=handle)]
    return [_call("close", handle=handle, Options=list(options))]


@rule(options=SomeOf(ALL_SUB_OPTIONS, 4), string=OneOf(SUBSCRIBED_STRINGS), unknown=OneOf((False,) * 5 + (True,)),
      weight=2)
def subscribe_with_options(options, string, unknown):
    """An MQSUB with options drawn from every MQSO option (sub.options' rules broken or kept), or an unknown one."""
    chosen: Any = unknown_bit("MQSO") | constants.VALUES["MQSO_CREATE"] if unknown else list(options)
    destination = "mx" if "MQSO_MANAGED" in options else "q"
    return [_call("close", handle="sx"), _call("sub", handle="sx", Hobj=destination, SD={
        "Options": chosen, "ObjectString": string, "SubName": "SX", "SubCorrelId": "sx"})]


# MQSUB calls each refused (or accepted) by one rule of the subscription's own: durable without a name, no topic,
# a topic string too long, no destination or one opened for output only, resuming what does not exist or is in
# use elsewhere, a topic object inhibiting subscriptions or durable ones.
ODD_SUBSCRIPTIONS: dict[str, dict[str, Any]] = {
    "durable-no-name": {"Hobj": "q", "SD": {"Options": ["MQSO_CREATE", "MQSO_DURABLE"], "ObjectString": "News"}},
    "no-topic": {"Hobj": "q", "SD": {"Options": ["MQSO_CREATE"]}},
    "too-long": {"Hobj": "q", "SD": {"Options": ["MQSO_CREATE"], "ObjectString": "t" * 10241}},
    "no-destination": {"SD": {"Options": ["MQSO_CREATE"], "ObjectString": "News"}},
    "output-destination": {"Hobj": "o", "SD": {"Options": ["MQSO_CREATE"], "ObjectString": "News"}},
    "resume-none": {"SD": {"Options": ["MQSO_RESUME", "MQSO_DURABLE"], "SubName": "NONE"}},
    "resume-in-use": {"connection": "c2", "SD": {"Options": ["MQSO_RESUME", "MQSO_DURABLE"], "SubName": "S2"}},
    "inhibited": {"Hobj": "q", "SD": {"Options": ["MQSO_CREATE"], "ObjectName": "CLOSED"}},
    "durable-inhibited": {"Hobj": "q", "SD": {"Options": ["MQSO_CREATE", "MQSO_DURABLE"], "ObjectName": "TEMP",
                                              "SubName": "T1"}},
    "new-only-resumed": {"SD": {"Options": ["MQSO_RESUME", "MQSO_DURABLE", "MQSO_NEW_PUBLICATIONS_ONLY"],
                                "SubName": "S2"}},
}


@rule(kind=OneOf(tuple(ODD_SUBSCRIPTIONS)), weight=2)
def subscribe_oddly(kind):
    return [_call("close", handle="sx"), _call("sub", handle="sx", **ODD_SUBSCRIPTIONS[kind])]


# A topic handle used as no topic handle can be (inquired; set and closed with a delete option in the area
# "topic-handles", whose capabilities those need), and opens of a topic object that does not exist or names the
# empty topic string. Not an MQGET on it: while a subscription exists the model fails on one
# (properties.get_with_properties looks the handle's queue up by the topic handle's empty name).
TOPIC_MISUSES: dict[str, list[dict[str, Any]]] = {
    "inquire": [_call("inquire", handle="t", Selectors=["MQIA_INHIBIT_PUT"])],
    "unknown-object": [_call("open", handle="u", topic="NO.SUCH.TOPIC", Options=["MQOO_OUTPUT"])],
    "empty-object": [_call("open", handle="u", topic="EMPTY", Options=["MQOO_OUTPUT"])],
}


@rule(misuse=OneOf(tuple(TOPIC_MISUSES)), string=OneOf(TOPIC_STRINGS[:4]))
def misuse_topic(misuse, string):
    return [_call("close", handle="t"), _call("open", handle="t", ObjectString=string, Options=["MQOO_OUTPUT"]),
            *TOPIC_MISUSES[misuse]]


@rule(handle=OneOf(SUBSCRIBERS))
def request_retained(handle):
    return [_call("subrq", handle=handle)]


@rule(handle=OneOf(("q", "q", "ms1", "ms2", "ms3", "tiny", "mx")), weight=3)
def get_publication(handle):
    return [_get((), handle=handle)]


PUBSUB_MORE_SETUP: tuple[dict[str, Any], ...] = (
    # a destination that holds one message (a second publication cannot reach it), one opened for output only
    _call("define_queue", name="TINY", MaxQDepth=1), _open("tiny", ["MQOO_INPUT_SHARED"], "TINY"),
    _call("sub", handle="s4", Hobj="tiny", SD={"Options": ["MQSO_CREATE"], "ObjectString": "News"}),
    _open("o", ["MQOO_OUTPUT"]), _open("mx", ["MQOO_INPUT_SHARED"]),
    # topic objects that inhibit publication and subscription, refuse durable subscriptions, name the empty string
    _call("define_topic", name="CLOSED", TopicString="Closed", InhibitPublications="MQTA_PUB_INHIBITED",
          InhibitSubscriptions="MQTA_SUB_INHIBITED"),
    _call("define_topic", name="TEMP", TopicString="Temp", DurableSubscriptions="MQSUB_DURABLE_INHIBITED"),
    _call("define_topic", name="EMPTY", TopicString=""),
    _call("connect", connection="c2"),
    _call("sub", handle="sx", Hobj="q", SD={"Options": ["MQSO_CREATE"], "ObjectString": "Sports", "SubName": "SX"}),
    _call("open", handle="t", ObjectString="Sports", Options=["MQOO_OUTPUT"]),
)

PUBSUB = Area(
    "pubsub", "Publish/subscribe: subscriptions by both wildcard schemes, managed or on a queue, durable or not; "
    "publications with retain, no-local and the no-match warning; retained publications on request; subscriptions "
    "kept, removed and resumed; units of work", frozenset({"core", "pubsub", "units-of-work", "groups"}),
    ({"op": "define_queue", **QUEUE}, _open("q", ["MQOO_INPUT_SHARED"]),
     # the managed destinations' handle names, opened on Q1 until an MQSO_MANAGED subscription rebinds them
     *(_open("m" + s, ["MQOO_INPUT_SHARED"]) for s in SUBSCRIBERS),
     {"op": "define_topic", "name": "SPORTS", "TopicString": "Sports", "DefPersistence": "MQPER_PERSISTENT"},
     # one subscription of each kind, so that every subscription handle name is bound from the start
     _call("sub", handle="s1", Hobj="q", SD={"Options": ["MQSO_CREATE"], "ObjectString": "Sports/#", "SubName": "S1"}),
     _call("sub", handle="s2", Hobj="ms2", SD={"Options": ["MQSO_CREATE", "MQSO_MANAGED", "MQSO_DURABLE"],
                                              "ObjectName": "SPORTS", "ObjectString": "Football", "SubName": "S2"}),
     _call("sub", handle="s3", Hobj="q", SD={"Options": ["MQSO_CREATE", "MQSO_PUBLICATIONS_ON_REQUEST"],
                                            "ObjectString": "Sports/+", "SubName": "S3"}),
     *PUBSUB_MORE_SETUP),
    (subscribe, publish, unsubscribe, request_retained, get_publication, end_unit_of_work, subscribe_with_options,
     subscribe_oddly, misuse_topic, subscribe_by_characters),
    ("sub.options",), clauses=("publish", "sub", "topic"))


# -- publish/subscribe with message properties ------------------------------------------------------------------
# Subscriptions that select by properties and carry user data, publications whose properties travel as their
# copy options say, and publications got into a message handle, whose publish/subscribe properties (MQTopicString,
# MQSubUserData, MQIsRetained) are then inquired (reference/publish.py, properties.py, selection.py).

SUB_SELECTORS = ("", "", "Color = 'red'", "size > 5", "MQTopicString LIKE 'Sports/%'", "Color = ", "size >")
COPY_OPTIONS = (None, None, ["MQCOPY_DEFAULT"], ["MQCOPY_FORWARD"], ["MQCOPY_PUBLISH"], ["MQCOPY_NONE"],
                ["MQCOPY_ALL"])
PUBLICATION_PROPERTIES = ("MQTopicString", "MQSubUserData", "MQIsRetained", "Color", "size", "%")


@rule(handle=OneOf(("ps1", "ps2")), string=OneOf(("Sports/#", "Sports/Football", "#", "News")),
      selector=OneOf(SUB_SELECTORS), user_data=OneOf((None, "fan", "")), weight=2)
def subscribe_selecting(handle, string, selector, user_data):
    sd: dict[str, Any] = {"Options": ["MQSO_CREATE"], "ObjectString": string}
    if selector:
        sd["SelectionString"] = selector
    if user_data is not None:
        sd["SubUserData"] = user_data
    return [_call("close", handle=handle), _call("sub", handle=handle, Hobj="q", SD=sd)]


@rule(topic=OneOf(("Sports/Football", "Sports/Golf", "News")), color=OneOf(("red", "blue", None)),
      size=OneOf((3, 20, None)), copy=OneOf(COPY_OPTIONS), retain=OneOf((False, False, True)), put1_=BOOL, weight=4)
def publish_with_properties(topic, color, size, copy, retain, put1_):
    calls = [_call("crtmh", hmsg="pm")]
    if color is not None:
        calls.append(_setmp("pm", "Color", "MQTYPE_STRING", color, **({"PD": {"CopyOptions": copy}} if copy else {})))
    if size is not None:
        calls.append(_setmp("pm", "size", "MQTYPE_INT32", size))
    pmo = {"Options": ["MQPMO_RETAIN"] if retain else []}
    if put1_:
        return calls + [_call("put1", ObjectString=topic, PMO=pmo, data=topic, OriginalMsgHandle="pm")]
    return calls + [_call("open", handle="p", ObjectString=topic, Options=["MQOO_OUTPUT"]),
                    _call("put", handle="p", PMO=pmo, data=topic, OriginalMsgHandle="pm"), _call("close", handle="p")]


@rule(option=OneOf((None, None, "MQGMO_PROPERTIES_IN_HANDLE", "MQGMO_PROPERTIES_FORCE_MQRFH2")), into=BOOL,
      inquired=SomeOf(PUBLICATION_PROPERTIES, 3), weight=4)
def get_publication_properties(option, into, inquired):
    get = _get([option] if option else [], handle="q", **({"MsgHandle": "g"} if into else {}))
    return [get] + [_call("inqmp", hmsg="g", Name=name) for name in inquired]


@rule(handle=OneOf(("ps1", "ps2")))
def request_retained_properties(handle):
    return [_call("subrq", handle=handle)]


PUBSUB_PROPERTIES = Area(
    "pubsub-properties", "Publish/subscribe with message properties: subscriptions selecting by properties and "
    "carrying user data, publications whose properties travel as their copy options say, publications got into a "
    "message handle and their publish/subscribe properties inquired", frozenset({"core", "pubsub", "properties"}),
    ({"op": "define_queue", **QUEUE}, _open("q", ["MQOO_INPUT_SHARED"]), _call("crtmh", hmsg="g"),
     _call("sub", handle="ps1", Hobj="q", SD={"Options": ["MQSO_CREATE"], "ObjectString": "Sports/#",
                                             "SubUserData": "fan"}),
     _call("sub", handle="ps2", Hobj="q", SD={"Options": ["MQSO_CREATE"], "ObjectString": "News",
                                             "SelectionString": "size > 5"})),
    (subscribe_selecting, publish_with_properties, get_publication_properties, request_retained_properties),
    ("properties.folders",), clauses=("publish.properties", "sub.selection", "properties.pd"))


# -- topic and subscription handles under MQSET and MQCLOSE's delete options ----------------------------------------

@rule(string=OneOf(("Sports", "News")), attribute=OneOf(("MQIA_INHIBIT_PUT", "MQIA_INHIBIT_GET")))
def set_topic_handle(string, attribute):
    return [_call("close", handle="t"), _call("open", handle="t", ObjectString=string, Options=["MQOO_OUTPUT"]),
            _call("set", handle="t", Selectors=[attribute], IntAttrs=[1])]


@rule(handle=OneOf(("t", "s")), option=OneOf(("MQCO_DELETE", "MQCO_DELETE_PURGE")))
def close_deleting(handle, option):
    reopen = _call("open", handle="t", ObjectString="Sports", Options=["MQOO_OUTPUT"]) if handle == "t" else \
        _call("sub", handle="s", Hobj="q", SD={"Options": ["MQSO_CREATE"], "ObjectString": "Sports/#"})
    return [_call("close", handle=handle, Options=[option]), _call("close", handle=handle), reopen]


TOPIC_HANDLES = Area(
    "topic-handles", "Topic and subscription handles given to MQSET and to MQCLOSE with a delete option, which "
    "neither takes", frozenset({"core", "pubsub", "set", "dynamic-queues"}),
    ({"op": "define_queue", **QUEUE}, _open("q", ["MQOO_INPUT_SHARED"]),
     _call("open", handle="t", ObjectString="Sports", Options=["MQOO_OUTPUT"]),
     _call("sub", handle="s", Hobj="q", SD={"Options": ["MQSO_CREATE"], "ObjectString": "Sports/#"})),
    (set_topic_handle, close_deleting), clauses=("topic.set", "topic.close", "sub.close.no-delete"))


# -- distributed queuing ------------------------------------------------------------------------------------
# Three queue managers in a line: QM1 sends to QM2's TARGET directly, to QM3's through QM2 (a queue-manager alias
# on QM1, QM2's own channel on), and to a queue QM2 does not have; channels start, stop and retry; QM2's TARGET is
# put-inhibited and allowed; channels transmit some or all; consumers get; depths, channel status and the
# dead-letter queues show where everything went (reference/distributed.py, reference/channels.py).

LINE_CHANNELS = ("QM1.QM2", "QM2.QM3")
# Where a put1 from QM1 goes: through a channel to QM2 or QM3, to a queue QM2 lacks, through remote definitions
# (one put-inhibited, one naming QM1 itself), through a queue-manager alias to QM1, a remote definition's name
# used as a queue manager's, a queue manager no definition names (the default transmission queue, if any), and a
# queue QM3 lacks (QM3 names a dead-letter queue it does not have). Not a model queue's name as a queue manager's
# (distributed.resolve.qmgr-name-model-queue): a model queue needs the capability dynamic-queues, which a claim of
# distributed queuing does not include.
ROUTES = {"two": ("TARGET", "QM2"), "three": ("TARGET", "QM3"), "nowhere": ("NO.SUCH.QUEUE", "QM2"),
          "remote": ("RQ", ""), "remote-inhibited": ("RQX", ""), "back-home": ("BACK.HOME", ""),
          "alias-home": ("HOME", "OLD.NAME.QM1"), "definition-as-qmgr": ("TARGET", "RQ"), "far": ("FAR.QUEUE", "QM9"),
          "unrouted": ("FAR.QUEUE", "QM4"), "nowhere-three": ("NO.SUCH.QUEUE", "QM3")}


@rule(route=OneOf(tuple(ROUTES)), priority=OneOf((2, 7, "MQPRI_PRIORITY_AS_Q_DEF")), persistent=BOOL,
      report=OneOf(((), (), ("MQRO_COA",), ("MQRO_DISCARD_MSG", "MQRO_EXCEPTION"))),
      syncpoint=OneOf((False, False, True)), reply=OneOf(("REPLY", "REPLY", "MY.ANSWERS")),
      expiry=OneOf((None, None, None, 10)), weight=5)
def remote_put(route, priority, persistent, report, syncpoint, reply, expiry):
    queue, qmgr = ROUTES[route]
    md = {"Priority": priority, "Persistence": PERSISTENCE[not persistent], "Report": list(report), "ReplyToQ": reply}
    if reply != "REPLY":
        md["MsgType"] = "MQMT_REQUEST"  # a request's reply-to queue alias is resolved at the put
    if expiry is not None:
        md["Expiry"] = expiry
    return [_call("put1", queue=queue, **({"ObjectQMgrName": qmgr} if qmgr else {}),
                  PMO={"Options": ["MQPMO_SYNCPOINT"] if syncpoint else []}, MD=md, data=route)]


# Opens a remote definition, a queue of another queue manager and a queue-manager alias refuse, or allow.
REMOTE_OPENS = {"definition-for-input": ("RQ", "", ["MQOO_INPUT_SHARED"]),
                "definition-for-browse": ("RQ", "", ["MQOO_BROWSE"]),
                "inquire-remote-queue": ("TARGET", "QM2", ["MQOO_INQUIRE"]),
                "alias-as-queue": ("QM3", "", ["MQOO_OUTPUT"]),
                "unknown-qmgr": ("FAR.QUEUE", "QM9", ["MQOO_OUTPUT"]),
                "unrouted-qmgr": ("FAR.QUEUE", "QM4", ["MQOO_OUTPUT"]),
                "definition-for-output": ("RQ", "", ["MQOO_OUTPUT", "MQOO_INQUIRE"])}
REMOTE_SELECTORS = ["MQIA_Q_TYPE", "MQCA_Q_NAME", "MQCA_REMOTE_Q_NAME", "MQCA_REMOTE_Q_MGR_NAME", "MQCA_XMIT_Q_NAME",
                    "MQIA_DEF_PRIORITY"]


@rule(kind=OneOf(tuple(REMOTE_OPENS)), weight=2)
def open_remote(kind):
    queue, qmgr, options = REMOTE_OPENS[kind]
    calls = _reopen("o", options, queue, **({"ObjectQMgrName": qmgr} if qmgr else {}))
    if "MQOO_INQUIRE" in options:
        calls.append(_call("inquire", handle="o", Selectors=REMOTE_SELECTORS))
    return calls


@rule(queue=OneOf(("", "", "QM2", "PLAIN", "NO.SUCH.XMITQ")))
def default_transmission_queue(queue):
    return [_call("define_qmgr", name="QM1", DefXmitQName=queue)]


@rule(queue=OneOf(("DLQ", "DLQ", "")))
def dead_letter_queue(queue):
    """QM2's dead-letter queue named, or none: an undeliverable message then stops its channel unless it is
    non-persistent on a fast channel."""
    return [_call("define_qmgr", name="QM2", DeadLetterQName=queue)]


@rule(milliseconds=OneOf((500, 2000)))
def distributed_clock(milliseconds):
    return [_call("advance_clock", milliseconds=milliseconds)]


@rule(channel=OneOf(LINE_CHANNELS), state=OneOf(("start", "start", "MQCHS_STOPPED", "MQCHS_INACTIVE",
                                                   "MQCHS_RETRYING")), weight=2)
def channel_state(channel, state):
    if state == "start":
        return [_call("start_channel", name=channel)]
    return [_call("stop_channel", name=channel, STATUS=state)]


@rule(channel=OneOf(LINE_CHANNELS + ("QM2.QM1",)), count=OneOf((None, None, 1, 2)), weight=4)
def transmit(channel, count):
    return [_call("transmit", channel=channel, **({} if count is None else {"count": count})),
            _call("channel_status", name=channel)]


@rule(inhibited=BOOL)
def inhibit_destination(inhibited):
    return [_call("alter_queue", qmgr="QM2", name="TARGET",
                  InhibitPut="MQQA_PUT_INHIBITED" if inhibited else "MQQA_PUT_ALLOWED")]


@rule(where=OneOf(("t2", "t3", "d2", "r1")), weight=3)
def distributed_consume(where):
    return [_get(handle=where)]


@rule(commit=BOOL)
def distributed_end_unit(commit):
    return _end_unit_of_work(commit)


@rule()
def distributed_depths():
    return [_call("inquire", handle=h, Selectors=["MQIA_CURRENT_Q_DEPTH"]) for h in ("x2", "x3")]


DISTRIBUTED_SETUP: tuple[dict[str, Any], ...] = (
    *[_call("define_qmgr", name=q, DeadLetterQName="DLQ") for q in ("QM1", "QM2", "QM3")],
    _call("define_queue", name="DLQ", qmgr="QM2"), _call("define_queue", name="REPLY", qmgr="QM1"),
    _call("define_queue", name="QM2", qmgr="QM1", Usage="MQUS_TRANSMISSION"),
    _call("define_queue", name="QM3", qmgr="QM2", Usage="MQUS_TRANSMISSION"),
    _call("define_queue", name="QM1", qmgr="QM2", Usage="MQUS_TRANSMISSION"),
    _call("define_queue", name="TARGET", qmgr="QM2"), _call("define_queue", name="TARGET", qmgr="QM3"),
    _call("define_qremote", name="QM3", qmgr="QM1", RemoteQMgrName="QM3", XmitQName="QM2"),
    _call("define_qremote", name="RQ", qmgr="QM1", RemoteQName="TARGET", RemoteQMgrName="QM2", DefPriority=4),
    _call("define_qremote", name="RQX", qmgr="QM1", RemoteQName="TARGET", RemoteQMgrName="QM2",
          InhibitPut="MQQA_PUT_INHIBITED"),
    _call("define_queue", name="HOME", qmgr="QM1"), _call("define_queue", name="PLAIN", qmgr="QM1"),
    _call("define_qremote", name="BACK.HOME", qmgr="QM1", RemoteQName="HOME", RemoteQMgrName="QM1"),
    _call("define_qremote", name="OLD.NAME.QM1", qmgr="QM1", RemoteQMgrName="QM1"),
    _call("define_qremote", name="MY.ANSWERS", qmgr="QM1", RemoteQName="REPLY", RemoteQMgrName="QM1.CLASS2"),
    _call("define_sender", name="QM1.QM2", qmgr="QM1", CONNAME="QM2", XMITQ="QM2", MRRTY=1),
    _call("define_sender", name="QM2.QM3", qmgr="QM2", CONNAME="QM3", XMITQ="QM3", NPMSPEED="MQNPMS_NORMAL"),
    _call("define_sender", name="QM2.QM1", qmgr="QM2", CONNAME="QM1", XMITQ="QM1"),
    *[_call("start_channel", name=c) for c in LINE_CHANNELS + ("QM2.QM1",)],
    _call("connect", connection="on-QM2", qmgr="QM2"), _call("connect", connection="on-QM3", qmgr="QM3"),
    _open("t2", ["MQOO_INPUT_SHARED"], "TARGET", connection="on-QM2"),
    _open("d2", ["MQOO_INPUT_SHARED"], "DLQ", connection="on-QM2"),
    _open("t3", ["MQOO_INPUT_SHARED"], "TARGET", connection="on-QM3"),
    _open("r1", ["MQOO_INPUT_SHARED"], "REPLY"),
    _open("x2", ["MQOO_INQUIRE"], "QM2"), _open("x3", ["MQOO_INQUIRE"], "QM3", connection="on-QM2"),
    _open("o", ["MQOO_OUTPUT"], "RQ"),
    _call("define_qmgr", name="QM4"),  # a queue manager no channel or definition leads to
)

DISTRIBUTED = Area(
    "distributed", "Three queue managers joined by sender/receiver channels: remote queue definitions, a "
    "queue-manager alias, channels started, stopped and retrying, message retry, the dead-letter queue and reports "
    "travelling back", frozenset({"core", "distributed", "cluster", "reports", "units-of-work"}), DISTRIBUTED_SETUP,
    (remote_put, channel_state, transmit, inhibit_destination, distributed_consume, distributed_end_unit,
     distributed_depths, open_remote, default_transmission_queue, dead_letter_queue, distributed_clock),
    clauses=("distributed",))


# -- message properties --------------------------------------------------------------------------------------
# Message handles (crtmh, dltmh) of the connection and one of another connection ("x"), properties of every type set,
# inquired (wildcards, MQIMPO_INQ_NEXT, conversions, short buffers) and deleted under names IBM allows and refuses,
# the descriptor's fields as Root.MQMD.* properties, puts carrying a handle's properties and gets returning them as
# each GMO property option and each queue's PropertyControl decide (reference/properties.py).

def unknown_bit(family: str) -> int:
    """The highest option bit no constant of ``family`` names: an option MQ does not know (a high one, away from
    the bits IBM leaves between its options)."""
    named = constants.NAMED_BITS[family]
    return next(1 << bit for bit in range(30, 0, -1) if not named & (1 << bit))


PROPERTY_TYPES = tuple(sorted(n for n in constants.VALUES if n.startswith("MQTYPE_")
                              and n not in ("MQTYPE_AS_SET", "MQTYPE_LONG")))
# For each type: values it holds, one beyond its range, and one of another kind (None: none the call language has).
TYPE_VALUES: dict[str, tuple[tuple, Any, Any]] = {
    "MQTYPE_BOOLEAN": ((True, False), None, 1),
    "MQTYPE_BYTE_STRING": (({"hex": "00ff"}, "ab"), None, None),  # anything else is no byte string of the language
    "MQTYPE_INT8": ((-128, 127, 5), 128, "x"),
    "MQTYPE_INT16": ((300, -32768), 40000, True),
    "MQTYPE_INT32": ((3, 20, 70000), 1 << 31, 2.5),
    "MQTYPE_INT64": ((1 << 40, -7), 1 << 63, "7"),
    "MQTYPE_FLOAT32": ((1.5, 0.1, 3), 1e39, "1.5"),
    "MQTYPE_FLOAT64": ((2.5, 1e300), None, False),
    "MQTYPE_STRING": (("red", "123", "TRUE", "2.5", "abc"), None, 5),
    "MQTYPE_NULL": ((None,), None, 0),
}
# Names IBM allows (a usr. prefix, groups, a settable JMS name, mq_usr with dots), names it refuses, one per
# rule of "Property name restrictions", and message descriptor fields by their Root.MQMD names.
ALLOWED_NAMES = ("p1", "p2", "Color", "size", "usr.p1", "a.b", "a.b.c", "mq_usr.x.y", "JMSType", "other.x")
REFUSED_NAMES = ("", "1bad", "a..b", "bad-name", "AND", "usr.JMSX", "JMSXAppID", "Body.x", "Root.x", "mq.x.y")
DESCRIPTOR_NAMES = {"Root.MQMD.Priority": "MQTYPE_INT32", "Root.MQMD.Format": "MQTYPE_STRING",
                    "Root.MQMD.CorrelId": "MQTYPE_BYTE_STRING", "Root.MQMD.StrucId": "MQTYPE_STRING",
                    "Root.MQMD.NoSuch": "MQTYPE_INT32"}
TOO_LONG_NAME = "n" * 4096  # one more than MQ_MAX_PROPERTY_NAME_LENGTH
INQUIRED_NAMES = ("p1", "Color", "a.b", "size", "%", "a.%", "p%", "a%b", "nosuch", "", "Root.MQMD.Priority",
                  "Root.MQMD.Format", "Root.MQMD.NoSuch")
HMSGS = ("m1", "m2", "g", "x")  # x: made by the other connection
# Queue handles by PropertyControl: COMPATIBILITY (the default), ALL, NONE and FORCE_MQRFH2.
PROPERTY_QUEUES = {"q": ("Q1", None), "qa": ("QA", "MQPROP_ALL"), "qn": ("QN", "MQPROP_NONE"),
                   "qf": ("QF", "MQPROP_FORCE_MQRFH2")}
GMO_PROPERTY_OPTIONS = ("MQGMO_PROPERTIES_IN_HANDLE", "MQGMO_NO_PROPERTIES", "MQGMO_PROPERTIES_FORCE_MQRFH2",
                        "MQGMO_PROPERTIES_COMPATIBILITY")


def _property_value(type_name: str, kind: str, rng_index: int) -> Any:
    fitting, beyond, wrong = TYPE_VALUES[type_name]
    if kind == "beyond" and beyond is not None:
        return beyond
    if kind == "wrong" and wrong is not None:
        return wrong
    return fitting[rng_index % len(fitting)]


def _setmp(hmsg: str, name: str, type_name: str, value: Any, **more: Any) -> dict[str, Any]:
    return _call("setmp", hmsg=hmsg, Name=name, Type=type_name, Value=value, **more)


@rule(hmsg=OneOf(("m1", "m1", "m2", "g")), options=OneOf(([], [], ["MQCMHO_NO_VALIDATION"], ["MQCMHO_VALIDATE"],
      ["MQCMHO_VALIDATE", "MQCMHO_NO_VALIDATION"], "unknown")))
def create_handle(hmsg, options):
    return [_call("crtmh", hmsg=hmsg, Options=unknown_bit("MQCMHO") if options == "unknown" else list(options))]


@rule(hmsg=OneOf(HMSGS + ("never",)))
def delete_handle(hmsg):
    return [_call("dltmh", hmsg=hmsg)]


@rule(hmsg=OneOf(HMSGS), name=OneOf(ALLOWED_NAMES * 3 + REFUSED_NAMES + tuple(DESCRIPTOR_NAMES) + (TOO_LONG_NAME,)),
      type_=OneOf(PROPERTY_TYPES + ("MQTYPE_AS_SET",)), kind=OneOf(("fits",) * 6 + ("beyond", "wrong")),
      index=Between(0, 4), options=OneOf(([],) * 12 + ("unknown",)), weight=6)
def set_property(hmsg, name, type_, kind, index, options):
    if name in DESCRIPTOR_NAMES and index < 3:
        type_ = DESCRIPTOR_NAMES[name]  # mostly the field's own type; else a wrong one
    value = _property_value(type_, kind, index) if type_ in TYPE_VALUES else 1
    more = {"Options": unknown_bit("MQSMPO")} if options == "unknown" else {}
    return [_setmp(hmsg, name, type_, value, **more)]


@rule(hmsg=OneOf(HMSGS), name=OneOf(INQUIRED_NAMES), type_=OneOf(("MQTYPE_AS_SET",) * 6 + PROPERTY_TYPES),
      options=OneOf(([], [], ["MQIMPO_INQ_NEXT"], ["MQIMPO_INQ_NEXT"], ["MQIMPO_CONVERT_TYPE"],
                     ["MQIMPO_CONVERT_TYPE", "MQIMPO_INQ_NEXT"], ["MQIMPO_CONVERT_VALUE"], ["MQIMPO_QUERY_LENGTH"],
                     "unknown")),
      value_length=OneOf((None,) * 6 + (0, 2)), name_length=OneOf((None,) * 6 + (1,)), weight=5)
def inquire_property(hmsg, name, type_, options, value_length, name_length):
    more: dict[str, Any] = {"Options": unknown_bit("MQIMPO") if options == "unknown" else list(options)}
    if type_ != "MQTYPE_AS_SET":
        more["Type"] = type_
    if value_length is not None:
        more["ValueLength"] = value_length
    if name_length is not None:
        more["ReturnedNameLength"] = name_length
    return [_call("inqmp", hmsg=hmsg, Name=name, **more)]


@rule(hmsg=OneOf(HMSGS), name=OneOf(("p1", "Color", "a.b", "usr.p1", "nosuch", "p%", "", "Root.MQMD.Priority")),
      options=OneOf(([], [], [], "unknown")), weight=2)
def delete_property(hmsg, name, options):
    return [_call("dltmp", hmsg=hmsg, Name=name,
                  **({"Options": unknown_bit("MQDMPO")} if options == "unknown" else {}))]


@rule(handle=OneOf(tuple(PROPERTY_QUEUES)), original=OneOf((None, "m1", "m1", "m2", "x")),
      new=OneOf((None, None, None, "m2", "g")), action=OneOf((None,) * 6 + ("MQACTP_NEW", 99)), put1_=OneOf(
      (False, False, True)), data=OneOf(("body", "xy")), weight=5)
def put_with_handles(handle, original, new, action, put1_, data):
    more: dict[str, Any] = {}
    for key, hmsg in (("OriginalMsgHandle", original), ("NewMsgHandle", new)):
        if hmsg is not None:
            more[key] = hmsg
    if action is not None:
        more["Action"] = action
    if put1_:
        return [_call("put1", queue=PROPERTY_QUEUES[handle][0], data=data, **more)]
    return [_call("put", handle=handle, data=data, **more)]


@rule(handle=OneOf(tuple(PROPERTY_QUEUES)), hmsg=OneOf((None, "g", "g", "m1", "x")),
      option=OneOf((None, None) + GMO_PROPERTY_OPTIONS), browse_=OneOf((False, False, True)),
      buffer=OneOf((None, None, None, 2)), weight=5)
def get_with_handle(handle, hmsg, option, browse_, buffer):
    options = ([option] if option else []) + (["MQGMO_BROWSE_FIRST"] if browse_ else [])
    more: dict[str, Any] = {"MsgHandle": hmsg} if hmsg else {}
    if buffer is not None:
        more["BufferLength"] = buffer
    return [_get(options, handle=handle, **more)]


PROPERTIES_SETUP: tuple[dict[str, Any], ...] = (
    *[_call("define_queue", name=queue, **({"PropertyControl": control} if control else {}))
      for queue, control in PROPERTY_QUEUES.values()],
    *[_open(handle, HANDLE_OPTIONS, queue) for handle, (queue, _) in PROPERTY_QUEUES.items()],
    _call("crtmh", hmsg="m1"), _call("crtmh", hmsg="m2"), _call("crtmh", hmsg="g"),
    _call("connect", connection="c2"), _call("crtmh", hmsg="x", connection="c2"),
)

PROPERTIES = Area(
    "properties", "Message properties: handles made and deleted (also another connection's), properties of every "
    "type set, inquired and deleted under allowed and refused names, the descriptor's fields, puts carrying a "
    "handle's properties and gets returning them as the GMO option and the queue's PropertyControl decide",
    frozenset({"core", "properties"}), PROPERTIES_SETUP,
    (create_handle, delete_handle, set_property, inquire_property, delete_property, put_with_handles,
     get_with_handle),
    ("properties.types", "properties.conversions", "properties.get"), clauses=("properties",))


# -- selection --------------------------------------------------------------------------------------------------
# Messages with a few properties and descriptor fields, handles opened with selectors drawn from the selector
# grammar (every operator, literal kind, header name; text that is no selector, always false, blank, too long) and
# gets through them (reference/selection.py).

SELECTABLE = (("Color", "MQTYPE_STRING", "red"), ("Color", "MQTYPE_STRING", "blue"), ("size", "MQTYPE_INT32", 3),
              ("size", "MQTYPE_INT32", 20), ("price", "MQTYPE_FLOAT64", 2.5), ("flag", "MQTYPE_BOOLEAN", True),
              ("code", "MQTYPE_INT64", 16), ("note", "MQTYPE_STRING", "it's"))


def header_names() -> tuple[str, ...]:
    """The JMS and Root.MQMD names a selector may test (fixtures/tables/selector-headers.yaml)."""
    return tuple(row.when["name"] for row in default_spec()["selection.headers"].rows)


OPERANDS = ("Color", "size", "price", "flag", "code", "missing", "note")
ARITHMETIC = ("{a} + 1", "{a} * 2 - price", "-{a}", "+{a} / 2", "({a} - 1) * 3")
# A predicate's shape, with {a} an operand and {l} a literal.
PREDICATES = ("{a} = {l}", "{a} <> {l}", "{a} < {l}", "{a} >= {l}", "{a} > {l}", "{a} <= {l}",
              "{a} BETWEEN 2 AND 10", "{a} NOT BETWEEN 2 AND 10", "{a} IN ('red', 'blue')", "{a} NOT IN ('red')",
              "{a} LIKE 'r_%'", "{a} NOT LIKE '%e'", "{a} LIKE 'r!_%' ESCAPE '!'", "{a} IS NULL",
              "{a} IS NOT NULL", "{a}")
# String literals of another case than the values put ('Red'), so that string comparison is seen to be exact.
LITERALS = ("'red'", "'Red'", "3", "2.5", "0x10", "020", "TRUE", "FALSE", "1e1", "'it''s'", "20L", "2.5f")
JOINERS = ("", "", " AND ", " OR ", " and ", " AND NOT ")
# Text that is no selector, one FALSE whatever a message holds, a blank one, and one too long to be read.
BAD_SELECTORS = ("Color = ", "(size > 1", "Color = 'red", "\"red\" = Color", "size = 09", "AND = 1", "1 = 2",
                 "FALSE", "   ", "size > 1 " + " " * 10240)


def _predicate(shape: str, operand: str, literal: str, arithmetic: str | None) -> str:
    if arithmetic is not None and operand not in ("Color", "note", "flag"):
        operand = arithmetic.format(a=operand)
    return shape.format(a=operand, l=literal)


@rule(chosen=SomeOf(SELECTABLE, 3), priority=OneOf((0, 4, 9)), persistence=OneOf(PERSISTENCE), weight=4)
def put_selectable(chosen, priority, persistence):
    calls = [_call("crtmh", hmsg="m")] + [_setmp("m", n, t, v) for n, t, v in chosen]
    md = {"Priority": priority, "Persistence": persistence, "ReplyToQ": "REPLYQ"}
    return calls + [_call("put", handle="q", MD=md, data="-".join(str(v) for _, _, v in chosen) or "none",
                          OriginalMsgHandle="m")]


@rule(shape=OneOf(PREDICATES), operand=OneOf(OPERANDS * 2 + header_names()), literal=OneOf(LITERALS),
      arithmetic=OneOf((None, None, None) + ARITHMETIC), joiner=OneOf(JOINERS), second=OneOf(PREDICATES),
      other=OneOf(OPERANDS), literal2=OneOf(LITERALS), parenthesised=BOOL,
      access=OneOf((["MQOO_INPUT_SHARED"], ["MQOO_INPUT_SHARED", "MQOO_BROWSE"], ["MQOO_BROWSE"],
                    ["MQOO_INPUT_SHARED"], ["MQOO_OUTPUT"])), weight=4)
def open_selecting(shape, operand, literal, arithmetic, joiner, second, other, literal2, parenthesised, access):
    text = _predicate(shape, operand, literal, arithmetic)
    if joiner:
        more = _predicate(second, other, literal2, None)
        text = f"({text}){joiner}{more}" if parenthesised else f"{text}{joiner}{more}"
    return _reopen("s", access, SelectionString=text)


@rule(text=OneOf(BAD_SELECTORS), access=OneOf((["MQOO_INPUT_SHARED"], ["MQOO_BROWSE"])))
def open_bad_selector(text, access):
    return [_open("b", access, SelectionString=text)]


@rule(handle=OneOf(("s", "s", "s", "q")), browse_=OneOf((False, False, True)), weight=4)
def get_selected(handle, browse_):
    return [_get(["MQGMO_BROWSE_NEXT"] if browse_ else [], handle=handle)]


SELECTION = Area(
    "selection", "Selection by message properties and descriptor fields: selectors drawn from the grammar (every "
    "operator, literal kind and header name, text that is no selector, always false, blank or too long), gets and "
    "browses through them", frozenset({"core", "properties"}),
    ({"op": "define_queue", **QUEUE}, _open("q", ALL_ACCESS), _open("s", ["MQOO_INPUT_SHARED", "MQOO_BROWSE"],
                                                                   SelectionString="size > 0")),
    (put_selectable, open_selecting, open_bad_selector, get_selected),
    ("selection.headers",), clauses=("selection",))


AREAS: dict[str, Area] = {a.name: a for a in (GROUPS, SEGMENTATION, BROWSE_MARK, OPTIONS, MATCHING, UNITS_OF_WORK,
                                              QUEUES, DYNAMIC, SET, ALIAS, EXPIRY, REPORTS, CLUSTER, PUBSUB,
                                              DISTRIBUTED, PROPERTIES, SELECTION,
                                              PUBSUB_PROPERTIES, TOPIC_HANDLES)}


# -- table-directed generation ------------------------------------------------------------------------------
# The facts a table's `when` speaks of, each as what the steered calls do to make it hold. For the Table 1 put
# rows: the put's own options and flags, and the logical-order put before it that leaves a group or a logical
# message open.

def _yes(value: Any, rng: random.Random) -> bool:
    if value == EITHER:
        return rng.random() < 0.5
    return value in (True, "yes")


def _group(in_group: bool, rng: random.Random) -> list[str]:
    return GROUP_FLAGS[rng.choice(("in", "last"))] if in_group else []


def _segment(segment: bool, rng: random.Random) -> list[str]:
    return SEGMENT_FLAGS[rng.choice(("in", "last"))] if segment else []


def _opening_put(group: bool, logical_message: bool, persistent: bool = False, syncpoint: bool = False) -> list:
    """A logical-order put that leaves a group and/or a logical message unterminated on handle h."""
    if not (group or logical_message):
        return []
    flags = (GROUP_FLAGS["in"] if group else []) + (SEGMENT_FLAGS["in"] if logical_message else [])
    return [_put(True, syncpoint, flags, persistent, "o")]


def _table1(row, rng: random.Random) -> list[dict[str, Any]]:
    when = row.when
    current_group, current_message = _yes(when["current_group"], rng), _yes(when["current_logical_message"], rng)
    flags = _group(_yes(when["in_group"], rng), rng) + _segment(_yes(when["segment"], rng), rng)
    if _yes(when["segmentation_allowed"], rng):
        flags.append(MF["SEGMENTATION_ALLOWED"])
    return _opening_put(current_group, current_message) + [_put(_yes(when["logical_order"], rng), flags=flags)]


def _consistency(row, rng: random.Random) -> list[dict[str, Any]]:
    when = row.when
    group, message = _yes(when.get("current_group", "no"), rng), _yes(when.get("current_logical_message", "no"), rng)
    persistent, syncpoint = rng.random() < 0.5, rng.random() < 0.5
    calls = _opening_put(group, message, persistent, syncpoint)
    if _yes(when.get("closing", "no"), rng):
        return calls + [_call("close", handle="h"), _open("h", HANDLE_OPTIONS)]
    in_group = when.get("in_group", "yes" if group else EITHER)
    segment = when.get("segment", "yes" if message else EITHER)
    flags = _group(_yes(in_group, rng), rng) + _segment(_yes(segment, rng), rng)
    if _yes(when.get("group_flags_changed", "no"), rng):
        flags = [f for f in flags if f not in GROUP_FLAGS["in"] + GROUP_FLAGS["last"]] + \
            ([] if group else GROUP_FLAGS["in"])
    if _yes(when.get("persistence_differs", "no"), rng):
        persistent = not persistent
    if _yes(when.get("syncpoint_differs", "no"), rng):
        syncpoint = not syncpoint
    logical = not _yes(when.get("left_logical_order", "no"), rng)
    return calls + [_put(logical, syncpoint, flags, persistent, "c")]


def _close_outcome(row, rng: random.Random) -> list[dict[str, Any]]:
    when = row.when
    previous_logical = _yes(when["previous_logical_order"], rng)
    opening = [_put(previous_logical, flags=GROUP_FLAGS["in"] + _segment(rng.random() < 0.5, rng), data="o")]
    call = when["call"]
    if call == "MQCLOSE":
        return opening + [_call("close", handle="h"), _open("h", HANDLE_OPTIONS)]
    logical = "without" not in call
    return opening + [_put(logical, flags=_group(rng.random() < 0.7, rng) + _segment(rng.random() < 0.3, rng))]


STATUS_GROUP = {"MQGS_NOT_IN_GROUP": "none", "MQGS_MSG_IN_GROUP": "in", "MQGS_LAST_MSG_IN_GROUP": "last"}
STATUS_SEGMENT = {"MQSS_NOT_A_SEGMENT": "none", "MQSS_SEGMENT": "in", "MQSS_LAST_SEGMENT": "last"}


def _logical_get(row, rng: random.Random) -> list[dict[str, Any]]:
    """Messages whose first has the previous statuses the row needs, then logical-order gets through them."""
    group, segment = STATUS_GROUP[row.when["previous_group_status"]], STATUS_SEGMENT[row.when["previous_segment_status"]]
    first = GROUP_FLAGS[group] + SEGMENT_FLAGS[segment]
    puts = [_put(True, flags=first, data="f")]
    if segment == "in":
        puts.append(_put(True, flags=GROUP_FLAGS[group] + SEGMENT_FLAGS["last"], data="s"))
    if group == "in":
        puts.append(_put(True, flags=GROUP_FLAGS["last"], data="g"))
    puts.append(_put(True, data="n"))
    return puts + [_get(["MQGMO_LOGICAL_ORDER"]) for _ in range(len(puts) + 1)]


def _option_rule_recipe(table: OptionRules, row, rng: random.Random) -> list[dict[str, Any]] | None:
    """Options that break ``row`` first (checked with the model's own reading of the rules), as a call."""
    options = _breaking_options(table, row, rng)
    if options is None:
        return None
    if table.family == "MQOO":
        return [_open("t", options)]
    if table.family == "MQPMO":
        if "MQPUT1" in row.calls:
            return [_call("put1", queue="Q1", PMO={"Options": options}, data="o")]
        return [_call("put", handle="h", PMO={"Options": options}, data="o")]
    if table.family == "MQSO":
        destination = "mx" if "MQSO_MANAGED" in options else "q"
        return [_call("close", handle="sx"), _call("sub", handle="sx", Hobj=destination, SD={
            "Options": options, "ObjectString": "Sports/#", "SubName": "SX", "SubCorrelId": "sx"})]
    return [_put(data="b"), _get(options)]


def _breaking_options(table: OptionRules, row, rng: random.Random) -> list[str] | None:
    family = table.family
    verb = {"MQOO": "MQOPEN", "MQPMO": "MQPUT", "MQGMO": "MQGET", "MQSO": "MQSUB"}[family]
    if row.calls:
        verb = row.calls[0]
    nonzero = [n for n in constants.FLAGS[family]]
    candidates = []
    for _ in range(24):
        chosen: list[str] = []
        if row.at_most_one:
            members = [n for n in row.at_most_one if n in nonzero]
            if len(members) < 2:
                return None
            chosen += rng.sample(members, 2)
        if row.at_least_one:
            chosen += [rng.choice([n for n in nonzero if n not in row.at_least_one])]
        if row.if_any:
            members = [n for n in row.if_any if n in nonzero]
            if not members:
                return None
            chosen.append(rng.choice(members))
        if row.forbidden:
            chosen.append(rng.choice([n for n in row.forbidden if n in nonzero]))
        if verb == "MQGET-BROWSE" and not any(n.startswith("MQGMO_BROWSE") for n in chosen):
            chosen.append(rng.choice(["MQGMO_BROWSE_FIRST", "MQGMO_BROWSE_NEXT"]))
        # what the earlier rules need to hold: an access option for MQOPEN, a browse option for a mark...
        mine = set(row.requires_one_of) | set(row.at_most_one) | set(row.forbidden)
        for other in table.rows:
            if other.id == row.id:
                break
            needed = other.at_least_one if other.at_least_one else \
                other.requires_one_of if any(n in chosen for n in other.if_any) else ()
            if needed and not any(n in chosen for n in needed):
                fill = [n for n in needed if n in nonzero and n not in mine]
                if fill:
                    chosen.append(rng.choice(fill))
        chosen = list(dict.fromkeys(chosen))
        broken = first_broken(table, constants.options(chosen, family), verb)
        if broken is not None and broken.id == row.id:
            return chosen
        candidates.append(chosen)
    return None


# What makes the destinations differ by each `by` attribute of the cluster workload table (the other attributes
# left equal), so that its elimination step is the one that narrows the choice; then puts that choose.
WORKLOAD_DIFFERENCES: dict[str, list[dict[str, Any]]] = {
    "channel-rank": [_call("define_channel", name="TO.QM4", CLWLRANK=3)],
    "queue-rank": [_call("alter_queue", qmgr="QM4", name="Q3", CLWLRANK=3)],
    "put-enabled": [_call("alter_queue", qmgr="QM4", name="Q3", InhibitPut="MQQA_PUT_INHIBITED")],
    "local-instance": [_call("define_queue", name="Q3", qmgr="QM1", CLUSTER="DEMO", CLWLUSEQ="MQCLWL_USEQ_LOCAL")],
    "not-suspended": [_call("suspend_qmgr", qmgr="QM4")],
    "channel-state": [_call("set_channel", name="TO.QM4", state="MQCHS_RETRYING")],
    "netprty": [_call("define_channel", name="TO.QM2.FAST", qmgr="QM2", NETPRTY=5)],
    "channel-priority": [_call("define_channel", name="TO.QM4", CLWLPRTY=3)],
    "queue-priority": [_call("alter_queue", qmgr="QM4", name="Q3", CLWLPRTY=3)],
    "most-recently-used": [_call("define_qmgr", name="QM1", CLWLMRUC=1)],
    "least-recently-used": [],
}
# The steps after channel priority decide only between channels of equal CLWLPRTY (the set-up makes them differ).
EQUAL_PRIORITY = [_call("define_channel", name="TO.QM2", CLWLPRTY=3)]


def _workload(row, rng: random.Random) -> list[dict[str, Any]] | None:
    difference = WORKLOAD_DIFFERENCES.get(row.then.get("by"))
    if difference is None:
        return None
    handle = rng.choice(("nf", "dq"))
    order = [r.then.get("by") for r in default_spec()["cluster.workload"].rows]
    equal = EQUAL_PRIORITY if order.index(row.then.get("by")) > order.index("channel-priority") else []
    return [dict(c) for c in equal + difference] + [_call("put", handle=handle, data=d) for d in ("w1", "w2", "w3")]


# Message properties and selection: a fresh handle "r" (after the area's set-up), the property the row needs set on
# it, and the call the row decides.

def _one(value: Any, rng: random.Random) -> Any:
    """A value a row's `when` allows: itself, or one of a list."""
    return rng.choice(value) if isinstance(value, list) else value


def _property_type(row, rng: random.Random) -> list[dict[str, Any]]:
    type_ = row.when["type"]
    return [_call("crtmh", hmsg="r"), _setmp("r", "p1", type_, _property_value(type_, "fits", rng.randrange(5))),
            _call("inqmp", hmsg="r", Name="p1")]


# A string each type can read (properties.conversions.from-string), and a value of each type to convert from.
PARSEABLE = {"MQTYPE_BOOLEAN": "TRUE", "MQTYPE_FLOAT32": "2.5", "MQTYPE_FLOAT64": "2.5"}


def _property_conversion(row, rng: random.Random) -> list[dict[str, Any]]:
    have = _one(row.when["from"], rng)
    targets = [t for t in (row.when["to"] if isinstance(row.when["to"], list) else [row.when["to"]]) if t != have]
    wanted = rng.choice(targets)  # the same type is no conversion: the value is returned as set
    value = PARSEABLE.get(wanted, "123") if have == "MQTYPE_STRING" else _property_value(have, "fits", rng.randrange(5))
    return [_call("crtmh", hmsg="r"), _setmp("r", "c", have, value),
            _call("inqmp", hmsg="r", Name="c", Type=wanted, Options=["MQIMPO_CONVERT_TYPE"])]


PROPERTY_CONTROLS = {control or "MQPROP_COMPATIBILITY": handle for handle, (_, control) in PROPERTY_QUEUES.items()}


def _property_get(row, rng: random.Random) -> list[dict[str, Any]] | None:
    """Facts drawn until the table's own lookup decides by ``row`` (a first-match table: earlier rows must not
    match), then a message with a property in a compatibility folder or not, put and got as they say."""
    table = default_spec()["properties.get"]
    options = ("MQGMO_PROPERTIES_AS_Q_DEF",) + GMO_PROPERTY_OPTIONS
    for _ in range(40):
        facts = {"option": _one(row.when.get("option", list(options)), rng),
                 "property_control": _one(row.when.get("property_control", list(PROPERTY_CONTROLS)), rng),
                 "handle": rng.random() < 0.5, "compat_folder": rng.random() < 0.5}
        if facts["property_control"] not in PROPERTY_CONTROLS:
            return None
        if table.lookup(**facts) is row:
            break
    else:
        return None
    queue = PROPERTY_CONTROLS[facts["property_control"]]
    option = facts["option"]
    get = _get([] if option == "MQGMO_PROPERTIES_AS_Q_DEF" else [option], handle=queue,
               **({"MsgHandle": "g"} if facts["handle"] else {}))
    return [_call("crtmh", hmsg="r"), _setmp("r", "p1" if facts["compat_folder"] else "other.x", "MQTYPE_INT32", 1),
            _call("put", handle=queue, data="body", OriginalMsgHandle="r"), get]


# A value of each descriptor field's kind a selector compares with; the selection recipe puts a message and reads
# it through a selector naming the row's header.
def _selection_header(row, rng: random.Random) -> list[dict[str, Any]]:
    name = row.when["name"]
    text = rng.choice((f"{name} IS NOT NULL", f"{name} IS NULL", f"{name} = 0", f"{name} <> 'x'"))
    chosen = [SELECTABLE[rng.randrange(len(SELECTABLE))]]
    return put_selectable.build(chosen, rng.choice((0, 4)), rng.choice(PERSISTENCE)) + \
        _reopen("s", ["MQOO_INPUT_SHARED", "MQOO_BROWSE"], SelectionString=text) + [_get(handle="s")]


def _publication_folder(row, rng: random.Random) -> list[dict[str, Any]]:
    """A subscription with user data, a publication (retained, then sent again on request), got into a handle
    whose property of the row's name is inquired."""
    return [_call("close", handle="ps1"),
            _call("sub", handle="ps1", Hobj="q", SD={"Options": ["MQSO_CREATE"], "ObjectString": "Sports/#",
                                                    "SubUserData": "fan"}),
            *publish_with_properties.build("Sports/Golf", "red", None, None, True, rng.random() < 0.5),
            _call("subrq", handle="ps1"), _get(handle="q", MsgHandle="g"),
            _call("inqmp", hmsg="g", Name=row.when["name"]), _get(handle="q", MsgHandle="g"),
            _call("inqmp", hmsg="g", Name=row.when["name"])]


# The table inputs each recipe knows how to make hold. A row whose `when` needs another input to hold is
# unreachable by construction until the vocabulary learns it (unreachable() names the input).
KNOWN_FACTS: dict[str, frozenset[str]] = {
    "put.logical-order.table1": frozenset({"logical_order", "in_group", "segment", "segmentation_allowed",
                                           "current_group", "current_logical_message"}),
    "put.group-consistency": frozenset({"closing", "current_group", "current_logical_message", "in_group",
                                        "segment", "group_flags_changed", "persistence_differs",
                                        "syncpoint_differs", "left_logical_order"}),
    "put.close-outcome.table2": frozenset({"call", "previous_logical_order"}),
    "get.logical-order.table4": frozenset({"previous_group_status", "previous_segment_status"}),
    "close.delete": frozenset({"definition_type", "option", "creating_handle", "uncommitted", "messages"}),
    "set.selectors": frozenset({"selector"}),
    "properties.types": frozenset({"type"}),
    "properties.conversions": frozenset({"from", "to"}),
    "properties.get": frozenset({"option", "property_control", "handle", "compat_folder"}),
    "selection.headers": frozenset({"name"}),
    "properties.folders": frozenset({"name"}),
}

RECIPES: dict[str, Callable[..., list[dict[str, Any]] | None]] = {
    "put.logical-order.table1": _table1,
    "put.group-consistency": _consistency,
    "put.close-outcome.table2": _close_outcome,
    "get.logical-order.table4": _logical_get,
    "cluster.workload": _workload,
    "close.delete": _close_delete,
    "set.selectors": _set_selector,
    "properties.types": _property_type,
    "properties.conversions": _property_conversion,
    "properties.get": _property_get,
    "selection.headers": _selection_header,
    "properties.folders": _publication_folder,
}


def table_area(table_id: str) -> Area | None:
    """The area whose recipes reach ``table_id``'s rows."""
    return next((a for a in AREAS.values() if table_id in a.tables), None)


def recipe(table_id: str, row_id: str, rng: random.Random) -> list[dict[str, Any]] | None:
    """Calls that make row ``row_id`` of ``table_id`` the one that decides, after its area's set-up; None when
    the vocabulary has no way to (see :func:`unreachable`)."""
    table = default_spec()[table_id]
    row = table.row(row_id)
    if isinstance(table, OptionRules):
        return _option_rule_recipe(table, row, rng)
    make = RECIPES.get(table_id)
    return None if make is None else make(row, rng)


# Rows a vocabulary area could reach but is kept from, and why.
LEFT_OUT_ROWS: dict[str, str] = {
    "distributed.resolve.qmgr-name-model-queue": "a model queue named as a queue manager needs a model queue, of the "
    "capability dynamic-queues, which the distributed area's claim does not include (its other rows are met by "
    "the area's puts and opens)",
}


@functools.lru_cache(maxsize=None)
def unreachable(table_id: str, row_id: str) -> str | None:
    """Why no generated sequence can reach the row, or None when a recipe exists."""
    if row_id in LEFT_OUT_ROWS:
        return LEFT_OUT_ROWS[row_id]
    if table_area(table_id) is None:
        return f"no vocabulary area generates calls for table {table_id}"
    table = default_spec()[table_id]
    if isinstance(table, Table) and table_id not in RECIPES:
        return f"the vocabulary has no recipe for table {table_id}"
    if isinstance(table, Table) and table_id in KNOWN_FACTS:
        unknown = sorted(set(table.row(row_id).when) - KNOWN_FACTS[table_id])
        if unknown:
            return f"the vocabulary cannot yet make {', '.join(unknown)} hold (conformance/vocabulary.py KNOWN_FACTS)"
    if isinstance(table, Table) and table.row(row_id).then.get("representation") == "not-modelled":
        return "the model answers this row with 'not modelled' (no outcome to compare), so no sequence is made for it"
    if isinstance(table, Table) and table_id == "cluster.workload":
        by = table.row(row_id).then.get("by")
        if by not in WORKLOAD_DIFFERENCES:
            return f"the vocabulary cannot make destinations differ by {by!r}"
        return None
    for attempt in range(8):
        if recipe(table_id, row_id, random.Random(f"{row_id}:{attempt}")) is not None:
            return None
    if isinstance(table, OptionRules):
        row = table.row(row_id)
        zero = [n for n in row.at_least_one if not constants.VALUES[n]]
        if zero:
            return (f"{', '.join(zero)} is zero, so it always counts as given: no combination of options lacks "
                    f"every option this rule lists")
        return "no combination of options breaks this rule before an earlier one"
    return "the recipe for this row found no calls"


def table_rows() -> dict[str, list[str]]:
    """Every decision table's row ids, by table id (fixtures/tables/)."""
    return {t.id: [r.id for r in t.rows] for t in default_spec().tables.values()}
