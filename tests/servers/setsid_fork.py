"""A server that, on its first put, forks a child that calls setsid() and forks again: the grandchild leaves the
server's process group and session, and writes on and on. Nothing of it may outlive mqconf."""

import os
import sys
import time

from toy import run


def escape(request: dict) -> None:
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            with open(os.environ["MQCONF_TEST_PIDFILE"], "w") as pidfile:
                pidfile.write(str(os.getpid()))
            while True:
                with open(os.environ["MQCONF_TEST_PIDFILE"] + ".log", "a") as log:
                    log.write("still here\n")
                time.sleep(0.1)
        os._exit(0)
    sys.stdout.write('{"type": "outcome", "id": %d, "outcome": {"CompCode": "MQCC_OK", "Reason": "MQRC_NONE"}}\n'
                     % request["id"])
    sys.stdout.flush()


run(escape)
