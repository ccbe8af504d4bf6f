"""Helpers of the certification tests: a session that runs calls on an adapter and fails the test on executor
errors, and the example count of a property test under the run's Hypothesis profile."""

from __future__ import annotations

from mq_conformance.reference.calls import Call, Outcome


class Session:
    """Calls on an adapter, failing the test on an executor error."""

    def __init__(self, adapter):
        self.adapter = adapter

    def __call__(self, op: str, **args) -> Outcome:
        outcome = self.adapter.execute(Call(op, args))
        assert outcome.error is None, f"{op} {args}: {outcome.error}"
        return outcome

    def ok(self, op: str, **args) -> Outcome:
        outcome = self(op, **args)
        assert outcome.CompCode == "MQCC_OK", f"{op} {args}: {outcome.CompCode} {outcome.Reason}"
        return outcome


def examples(quick: int) -> int:
    """How many examples a Hypothesis test runs: ``quick`` under ``--mq-profile quick``, and the profile's own
    count when it asks for more (``thorough``: 2,000), so every property test scales with the profile the
    state machines use (conformance/pytest_plugin.py loads it before test modules are imported)."""
    from hypothesis import settings

    return max(quick, settings.default.max_examples)
