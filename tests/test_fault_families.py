"""The mutant families of selection, message properties and publish/subscribe (adapters/fault_families.py): made
from the selector grammar, the wildcard schemes and the property tables, each one fault around an unchanged model."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mq_conformance import fixtures
from mq_conformance.adapters import fault_families as ff
from mq_conformance.adapters.base import AdapterError
from mq_conformance.adapters.mutants import EQUIVALENT, load_mutant
from mq_conformance.adapters.reference import ReferenceAdapter
from mq_conformance.conformance.runner import run_scenario
from mq_conformance.conformance.scenario import load_scenario
from mq_conformance.reference import properties, selection, topics
from mq_conformance.reference.tables import default_spec, load_examples


def test_every_operator_of_the_grammar_is_swapped_for_every_other():
    names = set(ff.fault_mutant_names())
    compare = ff.operator_terminals()["COMPARE"]
    assert set(compare) == {"=", "<>", "<", "<=", ">", ">="}
    assert {f"mutant:selector:swapped:compare:{a}:{b}" for a in compare for b in compare if a != b} <= names
    assert {"mutant:selector:swapped:arithmetic:/:*", "mutant:selector:swapped:sign:-:+",
            "mutant:selector:swapped:and_:or_"} <= names


def test_every_rule_and_literal_form_of_the_grammar_has_its_mutants():
    names = set(ff.fault_mutant_names())
    predicates = ff.rule_aliases("predicate")
    assert {"compare", "between", "in_", "like", "is_null", "not_like"} <= set(predicates)
    assert {f"mutant:selector:negated:{a}" for a in ff.rule_aliases(*ff.BOOLEAN_RULES)} <= names
    assert {f"mutant:selector:caseless:{a}" for a in predicates} <= names
    # a NUMBER alternative added to the grammar needs a name here, and then has its mutant
    assert len(ff.number_forms()) == len(ff._number_alternatives()) == len(ff.NUMBER_FORM_NAMES)
    assert {f"mutant:selector:literal-refused:number-{f}" for f in ff.NUMBER_FORM_NAMES} <= names
    assert {f"mutant:selector:keyword-case:{k}" for k in selection.KEYWORDS} <= names


def test_every_property_type_has_its_bounds_and_every_pair_its_conversion_mutant():
    names = set(ff.fault_mutant_names())
    types = [str(r.when["type"]) for r in default_spec()["properties.types"].rows]
    assert {f"mutant:property-type:conversion:{a}:{b}" for a in types for b in types if a != b} <= names
    assert {f"mutant:property-type:bound:MQTYPE_INT8:{b}:{s}" for b in ("low", "high") for s in "+-"} <= names
    assert "mutant:property-type:bound:MQTYPE_FLOAT64:high:+" not in names  # no double is larger
    assert {"mutant:property-type:precision:MQTYPE_FLOAT32", "mutant:property-type:precision:MQTYPE_FLOAT64"} <= names


WILDCARD_TEXT = st.text(alphabet="ab/#+*?%", max_size=7)


@settings(max_examples=400, deadline=None)
@given(pattern=WILDCARD_TEXT, topic=WILDCARD_TEXT)
def test_the_schemes_as_the_families_read_them_are_the_models_matchers(pattern, topic):
    """WILDCARD_SCHEMES with no fault is reference/topics.py: a fault then breaks exactly one rule of the model's."""
    assert ff.level_match(pattern, topic) == topics.topic_wildcard_match(pattern, topic)
    assert ff.char_match(pattern, topic) == topics.char_wildcard_match(pattern, topic)


@pytest.mark.parametrize("row", load_examples("topic-wildcards.yaml").rows, ids=lambda row: row.id)
def test_the_schemes_agree_with_ibms_examples(row):
    match = ff.level_match if row.when["scheme"] == ff.TOPIC_SCHEME else ff.char_match
    assert match(row.when["subscription"], row.when["topic"]) == (row.then["matches"] in (True, "yes"))


def test_a_scheme_fault_breaks_its_rule():
    assert ff.char_match("IBM/*", "IBM/Software/Results")
    assert not ff.char_match("IBM/*", "IBM/Software/Results", "*", "stops-at-separator")
    assert ff.level_match("USA/#", "USA") and not ff.level_match("USA/#", "USA", "#", "at-least-one")
    assert not ff.level_match("a/+/c", "a/c") and ff.level_match("a/+/c", "a/c", "+", "zero-or-one")
    assert ff.level_match("a/b", "a//b", fault="empty-levels-dropped") and not ff.level_match("a/b", "a//b")


