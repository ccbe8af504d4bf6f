"""Message properties (reference/properties.py): the rules the scenarios under fixtures/scenarios/properties show,
pinned where a scenario cannot reach (the MQRFH2's bytes field by field, the protocol-1 gate) or where many
values are cheaper to state as a table."""

from __future__ import annotations

import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mq_conformance.adapters.reference import ReferenceAdapter
from mq_conformance.conformance.runner import NOT_CLAIMED, PASSED, run_scenario
from mq_conformance.conformance.scenario import load_scenarios
from mq_conformance.fixtures import ROOT
from mq_conformance.reference import QueueManager, properties
from mq_conformance.reference.constants import name_of
from mq_conformance.reference.calls import Call

PROPERTY_SCENARIOS = ROOT / "scenarios" / "properties"


def _names(validate: bool = True):
    qm = QueueManager()
    hconn = qm.connect().hconn
    hmsg = properties.create(qm, hconn, 0 if validate else properties.CMHO_NO_VALIDATION).hobj
    return qm, hconn, hmsg


@pytest.mark.parametrize(("name", "reason"), [
    ("Color", None), ("usr.Color", None), ("a.b_c.$d", None), ("mq_usr.a.b.c", None), ("mq.one", None),
    ("JMSCorrelationID", None), ("Root.MQMD.Priority", None),
    ("JMSDestination", "MQRC_PROPERTY_NAME_ERROR"), ("usr.JMSType", "MQRC_PROPERTY_NAME_ERROR"),
    ("Like", "MQRC_PROPERTY_NAME_ERROR"), ("usr.escape", "MQRC_PROPERTY_NAME_ERROR"),
    ("MQ.a.b", "MQRC_PROPERTY_NAME_ERROR"), ("Body", "MQRC_PROPERTY_NAME_ERROR"), ("Rooted", "MQRC_PROPERTY_NAME_ERROR"),
    (".a", "MQRC_PROPERTY_NAME_ERROR"), ("a-b", "MQRC_PROPERTY_NAME_ERROR"), ("a=b", "MQRC_PROPERTY_NAME_ERROR"),
    ("", "MQRC_PROPERTY_NAME_LENGTH_ERR"), ("x" * 4096, "MQRC_PROPERTY_NAME_LENGTH_ERR"),
])
def test_property_names_follow_ibms_restrictions(name, reason):
    qm, hconn, hmsg = _names()
    result = properties.set_property(qm, hconn, hmsg, name, "MQTYPE_INT32", 1)
    assert (None if not result.failed else name_of(result.reason, "MQRC")) == reason


@pytest.mark.parametrize(("name", "type_", "value", "reason"), [
    ("Root.MQMD.Priority", "MQTYPE_INT32", 7, None), ("Root.MQMD.Format", "MQTYPE_STRING", "MQSTR   ", None),
    ("Root.MQMD.CorrelId", "MQTYPE_BYTE_STRING", b"\x01" * 24, None),
    ("Root.MQMD.Priority", "MQTYPE_STRING", "7", "MQRC_PROPERTY_TYPE_ERROR"),
    ("Root.MQMD.Priority", "MQTYPE_INT64", 7, "MQRC_PROPERTY_TYPE_ERROR"),
    ("Root.MQMD.Format", "MQTYPE_INT32", 1, "MQRC_PROPERTY_TYPE_ERROR"),
    ("Root.MQMD.Version", "MQTYPE_INT32", 2, "MQRC_PROPERTY_NAME_ERROR"),
    ("Root.MQMD.NoSuchField", "MQTYPE_INT32", 2, "MQRC_PROPERTY_NAME_ERROR"),
])
def test_descriptor_fields_are_set_with_their_fields_type(name, type_, value, reason):
    qm, hconn, hmsg = _names()
    result = properties.set_property(qm, hconn, hmsg, name, type_, value)
    assert (None if not result.failed else name_of(result.reason, "MQRC")) == reason
    if reason is None:
        inquired = properties.inquire_property(qm, hconn, hmsg, name)
        assert inquired.attributes == {"Name": name, "Type": type_, "Value": value}


def test_deleting_a_descriptor_field_gives_back_its_initial_value_and_a_wildcard_never_returns_one():
    qm, hconn, hmsg = _names()
    assert properties.inquire_property(qm, hconn, hmsg, "Root.MQMD.Priority").attributes["Value"] == -1
    properties.set_property(qm, hconn, hmsg, "Root.MQMD.Priority", "MQTYPE_INT32", 4)
    assert not properties.delete_property(qm, hconn, hmsg, "Root.MQMD.Priority").comp_code
    assert properties.inquire_property(qm, hconn, hmsg, "Root.MQMD.Priority").attributes["Value"] == -1
    assert name_of(properties.inquire_property(qm, hconn, hmsg, "Root%").reason, "MQRC") == "MQRC_PROPERTY_NOT_AVAILABLE"


