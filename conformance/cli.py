"""``mqconf``: run scenarios and conformance runs against an adapter, build and compare their reports, list
adapters, lint the fixtures.

Exit status, in every command: 0 a clean run; 1 failing scenarios or tests (for ``compare``, regressions);
2 an error a user or the machine can cause (a bad file or option, an adapter that cannot start, an output folder
that cannot be written, a full disk), always one line on standard error naming the file or folder; 3 an internal
error of the suite (one line; ``MQCONF_DEBUG=1`` shows the traceback); 130 interrupted (Ctrl-C), 143 stopped by
SIGTERM, 129 by SIGHUP, each after writing the report of what finished (INCOMPLETE). A closed standard output or
error never stops a command (conformance/stops.py).
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from mq_conformance import fixtures
from mq_conformance.adapters.base import AdapterError, available, load
from mq_conformance.adapters.capabilities import CapabilityError
from mq_conformance.adapters.processes import become_subreaper, die_with_parent, kill_descendants
from mq_conformance.adapters.untrusted import for_terminal

from .clauses import Registry, load_registry
from .identity import command_line
from .outfolder import OutputError, OutputFolder
from .stops import Stopped, signals_stop, tolerant_output
from .report import (CAMPAIGNS, EXPECTED_FAILURE, UNEXPECTED_PASS, ReportError, RunWriter, causes_section, count_parts,
                     failure_lines, failure_of_test, latest_campaign, load_campaign, load_report, new_run_id,
                     read_divergences, safe_name, scenario_failure, scenario_record, write_reports)
from .runner import ERROR, FAILED, NOT_CLAIMED, PASSED, ScenarioResult, reference_attribution, run_scenario
from .scenario import ScenarioErrors, collect_scenarios, load_scenarios
from .suite import pytest_command
from .yamlsource import SourceError

EXIT_OK, EXIT_FAILURES, EXIT_USAGE, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 1, 2, 3, 130


def check_output_folder(path: Path, option: str = "--output") -> None:
    """Before any work starts: ``path`` must be a folder this process can write in, or one it can make. Raises
    :class:`OutputError` when it is a file, lies below a file, or its nearest existing folder refuses a write
    (read-only file system, no permission); nothing is left behind by the check."""
    if path.exists() and not path.is_dir():
        raise OutputError(f"{option} {path}: is a file, not a folder")
    existing = path
    while not existing.exists() and existing.parent != existing:
        existing = existing.parent
    if not existing.is_dir():
        raise OutputError(f"{option} {path}: {existing} is a file, so no folder can be made below it")
    try:
        os.rmdir(tempfile.mkdtemp(prefix=".mqconf-probe-", dir=existing))
    except OSError as exc:
        raise OutputError(f"{option} {path}: cannot write in {existing} ({exc.strerror or exc})") from None


def _check_outputs(args: argparse.Namespace) -> None:
    """Every output folder of the command checked before it starts (a run can take an hour)."""
    if args.command == "run":
        check_output_folder(args.output or Path("reports"))
    elif args.command == "strength":
        check_output_folder(args.output or Path("reports") / "strength")
    elif args.command == "campaign":
        from .campaign.store import is_uri

        if not is_uri(args.output):  # a URI is checked when the campaign reaches it (campaign/store.py)
            check_output_folder(Path(args.output))
    elif args.command == "matrix":
        if args.output.is_dir():
            raise OutputError(f"--output {args.output}: is a folder; give the page to write, such as matrix.html")
        check_output_folder(args.output.parent, f"--output {args.output}: its folder")


class Progress:
    """A one-line counter on a terminal; silent when output is not a terminal."""

    def __init__(self, total: int, stream=None):
        stream = sys.stderr if stream is None else stream
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
    """Lines a person reads for a failing scenario, as summary.md shows it (report.failure_lines): the call of its
    first failing step, each field that differed, the clauses it blames; the earlier steps under suspicion and
    the later differences that are its consequences."""
    failure = scenario_failure(scenario_record(result))
    rule_of = (lambda c: registry.get(c).rule if registry is not None and registry.get(c) else None)
    heading = f": {failure['first_difference']}" if failure.get("first_difference") else ""
    lines = [f"{result.status.upper()} {result.scenario.id}{heading} ({failure['path']})"]
    return lines + [f"  {line}" for line in failure_lines(failure, rule_of, lambda text: for_terminal(text, 1000))]


def _load_all(paths: Sequence[Path]):
    """Every scenario under ``paths``; every bad file is reported (ScenarioErrors), not just the first."""
    return load_scenarios(paths)


def _run_list(scenarios, adapter, writer: RunWriter | None, registry: Registry,
              expectations: list[dict] | None = None) -> dict[str, int]:
    """Run ``scenarios`` on ``adapter`` with a progress line, printing each failure; returns counts by status.
    With a ``writer``, the statuses are those the report counts (the expectations file applied), so the console
    and the report give the same numbers; an expected failure is one line with its reason."""
    attribution = reference_attribution(adapter)
    progress = Progress(len(scenarios))
    counts: dict[str, int] = {"scenarios": len(scenarios)}
    try:
        for scenario in scenarios:
            result = run_scenario(scenario, adapter, attribution)
            record = writer.add(result) if writer else scenario_record(result, expectations) if expectations else None
            status = record["status"] if record else result.status
            counts[status] = counts.get(status, 0) + 1
            progress.step(scenario.id)
            if status == EXPECTED_FAILURE:
                progress.end()
                print(f"EXPECTED FAILURE {scenario.id}: {for_terminal(record['reason'], 300)}")
            elif result.status in (FAILED, ERROR) or status == UNEXPECTED_PASS:
                progress.end()
                print("\n".join(describe_failure(result, registry)) if status != UNEXPECTED_PASS else
                      f"UNEXPECTED PASS {scenario.id}: listed in the expectations file, and it passed")
    finally:
        progress.end()
    print(f"{len(scenarios)} scenarios: {count_parts(counts)} (adapter {for_terminal(adapter.name, 200)})")
    return counts


def run_scenarios(paths: Sequence[Path], adapter_name: str, expectations: Path | None = None) -> int:
    """Load, check and run scenarios and print failures; ``expectations`` judges them as ``mqconf run`` does (a
    listed failure is expected, a listed pass unexpected). Returns the exit status: 1 when any scenario failed,
    errored or passed unexpectedly."""
    from .pytest_plugin import load_expectations

    scenarios = _load_all(paths)
    registry = load_registry()
    try:
        expected = load_expectations(expectations) if expectations else []
    except Exception as exc:  # pytest.UsageError: one line naming the file and line
        raise ReportError(str(exc)) from None
    adapter = load(adapter_name)
    try:
        counts = _run_list(scenarios, adapter, None, registry, expected)
    finally:
        adapter.close()
    return EXIT_FAILURES if counts.get(FAILED) or counts.get(ERROR) or counts.get(UNEXPECTED_PASS) else EXIT_OK




def run_tests(adapter_name: str, folder: OutputFolder, profile: str, expectations: Path | None,
              seed: int | None = None) -> tuple[int, int]:
    """Run the certification tests (tables, properties, state machines: conformance/certification/) on
    ``adapter_name`` in a pytest subprocess, in the current folder, with a progress line fed by ``tests.jsonl``
    (written test by test); returns (tests run, tests failed)."""
    output = folder.path
    log = folder.write_text("", "tests.jsonl")
    # pytest writes its junit.xml in a private folder, moved in (through the confined folder) when it ends: pytest
    # would follow a link placed at junit.xml, and expands $NAME and ~ in the path.
    junit_detour = Path(tempfile.mkdtemp(prefix="mqconf-junit-")) / "junit.xml"
    command = [*pytest_command(adapter_name, profile), f"--junitxml={junit_detour}",
               f"--alluredir={output.resolve() / 'allure-results'}", "-p", "mq_conformance.conformance.testlog"]
    if expectations:
        command += ["--expectations", str(expectations.resolve())]
    if seed is not None:
        command.append(f"--hypothesis-seed={seed}")
    env = {**os.environ, "MQCONF_TESTLOG": str(log.resolve()), "MQCONF_REPORTS": str(output.resolve())}
    progress, seen, done = None, 0, 0
    folder.write_text("", "pytest.log")
    with folder.append("pytest.log") as out:
        # The child dies with us (Linux): a SIGKILL of mqconf run must not leave pytest writing into the folder.
        process = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT,
                                   preexec_fn=die_with_parent())
        try:
            while True:
                finished = process.poll() is not None
                lines = log.read_text().splitlines()
                for line in lines[seen:]:
                    try:
                        record = json.loads(line)
                    except json.JSONDecodeError:
                        break
                    seen += 1
                    if record.get("kind") == "collected":
                        progress = Progress(record["count"])
                    elif progress is not None and record.get("kind") == "test":
                        done += 1
                        progress.step(record["id"].rsplit("::", 1)[-1])
                if finished:
                    break
                time.sleep(0.1)
        finally:
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
            if progress is not None:
                progress.end()
            if junit_detour.exists():
                folder.move_in(junit_detour, "junit.xml")
            shutil.rmtree(junit_detour.parent, ignore_errors=True)
    records = []
    for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            records.append(json.loads(line))
        except ValueError:  # a last line cut short by a killed pytest
            continue
    tests = [r for r in records if r.get("kind") == "test"]
    failed = [r for r in tests if r["status"] in (FAILED, ERROR, UNEXPECTED_PASS)]
    counts = {"total": len(tests)}
    for record in tests:
        counts[record["status"]] = counts.get(record["status"], 0) + 1
    print(f"{len(tests)} tests: {count_parts(counts)} (tables and state machines; log: {output / 'pytest.log'})")
    divergences = read_divergences(output) if failed else []
    registry = load_registry() if failed else None
    for record in failed:
        # what differed, as summary.md says it (report.failure_lines): the call, each field, the clauses
        print(f"{record['status'].upper()} {record['id']}")
        if record["status"] != UNEXPECTED_PASS:
            failure = failure_of_test(record, divergences)
            rule_of = (lambda c: registry.get(c).rule if registry is not None and registry.get(c) else None)
            for line in failure_lines(failure, rule_of, lambda text: for_terminal(text, 1000)):
                print(f"  {line}")
    if process.returncode not in (0, 1, 5):
        print(f"tests: pytest stopped with exit status {process.returncode}; see {output / 'pytest.log'}")
        failed.append({"id": "pytest"})
    return len(tests), len(failed)


def find_allure() -> list[str] | None:
    """The Allure command line: ``MQCONF_ALLURE``, the copy ``make allure-cli`` installs in the virtualenv, or
    ``allure`` on PATH."""
    candidates = [os.environ.get("MQCONF_ALLURE"), str(Path(sys.prefix) / "allure" / "node_modules" / ".bin" / "allure"),
                  shutil.which("allure")]
    for candidate in candidates:
        if candidate and Path(candidate).exists():
            return [candidate]
    return None


def make_allure_report(output: Path) -> Path | None:
    """A single-file Allure HTML report of ``output/allure-results``; one line and None when it cannot be made."""
    results, target = output / "allure-results", output / "allure-report"
    command = find_allure()
    if command is None:
        print("allure: no Allure command line (make allure-cli installs Allure 3 from npm); Allure report skipped")
        return None
    if not results.is_dir():
        print("allure: no allure-results in this run; Allure report skipped")
        return None
    try:
        version = subprocess.run([*command, "--version"], capture_output=True, text=True, timeout=60).stdout.strip()
        if version.startswith("2."):
            args = [*command, "generate", "--single-file", "--clean", str(results), "-o", str(target)]
        else:
            args = [*command, "awesome", "--single-file", "-o", str(target), str(results)]
        done = subprocess.run(args, capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.SubprocessError) as exc:
        print(f"allure: could not run {command[0]} ({exc}); Allure report skipped")
        return None
    index = target / "index.html"
    if done.returncode != 0 or not index.exists():
        last = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        print(f"allure: {command[0]} failed ({last[0][:200]}); Allure report skipped")
        return None
    return index


def run_campaigns(adapter_name: str, campaigns: Sequence[Path] | None) -> list[dict]:
    """The campaign summaries a run includes: those given (a bad one raises :class:`ReportError`), or when none
    is given (``None``) the latest under reports/campaigns/ run on the same adapter, if one can be read."""
    if campaigns is not None:
        return [load_campaign(path) for path in campaigns]
    latest = latest_campaign(adapter_name, CAMPAIGNS, warn=lambda line: print(f"mqconf: warning: {line}",
                                                                               file=sys.stderr))
    return [latest] if latest else []


def run_conformance(adapter_name: str, output: Path, profile: str = "quick", expectations: Path | None = None,
                    scenario_paths: Sequence[Path] | None = None, allure: bool = False,
                    campaigns: Sequence[Path] | None = None, strict: bool = False, command: str | None = None,
                    replace: bool = False, seed: int | None = None) -> int:
    """A conformance run: every scenario, then (for a whole-suite run) the table tests and state machines, written
    as they finish; then the reports. ``scenario_paths`` runs only those scenarios, and no tests. ``campaigns``
    are campaign folders (or their summary.json) whose results the report includes; ``None`` includes the
    latest campaign of this adapter under reports/campaigns/, ``[]`` none. ``strict``: a difference where the
    model decided (the documents are silent) fails the run too. ``seed`` seeds the random search (Hypothesis'
    ``--hypothesis-seed``) and is recorded in the report; ``None`` leaves it to Hypothesis. ``output`` is claimed
    as a run folder
    (outfolder.py): new, empty or the suite's own, not in use by another run, and holding no earlier run unless
    ``replace`` (which removes that run's every artefact first).

    The exit status is the report's verdict: 0 only when it passed (complete, and nothing failed); 1 when
    anything failed or any planned result is missing (INCOMPLETE)."""
    from .pytest_plugin import load_expectations

    scenarios = _load_all(scenario_paths or [fixtures.SCENARIOS])
    registry = load_registry()
    try:
        expected = load_expectations(expectations) if expectations else []
    except Exception as exc:  # pytest.UsageError: one line naming the file and line
        raise ReportError(str(exc)) from None
    included = run_campaigns(adapter_name, campaigns)  # before the adapter starts: a bad path costs nothing
    with OutputFolder.claim(output, "run", replace=replace) as folder:
        return _run_in(folder, adapter_name, scenarios, registry, expected, included, profile, expectations,
                       scenario_paths, allure, strict, command, seed)


def _run_in(folder: OutputFolder, adapter_name: str, scenarios, registry: Registry, expected: list[dict],
            included: list[dict], profile: str, expectations: Path | None, scenario_paths, allure: bool,
            strict: bool, command: str | None, seed: int | None = None) -> int:
    """:func:`run_conformance` in its claimed folder."""
    output = folder.path
    adapter = load(adapter_name)
    writer = RunWriter(folder, adapter, profile, expected, included, planned=[s.id for s in scenarios], strict=strict,
                       spec=adapter_name, command=command, seed=seed)
    try:
        try:
            _run_list(scenarios, adapter, writer, registry)
        finally:
            adapter.close()
        if scenario_paths is None:
            writer.plan_tests()
            run_tests(adapter_name, folder, profile, expectations, seed)
    except KeyboardInterrupt:
        write_reports(folder, registry)
        print(f"interrupted; the report of what finished: {output / 'conformance.html'}")
        raise
    paths = writer.finish(registry)
    report = json.loads(paths["json"].read_text())
    by_status = report["summary"]["clauses_by_status"]
    print(f"clauses: " + ", ".join(f"{n} {k}" for k, n in by_status.items() if n))
    print(f"report: {paths['json']}")
    print(f"summary: {paths['summary']}")
    print(f"badge: {paths['badge']}")
    for campaign in included:
        source, here = Path(campaign["source"]), Path.cwd().resolve()
        if "://" in campaign["source"]:
            print(f"campaign: {campaign['source']}")
        else:
            print(f"campaign: {source.relative_to(here) if source.is_relative_to(here) else source}")
    from .junit import write_ci_results

    ci = write_ci_results(folder, registry)  # every scenario beside pytest's tests, for CI tools
    print(f"junit: {ci['junit']} ({ci['scenarios']} scenarios and the tests)")
    if allure:
        index = make_allure_report(output)
        if index:
            print(f"allure: {index}")
    # the end of the output is what to act on: the causes, largest first, the verdict, and the page to open
    for line in causes_section(report, lambda text: for_terminal(text, 300), limit=10):
        print(line)
    print(report["verdict"]["headline"])
    print(f"html: {paths['html']}")
    return EXIT_OK if report["verdict"]["status"] == "passed" else EXIT_FAILURES


def write_matrix(runs: Sequence[Path], target: Path) -> Path:
    """One page putting the runs' implementations side by side."""
    from .html import render_matrix

    reports = [load_report(run) for run in runs]
    with OutputFolder.open(target.parent) as folder:
        return folder.write_text(render_matrix(reports), target.name)


def run_many(adapters: Sequence[str], output: Path | None, **options) -> int:
    """One run per adapter under ``output/<adapter>/``, then ``output/matrix.html``."""
    base = output or Path("reports") / new_run_id("matrix")
    with OutputFolder.claim(base, "runs", lock=False):  # each run folder below locks itself
        pass
    statuses, runs = [], []
    used: set[str] = set()
    for name in adapters:
        print(f"== {name}")
        folder = safe_name(name)
        for number in range(2, len(adapters) + 2):  # two adapters whose names map to one folder never share it
            if folder.lower() not in used:
                break
            folder = f"{safe_name(name)[:76]}-{number}"
        used.add(folder.lower())
        run_dir = base / folder
        statuses.append(run_conformance(name, run_dir, **options))
        runs.append(run_dir)
    path = write_matrix(runs, base / "matrix.html")
    print(f"matrix: {path}")
    return max(statuses)


def list_scenarios(folder_only: bool) -> int:
    """The suite's own scenarios, one line each (id, then file), or with ``folder_only`` only their folder: where
    an install keeps them, to read, copy or pass to ``mqconf scenario``."""
    if folder_only:
        print(fixtures.SCENARIOS)
        return EXIT_OK
    for scenario in _load_all([fixtures.SCENARIOS]):
        print(f"{scenario.id}\t{scenario.path}")
    return EXIT_OK


def lint(paths: Sequence[Path] = ()) -> int:
    """Check scenario files: every one loads (each bad file is one line) and every clause id it cites exists.

    ``paths`` are anyone's scenario files or folders; without them, the suite's own scenarios, and also that every
    row of the suite's tables has a clause. Exit status 2 when a file does not load, 1 when only clause ids are
    unknown, 0 when all is well."""
    registry = load_registry()
    own = not paths
    scenarios, broken = collect_scenarios(list(paths) or [fixtures.SCENARIOS])
    problems: list[str] = []
    for scenario in scenarios:
        for clause_id in sorted(scenario.clause_ids()):
            if clause_id not in registry:
                problems.append(f"{scenario.path}: cites unknown clause {clause_id}")
    if own:
        from mq_conformance.reference.tables import every_table

        for table in every_table():
            for row in table.rows:
                if row.id not in registry:
                    problems.append(f"fixtures/tables ({table.id}): row {row.id} has no clause")
    for line in [*map(str, broken), *problems]:
        print(line)
    print(f"lint: {len(scenarios)} scenarios loaded, {len(broken)} files that do not load, {len(problems)} problems, "
          f"{len(registry.clauses)} clauses")
    if broken:
        return EXIT_USAGE
    return EXIT_FAILURES if problems else EXIT_OK


def _seed(text: str) -> int:
    """A ``--seed``: what Hypothesis takes as ``--hypothesis-seed``, bounded so the report can print it."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text[:40]!r}") from None
    if not 0 <= value < 2 ** 64:
        raise argparse.ArgumentTypeError("a seed is from 0 to 2**64-1")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mqconf", description="IBM MQ conformance suite and reference model.")
    commands = parser.add_subparsers(dest="command", required=True)

    scenario = commands.add_parser("scenario", help="run scenario files against an adapter")
    scenario.add_argument("paths", nargs="*", type=Path,
                          help="scenario files or folders (default: the suite's own, installed with it; "
                               "mqconf scenarios --path prints where)")
    scenario.add_argument("--adapter", default="reference", help="adapter name or module:factory")
    scenario.add_argument("--expectations", type=Path, help="YAML file of this implementation's expected failures: "
                          "a listed failure is an expected failure, a listed pass an unexpected pass")

    run = commands.add_parser("run", help="a conformance run: scenarios, table tests and state machines, with "
                                          "reports under reports/<run-id>/")
    run.add_argument("--adapter", action="append", help="adapter name or module:factory (default reference); "
                     "give several to put them side by side in matrix.html")
    run.add_argument("--profile", choices=("quick", "thorough"), default="quick",
                     help="how hard the state machines and property tests search (default quick)")
    run.add_argument("--output", type=Path, help="report folder (default reports/<run-id>)")
    run.add_argument("--seed", type=_seed, default=None,
                     help="the random search's seed (state machines, property tests); default: one drawn for the "
                          "run and recorded in its report, so that a run can be repeated with the same sequences")
    run.add_argument("--expectations", type=Path, help="YAML file of this implementation's expected failures")
    run.add_argument("--allure", action="store_true", help="also make a single-file Allure HTML report")
    run.add_argument("--replace", action="store_true",
                     help="the --output folder holds an earlier run: remove it (every file of that run) and write "
                          "this one there")
    run.add_argument("--strict", action="store_true",
                     help="the implementation claims strict mode: a difference where the model decided (the "
                          "documents are silent) fails the run like any other")
    run.add_argument("--scenarios", type=Path, nargs="+", default=None,
                     help="run only these scenario files or folders (and no tests)")
    included = run.add_mutually_exclusive_group()
    included.add_argument("--campaign", action="append", dest="campaigns", metavar="PATH",
                          help="include this campaign (its folder under reports/campaigns/ or a URI such as "
                               "s3://bucket/campaigns/ID, or its summary.json) in "
                               "the report; may be given several times (default: the latest campaign of the adapter)")
    included.add_argument("--no-campaign", action="store_true", help="include no campaign in the report")

    report = commands.add_parser("report", help="(re)build a run folder's reports from what it recorded")
    report.add_argument("run", type=Path, help="a run folder (reports/<run-id>)")

    compare = commands.add_parser("compare", help="what regressed, what newly passes, which clauses changed")
    compare.add_argument("run_a", type=Path, help="the earlier run (folder or conformance.json)")
    compare.add_argument("run_b", type=Path, help="the later run (folder or conformance.json)")
    compare.add_argument("--json", action="store_true", help="print the differences as JSON")

    matrix = commands.add_parser("matrix", help="put several runs' implementations side by side in one page")
    matrix.add_argument("runs", type=Path, nargs="+", help="run folders (or their conformance.json)")
    matrix.add_argument("--output", type=Path, default=Path("reports") / "matrix.html", help="the page to write")

    serve = commands.add_parser("serve", help="serve the reference model over the JSON-lines adapter protocol")
    serve.add_argument("--stdio", action="store_true", required=True,
                       help="speak protocol 1 on standard input and output (docs/implementers.md)")
    serve.add_argument("--claim", metavar="CAPABILITIES",
                       help="claim only these capabilities (comma-separated names from fixtures/capabilities.yaml, "
                            "e.g. core,groups) instead of all: plays an implementation that lacks the others")
    serve.add_argument("--adapter", default="reference",
                       help="serve this adapter instead of the model (a mutant:..., say: a broken implementation "
                            "out of process, for make bench and the suite's own tests)")

    strength = commands.add_parser("strength", help="run the suite against every mutant: kill rate per area and "
                                                    "the survivors (reports/strength/<id>/)")
    strength.add_argument("--profile", choices=("quick", "thorough"), default="quick",
                          help="how hard the state machines search (default quick)")
    strength.add_argument("--output", type=Path, help="report folder (default reports/strength/<id>)")
    strength.add_argument("--jobs", type=int, default=2, help="processes (default 2)")
    strength.add_argument("--only", help="only the mutants whose name contains this text")
    strength.add_argument("--no-tests", action="store_true", help="scenarios only: no table tests or state machines")
    strength.add_argument("--every-check", action="store_true",
                          help="every table mutant meets every check, not only those that read its cell (slower)")

    emulator = commands.add_parser("emulator", help="run one emulated IBM MQ queue manager (the model) that "
                                                    "ibmmq applications in other processes reach (docs/emulator.md)")
    emulator.add_argument("--listen", metavar="ADDRESS",
                          help="where to listen: host:port, host(port) or unix:/path (e.g. localhost:1414)")
    emulator.add_argument("--qmgr", action="append", default=[], metavar="NAME",
                          help="a queue manager's name (default QM1; repeat for several in one listener, the first "
                               "being the one a blank queue-manager name reaches)")
    emulator.add_argument("--developer", action="store_true",
                          help="add IBM's developer objects: DEV.QUEUE.1-3, DEV.DEAD.LETTER.QUEUE (the DLQ), "
                               "DEV.APP.MODEL.QUEUE")
    emulator.add_argument("--user", action="append", default=[], metavar="NAME:PASSWORD",
                          help="a user and password applications may connect with (repeat; wrong ones get "
                               "MQRC_NOT_AUTHORIZED); without any, credentials are not checked")
    emulator.add_argument("--require-user", action="append", default=[], metavar="CHANNEL",
                          help="connections over this channel (repeat; * for all) must give a user and password")
    emulator.add_argument("--max-connections", type=int, default=256, metavar="N",
                          help="sockets served at once, connected or not (default 256; more are closed at once)")
    emulator.add_argument("--handshake-timeout", type=float, default=10.0, metavar="SECONDS",
                          help="a socket must have said HELLO and CONNX within this time (default 10)")
    emulator.add_argument("--idle-timeout", type=float, default=0.0, metavar="SECONDS",
                          help="end a connected socket that sends nothing for this long (default 0: never)")
    emulator.add_argument("--max-message-length", type=int, default=104_857_600, metavar="BYTES",
                          help="the longest message a frame may carry after CONNX (default 104857600, MQ's "
                               "largest); before CONNX a frame is at most 64 KiB")
    emulator.add_argument("--max-frame-memory", type=int, default=1 << 30, metavar="BYTES",
                          help="bytes of frames longer than 64 KiB all sockets may hold at once (default 1073741824, "
                               "ten of MQ's largest messages); a put past it gets MQRC_STORAGE_NOT_AVAILABLE")
    emulator.add_argument("--virtual-clock", action="store_true",
                          help="the model's clock, moving only when told, instead of the wall clock")
    emulator.add_argument("--install-hook", action="store_true",
                          help="install the one-line .pth that makes 'import ibmmq' use the emulator in every "
                               "process of this Python environment where MQCONF_EMULATOR is set")
    emulator.add_argument("--libmqm", action="store_true",
                          help="print the folder of the emulator's IBM MQ C library (libmqm_r.so), building it with "
                               "the C compiler on first use: put it on LD_LIBRARY_PATH (docs/emulator.md)")
    scenarios = commands.add_parser("scenarios", help="list the suite's own scenarios (id and file), installed "
                                                      "with it")
    scenarios.add_argument("--path", action="store_true", help="print only the folder that holds them")
    constants = commands.add_parser("constants", help="the MQ constants the suite uses, as JSON, for "
                                                      "implementations in any language (docs/implementers.md)")
    shown = constants.add_mutually_exclusive_group(required=True)
    shown.add_argument("--json", action="store_true", help="print the constants (fixtures/constants.json)")
    shown.add_argument("--path", action="store_true", help="print where the installed constants.json is")

    commands.add_parser("adapters", help="list the adapters that can be named")
    lint_parser = commands.add_parser("lint", help="check that scenario files load and every clause they cite "
                                      "exists (default: the suite's own scenarios and tables)")
    lint_parser.add_argument("paths", nargs="*", type=Path, help="scenario files or folders (yours or the suite's)")
    from .campaign.cli import add_parser as add_campaign_parser

    add_campaign_parser(commands)
    return parser


def run_libmqm() -> int:
    """``mqconf emulator --libmqm``: the folder of the built C library (emulator/libmqm)."""
    from mq_conformance.emulator.libmqm import LibmqmUnavailable, folder

    try:
        print(folder())
    except LibmqmUnavailable as exc:
        raise AdapterError(f"emulator --libmqm: {exc}") from None
    return EXIT_OK


def run_emulator(args: argparse.Namespace) -> int:
    """``mqconf emulator``: install the hook, or listen until interrupted."""
    from mq_conformance.emulator import EmulatorUnavailable, hook

    if args.install_hook:
        print(f"installed {hook.install_pth()}: set MQCONF_EMULATOR=1 (or an address) to use the emulator")
        if not args.listen:
            return EXIT_OK
    if not args.listen:
        raise AdapterError("emulator: say where to listen (--listen localhost:1414) or --install-hook")
    users = {}
    for entry in args.user:
        name, sep, password = entry.partition(":")
        if not sep or not name or not password:
            raise AdapterError(f"--user {entry!r}: give NAME:PASSWORD (a password is never empty)")
        users[name] = password
    from mq_conformance.emulator.server import Budgets
    from mq_conformance.emulator.session import MAX_FRAME, MAX_MESSAGE

    if args.max_connections < 1 or args.handshake_timeout <= 0 or args.idle_timeout < 0 or \
            args.max_message_length < 0 or args.max_frame_memory < 0:
        raise AdapterError("emulator: --max-connections and --handshake-timeout must be positive, "
                           "--idle-timeout, --max-message-length and --max-frame-memory not negative")
    budgets = Budgets(max_connections=args.max_connections, handshake_seconds=args.handshake_timeout,
                      idle_seconds=args.idle_timeout, memory=args.max_frame_memory,
                      max_frame=MAX_FRAME - MAX_MESSAGE + args.max_message_length)
    qmgrs = tuple(args.qmgr) or ("QM1",)
    try:
        listener = hook.listen(args.listen, qmgr=qmgrs, developer=args.developer, users=users,
                               real_time=not args.virtual_clock, require_user=tuple(args.require_user),
                               budgets=budgets)
    except (EmulatorUnavailable, ValueError) as exc:
        raise AdapterError(f"emulator: {exc}") from None
    print(f"mqconf emulator: queue manager{'s' if len(qmgrs) > 1 else ''} {' '.join(qmgrs)} listening at "
          f"{listener.address}; MQCONF_EMULATOR=1 in an application's environment reaches it", flush=True)
    try:
        listener.serve_forever()
    finally:
        listener.close()
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    """``mqconf``: the exit status of the command. SIGTERM and SIGHUP stop it as Ctrl-C does, and output nobody
    reads is dropped rather than stopping it (conformance/stops.py). Run as a program (``argv`` None), it first
    makes itself a child subreaper and at the end kills every process it started that is still alive, however it
    left the process group (a server that called ``setsid()`` and forked); called with ``argv`` (in process, by a
    test) it leaves processes alone."""
    subreaper = argv is None and become_subreaper()
    try:
        with tolerant_output(), signals_stop():
            return _main(argv)
    finally:
        if subreaper:
            kill_descendants()


def _main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)  # the command as given, recorded with the results
    try:
        _check_outputs(args)
        if args.command == "scenario":
            return run_scenarios(args.paths or [fixtures.SCENARIOS], args.adapter, args.expectations)
        if args.command == "scenarios":
            return list_scenarios(args.path)
        if args.command == "constants":
            constants = fixtures.ROOT / "constants.json"
            print(constants if args.path else constants.read_text(encoding="utf-8"), end="\n" if args.path else "")
            return EXIT_OK
        if args.command == "run":
            adapters = args.adapter or ["reference"]
            # drawn here, not by Hypothesis in the test process, so that the report can say how to repeat it
            seed = args.seed if args.seed is not None else secrets.randbelow(2 ** 32)
            options = dict(profile=args.profile, expectations=args.expectations, scenario_paths=args.scenarios,
                           seed=seed,
                           allure=args.allure, campaigns=[] if args.no_campaign else args.campaigns,
                           strict=args.strict, command=command_line(args.argv), replace=args.replace)
            if len(adapters) > 1:
                return run_many(adapters, args.output, **options)
            return run_conformance(adapters[0], args.output or Path("reports") / new_run_id(adapters[0]), **options)
        if args.command == "report":
            registry = load_registry()
            from .junit import write_ci_results

            with OutputFolder.open(args.run, make=False) as folder:
                folder.lock_if_marked("report")  # a run still writing the folder: one line, no half report
                paths = write_reports(folder, registry)
                paths["junit"] = write_ci_results(folder, registry)["junit"]
            print(load_report(paths["json"])["verdict"]["headline"])
            for kind, path in paths.items():
                print(f"{kind}: {path}")
            return EXIT_OK
        if args.command == "compare":
            from .compare_runs import compare, has_regressions, render

            diff = compare(load_report(args.run_a), load_report(args.run_b))
            print(json.dumps(diff, indent=2) if args.json else render(diff))
            return EXIT_FAILURES if has_regressions(diff) else EXIT_OK
        if args.command == "matrix":
            print(f"matrix: {write_matrix(args.runs, args.output)}")
            return EXIT_OK
        if args.command == "serve":
            from mq_conformance.adapters.capabilities import check_claim

            from .serve import serve_stdio

            claim = None
            if args.claim is not None:
                claim = check_claim([n.strip() for n in args.claim.split(",") if n.strip()], "--claim")
            return serve_stdio(claim, None if args.adapter == "reference" else load(args.adapter))
        if args.command == "emulator":
            return run_libmqm() if args.libmqm else run_emulator(args)
        if args.command == "adapters":
            for name, origin in sorted(available().items()):
                print(f"{name}\t{origin}")
            return EXIT_OK
        if args.command == "campaign":
            from .campaign.cli import main as campaign_main

            return campaign_main(args)
        if args.command == "strength":
            from .strength import run_strength

            output = args.output or Path("reports") / "strength" / new_run_id("strength", Path("reports") / "strength")
            return run_strength(output, args.profile, max(args.jobs, 1), args.only, not args.no_tests,
                                selected=not args.every_check)[0]
        if args.command == "lint":
            return lint(args.paths)
    except ScenarioErrors as exc:  # every bad scenario file, one line each
        for error in exc.errors:
            print(f"mqconf: {for_terminal(error, 2000)}", file=sys.stderr)
        return EXIT_USAGE
    except (SourceError, AdapterError, ReportError, CapabilityError, OutputError) as exc:
        print(f"mqconf: {for_terminal(exc, 2000)}", file=sys.stderr)
        return EXIT_USAGE
    except Stopped as stop:
        if args.command == "emulator":  # how a listener is meant to end: no line that reads as an error
            print(f"mqconf emulator: the listener stopped ({stop})", file=sys.stderr)
        else:
            print(f"mqconf: stopped by {stop}; what finished is written", file=sys.stderr)
        return stop.exit_status
    except KeyboardInterrupt:
        print("mqconf: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except OSError as exc:  # a full disk, a folder that became unwritable: one line with the path
        where = exc.filename or getattr(args, "output", None) or getattr(args, "run", None) or "output"
        print(f"mqconf: {for_terminal(where)}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_USAGE
    except Exception as exc:  # noqa: BLE001 - a bug of the suite: one line, the traceback on request
        if os.environ.get("MQCONF_DEBUG"):
            raise
        print(f"mqconf: internal error ({type(exc).__name__}: {for_terminal(exc, 300)}); "
              f"MQCONF_DEBUG=1 shows the traceback", file=sys.stderr)
        return EXIT_INTERNAL
    return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
