"""Publish/subscribe by its tables: every wildcard example of fixtures/tables/topic-wildcards.yaml, every inherited
attribute of topic-attributes.yaml, run on the adapter under test; and the model's topic-tree resolution itself."""

from __future__ import annotations

import pytest

from mq_conformance.reference import topics
from mq_conformance.reference.constants import VALUES
from mq_conformance.reference.tables import default_spec, load_examples
from tests_support import Session

SPEC = default_spec()
WILDCARDS = load_examples("topic-wildcards.yaml")
ATTRIBUTES = SPEC["topic.attributes"]


def _rows(table, capability: str = "pubsub"):
    return [pytest.param(r, id=r.id, marks=[pytest.mark.clause(r.id), pytest.mark.capability(capability)])
            for r in table.rows]


@pytest.mark.parametrize("row", _rows(WILDCARDS))
def test_the_model_matches_each_wildcard_example_as_ibm_does(row):
    when = row.when
    assert topics.matches(when["subscription"], when["topic"], when["scheme"] == "MQSO_WILDCARD_CHAR") \
        is row.then["matches"]


@pytest.mark.parametrize("row", _rows(WILDCARDS))
def test_a_subscription_receives_a_publication_exactly_when_its_wildcard_example_matches(adapter, row):
    session = Session(adapter)
    session.ok("define_queue", name="SUBQ")
    session.ok("open", handle="q", queue="SUBQ", Options=["MQOO_INPUT_AS_Q_DEF"])
    session.ok("sub", handle="s", Hobj="q",
               SD={"Options": ["MQSO_CREATE", row.when["scheme"]], "ObjectString": row.when["subscription"]})
    session.ok("put1", ObjectString=row.when["topic"], data="publication")
    got = session("get", handle="q")
    if row.then["matches"]:
        assert (got.CompCode, got.data) == ("MQCC_OK", "publication")
    else:
        assert (got.CompCode, got.Reason) == ("MQCC_FAILED", "MQRC_NO_MSG_AVAILABLE")


def _value(cell):
    if isinstance(cell, int):
        return cell
    return int(cell) if cell.lstrip("-").isdigit() else VALUES[cell]


@pytest.mark.parametrize("row", _rows(ATTRIBUTES))
def test_system_base_topic_gives_each_attribute_its_documented_value(row):
    base = topics.base_topic(SPEC)
    assert getattr(base, row.when["attribute"]) == _value(row.then["base"])


@pytest.mark.parametrize("row", _rows(ATTRIBUTES))
def test_an_as_parent_attribute_is_taken_from_the_nearest_topic_object_above(row):
    attribute, as_parent = row.when["attribute"], _value(row.then["as-parent"])
    other = next(v for v in (1, 2, 7) if v not in (as_parent, _value(row.then["base"])))  # a value neither means
    state = topics.PubSub()
    state.topics["A"] = topics.TopicDefinition("A", "a", **{attribute: other})
    state.topics["AB"] = topics.TopicDefinition("AB", "a/b")  # every attribute as parent
    assert topics.resolve_attribute(state, SPEC, "a/b/c", attribute) == (other, "A")
    assert topics.resolve_attribute(state, SPEC, "z", attribute) == (_value(row.then["base"]), topics.BASE_TOPIC)
    state.topics["AB"] = topics.TopicDefinition("AB", "a/b", **{attribute: _value(row.then["base"])})
    assert topics.resolve_attribute(state, SPEC, "a/b/c", attribute) == (_value(row.then["base"]), "AB")


@pytest.mark.capability("pubsub")
def test_a_topic_string_between_two_topic_objects_inherits_from_the_nearer_one(adapter):
    session = Session(adapter)
    session.ok("define_topic", name="SPORTS", TopicString="Sports", InhibitPublications="MQTA_PUB_INHIBITED")
    session.ok("define_topic", name="FOOTBALL", TopicString="Sports/Football", InhibitPublications="MQTA_PUB_ALLOWED")
    session.ok("open", handle="football", ObjectString="Sports/Football/Results", Options=["MQOO_OUTPUT"])
    session.ok("open", handle="golf", ObjectString="Sports/Golf", Options=["MQOO_OUTPUT"])
    assert session("put", handle="football", data="x").CompCode == "MQCC_OK"
    assert session("put", handle="golf", data="x").Reason == "MQRC_PUT_INHIBITED"


def test_a_topic_string_is_at_or_above_itself_its_prefixes_by_whole_levels_and_the_root():
    assert [upper for upper in ("a/b/c", "a/b", "a", "", "a/", "a/bc", "b") if topics.is_at_or_above(upper, "a/b/c")] \
        == ["a/b/c", "a/b", "a", ""]
    assert topics.is_at_or_above("", "") and topics.is_at_or_above("a/", "a//b")
