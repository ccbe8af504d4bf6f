"""A server whose name and error texts carry terminal escape codes, CR and LF, and Markdown/HTML: the suite must
show them escaped, never act on them (clear the screen, forge a line of its own report)."""

import json
import sys

from toy import HELLO, run

NASTY = "\x1b[2J\x1b[H\rFAKE LINE: 332 passed\n<script>alert(1)</script> | ok |\u009b31m\u202e"


def nasty(request: dict) -> None:
    sys.stdout.write(json.dumps({"type": "outcome", "id": request["id"], "outcome": {"error": NASTY}}) + "\n")
    sys.stdout.flush()


run(nasty, hello={**HELLO, "implementation": {"name": NASTY, "version": "1\x1b[31m"}})
