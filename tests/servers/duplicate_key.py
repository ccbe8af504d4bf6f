"""Answers a put with an outcome that names CompCode twice: MQCC_FAILED, then MQCC_OK."""

import sys

from toy import run


def twice(request: dict) -> None:
    sys.stdout.write('{"type": "outcome", "id": %d, "outcome": {"CompCode": "MQCC_FAILED", "Reason": '
                     '"MQRC_NONE", "CompCode": "MQCC_OK"}}\n' % request["id"])
    sys.stdout.flush()


run(twice)
