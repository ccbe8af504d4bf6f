"""Works, but at bye starts a child of its own that keeps its standard output open for an hour, then exits:
closing the adapter must not wait for the child."""

import os
import subprocess
import sys

from toy import run, write_pid

run()
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])  # inherits stdout and stderr
if os.environ.get("MQCONF_TEST_PIDFILE"):  # for the test that checks the child died too
    write_pid(child.pid)
