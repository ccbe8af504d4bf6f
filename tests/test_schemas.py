"""The JSON Schemas of the call language accept everything the suite produces and refuse malformed values.

- scenario.json accepts every scenario file as plain parsed YAML (one test per file);
- call.json accepts every call of every scenario file as the runner sends it, and outcome.json every outcome the
  reference adapter gives when running them: checked, one test per file, by
  tests/test_jsonlines.py::test_every_scenario_gives_the_same_schema_valid_results_through_the_protocol, which runs
  each file in process and through the protocol anyway (the JSON-lines adapter validates both on every exchange);
- each refuses malformed values with one line naming the JSON path;
- the schemas name exactly the fields, ops and expect keys that reference/calls.py and the loader know.
"""

from __future__ import annotations

import copy

import pytest
import yaml
from jsonschema import Draft202012Validator

from mq_conformance import fixtures
from mq_conformance.adapters.reference import ReferenceAdapter
from mq_conformance.conformance.matching import EXPECT_KEYS
from mq_conformance.conformance.scenario import SCENARIO_KEYS, STEP_KEYS, load_scenario, scenario_files
from mq_conformance.reference.schema import (
    SchemaError,
    _quick_validators,
    load_schema,
    quickly_valid,
    registry,
    validate_call,
    validate_outcome,
    validate_scenario,
)
from mq_conformance.reference.calls import CLUSTER_QMGR_FIELDS, CLUSTER_QUEUE_FIELDS, GMO_FIELDS, INPUT_ONLY, MD_FIELDS, OPS, PMO_FIELDS, QMGR_FIELDS, QUEUE_FIELDS, Call, Outcome

FILES = scenario_files([fixtures.SCENARIOS])
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # yaml.safe_load, with libyaml's speed where present
IDS = [p.stem for p in FILES]


def _schema_error(validate, value) -> SchemaError:
    with pytest.raises(SchemaError) as caught:
        validate(value)
    message = str(caught.value)
    assert "\n" not in message and message.startswith("$"), message
    return caught.value


# -- everything the suite produces is accepted ----------------------------------------------------------------
# (every call and outcome of every scenario file: see the module docstring)

@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_every_scenario_file_matches_scenario_schema(path):
    validate_scenario(yaml.load(path.read_text(encoding="utf-8"), Loader=SAFE_LOADER))  # noqa: S506 - a safe loader


def test_an_adapter_error_outcome_matches_outcome_schema():
    outcome = ReferenceAdapter().execute(Call("put", {"handle": "never-opened"}))
    assert outcome.error
    validate_outcome(outcome.to_json())


def test_outcomes_of_failing_and_warning_calls_match_outcome_schema():
    adapter = ReferenceAdapter()
    calls = [
        {"op": "define_queue", "name": "Q1", "MaxMsgLength": 4, "MaxQDepth": 1},
        {"op": "open", "handle": "h", "queue": "Q1", "Options": ["MQOO_OUTPUT", "MQOO_INPUT_SHARED", "MQOO_INQUIRE"]},
        {"op": "open", "handle": "x", "queue": "NOWHERE", "Options": ["MQOO_OUTPUT"]},
        {"op": "put", "handle": "h", "data": "toolong"},
        {"op": "put", "handle": "h", "data": {"hex": "00ff"}},
        {"op": "put", "handle": "h", "data": "ab"},
        {"op": "get", "handle": "h", "BufferLength": 1, "GMO": {"Options": ["MQGMO_ACCEPT_TRUNCATED_MSG"]}},
        {"op": "get", "handle": "h", "GMO": {"Options": ["MQGMO_NO_WAIT"]}},
        {"op": "inquire", "handle": "h", "Selectors": ["MQIA_CURRENT_Q_DEPTH", "MQIA_MAX_Q_DEPTH"]},
        {"op": "advance_clock", "milliseconds": 10},
        {"op": "commit"},
        {"op": "close", "handle": "h", "Options": ["MQCO_NONE"]},
    ]
    reasons = []
    for raw in calls:
        validate_call(raw)
        outcome = ReferenceAdapter.execute(adapter, Call.from_json(raw)).to_json()
        validate_outcome(outcome)
        reasons.append(outcome.get("Reason", outcome.get("error")))
    assert "MQRC_UNKNOWN_OBJECT_NAME" in reasons and "MQRC_NO_MSG_AVAILABLE" in reasons


