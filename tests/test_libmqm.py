"""libmqm (emulator/libmqm): the emulator's IBM MQ C library, a client of the listener's session protocol.

IBM's own compiled ``ibmmqc`` (in IBM's ``ibmmq`` wheel) loads it from the library path alone - no module swapped,
no start-up hook - and reaches ``mqconf emulator --listen`` as IBM's client reaches a queue manager: the MQCD's
connection name, MQSERVER, a JSON CCDT. A C program of ours (tests/test_libmqm_program.c), compiled against the
cmqc.h IBM ships in its Node.js package, puts, gets with a selector and subscribes; the library's own layouts are
compiled against IBM's header and must match it. Everything is built into the test session's temporary folders;
a test skips with its reason where the C compiler, IBM's ibmmq or npm (for IBM's header) is missing.
"""

from __future__ import annotations

import ctypes
import importlib.util
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from mq_conformance.emulator import libmqm

HERE = Path(__file__).parent
PROGRAM = HERE / "test_libmqm_program.c"
# The calls IBM's compiled ibmmqc links (nm -D of ibmmqc.abi3.so in ibmmq 2.1.2): the library's whole interface.
CALLS = {"MQCONN", "MQCONNX", "MQDISC", "MQOPEN", "MQCLOSE", "MQPUT", "MQPUT1", "MQGET", "MQINQ", "MQSET",
         "MQBEGIN", "MQCMIT", "MQBACK", "MQCRTMH", "MQDLTMH", "MQSETMP", "MQINQMP", "MQDLTMP", "MQSUB", "MQSUBRQ",
         "MQCB", "MQCTL", "MQSTAT"}
NODE_PACKAGE = "ibmmq@2.1.9"  # IBM's Node.js binding: ships IBM's cmqc.h and cmqxc.h, and IBM's samples
SECONDS = 120


@pytest.fixture(scope="session")
def library(tmp_path_factory) -> Path:
    """The folder of a freshly built libmqm (libmqm_r.so and the other names)."""
    try:
        return libmqm.build(tmp_path_factory.mktemp("libmqm"))
    except libmqm.LibmqmUnavailable as exc:
        pytest.skip(str(exc))


@pytest.fixture(scope="session")
def ibm_headers(tmp_path_factory) -> Path:
    """The folder holding IBM's cmqc.h (unix/) and cmqxc.h: IBM's Node.js package from the npm registry, installed
    without its scripts (its download of IBM's client skipped, as its README says)."""
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("no npm: IBM's cmqc.h comes from IBM's Node.js package ibmmq")
    folder = tmp_path_factory.mktemp("node")
    (folder / "package.json").write_text("{}")
    env = {**os.environ, "MQIJS_NOREDIST": "true"}
    try:
        done = subprocess.run([npm, "install", "--ignore-scripts", "--no-audit", "--no-fund", NODE_PACKAGE],
                              cwd=folder, env=env, capture_output=True, text=True, timeout=300, check=False)
    except subprocess.TimeoutExpired:
        pytest.skip(f"npm install {NODE_PACKAGE} took more than 300 s")
    source = folder / "node_modules" / "ibmmq" / "src"
    if done.returncode != 0 or not (source / "unix" / "cmqc.h").is_file():
        pytest.skip(f"npm install {NODE_PACKAGE} failed: {(done.stderr or done.stdout).strip()[-300:]}")
    return source


def _compile(headers: Path, source: Path, output: Path, library: Path | None = None) -> Path:
    """A C program compiled against IBM's headers (and linked with libmqm when ``library`` is given)."""
    argv = [*libmqm.compiler(), "-o", str(output), f"-I{headers / 'unix'}", f"-I{headers}", str(source)]
    if library is not None:
        argv += [f"-L{library}", "-lmqm_r"]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=SECONDS, check=False)
    assert done.returncode == 0, done.stderr
    return output


def _environment(library: Path, **extra: str) -> dict[str, str]:
    """An application's environment: the library's folder on its library path, none of the Python emulator's
    variables (so IBM's ibmmq runs its own ibmmqc), no channel configuration but what the test gives."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("MQCONF_") and k not in ("MQSERVER", "MQCCDTURL", "MQCHLLIB", "MQCHLTAB")}
    env["LD_LIBRARY_PATH"] = str(library)
    env.update(extra)
    return env


def _python(library: Path, program: str, *args: str, **extra: str) -> subprocess.CompletedProcess:
    """IBM's ibmmq in a process of its own, over libmqm."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(program), *args], env=_environment(library, **extra),
                          capture_output=True, text=True, timeout=SECONDS, check=False)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


