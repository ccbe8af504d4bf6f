"""Answers a put with a reset reply instead of an outcome."""

from toy import reply, run


def wrong(request: dict) -> None:
    reply({"type": "reset", "ok": True})


run(wrong)
