"""Every scenario of a run as a test case for CI tools (conformance/junit.py): JUnit suites by area with the clause
ids as properties and the failing step's expected and actual outcome in the message; Allure results grouped by area
(suite, feature) and clause (story). tests/test_report.py checks a whole `mqconf run` holds every scenario and
every test."""

from __future__ import annotations

import json
from pathlib import Path
from xml.etree import ElementTree

import pytest

from mq_conformance.conformance import cli
from mq_conformance.conformance.clauses import load_registry
from mq_conformance.conformance.junit import area_of, merge_junit, write_allure, write_ci_results, xml_text

REGISTRY = load_registry()
PYTEST_JUNIT = """<?xml version="1.0" encoding="utf-8"?><testsuites name="pytest tests"><testsuite name="pytest" \
errors="0" failures="1" skipped="0" tests="2" time="0.1"><testcase classname="tests.test_tables" name="test_a" \
time="0.01"/><testcase classname="tests.test_tables" name="test_b" time="0.01"><failure message="boom">x</failure>\
</testcase></testsuite></testsuites>"""


def _step(index, status, expect, outcome, op="put", line=7):
    return {"index": index, "line": line, "op": op, "call": {"op": op}, "expect": expect, "outcome": outcome,
            "status": status, "problems": [] if status == "passed" else ["Reason: expected A, got B"],
            "clauses": ["put.msgid.generated"]}


RECORDS = [
    {"id": "s-pass", "title": "t", "path": "x/put/s-pass.yaml", "status": "passed", "reason": "",
     "clauses": ["put.msgid.generated"], "steps": [_step(1, "passed", None, {"CompCode": "MQCC_OK"})]},
    {"id": "s-fail", "title": "t", "path": "x/put/s-fail.yaml", "status": "failed", "reason": "",
     "clauses": ["put.msgid.generated", "put.logical-order.table1.row1"],
     "steps": [_step(1, "passed", None, {"CompCode": "MQCC_OK"}),
               _step(2, "failed", {"CompCode": "MQCC_FAILED", "Reason": "MQRC_INCOMPLETE_GROUP", "MD": {"Offset": 0}},
                     {"CompCode": "MQCC_FAILED", "Reason": "MQRC_INCOMPLETE_MSG", "MD": {"Offset": 0, "Priority": 4}},
                     line=12)]},
    {"id": "s-error", "title": "t", "path": "x/get/s-error.yaml", "status": "error", "reason": "",
     "clauses": ["get.browse.first"],
     "steps": [_step(1, "error", None, {"error": "not implemented: \x00<MQGMO_LOCK> & \ud800more"}, op="get")]},
    {"id": "s-unclaimed", "title": "t", "path": "x/cluster/s-unclaimed.yaml", "status": "not claimed",
     "reason": "adapter does not claim cluster", "clauses": [], "steps": []},
]


def _cases(path: Path) -> dict[str, ElementTree.Element]:
    return {case.get("name"): case for case in ElementTree.parse(path).getroot().iter("testcase")}


def test_scenarios_join_pytests_tests_in_junit_as_suites_by_area_with_clauses_and_the_failing_step(tmp_path):
    (tmp_path / "junit.xml").write_text(PYTEST_JUNIT)
    merge_junit(tmp_path, RECORDS, REGISTRY)
    root = ElementTree.parse(tmp_path / "junit.xml").getroot()
    suites = {suite.get("name"): suite for suite in root.findall("testsuite")}
    assert set(suites) == {"pytest", "scenarios.put", "scenarios.get", "scenarios.cluster"}
    assert (root.get("tests"), root.get("failures"), root.get("errors"), root.get("skipped")) == ("6", "2", "1", "1")
    cases = _cases(tmp_path / "junit.xml")
    assert {"test_a", "test_b", "s-pass", "s-fail", "s-error", "s-unclaimed"} == set(cases)
    failing = cases["s-fail"]
    assert failing.get("classname") == "scenarios.put" and failing.get("file") == "x/put/s-fail.yaml"
    assert [p.get("value") for p in failing.iter("property") if p.get("name") == "clause"] == [
        "put.msgid.generated", "put.logical-order.table1.row1"]
    message = failing.find("failure").get("message")
    assert message.startswith("x/put/s-fail.yaml:12: step 2 put: expected ")
    assert '"Reason": "MQRC_INCOMPLETE_GROUP"' in message and '"Reason": "MQRC_INCOMPLETE_MSG"' in message
    assert "Priority" not in message  # the actual outcome shown on the fields the step expects
    assert "Reason: expected A, got B" in failing.find("failure").text
    assert cases["s-error"].find("error") is not None and cases["s-pass"].find("failure") is None
    assert "not claimed" in cases["s-unclaimed"].find("skipped").get("message")


