"""The one vocabulary of generated calls (conformance/vocabulary.py): option names come from the model's
constants and tables, every area generates calls the model accepts, the seeded generator and the Hypothesis
strategies draw from the same domains, and every decision-table row is reached by its recipe or explained."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mq_conformance.adapters.reference import ReferenceAdapter
from mq_conformance.conformance import vocabulary
from mq_conformance.conformance.campaign import generate
from mq_conformance.conformance.campaign.replay import replay
from mq_conformance.reference import constants, properties
from mq_conformance.reference.tables import default_spec

OPTION_FIELDS = {("Options",): None, ("PMO", "Options"): "MQPMO", ("GMO", "Options"): "MQGMO",
                 ("GMO", "MatchOptions"): "MQMO", ("MD", "MsgFlags"): "MQMF", ("SD", "Options"): "MQSO"}
# The family of a call's own Options: MQOPEN's and MQCLOSE's, and those of the message property calls.
CALL_OPTIONS = {"open": "MQOO", "close": "MQCO", **properties.OPTION_FAMILY}


def _option_lists(call):
    for path, family in OPTION_FIELDS.items():
        value = call
        for key in path:
            value = value.get(key) if isinstance(value, dict) else None
        if isinstance(value, list):
            yield family or CALL_OPTIONS[call["op"]], value


def test_option_lists_are_the_models_constants_not_a_copy():
    within = vocabulary.OPTION_CAPABILITIES
    assert vocabulary.OPEN_OPTIONS == vocabulary.names_within(sorted(constants.FLAGS["MQOO"]), within)
    assert vocabulary.PUT_OPTIONS == vocabulary.names_within(sorted(constants.FLAGS["MQPMO"]), within)
    assert vocabulary.CLOSE_OPTIONS == vocabulary.names_within(sorted(constants.FLAGS["MQCO"]), within)
    assert set(vocabulary.GET_OPTION_NAMES) | set(vocabulary.NOT_YET) >= \
        set(vocabulary.names_within(sorted(constants.FLAGS["MQGMO"]), within))
    assert "MQOO_OUTPUT" in vocabulary.OPEN_OPTIONS and "MQGMO_MARK_BROWSE_CO_OP" in vocabulary.GET_OPTION_NAMES
    for area in vocabulary.AREAS.values():
        for index in range(20):
            for call in generate.sequence(3, index, 25, [area.name])["calls"]:
                for family, names in _option_lists(call):
                    assert all(constants.is_option_name(n, family) for n in names), (area.name, call)


@pytest.mark.parametrize("area", sorted(vocabulary.AREAS))
def test_every_area_generates_calls_the_model_accepts(area):
    model, other = ReferenceAdapter(), ReferenceAdapter()
    ops = set()
    for index in range(40):
        sequence = generate.sequence(11, index, 25, [area])
        model.reset()
        other.reset()
        records = replay(sequence, model, other)
        assert not records[-1]["diverged"], records[-1]["problems"]
        bad = [r for r in records if r["model"] is not None and '"error"' in r["model"]]
        assert not bad, bad[0]
        ops.update(r["op"] for r in records)
    assert len(ops) >= 3


def test_table_rows_are_reached_by_their_recipe_or_explained():
    spec = default_spec()
    for table in spec.tables.values():
        for row in table.rows:
            reason = vocabulary.unreachable(table.id, row.id)
            if reason is not None:
                assert len(reason) > 20
                continue
            area = vocabulary.table_area(table.id)
            reached = False
            for attempt in range(6):
                calls = area.setup_calls() + vocabulary.recipe(table.id, row.id, random.Random(attempt))
                records = replay({"id": "t", "area": area.name, "calls": calls}, ReferenceAdapter(),
                                 ReferenceAdapter())
                if any(row.id in r["clauses"] for r in records):
                    reached = True
                    break
            assert reached, f"the recipe for {row.id} does not reach it"


def test_the_zero_valued_bind_option_makes_the_access_rule_unreachable():
    reason = vocabulary.unreachable("open.options", "open.options.access-required")
    assert reason is not None and "MQOO_BIND_AS_Q_DEF" in reason


def test_steering_aims_at_rows_not_yet_reached_and_stops_when_all_are():
    steering = generate.Steering(5, ["groups"], share=1.0)
    assert steering.rows and all(generate.target_table(r).startswith(("put.", "get.")) for r in steering.rows)
    first = steering.target(0)
    assert first in steering.rows
    steering.saw(steering.rows)
    assert steering.target(1) is None
    steered = generate.sequence(5, 3, 4, ["groups"], target=first)
    assert steered["target"] == first and len(steered["calls"]) >= 2 + 4


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_hypothesis_strategies_draw_from_the_same_domains_as_the_seeded_generator(data):
    for area in vocabulary.AREAS.values():
        for rule in area.rules:
            for name, domain in rule.args.items():
                if isinstance(domain, vocabulary.Known):
                    continue
                drawn = data.draw(vocabulary.strategy(domain), label=f"{area.name}.{rule.name}.{name}")
                if isinstance(domain, vocabulary.OneOf):
                    assert drawn in [list(v) if isinstance(v, (list, tuple)) else v for v in domain.values]
                elif isinstance(domain, vocabulary.SomeOf):
                    assert set(drawn) <= set(domain.values) and len(drawn) <= domain.max_size
                else:
                    assert domain.low <= drawn <= domain.high


def _names_in(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _names_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from _names_in(item)


@pytest.mark.parametrize("area", sorted(vocabulary.AREAS))
def test_an_area_declares_every_capability_its_calls_need(area):
    from mq_conformance.adapters.capabilities import needed_by

    ops, names = set(), set()
    for index in range(60):
        for call in generate.sequence(13, index, 30, [area])["calls"]:
            ops.add(call["op"])
            names.update(_names_in(call))
    needed = needed_by(ops, names) | {"core"}
    assert needed <= vocabulary.AREAS[area].capabilities, sorted(needed - vocabulary.AREAS[area].capabilities)
