"""Conformance reports: ``conformance.json`` matches its schema; the HTML page shows every clause, escapes what an
implementation says and renders in a real browser without script errors; a killed run leaves what it finished
readable by ``mqconf report``; ``compare`` lists regressions; ``matrix`` puts implementations side by side."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from xml.etree import ElementTree

import pytest
from jsonschema import ValidationError

from mq_conformance.conformance import cli
from mq_conformance.conformance.clauses import load_registry
from mq_conformance.conformance.report import validate_report

REPO = Path(__file__).resolve().parents[1]
SCENARIOS = REPO / "fixtures" / "scenarios"
MUTANT = "mutant:incomplete-group-warning-dropped"
HOSTILE = "<script>alert(1)</script>"
ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;"
MQCONF = [sys.executable, "-m", "mq_conformance.conformance.cli"]
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO / "tests"), os.environ.get("PYTHONPATH", "")])}
CHROMIUM = next((p for p in (shutil.which("chromium"), shutil.which("chromium-browser"), "/usr/bin/chromium")
                 if p and Path(p).exists()), None)


def _json(run: Path) -> dict:
    return json.loads((run / "conformance.json").read_text())


def _quick_run(output: Path, adapter: str, *folders: str, capsys=None, campaigns: tuple[str, ...] = ("--no-campaign",)
               ) -> int:
    """A scenario-only run (no pytest part) of some scenario folders, in process; by default without a campaign,
    so the report does not depend on campaigns left under reports/campaigns."""
    paths = [str(SCENARIOS / folder) for folder in folders]
    return cli.main(["run", *campaigns, "--adapter", adapter, "--output", str(output), "--scenarios", *paths])


# Runs several tests read and none changes, made once per module (per worker under xdist) rather than once each.

@pytest.fixture(scope="module")
def reference_run(tmp_path_factory) -> Path:
    """The model on the close and put scenarios: every one passes."""
    output = tmp_path_factory.mktemp("reference") / "run"
    assert _quick_run(output, "reference", "close", "put") == 0
    return output


@pytest.fixture(scope="module")
def mutant_run(tmp_path_factory) -> Path:
    """MUTANT on the same scenarios: close-handle-invalid-after-warning fails."""
    output = tmp_path_factory.mktemp("mutant") / "run"
    assert _quick_run(output, MUTANT, "close", "put") == 1
    return output


@pytest.fixture(scope="module")
def hostile_run(tmp_path_factory) -> Path:
    """report_adapters:hostile on the get scenarios: its data differs, so there are failures to show."""
    output = tmp_path_factory.mktemp("hostile") / "run"
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(REPO / "tests"))
        assert _quick_run(output, "report_adapters:hostile", "get") == 1
    return output


def test_whole_run_writes_every_report_and_its_json_matches_the_schema(tmp_path):
    output = tmp_path / "run"
    done = subprocess.run([*MQCONF, "run", "--adapter", "reference", "--output", str(output)], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300, env=ENV)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1] == f"html: {output / 'conformance.html'}"
    report = _json(output)
    validate_report(report)
    assert report["complete"] and report["profile"] == "quick" and report["adapter"]["name"] == "reference"
    assert len(report["suite"]["fixtures_hash"]) == 16 and report["adapter"]["capabilities"]
    # the table tests and state machines ran and their clause marks became evidence
    assert report["summary"]["tests"]["total"] > 50 and report["summary"]["tests"]["passed"] == report["summary"]["tests"]["total"]
    assert report["clauses"]["put.logical-order.table1.row6"]["tests"]
    assert (output / "junit.xml").exists() and any((output / "allure-results").iterdir())
    # CI tools see every scenario and every test (conformance/junit.py merges the scenarios into pytest's file)
    cases = ElementTree.parse(output / "junit.xml").getroot().iter("testcase")
    names = Counter("scenario" if case.get("classname", "").startswith("scenarios.") else "test" for case in cases)
    assert names == {"scenario": report["summary"]["scenarios"], "test": report["summary"]["tests"]["total"]}
    # every table row has a coverage count, and the scenarios exercised most of them
    rows = [row for table in report["tables"].values() for row in table["rows"]]
    assert rows and all(row["steps"] >= 0 for row in rows) and sum(1 for row in rows if row["steps"]) > len(rows) / 2
    page = (output / "conformance.html").read_text()
    assert page.count('<tr class="clause"') == len(report["clauses"]) == len(load_registry().clauses)
    assert "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "") and "https://" not in page
    assert (output / "badge.svg").read_text().startswith("<svg")


def test_report_json_schema_rejects_an_unknown_status(reference_run):
    report = _json(reference_run)
    validate_report(report)
    next(iter(report["clauses"].values()))["status"] = "mostly fine"
    with pytest.raises(ValidationError):
        validate_report(report)


def test_compare_lists_regressions_and_exits_1(reference_run, mutant_run, capsys):
    a, b = str(reference_run), str(mutant_run)
    capsys.readouterr()
    assert cli.main(["compare", a, b]) == 1
    out = capsys.readouterr().out
    assert "regressed clauses" in out and "put.close-outcome.table2.row5: passed -> failed" in out
    assert "close-handle-invalid-after-warning: passed -> failed" in out
    assert cli.main(["compare", b, a]) == 0
    assert "newly passing clauses" in capsys.readouterr().out
    assert cli.main(["compare", a, a]) == 0
    assert "no differences" in capsys.readouterr().out


def test_failure_in_report_has_call_sequence_expected_actual_and_paraphrase(mutant_run):
    report = _json(mutant_run)
    failure = next(f for f in report["failures"] if f["id"] == "close-handle-invalid-after-warning")
    assert failure["sequence"][-1]["op"] == "close" and failure["step"]["expected"]["Reason"] == "MQRC_INCOMPLETE_GROUP"
    page = (mutant_run / "conformance.html").read_text()
    assert "minimal call sequence" in page and report["clauses"]["put.close-outcome.table2.row5"]["rule"][:40] in page
    assert 'fill="#c62828"' in (mutant_run / "badge.svg").read_text()


def test_several_adapters_side_by_side_in_one_page(tmp_path, capsys):
    status = cli.main(["run", "--no-campaign", "--adapter", "reference", "--adapter", MUTANT, "--output", str(tmp_path / "m"),
                       "--scenarios", str(SCENARIOS / "close")])
    assert status == 1
    page = (tmp_path / "m" / "matrix.html").read_text()
    assert "reference 0.1.0" in page and MUTANT in page and page.count('<tr class="clause"') > 100
    assert f"matrix: {tmp_path / 'm' / 'matrix.html'}" in capsys.readouterr().out
    target = tmp_path / "again.html"
    assert cli.main(["matrix", str(tmp_path / "m" / "reference"), str(tmp_path / "m" / "mutant-incomplete-group-warning-dropped"),
                     "--output", str(target)]) == 0
    assert MUTANT in target.read_text()


def test_hostile_adapter_strings_are_shown_as_text(hostile_run, tmp_path):
    page = (hostile_run / "conformance.html").read_text()
    assert HOSTILE not in page and ESCAPED in page
    assert page.count("<script>") == 1  # the page's own
    assert HOSTILE not in (hostile_run / "badge.svg").read_text()
    assert cli.main(["matrix", str(hostile_run), "--output", str(tmp_path / "matrix.html")]) == 0
    assert HOSTILE not in (tmp_path / "matrix.html").read_text()
    assert _json(hostile_run)["adapter"]["name"] == HOSTILE  # the JSON keeps the string as it was


def test_expected_failure_that_passes_is_reported_as_unexpected_pass(tmp_path):
    expectations = tmp_path / "expected.yaml"
    expectations.write_text("expected_failures:\n  - scenario: close-handle-invalid-after-warning\n"
                            "    reason: known bug\n    issue: https://example.invalid/1\n")
    assert cli.main(["run", "--no-campaign", "--adapter", "reference", "--output", str(tmp_path / "r"), "--expectations",
                     str(expectations), "--scenarios", str(SCENARIOS / "close")]) == 1
    report = _json(tmp_path / "r")
    assert report["clauses"]["close.handle-invalid-after"]["status"] == "unexpected pass"
    assert cli.main(["run", "--no-campaign", "--adapter", MUTANT, "--output", str(tmp_path / "m"), "--expectations", str(expectations),
                     "--scenarios", str(SCENARIOS / "close" / "close-handle-invalid-after-warning.yaml")]) == 1
    statuses = {r["id"]: r["status"] for r in _json(tmp_path / "m")["scenarios"]}
    assert statuses == {"close-handle-invalid-after-warning": "expected failure"}


def test_killed_run_leaves_what_it_finished_readable_by_mqconf_report(tmp_path):
    output = tmp_path / "killed"
    process = subprocess.Popen([*MQCONF, "run", "--adapter", "report_adapters:slow", "--output", str(output)],
                               cwd=tmp_path, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    results = output / "results.jsonl"
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and process.poll() is None:
            if results.exists() and len(results.read_text().splitlines()) >= 5:
                break
            time.sleep(0.05)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    assert not (output / "conformance.json").exists()
    finished = len([line for line in results.read_text().splitlines() if line.strip()])
    done = subprocess.run([*MQCONF, "report", str(output)], cwd=tmp_path, capture_output=True, text=True, timeout=60,
                          env=ENV)
    assert done.returncode == 0, done.stdout + done.stderr
    report = _json(output)
    validate_report(report)
    assert not report["complete"] and report["summary"]["scenarios"] >= min(finished, 5)
    assert report["verdict"]["status"] == "incomplete" and report["missing"]["scenarios"]
    assert "the run did not finish" in report["missing"]["reasons"]
    assert 'id="incomplete"' in (output / "conformance.html").read_text()


def test_report_of_a_folder_that_is_not_a_run_is_one_line_and_exit_2(tmp_path, capsys):
    assert cli.main(["report", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a run folder" in err


def _dump_dom(page: Path) -> str:
    done = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", page.as_uri()],
                          capture_output=True, text=True, timeout=90)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


@pytest.mark.skipif(CHROMIUM is None, reason="no chromium on this machine (make test installs Debian's chromium "
                                             "when it runs as root with apt); the browser check did not run")
def test_report_renders_in_a_real_browser_without_script_errors(mutant_run, hostile_run):
    dom = _dump_dom(mutant_run / "conformance.html")
    assert 'data-rendered="ok"' in dom and 'data-script-errors="' not in dom
    assert dom.count('<tr class="clause"') == len(load_registry().clauses)
    assert "close-handle-invalid-after-warning" in dom
    dom = _dump_dom(hostile_run / "conformance.html")
    assert 'data-rendered="ok"' in dom and 'data-script-errors="' not in dom
    assert HOSTILE not in dom and ESCAPED in dom
