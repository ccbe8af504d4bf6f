"""Answers a put with a 10 MiB line (over the protocol's 1 MiB limit)."""

import sys

from toy import run


def huge(request: dict) -> None:
    sys.stdout.write('{"type": "outcome", "id": %d, "outcome": {"error": "%s"}}\n' % (request["id"], "x" * (10 << 20)))
    sys.stdout.flush()


run(huge)
