"""Running scenarios against an adapter and recording, step by step, what was expected and what happened.

Every step's outcome is kept, passed or not, so that a report can show the whole story. When the adapter under
test is not the reference model, the model runs the same steps alongside, so a failing step can be attributed to
the clauses the model applied there.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from mq_conformance.adapters.base import Adapter
from mq_conformance.adapters.reference import ReferenceAdapter
from mq_conformance.reference.calls import STRUCTURES, Call, CallError, Outcome, decode_field

from .matching import Bindings, is_variable, match
from .scenario import Scenario, Step

PASSED, FAILED, ERROR, NOT_CLAIMED = "passed", "failed", "error", "not claimed"


@dataclass
class StepResult:
    """One step's expected and actual outcome and its verdict."""

    index: int
    line: int
    op: str
    call: dict[str, Any]
    expect: Mapping[str, Any]
    outcome: dict[str, Any]
    status: str
    problems: list[str] = field(default_factory=list)
    clauses: list[str] = field(default_factory=list)
    setup: bool = False
    cites: list[str] = field(default_factory=list)  # the step's own clauses (``clauses:`` on the step): its blame
    # what the report needs to tell the first difference from its consequences and to name suspects: the
    # variables this step bound, those bound earlier that its call or expectation uses, and each binding whose
    # value stands to the scenario's other identifiers otherwise than the model's does (report.scenario_blame)
    binds: list[str] = field(default_factory=list)
    uses: list[str] = field(default_factory=list)
    unlike_model: list[str] = field(default_factory=list)


@dataclass
class ScenarioResult:
    """A scenario's verdict and the results of its steps."""

    scenario: Scenario
    status: str
    steps: list[StepResult] = field(default_factory=list)
    reason: str = ""

    @property
    def failures(self) -> list[StepResult]:
        return [s for s in self.steps if s.status in (FAILED, ERROR)]


def substitute(value: Any, bindings: Bindings) -> Any:
    """``value`` with every bound ``$name`` replaced by its identifier (as ``{hex: ...}``) or its text."""
    if is_variable(value) and value in bindings.values:
        return {"hex": bindings.values[value].hex()}
    if is_variable(value) and value in bindings.texts:
        return bindings.texts[value]
    if isinstance(value, Mapping):
        return {k: substitute(v, bindings) for k, v in value.items()}
    if isinstance(value, list):
        return [substitute(v, bindings) for v in value]
    return value


def _execute(adapter: Adapter, call: Call) -> Outcome:
    try:
        return adapter.execute(call)
    except Exception as exc:  # noqa: BLE001 - an adapter's crash is a result to report, not to raise
        return Outcome(error=f"adapter raised {type(exc).__name__}: {exc}")


def run_scenario(scenario: Scenario, adapter: Adapter, attribution: Adapter | None = None) -> ScenarioResult:
    """Run ``scenario`` on a freshly reset ``adapter``; ``attribution`` (the model) runs alongside when given."""
    missing = scenario.capabilities - adapter.capabilities
    if missing:
        return ScenarioResult(scenario, NOT_CLAIMED, reason=f"adapter does not claim {', '.join(sorted(missing))}")
    adapter.reset()
    if attribution is not None:
        attribution.reset()
    bindings, shadow_bindings = Bindings(), Bindings()
    results: list[StepResult] = []
    literals: dict[bytes, str] = {bytes(16): "none (all zeros)", bytes(24): "none (all zeros)",
                                  bytes(32): "none (all zeros)"}
    for index, step in enumerate(scenario.steps):
        literals.update(literal_ids(dict(step.call.args)))
        results.append(_run_step(index, step, adapter, bindings, attribution, shadow_bindings, literals))
    # the first difference is the scenario's: an error answer after a wrong one does not make it an error
    status = next((r.status for r in results if r.status in (FAILED, ERROR)), PASSED)
    return ScenarioResult(scenario, status, results)


def _run_step(index: int, step: Step, adapter: Adapter, bindings: Bindings, attribution: Adapter | None,
              shadow_bindings: Bindings, literals: dict[bytes, str] | None = None) -> StepResult:
    bound_before = set(bindings.values) | set(bindings.texts)
    uses = sorted({name for name in variables_in(dict(step.call.args)) | variables_in(dict(step.expect))
                   if name in bound_before})
    call = Call(step.call.op, substitute(dict(step.call.args), bindings))
    outcome = _execute(adapter, call)
    clauses = list(outcome.clauses)
    shadow_before = dict(shadow_bindings.values)
    if attribution is not None:
        shadow_call = Call(step.call.op, substitute(dict(step.call.args), shadow_bindings))
        shadow = _execute(attribution, shadow_call)
        match(step.expect, shadow, shadow_bindings)
        clauses = list(shadow.clauses)
    if outcome.error is not None:
        status, problems = ERROR, [outcome.error]
    else:
        problems = match(step.expect, outcome, bindings)
        status = FAILED if problems else PASSED
    binds = sorted((set(bindings.values) | set(bindings.texts)) - bound_before)
    unlike = []
    if attribution is not None and literals is not None:
        for name in binds:
            if name in bindings.values and name in shadow_bindings.values:
                ours = _relation(bindings.values[name], literals, {v: k for k, v in bindings.values.items()
                                                                   if k != name})
                model = _relation(shadow_bindings.values[name], literals,
                                  {v: k for k, v in shadow_before.items()})
                if ours != model:
                    unlike.append(f"{name}: the implementation's value is {ours}, the model's is {model}")
    return StepResult(index, step.line, step.call.op, call.to_json(), dict(step.expect), outcome.to_json(), status,
                      problems, clauses, step.setup, list(step.clauses), binds, uses, unlike)


def variables_in(value: Any) -> set[str]:
    """Every ``$name`` in a call's arguments or an expectation."""
    if is_variable(value):
        return {value}
    if isinstance(value, Mapping):
        return set().union(*(variables_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(variables_in(v) for v in value)) if value else set()
    return set()


def literal_ids(args: Mapping[str, Any]) -> dict[bytes, str]:
    """The identifiers a call gives literally (``MD: {CorrelId: CORREL-A}``), as bytes, each with how a person
    would name it (``CORREL-A, given in a call``)."""
    found: dict[bytes, str] = {}
    for key, (_, kinds) in STRUCTURES.items():
        structure = args.get(key)
        if not isinstance(structure, Mapping):
            continue
        for name, value in structure.items():
            kind = kinds.get(name)
            if kind is None or kind[0] != "id" or is_variable(value):
                continue
            try:
                decoded = decode_field(kind, value, name)
            except CallError:
                continue
            shown = value if isinstance(value, str) else json.dumps(value)
            found.setdefault(decoded, f"{shown}, as given in a call")
    return found


def _relation(value: bytes, literals: dict[bytes, str], earlier: dict[bytes, str]) -> str:
    """How an identifier a step bound stands to the scenario's others: one given in a call, one bound earlier,
    or a new one."""
    if value in literals:
        return literals[value]
    if value in earlier:
        return f"the same as {earlier[value]}"
    return "a new identifier"


def reference_attribution(adapter: Adapter) -> Adapter | None:
    """The model to run alongside ``adapter`` for clause attribution (None when it is the model itself; a mutant,
    the model with a rule broken, gets the model beside it as any implementation does)."""
    return None if isinstance(adapter, ReferenceAdapter) and adapter.name == "reference" else ReferenceAdapter()