needs_ibmmq = pytest.mark.skipif(importlib.util.find_spec("ibmmq") is None,
                                 reason="IBM's ibmmq is not installed (pip install 'mq-conformance[ibmmq]')")

CONNECT = """
    import sys, ibmmq
    try:
        ibmmq.connect("QM1", "DEV.APP.SVRCONN", sys.argv[1])
        print("connected")
    except ibmmq.MQMIError as error:
        print(error.reason)
"""


# -- the library itself ----------------------------------------------------------------------------------

def test_the_library_exports_the_calls_ibms_ibmmqc_links_and_nothing_else(library):
    nm = shutil.which("nm")
    if nm is None:
        pytest.skip("no nm (binutils) to read the library's symbol table")
    exported = subprocess.run([nm, "-D", "--defined-only", str(library / libmqm.LIBRARY)], capture_output=True,
                              text=True, check=True).stdout
    functions = {line.split()[-1] for line in exported.splitlines() if line.split()[1:2] == ["T"]}
    assert functions == CALLS
    wheel = importlib.util.find_spec("ibmmq")
    if wheel is not None and wheel.submodule_search_locations:
        native = next(Path(wheel.submodule_search_locations[0]).glob("ibmmqc*.so"), None)
        if native is not None:
            needed = subprocess.run([nm, "-D", "--undefined-only", str(native)], capture_output=True, text=True,
                                    check=True).stdout
            assert {n for n in needed.split() if n.startswith("MQ")} == CALLS


def test_every_name_ibms_bindings_load_is_the_library(library):
    target = (library / libmqm.LIBRARY).resolve()
    for name in libmqm.ALIASES:
        assert (library / name).resolve() == target


def test_mqconf_prints_the_folder_of_a_built_library_and_builds_it_once(tmp_path):
    if shutil.which(os.environ.get("CC", "cc").split()[0]) is None:
        pytest.skip("no C compiler")
    mqconf = Path(sys.executable).parent / "mqconf"
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    first = subprocess.run([str(mqconf), "emulator", "--libmqm"], env=env, capture_output=True, text=True,
                           timeout=SECONDS, check=True).stdout.strip()
    built = (Path(first) / libmqm.LIBRARY).stat().st_mtime_ns
    again = subprocess.run([str(mqconf), "emulator", "--libmqm"], env=env, capture_output=True, text=True,
                           timeout=SECONDS, check=True).stdout.strip()
    assert again == first and Path(first).parent == tmp_path / "cache" / "mq-conformance" / "libmqm"
    assert (Path(first) / libmqm.LIBRARY).stat().st_mtime_ns == built
    assert not [p for p in Path(first).parent.iterdir() if p.name.startswith(".build-")]  # built aside, renamed


def test_without_a_c_compiler_mqconf_says_so_in_one_line(tmp_path):
    mqconf = Path(sys.executable).parent / "mqconf"
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), "CC": "no-such-compiler-here"}
    done = subprocess.run([str(mqconf), "emulator", "--libmqm"], env=env, capture_output=True, text=True,
                          timeout=SECONDS, check=False)
    assert done.returncode != 0 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and "no C compiler" in done.stderr


def test_a_cache_that_cannot_be_written_is_one_line_too(tmp_path):
    if shutil.which(os.environ.get("CC", "cc").split()[0]) is None:
        pytest.skip("no C compiler")
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    mqconf = Path(sys.executable).parent / "mqconf"
    done = subprocess.run([str(mqconf), "emulator", "--libmqm"], env={**os.environ, "XDG_CACHE_HOME": str(blocked)},
                          capture_output=True, text=True, timeout=SECONDS, check=False)
    assert done.returncode != 0 and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "cannot build in" in done.stderr


