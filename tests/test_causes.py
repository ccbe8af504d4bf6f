"""Causes first (issue 35, item 3): a report opens with the failures that fail the run grouped by cause - the
first differing call's operation and the options that set it apart, or the operation an implementation answered
with an error - largest first, with what each accounts for; the detail follows in the same order. The example
server with two features taken away gets a report whose first section names exactly those two."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from mq_conformance.conformance import cli
from mq_conformance.conformance.causes import call_options, cause_of, group_causes

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "docs" / "examples" / "server.js"
EXAMPLE_EXPECTED = REPO / "docs" / "examples" / "server-expected.yaml"


def _failure(failure_id: str, call: dict, status: str = "failed", error: str | None = None,
             clauses: tuple[str, ...] = ()) -> dict:
    return {"kind": "scenario", "id": failure_id, "status": status, "counts": True, "clauses": list(clauses),
            "step": {"op": call["op"], "call": call, "actual": {"error": error} if error else {"CompCode": "MQCC_OK"}}}


def _passing(call: dict) -> dict:
    return {"steps": [{"op": call["op"], "call": call, "status": "passed"}]}


def test_a_call_gives_its_options_at_any_depth():
    call = {"op": "get", "handle": "h", "GMO": {"Options": ["MQGMO_BROWSE_FIRST", "MQGMO_NO_WAIT"]},
            "MD": {"Format": "MQSTR"}}
    assert call_options(call) == ["MQGMO_BROWSE_FIRST", "MQGMO_NO_WAIT"]


def test_a_cause_is_the_options_no_passing_call_of_the_operation_gave():
    passing = [_passing({"op": "get", "GMO": {"Options": ["MQGMO_NO_WAIT"]}})]
    failures = [_failure("a", {"op": "get", "GMO": {"Options": ["MQGMO_BROWSE_FIRST", "MQGMO_NO_WAIT"]}}, clauses=("x",)),
                _failure("b", {"op": "get", "GMO": {"Options": ["MQGMO_BROWSE_FIRST"]}}, clauses=("y",)),
                _failure("c", {"op": "put", "PMO": {"Options": ["MQPMO_NEW_MSG_ID"]}})]
    causes = group_causes(failures, passing)
    assert [(c["key"], c["scenarios"], c["clauses"]) for c in causes] == [
        ("get [MQGMO_BROWSE_FIRST]", ["a", "b"], ["x", "y"]), ("put [MQPMO_NEW_MSG_ID]", ["c"], [])]
    assert [f["cause"] for f in failures] == ["get [MQGMO_BROWSE_FIRST]"] * 2 + ["put [MQPMO_NEW_MSG_ID]"]


def test_an_error_answer_is_its_own_cause_never_a_wrong_answer():
    cause = cause_of(_failure("a", {"op": "sub", "SD": {"Options": ["MQSO_CREATE"]}}, "error",
                              "not implemented: subscriptions"), {})
    assert cause["error"] and cause["key"] == "sub: answered with an error: not implemented: subscriptions"
    # a table test's difference whose only problem is an error answer
    test = {"kind": "test", "id": "t", "status": "error", "counts": True, "clauses": [],
            "difference": {"call": {"op": "inquire"}, "problems": ["the implementation answered with an error: no"]}}
    assert cause_of(test, {})["key"] == "inquire: answered with an error: no"


def test_failures_that_do_not_fail_the_run_have_no_cause():
    failures = [{**_failure("a", {"op": "put"}), "status": "expected failure"},
                {**_failure("b", {"op": "put"}), "counts": False}]
    assert group_causes(failures, []) == [] and "cause" not in failures[0]


def _without_put1_and_browse(folder: Path) -> Path:
    """The example server with two features taken away: MQPUT1 (its op removed: an unknown op) and browsing
    (MQGMO_BROWSE_*: not implemented)."""
    text = EXAMPLE.read_text(encoding="utf-8")
    check = '    if ((options & V.MQGMO_BROWSE_FIRST) && (options & V.MQGMO_BROWSE_NEXT)) return fail("MQRC_OPTIONS_ERROR");'
    assert "  put1(call) {" in text and check in text, "the example server changed: update this test's edits"
    text = text.replace("  put1(call) {", "  put1_taken_away(call) {", 1)
    text = text.replace(check, '    if (browse) throw new NotImplemented("browse");\n' + check, 1)
    server = folder / "server.js"
    server.write_text(text, encoding="utf-8")
    return server


def test_a_partial_implementation_gets_the_features_it_lacks_as_the_causes_of_all_its_failures(tmp_path, capsys):
    node = shutil.which("node")
    if node is None:
        pytest.skip("no node on PATH: the example server is JavaScript")
    server = _without_put1_and_browse(tmp_path)
    output = tmp_path / "run"
    status = cli.main(["run", "--no-campaign", "--seed", "0", "--adapter",
                       f"jsonlines:{node} {server} {REPO / 'fixtures' / 'constants.json'}",
                       "--expectations", str(EXAMPLE_EXPECTED), "--output", str(output)])
    out = capsys.readouterr().out
    assert status == 1
    report = json.loads((output / "conformance.json").read_text())
    keys = [cause["key"] for cause in report["causes"]]
    assert sorted(keys) == ["get: answered with an error: not implemented: browse",
                            "put1: answered with an error: unknown op put1"], keys
    failing = [f for f in report["failures"] if f["status"] in ("failed", "error")]
    assert failing and all(f.get("cause") in keys for f in failing)
    # every failure of the run is one of those causes' (and only an expected failure is anything else)
    assert sum(cause["failures"] for cause in report["causes"]) == len(failing)
    assert {f["status"] for f in report["failures"]} <= {"error", "expected failure"}
    # the first section of each form: summary.md and the page after the verdict, the console before it
    summary = (output / "summary.md").read_text()
    assert summary.index("## Causes") < summary.index("Scenarios:") < summary.index("## Failures")
    page = (output / "conformance.html").read_text()
    assert page.index('id="verdict"') < page.index('id="causes"') < page.index('id="summary"')
    assert page.index('id="failures"') < page.index('id="decisions"')
    assert out.index("## Causes") < out.index(report["verdict"]["headline"]) < out.index("html: ")
    # the detail follows the causes' order, largest first
    order = [keys.index(f["cause"]) for f in report["failures"] if f.get("cause")]
    assert order == sorted(order)
    assert "answered with an error" in report["verdict"]["headline"]
    # docs/reading-a-report.md works this very run through: its causes and its heading are this run's
    guide = (REPO / "docs" / "reading-a-report.md").read_text(encoding="utf-8")
    assert all(f"- {key}: ..." in guide for key in keys)
    heading = next(line for line in summary.splitlines() if line.startswith("### error: browse-first-and-next:"))
    assert heading in guide, heading
