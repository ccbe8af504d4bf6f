"""``mqconf strength``: how strong the suite is, measured as the share of mutants it kills.

Every mutant of adapters/mutants.py (the table mutants made from fixtures/tables, and the hand-written semantic
mutants) is run against the suite: first the scenarios, those citing the mutated clause first, stopping at the
first that fails; a mutant that passes them all then meets the table tests and state machines (pytest, in a
subprocess, with a fixed Hypothesis seed, stopping at the first failure). A mutant nothing kills is a survivor:
either shown equivalent to the model (mq_conformance.adapters.mutants.EQUIVALENT, with the argument) or a gap of
the suite, to be closed by a new test.

A table mutant changes one cell of one table, and meets only the checks that read that cell when they run against
the model; an option-ignored mutant only those whose calls give its option, an output-unset mutant only those
returned its field changed (conformance/reads.py records all three before any mutant runs: every scenario, and
every certification test in a recording pytest run made twice to show it is deterministic). A check that does not
reach what the mutant changes runs alike against it, so skipping it changes no verdict; a mutant that no check
reaches is reported as such. Semantic and limit mutants change code any call may meet, and meet every check.
``select=False`` runs every check for every mutant (the same verdicts, slower).

The results go to ``reports/strength/<id>/strength.json`` and ``strength.md``: the kill rate per kind and per
area (a clause id's first part), and every survivor with its reason. Targets: every non-equivalent table mutant
killed, at least 95% of the semantic mutants killed, and every non-equivalent mutant of each family of
adapters/families.py (option-ignored, output-unset, limit, and the selector, topic-matcher and property-type
families of adapters/fault_families.py, which meet every check as semantic mutants do) killed.
"""

from __future__ import annotations

import json
import multiprocessing
import subprocess
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from mq_conformance import fixtures
from mq_conformance.adapters.families import FAMILIES, family_mutant_names, family_of_mutant, hint
from mq_conformance.adapters.mutants import EQUIVALENT, PREFIX, SEMANTIC_MUTANTS, load_mutant, table_mutant_names

from . import reads
from .runner import ERROR, FAILED, run_scenario
from .scenario import Scenario, load_scenarios
from .suite import ADAPTER_TESTS, ROOT, pytest_command

TABLE, SEMANTIC = "table", "semantic"
KINDS = (TABLE, SEMANTIC, *FAMILIES)
TABLE_TARGET, SEMANTIC_TARGET, FAMILY_TARGET = 1.0, 0.95, 1.0
HYPOTHESIS_SEED = 0  # the certification tests draw alike for every mutant, and for the recording of their reads


@dataclass
class Mutant:
    """One mutant to run: its adapter name, kind, the clause it breaks and that clause's area."""

    name: str
    kind: str
    clause: str
    area: str


@dataclass
class Verdict:
    """What became of one mutant: killed (by which scenario or test) or survived (with the reason)."""

    name: str
    kind: str
    clause: str
    area: str
    killed: bool
    by: str = ""
    reason: str = ""
    seconds: float = 0.0
    scenarios: int = 0  # how many scenarios it met (those reading its cell, for a table mutant)
    tests: int | None = None  # how many certification tests it met: None for all of them, 0 for none


@dataclass
class Selection:
    """Which checks read each table cell: cell -> scenario ids, and cell -> certification test node ids (``tests``
    None: not recorded, every mutant meets every test)."""

    scenarios: dict[str, list[str]]
    tests: dict[str, list[str]] | None


def table_clause(name: str) -> str:
    """The row or rule id a table mutant changes."""
    rest = name[len(PREFIX):]
    kind, _, tail = rest.partition(":")
    if kind == "rule-removed":
        return tail
    return tail.split(":", 1)[0]


def all_mutants() -> list[Mutant]:
    """Every table mutant, then every semantic mutant."""
    found = []
    for name in table_mutant_names():
        clause = table_clause(name)
        found.append(Mutant(name, TABLE, clause, clause.split(".")[0]))
    for name, mutant in SEMANTIC_MUTANTS.items():
        found.append(Mutant(PREFIX + name, SEMANTIC, mutant.clause, mutant.area))
    for name in family_mutant_names():
        word, area = hint(name)
        found.append(Mutant(name, family_of_mutant(name), word, area))
    return found


def ordered_for(clause: str, scenarios: Sequence[Scenario]) -> list[Scenario]:
    """The scenarios citing ``clause`` first, then those citing a clause of the same table or topic, then the rest."""
    family = clause.rsplit(".", 1)[0]

    def rank(scenario: Scenario) -> int:
        cited = scenario.clause_ids()
        if clause in cited:
            return 0
        return 1 if any(c.startswith(family) for c in cited) else 2
    return sorted(scenarios, key=rank)


