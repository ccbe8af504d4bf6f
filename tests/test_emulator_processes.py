"""One emulated queue manager reached by several processes: ``mqconf emulator --listen`` and ibmmq applications
started with ``MQCONF_EMULATOR`` set and the suite's start-up hook (emulator/server.py,
remote.py, hook.py). The applications in tests/emulator_apps/ are written as for a real queue manager: they
connect with a channel, a connection name and a user."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from mq_conformance.emulator import EmulatorUnavailable, hook, load_ibmmq

try:
    load_ibmmq()
except EmulatorUnavailable as exc:  # no wheel of IBM's ibmmq for this platform (pyproject.toml)
    pytest.skip(str(exc), allow_module_level=True)

APPS = Path(__file__).parent / "emulator_apps"
MQCONF = Path(sys.executable).parent / "mqconf"
# How many messages the exactly-once test sends (make bench-emulator sends 10,000).
MESSAGES = int(os.environ.get("MQCONF_EMULATOR_MESSAGES", "2000"))


@contextmanager
def _listening(tmp_path: Path, *options: str) -> Iterator[dict[str, str]]:
    """``mqconf emulator --listen`` on a unix socket with IBM's developer objects and ``options``; yields the
    environment an application needs (MQCONF_EMULATOR) and the site folder holding the start-up hook, and the
    line the listener printed (LINE)."""
    address = f"unix:{tmp_path}/qm.sock"
    server = subprocess.Popen([str(MQCONF), "emulator", "--listen", address, "--developer", *options],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        line = server.stdout.readline()
        assert "listening" in line, line
        site = tmp_path / "site"
        site.mkdir()
        hook.install_pth(site)
        yield {"MQCONF_EMULATOR": address, "SITE": str(site), "LINE": line}
    finally:
        server.terminate()
        server.wait(timeout=10)


@pytest.fixture
def queue_manager(tmp_path) -> Iterator[dict[str, str]]:
    """A listening emulator with IBM's developer objects and the user app."""
    with _listening(tmp_path, "--user", "app:passw0rd") as env:
        yield env


