"""The emulated command server's status commands, with the emulator's own figures (emulator/pcf_status.py,
emulator/statistics.py): Inquire Channel Status (clause emulator.channel-status), Inquire Queue Manager Status
(emulator.qmgr-status), Reset Queue Statistics (emulator.reset-q-stats, IBM's "MQCMD_RESET_Q_STATS (Reset Queue
Statistics) Response"), Inquire Queue Status of handles (emulator.queue-handle-status), topic objects and their
status (emulator.topic-admin) and subscription status (emulator.sub-status), through IBM's own PCFExecute."""

from __future__ import annotations

import pytest

from mq_conformance.emulator import EmulatorUnavailable, load_ibmmq

try:
    ibmmq = load_ibmmq()
except EmulatorUnavailable as exc:  # no wheel of IBM's ibmmq for this platform (pyproject.toml)
    pytest.skip(str(exc), allow_module_level=True)
CMQC, CMQCFC, CMQXC = ibmmq.CMQC, ibmmq.CMQCFC, ibmmq.CMQXC


@pytest.fixture
def pcf(ibmmq_emulator):
    ibmmq_emulator.developer()
    qmgr = ibmmq.connect("QM1", "DEV.APP.SVRCONN", "localhost(1414)")
    yield ibmmq.PCFExecute(qmgr)
    qmgr.disconnect()


def test_reset_q_stats_counts_puts_and_gets_since_the_last_reset_then_starts_again(pcf, ibmmq_emulator):
    """MsgEnqCount counts puts even uncommitted and backed out; MsgDeqCount non-browse gets; HighQDepth the peak
    (emulator.reset-q-stats)."""
    qmgr = ibmmq.connect("QM1")
    queue = ibmmq.Queue(qmgr, "DEV.QUEUE.1", CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_SHARED | CMQC.MQOO_BROWSE)
    for data in (b"a", b"b", b"c"):
        queue.put(data)
    queue.put(b"backed out", ibmmq.MD(), ibmmq.PMO(Options=CMQC.MQPMO_SYNCPOINT))
    qmgr.backout()
    queue.get(None, ibmmq.MD(), ibmmq.GMO(Options=CMQC.MQGMO_BROWSE_FIRST))
    queue.get()
    ibmmq_emulator.advance_clock(5_000)
    [first] = pcf.MQCMD_RESET_Q_STATS({CMQC.MQCA_Q_NAME: b"DEV.QUEUE.1"})
    assert first[CMQC.MQCA_Q_NAME] == b"DEV.QUEUE.1".ljust(48)
    assert (first[CMQC.MQIA_MSG_ENQ_COUNT], first[CMQC.MQIA_MSG_DEQ_COUNT], first[CMQC.MQIA_HIGH_Q_DEPTH]) == (4, 1, 4)
    assert first[CMQC.MQIA_TIME_SINCE_RESET] >= 5
    [second] = pcf.MQCMD_RESET_Q_STATS({CMQC.MQCA_Q_NAME: b"DEV.QUEUE.1"})
    assert (second[CMQC.MQIA_MSG_ENQ_COUNT], second[CMQC.MQIA_MSG_DEQ_COUNT], second[CMQC.MQIA_HIGH_Q_DEPTH]) == (0, 0, 2)
    queue.close()
    qmgr.disconnect()


def test_reset_q_stats_of_a_generic_name_answers_each_local_queue_and_refuses_other_types(pcf):
    answers = pcf.MQCMD_RESET_Q_STATS({CMQC.MQCA_Q_NAME: b"DEV.QUEUE.*"})
    assert [a[CMQC.MQCA_Q_NAME].strip() for a in answers] == [b"DEV.QUEUE.1", b"DEV.QUEUE.2", b"DEV.QUEUE.3"]
    with pytest.raises(ibmmq.MQMIError) as model:
        pcf.MQCMD_RESET_Q_STATS({CMQC.MQCA_Q_NAME: b"DEV.APP.MODEL.QUEUE"})
    assert model.value.reason == CMQCFC.MQRCCF_Q_WRONG_TYPE


