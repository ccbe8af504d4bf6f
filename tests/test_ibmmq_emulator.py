"""The model as an in-process IBM MQ for ``ibmmq`` applications (emulator/).

IBM's own Python layer (the ``ibmmq`` package: structures, packing, QueueManager, Queue) runs unchanged over the
emulated native module; these tests are written against IBM's API only, as an application's tests would be.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from mq_conformance.emulator import EmulatorUnavailable, emulated_mq, load_ibmmq, native
from mq_conformance.emulator.emulator import EmulatorError

try:
    ibmmq = load_ibmmq()
except EmulatorUnavailable as exc:  # no wheel of IBM's ibmmq for this platform (pyproject.toml)
    pytest.skip(str(exc), allow_module_level=True)
CMQC = ibmmq.CMQC


def _put_group(queue, parts: list[bytes]) -> bytes:
    group_id = b""
    for index, part in enumerate(parts):
        md = ibmmq.MD()
        md.MsgFlags = CMQC.MQMF_LAST_MSG_IN_GROUP if index == len(parts) - 1 else CMQC.MQMF_MSG_IN_GROUP
        queue.put(part, md, ibmmq.PMO(Options=CMQC.MQPMO_LOGICAL_ORDER | CMQC.MQPMO_SYNCPOINT))
        group_id = md.GroupId
    return group_id


def _get_logical(queue) -> tuple[bytes, ibmmq.MD, ibmmq.GMO]:
    md, gmo = ibmmq.MD(), ibmmq.GMO(
        Options=CMQC.MQGMO_LOGICAL_ORDER | CMQC.MQGMO_ALL_MSGS_AVAILABLE | CMQC.MQGMO_SYNCPOINT | CMQC.MQGMO_NO_WAIT,
        MatchOptions=CMQC.MQMO_NONE)
    return queue.get(None, md, gmo), md, gmo


def test_an_application_puts_and_gets_a_group_in_logical_order(ibmmq_emulator):
    ibmmq_emulator.define_queue("APP.ORDERS")
    qmgr = ibmmq.connect("QM1")
    queue = ibmmq.Queue(qmgr, "APP.ORDERS", CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_SHARED)
    group_id = _put_group(queue, [b"header", b"line 1", b"trailer"])
    qmgr.commit()

    received = []
    for _ in range(3):
        data, md, gmo = _get_logical(queue)
        received.append((data, md.MsgSeqNumber, gmo.GroupStatus, md.GroupId))
    qmgr.commit()
    assert received == [(b"header", 1, CMQC.MQGS_MSG_IN_GROUP, group_id),
                        (b"line 1", 2, CMQC.MQGS_MSG_IN_GROUP, group_id),
                        (b"trailer", 3, CMQC.MQGS_LAST_MSG_IN_GROUP, group_id)]

    with pytest.raises(ibmmq.MQMIError) as empty:
        _get_logical(queue)
    assert (empty.value.comp, empty.value.reason) == (CMQC.MQCC_FAILED, CMQC.MQRC_NO_MSG_AVAILABLE)

    md = ibmmq.MD(MsgFlags=CMQC.MQMF_MSG_IN_GROUP)  # a group left open...
    queue.put(b"orphan", md, ibmmq.PMO(Options=CMQC.MQPMO_LOGICAL_ORDER | CMQC.MQPMO_NO_SYNCPOINT))
    with pytest.raises(ibmmq.MQMIError) as warned:  # ...is reported when the queue is closed
        queue.close()
    assert (warned.value.comp, warned.value.reason) == (CMQC.MQCC_WARNING, CMQC.MQRC_INCOMPLETE_GROUP)
    assert warned.value.reason == 2241
    qmgr.disconnect()


def test_an_incomplete_group_is_not_available_with_all_msgs_available(ibmmq_emulator):
    ibmmq_emulator.define_queue("APP.Q")
    qmgr = ibmmq.connect("QM1")
    queue = ibmmq.Queue(qmgr, "APP.Q", CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_SHARED)
    md = ibmmq.MD(MsgFlags=CMQC.MQMF_MSG_IN_GROUP)
    queue.put(b"first of two", md, ibmmq.PMO(Options=CMQC.MQPMO_LOGICAL_ORDER | CMQC.MQPMO_NO_SYNCPOINT))
    assert ibmmq_emulator.depth("APP.Q") == 1
    with pytest.raises(ibmmq.MQMIError) as empty:
        _get_logical(queue)
    assert empty.value.reason == CMQC.MQRC_NO_MSG_AVAILABLE


def test_a_unit_of_work_backed_out_leaves_the_queue_as_it_was(ibmmq_emulator):
    ibmmq_emulator.define_queue("APP.Q")
    qmgr = ibmmq.QueueManager(None)
    qmgr.connect_with_options("QM1")
    queue = ibmmq.Queue(qmgr, "APP.Q", CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_SHARED)
    queue.put(b"kept", ibmmq.MD(), ibmmq.PMO(Options=CMQC.MQPMO_NO_SYNCPOINT))
    queue.get(None, ibmmq.MD(), ibmmq.GMO(Options=CMQC.MQGMO_SYNCPOINT))
    assert [data for _md, data in ibmmq_emulator.messages("APP.Q")] == [b"kept"]
    qmgr.backout()
    md = ibmmq.MD()
    assert queue.get(None, md, ibmmq.GMO(Options=CMQC.MQGMO_NO_SYNCPOINT)) == b"kept"
    assert md.BackoutCount == 1


def test_a_long_message_is_fetched_whole_by_ibmmqs_retry_after_truncation(ibmmq_emulator):
    ibmmq_emulator.define_queue("APP.Q")
    qmgr = ibmmq.connect("QM1")
    queue = ibmmq.Queue(qmgr, "APP.Q", CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_SHARED)
    body = bytes(range(256)) * 40  # longer than ibmmq's first 4096-byte buffer
    queue.put(body)
    assert queue.get() == body  # ibmmq sees MQRC_TRUNCATED_MSG_FAILED and gets again with the real length


def test_attributes_given_to_define_queue_are_what_the_application_meets(ibmmq_emulator):
    ibmmq_emulator.define_queue("APP.SMALL", MaxQDepth=1, InhibitGet="MQQA_GET_INHIBITED")
    qmgr = ibmmq.connect("QM1")
    queue = ibmmq.Queue(qmgr, "APP.SMALL", CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_SHARED | CMQC.MQOO_INQUIRE)
    assert queue.inquire([CMQC.MQIA_MAX_Q_DEPTH, CMQC.MQCA_Q_NAME]) == {
        CMQC.MQIA_MAX_Q_DEPTH: 1, CMQC.MQCA_Q_NAME: b"APP.SMALL".ljust(48)}
    queue.put(b"one")
    with pytest.raises(ibmmq.MQMIError) as full:
        queue.put(b"two")
    assert full.value.reason == CMQC.MQRC_Q_FULL
    with pytest.raises(ibmmq.MQMIError) as inhibited:
        queue.get()
    assert inhibited.value.reason == CMQC.MQRC_GET_INHIBITED


def test_the_queue_manager_answers_inquire_on_itself(ibmmq_emulator):
    qmgr = ibmmq.connect("QM1")
    assert qmgr.is_connected
    assert ibmmq.to_string(qmgr.inquire(CMQC.MQCA_Q_MGR_NAME)) == "QM1"


def test_the_clock_is_the_models_and_moves_only_when_told(ibmmq_emulator):
    before = ibmmq_emulator.clock.now_ms
    ibmmq_emulator.advance_clock(1500)
    assert ibmmq_emulator.clock.now_ms == before + 1500


def test_an_unknown_queue_manager_name_fails_as_mq_does(ibmmq_emulator):
    with pytest.raises(ibmmq.MQMIError) as failed:
        ibmmq.connect("NOSUCHQM")
    assert failed.value.reason == CMQC.MQRC_Q_MGR_NAME_ERROR


def test_without_an_active_emulator_there_is_no_queue_manager():
    with pytest.raises(ibmmq.MQMIError) as failed:
        ibmmq.connect("QM1")
    assert failed.value.reason == CMQC.MQRC_Q_MGR_NOT_AVAILABLE


def test_connections_left_open_end_with_the_emulator():
    with emulated_mq() as mq:
        mq.define_queue("Q")
        qmgr = ibmmq.connect("QM1")
    with pytest.raises(ibmmq.MQMIError) as failed:
        qmgr.commit()
    assert failed.value.reason == CMQC.MQRC_HCONN_ERROR


def test_unmodelled_verbs_say_function_not_supported(ibmmq_emulator):
    qmgr = ibmmq.connect("QM1")
    with pytest.raises(ibmmq.MQMIError) as failed:
        qmgr.begin()
    assert failed.value.reason == CMQC.MQRC_FUNCTION_NOT_SUPPORTED


def test_a_structure_of_the_wrong_size_is_refused_as_the_native_module_refuses_it(ibmmq_emulator):
    qmgr = ibmmq.connect("QM1")
    with pytest.raises(EmulatorError, match="MQOD wrong size"):
        native.MQOPEN(qmgr.get_handle(), b"OD  " + bytes(8), CMQC.MQOO_OUTPUT)


def _filled(cls_name: str) -> bytes:
    """IBM's structure with every field the model reads set away from its default (text padded with NULs and
    blanks, a format shorter than 8, a name of more than one word)."""
    values = {
        "MD": dict(Report=CMQC.MQRO_COA, MsgType=CMQC.MQMT_REQUEST, Expiry=300, Feedback=7, Encoding=273,
                   CodedCharSetId=819, Format=b"MQST\0\0\0\0", Priority=4, Persistence=1, MsgId=b"m" * 24,
                   CorrelId=b"c" * 24, BackoutCount=2, ReplyToQ=b"REPLY.Q".ljust(48, b"\0"),
                   ReplyToQMgr=b"QM2".ljust(48), UserIdentifier=b"app", AccountingToken=b"a" * 32,
                   PutApplName=b"my program", PutDate=b"20250102", PutTime=b"03040506", GroupId=b"g" * 24,
                   MsgSeqNumber=3, Offset=100, MsgFlags=CMQC.MQMF_MSG_IN_GROUP, OriginalLength=9, Version=2),
        "PMO": dict(Options=CMQC.MQPMO_SYNCPOINT | CMQC.MQPMO_NEW_MSG_ID, ResolvedQName=b"Q\0",
                    ResolvedQMgrName=b"QM1  "),
        "GMO": dict(Options=CMQC.MQGMO_WAIT, WaitInterval=250, ResolvedQName=b"R", MatchOptions=CMQC.MQMO_NONE,
                    GroupStatus=CMQC.MQGS_MSG_IN_GROUP, SegmentStatus=CMQC.MQSS_SEGMENT,
                    Segmentation=CMQC.MQSEG_ALLOWED, MsgToken=b"t" * 16, ReturnedLength=5, Version=4),
    }[cls_name]
    return getattr(ibmmq, cls_name)(**values).pack()


@pytest.mark.parametrize("cls_name", ["MD", "PMO", "GMO"])
@pytest.mark.parametrize("filled", [False, True], ids=["defaults", "every-field-set"])
def test_the_per_message_codec_converts_as_the_field_by_field_conversion_does(ibmmq_emulator, cls_name, filled):
    from mq_conformance.emulator import emulator as em
    from mq_conformance.reference.calls import STRUCTURES

    model_cls, kinds = STRUCTURES[cls_name]
    raw = _filled(cls_name) if filled else getattr(ibmmq, cls_name)().pack()
    codec = em.codec(cls_name)
    values, decoded = codec.decode(raw)
    record = em.unpack(cls_name, raw, cls_name)
    assert decoded == em.to_model(record, kinds, model_cls())
    answer = em.to_model(em.unpack(cls_name, _filled(cls_name), cls_name), kinds, model_cls())
    if cls_name == "MD":
        answer.Format = "MQHRF2  "  # a model value that differs from the caller's
    assert codec.encode(values, answer) == em.from_model(answer, kinds, record).pack()
    assert codec.repack(values) == raw
    # the same bytes again (remembered): an equal structure of the call's own, which the model may change
    again = codec.decode(raw)[1]
    assert again == decoded and again is not decoded
    again.Version = 99
    assert codec.decode(raw)[1] == decoded


def test_the_per_message_codec_refuses_a_wrong_size_as_unpack_does(ibmmq_emulator):
    from mq_conformance.emulator import emulator as em

    with pytest.raises(EmulatorError, match="MQMD wrong size. Given: 3"):
        em.codec("MD").decode(b"MD ")
    with pytest.raises(EmulatorError, match="MQGMO: expected the packed structure as bytes, not str"):
        em.codec("GMO").decode("GMO")


def test_ibmmq_is_bound_to_the_emulated_native_module():
    assert ibmmq.ibmmqc is native
    assert ibmmq.__c_version__ == ibmmq.__py_version__


# -- the command server: PCF through IBM's PCFExecute ------------------------------------------------------------

def _queue(name: str, parameters: dict | None = None) -> dict:
    return {CMQC.MQCA_Q_NAME: name.encode(), CMQC.MQIA_Q_TYPE: CMQC.MQQT_LOCAL, **(parameters or {})}


def test_pcf_creates_changes_and_deletes_a_local_queue(ibmmq_emulator):
    qmgr = ibmmq.connect("QM1")
    pcf = ibmmq.PCFExecute(qmgr)
    assert pcf.MQCMD_CREATE_Q(_queue("APP.NEW", {CMQC.MQIA_MAX_Q_DEPTH: 3})) == []
    assert ibmmq_emulator.queues["APP.NEW"].definition.MaxQDepth == 3
    pcf.MQCMD_CHANGE_Q(_queue("APP.NEW", {CMQC.MQIA_INHIBIT_PUT: CMQC.MQQA_PUT_INHIBITED}))
    definition = ibmmq_emulator.queues["APP.NEW"].definition
    assert (definition.MaxQDepth, definition.InhibitPut) == (3, True)
    pcf.MQCMD_DELETE_Q({CMQC.MQCA_Q_NAME: b"APP.NEW"})
    assert "APP.NEW" not in ibmmq_emulator.queues
    reply_queue = ibmmq.to_string(pcf.reply_queue_name)
    assert reply_queue.startswith("PYMQPCF.") and reply_queue in ibmmq_emulator.queues
    pcf.disconnect()
    assert reply_queue not in ibmmq_emulator.queues  # a temporary dynamic queue goes when it is closed


@pytest.mark.parametrize("command, parameters, reason", [
    ("MQCMD_CREATE_Q", _queue("APP.Q"), "MQRCCF_OBJECT_ALREADY_EXISTS"),
    ("MQCMD_CHANGE_Q", _queue("NO.SUCH.Q"), "MQRC_UNKNOWN_OBJECT_NAME"),
    ("MQCMD_DELETE_Q", {CMQC.MQCA_Q_NAME: b"NO.SUCH.Q"}, "MQRC_UNKNOWN_OBJECT_NAME"),
    ("MQCMD_CREATE_Q", _queue("APP.R", {CMQC.MQIA_Q_TYPE: CMQC.MQQT_CLUSTER}), "MQRCCF_Q_TYPE_ERROR"),
    ("MQCMD_CHANGE_Q", _queue("APP.Q", {CMQC.MQIA_Q_TYPE: CMQC.MQQT_ALIAS}), "MQRCCF_Q_WRONG_TYPE"),
    ("MQCMD_CREATE_Q", _queue("APP.R", {CMQC.MQIA_CURRENT_Q_DEPTH: 1}), "MQRCCF_CFIN_PARM_ID_ERROR"),
    ("MQCMD_CREATE_Q", {CMQC.MQIA_Q_TYPE: CMQC.MQQT_LOCAL}, "MQRCCF_PARM_MISSING"),
    ("MQCMD_INQUIRE_NAMELIST", {CMQC.MQCA_NAMELIST_NAME: b"NO.SUCH.NAMELIST"}, "MQRC_UNKNOWN_OBJECT_NAME"),
    ("MQCMD_INQUIRE_CHANNEL_STATUS", {ibmmq.CMQCFC.MQCACH_CHANNEL_NAME: b"*"}, "MQRCCF_CHL_STATUS_NOT_FOUND"),
    ("MQCMD_START_CHANNEL", {ibmmq.CMQCFC.MQCACH_CHANNEL_NAME: b"APP.SVRCONN"}, "MQRCCF_CHANNEL_NOT_FOUND"),
    ("MQCMD_RESET_CHANNEL", {ibmmq.CMQCFC.MQCACH_CHANNEL_NAME: b"APP.SVRCONN"}, "MQRC_FUNCTION_NOT_SUPPORTED"),
])
def test_pcf_refusals_come_back_as_the_command_servers_reason(ibmmq_emulator, command, parameters, reason):
    ibmmq_emulator.define_queue("APP.Q")
    pcf = ibmmq.PCFExecute(ibmmq.connect("QM1"))
    with pytest.raises(ibmmq.MQMIError) as failed:
        getattr(pcf, command)(parameters)
    assert failed.value.comp == CMQC.MQCC_FAILED
    assert failed.value.reason == getattr(ibmmq.CMQCFC, reason, getattr(CMQC, reason, None))


def test_pcf_defines_alias_and_model_queues_the_model_resolves(ibmmq_emulator):
    ibmmq_emulator.define_queue("APP.TARGET")
    qmgr = ibmmq.connect("QM1")
    pcf = ibmmq.PCFExecute(qmgr)
    pcf.MQCMD_CREATE_Q({CMQC.MQCA_Q_NAME: b"APP.ALIAS", CMQC.MQIA_Q_TYPE: CMQC.MQQT_ALIAS,
                        CMQC.MQCA_BASE_Q_NAME: b"APP.TARGET"})
    pcf.MQCMD_CREATE_Q({CMQC.MQCA_Q_NAME: b"APP.MODEL", CMQC.MQIA_Q_TYPE: CMQC.MQQT_MODEL,
                        CMQC.MQIA_DEFINITION_TYPE: CMQC.MQQDT_PERMANENT_DYNAMIC})
    ibmmq.Queue(qmgr, "APP.ALIAS", CMQC.MQOO_OUTPUT).put(b"via the alias")
    assert [data for _md, data in ibmmq_emulator.messages("APP.TARGET")] == [b"via the alias"]
    od = ibmmq.OD(ObjectName=b"APP.MODEL", DynamicQName=b"APP.DYN.*")
    ibmmq.Queue(qmgr, od, CMQC.MQOO_INPUT_SHARED)
    made = ibmmq.to_string(od.ObjectName)
    assert made.startswith("APP.DYN.") and made in ibmmq_emulator.queues


def test_pcf_will_not_delete_an_open_queue_or_one_with_messages_unless_purged(ibmmq_emulator):
    ibmmq_emulator.define_queue("APP.Q")
    qmgr = ibmmq.connect("QM1")
    pcf = ibmmq.PCFExecute(qmgr)
    queue = ibmmq.Queue(qmgr, "APP.Q", CMQC.MQOO_OUTPUT)
    queue.put(b"kept")
    with pytest.raises(ibmmq.MQMIError) as open_:
        pcf.MQCMD_DELETE_Q({CMQC.MQCA_Q_NAME: b"APP.Q"})
    assert open_.value.reason == ibmmq.CMQCFC.MQRCCF_OBJECT_OPEN
    queue.close()
    with pytest.raises(ibmmq.MQMIError) as not_empty:
        pcf.MQCMD_DELETE_Q({CMQC.MQCA_Q_NAME: b"APP.Q"})
    assert not_empty.value.reason == CMQC.MQRC_Q_NOT_EMPTY
    pcf.MQCMD_DELETE_Q({CMQC.MQCA_Q_NAME: b"APP.Q", ibmmq.CMQCFC.MQIACF_PURGE: ibmmq.CMQCFC.MQPO_YES})
    assert "APP.Q" not in ibmmq_emulator.queues


def test_a_message_that_is_not_pcf_is_answered_not_raised(ibmmq_emulator):
    qmgr = ibmmq.connect("QM1")
    ibmmq_emulator.define_queue("REPLIES")
    md = ibmmq.MD(ReplyToQ=b"REPLIES", Format=CMQC.MQFMT_ADMIN, MsgType=CMQC.MQMT_REQUEST)
    qmgr.put1("SYSTEM.ADMIN.COMMAND.QUEUE", b"not a command", md)
    reply = ibmmq.Queue(qmgr, "REPLIES", CMQC.MQOO_INPUT_SHARED).get()
    with pytest.raises(ibmmq.MQMIError) as failed:
        ibmmq.PCFExecute.unpack(reply)
    assert failed.value.reason == ibmmq.CMQCFC.MQRCCF_STRUCTURE_TYPE_ERROR


def test_pcf_sets_the_browse_interval_of_the_queue_manager(ibmmq_emulator):
    qmgr = ibmmq.connect("QM1")
    ibmmq.PCFExecute(qmgr).MQCMD_CHANGE_Q_MGR({CMQC.MQIA_MSG_MARK_BROWSE_INTERVAL: 250})
    assert qmgr.inquire(CMQC.MQIA_MSG_MARK_BROWSE_INTERVAL) == 250


def test_inquire_reports_the_definition_attributes_a_queue_manager_reports(ibmmq_emulator):
    ibmmq_emulator.define_queue("APP.EXCL", DefInputOpenOption=["MQOO_INPUT_EXCLUSIVE"], Shareability=0)
    queue = ibmmq.Queue(ibmmq.connect("QM1"), "APP.EXCL", CMQC.MQOO_INQUIRE)
    assert queue.inquire([CMQC.MQIA_DEF_INPUT_OPEN_OPTION, CMQC.MQIA_SHAREABILITY, CMQC.MQIA_Q_TYPE,
                          CMQC.MQIA_CURRENT_Q_DEPTH]) == {
        CMQC.MQIA_DEF_INPUT_OPEN_OPTION: CMQC.MQOO_INPUT_EXCLUSIVE, CMQC.MQIA_SHAREABILITY: CMQC.MQQA_NOT_SHAREABLE,
        CMQC.MQIA_Q_TYPE: CMQC.MQQT_LOCAL, CMQC.MQIA_CURRENT_Q_DEPTH: 0}


def test_pcf_will_not_delete_a_queue_holding_uncommitted_messages_even_with_purge(ibmmq_emulator):
    ibmmq_emulator.define_queue("APP.Q")
    qmgr = ibmmq.connect("QM1")
    queue = ibmmq.Queue(qmgr, "APP.Q", CMQC.MQOO_OUTPUT)
    queue.put(b"pending", ibmmq.MD(), ibmmq.PMO(Options=CMQC.MQPMO_SYNCPOINT))
    queue.close()
    pcf = ibmmq.PCFExecute(ibmmq.connect("QM1"))
    with pytest.raises(ibmmq.MQMIError) as in_use:
        pcf.MQCMD_DELETE_Q({CMQC.MQCA_Q_NAME: b"APP.Q", ibmmq.CMQCFC.MQIACF_PURGE: ibmmq.CMQCFC.MQPO_YES})
    assert in_use.value.reason == CMQC.MQRC_OBJECT_IN_USE
    qmgr.backout()
    pcf.MQCMD_DELETE_Q({CMQC.MQCA_Q_NAME: b"APP.Q"})
    assert "APP.Q" not in ibmmq_emulator.queues


def test_the_worked_example_of_docs_emulator_md_passes_as_an_application_test(tmp_path):
    """The application and test of docs/emulator.md, run by pytest in a new process as an application's
    developer runs them: ``import ibmmq`` at the top of the test module, the plugin's fixture, nothing else."""
    root = Path(__file__).resolve().parents[1]
    application, test = re.findall(r"```python\n(.*?)```", (root / "docs" / "emulator.md").read_text(), re.S)[:2]
    (tmp_path / "orders.py").write_text(application)
    (tmp_path / "test_orders.py").write_text(test)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env["PYTHONPATH"] = f"{root}{os.pathsep}{tmp_path}"
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
                          str(tmp_path / "test_orders.py")], cwd=tmp_path, env=env, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "2 passed" in run.stdout


