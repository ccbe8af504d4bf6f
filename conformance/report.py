"""A run's results as files a person and a program can read: ``conformance.json`` and ``summary.md``.

Results are appended to ``results.jsonl`` as each scenario finishes, so an interrupted run leaves what it
finished readable; the JSON report and the summary are then built from that file.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import subprocess
from collections import Counter
from dataclasses import asdict
from pathlib import Path
from typing import Any

import fixtures

from . import __version__
from .clauses import Registry
from .runner import ERROR, FAILED, NOT_CLAIMED, PASSED, ScenarioResult

SCHEMA_VERSION = 1


def new_run_id(adapter_name: str) -> str:
    """A run id that sorts by time and names the adapter."""
    stamp = dt.datetime.now(dt.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in adapter_name)
    return f"{stamp}-{safe}"


def fixtures_hash() -> str:
    """A hash of every file under fixtures/, so a report says exactly which spec it checked."""
    digest = hashlib.sha256()
    for path in sorted(fixtures.ROOT.rglob("*")):
        if path.is_file() and path.suffix in (".yaml", ".json"):
            digest.update(str(path.relative_to(fixtures.ROOT)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def git_commit() -> str:
    """The suite's git commit, or "unknown" outside a checkout."""
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=fixtures.ROOT, capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return out.stdout.strip() or "unknown"


def scenario_record(result: ScenarioResult) -> dict[str, Any]:
    """One scenario's result as a JSON-able record."""
    return {
        "id": result.scenario.id,
        "title": result.scenario.title,
        "path": str(result.scenario.path),
        "status": result.status,
        "reason": result.reason,
        "clauses": sorted(result.scenario.clause_ids()),
        "steps": [asdict(step) for step in result.steps],
    }


class RunWriter:
    """Writes a run's results as they happen."""

    def __init__(self, directory: Path, adapter: Any):
        self.directory = directory
        directory.mkdir(parents=True, exist_ok=True)
        self.started = dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")
        self.adapter = {
            "name": getattr(adapter, "name", "?"),
            "version": getattr(adapter, "version", "?"),
            "capabilities": sorted(getattr(adapter, "capabilities", ())),
        }
        self.results_path = directory / "results.jsonl"
        self.results_path.write_text("")

    def add(self, result: ScenarioResult) -> None:
        with self.results_path.open("a") as out:
            out.write(json.dumps(scenario_record(result)) + "\n")

    def finish(self, registry: Registry) -> Path:
        records = [json.loads(line) for line in self.results_path.read_text().splitlines() if line.strip()]
        report = build_report(records, registry, self.adapter, self.started)
        path = self.directory / "conformance.json"
        path.write_text(json.dumps(report, indent=2) + "\n")
        (self.directory / "summary.md").write_text(render_summary(report, registry))
        return path


def build_report(records: list[dict], registry: Registry, adapter: dict, started: str) -> dict[str, Any]:
    """The conformance report: the suite, the implementation, every scenario and every clause's status."""
    applied: Counter[str] = Counter()
    cited: dict[str, list[str]] = {}
    for record in records:
        for clause_id in record["clauses"]:
            cited.setdefault(clause_id, []).append(record["id"])
        for step in record["steps"]:
            applied.update(step["clauses"])
    by_id = {r["id"]: r for r in records}
    clauses = {}
    for clause_id in sorted(registry.clauses):
        scenarios = cited.get(clause_id, [])
        statuses = {by_id[s]["status"] for s in scenarios}
        if not scenarios:
            status = "not covered"
        elif FAILED in statuses or ERROR in statuses:
            status = "failed"
        elif statuses == {NOT_CLAIMED}:
            status = "not claimed"
        else:
            status = "passed"
        clauses[clause_id] = {"status": status, "scenarios": scenarios, "applied": applied.get(clause_id, 0)}
    counts = Counter(r["status"] for r in records)
    return {
        "schema_version": SCHEMA_VERSION,
        "suite": {"version": __version__, "commit": git_commit(), "fixtures_hash": fixtures_hash()},
        "adapter": adapter,
        "started": started,
        "finished": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "summary": {
            "scenarios": len(records),
            **{status: counts.get(status, 0) for status in (PASSED, FAILED, ERROR, NOT_CLAIMED)},
            "clauses": len(clauses),
            "clauses_by_status": dict(Counter(c["status"] for c in clauses.values())),
        },
        "scenarios": records,
        "clauses": clauses,
    }


def render_summary(report: dict[str, Any], registry: Registry) -> str:
    """A short Markdown account of a run: totals, then each failure with its clauses."""
    s = report["summary"]
    lines = [
        f"# Conformance run: {report['adapter']['name']}",
        "",
        f"Suite {report['suite']['version']} (commit {report['suite']['commit'][:12]}, fixtures "
        f"{report['suite']['fixtures_hash']}), started {report['started']}.",
        "",
        f"Scenarios: {s['scenarios']} run, {s['passed']} passed, {s['failed']} failed, {s['error']} errors, "
        f"{s['not claimed']} not claimed.",
        f"Clauses: {s['clauses']} in all; " + ", ".join(f"{n} {k}" for k, n in sorted(s["clauses_by_status"].items())) + ".",
        "",
    ]
    failing = [r for r in report["scenarios"] if r["status"] in (FAILED, ERROR)]
    if failing:
        lines += ["## Failures", ""]
    for record in failing:
        lines.append(f"### {record['id']} ({record['path']})")
        for step in record["steps"]:
            if step["status"] not in (FAILED, ERROR):
                continue
            lines.append(f"- line {step['line']}, step {step['op']}: " + "; ".join(step["problems"]))
            for clause_id in step["clauses"]:
                clause = registry.get(clause_id)
                if clause is not None:
                    lines.append(f"  - `{clause_id}`: {clause.rule}")
        lines.append("")
    return "\n".join(lines) + "\n"
