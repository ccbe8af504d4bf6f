"""The listener against a client that lies (issue 34): each class of attack the session protocol must hold
against (emulator/server.py, emulator/session.py; docs/emulator.md, "The session protocol"), with a raw client
that sends what a test tells it (tests/session_client.py) and, where a process must die, a real application's
process. Loopback and unix sockets only; every wait bounded."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest

from mq_conformance.emulator import EmulatorUnavailable, load_ibmmq

try:
    ibmmq = load_ibmmq()
except EmulatorUnavailable as exc:  # no wheel of IBM's ibmmq for this platform (pyproject.toml)
    pytest.skip(str(exc), allow_module_level=True)

from session_client import RawSession, silent_socket, structure  # noqa: E402

from mq_conformance.emulator import session as protocol  # noqa: E402
from mq_conformance.emulator.emulator import Emulator  # noqa: E402
from mq_conformance.emulator.server import Budgets, Listener, ListenError  # noqa: E402
from mq_conformance.emulator.session import ProtocolError, Verb  # noqa: E402

CMQC = ibmmq.CMQC
MQCC_OK, MQCC_WARNING, MQCC_FAILED = 0, 1, 2
QUEUE = b"DEV.QUEUE.1"


@pytest.fixture
def listener(tmp_path) -> Iterator[Listener]:
    """A listener on a unix socket with IBM's developer objects and one user."""
    emulator = Emulator(real_time=True)
    emulator.developer()
    started = Listener(f"unix:{tmp_path}/qm.sock", emulator, {"app": "passw0rd"}).start()
    try:
        yield started
    finally:
        started.close()


def _connected(listener: Listener, **credentials: bytes) -> RawSession:
    session = RawSession(listener.address)
    out = session.connx(**(credentials or {"user": b"app", "password": b"passw0rd"}))
    assert out[:2] == [MQCC_OK, 0], out
    return session


def _open(session: RawSession, name: bytes = QUEUE, options: int = 0, **od: object) -> int:
    options = options or CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_SHARED | CMQC.MQOO_INQUIRE
    out = session.call(Verb.OPEN, session.hconn, structure("OD", ObjectName=name, **od), options, b"", b"", 0)
    assert out[:2] == [MQCC_OK, 0], out
    return out[3]


def _put(session: RawSession, hobj: int, data: bytes, syncpoint: bool = False, **md: object) -> list:
    pmo = structure("PMO", Options=CMQC.MQPMO_SYNCPOINT if syncpoint else CMQC.MQPMO_NO_SYNCPOINT)
    return session.call(Verb.PUT, session.hconn, hobj, structure("MD", **md), pmo, data)


def _get(session: RawSession, hobj: int, wait_ms: int = 0, hconn: int | None = None) -> list:
    options = CMQC.MQGMO_NO_SYNCPOINT | (CMQC.MQGMO_WAIT if wait_ms else CMQC.MQGMO_NO_WAIT)
    gmo = structure("GMO", Options=options, WaitInterval=wait_ms)
    return session.call(Verb.GET, session.hconn if hconn is None else hconn, hobj, structure("MD"), gmo, 4096)


