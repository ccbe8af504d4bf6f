"""``mqconf``: run scenarios and conformance runs against an adapter, list adapters, lint the fixtures.

Every error a user can cause ends in one line on standard error and exit status 2; failing scenarios give exit
status 1; a clean run gives 0.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

import fixtures
from adapters.base import AdapterError, available, load

from .clauses import Registry, load_registry
from .report import RunWriter, new_run_id
from .runner import ERROR, FAILED, NOT_CLAIMED, PASSED, ScenarioResult, reference_attribution, run_scenario
from .scenario import load_scenario, scenario_files
from .yamlsource import SourceError

EXIT_OK, EXIT_FAILURES, EXIT_USAGE = 0, 1, 2


class Progress:
    """A one-line counter on a terminal; silent when output is not a terminal."""

    def __init__(self, total: int, stream=sys.stderr):
        self.total, self.done, self.stream = total, 0, stream
        self.live = stream.isatty()

    def step(self, label: str) -> None:
        self.done += 1
        if self.live:
            self.stream.write(f"\r[{self.done}/{self.total}] {label[:60]:<60}")
            self.stream.flush()

    def end(self) -> None:
        if self.live:
            self.stream.write("\r" + " " * 80 + "\r")
            self.stream.flush()


def describe_failure(result: ScenarioResult, registry: Registry | None) -> list[str]:
    """Lines a person reads for a failing scenario: each failing step, expected vs actual, and its clauses."""
    lines = [f"{result.status.upper()} {result.scenario.id} ({result.scenario.path})"]
    for step in result.failures:
        lines.append(f"  {result.scenario.path}:{step.line}: step {step.index + 1} {step.op}")
        expect = ", ".join(f"{k} {json.dumps(v)}" for k, v in step.expect.items())
        lines.append(f"    expected: {expect}")
        actual = step.outcome
        shown = {k: actual[k] for k in ("CompCode", "Reason", "error") if k in actual}
        lines.append(f"    actual:   {', '.join(f'{k} {v}' for k, v in shown.items())}")
        for problem in step.problems:
            lines.append(f"    - {problem}")
        for clause_id in step.clauses:
            clause = registry.get(clause_id) if registry else None
            lines.append(f"    clause {clause_id}" + (f": {clause.rule}" if clause else ""))
    return lines


def _load_all(paths: Sequence[Path]):
    files = scenario_files(paths)
    if not files:
        raise SourceError(", ".join(map(str, paths)), None, "no scenario files (*.yaml) found")
    scenarios = [load_scenario(path) for path in files]
    seen: dict[str, Path] = {}
    for scenario in scenarios:
        if scenario.id in seen:
            raise SourceError(scenario.path, 1, f"scenario id {scenario.id!r} is also used by {seen[scenario.id]}")
        seen[scenario.id] = scenario.path
    return scenarios


def run_scenarios(paths: Sequence[Path], adapter_name: str, writer_dir: Path | None, quiet: bool = False) -> int:
    """Load, check and run scenarios; print failures; optionally write a report. Returns the exit status."""
    scenarios = _load_all(paths)
    registry = load_registry()
    adapter = load(adapter_name)
    attribution = reference_attribution(adapter)
    writer = RunWriter(writer_dir, adapter) if writer_dir else None
    progress = Progress(len(scenarios))
    counts = {PASSED: 0, FAILED: 0, ERROR: 0, NOT_CLAIMED: 0}
    try:
        for scenario in scenarios:
            result = run_scenario(scenario, adapter, attribution)
            counts[result.status] += 1
            progress.step(scenario.id)
            if writer:
                writer.add(result)
            if result.status in (FAILED, ERROR):
                progress.end()
                print("\n".join(describe_failure(result, registry)))
    finally:
        progress.end()
        adapter.close()
    print(f"{len(scenarios)} scenarios: {counts[PASSED]} passed, {counts[FAILED]} failed, {counts[ERROR]} errors, "
          f"{counts[NOT_CLAIMED]} not claimed (adapter {adapter.name})")
    if writer:
        path = writer.finish(registry)
        print(f"report: {path}")
        print(f"summary: {path.parent / 'summary.md'}")
    return EXIT_FAILURES if counts[FAILED] or counts[ERROR] else EXIT_OK


def lint() -> int:
    """Check that every clause id cited by a scenario or a table row exists, and every scenario loads."""
    registry = load_registry()
    problems = []
    for scenario in _load_all([fixtures.SCENARIOS]):
        for clause_id in sorted(scenario.clause_ids()):
            if clause_id not in registry:
                problems.append(f"{scenario.path}: cites unknown clause {clause_id}")
    from reference.tables import Spec

    for table in Spec.load().tables.values():
        for row in table.rows:
            if row.id not in registry:
                problems.append(f"fixtures/tables ({table.id}): row {row.id} has no clause")
    for problem in problems:
        print(problem)
    print(f"lint: {len(problems)} problems, {len(registry.clauses)} clauses")
    return EXIT_FAILURES if problems else EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mqconf", description="IBM MQ conformance suite and reference model.")
    commands = parser.add_subparsers(dest="command", required=True)

    scenario = commands.add_parser("scenario", help="run scenario files against an adapter")
    scenario.add_argument("paths", nargs="+", type=Path, help="scenario files or folders")
    scenario.add_argument("--adapter", default="reference", help="adapter name or module:factory")

    run = commands.add_parser("run", help="a conformance run: every scenario, with a report under reports/")
    run.add_argument("--adapter", default="reference", help="adapter name or module:factory")
    run.add_argument("--output", type=Path, help="report folder (default reports/<run-id>)")
    run.add_argument("--scenarios", type=Path, nargs="+", default=[fixtures.SCENARIOS], help=argparse.SUPPRESS)

    serve = commands.add_parser("serve", help="serve the reference model over the JSON-lines adapter protocol")
    serve.add_argument("--stdio", action="store_true", required=True,
                       help="speak protocol 1 on standard input and output (docs/implementers.md)")

    commands.add_parser("adapters", help="list the adapters that can be named")
    commands.add_parser("lint", help="check that scenarios load and every cited clause exists")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command == "scenario":
            return run_scenarios(args.paths, args.adapter, None)
        if args.command == "run":
            output = args.output or Path("reports") / new_run_id(args.adapter)
            return run_scenarios(args.scenarios, args.adapter, output)
        if args.command == "serve":
            from .serve import serve_stdio

            return serve_stdio()
        if args.command == "adapters":
            for name, origin in sorted(available().items()):
                print(f"{name}\t{origin}")
            return EXIT_OK
        if args.command == "lint":
            return lint()
    except (SourceError, AdapterError) as exc:
        print(f"mqconf: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("mqconf: interrupted", file=sys.stderr)
        return 130
    return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