def test_a_handle_without_validation_takes_any_name_of_a_valid_length():
    qm, hconn, hmsg = _names(validate=False)
    for name in ("between", "JMSFoo", "a..b", "a b"):
        assert not properties.set_property(qm, hconn, hmsg, name, "MQTYPE_INT32", 1).failed
    assert properties.set_property(qm, hconn, hmsg, "", "MQTYPE_INT32", 1).failed


def test_rfh2_is_laid_out_as_ibm_documents_it():
    qm = QueueManager()
    props = [properties.Property("Color", 1024, "r<d"), properties.Property("n", 64, 7),
             properties.Property("acme.flag", 4, True), properties.Property("acme.z", 2, None),
             properties.Property("b", 8, b"\x01\xff")]
    raw = properties.rfh2(qm, props, 546, 819, "MQSTR   ")
    struc_id, version, length, encoding, ccsid = raw[:4], *struct.unpack("<iiii", raw[4:20])
    assert (struc_id, version, length, encoding, ccsid) == (b"RFH ", 2, len(raw), 546, 819)
    assert raw[20:28] == b"MQSTR   " and struct.unpack("<ii", raw[28:36]) == (0, 1208)
    folders, offset = [], 36
    while offset < len(raw):
        (size,) = struct.unpack("<i", raw[offset:offset + 4])
        assert size % 4 == 0
        folders.append(raw[offset + 4:offset + 4 + size].decode("utf-8").rstrip(" "))
        offset += 4 + size
    assert length % 4 == 0 and offset == length
    assert folders == ['<usr><Color>r&lt;d</Color><n dt="i4">7</n><b dt="bin.hex">01ff</b></usr>',
                       '<acme><flag dt="boolean">1</flag><z xsi:nil="true"></z></acme>']


def test_every_property_scenario_passes_on_the_model():
    scenarios = load_scenarios([PROPERTY_SCENARIOS])
    assert len(scenarios) >= 40
    failing = [s.id for s in scenarios if run_scenario(s, ReferenceAdapter()).status != PASSED]
    assert failing == []


class _WithoutProperties(ReferenceAdapter):
    """A protocol-1 implementation written before the capability: it claims everything else."""

    capabilities = ReferenceAdapter.capabilities - {"properties"}


def test_an_implementation_not_claiming_properties_sees_their_scenarios_as_not_claimed():
    scenarios = load_scenarios([PROPERTY_SCENARIOS])
    statuses = {run_scenario(s, _WithoutProperties()).status for s in scenarios}
    assert statuses == {NOT_CLAIMED}


def test_a_message_keeps_its_properties_through_a_unit_of_work_backout():
    adapter = ReferenceAdapter()
    for call in ({"op": "define_queue", "name": "Q1"},
                 {"op": "open", "handle": "q", "queue": "Q1", "Options": ["MQOO_OUTPUT", "MQOO_INPUT_SHARED"]},
                 {"op": "crtmh", "hmsg": "m"},
                 {"op": "setmp", "hmsg": "m", "Name": "k", "Type": "MQTYPE_INT16", "Value": 3},
                 {"op": "put", "handle": "q", "data": "x", "OriginalMsgHandle": "m"},
                 {"op": "crtmh", "hmsg": "g"},
                 {"op": "get", "handle": "q", "MsgHandle": "g", "GMO": {"Options": ["MQGMO_SYNCPOINT"]}},
                 {"op": "backout"},
                 {"op": "dltmp", "hmsg": "g", "Name": "k"},
                 {"op": "get", "handle": "q", "MsgHandle": "g"}):
        outcome = adapter.execute(Call.from_json(call))
        assert outcome.CompCode == "MQCC_OK", (call, outcome)
    answer = adapter.execute(Call.from_json({"op": "inqmp", "hmsg": "g", "Name": "k"}))
    assert answer.property == {"Name": "k", "Type": "MQTYPE_INT16", "Value": 3}


# -- mixed content through the handle's group index (properties.names.mixed-content) --------------------------

_NAME = st.text(alphabet="ab.", min_size=1, max_size=6).filter(
    lambda n: not n.startswith(".") and not n.endswith(".") and ".." not in n)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["set", "delete", "replace"]), _NAME), max_size=16), _NAME)
def test_the_indexed_mixed_content_check_answers_as_the_definition_after_any_sets_deletes_and_gets(steps, name):
    """MQSETMP asks the handle's group index; after sets, deletes and a get that replaces every property, it must
    answer as the scan of every name (mixed_content) does."""
    handle = properties.MessageHandle(1, 1)
    for action, other in steps:
        if action == "set" and not properties.handle_mixed_content(handle, other):
            properties._indexed_set(handle, other, other)
        elif action == "delete" and other in handle.properties:
            del handle.properties[other]
            handle.groups = None
        elif action == "replace":  # as finish_get does: the message's properties replace the handle's
            handle.properties = {n: n for n in [other] if not properties.mixed_content((), n)}
            handle.groups = None
        assert properties.handle_mixed_content(handle, name) == properties.mixed_content(handle.properties, name)
