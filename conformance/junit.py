"""Every scenario of a run as a test case for CI tools: merged into the run's ``junit.xml`` beside the tests pytest
wrote there, and written as Allure results beside pytest's in ``allure-results/``.

A run's scenarios are the heart of conformance, but pytest only knows its own tests; this module reads the run's
``results.jsonl`` (one record per scenario, conformance/report.py) and adds, for each scenario:

- JUnit: a ``<testcase>`` in the ``<testsuite>`` of its area (``scenarios.<area>``), named by the scenario id, with
  its file, its clause ids as ``<property name="clause">``, and for a failing scenario a ``<failure>`` whose message
  is the failing step's expected and actual outcome (``<error>`` when the implementation could not run a call,
  ``<skipped>`` when it does not claim the scenario's capabilities);
  A failure the verdict does not count (a difference only at clauses the model decided, without ``--strict``) is
  ``<skipped>`` of type ``decision differs``, so CI tools and the report agree;

One set of numbers with the report. JUnit XML as CI tools read it (Jenkins' JUnit plugin, GitLab's test reports,
GitHub's test-report actions, Azure Pipelines) has four outcomes: passed (no child), ``<failure>``, ``<error>`` and
``<skipped>``; none has an expected failure, and pytest writes one as ``<skipped>``, which reads green. The verdict
stays failed while an expected failure is listed (a known gap is still a gap), so an expected failure - and a
listed one a random search did not hit, *not seen this run* - is a ``<failure>`` of that type, with the reason the
implementation gives, in the scenarios' suites and in pytest's (rewritten from the run's ``tests.jsonl``); each
divergence signature of an included campaign of this implementation is a test case of the suite
``campaign.<id>``. junit.xml is then red exactly when the verdict is failed, and every test case carries the
report's own word as ``<property name="status">``, so the report's counts by status come back exactly.
- Allure: a ``*-result.json`` with the labels Allure groups by: suite ``scenarios`` / ``<area>`` and behaviours
  feature ``<area>`` / story ``<clause id>`` (one per clause), the steps with their expected and actual outcome.

Merging is idempotent: the scenario suites of an earlier merge are replaced, so ``mqconf report DIR`` may run it
again. Everything an implementation said (outcomes, error text) is bounded and made safe for XML.
"""

from __future__ import annotations

import json
import re
import uuid
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import Any

from .clauses import Registry
from .infiles import UnsafeFile, read_bytes, read_text
from .outfolder import OutputFolder
from .report import DECISION_DIFFERS, EXPECTED_FAILURE, NOT_SEEN, UNEXPECTED_PASS
from .runner import ERROR, FAILED, NOT_CLAIMED, PASSED

SUITE_PREFIX = "scenarios."
CAMPAIGN_PREFIX = "campaign."
ALLURE_MARK = "mq-conformance-scenario"  # a label on the Allure results this module wrote, so a rewrite replaces them
MAX_TEXT = 4000
# Characters XML 1.0 cannot carry at all (even escaped): C0 controls other than tab, newline and carriage return,
# surrogates, and U+FFFE/U+FFFF.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_text(value: Any, limit: int = MAX_TEXT) -> str:
    """``value`` as text XML can hold: characters XML forbids shown as ``\\xNN``, cut to ``limit`` characters
    (ElementTree escapes ``<``, ``&`` and quotes itself)."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, sort_keys=True)
    text = _NOT_XML.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100 else f"\\u{ord(m.group()):04x}",
                        text)
    return text if len(text) <= limit else text[:limit] + f"... ({len(text) - limit} more characters)"


def read_records(directory: Path) -> list[dict]:
    """The scenario records of a run folder's ``results.jsonl``; a last line cut short by a kill is dropped."""
    path = directory / "results.jsonl"
    if not path.exists():
        return []
    records = []
    for line in read_text(path, root=directory).splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(record, dict) and "id" in record:
            records.append(record)
    return records


def area_of(record: dict, registry: Registry) -> str:
    """A scenario's area: the area most of its clauses belong to (the first in name order on a tie), else the
    folder it is in."""
    areas = Counter(clause.area for clause in map(registry.get, record.get("clauses", [])) if clause)
    if areas:
        return sorted(areas.items(), key=lambda item: (-item[1], item[0]))[0][0]
    return Path(str(record.get("path", "scenario"))).parent.name or "scenarios"


