"""Crashes in the middle of a put: a line on standard error, then exit status 3, no answer."""

import sys

from toy import run


def crash(request: dict) -> None:
    sys.stderr.write("toy: simulated crash in put\n")
    sys.stderr.flush()
    sys.exit(3)


run(crash)
