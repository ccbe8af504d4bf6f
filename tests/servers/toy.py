"""A toy server of the JSON-lines adapter protocol (protocol 1), for the adapter's tests.

It speaks the protocol correctly and answers every call with MQCC_OK / MQRC_NONE. The broken servers beside it
run it with a ``fault`` that replaces its answer to each ``put`` call; every other call is answered as usual, so
a test can show the fault, then show that the run goes on after a reset.

Plain Python that imports nothing of the suite: a server needs no code of ours.
"""

import json
import os
import sys

HELLO = {"type": "hello", "protocol": 1, "implementation": {"name": "toy", "version": "1"}, "capabilities": ["core"]}


def write_pid(pid: int) -> None:
    """Record ``pid`` in ``$MQCONF_TEST_PIDFILE`` whole (written aside, then renamed): a test that waits for the
    file never reads it half-written, even when the writer is killed in between."""
    path = os.environ["MQCONF_TEST_PIDFILE"]
    with open(f"{path}.{os.getpid()}.tmp", "w") as aside:
        aside.write(str(pid))
    os.replace(f"{path}.{os.getpid()}.tmp", path)


def reply(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def run(fault=None, hello: dict = HELLO, reset: dict | None = None) -> None:
    """Serve standard input until bye; ``fault(request)`` answers each put call instead; ``reset`` replaces the
    answer to reset."""
    if os.environ.get("MQCONF_TEST_SERVER_PIDFILE"):  # for the tests that check the server dies with the suite
        with open(os.environ["MQCONF_TEST_SERVER_PIDFILE"], "w") as pidfile:
            pidfile.write(str(os.getpid()))
    for line in sys.stdin:
        request = json.loads(line)
        if request["type"] == "hello":
            reply(hello)
        elif request["type"] == "reset":
            reply(reset or {"type": "reset", "ok": True})
        elif request["type"] == "bye":
            return
        elif fault is not None and request["call"]["op"] == "put":
            fault(request)
        else:
            reply({"type": "outcome", "id": request["id"], "outcome": {"CompCode": "MQCC_OK", "Reason": "MQRC_NONE"}})


if __name__ == "__main__":
    run()
