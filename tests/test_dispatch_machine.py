"""Co-operating dispatchers and consumers, as document `browse-mark` describes them, driven by a Hypothesis state machine.

Dispatchers browse with MQGMO_BROWSE_CO_OP on handles opened with MQOO_CO_OP and hand each MsgToken to a
consumer, which gets the message destructively under syncpoint and then commits or backs out. With
MsgMarkBrowseInterval -1: every message is dispatched exactly once while nothing is backed out; a backed-out
message is dispatched again; no message is lost or consumed twice (browse-mark.mark-browse-co-op,
browse-mark.destructive-get-unmarks, browse-mark.match-msg-token).
"""

from __future__ import annotations

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, initialize, invariant, rule

from mq_conformance.adapters.reference import ReferenceAdapter
from mq_conformance.reference.calls import Call
from tests_support import examples

DISPATCHERS = ("d0", "d1", "d2")
CONSUMERS = ("c0", "c1")


class CooperativeDispatch(RuleBasedStateMachine):
    tokens = Bundle("tokens")

    @initialize()
    def set_up(self):
        self.adapter = ReferenceAdapter()
        self.call("define_qmgr", MsgMarkBrowseInterval=-1)
        self.call("define_queue", name="Q1")
        self.call("open", handle="p", queue="Q1", Options=["MQOO_OUTPUT"], connection="producer")
        for name in DISPATCHERS:
            self.call("open", handle=name, queue="Q1", Options=["MQOO_BROWSE", "MQOO_CO_OP"], connection=name)
        for name in CONSUMERS:
            self.call("open", handle=name, queue="Q1", Options=["MQOO_INPUT_SHARED"], connection=name)
        self.state: dict[str, str] = {}  # data -> new | dispatched | in-flight | consumed
        self.by_token: dict[str, str] = {}
        self.in_flight: dict[str, list[str]] = {name: [] for name in CONSUMERS}
        self.count = 0

    def call(self, op, **args):
        outcome = self.adapter.execute(Call(op, args))
        assert outcome.error is None, outcome.error
        return outcome

    @rule()
    def put(self):
        self.count += 1
        data = f"m{self.count}"
        assert self.call("put", handle="p", data=data).CompCode == "MQCC_OK"
        self.state[data] = "new"

    @rule(target=tokens, dispatcher=st.sampled_from(DISPATCHERS))
    def dispatch(self, dispatcher):
        outcome = self.call("get", handle=dispatcher, GMO={"Options": ["MQGMO_BROWSE_CO_OP"]})
        if outcome.CompCode == "MQCC_FAILED":
            assert outcome.Reason == "MQRC_NO_MSG_AVAILABLE"
            assert "new" not in self.state.values(), "an undispatched message was not offered"
            return None
        data = outcome.data
        assert self.state[data] == "new", f"{data} dispatched while {self.state[data]}"
        self.state[data] = "dispatched"
        self.by_token[outcome.GMO["MsgToken"]] = data
        return outcome.GMO["MsgToken"]

    @rule(token=tokens, consumer=st.sampled_from(CONSUMERS))
    def consume(self, token, consumer):
        if token is None:
            return
        outcome = self.call("get", handle=consumer, MD={},
                            GMO={"Options": ["MQGMO_SYNCPOINT"], "MatchOptions": ["MQMO_MATCH_MSG_TOKEN"],
                                 "MsgToken": {"hex": token}})
        data = self.by_token[token]
        if self.state[data] in ("dispatched", "new"):  # on the queue: the token still finds it
            assert outcome.CompCode == "MQCC_OK" and outcome.data == data
            self.state[data] = "in-flight"
            self.in_flight[consumer].append(data)
        else:  # taken by a consumer (in flight or consumed): its token finds nothing
            assert (outcome.CompCode, outcome.Reason) == ("MQCC_FAILED", "MQRC_NO_MSG_AVAILABLE")

    @rule(consumer=st.sampled_from(CONSUMERS))
    def commit(self, consumer):
        self.call("commit", connection=consumer)
        for data in self.in_flight[consumer]:
            self.state[data] = "consumed"
        self.in_flight[consumer] = []

    @rule(consumer=st.sampled_from(CONSUMERS))
    def backout(self, consumer):
        self.call("backout", connection=consumer)
        for data in self.in_flight[consumer]:
            self.state[data] = "new"  # unmarked again: must be dispatched again
        self.in_flight[consumer] = []

    @invariant()
    def nothing_lost_or_duplicated(self):
        if not hasattr(self, "adapter"):
            return
        on_queue = sorted(m.data.decode() for m in self.adapter.qm.queues["Q1"].messages.values())
        expected = sorted(d for d, s in self.state.items() if s != "consumed")
        assert on_queue == expected


CooperativeDispatch.TestCase.settings = settings(max_examples=examples(30), stateful_step_count=30, deadline=None)
# It drives the model itself (and reads its queue to check nothing is lost): a check of the model, whatever the
# adapter; it needs and pins what its docstring names.
CooperativeDispatch.TestCase.pytestmark = [
    pytest.mark.self_check, pytest.mark.capability("browse-mark", "units-of-work"),
    pytest.mark.clause("browse-mark.mark-browse-co-op", "browse-mark.destructive-get-unmarks",
                       "browse-mark.match-msg-token")]
test_cooperative_dispatchers_dispatch_each_message_once = CooperativeDispatch.TestCase
