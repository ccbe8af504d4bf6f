"""Hangs on a put: never answers (the adapter must stop it after its timeout)."""

import time

from toy import run


def hang(request: dict) -> None:
    time.sleep(3600)


run(hang)