_TEXTS: dict[str, str] = {}


def ordered_by_word(word: str, scenarios: Sequence[Scenario]) -> list[Scenario]:
    """The scenarios whose calls or expectations mention ``word`` (an option or field name) first."""
    def text(scenario: Scenario) -> str:
        if scenario.id not in _TEXTS:
            _TEXTS[scenario.id] = repr([(s.call.args, s.expect) for s in scenario.steps])
        return _TEXTS[scenario.id]
    return sorted(scenarios, key=lambda s: 0 if word and word in text(s) else 1)


def mutant_cell(mutant: Mutant) -> str | None:
    """What a table, option-ignored or output-unset mutant changes, as the checks' reads name it
    (conformance/reads.py), or None for a mutant of code, which meets every check."""
    return reads.mutant_cell(mutant.name[len(PREFIX):]) if mutant.kind != SEMANTIC else None


def by_scenarios(mutant: Mutant, scenarios: Sequence[Scenario], only: set[str] | None = None) -> str | None:
    """The id of the first scenario the mutant fails, or None; ``only``: the ids of the scenarios to run (all by
    default), in the same order."""
    adapter = load_mutant(mutant.name)
    ordered = ordered_by_word(mutant.clause, scenarios) if mutant.kind in FAMILIES else \
        ordered_for(mutant.clause, scenarios)
    for scenario in ordered:
        if only is not None and scenario.id not in only:
            continue
        result = run_scenario(scenario, adapter)
        if result.status in (FAILED, ERROR):
            return f"scenario {scenario.id}"
    return None


def tests_command(adapter: str, profile: str, node_ids: Sequence[str] | None = None) -> list[str]:
    """The certification pytest on ``adapter`` with strength's fixed Hypothesis seed: every test, or only
    ``node_ids`` (as recorded, relative to the certification tests' root)."""
    command = [*pytest_command(adapter, profile), f"--hypothesis-seed={HYPOTHESIS_SEED}"]
    if node_ids is None:
        return command
    files = {str(ROOT / name) for name in ADAPTER_TESTS}
    return [a for a in command if a not in files] + [str(ROOT / node_id) for node_id in node_ids]


def record_test_reads(profile: str) -> dict[str, set[str]] | None:
    """The cells each certification test reads against the model (node id -> cells), recorded twice: None when
    the two recordings differ or the model does not pass, and every mutant must then meet every test."""
    found = []
    with tempfile.TemporaryDirectory(prefix="mqconf-reads-") as folder:
        for attempt in (1, 2):
            path = Path(folder) / f"reads-{attempt}.json"
            done = subprocess.run([*tests_command("reference", profile), "--mq-record-reads", str(path)],
                                  capture_output=True, text=True, timeout=1800)
            if done.returncode != 0 or not path.exists():
                return None
            found.append(reads.load(path))
    return found[0] if found[0] == found[1] else None


def by_tests(mutant: Mutant, profile: str, node_ids: Sequence[str] | None = None) -> tuple[bool | None, str]:
    """Run the table tests and state machines on the mutant (every test, or only ``node_ids``): (killed, the first
    failing test); killed is None when pytest could not run. No node ids: no test can see it, nothing runs."""
    if node_ids is not None and not node_ids:
        return False, ""
    command = [*tests_command(mutant.name, profile, node_ids), "-x", "-rf"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=1800)
    if done.returncode == 0:
        return False, ""
    if done.returncode == 1:
        failed = [line.split(" ", 2)[1] for line in done.stdout.splitlines() if line.startswith("FAILED ")]
        # named as recorded (certification/test_x.py::...), whatever path the node was given by
        node = failed[0][failed[0].find("certification/"):] if failed and "certification/" in failed[0] else \
            failed[0] if failed else "(pytest failed)"
        return True, f"test {node}"
    return None, f"pytest exit status {done.returncode}: {(done.stdout + done.stderr).strip().splitlines()[-1:]}"


