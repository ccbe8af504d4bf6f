"""The suite-strength runner (conformance/strength.py) on a handful of mutants, scenarios only (fast). That every
mutant loads and is killed or explained is what ``mqconf strength`` measures, not this test."""

from __future__ import annotations

import functools
import json

import pytest

from mq_conformance import fixtures
from mq_conformance.adapters.base import AdapterError
from mq_conformance.adapters.families import FAMILIES, LIMITS, OPTION_CALLS, output_fields
from mq_conformance.adapters.mutants import EQUIVALENT, PREFIX, SEMANTIC_MUTANTS, load_mutant
from mq_conformance.adapters.reference import ReferenceAdapter
from mq_conformance.conformance.runner import run_scenario
from mq_conformance.conformance.scenario import load_scenario
from mq_conformance.reference.constants import FLAGS
from mq_conformance.conformance.clauses import load_registry
from mq_conformance.conformance.cli import build_parser
from mq_conformance.conformance.strength import (SEMANTIC, TABLE, Mutant, all_mutants, judge, ordered_for, render_markdown,
                                  run_strength, summarise, table_clause)
from tests_support import suite_scenarios

SCENARIOS = suite_scenarios()


def test_mutants_are_listed_with_their_clause_and_area():
    mutants = all_mutants()
    kinds = {m.kind for m in mutants}
    assert kinds == {TABLE, SEMANTIC, *FAMILIES}
    assert sum(m.kind == SEMANTIC for m in mutants) >= 30
    registry = load_registry()
    cited = [m for m in mutants if m.kind in (TABLE, SEMANTIC)]
    assert all(m.clause in registry for m in cited), [m.clause for m in cited if m.clause not in registry]
    assert table_clause("mutant:table:put.logical-order.table1.row5:GroupId=MQGI_NONE") == "put.logical-order.table1.row5"
    assert table_clause("mutant:rule-removed:open.options.one-input") == "open.options.one-input"
    assert len({m.area for m in mutants if m.kind == SEMANTIC}) >= 8


def test_families_cover_every_option_output_field_and_limit():
    names = {m.name for m in all_mutants() if m.kind in FAMILIES}
    for family, flags in ((f, FLAGS[f]) for f in OPTION_CALLS):
        assert {f"mutant:option-ignored:{option}" for option in flags} <= names, family
    assert {f"mutant:output-unset:{key}.{field}" for key, field in output_fields()} <= names
    assert "mutant:output-unset:GMO.ReturnedLength" in names and "mutant:output-unset:GMO.Options" not in names
    assert {f"mutant:limit:{limit}:{d}" for limit in LIMITS for d in ("+1", "-1")} <= names


@pytest.mark.parametrize(("name", "scenario"), [
    ("mutant:option-ignored:MQPMO_NEW_CORREL_ID", "put/put-correlid-generated-or-kept.yaml"),
    ("mutant:option-ignored:MQGMO_WAIT", "get/get-wait-advances-clock.yaml"),
    ("mutant:output-unset:GMO.ReturnedLength", "get/get-returned-length.yaml"),
    ("mutant:limit:MsgSeqNumber-and-Offset-maximum:-1", "put/put-msg-seq-number-range.yaml"),
    ("mutant:limit:MaxQDepth:+1", "put/put-q-full.yaml"),
    ("mutant:wait-does-not-advance-clock", "get/get-wait-advances-clock.yaml"),
    ("mutant:get-inhibited-not-for-browse", "get/get-inhibited-browse.yaml"),
])
def test_a_family_mutant_is_the_model_with_one_bug_that_its_scenario_kills(name, scenario):
    loaded = load_scenario(fixtures.SCENARIOS / scenario)
    assert run_scenario(loaded, load_mutant(name)).status == "failed"
    assert run_scenario(loaded, ReferenceAdapter()).status == "passed"


def test_a_family_mutant_with_an_unknown_subject_is_one_clear_error():
    for name in ("mutant:option-ignored:MQPMO_NOPE", "mutant:output-unset:MD.Nope", "mutant:limit:Nope:+1",
                 "mutant:limit:MaxQDepth:+2"):
        with pytest.raises(AdapterError):
            load_mutant(name)


