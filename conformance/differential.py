"""Differential state machines: every generated call runs on the reference model and on the implementation
under test, and their outcomes must agree (conformance/compare.py, fixtures/comparison.yaml).

The machines are part of the product: subclass :class:`DifferentialMachine` (as zarr.testing does) to add
rules for an area, and run one with :func:`check`. Hypothesis generates call sequences and detects a divergence;
the diverging trace is then shrunk by replaying sub-sequences of its calls live (:func:`shrink`: tens of short
replays, where Hypothesis's own shrinker ran thousands of examples - minutes through a pipe). The minimal
sequence is written into the run's folder (``$MQCONF_REPORTS/divergences/divergence-<machine>.yaml``) as a
scenario whose expectations are the model's outcomes - it runs as is with ``mqconf scenario`` on the model
(passes) and on the implementation (fails), and can be moved into fixtures/scenarios as a regression - with a
JSON record beside it (the call, the fields that differed, the clauses the model applied there) that the
report lists under ``divergences``.
"""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path
from typing import Any

import yaml
from hypothesis.stateful import Bundle, RuleBasedStateMachine, initialize, rule

from mq_conformance.adapters.base import Adapter, load
from mq_conformance.adapters.reference import ReferenceAdapter
from mq_conformance.reference.calls import Call
from mq_conformance.reference.tables import default_spec

from . import vocabulary
from .campaign.replay import signature_slug_of
from .compare import UNKNOWN_ID, Identities, compare, load_policy, on_side, symbolic

POLICY = load_policy()
QUEUE = {"name": "Q1"}
HANDLE_OPTIONS = ["MQOO_OUTPUT", "MQOO_INPUT_SHARED", "MQOO_BROWSE"]


# libyaml's safe dumper when it is there, the pure one otherwise: the same text, several times faster, and a
# failing machine writes its sequence at every failing example it tries while shrinking.
_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


class Divergence(AssertionError):
    """The implementation answered a call differently from the model. ``mq_clauses`` are the clauses the model
    applied at that call: the rules the difference blames (the suite's pytest plugin records them)."""

    def __init__(self, message: str, clauses: Any = ()):
        super().__init__(message)
        self.mq_clauses = list(clauses)
        self.mq_signature: str | None = None  # the minimal divergence's campaign signature, once shrunk


def divergence_dir() -> Path:
    """Where minimal scenarios go: ``$MQCONF_REPORTS/divergences`` (the run's folder under ``mqconf run``)."""
    return Path(os.environ.get("MQCONF_REPORTS", "reports")) / "divergences"


ID_FIELDS = tuple((key, name) for key, rule in POLICY.items() if isinstance(rule, dict)
                  for name, how in rule.items() if how == "identity")
MAX_REPLAYS = 400  # live replays one shrink may spend (a 25-call sequence needs well under 100)


class DifferentialMachine(RuleBasedStateMachine):
    """Runs each call on the model (left) and the adapter under test (right) and compares the outcomes.

    Every call is recorded in ``trace``: the call with its identifiers as variables (``$v3``), and the variables
    its outcome binds (``{"$v3": "MD.MsgId"}``). On a divergence the trace is kept (``found``) for :func:`check`,
    which shrinks it by replaying sub-sequences live (:func:`shrink`) rather than through Hypothesis's shrinker,
    and writes the result as a scenario."""

    adapter_name = "reference"
    shared_adapter: Adapter | None = None  # one instance every example resets and reuses (see machine_for)
    area = "core"
    capabilities: tuple[str, ...] = ("core",)  # what an implementation must claim to be checked by this machine
    policy = POLICY
    ids = Bundle("ids")
    found: dict[str, Any] | None = None  # the last divergence's trace (set on the class by run)

    @initialize()
    def start(self) -> None:
        self.model: Adapter = ReferenceAdapter()
        self.impl: Adapter = self.shared_adapter or load(self.adapter_name)
        self.model.reset()
        self.impl.reset()
        self.identities = Identities()
        self.trace: list[dict[str, Any]] = []
        self.run(Call("define_queue", dict(QUEUE)))
        self.run(Call("open", {"handle": "h", "queue": "Q1", "Options": HANDLE_OPTIONS}))
        self.set_up_area()
        self.set_up = len(self.trace)  # calls every sequence starts with: never shrunk away

    def set_up_area(self) -> None:
        """Calls a subclass needs before its rules run (opening more handles, say)."""

    def teardown(self) -> None:
        if hasattr(self, "impl") and self.impl is not self.shared_adapter:
            self.impl.close()

    def run(self, call: Call, record: bool = True) -> list[str]:
        """Run ``call`` on both sides; fail with :class:`Divergence` if they disagree. Returns new id symbols."""
        args = dict(call.args)
        left = self.model.execute(Call(call.op, on_side(args, self.identities, "left")))
        right = self.impl.execute(Call(call.op, on_side(args, self.identities, "right")))
        before = self.identities.count
        problems = compare(left, right, self.identities, self.policy)
        self.last = left
        new = [f"$id{n}" for n in range(before + 1, self.identities.count + 1)]
        self.trace.append({"op": call.op, "args": _as_variables(args), "binds": _binds(left, self.identities, new)})
        if problems:
            line = divergence_line(self.impl.name, call.op, args, problems)
            type(self).found = {"trace": list(self.trace), "set_up": getattr(self, "set_up", len(self.trace) - 1),
                                "signature": signature(call.op, problems), "line": line,
                                "clauses": list(left.clauses)}
            raise Divergence(line, left.clauses)
        return new


