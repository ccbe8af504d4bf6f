"""The differential state machines: the adapter under test agrees with the model on generated call sequences,
and a broken implementation is caught with a minimal scenario that runs as is."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis.stateful import run_state_machine_as_test

from conformance.differential import BrowseMarkMachine, ClusterMachine, GroupsMachine, machine_for

ROOT = Path(__file__).resolve().parents[1]
NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)  # detection only: shrinking is shown by the groups test


@pytest.mark.capability("groups", "units-of-work")
def test_groups_and_segments_agree_with_the_model(request, tmp_path, monkeypatch):
    monkeypatch.setenv("MQCONF_REPORTS", str(tmp_path))
    machine = machine_for(GroupsMachine, request.config.getoption("--adapter"))
    run_state_machine_as_test(machine, settings=settings(stateful_step_count=25, deadline=None,
                                                         suppress_health_check=[HealthCheck.too_slow]))


@pytest.mark.self_check
def test_a_broken_implementation_is_caught_with_a_runnable_minimal_scenario(tmp_path, monkeypatch):
    monkeypatch.setenv("MQCONF_REPORTS", str(tmp_path))
    mutant = "mutant:table:put.logical-order.table1.row5:GroupId=MQGI_NONE"
    machine = machine_for(GroupsMachine, mutant)
    with pytest.raises(AssertionError, match="differs from the model") as caught:
        run_state_machine_as_test(machine, settings=settings(max_examples=300, stateful_step_count=12,
                                                         deadline=None, database=None, derandomize=True))
    path = tmp_path / "divergences" / "divergence-groupsmachine.yaml"
    assert str(path) in str(caught.value)
    run = lambda adapter: subprocess.run(  # noqa: E731
        [sys.executable, "-m", "conformance.cli", "scenario", str(path), "--adapter", adapter],
        cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert run("reference").returncode == 0, run("reference").stdout
    against_mutant = run(mutant)
    assert against_mutant.returncode == 1 and "GroupId" in against_mutant.stdout


@pytest.mark.capability("browse-mark", "units-of-work")
def test_browse_marks_agree_with_the_model(request, tmp_path, monkeypatch):
    monkeypatch.setenv("MQCONF_REPORTS", str(tmp_path))
    machine = machine_for(BrowseMarkMachine, request.config.getoption("--adapter"))
    run_state_machine_as_test(machine, settings=settings(stateful_step_count=25, deadline=None,
                                                         suppress_health_check=[HealthCheck.too_slow]))


@pytest.mark.self_check
def test_browse_mark_machine_catches_marks_that_never_lapse(tmp_path, monkeypatch):
    monkeypatch.setenv("MQCONF_REPORTS", str(tmp_path))
    machine = machine_for(BrowseMarkMachine, "mutant:co-op-marks-never-lapse")
    with pytest.raises(AssertionError, match="differs from the model"):
        run_state_machine_as_test(machine, settings=settings(max_examples=2000, stateful_step_count=25,
                                                             phases=NO_SHRINK,
                                                             deadline=None, database=None, derandomize=True))


@pytest.mark.capability("cluster")
def test_cluster_routing_agrees_with_the_model(request, tmp_path, monkeypatch):
    monkeypatch.setenv("MQCONF_REPORTS", str(tmp_path))
    machine = machine_for(ClusterMachine, request.config.getoption("--adapter"))
    run_state_machine_as_test(machine, settings=settings(stateful_step_count=25, deadline=None,
                                                         suppress_health_check=[HealthCheck.too_slow]))


@pytest.mark.self_check
def test_cluster_machine_catches_priority_evaluated_before_channel_state(tmp_path, monkeypatch):
    """Channel CLWLPRTY moved before channel state is a different algorithm (seed 002's lesson: priority is
    considered after the state of the channel); the machine must notice."""
    monkeypatch.setenv("MQCONF_REPORTS", str(tmp_path))
    from reference.tables import default_spec

    table = default_spec()["cluster.workload"]
    assert any(r.id == "cluster.workload.channel-state" for r in table.rows)
    machine = machine_for(ClusterMachine, "mutant:row-moved:cluster.workload.channel-priority:5")
    with pytest.raises(AssertionError, match="differs from the model"):
        run_state_machine_as_test(machine, settings=settings(max_examples=300, stateful_step_count=15,
                                                             phases=NO_SHRINK, deadline=None, database=None,
                                                             derandomize=True))