def test_mqset_through_ibmmq_is_the_models(ibmmq_emulator):
    ibmmq_emulator.define_queue("APP.Q")
    queue = ibmmq.Queue(ibmmq.connect("QM1"), "APP.Q", CMQC.MQOO_SET | CMQC.MQOO_OUTPUT)
    queue.set(CMQC.MQIA_INHIBIT_PUT, CMQC.MQQA_PUT_INHIBITED)
    assert ibmmq_emulator.queues["APP.Q"].definition.InhibitPut is True
    with pytest.raises(ibmmq.MQMIError) as inhibited:
        queue.put(b"x")
    assert inhibited.value.reason == CMQC.MQRC_PUT_INHIBITED
    with pytest.raises(ibmmq.MQMIError) as refused:
        queue.set({CMQC.MQIA_MAX_Q_DEPTH: 10})  # not settable by MQSET
    assert refused.value.reason == CMQC.MQRC_SELECTOR_ERROR


def test_threads_with_their_own_connections_share_the_queue_manager(ibmmq_emulator):
    import threading

    ibmmq_emulator.define_queue("APP.WORK", MaxQDepth=1000)
    errors: list[BaseException] = []

    def producer(number: int) -> None:
        try:
            qmgr = ibmmq.connect("QM1")
            queue = ibmmq.Queue(qmgr, "APP.WORK", CMQC.MQOO_OUTPUT)
            for index in range(50):
                queue.put(b"%d-%d" % (number, index))
            queue.close()
            qmgr.disconnect()
        except BaseException as exc:  # noqa: BLE001 - reported by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=producer, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert errors == [] and ibmmq_emulator.depth("APP.WORK") == 200


