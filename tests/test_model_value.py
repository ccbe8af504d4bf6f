"""The model is a value: built twice and given the same calls, it gives the same outcomes and ends equal; and
whatever calls it is given, no message is lost or delivered twice."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mq_conformance.adapters.reference import ReferenceAdapter
from mq_conformance.reference.calls import Call

FLAGS = st.lists(st.sampled_from(["MQMF_MSG_IN_GROUP", "MQMF_LAST_MSG_IN_GROUP", "MQMF_SEGMENT",
                                  "MQMF_LAST_SEGMENT", "MQMF_SEGMENTATION_ALLOWED"]), max_size=3, unique=True)
PMO = st.lists(st.sampled_from(["MQPMO_LOGICAL_ORDER", "MQPMO_SYNCPOINT", "MQPMO_NEW_MSG_ID"]), max_size=2, unique=True)
PUT = st.builds(lambda flags, pmo, data, persistence: Call("put", {
    "handle": "h", "MD": {"MsgFlags": flags, "Persistence": persistence}, "PMO": {"Options": pmo}, "data": data}),
    FLAGS, PMO, st.text(alphabet="ab", max_size=3),
    st.sampled_from(["MQPER_PERSISTENT", "MQPER_NOT_PERSISTENT"]))
GET = st.builds(lambda sync: Call("get", {"handle": "h", "GMO": {"Options": ["MQGMO_SYNCPOINT"] if sync else []}}),
                st.booleans())
OTHER = st.sampled_from([Call("commit", {}), Call("backout", {}), Call("close", {"handle": "h"}),
                         Call("open", {"handle": "h", "queue": "Q1", "Options": ["MQOO_OUTPUT", "MQOO_INPUT_SHARED"]})])
SEQUENCES = st.lists(st.one_of(PUT, PUT, GET, OTHER), max_size=25)
SETUP = [Call("define_queue", {"name": "Q1"}),
         Call("open", {"handle": "h", "queue": "Q1", "Options": ["MQOO_OUTPUT", "MQOO_INPUT_SHARED"]})]


def _run(calls):
    adapter = ReferenceAdapter()
    outcomes = [adapter.execute(call).to_json() for call in SETUP + calls]
    return adapter, outcomes


@settings(max_examples=60, deadline=None)
@given(SEQUENCES)
def test_same_calls_give_same_outcomes_and_equal_models(calls):
    first, first_outcomes = _run(calls)
    second, second_outcomes = _run(calls)
    assert first_outcomes == second_outcomes
    assert first.qm == second.qm


@settings(max_examples=60, deadline=None)
@given(SEQUENCES)
def test_every_committed_message_is_got_once_or_stays_on_the_queue(calls):
    calls = calls + [Call("commit", {})]
    adapter, outcomes = _run(calls)
    put_ids, got_ids = [], []
    pending = []  # (op, MsgId, under syncpoint) since the last commit or backout
    for call, outcome in zip(SETUP + calls, outcomes):
        if outcome.get("CompCode") == "MQCC_FAILED":
            continue
        syncpoint = "MQPMO_SYNCPOINT" in call.args.get("PMO", {}).get("Options", []) or \
            "MQGMO_SYNCPOINT" in call.args.get("GMO", {}).get("Options", [])
        if call.op in ("put", "get"):
            pending.append((call.op, outcome["MD"]["MsgId"], syncpoint))
        elif call.op == "commit":
            put_ids += [m for op, m, _ in pending if op == "put"]
            got_ids += [m for op, m, _ in pending if op == "get"]
            pending = []
        elif call.op == "backout":
            put_ids += [m for op, m, s in pending if op == "put" and not s]
            got_ids += [m for op, m, s in pending if op == "get" and not s]
            pending = []
    remaining = [m.md.MsgId.hex() for m in adapter.qm.queues["Q1"].messages.values()]
    assert len(got_ids) == len(set(got_ids)), "a message was delivered twice"
    assert sorted(got_ids + remaining) == sorted(put_ids), "a message was lost or appeared from nowhere"
