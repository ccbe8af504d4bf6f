"""Helpers of the certification tests: a session that runs calls on an adapter and fails the test with a
:class:`~mq_conformance.conformance.difference.Difference` (the call, each differing field, where the expectation
comes from: never a bare assertion), and the example count of a property test under the run's Hypothesis profile."""

from __future__ import annotations

from typing import Any

from mq_conformance.conformance.difference import Difference, error_answer, expect_equal, field_problem
from mq_conformance.reference.calls import Call, Outcome

SET_UP = "the test's set-up (a call the documents say succeeds, made before the rule is checked)"


class Session:
    """Calls on an adapter. An executor error, or a set-up call (:meth:`ok`) that does not succeed, fails the
    test as a :class:`Difference` naming the call; :meth:`expect` checks fields of an outcome the same way.
    ``expected_from`` says where the test's expectations come from (a table and its row, a documented rule)."""

    def __init__(self, adapter, expected_from: str = "the documents"):
        self.adapter = adapter
        self.expected_from = expected_from
        self.last_call: dict[str, Any] = {}

    def __call__(self, op: str, **args) -> Outcome:
        self.last_call = {"op": op, **args}
        outcome = self.adapter.execute(Call(op, args))
        if outcome.error is not None:
            raise Difference(self.last_call, [error_answer(outcome.error)],
                             self.expected_from)
        return outcome

    def ok(self, op: str, **args) -> Outcome:
        outcome = self(op, **args)
        if outcome.CompCode != "MQCC_OK":
            raise Difference(self.last_call, [field_problem("CompCode", "MQCC_OK", outcome.CompCode),
                                              field_problem("Reason", "MQRC_NONE", outcome.Reason)], SET_UP)
        return outcome

    def expect(self, call: dict[str, Any] | None = None, **fields: tuple[Any, Any]) -> None:
        """Fail with a :class:`Difference` on ``call`` (the last call by default) naming every field whose
        ``(expected, actual)`` pair differs."""
        expect_equal(call if call is not None else self.last_call, self.expected_from, **fields)


def examples(quick: int) -> int:
    """How many examples a Hypothesis test runs: ``quick`` under ``--mq-profile quick``, and the profile's own
    count when it asks for more (``thorough``: 2,000), so every property test scales with the profile the
    state machines use (conformance/pytest_plugin.py loads it before test modules are imported)."""
    from hypothesis import settings

    return max(quick, settings.default.max_examples)
