"""Stops reading its standard input after hello and never answers: a large call must not block the suite."""

import json
import sys
import time

from toy import HELLO

sys.stdin.readline()
sys.stdout.write(json.dumps(HELLO) + "\n")
sys.stdout.flush()
time.sleep(3600)
