"""Answers a put with half a line and no newline, then hangs: the error must quote what it wrote."""

import sys
import time

from toy import run


def half(request: dict) -> None:
    sys.stdout.write('{"type": "outcome", "id": %d, "outc' % request["id"])
    sys.stdout.flush()
    time.sleep(3600)


run(half)