def test_what_an_implementation_said_cannot_break_the_xml(tmp_path):
    merge_junit(tmp_path, RECORDS, REGISTRY)  # no pytest file: a scenario-only run
    error = _cases(tmp_path / "junit.xml")["s-error"].find("error").get("message")
    assert "<MQGMO_LOCK> & " in error and "\\u0000" in error  # parsed back: the file is well-formed XML
    assert xml_text("a\x00b\x1bc\ud800d\ttab") == "a\\x00b\\x1bc\\ud800d\ttab"
    assert xml_text("x" * 5000, 100).startswith("x" * 100) and "4900 more characters" in xml_text("x" * 5000, 100)


def test_merging_again_replaces_the_scenarios_rather_than_adding_them(tmp_path):
    (tmp_path / "junit.xml").write_text(PYTEST_JUNIT)
    merge_junit(tmp_path, RECORDS, REGISTRY)
    merge_junit(tmp_path, RECORDS[:1], REGISTRY)
    assert set(_cases(tmp_path / "junit.xml")) == {"test_a", "test_b", "s-pass"}
    assert ElementTree.parse(tmp_path / "junit.xml").getroot().get("tests") == "3"


def test_allure_results_group_scenarios_by_area_and_clause_and_a_rewrite_replaces_them(tmp_path):
    folder = tmp_path / "allure-results"
    folder.mkdir()
    (folder / "pytest-result.json").write_text('{"name": "test_a", "status": "passed"}')
    assert write_allure(tmp_path, RECORDS, REGISTRY, "my-adapter") == 4
    assert write_allure(tmp_path, RECORDS, REGISTRY, "my-adapter") == 4
    results = [json.loads(path.read_text()) for path in folder.glob("*-result.json")]
    assert len(results) == 5  # pytest's own kept, the scenarios' written once
    failing = next(r for r in results if r["name"] == "s-fail")
    labels = [(label["name"], label["value"]) for label in failing["labels"]]
    assert ("suite", "put") in labels and ("feature", "put") in labels and ("parentSuite", "scenarios") in labels
    assert ("story", "put.msgid.generated") in labels and ("story", "put.logical-order.table1.row1") in labels
    assert failing["status"] == "failed" and "MQRC_INCOMPLETE_MSG" in failing["statusDetails"]["message"]
    assert [step["status"] for step in failing["steps"]] == ["passed", "failed"]
    statuses = {r["name"]: r["status"] for r in results}
    assert statuses["s-error"] == "broken" and statuses["s-unclaimed"] == "skipped" and statuses["s-pass"] == "passed"


def test_a_scenario_area_is_that_of_most_of_its_clauses_else_its_folder():
    assert area_of(RECORDS[1], REGISTRY) == "put"
    assert area_of({"clauses": [], "path": "mine/odd/x.yaml"}, REGISTRY) == "odd"


def test_mqconf_run_puts_every_scenario_in_junit_and_allure(tmp_path, capsys):
    scenarios = Path(__file__).resolve().parents[1] / "fixtures" / "scenarios" / "close"
    output = tmp_path / "run"
    assert cli.main(["run", "--no-campaign", "--output", str(output), "--scenarios", str(scenarios)]) == 0
    records = [json.loads(line) for line in (output / "results.jsonl").read_text().splitlines()]
    assert records and set(_cases(output / "junit.xml")) == {r["id"] for r in records}
    assert f"junit: {output / 'junit.xml'} ({len(records)} scenarios and the tests)" in capsys.readouterr().out
    assert len(list((output / "allure-results").glob("*-result.json"))) == len(records)
    # `mqconf report DIR` rebuilds them the same
    before = set(_cases(output / "junit.xml"))
    assert cli.main(["report", str(output)]) == 0
    assert set(_cases(output / "junit.xml")) == before
    assert write_ci_results(output, REGISTRY)["scenarios"] == len(records)


@pytest.mark.parametrize("broken", ["<testsuites", ""])
def test_a_junit_file_cut_short_by_a_kill_still_gets_the_scenarios(tmp_path, broken):
    (tmp_path / "junit.xml").write_text(broken)
    merge_junit(tmp_path, RECORDS, REGISTRY)
    assert len(_cases(tmp_path / "junit.xml")) == len(RECORDS)