# -- the schemas know what calls.py and the loader know ----------------------------------------------------------

CALL = load_schema("call")
OUTCOME = load_schema("outcome")
SCENARIO = load_schema("scenario")
STRUCTURES = {"MD": MD_FIELDS, "PMO": PMO_FIELDS, "GMO": GMO_FIELDS}


@pytest.mark.parametrize("key", STRUCTURES)
def test_structure_fields_are_those_of_calls_py(key):
    # A call takes every field; an outcome (and an expectation of one) every field but the input-only ones.
    returned = set(STRUCTURES[key]) - INPUT_ONLY.get(key, frozenset())
    assert set(CALL["$defs"][key]["properties"]) == set(STRUCTURES[key])
    assert set(OUTCOME["$defs"][key]["properties"]) == returned
    assert set(SCENARIO["$defs"]["expect"]["properties"][key]["properties"]) == returned


def test_ops_queue_attributes_and_keys_are_those_of_the_code():
    assert set(CALL["properties"]["op"]["enum"]) == OPS
    assert set(CALL["$defs"]["args"]) == OPS
    assert set(CALL["$defs"]["queue"]["properties"]) == {"name", "qmgr", *QUEUE_FIELDS, *CLUSTER_QUEUE_FIELDS}
    assert set(CALL["$defs"]["qmgr"]["properties"]) == set(CALL["$defs"]["args"]["define_qmgr"]["properties"]) == {
        "name", *QMGR_FIELDS, *CLUSTER_QMGR_FIELDS}
    # as scenario.parse takes them
    assert set(SCENARIO["properties"]["setup"]["properties"]) == {"qmgr", "qmgrs", "channels", "queues", "topics"}
    assert set(SCENARIO["properties"]) == SCENARIO_KEYS
    assert set(SCENARIO["$defs"]["step"]["properties"]) == OPS | STEP_KEYS
    assert set(SCENARIO["$defs"]["expect"]["properties"]) == set(EXPECT_KEYS)
    assert set(OUTCOME["properties"]) == set(Outcome.__dataclass_fields__)


CANDIDATES = [
    0, 1, -1, 2**31, -(2**31) - 1, True, 5.5, None, "", "x", "ABCDEFGH", "ABCDEFGHI", "$g", "x" * 25,
    "MQPRI_PRIORITY_AS_Q_DEF", "MQPER_PERSISTENT", "MQMT_DATAGRAM", "MQGS_MSG_IN_GROUP", "MQSS_SEGMENT",
    "MQSEG_ALLOWED", "MQWI_UNLIMITED", "MQEI_UNLIMITED", "MQGMO_VERSION_2", "MQPMO_VERSION_2", "MQMD_VERSION_1",
    "MQGMO_WAIT", "MQMF_SEGMENT", "MQPMO_SYNCPOINT", "MQMO_MATCH_MSG_ID", "MQOO_OUTPUT", "MQQA_PUT_INHIBITED",
    "MQMDS_FIFO", "MQGI_NONE", "MQMI_NONE", "MQMTOK_NONE", "MQFMT_STRING", "MQFMT_NONE", "MQPRI_NO_SUCH",
    [], [1], ["MQGMO_WAIT"], ["MQMF_SEGMENT", "MQMF_LAST_SEGMENT"], ["MQPMO_SYNCPOINT"], ["MQMO_MATCH_MSG_ID"],
    ["MQOO_INPUT_SHARED"], ["MQGMO_BROWSE_HANDLE"], ["MQMF_NO_SUCH"],
    {}, {"hex": "00ff"}, {"hex": "zz"}, {"hex": "0"}, {"hex": "00" * 16}, {"hex": "00" * 17}, {"hex": "00" * 25},
    {"fill": "a", "length": 2}, {"one_of": [1]},
]


def _decodes(kind, value) -> bool:
    from mq_conformance.reference.calls import CallError, decode_field
    try:
        decode_field(kind, value, "field")
    except CallError:
        return False
    return True


