"""The suite as a pytest plugin: ``pytest --adapter NAME`` certifies an implementation wherever the suite is
installed (registered through the ``pytest11`` entry point).

- ``--adapter NAME`` (default ``reference``): the adapter under test, by name, entry point or ``module:factory``;
  the ``adapter`` fixture gives each test a freshly reset instance.
- ``@pytest.mark.capability(...)``: a test of an area the adapter does not claim is skipped as *not claimed*
  (a name not in fixtures/capabilities.yaml is a usage error),
  never passed.
- ``@pytest.mark.clause(...)``: the rules a test pins; they become JUnit properties and Allure labels.
- ``--expectations FILE``: an implementation's own list of expected failures (YAML, kept with the
  implementation); each becomes a strict xfail, so an expected failure that passes is reported (a ratchet). A
  random search (a state machine, a Hypothesis property test, or a test marked ``random_search``) finds a
  disagreement only in some runs: listed, it is a non-strict xfail, and a run that does not hit it reports it
  *not seen this run*, not an unexpected pass.
- ``--mq-profile quick|thorough``: Hypothesis settings for the state machines and fuzzers (thorough: 10,000
  fuzzed inputs for the scenario loader and the JSON-lines reader).
- ``ibmmq_emulator``: an in-process IBM MQ (the model) for applications written with IBM's ``ibmmq`` package
  (docs/emulator.md).
"""

from __future__ import annotations

import importlib
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from mq_conformance.adapters.base import Adapter, AdapterError, load
from mq_conformance.adapters.capabilities import CapabilityError, check_names
from mq_conformance.emulator import install_unless_client
from mq_conformance.emulator.fixture import ibmmq_emulator  # noqa: F401 - the fixture for ibmmq applications

from .difference import only_error_answers
from .suite import CERTIFICATION
from .yamlsource import LineDict, SourceError, load as load_yaml

NOT_CLAIMED = "not claimed"

# database=None: no example database. Hypothesis keeps one in the folder it runs in by default and replays what it
# found there first, so one run's failures (of any adapter) would steer the next run of another: a run's results
# must depend on its adapter and its seed only.
settings.register_profile("quick", max_examples=25, deadline=None, database=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=2000, deadline=None, database=None,
                          suppress_health_check=[HealthCheck.too_slow])


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("mq-conformance", "IBM MQ conformance suite")
    group.addoption("--adapter", default="reference", help="implementation under test (name or module:factory)")
    group.addoption("--expectations", default=None, help="YAML file of this implementation's expected failures")
    group.addoption("--mq-profile", default="quick", choices=("quick", "thorough"),
                    help="Hypothesis profile for state machines and fuzzers")
    group.addoption("--mq-record-reads", default=None, type=Path,
                    help="write the table cells each test reads to this JSON file (mqconf strength's selection)")


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config: pytest.Config, parser: pytest.Parser, args: list[str]) -> None:
    """Install the emulated ``ibmmq`` native module before any conftest.py is imported, so that a conftest may
    ``import ibmmq`` at its top (never for ``--adapter ibmmq``, a real queue manager)."""
    real = any(a == "--adapter=ibmmq" or (a == "--adapter" and args[i + 1:i + 2] == ["ibmmq"])
               for i, a in enumerate(args))
    if not real:
        install_unless_client()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "clause(*ids): rule ids from fixtures/clauses.yaml this test pins")
    config.addinivalue_line("markers", "capability(*names): the adapter must claim these for the test to run")
    config.addinivalue_line("markers", "self_check: checks the suite or the model itself, whatever the adapter")
    config.addinivalue_line("markers", "random_search: a test that searches at random (a state machine): an expected "
                                       "failure naming it holds only in the runs that hit it")
    profile = config.getoption("--mq-profile")
    settings.load_profile(profile)
    if profile == "thorough":
        # The fuzzers of the scenario loader and the JSON-lines reader read this when their modules load.
        os.environ.setdefault("MQCONF_FUZZ_EXAMPLES", "10000")
    name = config.getoption("--adapter")
    if name != "ibmmq":  # a real queue manager needs IBM's own native module
        install_unless_client()  # so that an application's test module may import ibmmq at its top
    try:
        probe = load(name)
    except AdapterError as exc:
        raise pytest.UsageError(str(exc)) from None
    config._mq_capabilities = frozenset(probe.capabilities)  # type: ignore[attr-defined]
    probe.close()
    path = config.getoption("--expectations")
    roots = [config.rootpath, *(Path(arg.split("::")[0]) for arg in config.args)]
    config._mq_expected = load_expectations(Path(path), roots) if path else []  # type: ignore[attr-defined]
    record = config.getoption("--mq-record-reads")
    if record is not None:
        from .reads import PytestRecorder

        config.pluginmanager.register(PytestRecorder(record), "mq-record-reads")


