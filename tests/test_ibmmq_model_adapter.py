"""``ibmmq+model``: the ibmmq adapter, unchanged, over IBM's ``ibmmq`` Python layer over the emulated native
module. This is the adapter's main check: every structure it builds is packed by IBM's own classes and every
answer comes back through IBM's unpacking and error handling. (tests/test_ibmmq_adapter.py keeps the fake pymqi
for what only it can show: credentials, client-connection structures, pymqi 1.12's quirks.)
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
import yaml

from mq_conformance.adapters.base import load
from mq_conformance.adapters.ibmmq import ConnectionConfig, IbmMqAdapter
from mq_conformance.emulator import EmulatorUnavailable, emulated_mq, load_ibmmq
from mq_conformance.adapters.ibmmq_model import IbmMqModelAdapter
from mq_conformance.conformance.clauses import load_registry
from mq_conformance.conformance.cli import describe_failure
from mq_conformance.conformance.runner import NOT_CLAIMED, PASSED, run_scenario
from mq_conformance.reference.calls import Call
from tests_support import suite_scenarios

EXPECTATIONS = Path(__file__).resolve().parents[1] / "fixtures" / "expectations" / "ibmmq+model.yaml"
EXPECTED = {item["scenario"]: item["reason"]
            for item in yaml.safe_load(EXPECTATIONS.read_text())["expected_failures"] if "scenario" in item}
SCENARIOS = suite_scenarios()
try:
    ibmmq = load_ibmmq()
except EmulatorUnavailable as exc:  # no wheel of IBM's ibmmq for this platform (pyproject.toml)
    pytest.skip(str(exc), allow_module_level=True)


@pytest.fixture(scope="module")
def model_adapter():
    adapter = load("ibmmq+model")
    yield adapter
    adapter.close()


def test_ibmmq_model_is_the_ibmmq_adapter_over_ibmmq(model_adapter):
    assert isinstance(model_adapter, IbmMqAdapter)
    assert model_adapter._OPS is IbmMqAdapter._OPS  # the adapter's own translation, not a copy
    assert model_adapter.mq is ibmmq and model_adapter.module_name == "ibmmq"


def test_ibmmq_model_claims_at_least_200_scenarios(model_adapter):
    claimed = [s for s in SCENARIOS if s.capabilities <= model_adapter.capabilities]
    assert len(claimed) >= 200


@pytest.mark.parametrize("scenario", [pytest.param(s, id=s.id) for s in SCENARIOS])
def test_every_claimed_scenario_holds_through_ibmmq(scenario, model_adapter):
    result = run_scenario(scenario, model_adapter)
    if result.status == NOT_CLAIMED:
        pytest.skip(f"not claimed: {result.reason}")
    if scenario.id in EXPECTED:
        assert result.status != PASSED, f"listed in {EXPECTATIONS.name} ({EXPECTED[scenario.id]}) but passes"
        return
    assert result.status == PASSED, "\n".join(describe_failure(result, load_registry()))


def test_every_listed_expectation_names_what_it_covers_and_why():
    ids = {s.id for s in SCENARIOS}
    assert all(scenario in ids for scenario in EXPECTED)
    items = yaml.safe_load(EXPECTATIONS.read_text())["expected_failures"]
    assert all(any(k in item for k in ("scenario", "test", "clause")) and item.get("reason") for item in items)


# -- PCF: queues with attributes --------------------------------------------------------------------------------

def run(adapter, op: str, **args):
    return adapter.execute(Call(op, args))


def test_define_queue_creates_the_queue_with_its_attributes_through_pcf(model_adapter):
    model_adapter.reset()
    out = run(model_adapter, "define_queue", name="Q1", MaxQDepth=7, InhibitPut="MQQA_PUT_INHIBITED",
              MsgDeliverySequence="MQMDS_FIFO")
    assert out.error is None and out.CompCode == "MQCC_OK"
    definition = model_adapter.emulator.queues["MQCONF.Q1"].definition
    assert (definition.MaxQDepth, definition.InhibitPut, definition.MsgDeliverySequence) == (7, True, 1)
    model_adapter.reset()
    assert "MQCONF.Q1" not in model_adapter.emulator.queues  # MQCMD_DELETE_Q on reset


def test_get_inhibited_is_set_after_the_new_queue_is_emptied(model_adapter):
    model_adapter.reset()
    assert run(model_adapter, "define_queue", name="Q1", InhibitGet="MQQA_GET_INHIBITED").error is None
    assert model_adapter.emulator.queues["MQCONF.Q1"].definition.InhibitGet is True
    model_adapter.reset()


def test_alter_queue_changes_a_queue_through_pcf(model_adapter):
    model_adapter.reset()
    run(model_adapter, "define_queue", name="Q1")
    assert run(model_adapter, "alter_queue", name="Q1", MaxQDepth=3).CompCode == "MQCC_OK"
    assert model_adapter.emulator.queues["MQCONF.Q1"].definition.MaxQDepth == 3
    model_adapter.reset()


def test_define_qmgr_changes_the_browse_interval_and_reset_restores_it(model_adapter):
    model_adapter.reset()
    assert run(model_adapter, "define_qmgr", MsgMarkBrowseInterval=20000).CompCode == "MQCC_OK"
    assert model_adapter.emulator.qmgr.mark_browse_interval == 20000
    model_adapter.reset()
    assert model_adapter.emulator.qmgr.mark_browse_interval == 5000


def _pool_adapter(pcf: str) -> IbmMqAdapter:
    config = ConnectionConfig(queue_manager="QM1", queues=("DEV.QUEUE.1",), pcf=pcf)
    return IbmMqAdapter(config=config, module=("ibmmq", ibmmq))


def test_without_a_command_server_define_queue_falls_back_to_the_pool(caplog):
    with emulated_mq(queues=("DEV.QUEUE.1",)) as mq:
        mq.forget_queue("QM1", "SYSTEM.ADMIN.COMMAND.QUEUE")
        adapter = _pool_adapter("auto")
        with caplog.at_level(logging.WARNING, logger="mq_conformance.adapters.ibmmq"):
            out = run(adapter, "define_queue", name="Q1")
        assert out.CompCode == "MQCC_OK"
        assert adapter._mapping == {"Q1": "DEV.QUEUE.1"}
        assert "PCF not available" in caplog.text
        refused = run(adapter, "define_queue", name="Q2", MaxQDepth=3)
        assert "not settable on a pre-defined queue" in (refused.error or "") or "in use" in (refused.error or "")
        adapter.close()


def test_with_pcf_required_a_missing_command_server_is_an_error():
    with emulated_mq(queues=("DEV.QUEUE.1",)) as mq:
        mq.forget_queue("QM1", "SYSTEM.ADMIN.COMMAND.QUEUE")
        adapter = _pool_adapter("yes")
        out = run(adapter, "define_queue", name="Q1")
        assert out.error is not None and "PCF is required" in out.error
        adapter.close()


def test_pcf_off_keeps_the_pool():
    with emulated_mq(queues=("DEV.QUEUE.1",)) as mq:
        adapter = _pool_adapter("no")
        assert run(adapter, "define_queue", name="Q1").CompCode == "MQCC_OK"
        assert adapter._mapping == {"Q1": "DEV.QUEUE.1"} and "MQCONF.Q1" not in mq.queues
        adapter.close()


# -- real time --------------------------------------------------------------------------------------------------

def test_advance_clock_waits_real_time_only_when_asked():
    with emulated_mq():
        plain = IbmMqAdapter(config=ConnectionConfig(queue_manager="QM1"), module=("ibmmq", ibmmq))
        assert "MQCONF_REAL_TIME=1" in run(plain, "advance_clock", milliseconds=10).error
        assert "browse-mark" not in plain.capabilities
        waiting = IbmMqAdapter(config=ConnectionConfig(queue_manager="QM1", real_time=True, max_wait_ms=1000),
                               module=("ibmmq", ibmmq))
        slept = []
        waiting._sleep = slept.append
        assert "browse-mark" in waiting.capabilities
        assert run(waiting, "advance_clock", milliseconds=250).CompCode == "MQCC_OK"
        assert slept == [0.25]
        assert "longer than the 1000 ms" in run(waiting, "advance_clock", milliseconds=5000).error
        plain.close()
        waiting.close()


def test_real_time_settings_are_read_from_the_environment():
    config = ConnectionConfig.from_env({"MQCONF_REAL_TIME": "1", "MQCONF_PCF": "no", "MQCONF_PCF_PREFIX": "T."})
    assert (config.real_time, config.pcf, config.pcf_prefix) == (True, "no", "T.")


@pytest.mark.parametrize("env, word", [({"MQCONF_PCF": "maybe"}, "MQCONF_PCF"),
                                       ({"MQCONF_REAL_TIME": "yes"}, "MQCONF_REAL_TIME"),
                                       ({"MQCONF_PCF_PREFIX": "bad prefix"}, "MQCONF_PCF_PREFIX")])
def test_bad_pcf_and_real_time_settings_are_named(env, word):
    from mq_conformance.adapters.base import AdapterError

    with pytest.raises(AdapterError, match=word):
        ConnectionConfig.from_env(env)


def test_the_model_adapter_is_listed():
    from mq_conformance.adapters.base import available

    assert "ibmmq+model" in available()
    adapter = load("ibmmq+model")
    assert isinstance(adapter, IbmMqModelAdapter)
    adapter.close()


# -- handles and connections MQ must judge: the adapter never lets ibmmq reopen or reconnect behind a call ------

SEQUENCES = {
    "failed-open": [("define_queue", {"name": "Q1"}),
                    ("open", {"handle": "h", "queue": "NO.SUCH.QUEUE", "Options": ["MQOO_OUTPUT"]}),
                    ("put", {"handle": "h", "data": "x"})],
    "closed-handle": [("define_queue", {"name": "Q1"}),
                      ("open", {"handle": "h", "queue": "Q1",
                                "Options": ["MQOO_OUTPUT", "MQOO_INPUT_SHARED", "MQOO_INQUIRE"]}),
                      ("close", {"handle": "h"}), ("put", {"handle": "h", "data": "x"}), ("get", {"handle": "h"}),
                      ("inquire", {"handle": "h", "Selectors": ["MQIA_MAX_Q_DEPTH"]}), ("close", {"handle": "h"})],
    "close-warning": [("define_queue", {"name": "Q1"}),
                      ("open", {"handle": "h", "queue": "Q1", "Options": ["MQOO_OUTPUT"]}),
                      ("put", {"handle": "h", "data": "a", "MD": {"MsgFlags": ["MQMF_MSG_IN_GROUP"]},
                               "PMO": {"Options": ["MQPMO_LOGICAL_ORDER", "MQPMO_NO_SYNCPOINT"]}}),
                      ("close", {"handle": "h"}), ("put", {"handle": "h", "data": "b"})],
    "disconnected": [("define_queue", {"name": "Q1"}), ("connect", {"connection": "c1"}),
                     ("disconnect", {"connection": "c1"}), ("put1", {"connection": "c1", "queue": "Q1", "data": "x"}),
                     ("connect", {"connection": "c1"}), ("put1", {"connection": "c1", "queue": "Q1", "data": "y"})],
    "truncation": [("define_queue", {"name": "Q1"}),
                   ("open", {"handle": "h", "queue": "Q1", "Options": ["MQOO_OUTPUT", "MQOO_INPUT_SHARED"]}),
                   ("put", {"handle": "h", "data": "abcdef"}), ("put", {"handle": "h", "data": "ghijkl"}),
                   ("get", {"handle": "h", "BufferLength": 2}),
                   ("get", {"handle": "h", "BufferLength": 2, "GMO": {"Options": ["MQGMO_ACCEPT_TRUNCATED_MSG"]}})],
}


@pytest.mark.parametrize("name", sorted(SEQUENCES))
def test_handles_and_connections_are_judged_by_the_queue_manager_as_by_the_model(model_adapter, name):
    reference = load("reference")
    model_adapter.reset()
    hobjs_before = None
    for op, args in SEQUENCES[name]:
        ours, theirs = run(model_adapter, op, **args), run(reference, op, **args)
        assert ours.error is None, (op, ours.error)
        assert (ours.CompCode, ours.Reason) == (theirs.CompCode, theirs.Reason), (name, op, args)
        if op in ("close", "open"):
            hobjs_before = model_adapter.emulator.qmgr.last_hobj
        elif hobjs_before is not None:
            assert model_adapter.emulator.qmgr.last_hobj == hobjs_before, f"ibmmq reopened a queue on {op}"
        if op == "get" and theirs.DataLength is not None and ours.CompCode == "MQCC_WARNING":
            assert (ours.DataLength, ours.data) == (theirs.DataLength, theirs.data)


def test_outcomes_through_ibmmq_satisfy_the_outcome_schema(model_adapter):
    from mq_conformance.reference import schema

    model_adapter.reset()
    outcomes = [run(model_adapter, op, **args) for op, args in SEQUENCES["truncation"]]
    outcomes.append(run(model_adapter, "inquire", handle="h", Selectors=["MQIA_MAX_Q_DEPTH"]))
    for out in outcomes:
        schema.validate_outcome(out.to_json())


def test_alias_and_model_queues_are_defined_through_pcf_with_their_targets_renamed(model_adapter):
    model_adapter.reset()
    assert run(model_adapter, "define_queue", name="APP.IN", QType="MQQT_ALIAS", BaseQName="Q1").error is None
    assert run(model_adapter, "define_queue", name="REPLY.MODEL", QType="MQQT_MODEL",
               DefinitionType="MQQDT_PERMANENT_DYNAMIC").error is None
    queues = model_adapter.emulator.queues
    assert (queues["MQCONF.APP.IN"].definition.QType, queues["MQCONF.APP.IN"].definition.BaseQName) == (3, "MQCONF.Q1")
    assert queues["MQCONF.REPLY.MODEL"].definition.DefinitionType == 2
    out = run(model_adapter, "open", handle="h", queue="REPLY.MODEL", DynamicQName="REPLY.ONE",
              Options=["MQOO_INPUT_SHARED"])
    assert (out.CompCode, out.ObjectName) == ("MQCC_OK", "REPLY.ONE")  # the suite's name, not MQCONF.REPLY.ONE
    assert "MQCONF.REPLY.ONE" in queues
    model_adapter.reset()
    assert not {"MQCONF.APP.IN", "MQCONF.REPLY.MODEL", "MQCONF.REPLY.ONE"} & set(queues)  # permanent one too


def test_set_is_refused_where_ibmmq_cannot_pass_it(model_adapter):
    model_adapter.reset()
    run(model_adapter, "define_queue", name="Q1")
    run(model_adapter, "open", handle="h", queue="Q1", Options=["MQOO_SET"])
    out = run(model_adapter, "set", handle="h", Selectors=["MQIA_INHIBIT_PUT", "MQIA_INHIBIT_PUT"], IntAttrs=[1, 0])
    assert "cannot pass a selector twice" in out.error
    ok = run(model_adapter, "set", handle="h", Selectors=["MQIA_INHIBIT_PUT", "MQIA_INHIBIT_GET"], IntAttrs=[1, 1])
    assert ok.CompCode == "MQCC_OK"
    definition = model_adapter.emulator.queues["MQCONF.Q1"].definition
    assert (definition.InhibitPut, definition.InhibitGet) == (True, True)
    model_adapter.reset()


def test_reply_to_queue_names_a_suite_queue_both_ways(model_adapter):
    model_adapter.reset()
    for queue in ("Q1", "REPLIES"):
        run(model_adapter, "define_queue", name=queue)
    run(model_adapter, "open", handle="h", queue="Q1", Options=["MQOO_OUTPUT", "MQOO_INPUT_SHARED"])
    run(model_adapter, "put", handle="h", data="request", MD={"ReplyToQ": "REPLIES"})
    stored, _data = model_adapter.emulator.messages("MQCONF.Q1")[0]
    assert stored.ReplyToQ == "MQCONF.REPLIES"  # what an application on the queue manager reads
    got = run(model_adapter, "get", handle="h")
    assert got.MD["ReplyToQ"] == "REPLIES"
    model_adapter.reset()
