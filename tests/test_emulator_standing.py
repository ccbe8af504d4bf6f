"""The emulated queue manager's standing objects and attributes (emulator/standing.py): what a new
queue manager has and shows beyond the model, from fixtures/emulator/standing-objects.yaml."""

from __future__ import annotations

import pytest

from mq_conformance.emulator import EmulatorUnavailable, load_ibmmq

try:
    ibmmq = load_ibmmq()
except EmulatorUnavailable as exc:  # no wheel of IBM's ibmmq for this platform (pyproject.toml)
    pytest.skip(str(exc), allow_module_level=True)
CMQC, CMQCFC = ibmmq.CMQC, ibmmq.CMQCFC


def test_the_queue_manager_shows_a_developer_queue_managers_attributes(ibmmq_emulator):
    """Clause emulator.qmgr-attributes."""
    qmgr = ibmmq.connect("QM1")
    assert qmgr.inquire(CMQC.MQCA_Q_MGR_NAME).strip() == b"QM1"
    assert qmgr.inquire(CMQC.MQIA_CODED_CHAR_SET_ID) == 1208
    assert qmgr.inquire(CMQC.MQIA_COMMAND_LEVEL) == CMQC.MQCMDL_LEVEL_945
    assert qmgr.inquire(CMQC.MQCA_VERSION).strip() == b"09040500"
    assert qmgr.inquire(CMQC.MQIA_PLATFORM) == CMQC.MQPL_UNIX
    assert qmgr.inquire(CMQC.MQCA_DEAD_LETTER_Q_NAME).strip() == b"SYSTEM.DEAD.LETTER.QUEUE"
    assert qmgr.inquire(CMQC.MQCA_COMMAND_INPUT_Q_NAME).strip() == b"SYSTEM.ADMIN.COMMAND.QUEUE"
    assert qmgr.inquire(CMQC.MQIA_MAX_HANDLES) == 256
    assert qmgr.inquire(CMQC.MQIA_MAX_PRIORITY) == 9
    assert qmgr.inquire(CMQC.MQIA_SYNCPOINT) == CMQC.MQSP_AVAILABLE
    assert qmgr.inquire(CMQC.MQIA_MAX_MSG_LENGTH) == 4_194_304  # the model's own value


def test_a_selector_the_queue_manager_does_not_have_is_a_selector_error(ibmmq_emulator):
    qmgr = ibmmq.connect("QM1")
    with pytest.raises(ibmmq.MQMIError) as refused:
        qmgr.inquire(CMQC.MQIA_CURRENT_Q_DEPTH)
    assert refused.value.reason == CMQC.MQRC_SELECTOR_ERROR


def test_a_new_queue_manager_has_its_default_objects(ibmmq_emulator):
    """Clause emulator.default-objects."""
    qmgr = ibmmq.connect("QM1")
    for name in ("SYSTEM.DEAD.LETTER.QUEUE", "SYSTEM.DEFAULT.LOCAL.QUEUE", "SYSTEM.ADMIN.COMMAND.QUEUE"):
        queue = ibmmq.Queue(qmgr, name, CMQC.MQOO_INQUIRE)
        assert queue.inquire(CMQC.MQIA_Q_TYPE) == CMQC.MQQT_LOCAL
        queue.close()
    dead = ibmmq.Queue(qmgr, "SYSTEM.DEAD.LETTER.QUEUE", CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_SHARED)
    dead.put(b"undeliverable")
    assert dead.get() == b"undeliverable"
    with pytest.raises(ibmmq.MQMIError) as no_target:  # an alias with no target, as MQ creates it
        ibmmq.Queue(qmgr, "SYSTEM.DEFAULT.ALIAS.QUEUE", CMQC.MQOO_OUTPUT)
    assert no_target.value.comp == CMQC.MQCC_FAILED
    assert set(ibmmq_emulator.queues) >= {"SYSTEM.DEFAULT.MODEL.QUEUE", "SYSTEM.DEFAULT.ALIAS.QUEUE"}


def test_a_queue_answers_the_attributes_the_model_keeps_no_rule_about(ibmmq_emulator):
    """Clause emulator.queue-attributes."""
    ibmmq_emulator.define_queue("APP.IN")
    qmgr = ibmmq.connect("QM1")
    queue = ibmmq.Queue(qmgr, "APP.IN", CMQC.MQOO_INQUIRE | CMQC.MQOO_SET)
    assert queue.inquire(CMQC.MQCA_Q_DESC).strip() == b""
    assert queue.inquire(CMQC.MQIA_Q_DEPTH_HIGH_LIMIT) == 80
    assert queue.inquire(CMQC.MQIA_USAGE) == CMQC.MQUS_NORMAL
    assert queue.inquire(CMQC.MQIA_DEF_BIND) == CMQC.MQBND_BIND_ON_OPEN
    assert len(queue.inquire(CMQC.MQCA_CREATION_DATE).strip()) == 10  # YYYY-MM-DD
    queue.set(CMQC.MQCA_TRIGGER_DATA, b"start the app")
    assert queue.inquire(CMQC.MQCA_TRIGGER_DATA).strip() == b"start the app"
    assert queue.inquire(CMQC.MQIA_MAX_Q_DEPTH) == 5000  # the model's attributes still answer
    queue.close()


