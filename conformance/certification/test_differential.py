"""The differential state machines: the adapter under test agrees with the model on generated call sequences (a
divergence is shrunk to a minimal scenario that runs as is; tests/test_machines_catch_mutants.py shows each machine
catching a broken implementation)."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

from mq_conformance.conformance.differential import MACHINES, check


@pytest.fixture(autouse=True)
def divergences_in_tmp(tmp_path, monkeypatch):
    """Minimal sequences go to the run's folder under ``mqconf run`` (it sets MQCONF_REPORTS), else to the test's
    own folder, not the suite's reports/."""
    if "MQCONF_REPORTS" not in os.environ:
        monkeypatch.setenv("MQCONF_REPORTS", str(tmp_path))


# What each machine declares it checks: its vocabulary area's tables' rows and the clauses under its prefixes
# (conformance/vocabulary.py). A divergence blames the clauses the model applied at the diverging call instead.
DECLARED = {name: machine.vocabulary_area.declared_clauses() for name, machine in MACHINES.items()}


@pytest.mark.parametrize("machine", [
    pytest.param(machine, id=name, marks=[pytest.mark.capability(*sorted(machine.vocabulary_area.capabilities)),
                                          pytest.mark.clause(*DECLARED[name]), pytest.mark.random_search])
    for name, machine in MACHINES.items()
])
def test_the_adapter_agrees_with_the_model(request, machine, adapter_instance):
    """Every vocabulary area's machine, with the example count of --mq-profile (quick 25, thorough 2,000)."""
    check(machine, request.config.getoption("--adapter"), adapter_instance,
          settings(stateful_step_count=25, deadline=None, suppress_health_check=[HealthCheck.too_slow]))