def _deliberate(kind, value, schema_ok: bool) -> bool:
    """The differences schema.py's docstring names: the schema checks a constant name's form, calls.py that it
    exists; the schema wants an option list where calls.py also takes one bare name; the schema keeps numbers to
    an MQLONG (an option field's bit pattern may also be read unsigned)."""
    from mq_conformance.reference.constants import BYTES, FORMATS, VALUES
    def unknown(name):
        return isinstance(name, str) and name not in VALUES and name not in BYTES and name not in FORMATS

    if schema_ok:
        return unknown(value) or (isinstance(value, list) and any(unknown(item) for item in value))
    if kind[0] == "id" and isinstance(value, dict) and "fill" in value:
        return True  # {fill, length} is for message data; calls.py's shared decode_bytes happens to take it
    if kind[0] == "options" and isinstance(value, str):
        return True
    top = 2**32 if kind[0] == "options" else 2**31
    return isinstance(value, int) and not isinstance(value, bool) and not -(2**31) <= value < top


FIELD_CASES = [(key, name, kind) for key, fields in STRUCTURES.items() for name, kind in fields.items()]


def _field_validator(pointer: str) -> Draft202012Validator:
    """A validator of the part of call.json at JSON pointer ``pointer``."""
    return Draft202012Validator({"$ref": f"{CALL['$id']}#{pointer}"}, registry=registry())


def _disagreements(pointer: str, kind: tuple) -> list:
    """Candidates that call.json's subschema at ``pointer`` and calls.decode_field judge differently."""
    field = _field_validator(pointer)
    found = []
    for value in CANDIDATES:
        schema_ok = field.is_valid(value)
        if schema_ok != _decodes(kind, value) and not _deliberate(kind, value, schema_ok):
            found.append((value, "schema accepts" if schema_ok else "schema refuses"))
    return found


@pytest.mark.parametrize(("key", "name", "kind"), FIELD_CASES, ids=[f"{k}.{n}" for k, n, _ in FIELD_CASES])
def test_call_schema_agrees_with_calls_py_on_every_field(key, name, kind):
    assert _disagreements(f"/$defs/{key}/properties/{name}", kind) == []


@pytest.mark.parametrize("name", sorted(QUEUE_FIELDS))
def test_call_schema_agrees_with_calls_py_on_every_queue_attribute(name):
    assert _disagreements(f"/$defs/queue/properties/{name}", QUEUE_FIELDS[name]) == []


@pytest.mark.parametrize("name", sorted(QMGR_FIELDS))
def test_call_schema_agrees_with_calls_py_on_every_qmgr_attribute(name):
    assert _disagreements(f"/$defs/qmgr/properties/{name}", QMGR_FIELDS[name]) == []


def test_field_agreement_check_sees_a_whole_call_the_same_way():
    for value in CANDIDATES:
        call = {"op": "put", "handle": "h", "MD": {"GroupId": value}}
        try:
            validate_call(call)
            whole = True
        except SchemaError:
            whole = False
        assert whole == _field_validator("/$defs/MD/properties/GroupId").is_valid(value), value


def test_fast_validators_judge_exactly_as_the_schema_files():
    """schema.py validates with references copied in place; the files, with references, must agree."""
    from mq_conformance.reference.schema import validator

    some = CANDIDATES[::4]
    corpus = {
        "call": [_with(PUT, ("MD", field), value) for field in ("GroupId", "MsgFlags", "Priority") for value in some]
                + [{"op": op} for op in OPS],
        "outcome": [_with(GET_OUTCOME, ("MD", field), value) for field in ("GroupId", "Persistence") for value in some],
        "scenario": [_with(_scenario(), ("steps", 1, "expect", "MD", "GroupId"), value) for value in some],
    }
    for name, instances in corpus.items():
        plain = Draft202012Validator(load_schema(name), registry=registry())
        verdicts = [(plain.is_valid(i), validator(name).is_valid(i), quickly_valid(name, i)) for i in instances]
        assert all(a == b == c for a, b, c in verdicts), [(i, v) for i, v in zip(instances, verdicts) if len(set(v)) > 1]
        assert {a for a, _, _ in verdicts} == {True, False}, name  # the corpus has both kinds


