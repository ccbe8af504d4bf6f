"""SIGTERM and SIGHUP stop mqconf run as Ctrl-C does (what finished is written, the report says INCOMPLETE, exit
143/129, one line on stderr), and a closed standard output or error never stops a run or loses its report."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mq_conformance import fixtures

SERVER = Path(__file__).parent / "servers" / "protocol1_first_published.py"
MQCONF = [sys.executable, "-m", "mq_conformance.conformance.cli"]


def _started(output: Path, adapter: str, extra=()) -> subprocess.Popen:
    return subprocess.Popen([*MQCONF, "run", "--adapter", adapter, "--no-campaign", "--output", str(output), *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _wait_for_results(output: Path, count: int, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + 120
    results = output / "results.jsonl"
    while time.monotonic() < deadline and process.poll() is None:
        if results.exists() and len(results.read_text().splitlines()) >= count:
            return
        time.sleep(0.05)
    raise AssertionError(f"no {count} results before the deadline (exit {process.poll()})")


@pytest.mark.parametrize(("signum", "status"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_sigterm_and_sighup_write_what_finished_say_incomplete_and_exit_128_plus_the_signal(tmp_path, signum, status):
    output = tmp_path / "run"
    # a slow server (0.7 s a call): the run is stopped while it runs the scenarios
    process = _started(output, f"jsonlines:{sys.executable} {Path(__file__).parent / 'servers' / 'slow.py'}")
    _wait_for_results(output, 1, process)
    process.send_signal(signum)
    out, err = process.communicate(timeout=120)
    assert process.returncode == status, (out, err)
    assert err.strip().splitlines()[-1] == (f"mqconf: stopped by {signal.Signals(signum).name}; what finished is "
                                            f"written")
    assert "Traceback" not in err
    report = json.loads((output / "conformance.json").read_text())
    assert report["complete"] is False and report["verdict"]["status"] == "incomplete"
    assert report["summary"]["scenarios"] >= 1  # what finished is in it
    assert "INCOMPLETE" in (output / "summary.md").read_text()


def test_a_closed_standard_output_never_stops_a_run_or_loses_its_report(tmp_path):
    output = tmp_path / "run"
    scenarios = fixtures.SCENARIOS / "put"
    process = subprocess.Popen([*MQCONF, "run", "--adapter", "reference", "--scenarios", str(scenarios),
                                "--no-campaign", "--output", str(output)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    process.stdout.readline()  # `| head -1`: one line read, then the reader goes away
    process.stdout.close()
    err = process.stderr.read()
    process.wait(timeout=300)
    assert process.returncode == 0, err
    assert "Broken pipe" not in err and "Traceback" not in err and "Exception ignored" not in err, err
    report = json.loads((output / "conformance.json").read_text())
    assert report["complete"] is True
    assert report["summary"]["scenarios"] == len(list(scenarios.rglob("*.yaml")))
    assert (output / "conformance.html").exists() and (output / "junit.xml").exists()


def test_a_closed_standard_error_never_stops_a_run(tmp_path):
    output = tmp_path / "run"
    process = subprocess.Popen([*MQCONF, "run", "--adapter", "mutant:table:put.logical-order.table1.row5:GroupId=MQGI_NONE",
                                "--scenarios", str(fixtures.SCENARIOS / "put"), "--no-campaign", "--output",
                                str(output)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    process.stderr.close()
    process.stdout.close()
    process.wait(timeout=300)
    assert process.returncode == 1  # the mutant's failures, judged and reported
    report = json.loads((output / "conformance.json").read_text())
    assert report["complete"] is True and report["verdict"]["status"] == "failed"
