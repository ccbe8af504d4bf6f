"""The emulated command server's inquiries and its MQSC route (emulator/inquiries.py), through
IBM's own PCFExecute."""

from __future__ import annotations

import pytest

from mq_conformance.emulator import EmulatorUnavailable, load_ibmmq

try:
    ibmmq = load_ibmmq()
except EmulatorUnavailable as exc:  # no wheel of IBM's ibmmq for this platform (pyproject.toml)
    pytest.skip(str(exc), allow_module_level=True)
CMQC, CMQCFC = ibmmq.CMQC, ibmmq.CMQCFC


@pytest.fixture
def pcf(ibmmq_emulator):
    ibmmq_emulator.define_queue("APP.A", MaxQDepth=10)
    ibmmq_emulator.define_queue("APP.B")
    qmgr = ibmmq.connect("QM1")
    queue = ibmmq.Queue(qmgr, "APP.A", CMQC.MQOO_OUTPUT)
    queue.put(b"one")
    queue.put(b"two")
    yield ibmmq.PCFExecute(qmgr)  # the queue stays open (for its open count) until the test ends
    queue.close()


def test_inquire_queue_manager_answers_its_attributes(pcf):
    [answer] = pcf.MQCMD_INQUIRE_Q_MGR()
    assert answer[CMQC.MQCA_Q_MGR_NAME].strip() == b"QM1"
    assert answer[CMQC.MQIA_COMMAND_LEVEL] == 945 and answer[CMQC.MQIA_PLATFORM] == CMQC.MQPL_UNIX
    [some] = pcf.MQCMD_INQUIRE_Q_MGR({CMQCFC.MQIACF_Q_MGR_ATTRS: [CMQC.MQIA_CODED_CHAR_SET_ID]})
    assert some == {CMQC.MQIA_CODED_CHAR_SET_ID: 1208}


def test_inquire_queue_of_a_generic_name_answers_each_queue_with_its_attributes(pcf):
    answers = pcf.MQCMD_INQUIRE_Q({CMQC.MQCA_Q_NAME: b"APP.*"})
    by_name = {a[CMQC.MQCA_Q_NAME].strip(): a for a in answers}
    assert sorted(by_name) == [b"APP.A", b"APP.B"]
    assert by_name[b"APP.A"][CMQC.MQIA_CURRENT_Q_DEPTH] == 2
    assert by_name[b"APP.A"][CMQC.MQIA_MAX_Q_DEPTH] == 10
    assert by_name[b"APP.B"][CMQC.MQCA_Q_DESC].strip() == b""


def test_inquire_queue_filters_and_selects_attributes(pcf):
    deep = ibmmq.CFIF(Parameter=CMQC.MQIA_CURRENT_Q_DEPTH, Operator=CMQCFC.MQCFOP_GREATER, FilterValue=0)
    answers = pcf.MQCMD_INQUIRE_Q({CMQC.MQCA_Q_NAME: b"*", CMQCFC.MQIACF_Q_ATTRS: [CMQC.MQIA_CURRENT_Q_DEPTH]},
                                  [deep])
    assert [(a[CMQC.MQCA_Q_NAME].strip(), a[CMQC.MQIA_CURRENT_Q_DEPTH]) for a in answers] == [(b"APP.A", 2)]
    assert CMQC.MQIA_MAX_Q_DEPTH not in answers[0]


def test_inquire_queue_of_an_unknown_queue_is_unknown_object_name(pcf):
    with pytest.raises(ibmmq.MQMIError) as unknown:
        pcf.MQCMD_INQUIRE_Q({CMQC.MQCA_Q_NAME: b"NO.SUCH.QUEUE"})
    assert unknown.value.reason == CMQC.MQRC_UNKNOWN_OBJECT_NAME


def test_inquire_queue_names_and_status(pcf):
    [names] = pcf.MQCMD_INQUIRE_Q_NAMES({CMQC.MQCA_Q_NAME: b"*"})
    listed = [n.strip() for n in names[CMQCFC.MQCACF_Q_NAMES]]
    assert {b"APP.A", b"APP.B", b"SYSTEM.DEAD.LETTER.QUEUE"} <= set(listed)
    assert len(names[CMQCFC.MQIACF_Q_TYPES]) == len(listed)
    [status] = pcf.MQCMD_INQUIRE_Q_STATUS({CMQC.MQCA_Q_NAME: b"APP.A"})
    assert status[CMQC.MQIA_CURRENT_Q_DEPTH] == 2 and status[CMQC.MQIA_OPEN_OUTPUT_COUNT] == 1


def _mqsc(pcf, command: str) -> str:
    [answer] = pcf.MQCMD_ESCAPE({CMQCFC.MQIACF_ESCAPE_TYPE: CMQCFC.MQET_MQSC,
                                 CMQCFC.MQCACF_ESCAPE_TEXT: command.encode()})
    return answer[CMQCFC.MQCACF_ESCAPE_TEXT].decode()


def test_mqsc_defines_alters_displays_and_deletes_queues(pcf, ibmmq_emulator):
    _mqsc(pcf, "DEFINE QLOCAL(APP.NEW) MAXDEPTH(7) DESCR('new orders')")
    assert ibmmq_emulator.queues["APP.NEW"].definition.MaxQDepth == 7
    _mqsc(pcf, "ALTER QLOCAL(APP.NEW) PUT(DISABLED)")
    shown = _mqsc(pcf, "DISPLAY QLOCAL(APP.NEW) MAXDEPTH PUT DESCR")
    assert "MAXDEPTH(7)" in shown and "PUT(DISABLED)" in shown and "DESCR(new orders)" in shown  # unquoted, as IBM shows it
    _mqsc(pcf, "DEFINE QALIAS(APP.ALIAS) TARGET(APP.NEW)")
    assert ibmmq_emulator.queues["APP.ALIAS"].definition.BaseQName == "APP.NEW"
    _mqsc(pcf, "DELETE QLOCAL(APP.NEW)")
    assert "APP.NEW" not in ibmmq_emulator.queues


def test_a_failing_mqsc_command_fails_with_its_text(pcf):
    with pytest.raises(ibmmq.MQMIError) as failed:
        _mqsc(pcf, "DEFINE QLOCAL(APP.A)")  # exists, and no REPLACE
    assert failed.value.reason == CMQCFC.MQRCCF_COMMAND_FAILED


def test_commands_the_emulator_does_not_run_are_function_not_supported(pcf):
    for run in (lambda: pcf.MQCMD_RESET_CHANNEL({CMQCFC.MQCACH_CHANNEL_NAME: b"APP.SVRCONN"}),  # no sequence numbers
                lambda: pcf.MQCMD_INQUIRE_PROCESS({CMQC.MQCA_PROCESS_NAME: b"*"}),  # no process objects
                lambda: _mqsc(pcf, "RESET CHANNEL(APP.SVRCONN)")):
        with pytest.raises(ibmmq.MQMIError) as refused:
            run()
        assert refused.value.reason == CMQC.MQRC_FUNCTION_NOT_SUPPORTED
