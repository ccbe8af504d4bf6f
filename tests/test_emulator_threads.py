"""The emulated queue manager under threads: one lock, and a get with MQGMO_WAIT that waits in real time until a
message becomes available to it or its interval ends (emulator/emulator.py). The model stays pure:
it is asked again, with no wait, whenever another connection changes something."""

from __future__ import annotations

import logging
import threading
import time

import pytest

from mq_conformance.emulator import EmulatorUnavailable, emulated_mq, load_ibmmq

try:
    ibmmq = load_ibmmq()
except EmulatorUnavailable as exc:  # no wheel of IBM's ibmmq for this platform (pyproject.toml)
    pytest.skip(str(exc), allow_module_level=True)
CMQC = ibmmq.CMQC


def _later(seconds: float, action) -> threading.Thread:
    def run() -> None:
        time.sleep(seconds)
        action()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def _waiting_get(queue, interval: int) -> bytes:
    gmo = ibmmq.GMO(Options=CMQC.MQGMO_WAIT | CMQC.MQGMO_NO_SYNCPOINT, WaitInterval=interval)
    return queue.get(None, ibmmq.MD(), gmo)


def _put_from_another_connection(name: str, data: bytes, syncpoint: bool = False):
    qmgr = ibmmq.connect("QM1")
    queue = ibmmq.Queue(qmgr, name, CMQC.MQOO_OUTPUT)
    queue.put(data, ibmmq.MD(), ibmmq.PMO(Options=CMQC.MQPMO_SYNCPOINT if syncpoint else CMQC.MQPMO_NO_SYNCPOINT))
    return qmgr


def test_a_waiting_get_receives_a_message_another_thread_puts_while_it_waits(ibmmq_emulator):
    ibmmq_emulator.define_queue("APP.IN")
    queue = ibmmq.Queue(ibmmq.connect("QM1"), "APP.IN", CMQC.MQOO_INPUT_SHARED)
    started = time.monotonic()
    _later(0.3, lambda: _put_from_another_connection("APP.IN", b"late"))
    assert _waiting_get(queue, 5000) == b"late"
    assert 0.25 <= time.monotonic() - started < 4


def test_an_unlimited_wait_waits_for_the_message(ibmmq_emulator):
    ibmmq_emulator.define_queue("APP.IN")
    queue = ibmmq.Queue(ibmmq.connect("QM1"), "APP.IN", CMQC.MQOO_INPUT_SHARED)
    _later(0.2, lambda: _put_from_another_connection("APP.IN", b"at last"))
    assert _waiting_get(queue, CMQC.MQWI_UNLIMITED) == b"at last"


def test_a_wait_that_ends_empty_is_no_msg_available_after_its_interval(ibmmq_emulator):
    ibmmq_emulator.define_queue("APP.IN")
    queue = ibmmq.Queue(ibmmq.connect("QM1"), "APP.IN", CMQC.MQOO_INPUT_SHARED)
    started = time.monotonic()
    with pytest.raises(ibmmq.MQMIError) as empty:
        _waiting_get(queue, 300)
    assert empty.value.reason == CMQC.MQRC_NO_MSG_AVAILABLE
    assert time.monotonic() - started >= 0.29


def test_a_waiting_get_sees_a_message_only_once_its_put_is_committed(ibmmq_emulator):
    ibmmq_emulator.define_queue("APP.IN")
    queue = ibmmq.Queue(ibmmq.connect("QM1"), "APP.IN", CMQC.MQOO_INPUT_SHARED)
    putter = _put_from_another_connection("APP.IN", b"committed later", syncpoint=True)
    with pytest.raises(ibmmq.MQMIError) as invisible:
        _waiting_get(queue, 200)
    assert invisible.value.reason == CMQC.MQRC_NO_MSG_AVAILABLE
    _later(0.2, putter.commit)
    assert _waiting_get(queue, 5000) == b"committed later"


def test_a_backout_makes_the_message_available_to_a_waiting_get(ibmmq_emulator):
    ibmmq_emulator.define_queue("APP.IN")
    _put_from_another_connection("APP.IN", b"returned")
    taker = ibmmq.connect("QM1")
    taken = ibmmq.Queue(taker, "APP.IN", CMQC.MQOO_INPUT_SHARED)
    taken.get(None, ibmmq.MD(), ibmmq.GMO(Options=CMQC.MQGMO_SYNCPOINT))
    waiter = ibmmq.Queue(ibmmq.connect("QM1"), "APP.IN", CMQC.MQOO_INPUT_SHARED)
    _later(0.2, taker.backout)
    assert _waiting_get(waiter, 5000) == b"returned"


def test_a_responder_thread_answers_requests_with_waiting_gets(ibmmq_emulator):
    ibmmq_emulator.define_queue("APP.REQUEST")
    ibmmq_emulator.define_queue("APP.REPLY")

    def responder() -> None:
        qmgr = ibmmq.connect("QM1")
        requests = ibmmq.Queue(qmgr, "APP.REQUEST", CMQC.MQOO_INPUT_SHARED)
        for _ in range(20):
            md = ibmmq.MD()
            data = requests.get(None, md, ibmmq.GMO(Options=CMQC.MQGMO_WAIT, WaitInterval=10_000))
            reply = ibmmq.MD(CorrelId=md.MsgId, MsgType=CMQC.MQMT_REPLY)
            ibmmq.Queue(qmgr, md.ReplyToQ.strip(), CMQC.MQOO_OUTPUT).put(data.upper(), reply)
        qmgr.disconnect()

    thread = threading.Thread(target=responder, daemon=True)
    thread.start()
    qmgr = ibmmq.connect("QM1")
    requests = ibmmq.Queue(qmgr, "APP.REQUEST", CMQC.MQOO_OUTPUT)
    replies = ibmmq.Queue(qmgr, "APP.REPLY", CMQC.MQOO_INPUT_SHARED)
    for index in range(20):
        md = ibmmq.MD(ReplyToQ=b"APP.REPLY", MsgType=CMQC.MQMT_REQUEST)
        requests.put(b"request %d" % index, md)
        answer = ibmmq.MD(CorrelId=md.MsgId)
        gmo = ibmmq.GMO(Options=CMQC.MQGMO_WAIT, WaitInterval=10_000, MatchOptions=CMQC.MQMO_MATCH_CORREL_ID)
        assert replies.get(None, answer, gmo) == b"REQUEST %d" % index
    thread.join(timeout=10)
    assert not thread.is_alive()


def test_real_time_puts_carry_the_wall_clocks_date():
    with emulated_mq(queues=("APP.IN",), real_time=True):
        queue = ibmmq.Queue(ibmmq.connect("QM1"), "APP.IN", CMQC.MQOO_OUTPUT)
        md = ibmmq.MD()
        queue.put(b"now", md)
    assert md.PutDate.decode() == time.strftime("%Y%m%d", time.gmtime())


def test_a_refused_feature_is_function_not_supported_and_named_in_the_log(ibmmq_emulator, caplog):
    qmgr = ibmmq.connect("QM1")
    with caplog.at_level(logging.WARNING, logger="mq_conformance.emulator"):
        with pytest.raises(ibmmq.MQMIError) as refused:
            qmgr.begin()  # global units of work (topics, refused here once, are publish/subscribe now)
    assert refused.value.reason == CMQC.MQRC_FUNCTION_NOT_SUPPORTED
    assert "MQBEGIN" in caplog.text and "2298" in caplog.text
