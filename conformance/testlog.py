"""A pytest plugin that appends each test's verdict to a JSON-lines file as it happens.

``mqconf run`` loads it (``-p mq_conformance.conformance.testlog``) with ``MQCONF_TESTLOG`` naming the file, so a run that is
killed midway still leaves every finished test readable by ``mqconf report``; JUnit XML, written only at the end,
is kept for other tools. One record per test: node id, verdict in the report's words, the clauses it pins (the
``clause`` marks the suite's plugin records as user properties), the clauses a failure blames (``blamed``: a state
machine's diverging call), and the failure text. The first record lists every collected test and the last says
pytest finished, so a report can tell a complete run from one that was killed.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

ENV = "MQCONF_TESTLOG"
_MAX_MESSAGE = 6000


class TestLog:
    """Appends one JSON line per collected suite and per finished test."""

    def __init__(self, path: Path):
        self.path = path

    def _write(self, record: dict) -> None:
        from .outfolder import OutputFolder

        with OutputFolder.open(self.path.parent, make=False) as folder, folder.append(self.path.name) as out:
            out.write(json.dumps(record) + "\n")

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        # the ids too: a report knows which tests never got a result (a killed or starved run)
        self._write({"kind": "collected", "count": len(session.items), "ids": [item.nodeid for item in session.items]})

    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        self._write({"kind": "finished", "exitstatus": int(exitstatus)})

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        status = verdict(report)
        if status is None:
            return
        message = ""
        properties = {name: value for name, value in report.user_properties
                      if name in ("difference", "failure", "failure_kind")}
        if status in ("expected failure", "not seen this run"):
            message = str(getattr(report, "wasxfail", "")).removeprefix("expected failure: ")  # the file's reason
        elif report.skipped and isinstance(report.longrepr, tuple):
            message = str(report.longrepr[2])
        elif report.failed:
            # what failed in the suite's words (the plugin's ``failure``: a difference's text, the implementation's
            # failure or a suite error in one line), never the traceback: that stays in pytest's own output
            message = str(properties["failure"])[:_MAX_MESSAGE] if "failure" in properties else _crash_line(report)
        record = {
            "kind": "test", "id": report.nodeid, "status": status, "when": report.when,
            "clauses": [value for name, value in report.user_properties if name == "clause"],
            "blamed": [value for name, value in report.user_properties if name == "blamed"],
            "capabilities": [value for name, value in report.user_properties if name == "capability"],
            "random_search": any(name == "search" for name, _ in report.user_properties),
            "duration": round(report.duration, 4), "message": message,
        }
        if report.failed and "failure_kind" in properties:
            record["failure"] = properties["failure_kind"]  # difference, implementation or suite
        if report.failed and "difference" in properties:
            try:
                record["difference"] = json.loads(properties["difference"])
            except (TypeError, ValueError):
                pass
        self._write(record)


def _crash_line(report: pytest.TestReport) -> str:
    """A failure the suite's plugin did not describe (a fixture's error, pytest's own): its exception in one
    line, not the traceback."""
    crash = getattr(report.longrepr, "reprcrash", None)
    line = getattr(crash, "message", None) or report.longreprtext.strip().splitlines()[-1:] or [""]
    text = line if isinstance(line, str) else line[0]
    return " ".join(text.split())[:1000]


def pytest_configure(config: pytest.Config) -> None:
    value = os.environ.get(ENV)
    if value and not hasattr(config, "workerinput"):  # under xdist, the controller writes
        config.pluginmanager.register(TestLog(Path(value)), "mqconf-testlog")


def verdict(report: pytest.TestReport) -> str | None:
    """The report's word for a test's result, or None for a phase that decides nothing."""
    if report.when == "call" or report.outcome != "passed":
        if hasattr(report, "wasxfail"):
            if report.passed and any(name == "random_search" for name, _ in report.user_properties):
                return "not seen this run"  # a random search listed as failing that did not hit it this run
            return "expected failure" if report.skipped else "unexpected pass"
        if report.skipped:
            reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
            return "not claimed" if "not claimed" in reason else "skipped"
        if report.failed:
            if report.longreprtext.startswith("[XPASS(strict)]"):
                return "unexpected pass"
            kind = dict(report.user_properties).get("failure_kind")
            if kind in ("implementation", "suite"):  # the implementation or the suite failed, not a documented rule
                return "error"
            return "failed" if report.when == "call" else "error"
        return "passed"
    return None
