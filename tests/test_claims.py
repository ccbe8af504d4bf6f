"""The served model earns exactly 100% with nothing not covered under every claim: each capability alone with
what it requires, and all of them together (issue 35). A certificate counts the clauses of the claim
(fixtures/capabilities.yaml ``clauses``), whatever else the checks met.

Cost: one run of the served model claiming everything and one claiming core, not one per claim. What a check
finds does not depend on what else is claimed (the runner and the plugin only run or skip it), so a certificate
of any claim is a function of one run's per-check results (report.as_claimed); the core run, made for real, shows
that function gives what a real run gives."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from mq_conformance.adapters.capabilities import load_capabilities
from mq_conformance.conformance import cli
from mq_conformance.conformance.clauses import load_registry
from mq_conformance.conformance.report import build_report

from test_clause_capabilities import closure


def _served(*arguments: str) -> str:
    script = Path(sys.executable).parent / "mqconf"
    command = [str(script)] if script.exists() else [sys.executable, "-m", "mq_conformance.conformance.cli"]
    return "jsonlines:" + shlex.join([*command, "serve", "--stdio", *arguments])


def _claims() -> dict[str, frozenset[str]]:
    every = frozenset(load_capabilities())
    return {**{name: closure([name]) for name in every}, "everything": every}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """The served model's run claiming everything, and claiming core (seed fixed: a repeatable search)."""
    base = tmp_path_factory.mktemp("claims")
    folders = {}
    for name, extra in (("everything", ()), ("core", ("--claim", "core"))):
        folders[name] = base / name
        status = cli.main(["run", "--no-campaign", "--seed", "0", "--adapter", _served(*extra),
                           "--output", str(folders[name])])
        assert status == 0, f"the served model claiming {name} did not pass"
    return folders


@pytest.mark.self_check
def test_the_served_model_earns_every_claimed_clause_under_every_claim(runs):
    registry = load_registry()
    for name, claim in _claims().items():
        report = build_report(runs["everything"], registry, claim=claim)
        counted = registry.counted(claim)
        statuses = {c: report["clauses"][c]["status"] for c in counted}
        assert set(statuses.values()) == {"passed"}, (name, {c: s for c, s in statuses.items() if s != "passed"})
        by_status = report["summary"]["clauses_by_status"]
        assert by_status["not covered"] == 0 and by_status["passed"] == len(counted), (name, by_status)
        headline = report["verdict"]["headline"]
        assert report["verdict"]["status"] == "passed", (name, headline)
        assert headline.startswith(f"PASSED: {len(counted)}/{len(counted)} claimed clauses passed (100%)"), headline


@pytest.mark.self_check
def test_a_claim_computed_from_a_larger_run_is_what_a_real_run_of_that_claim_reports(runs):
    registry = load_registry()
    real = build_report(runs["core"], registry)
    derived = build_report(runs["everything"], registry, claim=frozenset({"core"}))
    assert real["adapter"]["capabilities"] == derived["adapter"]["capabilities"] == ["core"]
    assert {c: v["status"] for c, v in real["clauses"].items()} == {c: v["status"] for c, v in derived["clauses"].items()}
    assert real["verdict"]["headline"] == derived["verdict"]["headline"]
    assert {r["id"]: r["status"] for r in real["scenarios"]} == {r["id"]: r["status"] for r in derived["scenarios"]}
    assert {t["id"]: t["status"] for t in real["tests"]} == {t["id"]: t["status"] for t in derived["tests"]}
