"""The suite as a pytest plugin: ``pytest --adapter NAME`` certifies an implementation wherever the suite is
installed (registered through the ``pytest11`` entry point).

- ``--adapter NAME`` (default ``reference``): the adapter under test, by name, entry point or ``module:factory``;
  the ``adapter`` fixture gives each test a freshly reset instance.
- ``@pytest.mark.capability(...)``: a test of an area the adapter does not claim is skipped as *not claimed*,
  never passed.
- ``@pytest.mark.clause(...)``: the rules a test pins; they become JUnit properties and Allure labels.
- ``--expectations FILE``: an implementation's own list of expected failures (YAML, kept with the
  implementation); each becomes a strict xfail, so an expected failure that passes is reported (a ratchet).
- ``--mq-profile quick|thorough``: Hypothesis settings for the state machines and fuzzers (thorough: 10,000
  fuzzed inputs for the scenario loader and the JSON-lines reader).
- ``ibmmq_emulator``: an in-process IBM MQ (the model) for applications written with IBM's ``ibmmq`` package
  (docs/emulator.md).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from adapters.base import Adapter, AdapterError, load
from adapters.ibmmq_emulator import install_unless_client
from adapters.ibmmq_emulator.fixture import ibmmq_emulator  # noqa: F401 - the fixture for ibmmq applications

from .yamlsource import LineDict, SourceError, load as load_yaml

NOT_CLAIMED = "not claimed"

settings.register_profile("quick", max_examples=25, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=2000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("mq-conformance", "IBM MQ conformance suite")
    group.addoption("--adapter", default="reference", help="implementation under test (name or module:factory)")
    group.addoption("--expectations", default=None, help="YAML file of this implementation's expected failures")
    group.addoption("--mq-profile", default="quick", choices=("quick", "thorough"),
                    help="Hypothesis profile for state machines and fuzzers")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "clause(*ids): rule ids from fixtures/clauses.yaml this test pins")
    config.addinivalue_line("markers", "capability(*names): the adapter must claim these for the test to run")
    config.addinivalue_line("markers", "self_check: checks the suite or the model itself, whatever the adapter")
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
    config._mq_expected = load_expectations(Path(path)) if path else []  # type: ignore[attr-defined]


def load_expectations(path: Path) -> list[dict[str, Any]]:
    """An implementation's expected failures: each names a ``scenario``, a ``clause`` or a ``test`` (node id
    fragment), with a ``reason`` and an ``issue`` URL."""
    try:
        data = load_yaml(path)
    except SourceError as exc:
        raise pytest.UsageError(str(exc)) from None
    items = data.get("expected_failures") if isinstance(data, LineDict) else None
    if not isinstance(items, list):
        raise pytest.UsageError(f"{path}:1: expected a mapping with an 'expected_failures' list")
    result = []
    for item in items:
        line = getattr(item, "line", None)
        if not isinstance(item, dict) or not any(k in item for k in ("scenario", "clause", "test")):
            raise pytest.UsageError(f"{path}:{line}: each expected failure names a scenario, clause or test")
        if not item.get("reason"):
            raise pytest.UsageError(f"{path}:{line}: each expected failure needs a reason")
        result.append(dict(item))
    return result


def _clauses(item: pytest.Item) -> list[str]:
    return [cid for mark in item.iter_markers("clause") for cid in mark.args]


def _matches(expectation: dict[str, Any], item: pytest.Item) -> bool:
    if "test" in expectation and expectation["test"] in item.nodeid:
        return True
    if "scenario" in expectation and f"[{expectation['scenario']}]" in item.nodeid:
        return True
    return "clause" in expectation and expectation["clause"] in _clauses(item)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    claimed = getattr(config, "_mq_capabilities", frozenset())
    expected = getattr(config, "_mq_expected", [])
    for item in items:
        needed = {name for mark in item.iter_markers("capability") for name in mark.args}
        missing = needed - claimed
        if missing:
            item.add_marker(pytest.mark.skip(reason=f"{NOT_CLAIMED}: adapter does not claim {', '.join(sorted(missing))}"))
            continue
        for expectation in expected:
            if _matches(expectation, item):
                reason = expectation["reason"] + (f" ({expectation['issue']})" if expectation.get("issue") else "")
                item.add_marker(pytest.mark.xfail(strict=True, reason=f"expected failure: {reason}"))
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


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    """A failure that blames clauses (:func:`blamed_clauses`) records them as ``blamed`` properties, beside the
    ``clause`` marks the test declares."""
    outcome = yield
    report = outcome.get_result()
    if call.excinfo is not None and report.failed:
        for clause_id in blamed_clauses(call.excinfo.value):
            report.user_properties.append(("blamed", clause_id))


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
