"""A Hypothesis state machine over three queue managers joined by distributed queuing: QM1 sends to QM2 directly
and to QM3 through QM2 (a queue-manager alias on QM1, QM2's own channel on); applications put persistent and
nonpersistent messages at two priorities, some to a queue QM2 does not have; channels start, stop and retry;
the destination on QM2 is put-inhibited and allowed again; channels transmit some or all; consumers get.

After every step it checks what IBM's pages promise of channels ("Safety of messages", "Channel message sequence
numbering", "Dead-letter queues"):

- every message put and not consumed is on exactly one queue of the world - a transmission queue, its
  destination, or the dead-letter queue of the queue manager that could not put it - never lost, never twice
  (distributed.channel.receiver-resolves, distributed.dlq.put, distributed.channel.message-retry);
- a message for the unknown queue only ever reaches QM2's dead-letter queue, with its MQDLH;
- on each destination, messages of one priority and persistence from one application stand in the order they
  were put (distributed.channel.order, distributed.channel.npmspeed).
"""

from __future__ import annotations

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from mq_conformance.adapters.reference import ReferenceAdapter
from mq_conformance.reference import distributed
from mq_conformance.reference.calls import Call

CHANNELS = ("QM1.QM2", "QM2.QM3")
STOPS = ("MQCHS_STOPPED", "MQCHS_INACTIVE", "MQCHS_RETRYING")
DESTINATIONS = {"QM2": "TARGET", "QM3": "TARGET", "NOWHERE": "NO.SUCH.QUEUE"}

SETUP = (
    [Call("define_qmgr", {"name": q, "DeadLetterQName": "DLQ"}) for q in ("QM1", "QM2", "QM3")]
    + [Call("define_queue", {"name": "DLQ", "qmgr": q}) for q in ("QM1", "QM2", "QM3")]
    + [Call("define_queue", {"name": "QM2", "qmgr": "QM1", "Usage": "MQUS_TRANSMISSION"}),
       Call("define_queue", {"name": "QM3", "qmgr": "QM2", "Usage": "MQUS_TRANSMISSION"}),
       Call("define_queue", {"name": "TARGET", "qmgr": "QM2"}),
       Call("define_queue", {"name": "TARGET", "qmgr": "QM3"}),
       Call("define_qremote", {"name": "QM3", "qmgr": "QM1", "RemoteQMgrName": "QM3", "XmitQName": "QM2"}),
       Call("define_sender", {"name": "QM1.QM2", "qmgr": "QM1", "CONNAME": "QM2", "XMITQ": "QM2", "MRRTY": 2}),
       Call("define_sender", {"name": "QM2.QM3", "qmgr": "QM2", "CONNAME": "QM3", "XMITQ": "QM3",
                              "NPMSPEED": "MQNPMS_NORMAL"})]
    + [Call("start_channel", {"name": c}) for c in CHANNELS]
    + [Call("connect", {"connection": q, "qmgr": q}) for q in ("QM1", "QM2", "QM3")]
    + [Call("open", {"handle": f"to-{d}", "connection": "QM1", "queue": queue,
                     "ObjectQMgrName": "QM2" if d == "NOWHERE" else d, "Options": ["MQOO_OUTPUT"]})
       for d, queue in DESTINATIONS.items()]
    + [Call("open", {"handle": f"in-{q}", "connection": q, "queue": "TARGET", "Options": ["MQOO_INPUT_SHARED"]})
       for q in ("QM2", "QM3")]
)


