"""Distributed queuing between the queue managers of one listener (emulator/channels.py): ``mqconf emulator
--listen ... --qmgr QM1 --qmgr QM2`` as a real process, and ibmmq applications in processes of their own, written
as for two real queue managers: remote queue definitions, transmission queues, sender and receiver channels
defined by MQSC and by PCF, started, stopped and displayed; a request on QM1 answered by a responder on QM2.
Clauses: emulator.channel.agent (messages moved while the listener serves), emulator.channel.start,
emulator.channel.stop, emulator.channel.status (DISPLAY CHSTATUS, Inquire Channel Status) and
emulator.distributed-admin (remote queues, transmission queues, DEFXMITQ and DEADQ by command)."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from mq_conformance.emulator import EmulatorUnavailable, load_ibmmq

try:
    load_ibmmq()
except EmulatorUnavailable as exc:  # no wheel of IBM's ibmmq for this platform (pyproject.toml)
    pytest.skip(str(exc), allow_module_level=True)

from test_emulator_processes import _listening  # noqa: E402 - the listener as the other process tests start it

SECONDS = 120

# QM1 sends to QM2 through transmission queue QM2 and channel QM1.TO.QM2; QM2 answers through a queue-manager alias
# QM1 (a remote definition with a blank RNAME) naming transmission queue QM1.XMITQ and channel QM2.TO.QM1: the MQSC
# docs/emulator.md shows ("Distributed queuing between the listener's queue managers"), so the tests run the
# documentation's own commands.
def _documented_setup() -> dict[str, list[str]]:
    text = (Path(__file__).resolve().parents[1] / "docs" / "emulator.md").read_text()
    block = text.split("### Distributed queuing between the listener's queue managers", 1)[1]
    block = block.split("```", 2)[1]
    commands: dict[str, list[str]] = {}
    current = None
    for line in block.strip().splitlines():
        if line.startswith("* on "):
            current = commands.setdefault(line.split()[2].rstrip(":"), [])
        elif current is not None and line.strip() and not line.startswith(("*", "DISPLAY")):
            current.append(line.strip())
    return commands


QM1_SETUP, QM2_SETUP = _documented_setup()["QM1"], _documented_setup()["QM2"]
assert QM1_SETUP and QM2_SETUP, "docs/emulator.md lost its distributed queuing example"

# MQSC commands run through the command server of the queue manager named first: each command's answers, or
# FAILED and the reason (a failed Escape's text does not come back through PCFExecute).
ADMIN = """
import json, sys, ibmmq
from ibmmq import CMQCFC
qmgr = ibmmq.connect(sys.argv[1], "DEV.ADMIN.SVRCONN", "localhost(1414)")
pcf = ibmmq.PCFExecute(qmgr)
out = []
for command in sys.argv[2:]:
    try:
        answers = pcf.MQCMD_ESCAPE({CMQCFC.MQIACF_ESCAPE_TYPE: CMQCFC.MQET_MQSC,
                                    CMQCFC.MQCACF_ESCAPE_TEXT: command.encode()})
        out.append([a[CMQCFC.MQCACF_ESCAPE_TEXT].decode() for a in answers])
    except ibmmq.MQMIError as exc:
        out.append(["FAILED %d" % exc.reason])
print(json.dumps(out))
"""

REQUESTER = """
import sys, ibmmq
from ibmmq import CMQC
count = int(sys.argv[1])
qmgr = ibmmq.connect("QM1", "DEV.APP.SVRCONN", "localhost(1414)")
od = ibmmq.OD(ObjectName=b"DEV.APP.MODEL.QUEUE", DynamicQName=b"APP.REPLIES.*")
replies = ibmmq.Queue(qmgr, od, CMQC.MQOO_INPUT_EXCLUSIVE)
reply_name = od.ObjectName.strip()
requests = ibmmq.Queue(qmgr, "REQUESTS.QM2", CMQC.MQOO_OUTPUT)
for index in range(count):
    md = ibmmq.MD(MsgType=CMQC.MQMT_REQUEST, ReplyToQ=reply_name)
    requests.put(b"request %d" % index, md)
    answer = ibmmq.MD(CorrelId=md.MsgId)
    gmo = ibmmq.GMO(Options=CMQC.MQGMO_WAIT, WaitInterval=60_000, MatchOptions=CMQC.MQMO_MATCH_CORREL_ID)
    print(replies.get(None, answer, gmo).decode(), answer.PutApplName.decode().strip() != "", flush=True)
