"""``mqconf``: exit status 0 for a clean run, 1 for failing scenarios, 2 (one line on standard error) for a
mistake the user can make; failing steps are printed with file:line, expected, actual and clause ids; a run writes
conformance.json and summary.md.

A few checks run the CLI in a subprocess as a person would (``adapters``, ``scenario``, a usage error; ``run`` is
run in a subprocess by tests/test_report.py); the rest call ``mq_conformance.conformance.cli.main`` in process.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import types
from pathlib import Path

import pytest

from mq_conformance.conformance import cli
from mq_conformance.conformance.clauses import load_registry
from mq_conformance.reference.schema import validate_call, validate_outcome
from mq_conformance.reference.calls import Outcome

REPO = Path(__file__).resolve().parents[1]

PASSING = """\
id: cli-passing
title: a put and a get
clauses: [put.msgid.generated]
setup:
  queues: [{name: Q1}]
steps:
  - open: {handle: h, queue: Q1, Options: [MQOO_OUTPUT, MQOO_INPUT_SHARED]}
  - put: {handle: h, data: one}
    expect: {CompCode: MQCC_OK, MD: {MsgId: $m}}
  - get: {handle: h}
    expect: {data: one, MD: {MsgId: $m}}
"""

FAILING = """\
id: cli-failing
title: a put that is wrongly expected to find the queue full
clauses: [put.msgid.generated]
setup:
  queues: [{name: Q1}]
steps:
  - open: {handle: h, queue: Q1, Options: [MQOO_OUTPUT]}
  - put: {handle: h, data: one}
    expect: {CompCode: MQCC_FAILED, Reason: MQRC_Q_FULL}
  - close: {handle: h}