def test_the_layouts_match_the_cmqc_h_ibm_ships(library, ibm_headers, tmp_path):
    """Every constant, structure length and field offset libmqm's header states is IBM's."""
    header = (libmqm.SOURCE / "mqconf_mqi.h").read_text()
    checks = []
    for name, value in re.findall(r"^#define ((?:MQ|OFS_)\w+) (.+)$", header, re.MULTILINE):
        if name.startswith("OFS_"):
            structure, field = re.fullmatch(r"OFS_(MQ[A-Z]+)_(\w+)", name).groups()
            checks.append(f'check("{name}", offsetof({structure}, {field}) == {value});')
        elif value.startswith('"'):
            checks.append(f'check("{name}", strcmp({name}, {value}) == 0);')
        else:
            checks.append(f'check("{name}", {name} == {value});')
    source = tmp_path / "layouts.c"
    source.write_text("#include <stddef.h>\n#include <stdio.h>\n#include <string.h>\n#include <cmqc.h>\n"
                      "#include <cmqxc.h>\nstatic int bad;\nstatic void check(const char *what, int ok) "
                      "{ if (!ok) { printf(\"%s\\n\", what); bad = 1; } }\nint main(void) {\n"
                      + "\n".join(checks) + "\nreturn bad;\n}\n")
    program = _compile(ibm_headers, source, tmp_path / "layouts")
    done = subprocess.run([str(program)], capture_output=True, text=True, timeout=SECONDS, check=False)
    assert (done.returncode, done.stdout) == (0, ""), f"not IBM's: {done.stdout}"
    assert len(checks) > 150


def test_a_structure_that_is_not_ibms_is_its_reason_never_a_crash(library):
    mqm = ctypes.CDLL(str(library / libmqm.LIBRARY))
    comp, reason, hconn = ctypes.c_int32(), ctypes.c_int32(), ctypes.c_int32()
    cno = ctypes.create_string_buffer(b"CNO?" + (1).to_bytes(4, "little") + bytes(4))
    mqm.MQCONNX(b"QM1", cno, ctypes.byref(hconn), ctypes.byref(comp), ctypes.byref(reason))
    assert (comp.value, reason.value, hconn.value) == (2, 2139, -1)  # MQRC_CNO_ERROR, MQHC_UNUSABLE_HCONN
    future = ctypes.create_string_buffer(b"CNO " + (99).to_bytes(4, "little") + bytes(400))
    mqm.MQCONNX(b"QM1", future, ctypes.byref(hconn), ctypes.byref(comp), ctypes.byref(reason))
    assert reason.value == 2139  # a version IBM does not define is never read
    hobj = ctypes.c_int32()
    od = ctypes.create_string_buffer(b"OD  " + (1).to_bytes(4, "little") + bytes(160))
    mqm.MQOPEN(0x12345, od, 0, ctypes.byref(hobj), ctypes.byref(comp), ctypes.byref(reason))
    assert (comp.value, reason.value) == (2, 2018)  # MQRC_HCONN_ERROR: no connection of this process
    mqm.MQPUT(0x12345, 1, None, None, 0, None, ctypes.byref(comp), ctypes.byref(reason))
    assert reason.value == 2026  # MQRC_MD_ERROR before anything else is read
    mqm.MQDISC(ctypes.byref(hconn), ctypes.byref(comp), ctypes.byref(reason))
    assert reason.value == 2018


# -- IBM's ibmmq over the library, without a listener ------------------------------------------------------

@needs_ibmmq
def test_ibms_ibmmqc_loads_the_library_from_the_library_path_alone(library):
    done = _python(library, """
        import ibmmq
        print(ibmmq.ibmmqc.__file__)
        print([line.split()[-1] for line in open("/proc/self/maps") if "libmqm_r" in line][0])
    """)
    native, loaded = done.stdout.split()
    assert "site-packages" in native and "mq_conformance" not in native  # IBM's own compiled module
    assert Path(loaded).resolve() == (library / libmqm.LIBRARY).resolve()


@needs_ibmmq
def test_nothing_listening_is_host_not_available_and_no_socket_is_q_mgr_not_available(library, tmp_path):
    assert _python(library, CONNECT, f"127.0.0.1({_free_port()})").stdout.split() == ["2538"]
    assert _python(library, CONNECT, f"unix:{tmp_path}/no.sock").stdout.split() == ["2059"]


@needs_ibmmq
def test_a_channel_asking_for_tls_fails_before_any_socket_opens(library):
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        server.settimeout(0.5)
        done = _python(library, """
            import sys, ibmmq
            cd = ibmmq.CD(ChannelName=b"DEV.APP.SVRCONN", ConnectionName=sys.argv[1].encode(),
                          SSLCipherSpec=b"ANY_TLS12_OR_HIGHER")
            try:
                ibmmq.QueueManager(None).connect_with_options("QM1", cd=cd, sco=ibmmq.SCO())
            except ibmmq.MQMIError as error:
                print(error.reason)
        """, "127.0.0.1(%d)" % server.getsockname()[1])
        assert done.stdout.split() == ["2393"], done.stderr  # MQRC_SSL_INITIALIZATION_ERROR
        with pytest.raises(TimeoutError):
            server.accept()  # never in clear: nothing came