def test_options_noted_as_unread_are_read_nowhere_in_the_model():
    # The equivalence argument for these option-ignored mutants holds only while the model never names them.
    from mq_conformance.adapters.families import UNREAD_OPTIONS, UNSET_OUTPUTS
    root = fixtures.ROOT.parent
    texts = [p.read_text() for p in (root / "reference").rglob("*.py") if p.name != "constants.py"]
    texts += [p.read_text() for p in fixtures.TABLES.glob("*.yaml")]
    assert [o for o in UNREAD_OPTIONS if any(o in text for text in texts)] == []
    fields = [f.split(".", 1)[1] for f in UNSET_OUTPUTS]
    assert [f for f in fields if any(f".{f} =" in text or f".{f}=" in text for text in texts)] == []


def test_equivalent_mutants_name_real_mutants():
    names = {m.name[len(PREFIX):] for m in all_mutants()}
    assert set(EQUIVALENT) <= names


def test_scenarios_citing_the_clause_run_first():
    ordered = ordered_for("browse-mark.coop-mark-lapses", SCENARIOS)
    assert "browse-mark.coop-mark-lapses" in ordered[0].clause_ids()


def test_a_table_mutant_and_a_model_mutant_are_killed_by_scenarios():
    table = Mutant("mutant:table:put.logical-order.table1.row5:GroupId=MQGI_NONE", TABLE,
                   "put.logical-order.table1.row5", "put")
    verdict = judge(table, SCENARIOS, "quick", tests=False)
    assert verdict.killed and verdict.by.startswith("scenario ")
    model = Mutant("mutant:mqback-keeps-group-position", SEMANTIC, "uow.backout.restores-group-position", "uow")
    verdict = judge(model, SCENARIOS, "quick", tests=False)
    assert verdict.killed and "uow" in verdict.by


def test_an_equivalent_survivor_is_reported_with_its_argument():
    name = "mutant:rule-removed:open.options.access-required"
    verdict = judge(Mutant(name, TABLE, "open.options.access-required", "open"), SCENARIOS, "quick", tests=False)
    assert not verdict.killed and verdict.reason.startswith("equivalent: ")


def test_model_mutants_are_values_not_patches():
    """Building a mutant leaves the model alone: a fresh reference adapter still has the documented behaviour."""
    from mq_conformance.adapters.reference import ReferenceAdapter

    mutant = load_mutant("mutant:segmentation-on-8-byte-boundaries")
    assert mutant.qm.segment_boundary == 8 and type(mutant.qm).__name__ == "EightByteSegments"
    assert ReferenceAdapter().qm.segment_boundary == 16
    assert all(m.build() is not None for m in list(SEMANTIC_MUTANTS.values())[:3])


def test_run_strength_writes_json_and_markdown(tmp_path, capsys):
    status, report = run_strength(tmp_path, jobs=1, only="table4.row1:MsgSeqNumber", tests=False)
    data = json.loads((tmp_path / "strength.json").read_text())
    assert data["summary"]["kinds"][TABLE]["total"] == 2
    survivors = [m for m in data["mutants"] if not m["killed"]]
    assert [m["name"] for m in survivors] == ["mutant:table:get.logical-order.table4.row1:MsgSeqNumber=previous"]
    assert "equivalent" in (tmp_path / "strength.md").read_text()
    assert status == 0  # the one survivor is equivalent
    assert "SURVIVED" in capsys.readouterr().out


def test_summary_and_markdown_name_the_survivors():
    from mq_conformance.conformance.strength import Verdict

    verdicts = [Verdict("mutant:a", SEMANTIC, "uow.x", "uow", True, by="scenario s"),
                Verdict("mutant:b", SEMANTIC, "uow.y", "uow", False, reason="gap: nothing")]
    summary = summarise(verdicts)
    assert summary["areas"]["uow"][SEMANTIC]["kill_rate"] == 0.5 and not summary["targets"]["met"]
    text = render_markdown({"profile": "quick", "seconds": 1, "summary": summary,
                            "mutants": [v.__dict__ for v in verdicts]})
    assert "`mutant:b`" in text and "gap: nothing" in text


def test_cli_has_a_strength_command():
    args = build_parser().parse_args(["strength", "--profile", "thorough", "--only", "x", "--no-tests"])
    assert args.command == "strength" and args.profile == "thorough" and args.no_tests


