"""IBM's MQPUT1 usage notes: a sequence of messages put on one queue keeps its order only under conditions that
MQPUT1 does not meet in most environments, so no scenario may assert the order in which messages of successive
MQPUT1 calls (or the reports they cause) come back (clause put1.order-not-kept).

Found mechanically: every scenario runs on the model with MQPUT1's order turned round - each message an MQPUT1
puts is placed before the messages earlier MQPUT1 calls put on that queue - and must still pass.
"""

from __future__ import annotations

import pytest

from mq_conformance.adapters.reference import ReferenceAdapter
from mq_conformance.conformance.runner import PASSED, run_scenario
from mq_conformance.reference.calls import Call, Outcome
from tests_support import Session, suite_scenarios


def _reseat(queue, message, seq) -> None:
    """Give ``message`` the physical place ``seq`` on ``queue``: every dictionary kept in physical order is
    rebuilt in the new order."""
    message.seq = seq

    def in_order(messages: dict) -> dict:
        return dict(sorted(((m.seq, m) for m in messages.values()), key=lambda item: item[0]))

    queue.messages = in_order(queue.messages)
    queue.levels = [in_order(level) for level in queue.levels]
    queue.expiring = in_order(queue.expiring)
    queue.pending_gets = in_order(queue.pending_gets)
    for index in queue.indexes.values():
        for value, bucket in index.items():
            index[value] = in_order(bucket)


class Put1Reversed(ReferenceAdapter):
    """The model, but each message an MQPUT1 puts goes before those earlier MQPUT1 calls put on the same queue:
    an order IBM allows (MQPUT1 does not preserve message order)."""

    def reset(self) -> None:
        super().reset()
        self.by_put1: set[int] = set()

    def _stored(self) -> dict[int, tuple]:
        return {id(m): (queue, m) for qm in self.world.qmgrs.values() for queue in qm.queues.values()
                for m in queue.messages.values()}

    def execute(self, call: Call) -> Outcome:
        if call.op != "put1":
            return super().execute(call)
        before = self._stored()
        outcome = super().execute(call)
        made: dict[int, list] = {}  # queue -> the messages this call made there (segments, reports...), in order
        for key, (queue, message) in self._stored().items():
            if key not in before:
                made.setdefault(id(queue), [queue]).append(message)
        for queue, *messages in made.values():
            earlier = [m.seq for m in queue.messages.values() if id(m) in self.by_put1]
            if earlier:  # the call's messages, in their own order, go just before the earliest of those
                step = 1 / (len(messages) + 1) / (len(self.by_put1) + 1)
                for i, message in enumerate(sorted(messages, key=lambda m: m.seq)):
                    _reseat(queue, message, min(earlier) - (len(messages) - i) * step)
            self.by_put1.update(id(m) for m in messages)
        return outcome


def test_the_reversed_model_turns_round_the_order_of_successive_put1s():
    session = Session(Put1Reversed())
    session.ok("define_queue", name="Q1")
    for data in ("one", "two", "three"):
        session.ok("put1", queue="Q1", data=data)
    session.ok("open", handle="h", queue="Q1", Options=["MQOO_INPUT_SHARED"])
    assert [session.ok("get", handle="h").data for _ in range(3)] == ["three", "two", "one"]


@pytest.mark.parametrize("scenario", [pytest.param(s, id=s.id) for s in suite_scenarios()
                                      if any(step.call.op == "put1" for step in s.steps)])
def test_no_scenario_relies_on_the_order_of_successive_put1s(scenario):
    result = run_scenario(scenario, Put1Reversed())
    assert result.status == PASSED, [f"step {s.index + 1} (line {s.line}): {s.problems}" for s in result.failures]
