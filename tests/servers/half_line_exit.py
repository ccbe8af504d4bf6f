"""Answers a put with half a line and no newline, then exits with status 6."""

import sys

from toy import run


def half(request: dict) -> None:
    sys.stdout.write('{"type": "outcome", "id": %d, "outc' % request["id"])
    sys.stdout.flush()
    sys.exit(6)


run(half)
