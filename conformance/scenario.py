"""Scenario files: short YAML stories of set-up, calls and expected outcomes, citing the clauses they show.

A scenario is executable documentation; any adapter can run it. Its shape::

    id: put-logical-order-assigns-sequence        # kebab-case, unique
    title: What a reader learns from it
    clauses: [put.logical-order.table1.row5]      # the rules it shows (must exist in fixtures/clauses.yaml)
    capabilities: [groups]                        # what an implementation must claim for it to run
    setup:
      qmgr: {MsgMarkBrowseInterval: 5000}         # define_qmgr: queue-manager attributes (optional)
      qmgrs: [{name: QM1}, {name: QM2}]           # define_qmgr with a name each: a cluster (optional)
      channels: [{name: TO.QM2, CLWLRANK: 1}]     # define_channel calls (optional)
      queues: [{name: Q1, MaxMsgLength: 100}]     # define_queue calls, MQ attribute names (qmgr: where)
    steps:
      - open: {handle: h, queue: Q1, Options: [MQOO_OUTPUT]}
      - put: {handle: h, PMO: {Options: [MQPMO_LOGICAL_ORDER]}, MD: {MsgFlags: [MQMF_MSG_IN_GROUP]}, data: one}
        expect: {CompCode: MQCC_OK, MD: {GroupId: $g, MsgSeqNumber: 1}}

A step without ``expect`` expects ``CompCode: MQCC_OK``. A step may cite clauses of its own (``clauses:`` on the
step); a failing step blames those alone (conformance/report.py): a step whose call breaks two rules where IBM
gives no order cites the decision that orders them (tests/test_order_decisions.py). Everything is checked when the
file is loaded, so a mistake is reported as one line naming the file and line, never as a failure of the implementation.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mq_conformance.adapters.capabilities import CapabilityError, check_names, mq_names, needed_by
from mq_conformance.reference import pubsub_calls
from mq_conformance.reference.calls import (
    CLUSTER_ARGUMENTS,
    DISTRIBUTED_ARGUMENTS,
    OPS,
    Call,
    CallError,
    check_cluster_call,
    check_distributed_call,
    decode_bytes,
    decode_od,
    decode_options,
    decode_qmgr,
    decode_queue,
    decode_set,
    decode_structure,
)

from mq_conformance.reference.properties import (
    GET_HANDLE_FIELDS,
    PROPERTY_OPS,
    PUT_HANDLE_FIELDS,
    check_property_call,
)

from .matching import EXPECT_KEYS, is_variable
from .yamlsource import LineDict, LineList, SourceError, line_at, load

STEP_KEYS = {"expect", "clauses", "note"}
SCENARIO_KEYS = {"id", "title", "clauses", "capabilities", "setup", "steps", "description"}
ID_PATTERN = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
DEFAULT_EXPECT = {"CompCode": "MQCC_OK"}


@dataclass(frozen=True)
class Step:
    """One call of a scenario, what it should give, and where it was written."""

    call: Call
    expect: Mapping[str, Any]
    line: int
    clauses: tuple[str, ...] = ()
    setup: bool = False


@dataclass(frozen=True)
class Scenario:
    """A loaded, checked scenario."""

    id: str
    title: str
    path: Path
    clauses: tuple[str, ...]
    capabilities: frozenset[str]
    steps: tuple[Step, ...] = field(default_factory=tuple)

    def needed_capabilities(self) -> frozenset[str]:
        """The capabilities its calls show it needs: those whose ops or MQ names (fixtures/capabilities.yaml) its
        steps use, in their calls or expectations. The scenario's ``capabilities`` must list at least these."""
        ops: set[str] = set()
        names: set[str] = set()
        for step in self.steps:
            ops.add(step.call.op)
            mq_names(dict(step.call.args), names)
            mq_names(dict(step.expect), names)
        return needed_by(ops, names)

    def clause_ids(self) -> set[str]:
        """Every clause the scenario cites, at scenario or step level."""
        found = set(self.clauses)
        for step in self.steps:
            found.update(step.clauses)
        return found


def _kind(value: Any) -> str:
    """What a YAML value is, in words (never its text: it may be huge)."""
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return "nothing" if value is None else f"a {type(value).__name__}"


