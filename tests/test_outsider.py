"""Read by an outsider: a field the implementation did not return is said to be missing (never `None`), and an
error is printed once."""

from __future__ import annotations

from pathlib import Path

from mq_conformance.conformance.cli import describe_failure
from mq_conformance.conformance.matching import Bindings, match
from mq_conformance.conformance.runner import ERROR, ScenarioResult, StepResult
from mq_conformance.reference.calls import Outcome


def test_a_missing_field_is_said_to_be_missing_not_none():
    outcome = Outcome(CompCode="MQCC_OK", Reason="MQRC_NONE", MD={"Priority": 0}, GMO={})
    problems = match({"MD": {"CorrelId": "$c", "Priority": 0, "MsgType": "MQMT_DATAGRAM"},
                      "GMO": {"GroupStatus": "MQGS_NOT_IN_GROUP"}}, outcome, Bindings())
    assert problems and all("None" not in p for p in problems), problems
    assert "MD.CorrelId: expected an identifier for $c, got nothing (the field is missing)" in problems[0]


class _Scenario:
    id, path, title = "s", Path("s.yaml"), ""

    def clause_ids(self) -> set[str]:
        return set()


def test_an_error_is_printed_once():
    step = StepResult(index=0, line=3, op="get", call={"op": "get"}, expect={"CompCode": "MQCC_OK"},
                      outcome={"error": "not implemented: MQGMO_LOCK"}, status=ERROR,
                      problems=["not implemented: MQGMO_LOCK"])
    lines = describe_failure(ScenarioResult(_Scenario(), ERROR, [step]), None)
    assert sum("not implemented: MQGMO_LOCK" in line for line in lines) == 1, lines


# -- the first difference is the failure; later ones are its consequences; earlier producers are suspects -----

SCENARIOS = Path(__file__).resolve().parent.parent / "fixtures" / "scenarios" / "put"


def _report(tmp_path: Path, adapter: str, scenario: str, capsys) -> tuple[dict, str]:
    import json

    from mq_conformance.conformance.cli import run_conformance

    status = run_conformance(adapter, tmp_path / "run", scenario_paths=[SCENARIOS / scenario], campaigns=[])
    assert status == 1
    console = capsys.readouterr().out
    return json.loads((tmp_path / "run" / "conformance.json").read_text()), console


def test_a_put_that_kept_the_given_correlid_is_the_suspect_of_the_get_that_then_fails(tmp_path, capsys):
    # the put with MQPMO_NEW_CORREL_ID only bound $c (any identifier passes), so the step passed; the get that
    # matches on $c is where the difference shows. The put's clause must be named, not left "not covered".
    report, console = _report(tmp_path, "mutant:new-correl-id-ignored", "put-correlid-generated-or-kept.yaml", capsys)
    clauses = report["clauses"]
    assert clauses["get.match.correl-id"]["status"] == "failed"
    assert clauses["put.correlid.generated"]["status"] == "suspect"
    failure, = report["failures"]
    assert failure["clauses"] == ["get.match.correl-id"] and failure["suspects"] == ["put.correlid.generated"]
    suspect, = failure["suspect_steps"]
    assert suspect["op"] == "put" and suspect["line"] == 8
    assert any("bound $c, which the failing step uses" in why for why in suspect["why"])
    assert any("CORREL-A, as given in a call, the model's is a new identifier" in why for why in suspect["why"])
    assert report["verdict"]["counts"]["failed_clauses"] == 1
    summary = (tmp_path / "run" / "summary.md").read_text()
    for text in (summary, console, (tmp_path / "run" / "conformance.html").read_text()):
        assert "put.correlid.generated" in text and "suspect" in text


def test_differences_after_the_first_are_consequences_and_fail_no_clause(tmp_path, capsys):
    # MQPMO_NEW_MSG_ID ignored: the first get by MSG-A takes the wrong message; the next two gets then differ
    # only because of it. Their clause get.no-msg-available is a consequence, not a failure.
    report, console = _report(tmp_path, "mutant:new-msg-id-ignored", "put-new-msg-id-replaces-given.yaml", capsys)
    clauses = report["clauses"]
    assert clauses["get.match.msg-id"]["status"] == "failed"
    assert clauses["get.no-msg-available"]["status"] == "consequence"
    assert clauses["put.msgid.generated"]["status"] == "suspect"  # its $new echoed MSG-A, where the model's did not
    assert report["verdict"]["counts"]["failed_clauses"] == 1
    assert report["summary"]["clauses_by_status"]["consequence"] == 1
    failure, = report["failures"]
    assert failure["clauses"] == ["get.match.msg-id"] and failure["consequences"] == ["get.no-msg-available"]
    assert [step["line"] for step in failure["consequence_steps"]] == [15, 17]
    assert failure["difference"]["problems"] == ["data: expected b'kept', got b'generated'"]
    summary = (tmp_path / "run" / "summary.md").read_text()
    for text in (summary, console):
        assert text.count("consequence (not counted): step") == 2
        # each difference once: the first failure's problem is not repeated as a consequence
        assert text.count("expected b'kept', got b'generated'") == 1