class CertificationModule(pytest.Module):
    """A certification test module imported by its one name (``mq_conformance.conformance.certification.test_x``),
    wherever it is collected from: pytest's own import would make a clone's copy a top-level ``conformance``
    package, a second copy of the suite's modules beside the installed ones."""

    def _getobj(self):
        return importlib.import_module(f"{__package__}.certification.{self.path.stem}")


def pytest_pycollect_makemodule(module_path: Path, parent: pytest.Collector) -> pytest.Module | None:
    if module_path.name.startswith("test_") and module_path.resolve().parent == CERTIFICATION:
        return CertificationModule.from_parent(parent, path=module_path)
    return None


EXPECTATION_KEYS = ("scenario", "clause", "test", "signature", "reason", "issue")
NAMES = ("scenario", "clause", "test", "signature")  # what an expected failure names: one of these
# a campaign divergence signature's slug, as mqconf campaign prints it (campaign/run.py signature_slug)
SIGNATURE_SLUG = re.compile(r"^[a-z][a-z0-9_]*-[0-9a-f]{10}$")
SCENARIO_ID = re.compile(r"^id:\s*([a-z0-9][a-z0-9-]*)\s*$", re.MULTILINE)


def known_scenarios(folders: list[Path] | None = None) -> set[str]:
    """The ids of the suite's scenarios (read from their ``id:`` lines: quick, and enough to name them)."""
    from mq_conformance import fixtures

    found: set[str] = set()
    for folder in folders or [fixtures.SCENARIOS]:
        for path in sorted(folder.rglob("*.yaml")):
            match = SCENARIO_ID.search(path.read_text(encoding="utf-8", errors="replace"))
            if match:
                found.add(match.group(1))
    return found


def known_test(fragment: str, roots: list[Path]) -> bool:
    """Whether a ``test`` entry (a node id or a piece of one: ``test_tables.py::test_x[row]``, ``table1_row[``)
    names a test defined under ``roots`` (the suite's certification tests and the folders this pytest run collects)."""
    parts = [part for part in fragment.split("::") if part]
    if not parts:
        return False
    file_part = next((part for part in parts if part.endswith(".py")), None)
    names = [part.split("[", 1)[0] for part in parts if not part.endswith(".py")]
    for root in roots:
        candidates = [root] if root.is_file() else (root.rglob("test*.py") if root.is_dir() else [])
        for path in candidates:
            if file_part and not str(path).endswith(file_part.split("/")[-1]):
                continue
            if not names:
                return True
            text = path.read_text(encoding="utf-8", errors="replace")
            # a fragment of a node id: the name part may be any piece of a test's (or class's) name
            if re.search(rf"\b(?:def|class)\s+\w*{re.escape(names[-1])}\w*\s*[(:]", text):
                return True
    return False