def test_the_quick_validator_accepts_only_what_the_schema_files_accept():
    """jsonschema-rs lets a value it accepts skip the pure validator: it must never accept a value the files
    reject. Scenario files of every area, and a put's MQMD fields in one of them set to each candidate value
    (the pure validator takes a few milliseconds a file, so not all of them)."""
    plain = Draft202012Validator(load_schema("scenario"), registry=registry())
    assert _quick_validators(), "jsonschema-rs is a dependency: the quick path should be on"
    values = [yaml.load(path.read_text(encoding="utf-8"), Loader=SAFE_LOADER) for path in FILES[::30]]  # noqa: S506
    base = _scenario()
    values += [_with(base, ("steps", 1, "put", "MD", field), value)
               for field in ("GroupId", "MsgFlags", "Priority", "Persistence") for value in CANDIDATES]
    verdicts = [(quickly_valid("scenario", value), plain.is_valid(value)) for value in values]
    assert [value for value, (quick, pure) in zip(values, verdicts) if quick != pure] == []
    assert {pure for _, pure in verdicts} == {True, False}  # the corpus has both kinds


def test_schemas_are_draft_2020_12_with_distinct_ids():
    schemas = [CALL, OUTCOME, SCENARIO]
    assert {s["$schema"] for s in schemas} == {"https://json-schema.org/draft/2020-12/schema"}
    assert len({s["$id"] for s in schemas}) == 3


# -- malformed calls are refused ---------------------------------------------------------------------------------

PUT = {"op": "put", "handle": "h", "MD": {"MsgFlags": ["MQMF_MSG_IN_GROUP"], "GroupId": "MQGI_NONE"},
       "PMO": {"Options": ["MQPMO_LOGICAL_ORDER"]}, "data": "one"}


def _with(base, path, value):
    changed = copy.deepcopy(base)
    node = changed
    for key in path[:-1]:
        node = node[key]
    if value is KeyError:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return changed


def test_well_formed_put_is_accepted():
    validate_call(PUT)


def test_option_field_may_be_a_number_for_bits_no_name_defines():
    validate_call({"op": "put", "handle": "h", "MD": {"MsgFlags": 64}, "PMO": {"Options": 0x20000000}})
    validate_call({"op": "get", "handle": "h", "GMO": {"MatchOptions": 64}})


@pytest.mark.parametrize(("path", "value", "where", "fragment"), [
    (("op",), KeyError, "$", "'op' is a required property"),
    (("op",), "putt", "$.op", "'putt' is not one of"),
    (("handle",), KeyError, "$", "'handle' is a required property"),
    (("handle",), 7, "$.handle", "not of type 'string'"),
    (("PMO", "Options"), "MQPMO_LOGICAL_ORDER", "$.PMO.Options", "none of the allowed forms"),
    (("PMO", "Options"), 5.5, "$.PMO.Options", "none of the allowed forms"),
    (("PMO", "Options"), 2**33, "$.PMO.Options", "none of the allowed forms"),
    (("PMO", "Options"), [1], "$.PMO.Options[0]", "not of type 'string'"),
    (("PMO", "Options"), ["MQGMO_LOGICAL_ORDER"], "$.PMO.Options[0]", "does not match"),
    (("MD", "MsgFlags"), ["MQPMO_LOGICAL_ORDER"], "$.MD.MsgFlags[0]", "does not match"),
    (("MD", "MsgSeqNumber"), "one", "$.MD.MsgSeqNumber", "not of type 'integer'"),
    (("MD", "MsgSeqNumber"), 2**31, "$.MD.MsgSeqNumber", "maximum"),
    (("MD", "MsgSeqNumber"), True, "$.MD.MsgSeqNumber", "not of type 'integer'"),
    (("MD", "Priority"), "MQPER_PERSISTENT", "$.MD.Priority", "none of the allowed forms"),
    (("MD", "Persistence"), "MQPRI_PRIORITY_AS_Q_DEF", "$.MD.Persistence", "none of the allowed forms"),
    (("MD", "GroupID"), "x", "$.MD", "'GroupID' was unexpected"),
    (("MD", "GroupId"), "x" * 25, "$.MD.GroupId", "none of the allowed forms"),
    (("MD", "GroupId"), {"hex": "zz"}, "$.MD.GroupId.hex", "does not match"),
    (("MD", "GroupId"), {"hex": "00" * 25}, "$.MD.GroupId.hex", "does not match"),
    (("MD", "Format"), "TOOLONGFMT", "$.MD.Format", "none of the allowed forms"),
    (("data",), [1], "$.data", "none of the allowed forms"),
    (("data",), {"fill": "", "length": 3}, "$.data.fill", "non-empty"),
    (("data",), {"fill": "x", "length": -1}, "$.data.length", "minimum"),
    (("data",), {"text": "x"}, "$.data", "none of the allowed forms"),
    (("Data",), "x", "$", "'Data' is not one of ['handle', 'MD', 'PMO', 'data', 'OriginalMsgHandle', 'NewMsgHandle', "
                          "'Action', 'op']"),
    (("MD",), "not a mapping", "$.MD", "not of type 'object'"),
])
def test_malformed_call_is_refused_naming_its_path(path, value, where, fragment):
    error = _schema_error(validate_call, _with(PUT, path, value))
    assert error.path == where, str(error)
    assert fragment in error.detail, str(error)


