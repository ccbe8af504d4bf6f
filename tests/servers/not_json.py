"""Answers a put with a line that is not JSON."""

import sys

from toy import run


def chatter(request: dict) -> None:
    sys.stdout.write("putting the message now...\n")
    sys.stdout.flush()


run(chatter)
