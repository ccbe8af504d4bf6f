"""Exits in the middle of a put (status 4) after starting a child of its own that keeps its standard output open
for an hour: the adapter must report the exit at once and kill the child with it (its process group)."""

import os
import subprocess
import sys

from toy import run, write_pid


def orphan(request: dict) -> None:
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])  # inherits stdout and stderr
    if os.environ.get("MQCONF_TEST_PIDFILE"):  # for the test that checks the child died too
        write_pid(child.pid)
    sys.stderr.write("toy: leaving a child behind\n")
    sys.stderr.flush()
    sys.exit(4)


run(orphan)