def test_an_attribute_of_another_type_of_queue_is_a_warning_not_a_failure(ibmmq_emulator):
    ibmmq_emulator.define_queue("APP.IN")
    ibmmq_emulator.define_queue("APP.ALIAS", QType="MQQT_ALIAS", BaseQName="APP.IN")
    qmgr = ibmmq.connect("QM1")
    alias = ibmmq.Queue(qmgr, "APP.ALIAS", CMQC.MQOO_INQUIRE)
    assert alias.inquire(CMQC.MQIA_BASE_TYPE) == CMQC.MQOT_Q
    with pytest.raises(ibmmq.MQMIError) as warned:
        alias.inquire(CMQC.MQCA_TRIGGER_DATA)
    assert (warned.value.comp, warned.value.reason) == (CMQC.MQCC_WARNING, CMQC.MQRC_SELECTOR_NOT_FOR_TYPE)


def test_pcf_gives_and_changes_a_queues_description(ibmmq_emulator):
    qmgr = ibmmq.connect("QM1")
    pcf = ibmmq.PCFExecute(qmgr)
    pcf.MQCMD_CREATE_Q([ibmmq.CFST(Parameter=CMQC.MQCA_Q_NAME, String=b"APP.DESCRIBED"),
                        ibmmq.CFIN(Parameter=CMQC.MQIA_Q_TYPE, Value=CMQC.MQQT_LOCAL),
                        ibmmq.CFST(Parameter=CMQC.MQCA_Q_DESC, String=b"orders in")])
    queue = ibmmq.Queue(qmgr, "APP.DESCRIBED", CMQC.MQOO_INQUIRE)
    assert queue.inquire(CMQC.MQCA_Q_DESC).strip() == b"orders in"
    pcf.MQCMD_CHANGE_Q([ibmmq.CFST(Parameter=CMQC.MQCA_Q_NAME, String=b"APP.DESCRIBED"),
                        ibmmq.CFIN(Parameter=CMQC.MQIA_Q_TYPE, Value=CMQC.MQQT_LOCAL),
                        ibmmq.CFST(Parameter=CMQC.MQCA_Q_DESC, String=b"orders, all of them")])
    assert queue.inquire(CMQC.MQCA_Q_DESC).strip() == b"orders, all of them"


def test_a_new_queue_manager_has_ibms_system_queues(ibmmq_emulator):
    """emulator.default-objects: the queues of IBM's "System and default objects", SYSTEM.MQSC.REPLY.QUEUE a
    model queue; the dead-letter queue described as a real queue manager describes it; the developer
    configuration's authority records kept as messages on SYSTEM.AUTH.DATA.QUEUE (authority.records)."""
    queues = ibmmq_emulator.queues
    for name in ("SYSTEM.ADMIN.STATISTICS.QUEUE", "SYSTEM.ADMIN.ACCOUNTING.QUEUE", "SYSTEM.ADMIN.PERFM.EVENT",
                 "SYSTEM.AUTH.DATA.QUEUE", "SYSTEM.CHANNEL.INITQ", "SYSTEM.DURABLE.SUBSCRIBER.QUEUE"):
        assert queues[name].definition.QType == CMQC.MQQT_LOCAL
    assert queues["SYSTEM.MQSC.REPLY.QUEUE"].definition.QType == CMQC.MQQT_MODEL
    qmgr = ibmmq.connect("QM1")
    dead = ibmmq.Queue(qmgr, "SYSTEM.DEAD.LETTER.QUEUE", CMQC.MQOO_INQUIRE)
    assert dead.inquire(CMQC.MQCA_Q_DESC).strip() == b"IBM MQ Default Dead Letter Queue"
    assert ibmmq_emulator.depth("SYSTEM.AUTH.DATA.QUEUE") == 0
    ibmmq_emulator.developer()
    assert ibmmq_emulator.depth("SYSTEM.AUTH.DATA.QUEUE") == len(ibmmq_emulator.authority("QM1").records) == 3
    qmgr.disconnect()
