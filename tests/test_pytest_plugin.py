"""The pytest plugin a certifier runs: unclaimed areas are reported as not claimed, an implementation's
expected failures are strict (an expected failure that passes is reported), and clause ids reach JUnit."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

TEST = '''
import pytest

@pytest.mark.capability("no-such-area")
def test_needs_an_area_nobody_claims(adapter):
    assert False

@pytest.mark.clause("put.logical-order.table1.row1")
def test_passes(adapter):
    assert adapter.name == "reference"

@pytest.mark.clause("put.logical-order.table1.row2")
def test_fails():
    assert False
'''


def _pytest(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    (tmp_path / "test_sample.py").write_text(TEST)
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rsxX",
                           str(tmp_path / "test_sample.py"), *args],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)


def test_unclaimed_area_is_skipped_as_not_claimed_and_clauses_reach_junit(tmp_path):
    run = _pytest(tmp_path, f"--junitxml={tmp_path / 'junit.xml'}")
    assert "not claimed: adapter does not claim no-such-area" in run.stdout
    assert "1 failed, 1 passed, 1 skipped" in run.stdout
    junit = (tmp_path / "junit.xml").read_text()
    assert 'name="clause" value="put.logical-order.table1.row1"' in junit


def test_expected_failures_are_strict_so_a_fixed_one_is_reported(tmp_path):
    expectations = tmp_path / "expected.yaml"
    expectations.write_text(
        "implementation: sample\nexpected_failures:\n"
        "  - clause: put.logical-order.table1.row2\n    reason: not implemented yet\n    issue: https://example.invalid/2\n"
        "  - test: test_passes\n    reason: thought broken\n")
    run = _pytest(tmp_path, f"--expectations={expectations}")
    assert "1 failed" in run.stdout and "1 xfailed" in run.stdout, run.stdout
    assert "XPASS(strict)" in run.stdout and "thought broken" in run.stdout


def test_expectations_file_without_a_reason_is_one_usage_error(tmp_path):
    expectations = tmp_path / "expected.yaml"
    expectations.write_text("expected_failures:\n  - scenario: put-group-of-one\n")
    run = _pytest(tmp_path, f"--expectations={expectations}")
    assert run.returncode == 4 and "needs a reason" in run.stderr and "Traceback" not in run.stderr


def test_unknown_adapter_is_one_usage_error(tmp_path):
    run = _pytest(tmp_path, "--adapter=nonesuch")
    assert run.returncode == 4 and "unknown adapter 'nonesuch'" in run.stderr and "Traceback" not in run.stderr
