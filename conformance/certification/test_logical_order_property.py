"""Property: a logical-order read of any queue returns every complete group contiguously, in MsgSeqNumber then
Offset order, groups in the physical order of their first items, and no message twice or never
("Logical and physical ordering", document `ordering`: get.logical-order.first-item, get.logical-order.next-item-only)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mq_conformance.conformance.certification.support import Session, examples
from mq_conformance.conformance.difference import Difference, field_problem

DATA = 6
# Where these tests' expectations come from (the suite's reading of the page, computed from what was put).
SOURCE = "the documents: \"Logical and physical ordering\" (the order computed from the messages put)"

# An item is (group index or None, MsgSeqNumber, Offset, is last segment, is last message, is segmented, data,
# is in a group).
# The adapter fixture is reset by hand for every generated example.


# The rules every test here pins: a logical-order get begins with a first item and then takes only the next one.
LOGICAL_ORDER_CLAUSES = pytest.mark.clause("get.logical-order.first-item", "get.logical-order.next-item-only",
                                           "get.logical-order.position-after-any-get")


@st.composite
def queue_contents(draw):
    """Groups of 1-3 logical messages, segmented logical messages not in a group, and lone messages."""
    items = []
    for group in range(draw(st.integers(0, 5))):
        in_group = draw(st.booleans())  # otherwise: one logical message of 2-3 segments, not in a group
        messages = draw(st.integers(1, 3)) if in_group else 1
        for seq in range(1, messages + 1):
            segments = draw(st.integers(1, 3)) if in_group else draw(st.integers(2, 3))
            offset = 0
            for index in range(segments):
                data = f"g{group}m{seq}s{index}"
                last = (index == segments - 1, seq == messages)
                items.append((group, seq, offset, *last, segments > 1, data, in_group))
                offset += len(data)
    items += [(None, 1, 0, True, True, False, f"lone{n}", False) for n in range(draw(st.integers(0, 3)))]
    return draw(st.permutations(items))


def _flags(item) -> list[str]:
    group, _seq, _offset, last_segment, last_message, segmented, _data, in_group = item
    flags = []
    if in_group:
        flags.append("MQMF_LAST_MSG_IN_GROUP" if last_message else "MQMF_MSG_IN_GROUP")
    if segmented:
        flags.append("MQMF_LAST_SEGMENT" if last_segment else "MQMF_SEGMENT")
    return flags


def _load(session: Session, items) -> None:
    session.ok("define_queue", name="Q1")
    session.ok("open", handle="p", queue="Q1", Options=["MQOO_OUTPUT"])
    for item in items:
        group, seq, offset, *_rest, data, _in_group = item
        md = {"MsgFlags": _flags(item), "MsgSeqNumber": seq, "Offset": offset}
        if group is not None:
            md["GroupId"] = f"GROUP-{group}"
        session.ok("put", handle="p", MD=md, data=data)


def _read_all(session: Session, options: list[str], limit: int) -> list[str]:
    got = []
    for _ in range(limit):  # bounded: a broken implementation may return the same message for ever
        outcome = session("get", handle="g", GMO={"Options": options})
        if outcome.CompCode == "MQCC_FAILED":
            session.expect(Reason=("MQRC_NO_MSG_AVAILABLE", outcome.Reason))
            return got
        got.append(outcome.data)
    return got


def _expect_sequence(session: Session, op: str, options: list[str], expected: list[str], got: list[str]) -> None:
    """Fail with a :class:`Difference` on the first get whose data is not the expected one (a get is named by
    its place in the sequence: the 3rd get, with its options)."""
    for number, (want, have) in enumerate(zip(expected + [None] * len(got), got + [None] * len(expected)), 1):
        if want == have:
            continue
        none = "no message (MQRC_NO_MSG_AVAILABLE)"
        raise Difference({"op": op, "handle": "g", "GMO": {"Options": options}},
                         [field_problem("data", none if want is None else repr(want),
                                        none if have is None else repr(have)),
                          f"the whole read: expected {expected}, got {got}"], session.expected_from,
                         ["get.logical-order.first-item", "get.logical-order.next-item-only"],
                         where=f"get number {number} of the read")


def _expected_logical(items) -> list[str]:
    firsts = {}
    for position, item in enumerate(items):
        group, seq, offset = item[0], item[1], item[2]
        key = ("lone", position) if group is None else ("group", group)
        if seq == 1 and offset == 0:
            firsts[key] = position
    order = sorted(firsts, key=firsts.get)
    result = []
    for key in order:
        if key[0] == "lone":
            result.append(items[key[1]][DATA])
        else:
            members = sorted((i for i in items if i[0] == key[1]), key=lambda i: (i[1], i[2]))
            result.extend(i[DATA] for i in members)
    return result


@pytest.mark.capability("groups", "segmentation")
@LOGICAL_ORDER_CLAUSES
@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(queue_contents())
def test_logical_order_get_returns_groups_whole_in_order_of_their_first_items(adapter, items):
    session = Session(adapter, SOURCE)
    adapter.reset()
    _load(session, items)
    session.ok("open", handle="g", queue="Q1", Options=["MQOO_INPUT_SHARED"])
    got = _read_all(session, ["MQGMO_LOGICAL_ORDER"], len(items) + 2)
    _expect_sequence(session, "get", ["MQGMO_LOGICAL_ORDER"], _expected_logical(items), got)
    every = sorted(item[DATA] for item in items)
    if sorted(got) != every:  # every message once (implied by the order above, which holds each message once)
        raise Difference({"op": "get", "handle": "g", "GMO": {"Options": ["MQGMO_LOGICAL_ORDER"]}},
                         [field_problem("data", f"each message once: {every}", sorted(got))], session.expected_from)


@pytest.mark.capability("groups", "segmentation")
@LOGICAL_ORDER_CLAUSES
@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(queue_contents())
def test_logical_order_browse_sees_what_a_logical_get_would_take(adapter, items):
    session = Session(adapter, SOURCE)
    adapter.reset()
    _load(session, items)
    session.ok("open", handle="g", queue="Q1", Options=["MQOO_BROWSE"])
    browsed = []
    options = ["MQGMO_BROWSE_FIRST", "MQGMO_LOGICAL_ORDER"]
    for _ in range(len(items) + 2):
        outcome = session("get", handle="g", GMO={"Options": options})
        if outcome.CompCode == "MQCC_FAILED":
            break
        browsed.append(outcome.data)
        options = ["MQGMO_BROWSE_NEXT", "MQGMO_LOGICAL_ORDER"]
    _expect_sequence(session, "get", ["MQGMO_BROWSE_FIRST or MQGMO_BROWSE_NEXT", "MQGMO_LOGICAL_ORDER"],
                     _expected_logical(items), browsed)


@pytest.mark.capability("groups", "segmentation")
@LOGICAL_ORDER_CLAUSES
@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(queue_contents(), st.data())
def test_group_missing_its_first_item_is_never_entered(adapter, items, data):
    starts = [i for i in items if i[0] is not None and i[1] == 1 and i[2] == 0]
    if not starts:
        return
    dropped = data.draw(st.sampled_from(starts))
    remaining = [i for i in items if i is not dropped]
    session = Session(adapter, SOURCE + "; a group missing its first item is never entered")
    adapter.reset()
    _load(session, remaining)
    session.ok("open", handle="g", queue="Q1", Options=["MQOO_INPUT_SHARED"])
    got = _read_all(session, ["MQGMO_LOGICAL_ORDER"], len(items) + 2)
    # every item of the group that lost its first item is left on the queue
    _expect_sequence(session, "get", ["MQGMO_LOGICAL_ORDER"],
                     [t for t in _expected_logical(remaining) if not t.startswith(f"g{dropped[0]}m")], got)
