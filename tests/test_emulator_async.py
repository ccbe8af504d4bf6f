"""Asynchronous consumption (MQCB/MQCTL, emulator/async_consume.py; clause emulator.async-consume)
and MQSTAT of asynchronous puts (clause emulator.mqstat), through IBM's own ``ibmmq`` layer."""

from __future__ import annotations

import logging
import threading
import time

import pytest

from mq_conformance.emulator import EmulatorUnavailable, load_ibmmq

try:
    ibmmq = load_ibmmq()
except EmulatorUnavailable as exc:  # no wheel of IBM's ibmmq for this platform (pyproject.toml)
    pytest.skip(str(exc), allow_module_level=True)
CMQC = ibmmq.CMQC


class Calls:
    """What the callbacks were given: (CallType, Reason, message), and the threads they ran on."""

    def __init__(self):
        self.seen: list[tuple[int, int, bytes | None]] = []
        self.threads: set[str] = set()
        self.arrived = threading.Event()

    def __call__(self, **kwargs):
        cbc = kwargs["cbc"]
        msg = kwargs["msg"]
        self.seen.append((cbc.CallType, cbc.Reason, msg[:cbc.DataLength] if msg else None))
        self.threads.add(threading.current_thread().name)
        self.arrived.set()

    def wait_for(self, count: int, timeout: float = 5.0) -> None:
        deadline = time.monotonic() + timeout
        while len(self.seen) < count and time.monotonic() < deadline:
            time.sleep(0.01)
        assert len(self.seen) >= count, self.seen


def _consumer(queue, calls, gmo=None, options=0):
    cbd = ibmmq.CBD()
    cbd.CallbackFunction = calls
    cbd.CallbackType = CMQC.MQCBT_MESSAGE_CONSUMER
    cbd.Options = options
    queue.cb(operation=CMQC.MQOP_REGISTER, cbd=cbd, md=ibmmq.MD(),
             gmo=gmo or ibmmq.GMO(Options=CMQC.MQGMO_NO_SYNCPOINT | CMQC.MQGMO_WAIT,
                                  WaitInterval=CMQC.MQWI_UNLIMITED))


def test_messages_are_delivered_to_the_consumer_on_a_thread_of_its_own(ibmmq_emulator):
    ibmmq_emulator.define_queue("APP.IN")
    qmgr = ibmmq.connect("QM1")
    queue = ibmmq.Queue(qmgr, "APP.IN", CMQC.MQOO_INPUT_SHARED)
    calls = Calls()
    _consumer(queue, calls)
    qmgr.ctl(CMQC.MQOP_START, ibmmq.CTLO())
    sender = ibmmq.connect("QM1")
    out = ibmmq.Queue(sender, "APP.IN", CMQC.MQOO_OUTPUT)
    for text in (b"one", b"two", b"three"):
        out.put(text)
    calls.wait_for(3)
    qmgr.ctl(CMQC.MQOP_STOP, ibmmq.CTLO())
    assert calls.seen == [(CMQC.MQCBCT_MSG_REMOVED, 0, b"one"), (CMQC.MQCBCT_MSG_REMOVED, 0, b"two"),
                          (CMQC.MQCBCT_MSG_REMOVED, 0, b"three")]
    assert threading.current_thread().name not in calls.threads
    assert ibmmq_emulator.depth("APP.IN") == 0
    out.put(b"after stop")  # a stopped connection consumes nothing
    time.sleep(0.3)
    assert len(calls.seen) == 3 and ibmmq_emulator.depth("APP.IN") == 1


def test_suspend_and_resume_pause_a_consumer(ibmmq_emulator):
    ibmmq_emulator.define_queue("APP.IN")
    qmgr = ibmmq.connect("QM1")
    queue = ibmmq.Queue(qmgr, "APP.IN", CMQC.MQOO_INPUT_SHARED)
    calls = Calls()
    _consumer(queue, calls)
    queue.cb(operation=CMQC.MQOP_SUSPEND)
    qmgr.ctl(CMQC.MQOP_START, ibmmq.CTLO())
    ibmmq.Queue(ibmmq.connect("QM1"), "APP.IN", CMQC.MQOO_OUTPUT).put(b"held")
    time.sleep(0.3)
    assert calls.seen == [] and ibmmq_emulator.depth("APP.IN") == 1
    queue.cb(operation=CMQC.MQOP_RESUME)
    calls.wait_for(1)
    qmgr.ctl(CMQC.MQOP_STOP, ibmmq.CTLO())
    assert calls.seen == [(CMQC.MQCBCT_MSG_REMOVED, 0, b"held")]


