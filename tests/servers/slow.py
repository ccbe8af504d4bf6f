"""Answers every call correctly, but each after 0.7 s: a scenario of several calls runs past a small total budget."""

import json
import sys
import time

from toy import HELLO, reply

for line in sys.stdin:
    request = json.loads(line)
    if request["type"] == "hello":
        reply(HELLO)
    elif request["type"] == "reset":
        reply({"type": "reset", "ok": True})
    elif request["type"] == "bye":
        break
    else:
        time.sleep(0.7)
        reply({"type": "outcome", "id": request["id"], "outcome": {"CompCode": "MQCC_OK", "Reason": "MQRC_NONE"}})
