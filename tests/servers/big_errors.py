"""A server that answers every put with a 1 MB error text holding a lone surrogate and a NUL, and whose name holds
a lone surrogate: the run's records keep a bounded piece of each text (with its length), and every report is
written, whole and valid text."""

import json
import sys

from toy import HELLO, run

BIG = "\udc80\x00" + "e" * 1_000_000


def big(request: dict) -> None:
    sys.stdout.write(json.dumps({"type": "outcome", "id": request["id"], "outcome": {"error": BIG}}) + "\n")
    sys.stdout.flush()


run(big, hello={**HELLO, "implementation": {"name": "big \ud800 errors", "version": "1"}})
