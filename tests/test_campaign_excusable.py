"""Campaign divergences that can be told apart, excused and replayed: every MQINQ selector that differs is its own
signature, an expectation can name a signature, and a witness replays on the implementation that produced it."""

from __future__ import annotations

import sys
from pathlib import Path

from mq_conformance.adapters.base import load
from mq_conformance.conformance import cli
from mq_conformance.conformance.runner import FAILED, PASSED, run_scenario
from mq_conformance.conformance.campaign.run import CampaignConfig, run_campaign
from mq_conformance.conformance.scenario import load_scenario

IDENTITY = {"implementation": {"name": "two-attribute-bugs"}, "suite": {}}


def _inquiring(name: str, selector: str) -> dict:
    return {"id": name, "area": "queues", "calls": [
        {"op": "define_queue", "name": "Q1"},
        {"op": "open", "handle": "i", "queue": "Q1", "Options": ["MQOO_INQUIRE"]},
        {"op": "inquire", "handle": "i", "Selectors": [selector]}]}


def test_two_different_attribute_bugs_are_two_signatures_each_naming_its_selector(tmp_path):
    corpus = [_inquiring("depth", "MQIA_CURRENT_Q_DEPTH"), _inquiring("inhibit", "MQIA_INHIBIT_GET")]
    config = CampaignConfig(adapter="campaign_adapters:two_attribute_bugs", sequences=2, length=3, seed=0,
                            areas=("queues",))
    summary = run_campaign(config, tmp_path, "c", master="inprocess", corpus=corpus, show_progress=False,
                           identity=IDENTITY)
    signatures = summary["aggregates"]["signatures"]
    assert sorted(s["fields"] for s in signatures) == ["attributes.MQIA_CURRENT_Q_DEPTH", "attributes.MQIA_INHIBIT_GET"]
    assert len({s["slug"] for s in signatures}) == 2
    assert all((s["op"], s["model_reason"], s["impl_reason"], s["count"]) == ("inquire", "MQRC_NONE", "MQRC_NONE", 1)
               for s in signatures)


SERVER = Path(__file__).parent / "servers" / "own_ids.py"


def _own_ids_server(folder: Path, mutant: str | None = None) -> str:
    """``jsonlines:`` a script starting tests/servers/own_ids.py: identifiers of its own, and ``mutant``'s bug."""
    script = folder / f"own-ids-{mutant or 'correct'}.sh"
    script.write_text("#!/bin/sh\n" + (f"MQCONF_TEST_MUTANT={mutant} " if mutant else "")
                      + f"exec {sys.executable} {SERVER}\n")
    script.chmod(0o755)
    return f"jsonlines:{script}"


def test_a_witness_replays_on_the_implementation_that_produced_it_and_passes_a_correct_one_with_its_own_ids(
        tmp_path):
    """Witnesses name generated identifiers as variables ($id1, and $new1 for one the call must generate): the
    implementation that diverged fails each at its last step, in the field of the signature, and an implementation
    whose identifiers differ from the model's, but that is right, passes it (it failed on the model's bytes)."""
    buggy, correct = _own_ids_server(tmp_path, "new-msg-id-ignored"), _own_ids_server(tmp_path)
    config = CampaignConfig(adapter=buggy, sequences=40, length=20, seed=0, areas=("matching",))
    summary = run_campaign(config, tmp_path / "campaigns", "c", master="inprocess", show_progress=False,
                           identity=IDENTITY)
    signatures = summary["aggregates"]["signatures"]
    assert signatures and all(s["fields"] == "MD.MsgId" for s in signatures)
    for signature in signatures:
        witness = Path(summary["witnesses"][signature["slug"]])
        scenario = load_scenario(witness)
        assert len([step for step in scenario.steps if not step.setup]) <= signature["witness"]["length"]
        for name, expected in (("reference", PASSED), (correct, PASSED), (buggy, FAILED)):
            adapter = load(name)
            try:
                result = run_scenario(scenario, adapter)
            finally:
                adapter.close()
            assert result.status == expected, (name, witness, [step.problems for step in result.failures])
        # the implementation that diverged fails it at its last call only, where it diverged, in the same field
        [failing] = result.failures
        assert failing is result.steps[-1] and failing.op == "put"
        assert any(problem.startswith("MD.MsgId: $new1 would be ") for problem in failing.problems), failing.problems


