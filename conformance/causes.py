"""A run's failures grouped by cause, largest first: what an implementer fixes, before the per-scenario detail.

A failure's cause is its first differing call: the operation, and the options of that call that no call of the
same operation that passed in this run also gave (the options that set it apart: ``get [MQGMO_BROWSE_FIRST]``),
or every option it gave when none sets it apart. A call answered with an error (the implementation said it could
not do it: "not implemented: browse", an unknown op) is caused by that operation and what the implementation
said, whatever its options: an error is never a wrong answer. A failure with no call (a test's own crash) is its own cause. Each cause counts the
scenarios, tests and campaign signatures it accounts for and the clauses they blame.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .difference import ANSWERED_WITH_ERROR

NOT_IMPLEMENTED = "answered with an error"


def call_options(call: Mapping[str, Any] | None) -> list[str]:
    """The MQ option names a call gives: every name under an ``Options`` key, at any depth (the call's own, its
    PMO's, GMO's, SD's...), sorted."""
    found: set[str] = set()

    def visit(value: Any, under_options: bool) -> None:
        if isinstance(value, Mapping):
            for key, item in value.items():
                visit(item, under_options or key == "Options")
        elif isinstance(value, list):
            for item in value:
                visit(item, under_options)
        elif under_options and isinstance(value, str) and value.startswith("MQ"):
            found.add(value)

    visit({k: v for k, v in (call or {}).items() if k != "op"}, False)
    return sorted(found)


def passing_options(records: Iterable[dict]) -> dict[str, set[str]]:
    """Every option each operation gave in a call that passed this run (scenario steps)."""
    seen: dict[str, set[str]] = {}
    for record in records:
        for step in record.get("steps") or []:
            if step.get("status") == "passed":
                seen.setdefault(step["op"], set()).update(call_options(step.get("call")))
    return seen


ERROR_GOT = "error: expected no error, got "


def _first_call(failure: dict) -> tuple[dict | None, str | None]:
    """The first differing call of a failure, and the error the implementation answered it with (None when it
    answered with an outcome)."""
    step = failure.get("step")
    if step:
        actual = step.get("actual") if isinstance(step.get("actual"), Mapping) else {}
        error = actual.get("error")
        return step.get("call") or {"op": step.get("op")}, None if error is None else str(error)
    difference = failure.get("difference") or {}
    call = difference.get("call") or (failure.get("divergence") or {}).get("call")
    error = next((str(p).split(prefix, 1)[1] for p in difference.get("problems") or []
                  for prefix in (ERROR_GOT, ANSWERED_WITH_ERROR) if str(p).startswith(prefix)), None)
    return (call or None), error


def cause_of(failure: dict, passed: Mapping[str, set[str]]) -> dict[str, Any]:
    """A failure's cause: ``key`` (what groups), ``op``, ``options`` and whether the implementation answered
    with an ``error``."""
    if failure.get("kind") == "campaign" and failure.get("op"):
        options = [o for o in str(failure.get("options") or "").replace("+", " ").split() if o]
        distinct = [o for o in options if o not in passed.get(failure["op"], set())] or options
        return {"key": f"{failure['op']} [{', '.join(distinct)}]" if distinct else failure["op"],
                "op": failure["op"], "options": distinct, "error": False}
    call, error = _first_call(failure)
    if not call or not call.get("op"):
        line = (failure.get("message") or "").strip().splitlines()
        return {"key": f"{failure['id']}: {line[0][:160] if line else 'failed'}", "op": None, "options": [],
                "error": failure.get("status") == "error"}
    op = str(call["op"])
    if error is not None:  # what the implementation said it cannot do, in its own words (bounded)
        said = " ".join(error.split())[:120]
        return {"key": f"{op}: {NOT_IMPLEMENTED}: {said}", "op": op, "options": [], "error": True}
    options = call_options(call)
    distinct = [o for o in options if o not in passed.get(op, set())] or options
    return {"key": f"{op} [{', '.join(distinct)}]" if distinct else op, "op": op, "options": distinct,
            "error": False}


def group_causes(failures: list[dict], records: list[dict]) -> list[dict[str, Any]]:
    """The failures that fail the run (failed or error, counted), grouped by :func:`cause_of`, largest first
    (by scenarios, tests and signatures together, then by key): each with the ids it accounts for and the clauses
    they blame. Every such failure gets its cause's ``key`` as ``cause``."""
    passed = passing_options(records)
    groups: dict[str, dict[str, Any]] = {}
    for failure in failures:
        if failure.get("status") not in ("failed", "error") or not failure.get("counts", True):
            continue
        cause = cause_of(failure, passed)
        failure["cause"] = cause["key"]
        group = groups.setdefault(cause["key"], {**cause, "scenarios": [], "tests": [], "signatures": [],
                                                 "clauses": set()})
        kind = {"scenario": "scenarios", "test": "tests", "campaign": "signatures"}[failure["kind"]]
        group[kind].append(failure["id"])
        group["clauses"].update(failure.get("clauses") or [])
    found = [{**group, "clauses": sorted(group["clauses"]),
              "failures": len(group["scenarios"]) + len(group["tests"]) + len(group["signatures"])}
             for group in groups.values()]
    return sorted(found, key=lambda group: (-group["failures"], -len(group["clauses"]), group["key"]))


def cause_lines(causes: list[dict], escape=str, limit: int | None = None) -> list[str]:
    """The causes as a Markdown list (the console and summary.md): one line each, largest first."""
    lines = []
    for cause in causes[:limit]:
        parts = [f"{len(cause[kind])} {kind if len(cause[kind]) != 1 else kind[:-1]}"
                 for kind in ("scenarios", "tests", "signatures") if cause[kind]]
        parts.append(f"{len(cause['clauses'])} clause{'s' * (len(cause['clauses']) != 1)}")
        lines.append(f"- {escape(cause['key'])}: {', '.join(parts)}")
    if limit is not None and len(causes) > limit:
        lines.append(f"- ... and {len(causes) - limit} more causes (summary.md lists them all)")
    return lines