def test_a_wait_that_ends_without_a_message_is_an_event_call_with_no_msg_available(ibmmq_emulator):
    ibmmq_emulator.define_queue("APP.IN")
    qmgr = ibmmq.connect("QM1")
    queue = ibmmq.Queue(qmgr, "APP.IN", CMQC.MQOO_INPUT_SHARED)
    calls = Calls()
    _consumer(queue, calls, ibmmq.GMO(Options=CMQC.MQGMO_NO_SYNCPOINT | CMQC.MQGMO_WAIT, WaitInterval=200),
              options=CMQC.MQCBDO_START_CALL | CMQC.MQCBDO_STOP_CALL)
    qmgr.ctl(CMQC.MQOP_START, ibmmq.CTLO())
    calls.wait_for(2)
    qmgr.ctl(CMQC.MQOP_STOP, ibmmq.CTLO())
    assert calls.seen[0] == (CMQC.MQCBCT_START_CALL, 0, None)
    assert calls.seen[1] == (CMQC.MQCBCT_EVENT_CALL, CMQC.MQRC_NO_MSG_AVAILABLE, None)
    assert calls.seen[-1] == (CMQC.MQCBCT_STOP_CALL, 0, None)


def test_start_wait_delivers_on_the_callers_thread_until_a_callback_stops_it(ibmmq_emulator):
    ibmmq_emulator.define_queue("APP.IN")
    qmgr = ibmmq.connect("QM1")
    queue = ibmmq.Queue(qmgr, "APP.IN", CMQC.MQOO_INPUT_SHARED)
    ibmmq.Queue(ibmmq.connect("QM1"), "APP.IN", CMQC.MQOO_OUTPUT).put(b"last")
    seen = []

    def stop_after_one(**kwargs):
        seen.append((kwargs["msg"], threading.current_thread().name))
        kwargs["queue_manager"].ctl(CMQC.MQOP_STOP, ibmmq.CTLO())

    _consumer(queue, stop_after_one)
    qmgr.ctl(CMQC.MQOP_START_WAIT, ibmmq.CTLO())
    assert seen == [(b"last", threading.current_thread().name)]


def test_start_wait_without_an_active_consumer_is_no_callbacks_active(ibmmq_emulator):
    qmgr = ibmmq.connect("QM1")
    with pytest.raises(ibmmq.MQMIError) as none:
        qmgr.ctl(CMQC.MQOP_START_WAIT, ibmmq.CTLO())
    assert none.value.reason == CMQC.MQRC_NO_CALLBACKS_ACTIVE


def test_deregistering_a_handle_without_a_callback_is_callback_not_registered(ibmmq_emulator):
    ibmmq_emulator.define_queue("APP.IN")
    queue = ibmmq.Queue(ibmmq.connect("QM1"), "APP.IN", CMQC.MQOO_INPUT_SHARED)
    with pytest.raises(ibmmq.MQMIError) as missing:
        queue.cb(operation=CMQC.MQOP_DEREGISTER)
    assert missing.value.reason == CMQC.MQRC_CALLBACK_NOT_REGISTERED
    cbd = ibmmq.CBD()
    cbd.CallbackFunction = Calls()
    cbd.CallbackType = 7
    with pytest.raises(ibmmq.MQMIError) as bad:
        queue.cb(operation=CMQC.MQOP_REGISTER, cbd=cbd)
    assert bad.value.reason == CMQC.MQRC_CALLBACK_TYPE_ERROR


def test_register_and_deregister_calls_frame_an_event_handler(ibmmq_emulator):
    qmgr = ibmmq.connect("QM1")
    calls = Calls()
    cbd = ibmmq.CBD()
    cbd.CallbackFunction = calls
    cbd.CallbackType = CMQC.MQCBT_EVENT_HANDLER
    cbd.Options = CMQC.MQCBDO_REGISTER_CALL | CMQC.MQCBDO_DEREGISTER_CALL
    qmgr.cb(operation=CMQC.MQOP_REGISTER, cbd=cbd)
    qmgr.cb(operation=CMQC.MQOP_DEREGISTER, cbd=cbd)
    assert [call for call, _, _ in calls.seen] == [CMQC.MQCBCT_REGISTER_CALL, CMQC.MQCBCT_DEREGISTER_CALL]


