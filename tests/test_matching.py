"""Comparing an expected outcome with an actual one (conformance/matching.py).

Generated identifiers are compared by identity structure: ``$name`` binds on first use, the same name must meet
the same value later, and no two names may stand for one value (a bijection). ``{one_of: [...]}`` accepts any
alternative without leaking the bindings of an alternative that failed. Options compare as sets, exactly.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mq_conformance.conformance.matching import Bindings, actual_field, is_variable, match
from mq_conformance.reference import constants
from mq_conformance.reference.calls import Outcome
from tests_support import examples

A = bytes(range(1, 25))
B = bytes(range(2, 26))
C = bytes(range(3, 27))


def ok(**fields) -> Outcome:
    return Outcome(CompCode="MQCC_OK", Reason="MQRC_NONE", **fields)


def md(**fields) -> Outcome:
    return ok(MD=fields)


# -- Bindings: a bijection between names and identifiers ---------------------------------------------------------

def test_first_use_binds_the_name():
    bindings = Bindings()
    assert bindings.check("$g", A) is None
    assert bindings.values == {"$g": A} and bindings.names == {A: "$g"}


def test_same_name_must_meet_the_same_value():
    bindings = Bindings()
    bindings.check("$g", A)
    assert bindings.check("$g", A) is None
    problem = bindings.check("$g", B)
    assert problem == f"$g is {A.hex()} but this is {B.hex()}"
    assert bindings.values == {"$g": A}


def test_second_name_cannot_bind_a_bound_value():
    bindings = Bindings()
    bindings.check("$g", A)
    problem = bindings.check("$h", A)
    assert problem == f"$h would be {A.hex()}, which is already $g"
    assert "$h" not in bindings.values and bindings.names == {A: "$g"}


@settings(max_examples=examples(60), deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.sampled_from(["$a", "$b", "$c", "$d"]), st.sampled_from([A, B, C, bytes(24)])),
                max_size=12))
def test_bindings_stay_one_to_one_under_any_sequence_of_checks(checks):
    bindings = Bindings()
    for name, value in checks:
        was = dict(bindings.values)
        problem = bindings.check(name, value)
        consistent = was.get(name, value) == value and all(n == name for n, v in was.items() if v == value)
        assert (problem is None) == consistent
        assert {v: n for n, v in bindings.values.items()} == bindings.names


def test_variables_bind_across_steps_through_match():
    bindings = Bindings()
    assert match({"MD": {"GroupId": "$g"}}, md(GroupId=A.hex()), bindings) == []
    assert match({"MD": {"GroupId": "$g"}}, md(GroupId=A.hex()), bindings) == []
    problems = match({"MD": {"GroupId": "$g"}}, md(GroupId=B.hex()), bindings)
    assert problems == [f"MD.GroupId: $g is {A.hex()} but this is {B.hex()}"]


def test_two_names_for_one_identifier_within_one_outcome_is_a_mismatch():
    problems = match({"MD": {"MsgId": "$m", "CorrelId": "$c"}}, md(MsgId=A.hex(), CorrelId=A.hex()), Bindings())
    assert problems == [f"MD.CorrelId: $c would be {A.hex()}, which is already $m"]


def test_a_variable_meets_the_none_identifier_like_any_other():
    bindings = Bindings()
    assert match({"MD": {"GroupId": "$g"}}, md(GroupId="MQGI_NONE"), bindings) == []
    assert bindings.values == {"$g": bytes(24)}


def test_a_variable_needs_an_identifier_in_the_outcome():
    problems = match({"MD": {"GroupId": "$g"}}, ok(MD={}), Bindings())
    assert problems and problems[0].startswith("MD.GroupId: expected an identifier for $g")


def test_is_variable():
    assert is_variable("$g") and is_variable("$group_1")
    assert not is_variable("$") and not is_variable("g") and not is_variable(5) and not is_variable(None)


# -- one_of ------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("reason", ["MQRC_NONE", "MQRC_NO_MSG_AVAILABLE"])
def test_one_of_accepts_any_alternative(reason):
    outcome = Outcome(CompCode="MQCC_OK", Reason=reason)
    assert match({"Reason": {"one_of": ["MQRC_NONE", "MQRC_NO_MSG_AVAILABLE"]}}, outcome, Bindings()) == []


def test_one_of_refuses_a_value_outside_the_alternatives():
    outcome = Outcome(CompCode="MQCC_FAILED", Reason="MQRC_Q_FULL")
    problems = match({"Reason": {"one_of": ["MQRC_NONE", "MQRC_NO_MSG_AVAILABLE"]}}, outcome, Bindings())
    assert problems == ["Reason: expected one of ['MQRC_NONE', 'MQRC_NO_MSG_AVAILABLE'], got MQRC_Q_FULL"]


def test_one_of_does_not_leak_bindings_from_a_failed_alternative():
    bindings = Bindings()
    bindings.check("$a", A)
    # "$b" would bind B (and succeed) only after "$a" failed; "$b" must not stay bound to anything else.
    assert match({"MD": {"GroupId": {"one_of": ["$a", "$b"]}}}, md(GroupId=B.hex()), bindings) == []
    assert bindings.values == {"$a": A, "$b": B}
    # A failed one_of leaves the bindings exactly as they were.
    before = (dict(bindings.values), dict(bindings.names))
    problems = match({"MD": {"GroupId": {"one_of": ["$c", "MQGI_NONE"]}}}, md(GroupId=A.hex()), bindings)
    assert problems  # $c cannot take A (it is $a's) and A is not MQGI_NONE
    assert (bindings.values, bindings.names) == before


def test_one_of_keeps_the_binding_of_the_alternative_that_matched():
    bindings = Bindings()
    assert match({"MD": {"GroupId": {"one_of": ["MQGI_NONE", "$g"]}}}, md(GroupId=C.hex()), bindings) == []
    assert bindings.values == {"$g": C}


def test_one_of_that_binds_nothing_when_a_constant_alternative_matches():
    bindings = Bindings()
    assert match({"MD": {"GroupId": {"one_of": ["MQGI_NONE", "$g"]}}}, md(GroupId="MQGI_NONE"), bindings) == []
    assert bindings.values == {}


def test_one_of_for_options_and_numbers():
    outcome = md(MsgFlags=["MQMF_MSG_IN_GROUP"], MsgSeqNumber=2)
    expected = {"MD": {"MsgFlags": {"one_of": [["MQMF_LAST_MSG_IN_GROUP"], ["MQMF_MSG_IN_GROUP"]]},
                       "MsgSeqNumber": {"one_of": [1, 2]}}}
    assert match(expected, outcome, Bindings()) == []


# -- options: sets, exactly --------------------------------------------------------------------------------------

def test_options_compare_as_sets_regardless_of_order():
    outcome = md(MsgFlags=["MQMF_MSG_IN_GROUP", "MQMF_LAST_MSG_IN_GROUP"])
    assert match({"MD": {"MsgFlags": ["MQMF_LAST_MSG_IN_GROUP", "MQMF_MSG_IN_GROUP"]}}, outcome, Bindings()) == []
    assert match({"MD": {"MsgFlags": ["MQMF_MSG_IN_GROUP", "MQMF_LAST_MSG_IN_GROUP"]}}, outcome, Bindings()) == []


def test_an_extra_flag_in_the_outcome_is_a_mismatch():
    outcome = md(MsgFlags=["MQMF_MSG_IN_GROUP", "MQMF_LAST_MSG_IN_GROUP"])
    problems = match({"MD": {"MsgFlags": ["MQMF_MSG_IN_GROUP"]}}, outcome, Bindings())
    assert problems == ["MD.MsgFlags: expected [MQMF_MSG_IN_GROUP], got [MQMF_MSG_IN_GROUP, MQMF_LAST_MSG_IN_GROUP]"]


def test_a_missing_flag_in_the_outcome_is_a_mismatch():
    problems = match({"MD": {"MsgFlags": ["MQMF_MSG_IN_GROUP", "MQMF_SEGMENT"]}}, md(MsgFlags=["MQMF_SEGMENT"]),
                     Bindings())
    assert problems == ["MD.MsgFlags: expected [MQMF_SEGMENT, MQMF_MSG_IN_GROUP], got [MQMF_SEGMENT]"]


def test_no_flags_matches_an_empty_list_and_the_none_name():
    assert match({"MD": {"MsgFlags": []}}, md(MsgFlags=[]), Bindings()) == []
    assert match({"MD": {"MsgFlags": ["MQMF_NONE"]}}, md(MsgFlags=[]), Bindings()) == []


def test_a_hex_residue_in_the_outcome_counts_as_its_bits():
    outcome = ok(GMO={"Options": ["MQGMO_SYNCPOINT", "0x40000000"]})
    assert match({"GMO": {"Options": ["MQGMO_SYNCPOINT"]}}, outcome, Bindings()) != []
    assert match({"GMO": {"Options": 0x40000002}}, outcome, Bindings()) == []


def test_composite_option_matches_its_flags():
    outcome = ok(GMO={"Options": ["MQGMO_BROWSE_FIRST", "MQGMO_MARK_BROWSE_HANDLE", "MQGMO_UNMARKED_BROWSE_MSG"]})
    assert match({"GMO": {"Options": ["MQGMO_BROWSE_HANDLE"]}}, outcome, Bindings()) == []


@settings(max_examples=examples(60), deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(sorted(constants.FLAGS["MQMF"])), unique=True), st.randoms(use_true_random=False))
def test_options_match_any_permutation_of_the_same_flags(flags, random):
    shuffled = list(flags)
    random.shuffle(shuffled)
    assert match({"MD": {"MsgFlags": shuffled}}, md(MsgFlags=flags), Bindings()) == []


def test_an_unknown_option_name_in_the_outcome_is_a_mismatch():
    assert match({"MD": {"MsgFlags": []}}, md(MsgFlags=["MQMF_BOGUS"]), Bindings()) != []


# -- identifiers -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("expected", [
    "MQGI_NONE",
    {"hex": "00" * 24},
    {"hex": ""},   # padded with NULs to the field's length
    "",            # likewise
])
def test_none_identifier_spellings_match_mqgi_none(expected):
    assert match({"MD": {"GroupId": expected}}, md(GroupId="MQGI_NONE"), Bindings()) == []
    assert match({"MD": {"GroupId": expected}}, md(GroupId="00" * 24), Bindings()) == []


def test_text_identifier_is_nul_padded():
    actual = (b"GROUP1" + bytes(18)).hex()
    assert match({"MD": {"GroupId": "GROUP1"}}, md(GroupId=actual), Bindings()) == []
    assert match({"MD": {"GroupId": {"hex": b"GROUP1".hex()}}}, md(GroupId=actual), Bindings()) == []
    assert match({"MD": {"GroupId": "GROUP2"}}, md(GroupId=actual), Bindings()) != []


def test_text_identifier_differs_from_trailing_space():
    actual = (b"ID" + bytes(22)).hex()
    assert match({"MD": {"CorrelId": "ID  "}}, md(CorrelId=actual), Bindings()) != []


def test_identifier_mismatch_names_both_values_in_hex():
    problems = match({"MD": {"MsgId": {"hex": A.hex()}}}, md(MsgId=B.hex()), Bindings())
    assert problems == [f"MD.MsgId: expected {A.hex()}, got {B.hex()}"]


def test_msg_token_has_its_own_length_and_none():
    assert match({"GMO": {"MsgToken": "MQMTOK_NONE"}}, ok(GMO={"MsgToken": "MQMTOK_NONE"}), Bindings()) == []
    assert match({"GMO": {"MsgToken": "MQMTOK_NONE"}}, ok(GMO={"MsgToken": "00" * 16}), Bindings()) == []
    assert match({"GMO": {"MsgToken": "$t"}}, ok(GMO={"MsgToken": "ab" * 16}), Bindings()) == []


def test_correl_id_new_session_constant():
    actual = b"AMQ!NEW_SESSION_CORRELID".hex()
    assert match({"MD": {"CorrelId": "MQCI_NEW_SESSION"}}, md(CorrelId=actual), Bindings()) == []


# -- data --------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("expected", "actual"), [
    ("two", "two"),
    ({"hex": "74776f"}, "two"),
    ("two", {"hex": "74776f"}),
    ({"fill": "ab", "length": 5}, "ababa"),
    ("", None),
    ({"hex": "00ff"}, {"hex": "00ff"}),
])
def test_data_compares_bytes_whatever_the_spelling(expected, actual):
    assert match({"data": expected}, ok(data=actual), Bindings()) == []


def test_data_mismatch_shows_both_byte_strings():
    assert match({"data": "one"}, ok(data="two"), Bindings()) == ["data: expected b'one', got b'two'"]


def test_data_length_compares_numbers():
    assert match({"DataLength": 3}, ok(data="two", DataLength=3), Bindings()) == []
    assert match({"DataLength": 4}, ok(data="two", DataLength=3), Bindings()) == ["DataLength: expected 4, got 3"]


# -- CompCode, Reason and other enumerations by name -------------------------------------------------------------

def test_compcode_and_reason_match_by_name_or_number():
    outcome = Outcome(CompCode="MQCC_FAILED", Reason="MQRC_NO_MSG_AVAILABLE")
    assert match({"CompCode": "MQCC_FAILED", "Reason": "MQRC_NO_MSG_AVAILABLE"}, outcome, Bindings()) == []
    assert match({"CompCode": 2, "Reason": 2033}, outcome, Bindings()) == []


def test_compcode_and_reason_mismatch_name_both_sides():
    outcome = Outcome(CompCode="MQCC_OK", Reason="MQRC_NONE")
    problems = match({"CompCode": "MQCC_FAILED", "Reason": "MQRC_Q_FULL"}, outcome, Bindings())
    assert problems == ["CompCode: expected MQCC_FAILED, got MQCC_OK", "Reason: expected MQRC_Q_FULL, got MQRC_NONE"]


def test_unnamed_reason_code_in_the_outcome_compares_by_number():
    outcome = Outcome(CompCode="MQCC_FAILED", Reason="MQRC_9999")
    assert match({"Reason": 9999}, outcome, Bindings()) == []
    assert match({"Reason": "MQRC_Q_FULL"}, outcome, Bindings()) == ["Reason: expected MQRC_Q_FULL, got MQRC_9999"]


def test_enumerated_structure_fields_match_by_name():
    outcome = ok(GMO={"GroupStatus": "MQGS_LAST_MSG_IN_GROUP", "SegmentStatus": "MQSS_NOT_A_SEGMENT"})
    assert match({"GMO": {"GroupStatus": "MQGS_LAST_MSG_IN_GROUP"}}, outcome, Bindings()) == []
    assert match({"GMO": {"GroupStatus": "MQGS_MSG_IN_GROUP"}}, outcome, Bindings()) == [
        "GMO.GroupStatus: expected MQGS_MSG_IN_GROUP, got MQGS_LAST_MSG_IN_GROUP"]


def test_only_the_expected_fields_are_compared():
    outcome = md(MsgSeqNumber=1, Offset=0, Priority=5, PutDate="20260101")
    assert match({"MD": {"MsgSeqNumber": 1}}, outcome, Bindings()) == []
    assert match({}, outcome, Bindings()) == []


def test_expected_structure_missing_from_the_outcome():
    assert match({"GMO": {"GroupStatus": "MQGS_NOT_IN_GROUP"}}, ok(), Bindings()) == [
        "GMO: expected GMO fields, but the call returned no GMO"]


def test_every_problem_of_one_outcome_is_reported():
    outcome = Outcome(CompCode="MQCC_OK", Reason="MQRC_NONE", MD={"MsgSeqNumber": 2, "Offset": 5}, data="x")
    problems = match({"CompCode": "MQCC_WARNING", "MD": {"MsgSeqNumber": 1, "Offset": 0}, "data": "y"}, outcome,
                     Bindings())
    assert len(problems) == 3
    assert problems[1] == "MD.MsgSeqNumber: expected 1, got 2; MD.Offset: expected 0, got 5"


def test_attributes_compare_by_value_or_constant_name():
    outcome = ok(attributes={"MQIA_INHIBIT_PUT": 1, "MQIA_CURRENT_Q_DEPTH": 3})
    assert match({"attributes": {"MQIA_INHIBIT_PUT": "MQQA_PUT_INHIBITED", "MQIA_CURRENT_Q_DEPTH": 3}}, outcome,
                 Bindings()) == []
    assert match({"attributes": {"MQIA_CURRENT_Q_DEPTH": 2}}, outcome, Bindings()) == [
        "attributes.MQIA_CURRENT_Q_DEPTH: expected 2, got 3"]


def test_actual_field_canonical_forms():
    assert actual_field(("id", "MQGI_NONE", 24), "MQGI_NONE") == bytes(24)
    assert actual_field(("id", "MQGI_NONE", 24), A.hex()) == A
    assert actual_field(("options", "MQMF"), ["MQMF_SEGMENT", "MQMF_LAST_SEGMENT"]) == 6
    assert actual_field(("options", "MQMF"), None) == 0
    assert actual_field(("enum", "MQGS"), "MQGS_MSG_IN_GROUP") == 71
    assert actual_field(("enum", "MQRC"), "MQRC_9999") == 9999
    assert actual_field(("int", ()), 7) == 7


# -- matchers: not, ranges, one_of on attributes; text bindings -------------------------------------------------

def test_not_accepts_any_value_but_the_one_named():
    assert match({"MD": {"CorrelId": {"not": "CORREL-A"}}}, md(CorrelId=A.hex()), Bindings()) == []
    problems = match({"MD": {"CorrelId": {"not": "CORREL-A"}}},
                     md(CorrelId="CORREL-A".encode().ljust(24, b"\0").hex()), Bindings())
    assert problems and "anything but CORREL-A" in problems[0]


def test_not_with_a_variable_compares_with_its_bound_value_and_binds_nothing():
    bindings = Bindings()
    assert match({"MD": {"MsgId": "$m"}}, md(MsgId=A.hex()), bindings) == []
    assert match({"MD": {"MsgId": {"not": "$m"}}}, md(MsgId=B.hex()), bindings) == []
    assert match({"MD": {"MsgId": {"not": "$m"}}}, md(MsgId=A.hex()), bindings)
    assert bindings.values == {"$m": A}


def test_not_with_an_unbound_variable_is_a_problem_not_a_binding():
    bindings = Bindings()
    problems = match({"MD": {"MsgId": {"not": "$m"}}}, md(MsgId=A.hex()), bindings)
    assert problems and "not bound yet" in problems[0] and bindings.values == {}


@pytest.mark.parametrize(("expected", "actual", "holds"), [
    ({"at_least": 2}, 2, True), ({"at_least": 2}, 1, False), ({"at_most": 6}, 6, True), ({"at_most": 6}, 7, False),
    ({"at_least": 2, "at_most": 6}, 4, True), ({"at_least": 2, "at_most": 6}, 7, False),
])
def test_ranges_bound_numbers(expected, actual, holds):
    problems = match({"DataLength": expected}, ok(DataLength=actual), Bindings())
    assert (problems == []) is holds


def test_a_range_never_matches_something_that_is_not_a_number():
    assert match({"MD": {"Priority": {"at_least": 0}}}, md(Priority="high"), Bindings())


def test_one_of_not_and_ranges_work_on_inquired_attributes():
    outcome = ok(attributes={"MQIA_Q_TYPE": 7, "MQIA_CURRENT_Q_DEPTH": 3})
    assert match({"attributes": {"MQIA_Q_TYPE": {"one_of": ["MQQT_LOCAL", "MQQT_CLUSTER"]}}}, outcome, Bindings()) == []
    assert match({"attributes": {"MQIA_Q_TYPE": {"one_of": ["MQQT_LOCAL", "MQQT_ALIAS"]}}}, outcome, Bindings())
    assert match({"attributes": {"MQIA_Q_TYPE": {"not": "MQQT_LOCAL"}}}, outcome, Bindings()) == []
    assert match({"attributes": {"MQIA_CURRENT_Q_DEPTH": {"at_least": 1, "at_most": 3}}}, outcome, Bindings()) == []
    assert match({"attributes": {"MQIA_CURRENT_Q_DEPTH": {"at_most": 2}}}, outcome, Bindings())


def test_the_resolved_queue_manager_name_binds_and_must_stay_the_same():
    bindings = Bindings()
    assert match({"PMO": {"ResolvedQMgrName": "$qm"}}, ok(PMO={"ResolvedQMgrName": "QM2"}), bindings) == []
    assert bindings.texts == {"$qm": "QM2"}
    assert match({"PMO": {"ResolvedQMgrName": "$qm"}}, ok(PMO={"ResolvedQMgrName": "QM2"}), bindings) == []
    assert match({"PMO": {"ResolvedQMgrName": "$qm"}}, ok(PMO={"ResolvedQMgrName": "QM4"}), bindings)
    assert match({"PMO": {"ResolvedQMgrName": {"not": "$qm"}}}, ok(PMO={"ResolvedQMgrName": "QM4"}), bindings) == []


def test_two_names_cannot_stand_for_one_queue_manager():
    bindings = Bindings()
    assert match({"PMO": {"ResolvedQMgrName": "$a"}}, ok(PMO={"ResolvedQMgrName": "QM2"}), bindings) == []
    assert match({"PMO": {"ResolvedQMgrName": "$b"}}, ok(PMO={"ResolvedQMgrName": "QM2"}), bindings)


def test_a_bound_queue_manager_name_is_substituted_as_text():
    from mq_conformance.conformance.runner import substitute
    bindings = Bindings(texts={"$qm": "QM2"})
    assert substitute({"ObjectQMgrName": "$qm"}, bindings) == {"ObjectQMgrName": "QM2"}


@pytest.mark.parametrize(("expect", "message"), [
    ("{DataLength: {at_least: 5, at_most: 2}}", "at_least 5 is above at_most 2"),
    ("{DataLength: {at_least: two}}", "take whole numbers"),
    ("{DataLength: {not: 1, at_least: 0}}", "a matcher is one of"),
])
def test_a_malformed_matcher_is_one_line_naming_the_file(tmp_path, expect, message):
    from mq_conformance.conformance.scenario import load_scenario
    from mq_conformance.conformance.yamlsource import SourceError
    path = tmp_path / "bad.yaml"
    path.write_text("id: bad\nclauses: [get.no-msg-available]\nsetup: {queues: [{name: Q1}]}\nsteps:\n"
                    "  - open: {handle: h, queue: Q1, Options: [MQOO_INPUT_SHARED]}\n"
                    f"  - get: {{handle: h}}\n    expect: {expect}\n")
    with pytest.raises(SourceError, match=message) as raised:
        load_scenario(path)
    assert str(raised.value).startswith(str(path))