def judge(mutant: Mutant, scenarios: Sequence[Scenario], profile: str, tests: bool,
          selection: Selection | None = None) -> Verdict:
    """Run the suite against one mutant: every check, or with ``selection`` the checks that read a table
    mutant's cell."""
    start = time.monotonic()
    verdict = Verdict(mutant.name, mutant.kind, mutant.clause, mutant.area, False)
    cell = mutant_cell(mutant) if selection is not None else None
    only = set(selection.scenarios.get(cell, ())) if selection is not None and cell is not None else None
    node_ids = (selection.tests.get(cell, []) if cell is not None and selection is not None
                and selection.tests is not None else None)
    verdict.scenarios = len(scenarios) if only is None else len(only)
    try:
        killer = by_scenarios(mutant, scenarios, only)
    except Exception as exc:  # noqa: BLE001 - a mutant that cannot even be built is reported, not raised
        killer = None
        verdict.reason = f"could not run: {type(exc).__name__}: {exc}"
    if killer is None and tests and not verdict.reason:
        verdict.tests = None if node_ids is None else len(node_ids)
        killed, by = by_tests(mutant, profile, node_ids)
        if killed is None:
            verdict.reason = by
        elif killed:
            killer = by
    if killer is not None:
        verdict.killed, verdict.by = True, killer
    elif not verdict.reason:
        rest = mutant.name[len(PREFIX):]
        unread = cell is not None and not only and (not tests or node_ids == [])
        verdict.reason = ("equivalent: " + EQUIVALENT[rest] + (
            f" (and no {'check' if tests else 'scenario'} reaches {cell} when it runs against the model)"
            if unread else "")) \
            if rest in EQUIVALENT else \
            f"gap: no scenario{'' if not tests else ' or certification test'} reads {cell} against the model" \
            if unread else \
            "gap: no scenario" + ("" if not tests else ", table test or state machine") + " tells it from the model"
    verdict.seconds = round(time.monotonic() - start, 2)
    return verdict


_SCENARIOS: list[Scenario] = []
_SELECTION: list[Selection | None] = [None]


def _init(paths: Sequence[Path], selection: Selection | None = None) -> None:
    _SCENARIOS[:] = load_scenarios(paths)
    _SELECTION[0] = selection


def _judge(job: tuple[Mutant, str, bool]) -> Verdict:
    return judge(job[0], _SCENARIOS, job[1], job[2], _SELECTION[0])


def select(scenarios: Sequence[Scenario], profile: str, tests: bool) -> Selection:
    """Which checks read each table cell: the scenarios against the model, and (``tests``) the certification
    tests' recorded reads, or None for them when the recording is not reproducible."""
    by_scenario = reads.scenario_reads(scenarios)
    if by_scenario != reads.scenario_reads(scenarios):  # the model is deterministic: this would be a bug of it
        raise RuntimeError("the scenarios read different table cells on a second run against the model")
    recorded = record_test_reads(profile) if tests else None
    if tests and recorded is None:
        print("strength: the certification tests' reads were not reproducible: every mutant meets every test",
              flush=True)
    return Selection(reads.invert(by_scenario), reads.invert(recorded) if recorded is not None else None)


def summarise(verdicts: Sequence[Verdict]) -> dict:
    """Kill rates per kind and per area, and whether the targets are met."""
    def rate(group: Sequence[Verdict]) -> dict:
        killed = sum(v.killed for v in group)
        equivalent = sum(1 for v in group if not v.killed and v.reason.startswith("equivalent"))
        total = len(group)
        return {"total": total, "killed": killed, "equivalent": equivalent, "survived": total - killed,
                "seconds": round(sum(v.seconds for v in group), 1),
                "kill_rate": round(killed / total, 4) if total else 1.0,
                "kill_rate_non_equivalent": round(killed / (total - equivalent), 4) if total - equivalent else 1.0}
    present = [kind for kind in KINDS if any(v.kind == kind for v in verdicts)] or [TABLE, SEMANTIC]
    kinds = {kind: rate([v for v in verdicts if v.kind == kind]) for kind in present}
    areas: dict[str, dict] = {}
    for kind in present:
        for area in sorted({v.area for v in verdicts if v.kind == kind}):
            areas.setdefault(area, {})[kind] = rate([v for v in verdicts if v.kind == kind and v.area == area])
    met = all(kinds[kind]["kill_rate_non_equivalent"] >= TABLE_TARGET for kind in (TABLE,) if kind in kinds) and \
        all(kinds[kind]["kill_rate"] >= SEMANTIC_TARGET for kind in (SEMANTIC,) if kind in kinds) and \
        all(kinds[kind]["kill_rate_non_equivalent"] >= FAMILY_TARGET for kind in FAMILIES if kind in kinds)
    return {"kinds": kinds, "areas": areas, "targets": {"table_non_equivalent": TABLE_TARGET,
                                                        "semantic": SEMANTIC_TARGET,
                                                        "families_non_equivalent": FAMILY_TARGET, "met": met}}


