"""One set of numbers: a share never says more than is true, and the badge says the verdict in a word."""

from __future__ import annotations

import pytest

from mq_conformance.conformance.badge import badge_for
from mq_conformance.conformance.report import count_line, percent


@pytest.mark.parametrize(("part", "whole", "shown"), [
    (314, 315, "99.7%"), (1999, 2000, "99.9%"), (19999, 20000, "99.9%"), (315, 315, "100%"),
    (1, 2000, "0.1%"), (1, 20000, "0.1%"), (0, 315, "0%"), (16, 63, "25.4%"), (0, 0, "-"),
])
def test_a_percentage_never_rounds_up_to_100_nor_down_to_0(part, whole, shown):
    assert percent(part, whole) == shown


def test_a_count_line_names_every_status_and_adds_up():
    counts = {"scenarios": 10, "passed": 4, "failed": 1, "error": 1, "expected failure": 2, "unexpected pass": 1,
              "not claimed": 1}
    line = count_line(counts, "scenarios", "Scenarios")
    assert line == ("Scenarios: 10 run, 4 passed, 1 failed, 1 errors, 2 expected failures, 1 unexpected passes, "
                    "1 not claimed")
    assert count_line({"total": 3, "passed": 3}, "total", "Tests") == "Tests: 3 run, 3 passed, 0 failed, 0 errors, " \
                                                                       "0 not claimed"
    assert sum(int(part.split()[0]) for part in line.split(" run, ")[1].split(", ")) == 10


def _report(status: str, **counts) -> dict:
    base = {"failed_clauses": 0, "failed_scenarios": 0, "failed_tests": 0, "unexpected_passes": 0}
    return {"verdict": {"status": status, "counts": {**base, **counts}}, "adapter": {"name": "x"},
            "summary": {"clauses": 315, "clauses_by_status": {"passed": 16, "not claimed": 252}}}


@pytest.mark.parametrize(("status", "counts", "message"), [
    ("passed", {}, "PASSED 16/63 clauses"),
    ("failed", {"failed_clauses": 3}, "FAILED 16/63, 3 clauses failed"),
    ("failed", {}, "FAILED 16/63"),
    ("incomplete", {}, "INCOMPLETE 16/63"),
])
def test_the_badge_says_the_verdict_and_counts_the_claimed_clauses(status, counts, message):
    assert f"<title>MQ conformance: x: {message}</title>" in badge_for(_report(status, **counts))


PYTEST_JUNIT = """<?xml version="1.0" encoding="utf-8"?><testsuites name="pytest tests"><testsuite name="pytest" \
errors="0" failures="1" skipped="1" tests="4" time="0.1">\
<testcase classname="conformance.certification.test_tables" name="test_a[row1]" time="0.01"/>\
<testcase classname="conformance.certification.test_tables" name="test_b" time="0.01">\
<skipped type="pytest.xfail" message="expected failure: not implemented"/></testcase>\
<testcase classname="conformance.certification.test_differential" name="test_m[core]" time="0.01"/>\
<testcase classname="conformance.certification.test_tables" name="test_d" time="0.01">\
<failure message="[XPASS(strict)] expected failure: fixed">x</failure></testcase>\
</testsuite></testsuites>"""


def test_junit_gives_the_reports_counts_and_reads_red_exactly_when_the_verdict_failed(tmp_path):
    """JUnit has passed, failure, error and skipped only: an expected failure (and a listed one a random search
    did not hit) is a failure of that type, since the verdict fails for it; each case says the report's status."""
    import json
    from collections import Counter
    from types import SimpleNamespace
    from xml.etree import ElementTree

    from mq_conformance.conformance.clauses import load_registry
    from mq_conformance.conformance.junit import write_ci_results
    from mq_conformance.conformance.report import RunWriter

    registry = load_registry()

    def scenario(name: str, status: str) -> dict:
        step = {"index": 0, "line": 5, "op": "put", "call": {"op": "put"}, "expect": {"CompCode": "MQCC_OK"},
                "outcome": {"CompCode": "MQCC_OK" if status == "passed" else "MQCC_FAILED"},
                "status": "passed" if status in ("passed", "not claimed") else "failed",
                "problems": [], "clauses": ["put.msgid.generated"], "setup": False}
        return {"id": name, "title": name, "path": f"{name}.yaml", "status": status,
                "reason": "listed" if status == "expected failure" else "", "clauses": ["put.msgid.generated"],
                "steps": [] if status == "not claimed" else [step]}

    def test(nodeid: str, status: str) -> dict:
        return {"kind": "test", "id": nodeid, "status": status, "when": "call", "clauses": [], "blamed": [],
                "duration": 0.01, "message": "listed" if status != "passed" else ""}

    scenarios = [scenario("s-pass", "passed"), scenario("s-expected", "expected failure"),
                 scenario("s-unclaimed", "not claimed")]
    tests = [test("conformance/certification/test_tables.py::test_a[row1]", "passed"),
             test("conformance/certification/test_tables.py::test_b", "expected failure"),
             test("conformance/certification/test_differential.py::test_m[core]", "not seen this run"),
             test("conformance/certification/test_tables.py::test_d", "unexpected pass")]
    adapter = SimpleNamespace(name="sample", version="1", capabilities=frozenset({"core"}))
    writer = RunWriter(tmp_path, adapter, planned=[s["id"] for s in scenarios])
    with writer.results_path.open("a") as out:
        out.writelines(json.dumps(record) + "\n" for record in scenarios)
    writer.plan_tests()
    (tmp_path / "tests.jsonl").write_text("".join(json.dumps(line) + "\n" for line in [
        {"kind": "collected", "count": len(tests), "ids": [t["id"] for t in tests]}, *tests,
        {"kind": "finished", "exitstatus": 1}]))
    (tmp_path / "junit.xml").write_text(PYTEST_JUNIT)
    writer.finish(registry)
    for _ in range(2):  # as mqconf run writes it, and again as mqconf report does: the same
        write_ci_results(tmp_path, registry)
        report = json.loads((tmp_path / "conformance.json").read_text())
        root = ElementTree.parse(tmp_path / "junit.xml").getroot()
        cases = list(root.iter("testcase"))
        said = Counter(p.get("value") for case in cases for p in case.iter("property") if p.get("name") == "status")
        s, t = report["summary"], report["summary"]["tests"]
        counted = Counter({status: s.get(status, 0) + t.get(status, 0) for status in
                           ("passed", "failed", "error", "expected failure", "unexpected pass", "not seen this run",
                            "not claimed", "skipped")})
        assert said == +counted and len(cases) == int(root.get("tests")) == s["scenarios"] + t["total"]
        failing = ("failed", "expected failure", "unexpected pass", "not seen this run")
        assert int(root.get("failures")) == sum(counted[status] for status in failing) == 4
        assert int(root.get("errors")) == counted["error"] and int(root.get("skipped")) == counted["not claimed"]
        assert report["verdict"]["status"] == "failed" and int(root.get("failures")) + int(root.get("errors")) > 0
        types = {case.get("name"): case.find("failure").get("type") for case in cases
                 if case.find("failure") is not None}
        assert types["test_b"] == types["s-expected"] == "expected failure"
        assert types["test_m[core]"] == "not seen this run"
