"""Protocol 1 is a published contract: what it accepted when first published it accepts today.

The compatibility corpus (fixtures/compat/protocol-1/, its README says what each file is) is replayed here:

- the first release's recorded exchanges: today's suite, talking to a server that answers as the first release's
  reference server did, must send the same calls (in a form the first call.json allows) and accept the same
  outcomes (``"Report": 0`` among them), so every recorded scenario gives the result it gave then;
- a server written against protocol 1 as first published (integers for Report, MsgFlags, Feedback, MsgType,
  GroupStatus, Options...; refusing any call the first call.json does not allow) certifies as the model does;
- the example server as released (docs/examples/server.js at its first commit, with the constants it read)
  gets, for every scenario that existed then, the result it got then.

A change that breaks one of these is a change of the protocol: announce it with a new protocol number
(docs/implementers.md, section 10), never by editing the corpus.
"""

from __future__ import annotations

import gzip
import json
import shutil
import sys
from pathlib import Path

import pytest
import yaml

from mq_conformance import fixtures
from mq_conformance.adapters.jsonlines import JsonLinesAdapter
from mq_conformance.adapters.protocol import call_for, canonical_outcome
from mq_conformance.conformance.runner import NOT_CLAIMED, PASSED, run_scenario
from mq_conformance.conformance.scenario import load_scenario, scenario_files
from mq_conformance.reference.calls import Outcome
from mq_conformance.reference.schema import validate_outcome

CORPUS = Path(fixtures.__file__).parent / "compat" / "protocol-1"
SERVERS = Path(__file__).parent / "servers"
SCENARIOS = {load_scenario(path).id: path for path in scenario_files([fixtures.SCENARIOS])}


def _recorded() -> dict[str, str]:
    with gzip.open(CORPUS / "first-release-exchanges.jsonl.gz", "rt", encoding="utf-8") as lines:
        next(lines)
        return {record["scenario"]: record["status"] for record in map(json.loads, lines)}


def _run(adapter, ids) -> dict[str, object]:
    return {ident: run_scenario(load_scenario(SCENARIOS[ident]), adapter) for ident in ids}


def test_first_release_exchanges_replay_on_todays_suite():
    recorded = _recorded()
    grown = yaml.safe_load((CORPUS / "changed-since.yaml").read_text())["steps added"]
    still_here = sorted(ident for ident in recorded if ident in SCENARIOS)
    assert len(still_here) > 300
    with JsonLinesAdapter([sys.executable, str(SERVERS / "replay_first_release.py")]) as adapter:
        results = _run(adapter, still_here)
    differs = {}
    for ident, result in results.items():
        if result.status != recorded[ident]:
            first = result.failures[0]
            differs[ident] = first.outcome.get("error") or "; ".join(first.problems)
    # Only scenarios that gained steps since (their new calls were never recorded) may differ, and only there.
    assert set(differs) == set(grown), differs
    assert all("the first release never sent this call here" in why for why in differs.values()), differs


def test_a_server_written_to_protocol_1_as_first_published_certifies_like_the_model():
    server = [sys.executable, str(SERVERS / "protocol1_first_published.py")]
    with JsonLinesAdapter(server) as adapter:
        assert adapter.protocol == 1
        results = _run(adapter, sorted(SCENARIOS))
    problems = {ident: (r.failures[0].outcome.get("error") or r.failures[0].problems)
                for ident, r in results.items() if r.status not in (PASSED, NOT_CLAIMED)}
    assert problems == {}
    claimed = [r for r in results.values() if r.status == PASSED]
    assert len(claimed) > 300  # core, groups, segmentation, units-of-work, browse-mark and cluster: the names then


def test_the_example_server_as_released_gets_the_results_it_got_then():
    node = shutil.which("node")
    if node is None:
        pytest.skip("needs Node.js (`node` on PATH) to run the released example server")
    then = json.loads((CORPUS / "released" / "server-js-results.json").read_text())
    ids = sorted(ident for ident in then if ident in SCENARIOS)
    assert len(ids) > 370
    with JsonLinesAdapter([node, str(CORPUS / "released" / "docs" / "examples" / "server.js")]) as adapter:
        now = {ident: result.status for ident, result in _run(adapter, ids).items()}
    assert {i: (then[i], now[i]) for i in ids if now[i] != then[i]} == {}


@pytest.mark.parametrize(("field", "value", "canonical"), [
    (("MD", "Report"), 0, []),
    (("MD", "Report"), 256, ["MQRO_COA"]),
    (("MD", "Report"), "MQRO_COA", ["MQRO_COA"]),
    (("MD", "MsgFlags"), 8, ["MQMF_MSG_IN_GROUP"]),
    (("MD", "MsgType"), 8, "MQMT_DATAGRAM"),
    (("MD", "Persistence"), 0, "MQPER_NOT_PERSISTENT"),
    (("MD", "Feedback"), 0, 0),
    (("GMO", "GroupStatus"), 76, "MQGS_LAST_MSG_IN_GROUP"),
    (("GMO", "MatchOptions"), 3, ["MQMO_MATCH_MSG_ID", "MQMO_MATCH_CORREL_ID"]),
    (("PMO", "Options"), 0, []),
])
def test_protocol_1_outcomes_may_give_option_and_enumeration_fields_as_integers(field, value, canonical):
    structure, name = field
    outcome = {"CompCode": "MQCC_OK", "Reason": "MQRC_NONE", structure: {name: value}}
    validate_outcome(outcome)  # accepted, as protocol 1 first accepted it
    read = canonical_outcome(outcome)[structure][name]
    assert sorted(read) == sorted(canonical) if isinstance(canonical, list) else read == canonical
    validate_outcome(Outcome.from_json(canonical_outcome(outcome)).to_json())


def test_protocol_1_calls_carry_report_as_its_value():
    call = {"op": "put", "handle": "h", "MD": {"Report": ["MQRO_COA", "MQRO_PASS_MSG_ID"]}, "data": "x"}
    assert call_for(1, call)["MD"]["Report"] == 256 | 128
    assert call["MD"]["Report"] == ["MQRO_COA", "MQRO_PASS_MSG_ID"]  # the caller's call is not changed