def render_markdown(report: dict) -> str:
    """strength.md: the kill rates and the survivors, for a person."""
    lines = ["# Suite strength (mutation score)", "",
             f"Profile `{report['profile']}`, {report['seconds']:.0f} s, "
             f"targets {'met' if report['summary']['targets']['met'] else 'NOT met'}.", "",
             "| kind | mutants | killed | equivalent | kill rate | non-equivalent kill rate | seconds |",
             "|---|---|---|---|---|---|---|"]
    for kind, r in report["summary"]["kinds"].items():
        lines.append(f"| {kind} | {r['total']} | {r['killed']} | {r['equivalent']} | {r['kill_rate']:.1%} | "
                     f"{r['kill_rate_non_equivalent']:.1%} | {r.get('seconds', 0):.0f} |")
    lines += ["", "## Per area", "", "| area | kind | mutants | killed | equivalent | kill rate | seconds |",
              "|---|---|---|---|---|---|---|"]
    for area, kinds in report["summary"]["areas"].items():
        for kind, r in kinds.items():
            lines.append(f"| {area} | {kind} | {r['total']} | {r['killed']} | {r['equivalent']} | "
                         f"{r['kill_rate']:.1%} | {r.get('seconds', 0):.0f} |")
    survivors = [v for v in report["mutants"] if not v["killed"]]
    lines += ["", f"## Survivors ({len(survivors)})", ""]
    for v in survivors:
        lines.append(f"- `{v['name']}` ({v['kind']}, clause `{v['clause']}`): {v['reason']}")
    if not survivors:
        lines.append("None.")
    return "\n".join(lines) + "\n"


def run_strength(output: Path, profile: str = "quick", jobs: int = 2, only: str | None = None,
                 tests: bool = True, scenario_paths: Sequence[Path] | None = None,
                 selected: bool = True) -> tuple[int, dict]:
    """Run every mutant (or those whose name contains ``only``) through the suite with ``jobs`` processes;
    write strength.json and strength.md under ``output``. Returns (exit status, report). Scenario files that do
    not load are ScenarioErrors naming every one of them, before any mutant runs. ``selected``: each table
    mutant meets only the checks that read its cell (module docstring); otherwise every check."""
    paths = list(scenario_paths or [fixtures.SCENARIOS])
    _init(paths)  # here first: a bad file is reported once, not by each process
    mutants = [m for m in all_mutants() if only is None or only in m.name]
    from .outfolder import OutputFolder

    folder = OutputFolder.claim(output, "strength", replace=True)  # new, empty or an earlier strength report's
    start = time.monotonic()
    selection = None
    if selected and any(m.kind == TABLE for m in mutants):
        print("strength: recording which table cells each scenario and certification test reads", flush=True)
        selection = select(_SCENARIOS, profile, tests)
    verdicts: list[Verdict] = []
    jobs_list = [(m, profile, tests) for m in mutants]
    counts = ", ".join(f"{sum(m.kind == kind for m in mutants)} {kind}" for kind in KINDS)
    print(f"strength: {len(mutants)} mutants ({counts}), {jobs} processes", flush=True)
    if jobs > 1:
        with multiprocessing.get_context("spawn").Pool(jobs, initializer=_init, initargs=(paths, selection)) as pool:
            for verdict in pool.imap_unordered(_judge, jobs_list):
                verdicts.append(verdict)
                _progress(len(verdicts), len(mutants), verdict, start)
    else:
        _SELECTION[0] = selection
        for job in jobs_list:
            verdicts.append(_judge(job))
            _progress(len(verdicts), len(mutants), verdicts[-1], start)
    order = {m.name: i for i, m in enumerate(mutants)}
    verdicts.sort(key=lambda v: order[v.name])
    report = {"profile": profile, "seconds": round(time.monotonic() - start, 1), "tests": tests,
              "selected": selection is not None, "hypothesis_seed": HYPOTHESIS_SEED,
              "summary": summarise(verdicts), "mutants": [asdict(v) for v in verdicts]}
    with folder:
        folder.write_text(json.dumps(report, indent=2) + "\n", "strength.json")
        folder.write_text(render_markdown(report), "strength.md")
    for kind, r in report["summary"]["kinds"].items():
        print(f"{kind} mutants: {r['killed']}/{r['total']} killed ({r['kill_rate']:.1%}), "
              f"{r['equivalent']} equivalent, "
              f"{r['killed'] + r['equivalent']}/{r['total']} killed or proven equivalent "
              f"({r['kill_rate_non_equivalent']:.1%} of the non-equivalent killed)")
    for v in verdicts:
        if not v.killed:
            print(f"SURVIVED {v.name}: {v.reason}")
    print(f"strength: {output / 'strength.json'}\nsummary: {output / 'strength.md'}")
    return (0 if report["summary"]["targets"]["met"] else 1), report


def _progress(done: int, total: int, verdict: Verdict, start: float) -> None:
    state = f"killed by {verdict.by}" if verdict.killed else "SURVIVED"
    elapsed = time.monotonic() - start
    left = elapsed / done * (total - done)
    print(f"[{done}/{total}, {elapsed:.0f}s, about {left:.0f}s left] {verdict.name}: {state} ({verdict.seconds}s)",
          flush=True)
