"""Which failing steps of the suite's scenarios break two rules at once, found mechanically.

A step whose call fails (or warns) with one reason code asserts which rule the implementation checks first when
the same call also breaks another rule; where IBM gives no order, that is the model's decision, not a fact. To
find such steps, every failing step's call is run again on the model, from the state the scenario reached before
it, once without each element it gives (one option of an option list, one structure field, one top-level
argument; the names of handles, connections, queues, topics and subscriptions stay): a call that then fails
with another reason of the same completion code shows a second reason in reach.

That second reason is either a rule the step's call breaks too (the order decides), or one the removal itself
made (a get without its browse option is destructive, a durable subscription without its name is nameless).
fixtures/second-reasons.yaml lists the patterns of the second kind, each with why; every other second reason is
a step that must cite, on the step, the decision that orders the two rules (tests/test_order_decisions.py).

Limits: two faults both in the state (a put-inhibited queue and a handle not open for output) are not found, as
no element of the call carries either.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

import yaml

from mq_conformance import fixtures
from mq_conformance.adapters.reference import ReferenceAdapter
from mq_conformance.conformance.matching import Bindings, match
from mq_conformance.conformance.runner import substitute
from mq_conformance.conformance.scenario import Scenario
from mq_conformance.reference.calls import Call
from tests_support import suite_scenarios

# Arguments naming what the call acts on, never removed: without them the call names nothing.
NAMES = frozenset({"op", "handle", "hmsg", "connection", "queue", "ObjectString", "topic", "Hobj", "Name"})
NAMED_FIELDS = frozenset({"SD.ObjectName", "SD.ObjectString", "SD.SubName"})  # the topic and subscription named
NOT_OK = ("MQCC_FAILED", "MQCC_WARNING")
LEDGER = yaml.safe_load((fixtures.ROOT / "second-reasons.yaml").read_text(encoding="utf-8"))


@dataclass(frozen=True)
class SecondReason:
    """A failing step of a scenario and a second reason the same call gives without one of its elements."""

    scenario: str
    step: int  # the step's index in the scenario
    line: int
    op: str
    reason: str  # the step's reason
    removed: str  # the element left out, as "GMO.Options: MQGMO_BROWSE_FIRST", "SD.SubName", "data"
    second: str  # the reason of the call without it

    def __str__(self) -> str:
        return (f"{self.scenario} step {self.step + 1} (line {self.line}, {self.op}): {self.reason}, and "
                f"{self.second} without {self.removed}")


def removals(args: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each element the call gives, named, with the call's arguments without it. MQSET's Selectors and IntAttrs
    go together (a selector without its value would break the counts' rule, a removal's own doing)."""
    for key, value in args.items():
        if key in NAMES or (key == "IntAttrs" and "Selectors" in args):
            continue
        if key == "Selectors" and "IntAttrs" in args:
            for i, selector in enumerate(value):
                values = args["IntAttrs"][:i] + args["IntAttrs"][i + 1:]
                yield f"Selectors: {selector}", {**args, key: value[:i] + value[i + 1:], "IntAttrs": values}
        elif isinstance(value, dict):
            for name, inner in value.items():
                if isinstance(inner, list) and inner:
                    for i, item in enumerate(inner):
                        yield f"{key}.{name}: {item}", {**args, key: {**value, name: inner[:i] + inner[i + 1:]}}
                elif f"{key}.{name}" not in NAMED_FIELDS:
                    yield f"{key}.{name}", {**args, key: {k: v for k, v in value.items() if k != name}}
        elif isinstance(value, list) and value:
            for i, item in enumerate(value):
                yield f"{key}: {item}", {**args, key: value[:i] + value[i + 1:]}
        elif key == "Options" and isinstance(value, int) and not isinstance(value, bool):
            for bit in (1 << n for n in range(32)):
                if value & bit:
                    yield f"{key}: {bit:#x}", {**args, key: value & ~bit}
        else:
            yield key, {k: v for k, v in args.items() if k != key}


def scenario_second_reasons(scenario: Scenario) -> list[SecondReason]:
    """Every second reason of the failing steps of ``scenario``, on the model."""
    adapter, bindings, found = ReferenceAdapter(), Bindings(), []
    for index, step in enumerate(scenario.steps):
        call = Call(step.call.op, substitute(dict(step.call.args), bindings))
        before = copy.deepcopy(adapter) if step.expect.get("CompCode") in NOT_OK else None
        outcome = adapter.execute(call)
        match(step.expect, outcome, bindings)
        if before is None or outcome.error is not None or outcome.CompCode not in NOT_OK:
            continue
        for removed, args in removals(dict(call.args)):
            other = copy.deepcopy(before).execute(Call(call.op, args))
            if other.error is None and other.CompCode == outcome.CompCode and other.Reason != outcome.Reason:
                found.append(SecondReason(scenario.id, index, step.line, call.op, str(outcome.Reason), removed,
                                          str(other.Reason)))
    return found


def made_by_removal(found: SecondReason) -> dict[str, Any] | None:
    """The pattern of fixtures/second-reasons.yaml that explains ``found`` as made by the removal, if any."""
    for pattern in LEDGER["made-by-removal"]:
        removed = pattern["removed"]
        if (pattern["op"] == found.op and pattern["second"] == found.second
                and (removed == "any" or found.removed in removed)):
            return pattern
    return None


@cache
def second_reasons() -> tuple[SecondReason, ...]:
    """Every second reason of the failing steps of the suite's scenarios (read once per process)."""
    return tuple(found for scenario in suite_scenarios() for found in scenario_second_reasons(scenario))


def two_rules_broken() -> dict[tuple[str, int], list[SecondReason]]:
    """(scenario id, step index) -> the second reasons of that step that no removal made: the steps of the
    suite's scenarios whose call breaks two rules, so that only an order between them decides the reason."""
    steps: dict[tuple[str, int], list[SecondReason]] = {}
    for found in second_reasons():
        if made_by_removal(found) is None:
            steps.setdefault((found.scenario, found.step), []).append(found)
    return steps