class DistributedMachine(RuleBasedStateMachine):
    """Messages cross channels whole, once, in order, or wait, or are dead-lettered where they could not go."""

    @initialize()
    def setup(self):
        self.adapter = ReferenceAdapter()
        for call in SETUP:
            assert self.run(call).CompCode == "MQCC_OK", call
        self.live: dict[str, tuple[str, int, str, int]] = {}  # MsgId -> (destination, priority, persistence, order)
        self.counter = 0

    def run(self, call: Call):
        outcome = self.adapter.execute(call)
        assert outcome.error is None, f"{call}: {outcome.error}"
        return outcome

    @rule(destination=st.sampled_from(tuple(DESTINATIONS)), priority=st.sampled_from((2, 7)),
          persistence=st.sampled_from(("MQPER_PERSISTENT", "MQPER_NOT_PERSISTENT")), count=st.integers(1, 3))
    def put(self, destination, priority, persistence, count):
        for _ in range(count):
            self.counter += 1
            outcome = self.run(Call("put", {"handle": f"to-{destination}", "data": f"m{self.counter}",
                                            "MD": {"Priority": priority, "Persistence": persistence}}))
            assert outcome.CompCode == "MQCC_OK", outcome
            self.live[outcome.MD["MsgId"]] = (destination, priority, persistence, self.counter)

    @rule(channel=st.sampled_from(CHANNELS), state=st.sampled_from(STOPS))
    def stop(self, channel, state):
        self.run(Call("stop_channel", {"name": channel, "STATUS": state}))

    @rule(channel=st.sampled_from(CHANNELS))
    def start(self, channel):
        self.run(Call("start_channel", {"name": channel}))

    @rule(channel=st.sampled_from(CHANNELS), count=st.one_of(st.none(), st.integers(0, 3)))
    def transmit(self, channel, count):
        self.run(Call("transmit", {"channel": channel, **({} if count is None else {"count": count})}))

    @rule(inhibited=st.booleans())
    def inhibit_target_on_qm2(self, inhibited):
        state = "MQQA_PUT_INHIBITED" if inhibited else "MQQA_PUT_ALLOWED"
        self.run(Call("alter_queue", {"qmgr": "QM2", "name": "TARGET", "InhibitPut": state}))

    @rule(qmgr=st.sampled_from(("QM2", "QM3")))
    def consume(self, qmgr):
        outcome = self.run(Call("get", {"handle": f"in-{qmgr}"}))
        if outcome.CompCode == "MQCC_OK":
            destination = self.live.pop(outcome.MD["MsgId"])[0]
            assert destination == qmgr, f"a message for {destination} was got on {qmgr}"

    def where(self) -> dict[str, list[tuple[str, str, object]]]:
        """MsgId -> the places it stands: (queue manager, queue, the stored message's order key)."""
        seen: dict[str, list[tuple[str, str, object]]] = {}
        for name, qm in self.adapter.world.qmgrs.items():
            for queue_name, queue in qm.queues.items():
                for message in queue.messages.values():
                    md, data = message.md, message.data
                    if queue.definition.Usage:  # a transmission queue: the message's own MsgId is in the MQXQH
                        unpacked = distributed.unpack_xqh(data)
                        assert unpacked is not None, f"a message on {name}:{queue_name} has no MQXQH"
                        md = unpacked[2]
                    elif queue_name == "DLQ":
                        assert distributed.unpack_dlh(data) is not None, f"a message on {name}:DLQ has no MQDLH"
                    seen.setdefault(md.MsgId.hex(), []).append((name, queue_name, message.seq))
        return seen

    @invariant()
    def every_message_on_exactly_one_queue(self):
        if not hasattr(self, "adapter"):
            return
        seen = self.where()
        duplicated = {m: p for m, p in seen.items() if len(p) > 1}
        assert not duplicated, f"duplicated: {duplicated}"
        assert set(seen) == set(self.live), f"lost: {set(self.live) - set(seen)}; unknown: {set(seen) - set(self.live)}"
        for msg_id, [(qmgr, queue, _seq)] in seen.items():
            destination = self.live[msg_id][0]
            if destination == "NOWHERE":
                assert (qmgr, queue) in (("QM1", "QM2"), ("QM2", "DLQ")), f"{msg_id} for nowhere is on {qmgr}:{queue}"
            elif queue == "TARGET":
                assert qmgr == destination, f"{msg_id} for {destination} is on {qmgr}:TARGET"

    @invariant()
    def each_destination_keeps_put_order_within_priority_and_persistence(self):
        if not hasattr(self, "adapter"):
            return
        arrived: dict[tuple, list[tuple[int, int]]] = {}
        for msg_id, [(qmgr, queue, seq)] in self.where().items():
            if queue == "TARGET":
                _destination, priority, persistence, order = self.live[msg_id]
                arrived.setdefault((qmgr, priority, persistence), []).append((seq, order))
        for key, pairs in arrived.items():
            orders = [order for _seq, order in sorted(pairs)]
            assert orders == sorted(orders), f"{key}: arrived out of put order {orders}"


# As many examples as the --mq-profile gives (quick 25, thorough 2000), each a 40-step story.
DistributedMachine.TestCase.settings = settings(stateful_step_count=40, deadline=None)
TestDistributedMachine = DistributedMachine.TestCase