@pytest.mark.parametrize(("call", "where"), [
    ({"op": "open", "handle": "h"}, "$"),
    ({"op": "open", "handle": "h", "queue": "Q1", "Options": ["MQCO_DELETE"]}, "$.Options[0]"),
    ({"op": "close", "handle": "h", "Options": ["MQOO_OUTPUT"]}, "$.Options[0]"),
    ({"op": "get", "handle": "h", "GMO": {"MatchOptions": ["MQGMO_WAIT"]}}, "$.GMO.MatchOptions[0]"),
    ({"op": "get", "handle": "h", "BufferLength": -1}, "$.BufferLength"),
    ({"op": "get", "handle": "h", "PMO": {}}, "$"),
    ({"op": "put1", "handle": "h", "queue": "Q1"}, "$"),
    ({"op": "inquire", "handle": "h", "Selectors": ["MQOO_INQUIRE"]}, "$.Selectors[0]"),
    ({"op": "advance_clock"}, "$"),
    ({"op": "advance_clock", "milliseconds": 1.5}, "$.milliseconds"),
    ({"op": "define_queue", "name": "Q1", "MaxDepth": 5}, "$"),
    ({"op": "define_queue", "name": ""}, "$.name"),
    ({"op": "define_queue", "name": "Q1", "InhibitPut": "MQPER_PERSISTENT"}, "$.InhibitPut"),
    ({"op": "define_qmgr", "MarkInterval": 5}, "$"),
    ({"op": "define_qmgr", "MsgMarkBrowseInterval": "MQWI_UNLIMITED"}, "$.MsgMarkBrowseInterval"),
    ({"op": "commit", "connection": 1}, "$.connection"),
    ("put", "$"),
])
def test_malformed_call_of_each_op_is_refused(call, where):
    assert _schema_error(validate_call, call).path == where


def test_every_op_has_a_minimal_accepted_call():
    minimal = {"define_queue": {"name": "Q1"}, "advance_clock": {"milliseconds": 0}, "put1": {"queue": "Q"},
               "open": {"handle": "h", "queue": "Q"}, "close": {"handle": "h"}, "put": {"handle": "h"},
               "get": {"handle": "h"}, "inquire": {"handle": "h"}, "set": {"handle": "h"}, "define_channel": {"name": "TO.QM2"},
               "set_channel": {"name": "TO.QM2", "state": "MQCHS_STOPPED"}, "suspend_qmgr": {"qmgr": "QM2"},
               "resume_qmgr": {"qmgr": "QM2"}, "alter_queue": {"name": "Q1"}, "crtmh": {"hmsg": "m"},
               "dltmh": {"hmsg": "m"}, "setmp": {"hmsg": "m", "Name": "p", "Type": "MQTYPE_NULL"},
               "inqmp": {"hmsg": "m", "Name": "p"}, "dltmp": {"hmsg": "m", "Name": "p"}, "mhbuf": {"hmsg": "m"},
               "bufmh": {"hmsg": "m", "data": ""}, "define_topic": {"name": "T", "TopicString": "t"},
               "sub": {"handle": "s"}, "subrq": {"handle": "s"}, "define_qremote": {"name": "RQ"},
               "define_sender": {"name": "QM1.QM2", "CONNAME": "QM2", "XMITQ": "QM2"}, "start_channel": {"name": "C"},
               "stop_channel": {"name": "C"}, "channel_status": {"name": "C"}, "transmit": {"channel": "C"}}
    for op in OPS:
        validate_call({"op": op, **minimal.get(op, {})})