def test_a_failing_scenario_reads_the_same_in_the_console_and_in_the_summary(tmp_path, capsys):
    report, console = _report(tmp_path, "mutant:new-msg-id-ignored", "put-new-msg-id-replaces-given.yaml", capsys)
    summary = (tmp_path / "run" / "summary.md").read_text()
    block = console[console.index("FAILED put-new-msg-id-replaces-given"):].splitlines()[1:]
    shown = [line.strip() for line in block[:block.index(next(l for l in block if not l.startswith("  ")))]]
    assert shown[0].startswith("- call (") and ":13, step 4): get " in shown[0]  # as the file counts it
    assert shown[2] == "- expected by the scenario; got from the implementation"
    # every line the console prints for it is in summary.md (there escaped for Markdown)
    unescaped = summary.replace("\\", "")
    assert all(line in unescaped for line in shown), [line for line in shown if line not in unescaped]


# -- table tests and machines read like a scenario step; a crash of the suite is one line ---------------------

def _pytest_log(tmp_path: Path, args: list[str], adapter: str) -> list[dict]:
    import json
    import os
    import subprocess
    import sys

    log = tmp_path / "tests.jsonl"
    log.write_text("")
    env = {**os.environ, "MQCONF_TESTLOG": str(log), "MQCONF_REPORTS": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-o", "addopts=", "-q",
                           "-p", "mq_conformance.conformance.testlog", "--adapter", adapter, *args],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 1, done.stdout + done.stderr
    return [json.loads(line) for line in log.read_text().splitlines() if '"kind": "test"' in line]


def _no_traceback(text: str) -> None:
    for sign in ("Traceback", "AssertionError", ".py:", "assert ", "Error: "):
        assert sign not in text, (sign, text)


def test_a_failing_table_test_reads_like_a_scenario_step(tmp_path):
    from mq_conformance.conformance.certification import test_tables
    from mq_conformance.conformance.report import failure_lines, failure_of_test

    # the implementation completes a put that Table 2 row 4 says completes with MQCC_OK with a warning instead
    records = _pytest_log(tmp_path, [test_tables.__file__, "-k", "table2 and row4 and table2_says"],
                          "mutant:table:put.close-outcome.table2.row4:CompCode=MQCC_WARNING")
    failed = [r for r in records if r["status"] == "failed"]
    assert [r["id"].rsplit("[", 1)[-1] for r in failed] == ["put.close-outcome.table2.row4]"]
    record = failed[0]
    difference = record["difference"]
    assert difference["call"] == {"op": "put", "handle": "h", "data": "x"}
    assert difference["problems"] == ["CompCode: expected MQCC_OK, got MQCC_WARNING",
                                      "Reason: expected MQRC_NONE, got MQRC_INCOMPLETE_GROUP"]
    assert "table put.close-outcome.table2" in difference["expected_from"] and "row4" in difference["expected_from"]
    _no_traceback(record["message"])
    lines = failure_lines(failure_of_test(record, []), lambda clause: None, str)
    assert lines[0] == '- call: put {"handle": "h", "data": "x"}'
    assert "  - CompCode: expected MQCC_OK, got MQCC_WARNING" in lines
    assert "- clause `put.close-outcome.table2.row4`" in lines
    _no_traceback("\n".join(lines))


def test_a_crash_of_the_suite_is_one_line_labelled_as_a_suite_error_that_blames_no_clause(tmp_path):
    from mq_conformance.conformance.report import failure_lines, failure_of_test

    (tmp_path / "test_crash.py").write_text(
        "import pytest\n\n\n"
        "@pytest.mark.clause('put.msgid.generated')\n"
        "def test_a_bug_in_the_suite(adapter):\n"
        "    {}['missing']\n")
    record, = _pytest_log(tmp_path, ["test_crash.py"], "reference")
    assert record["status"] == "error"
    assert record["message"].startswith("suite error: KeyError: 'missing' (a bug of the suite; the traceback is in")
    assert "\n" not in record["message"] and "test_crash.py" not in record["message"]
    failure = failure_of_test(record, [])
    assert failure["clauses"] == []  # the implementation is not blamed for the suite's own crash
    assert failure_lines(failure, lambda clause: None, str) == [f"- {record['message']}", "- blames no clause"]


