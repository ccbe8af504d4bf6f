"""Self-certification out of process (issue 14): the model served over JSON lines (``mqconf serve --stdio``) must
pass the whole quick profile - every scenario, the table tests, all three state machines - and a small campaign,
with 0 divergences, exactly as the model does in process. Any difference is a bug of the suite (a machine, the
server, the call encoding), never of the model; the MsgToken bug was one (a 24-byte MsgId passed as a 16-byte
MsgToken, refused in different words on each side).

And a broken implementation out of process keeps its evidence: a machine's divergence is shrunk, written into
the run's own folder, listed in conformance.json with the call, the fields and the clauses the model applied
there, shown in the HTML with its call sequence, and runs as is with ``mqconf scenario`` on both sides."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from mq_conformance.conformance import cli, differential
from mq_conformance.conformance.suite import ADAPTER_TESTS

MACHINES = tuple(differential.MACHINES)  # one per vocabulary area (conformance/vocabulary.py)


def _served(*arguments: str) -> str:
    """``jsonlines:`` the installed ``mqconf serve --stdio`` (``python -m mq_conformance.conformance.cli`` where there is no
    script beside this interpreter)."""
    script = Path(sys.executable).parent / "mqconf"
    command = [str(script)] if script.exists() else [sys.executable, "-m", "mq_conformance.conformance.cli"]
    return "jsonlines:" + shlex.join([*command, "serve", "--stdio", *arguments])


def _report(run: Path) -> dict:
    return json.loads((run / "conformance.json").read_text())


@pytest.mark.self_check
def test_the_model_served_over_json_lines_certifies_clean_with_no_divergence(tmp_path, capsys):
    served = _served()
    campaigns = tmp_path / "campaigns"
    assert cli.main(["campaign", "--adapter", served, "--sequences", "60", "--length", "20", "--seed", "0",
                     "--master", "inprocess", "--output", str(campaigns)]) == 0, capsys.readouterr().out
    (campaign,) = [folder for folder in campaigns.iterdir() if folder.is_dir()]  # beside the folder's marker
    status = cli.main(["run", "--adapter", served, "--output", str(tmp_path / "run"), "--campaign", str(campaign)])
    out = capsys.readouterr().out
    assert status == 0, out
    report = _report(tmp_path / "run")
    summary = report["summary"]
    assert report["complete"] and report["verdict"]["status"] == "passed", report["verdict"]
    # no --seed: the run drew one and says which, so that its random search can be repeated
    summary_md = (tmp_path / "run" / "summary.md").read_text()
    assert isinstance(report["seed"], int) and f"seed {report['seed']}," in summary_md
    assert summary["scenarios"] > 300 and summary["passed"] == summary["scenarios"], summary
    tests = summary["tests"]
    assert tests["total"] > 100 and tests["passed"] == tests["total"], tests
    ran = {t["id"] for t in report["tests"]}
    assert all(any(f"[{m}]" in t and "test_differential" in t for t in ran) for m in MACHINES), sorted(ran)
    assert all(any(t.startswith(f) for t in ran) for f in ADAPTER_TESTS)
    assert report["failures"] == [] and report["divergences"] == []
    assert summary["clauses_by_status"].get("failed", 0) == 0
    (included,) = report["campaigns"]
    assert included["sequences"] == 60 and included["divergent_sequences"] == 0 and included["signatures"] == []


# Put in logical order returns no GroupId where Table 1 row 5 starts a group: the groups machine meets it at once
# under nearly every seed, but not every one (seed 1 of the pinned Hypothesis misses it; 30 of seeds 2-33 find
# it), so the run is given a seed: this test pins what a run does with a divergence, and a random search that
# missed would fail it by chance. tests/test_machines_catch_mutants.py pins the machine's power, derandomized.
MUTANT = "mutant:table:put.logical-order.table1.row5:GroupId=MQGI_NONE"
SEED = "2"


@pytest.mark.self_check
def test_a_served_implementation_that_diverges_keeps_its_minimal_scenario_in_the_run_folder(tmp_path, capsys):
    served = _served("--adapter", MUTANT)
    run = tmp_path / "run"
    assert cli.main(["run", "--no-campaign", "--adapter", served, "--output", str(run), "--seed", SEED]) == 1
    out = capsys.readouterr().out
    report = _report(run)
    assert report["seed"] == int(SEED) and f"profile quick, seed {SEED}," in (run / "summary.md").read_text()
    failure = next(f for f in report["failures"] if "[groups]" in f["id"])
    # the groups machine meets it; others whose puts reach the row (the cluster area's grouped puts) may too
    divergence = next(d for d in report["divergences"] if d["file"] == "divergence-groupsmachine.yaml")
    assert failure["divergence"]["file"] == divergence["file"] == "divergence-groupsmachine.yaml"
    path = run / divergence["path"]
    assert path.is_file() and path.parent == run / "divergences"
    # the call and the field that differed, in the report, the summary and the failure line
    assert divergence["call"]["op"] == "put" and divergence["fields"] == ["MD.GroupId"]
    assert divergence["summary"].startswith(f"{MUTANT} differs from the model on put ")
    summary = (run / "summary.md").read_text()  # Markdown, where the implementation's text is escaped
    # read as a scenario step's failure reads: the call, the field (expected: the model's side), the clauses
    block = summary[summary.index(f"### failed: {failure['id']}"):].split("\n### ", 1)[0]
    assert "- call: put " in block and "  - MD.GroupId: expected " in block, block
    assert "  - expected by the model \\(the reference implementation, given the same calls\\); got from" in block
    row = "put.logical-order.table1.row5"
    # a random search fails no clause (what it finds moves with the seed): the clauses the model applied at the
    # diverging put are shown as applied; the row fails all the same, by the table test that checks it every run
    assert failure["clauses"] == [] and row in failure["also_applied"], failure
    assert set(failure["also_applied"]) == set(divergence["clauses"])
    assert report["clauses"][row]["status"] == "failed"
    assert any(row in f["clauses"] for f in report["failures"] if "test_tables" in f["id"])
    assert failure["sequence"] == divergence["sequence"] and failure["sequence"][-1]["op"] == "put"
    page = (run / "conformance.html").read_text()
    assert "minimal call sequence" in page and "divergences/divergence-groupsmachine.yaml" in page
    lines = out.splitlines()
    (start,) = [n for n, line in enumerate(lines) if line.startswith("FAILED") and "[groups]" in line]
    printed = "\n".join(lines[start + 1:start + 4])  # the console prints the failure as summary.md does
    assert printed.startswith("  - call: put ") and "    - MD.GroupId: expected " in printed, printed
    # runs as is: passes on the model, fails on the implementation
    assert cli.main(["scenario", str(path), "--adapter", "reference"]) == 0
    assert cli.main(["scenario", str(path), "--adapter", served]) == 1
    assert "GroupId" in capsys.readouterr().out