# -- malformed outcomes are refused ------------------------------------------------------------------------------

GET_OUTCOME = {
    "CompCode": "MQCC_OK", "Reason": "MQRC_NONE",
    "MD": {"GroupId": "414d5120514d312020202020000000000000000000000001", "MsgId": "MQMI_NONE", "MsgSeqNumber": 2,
           "MsgFlags": ["MQMF_MSG_IN_GROUP", "MQMF_LAST_MSG_IN_GROUP"], "Persistence": "MQPER_NOT_PERSISTENT",
           "Priority": 0, "Format": "MQFMT_NONE"},
    "GMO": {"GroupStatus": "MQGS_LAST_MSG_IN_GROUP", "Options": ["MQGMO_NO_SYNCPOINT", "0x40000000"],
            "MsgToken": "MQMTOK_NONE", "ReturnedLength": 3},
    "data": "two", "DataLength": 3, "clauses": ["get.match.group-id"],
}


def test_well_formed_outcomes_are_accepted():
    validate_outcome(GET_OUTCOME)
    validate_outcome({"error": "adapter raised OSError: gone"})
    validate_outcome({"CompCode": "MQCC_FAILED", "Reason": "MQRC_9999"})
    validate_outcome({"CompCode": "MQCC_OK", "Reason": "MQRC_NONE", "data": {"hex": "00ff"},
                      "attributes": {"MQIA_CURRENT_Q_DEPTH": 3}})


@pytest.mark.parametrize(("path", "value", "where"), [
    (("CompCode",), "OK", "$.CompCode"),
    (("CompCode",), 0, "$.CompCode"),
    (("CompCode",), "MQRC_NONE", "$.CompCode"),
    (("Reason",), "MQCC_OK", "$.Reason"),
    (("CompCode",), KeyError, "$"),
    (("MD", "MsgFlags"), "MQMF_MSG_IN_GROUP", "$.MD.MsgFlags"),
    (("MD", "MsgFlags"), [8], "$.MD.MsgFlags[0]"),
    (("MD", "MsgFlags"), ["MQGMO_WAIT"], "$.MD.MsgFlags[0]"),
    (("GMO", "Options"), ["0x4"], "$.GMO.Options[0]"),
    (("MD", "GroupId"), "not hex", "$.MD.GroupId"),
    (("MD", "GroupId"), "414D", "$.MD.GroupId"),
    (("MD", "GroupId"), "MQMI_NONE", "$.MD.GroupId"),
    (("MD", "Persistence"), 2**40, "$.MD.Persistence"),
    (("MD", "Persistence"), "MQRO_NONE", "$.MD.Persistence"),
    (("MD", "Report"), ["MQRO_COA", 256], "$.MD.Report[1]"),
    (("MD", "Priority"), "high", "$.MD.Priority"),
    (("MD", "Colour"), "red", "$.MD"),
    (("GMO", "GroupStatus"), "G", "$.GMO.GroupStatus"),
    (("data",), {"fill": "x", "length": 3}, "$.data"),
    (("data",), 5, "$.data"),
    (("DataLength",), -1, "$.DataLength"),
    (("clauses",), "get.match.group-id", "$.clauses"),
    (("clauses",), ["Get Match"], "$.clauses[0]"),
    (("attributes",), {"MQIA_CURRENT_Q_DEPTH": "three"}, "$.attributes.MQIA_CURRENT_Q_DEPTH"),
    (("Extra",), 1, "$"),
])
def test_malformed_outcome_is_refused_naming_its_path(path, value, where):
    assert _schema_error(validate_outcome, _with(GET_OUTCOME, path, value)).path == where


def test_outcome_without_result_or_error_is_refused():
    error = _schema_error(validate_outcome, {"clauses": []})
    assert "CompCode and Reason, or an error" in str(error)


# -- scenario documents ------------------------------------------------------------------------------------------

