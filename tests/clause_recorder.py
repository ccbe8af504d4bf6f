"""Which clauses the model names while each certification test runs, beside the clauses the test cites
(tests/test_clauses_produced.py). A pytest plugin (``-p clause_recorder``) with an adapter for ``--adapter
clause_recorder:RecordingAdapter``: the model, recording the clauses of every outcome under the test that asked for
it; the session's end writes ``{node id: {"cites": [...], "named": [...], "outcome": ..., "drawn": ...}}`` as JSON
to the file the environment variable MQCONF_CLAUSE_RECORD names (``drawn``: a Hypothesis test, whose calls are
drawn at random: its module uses Hypothesis - a state machine or a property)."""

from __future__ import annotations

import json
import os

import pytest

from mq_conformance.adapters.reference import ReferenceAdapter
from mq_conformance.reference.calls import Call, Outcome

RECORD: dict[str, dict] = {}
CURRENT: list[str] = []  # the node id of the test running now (one at a time: the plugin runs without xdist)


class RecordingAdapter(ReferenceAdapter):
    """The model; every outcome's clauses are added to the running test's record."""

    name = "reference"

    def execute(self, call: Call) -> Outcome:
        outcome = super().execute(call)
        if CURRENT:
            RECORD[CURRENT[-1]]["named"].update(outcome.clauses)
        return outcome


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None):
    cites = [c for mark in item.iter_markers("clause") for c in mark.args]
    module = getattr(item, "module", None)
    drawn = any(getattr(value, "__module__", "").startswith("hypothesis") for value in vars(module).values()) \
        if module is not None else False
    RECORD[item.nodeid] = {"cites": cites, "named": set(), "outcome": None, "drawn": drawn}
    CURRENT.append(item.nodeid)
    yield
    CURRENT.pop()


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    entry = RECORD.get(report.nodeid)
    if entry is not None and (report.when == "call" or report.outcome != "passed"):
        entry["outcome"] = entry["outcome"] if entry["outcome"] not in (None, "passed") else report.outcome


def pytest_sessionfinish(session: pytest.Session) -> None:
    path = os.environ.get("MQCONF_CLAUSE_RECORD")
    if path:
        with open(path, "w", encoding="utf-8") as out:
            json.dump({node: {**entry, "named": sorted(entry["named"])} for node, entry in RECORD.items()}, out)