qmgr.disconnect()
"""

RESPONDER = """
import sys, ibmmq
from ibmmq import CMQC
count = int(sys.argv[1])
qmgr = ibmmq.connect("QM2", "DEV.APP.SVRCONN", "localhost(1414)")
requests = ibmmq.Queue(qmgr, "DEV.QUEUE.1", CMQC.MQOO_INPUT_SHARED)
for _ in range(count):
    md = ibmmq.MD()
    data = requests.get(None, md, ibmmq.GMO(Options=CMQC.MQGMO_WAIT | CMQC.MQGMO_SYNCPOINT, WaitInterval=60_000))
    od = ibmmq.OD(ObjectName=md.ReplyToQ, ObjectQMgrName=md.ReplyToQMgr)
    qmgr.put1(od, b"answer to " + data + b" from " + md.ReplyToQMgr.strip(),
              ibmmq.MD(MsgType=CMQC.MQMT_REPLY, CorrelId=md.MsgId), ibmmq.PMO(Options=CMQC.MQPMO_SYNCPOINT))
    qmgr.commit()
qmgr.disconnect()
print("answered", count)
"""

# Put one message through a queue of QM1 (argv[1]) with Persistence argv[2]; get one from a queue of QM2 (argv[3]),
# waiting argv[4] milliseconds; print its reason or its data in hexadecimal and its Format.
PUT = """
import sys, ibmmq
from ibmmq import CMQC
qmgr = ibmmq.connect("QM1", "DEV.APP.SVRCONN", "localhost(1414)")
qmgr.put1(sys.argv[1], b"payload", ibmmq.MD(Persistence=int(sys.argv[2])))
qmgr.disconnect()
print("put")
"""
GET = """
import sys, ibmmq
from ibmmq import CMQC
qmgr = ibmmq.connect(sys.argv[1], "DEV.APP.SVRCONN", "localhost(1414)")
queue = ibmmq.Queue(qmgr, sys.argv[2], CMQC.MQOO_INPUT_SHARED)
md = ibmmq.MD()
try:
    data = queue.get(None, md, ibmmq.GMO(Options=CMQC.MQGMO_WAIT, WaitInterval=int(sys.argv[3])))
    print(data.hex(), md.Format.decode().strip())
except ibmmq.MQMIError as exc:
    print("reason", exc.reason)
"""


@pytest.fixture
def listener(tmp_path) -> Iterator[dict[str, str]]:
    """``mqconf emulator --listen`` with QM1 and QM2 and IBM's developer objects, as a process of its own."""
    with _listening(tmp_path, "--qmgr", "QM1", "--qmgr", "QM2") as env:
        yield {**env, "TMP": str(tmp_path)}


