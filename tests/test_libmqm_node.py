"""IBM's Node.js binding ``ibmmq`` (from the npm registry, unchanged) runs IBM's own samples against
``mqconf emulator --listen`` through libmqm (emulator/libmqm): put, browse, asynchronous get, get, inquire, set,
message properties, publish and subscribe. The package is installed without its scripts (its download of IBM's
client skipped, as its README says: MQIJS_NOREDIST); it finds IBM's client library as it always does, by
``dlopen("libmqm_r.so")`` on the library path, and its samples find the listener through MQSERVER.

The quick profile runs the samples on the native addon IBM ships prebuilt in the package; ``--mq-profile
thorough`` first rebuilds the addon from its C++ source with ``node-gyp rebuild --nodedir=/usr`` (some minutes on
two cores). Skipped, with the reason, where node or npm is missing or the registry cannot be reached.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from test_libmqm import _environment, ibm_headers, library, listener  # noqa: F401 - fixtures shared with it

SECONDS = 60


@pytest.fixture(scope="session")
def node_package(ibm_headers, request) -> Path:  # noqa: F811 - the shared fixture
    """IBM's ibmmq package folder (installed by the ibm_headers fixture), rebuilt from source in the thorough
    profile."""
    if shutil.which("node") is None:
        pytest.skip("no node: IBM's Node.js samples need it")
    package = ibm_headers.parent
    if request.config.getoption("--mq-profile") == "thorough":
        gyp = package.parent / ".bin" / "node-gyp"
        done = subprocess.run([str(gyp), "rebuild", "--nodedir=/usr", "-j", "2"], cwd=package, capture_output=True,
                              text=True, timeout=900, env={**os.environ, "MQIJS_NOREDIST": "true"}, check=False)
        assert done.returncode == 0, done.stderr[-2000:]
        assert (package / "build" / "Release" / "ibmmq_native.node").is_file()
    return package


def _sample(package: Path, library: Path, address: str, name: str, *args: str) -> str:  # noqa: F811
    """One of IBM's samples, run to its end: its output."""
    done = subprocess.run(["node", name, *args], cwd=package / "samples", capture_output=True, text=True,
                          timeout=SECONDS, check=False,
                          env=_environment(library, MQSERVER=f"DEV.APP.SVRCONN/TCP/{address}"))
    return done.stdout + done.stderr


def test_ibms_node_samples_run_against_the_listener(node_package, library, listener):  # noqa: F811
    run = lambda name, *args: _sample(node_package, library, listener, name, *args)  # noqa: E731
    for _ in range(2):
        assert "MQPUT successful" in run("amqsput.js", "DEV.QUEUE.1", "QM1")
    browsed = run("amqsbra.js", "DEV.QUEUE.1", "QM1")
    assert browsed.count("message <Hello from Node") == 2  # browsed, not removed
    got_async = run("amqsgeta.js", "DEV.QUEUE.1", "QM1")  # MQCB and MQCTL, in the library
    assert got_async.count("message <Hello from Node") == 2 and "No more messages available." in got_async
    assert "MQPUT successful" in run("amqsput.js", "DEV.QUEUE.1", "QM1")
    got = run("amqsget.js", "DEV.QUEUE.1", "QM1")
    assert got.count("message len=") == 1 and "MQDISC successful" in got
    assert 'qmgrName = "QM1"' in run("amqsinq.js", "QM1")
    assert "MQSET of queue successful" in run("amqsset.js", "DEV.QUEUE.3", "QM1")
    assert "MQRC_PUT_INHIBITED [2051]" in run("amqsput.js", "DEV.QUEUE.3", "QM1")  # the set took effect
    properties = run("amqsprop.js", "DEV.QUEUE.2", "QM1")
    assert "PROP4BYTEARRAY" in properties and "No more properties" in properties, properties

    # amqssub waits 3 s for each publication, then ends: on a busy machine amqspub may start later than that (a
    # warning, MQRC_NO_SUBS_MATCHED), so the pair is tried again, at most three times
    for _attempt in range(3):
        published, received = _publish_to_a_subscriber(node_package, library, listener, run)
        if "MQRC_NO_SUBS_MATCHED" not in published:
            break
    assert "MQPUT successful" in published, published
    assert "message <Hello from Node" in received, received


def _publish_to_a_subscriber(package: Path, library: Path, address: str, run) -> tuple[str, str]:  # noqa: F811
    """amqssub subscribed, then amqspub: what the publisher said and what the subscriber printed."""
    subscriber = subprocess.Popen(["node", "amqssub.js", "dev/libmqm", "QM1"], cwd=package / "samples",
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                  env=_environment(library, MQSERVER=f"DEV.APP.SVRCONN/TCP/{address}"))
    try:
        line = ""
        deadline = time.monotonic() + SECONDS
        while "MQSUB to topic" not in line and time.monotonic() < deadline:
            line = subscriber.stdout.readline()
            assert line, "the subscriber ended before subscribing"
        published = run("amqspub.js", "dev/libmqm", "QM1")
        received, _ = subscriber.communicate(timeout=SECONDS)
    finally:
        subscriber.kill()
        subscriber.wait()
    return published, received
