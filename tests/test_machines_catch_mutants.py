"""Each differential state machine catches a broken implementation (a mutant of the model), and the groups
machine's divergence is a minimal scenario that runs as is (the machines' certification test is
mq_conformance/conformance/certification/test_differential.py)."""

from __future__ import annotations

import json

import pytest
from hypothesis import Phase, settings

from mq_conformance.conformance import cli
from mq_conformance.conformance.differential import BrowseMarkMachine, ClusterMachine, Divergence, GroupsMachine, check

NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)  # detection only: shrinking is shown by the groups test


@pytest.fixture(autouse=True)
def divergences_in_tmp(tmp_path, monkeypatch):
    """Minimal sequences go to the test's own folder, never to a run's or the suite's reports/."""
    monkeypatch.setenv("MQCONF_REPORTS", str(tmp_path))


def _caught(machine, mutant: str, **chosen) -> Divergence:
    """Run ``machine`` against ``mutant`` (derandomized, no example database) and return the divergence."""
    with pytest.raises(Divergence, match="differs from the model") as caught:
        check(machine, mutant, settings=settings(deadline=None, database=None, derandomize=True, **chosen))
    return caught.value


def test_a_broken_implementation_is_caught_with_a_runnable_minimal_scenario(tmp_path, capsys):
    mutant = "mutant:table:put.logical-order.table1.row5:GroupId=MQGI_NONE"
    divergence = _caught(GroupsMachine, mutant, max_examples=300, stateful_step_count=12)
    path = tmp_path / "divergences" / "divergence-groupsmachine.yaml"
    assert str(path) in str(divergence)
    # the first line names the call and the field; the record beside the scenario says the same for the report
    assert str(divergence).startswith(f"{mutant} differs from the model on put ") and "MD.GroupId:" in str(divergence)
    record = json.loads(path.with_suffix(".json").read_text())
    assert record["fields"] == ["MD.GroupId"] and record["call"]["op"] == "put"
    assert "put.logical-order.table1.row5" in record["clauses"] == divergence.mq_clauses
    assert record["scenario"] == path.name and len(record["sequence"]) == record["calls_shrunk"] <= 3
    capsys.readouterr()
    # ``mqconf scenario`` runs it as it was written (in process: tests/test_cli.py runs that command in a subprocess)
    assert cli.main(["scenario", str(path), "--adapter", "reference"]) == 0, capsys.readouterr().out
    capsys.readouterr()
    assert cli.main(["scenario", str(path), "--adapter", mutant]) == 1
    assert "GroupId" in capsys.readouterr().out


def test_browse_mark_machine_catches_marks_that_never_lapse():
    _caught(BrowseMarkMachine, "mutant:co-op-marks-never-lapse", max_examples=2000, stateful_step_count=25,
            phases=NO_SHRINK)


def test_cluster_machine_catches_priority_evaluated_before_channel_state():
    """Channel CLWLPRTY moved before channel state is a different algorithm (document `reallocation`'s lesson:
    priority is considered after the state of the channel); the machine must notice."""
    from mq_conformance.reference.tables import default_spec

    assert any(r.id == "cluster.workload.channel-state" for r in default_spec()["cluster.workload"].rows)
    _caught(ClusterMachine, "mutant:row-moved:cluster.workload.channel-priority:5", max_examples=300,
            stateful_step_count=15, phases=NO_SHRINK)


def test_an_expected_option_list_with_bits_no_name_defines_is_written_as_the_fields_number():
    """A minimal scenario must load: the scenario language takes an option field as names or a number, never the
    outcome's residue of unnamed bits (``0x01000000``), so such an expectation is the field's number."""
    from mq_conformance.conformance.compare import Identities, load_policy, symbolic
    from mq_conformance.reference.schema import validate_scenario
    from mq_conformance.reference.calls import Outcome

    outcome = Outcome(CompCode="MQCC_OK", Reason="MQRC_NONE", MD={"MsgFlags": ["MQMF_SEGMENT", "0x01000000"]})
    expect = symbolic(outcome, Identities(), "left", load_policy())
    assert expect["MD"]["MsgFlags"] == 0x01000002
    validate_scenario({"id": "x", "title": "x", "clauses": ["put.msgid.generated"],
                       "setup": {"queues": [{"name": "Q1"}]},
                       "steps": [{"put": {"handle": "h", "data": "a"}, "expect": expect}]})


def test_distributed_machine_catches_a_dead_letter_queue_ignored():
    """A channel that stops (or discards) where the receiving queue manager has a dead-letter queue differs at the
    channel status or the dead-letter queue's depth (distributed.dlq.put)."""
    from mq_conformance.conformance.differential import MACHINES

    _caught(MACHINES["distributed"], "mutant:dead-letter-queue-ignored", max_examples=300, stateful_step_count=25,
            phases=NO_SHRINK)