def load_expectations(path: Path, test_roots: list[Path] | None = None) -> list[dict[str, Any]]:
    """An implementation's expected failures: each names a ``scenario``, a ``clause``, a ``test`` (node id
    fragment) or a campaign divergence ``signature`` (its slug, ``put-13f238897c``), with a ``reason`` and an
    ``issue`` URL.

    Strict: an entry naming a scenario, clause or test that does not exist is an error naming the file and line
    (a typo would otherwise hide nothing and say nothing), as is an unknown key. ``test`` entries are looked up
    among the suite's certification tests (installed with it) and ``test_roots``."""
    from .clauses import load_registry

    try:
        data = load_yaml(path)
    except SourceError as exc:
        raise pytest.UsageError(str(exc)) from None
    items = data.get("expected_failures") if isinstance(data, LineDict) else None
    if not isinstance(items, list):
        raise pytest.UsageError(f"{path}:1: expected a mapping with an 'expected_failures' list")
    registry, scenarios = None, None
    roots = [root for root in [CERTIFICATION, *(test_roots or [])] if root.exists()]
    result = []
    for item in items:
        line = getattr(item, "line", None)
        if not isinstance(item, dict) or not any(k in item for k in NAMES):
            raise pytest.UsageError(f"{path}:{line}: each expected failure names a scenario, clause, test or "
                                    "campaign signature")
        unknown = sorted(set(item) - set(EXPECTATION_KEYS))
        if unknown:
            raise pytest.UsageError(f"{path}:{item.line_of(unknown[0]) if isinstance(item, LineDict) else line}: "
                                    f"unknown key {unknown[0]!r}; an expected failure has "
                                    f"{', '.join(EXPECTATION_KEYS)}")
        if not item.get("reason"):
            raise pytest.UsageError(f"{path}:{line}: each expected failure needs a reason")
        where = (lambda key: item.line_of(key)) if isinstance(item, LineDict) else (lambda key: line)
        for key in EXPECTATION_KEYS:
            if key in item and not isinstance(item[key], str):
                raise pytest.UsageError(f"{path}:{where(key)}: {key!r} must be one name or text, not a "
                                        f"{_yaml_kind(item[key])}; give one expected failure per {key}")
        if "clause" in item:
            registry = registry or load_registry()
            if item["clause"] not in registry:
                raise pytest.UsageError(f"{path}:{where('clause')}: no clause {item['clause']!r} in "
                                        f"fixtures/clauses.yaml")
        if "scenario" in item:
            scenarios = scenarios if scenarios is not None else known_scenarios()
            if item["scenario"] not in scenarios:
                raise pytest.UsageError(f"{path}:{where('scenario')}: no scenario {item['scenario']!r} in "
                                        f"fixtures/scenarios")
        if "signature" in item and not SIGNATURE_SLUG.match(item["signature"]):
            raise pytest.UsageError(f"{path}:{where('signature')}: {item['signature']!r} is not a campaign "
                                    "signature; give its slug as mqconf campaign prints it, such as put-13f238897c")
        if "test" in item and roots and not known_test(str(item["test"]), roots):
            raise pytest.UsageError(f"{path}:{where('test')}: no test {item['test']!r} in the suite's tests")
        result.append(dict(item))
    return result


def _yaml_kind(value: Any) -> str:
    """What a YAML value is, in YAML's words."""
    for kind, name in ((dict, "mapping"), (list, "list"), (bool, "boolean"), ((int, float), "number")):
        if isinstance(value, kind):
            return name
    return "null" if value is None else type(value).__name__


def _clauses(item: pytest.Item) -> list[str]:
    return [cid for mark in item.iter_markers("clause") for cid in mark.args]


def _matches(expectation: dict[str, Any], item: pytest.Item) -> bool:
    if "test" in expectation and expectation["test"] in item.nodeid:
        return True
    if "scenario" in expectation and f"[{expectation['scenario']}]" in item.nodeid:
        return True
    return "clause" in expectation and expectation["clause"] in _clauses(item)


RANDOM_SEARCH = "random_search"


def is_random_search(item: pytest.Item) -> bool:
    """Whether ``item`` searches at random, so that whether it fails depends on the run: a test marked
    ``random_search`` (the differential state machines) or a Hypothesis property test."""
    return (item.get_closest_marker(RANDOM_SEARCH) is not None
            or bool(getattr(getattr(item, "obj", None), "is_hypothesis_test", False)))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    claimed = getattr(config, "_mq_capabilities", frozenset())
    expected = getattr(config, "_mq_expected", [])
    for item in items:
        needed = {name for mark in item.iter_markers("capability") for name in mark.args}
        try:  # a misspelt name would skip the test for every adapter, silently
            check_names(needed, f"{item.nodeid}: capability mark")
        except CapabilityError as exc:
            raise pytest.UsageError(str(exc)) from None
        # what the test needs, in its record: a report restricts a run to any claim (report.as_claimed)
        item.user_properties += [("capability", name) for name in sorted(needed)]
        if is_random_search(item):  # its failure fails no clause: what it finds depends on the seed (report.py)
            item.user_properties.append(("search", "random"))
        missing = needed - claimed
        if missing:
            item.add_marker(pytest.mark.skip(reason=f"{NOT_CLAIMED}: adapter does not claim {', '.join(sorted(missing))}"))
            continue
        for expectation in expected:
            if _matches(expectation, item):
                reason = expectation["reason"] + (f" ({expectation['issue']})" if expectation.get("issue") else "")
                random = is_random_search(item)
                item.add_marker(pytest.mark.xfail(strict=not random, reason=f"expected failure: {reason}"))
                if random:  # a run that does not hit it reports it "not seen this run" (testlog.verdict)
                    item.user_properties.append((RANDOM_SEARCH, "listed"))
                break
        for clause_id in _clauses(item):
            item.user_properties.append(("clause", clause_id))


