"""The reference model's own decisions where the documents are silent (each recorded as a clause with a
`decision`). They pin the model, not implementations, so they run on the model directly."""

from __future__ import annotations

from mq_conformance.adapters.reference import ReferenceAdapter
from tests_support import Session


def _session() -> Session:
    session = Session(ReferenceAdapter())
    session.ok("define_queue", name="Q1", MaxMsgLength=32)
    session.ok("open", handle="h", queue="Q1", Options=["MQOO_OUTPUT", "MQOO_INPUT_SHARED"])
    return session


def test_segments_made_by_the_queue_manager_keep_the_messages_msgid():
    """segmentation.msgid-shared"""
    session = _session()
    put = session.ok("put", handle="h", MD={"MsgFlags": ["MQMF_SEGMENTATION_ALLOWED"]}, data="x" * 70)
    msg_ids = {session.ok("get", handle="h").MD["MsgId"] for _ in range(3)}
    assert msg_ids == {put.MD["MsgId"]}


def test_a_put_breaking_several_rules_reports_the_first_check():
    """put.check-order: options before the MQMD version, the version before MsgFlags, MsgFlags before length."""
    session = _session()
    both = session("put", handle="h", PMO={"Options": ["MQPMO_LOGICAL_ORDER", "MQPMO_SYNCPOINT", "MQPMO_NO_SYNCPOINT"]},
                   MD={"Version": 1})
    assert both.Reason == "MQRC_OPTIONS_ERROR"
    version_and_flags = session("put", handle="h", PMO={"Options": ["MQPMO_LOGICAL_ORDER"]},
                                MD={"Version": 1, "MsgFlags": 64})
    assert version_and_flags.Reason == "MQRC_WRONG_MD_VERSION"
    flags_and_length = session("put", handle="h", MD={"MsgFlags": 64}, data="y" * 100)
    assert flags_and_length.Reason == "MQRC_MSG_FLAGS_ERROR"
    length_and_group = session("put", handle="h", PMO={"Options": ["MQPMO_LOGICAL_ORDER"]},
                               MD={"MsgFlags": ["MQMF_SEGMENT"]}, data="")
    assert length_and_group.Reason == "MQRC_SEGMENT_LENGTH_ZERO"
