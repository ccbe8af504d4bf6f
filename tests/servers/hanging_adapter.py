"""In-process adapters (``module:factory``) that hang: in their factory, or in execute from a given call on."""

from __future__ import annotations

import time

from mq_conformance.adapters.reference import ReferenceAdapter


def hangs_starting():
    while True:  # a factory waiting forever for a licence server
        time.sleep(3600)


class _HangsOnGet(ReferenceAdapter):
    name = "hangs-on-get"

    def execute(self, call):
        while call.op == "get":  # a lost connection: never answers
            time.sleep(3600)
        return super().execute(call)


def hangs_on_get():
    return _HangsOnGet()
