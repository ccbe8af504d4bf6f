"""The implementer's guide (docs/implementers.md) and what it promises: every operation of the call language is
documented with its arguments, the constants file is in step with the model, the comparison does not fail an
implementation that returns structures on MQCC_FAILED, and the example server of "Your first hour" (JavaScript)
runs and reports exactly the failures its expectations file lists."""

from __future__ import annotations

import json
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest

from mq_conformance.conformance import cli
from mq_conformance.conformance.compare import Identities, compare, load_policy
from mq_conformance.conformance.constants_json import TARGET, render
from mq_conformance.reference.calls import Outcome

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "implementers.md"
CALL_SCHEMA = json.loads((ROOT / "reference" / "schemas" / "call.json").read_text())
EXAMPLE = ROOT / "docs" / "examples" / "server.js"
EXAMPLE_EXPECTED = ROOT / "docs" / "examples" / "server-expected.yaml"


def _section(text: str, op: str) -> str:
    """The guide's section on ``op``: from its ``#### `op` `` heading to the next heading."""
    found = re.search(rf"^#### `{re.escape(op)}`.*?$(.*?)(?=^#{{1,4}} )", text, re.MULTILINE | re.DOTALL)
    return found.group(1) if found else ""


@pytest.mark.parametrize("op", CALL_SCHEMA["properties"]["op"]["enum"])
def test_the_guide_documents_every_operation_with_its_arguments_and_an_example_exchange(op):
    guide = GUIDE.read_text(encoding="utf-8")
    section = _section(guide, op)
    assert section, f"docs/implementers.md has no '#### `{op}`' section"
    # a section may take another's list: "any of the attributes of `define_queue`"
    named = section + "".join(_section(guide, other) for other in re.findall(r"attributes of\s+`(\w+)`", section))
    arguments = [name for name in CALL_SCHEMA["$defs"]["args"][op]["propertyNames"]["enum"] if name != "op"]
    missing = [name for name in arguments if f"`{name}`" not in named]
    assert not missing, f"the section on {op} does not name its arguments {missing}"
    exchange = [line for line in section.splitlines() if line.startswith(("> {", "< {"))]
    assert any(line.startswith("> ") and f'"op":"{op}"' in line for line in exchange), f"no example call of {op}"
    assert any(line.startswith("< ") for line in exchange), f"no example outcome of {op}"
    for line in exchange:  # the example lines are real protocol messages
        json.loads(line[2:])


def test_the_constants_file_is_in_step_with_the_model():
    assert TARGET.read_text(encoding="utf-8") == render(), (
        "fixtures/constants.json is out of step with reference/constants.py: run "
        ".venv/bin/python -m mq_conformance.conformance.constants_json")
    data = json.loads(render())
    assert data["values"]["MQGMO_BROWSE_FIRST"] == 16 and data["canonical_names"]["MQRC"]["2033"] == "MQRC_NO_MSG_AVAILABLE"
    assert data["flags"]["MQGMO"]["MQGMO_LOGICAL_ORDER"] == 32768 and data["bytes"]["MQMI_NONE"] == "00" * 24
    assert "fixtures/constants.json" in GUIDE.read_text(encoding="utf-8")


def test_structures_returned_with_a_failure_are_not_compared_as_the_guide_says():
    """A failed call sets only CompCode and Reason (IBM MQ, "API completion and reason codes")."""
    model = Outcome(CompCode="MQCC_FAILED", Reason="MQRC_NOT_OPEN_FOR_OUTPUT")
    implementation = Outcome(CompCode="MQCC_FAILED", Reason="MQRC_NOT_OPEN_FOR_OUTPUT",
                             MD={"MsgId": "MQMI_NONE", "Priority": 0}, PMO={"ResolvedQName": ""})
    policy = load_policy()
    assert compare(model, implementation, Identities(), policy) == []
    assert compare(implementation, model, Identities(), policy) == []
    other = Outcome(CompCode="MQCC_FAILED", Reason="MQRC_Q_FULL", MD={"Priority": 0})
    assert compare(model, other, Identities(), policy) == ["Reason: 'MQRC_NOT_OPEN_FOR_OUTPUT' vs 'MQRC_Q_FULL'"]
    succeeded = Outcome(CompCode="MQCC_OK", Reason="MQRC_NONE", MD={"Priority": 0})
    assert compare(succeeded, Outcome(CompCode="MQCC_OK", Reason="MQRC_NONE"), Identities(), policy) == [
        "MD: present vs absent"]  # on success the structures are still due


