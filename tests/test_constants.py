"""MQ constants (reference/constants.py): the values agree with the facts kept as data, and names and values
round-trip.

The facts are ``fixtures/facts.yaml``: each constant as ``[NAME, decimal, X'hex', source]``, read from two
independent copies of IBM's C header (its comments name them and IBM's constants tables that agree).
"""

from __future__ import annotations

import re

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from mq_conformance.fixtures import FACTS
from mq_conformance.reference import constants
from mq_conformance.reference.constants import (
    NAMED_BITS,
    BYTES,
    FLAGS,
    NAMES,
    OPTION_FAMILIES,
    VALUES,
    UnknownConstant,
    bytes_value,
    family_of,
    name_of,
    option_names,
    options,
    value,
)
from tests_support import examples


@pytest.fixture(scope="module")
def sheet() -> dict:
    return yaml.safe_load(FACTS.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def facts(sheet) -> dict[str, int]:
    """Every ``[NAME, decimal, X'hex', source]`` row of the facts."""
    found: dict[str, int] = {}
    for number, (name, decimal, hexadecimal, source) in enumerate(sheet["constants"], start=1):
        digits = re.fullmatch(r"X'([0-9A-F]{8})'", hexadecimal)
        assert digits, f"facts.yaml constant {number}: {name}: {hexadecimal!r} is not X'8 hex digits'"
        assert decimal & 0xFFFFFFFF == int(digits.group(1), 16), f"facts.yaml: {name} {decimal} != {hexadecimal}"
        assert source in sheet["sources"], f"facts.yaml: {name} cites unknown source {source!r}"
        assert found.setdefault(name, decimal) == decimal, f"facts.yaml: {name} listed with two values"
    assert len(found) > 200, "the facts' constants were not read"
    return found


def test_every_checked_value_equals_the_facts(facts):
    missing = sorted(set(constants._CHECKED) - set(facts))
    wrong = {n: (v, facts[n]) for n, v in constants._CHECKED.items() if n in facts and facts[n] != v}
    assert not missing, f"in _CHECKED but not in {FACTS.name}: {missing}"
    assert not wrong, f"value differs from {FACTS.name} (model, facts): {wrong}"


def test_every_fact_is_checked(facts):
    assert sorted(set(facts) - set(constants._CHECKED)) == []


def test_header_only_values_do_not_contradict_the_facts(facts):
    assert {n: v for n, v in constants._FROM_HEADER.items() if n in facts and facts[n] != v} == {}
    assert set(constants._FROM_HEADER).isdisjoint(constants._CHECKED)


def test_byte_string_constants_have_the_facts_lengths(sheet, facts):
    assert set(sheet["byte_strings"]) == set(BYTES)
    for name, raw in BYTES.items():
        fact = sheet["byte_strings"][name]
        expected = bytes(fact["zeros"]) if "zeros" in fact else fact["text"].encode("ascii")
        assert raw == expected, name
        assert len(raw) == VALUES[fact["length"]] == facts[fact["length"]], name


# -- names and values round-trip ---------------------------------------------------------------------------------

ENUMERATED = ("MQRC", "MQCC", "MQGS", "MQSS", "MQSEG", "MQPER", "MQMT", "MQBND", "MQMDS", "MQQA", "MQCLWL_USEQ",
              "MQIA")


@pytest.mark.parametrize("family", ENUMERATED)
def test_enumerated_family_round_trips_name_and_value(family):
    members = {n: v for n, v in VALUES.items() if family_of(n) == family}
    assert members, family
    for name, number in members.items():
        canonical = name_of(number, family)
        assert value(canonical, family) == number
        assert family_of(canonical) == family
        assert value(name, family) == number
    # the canonical spelling of a value is the first name listed for it
    first: dict[int, str] = {}
    for name, number in members.items():
        first.setdefault(number, name)
    assert {number: name_of(number, family) for number in first} == first


def test_reason_codes_are_unique_and_named_once():
    reasons = {n: v for n, v in VALUES.items() if family_of(n) == "MQRC"}
    assert len(set(reasons.values())) == len(reasons)
    assert name_of(2033, "MQRC") == "MQRC_NO_MSG_AVAILABLE"
    assert name_of(0, "MQCC") == "MQCC_OK" and name_of(2, "MQCC") == "MQCC_FAILED"


def test_aliases_share_a_canonical_name():
    assert name_of(VALUES["MQCO_IMMEDIATE"], "MQCO") == "MQCO_NONE"
    assert name_of(VALUES["MQPER_PERSISTENCE_AS_TOPIC_DEF"], "MQPER") == "MQPER_PERSISTENCE_AS_Q_DEF"


def test_an_unnamed_value_shows_family_and_number():
    assert name_of(9999, "MQRC") == "MQRC_9999"
    assert name_of(-5, "MQGS") == "MQGS_-5"


def test_char_valued_statuses_are_the_ascii_codes():
    assert [VALUES[n] for n in ("MQGS_NOT_IN_GROUP", "MQGS_MSG_IN_GROUP", "MQGS_LAST_MSG_IN_GROUP")] == [
        ord(" "), ord("G"), ord("L")]
    assert [VALUES[n] for n in ("MQSS_NOT_A_SEGMENT", "MQSS_SEGMENT", "MQSS_LAST_SEGMENT")] == [
        ord(" "), ord("S"), ord("L")]
    assert [VALUES[n] for n in ("MQSEG_INHIBITED", "MQSEG_ALLOWED")] == [ord(" "), ord("A")]


def test_family_of():
    assert family_of("MQGMO_WAIT") == "MQGMO"
    assert family_of("MQCLWL_USEQ_LOCAL") == "MQCLWL_USEQ"
    assert family_of("MQ_MSG_ID_LENGTH") == "MQ"


# -- option families ---------------------------------------------------------------------------------------------

FLAG_CASES = [(family, name) for family in OPTION_FAMILIES for name in FLAGS[family]]


@pytest.mark.parametrize(("family", "name"), FLAG_CASES, ids=[n for _, n in FLAG_CASES])
def test_every_flag_round_trips_through_option_names(family, name):
    bit = VALUES[name]
    assert bit > 0 and bit & (bit - 1) == 0, f"{name} is not a single bit"
    assert option_names(bit, family) == [name]
    assert options([name], family) == bit
    assert options(option_names(bit, family), family) == bit


@pytest.mark.parametrize("family", OPTION_FAMILIES)
def test_flags_of_a_family_are_distinct_bits(family):
    bits = list(FLAGS[family].values())
    assert len(bits) == len(set(bits))
    assert all(family_of(name) == family for name in FLAGS[family])


@pytest.mark.parametrize("family", OPTION_FAMILIES)
def test_every_single_bit_name_of_a_family_is_a_flag_or_an_alias(family):
    for name, number in VALUES.items():
        if family_of(name) != family or number <= 0 or number & (number - 1):
            continue
        if any(marker in name for marker in ("_VERSION_", "_CURRENT_VERSION", "_LENGTH_")):
            continue
        assert name in FLAGS[family] or number in FLAGS[family].values(), name


@settings(max_examples=examples(80), deadline=None, derandomize=True)
@given(st.sampled_from(OPTION_FAMILIES).flatmap(
    lambda family: st.tuples(st.just(family), st.lists(st.sampled_from(sorted(FLAGS[family])), unique=True))))
def test_any_combination_of_flags_round_trips(family_and_names):
    family, names = family_and_names
    number = options(names, family)
    shown = option_names(number, family)
    assert sorted(shown) == sorted(names)
    assert [VALUES[n] for n in shown] == sorted(VALUES[n] for n in shown)  # ascending bit order
    assert options(shown, family) == number


@pytest.mark.parametrize(("composite", "flags"), [
    ("MQGMO_BROWSE_HANDLE", ["MQGMO_BROWSE_FIRST", "MQGMO_MARK_BROWSE_HANDLE", "MQGMO_UNMARKED_BROWSE_MSG"]),
    ("MQGMO_BROWSE_CO_OP", ["MQGMO_BROWSE_FIRST", "MQGMO_MARK_BROWSE_CO_OP", "MQGMO_UNMARKED_BROWSE_MSG"]),
])
def test_composite_browse_options_are_their_flags(composite, flags):
    assert value(composite, "MQGMO") == options(flags, "MQGMO")
    assert option_names(value(composite), "MQGMO") == flags
    assert composite not in FLAGS["MQGMO"]
    assert options([composite], "MQGMO") == options([composite, *flags], "MQGMO")


def test_msgflags_masks_partition_the_field():
    reject, xmit, accept = (VALUES[f"MQMF_{m}"] for m in ("REJECT_UNSUP_MASK", "ACCEPT_UNSUP_IF_XMIT_MASK",
                                                         "ACCEPT_UNSUP_MASK"))
    assert reject & xmit == reject & accept == xmit & accept == 0
    assert reject | xmit | accept == 0xFFFFFFFF
    assert all(bit & reject for bit in FLAGS["MQMF"].values())


def test_zero_valued_options_show_as_no_flags():
    for family in OPTION_FAMILIES:
        assert option_names(0, family) == []
    assert options(["MQGMO_NO_WAIT", "MQGMO_NONE"], "MQGMO") == 0


@pytest.mark.parametrize(("number", "family", "shown"), [
    (0x20000000 | 2, "MQPMO", ["MQPMO_SYNCPOINT", "0x20000000"]),
    (64, "MQMF", ["0x00000040"]),
    (64 | 8, "MQMO", ["MQMO_MATCH_MSG_SEQ_NUMBER", "0x00000040"]),
    (-1, "MQCO", ["MQCO_DELETE", "MQCO_DELETE_PURGE", "MQCO_KEEP_SUB", "MQCO_REMOVE_SUB", "MQCO_QUIESCE",
                        "0xFFFFFFD0"]),
])
def test_unknown_bits_show_as_a_hex_residue(number, family, shown):
    assert option_names(number, family) == shown


def test_hex_residue_keeps_every_unknown_bit():
    for family in OPTION_FAMILIES:
        unknown = 0xFFFFFFFF & ~NAMED_BITS[family]
        names = option_names(0xFFFFFFFF, family)
        assert names[-1] == f"0x{unknown:08X}"
        assert options(names[:-1], family) | int(names[-1], 16) == 0xFFFFFFFF


# -- unknown names -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("name", "family", "fragment"), [
    ("MQPMO_LOGICAL_ORDR", None, "unknown MQ constant MQPMO_LOGICAL_ORDR"),
    ("MQPMO_LOGICAL_ORDR", "MQPMO", "unknown MQ constant MQPMO_LOGICAL_ORDR"),
    ("MQGMO_LOGICAL_ORDER", "MQPMO", "MQGMO_LOGICAL_ORDER is not an MQPMO_* constant"),
    ("logical_order", "MQPMO", "is not an MQPMO_* constant"),
    ("", None, "unknown MQ constant"),
])
def test_unknown_name_raises_unknown_constant(name, family, fragment):
    with pytest.raises(UnknownConstant) as caught:
        value(name, family)
    assert fragment in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_unknown_name_in_an_option_list_raises_unknown_constant():
    with pytest.raises(UnknownConstant, match="MQGMO_WAIT is not an MQPMO_"):
        options(["MQPMO_SYNCPOINT", "MQGMO_WAIT"], "MQPMO")


def test_unknown_byte_string_constant_raises_unknown_constant():
    assert bytes_value("MQGI_NONE") == bytes(24)
    with pytest.raises(UnknownConstant, match="MQXX_NONE"):
        bytes_value("MQXX_NONE")


def test_names_index_covers_every_value():
    for name, number in VALUES.items():
        assert number in NAMES[family_of(name)]