def _as_variables(value: Any) -> Any:
    """A call's arguments with the machine's identifier symbols (``$id3``) as trace variables (``$v3``)."""
    if isinstance(value, str) and value.startswith("$id"):
        return "$v" + value[3:]
    if isinstance(value, dict):
        return {k: _as_variables(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_as_variables(v) for v in value]
    return value


def _binds(outcome: Any, identities: Identities, new: list[str]) -> dict[str, str]:
    """The trace variables a call's outcome bound, each with the field it came from (``MD.GroupId``)."""
    binds = {}
    for key, name in ID_FIELDS:
        symbol = identities.symbol("left", (getattr(outcome, key) or {}).get(name))
        if symbol in new:
            binds.setdefault("$v" + symbol[3:], f"{key}.{name}")
    return binds


def fields_of(problems: list[str]) -> list[str]:
    """The fields that differed (``MD.GroupId``, ``Reason``, ``error``), from compare's problem lines."""
    return sorted({problem.split(":", 1)[0] for problem in problems})


def signature(op: str, problems: list[str]) -> tuple[str, tuple[str, ...]]:
    """What makes two divergences the same: the call and the fields that differed."""
    return op, tuple(fields_of(problems))


def divergence_line(implementation: str, op: str, args: dict[str, Any], problems: list[str]) -> str:
    """One line naming the call and each field that differed, with the side of each value: ``MD.GroupId: model
    '414d...', implementation 'MQGI_NONE'`` (compare.py writes the model's value first, ``x vs y``)."""
    return f"{implementation} differs from the model on {op} {args}: " + "; ".join(map(name_sides, problems))


def name_sides(problem: str) -> str:
    """``Field: x vs y`` (compare.py, the model's value first) as ``Field: model x, implementation y``."""
    field, colon, values = problem.partition(": ")
    model, vs, implementation = values.partition(" vs ")
    if not colon or not vs:
        return problem
    return f"{field}: model {model}, implementation {implementation}"


# -- shrinking a recorded trace, live --------------------------------------------------------------------------

def replay(trace: list[dict[str, Any]], model: Adapter, impl: Adapter,
           policy: dict[str, Any] = POLICY) -> list[dict[str, Any]]:
    """Reset both sides and run ``trace``'s calls, binding each variable from the outcome that binds it (an
    unbound one is :data:`UNKNOWN_ID`); stops after the first divergence. One step per call run: ``op``,
    ``args`` (identifiers as the symbols a scenario binds, ``$id1``...), ``expect`` (the model's outcome as an
    expectation), ``problems``, ``clauses`` (the model's)."""
    model.reset()
    impl.reset()
    identities, bound, steps = Identities(), {}, []

    def resolve(value: Any) -> Any:
        if isinstance(value, str) and value.startswith("$v"):
            return bound.get(value, dict(UNKNOWN_ID))
        if isinstance(value, dict):
            return {k: resolve(v) for k, v in value.items()}
        if isinstance(value, list):
            return [resolve(v) for v in value]
        return value

    for entry in trace:
        args = resolve(entry["args"])
        left = model.execute(Call(entry["op"], on_side(args, identities, "left")))
        right = impl.execute(Call(entry["op"], on_side(args, identities, "right")))
        problems = compare(left, right, identities, policy)
        for variable, path in entry["binds"].items():
            key, _, name = path.partition(".")
            symbol = identities.symbol("left", (getattr(left, key) or {}).get(name))
            if symbol is not None:
                bound[variable] = symbol
        steps.append({"op": entry["op"], "args": args, "expect": symbolic(left, identities, "left", policy, right),
                      "problems": problems, "clauses": list(left.clauses),
                      "signature": signature_slug_of(entry["op"], args, left, right, problems) if problems else None})
        if problems:
            break
    return steps


def shrink(found: dict[str, Any], model: Adapter, impl: Adapter, max_replays: int = MAX_REPLAYS,
           policy: dict[str, Any] = POLICY) -> tuple[list[dict[str, Any]], int]:
    """The shortest sub-sequence of a diverging trace found that still diverges the same way (same call, same
    fields), by delta debugging over the calls after the set-up, each candidate replayed live (a candidate whose
    start was already seen to diverge is not replayed again); then with each option or flag name dropped from
    the calls kept where the divergence stays the same. Returns the replayed steps and the live replays spent."""
    trace, fixed, wanted = found["trace"], found["set_up"], found["signature"]
    diverged: set[tuple[int, ...]] = set()  # index prefixes seen to diverge as wanted
    replays = 0

    def fails(indexes: list[int]) -> list[int] | None:
        """The prefix of ``indexes`` that diverges as wanted, or None."""
        nonlocal replays
        for end in range(1, len(indexes) + 1):
            if tuple(indexes[:end]) in diverged:
                return indexes[:end]
        if replays >= max_replays:
            return None
        replays += 1
        steps = replay([trace[i] for i in indexes], model, impl, policy)
        last = steps[-1]
        if not last["problems"] or signature(last["op"], last["problems"]) != wanted:
            return None
        kept = indexes[:len(steps)]
        diverged.add(tuple(kept))
        return kept

    head = list(range(fixed))
    body = list(range(fixed, len(trace)))
    granularity = 2
    while len(body) >= 2:
        chunk = max(1, len(body) // granularity)
        reduced = False
        for start in range(0, len(body), chunk):
            candidate = body[:start] + body[start + chunk:]
            kept = fails(head + candidate)
            if kept is not None:
                body, reduced = kept[len(head):], True
                granularity = max(granularity - 1, 2)
                break
        if not reduced:
            if chunk == 1:
                break
            granularity = min(granularity * 2, len(body))
    final = [trace[i] for i in head + body]
    # then fewer options and flags on the calls kept: each name dropped if the divergence stays the same
    for position in range(len(head), len(final)):
        for path, names in _option_lists(final[position]["args"]):
            for name in list(names):
                if replays >= max_replays:
                    break
                entry = {**final[position], "args": _without(final[position]["args"], path, name)}
                candidate = final[:position] + [entry] + final[position + 1:]
                replays += 1
                steps = replay(candidate, model, impl, policy)
                if steps[-1]["problems"] and signature(steps[-1]["op"], steps[-1]["problems"]) == wanted \
                        and len(steps) > position:
                    final = candidate[:len(steps)]
            if position >= len(final):
                break
    return replay(final, model, impl, policy), replays + 1


def _option_lists(args: dict[str, Any], path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], list[str]]]:
    """The option and flag lists in a call's arguments (``Options``, ``PMO.Options``, ``MD.MsgFlags``...), with
    their paths."""
    found = []
    for key, value in args.items():
        if isinstance(value, dict):
            found += _option_lists(value, path + (key,))
        elif key in ("Options", "MsgFlags") and isinstance(value, list) and value:
            found.append((path + (key,), list(value)))
    return found


