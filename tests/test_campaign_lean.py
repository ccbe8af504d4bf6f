"""compare() takes a shortcut that compare_full() (the plain field-by-field reading of fixtures/comparison.yaml)
does not: a structure equal as a whole on both sides only has its identity fields matched. These tests show the
shortcut never hides a difference nor binds a symbol differently - over generated outcomes built to be equal,
nearly equal and unequal, and over the outcomes of the model and of mutant adapters (adapters/mutants.py) - and
that the campaign's lean replay keeps, for a diverging sequence, every record the full replay gives."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mq_conformance.adapters.base import load
from mq_conformance.adapters.reference import ReferenceAdapter
from mq_conformance.conformance.campaign import generate
from mq_conformance.conformance.campaign.replay import call_sides, execute, replay, replay_columns
from mq_conformance.conformance.compare import Identities, compare, compare_full, load_policy
from mq_conformance.reference.calls import Call, Outcome
from tests_support import examples

POLICY = load_policy()
STRUCTURES = {key: rule for key, rule in POLICY.items() if isinstance(rule, dict)}
PLAIN = [key for key, rule in POLICY.items() if not isinstance(rule, dict)]

IDENTIFIERS = st.sampled_from(["aa01", "aa02", "aa03", "MQMI_NONE", "MQGI_NONE", "MQMTOK_NONE"]) | st.none()
VALUES = st.one_of(
    st.none(), st.integers(-2, 3), st.sampled_from(["MQCC_OK", "MQCC_FAILED", "MQCC_WARNING", "MQRC_NONE",
                                                     "MQRC_NO_MSG_AVAILABLE", "MQFMT_STRING", "x"]),
    st.lists(st.sampled_from(["MQMF_SEGMENT", "MQMF_LAST_SEGMENT", "MQMF_MSG_IN_GROUP"]), max_size=3),
    st.dictionaries(st.sampled_from(["MQIA_CURRENT_Q_DEPTH", "MQCA_Q_NAME"]), st.integers(0, 2), max_size=2),
)


@st.composite
def structures(draw, key):
    """An MD/GMO/... mapping: some of the policy's fields (identities from a small pool, so values repeat), maybe
    a field the policy does not compare; or None; or (rarely) something that is no mapping at all."""
    rule = STRUCTURES[key]
    kind = draw(st.sampled_from(["dict"] * 8 + ["none", "empty-list"]))
    if kind == "none":
        return None
    if kind == "empty-list":
        return []
    names = draw(st.lists(st.sampled_from(sorted(rule) + ["PutDate"]), unique=True))
    return {name: draw(IDENTIFIERS if rule.get(name) == "identity" else VALUES) for name in names}


@st.composite
def outcomes(draw):
    fields = {key: draw(structures(key)) for key in STRUCTURES}
    fields.update({key: draw(VALUES) for key in PLAIN})
    fields["CompCode"] = draw(st.sampled_from(["MQCC_OK", "MQCC_WARNING", "MQCC_FAILED", None]))
    fields["error"] = draw(st.sampled_from([None] * 6 + ["bad call: x", "adapter raised X"]))
    return Outcome(**fields)


@st.composite
def pairs(draw):
    """(left, right): independent, or right a copy of left with a few fields changed (reordered lists, an
    identifier swapped, a structure dropped), so equal and nearly equal structures are common."""
    left = draw(outcomes())
    if draw(st.booleans()):
        return left, draw(outcomes())
    right = copy.deepcopy(left)
    for _ in range(draw(st.integers(0, 2))):
        key = draw(st.sampled_from(sorted(STRUCTURES) + PLAIN + ["reorder"]))
        if key == "reorder":
            for structure in (right.MD, right.GMO):
                for name, value in (structure.items() if isinstance(structure, dict) else ()):
                    if isinstance(value, list):
                        structure[name] = list(reversed(value))
        elif key in STRUCTURES and isinstance(getattr(right, key), dict) and getattr(right, key):
            structure = getattr(right, key)
            name = draw(st.sampled_from(sorted(structure)))
            structure[name] = draw(IDENTIFIERS if STRUCTURES[key].get(name) == "identity" else VALUES)
        else:
            setattr(right, key, draw(structures(key)) if key in STRUCTURES else draw(VALUES))
    return left, right


def _agree(steps: list[tuple[Outcome, Outcome]]) -> None:
    fast, full = Identities(), Identities()
    for left, right in steps:
        assert compare(left, right, fast, POLICY) == compare_full(left, right, full, POLICY), (left, right)
        assert (fast.left, fast.right, fast.count) == (full.left, full.right, full.count)


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(pairs(), min_size=1, max_size=6))
def test_the_shortcut_and_the_full_comparison_agree_on_generated_outcomes(steps):
    _agree(steps)


def test_a_structure_equal_on_both_sides_still_checks_its_identifiers_against_earlier_bindings():
    """The case the shortcut must not skip: the same MsgId on both sides, where the left one was bound earlier
    to a symbol the right one was not."""
    first = (Outcome(CompCode="MQCC_OK", MD={"MsgId": "aa01"}), Outcome(CompCode="MQCC_OK", MD={"MsgId": "bb01"}))
    second = (Outcome(CompCode="MQCC_OK", MD={"MsgId": "aa01"}), Outcome(CompCode="MQCC_OK", MD={"MsgId": "aa01"}))
    identities = Identities()
    assert compare(*first, identities, POLICY) == []
    assert compare(*second, identities, POLICY) == ["MD.MsgId: 'aa01' vs 'aa01'"]
    _agree([first, second])


# (mutant, the area whose sequences reach the rule it breaks)
MUTANTS = [("mutant:table:put.logical-order.table1.row5:GroupId=MQGI_NONE", "groups"),
           ("mutant:segments-get-own-msg-id", "segmentation"), ("mutant:new-msg-id-ignored", "matching"),
           ("mutant:last-segment-flag-missing", "segmentation"), ("mutant:backout-count-not-kept", "units-of-work"),
           ("mutant:priority-ignored", "matching"), ("mutant:match-correl-id-ignored", "matching")]


@pytest.mark.parametrize(("mutant", "area"), MUTANTS)
def test_the_shortcut_and_the_full_comparison_agree_on_a_mutant_adapters_outcomes(mutant, area):
    """Every call of 40 generated sequences, on the model and on a mutant, compared both ways; the comparison
    does not stop at the first difference here, so later calls' bindings are checked too."""
    model, impl = ReferenceAdapter(), load(mutant)
    differing = 0
    for index in range(40):
        model.reset()
        impl.reset()
        fast, full = Identities(), Identities()
        for raw in generate.sequence(13, index, 20, [area])["calls"]:
            _, mine, theirs, _ = call_sides(raw, full, {})
            left, right = execute(model, Call(raw["op"], mine)), execute(impl, Call(raw["op"], theirs))
            problems = compare(left, right, fast, POLICY)
            assert problems == compare_full(left, right, full, POLICY)
            assert (fast.left, fast.right) == (full.left, full.right)
            differing += bool(problems)
    assert differing, f"{mutant} never differed from the model: the check above compared only equal outcomes"


