"""Answers a put under another call's id."""

from toy import reply, run


def wrong(request: dict) -> None:
    reply({"type": "outcome", "id": request["id"] + 100, "outcome": {"CompCode": "MQCC_OK", "Reason": "MQRC_NONE"}})


run(wrong)