def test_the_example_server_in_javascript_runs_and_fails_exactly_what_its_expectations_list(tmp_path, capsys):
    node = shutil.which("node")
    if node is None:
        pytest.skip("needs Node.js (`node` on PATH) to run the guide's example server docs/examples/server.js")
    output = tmp_path / "run"
    cli.main(["run", "--no-campaign", "--adapter", f"jsonlines:{node} {EXAMPLE}", "--expectations",
              str(EXAMPLE_EXPECTED), "--output", str(output)])
    out = capsys.readouterr().out
    report = json.loads((output / "conformance.json").read_text())
    assert report["adapter"]["name"] == "mq-conformance example server" and report["adapter"]["capabilities"] == ["core"]
    statuses = Counter(scenario["status"] for scenario in report["scenarios"])
    assert set(statuses) <= {"passed", "expected failure", "not claimed"}, out
    assert statuses["passed"] >= 40 and statuses["expected failure"] >= 1
    tests = report["summary"]["tests"]
    assert tests["failed"] == tests["error"] == tests["unexpected pass"] == 0 and tests["passed"] > 0, out
    assert not [c for c, v in report["clauses"].items() if v["status"] in ("failed", "unexpected pass")]
    # one set of numbers: the console, summary.md, the page, the badge and junit.xml say what conformance.json says
    headline = report["verdict"]["headline"]
    summary = (output / "summary.md").read_text()
    for text in (out, summary, (output / "conformance.html").read_text()):
        assert headline in text
    s = report["summary"]
    parts = (f"{s['passed']} passed, 0 failed, 0 errors, {s['expected failure']} expected failures, "
             f"{s['not claimed']} not claimed")
    assert f"{s['scenarios']} scenarios: {parts}" in out and f"Scenarios: {s['scenarios']} run, {parts}." in summary
    assert s["passed"] + s["expected failure"] + s["not claimed"] == s["scenarios"]  # they add up
    known = s["expected failure"] + tests["expected failure"]
    assert f"; {known} expected failures (listed by the implementation;" in headline
    assert summary.count("- listed by the implementation as expected: ") == known  # each with its reason
    by_status = s["clauses_by_status"]
    claimed = report["verdict"]["counts"]["claimed_clauses"]
    assert claimed == s["clauses"] - by_status["not claimed"] - by_status["not certified"] - by_status["not covered"]
    assert f"FAILED {by_status['passed']}/{claimed}" in (output / "badge.svg").read_text()
    junit = (output / "junit.xml").read_text()
    # JUnit has no expected failure: each is a <failure> of that type, as the verdict fails for it
    failing = known + s.get("not seen this run", 0) + tests.get("not seen this run", 0)
    assert f'tests="{s["scenarios"] + tests["total"]}" failures="{failing}" errors="0"' in junit
    # the guide quotes this run's headline. Only the counts of clauses may have grown since (each clause added to
    # the suite, in core or another capability, changes the claimed total, its share and the count not claimed);
    # the verdict, the clauses passed and the expected failures must read as quoted.
    quoted = " ".join(re.search(r"it reads `(FAILED: [^`]*)`", GUIDE.read_text(encoding="utf-8")).group(1).split())

    def clause_counts_masked(text: str) -> str:
        return re.sub(r"/\d+ claimed clauses passed \([\d.]+%\), \d+ not claimed;", "/N claimed clauses passed (P), "
                      "M not claimed;", text)

    assert clause_counts_masked(quoted) == clause_counts_masked(headline), \
        f"docs/implementers.md should quote: {headline}"


def test_the_guides_expectations_example_is_a_valid_expectations_file(tmp_path):
    from mq_conformance.conformance.pytest_plugin import load_expectations

    guide = GUIDE.read_text(encoding="utf-8")
    part = guide[guide.index("### The expectations file"):]
    example = re.search(r"```yaml\n(.*?)```", part, re.DOTALL).group(1)
    path = tmp_path / "expected.yaml"
    path.write_text(example)
    kinds = ("scenario", "clause", "test", "signature")
    assert {next(k for k in kinds if k in item) for item in load_expectations(path)} == set(kinds)
