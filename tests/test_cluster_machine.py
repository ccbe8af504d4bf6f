"""A Hypothesis state machine over a cluster: applications put (not fixed, bound on open, in groups bound on
group, to a named queue manager, under syncpoint), channels change state, queue managers are suspended,
instances are put-disabled, channels deliver (sometimes losing a batch's confirmation) and consumers get.

After every step it checks what document `cluster-instances` promises of rerouting - "it does not affect the integrity of the
message by running the risk of losing it or by creating a duplicate" (cluster.reallocation.integrity) - and
what document `reallocation` says of bound messages (cluster.reallocation.not-bound-on-open, not-bound-on-group,
not-explicit-qmgr):

- every message put and not backed out or consumed is on exactly one queue of the world: an instance of Q, a
  cluster transmission queue or, once the receiver gave up on a put-disabled instance, the dead-letter queue of
  the queue manager it was bound for; nothing else is anywhere;
- a message that may not be reallocated is always bound for the queue manager chosen when it was put, and shows
  an all-zero AccountingToken while it waits on a transmission queue; one that may, shows a non-zero token;
- a message left in doubt keeps its route (cluster.reallocation.not-in-doubt).

A second test checks that the world is a value: the same calls on two fresh models give the same outcomes and
equal worlds.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from mq_conformance.adapters.reference import ReferenceAdapter
from mq_conformance.reference.calls import Call
from mq_conformance.reference.cluster import CLUSTER_XMITQ
from mq_conformance.reference.structures import NONE_ACCOUNTING
from tests_support import examples

HOSTS = ("QM1", "QM2", "QM3")
SENDERS = ("QM1", "QM2")
CHANNELS = tuple(f"TO.{q}" for q in HOSTS)
STATES = ("MQCHS_RUNNING", "MQCHS_STOPPING", "MQCHS_RETRYING", "MQCHS_STOPPED", "MQCHS_INACTIVE")
LOGICAL = {"Options": ["MQPMO_LOGICAL_ORDER"]}

SETUP = (
    # each with a dead-letter queue: a message its put-disabled instance never takes is dead-lettered there after
    # the receiver's retries (cluster.deliver.target-unavailable), so it stays on a queue of the world
    [Call("define_qmgr", {"name": q, "DeadLetterQName": "DLQ"}) for q in HOSTS]
    + [Call("define_queue", {"name": "DLQ", "qmgr": q}) for q in HOSTS]
    + [Call("define_queue", {"name": "Q", "qmgr": "QM1", "CLUSTER": "C", "CLWLUSEQ": "MQCLWL_USEQ_ANY"}),
       Call("define_queue", {"name": "Q", "qmgr": "QM2", "CLUSTER": "C"}),
       Call("define_queue", {"name": "Q", "qmgr": "QM3", "CLUSTER": "C"})]
    + [Call("connect", {"connection": f"app-{q}", "qmgr": q}) for q in HOSTS]
    + [Call("connect", {"connection": "uow", "qmgr": "QM1"})]
    # the local instances are put-inhibited while the handles bound on open are opened, so they bind to QM3
    + [Call("alter_queue", {"qmgr": q, "name": "Q", "InhibitPut": "MQQA_PUT_INHIBITED"}) for q in SENDERS]
    + [Call("open", {"handle": f"{kind}-{s}", "connection": f"app-{s}", "queue": "Q", "Options": ["MQOO_OUTPUT", bind]})
       for s in SENDERS for kind, bind in (("free", "MQOO_BIND_NOT_FIXED"), ("open", "MQOO_BIND_ON_OPEN"),
                                           ("group", "MQOO_BIND_ON_GROUP"))]
    + [Call("alter_queue", {"qmgr": q, "name": "Q", "InhibitPut": "MQQA_PUT_ALLOWED"}) for q in SENDERS]
    + [Call("open", {"handle": "free-uow", "connection": "uow", "queue": "Q",
                     "Options": ["MQOO_OUTPUT", "MQOO_BIND_NOT_FIXED"]})]
    + [Call("open", {"handle": f"in-{q}", "connection": f"app-{q}", "queue": "Q", "Options": ["MQOO_INPUT_SHARED"]})
       for q in HOSTS]
)


class ClusterMachine(RuleBasedStateMachine):
    """Messages are never lost, never duplicated, and bound ones never move."""

    @initialize()
    def setup(self):
        self.adapter = ReferenceAdapter()
        self.calls: list[Call] = []
        for call in SETUP:
            assert self.run(call).CompCode == "MQCC_OK", call
        self.live: dict[str, str | None] = {}  # MsgId -> queue manager it is bound for (None: may move)
        self.pending: dict[str, str | None] = {}  # put under syncpoint, not yet committed
        self.counter = 0
        self.indoubt: dict[str, tuple[str, str]] = {}  # MsgId -> route when first seen in doubt

    def run(self, call: Call):
        self.calls.append(call)
        outcome = self.adapter.execute(call)
        assert outcome.error is None, f"{call}: {outcome.error}"
        return outcome

    def data(self) -> str:
        self.counter += 1
        return f"m{self.counter}"

    def record(self, outcome, bound: bool, into: dict | None = None) -> str | None:
        if outcome.CompCode == "MQCC_FAILED":
            return None
        msg_id = outcome.MD["MsgId"]
        (self.live if into is None else into)[msg_id] = outcome.PMO["ResolvedQMgrName"] if bound else None
        return outcome.PMO["ResolvedQMgrName"]

    # -- applications ---------------------------------------------------------------------------------------
    @rule(sender=st.sampled_from(SENDERS), count=st.integers(1, 4))
    def put_not_fixed(self, sender, count):
        for _ in range(count):
            self.record(self.run(Call("put", {"handle": f"free-{sender}", "data": self.data()})), bound=False)

    @rule(sender=st.sampled_from(SENDERS))
    def put_bound_on_open(self, sender):
        self.record(self.run(Call("put", {"handle": f"open-{sender}", "data": self.data()})), bound=True)

    @rule(sender=st.sampled_from(SENDERS), size=st.integers(1, 3))
    def put_group_bound_on_group(self, sender, size):
        destinations = set()
        for index in range(size):
            flags = ["MQMF_LAST_MSG_IN_GROUP" if index == size - 1 else "MQMF_MSG_IN_GROUP"]
            outcome = self.run(Call("put", {"handle": f"group-{sender}", "PMO": LOGICAL, "MD": {"MsgFlags": flags},
                                            "data": self.data()}))
            if outcome.CompCode == "MQCC_FAILED":
                assert index == 0, "a group bound to a destination cannot fail half-way"
                return
            destinations.add(self.record(outcome, bound=True))
        assert len(destinations) == 1, f"one group went to {destinations}"

    @rule(sender=st.sampled_from(SENDERS), qmgr=st.sampled_from(HOSTS))
    def put1_to_named_qmgr(self, sender, qmgr):
        outcome = self.run(Call("put1", {"connection": f"app-{sender}", "queue": "Q", "ObjectQMgrName": qmgr,
                                         "data": self.data()}))
        if self.record(outcome, bound=True) is not None:
            assert outcome.PMO["ResolvedQMgrName"] == qmgr

    @rule(sender=st.sampled_from(SENDERS))
    def put1_not_fixed(self, sender):
        self.record(self.run(Call("put1", {"connection": f"app-{sender}", "queue": "Q", "data": self.data()})),
                    bound=False)

    @rule()
    def put_under_syncpoint(self):
        outcome = self.run(Call("put", {"handle": "free-uow", "PMO": {"Options": ["MQPMO_SYNCPOINT"]},
                                        "data": self.data()}))
        self.record(outcome, bound=False, into=self.pending)

    @rule(commit=st.booleans())
    def end_unit_of_work(self, commit):
        self.run(Call("commit" if commit else "backout", {"connection": "uow"}))
        if commit:
            self.live.update(self.pending)
        self.pending.clear()

    @rule(host=st.sampled_from(HOSTS))
    def consume(self, host):
        outcome = self.run(Call("get", {"handle": f"in-{host}"}))
        if outcome.CompCode == "MQCC_OK":
            msg_id = outcome.MD["MsgId"]
            assert msg_id in self.live, "a message no one put, or got twice"
            bound = self.live.pop(msg_id)
            assert bound in (None, host), f"a message bound for {bound} was got on {host}"

    # -- the network and the administrator ------------------------------------------------------------------
    @rule(channel=st.sampled_from(CHANNELS), state=st.sampled_from(STATES))
    def set_channel(self, channel, state):
        self.run(Call("set_channel", {"name": channel, "state": state}))

    @rule(channel=st.sampled_from(CHANNELS), state=st.sampled_from(("MQCHS_STOPPING", "MQCHS_RETRYING")))
    def channel_fails(self, channel, state):
        self.run(Call("set_channel", {"name": channel, "state": state}))

    @rule(channel=st.sampled_from(CHANNELS))
    def batch_in_doubt_then_channel_fails(self, channel):
        self.run(Call("deliver", {"channel": channel, "indoubt": True}))
        self.note_in_doubt()
        self.run(Call("set_channel", {"name": channel, "state": "MQCHS_STOPPING"}))

    @rule(qmgr=st.sampled_from(HOSTS), suspended=st.booleans())
    def suspend_or_resume(self, qmgr, suspended):
        self.run(Call("suspend_qmgr" if suspended else "resume_qmgr", {"qmgr": qmgr}))

    @rule(qmgr=st.sampled_from(HOSTS), inhibited=st.booleans())
    def put_inhibit(self, qmgr, inhibited):
        value = "MQQA_PUT_INHIBITED" if inhibited else "MQQA_PUT_ALLOWED"
        self.run(Call("alter_queue", {"qmgr": qmgr, "name": "Q", "InhibitPut": value}))

    @rule(indoubt=st.booleans(), channel=st.none() | st.sampled_from(CHANNELS))
    def deliver(self, indoubt, channel):
        args = {"indoubt": indoubt} if channel is None else {"indoubt": indoubt, "channel": channel}
        self.run(Call("deliver", args))

    def note_in_doubt(self):
        """Remember the route of every message in doubt; it must keep it (cluster.reallocation.not-in-doubt)."""
        world = self.adapter.world
        for name, member in world.members.items():
            xmitq = world.qmgrs[name].queues[CLUSTER_XMITQ]
            for message in xmitq.messages.values():
                header = member.transmissions[message.token]
                if header.indoubt:
                    route = (header.qmgr, header.channel)
                    first = self.indoubt.setdefault(message.md.MsgId.hex(), route)
                    assert first == route, f"{message.md.MsgId.hex()} was rerouted while in doubt"

    @precondition(lambda self: len(self.calls) > 0)
    @invariant()
    def every_message_on_exactly_one_queue(self):
        self.note_in_doubt()
        world = self.adapter.world
        seen: dict[str, list[str]] = {}
        for name, qm in world.qmgrs.items():
            member = world.members[name]
            for queue_name, queue in qm.queues.items():
                for message in queue.messages.values():
                    msg_id = message.md.MsgId.hex()
                    seen.setdefault(msg_id, []).append(f"{name}:{queue_name}")
                    if queue_name == CLUSTER_XMITQ:
                        header = member.transmissions[message.token]
                        where = header.qmgr
                        zero = message.md.AccountingToken == NONE_ACCOUNTING
                        assert zero == (not header.eligible), f"{msg_id}: AccountingToken does not tell eligibility"
                    else:
                        where = name
                    bound = self.live.get(msg_id, self.pending.get(msg_id))
                    assert bound is None or bound == where, f"{msg_id} was bound for {bound}, now for {where}"
        duplicated = {m: places for m, places in seen.items() if len(places) > 1}
        assert not duplicated, f"duplicated: {duplicated}"
        expected = set(self.live) | set(self.pending)
        assert set(seen) == expected, f"lost: {expected - set(seen)}; unknown: {set(seen) - expected}"


# As many examples as the --mq-profile gives (quick 25, thorough 2000), each a 40-step story.
ClusterMachine.TestCase.settings = settings(stateful_step_count=40, deadline=None)
TestClusterMachine = ClusterMachine.TestCase


CALLS = st.lists(st.one_of(
    st.builds(lambda s, d: Call("put", {"handle": f"free-{s}", "data": d}), st.sampled_from(SENDERS),
              st.text("ab", max_size=2)),
    st.builds(lambda s: Call("put", {"handle": f"open-{s}", "data": "o"}), st.sampled_from(SENDERS)),
    st.builds(lambda c, s: Call("set_channel", {"name": c, "state": s}), st.sampled_from(CHANNELS),
              st.sampled_from(STATES)),
    st.builds(lambda q: Call("suspend_qmgr", {"qmgr": q}), st.sampled_from(HOSTS)),
    st.builds(lambda i: Call("deliver", {"indoubt": i}), st.booleans()),
), max_size=25)


@settings(max_examples=examples(30), deadline=None)
@given(CALLS)
def test_same_calls_give_same_outcomes_and_equal_worlds(calls):
    first, second = ReferenceAdapter(), ReferenceAdapter()
    outcomes = [[a.execute(c).to_json() for c in SETUP + calls] for a in (first, second)]
    assert outcomes[0] == outcomes[1]
    assert first.world == second.world