@pytest.mark.parametrize(("name", "scenario"), [
    ("mutant:selector:swapped:compare:<=:<", "properties/properties-selection-ordering-operators-at-the-bound.yaml"),
    ("mutant:selector:swapped:sign:-:+", "properties/properties-selection-division-and-unary-signs.yaml"),
    ("mutant:selector:caseless:not_in", "properties/properties-selection-not-like-and-not-in-are-case-sensitive.yaml"),
    ("mutant:selector:negated:not_like", "properties/properties-selection-not-like-and-not-in-are-case-sensitive.yaml"),
    ("mutant:selector:literal-refused:false", "properties/properties-selection-approximate-and-false-literals.yaml"),
    ("mutant:selector:keyword-case:ESCAPE", "properties/properties-selection-every-keyword-in-lower-case.yaml"),
    ("mutant:topic-matcher:topic:+:inside-level", "pubsub/pubsub-wildcard-plus-inside-level-is-literal.yaml"),
    ("mutant:topic-matcher:topic:empty-levels-dropped", "pubsub/pubsub-empty-level-is-a-level.yaml"),
    ("mutant:topic-matcher:char:?:zero-or-one", "pubsub/pubsub-wildcard-char-question-mark-not-none.yaml"),
    ("mutant:topic-matcher:char:*:stops-at-separator", "pubsub/pubsub-wildcard-char-star-crosses-levels.yaml"),
    ("mutant:property-type:conversion:MQTYPE_INT8:MQTYPE_INT64", "properties/properties-convert-every-supported-pair.yaml"),
    ("mutant:property-type:conversion:MQTYPE_BOOLEAN:MQTYPE_INT32",
     "properties/properties-convert-every-unsupported-pair.yaml"),
    ("mutant:property-type:bound:MQTYPE_FLOAT64:high:-", "properties/properties-float-largest-magnitudes-kept.yaml"),
    ("mutant:property-type:precision:MQTYPE_FLOAT32", "properties/properties-float32-holds-single-precision.yaml"),
])
def test_a_fault_mutant_fails_the_scenario_written_for_it_and_the_model_passes(name, scenario):
    loaded = load_scenario(fixtures.SCENARIOS / scenario)
    result = run_scenario(loaded, load_mutant(name))
    assert result.status == "failed"  # a wrong answer, never an error of the mutant's own
    assert run_scenario(loaded, ReferenceAdapter()).status == "passed"


def test_a_fault_is_gone_once_its_call_returns():
    """The faults replace module functions for one call only: the model is unchanged after, and before."""
    before = (selection._flatten, selection.parse, selection.evaluate, topics.topic_wildcard_match,
              topics.char_wildcard_match, properties.convert, properties._float32)
    scenario = load_scenario(fixtures.SCENARIOS / "properties/properties-selection-in.yaml")
    for name in ("mutant:selector:caseless:in_", "mutant:selector:keyword-case:IN",
                 "mutant:topic-matcher:char:*:literal", "mutant:property-type:precision:MQTYPE_FLOAT32",
                 "mutant:property-type:conversion:MQTYPE_INT8:MQTYPE_STRING"):
        run_scenario(scenario, load_mutant(name))
    assert before == (selection._flatten, selection.parse, selection.evaluate, topics.topic_wildcard_match,
                      topics.char_wildcard_match, properties.convert, properties._float32)
    assert run_scenario(scenario, ReferenceAdapter()).status == "passed"


def test_an_unknown_fault_is_one_clear_error():
    for name in ("mutant:selector:swapped:compare:=:~", "mutant:selector:negated:nope", "mutant:topic-matcher:topic:?:literal",
                 "mutant:property-type:bound:MQTYPE_STRING:high:+", "mutant:property-type:conversion:MQTYPE_INT8:MQTYPE_INT8"):
        with pytest.raises(AdapterError):
            load_mutant(name)


def test_each_equivalent_fault_mutant_has_its_argument():
    notes = ff.fault_equivalent_notes()
    assert notes and all(len(argument) > 80 for argument in notes.values())
    assert all(EQUIVALENT[name] == argument for name, argument in notes.items())
    assert all(re.fullmatch(r"(selector|topic-matcher|property-type):.+", name) for name in notes)
