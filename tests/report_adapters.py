"""Adapters for the report tests, named as ``report_adapters:slow`` / ``report_adapters:hostile`` (the tests put
this folder on PYTHONPATH): a slow one, to interrupt a run midway, and a hostile one, whose name and message data
are markup."""

from __future__ import annotations

import os
import signal
import time
from dataclasses import replace

from mq_conformance.adapters.reference import ReferenceAdapter
from mq_conformance.reference.calls import Call, Outcome

HOSTILE = "<script>alert(1)</script>"


class SlowAdapter(ReferenceAdapter):
    """The model, a little slower on every call."""

    name = "slow"

    def execute(self, call: Call) -> Outcome:
        time.sleep(0.02)
        return super().execute(call)


class HostileAdapter(ReferenceAdapter):
    """The model, named with markup, returning markup as every message's data."""

    name = HOSTILE
    version = HOSTILE

    def execute(self, call: Call) -> Outcome:
        outcome = super().execute(call)
        if call.op == "get" and outcome.data is not None:
            return replace(outcome, data=HOSTILE)
        return outcome


def slow() -> SlowAdapter:
    return SlowAdapter()


def hostile() -> HostileAdapter:
    return HostileAdapter()


class KilledInTests(ReferenceAdapter):
    """The model, until the table tests and state machines run (the pytest child of ``mqconf run``, which has
    ``MQCONF_TESTLOG`` set): there, its 300th call kills its own process, as the kernel's OOM killer would."""

    name = "killed-in-tests"
    calls = 0

    def execute(self, call: Call) -> Outcome:
        if os.environ.get("MQCONF_TESTLOG"):
            KilledInTests.calls += 1
            if KilledInTests.calls >= 300:
                os.kill(os.getpid(), signal.SIGKILL)
        return super().execute(call)


def killed_in_tests() -> KilledInTests:
    return KilledInTests()
