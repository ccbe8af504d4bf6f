"""MQSC through the emulated command server (PCF Escape; emulator/mqsc.py, clause emulator.mqsc): every object
type the emulator holds, answered with the text and AMQ message numbers IBM's command server gives ("AMQ8000-8999
Administration messages"), and a reader that refuses what it cannot read in time proportional to its length."""

from __future__ import annotations

import pytest

from mq_conformance.emulator import EmulatorUnavailable, load_ibmmq
from mq_conformance.emulator.mqsc import MqscSyntaxError, tokens

try:
    ibmmq = load_ibmmq()
except EmulatorUnavailable as exc:  # no wheel of IBM's ibmmq for this platform (pyproject.toml)
    pytest.skip(str(exc), allow_module_level=True)
CMQC, CMQCFC, CMQXC = ibmmq.CMQC, ibmmq.CMQCFC, ibmmq.CMQXC


@pytest.fixture
def mqsc(ibmmq_emulator):
    ibmmq_emulator.developer()
    qmgr = ibmmq.connect("QM1")
    pcf = ibmmq.PCFExecute(qmgr)

    def run(command: str) -> list[str]:
        answers = pcf.MQCMD_ESCAPE({CMQCFC.MQIACF_ESCAPE_TYPE: CMQCFC.MQET_MQSC,
                                    CMQCFC.MQCACF_ESCAPE_TEXT: command.encode()})
        return [a[CMQCFC.MQCACF_ESCAPE_TEXT].decode() for a in answers]

    yield run
    qmgr.disconnect()


def test_queue_commands_answer_ibms_messages(mqsc, ibmmq_emulator):
    assert mqsc("DEFINE QLOCAL(APP.Q) MAXDEPTH(5) DESCR('Orders in')") == ["AMQ8006I: IBM MQ queue created."]
    assert mqsc("ALTER QLOCAL(APP.Q) PUT(DISABLED)") == ["AMQ8008I: IBM MQ queue changed."]
    [shown] = mqsc("DISPLAY QUEUE(APP.Q) MAXDEPTH PUT DESCR CURDEPTH")
    assert shown.startswith("AMQ8409I: Display Queue details.")
    for attribute in ("QUEUE(APP.Q)", "TYPE(QLOCAL)", "MAXDEPTH(5)", "PUT(DISABLED)", "DESCR(Orders in)", "CURDEPTH(0)"):
        assert attribute in shown
    assert mqsc("DELETE QLOCAL(APP.Q)") == ["AMQ8007I: IBM MQ queue deleted."]
    assert "APP.Q" not in ibmmq_emulator.queues


def test_a_display_of_a_generic_name_answers_one_message_per_object(mqsc):
    answers = mqsc("DIS QLOCAL(DEV.QUEUE.*)")
    assert len(answers) == 3 and all(a.startswith("AMQ8409I") for a in answers)


def test_qmgr_is_displayed_and_altered(mqsc, ibmmq_emulator):
    assert mqsc("ALTER QMGR STATQ(ON) STATINT(60) DESCR('test qmgr')") == ["AMQ8005I: IBM MQ queue manager changed."]
    [shown] = mqsc("DISPLAY QMGR STATQ STATINT DESCR")
    assert shown.startswith("AMQ8408I") and "QMNAME(QM1)" in shown
    assert "STATQ(ON)" in shown and "STATINT(60)" in shown and "DESCR(test qmgr)" in shown


def test_channels_namelists_authinfo_and_topics_are_defined_and_displayed(mqsc):
    assert mqsc("DEFINE CHANNEL(APP.SVRCONN) CHLTYPE(SVRCONN) TRPTYPE(TCP) DESCR('apps')") == [
        "AMQ8014I: IBM MQ channel created."]
    [channel] = mqsc("DISPLAY CHANNEL(APP.SVRCONN) ALL")
    assert channel.startswith("AMQ8414I") and "CHLTYPE(SVRCONN)" in channel and "DESCR(apps)" in channel
    assert mqsc("DEFINE NAMELIST(APP.NL) NAMES(ONE, 'two')") == ["AMQ8552I: IBM MQ namelist created."]
    [namelist] = mqsc("DIS NL(APP.NL)")
    assert "NAMES(ONE,two)" in namelist and "NAMCOUNT(2)" in namelist
    assert mqsc("DEFINE AUTHINFO(APP.AI) AUTHTYPE(IDPWOS) CHCKCLNT(OPTIONAL)")[0].startswith("AMQ8563I")
    assert "CHCKCLNT(OPTIONAL)" in mqsc("DIS AUTHINFO(APP.AI)")[0]
    assert mqsc("DEFINE TOPIC(APP.T) TOPICSTR('app/t')") == ["AMQ8690I: IBM MQ topic created."]
    assert "TOPICSTR(app/t)" in mqsc("DIS TOPIC(APP.T)")[0]
    # clause admin.define-sub: a subscription made by command
    assert mqsc("DEFINE SUB(APP.S) TOPICSTR('app/t') DEST(DEV.QUEUE.1)") == ["AMQ8094I: IBM MQ subscription created."]
    assert "DEST(DEV.QUEUE.1)" in mqsc("DIS SUB(APP.S)")[0]
    assert "SUBCOUNT(1)" in mqsc("DIS TPSTATUS('app/t')")[0]
    for command, message in (("DELETE SUB(APP.S)", "AMQ8097I"), ("DELETE TOPIC(APP.T)", "AMQ8692I"),
                             ("DELETE NAMELIST(APP.NL)", "AMQ8553I"), ("DELETE CHANNEL(APP.SVRCONN)", "AMQ8015I")):
        assert mqsc(command)[0].startswith(message)