def test_a_machine_divergence_reads_like_a_scenario_step_with_the_model_as_the_expected_side():
    from mq_conformance.conformance.report import failure_lines, failure_of_test

    divergence = {"file": "divergence-matchingmachine.yaml", "path": "divergences/divergence-matchingmachine.yaml",
                  "scenario": "", "call": {"op": "get", "handle": "h"},
                  "problems": ["Reason: 'MQRC_NONE' vs 'MQRC_NO_MSG_AVAILABLE'"], "clauses": ["get.match.msg-id"]}
    record = {"id": "certification/test_differential.py::test_the_adapter_agrees_with_the_model[matching]",
              "status": "failed", "clauses": ["get.match.msg-id"], "blamed": ["get.match.msg-id"],
              "message": "x differs from the model on get\n  sequence written to divergence-matchingmachine.yaml"}
    lines = failure_lines(failure_of_test(record, [divergence]), lambda clause: None, str)
    assert lines[:3] == ['- call: get {"handle": "h"}',
                         "  - Reason: expected MQRC_NONE, got MQRC_NO_MSG_AVAILABLE",
                         "  - expected by the model (the reference implementation, given the same calls); "
                         "got from the implementation"]


def test_the_readme_quotes_what_a_failing_scenario_prints_today(monkeypatch, capsys):
    import re

    from mq_conformance.conformance import cli

    root = Path(__file__).resolve().parent.parent
    readme = (root / "README.md").read_text(encoding="utf-8")
    found = re.search(r"<!-- printed by the command above; tests/test_outsider.py checks it -->\n```text\n(.*?)```",
                      readme, re.DOTALL)
    assert found, "README.md's report section lost its quoted failure"
    command = re.search(r"\(`mqconf scenario\s+(\S+)\s+--adapter\s+(\S+)`\)", readme)
    assert command and command.groups() == ("fixtures/scenarios/put/put-correlid-generated-or-kept.yaml",
                                            "mutant:new-correl-id-ignored")
    monkeypatch.chdir(root)
    assert cli.main(["scenario", command.group(1), "--adapter", command.group(2)]) == 1
    assert capsys.readouterr().out == found.group(1), "README.md should quote what the command prints today"


def test_a_machine_reads_a_missing_field_as_nothing_and_an_error_as_an_error():
    from mq_conformance.conformance.difference import model_problem

    assert model_problem("MD.GroupId: 'GROUP-1' vs None") == (
        "MD.GroupId: expected GROUP-1, got nothing (the field is missing)")
    assert model_problem("error: None vs 'unknown op alter_queue'") == (
        "error: expected no error, got unknown op alter_queue")
    assert model_problem("Reason: 'MQRC_NONE' vs 'MQRC_Q_FULL'") == "Reason: expected MQRC_NONE, got MQRC_Q_FULL"


def test_the_page_shows_an_error_step_once_and_no_traceback_for_a_test():
    from mq_conformance.conformance.html import render_failure
    from mq_conformance.conformance.report import failure_of_test, scenario_failure, scenario_record

    step = StepResult(index=0, line=3, op="get", call={"op": "get", "handle": "h"}, expect={"CompCode": "MQCC_OK"},
                      outcome={"error": "not implemented: MQGMO_LOCK"}, status=ERROR,
                      problems=["not implemented: MQGMO_LOCK"])
    page = render_failure(scenario_failure(scenario_record(ScenarioResult(_Scenario(), ERROR, [step]))),
                          {"clauses": {}})
    assert page.count("not implemented: MQGMO_LOCK") == 1, page
    record = {"id": "certification/test_tables.py::test_x[row]", "status": "error",
              "clauses": ["put.msgid.generated"],
              "failure": "suite", "message": "suite error: KeyError: 'x' (a bug of the suite; the traceback is in "
                                             "pytest.log)"}
    page = render_failure(failure_of_test(record, []), {"clauses": {}})
    assert "suite error: KeyError" in page and "Traceback" not in page and "blames no clause" in page


def test_the_clauses_line_counts_suspects_and_consequences_and_adds_up(tmp_path, capsys):
    import re

    report, console = _report(tmp_path, "mutant:new-msg-id-ignored", "put-new-msg-id-replaces-given.yaml", capsys)
    summary = (tmp_path / "run" / "summary.md").read_text()
    total, parts = re.search(r"^Clauses: (\d+) in all; (.*)\.$", summary, re.MULTILINE).groups()
    counts = {status: int(n) for n, status in re.findall(r"(\d+) ([a-z ]+?)(?:,|$)", parts)}
    assert counts["failed"] == counts["suspect"] == counts["consequence"] == 1, counts
    assert sum(counts.values()) == int(total) == len(report["clauses"])
    assert "clauses: " + parts in console  # the console prints the same parts