def blamed_clauses(exc: BaseException | None) -> list[str]:
    """The clauses a failure blames: ``mq_clauses`` of the exception (a state machine's divergence carries the
    clauses the model applied at the diverging call), or of the exceptions an exception group holds."""
    found: list[str] = []
    pending = [exc] if exc is not None else []
    while pending:
        current = pending.pop(0)
        found += [c for c in getattr(current, "mq_clauses", ()) if isinstance(c, str) and c not in found]
        pending += list(getattr(current, "exceptions", ()) or ())
    return found


def differences(exc: BaseException | None) -> list[dict[str, Any]]:
    """The :class:`~mq_conformance.conformance.difference.Difference` records a failure carries (itself, or
    those of the exceptions an exception group holds)."""
    found: list[dict[str, Any]] = []
    pending = [exc] if exc is not None else []
    while pending:
        current = pending.pop(0)
        if isinstance(getattr(current, "record", None), dict) and isinstance(current, AssertionError):
            found.append(current.record)
        pending += list(getattr(current, "exceptions", ()) or ())
    return found


def failure_kind(exc: BaseException) -> tuple[str, str]:
    """What failed, in a word, and one line saying how: ``difference`` (the implementation answered otherwise
    than the documents: an assertion), ``implementation`` (the adapter under test failed: its server died,
    answered nonsense, or answered a call with an error, "not implemented"), or ``suite`` (the suite itself crashed: a bug to report, whose traceback is in the
    run's pytest.log)."""
    text = " ".join(str(exc).split())[:1000]
    record = getattr(exc, "record", None)
    if isinstance(exc, AssertionError) and isinstance(record, dict) and only_error_answers(record.get("problems") or []):
        return "implementation", str(exc)  # it answered with an error ("not implemented"): no wrong answer
    if isinstance(exc, AssertionError):
        return "difference", str(exc)
    if isinstance(exc, AdapterError):
        return "implementation", f"the implementation failed: {text}"
    return "suite", f"suite error: {type(exc).__name__}: {text} (a bug of the suite; the traceback is in pytest.log)"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    """A failure that blames clauses (:func:`blamed_clauses`) records them as ``blamed`` properties, beside the
    ``clause`` marks the test declares; its :class:`~mq_conformance.conformance.difference.Difference` (the call,
    each differing field, where the expectation comes from) as ``difference``, and what failed and how in one
    line as ``failure`` with ``failure_kind`` (:func:`failure_kind`), so that no report needs the traceback."""
    outcome = yield
    report = outcome.get_result()
    if call.excinfo is not None and report.failed:
        exc = call.excinfo.value
        for clause_id in blamed_clauses(exc):
            report.user_properties.append(("blamed", clause_id))
        for record in differences(exc)[:1]:
            report.user_properties.append(("difference", json.dumps(record, ensure_ascii=False, default=repr)))
        kind, line = failure_kind(exc)
        report.user_properties += [("failure_kind", kind), ("failure", line)]
        # a state machine's divergence whose signature the expectations file lists: an expected failure
        slug = getattr(call.excinfo.value, "mq_signature", None)
        entry = next((e for e in getattr(item.config, "_mq_expected", []) if slug and e.get("signature") == slug), None)
        if entry is not None and not hasattr(report, "wasxfail"):
            report.outcome = "skipped"
            report.wasxfail = "expected failure: " + entry["reason"] + (
                f" ({entry['issue']})" if entry.get("issue") else "")


def pytest_runtest_setup(item: pytest.Item) -> None:
    clauses = _clauses(item)
    if not clauses:
        return
    try:
        import allure
    except ImportError:  # allure-pytest is a dependency, but the plugin works without it
        return
    for clause_id in clauses:
        allure.dynamic.label("clause", clause_id)
    # Allure's behaviours view groups by feature (the area) and story (the clause), as for the scenarios
    # (conformance/junit.py).
    allure.dynamic.feature(clauses[0].split(".", 1)[0])
    allure.dynamic.story(*clauses)


@pytest.fixture(scope="session")
def adapter_instance(request: pytest.FixtureRequest) -> Adapter:
    """One instance of the adapter under test for the whole session (a server process starts once)."""
    instance = load(request.config.getoption("--adapter"))
    yield instance
    instance.close()


@pytest.fixture
def adapter(adapter_instance: Adapter) -> Adapter:
    """The adapter under test, reset: every test starts with no queues, connections or handles."""
    adapter_instance.reset()
    return adapter_instance