def test_channel_status_shows_each_client_connection_blank_padded(pcf):
    """One RUNNING server-connection instance per client connection; channel strings padded to their lengths as
    IBM's replies are (emulator.channel-status)."""
    answers = pcf.MQCMD_INQUIRE_CHANNEL_STATUS({CMQCFC.MQCACH_CHANNEL_NAME: b"DEV.*",
                                                CMQCFC.MQIACH_CHANNEL_INSTANCE_ATTRS: [CMQCFC.MQIACF_ALL]})
    [answer] = answers
    assert answer[CMQCFC.MQCACH_CHANNEL_NAME] == b"DEV.APP.SVRCONN".ljust(20)
    assert answer[CMQCFC.MQIACH_CHANNEL_TYPE] == CMQXC.MQCHT_SVRCONN
    assert answer[CMQCFC.MQIACH_CHANNEL_STATUS] == CMQCFC.MQCHS_RUNNING
    assert answer[CMQCFC.MQCACH_CONNECTION_NAME] == b"localhost(1414)".ljust(264)
    assert len(answer[CMQCFC.MQCACH_CHANNEL_START_DATE]) == 12 and CMQCFC.MQIACH_MSGS in answer
    with pytest.raises(ibmmq.MQMIError) as none:
        pcf.MQCMD_INQUIRE_CHANNEL_STATUS({CMQCFC.MQCACH_CHANNEL_NAME: b"DEV.ADMIN.SVRCONN"})
    assert none.value.reason == CMQCFC.MQRCCF_CHL_STATUS_NOT_FOUND


def test_channel_definitions_come_back_blank_padded(pcf):
    [answer] = pcf.MQCMD_INQUIRE_CHANNEL({CMQCFC.MQCACH_CHANNEL_NAME: b"DEV.APP.SVRCONN"})
    assert answer[CMQCFC.MQCACH_CHANNEL_NAME] == b"DEV.APP.SVRCONN".ljust(20)
    assert answer[CMQCFC.MQCACH_DESC] == b" " * 64


def test_qmgr_status_counts_the_connections(pcf):
    [status] = pcf.MQCMD_INQUIRE_Q_MGR_STATUS()
    assert status[CMQC.MQCA_Q_MGR_NAME].strip() == b"QM1"
    assert status[CMQCFC.MQIACF_Q_MGR_STATUS] == CMQCFC.MQQMSTA_RUNNING
    assert status[CMQCFC.MQIACF_CONNECTION_COUNT] == 1
    assert status[CMQCFC.MQIACF_CMD_SERVER_STATUS] == CMQC.MQSVC_STATUS_RUNNING


def test_queue_status_of_handles_names_each_handle_and_its_owner(pcf):
    """emulator.queue-handle-status: one response per handle open on the queue."""
    qmgr = ibmmq.connect("QM1", "DEV.APP.SVRCONN", "host(1)")
    reader = ibmmq.Queue(qmgr, "DEV.QUEUE.2", CMQC.MQOO_INPUT_EXCLUSIVE | CMQC.MQOO_BROWSE)
    writer = ibmmq.Queue(qmgr, "DEV.QUEUE.2", CMQC.MQOO_OUTPUT)
    writer.put(b"x")
    answers = pcf.MQCMD_INQUIRE_Q_STATUS({CMQC.MQCA_Q_NAME: b"DEV.QUEUE.2",
                                          CMQCFC.MQIACF_Q_STATUS_TYPE: CMQCFC.MQIACF_Q_HANDLE})
    assert len(answers) == 2
    by_input = {a[CMQCFC.MQIACF_OPEN_INPUT_TYPE]: a for a in answers}
    assert by_input[CMQCFC.MQQSO_EXCLUSIVE][CMQCFC.MQIACF_OPEN_BROWSE] == CMQCFC.MQQSO_YES
    assert by_input[CMQCFC.MQQSO_NO][CMQCFC.MQIACF_OPEN_OUTPUT] == CMQCFC.MQQSO_YES
    assert all(a[CMQCFC.MQCACH_CONNECTION_NAME].strip() == b"host(1)" for a in answers)
    [status] = pcf.MQCMD_INQUIRE_Q_STATUS({CMQC.MQCA_Q_NAME: b"DEV.QUEUE.2"})
    assert status[CMQCFC.MQCACF_LAST_PUT_DATE].strip() and not status[CMQCFC.MQCACF_LAST_GET_DATE].strip()
    reader.close()
    writer.close()
    qmgr.disconnect()


