"""The pytest plugin a certifier runs: unclaimed areas are reported as not claimed, an implementation's
expected failures are strict (an expected failure that passes is reported), and clause ids reach JUnit.

One check runs pytest in a subprocess, as a certifier does (the plugin found through its ``pytest11`` entry
point in a fresh interpreter); the others run pytest in process with ``pytester``, where the plugin is loaded
through the same entry point, at a fraction of the start-up cost.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

TEST = '''
import pytest

@pytest.mark.capability("cluster")
def test_needs_an_area_nobody_claims(adapter):
    assert False

@pytest.mark.clause("put.logical-order.table1.row1")
def test_passes(adapter):
    assert adapter.name == "reference"

@pytest.mark.clause("put.logical-order.table1.row2")
def test_fails():
    assert False
'''


# The model, claiming only core: the sample's cluster test is not claimed.
CORE_ONLY = '''
from mq_conformance.adapters.reference import ReferenceAdapter


class CoreOnly(ReferenceAdapter):
    capabilities = frozenset({"core"})
'''


def _pytest(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    (tmp_path / "test_sample.py").write_text(TEST)
    (tmp_path / "core_only.py").write_text(CORE_ONLY)
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rsxX",
                           str(tmp_path / "test_sample.py"), "--adapter=core_only:CoreOnly", *args],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)


def _inline(pytester: pytest.Pytester, request: pytest.FixtureRequest, *args: str) -> pytest.RunResult:
    """pytest on the sample tests, in process. The plugin's ``pytest_configure`` loads the Hypothesis profile
    it is given for the whole process, so the inner run is given this run's profile and leaves it as it was."""
    pytester.makepyfile(test_sample=TEST, core_only=CORE_ONLY)
    pytester.syspathinsert()
    profile = request.config.getoption("--mq-profile")
    if not any(a.startswith("--adapter") for a in args):
        args = ("--adapter=core_only:CoreOnly", *args)
    return pytester.runpytest_inprocess("-q", "-p", "no:cacheprovider", "-rsxX", f"--mq-profile={profile}", *args)


def test_unclaimed_area_is_skipped_as_not_claimed_and_clauses_reach_junit(tmp_path):
    run = _pytest(tmp_path, f"--junitxml={tmp_path / 'junit.xml'}")
    assert "not claimed: adapter does not claim cluster" in run.stdout, run.stdout + run.stderr
    assert "1 failed, 1 passed, 1 skipped" in run.stdout
    junit = (tmp_path / "junit.xml").read_text()
    assert 'name="clause" value="put.logical-order.table1.row1"' in junit


def test_expected_failures_are_strict_so_a_fixed_one_is_reported(pytester, request):
    expectations = pytester.path / "expected.yaml"
    expectations.write_text(
        "implementation: sample\nexpected_failures:\n"
        "  - clause: put.logical-order.table1.row2\n    reason: not implemented yet\n    issue: https://example.invalid/2\n"
        "  - test: test_passes\n    reason: thought broken\n")
    run = _inline(pytester, request, f"--expectations={expectations}")
    out = run.stdout.str()
    assert "1 failed" in out and "1 xfailed" in out, out
    assert "XPASS(strict)" in out and "thought broken" in out


def test_expectations_file_without_a_reason_is_one_usage_error(pytester, request):
    expectations = pytester.path / "expected.yaml"
    expectations.write_text("expected_failures:\n  - scenario: put-group-of-one\n")
    run = _inline(pytester, request, f"--expectations={expectations}")
    err = run.stderr.str()
    assert run.ret == 4 and "needs a reason" in err and "Traceback" not in err, err


def test_unknown_adapter_is_one_usage_error(pytester, request):
    run = _inline(pytester, request, "--adapter=nonesuch")
    err = run.stderr.str()
    assert run.ret == 4 and "unknown adapter 'nonesuch'" in err and "Traceback" not in err, err


@pytest.mark.parametrize(("entry", "line", "message"), [
    ("  - scenario: put-group-of-nine-hundred\n    reason: r\n", 5, "no scenario 'put-group-of-nine-hundred'"),
    ("  - clause: put.no-such-rule\n    reason: r\n", 5, "no clause 'put.no-such-rule'"),
    ("  - test: test_nothing_is_called_this\n    reason: r\n", 5, "no test 'test_nothing_is_called_this'"),
    ("  - test: test_tables.py::test_put\n    reason: r\n    isue: https://example.invalid/1\n", 7,
     "unknown key 'isue'"),
])
def test_an_expectation_naming_nothing_that_exists_is_an_error_naming_file_and_line(tmp_path, entry, line, message):
    from mq_conformance.conformance.pytest_plugin import load_expectations

    expectations = tmp_path / "expected.yaml"
    expectations.write_text("implementation: sample\nexpected_failures:\n  - clause: put.msgid.generated\n"
                            "    reason: fine\n" + entry)
    with pytest.raises(pytest.UsageError, match=message) as raised:
        load_expectations(expectations)
    assert str(raised.value).startswith(f"{expectations}:{line}: ")


def test_expectations_naming_real_scenarios_clauses_and_tests_load(tmp_path):
    from mq_conformance.conformance.pytest_plugin import load_expectations

    expectations = tmp_path / "expected.yaml"
    expectations.write_text(
        "expected_failures:\n"
        "  - scenario: put-logical-order-group-of-two\n    reason: r\n"
        "  - clause: put.logical-order.table1.row5\n    reason: r\n    issue: https://example.invalid/5\n"
        "  - test: test_tables.py::test_put_uses_the_group_id\n    reason: r\n"
        "  - test: table1_row[put.logical-order.table1.row8\n    reason: r\n")
    assert [sorted(item) for item in load_expectations(expectations)] == [
        ["reason", "scenario"], ["clause", "issue", "reason"], ["reason", "test"], ["reason", "test"]]


def test_mqconf_run_refuses_an_expectation_for_a_scenario_that_does_not_exist(tmp_path, capsys):
    from mq_conformance.conformance import cli

    expectations = tmp_path / "expected.yaml"
    expectations.write_text("expected_failures:\n  - scenario: put-typo\n    reason: r\n")
    assert cli.main(["run", "--no-campaign", "--output", str(tmp_path / "r"), "--expectations", str(expectations),
                     "--scenarios", "fixtures/scenarios/close"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == f"mqconf: {expectations}:2: no scenario 'put-typo' in fixtures/scenarios"


def test_a_misspelt_capability_mark_is_one_usage_error_listing_the_valid_names(pytester, request):
    pytester.makepyfile(test_misspelt='''
import pytest

@pytest.mark.capability("clusters")
def test_never_runs(adapter):
    pass
''')
    run = pytester.runpytest_inprocess("-q", "-p", "no:cacheprovider", f"--mq-profile={request.config.getoption('--mq-profile')}")
    err = run.stderr.str()
    assert run.ret == 4 and "unknown capability 'clusters'" in err and "valid capabilities: core" in err, err
    assert "Traceback" not in err
