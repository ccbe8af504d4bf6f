"""Every reason the model returns from a call is one IBM lists for that call and completion code.

The lists are fixtures/call-reasons.yaml (read from the "Reason" parameter section of each call's page); a reason
outside a complete list must be a known difference there, with why. Partial lists cannot refute a reason and are
not checked."""

from __future__ import annotations

from collections import defaultdict

import pytest
import yaml

from mq_conformance import fixtures
from mq_conformance.adapters.reference import ReferenceAdapter
from mq_conformance.conformance.clauses import load_registry
from mq_conformance.conformance.runner import run_scenario
from mq_conformance.reference.constants import VALUES
from tests_support import suite_scenarios

DATA = yaml.safe_load((fixtures.ROOT / "call-reasons.yaml").read_text(encoding="utf-8"))
# The call language's operation for each MQI call the data lists.
OPS = {"MQOPEN": "open", "MQCLOSE": "close", "MQPUT": "put", "MQPUT1": "put1", "MQGET": "get",
       "MQINQ": "inquire", "MQSET": "set"}
CALLS = {op: call for call, op in OPS.items()}


def returned_reasons() -> dict[tuple[str, str], set[str]]:
    """(call, CompCode) -> the reasons the model returned for them over every scenario of the suite."""
    seen: dict[tuple[str, str], set[str]] = defaultdict(set)
    for scenario in suite_scenarios():
        for step in run_scenario(scenario, ReferenceAdapter()).steps:
            outcome = step.outcome or {}
            compcode = outcome.get("CompCode")
            if step.op in CALLS and compcode in ("MQCC_WARNING", "MQCC_FAILED"):
                seen[(CALLS[step.op], compcode)].add(outcome.get("Reason"))
    return seen


def outside_the_lists(data: dict, seen: dict[tuple[str, str], set[str]]) -> list[tuple[str, str, str]]:
    """The (call, CompCode, reason) the model returned that a complete list of IBM's does not hold and no known
    difference explains."""
    known = {(d["call"], d["CompCode"], d["reason"]) for d in data.get("known_differences", [])}
    outside = []
    for call, lists in data["calls"].items():
        for compcode, entry in lists.items():
            if not entry["complete"]:
                continue
            listed = {r["name"] for r in entry["reasons"]}
            outside += [(call, compcode, reason) for reason in sorted(seen.get((call, compcode), ()))
                        if reason not in listed and (call, compcode, reason) not in known]
    return outside


@pytest.fixture(scope="module")
def seen():
    return returned_reasons()


def test_every_reason_the_model_returns_is_in_ibms_list_for_the_call(seen):
    assert outside_the_lists(DATA, seen) == []


def test_a_reason_taken_out_of_a_list_is_reported(seen):
    # The check can fail: drop from MQCLOSE's failure list a reason the model returns, and it is named.
    data = yaml.safe_load((fixtures.ROOT / "call-reasons.yaml").read_text(encoding="utf-8"))
    entry = data["calls"]["MQCLOSE"]["MQCC_FAILED"]
    entry["reasons"] = [r for r in entry["reasons"] if r["name"] != "MQRC_Q_NOT_EMPTY"]
    assert outside_the_lists(data, seen) == [("MQCLOSE", "MQCC_FAILED", "MQRC_Q_NOT_EMPTY")]


def test_every_known_difference_is_still_returned_and_cites_real_clauses(seen):
    registry = load_registry()
    for difference in DATA["known_differences"]:
        assert difference["reason"] in seen.get((difference["call"], difference["CompCode"]), set()), difference
        assert difference["why"].strip()
        assert [c for c in difference.get("clauses", []) if c not in registry] == []


def test_listed_values_agree_with_the_constants():
    wrong = [(call, compcode, r["name"], r["value"])
             for call, lists in DATA["calls"].items() for compcode, entry in lists.items()
             for r in entry["reasons"] if r["name"] in VALUES and VALUES[r["name"]] != r["value"]]
    assert wrong == []


def test_every_list_names_its_source_page():
    sources = DATA["sources"]
    for call, lists in DATA["calls"].items():
        assert set(lists) <= {"MQCC_WARNING", "MQCC_FAILED"}, call
        for compcode, entry in lists.items():
            source = sources[entry["source"]]
            assert source["title"] and source["release"], (call, compcode)
            assert entry.get("url", source.get("url", "")).startswith("http"), (call, compcode)
            assert isinstance(entry["complete"], bool) and entry["reasons"], (call, compcode)


def test_the_reason_code_ledger_names_the_call_for_every_reason_ibms_list_gives_it():
    # fixtures/reason-codes.yaml says which calls each code belongs to; the lists read here must agree with it.
    ledger = yaml.safe_load((fixtures.ROOT / "reason-codes.yaml").read_text(encoding="utf-8"))
    calls_of = {code["code"]: set(code["calls"]) for code in ledger["codes"]}
    missing = [(call, r["name"]) for call, lists in DATA["calls"].items() for entry in lists.values()
               for r in entry["reasons"] if call not in calls_of.get(r["name"], set())]
    assert missing == []
