"""Capabilities are honoured everywhere: fixtures/capabilities.yaml is the one list of names; an unknown name in
a scenario, an adapter's declaration or a server's hello is a one-line error listing the valid ones; every
scenario lists the capabilities its calls need; segmentation can be claimed without groups; the served model
can be told to claim less (``mqconf serve --stdio --claim``)."""

from __future__ import annotations

import shlex
import sys
import types
from pathlib import Path

import pytest

from mq_conformance import fixtures
from mq_conformance.adapters.base import AdapterError, load
from mq_conformance.adapters.capabilities import CapabilityError, capability_names, check_claim, load_capabilities
from mq_conformance.adapters.reference import ReferenceAdapter
from mq_conformance.conformance import cli
from mq_conformance.conformance.campaign.cli import claimed_areas
from mq_conformance.conformance.runner import NOT_CLAIMED, PASSED, run_scenario
from mq_conformance.conformance.scenario import load_scenario, parse, scenario_files
from mq_conformance.conformance.yamlsource import SourceError, loads

SERVERS = Path(__file__).resolve().parent / "servers"
SCENARIOS = [load_scenario(path) for path in scenario_files([fixtures.SCENARIOS])]
VALID = "valid capabilities: " + ", ".join(capability_names())


def test_the_list_names_core_and_every_capability_the_model_claims():
    names = capability_names()
    assert names[0] == "core"
    assert {"groups", "segmentation", "units-of-work", "browse-mark", "cluster"} <= set(names)
    assert ReferenceAdapter.capabilities == frozenset(names)
    assert all(c.covers for c in load_capabilities().values())


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.id for s in SCENARIOS])
def test_every_scenario_lists_the_capabilities_its_calls_need(scenario):
    missing = scenario.needed_capabilities() - scenario.capabilities
    assert not missing, f"{scenario.path}: uses names or ops of {sorted(missing)}; add them to its capabilities"


def test_segmentation_is_claimed_without_groups_by_scenarios_that_need_only_segments():
    alone = [s for s in SCENARIOS if "segmentation" in s.capabilities and "groups" not in s.capabilities]
    both = [s for s in SCENARIOS if {"segmentation", "groups"} <= s.capabilities]
    assert len(alone) >= 20 and both


class _SegmentsOnly(ReferenceAdapter):
    """The model, claiming segmentation but not groups."""

    name = "segments-only"
    capabilities = frozenset({"core", "segmentation", "units-of-work"})


def test_an_implementation_without_groups_runs_the_segment_scenarios_and_no_group_scenario():
    adapter = _SegmentsOnly()
    results = {s.id: run_scenario(s, adapter) for s in SCENARIOS if {"groups", "segmentation"} & s.capabilities}
    for scenario in SCENARIOS:
        if scenario.id in results:
            expected = NOT_CLAIMED if scenario.capabilities - adapter.capabilities else PASSED
            assert results[scenario.id].status == expected, scenario.id


def test_unknown_capability_in_a_scenario_is_one_line_listing_the_valid_ones(tmp_path):
    path = tmp_path / "s.yaml"
    text = "id: s\ntitle: t\nclauses: [put.msgid.generated]\ncapabilities: [core, clusters]\nsteps: []\n"
    with pytest.raises(SourceError) as caught:
        parse(loads(text, path), path)
    message = str(caught.value)
    assert "\n" not in message and f"{path}:4:" in message
    assert "unknown capability 'clusters'" in message and VALID in message


class _Misspelt(ReferenceAdapter):
    capabilities = frozenset({"core", "clusters"})


def test_adapter_declaring_an_unknown_capability_is_refused_in_one_line(monkeypatch):
    module = types.ModuleType("mqconf_capability_adapters")
    module.misspelt = _Misspelt
    monkeypatch.setitem(sys.modules, "mqconf_capability_adapters", module)
    with pytest.raises(AdapterError, match=f"unknown capability 'clusters'; {VALID}$"):
        load("mqconf_capability_adapters:misspelt")


def test_server_whose_hello_claims_an_unknown_capability_is_refused(capsys, tmp_path):
    spec = "jsonlines:" + shlex.join([sys.executable, str(SERVERS / "misspelt_capability.py")])
    with pytest.raises(AdapterError, match="its hello: unknown capability 'clusters'"):
        load(spec)
    status = cli.main(["scenario", str(fixtures.SCENARIOS / "open"), "--adapter", spec])
    err = capsys.readouterr().err
    assert status == 2 and len(err.strip().splitlines()) == 1 and VALID in err


def test_a_claim_without_what_it_requires_is_refused():
    with pytest.raises(CapabilityError, match="claims 'groups', which requires core"):
        check_claim(["groups"], "test")
    assert check_claim(["core", "segmentation"], "test") == {"core", "segmentation"}


def test_served_model_claims_only_what_it_is_told():
    adapter = load("jsonlines:" + shlex.join([sys.executable, "-m", "mq_conformance.conformance.cli", "serve", "--stdio",
                                              "--claim", "core,segmentation"]))
    try:
        assert adapter.capabilities == {"core", "segmentation"}
    finally:
        adapter.close()


def test_serve_refuses_an_unknown_claim_in_one_line(capsys):
    assert cli.main(["serve", "--stdio", "--claim", "core,clusters"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mqconf: --claim: unknown capability 'clusters'") and VALID in err


def test_campaign_runs_only_the_areas_whose_capabilities_are_all_claimed():
    assert claimed_areas(["groups", "browse-mark"], {"core", "groups"}) == []
    assert claimed_areas(["groups", "browse-mark"], {"core", "browse-mark", "units-of-work"}) == ["browse-mark"]
    assert claimed_areas(["groups"], capability_names()) == ["groups"]


def test_a_campaign_corpus_replays_only_the_sequences_whose_capabilities_are_claimed(capsys):
    from mq_conformance.conformance.campaign.cli import claimed_sequences
    from mq_conformance.conformance.campaign.corpus import CorpusError

    plain = {"id": "plain", "calls": [{"op": "put", "handle": "h", "data": "x"}]}
    grouped = {"id": "grouped", "calls": [{"op": "put", "handle": "h", "MD": {"MsgFlags": ["MQMF_MSG_IN_GROUP"]}},
                                          {"op": "commit"}]}
    assert claimed_sequences([plain, grouped], {"core"}, "impl") == [plain]
    assert capsys.readouterr().out == ("corpus: 1 of 2 sequences need capabilities impl does not claim "
                                       "(groups, units-of-work), not run\n")
    with pytest.raises(CorpusError, match="no sequence of the corpus needs only capabilities impl claims"):
        claimed_sequences([grouped], {"core", "groups"}, "impl")