def test_topic_objects_are_defined_inquired_and_their_status_shown(pcf):
    """emulator.topic-admin: Create, Inquire, Inquire Names, Topic Status, Delete."""
    pcf.MQCMD_CREATE_TOPIC({CMQC.MQCA_TOPIC_NAME: b"APP.PRICES", CMQC.MQCA_TOPIC_STRING: b"app/prices",
                            CMQC.MQCA_TOPIC_DESC: b"prices"})
    [topic] = pcf.MQCMD_INQUIRE_TOPIC({CMQC.MQCA_TOPIC_NAME: b"APP.PRICES"})
    assert topic[CMQC.MQCA_TOPIC_STRING].strip() == b"app/prices" and topic[CMQC.MQCA_TOPIC_DESC].strip() == b"prices"
    [names] = pcf.MQCMD_INQUIRE_TOPIC_NAMES({CMQC.MQCA_TOPIC_NAME: b"*"})
    assert [n.strip() for n in names[CMQCFC.MQCACF_TOPIC_NAMES]] == [b"APP.PRICES", b"DEV.BASE.TOPIC", b"SYSTEM.BASE.TOPIC"]
    [status] = pcf.MQCMD_INQUIRE_TOPIC_STATUS({CMQC.MQCA_TOPIC_STRING: b"app/prices"})
    assert status[CMQC.MQCA_ADMIN_TOPIC_NAME].strip() == b"APP.PRICES" and status[CMQC.MQIA_SUB_COUNT] == 0
    with pytest.raises(ibmmq.MQMIError) as exists:
        pcf.MQCMD_CREATE_TOPIC({CMQC.MQCA_TOPIC_NAME: b"APP.PRICES", CMQC.MQCA_TOPIC_STRING: b"x"})
    assert exists.value.reason == CMQCFC.MQRCCF_OBJECT_ALREADY_EXISTS
    pcf.MQCMD_DELETE_TOPIC({CMQC.MQCA_TOPIC_NAME: b"APP.PRICES"})
    with pytest.raises(ibmmq.MQMIError) as gone:
        pcf.MQCMD_INQUIRE_TOPIC({CMQC.MQCA_TOPIC_NAME: b"APP.PRICES"})
    assert gone.value.reason == CMQC.MQRC_UNKNOWN_OBJECT_NAME


def test_subscription_status_names_the_active_connection(pcf):
    """emulator.sub-status."""
    qmgr = ibmmq.connect("QM1")
    sd = ibmmq.SD(Options=CMQC.MQSO_CREATE | CMQC.MQSO_MANAGED | CMQC.MQSO_DURABLE)
    sd.set_vs("ObjectString", "app/news")
    sd.set_vs("SubName", "APP.NEWS.SUB")
    sub = ibmmq.Subscription(qmgr)
    sub.sub(sub_desc=sd)
    [status] = pcf.MQCMD_INQUIRE_SUB_STATUS({CMQCFC.MQCACF_SUB_NAME: b"APP.NEWS.SUB"})
    assert status[CMQCFC.MQIACF_DURABLE_SUBSCRIPTION] == CMQC.MQSUB_DURABLE_YES
    assert status[CMQCFC.MQBACF_CONNECTION_ID].strip(b"\0")
    sub.close(sub_close_options=CMQC.MQCO_REMOVE_SUB, close_sub_queue=True)
    qmgr.disconnect()
