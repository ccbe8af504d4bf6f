"""Reproducible and excusable: a machine's divergence says which value is the model's, and `mqconf scenario` judges
with the implementation's expectations file as `mqconf run` does."""

from __future__ import annotations

from pathlib import Path

from mq_conformance.conformance.differential import divergence_line, name_sides


def test_each_differing_field_names_the_models_value_and_the_implementations():
    line = divergence_line("my-mq 1.0", "put", {"handle": "h"},
                           ["Reason: 'MQRC_NONE' vs 'MQRC_Q_FULL'", "MD: present vs absent"])
    assert line == ("my-mq 1.0 differs from the model on put {'handle': 'h'}: Reason: model 'MQRC_NONE', "
                    "implementation 'MQRC_Q_FULL'; MD: model present, implementation absent")


def test_a_problem_of_another_shape_is_kept_as_it_is():
    assert name_sides("the server is not running") == "the server is not running"


def test_mqconf_scenario_takes_the_expectations_file_and_judges_as_a_run_does(tmp_path, capsys):
    import shutil

    from mq_conformance.conformance import cli
    from mq_conformance.fixtures import SCENARIOS

    node = shutil.which("node")
    if node is None:
        import pytest

        pytest.skip("needs Node.js for the guide's example server")
    root = Path(__file__).resolve().parent.parent
    adapter = f"jsonlines:{node} {root / 'docs' / 'examples' / 'server.js'}"
    expected = root / "docs" / "examples" / "server-expected.yaml"
    folder = SCENARIOS / "browse"
    assert cli.main(["scenario", str(folder), "--adapter", adapter]) == 1  # its known gaps fail
    capsys.readouterr()
    assert cli.main(["scenario", str(folder), "--adapter", adapter, "--expectations", str(expected)]) == 0
    out = capsys.readouterr().out
    assert "EXPECTED FAILURE browse-length-unknown: MQGMO_BROWSE_MSG_UNDER_CURSOR is not implemented" in out
    assert " 0 failed, 0 errors, " in out and "expected failures" in out


LISTED = '''
from hypothesis import given, settings, strategies as st


@settings(max_examples=5, database=None)
@given(st.integers())
def test_a_search_that_did_not_hit_it(n):
    assert isinstance(n, int)


@settings(max_examples=5, database=None)
@given(st.integers())
def test_a_search_that_hit_it(n):
    assert not isinstance(n, int)


def test_a_fixed_check():
    assert True
'''


def test_a_listed_random_search_that_passes_is_not_seen_this_run_and_a_listed_fixed_test_an_unexpected_pass(tmp_path):
    import json
    import os
    import subprocess
    import sys

    (tmp_path / "test_listed.py").write_text(LISTED)
    (tmp_path / "expected.yaml").write_text("expected_failures:\n" + "".join(
        f"  - test: test_listed.py::{name}\n    reason: seen sometimes\n"
        for name in ("test_a_search_that_did_not_hit_it", "test_a_search_that_hit_it", "test_a_fixed_check")))
    log = tmp_path / "tests.jsonl"
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p",
                           "mq_conformance.conformance.testlog", "--expectations", "expected.yaml", "test_listed.py"],
                          cwd=tmp_path, env={**os.environ, "MQCONF_TESTLOG": str(log)}, capture_output=True, text=True,
                          timeout=120)
    records = [json.loads(line) for line in log.read_text().splitlines()]
    statuses = {r["id"].split("::")[-1]: r["status"] for r in records if r["kind"] == "test"}
    assert statuses == {"test_a_search_that_did_not_hit_it": "not seen this run",
                        "test_a_search_that_hit_it": "expected failure",
                        "test_a_fixed_check": "unexpected pass"}, done.stdout[-2000:]
    unseen = next(r for r in records if r.get("status") == "not seen this run")
    assert unseen["message"] == "seen sometimes"


def test_a_random_search_not_seen_this_run_keeps_its_clause_listed_and_the_run_failed(tmp_path):
    import json

    from mq_conformance.conformance.clauses import load_registry
    from mq_conformance.conformance.report import RunWriter

    adapter = type("A", (), {"name": "sample", "version": "1", "capabilities": frozenset({"core"})})()
    writer = RunWriter(tmp_path, adapter, planned=[])
    writer.plan_tests()
    test = {"kind": "test", "id": "test_differential.py::test_the_adapter_agrees_with_the_model[core]",
            "status": "not seen this run", "when": "call", "clauses": ["put.msgid.generated"], "blamed": [],
            "duration": 0.1, "message": "the machine finds the wrong MsgId sometimes"}
    (tmp_path / "tests.jsonl").write_text("".join(json.dumps(line) + "\n" for line in [
        {"kind": "collected", "count": 1, "ids": [test["id"]]}, test, {"kind": "finished", "exitstatus": 0}]))
    writer.finish(load_registry())
    report = json.loads((tmp_path / "conformance.json").read_text())
    assert report["summary"]["tests"]["not seen this run"] == 1
    assert report["clauses"]["put.msgid.generated"]["status"] == "expected failure"  # the implementation says so
    assert report["verdict"]["status"] == "failed" and report["verdict"]["counts"]["not_seen"] == 1
    assert "1 expected failure not seen this run" in report["verdict"]["headline"]
    summary = (tmp_path / "summary.md").read_text()
    assert "1 not seen this run" in summary and "did not hit it this run): the machine finds the wrong MsgId" in summary
    assert "unexpected pass" not in summary and "\n- the machine finds" not in summary  # no failure to show


def test_a_machines_divergence_can_be_listed_by_its_signature_as_a_campaigns_can(tmp_path):
    """A state machine's minimal divergence has a campaign signature (written in its record, named in its
    failure); an expectations file listing it makes the machine an expected failure with that reason."""
    import json
    import os
    import subprocess
    import sys

    from mq_conformance.conformance.certification import test_differential

    mutant = "mutant:table:put.logical-order.table1.row5:GroupId=MQGI_NONE"

    def machine(*extra: str) -> dict:
        log = tmp_path / "tests.jsonl"
        log.unlink(missing_ok=True)
        subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p",
                        "mq_conformance.conformance.testlog", "--hypothesis-seed=0", "--adapter", mutant,
                        test_differential.__file__, "-k", "groups", *extra], cwd=tmp_path, capture_output=True,
                       timeout=300, env={**os.environ, "MQCONF_TESTLOG": str(log), "MQCONF_REPORTS": str(tmp_path)})
        return next(r for r in map(json.loads, log.read_text().splitlines()) if r["kind"] == "test")

    assert machine()["status"] == "failed"
    slug = json.loads((tmp_path / "divergences" / "divergence-groupsmachine.json").read_text())["signature"]
    assert slug.startswith("put-")
    (tmp_path / "expected.yaml").write_text(f"expected_failures:\n  - signature: {slug}\n"
                                            "    reason: the GroupId of a group is not generated\n")
    listed = machine("--expectations", "expected.yaml")
    assert listed["status"] == "expected failure" and listed["message"] == "the GroupId of a group is not generated"