def _two_bugs_campaign(tmp_path: Path, expectations: Path | None = None) -> tuple[int, dict]:
    """``mqconf campaign`` of the two attribute bugs over a corpus of two sequences; its exit status and summary."""
    import json

    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text("".join(json.dumps(s) + "\n" for s in (_inquiring("depth", "MQIA_CURRENT_Q_DEPTH"),
                                                              _inquiring("inhibit", "MQIA_INHIBIT_GET"))))
    status = cli.main(["campaign", "--adapter", "campaign_adapters:two_attribute_bugs", "--corpus", str(corpus),
                       "--master", "inprocess", "--output", str(tmp_path / "campaigns"), "--id", "c"]
                      + (["--expectations", str(expectations)] if expectations else []))
    return status, json.loads((tmp_path / "campaigns" / "c" / "summary.json").read_text())


def _listing(path: Path, *entries: tuple[str, str]) -> Path:
    path.write_text("expected_failures:\n" + "".join(f"  - signature: {slug}\n    reason: {reason}\n"
                                                     for slug, reason in entries))
    return path


def test_a_campaign_signature_can_be_listed_and_one_not_found_is_not_seen_this_run(tmp_path, capsys):
    status, summary = _two_bugs_campaign(tmp_path)
    assert status == 1
    depth, inhibit = (next(s["slug"] for s in summary["aggregates"]["signatures"] if s["fields"].endswith(selector))
                      for selector in ("DEPTH", "INHIBIT_GET"))
    capsys.readouterr()
    listing = _listing(tmp_path / "expected.yaml", (depth, "CurrentQDepth counts one too many"),
                       ("put-0123456789", "the MsgId is reused sometimes"))
    status, _ = _two_bugs_campaign(tmp_path, listing)
    out = capsys.readouterr().out
    assert status == 1  # the InhibitGet divergence is not listed
    assert "EXPECTED DIVERGENCE x1: inquire [no options] in attributes.MQIA_CURRENT_Q_DEPTH" in out
    assert "listed by the implementation: CurrentQDepth counts one too many" in out
    assert "DIVERGENCE x1: inquire [no options] in attributes.MQIA_INHIBIT_GET" in out
    assert "NOT SEEN THIS RUN put-0123456789: the MsgId is reused sometimes" in out
    assert "signatures: 1 not listed, 1 expected, 1 listed and not seen this run" in out
    listing = _listing(tmp_path / "expected.yaml", (depth, "CurrentQDepth counts one too many"),
                       (inhibit, "InhibitGet is inverted"), ("put-0123456789", "the MsgId is reused sometimes"))
    assert _two_bugs_campaign(tmp_path, listing)[0] == 0  # every divergence listed: the command judges as a run


def test_a_run_judges_its_campaign_with_the_expectations_and_a_rebuilt_report_says_the_same(tmp_path, capsys):
    import json

    from mq_conformance.fixtures import SCENARIOS

    status, summary = _two_bugs_campaign(tmp_path)
    depth = next(s["slug"] for s in summary["aggregates"]["signatures"] if s["fields"].endswith("DEPTH"))
    listing = _listing(tmp_path / "expected.yaml", (depth, "CurrentQDepth counts one too many"),
                       ("put-0123456789", "the MsgId is reused sometimes"))
    run = tmp_path / "run"
    assert cli.main(["run", "--adapter", "campaign_adapters:two_attribute_bugs", "--scenarios",
                     str(SCENARIOS / "put" / "put-logical-order-group-of-two.yaml"), "--campaign",
                     str(tmp_path / "campaigns" / "c"), "--expectations", str(listing), "--output", str(run)]) == 1
    first = json.loads((run / "conformance.json").read_text())
    statuses = sorted((f["id"].split("/")[-1], f["status"]) for f in first["failures"] if f["kind"] == "campaign")
    inhibit = next(s["slug"] for s in summary["aggregates"]["signatures"] if s["slug"] != depth)
    assert statuses == sorted([(depth, "expected failure"), (inhibit, "failed"),
                               ("put-0123456789", "not seen this run")])
    counts = first["verdict"]["counts"]
    assert (counts["campaign_signatures"], counts["expected_failures"], counts["not_seen"]) == (1, 1, 1)
    summary_md = (run / "summary.md").read_text()
    assert "listed by the implementation as expected: CurrentQDepth counts one too many" in summary_md
    capsys.readouterr()
    assert cli.main(["report", str(run)]) == 0
    assert json.loads((run / "conformance.json").read_text())["verdict"] == first["verdict"]


def test_an_expectation_naming_no_signature_shape_is_one_line_naming_the_file(tmp_path, capsys):
    listing = _listing(tmp_path / "expected.yaml", ("inquire [no options]", "a typo"))
    status = cli.main(["campaign", "--adapter", "reference", "--master", "inprocess", "--sequences", "1",
                       "--output", str(tmp_path / "campaigns"), "--expectations", str(listing)])
    assert status == 2
    [line] = capsys.readouterr().err.strip().splitlines()
    assert line.startswith(f"mqconf: {listing}:2: 'inquire [no options]' is not a campaign signature"), line
    assert not (tmp_path / "campaigns").exists()
