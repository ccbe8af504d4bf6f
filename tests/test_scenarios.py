"""Every scenario under fixtures/scenarios runs green against the adapter under test."""

from __future__ import annotations

import pytest

from mq_conformance.conformance.clauses import load_registry
from mq_conformance.conformance.cli import describe_failure
from mq_conformance.conformance.runner import NOT_CLAIMED, PASSED, reference_attribution, run_scenario
from tests_support import suite_scenarios

SCENARIOS = suite_scenarios()
CASES = [
    pytest.param(s, id=s.id, marks=[pytest.mark.capability(*sorted(s.capabilities)),
                                    pytest.mark.clause(*sorted(s.clause_ids()))])
    for s in SCENARIOS
]


@pytest.mark.parametrize("scenario", CASES)
def test_scenario_holds(scenario, adapter):
    result = run_scenario(scenario, adapter, reference_attribution(adapter))
    if result.status == NOT_CLAIMED:
        pytest.skip(f"not claimed: {result.reason}")
    assert result.status == PASSED, "\n".join(describe_failure(result, load_registry()))


def test_scenario_ids_are_unique():
    ids = [s.id for s in SCENARIOS]
    assert len(ids) == len(set(ids))


def test_scenario_id_is_its_file_name():
    assert [s.path for s in SCENARIOS if s.path.stem != s.id] == []


def test_every_cited_clause_exists():
    registry = load_registry()
    unknown = {(str(s.path), c) for s in SCENARIOS for c in s.clause_ids() if c not in registry}
    assert not unknown


def test_every_scenario_cites_a_clause():
    assert [s.path for s in SCENARIOS if not s.clause_ids()] == []