@needs_ibmmq
def test_a_ccdt_is_read_as_ibms_client_reads_it(library, tmp_path):
    def table(*channels):
        return json.dumps({"channel": list(channels)})

    def channel(port, qmgr="QM1", **more):
        return {"name": "DEV.APP.SVRCONN", "type": "clientConnection",
                "clientConnection": {"connection": [{"host": "127.0.0.1", "port": port}], "queueManager": qmgr},
                **more}

    port = _free_port()
    cases = {
        "binary.tab": (b"AMQR\x00\x01\xff", "2600"),  # MQRC_CCDT_URL_ERROR: a binary CCDT is not read
        "other.json": (table(channel(port, "QM9")).encode(), "2058"),  # MQRC_Q_MGR_NAME_ERROR
        "broken.json": (b'{"channel": [', "2539"),  # MQRC_CHANNEL_CONFIG_ERROR
        "tls.json": (table(channel(port, transmissionSecurity={"cipherSpecification": "ANY_TLS13"})).encode(),
                     "2393"),
        "ours.json": (table(channel(port)).encode(), "2538"),  # its address tried: nothing listens there
    }
    for name, (content, reason) in cases.items():
        (tmp_path / name).write_bytes(content)
        by_url = _python(library, "import ibmmq\ntry:\n    ibmmq.connect('QM1')\nexcept ibmmq.MQMIError as e:\n"
                                  "    print(e.reason)", MQCCDTURL=f"file://{tmp_path / name}")
        assert by_url.stdout.split() == [reason], (name, by_url.stderr)
    by_folder = _python(library, "import ibmmq\ntry:\n    ibmmq.connect('QM1')\nexcept ibmmq.MQMIError as e:\n"
                                 "    print(e.reason)", MQCHLLIB=str(tmp_path), MQCHLTAB="other.json")
    assert by_folder.stdout.split() == ["2058"]
    os.mkfifo(tmp_path / "fifo.json")  # never hangs the connect: only a regular file is read
    fifo = _python(library, "import ibmmq\ntry:\n    ibmmq.connect('QM1')\nexcept ibmmq.MQMIError as e:\n"
                            "    print(e.reason)", MQCCDTURL=str(tmp_path / "fifo.json"))
    assert fifo.stdout.split() == ["2600"]
    remote = _python(library, "import ibmmq\ntry:\n    ibmmq.connect('QM1')\nexcept ibmmq.MQMIError as e:\n"
                              "    print(e.reason)", MQCCDTURL="http://127.0.0.1:1/ccdt.json")
    assert remote.stdout.split() == ["2600"]  # only local files


# -- against the listener -------------------------------------------------------------------------------

