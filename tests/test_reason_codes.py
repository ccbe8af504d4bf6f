"""The reason-code ledger (fixtures/reason-codes.yaml) accounts for every code, and its claims are true."""

from __future__ import annotations

import re

import pytest

from mq_conformance import fixtures
from mq_conformance.adapters.reference import ReferenceAdapter
from mq_conformance.conformance.clauses import load_registry
from mq_conformance.conformance.reasons import evidence_problems, load_ledger
from mq_conformance.conformance.yamlsource import SourceError
from mq_conformance.reference.constants import VALUES
from tests_support import suite_scenarios

LEDGER = load_ledger()


def test_every_code_is_produced_or_out_of_scope():
    # load_ledger refuses an entry in neither state or in both; this pins that it read some of each.
    assert any(c.produced for c in LEDGER.codes) and any(not c.produced for c in LEDGER.codes)


def test_values_agree_with_the_constants():
    assert [c.code for c in LEDGER.codes if c.code in VALUES and VALUES[c.code] != c.value] == []


def test_produced_codes_are_shown_by_their_scenarios():
    problems = evidence_problems(LEDGER, load_registry(), suite_scenarios(), ReferenceAdapter())
    assert problems == []


def test_every_reason_a_scenario_expects_is_in_the_ledger_as_produced():
    expected = set()
    for scenario in suite_scenarios():
        for step in scenario.steps:
            reason = (step.expect or {}).get("Reason")
            reasons = reason.get("one_of", []) if isinstance(reason, dict) else [reason]
            expected |= {r for r in reasons if isinstance(r, str) and r != "MQRC_NONE"}
    produced = {c.code for c in LEDGER.codes if c.produced}
    assert sorted(expected - produced) == []


def test_every_reason_the_model_names_is_in_the_ledger():
    # Every MQRC_ name the model's code and tables mention for a call is accounted for.
    root = fixtures.ROOT.parent
    texts = [p.read_text() for p in (root / "reference").rglob("*.py") if p.name != "constants.py"]
    texts += [p.read_text() for p in fixtures.TABLES.glob("*.yaml")]
    named = {m for text in texts for m in re.findall(r"MQRC_[A-Z0-9_]+", text)} - {"MQRC_NONE"}
    listed = {c.code for c in LEDGER.codes}
    assert sorted(named - listed) == []


@pytest.mark.parametrize("text, message", [
    ("codes:\n  - {code: MQRC_Q_FULL, value: 2053, calls: [MQPUT]}\n", "either 'produced' or 'out_of_scope'"),
    ("codes:\n  - {code: MQRC_Q_FULL, value: 2053, calls: [MQPUT], out_of_scope: nowhere}\n", "unknown scope"),
    ("codes:\n  - {code: MQRC_Q_FULL, value: 2053, calls: [MQFOO], out_of_scope: environment}\n", "'calls' must"),
])
def test_a_code_in_neither_state_or_badly_classified_is_one_line(tmp_path, text, message):
    path = tmp_path / "ledger.yaml"
    path.write_text("pages: {calls: {MQPUT: {title: t, url: u}}}\nscopes: {environment: e}\n" + text)
    with pytest.raises(SourceError, match=message) as caught:
        load_ledger(path)
    assert str(caught.value).startswith(f"{path}:")


def test_a_claim_no_scenario_shows_is_reported(tmp_path):
    path = tmp_path / "ledger.yaml"
    path.write_text("pages: {calls: {MQGET: {title: t, url: u}}}\nscopes: {}\ncodes:\n"
                    "  - {code: MQRC_GET_INHIBITED, value: 2016, calls: [MQGET],\n"
                    "     produced: {clauses: [get.get-inhibited], scenarios: [get-no-msg-available]}}\n")
    problems = evidence_problems(load_ledger(path), load_registry(), suite_scenarios(), ReferenceAdapter())
    assert problems and "get-no-msg-available" in problems[0]
