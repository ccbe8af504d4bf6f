"""A server that, on its first put, forks a child that calls setsid() and forks again: the grandchild leaves the
server's process group and session, and writes on and on. Nothing of it may outlive mqconf."""

import os
import sys
import time

from toy import run, write_pid


def escape(request: dict) -> None:
    child = os.fork()
    if child == 0:
        os.setsid()
        grandchild = os.fork()
        if grandchild == 0:
            while True:
                with open(os.environ["MQCONF_TEST_PIDFILE"] + ".log", "a") as log:
                    log.write("still here\n")
                time.sleep(0.1)
        write_pid(grandchild)  # before the outcome is answered, so the test always knows whom to look for
        os._exit(0)
    os.waitpid(child, 0)
    sys.stdout.write('{"type": "outcome", "id": %d, "outcome": {"CompCode": "MQCC_OK", "Reason": "MQRC_NONE"}}\n'
                     % request["id"])
    sys.stdout.flush()


run(escape)
