"""``mqconf compare RUN_A RUN_B``: what changed between two runs, clause by clause and scenario by scenario.

A *regression* is a clause or scenario that passed in A and does not in B; *newly passing* is the reverse; every
other change of status is listed as *changed*. Runs of different suites or fixtures are compared all the same,
with a warning, since a clause's meaning may have moved.
"""

from __future__ import annotations

from typing import Any

from mq_conformance.adapters.untrusted import for_terminal

GOOD = "passed"


def _diff(before: dict[str, str], after: dict[str, str]) -> dict[str, list[dict[str, str]]]:
    result: dict[str, list[dict[str, str]]] = {"regressed": [], "newly passing": [], "changed": []}
    for key in sorted(set(before) | set(after)):
        a, b = before.get(key, "absent"), after.get(key, "absent")
        if a == b:
            continue
        kind = "regressed" if a == GOOD else "newly passing" if b == GOOD else "changed"
        result[kind].append({"id": key, "before": a, "after": b})
    return result


def compare(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """The differences from report ``a`` to report ``b``."""
    warnings = []
    for field in ("commit", "fixtures_hash"):
        if a["suite"][field] != b["suite"][field]:
            warnings.append(f"the runs used different suites ({field} {a['suite'][field]} vs {b['suite'][field]})")
    return {
        "a": {"adapter": a["adapter"]["name"], "started": a["started"]},
        "b": {"adapter": b["adapter"]["name"], "started": b["started"]},
        "warnings": warnings,
        "clauses": _diff({k: v["status"] for k, v in a["clauses"].items()},
                         {k: v["status"] for k, v in b["clauses"].items()}),
        "scenarios": _diff({r["id"]: r["status"] for r in a["scenarios"]}, {r["id"]: r["status"] for r in b["scenarios"]}),
        "tests": _diff({r["id"]: r["status"] for r in a.get("tests", [])},
                       {r["id"]: r["status"] for r in b.get("tests", [])}),
    }


def has_regressions(diff: dict[str, Any]) -> bool:
    return any(diff[part]["regressed"] for part in ("clauses", "scenarios", "tests"))


def render(diff: dict[str, Any]) -> str:
    """The differences as lines a person reads."""
    lines = [f"A: {diff['a']['adapter']} ({diff['a']['started']})", f"B: {diff['b']['adapter']} ({diff['b']['started']})"]
    lines += [f"warning: {w}" for w in diff["warnings"]]
    for part in ("clauses", "scenarios", "tests"):
        for kind in ("regressed", "newly passing", "changed"):
            items = diff[part][kind]
            if not items:
                continue
            lines.append(f"{kind} {part} ({len(items)}):")
            lines += [f"  {item['id']}: {item['before']} -> {item['after']}" for item in items]
    counts = {part: sum(len(v) for v in diff[part].values()) for part in ("clauses", "scenarios", "tests")}
    if not any(counts.values()):
        lines.append("no differences")
    else:
        lines.append("changes: " + ", ".join(f"{n} {part}" for part, n in counts.items()))
    return "\n".join(for_terminal(line, None) for line in lines)  # the runs' files may hold anything
