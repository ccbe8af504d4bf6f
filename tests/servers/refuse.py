"""Refuses a put with an error reply (a well-formed answer: the stream stays in step)."""

from toy import reply, run


def refuse(request: dict) -> None:
    reply({"type": "error", "id": request["id"], "message": "put is not implemented yet"})


run(refuse)
