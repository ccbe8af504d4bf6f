"""Writes 50 MiB on standard error before answering each put: the suite must keep reading it (a full pipe would
block the server) and keep only its tail."""

import sys

from toy import reply, run


def flood(request: dict) -> None:
    chunk = "noise " * 10000 + "\n"
    for _ in range(50 * 1024 * 1024 // len(chunk)):
        sys.stderr.write(chunk)
    sys.stderr.flush()
    reply({"type": "outcome", "id": request["id"], "outcome": {"CompCode": "MQCC_OK", "Reason": "MQRC_NONE"}})


run(flood)