SCENARIO_TEXT = """
id: schema-example
title: an example
clauses: [put.logical-order.table1.row5]
capabilities: [groups]
setup:
  qmgr: {MsgMarkBrowseInterval: MQMMBI_UNLIMITED}
  queues: [{name: Q1, MaxQDepth: 5, DefPersistence: MQPER_NOT_PERSISTENT, DefInputOpenOption: [MQOO_INPUT_SHARED]}]
steps:
  - open: {handle: h, queue: Q1, Options: [MQOO_OUTPUT, MQOO_INPUT_SHARED]}
  - put: {handle: h, PMO: {Options: [MQPMO_LOGICAL_ORDER]}, MD: {MsgFlags: [MQMF_MSG_IN_GROUP]}, data: one}
    expect: {CompCode: MQCC_OK, MD: {GroupId: $a_group_identifier_longer_than_24, MsgSeqNumber: 1}}
    clauses: [put.logical-order.table1.row5]
    note: the group starts
  - get: {handle: h, MD: {GroupId: $a_group_identifier_longer_than_24}, GMO: {MatchOptions: [MQMO_MATCH_GROUP_ID]}}
    expect:
      Reason: {one_of: [MQRC_NONE, MQRC_NO_MSG_AVAILABLE]}
      GMO: {GroupStatus: {one_of: [MQGS_MSG_IN_GROUP, MQGS_LAST_MSG_IN_GROUP]}, MsgToken: $t}
      data: {fill: o, length: 3}
  - commit:
  - close: {handle: h}
"""


def _scenario():
    return yaml.safe_load(SCENARIO_TEXT)


def test_scenario_example_loads_and_matches_scenario_schema(tmp_path):
    path = tmp_path / "example.yaml"
    path.write_text(SCENARIO_TEXT)
    load_scenario(path)  # the loader agrees that it is well formed
    validate_scenario(_scenario())


@pytest.mark.parametrize(("path", "value", "where"), [
    (("id",), "Bad_Id", "$.id"),
    (("id",), KeyError, "$"),
    (("steps",), [], "$.steps"),
    (("steps",), KeyError, "$"),
    (("author",), "me", "$"),
    (("clauses",), "put.one", "$.clauses"),
    (("setup", "namelists"), [], "$.setup"),
    (("setup", "qmgr"), {"MarkInterval": 5}, "$.setup.qmgr"),
    (("setup", "queues", 0, "MaxDepth"), 5, "$.setup.queues[0]"),
    (("setup", "queues", 0, "name"), KeyError, "$.setup.queues[0]"),
    (("steps", 0, "put"), {"handle": "h"}, "$.steps[0]"),
    (("steps", 0, "open"), KeyError, "$.steps[0]"),
    (("steps", 0, "open", "Options"), ["MQPMO_LOGICAL_ORDER"], "$.steps[0].open.Options[0]"),
    (("steps", 1, "put", "MD", "MsgSeqNumber"), "one", "$.steps[1].put.MD.MsgSeqNumber"),
    (("steps", 1, "put", "Data"), "x", "$.steps[1].put"),
    (("steps", 1, "put", "op"), "put", "$.steps[1].put"),
    (("steps", 1, "expect", "CompCod"), "MQCC_OK", "$.steps[1].expect"),
    (("steps", 1, "expect", "CompCode"), "OK", "$.steps[1].expect.CompCode"),
    (("steps", 1, "expect", "MD", "GroupId"), 5, "$.steps[1].expect.MD.GroupId"),
    (("steps", 2, "expect", "Reason", "one_of"), [], "$.steps[2].expect.Reason.one_of"),
    (("steps", 2, "expect", "Reason", "one_of"), "MQRC_NONE", "$.steps[2].expect.Reason.one_of"),
    (("steps", 2, "expect", "GMO", "GroupStatus", "one_of"), ["G"], "$.steps[2].expect.GMO.GroupStatus.one_of[0]"),
    (("steps", 3, "commit"), {"handle": "h"}, "$.steps[3].commit"),
])
def test_malformed_scenario_is_refused_naming_its_path(path, value, where):
    assert _schema_error(validate_scenario, _with(_scenario(), path, value)).path == where


def test_variable_is_allowed_in_a_scenario_identifier_but_not_in_a_call():
    call = {"op": "get", "handle": "h", "MD": {"GroupId": "$a_group_identifier_longer_than_24"}}
    _schema_error(validate_call, call)
    validate_scenario({"id": "x", "steps": [{"get": {k: v for k, v in call.items() if k != "op"}}]})


def test_schema_error_is_a_value_error_with_one_line():
    error = _schema_error(validate_scenario, [1, 2])
    assert isinstance(error, ValueError)
    assert str(error) == f"{error.path}: {error.detail}"