def _string_list(value: Any, path: Path, line: int, what: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise SourceError(path, line, f"{what} must be a list of names")
    return tuple(value)


def _variables(value: Any) -> Iterable[str]:
    if is_variable(value):
        yield value
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _variables(item)
    elif isinstance(value, list):
        for item in value:
            yield from _variables(item)


def placeholder(value: Any) -> Any:
    """``value`` with every ``$name`` replaced by a stand-in identifier, for checking a call before running it."""
    if is_variable(value):
        return {"hex": "00" * 16}
    if isinstance(value, Mapping):
        return {k: placeholder(v) for k, v in value.items()}
    if isinstance(value, list):
        return [placeholder(v) for v in value]
    return value


def check_call(call: Call) -> None:
    """Decode every argument of ``call`` as an adapter would, so that mistakes surface at load time."""
    args = placeholder(dict(call.args))
    op = call.op
    if op in pubsub_calls.PUBSUB_OPS:
        pubsub_calls.check_call(op, args)
        return
    if op == "define_queue":
        decode_queue(args, "")
        check_cluster_call(op, args)
        return
    if op == "define_qmgr":
        check_cluster_call(op, args)
        return
    if op in CLUSTER_ARGUMENTS or op == "connect":
        check_cluster_call(op, args)
    if op in DISTRIBUTED_ARGUMENTS:
        check_distributed_call(op, args)
    if op in PROPERTY_OPS:
        check_property_call(op, args)
        return
    if op in ("open", "put1"):
        decode_od(args, "")
    if op == "open" and "SelectionString" in args and not isinstance(args["SelectionString"], str):
        raise CallError("expected a message selector (text)", "SelectionString")
    if op == "set":
        decode_set(args, "")
    if op in ("open", "put", "get", "close", "inquire", "set") and not isinstance(args.get("handle"), str):
        raise CallError("needs a 'handle' name", "handle")
    if op in ("open", "close"):
        decode_options(args.get("Options", []), "MQOO" if op == "open" else "MQCO", "Options")
    for key in ("MD", "PMO", "GMO"):
        if key in args:
            decode_structure(key, args[key], key)
    if "data" in args:
        decode_bytes(args["data"], "data")
    if "milliseconds" in args or op == "advance_clock":
        ms = args.get("milliseconds")
        if not isinstance(ms, int) or isinstance(ms, bool) or ms < 0:
            raise CallError(f"expected a whole number of milliseconds >= 0, not {ms!r}", "milliseconds")
    if "BufferLength" in args:
        length = args["BufferLength"]
        if not isinstance(length, int) or isinstance(length, bool) or length < 0:
            raise CallError(f"expected a whole number >= 0, not {length!r}", "BufferLength")
    if "Selectors" in args:
        selectors = args["Selectors"]
        if not isinstance(selectors, list) or not all(isinstance(x, str) and x.startswith(("MQIA_", "MQCA_"))
                                                      for x in selectors):
            raise CallError("expected a list of MQIA_* or MQCA_* names", "Selectors")
    known = {
        **CLUSTER_ARGUMENTS, **DISTRIBUTED_ARGUMENTS, "define_queue": set(), "define_qmgr": set(), "connect": {"connection", "qmgr"}, "disconnect": {"connection"}, "commit": {"connection"},
        "backout": {"connection"}, "advance_clock": {"milliseconds"},
        "open": {"handle", "queue", "ObjectQMgrName", "DynamicQName", "Options", "connection", "SelectionString",
                 *pubsub_calls.TOPIC_OD_KEYS},
        "close": {"handle", "Options"}, "put": {"handle", "MD", "PMO", "data", *PUT_HANDLE_FIELDS},
        "put1": {"queue", "ObjectQMgrName", "MD", "PMO", "data", "connection", *PUT_HANDLE_FIELDS,
                 *pubsub_calls.TOPIC_OD_KEYS},
        "get": {"handle", "MD", "GMO", "BufferLength", *GET_HANDLE_FIELDS}, "inquire": {"handle", "Selectors"},
        "set": {"handle", "Selectors", "IntAttrs"},
    }[op]
    for key in args:
        if key not in known:
            raise CallError(f"{op} takes no argument {key!r}; it takes {', '.join(sorted(known)) or 'nothing'}", key)


def _step(raw: Any, path: Path, line: int, bound: set[str], opened: set[str]) -> Step:
    if not isinstance(raw, LineDict):
        raise SourceError(path, line, "a step is a mapping: one op (open, put, get...) and optionally expect")
    ops = [k for k in raw if k not in STEP_KEYS]
    if len(ops) != 1:
        what = "no op" if not ops else f"several ops ({', '.join(map(str, ops))})"
        raise SourceError(path, line, f"a step needs exactly one op, found {what}")
    op = ops[0]
    if op not in OPS:
        raise SourceError(path, raw.line_of(op), f"unknown op {op!r}; known ops: {', '.join(sorted(OPS))}")
    args = raw[op] if raw[op] is not None else LineDict()
    if not isinstance(args, dict):
        raise SourceError(path, raw.line_of(op), f"the arguments of {op} must be a mapping")
    call = Call(op, args)
    for name in _variables(args):
        if name not in bound:
            raise SourceError(path, raw.line_of(op), f"{name} is used before any expectation binds it")
    try:
        check_call(call)
    except CallError as exc:
        raise SourceError(path, line_at(args, exc.path, raw.line_of(op)), f"{op}: {exc}") from None
    handle = args.get("handle")
    if op == "sub" and isinstance(args.get("Hobj"), str) and args["Hobj"] not in opened:
        opened.add(args["Hobj"])  # MQSO_MANAGED names the managed destination's handle (a check at run time)
    if op in ("open", "sub"):
        opened.add(handle)
    elif isinstance(handle, str) and handle not in opened:
        raise SourceError(path, raw.line_of(op), f"handle {handle!r} is used before any open names it")

    expect = raw.get("expect", DEFAULT_EXPECT)
    if not isinstance(expect, Mapping):
        raise SourceError(path, raw.line_of("expect"), "expect must be a mapping such as {CompCode: MQCC_OK}")
    for key in expect:
        if key not in EXPECT_KEYS:
            raise SourceError(path, line_at(expect, str(key), raw.line_of("expect")),
                              f"expect has no {key!r}; it takes {', '.join(EXPECT_KEYS)}")
    _check_expect(expect, path, raw.line_of("expect"))
    bound.update(_variables(expect))
    clauses = _string_list(raw.get("clauses", []), path, raw.line_of("clauses"), "clauses")
    if "note" in raw and not isinstance(raw["note"], str):
        raise SourceError(path, raw.line_of("note"), f"note must be text, not {_kind(raw['note'])}")
    return Step(call, expect, raw.line_of(op), clauses)


def _check_expect(expect: Mapping[str, Any], path: Path, line: int) -> None:
    from mq_conformance.reference import constants
    from mq_conformance.reference.calls import STRUCTURES, decode_field

    def check(kind: tuple, value: Any, where: str) -> None:
        if _check_matcher(value, where, path, line_at(expect, where, line), lambda v: check(kind, v, where)):
            return
        if kind[0] in ("id", "text") and is_variable(value):
            return
        try:
            decode_field(kind, value, where)
        except CallError as exc:
            raise SourceError(path, line_at(expect, where, line), f"expect: {exc}") from None

    for key, value in expect.items():
        if key == "CompCode":
            check(("enum", "MQCC"), value, key)
        elif key == "Reason":
            check(("enum", "MQRC"), value, key)
        elif key in STRUCTURES or key in pubsub_calls.OUTCOME_STRUCTURES:
            if not isinstance(value, Mapping):
                raise SourceError(path, line_at(expect, key, line), f"expect: {key} must be a mapping of fields")
            kinds = STRUCTURES[key][1] if key in STRUCTURES else pubsub_calls.OUTCOME_STRUCTURES[key]
            for name, item in value.items():
                if name not in kinds:
                    raise SourceError(path, line_at(expect, f"{key}.{name}", line), f"expect: {key} has no field {name!r}")
                check(kinds[name], item, f"{key}.{name}")
        elif key == "data":
            try:
                decode_bytes(value, "data")
            except CallError as exc:
                raise SourceError(path, line_at(expect, key, line), f"expect: {exc}") from None
        elif key == "DataLength":
            check(("int", ()), value, key)
        elif key == "ObjectName":
            if not (isinstance(value, str) and value) and not (
                    isinstance(value, Mapping) and set(value) == {"prefix"} and isinstance(value["prefix"], str)):
                raise SourceError(path, line_at(expect, key, line), "expect: ObjectName is a queue name or {prefix: text}")
        elif key == "attributes":
            if not isinstance(value, Mapping):
                raise SourceError(path, line_at(expect, key, line), "expect: attributes must be a mapping of MQIA_* names")
            for name, item in value.items():
                where = f"attributes.{name}"

                def attribute(item: Any, name: str = name, where: str = where) -> None:
                    if isinstance(item, str) and item not in constants.VALUES and not str(name).startswith("MQCA_"):
                        raise SourceError(path, line_at(expect, where, line), f"expect: unknown MQ constant {item}")

                if not _check_matcher(item, where, path, line_at(expect, where, line), attribute):
                    attribute(item)


def _check_matcher(value: Any, where: str, path: Path, line: int, check) -> bool:
    """Check a matcher ({one_of}, {not}, {at_least}/{at_most}) in an expectation, its values with ``check``;
    False when ``value`` is a plain value (matching.MATCHERS lists the matchers)."""
    if not isinstance(value, Mapping) or not set(value) & {"one_of", "not", "at_least", "at_most"}:
        return False
    keys = set(value)
    if keys == {"one_of"}:
        choices = value["one_of"]
        if not isinstance(choices, list) or not choices:
            raise SourceError(path, line, f"expect: {where}: one_of needs a non-empty list")
        for choice in choices:
            check(choice)
    elif keys == {"not"}:
        check(value["not"])
    elif keys <= {"at_least", "at_most"}:
        bounds = [value[k] for k in ("at_least", "at_most") if k in value]
        if not all(isinstance(b, int) and not isinstance(b, bool) for b in bounds):
            raise SourceError(path, line, f"expect: {where}: at_least and at_most take whole numbers")
        if len(bounds) == 2 and bounds[0] > bounds[1]:
            raise SourceError(path, line, f"expect: {where}: at_least {bounds[0]} is above at_most {bounds[1]}")
    else:
        raise SourceError(path, line, f"expect: {where}: a matcher is one of {{one_of: [...]}}, {{not: value}}, "
                                      f"or {{at_least: n, at_most: n}} (either or both), not {sorted(keys)}")
    return True


SETUP_KEYS = ("qmgr", "qmgrs", "channels", "queues", "topics")


def _setup_list(setup: LineDict, key: str, op: str, path: Path) -> list[Step]:
    """The calls of a setup list: ``qmgrs`` (define_qmgr with a name each) or ``channels`` (define_channel)."""
    items = setup.get(key, LineList())
    if not isinstance(items, LineList):
        raise SourceError(path, setup.line_of(key), f"{key} must be a list of mappings")
    steps = []
    for index, item in enumerate(items):
        line = items.line_of(index)
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            raise SourceError(path, line, f"each of {key} is a mapping with a name, such as {{name: QM2}}")
        try:
            check_call(Call(op, dict(item)))
        except CallError as exc:
            raise SourceError(path, line_at(item, exc.path, line), f"{key}: {exc}") from None
        steps.append(Step(Call(op, dict(item)), DEFAULT_EXPECT, line, setup=True))
    return steps


def parse(data: Any, path: Path) -> Scenario:
    """Check a parsed scenario document and build the :class:`Scenario`; errors name the file and line."""
    if not isinstance(data, LineDict):
        raise SourceError(path, getattr(data, "line", 1), "a scenario is a mapping with id, clauses and steps")
    for key in data:
        if key not in SCENARIO_KEYS:
            raise SourceError(path, data.line_of(key), f"unknown scenario key {key!r}; keys: {', '.join(sorted(SCENARIO_KEYS))}")
    scenario_id = data.get("id")
    if not isinstance(scenario_id, str) or not ID_PATTERN.fullmatch(scenario_id):  # "x\n" too: never '$'-matched
        raise SourceError(path, data.line_of("id"), "id must be kebab-case text such as put-group-of-three")
    for key in ("title", "description"):
        if key in data and not isinstance(data[key], str):
            raise SourceError(path, data.line_of(key), f"{key} must be text, not {_kind(data[key])}")
    clauses = _string_list(data.get("clauses", []), path, data.line_of("clauses"), "clauses")
    capabilities = _string_list(data.get("capabilities", ["core"]), path, data.line_of("capabilities"), "capabilities")
    try:
        capabilities = check_names(capabilities, "capabilities")
    except CapabilityError as exc:
        raise SourceError(path, data.line_of("capabilities"), str(exc)) from None
    steps: list[Step] = []
    setup = data.get("setup") or LineDict()
    if not isinstance(setup, LineDict):
        raise SourceError(path, data.line_of("setup"), "setup must be a mapping such as {queues: [{name: Q1}]}")
    for key in setup:
        if key not in SETUP_KEYS:
            raise SourceError(path, setup.line_of(key),
                              f"unknown setup key {key!r}; setup takes: {', '.join(SETUP_KEYS)}")
    qmgr = setup.get("qmgr")
    if qmgr is not None:
        if not isinstance(qmgr, dict):
            raise SourceError(path, setup.line_of("qmgr"), "qmgr must be a mapping such as {MsgMarkBrowseInterval: -1}")
        try:
            decode_qmgr(qmgr, "qmgr")
        except CallError as exc:
            raise SourceError(path, line_at(qmgr, exc.path.removeprefix("qmgr."), setup.line_of("qmgr")), str(exc)) from None
        steps.append(Step(Call("define_qmgr", dict(qmgr)), DEFAULT_EXPECT, setup.line_of("qmgr"), setup=True))
    for key, op in (("qmgrs", "define_qmgr"), ("channels", "define_channel"), ("topics", "define_topic")):
        steps.extend(_setup_list(setup, key, op, path))
    queues = setup.get("queues", LineList())
    if not isinstance(queues, LineList):
        raise SourceError(path, setup.line_of("queues"), "queues must be a list of queue definitions")
    for index, queue in enumerate(queues):
        line = queues.line_of(index)
        if not isinstance(queue, dict):
            raise SourceError(path, line, "a queue is a mapping such as {name: Q1}")
        try:
            decode_queue(queue, "queue")
            check_cluster_call("define_queue", queue)
        except CallError as exc:
            raise SourceError(path, line_at(queue, exc.path.removeprefix("queue."), line), str(exc)) from None
        steps.append(Step(Call("define_queue", dict(queue)), DEFAULT_EXPECT, line, setup=True))
    raw_steps = data.get("steps")
    if not isinstance(raw_steps, LineList) or not raw_steps:
        raise SourceError(path, data.line_of("steps"), "steps must be a non-empty list")
    bound: set[str] = set()
    opened: set[str] = set()
    for index, raw in enumerate(raw_steps):
        steps.append(_step(raw, path, raw_steps.line_of(index), bound, opened))
    return Scenario(scenario_id, data.get("title", ""), path, clauses, capabilities, tuple(steps))


def load_scenario(path: Path, root: Path | None = None) -> Scenario:
    """Read and check one scenario file (found under the folder ``root``: a link out of it is refused)."""
    return parse(load(path, root), path)


def scenario_files(paths: Iterable[Path]) -> list[Path]:
    """Scenario files named directly or found (``*.yaml``) under named folders, in a stable order (links to
    folders are not followed)."""
    return [path for path, _ in _scenario_files(paths)]


def _scenario_files(paths: Iterable[Path]) -> list[tuple[Path, Path | None]]:
    """:func:`scenario_files`, each with the folder it was found under (None for a file named directly)."""
    found: list[tuple[Path, Path | None]] = []
    for path in paths:
        if path.is_dir():
            found.extend((file, path) for file in sorted(path.rglob("*.yaml")))
        elif path.exists() or path.is_symlink():
            found.append((path, None))
        else:
            raise SourceError(path, None, "no such file or folder")
    return found


class ScenarioErrors(SourceError):
    """Every bad scenario file of a load, one ``file:line: message`` each (``errors``), not just the first."""

    def __init__(self, errors: list[SourceError]):
        self.errors = errors
        first = errors[0]
        super().__init__(first.path, first.line, first.message)
        more = f" (and {len(errors) - 1} more file(s))" if len(errors) > 1 else ""
        self.args = (str(first) + more,)


def collect_scenarios(paths: Iterable[Path]) -> tuple[list[Scenario], list[SourceError]]:
    """Load every scenario file named or found under ``paths``: the scenarios that load, and one error for each
    file that does not (or path that does not exist, or id already used by another file). A bad file never stops
    the others."""
    paths = list(paths)
    errors: list[SourceError] = []
    files: list[tuple[Path, Path | None]] = []
    for path in paths:
        try:
            files.extend(_scenario_files([path]))
        except SourceError as exc:
            errors.append(exc)
    if not files and not errors:
        errors.append(SourceError(", ".join(map(str, paths)), None, "no scenario files (*.yaml) found"))
    scenarios: list[Scenario] = []
    seen: dict[str, Path] = {}
    for path, root in files:
        try:
            scenario = load_scenario(path, root)
        except SourceError as exc:
            errors.append(exc)
            continue
        if scenario.id in seen:
            errors.append(SourceError(scenario.path, 1, f"scenario id {scenario.id!r} is also used by "
                                                        f"{seen[scenario.id]}"))
            continue
        seen[scenario.id] = scenario.path
        scenarios.append(scenario)
    return scenarios, errors


def load_scenarios(paths: Iterable[Path]) -> list[Scenario]:
    """Every scenario under ``paths``, checked; raises ``ScenarioErrors`` naming every bad file (one line each)."""
    scenarios, errors = collect_scenarios(paths)
    if errors:
        raise ScenarioErrors(errors)
    return scenarios