def _start(env: dict[str, str], source: str, *args: str) -> subprocess.Popen:
    """An application's process, with the start-up hook in a site folder and MQCONF_EMULATOR set."""
    script = Path(env["TMP"]) / f"app{abs(hash(source))}.py"
    script.write_text(textwrap.dedent(source))
    program = ("import site, sys, runpy; site.addsitedir(sys.argv[1]); sys.argv = sys.argv[2:]; "
               "runpy.run_path(sys.argv[0], run_name='__main__')")
    environment = {**os.environ, "MQCONF_EMULATOR": env["MQCONF_EMULATOR"]}
    environment.pop("MQCONF_IBMMQ_EMULATOR", None)
    return subprocess.Popen([sys.executable, "-c", program, env["SITE"], str(script), *args], env=environment,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _finish(process: subprocess.Popen) -> str:
    out, err = process.communicate(timeout=SECONDS)
    assert process.returncode == 0, err
    return out


def _mqsc(env: dict[str, str], qmgr: str, *commands: str) -> list[list[str]]:
    return json.loads(_finish(_start(env, ADMIN, qmgr, *commands)))


def _setup(env: dict[str, str]) -> None:
    for qmgr, commands in (("QM2", QM2_SETUP), ("QM1", QM1_SETUP)):
        answers = _mqsc(env, qmgr, *commands)
        assert all(len(a) == 1 and not a[0].startswith(("FAILED", "AMQ84")) for a in answers), answers


def _status(env: dict[str, str], qmgr: str, channel: str) -> str:
    """DISPLAY CHSTATUS's STATUS of one channel (the AMQ message when it has none)."""
    (answer,) = _mqsc(env, qmgr, f"DISPLAY CHSTATUS({channel}) ALL")
    text = "\n".join(answer)
    if "STATUS(" not in text:
        return text
    return text.split(" STATUS(", 1)[1].split(")", 1)[0]


def test_a_request_on_qm1_is_answered_by_a_responder_on_qm2_across_processes(listener):
    # clauses emulator.channel.agent
    _setup(listener)
    responder = _start(listener, RESPONDER, "3")
    requester = _start(listener, REQUESTER, "3")
    answers = _finish(requester).splitlines()
    assert "answered 3" in _finish(responder)
    assert answers == [f"answer to request {n} from QM1 True" for n in range(3)]
    assert _status(listener, "QM1", "QM1.TO.QM2") == "RUNNING"
    assert _status(listener, "QM2", "QM2.TO.QM1") == "RUNNING"


def test_stop_channel_holds_messages_on_the_transmission_queue_and_start_releases_them(listener):
    # clauses emulator.channel.stop, emulator.channel.start
    _setup(listener)
    assert _mqsc(listener, "QM1", "STOP CHANNEL(QM1.TO.QM2)") == [["AMQ8019I: Stop IBM MQ channel accepted."]]
    assert _status(listener, "QM1", "QM1.TO.QM2") == "STOPPED"
    assert _finish(_start(listener, PUT, "REQUESTS.QM2", "0")).strip() == "put"
    (shown,) = _mqsc(listener, "QM1", "DISPLAY QLOCAL(QM2) CURDEPTH")
    assert "CURDEPTH(1)" in shown[0]
    assert _finish(_start(listener, GET, "QM2", "DEV.QUEUE.1", "500")).strip() == "reason 2033"
    assert _mqsc(listener, "QM1", "START CHANNEL(QM1.TO.QM2)") == [["AMQ8018I: Start IBM MQ channel accepted."]]
    assert _finish(_start(listener, GET, "QM2", "DEV.QUEUE.1", "30000")).split()[0] == b"payload".hex()
    assert _status(listener, "QM1", "QM1.TO.QM2") == "RUNNING"
    (shown,) = _mqsc(listener, "QM1", "DISPLAY QLOCAL(QM2) CURDEPTH")
    assert "CURDEPTH(0)" in shown[0]


def test_display_chstatus_shows_sender_and_receiver_and_a_channel_never_started_has_none(listener):
    # clauses emulator.channel.status
    _setup(listener)
    (sender,) = _mqsc(listener, "QM1", "DISPLAY CHSTATUS(QM1.TO.QM2) ALL")
    text = "\n".join(sender)
    assert "AMQ8417I" in text and "CHLTYPE(SDR)" in text and "RQMNAME(QM2)" in text and "XMITQ(QM2)" in text
    (receiver,) = _mqsc(listener, "QM2", "DISPLAY CHSTATUS(QM1.TO.QM2) ALL")
    assert "CHLTYPE(RCVR)" in "\n".join(receiver) and "RQMNAME(QM1)" in "\n".join(receiver)
    _mqsc(listener, "QM1", "DEFINE CHANNEL(QM1.IDLE) CHLTYPE(SDR) CONNAME('localhost(1414)') XMITQ(QM2)")
    # a failed Escape is MQRCCF_COMMAND_FAILED (3008): AMQ8420I for the status, AMQ9533E for the stop (its text
    # stays in the command server's reply, which PCFExecute does not return); PCF names the reasons below
    assert _status(listener, "QM1", "QM1.IDLE") == "FAILED 3008"
    assert _mqsc(listener, "QM1", "STOP CHANNEL(QM1.IDLE)") == [["FAILED 3008"]]


def test_a_sender_without_a_receiver_retries_until_one_is_defined(listener):
    _mqsc(listener, "QM1", "DEFINE QLOCAL(QM2) USAGE(XMITQ)",
          "DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) CONNAME('localhost(1414)') XMITQ(QM2)",
          "START CHANNEL(QM1.TO.QM2)")
    assert _status(listener, "QM1", "QM1.TO.QM2") == "RETRYING"
    _finish(_start(listener, PUT, "DEV.QUEUE.2", "0"))  # a message for QM1 itself does not go anywhere
    put = _start(listener, """
        import ibmmq
        qmgr = ibmmq.connect("QM1", "DEV.APP.SVRCONN", "localhost(1414)")
        qmgr.put1(ibmmq.OD(ObjectName=b"DEV.QUEUE.2", ObjectQMgrName=b"QM2"), b"payload")
        print("put")
        """)
    assert _finish(put).strip() == "put"
    _mqsc(listener, "QM2", "DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(RCVR)")
    assert _finish(_start(listener, GET, "QM2", "DEV.QUEUE.2", "30000")).split()[0] == b"payload".hex()
    assert _status(listener, "QM1", "QM1.TO.QM2") == "RUNNING"


def test_a_message_for_an_unknown_queue_at_qm2_goes_to_its_dead_letter_queue_with_an_mqdlh(listener):
    _setup(listener)
    _mqsc(listener, "QM1", "DEFINE QREMOTE(NOWHERE.QM2) RNAME(NO.SUCH.QUEUE) RQMNAME(QM2) XMITQ(QM2)")
    _finish(_start(listener, PUT, "NOWHERE.QM2", "1"))
    out = _finish(_start(listener, GET, "QM2", "DEV.DEAD.LETTER.QUEUE", "30000")).split()
    data, fmt = bytes.fromhex(out[0]), out[1]
    assert fmt == "MQDEAD"
    assert data[:4] == b"DLH " and data.endswith(b"payload")
    reason = struct.unpack_from("<i", data, 8)[0]
    assert reason == 2085  # MQRC_UNKNOWN_OBJECT_NAME
    assert data[12:60].decode().strip() == "NO.SUCH.QUEUE" and data[60:108].decode().strip() == "QM2"
    assert _status(listener, "QM1", "QM1.TO.QM2") == "RUNNING"


def _settled(env: dict[str, str], qmgr: str, check) -> list[str]:
    """DISPLAY QLOCAL(QM2) CURDEPTH on ``qmgr`` until ``check`` holds of its answer (the channel moves in real
    time, after the put returned), for at most SECONDS."""
    deadline = time.monotonic() + SECONDS
    while True:
        (shown,) = _mqsc(env, qmgr, "DISPLAY QLOCAL(QM2) CURDEPTH")
        if check(shown[0]) or time.monotonic() > deadline:
            return shown
        time.sleep(0.2)


def test_a_receiver_with_usedlq_no_passes_the_dead_letter_queue_over(listener):
    # USEDLQ(NO) on the receiving end: a fast nonpersistent message it cannot put is discarded; a persistent one
    # stops the channel and waits on QM1's transmission queue; neither reaches QM2's dead-letter queue
    _setup(listener)
    answers = _mqsc(listener, "QM2", "ALTER CHANNEL(QM1.TO.QM2) CHLTYPE(RCVR) USEDLQ(NO)")
    assert not answers[0][0].startswith(("FAILED", "AMQ84")), answers
    _mqsc(listener, "QM1", "DEFINE QREMOTE(NOWHERE.QM2) RNAME(NO.SUCH.QUEUE) RQMNAME(QM2) XMITQ(QM2)")
    _finish(_start(listener, PUT, "NOWHERE.QM2", "0"))
    assert "CURDEPTH(0)" in _settled(listener, "QM1", lambda text: "CURDEPTH(0)" in text)[0]
    assert _status(listener, "QM1", "QM1.TO.QM2") == "RUNNING"
    _finish(_start(listener, PUT, "NOWHERE.QM2", "1"))
    deadline = time.monotonic() + SECONDS
    while _status(listener, "QM1", "QM1.TO.QM2") != "STOPPED" and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _status(listener, "QM1", "QM1.TO.QM2") == "STOPPED"
    assert "CURDEPTH(1)" in _settled(listener, "QM1", lambda text: "CURDEPTH(1)" in text)[0]
    assert _finish(_start(listener, GET, "QM2", "DEV.DEAD.LETTER.QUEUE", "500")).strip() == "reason 2033"


# PCF, as IBM documents the commands: Create Queue (MQQT_REMOTE, MQIA_USAGE), Create Channel, Start Channel,
# Stop Channel and Inquire Channel Status with MQCHS_* values.
PCF = """
import json, sys, ibmmq
from ibmmq import CMQC, CMQCFC, CMQXC
def run(qmgr_name, steps):
    qmgr = ibmmq.connect(qmgr_name, "DEV.ADMIN.SVRCONN", "localhost(1414)")
    pcf = ibmmq.PCFExecute(qmgr)
    out = []
    for command, parameters in steps:
        try:
            answers = getattr(pcf, command)(parameters)
            out.append([{str(k): v if isinstance(v, int) else str(v) for k, v in a.items()} for a in answers])
        except ibmmq.MQMIError as exc:
            out.append("FAILED %d" % exc.reason)
    qmgr.disconnect()
    return out
status = {CMQCFC.MQCACH_CHANNEL_NAME: b"PCF.QM1.QM2"}
qm2 = run("QM2", [("MQCMD_CREATE_CHANNEL", {CMQCFC.MQCACH_CHANNEL_NAME: b"PCF.QM1.QM2",
                                              CMQCFC.MQIACH_CHANNEL_TYPE: CMQXC.MQCHT_RECEIVER})])
qm1 = run("QM1", [
    ("MQCMD_CREATE_Q", {CMQC.MQCA_Q_NAME: b"XQ.QM2", CMQC.MQIA_Q_TYPE: CMQC.MQQT_LOCAL,
                        CMQC.MQIA_USAGE: CMQC.MQUS_TRANSMISSION}),
    ("MQCMD_CREATE_Q", {CMQC.MQCA_Q_NAME: b"PCF.REMOTE", CMQC.MQIA_Q_TYPE: CMQC.MQQT_REMOTE,
                        CMQC.MQCA_REMOTE_Q_NAME: b"DEV.QUEUE.3", CMQC.MQCA_REMOTE_Q_MGR_NAME: b"QM2",
                        CMQC.MQCA_XMIT_Q_NAME: b"XQ.QM2"}),
    ("MQCMD_CREATE_CHANNEL", {CMQCFC.MQCACH_CHANNEL_NAME: b"PCF.QM1.QM2", CMQCFC.MQIACH_CHANNEL_TYPE: CMQXC.MQCHT_SENDER,
                              CMQCFC.MQCACH_CONNECTION_NAME: b"localhost(1414)", CMQCFC.MQCACH_XMIT_Q_NAME: b"XQ.QM2"}),
    ("MQCMD_INQUIRE_Q", {CMQC.MQCA_Q_NAME: b"PCF.REMOTE"}),
    ("MQCMD_INQUIRE_CHANNEL_STATUS", status),
    ("MQCMD_START_CHANNEL", {CMQCFC.MQCACH_CHANNEL_NAME: b"PCF.QM1.QM2"}),
    ("MQCMD_START_CHANNEL", {CMQCFC.MQCACH_CHANNEL_NAME: b"PCF.QM1.QM2"}),
    ("MQCMD_INQUIRE_CHANNEL_STATUS", {**status, CMQCFC.MQIACH_CHANNEL_INSTANCE_ATTRS: [CMQCFC.MQIACF_ALL]}),
    ("MQCMD_STOP_CHANNEL", status),
    ("MQCMD_INQUIRE_CHANNEL_STATUS", {**status, CMQCFC.MQIACH_CHANNEL_INSTANCE_ATTRS: [CMQCFC.MQIACF_ALL]}),
    ("MQCMD_START_CHANNEL", {CMQCFC.MQCACH_CHANNEL_NAME: b"NO.SUCH.CHANNEL"}),
])
print(json.dumps({"QM1": qm1, "QM2": qm2}))
"""


def test_pcf_defines_a_remote_queue_and_channels_and_starts_stops_and_inquires_them(listener):
    from ibmmq import CMQC, CMQCFC

    out = json.loads(_finish(_start(listener, PCF)))
    assert out["QM2"] == [[]]
    (created_xmitq, created_remote, created_channel, remote, before, started, again, running, stopped, after,
     unknown) = out["QM1"]
    assert created_xmitq == created_remote == created_channel == []
    (queue,) = remote
    assert queue[str(CMQC.MQIA_Q_TYPE)] == CMQC.MQQT_REMOTE
    assert "DEV.QUEUE.3" in queue[str(CMQC.MQCA_REMOTE_Q_NAME)] and "QM2" in queue[str(CMQC.MQCA_REMOTE_Q_MGR_NAME)]
    assert "XQ.QM2" in queue[str(CMQC.MQCA_XMIT_Q_NAME)]
    assert before == f"FAILED {CMQCFC.MQRCCF_CHL_STATUS_NOT_FOUND}"
    assert started == []
    assert again == f"FAILED {CMQCFC.MQRCCF_CHANNEL_IN_USE}"
    (instance,) = running
    assert instance[str(CMQCFC.MQIACH_CHANNEL_STATUS)] == CMQCFC.MQCHS_RUNNING
    assert instance[str(CMQCFC.MQIACH_CHANNEL_TYPE)] == 1  # MQCHT_SENDER
    assert "QM2" in instance[str(CMQC.MQCA_REMOTE_Q_MGR_NAME)]
    assert instance[str(CMQCFC.MQIACH_XMITQ_MSGS_AVAILABLE)] == 0
    assert stopped == []
    assert after[0][str(CMQCFC.MQIACH_CHANNEL_STATUS)] == CMQCFC.MQCHS_STOPPED
    assert unknown == f"FAILED {CMQCFC.MQRCCF_CHANNEL_NOT_FOUND}"
    # messages put while it is stopped wait; the PCF-started channel carries them once started again
    _finish(_start(listener, PUT, "PCF.REMOTE", "0"))
    assert _finish(_start(listener, GET, "QM2", "DEV.QUEUE.3", "500")).strip() == "reason 2033"
    _mqsc(listener, "QM1", "START CHANNEL(PCF.QM1.QM2)")
    assert _finish(_start(listener, GET, "QM2", "DEV.QUEUE.3", "30000")).split()[0] == b"payload".hex()


# -- in process: the definitions and commands on one queue manager ------------------------------------------------
@pytest.fixture
def mqsc_qm1(ibmmq_emulator):
    import ibmmq
    from ibmmq import CMQCFC

    ibmmq_emulator.developer()
    qmgr = ibmmq.connect("QM1")
    pcf = ibmmq.PCFExecute(qmgr)

    def run(command: str) -> list[str]:
        try:
            answers = pcf.MQCMD_ESCAPE({CMQCFC.MQIACF_ESCAPE_TYPE: CMQCFC.MQET_MQSC,
                                        CMQCFC.MQCACF_ESCAPE_TEXT: command.encode()})
        except ibmmq.MQMIError as exc:
            return [f"FAILED {exc.reason}"]
        return [a[CMQCFC.MQCACF_ESCAPE_TEXT].decode() for a in answers]

    yield run
    qmgr.disconnect()


def test_mqsc_defines_and_displays_remote_queues_aliases_and_transmission_queues(mqsc_qm1, ibmmq_emulator):
    # clauses emulator.distributed-admin
    assert mqsc_qm1("DEFINE QLOCAL(TO.QM9) USAGE(XMITQ)") == ["AMQ8006I: IBM MQ queue created."]
    assert mqsc_qm1("DEFINE QREMOTE(ORDERS.QM9) RNAME(ORDERS) RQMNAME(QM9) XMITQ(TO.QM9) DEFPRTY(4)") == [
        "AMQ8006I: IBM MQ queue created."]
    assert mqsc_qm1("DEFINE QREMOTE(QM8) RQMNAME(QM9) XMITQ(TO.QM9)") == ["AMQ8006I: IBM MQ queue created."]  # alias
    (remote,) = mqsc_qm1("DISPLAY QREMOTE(ORDERS.QM9) ALL")
    assert "TYPE(QREMOTE)" in remote and "RNAME(ORDERS)" in remote and "RQMNAME(QM9)" in remote
    assert "XMITQ(TO.QM9)" in remote and "USAGE(" not in remote and "CURDEPTH(" not in remote
    (xmitq,) = mqsc_qm1("DISPLAY QLOCAL(TO.QM9) USAGE")
    assert "USAGE(XMITQ)" in xmitq
    definition = ibmmq_emulator.queues["QM8"].definition
    assert (definition.RemoteQName, definition.RemoteQMgrName) == ("", "QM9")
    # a put to the remote queue, and one to the alias, wait on the transmission queue behind their MQXQH
    import ibmmq

    qmgr = ibmmq.connect("QM1")
    qmgr.put1("ORDERS.QM9", b"one")
    qmgr.put1(ibmmq.OD(ObjectName=b"INVOICES", ObjectQMgrName=b"QM8"), b"two")
    waiting = [data for _md, data in ibmmq_emulator.messages("TO.QM9")]
    assert [d[:4] for d in waiting] == [b"XQH ", b"XQH "] and waiting[0].endswith(b"one")
    assert b"ORDERS" in waiting[0][8:56] and b"INVOICES" in waiting[1][8:56]
    qmgr.disconnect()


def test_alter_qmgr_defxmitq_is_the_default_transmission_queue(mqsc_qm1, ibmmq_emulator):
    import ibmmq

    mqsc_qm1("DEFINE QLOCAL(DEFAULT.XMITQ) USAGE(XMITQ)")
    qmgr = ibmmq.connect("QM1")
    with pytest.raises(ibmmq.MQMIError):  # no route to QM7 yet
        qmgr.put1(ibmmq.OD(ObjectName=b"ANY", ObjectQMgrName=b"QM7"), b"lost")
    assert mqsc_qm1("ALTER QMGR DEFXMITQ(DEFAULT.XMITQ)") == ["AMQ8005I: IBM MQ queue manager changed."]
    qmgr.put1(ibmmq.OD(ObjectName=b"ANY", ObjectQMgrName=b"QM7"), b"routed")
    assert ibmmq_emulator.depth("DEFAULT.XMITQ") == 1
    qmgr.disconnect()


def test_start_and_stop_channel_in_process_where_no_partner_answers(mqsc_qm1):
    mqsc_qm1("DEFINE QLOCAL(QM2) USAGE(XMITQ)")
    mqsc_qm1("DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) CONNAME('localhost(1414)') XMITQ(QM2)")
    mqsc_qm1("DEFINE CHANNEL(QM1.NOQ) CHLTYPE(SDR) CONNAME('localhost(1414)') XMITQ(DEV.QUEUE.1)")
    assert mqsc_qm1("START CHANNEL(QM1.TO.QM2)") == ["AMQ8018I: Start IBM MQ channel accepted."]
    (shown,) = mqsc_qm1("DISPLAY CHSTATUS(QM1.TO.QM2)")
    assert "STATUS(RETRYING)" in shown and "CHLTYPE(SDR)" in shown and "XMITQ(QM2)" in shown
    assert mqsc_qm1("STOP CHANNEL(QM1.TO.QM2)") == ["AMQ8019I: Stop IBM MQ channel accepted."]
    assert "STATUS(STOPPED)" in mqsc_qm1("DISPLAY CHSTATUS(QM1.TO.QM2)")[0]
    assert mqsc_qm1("STOP CHANNEL(QM1.TO.QM2)") == ["FAILED 3008"]  # stopped already: not active
    mqsc_qm1("START CHANNEL(QM1.NOQ)")  # its XMITQ is no transmission queue: it stops
    assert "STATUS(STOPPED)" in mqsc_qm1("DISPLAY CHSTATUS(QM1.NOQ)")[0]
    assert mqsc_qm1("START CHANNEL(DEV.APP.SVRCONN)") == ["AMQ8018I: Start IBM MQ channel accepted."]  # enabled
    assert mqsc_qm1("START CHANNEL(NO.SUCH)") == ["FAILED 3008"]


def test_a_stopped_receiver_makes_its_sender_retry_until_it_is_started(listener):
    _setup(listener)
    assert _mqsc(listener, "QM2", "STOP CHANNEL(QM1.TO.QM2)") == [["AMQ8019I: Stop IBM MQ channel accepted."]]
    assert _status(listener, "QM2", "QM1.TO.QM2") == "STOPPED"
    _finish(_start(listener, PUT, "REQUESTS.QM2", "0"))
    assert _finish(_start(listener, GET, "QM2", "DEV.QUEUE.1", "1500")).strip() == "reason 2033"
    assert _status(listener, "QM1", "QM1.TO.QM2") == "RETRYING"
    assert _mqsc(listener, "QM2", "START CHANNEL(QM1.TO.QM2)") == [["AMQ8018I: Start IBM MQ channel accepted."]]
    assert _finish(_start(listener, GET, "QM2", "DEV.QUEUE.1", "30000")).split()[0] == b"payload".hex()
    assert _status(listener, "QM1", "QM1.TO.QM2") == "RUNNING"


def test_a_confirmation_of_arrival_made_at_qm2_travels_back_to_qm1(listener):
    _setup(listener)
    asked = _start(listener, """
        import ibmmq
        from ibmmq import CMQC
        qmgr = ibmmq.connect("QM1", "DEV.APP.SVRCONN", "localhost(1414)")
        md = ibmmq.MD(Report=CMQC.MQRO_COA, ReplyToQ=b"DEV.QUEUE.2")
        qmgr.put1("REQUESTS.QM2", b"payload", md)
        queue = ibmmq.Queue(qmgr, "DEV.QUEUE.2", CMQC.MQOO_INPUT_SHARED)
        report = ibmmq.MD()
        queue.get(None, report, ibmmq.GMO(Options=CMQC.MQGMO_WAIT, WaitInterval=30_000))
        print(report.MsgType == CMQC.MQMT_REPORT, report.Feedback == CMQC.MQFB_COA, report.CorrelId == md.MsgId)
        """)
    assert _finish(asked).split() == ["True", "True", "True"]
