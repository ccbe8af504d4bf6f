"""Running scenarios against an adapter and recording, step by step, what was expected and what happened.

Every step's outcome is kept, passed or not, so that a report can show the whole story. When the adapter under
test is not the reference model, the model runs the same steps alongside, so a failing step can be attributed to
the clauses the model applied there.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from mq_conformance.adapters.base import Adapter
from mq_conformance.adapters.reference import ReferenceAdapter
from mq_conformance.reference.calls import Call, Outcome

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
    for index, step in enumerate(scenario.steps):
        results.append(_run_step(index, step, adapter, bindings, attribution, shadow_bindings))
    statuses = {r.status for r in results}
    status = ERROR if ERROR in statuses else FAILED if FAILED in statuses else PASSED
    return ScenarioResult(scenario, status, results)


def _run_step(index: int, step: Step, adapter: Adapter, bindings: Bindings, attribution: Adapter | None,
              shadow_bindings: Bindings) -> StepResult:
    call = Call(step.call.op, substitute(dict(step.call.args), bindings))
    outcome = _execute(adapter, call)
    clauses = list(outcome.clauses)
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
    return StepResult(index, step.line, step.call.op, call.to_json(), dict(step.expect), outcome.to_json(), status,
                      problems, clauses, step.setup, list(step.clauses))


def reference_attribution(adapter: Adapter) -> Adapter | None:
    """The model to run alongside ``adapter`` for clause attribution (None when it is the model itself)."""
    return None if isinstance(adapter, ReferenceAdapter) else ReferenceAdapter()
