"""Answers a put with an outcome that breaks the outcome schema (CompCode is not an MQCC_* name)."""

from toy import reply, run


def bad(request: dict) -> None:
    reply({"type": "outcome", "id": request["id"], "outcome": {"CompCode": "OK", "Reason": "MQRC_NONE"}})


run(bad)