"""
FAILING_LINE = 8


REGISTRY = load_registry()


@pytest.fixture(autouse=True)
def _registry_read_once(monkeypatch):
    """In-process runs share one reading of fixtures/clauses.yaml (the subprocess runs read it themselves)."""
    monkeypatch.setattr(cli, "load_registry", lambda: REGISTRY)


def _mqconf(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mq_conformance.conformance.cli", *args], cwd=REPO, capture_output=True, text=True,
                          timeout=120)


@pytest.fixture
def scenarios(tmp_path) -> Path:
    folder = tmp_path / "scenarios"
    folder.mkdir()
    (folder / "passing.yaml").write_text(PASSING)
    (folder / "failing.yaml").write_text(FAILING)
    return folder


def _assert_usage_error(status: int, err: str, *fragments: str) -> None:
    assert status == 2
    assert err.startswith("mqconf: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    for fragment in fragments:
        assert fragment in err, err


# -- adapters ----------------------------------------------------------------------------------------------------

def test_adapters_lists_reference():
    done = _mqconf("adapters")
    assert done.returncode == 0, done.stderr
    assert any(line.split("\t")[0] == "reference" for line in done.stdout.splitlines()), done.stdout


def test_adapters_in_process_lists_reference(capsys):
    assert cli.main(["adapters"]) == 0
    assert "reference\tshipped with the suite" in capsys.readouterr().out


# -- scenario ----------------------------------------------------------------------------------------------------

def test_scenario_that_passes_exits_0(scenarios):
    done = _mqconf("scenario", str(scenarios / "passing.yaml"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 scenarios: 1 passed, 0 failed, 0 errors, 0 not claimed (adapter reference)" in done.stdout
    assert done.stderr == ""


def test_scenario_with_a_wrong_expectation_exits_1_and_shows_where_and_why(scenarios, capsys):
    path = scenarios / "failing.yaml"
    assert cli.main(["scenario", str(path)]) == 1
    out, err = capsys.readouterr()
    _assert_failure_described(out, path)
    assert err == ""


def _assert_failure_described(out: str, path: Path) -> None:
    # the heading names the first difference; a step is counted as the file lists it (the open is step 1; the
    # set-up step that defines Q1 is not counted), with its line
    assert f"FAILED cli-failing: failed at step 2 (put, line {FAILING_LINE}) ({path})" in out
    assert f'- call ({path}:{FAILING_LINE}, step 2): put {{"handle": "h", "data": "one"}}' in out
    assert "- CompCode: expected MQCC_FAILED, got MQCC_OK" in out  # each field: expected, then what came back
    assert "- Reason: expected MQRC_Q_FULL, got MQRC_NONE" in out
    assert "- expected by the scenario; got from the implementation" in out
    cited = [line.split()[2].strip("`:") for line in out.splitlines() if line.strip().startswith("- clause ")]
    assert cited, out
    assert all(clause_id in REGISTRY for clause_id in cited)
    assert f"- clause `put.msgid.generated`: {REGISTRY.get('put.msgid.generated').rule}" in out
    assert "Traceback" not in out


def test_scenario_folder_runs_every_file_in_process(scenarios, capsys):
    assert cli.main(["scenario", str(scenarios)]) == 1
    out = capsys.readouterr().out
    assert "2 scenarios: 1 passed, 1 failed, 0 errors, 0 not claimed (adapter reference)" in out
    assert "cli-passing" not in out.split("2 scenarios")[0]  # only failures are described


def test_duplicate_scenario_id_is_a_usage_error(scenarios, capsys):
    (scenarios / "again.yaml").write_text(PASSING)
    status = cli.main(["scenario", str(scenarios)])
    _assert_usage_error(status, capsys.readouterr().err, "scenario id 'cli-passing' is also used by")


def test_folder_without_scenarios_is_a_usage_error(tmp_path, capsys):
    status = cli.main(["scenario", str(tmp_path)])
    _assert_usage_error(status, capsys.readouterr().err, str(tmp_path), "no scenario files")


# -- run ---------------------------------------------------------------------------------------------------------

def test_run_writes_report_and_summary_and_prints_the_report_path(scenarios, tmp_path, capsys, monkeypatch):
    # In process, from the suite's folder as a person would run it (tests/test_report.py runs ``mqconf run`` in a
    # subprocess, whole and interrupted).
    monkeypatch.chdir(REPO)
    output = tmp_path / "run"
    status = cli.main(["run", "--output", str(output), "--scenarios", str(scenarios)])
    out, err = capsys.readouterr()
    assert status == 1, out + err  # one scenario fails
    _assert_failure_described(out, scenarios / "failing.yaml")
    assert "Traceback" not in err
    report_path = output / "conformance.json"
    assert f"report: {report_path}" in out.splitlines()
    assert f"summary: {output / 'summary.md'}" in out.splitlines()
    report = json.loads(report_path.read_text())
    summary = report["summary"]
    assert (summary["scenarios"], summary["passed"], summary["failed"], summary["error"], summary["not claimed"]) == (
        2, 1, 1, 0, 0)
    statuses = sorted(record["status"] for record in report["scenarios"])
    assert statuses == ["failed", "passed"]
    assert summary["clauses"] == len(report["clauses"]) == len(load_registry().clauses)
    assert sum(summary["clauses_by_status"].values()) == summary["clauses"]
    assert report["clauses"]["put.msgid.generated"]["status"] == "failed"
    assert sorted(report["clauses"]["put.msgid.generated"]["scenarios"]) == ["cli-failing", "cli-passing"]
    assert report["adapter"]["name"] == "reference"
    markdown = (output / "summary.md").read_text()
    assert "Scenarios: 2 run, 1 passed, 1 failed, 0 errors, 0 not claimed." in markdown
    assert f"failing.yaml:{FAILING_LINE}, step 2): put" in markdown
    results = (output / "results.jsonl").read_text().splitlines()
    assert len(results) == 2


def test_run_report_steps_match_the_call_and_outcome_schemas(scenarios, tmp_path, capsys):
    output = tmp_path / "run"
    assert cli.main(["run", "--output", str(output), "--scenarios", str(scenarios / "passing.yaml")]) == 0
    report = json.loads((output / "conformance.json").read_text())
    steps = [step for record in report["scenarios"] for step in record["steps"]]
    assert len(steps) == 4 and all(step["status"] == "passed" for step in steps)
    for step in steps:
        validate_call({"op": step["op"], **{k: v for k, v in step["call"].items() if k != "op"}})
        validate_outcome(step["outcome"])
    assert report["summary"]["passed"] == 1
    assert f"report: {output / 'conformance.json'}" in capsys.readouterr().out


# -- usage errors ------------------------------------------------------------------------------------------------

def test_unknown_adapter_is_one_line_and_exit_2(scenarios):
    done = _mqconf("scenario", "--adapter", "no-such-adapter", str(scenarios / "passing.yaml"))
    _assert_usage_error(done.returncode, done.stderr, "unknown adapter 'no-such-adapter'", "reference")
    assert "Traceback" not in done.stdout


@pytest.mark.parametrize("seed", ["x", "-1", str(2 ** 64)])
def test_a_seed_that_is_not_one_is_one_line_and_exit_2(seed, tmp_path):
    done = _mqconf("run", "--seed", seed, "--output", str(tmp_path / "run"))
    assert done.returncode == 2 and "--seed" in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize(("name", "fragment"), [
    ("os:no_such_factory", "cannot load adapter 'os:no_such_factory'"),
    ("no_such_module_xyz:factory", "cannot load adapter 'no_such_module_xyz:factory'"),
    ("mqconf_test_adapters:broken", "adapter 'mqconf_test_adapters:broken' failed to start: no licence"),
])
def test_adapter_that_cannot_start_is_one_line_and_exit_2(scenarios, capsys, test_adapters, name, fragment):
    status = cli.main(["run", "--adapter", name, "--output", str(scenarios.parent / "run"),
                       "--scenarios", str(scenarios)])
    _assert_usage_error(status, capsys.readouterr().err, fragment)


class _Crashing:
    """An adapter whose every call raises: its results are errors, reported, never a traceback."""

    name = "crashing"
    capabilities = frozenset({"core"})

    def reset(self) -> None:
        pass

    def execute(self, call) -> Outcome:
        raise RuntimeError("boom")

    def close(self) -> None:
        pass


def _broken():
    raise OSError("no licence")


@pytest.fixture
def test_adapters(monkeypatch):
    module = types.ModuleType("mqconf_test_adapters")
    module.crashing = _Crashing
    module.broken = _broken
    monkeypatch.setitem(sys.modules, "mqconf_test_adapters", module)


def test_adapter_that_crashes_on_a_call_is_an_error_result_not_a_traceback(scenarios, capsys, test_adapters):
    status = cli.main(["scenario", "--adapter", "mqconf_test_adapters:crashing", str(scenarios / "passing.yaml")])
    out = capsys.readouterr().out
    assert status == 1
    assert "ERROR cli-passing" in out
    assert "the implementation answered with an error: adapter raised RuntimeError: boom" in out
    assert "1 scenarios: 0 passed, 0 failed, 1 errors, 0 not claimed (adapter crashing)" in out


def test_adapter_without_a_capability_is_not_claimed(scenarios, capsys, test_adapters):
    (scenarios / "passing.yaml").write_text(PASSING.replace("clauses:", "capabilities: [cluster]\nclauses:"))
    status = cli.main(["scenario", str(scenarios / "passing.yaml"), "--adapter", "mqconf_test_adapters:crashing"])
    assert status == 0
    assert "1 scenarios: 0 passed, 0 failed, 0 errors, 1 not claimed" in capsys.readouterr().out


# -- lint --------------------------------------------------------------------------------------------------------

def test_lint_passes_on_the_suites_own_fixtures(capsys):
    status = cli.main(["lint"])
    out, err = capsys.readouterr()
    assert status == 0, out + err
    assert re.fullmatch(rf"lint: [1-9]\d* scenarios loaded, 0 files that do not load, 0 problems, "
                        rf"{len(REGISTRY.clauses)} clauses", out.splitlines()[-1])


def test_lint_takes_anyones_scenario_files_and_folders_and_reports_every_bad_file(tmp_path, capsys):
    mine = tmp_path / "mine"
    (mine / "deeper").mkdir(parents=True)
    (mine / "good.yaml").write_text(PASSING)
    (mine / "bad-op.yaml").write_text("id: bad-op\nsteps:\n  - bogus: {handle: h}\n")
    (mine / "deeper" / "not-yaml.yaml").write_text("id: [\n")
    (mine / "unknown-clause.yaml").write_text(PASSING.replace("cli-passing", "cli-other").replace(
        "clauses: [", "clauses: [no.such.clause, "))
    single = tmp_path / "single.yaml"
    single.write_text(PASSING.replace("cli-passing", "cli-single"))
    status = cli.main(["lint", str(mine), str(single), str(tmp_path / "absent")])
    out = capsys.readouterr().out.splitlines()
    assert status == 2  # files that do not load: a usage error, as for every command
    assert sum(line.startswith(f"{mine / 'bad-op.yaml'}:3: unknown op 'bogus'") for line in out) == 1
    assert sum(line.startswith(f"{mine / 'deeper' / 'not-yaml.yaml'}:") for line in out) == 1
    assert f"{tmp_path / 'absent'}: no such file or folder" in out
    assert f"{mine / 'unknown-clause.yaml'}: cites unknown clause no.such.clause" in out
    assert out[-1].startswith("lint: 3 scenarios loaded, 3 files that do not load, 1 problems")


def test_lint_of_good_files_citing_an_unknown_clause_is_status_1(tmp_path, capsys):
    (tmp_path / "a.yaml").write_text(PASSING.replace("clauses: [", "clauses: [no.such.clause, "))
    assert cli.main(["lint", str(tmp_path)]) == 1
    assert cli.main(["lint", str(tmp_path / "a.yaml")]) == 1
    (tmp_path / "a.yaml").write_text(PASSING)
    assert cli.main(["lint", str(tmp_path)]) == 0


def test_every_bad_scenario_file_is_reported_not_just_the_first(scenarios, capsys):
    (scenarios / "b1.yaml").write_text("id: b1\nsteps:\n  - bogus: {}\n")
    (scenarios / "b2.yaml").write_text("id: b2\nsteps:\n  - put: {handle: nowhere}\n")
    (scenarios / "b3.yaml").write_text(PASSING)  # the same id as passing.yaml
    status = cli.main(["scenario", str(scenarios)])
    err = capsys.readouterr().err.splitlines()
    assert status == 2 and len(err) == 3 and all(line.startswith("mqconf: ") for line in err)
    assert [line.split(":")[1].strip().rsplit("/", 1)[-1] for line in err] == ["b1.yaml", "b2.yaml", "passing.yaml"]
    assert "also used by" in err[2]
