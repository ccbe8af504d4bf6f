"""One set of numbers: a share never says more than is true, and the badge says the verdict in a word."""

from __future__ import annotations

import pytest

from mq_conformance.conformance.badge import badge_for
from mq_conformance.conformance.report import count_line, percent


@pytest.mark.parametrize(("part", "whole", "shown"), [
    (314, 315, "99.7%"), (1999, 2000, "99.9%"), (19999, 20000, "99.9%"), (315, 315, "100%"),
    (1, 2000, "0.1%"), (1, 20000, "0.1%"), (0, 315, "0%"), (16, 63, "25.4%"), (0, 0, "-"),
])
def test_a_percentage_never_rounds_up_to_100_nor_down_to_0(part, whole, shown):
    assert percent(part, whole) == shown


def test_a_count_line_names_every_status_and_adds_up():
    counts = {"scenarios": 10, "passed": 4, "failed": 1, "error": 1, "expected failure": 2, "unexpected pass": 1,
              "not claimed": 1}
    line = count_line(counts, "scenarios", "Scenarios")
    assert line == ("Scenarios: 10 run, 4 passed, 1 failed, 1 errors, 2 expected failures, 1 unexpected passes, "
                    "1 not claimed")
    assert count_line({"total": 3, "passed": 3}, "total", "Tests") == "Tests: 3 run, 3 passed, 0 failed, 0 errors, " \
                                                                       "0 not claimed"
    assert sum(int(part.split()[0]) for part in line.split(" run, ")[1].split(", ")) == 10


def _report(status: str, **counts) -> dict:
    base = {"failed_clauses": 0, "failed_scenarios": 0, "failed_tests": 0, "unexpected_passes": 0}
    return {"verdict": {"status": status, "counts": {**base, **counts}}, "adapter": {"name": "x"},
            "summary": {"clauses": 315, "clauses_by_status": {"passed": 16, "not claimed": 252}}}


@pytest.mark.parametrize(("status", "counts", "message"), [
    ("passed", {}, "PASSED 16/63 clauses"),
    ("failed", {"failed_clauses": 3}, "FAILED 16/63, 3 clauses failed"),
    ("failed", {}, "FAILED 16/63"),
    ("incomplete", {}, "INCOMPLETE 16/63"),
])
def test_the_badge_says_the_verdict_and_counts_the_claimed_clauses(status, counts, message):
    assert f"<title>MQ conformance: x: {message}</title>" in badge_for(_report(status, **counts))