def test_the_emulator_will_not_replace_a_native_module_already_in_place(monkeypatch):
    from mq_conformance.emulator import EmulatorUnavailable, install

    monkeypatch.setitem(sys.modules, "ibmmq.ibmmqc", object())  # as if IBM's own had loaded
    with pytest.raises(EmulatorUnavailable, match="already imported with IBM's native module"):
        install()


def test_a_report_whose_reply_queue_does_not_exist_goes_to_the_dead_letter_queue_in_process(ibmmq_emulator):
    # the model's dead-letter queue is the DEADQ the queue manager shows, so the COA for a reply queue that does
    # not exist is kept behind an MQDLH (report.coa, distributed.dlq.put) rather than dropped
    ibmmq_emulator.define_queue("APP.REQUESTS")
    qmgr = ibmmq.connect("QM1")
    requests = ibmmq.Queue(qmgr, "APP.REQUESTS", CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_SHARED)
    requests.put(b"request", ibmmq.MD(Report=CMQC.MQRO_COA, ReplyToQ=b"NO.SUCH.REPLY.Q"))
    deadq = qmgr.inquire(CMQC.MQCA_DEAD_LETTER_Q_NAME)
    deadq = (deadq.decode() if isinstance(deadq, bytes) else deadq).strip()
    assert deadq == "SYSTEM.DEAD.LETTER.QUEUE"
    dead = ibmmq.Queue(qmgr, deadq, CMQC.MQOO_INPUT_SHARED)
    md = ibmmq.MD()
    data = dead.get(None, md, ibmmq.GMO(Options=CMQC.MQGMO_NO_WAIT))
    assert md.Format.strip() == CMQC.MQFMT_DEAD_LETTER_HEADER.strip()
    assert data[:4] == b"DLH " and int.from_bytes(data[8:12], "little") == CMQC.MQRC_UNKNOWN_OBJECT_NAME
    assert data[12:60].rstrip(b" \0") == b"NO.SUCH.REPLY.Q"
    qmgr.disconnect()