def test_authority_records_are_set_and_displayed_setmqaut_style(mqsc):
    assert mqsc("SET AUTHREC PROFILE('APP.**') OBJTYPE(QUEUE) PRINCIPAL('app') AUTHADD(PUT, GET, INQ)") == [
        "AMQ8862I: IBM MQ authority record set."]
    [record] = mqsc("DISPLAY AUTHREC PROFILE('APP.**') OBJTYPE(QUEUE)")
    assert record.startswith("AMQ8864I") and "ENTITY(app)" in record and "AUTHLIST(GET,INQ,PUT)" in record


def test_status_commands_answer_in_mqsc(mqsc):
    assert mqsc("DIS QMSTATUS")[0].startswith("AMQ8705I")
    assert "CURDEPTH(0)" in mqsc("DIS QSTATUS(DEV.QUEUE.1)")[0]


def test_failures_answer_ibms_message_for_their_reason(mqsc):
    mqsc("DEFINE QLOCAL(APP.Q)")
    with pytest.raises(ibmmq.MQMIError) as exists:
        mqsc("DEFINE QLOCAL(APP.Q)")
    assert exists.value.reason == CMQCFC.MQRCCF_COMMAND_FAILED
    for command in ("DIS Q(NO.SUCH.Q)", "DEFINE QLOCAL(", "DEFINE QLOCAL(APP.X) MAXDEPTH(many)"):
        with pytest.raises(ibmmq.MQMIError) as failed:
            mqsc(command)
        assert failed.value.reason == CMQCFC.MQRCCF_COMMAND_FAILED


def test_the_failure_text_is_ibms(ibmmq_emulator):
    """The text of a failed command, read from the command server's response (AMQ8147E, AMQ8150E, AMQ8405I)."""
    from mq_conformance.emulator import mqsc as reader
    from mq_conformance.emulator.pcf import CommandServer

    ibmmq_emulator.define_queue("APP.Q")
    server = CommandServer(ibmmq_emulator, "QM1")
    assert reader.run(server, "DIS QLOCAL(NO.SUCH)") == (False, ["AMQ8147E: IBM MQ object NO.SUCH not found."])
    assert reader.run(server, "DEFINE QLOCAL(APP.Q)") == (False, ["AMQ8150E: IBM MQ object already exists."])
    ok, [text] = reader.run(server, "DEFINE QLOCAL(APP.R) NOSUCHKEYWORD(1)")
    assert not ok and text.startswith("AMQ8405I: Syntax error detected")


@pytest.mark.parametrize("text", ["DEFINE QLOCAL(" + "(" * 50, "DIS Q(" + "'" * 5001, "X" * 40_000,
                                  "DEFINE QLOCAL(A) " + "DESCR(x) " * 2000])
def test_hostile_text_is_refused_by_a_bounded_reader(text):
    with pytest.raises(MqscSyntaxError):
        tokens(text)


def test_quotes_keep_case_and_continuations_join_lines():
    found = tokens("define qlocal('App.Q') +\n  descr('It''s here') maxdepth(5)")
    assert [(t.word, t.value) for t in found] == [("DEFINE", None), ("QLOCAL", "App.Q"), ("DESCR", "It's here"),
                                                  ("MAXDEPTH", "5")]


@pytest.mark.parametrize("name", ["APP.\x1b[31mRED", "APP.Q\x07", "APP Q", "APP.Q;DROP"])
def test_an_mqsc_object_name_outside_ibms_characters_is_refused_and_never_defined(ibmmq_emulator, name):
    """MQSC commands reach the command server without PCF's name check (pcf_validate): a name with a control
    character or an escape sequence was defined, and DISPLAY returned it raw (issue 36, item 5)."""
    from mq_conformance.emulator import mqsc as reader
    from mq_conformance.emulator.pcf import CommandServer

    server = CommandServer(ibmmq_emulator, "QM1")
    for command in (f"DEFINE QLOCAL('{name}')", f"DEFINE CHANNEL(APP.COPY) CHLTYPE(SVRCONN) LIKE('{name}')"):
        ok, [text] = reader.run(server, command)
        assert not ok and text.startswith("AMQ8405I: Syntax error detected"), text
    assert name not in ibmmq_emulator.queues
