"""Campaign divergences that can be told apart, excused and replayed: every MQINQ selector that differs is its own
signature, an expectation can name a signature, and a witness replays on the implementation that produced it."""

from __future__ import annotations

from mq_conformance.conformance.campaign.run import CampaignConfig, run_campaign

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