def _until(condition, seconds: float = 30.0) -> bool:
    """Whether ``condition()`` becomes true within ``seconds`` (a bound, not a measure)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return condition()


# -- foreign handles --------------------------------------------------------------------------------------------

def test_another_sessions_handles_are_refused_and_its_work_is_untouched(listener):
    """Clause emulator.listener-handles."""
    owner, stranger = _connected(listener), _connected(listener)
    hobj = _open(owner, QUEUE)
    assert _put(owner, hobj, b"in the owner's unit of work", syncpoint=True)[:2] == [MQCC_OK, 0]
    # the stranger names the owner's connection: every call is MQRC_HCONN_ERROR, nothing runs
    assert stranger.call(Verb.BACK, owner.hconn)[:2] == [MQCC_FAILED, 2018]
    assert stranger.call(Verb.DISC, owner.hconn)[:2] == [MQCC_FAILED, 2018]
    assert _get(stranger, hobj, hconn=owner.hconn)[:2] == [MQCC_FAILED, 2018]
    # its own connection with the owner's object handle: MQRC_HOBJ_ERROR
    assert _get(stranger, hobj)[:2] == [MQCC_FAILED, 2019]
    assert stranger.call(Verb.CLOSE, stranger.hconn, hobj, 0)[:2] == [MQCC_FAILED, 2019]
    inq = stranger.call(Verb.INQ, stranger.hconn, hobj, protocol.encode_items("i", [CMQC.MQIA_CURRENT_Q_DEPTH]),
                        1, 0)
    assert inq[:2] == [MQCC_FAILED, 2019] and inq[2:] == [b"", b""]
    # the owner's unit of work and message are as they were: its MQCMIT commits them
    assert owner.call(Verb.CMIT, owner.hconn)[:2] == [MQCC_OK, 0]
    assert [data for _, data in listener.emulator.messages("DEV.QUEUE.1")] == [b"in the owner's unit of work"]
    got = _get(owner, hobj)
    assert got[:2] == [MQCC_OK, 0] and got[4] == b"in the owner's unit of work"


def test_another_sessions_message_handle_is_hmsg_error(listener):
    owner, stranger = _connected(listener), _connected(listener)
    created = owner.call(Verb.CRTMH, owner.hconn, structure("CMHO"))
    assert created[:2] == [MQCC_OK, 0]
    hmsg = created[2]
    set_out = stranger.call(Verb.SETMP, stranger.hconn, hmsg, structure("SMPO"), b"colour", structure("PD"),
                            CMQC.MQTYPE_STRING, b"red")
    assert set_out[:2] == [MQCC_FAILED, 2460]
    assert stranger.call(Verb.DLTMH, stranger.hconn, hmsg, structure("DMHO"))[:2] == [MQCC_FAILED, 2460]
    assert owner.call(Verb.SETMP, owner.hconn, hmsg, structure("SMPO"), b"colour", structure("PD"),
                      CMQC.MQTYPE_STRING, b"red")[:2] == [MQCC_OK, 0]
    inq = owner.call(Verb.INQMP, owner.hconn, hmsg, structure("IMPO"), b"colour", structure("PD"),
                     CMQC.MQTYPE_AS_SET, 64, 64)
    assert inq[:2] == [MQCC_OK, 0] and inq[5:] == [CMQC.MQTYPE_STRING, b"red", 3]


# -- the handshake and authentication ---------------------------------------------------------------------------

def test_a_call_before_connx_ends_the_session_unanswered(listener):
    for hello in (False, True):
        raw = RawSession(listener.address)
        if hello:
            raw.hello()
        raw.send(protocol.request(Verb.OPEN, 1, 0x0100_0001, structure("OD", ObjectName=QUEUE), 0x10, b"", b"", 0))
        assert raw.closed_by_peer()
    depth_before = listener.emulator.depth("DEV.QUEUE.1")
    raw = RawSession(listener.address)  # a PUT with a guessed connection handle, no handshake at all
    raw.send(protocol.request(Verb.PUT, 1, 0x0100_0001, 1, structure("MD"), structure("PMO"), b"x"))
    assert raw.closed_by_peer() and listener.emulator.depth("DEV.QUEUE.1") == depth_before


@pytest.mark.parametrize("user, password", [(b"app", b""), (b"nobody", b""), (b"nobody", b"passw0rd"),
                                            (b"app", b"guess")])
def test_an_unknown_user_or_an_empty_or_wrong_password_is_not_authorized(listener, user, password):
    raw = RawSession(listener.address)
    assert raw.connx(user=user, password=password)[:3] == [MQCC_FAILED, 2035, -1]
    assert raw.closed_by_peer()  # a refused CONNX ends the session


def test_an_empty_password_is_refused_even_when_no_users_are_listed(tmp_path):
    open_door = Listener(f"unix:{tmp_path}/open.sock", Emulator()).start()
    try:
        assert RawSession(open_door.address).connx(user=b"app", password=b"")[:2] == [MQCC_FAILED, 2035]
        assert RawSession(open_door.address).connx()[:2] == [MQCC_OK, 0]  # no user at all: not checked
    finally:
        open_door.close()


def test_an_attach_with_a_token_that_is_no_sessions_is_refused(listener):
    raw = RawSession(listener.address)
    raw.hello()
    assert raw.call(Verb.ATTACH, b"\0" * 16)[:2] == [MQCC_FAILED, 2018]
    assert raw.closed_by_peer()


# -- addresses in structures ------------------------------------------------------------------------------------

def test_a_garbage_pointer_in_an_mqod_is_never_read_and_the_string_sent_by_value_is_used(listener):
    session = _connected(listener)
    out_hobj = _open(session, QUEUE, CMQC.MQOO_OUTPUT)
    for priority in (3, 7):
        assert _put(session, out_hobj, b"priority %d" % priority, Priority=priority)[:2] == [MQCC_OK, 0]
    selector = b"JMSPriority = 7"
    od = structure("OD", Version=4, ObjectName=QUEUE, SelectionStringVSPtr=0xDEAD_BEEF,
                   SelectionStringVSLength=len(selector), ObjectStringVSPtr=0x10, ObjectStringVSLength=4096)
    opened = session.call(Verb.OPEN, session.hconn, od, CMQC.MQOO_INPUT_SHARED, b"", selector, 0)
    assert opened[:2] == [MQCC_OK, 0]
    returned_od = ibmmq.OD()
    returned_od.unpack(opened[2])
    assert returned_od.SelectionStringVSPtr == 0  # the server zeroes what it never reads
    got = _get(session, opened[3])
    assert got[:2] == [MQCC_OK, 0] and got[4] == b"priority 7"
    # the same garbage with no string sent: no selection (the pointer is still never read)
    unselected = session.call(Verb.OPEN, session.hconn, od, CMQC.MQOO_INPUT_SHARED, b"", b"", 0)
    assert unselected[:2] == [MQCC_OK, 0]
    got = _get(session, unselected[3])
    assert got[:2] == [MQCC_OK, 0] and got[4] == b"priority 3"


def test_a_garbage_pointer_in_an_mqsd_is_never_read(listener):
    session = _connected(listener)
    sd = structure("SD", Options=CMQC.MQSO_CREATE | CMQC.MQSO_MANAGED | CMQC.MQSO_NON_DURABLE,
                   ObjectStringVSPtr=0xBAD, ObjectStringVSLength=64, SubNameVSPtr=0xBAD0, SubNameVSLength=32)
    out = session.call(Verb.SUB, session.hconn, sd, 0, b"Sports/Golf", b"", b"", b"", 0)
    assert out[:2] == [MQCC_OK, 0] and out[5] == b"Sports/Golf"  # ResObjectString, by value
    published = session.call(Verb.PUT1, session.hconn, structure("OD", Version=4, ObjectType=CMQC.MQOT_TOPIC),
                             b"Sports/Golf", b"", structure("MD"), structure("PMO"), b"a hole in one")
    assert published[:2] == [MQCC_OK, 0]
    got = _get(session, out[3])  # the managed queue's handle is the session's own
    assert got[:2] == [MQCC_OK, 0] and got[4] == b"a hole in one"


def test_a_structure_of_an_earlier_version_comes_back_at_its_own_length(listener):
    session = _connected(listener)
    hobj = _open(session)
    md_v1 = structure("MD", Version=1)[:324]  # MQMD_LENGTH_1: what a C caller with an MQMD v1 has
    out = session.call(Verb.PUT, session.hconn, hobj, md_v1, structure("PMO", Options=CMQC.MQPMO_NO_SYNCPOINT),
                       b"v1")
    assert out[:2] == [MQCC_OK, 0] and len(out[2]) == 324 and out[2][48:72] != b"\0" * 24  # a MsgId came back
    got = session.call(Verb.GET, session.hconn, hobj, md_v1, structure("GMO"), 10)
    assert got[:2] == [MQCC_OK, 0] and len(got[2]) == 324 and got[4] == b"v1"


# -- dead waiters and consumers ---------------------------------------------------------------------------------

def _application(listener: Listener, source: str) -> subprocess.Popen:
    """A Python application's process using ``import ibmmq`` against the listener (MQCONF_EMULATOR)."""
    boot = "from mq_conformance.emulator import install_unless_client; install_unless_client()\n"
    environment = {**os.environ, "MQCONF_EMULATOR": listener.address}
    environment.pop("MQCONF_IBMMQ_EMULATOR", None)
    return subprocess.Popen([sys.executable, "-c", boot + source], env=environment, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _killed_while_waiting(listener: Listener, process: subprocess.Popen) -> None:
    try:
        assert process.stdout.readline().strip() == "ready"
        assert _until(lambda: listener.emulator._waiting > 0)  # noqa: SLF001 - its get waits in the listener
    finally:
        process.kill()
        process.wait(timeout=10)
        process.stdout.close()
        process.stderr.close()


def _the_next_message_waits_for_the_next_getter(listener: Listener, queue: bytes) -> None:
    putter = _connected(listener)
    assert _put(putter, _open(putter, queue, CMQC.MQOO_OUTPUT), b"for whoever gets next")[:2] == [MQCC_OK, 0]
    assert listener.emulator.depth(queue.decode()) == 1  # the dead client's get did not take it
    getter = _connected(listener)
    got = _get(getter, _open(getter, queue, CMQC.MQOO_INPUT_SHARED), wait_ms=5000)
    assert got[:2] == [MQCC_OK, 0] and got[4] == b"for whoever gets next"
    # the dead session's wait ended and it is gone: only these two are connected
    assert _until(lambda: set(listener.emulator.connections("QM1")) == {putter.hconn, getter.hconn})


def test_a_client_killed_while_its_get_waits_leaves_the_next_message_on_the_queue(listener):
    """Clause emulator.listener-session-end."""
    process = _application(listener, (
        "import ibmmq\n"
        "from ibmmq import CMQC\n"
        "queue = ibmmq.Queue(ibmmq.connect('QM1', user='app', password='passw0rd'), 'DEV.QUEUE.1', "
        "CMQC.MQOO_INPUT_SHARED)\n"
        "print('ready', flush=True)\n"
        "queue.get(None, ibmmq.MD(), ibmmq.GMO(Options=CMQC.MQGMO_WAIT, WaitInterval=CMQC.MQWI_UNLIMITED))\n"))
    _killed_while_waiting(listener, process)
    _the_next_message_waits_for_the_next_getter(listener, b"DEV.QUEUE.1")


def test_a_consumer_left_behind_by_a_dead_client_consumes_nothing_more(listener):
    process = _application(listener, (
        "import threading, ibmmq\n"
        "from ibmmq import CMQC\n"
        "qmgr = ibmmq.connect('QM1', user='app', password='passw0rd')\n"
        "queue = ibmmq.Queue(qmgr, 'DEV.QUEUE.2', CMQC.MQOO_INPUT_SHARED)\n"
        "cbd = ibmmq.CBD()\n"
        "cbd.CallbackFunction = lambda **kwargs: print('consumed', flush=True)\n"
        "queue.cb(operation=CMQC.MQOP_REGISTER, cbd=cbd, md=ibmmq.MD(), gmo=ibmmq.GMO(Options=CMQC.MQGMO_WAIT, "
        "WaitInterval=CMQC.MQWI_UNLIMITED))\n"
        "qmgr.ctl(CMQC.MQOP_START, ibmmq.CTLO())\n"
        "print('ready', flush=True)\n"
        "threading.Event().wait()\n"))
    _killed_while_waiting(listener, process)
    _the_next_message_waits_for_the_next_getter(listener, b"DEV.QUEUE.2")


def test_a_session_whose_socket_closes_has_its_unit_of_work_backed_out(listener):
    session = _connected(listener)
    assert _put(session, _open(session), b"never committed", syncpoint=True)[:2] == [MQCC_OK, 0]
    assert listener.emulator.depth("DEV.QUEUE.1") == 1
    session.close()
    assert _until(lambda: listener.emulator.depth("DEV.QUEUE.1") == 0)


def test_cancel_ends_the_get_an_attached_socket_waits_in(listener):
    session = _connected(listener)
    hobj = _open(session)
    consumer = RawSession(listener.address)
    consumer.hello()
    assert consumer.call(Verb.ATTACH, session.token)[:2] == [MQCC_OK, 0]
    consumer.hconn = session.hconn
    answers: list = []
    waiter = threading.Thread(target=lambda: answers.append(_get(consumer, hobj, wait_ms=CMQC.MQWI_UNLIMITED)))
    waiter.start()
    assert _until(lambda: listener.emulator._waiting > 0)  # noqa: SLF001
    assert session.call(Verb.CANCEL, session.hconn)[:2] == [MQCC_OK, 0]
    waiter.join(timeout=10)
    assert answers and answers[0][:2] == [MQCC_FAILED, 2549]  # MQRC_CALL_INTERRUPTED


def test_an_attached_consumer_left_behind_ends_with_its_session(listener):
    """A C client's consumer thread waits on an ATTACHed socket; its connection's own socket closes (the process
    is gone, or merely closed it): the listener ends the consumer's wait and closes its socket too (its client
    reports MQRC_CONNECTION_BROKEN), and a message put afterwards waits for the next getter. Clause
    emulator.listener-session-end."""
    session = _connected(listener)
    hobj = _open(session, b"DEV.QUEUE.3", CMQC.MQOO_INPUT_SHARED)
    consumer = RawSession(listener.address)
    consumer.hello()
    assert consumer.call(Verb.ATTACH, session.token)[:2] == [MQCC_OK, 0]
    consumer.hconn = session.hconn
    answers: list = []

    def wait_for_a_message() -> None:
        try:
            answers.append(_get(consumer, hobj, wait_ms=CMQC.MQWI_UNLIMITED))
        except ProtocolError as exc:
            answers.append(exc)

    waiter = threading.Thread(target=wait_for_a_message)
    waiter.start()
    assert _until(lambda: listener.emulator._waiting > 0)  # noqa: SLF001
    session.close()
    waiter.join(timeout=30)
    assert answers and isinstance(answers[0], ProtocolError)  # closed with its session, nothing delivered
    _the_next_message_waits_for_the_next_getter(listener, b"DEV.QUEUE.3")


# -- socket paths -----------------------------------------------------------------------------------------------

def test_a_regular_file_at_the_socket_path_is_refused_and_kept(tmp_path):
    path = tmp_path / "qm.sock"
    path.write_text("someone's data")
    with pytest.raises(ListenError, match="not a socket"):
        Listener(f"unix:{path}", Emulator())
    assert path.read_text() == "someone's data"


def test_the_socket_of_a_live_emulator_is_not_taken_and_a_stale_one_is_replaced(listener, tmp_path):
    with pytest.raises(ListenError, match="another emulator is listening"):
        Listener(listener.address, Emulator())
    assert _connected(listener).hconn > 0  # the first still serves
    stale = tmp_path / "stale.sock"
    left = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    left.bind(str(stale))  # a socket file whose listener is gone
    left.close()
    replacing = Listener(f"unix:{stale}", Emulator()).start()
    try:
        assert RawSession(replacing.address).connx()[:2] == [MQCC_OK, 0]
    finally:
        replacing.close()
    assert not stale.exists()  # its own socket removed when it closed


def test_listening_beyond_loopback_without_users_is_refused():
    with pytest.raises(ListenError, match="reachable from other machines"):
        Listener("0.0.0.0:0", Emulator())



@pytest.mark.parametrize("arguments", [[], ["--listen", "localhost:0", "--max-connections", "0"],
                                       ["--listen", "unix:{tmp}/file"]])
def test_an_error_of_the_emulator_command_is_one_line_with_one_prefix(arguments, tmp_path, capsys):
    """`mqconf emulator` with no address, a bad budget, a regular file as the socket path: `mqconf: emulator: ...`,
    never `mqconf: mqconf emulator: ...`."""
    from mq_conformance.conformance.cli import main

    (tmp_path / "file").write_text("kept")
    assert main(["emulator", *[a.format(tmp=tmp_path) for a in arguments]]) != 0
    [line] = capsys.readouterr().err.strip().splitlines()
    assert line.startswith("mqconf: emulator: ") and line.count("mqconf") == 1, line



def test_stat_returns_the_object_string_of_the_first_failing_asynchronous_put(listener):
    """MQSTS version 2 (IBM's MQSTS page): for MQSTAT_TYPE_ASYNC_ERROR, ObjectString is the long name of the queue
    of the put that failed first and SubName a zero-length string; libmqm copies both into the application's
    buffers."""
    listener.emulator.define_queue("APP.OUT", MaxQDepth=1)
    session = _connected(listener)
    hobj = _open(session, b"APP.OUT", CMQC.MQOO_OUTPUT)
    pmo = structure("PMO", Options=CMQC.MQPMO_ASYNC_RESPONSE | CMQC.MQPMO_NO_SYNCPOINT)
    for data in (b"1", b"2"):  # the second finds the queue full: told by MQSTAT
        assert session.call(Verb.PUT, session.hconn, hobj, structure("MD"), pmo, data)[:2] == [MQCC_OK, 0]
    out = session.call(Verb.STAT, session.hconn, CMQC.MQSTAT_TYPE_ASYNC_ERROR, structure("STS", Version=2))
    assert out[:2] == [MQCC_OK, 0] and out[3:] == [b"APP.OUT", b""]
    again = session.call(Verb.STAT, session.hconn, CMQC.MQSTAT_TYPE_ASYNC_ERROR, structure("STS", Version=2))
    assert again[3:] == [b"", b""]  # nothing failed since



def test_the_python_client_copies_stats_object_string_into_the_callers_buffer(listener):
    """Through the Python client (remote.py): ObjectString into the MQSTS's own buffer, VSLength its length."""
    listener.emulator.define_queue("APP.OUT", MaxQDepth=1)
    application = _application(listener, (
        "import ctypes, ibmmq\n"
        "from ibmmq import CMQC\n"
        "qmgr = ibmmq.connect('QM1', 'DEV.APP.SVRCONN', 'localhost(1414)', 'app', 'passw0rd')\n"
        "queue = ibmmq.Queue(qmgr, 'APP.OUT', CMQC.MQOO_OUTPUT)\n"
        "for data in (b'1', b'2'):\n"
        "    queue.put(data, ibmmq.MD(), ibmmq.PMO(Options=CMQC.MQPMO_ASYNC_RESPONSE | CMQC.MQPMO_NO_SYNCPOINT))\n"
        "buffer = ctypes.create_string_buffer(64)\n"
        "sts = ibmmq.STS(ObjectStringVSPtr=ctypes.addressof(buffer), ObjectStringVSBufSize=64)\n"
        "out = ibmmq.ibmmqc.MQSTAT(qmgr.get_handle(), CMQC.MQSTAT_TYPE_ASYNC_ERROR, sts.pack())\n"
        "status = ibmmq.STS().unpack(out[0])\n"
        "print(out[2], status.Reason, status.ObjectStringVSLength, buffer.value.decode())\n"))
    out, err = application.communicate(timeout=120)
    assert application.returncode == 0, err
    assert out.split() == ["0", str(CMQC.MQRC_Q_FULL), "7", "APP.OUT"]



def test_the_python_clients_consumer_gets_go_over_a_socket_attached_to_its_session(listener, tmp_path):
    """As libmqm's: the delivering thread's gets use a socket of their own (ATTACH), so the connection's socket
    is never held by a consumer's wait; the messages still reach the callback."""
    stop = tmp_path / "stop"
    application = _application(listener, (
        "import os, sys, threading, time, ibmmq\n"
        "from ibmmq import CMQC\n"
        "got = threading.Event()\n"
        "def on_message(**kwargs):\n"
        "    if kwargs['cbc'].CallType == CMQC.MQCBCT_MSG_REMOVED:\n"
        "        got.set()\n"
        "qmgr = ibmmq.connect('QM1', 'DEV.APP.SVRCONN', 'localhost(1414)', 'app', 'passw0rd')\n"
        "queue = ibmmq.Queue(qmgr, 'DEV.QUEUE.3', CMQC.MQOO_INPUT_AS_Q_DEF)\n"
        "cbd = ibmmq.CBD()\n"
        "cbd.CallbackFunction = on_message\n"
        "queue.cb(operation=CMQC.MQOP_REGISTER, cbd=cbd, md=ibmmq.MD(), gmo=ibmmq.GMO(\n"
        "    Options=CMQC.MQGMO_NO_SYNCPOINT | CMQC.MQGMO_WAIT, WaitInterval=CMQC.MQWI_UNLIMITED))\n"
        "qmgr.ctl(CMQC.MQOP_START, ibmmq.CTLO())\n"
        "sender = ibmmq.connect('QM1', 'DEV.APP.SVRCONN', 'localhost(1414)', 'app', 'passw0rd')\n"
        "ibmmq.Queue(sender, 'DEV.QUEUE.3', CMQC.MQOO_OUTPUT).put(b'one')\n"
        "print('delivered' if got.wait(60) else 'timed out', flush=True)\n"
        f"while not os.path.exists({str(stop)!r}):\n"
        "    time.sleep(0.02)\n"
        "qmgr.ctl(CMQC.MQOP_STOP, ibmmq.CTLO())\n"
        "qmgr.disconnect()\n"
        "sender.disconnect()\n"))
    try:
        assert application.stdout.readline().strip() == "delivered"
        attached = [len(session.sockets) for session in list(listener._sessions.values())]  # noqa: SLF001
        assert sorted(attached) == [0, 1]  # the consumer's connection has its own socket, the sender's none
    finally:
        stop.write_text("")
        out, err = application.communicate(timeout=120)
    assert application.returncode == 0, err


# -- budgets ----------------------------------------------------------------------------------------------------

def test_silent_sockets_do_not_lock_out_a_real_client_after_the_handshake_time(tmp_path):
    budgets = Budgets(max_connections=3, handshake_seconds=0.5)
    server = Listener(f"unix:{tmp_path}/qm.sock", Emulator(), budgets=budgets).start()
    try:
        silent = [silent_socket(server.address) for _ in range(3)]
        turned_away = RawSession(server.address)
        with pytest.raises(ProtocolError):  # every place taken: closed on accept
            turned_away.hello()
        for sock in silent:  # ended at the handshake time
            sock.settimeout(10)
            assert sock.recv(1) == b""
        assert RawSession(server.address).connx()[:2] == [MQCC_OK, 0]
    finally:
        server.close()


def test_a_connected_socket_idle_past_the_idle_time_is_ended(tmp_path):
    server = Listener(f"unix:{tmp_path}/qm.sock", Emulator(), budgets=Budgets(idle_seconds=0.3)).start()
    try:
        session = RawSession(server.address)
        assert session.connx()[:2] == [MQCC_OK, 0]
        assert session.closed_by_peer()
    finally:
        server.close()


def _peak_while(action) -> int:
    """The most memory Python allocated (all threads) while ``action`` ran."""
    tracemalloc.start()
    try:
        action()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_an_oversized_frame_before_connx_is_refused_without_being_allocated(listener):
    for hello in (False, True):
        raw = RawSession(listener.address)
        if hello:
            raw.hello()

        def claim_256_mib():
            raw.send(protocol.HEADER.pack(256 * 1024 * 1024, Verb.CONNX, 0, 1))
            assert raw.closed_by_peer()  # at once: it did not wait for the body either
        assert _peak_while(claim_256_mib) < 1024 * 1024


def test_an_unconnected_inquire_costs_nothing_and_a_connected_one_only_what_it_answers(listener):
    selectors = protocol.encode_items("i", [CMQC.MQCA_Q_NAME])

    def unconnected():
        raw = RawSession(listener.address)
        raw.send(protocol.request(Verb.INQ, 1, 0x0100_0001, 1, selectors, 0, 0x7FFF_FFFF))
        assert raw.closed_by_peer()
    assert _peak_while(unconnected) < 1024 * 1024
    session = _connected(listener)
    hobj = _open(session)

    def connected():
        out = session.call(Verb.INQ, session.hconn, hobj, selectors, 0, 0x7FFF_FFFF)
        assert out[:2] == [MQCC_OK, 0] and out[3] == b"DEV.QUEUE.1".ljust(48)
    assert _peak_while(connected) < 8 * 1024 * 1024



def _stream_long_frame(session: RawSession, verb: int, items: bytes, length: int) -> None:
    """A frame of ``verb``: ``items`` then a last item of ``length`` zero bytes, sent 64 KiB at a time (the test
    holds no more than that of it)."""
    chunk = bytes(64 * 1024)
    session.send(protocol.HEADER.pack(protocol.HEADER_BODY + len(items) + 4 + length, verb, 0, 7) + items +
                 length.to_bytes(4, "little"))
    for _ in range(length // len(chunk)):
        session.send(chunk)


def test_a_long_frame_past_the_listeners_memory_budget_is_storage_not_available_without_being_held(tmp_path):
    """Issue 34 budgets: the bytes of long frames all sockets hold at once are bounded (Budgets.memory); a put
    past it is read through in the socket's 64 KiB buffer, answered MQRC_STORAGE_NOT_AVAILABLE with its MQMD and
    MQPMO unchanged, and the session goes on; a frame whose long item is not its last ends the session."""
    emulator = Emulator(real_time=True)
    emulator.developer()
    server = Listener(f"unix:{tmp_path}/qm.sock", emulator, budgets=Budgets(memory=4 * 1024 * 1024)).start()
    try:
        session = _connected(server, user=b"", password=b"")
        hobj = _open(session)
        md, pmo = structure("MD"), structure("PMO", Options=CMQC.MQPMO_NO_SYNCPOINT)

        def put_8_mib():
            _stream_long_frame(session, Verb.PUT, protocol.encode_items("iibb", [session.hconn, hobj, md, pmo]),
                               8 * 1024 * 1024)
            verb, tag, body = session.reader.read(protocol.MAX_FRAME)
            assert (verb, tag) == (Verb.PUT, 7)
            assert protocol.decode_items("ii" + protocol.REPLY[Verb.PUT], body) == [MQCC_FAILED, 2071, md, pmo]
        assert _peak_while(put_8_mib) < 1024 * 1024
        assert _put(session, hobj, b"x" * (3 * 1024 * 1024))[:2] == [MQCC_OK, 0]  # within the budget
        assert [len(data) for _, data in emulator.messages("DEV.QUEUE.1")] == [3 * 1024 * 1024]
        assert _until(lambda: server.memory.used == 0)  # given back once the put was done
        other = _connected(server, user=b"", password=b"")
        od = structure("OD", ObjectName=QUEUE)
        _stream_long_frame(other, Verb.OPEN, protocol.encode_items("ibi", [other.hconn, od, 0]), 8 * 1024 * 1024)
        assert other.closed_by_peer()  # its long item (an ObjectString) is not the last: nothing to answer with
        assert _put(session, hobj, b"after")[:2] == [MQCC_OK, 0]  # the first session still served
    finally:
        server.close()


# -- several queue managers, TLS --------------------------------------------------------------------------------

def test_one_listener_serves_several_queue_managers_by_name(tmp_path):
    first, second = Emulator(qmgr="QM1", queues=("APP.Q",)), Emulator(qmgr="QM2", queues=("APP.Q",))
    server = Listener(f"unix:{tmp_path}/qm.sock", [first, second]).start()
    try:
        for name, expected in ((b"QM2", second), (b"", first), (b"QM1", first)):
            session = RawSession(server.address)
            assert session.connx(qmgr=name)[:2] == [MQCC_OK, 0]
            assert _put(session, _open(session, b"APP.Q", CMQC.MQOO_OUTPUT), name or b"blank")[:2] == [MQCC_OK, 0]
        assert [data for _, data in first.messages("APP.Q")] == [b"blank", b"QM1"]
        assert [data for _, data in second.messages("APP.Q")] == [b"QM2"]
        assert RawSession(server.address).connx(qmgr=b"QM9")[:2] == [MQCC_FAILED, 2058]
    finally:
        server.close()


def test_a_channel_configured_for_tls_is_ssl_initialization_error_and_never_connects(listener):
    """Clause emulator.listener-tls."""
    from mq_conformance.emulator import remote

    sessions = len(listener.emulator.connections("QM1"))
    cd = ibmmq.CD(ChannelName=b"DEV.APP.SVRCONN", ConnectionName=listener.address.encode(),
                  SSLCipherSpec=b"ANY_TLS12_OR_HIGHER")
    hconn, comp, reason = remote.MQCONNX(b"QM1", ibmmq.CNO().pack(), cd.pack(), None, None, None)
    assert (hconn, comp, reason) == (-1, MQCC_FAILED, CMQC.MQRC_SSL_INITIALIZATION_ERROR)
    assert len(listener.emulator.connections("QM1")) == sessions


def test_the_python_client_speaks_the_protocol_end_to_end(listener):
    """The Python client module (remote.py) driven directly: put, inquire, properties, get, disconnect."""
    from mq_conformance.emulator import remote

    csp = ibmmq.CSP()
    user, password = b"app", b"passw0rd"
    user_buffer, password_buffer = _c_string(user), _c_string(password)
    csp.CSPUserId, csp._CSPUserIdLength = user_buffer[1], len(user)  # noqa: SLF001 - as IBM's layer fills it
    csp.CSPPassword, csp._CSPPasswordLength = password_buffer[1], len(password)  # noqa: SLF001
    cd = ibmmq.CD(ChannelName=b"DEV.APP.SVRCONN", ConnectionName=listener.address.encode())
    hconn, comp, reason = remote.MQCONNX(b"QM1", ibmmq.CNO().pack(), cd.pack(), csp.pack(), None, None)
    assert (comp, reason) == (MQCC_OK, 0)
    hobj, _od, comp, _ = remote.MQOPEN(hconn, ibmmq.OD(ObjectName=QUEUE).pack(),
                                        CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_SHARED | CMQC.MQOO_INQUIRE)
    hmsg, comp, _ = remote.MQCRTMH(hconn, ibmmq.CMHO().pack())
    assert remote.MQSETMP(hconn, hmsg, ibmmq.SMPO().pack(), b"n", ibmmq.PD().pack(), CMQC.MQTYPE_INT16, -2,
                          2) == (MQCC_OK, 0)
    assert remote.MQINQMP(hconn, hmsg, ibmmq.IMPO().pack(), b"n", ibmmq.PD().pack(), CMQC.MQTYPE_AS_SET,
                          100)[:2] == (-2, 2)
    remote.MQPUT(hconn, hobj, ibmmq.MD().pack(), ibmmq.PMO(Options=CMQC.MQPMO_NO_SYNCPOINT).pack(), b"hello")
    ints, chars, comp, reason = remote.MQINQ(hconn, hobj, [CMQC.MQIA_CURRENT_Q_DEPTH, CMQC.MQCA_Q_NAME], [], 1, 1,
                                             48)
    assert (ints, chars.strip(), comp) == ([1], QUEUE, MQCC_OK)
    data, _md, _gmo, length, comp, reason = remote.MQGET(hconn, hobj, ibmmq.MD().pack(), ibmmq.GMO().pack(), 100)
    assert (data, length, comp) == (b"hello", 5, MQCC_OK)
    [conn] = listener.emulator.connections("QM1").values()
    assert conn.user == "app" and conn.channel == "DEV.APP.SVRCONN"  # the MQCSP's user, read in this process
    assert remote.MQDISC(hconn) == (MQCC_OK, 0)
    assert remote.MQCMIT(hconn) == (MQCC_FAILED, 2018)


def test_the_resolved_topic_string_reaches_the_callers_buffer(listener):
    """ResObjectString of an MQOPEN of a topic object and an ObjectString: the listener sends it by value, the
    Python client copies it into the buffer the caller's MQOD points to and sets its length."""
    import ctypes

    from mq_conformance.emulator import remote

    listener.emulator.define_topic("SPORTS", TopicString="Sports")
    cd = ibmmq.CD(ChannelName=b"DEV.APP.SVRCONN", ConnectionName=listener.address.encode())
    user_buffer, password_buffer = _c_string(b"app"), _c_string(b"passw0rd")
    csp = ibmmq.CSP()
    csp.CSPUserId, csp._CSPUserIdLength = user_buffer[1], 3  # noqa: SLF001
    csp.CSPPassword, csp._CSPPasswordLength = password_buffer[1], 8  # noqa: SLF001
    hconn, comp, _ = remote.MQCONNX(b"QM1", ibmmq.CNO().pack(), cd.pack(), csp.pack(), None, None)
    assert comp == MQCC_OK
    object_string, resolved = _c_string(b"Golf"), ctypes.create_string_buffer(64)
    od = ibmmq.OD(Version=4, ObjectType=CMQC.MQOT_TOPIC, ObjectName=b"SPORTS", ObjectStringVSPtr=object_string[1],
                  ObjectStringVSLength=4, ResObjectStringVSPtr=ctypes.addressof(resolved),
                  ResObjectStringVSBufSize=64)
    hobj, od_out, comp, reason = remote.MQOPEN(hconn, od.pack(), CMQC.MQOO_OUTPUT)
    assert (comp, reason) == (MQCC_OK, 0)
    returned = ibmmq.OD()
    returned.unpack(od_out)
    assert resolved.value == b"Sports/Golf" and returned.ResObjectStringVSLength == len(b"Sports/Golf")
    assert returned.ResObjectStringVSPtr == ctypes.addressof(resolved)  # the caller's own pointer, kept
    remote.MQDISC(hconn)


def _c_string(raw: bytes):
    import ctypes

    buffer = ctypes.create_string_buffer(raw)
    return buffer, ctypes.addressof(buffer)


def test_a_listener_gone_mid_session_is_connection_broken_then_hconn_error(tmp_path):
    from mq_conformance.emulator import remote

    server = Listener(f"unix:{tmp_path}/qm.sock", Emulator()).start()
    # a server-connection channel every queue manager has (emulator.channel-admission)
    cd = ibmmq.CD(ChannelName=b"SYSTEM.DEF.SVRCONN", ConnectionName=server.address.encode())
    hconn, comp, _ = remote.MQCONNX(b"", ibmmq.CNO().pack(), cd.pack(), None, None, None)
    assert comp == MQCC_OK
    server.close()
    assert remote.MQCMIT(hconn) == (MQCC_FAILED, 2009)
    assert remote.MQCMIT(hconn) == (MQCC_FAILED, 2018)


def test_the_server_and_the_python_client_share_one_codec():
    assert Path(protocol.__file__).name == "session.py"  # one codec for the server and the Python client
    from mq_conformance.emulator import remote, server

    assert remote.protocol is server.protocol