def test_mqstat_counts_the_asynchronous_puts_since_the_last_mqstat(ibmmq_emulator):
    ibmmq_emulator.define_queue("APP.OUT", MaxQDepth=2)
    qmgr = ibmmq.connect("QM1")
    queue = ibmmq.Queue(qmgr, "APP.OUT", CMQC.MQOO_OUTPUT)
    pmo = ibmmq.PMO(Options=CMQC.MQPMO_ASYNC_RESPONSE | CMQC.MQPMO_NO_SYNCPOINT)
    queue.put(b"1", ibmmq.MD(), pmo)
    queue.put(b"2", ibmmq.MD(), pmo)
    queue.put(b"3", ibmmq.MD(), pmo)  # the queue is full: not told by the put, by MQSTAT
    assert ibmmq_emulator.depth("APP.OUT") == 2
    status = qmgr.stat(CMQC.MQSTAT_TYPE_ASYNC_ERROR)
    assert (status.PutSuccessCount, status.PutWarningCount, status.PutFailureCount) == (2, 0, 1)
    assert (status.CompCode, status.Reason) == (CMQC.MQCC_FAILED, CMQC.MQRC_Q_FULL)
    assert status.ObjectName.strip() == b"APP.OUT"
    again = qmgr.stat(CMQC.MQSTAT_TYPE_ASYNC_ERROR)
    assert (again.PutSuccessCount, again.PutFailureCount, again.Reason) == (0, 0, 0)


def test_mqstat_of_reconnection_is_function_not_supported_and_named(ibmmq_emulator, caplog):
    qmgr = ibmmq.connect("QM1")
    with caplog.at_level(logging.WARNING, logger="mq_conformance.emulator"):
        with pytest.raises(ibmmq.MQMIError) as refused:
            qmgr.stat(CMQC.MQSTAT_TYPE_RECONNECTION)
    assert refused.value.reason == CMQC.MQRC_FUNCTION_NOT_SUPPORTED and "reconnection" in caplog.text


def test_a_get_with_set_signal_that_would_wait_is_function_not_supported_and_named(ibmmq_emulator, caplog):
    ibmmq_emulator.define_queue("APP.IN")
    queue = ibmmq.Queue(ibmmq.connect("QM1"), "APP.IN", CMQC.MQOO_INPUT_SHARED | CMQC.MQOO_OUTPUT)
    with caplog.at_level(logging.WARNING, logger="mq_conformance.emulator"):
        with pytest.raises(ibmmq.MQMIError) as refused:
            queue.get(None, ibmmq.MD(), ibmmq.GMO(Options=CMQC.MQGMO_SET_SIGNAL))
    assert refused.value.reason == CMQC.MQRC_FUNCTION_NOT_SUPPORTED and "MQGMO_SET_SIGNAL" in caplog.text
    queue.put(b"here")  # a message there: the get takes it, no signal is needed
    assert queue.get(None, ibmmq.MD(), ibmmq.GMO(Options=CMQC.MQGMO_SET_SIGNAL)) == b"here"


def test_a_synchronous_put_still_fails_at_once_and_is_not_counted(ibmmq_emulator):
    ibmmq_emulator.define_queue("APP.OUT", InhibitPut="MQQA_PUT_INHIBITED")
    qmgr = ibmmq.connect("QM1")
    queue = ibmmq.Queue(qmgr, "APP.OUT", CMQC.MQOO_OUTPUT)
    with pytest.raises(ibmmq.MQMIError) as inhibited:
        queue.put(b"now")
    assert inhibited.value.reason == CMQC.MQRC_PUT_INHIBITED
    status = qmgr.stat(CMQC.MQSTAT_TYPE_ASYNC_ERROR)
    assert (status.PutSuccessCount, status.PutFailureCount, status.CompCode) == (0, 0, CMQC.MQCC_OK)