@pytest.fixture
def listener(tmp_path) -> Iterator[str]:
    """``mqconf emulator --listen`` on a free loopback port with IBM's developer objects and the user app; its
    address as a connection name."""
    if importlib.util.find_spec("mq_conformance.emulator.session") is None:
        pytest.skip("the listener of this checkout does not speak the session protocol (issue 34, item 1)")
    server = subprocess.Popen([sys.executable, "-m", "mq_conformance.conformance.cli", "emulator", "--listen",
                               "127.0.0.1:0", "--developer", "--user", "app:password"],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        line = server.stdout.readline()
        found = re.search(r"listening at (\S+\(\d+\))", line)
        assert found, line
        yield found.group(1)
    finally:
        server.terminate()
        server.wait(timeout=10)


@needs_ibmmq
def test_ibms_python_layer_puts_gets_inquires_and_publishes_through_the_library(library, listener):
    done = _python(library, """
        import sys, ibmmq
        from ibmmq import CMQC
        qmgr = ibmmq.connect("QM1", "DEV.APP.SVRCONN", sys.argv[1], "app", "password")
        queue = ibmmq.Queue(qmgr, "DEV.QUEUE.1", CMQC.MQOO_INPUT_AS_Q_DEF | CMQC.MQOO_OUTPUT | CMQC.MQOO_INQUIRE)
        queue.put(b"plain")
        print("got", queue.get().decode())
        handle = ibmmq.MessageHandle(qmgr)
        handle.properties.set("colour", "blue")
        queue.put(b"with a property", ibmmq.MD(), ibmmq.PMO(Version=CMQC.MQPMO_VERSION_3,
                                                            OriginalMsgHandle=handle.msg_handle))
        into = ibmmq.MessageHandle(qmgr)
        gmo = ibmmq.GMO(Version=CMQC.MQGMO_VERSION_4, MsgHandle=into.msg_handle,
                        Options=CMQC.MQGMO_PROPERTIES_IN_HANDLE | CMQC.MQGMO_NO_WAIT)
        print("got", queue.get(None, ibmmq.MD(), gmo).decode(), into.properties.get("colour"))
        print("depth", queue.inquire(CMQC.MQIA_CURRENT_Q_DEPTH), "name", qmgr.inquire(CMQC.MQCA_Q_MGR_NAME).strip().decode())
        described = ibmmq.SD(Options=CMQC.MQSO_CREATE | CMQC.MQSO_MANAGED | CMQC.MQSO_NON_DURABLE)
        described.set_vs("ObjectString", "libmqm/prices")
        subscription = ibmmq.Subscription(qmgr)
        subscription.sub(sub_desc=described)
        ibmmq.Topic(qmgr, topic_string="libmqm/prices").pub(b"42")
        print("published", subscription.get(None, ibmmq.MD(), ibmmq.GMO(Options=CMQC.MQGMO_WAIT,
                                                                          WaitInterval=5000)).decode())
        status = qmgr.stat(CMQC.MQSTAT_TYPE_ASYNC_ERROR)
        print("stat", status.CompCode)
        qmgr.disconnect()
    """, listener)
    assert done.stdout.splitlines() == ["got plain", "got with a property blue", "depth 0 name QM1",
                                        "published 42", "stat 0"], done.stderr


@needs_ibmmq
def test_a_wrong_password_is_not_authorized(library, listener):
    done = _python(library, """
        import sys, ibmmq
        try:
            ibmmq.connect("QM1", "DEV.APP.SVRCONN", sys.argv[1], "app", "wrong")
        except ibmmq.MQMIError as error:
            print(error.reason)
    """, listener)
    assert done.stdout.split() == ["2035"]  # MQRC_NOT_AUTHORIZED


@needs_ibmmq
def test_mqserver_and_a_ccdt_lead_an_application_without_a_connection_name_to_the_listener(library, listener,
                                                                                      tmp_path):
    connect = "import ibmmq\nq = ibmmq.connect('QM1')\nprint(q.inquire(ibmmq.CMQC.MQCA_Q_MGR_NAME).strip().decode())"
    assert _python(library, connect, MQSERVER=f"DEV.APP.SVRCONN/TCP/{listener}").stdout.split() == ["QM1"]
    host, port = re.fullmatch(r"(.+)\((\d+)\)", listener).groups()
    ccdt = tmp_path / "ccdt.json"
    ccdt.write_text(json.dumps({"channel": [{"name": "DEV.APP.SVRCONN", "type": "clientConnection",
                                             "clientConnection": {"connection": [{"host": host, "port": int(port)}],
                                                                  "queueManager": "QM1"}}]}))
    assert _python(library, connect, MQCCDTURL=f"file://{ccdt}").stdout.split() == ["QM1"]


@needs_ibmmq
def test_a_connection_name_list_goes_on_past_addresses_that_are_no_listener(library, listener):
    import threading

    with socket.socket() as other:  # something else listens there (an ssh server, say)
        other.bind(("127.0.0.1", 0))
        other.listen()

        def answer_wrongly():
            for _ in range(2):
                peer, _ = other.accept()
                with peer:
                    peer.sendall(b"SSH-2.0-not-a-queue-manager\r\n" * 4)

        threading.Thread(target=answer_wrongly, daemon=True).start()
        names = f"127.0.0.1({_free_port()}),127.0.0.1({other.getsockname()[1]}),{listener}"
        assert _python(library, CONNECT, names).stdout.split() == ["connected"]
        alone = _python(library, CONNECT, f"127.0.0.1({other.getsockname()[1]})")
        assert alone.stdout.split() == ["2059"]  # MQRC_Q_MGR_NOT_AVAILABLE: no queue manager answers there


@needs_ibmmq
def test_a_callback_consumer_runs_on_the_librarys_thread(library, listener):
    done = _python(library, """
        import sys, threading, ibmmq
        from ibmmq import CMQC
        qmgr = ibmmq.connect("QM1", "DEV.APP.SVRCONN", sys.argv[1])
        sender = ibmmq.connect("QM1", "DEV.APP.SVRCONN", sys.argv[1])
        queue = ibmmq.Queue(qmgr, "DEV.QUEUE.3", CMQC.MQOO_INPUT_AS_Q_DEF)
        got, done = [], threading.Event()

        def on_message(**kwargs):
            cbc = kwargs["cbc"]
            if cbc.CallType == CMQC.MQCBCT_MSG_REMOVED:
                got.append((kwargs["msg"][:cbc.DataLength].decode(),
                            threading.current_thread() is threading.main_thread()))
                if len(got) == 5:
                    done.set()

        queue.cb(operation=CMQC.MQOP_REGISTER, md=ibmmq.MD(), gmo=ibmmq.GMO(Options=CMQC.MQGMO_WAIT,
                 WaitInterval=CMQC.MQWI_UNLIMITED), cbd=ibmmq.CBD(CallbackFunction=on_message))
        qmgr.ctl(CMQC.MQOP_START, ibmmq.CTLO())
        out = ibmmq.Queue(sender, "DEV.QUEUE.3", CMQC.MQOO_OUTPUT)
        for n in range(5):
            out.put(b"m%d" % n)
        print("all", done.wait(30))
        try:
            queue.inquire(CMQC.MQIA_CURRENT_Q_DEPTH)
        except ibmmq.MQMIError as error:
            print("busy", error.reason)  # the connection belongs to its consumer while started
        qmgr.ctl(CMQC.MQOP_STOP, ibmmq.CTLO())
        print(sorted(got))
        qmgr.disconnect()
        sender.disconnect()
    """, listener)
    assert done.stdout.splitlines() == ["all True", "busy 2500",
                                        str([(f"m{n}", False) for n in range(5)])], done.stderr


@needs_ibmmq
def test_messages_put_by_one_process_are_got_once_by_another(library, listener):
    producer = subprocess.Popen([sys.executable, "-c", textwrap.dedent("""
        import sys, ibmmq
        qmgr = ibmmq.connect("QM1", "DEV.APP.SVRCONN", sys.argv[1])
        queue = ibmmq.Queue(qmgr, "DEV.QUEUE.2", ibmmq.CMQC.MQOO_OUTPUT)
        for n in range(200):
            queue.put(b"%d" % n)
        qmgr.disconnect()
    """), listener], env=_environment(library))
    done = _python(library, """
        import sys, ibmmq
        from ibmmq import CMQC
        qmgr = ibmmq.connect("QM1", "DEV.APP.SVRCONN", sys.argv[1])
        queue = ibmmq.Queue(qmgr, "DEV.QUEUE.2", CMQC.MQOO_INPUT_AS_Q_DEF)
        got = [int(queue.get(None, ibmmq.MD(), ibmmq.GMO(Options=CMQC.MQGMO_WAIT, WaitInterval=10000)))
               for _ in range(200)]
        print(got == list(range(200)))
    """, listener)
    assert producer.wait(SECONDS) == 0
    assert done.stdout.split() == ["True"], done.stderr


def test_a_c_program_puts_gets_with_a_selector_and_subscribes(library, ibm_headers, listener, tmp_path):
    program = _compile(ibm_headers, PROGRAM, tmp_path / "program", library)
    done = subprocess.run([str(program), listener], env=_environment(library), capture_output=True, text=True,
                          timeout=SECONDS, check=False)
    assert done.stdout.splitlines() == ["connected", "put 3", "selected: the blue one", "published: headlines",
                                        "disconnected"], done.stderr


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler (cc) on this machine")
def test_the_c_library_builds_with_every_warning_as_an_error(tmp_path):
    """The library's own C source compiles clean under -Wall -Wextra -Werror (a warning is a defect to mend, not
    to let a user's compiler find)."""
    from mq_conformance.emulator import libmqm

    sources = sorted(str(path) for path in Path(libmqm.__file__).parent.glob("*.c"))
    built = subprocess.run(["cc", "-O2", "-fPIC", "-shared", "-pthread", "-Wall", "-Wextra", "-Werror",
                            "-o", str(tmp_path / "libmqm_r.so"), *sources], capture_output=True, text=True,
                           timeout=300)
    assert built.returncode == 0, built.stderr[-3000:]
