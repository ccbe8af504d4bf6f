"""The reason-code ledger (fixtures/reason-codes.yaml): every reason code IBM documents for the modelled MQI
calls, each produced by the model under named clauses and shown by named scenarios, or out of scope with the
reason. Reading it checks its shape; :func:`evidence_problems` checks that each claim is true of the model.

Clauses: every clause a ledger entry names (the ledger is the index from reason codes to clauses).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from mq_conformance.fixtures import ROOT

from .yamlsource import LineDict, SourceError, load

LEDGER = ROOT / "reason-codes.yaml"


@dataclass(frozen=True)
class ReasonCode:
    """One ledger entry: the code, its value, the calls IBM documents it for, and either what produces it
    (clauses and scenarios) or the scope that excludes it (with an optional further reason)."""

    code: str
    value: int
    calls: tuple[str, ...]
    clauses: tuple[str, ...] = ()
    scenarios: tuple[str, ...] = ()
    out_of_scope: str = ""
    reason: str = ""
    line: int = 0

    @property
    def produced(self) -> bool:
        return not self.out_of_scope


@dataclass(frozen=True)
class Ledger:
    """The whole ledger: the IBM pages it was taken from, the scopes, and the codes in value order."""

    pages: Mapping[str, Mapping[str, str]]
    scopes: Mapping[str, str]
    codes: tuple[ReasonCode, ...]

    def get(self, code: str) -> ReasonCode | None:
        return next((c for c in self.codes if c.code == code), None)

    def out_of_scope_by_scope(self) -> dict[str, list[str]]:
        """Scope -> the codes it excludes (for reports and the closing note of issue 15)."""
        result: dict[str, list[str]] = {}
        for entry in self.codes:
            if entry.out_of_scope:
                result.setdefault(entry.out_of_scope, []).append(entry.code)
        return result


def load_ledger(path: Path = LEDGER) -> Ledger:
    """Read and check the ledger's shape; every error names the file and line."""
    data = load(path)
    if not isinstance(data, LineDict) or not isinstance(data.get("codes"), list):
        raise SourceError(path, 1, "expected a mapping with 'pages', 'scopes' and a 'codes' list")
    calls = dict((data.get("pages") or {}).get("calls") or {})
    scopes = {str(k): str(v) for k, v in (data.get("scopes") or {}).items()}
    codes, seen = [], set()
    for item in data["codes"]:
        line = getattr(item, "line", None)
        if not isinstance(item, dict) or not str(item.get("code", "")).startswith("MQRC_"):
            raise SourceError(path, line, "each entry needs a 'code' MQRC_...")
        code = item["code"]
        if code in seen:
            raise SourceError(path, line, f"{code} is listed twice")
        seen.add(code)
        if not isinstance(item.get("value"), int):
            raise SourceError(path, line, f"{code} needs its integer 'value'")
        entry_calls = tuple(item.get("calls") or ())
        unknown = [c for c in entry_calls if c not in calls]
        if not entry_calls or unknown:
            raise SourceError(path, line, f"{code}: 'calls' must name calls of pages.calls, not {unknown or '[]'}")
        produced, scope = item.get("produced"), item.get("out_of_scope")
        if (produced is None) == (scope is None):
            raise SourceError(path, line, f"{code} must be either 'produced' or 'out_of_scope' (exactly one)")
        if scope is not None and scope not in scopes:
            raise SourceError(path, line, f"{code}: unknown scope {scope!r}; scopes: {', '.join(scopes)}")
        if produced is not None and not (isinstance(produced, dict) and produced.get("clauses")
                                         and produced.get("scenarios")):
            raise SourceError(path, line, f"{code}: 'produced' needs 'clauses' and 'scenarios'")
        codes.append(ReasonCode(code, item["value"], entry_calls,
                                tuple(produced.get("clauses", ())) if produced else (),
                                tuple(produced.get("scenarios", ())) if produced else (),
                                str(scope or ""), str(item.get("reason", "")), line or 0))
    return Ledger(dict(data.get("pages") or {}), scopes, tuple(codes))


def evidence_problems(ledger: Ledger, registry, scenarios: Iterable, adapter) -> list[str]:
    """Every claim of a produced entry that is not true: an unknown clause or scenario, or a scenario with no step
    that expects the code and on which ``adapter`` (the model) returns it under one of the entry's clauses."""
    from .runner import run_scenario

    by_id = {s.id: s for s in scenarios}
    problems = []
    for entry in ledger.codes:
        if not entry.produced:
            continue
        problems += [f"{entry.code}: unknown clause {c}" for c in entry.clauses if c not in registry]
        for scenario_id in entry.scenarios:
            scenario = by_id.get(scenario_id)
            if scenario is None:
                problems.append(f"{entry.code}: unknown scenario {scenario_id}")
                continue
            result = run_scenario(scenario, adapter)
            shown = any(step.expect.get("Reason") == entry.code and step.outcome.get("Reason") == entry.code
                        and set(step.clauses) & set(entry.clauses) for step in result.steps)
            if not shown:
                problems.append(f"{entry.code}: scenario {scenario_id} has no step that expects it and on which the "
                                f"model returns it under {', '.join(entry.clauses)}")
    return problems