def _projection(expected: Any, actual: Any) -> Any:
    """The part of ``actual`` that ``expected`` names (nested mappings by their keys)."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        return {key: _projection(value, actual.get(key)) for key, value in expected.items() if key in actual}
    return actual


def failing_step(record: dict) -> dict | None:
    return next((step for step in record.get("steps", []) if step.get("status") in (FAILED, ERROR)), None)


def failure_message(record: dict) -> tuple[str, str]:
    """One line saying where the scenario failed and what was expected and returned, and the details (every
    problem of the step, the whole outcome, the clauses)."""
    step = failing_step(record)
    if step is None:
        return xml_text(record.get("reason") or record.get("status", ""), 500), ""
    expect = step.get("expect") or {"CompCode": "MQCC_OK"}
    outcome = step.get("outcome") or {}
    shown = outcome if "error" in outcome else _projection(expect, outcome)
    where = f"{record.get('path')}:{step.get('line')}: step {step.get('index')} {step.get('op')}"
    message = (f"{where}: expected {json.dumps(expect, sort_keys=True)}, "
               f"actual {json.dumps(shown, sort_keys=True, ensure_ascii=False)}")
    details = "\n".join([message, *(f"- {problem}" for problem in step.get("problems", [])),
                         f"outcome: {json.dumps(outcome, sort_keys=True, ensure_ascii=False)}",
                         f"clauses: {', '.join(sorted(set(step.get('clauses', [])) | set(record.get('clauses', []))))}"])
    return xml_text(message, 1000), xml_text(details)


# -- JUnit ---------------------------------------------------------------------------------------------------

def _testcase(record: dict, area: str) -> ET.Element:
    case = ET.Element("testcase", {"classname": SUITE_PREFIX + area, "name": xml_text(record["id"], 200),
                                   "file": xml_text(record.get("path", ""), 500), "time": "0"})
    properties = ET.SubElement(case, "properties")
    for clause_id in record.get("clauses", []):
        ET.SubElement(properties, "property", {"name": "clause", "value": xml_text(clause_id, 200)})
    ET.SubElement(properties, "property", {"name": "status", "value": record.get("status", "")})
    status = record.get("status")
    message, details = failure_message(record)
    if status == DECISION_DIFFERS:
        ET.SubElement(case, "skipped", {"message": xml_text(f"{DECISION_DIFFERS} (the documents are silent; not failed "
                                                            f"without --strict): {message}", 1000),
                                        "type": DECISION_DIFFERS})
    elif status == FAILED or status == UNEXPECTED_PASS:
        if status == UNEXPECTED_PASS:
            message = f"unexpected pass: listed as an expected failure ({xml_text(record.get('reason', ''), 500)})"
        ET.SubElement(case, "failure", {"message": message, "type": status}).text = details or message
    elif status == ERROR:
        ET.SubElement(case, "error", {"message": message, "type": "error"}).text = details or message
    elif status == NOT_CLAIMED:
        ET.SubElement(case, "skipped", {"message": xml_text(f"not claimed: {record.get('reason', '')}", 500),
                                        "type": "not claimed"})
    elif status == EXPECTED_FAILURE:
        ET.SubElement(case, "failure", {"message": xml_text(f"expected failure (listed by the implementation: "
                                                            f"{record.get('reason', '')}); {message}", 1000),
                                        "type": EXPECTED_FAILURE}).text = details or message
    return case


def _mangled(nodeid: str) -> tuple[str, str]:
    """The ``classname`` and ``name`` pytest's junitxml gives the test case of ``nodeid``."""
    path, bracket, params = nodeid.partition("[")
    names = path.split("::")
    names[0] = re.sub(r"\.py$", "", names[0].replace("/", "."))
    names[-1] += bracket + params
    return ".".join(names[:-1]), names[-1]


def _set_status(case: ET.Element, status: str) -> None:
    properties = case.find("properties")
    if properties is None:
        properties = ET.Element("properties")
        case.insert(0, properties)
    for old in [p for p in properties.findall("property") if p.get("name") == "status"]:
        properties.remove(old)
    ET.SubElement(properties, "property", {"name": "status", "value": status})


def _judge_pytest_cases(root: ET.Element, tests: list[dict]) -> None:
    """pytest's test cases with the report's statuses (``tests.jsonl``): each gets ``<property name="status">``;
    an expected failure (pytest's ``<skipped>``) and a listed random search not seen this run (a pass for pytest)
    become ``<failure>`` of that type, as in the scenarios' suites. Idempotent."""
    by_case = {_mangled(str(test.get("id", ""))): test for test in tests}
    for suite in root.findall("testsuite"):
        if suite.get("name", "").startswith((SUITE_PREFIX, CAMPAIGN_PREFIX)):
            continue
        for case in suite.findall("testcase"):
            test = by_case.get((case.get("classname", ""), case.get("name", "")))
            if test is None:
                continue
            status = str(test.get("status", ""))
            _set_status(case, status)
            if status in (EXPECTED_FAILURE, NOT_SEEN) and case.find("failure") is None:
                for skipped in case.findall("skipped"):
                    case.remove(skipped)
                what = ("not seen this run (listed as an expected failure; the random search did not hit it)"
                        if status == NOT_SEEN else "expected failure (listed by the implementation)")
                ET.SubElement(case, "failure", {"message": xml_text(f"{what}: {test.get('message', '')}", 1000),
                                                "type": status})
        _count(suite)