def _start(env: dict[str, str], app: str, *args: str) -> subprocess.Popen:
    """An application's process: the hook is in a site folder (as ``mqconf emulator --install-hook`` puts it in
    site-packages), the application itself unchanged."""
    program = ("import site, sys, runpy; site.addsitedir(sys.argv[1]); sys.argv = sys.argv[2:]; "
               "runpy.run_path(sys.argv[0], run_name='__main__')")
    environment = {**os.environ, "MQCONF_EMULATOR": env["MQCONF_EMULATOR"]}
    environment.pop("MQCONF_IBMMQ_EMULATOR", None)
    return subprocess.Popen([sys.executable, "-c", program, env["SITE"], str(APPS / app), *args],
                            env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _finish(process: subprocess.Popen, timeout: float = 120) -> str:
    out, err = process.communicate(timeout=timeout)
    assert process.returncode == 0, err
    return out


def test_a_request_and_its_reply_cross_two_processes(queue_manager):
    responder = _start(queue_manager, "responder.py", "5")
    requester = _start(queue_manager, "requester.py", "5")
    answers = _finish(requester).splitlines()
    assert "responder answered 5" in _finish(responder)
    today = time.strftime("%Y%m%d", time.gmtime())
    assert answers == [f"answer to request {n} app {today}" for n in range(5)]  # real user, real date


def test_messages_from_threads_of_one_process_reach_threads_of_another_exactly_once(queue_manager):
    per_thread = MESSAGES // 2
    consumer = _start(queue_manager, "consumer.py", "2", str(MESSAGES))
    producer = _start(queue_manager, "producer.py", "2", str(per_thread))
    assert _finish(producer, 600).strip() == f"produced {MESSAGES}"
    received = _finish(consumer, 600).splitlines()
    pid = str(producer.pid)
    expected = {f"{pid}-{thread}-{index}" for thread in range(2) for index in range(per_thread)}
    assert len(received) == MESSAGES and set(received) == expected


def test_a_wrong_password_is_not_authorized(queue_manager, tmp_path):
    script = tmp_path / "wrong.py"
    script.write_text(
        "import ibmmq\n"
        "try:\n"
        "    ibmmq.connect('QM1', 'DEV.APP.SVRCONN', 'localhost(1414)', 'app', 'guess')\n"
        "except ibmmq.MQMIError as exc:\n"
        "    print(exc.reason)\n"
        "qmgr = ibmmq.connect('QM1', 'DEV.APP.SVRCONN', 'localhost(1414)', 'app', 'passw0rd')\n"
        "print(qmgr.inquire(ibmmq.CMQC.MQCA_DEAD_LETTER_Q_NAME).strip().decode())\n")
    assert _finish(_start(queue_manager, str(script))).split() == ["2035", "DEV.DEAD.LETTER.QUEUE"]


def test_uncommitted_work_of_a_process_that_dies_is_backed_out(queue_manager, tmp_path):
    script = tmp_path / "dies.py"
    script.write_text(
        "import os, ibmmq\n"
        "from ibmmq import CMQC\n"
        "qmgr = ibmmq.connect('QM1', 'DEV.APP.SVRCONN', 'localhost(1414)')\n"
        "queue = ibmmq.Queue(qmgr, 'DEV.QUEUE.3', CMQC.MQOO_OUTPUT)\n"
        "queue.put(b'kept')\n"
        "queue.put(b'lost', ibmmq.MD(), ibmmq.PMO(Options=CMQC.MQPMO_SYNCPOINT))\n"
        "os._exit(0)\n")
    _finish(_start(queue_manager, str(script)))
    reader = tmp_path / "reader.py"
    reader.write_text(
        "import ibmmq\n"
        "from ibmmq import CMQC\n"
        "qmgr = ibmmq.connect('QM1', 'DEV.APP.SVRCONN', 'localhost(1414)')\n"
        "queue = ibmmq.Queue(qmgr, 'DEV.QUEUE.3', CMQC.MQOO_INPUT_SHARED | CMQC.MQOO_INQUIRE)\n"
        "print(queue.get().decode(), queue.inquire(CMQC.MQIA_CURRENT_Q_DEPTH))\n")
    time.sleep(0.2)  # the listener notices the closed socket
    assert _finish(_start(queue_manager, str(reader))).split() == ["kept", "0"]


def test_without_a_listener_a_connect_is_queue_manager_not_available(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    hook.install_pth(site)
    script = tmp_path / "nobody.py"
    script.write_text(
        "import ibmmq\n"
        "try:\n"
        "    ibmmq.connect('QM1', 'DEV.APP.SVRCONN', 'localhost(1414)')\n"
        "except ibmmq.MQMIError as exc:\n"
        "    print(exc.reason)\n")
    env = {"MQCONF_EMULATOR": f"unix:{tmp_path}/nobody.sock", "SITE": str(site)}
    assert _finish(_start(env, str(script))).split() == ["2059"]


def test_a_publication_reaches_a_subscriber_in_another_process(queue_manager):
    # the topic strings and the subscription name (MQCHARV fields) are read in each application's own process
    subscriber = _start(queue_manager, "subscriber.py", "Sports/#", "2")
    assert subscriber.stdout.readline().strip() == "subscribed"
    assert _finish(_start(queue_manager, "publisher.py", "News", "Sports/Football", "Sports/Golf")) == "published 3\n"
    assert _finish(subscriber).splitlines() == ["news of Sports/Football", "news of Sports/Golf"]


def test_a_channel_that_requires_a_user_refuses_a_connect_without_one(tmp_path):
    from mq_conformance.emulator.emulator import Emulator
    from mq_conformance.emulator.server import MQRC_NOT_AUTHORIZED, Listener
    from session_client import RawSession

    emulator = Emulator()
    emulator.developer()  # the channels DEV.ADMIN.SVRCONN and DEV.APP.SVRCONN (emulator.channel-admission)
    listener = Listener(f"unix:{tmp_path}/qm.sock", emulator, {"admin": "password"}, ("DEV.ADMIN.SVRCONN",))
    listener.start()
    try:
        refused = RawSession(listener.address).connx(channel=b"DEV.ADMIN.SVRCONN")
        assert refused[:3] == [2, MQRC_NOT_AUTHORIZED, -1]
        admitted = RawSession(listener.address).connx(channel=b"DEV.ADMIN.SVRCONN", user=b"admin",
                                                      password=b"password")
        assert admitted[:2] == [0, 0] and listener.emulator.owns(admitted[2])
        other = RawSession(listener.address).connx(channel=b"DEV.APP.SVRCONN")
        assert other[:2] == [0, 0]
    finally:
        listener.close()


def test_a_tcp_address_with_no_listener_is_host_not_available(tmp_path):
    import socket

    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    site = tmp_path / "site"
    site.mkdir()
    hook.install_pth(site)
    script = tmp_path / "closed.py"
    script.write_text(
        "import ibmmq\n"
        "try:\n"
        f"    ibmmq.connect('QM1', 'DEV.APP.SVRCONN', '127.0.0.1({port})')\n"
        "except ibmmq.MQMIError as exc:\n"
        "    print(exc.reason)\n")
    env = {"MQCONF_EMULATOR": "1", "SITE": str(site)}
    assert _finish(_start(env, str(script))).split() == ["2538"]


def test_an_asynchronous_consumer_in_another_process_is_called_with_every_message(queue_manager):
    """MQCB/MQCTL in an application of the listener: the callbacks run in the application's process."""
    lines = _finish(_start(queue_manager, "async_consumer.py", "20")).splitlines()
    assert lines == [f"message {n}" for n in range(20)]


def test_an_application_with_a_ccdt_reaches_the_listener_its_channel_names(tmp_path, monkeypatch):
    """Clause emulator.ccdt: no channel in the application, MQCCDTURL names a JSON CCDT whose channel for QM1 lists
    a closed port first, then the listener's."""
    import json
    import socket

    from mq_conformance.emulator.emulator import Emulator
    from mq_conformance.emulator.server import Listener

    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        closed = probe.getsockname()[1]
    emulator = Emulator(real_time=True)
    emulator.developer()
    listener = Listener("127.0.0.1:0", emulator).start()
    port = int(listener.address.split("(")[1].rstrip(")"))
    table = {"channel": [
        {"name": "OTHER.SVRCONN", "type": "clientConnection",
         "clientConnection": {"connection": [{"host": "127.0.0.1", "port": closed}], "queueManager": "QM2"}},
        {"name": "DEV.APP.SVRCONN", "type": "clientConnection",
         "clientConnection": {"connection": [{"host": "127.0.0.1", "port": closed},
                                             {"host": "127.0.0.1", "port": port}], "queueManager": "QM1"}}]}
    (tmp_path / "ccdt.json").write_text(json.dumps(table))
    site = tmp_path / "site"
    site.mkdir()
    hook.install_pth(site)
    script = tmp_path / "with_ccdt.py"
    script.write_text(
        "import ibmmq\n"
        "qmgr = ibmmq.connect('QM1')\n"
        "ibmmq.Queue(qmgr, 'DEV.QUEUE.1').put(b'through the CCDT')\n"
        "try:\n"
        "    ibmmq.connect('QM9')\n"
        "except ibmmq.MQMIError as exc:\n"
        "    print(exc.reason)\n")
    monkeypatch.delenv("MQSERVER", raising=False)
    monkeypatch.setenv("MQCCDTURL", f"file://{tmp_path}/ccdt.json")
    try:
        out = _finish(_start({"MQCONF_EMULATOR": "1", "SITE": str(site)}, str(script)))
        assert out.split() == ["2058"]  # no channel of the CCDT is for QM9
        assert [data for _, data in emulator.messages("DEV.QUEUE.1")] == [b"through the CCDT"]
        [conn] = [c for c in emulator._conns.values()]  # noqa: SLF001 - the channel it came in on
        assert conn.channel == "DEV.APP.SVRCONN"
    finally:
        listener.close()


def test_one_listener_serves_each_queue_manager_named_by_qmgr(tmp_path):
    """`--qmgr` repeated: an application reaches each by the name it connects to."""
    with _listening(tmp_path, "--qmgr", "QM1", "--qmgr", "QM2") as env:
        assert "QM1 QM2 listening" in env["LINE"]
        script = tmp_path / "two.py"
        script.write_text(
            "import ibmmq\n"
            "from ibmmq import CMQC\n"
            "for name in ('QM2', 'QM1'):\n"
            "    qmgr = ibmmq.connect(name, 'DEV.APP.SVRCONN', 'localhost(1414)')\n"
            "    ibmmq.Queue(qmgr, 'DEV.QUEUE.1').put(name.encode())\n"
            "for name in ('QM1', 'QM2'):\n"
            "    queue = ibmmq.Queue(ibmmq.connect(name, 'DEV.APP.SVRCONN', 'localhost(1414)'), 'DEV.QUEUE.1',\n"
            "                        CMQC.MQOO_INPUT_SHARED | CMQC.MQOO_INQUIRE)\n"
            "    print(name, queue.get().decode(), queue.inquire(CMQC.MQIA_CURRENT_Q_DEPTH))\n")
        assert _finish(_start(env, str(script))).splitlines() == ["QM1 QM1 0", "QM2 QM2 0"]


def test_listening_for_other_machines_without_users_is_refused_in_one_line():
    done = subprocess.run([str(MQCONF), "emulator", "--listen", "0.0.0.0:1414"], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode != 0 and "--user" in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_a_listener_starts_where_the_start_up_hook_is_active(tmp_path):
    """With MQCONF_EMULATOR exported and the hook installed, `mqconf emulator --listen` still starts (the hook
    gave the process the listener's own Python client, which serves it as well as the in-process module)."""
    site = tmp_path / "site"
    site.mkdir()
    hook.install_pth(site)
    address = f"unix:{tmp_path}/qm.sock"
    program = ("import site, sys; site.addsitedir(sys.argv[1]); "
               "from mq_conformance.conformance.cli import main; sys.exit(main(sys.argv[2:]))")
    environment = {**os.environ, "MQCONF_EMULATOR": address}
    server = subprocess.Popen([sys.executable, "-c", program, str(site), "emulator", "--listen", address],
                              env=environment, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert "listening" in server.stdout.readline()
    finally:
        server.terminate()
        server.wait(timeout=10)


def _new_modules(site: Path, variable: str | None, then: str = "") -> list[str]:
    """The modules a process imports when the site folder holding the hook is added (as Python's start-up adds
    site-packages), with ``MQCONF_EMULATOR`` set to ``variable`` or unset; then ``then`` runs."""
    program = ("import site, sys; before = set(sys.modules); site.addsitedir(sys.argv[1]); "
               "print(' '.join(sorted(set(sys.modules) - before)))\n" + then)
    environment = {k: v for k, v in os.environ.items() if k not in ("MQCONF_EMULATOR", "MQCONF_IBMMQ_EMULATOR")}
    if variable is not None:
        environment["MQCONF_EMULATOR"] = variable
    done = subprocess.run([sys.executable, "-c", program, str(site)], env=environment, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0 and not done.stderr, done.stderr
    return done.stdout.splitlines()


def test_the_start_up_hook_loads_nothing_of_the_emulator_until_ibmmq_is_imported(tmp_path):
    """Issue 36: with MQCONF_EMULATOR set, a process that never imports ibmmq imported the whole model (56
    modules) at start-up; now the hook adds only the top-level package and a finder, and `import ibmmq` still
    gets the listener's Python client."""
    site = tmp_path / "site"
    site.mkdir()
    hook.install_pth(site)
    [without] = _new_modules(site, None)
    [with_variable] = _new_modules(site, f"unix:{tmp_path}/qm.sock")
    added = set(with_variable.split()) - set(without.split())
    assert added <= {"mq_conformance"}, sorted(added)
    lines = _new_modules(site, f"unix:{tmp_path}/qm.sock",
                         "import ibmmq; print(ibmmq.ibmmqc.__name__, 'pymqi' in sys.modules)")
    assert lines[1] == "mq_conformance.emulator.remote False"
