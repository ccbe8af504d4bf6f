"""Answers a put with a long (200 KB) but valid outcome line, and exits at once: the answer must be read whole,
not taken for an exit during the call."""

import json
import sys

from toy import run


def answer_and_exit(request: dict) -> None:
    sys.stdout.write(json.dumps({"type": "outcome", "id": request["id"], "outcome": {"error": "x" * 200000}}) + "\n")
    sys.stdout.flush()
    sys.exit(0)


run(answer_and_exit)
