"""Every clause belongs to the capabilities a certificate counts it under, or to no certificate (the emulator's
and the suite's own): the ``clauses`` block of fixtures/capabilities.yaml, read by conformance/clauses.py. And
every clause a certificate counts is reached by a check that runs under that claim, so that an implementation
perfect in what it claims earns 100%: a clause no check reaches is a defect of the suite, caught here, never
counted against an implementation (issue 35). Each failure says what to add, and where."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from mq_conformance.adapters.capabilities import load_capabilities
from mq_conformance.conformance.clauses import UNASSIGNED, clause_assignment, load_registry
from mq_conformance.conformance.suite import pytest_command
from tests_support import suite_scenarios

WHERE = "fixtures/capabilities.yaml"


def closure(names) -> frozenset[str]:
    """``names`` with every capability they require, and core."""
    known, found, pending = load_capabilities(), {"core"}, list(names)
    while pending:
        name = pending.pop()
        if name not in found:
            found.add(name)
            pending += list(known[name].requires)
    return frozenset(found)


def _shown(names) -> str:
    names = sorted(set(names) - {"core"}) or ["core"]
    return names[0] if len(names) == 1 else "[" + ", ".join(names) + "]"


def test_every_clause_belongs_to_capabilities_or_to_no_certificate():
    registry = load_registry()
    by_area: dict[str, list[str]] = {}
    for clause in registry.clauses.values():
        if clause.outside == UNASSIGNED:
            by_area.setdefault(clause.area, []).append(clause.id)
    missing = [f"area {area} ({len(ids)} clauses: {', '.join(ids[:3])}{' ...' if len(ids) > 3 else ''}) belongs to "
               f"no capability: add `{area}: <capability>` under clauses.areas in {WHERE}, or each clause under "
               "clauses.overrides (`<clause id>: <capability>`), or under clauses.outside when it is no statement "
               "about MQ" for area, ids in by_area.items()]
    assert not missing, "\n".join(missing)


def test_the_clause_table_names_only_known_capabilities_and_clauses():
    registry, known = load_registry(), set(load_capabilities())
    assignment = clause_assignment()
    outside = set(assignment["outside"])
    problems = []
    for area, value in assignment["areas"].items():
        names = [value] if isinstance(value, str) else list(value)
        problems += [f"clauses.areas.{area}: {n!r} is neither a capability nor an outside list"
                     for n in names if n not in known | outside]
    for clause_id, value in assignment["overrides"].items():
        names = [value] if isinstance(value, str) else list(value)
        problems += [f"clauses.overrides.{clause_id}: unknown capability {n!r}" for n in names if n not in known]
        if clause_id not in registry:
            problems.append(f"clauses.overrides.{clause_id}: no such clause in fixtures/clauses.yaml; remove it")
    listed: dict[str, str] = {}
    for name, ids in assignment["outside"].items():
        for clause_id in ids:
            if clause_id not in registry:
                problems.append(f"clauses.outside.{name}: no clause {clause_id} in fixtures/clauses.yaml; remove it")
            if clause_id in listed or clause_id in assignment["overrides"]:
                problems.append(f"clause {clause_id} is listed twice in {WHERE}; keep one entry")
            listed[clause_id] = name
    assert not problems, "\n".join(problems)


def certification_marks(tmp_path: Path) -> list[dict]:
    """Every certification test ``mqconf run`` runs, with its clause and capability marks (collected, not run)."""
    target = tmp_path / "marks.json"
    env = {**os.environ, "MQCONF_REACH": str(target),
           "PYTHONPATH": os.pathsep.join([str(Path(__file__).parent), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([*pytest_command("reference", "quick"), "--collect-only", "-p", "clause_reach"],
                          capture_output=True, text=True, env=env, timeout=300)
    assert target.exists(), done.stdout[-2000:] + done.stderr[-2000:]
    return json.loads(target.read_text())


def test_every_counted_clause_is_reached_by_a_check_that_runs_under_its_claim(tmp_path):
    """A clause counted under capabilities K is cited by a scenario or certification test needing no more than K
    (with what K requires): under the claim K the check runs, so the model earns the clause. Otherwise the
    message names the checks that do cite it and what they need."""
    registry = load_registry()
    checks = [(f"scenario {s.id}", frozenset(s.capabilities), s.clause_ids()) for s in suite_scenarios()]
    checks += [(f"test {t['id']}", frozenset(t["capabilities"]), set(t["clauses"]))
               for t in certification_marks(tmp_path)]
    problems = []
    for clause in registry.clauses.values():
        if clause.outside:
            continue
        claim = closure(clause.capabilities)
        citing = [(name, needs) for name, needs, cited in checks if clause.id in cited]
        if any(needs <= claim for _, needs in citing):
            continue
        if not citing:
            problems.append(f"clause {clause.id} (counted under {_shown(clause.capabilities)}) is cited by no "
                            "scenario or certification test: cite it in a check that shows it, or list it under "
                            f"clauses.outside in {WHERE} when no implementation's answers can show it")
            continue
        least = min(citing, key=lambda item: (len(item[1]), sorted(item[1])))
        shown = "; ".join(f"{name} needs {_shown(needs)}" for name, needs in citing[:4])
        problems.append(f"clause {clause.id} (counted under {_shown(clause.capabilities)}) is cited only by checks "
                        f"needing more ({shown}): add `{clause.id}: {_shown(least[1] | clause.capabilities)}` "
                        f"under clauses.overrides in {WHERE}, or cite it in a check needing only "
                        f"{_shown(clause.capabilities)}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("capability", sorted(load_capabilities()))
def test_every_capability_alone_counts_clauses(capability):
    """No capability is an empty claim: each has clauses of its own in the certificate."""
    registry = load_registry()
    assert [c for c in registry.clauses.values() if capability in c.capabilities and not c.outside]