def _campaign_suites(report: dict) -> list[ET.Element]:
    """A ``campaign.<id>`` suite per included campaign of this implementation, a test case per divergence
    signature the verdict counts (failed, expected failure, not seen this run)."""
    suites: dict[str, ET.Element] = {}
    for failure in report.get("failures", []):
        if failure.get("kind") != "campaign":
            continue
        campaign, _, slug = str(failure["id"]).rpartition("/")
        suite = suites.setdefault(campaign, ET.Element("testsuite", {"name": CAMPAIGN_PREFIX + campaign, "time": "0"}))
        case = ET.SubElement(suite, "testcase", {"classname": CAMPAIGN_PREFIX + xml_text(campaign, 200),
                                                 "name": xml_text(slug, 200), "time": "0"})
        _set_status(case, failure["status"])
        reason = failure.get("expected_reason")
        message = failure.get("message", "") + (f" (listed by the implementation: {reason})" if reason else "")
        ET.SubElement(case, "failure", {"message": xml_text(f"{failure['status']}: {message}", 1000),
                                        "type": failure["status"]})
    for suite in suites.values():
        _count(suite)
    return list(suites.values())


def _count(suite: ET.Element) -> None:
    cases = suite.findall("testcase")
    suite.set("tests", str(len(cases)))
    for total, child in (("failures", "failure"), ("errors", "error"), ("skipped", "skipped")):
        suite.set(total, str(sum(case.find(child) is not None for case in cases)))


def merge_junit(directory: Path | OutputFolder, records: list[dict], registry: Registry,
                tests: list[dict] | None = None, report: dict | None = None) -> Path:
    """Add (or replace) a ``<testsuite name="scenarios.<area>">`` per area in ``directory/junit.xml``, and a
    ``campaign.<id>`` suite per campaign of ``report``, keeping whatever else is there (pytest's suite, its cases
    judged with ``tests``, the run's test records); the ``<testsuites>`` totals count everything. Written through
    the confined folder (outfolder.py)."""
    folder = _folder(directory)
    path = folder.path / "junit.xml"
    root: ET.Element
    try:
        root = (ET.fromstring(read_bytes(path, root=folder.path)) if path.exists() or path.is_symlink()
                else ET.Element("testsuites", {"name": "mq-conformance"}))
    except (ET.ParseError, UnsafeFile):
        # pytest was killed while writing it, or it is a link out of the folder, a FIFO...: keep the scenarios
        # (the file is replaced, never read or written through)
        root = ET.Element("testsuites", {"name": "mq-conformance"})
    if root.tag == "testsuite":  # an older pytest writes one bare suite
        wrapper = ET.Element("testsuites", {"name": "mq-conformance"})
        wrapper.append(root)
        root = wrapper
    for old in [suite for suite in root.findall("testsuite")
                if suite.get("name", "").startswith((SUITE_PREFIX, CAMPAIGN_PREFIX))]:
        root.remove(old)
    _judge_pytest_cases(root, tests or [])
    by_area: dict[str, list[dict]] = {}
    for record in records:
        by_area.setdefault(area_of(record, registry), []).append(record)
    for area in sorted(by_area):
        cases = [_testcase(record, area) for record in by_area[area]]
        suite = ET.SubElement(root, "testsuite", {
            "name": SUITE_PREFIX + area, "tests": str(len(cases)),
            "failures": str(sum(case.find("failure") is not None for case in cases)),
            "errors": str(sum(case.find("error") is not None for case in cases)),
            "skipped": str(sum(case.find("skipped") is not None for case in cases)), "time": "0"})
        suite.extend(cases)
    root.extend(_campaign_suites(report or {}))
    for total in ("tests", "failures", "errors", "skipped"):
        root.set(total, str(sum(int(suite.get(total, "0") or 0) for suite in root.findall("testsuite"))))
    return folder.write_bytes(ET.tostring(root, encoding="utf-8", xml_declaration=True), "junit.xml")


def _folder(directory: Path | OutputFolder) -> OutputFolder:
    return directory if isinstance(directory, OutputFolder) else OutputFolder.open(directory)


# -- Allure --------------------------------------------------------------------------------------------------