@pytest.mark.parametrize(("adapter", "area"), [("reference", None), *MUTANTS[:3]])
def test_the_lean_replay_keeps_every_record_of_a_diverging_sequence(adapter, area):
    """What a campaign stores of a step equals what the full replay records, wherever it stores it; and a
    diverging sequence keeps its calls and expectations whole (its witness scenario is built from them)."""
    model, impl = ReferenceAdapter(), load(adapter)
    diverged = 0
    for index in range(30):
        sequence = generate.sequence(5, index, 20, [area] if area else generate.AREAS)
        model.reset()
        impl.reset()
        lean = replay_columns(sequence, model, impl).records()
        model.reset()
        impl.reset()
        full = replay(sequence, model, impl)
        assert len(lean) == len(full)
        for mine, whole in zip(lean, full):
            for name, value in mine.items():
                if name in ("call", "expect") and value is None:
                    assert not full[-1]["diverged"] and whole["model"] is None
                else:
                    assert value == whole[name], (name, value, whole[name])
        if full[-1]["diverged"]:
            diverged += 1
            assert all(r["call"] is not None and r["expect"] is not None for r in lean)
    assert diverged or adapter == "reference"


def test_a_call_an_executor_failed_on_keeps_its_call_and_both_outcomes_in_a_clean_sequence():
    sequence = {"id": "t", "area": "queues", "calls": [
        {"op": "define_queue", "name": "Q1"}, {"op": "connect", "connection": "app"},
        {"op": "put", "handle": "never-opened", "data": "x"}, {"op": "commit", "connection": "app"}]}
    replayed = replay_columns(sequence, ReferenceAdapter(), ReferenceAdapter())
    assert not replayed.diverged and len(replayed) == 4
    assert replayed.call == [None, None, '{"data":"x","handle":"never-opened"}', None]
    assert replayed.expect[2] is not None and [e is None for e in replayed.expect] == [True, True, False, True]
    assert "never-opened" in replayed.model[2] and replayed.model[2] == replayed.impl[2]
    assert replayed.model_reason[2].startswith("error: bad call") and replayed.model[3] is None
