"""Publish/subscribe through IBM's own ``ibmmq`` classes (Topic, Subscription, SD, SRO) over the emulated native
module (emulator/pubsub.py): written against IBM's API only, as an application's tests would be."""

from __future__ import annotations

import pytest

from mq_conformance.emulator import EmulatorUnavailable, load_ibmmq

try:
    ibmmq = load_ibmmq()
except EmulatorUnavailable as exc:  # no wheel of IBM's ibmmq for this platform (pyproject.toml)
    pytest.skip(str(exc), allow_module_level=True)

CMQC = ibmmq.CMQC
pytestmark = pytest.mark.capability("pubsub")


def _subscribe(qmgr, topic_string: str, options: int, name: str | None = None):
    sd = ibmmq.SD()
    sd.Options = options
    sd.set_vs("ObjectString", topic_string)
    if name:
        sd.set_vs("SubName", name)
    sub = ibmmq.Subscription(qmgr)
    sub.sub(sub_desc=sd)
    return sub, sd


def _no_wait() -> ibmmq.GMO:
    return ibmmq.GMO(Options=CMQC.MQGMO_NO_WAIT, MatchOptions=CMQC.MQMO_NONE)


def test_a_managed_subscriber_gets_what_a_topic_publishes(ibmmq_emulator):
    qmgr = ibmmq.connect("QM1")
    sub, sd = _subscribe(qmgr, "dev/", CMQC.MQSO_CREATE | CMQC.MQSO_MANAGED)
    topic = ibmmq.Topic(qmgr, topic_string="dev/")
    topic.open(open_opts=CMQC.MQOO_OUTPUT)
    topic.pub("Hello from Python!")
    md = ibmmq.MD()
    assert sub.get(None, md, _no_wait()) == b"Hello from Python!"
    assert md.CorrelId == sd.SubCorrelId and sd.SubCorrelId != CMQC.MQCI_NONE
    with pytest.raises(ibmmq.MQMIError) as empty:
        sub.get(None, ibmmq.MD(), _no_wait())
    assert empty.value.reason == CMQC.MQRC_NO_MSG_AVAILABLE
    topic.close()
    sub.close(sub_close_options=CMQC.MQCO_REMOVE_SUB, close_sub_queue=True)
    qmgr.disconnect()


def test_a_wildcard_subscription_on_an_application_queue_receives_matching_topics_only(ibmmq_emulator):
    ibmmq_emulator.define_queue("APP.SUBQ")
    qmgr = ibmmq.connect("QM1")
    queue = ibmmq.Queue(qmgr, "APP.SUBQ", CMQC.MQOO_INPUT_AS_Q_DEF)
    sd = ibmmq.SD(Options=CMQC.MQSO_CREATE)
    sd.set_vs("ObjectString", "Sports/+/Results")
    sub = ibmmq.Subscription(qmgr)
    sub.sub(sub_desc=sd, sub_queue=queue)
    for string, text in (("Sports/Football/Results", "2-1"), ("Sports/Golf/Open/Results", "-12"), ("News", "x")):
        ibmmq.Topic(qmgr, topic_string=string).pub(text)
    assert queue.get(None, ibmmq.MD(), _no_wait()) == b"2-1"
    with pytest.raises(ibmmq.MQMIError) as empty:
        queue.get(None, ibmmq.MD(), _no_wait())
    assert empty.value.reason == CMQC.MQRC_NO_MSG_AVAILABLE
    sub.close()
    qmgr.disconnect()


def test_a_durable_subscription_resumed_gets_what_was_published_meanwhile_and_asks_for_the_retained(ibmmq_emulator):
    qmgr = ibmmq.connect("QM1")
    options = CMQC.MQSO_CREATE | CMQC.MQSO_MANAGED | CMQC.MQSO_DURABLE
    sub, _sd = _subscribe(qmgr, "prices/widget", options, name="PRICES")
    sub.close(sub_close_options=CMQC.MQCO_KEEP_SUB, close_sub_queue=True)
    pmo = ibmmq.PMO(Options=CMQC.MQPMO_RETAIN)
    ibmmq.Topic(qmgr, topic_string="prices/widget").pub("10", ibmmq.MD(), pmo)
    resumed, _ = _subscribe(qmgr, "prices/widget", CMQC.MQSO_RESUME | CMQC.MQSO_MANAGED | CMQC.MQSO_DURABLE,
                            name="PRICES")
    assert resumed.get(None, ibmmq.MD(), _no_wait()) == b"10"
    sro = ibmmq.SRO()
    resumed.subrq(sro=sro)
    assert sro.NumPubs == 1
    assert resumed.get(None, ibmmq.MD(), _no_wait()) == b"10"
    resumed.close(sub_close_options=CMQC.MQCO_REMOVE_SUB, close_sub_queue=True)
    with pytest.raises(ibmmq.MQMIError) as gone:
        _subscribe(qmgr, "prices/widget", CMQC.MQSO_RESUME | CMQC.MQSO_MANAGED | CMQC.MQSO_DURABLE, name="PRICES")
    assert gone.value.reason == CMQC.MQRC_NO_SUBSCRIPTION


