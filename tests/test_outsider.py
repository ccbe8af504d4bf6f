"""Read by an outsider: a field the implementation did not return is said to be missing (never `None`), and an
error is printed once."""

from __future__ import annotations

from pathlib import Path

from mq_conformance.conformance.cli import describe_failure
from mq_conformance.conformance.matching import Bindings, match
from mq_conformance.conformance.runner import ERROR, ScenarioResult, StepResult
from mq_conformance.reference.calls import Outcome


def test_a_missing_field_is_said_to_be_missing_not_none():
    outcome = Outcome(CompCode="MQCC_OK", Reason="MQRC_NONE", MD={"Priority": 0}, GMO={})
    problems = match({"MD": {"CorrelId": "$c", "Priority": 0, "MsgType": "MQMT_DATAGRAM"},
                      "GMO": {"GroupStatus": "MQGS_NOT_IN_GROUP"}}, outcome, Bindings())
    assert problems and all("None" not in p for p in problems), problems
    assert "MD.CorrelId: expected an identifier for $c, got nothing (the field is missing)" in problems[0]


class _Scenario:
    id, path = "s", Path("s.yaml")


def test_an_error_is_printed_once():
    step = StepResult(index=0, line=3, op="get", call={"op": "get"}, expect={"CompCode": "MQCC_OK"},
                      outcome={"error": "not implemented: MQGMO_LOCK"}, status=ERROR,
                      problems=["not implemented: MQGMO_LOCK"])
    lines = describe_failure(ScenarioResult(_Scenario(), ERROR, [step]), None)
    assert sum("not implemented: MQGMO_LOCK" in line for line in lines) == 1, lines