_ALLURE_STATUS = {PASSED: "passed", FAILED: "failed", UNEXPECTED_PASS: "failed", ERROR: "broken",
                  NOT_CLAIMED: "skipped", EXPECTED_FAILURE: "skipped", DECISION_DIFFERS: "skipped"}


def _allure_result(record: dict, area: str, adapter: str) -> dict:
    status = record.get("status", "")
    message, details = failure_message(record)
    steps = []
    for step in record.get("steps", []):
        steps.append({
            "name": xml_text(f"step {step.get('index')} {step.get('op')} (line {step.get('line')})", 300),
            "status": _ALLURE_STATUS.get(step.get("status"), "skipped"),
            "parameters": [{"name": "call", "value": xml_text(step.get("call"), 2000)},
                           {"name": "expected", "value": xml_text(step.get("expect") or {}, 2000)},
                           {"name": "actual", "value": xml_text(step.get("outcome") or {}, 2000)}],
            "steps": [], "attachments": []})
    labels = [{"name": "parentSuite", "value": "scenarios"}, {"name": "suite", "value": area},
              {"name": "feature", "value": area}, {"name": "framework", "value": "mqconf"},
              {"name": "host", "value": xml_text(adapter, 200)}, {"name": "tag", "value": ALLURE_MARK}]
    for clause_id in record.get("clauses", []):
        labels += [{"name": "story", "value": clause_id}, {"name": "clause", "value": clause_id}]
    result = {
        "uuid": str(uuid.uuid4()), "historyId": f"scenario:{record['id']}", "testCaseId": f"scenario:{record['id']}",
        "name": xml_text(record["id"], 200), "fullName": f"{SUITE_PREFIX}{area}.{record['id']}",
        "description": xml_text(record.get("title", ""), 1000), "status": _ALLURE_STATUS.get(status, "unknown"),
        "stage": "finished", "labels": labels, "steps": steps, "attachments": [],
        "parameters": [{"name": "file", "value": xml_text(record.get("path", ""), 500)}],
    }
    if status not in (PASSED,):
        result["statusDetails"] = {"message": message if status != NOT_CLAIMED else
                                   xml_text(f"not claimed: {record.get('reason', '')}", 500),
                                   "trace": details}
    return result


def write_allure(directory: Path | OutputFolder, records: list[dict], registry: Registry, adapter: str = "") -> int:
    """Write one Allure result per scenario into ``directory/allure-results`` (replacing those of an earlier
    write: the suite's own, those holding its mark); returns how many."""
    output = _folder(directory)
    folder = output.folder("allure-results")
    try:
        for old in folder.path.glob("*-result.json"):
            try:
                if ALLURE_MARK in read_bytes(old, root=folder.path).decode("utf-8"):
                    folder.remove(old.name)
            except (OSError, UnicodeDecodeError):
                continue
        for record in records:
            result = _allure_result(record, area_of(record, registry), adapter)
            folder.write_text(json.dumps(result, ensure_ascii=False), f"{result['uuid']}-result.json")
    finally:
        folder.close()
    return len(records)


def _report(directory: Path) -> dict:
    """The run's ``conformance.json`` ({} when it cannot be read)."""
    try:
        report = json.loads(read_text(directory / "conformance.json", root=directory))
    except (OSError, ValueError):
        return {}
    return report if isinstance(report, dict) and isinstance(report.get("failures", []), list) else {}


def _uncounted_failures(report: dict) -> set[str]:
    """The failing scenarios the run's verdict does not count (``counts`` false in ``conformance.json``: differences
    only at clauses the model decided, without ``--strict``)."""
    return {f.get("id") for f in report.get("failures", []) if isinstance(f, dict) and f.get("kind") == "scenario"
            and f.get("counts") is False}


def write_ci_results(directory: Path | OutputFolder, registry: Registry) -> dict[str, Any]:
    """Every scenario of the run folder ``directory`` into its ``junit.xml`` and ``allure-results/``."""
    output = _folder(directory)
    directory = output.path
    records = read_records(directory)
    adapter = ""
    try:
        adapter = json.loads(read_text(directory / "run.json", root=directory))["adapter"]["name"]
    except (OSError, ValueError, KeyError, TypeError):
        pass
    report = _report(directory)
    uncounted = _uncounted_failures(report)
    records = [{**record, "status": DECISION_DIFFERS} if record["id"] in uncounted else record for record in records]
    tests = [t for t in report.get("tests", []) if isinstance(t, dict)]
    junit = merge_junit(output, records, registry, tests, report)
    allure = write_allure(output, records, registry, adapter)
    return {"junit": junit, "scenarios": len(records), "allure": allure}
