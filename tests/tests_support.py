"""Helpers shared by tests: a session that runs calls on an adapter and fails the test on executor errors."""

from __future__ import annotations

from reference.calls import Call, Outcome


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
