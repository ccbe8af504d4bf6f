"""Where IBM gives no order between two rules, a scenario step whose call breaks both asserts the model's order, not
a fact: the step cites the decision that orders them (``clauses:`` on the step, a ``*.check-order`` clause with
confidence ``decision``), and a failing step blames its own clauses alone, so an implementation that reports the
other reason there differs on a decision, reported apart. The steps are found mechanically (tests/
second_reasons.py: each failing step's call without each of its elements), so an unmarked order assertion cannot
come back, and a decision cited where the call breaks one rule only fails too."""

from __future__ import annotations

import json

from mq_conformance.adapters.reference import ReferenceAdapter
from mq_conformance.conformance.clauses import load_registry
from mq_conformance.conformance.report import RunWriter, scenario_blame, scenario_record, validate_report
from mq_conformance.conformance.runner import run_scenario
from mq_conformance.reference import constants
from mq_conformance.reference.calls import Call, Outcome
from second_reasons import LEDGER, made_by_removal, second_reasons, two_rules_broken
from tests_support import suite_scenarios

REGISTRY = load_registry()
SCENARIOS = {scenario.id: scenario for scenario in suite_scenarios()}


def is_order_decision(clause_id: str) -> bool:
    clause = REGISTRY.get(clause_id)
    return clause is not None and clause.confidence == "decision" and clause_id.endswith(".check-order")


def test_every_step_breaking_two_rules_cites_the_decision_that_orders_them():
    unmarked = []
    for (scenario_id, index), found in sorted(two_rules_broken().items()):
        own = SCENARIOS[scenario_id].steps[index].clauses
        if not own or not all(map(is_order_decision, own)):
            unmarked += [str(f) for f in found]
    assert unmarked == [], ("these steps break two rules and assert which reason wins, where IBM gives no order; "
                            "cite the call's *.check-order decision on the step, make the step break one rule, or "
                            "(if the removal made the second reason) add the pattern to fixtures/second-reasons.yaml")


def test_an_order_decision_is_cited_only_on_a_step_whose_call_breaks_two_rules():
    broken = two_rules_broken()
    cited = [(scenario.id, index, clause_id) for scenario in SCENARIOS.values()
             for index, step in enumerate(scenario.steps) for clause_id in step.clauses if is_order_decision(clause_id)]
    assert cited, "no step cites an order decision"
    assert [c for c in cited if c[:2] not in broken] == []
    # at scenario level the decision would be blamed for the scenario's other steps too
    assert sorted(s.id for s in SCENARIOS.values() if any(map(is_order_decision, s.clauses))) == []


def test_each_pattern_of_a_reason_made_by_removal_is_met_and_names_real_reasons():
    met = {id(made_by_removal(found)) for found in second_reasons()}
    unmet = [f"{p['op']}: {p['second']}" for p in LEDGER["made-by-removal"] if id(p) not in met]
    assert unmet == [], "patterns no step meets any more: delete them"
    for pattern in LEDGER["made-by-removal"]:
        assert pattern["second"] in constants.VALUES and pattern["why"]


class ContextFirst(ReferenceAdapter):
    """An implementation that checks a put's pass options against its Context handle before the one-context rule."""

    def execute(self, call: Call) -> Outcome:
        options = (call.args.get("PMO") or {}).get("Options", [])
        if call.op == "put" and any(o.startswith("MQPMO_PASS_") for o in options):
            return Outcome(CompCode="MQCC_FAILED", Reason="MQRC_CONTEXT_HANDLE_ERROR")
        return super().execute(call)


def test_an_implementation_with_the_other_order_differs_on_the_decision_only(tmp_path):
    scenario = SCENARIOS["put-options-one-context"]
    record = scenario_record(run_scenario(scenario, ContextFirst(), ReferenceAdapter()))
    assert record["status"] == "failed"
    blamed, also = scenario_blame(record)
    assert blamed == ["put.check-order"] and "put.options.one-context" in also
    writer = RunWriter(tmp_path, ContextFirst(), planned=[scenario.id])
    with writer.results_path.open("a") as out:
        out.write(json.dumps(record) + "\n")
    writer.finish(REGISTRY)
    report = json.loads((tmp_path / "conformance.json").read_text())
    validate_report(report)
    assert report["clauses"]["put.check-order"]["status"] == "decision differs"
    assert report["clauses"]["put.options.one-context"]["status"] != "failed"
    assert report["verdict"]["status"] == "passed"

