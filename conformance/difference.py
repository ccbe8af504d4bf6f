"""A failure as an outsider reads it, the same for a scenario step, a table test and a state machine: the call,
each field that differed with what was expected and what came back, and where the expectation comes from (the
scenario, the model run on the same calls, or a documented table). The clauses are the report's to name.

A difference is a plain record (``call``, ``problems``, ``expected_from``, optionally ``where``) that the report
keeps in ``conformance.json`` and renders with :func:`difference_lines` in the console, ``summary.md`` and the
page. A certification test fails by raising :class:`Difference` (never a bare ``assert``): the suite's pytest
plugin records it whole, so no report shows a traceback or ``file.py:32: AssertionError`` for it.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any

MISSING = "nothing (the field is missing)"
# the one problem of a call the implementation answered with an error (it said it cannot do it): never a wrong
# answer, reported as an error everywhere (the runner's step status, a test's verdict, the report's causes)
ANSWERED_WITH_ERROR = "the implementation answered with an error: "


def error_answer(error: object) -> str:
    """The problem of a call answered with ``error`` instead of an outcome."""
    return f"{ANSWERED_WITH_ERROR}{error}"


def only_error_answers(problems: Iterable[str]) -> bool:
    """Whether every one of ``problems`` is an error answer (:func:`error_answer`), and there is one."""
    problems = list(problems)
    return bool(problems) and all(str(p).startswith(ANSWERED_WITH_ERROR) for p in problems)
THE_MODEL = "the model (the reference implementation, given the same calls)"
THE_IMPLEMENTATION = "the implementation"


def shown(value: Any) -> str:
    """A value as a difference shows it: a field the implementation did not return is *nothing*, never None."""
    if value is None:
        return MISSING
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, default=repr) if isinstance(value, (dict, list)) else repr(value)


def field_problem(field: str, expected: Any, actual: Any) -> str:
    """``Field: expected X, got Y``, the one shape of a differing field everywhere."""
    return f"{field}: expected {shown(expected)}, got {shown(actual)}"


def model_problem(problem: str) -> str:
    """A state machine's or a campaign's ``Field: x vs y`` (the model's value first, conformance/compare.py), or
    the same already written ``Field: model x, implementation y``, as ``Field: expected x, got y``."""
    field, colon, values = problem.partition(": ")
    if not colon:
        return problem
    if values.startswith("model ") and ", implementation " in values:
        model, _, implementation = values[len("model "):].partition(", implementation ")
        return f"{field}: expected {_plain(model)}, got {_plain(implementation)}"
    model, vs, implementation = values.partition(" vs ")
    if not vs:
        return problem
    if field == "error":  # one side answered with an error instead of an outcome
        model, implementation = (_plain(model), _plain(implementation))
        return (f"error: expected no error, got {implementation}" if model == MISSING else
                f"error: expected the error {model}, got " + ("an outcome" if implementation == MISSING
                                                              else implementation))
    return f"{field}: expected {_plain(model)}, got {_plain(implementation)}"


def _plain(text: str) -> str:
    """A value compare.py wrote with ``repr`` as the other differences show it: a name without its quotes, a
    missing field as *nothing*."""
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return text
    return shown(value) if value is None or isinstance(value, str) else text


def call_text(call: Mapping[str, Any] | None) -> str:
    """``op {arguments as JSON}``: the call as the call language writes it."""
    if not call:
        return "(no call recorded)"
    args = {k: _readable(v) for k, v in call.items() if k != "op"}
    if not args:
        return str(call.get("op"))
    return f"{call.get('op', '?')} {json.dumps(args, ensure_ascii=False, default=repr)}"


def _readable(value: Any) -> Any:
    """A call's arguments with each identifier given as ``{hex: ...}`` that is text padded with zeros written as
    that text, as the call language allows (``CORREL-A`` is ``{hex: 434f...}`` with 16 zero bytes after it)."""
    if isinstance(value, Mapping):
        if set(value) == {"hex"} and isinstance(value["hex"], str):
            try:
                raw = bytes.fromhex(value["hex"])
            except ValueError:
                return dict(value)
            text = raw.rstrip(b"\0")
            if text and all(32 < byte < 127 for byte in text) and not text.startswith((b"$", b"MQ")):
                return text.decode("ascii")
            return dict(value)
        return {k: _readable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_readable(v) for v in value]
    return value


def expected_by(difference: Mapping[str, Any], escape: Callable[[str], str] = str) -> str:
    """Which side is which: ``expected by the scenario; got from the implementation``."""
    return f"expected by {escape(difference.get('expected_from') or 'the suite')}; got from {THE_IMPLEMENTATION}"


class Difference(AssertionError):
    """A certification test's failure: the implementation answered ``call`` otherwise than ``expected_from``
    says, in each of ``problems`` (``Field: expected X, got Y``: :func:`field_problem`). ``clauses`` are the
    rules it blames (the suite's pytest plugin records them)."""

    def __init__(self, call: Mapping[str, Any] | None, problems: Iterable[str], expected_from: str,
                 clauses: Iterable[str] = (), where: str | None = None):
        self.record = {"call": dict(call or {}), "problems": list(problems), "expected_from": expected_from}
        if where:
            self.record["where"] = where
        self.mq_clauses = list(clauses)
        super().__init__("\n".join(difference_lines(self.record, str)))


def expect_equal(call: Mapping[str, Any] | None, expected_from: str, clauses: Iterable[str] = (),
                 **fields: tuple[Any, Any]) -> None:
    """Raise :class:`Difference` naming every field whose (expected, actual) pair differs."""
    problems = [field_problem(name, want, have) for name, (want, have) in fields.items() if want != have]
    if problems:
        raise Difference(call, problems, expected_from, clauses)


def difference_lines(difference: Mapping[str, Any], escape: Callable[[str], str]) -> list[str]:
    """A difference as a short Markdown list (which reads as well on a terminal): the call, each differing field,
    where the expectation comes from. Every string from the implementation goes through ``escape`` (for a
    terminal, Markdown...)."""
    where = f" ({difference['where']})" if difference.get("where") else ""
    lines = [f"- call{where}: {escape(call_text(difference.get('call')))}"]
    lines += [f"  - {escape(problem)}" for problem in difference.get("problems") or []]
    lines.append(f"  - {expected_by(difference, escape)}")
    return lines