def test_publishing_a_message_in_a_group_is_refused_with_2417(ibmmq_emulator):
    qmgr = ibmmq.connect("QM1")
    topic = ibmmq.Topic(qmgr, topic_string="dev/")
    topic.open(open_opts=CMQC.MQOO_OUTPUT)
    with pytest.raises(ibmmq.MQMIError) as refused:
        topic.pub("part", ibmmq.MD(MsgFlags=CMQC.MQMF_MSG_IN_GROUP), ibmmq.PMO())
    assert refused.value.reason == CMQC.MQRC_MSG_NOT_ALLOWED_IN_GROUP
    topic.close()
    qmgr.disconnect()


def test_no_subscriber_warns_only_when_asked(ibmmq_emulator):
    qmgr = ibmmq.connect("QM1")
    topic = ibmmq.Topic(qmgr, topic_string="nobody/listens")
    topic.open(open_opts=CMQC.MQOO_OUTPUT)
    topic.pub("quiet")
    with pytest.raises(ibmmq.MQMIError) as warned:
        topic.pub("loud", ibmmq.MD(), ibmmq.PMO(Options=CMQC.MQPMO_WARN_IF_NO_SUBS_MATCHED))
    assert (warned.value.comp, warned.value.reason) == (CMQC.MQCC_WARNING, CMQC.MQRC_NO_SUBS_MATCHED)
    topic.close()
    qmgr.disconnect()


def test_pcf_defines_a_subscription_that_mqsub_resumes_and_pcf_inquires_and_deletes(ibmmq_emulator):
    qmgr = ibmmq.connect("QM1")
    pcf = ibmmq.PCFExecute(qmgr)
    CMQCFC = ibmmq.CMQCFC
    pcf.MQCMD_CREATE_SUBSCRIPTION({CMQCFC.MQCACF_SUB_NAME: b"ADMIN.SUB", CMQC.MQCA_TOPIC_STRING: b"admin/news",
                                   CMQCFC.MQIACF_DESTINATION_CLASS: CMQC.MQDC_MANAGED})
    with pytest.raises(ibmmq.MQMIError) as exists:
        pcf.MQCMD_CREATE_SUBSCRIPTION({CMQCFC.MQCACF_SUB_NAME: b"ADMIN.SUB", CMQC.MQCA_TOPIC_STRING: b"x",
                                       CMQCFC.MQIACF_DESTINATION_CLASS: CMQC.MQDC_MANAGED})
    assert exists.value.reason == CMQCFC.MQRCCF_SUB_ALREADY_EXISTS
    sub, sd = _subscribe(qmgr, "admin/news", CMQC.MQSO_RESUME, name="ADMIN.SUB")
    assert sd.Options & CMQC.MQSO_MANAGED and sd.Options & CMQC.MQSO_DURABLE  # what the resumed one is
    ibmmq.Topic(qmgr, topic_string="admin/news").pub("administered")
    assert sub.get(None, ibmmq.MD(), _no_wait()) == b"administered"
    (found,) = pcf.MQCMD_INQUIRE_SUBSCRIPTION({CMQCFC.MQCACF_SUB_NAME: b"ADMIN.*"})
    assert found[CMQC.MQCA_TOPIC_STRING].strip() == b"admin/news"
    sub_id = ibmmq.ByteString(found[CMQCFC.MQBACF_SUB_ID])
    with pytest.raises(ibmmq.MQMIError) as in_use:
        pcf.MQCMD_DELETE_SUBSCRIPTION({CMQCFC.MQBACF_SUB_ID: sub_id})
    assert in_use.value.reason == CMQCFC.MQRCCF_SUBSCRIPTION_IN_USE
    sub.close(close_sub_queue=True)
    pcf.MQCMD_DELETE_SUBSCRIPTION({CMQCFC.MQBACF_SUB_ID: sub_id})
    with pytest.raises(ibmmq.MQMIError) as gone:
        pcf.MQCMD_INQUIRE_SUBSCRIPTION({CMQCFC.MQCACF_SUB_NAME: b"ADMIN.*"})
    assert gone.value.reason == CMQC.MQRC_NO_SUBSCRIPTION
    qmgr.disconnect()
