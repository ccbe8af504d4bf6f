"""Campaign divergences that can be told apart, excused and replayed: every MQINQ selector that differs is its own
signature, an expectation can name a signature, and a witness replays on the implementation that produced it."""

from __future__ import annotations

import sys
from pathlib import Path

from mq_conformance.conformance import cli
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
        tmp_path, capsys):
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
        witness = summary["witnesses"][signature["slug"]]
        calls = signature["witness"]["length"]
        assert cli.main(["scenario", witness, "--adapter", "reference"]) == 0
        assert cli.main(["scenario", witness, "--adapter", correct]) == 0, capsys.readouterr().out
        capsys.readouterr()
        assert cli.main(["scenario", witness, "--adapter", buggy]) == 1
        out = capsys.readouterr().out
        failing = [line for line in out.splitlines() if ": step " in line]
        assert len(failing) == 1 and failing[0].endswith(f"put") and " MD.MsgId: $new1 would be " in out, out
        last = load_scenario(Path(witness)).steps[-1]
        assert f"{witness}:{last.line}: step " in failing[0], out  # the witness's last call, where it diverged
        assert len(load_scenario(Path(witness)).steps) <= calls