def _without(args: dict[str, Any], path: tuple[str, ...], name: str) -> dict[str, Any]:
    """``args`` with ``name`` taken out of the list at ``path``."""
    if len(path) == 1:
        return {**args, path[0]: [item for item in args[path[0]] if item != name]}
    return {**args, path[0]: _without(args[path[0]], path[1:], name)}


SETUP_SECTIONS = {"define_queue": "queues", "define_channel": "channels"}


def scenario_setup(steps: list[dict[str, Any]]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A scenario's ``setup`` section from the leading definitions of a replayed sequence (queues, queue
    managers, channels), and the steps that follow them."""
    setup: dict[str, Any] = {}
    for count, step in enumerate(steps):
        op, args = step["op"], step["args"]
        if op == "define_qmgr" and "name" not in args:
            setup["qmgr"] = args
        elif op == "define_qmgr":
            setup.setdefault("qmgrs", []).append(args)
        elif op in SETUP_SECTIONS:
            setup.setdefault(SETUP_SECTIONS[op], []).append(args)
        else:
            return setup, steps[count:]
    return setup, []


def write_divergence(machine: type[DifferentialMachine], implementation: str, steps: list[dict[str, Any]],
                     found_calls: int, replays: int, adapter_name: str) -> tuple[Path, dict[str, Any]]:
    """The shrunk sequence as a scenario file (the model's outcomes as expectations: it passes on the model and
    fails where the implementation diverged), and beside it a JSON record of the divergence for the report:
    the call, the fields that differed, the clauses the model applied there, the call sequence."""
    directory = divergence_dir()
    name = f"divergence-{machine.__name__.lower()}"
    last = steps[-1]
    setup, body = scenario_setup(steps)
    line = divergence_line(implementation, last["op"], last["args"], last["problems"])
    document = {
        "id": name,
        "title": f"Sequence on which {implementation} differed from the reference model: "
                 f"{last['op']} ({', '.join(fields_of(last['problems']))})",
        "clauses": sorted(set(last["clauses"])) or ["get.order.priority-then-physical"],
        "capabilities": list(machine.capabilities),
        "setup": setup,
        "steps": [{step["op"]: step["args"], "expect": step["expect"]} for step in body],
    }
    from .outfolder import OutputFolder

    with OutputFolder.open(directory.parent) as run_folder, run_folder.folder(directory.name) as folder:
        path = folder.write_text(yaml.dump(document, Dumper=_DUMPER, sort_keys=False, width=120), f"{name}.yaml")
    record = {
        "machine": machine.__name__, "implementation": implementation, "scenario": path.name,
        "summary": line, "call": {"op": last["op"], **last["args"]}, "fields": fields_of(last["problems"]),
        "problems": last["problems"], "clauses": sorted(set(last["clauses"])), "signature": last.get("signature"),
        "sequence": [{"op": step["op"], **step["args"]} for step in body],
        "calls_found": found_calls, "calls_shrunk": len(body), "replays": replays,
        "commands": [f"mqconf scenario {path} --adapter reference",
                     f"mqconf scenario {path} --adapter {shlex.quote(adapter_name)}"],
    }
    with OutputFolder.open(directory.parent) as run_folder, run_folder.folder(directory.name) as folder:
        folder.write_text(json.dumps(record, indent=1, ensure_ascii=False), f"{name}.json")
    return path, record


def check(base: type[DifferentialMachine], adapter_name: str, adapter: Adapter | None = None,
          settings: Any = None) -> None:
    """Run machine ``base`` against ``adapter_name`` (reusing ``adapter`` when given) under ``settings``.

    Hypothesis generates and detects; instead of its shrinker (thousands of examples, each a reset and up to a
    whole sequence through the implementation: minutes out of process), the diverging trace is shrunk by
    :func:`shrink` and written by :func:`write_divergence`. The :class:`Divergence` raised names the call and
    the fields that differed, the scenario file, and blames the clauses the model applied at that call."""
    from hypothesis import Phase
    from hypothesis import settings as Settings
    from hypothesis.stateful import run_state_machine_as_test

    machine = machine_for(base, adapter_name, adapter)
    chosen = settings if settings is not None else Settings()
    phases = tuple(p for p in chosen.phases if p is not Phase.shrink)
    try:
        run_state_machine_as_test(machine, settings=Settings(chosen, phases=phases))
        return
    except Divergence:
        found = machine.found
        if found is None:
            raise
    impl = adapter or load(adapter_name)
    try:
        steps, replays = shrink(found, ReferenceAdapter(), impl, policy=base.policy)
        again = bool(steps and steps[-1]["problems"])
        if not again:  # the implementation did not diverge again: keep the whole trace as it was replayed
            steps, replays = replay(found["trace"], ReferenceAdapter(), impl, base.policy), replays + 1
        name = getattr(impl, "name", adapter_name)
    finally:
        if impl is not adapter:
            impl.close()
    path, record = write_divergence(base, name, steps, len(found["trace"]), replays, adapter_name)
    if not again:
        raise Divergence(f"{found['line']}\n  it did not diverge again when replayed (an implementation whose "
                         f"answers change from one run to the next); the sequence is written to {path}",
                         found["clauses"]) from None
    divergence = Divergence(f"{record['summary']}\n  minimal sequence ({record['calls_shrunk']} calls, shrunk "
                            f"from {len(found['trace'])} in {replays} live replays) written to {path}; signature "
                            f"{record['signature']}", record["clauses"])
    divergence.mq_signature = record["signature"]  # an expectations file may list it (pytest_plugin.py)
    raise divergence from None


# -- machines drawn from the one vocabulary (conformance/vocabulary.py) -------------------------------------

class VocabularyMachine(DifferentialMachine):
    """A machine whose set-up and rules are a vocabulary area's: the same description the campaign generator
    draws from, here as Hypothesis strategies. Build one with :func:`machine_class`."""

    vocabulary_area: vocabulary.Area = vocabulary.GROUPS

    @initialize()
    def start(self) -> None:
        self.model = ReferenceAdapter()
        self.impl = self.shared_adapter or load(self.adapter_name)
        self.model.reset()
        self.impl.reset()
        self.identities = Identities()
        self.trace = []
        for call in self.vocabulary_area.setup_calls():
            op = call.pop("op")
            self.run(Call(op, call))
        self.set_up = len(self.trace)  # calls every sequence starts with: never shrunk away


def _rule_method(chosen: vocabulary.Rule, bundles: dict[str, Bundle]):
    def method(self, **drawn):
        for call in chosen.build(**drawn):
            call = dict(call)
            op = call.pop("op")
            self.run(Call(op, call))
        if chosen.binds is not None:
            head, _, name = chosen.binds.path.partition(".")
            value = (getattr(self.last, head, None) or {}).get(name) if hasattr(self, "last") else None
            return self.identities.symbol("left", value) or chosen.binds.none
        return None

    method.__name__ = chosen.name
    method.__doc__ = f"The vocabulary rule {chosen.name}."
    arguments = {name: vocabulary.strategy(domain, bundles) for name, domain in chosen.args.items()}
    if chosen.binds is not None:
        return rule(target=bundles[chosen.binds.path], **arguments)(method)
    return rule(**arguments)(method)


def machine_class(area: vocabulary.Area, name: str | None = None) -> type[VocabularyMachine]:
    """The state machine of a vocabulary area: its set-up, then its rules as Hypothesis rules, each bundle of
    identifiers (a :class:`vocabulary.Known` path) a Hypothesis Bundle."""
    paths = {r.binds.path for r in area.rules if r.binds is not None} | \
        {d.path for r in area.rules for d in r.args.values() if isinstance(d, vocabulary.Known)}
    bundles = {path: Bundle(path.replace(".", "_")) for path in sorted(paths)}
    namespace: dict[str, Any] = {"__doc__": area.title, "area": area.name, "vocabulary_area": area,
                                 "capabilities": tuple(sorted(area.capabilities)),
                                 **{b.name: b for b in bundles.values()}}
    for chosen in area.rules:
        namespace[chosen.name] = _rule_method(chosen, bundles)
    class_name = name or "".join(part.capitalize() for part in area.name.split("-")) + "Machine"
    return type(class_name, (VocabularyMachine,), namespace)


MACHINES: dict[str, type[VocabularyMachine]] = {name: machine_class(area) for name, area in vocabulary.AREAS.items()}
GroupsMachine = MACHINES["groups"]
BrowseMarkMachine = MACHINES["browse-mark"]
ClusterMachine = MACHINES["cluster"]


def table_inputs_covered() -> set[str]:
    """The Table 1 inputs the groups area can make hold (the vocabulary's recipe facts for that table)."""
    return set(default_spec()["put.logical-order.table1"].inputs) & vocabulary.KNOWN_FACTS["put.logical-order.table1"]


def machine_for(base: type[DifferentialMachine], adapter_name: str,
                adapter: Adapter | None = None) -> type[DifferentialMachine]:
    """A subclass of ``base`` that tests ``adapter_name``. With ``adapter`` (an instance of it), every example
    resets and reuses that instance and none closes it: out of process that is one server for the whole run
    instead of a new process per example (most of a machine's time over JSON lines)."""
    return type(base.__name__, (base,), {"adapter_name": adapter_name, "shared_adapter": adapter})


