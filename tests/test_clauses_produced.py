"""Every clause a scenario or a certification test cites can fail: the model names it in that scenario's results
(the clauses of the steps), so a failing step blames it and a passing one credits it - never by accident. An
order decision cited on a step (put.check-order) applies where that step's call breaks two rules (tests/
second_reasons.py finds them). The certification tests run once on the model, recording what it names in each
(tests/clause_recorder.py): a test with fixed calls must see each clause it cites named there; a state machine or
property, somewhere in the suite.

The exceptions are data, in fixtures/clause-production.yaml: clauses of pure documentation (principles the model
holds by construction, never the decision of one call) and the known gaps (a clause the model applies in a
scenario without naming it there yet). Both lists can only shrink: a listed clause that the model does name
fails this test too, so the list stays true.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from functools import cache
from pathlib import Path

import pytest
import yaml

from mq_conformance import fixtures
from mq_conformance.adapters.reference import ReferenceAdapter
from mq_conformance.conformance.clauses import load_registry
from mq_conformance.conformance.runner import run_scenario
from second_reasons import two_rules_broken
from tests_support import suite_scenarios

LEDGER = yaml.safe_load((fixtures.ROOT / "clause-production.yaml").read_text(encoding="utf-8"))
DOCUMENTATION: dict[str, str] = LEDGER["documentation"]
GAPS: dict[tuple[str, str], str] = {(gap["clause"], scenario): gap["reason"]
                                    for gap in LEDGER["gaps"] for scenario in gap["scenarios"]}
TEST_GAPS: dict[tuple[str, str], str] = {(gap["clause"], test): gap["reason"]
                                         for gap in LEDGER["test-gaps"] for test in gap["tests"]}
SCENARIOS = suite_scenarios()
TESTS = Path(__file__).resolve().parent
CERTIFICATION = TESTS.parent / "conformance" / "certification"


@cache
def produced() -> dict[str, frozenset[str]]:
    """Scenario id -> the clauses the model named in its steps."""
    named = {}
    for scenario in SCENARIOS:
        result = run_scenario(scenario, ReferenceAdapter())
        named[scenario.id] = frozenset(c for step in result.steps for c in step.clauses)
    return named


@cache
def ordering() -> dict[str, frozenset[str]]:
    """Scenario id -> the order decisions its steps cite where the step's call breaks two rules: the decision
    applies there (tests/test_order_decisions.py finds those steps and pins that they cite it)."""
    by_scenario: dict[str, set[str]] = {}
    scenarios = {s.id: s for s in SCENARIOS}
    for scenario_id, index in two_rules_broken():
        by_scenario.setdefault(scenario_id, set()).update(scenarios[scenario_id].steps[index].clauses)
    return {k: frozenset(v) for k, v in by_scenario.items()}


@pytest.mark.parametrize("scenario", [pytest.param(s, id=s.id) for s in SCENARIOS])
def test_every_clause_a_scenario_cites_is_named_by_the_model_there(scenario):
    named = produced()[scenario.id] | ordering().get(scenario.id, frozenset())
    silent = [c for c in scenario.clause_ids() if c not in named and c not in DOCUMENTATION
              and (c, scenario.id) not in GAPS]
    assert silent == [], (f"{scenario.id} cites clauses the model never names in its steps, so they can neither "
                          f"fail nor pass there: {silent}")


def test_listed_gaps_name_clauses_their_scenarios_cite():
    cited = {(c, s.id) for s in SCENARIOS for c in s.clause_ids()}
    assert sorted(f"{c} in {s}" for (c, s) in GAPS if (c, s) not in cited) == []


def test_documentation_clauses_are_never_named_and_exist():
    registry = load_registry()
    assert [c for c in DOCUMENTATION if c not in registry] == []
    everywhere = frozenset().union(*produced().values())
    assert sorted(c for c in DOCUMENTATION if c in everywhere) == [], \
        "a clause the model names is not pure documentation"
    assert all(DOCUMENTATION.values())


def test_the_model_names_the_clauses_it_once_left_silent():
    # The two clauses issue 30 found never produced, now named where they apply.
    everywhere = frozenset().union(*produced().values())
    assert {"get.browse.priority-arrivals-need-browse-first", "get.browse.truncated-keeps-cursor"} <= everywhere


@cache
def certification_runs() -> dict[str, dict]:
    """Certification test (file::name[id]) -> what it cites, what the model named while it ran, and whether its
    calls are drawn by Hypothesis: the certification tests run once on the model (tests/clause_recorder.py), with
    a fixed seed, in a pytest of their own."""
    with tempfile.TemporaryDirectory() as folder:
        record = Path(folder) / "clauses.json"
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")]),
               "MQCONF_CLAUSE_RECORD": str(record)}
        done = subprocess.run([sys.executable, "-m", "pytest", "-c", str(CERTIFICATION / "pytest.ini"),
                               str(CERTIFICATION), "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
                               "-p", "clause_recorder", "--adapter", "clause_recorder:RecordingAdapter",
                               "--hypothesis-seed=0"], env=env, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
        found = json.loads(record.read_text(encoding="utf-8"))
    return {node.split("certification/")[-1]: entry for node, entry in found.items()}


def named_by_fixed_calls() -> frozenset[str]:
    """What the model names in the scenarios and in the certification tests whose calls are fixed."""
    runs = certification_runs().values()
    return frozenset().union(*produced().values(), *(set(e["named"]) for e in runs if not e["drawn"]))


def test_every_clause_a_certification_test_cites_is_named_by_the_model_where_it_applies():
    # A test whose calls are fixed names each clause it cites in its own calls; a state machine or a property
    # (calls drawn at random) names each somewhere in the suite: in a scenario or a fixed test.
    fixed = named_by_fixed_calls()
    silent = []
    for test, entry in sorted(certification_runs().items()):
        named = fixed if entry["drawn"] else set(entry["named"])
        silent += [f"{c} in {test}" for c in entry["cites"]
                   if c not in named and c not in DOCUMENTATION and (c, test) not in TEST_GAPS]
    assert silent == [], "certification tests cite clauses the model never names where they apply: " \
                         "name them in the model, or list them in fixtures/clause-production.yaml"


def test_listed_test_gaps_are_cited_and_still_silent():
    fixed = named_by_fixed_calls()
    stale = []
    for (clause, test), reason in sorted(TEST_GAPS.items()):
        entry = certification_runs().get(test)
        if entry is None or clause not in entry["cites"]:
            stale.append(f"{clause} in {test}: not cited there")
        elif clause in (fixed if entry["drawn"] else set(entry["named"])):
            stale.append(f"{clause} in {test}: named now, delete the gap")
        assert reason
    assert stale == []


CEILING = Path(__file__).parent / "clause-production-gaps-ceiling.txt"


def test_the_ledger_of_gaps_only_shrinks():
    ceiling = {tuple(line.split()) for line in CEILING.read_text(encoding="utf-8").splitlines()
               if line.strip() and not line.startswith("#")}
    added = sorted(f"{clause} in {scenario}" for clause, scenario in GAPS if (clause, scenario) not in ceiling)
    assert added == [], ("fixtures/clause-production.yaml may only lose gaps (tests/clause-production-gaps-ceiling.txt "
                         f"lists the most it may hold); make the model name these clauses instead: {added}")


def test_a_listed_gap_is_still_a_gap():
    # A gap the model has closed (it names the clause there now) leaves the ledger, so the ledger stays true.
    closed = sorted(f"{clause} in {scenario}" for clause, scenario in GAPS if clause in produced().get(scenario, ()))
    assert closed == [], f"the model names these clauses now: delete them from the ledger and the ceiling: {closed}"
