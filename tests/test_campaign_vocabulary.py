"""The campaign generator speaks the message-property, selection, publish/subscribe, distributed and cluster verbs
(conformance/vocabulary.py's areas), and its table-directed steering reaches the rows of their tables: a generated
sequence, not only a scenario, meets MQCRTMH, MQSETMP, a selector, an MQSUB option rule or a channel."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from mq_conformance.conformance import vocabulary
from mq_conformance.conformance.campaign import generate
from mq_conformance.conformance.campaign.run import CampaignConfig, run_campaign


def _generated_calls(area: str, count: int = 80) -> Iterator[dict[str, Any]]:
    """The calls the area's rules drew (its set-up calls left out: they are not generated)."""
    setup = len(vocabulary.AREAS[area].setup)
    for index in range(count):
        yield from generate.sequence(21, index, 30, [area])["calls"][setup:]


def _options(call: dict[str, Any]) -> list[str]:
    """The option names of a call's Options, or of its SD's for an MQSUB (none when given as a number)."""
    options = call["SD"].get("Options") if call["op"] == "sub" else call.get("Options")
    return options if isinstance(options, list) else []


def _has(op: str, *keys: str) -> Callable[[dict[str, Any]], bool]:
    return lambda call: call["op"] == op and all(key in call for key in keys)


# Each new verb family, and the area whose rules must draw it.
FAMILIES: dict[str, tuple[str, Callable[[dict[str, Any]], bool]]] = {
    "MQCRTMH": ("properties", _has("crtmh")),
    "MQDLTMH": ("properties", _has("dltmh")),
    "MQSETMP": ("properties", _has("setmp")),
    "MQINQMP": ("properties", _has("inqmp")),
    "MQINQMP with MQIMPO_INQ_NEXT": ("properties", lambda c: c["op"] == "inqmp"
                                     and "MQIMPO_INQ_NEXT" in _options(c)),
    "MQINQMP with MQIMPO_CONVERT_TYPE": ("properties", lambda c: c["op"] == "inqmp" and "Type" in c
                                         and "MQIMPO_CONVERT_TYPE" in _options(c)),
    "MQDLTMP": ("properties", _has("dltmp")),
    "Root.MQMD property": ("properties", lambda c: c["op"] == "setmp" and c["Name"].startswith("Root.MQMD.")),
    "MQPUT with OriginalMsgHandle": ("properties", _has("put", "OriginalMsgHandle")),
    "MQPUT with NewMsgHandle": ("properties", _has("put", "NewMsgHandle")),
    "MQPUT1 with a message handle": ("properties", _has("put1", "OriginalMsgHandle")),
    "MQGET with MsgHandle": ("properties", _has("get", "MsgHandle")),
    "MQOPEN with SelectionString": ("selection", _has("open", "SelectionString")),
    "MQSUB": ("pubsub", _has("sub")),
    "MQSUB with options of no rule's liking": ("pubsub", lambda c: c["op"] == "sub"
                                                and isinstance(c["SD"]["Options"], int)),
    "MQSUB resuming": ("pubsub", lambda c: c["op"] == "sub" and "MQSO_RESUME" in _options(c)),
    "MQSUB with SubLevel": ("pubsub", lambda c: c["op"] == "sub" and "SubLevel" in c["SD"]),
    "MQSUB by the character wildcard scheme": ("pubsub", lambda c: c["op"] == "sub"
                                               and "MQSO_WILDCARD_CHAR" in _options(c)),
    "MQPUT with PubLevel": ("pubsub", lambda c: c["op"] in ("put", "put1") and "PubLevel" in c.get("PMO", {})),
    "MQSUBRQ": ("pubsub", _has("subrq")),
    "MQOPEN of a topic": ("pubsub", _has("open", "ObjectString")),
    "MQPUT of a publication": ("pubsub", lambda c: c["op"] == "put" and c["handle"] == "p"),
    "MQPUT1 of a publication": ("pubsub", _has("put1", "ObjectString")),
    "MQCLOSE of a subscription with MQCO_REMOVE_SUB": ("pubsub", lambda c: c["op"] == "close"
                                                        and "MQCO_REMOVE_SUB" in _options(c)),
    "MQSUB with SelectionString": ("pubsub-properties", lambda c: c["op"] == "sub"
                                   and "SelectionString" in c["SD"]),
    "MQSUB with SubUserData": ("pubsub-properties", lambda c: c["op"] == "sub" and "SubUserData" in c["SD"]),
    "MQSETMP with CopyOptions": ("pubsub-properties", _has("setmp", "PD")),
    "MQPUT of a publication with a message handle": ("pubsub-properties", _has("put", "OriginalMsgHandle")),
    "MQSET of a topic handle": ("topic-handles", _has("set")),
    "MQPUT1 to another queue manager": ("distributed", _has("put1", "ObjectQMgrName")),
    "MQPUT1 through a remote queue definition": ("distributed", lambda c: c["op"] == "put1" and c["queue"] == "RQ"),
    "MQOPEN of a remote queue definition": ("distributed", lambda c: c["op"] == "open" and c["queue"] == "RQ"),
    "start_channel": ("distributed", _has("start_channel")),
    "stop_channel": ("distributed", _has("stop_channel")),
    "channel_status": ("distributed", _has("channel_status")),
    "transmit": ("distributed", _has("transmit")),
    "define_qmgr with DefXmitQName": ("distributed", _has("define_qmgr", "DefXmitQName")),
    "set_channel": ("cluster", _has("set_channel")),
    "define_channel": ("cluster", _has("define_channel")),
    "alter_queue": ("cluster", _has("alter_queue")),
    "suspend_qmgr": ("cluster", _has("suspend_qmgr")),
    "deliver": ("cluster", _has("deliver")),
}


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_the_generator_emits_each_new_verb_family(family):
    area, emitted = FAMILIES[family]
    assert any(emitted(call) for call in _generated_calls(area)), f"no generated call of {family} in area {area}"


def test_selectors_are_drawn_with_every_operator_kind_and_header_name():
    texts = [c["SelectionString"] for c in _generated_calls("selection", 200) if "SelectionString" in c]
    for word in ("BETWEEN", " IN (", "LIKE", "ESCAPE", "IS NULL", "IS NOT NULL", " AND ", " OR ", "NOT ", "+", "*"):
        assert any(word in text for text in texts), word
    for name in vocabulary.header_names():
        assert any(name in text for text in texts), name


NEW_TABLES = ("properties.types", "properties.conversions", "properties.get", "selection.headers", "properties.folders",
              "sub.options")


def test_a_small_campaign_reaches_every_reachable_row_of_the_property_selection_and_subscription_tables(tmp_path):
    config = CampaignConfig(adapter="reference", sequences=300, length=20, seed=3,
                            areas=("properties", "selection", "pubsub", "pubsub-properties"))
    summary = run_campaign(config, tmp_path, master="inprocess", show_progress=False)
    aggregates = summary["aggregates"]
    assert aggregates["divergent_sequences"] == 0
    for table in NEW_TABLES:
        for row, count in aggregates["table_rows"][table]["counts"].items():
            if vocabulary.unreachable(table, row) is None:
                assert count > 0, f"{row} was not reached"