def test_a_mutant_answers_a_handle_to_a_deleted_dynamic_queue_as_the_model_does():
    """A campaign against a served mutant found it raising KeyError here where the model says MQRC_Q_DELETED: a
    mutant's own bug, reported as the implementation's."""
    from mq_conformance.reference.calls import Call

    for adapter in (ReferenceAdapter(), load_mutant(PREFIX + "destructive-get-keeps-marks")):
        adapter.reset()
        calls = [("define_queue", {"name": "TEMP.MODEL", "QType": "MQQT_MODEL"}),
                 ("open", {"handle": "c", "queue": "TEMP.MODEL", "DynamicQName": "DYN.A",
                           "Options": ["MQOO_INPUT_SHARED", "MQOO_OUTPUT"]}),
                 ("open", {"handle": "o", "queue": "DYN.A", "Options": ["MQOO_INPUT_SHARED"]}),
                 ("close", {"handle": "c", "Options": ["MQCO_DELETE_PURGE"]}),
                 ("get", {"handle": "o", "GMO": {"Options": ["MQGMO_SYNCPOINT"]}})]
        outcomes = [adapter.execute(Call(op, args)) for op, args in calls]
        assert [o.error for o in outcomes] == [None] * 5, [o.error for o in outcomes]
        assert outcomes[-1].Reason == "MQRC_Q_DELETED", adapter.name


# -- each table mutant meets only the checks that read its cell (conformance/reads.py) ----------------------------

def test_the_recording_tables_log_every_way_a_cell_is_read_and_decide_as_the_model():
    from mq_conformance.conformance import reads
    from mq_conformance.reference.tables import default_spec

    log = reads.Log()
    spec = reads.recording_spec(log)
    row = spec["close.delete"].row("close.delete.predefined")
    assert "delete" in row.then and list(row.then) == list(default_spec()["close.delete"].row(row.id).then)
    assert log.take() == set()  # keys are not values: every mutant keeps them
    for read in (lambda t: t["Reason"], lambda t: t.get("Reason"), lambda t: dict(t.items())["Reason"],
                 lambda t: {**t}["Reason"], lambda t: t == {}):
        read(row.then)
        assert "close.delete.predefined:Reason" in log.take()
    rule = spec["open.options"].rows[0]
    assert log.take() == set() and rule.at_most_one is not None and log.take() == {f"{rule.id}:*"}
    assert [s.id for s in SCENARIOS if run_scenario(s, ReferenceAdapter(spec=spec)).status != "passed"] == []


def test_the_cell_of_a_table_mutant_is_the_one_it_changes():
    from mq_conformance.conformance.reads import mutant_cell

    assert mutant_cell("table:close.delete.predefined:delete=deleted") == "close.delete.predefined:delete"
    assert mutant_cell("table:set.selectors.inhibit-get:values=MQTC_OFF MQTC_ON") == "set.selectors.inhibit-get:values"
    assert mutant_cell("rule-removed:open.options.one-input") == "open.options.one-input:*"
    assert mutant_cell("option-ignored:MQPMO_SYNCPOINT") == "option:MQPMO_SYNCPOINT"
    assert mutant_cell("output-unset:MD.MsgId") == "output:MD.MsgId"
    assert mutant_cell("mqback-keeps-group-position") is None and mutant_cell("limit:MaxQDepth:+1") is None


def test_a_call_is_logged_with_the_options_it_gives_and_the_outputs_it_changes():
    from mq_conformance.conformance import reads
    from mq_conformance.reference.calls import Call

    log = reads.Log()
    adapter = reads.recording_adapter(log, reads.recording_spec(log))
    adapter.execute(Call("define_queue", {"name": "Q1"}))
    adapter.execute(Call("open", {"handle": "h", "queue": "Q1", "Options": ["MQOO_OUTPUT"]}))
    log.take()
    adapter.execute(Call("put", {"handle": "h", "PMO": {"Options": ["MQPMO_NO_SYNCPOINT"]},
                                 "MD": {"Priority": 3}, "data": "x"}))
    cells = log.take()
    assert {"option:MQPMO_NO_SYNCPOINT", "output:MD.MsgId", "output:PMO.ResolvedQName"} <= cells
    assert "output:MD.Priority" not in cells  # returned as given: an output-unset mutant answers alike
    assert not any(c.startswith("option:MQGMO_") for c in cells)


