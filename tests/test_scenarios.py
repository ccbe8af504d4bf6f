"""Every scenario under fixtures/scenarios runs green against the adapter under test."""

from __future__ import annotations

import pytest

import fixtures
from conformance.clauses import load_registry
from conformance.cli import describe_failure
from conformance.runner import NOT_CLAIMED, PASSED, reference_attribution, run_scenario
from conformance.scenario import load_scenario, scenario_files

FILES = scenario_files([fixtures.SCENARIOS])


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario_holds(path, adapter):
    scenario = load_scenario(path)
    result = run_scenario(scenario, adapter, reference_attribution(adapter))
    if result.status == NOT_CLAIMED:
        pytest.skip(f"not claimed: {result.reason}")
    assert result.status == PASSED, "\n".join(describe_failure(result, load_registry()))


def test_scenario_ids_are_unique():
    ids = [load_scenario(path).id for path in FILES]
    assert len(ids) == len(set(ids))


def test_every_cited_clause_exists():
    registry = load_registry()
    unknown = {(str(path), c) for path in FILES for c in load_scenario(path).clause_ids() if c not in registry}
    assert not unknown


def test_every_scenario_cites_a_clause():
    assert [p for p in FILES if not load_scenario(p).clause_ids()] == []