@functools.cache
def _scenario_readers() -> dict[str, list[str]]:
    from mq_conformance.conformance import reads

    return reads.invert(reads.scenario_reads(SCENARIOS))


@pytest.mark.parametrize("table", ["close.delete", "set.selectors", "put.close-outcome.table2", "properties.get",
                                   "selection.headers.jmspriority", "rule-removed:get.options",
                                   "option-ignored:MQPMO_", "option-ignored:MQSO_", "output-unset:"])
def test_a_mutant_gets_the_same_verdict_from_the_scenarios_that_can_see_it_as_from_all(table):
    """The selection changes no verdict: each mutant of these tables and families is killed by the same scenario,
    or survives, whether it meets every scenario or only those that read its cell (give its option, are returned
    its field changed)."""
    from mq_conformance.conformance import reads
    from mq_conformance.conformance.strength import by_scenarios

    readers = _scenario_readers()
    mutants = [m for m in all_mutants() if m.kind != SEMANTIC and table in m.name]
    assert mutants
    for mutant in mutants:
        only = set(readers.get(reads.mutant_cell(mutant.name[len(PREFIX):]), ()))
        assert by_scenarios(mutant, SCENARIOS, only) == by_scenarios(mutant, SCENARIOS), mutant.name


def test_the_certification_tests_record_the_cells_they_read(tmp_path):
    import subprocess

    from mq_conformance.conformance import reads
    from mq_conformance.conformance.strength import tests_command

    path = tmp_path / "reads.json"
    command = tests_command("reference", "quick", ["certification/test_cluster_workload_table.py"])
    done = subprocess.run([*command, "--mq-record-reads", str(path)], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stdout[-2000:]
    recorded = reads.load(path)
    cells = set().union(*recorded.values())
    assert recorded and all(node.startswith("certification/test_cluster_workload_table.py::") for node in recorded)
    assert any(c.startswith("cluster.workload.") for c in cells)
    assert not any(c.startswith(("properties.", "close.delete.")) for c in cells)


def test_a_table_mutant_whose_cell_no_check_reads_says_so():
    from mq_conformance.conformance.strength import Selection

    name = "mutant:table:close.delete.predefined:delete=deleted"
    verdict = judge(Mutant(name, TABLE, "close.delete.predefined", "close"), SCENARIOS, "quick", tests=True,
                    selection=Selection(scenarios={}, tests={}))
    assert not verdict.killed and verdict.scenarios == 0 and verdict.tests == 0
    assert verdict.reason.startswith("equivalent: ")  # its note stands; without one it would read:
    name = "mutant:table:close.delete.purge:delete=kept"
    verdict = judge(Mutant(name, TABLE, "close.delete.purge", "close"), SCENARIOS, "quick", tests=True,
                    selection=Selection(scenarios={}, tests={}))
    assert verdict.reason == "gap: no scenario or certification test reads close.delete.purge:delete against the model"


def test_certification_tests_that_do_not_read_a_cell_pass_against_its_mutant_and_a_reader_kills_it(tmp_path):
    """The selection of certification tests, checked on one mutant of Table 1: every test of test_tables.py that
    does not read the cell passes against the mutant (skipping it loses nothing), and the readers kill it."""
    import subprocess

    from mq_conformance.conformance import reads
    from mq_conformance.conformance.strength import tests_command

    path, cell = tmp_path / "reads.json", "put.logical-order.table1.row2:GroupId"
    command = tests_command("reference", "quick", ["certification/test_tables.py"])
    subprocess.run([*command, "--mq-record-reads", str(path)], capture_output=True, text=True, cwd=tmp_path,
                   check=True)
    recorded = reads.load(path)
    readers = sorted(node for node, cells in recorded.items() if cell in cells)
    others = sorted(node for node, cells in recorded.items() if cell not in cells)
    assert readers and others
    mutant = "mutant:table:put.logical-order.table1.row2:GroupId=new-if-none-else-field"
    killed = subprocess.run(tests_command(mutant, "quick", readers), capture_output=True, text=True, cwd=tmp_path)
    assert killed.returncode == 1, killed.stdout[-2000:]
    spared = subprocess.run(tests_command(mutant, "quick", others), capture_output=True, text=True, cwd=tmp_path)
    assert spared.returncode == 0, spared.stdout[-2000:]
