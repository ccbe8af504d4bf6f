"""The JSON-lines adapter protocol (protocol 1): the adapter (adapters/jsonlines.py), the reference server
(``mqconf serve --stdio``, conformance/serve.py) and the schema of every message (reference/schemas/protocol.json).

- the handshake, reset and calls round-trip, and the whole scenario suite gives the same results through the
  protocol as in process (one server for the whole module, reset between scenarios); the same per-file test
  checks that call.json accepts every call the runner sends and outcome.json every outcome the model gives, and
  that each outcome survives ``Outcome.from_json`` (the adapter checks both schemas on every exchange anyway, so
  this costs no second run and no second validation);
- each fault of a deliberately broken server (tests/servers/) becomes one line in an ``Outcome.error`` and the run
  goes on: the next call fails at once, and after a reset calls work again;
- the server answers every malformed request line with a one-line error object and carries on (a Hypothesis fuzz
  of its one-line handler: 200 examples, or ``MQCONF_FUZZ_EXAMPLES``, e.g. 10000, for a thorough run).
"""

from __future__ import annotations

import io
import json
import os
import shlex
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from mq_conformance.adapters.base import AdapterError, load
from mq_conformance.adapters.jsonlines import MAX_LINE, PROTOCOL, JsonLinesAdapter, check_message, dumps, encode, schema_problem
from mq_conformance.adapters.reference import ReferenceAdapter
from mq_conformance.conformance import cli
from mq_conformance.conformance.runner import ERROR, PASSED, run_scenario
from mq_conformance.conformance.serve import Server, serve
from mq_conformance.reference.calls import OPS, Call, Outcome
from tests_support import suite_scenarios

REPO = Path(__file__).resolve().parents[1]
SERVERS = Path(__file__).resolve().parent / "servers"
SERVE = [sys.executable, "-m", "mq_conformance.conformance.cli", "serve", "--stdio"]
FAST = 0.5  # seconds: the timeout of the tests that need one
FUZZ_EXAMPLES = int(os.environ.get("MQCONF_FUZZ_EXAMPLES", "200"))
FUZZ = settings(max_examples=FUZZ_EXAMPLES, deadline=None, derandomize="MQCONF_FUZZ_EXAMPLES" not in os.environ,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def toy(name: str, **options) -> JsonLinesAdapter:
    """An adapter on one of the test servers in tests/servers/."""
    return JsonLinesAdapter([sys.executable, str(SERVERS / f"{name}.py")], **options)


def without_clauses(outcome: dict) -> dict:
    return {key: value for key, value in outcome.items() if key != "clauses"}


def assert_one_line(text: str | None) -> None:
    assert text and "\n" not in text and "\r" not in text and "Traceback" not in text, text


@pytest.fixture(scope="module")
def served():
    """The reference model served over the protocol: one process for the whole module."""
    with JsonLinesAdapter(SERVE) as adapter:
        yield adapter


@pytest.fixture(scope="module")
def in_process():
    return ReferenceAdapter()


# -- handshake, reset, calls ----------------------------------------------------------------------------------

def test_handshake_declares_the_implementation_and_its_capabilities(served):
    assert served.name == "mq-conformance reference model"
    assert served.version
    assert served.capabilities == ReferenceAdapter.capabilities
    assert served.implementation["language"] == "Python"


def test_calls_round_trip_with_the_same_outcomes_as_in_process(served, in_process):
    served.reset()
    in_process.reset()
    calls = [
        Call("define_queue", {"name": "Q1"}),
        Call("open", {"handle": "h", "queue": "Q1", "Options": ["MQOO_OUTPUT", "MQOO_INPUT_SHARED"]}),
        Call("put", {"handle": "h", "PMO": {"Options": ["MQPMO_LOGICAL_ORDER"]},
                     "MD": {"MsgFlags": ["MQMF_MSG_IN_GROUP"]}, "data": "één"}),
        Call("put", {"handle": "h", "data": {"hex": "00ff10"}}),
        Call("get", {"handle": "h", "GMO": {"Options": ["MQGMO_LOGICAL_ORDER"]}}),
        Call("get", {"handle": "h", "BufferLength": 1}),
        Call("inquire", {"handle": "h", "Selectors": ["MQIA_CURRENT_Q_DEPTH"]}),
        Call("close", {"handle": "h"}),
    ]
    for call in calls:
        remote, local = served.execute(call), in_process.execute(call)
        assert remote.error is None, remote.error
        assert remote.to_json() == local.to_json()  # clauses too: the server is the model
    assert served.execute(calls[-1]).Reason == "MQRC_HOBJ_ERROR"


def test_reset_forgets_queues_and_handles(served):
    served.reset()
    assert served.execute(Call("define_queue", {"name": "Q1"})).CompCode == "MQCC_OK"
    served.reset()
    outcome = served.execute(Call("open", {"handle": "h", "queue": "Q1", "Options": ["MQOO_OUTPUT"]}))
    assert (outcome.CompCode, outcome.Reason) == ("MQCC_FAILED", "MQRC_UNKNOWN_OBJECT_NAME")


def test_an_executor_error_of_the_server_passes_through_unchanged(served, in_process):
    call = Call("put", {"handle": "never-opened"})
    assert served.execute(call).error == in_process.execute(call).error


def test_a_call_that_breaks_the_call_schema_is_not_sent(served):
    served.reset()
    outcome = served.execute(Call("put", {"handle": "h", "Bogus": 1}))
    assert_one_line(outcome.error)
    assert outcome.error.startswith("call not sent: it breaks the call schema at $")
    assert served.execute(Call("define_queue", {"name": "Q1"})).CompCode == "MQCC_OK"  # nothing was disturbed


def test_a_call_over_the_line_limit_is_not_sent(served):
    outcome = served.execute(Call("put", {"handle": "h", "data": {"hex": "00" * (MAX_LINE // 2 + 1)}}))
    assert_one_line(outcome.error)
    assert "over the protocol's 1048576-byte line limit" in outcome.error


# -- the scenario suite through the protocol ------------------------------------------------------------------

SCENARIOS = suite_scenarios()
ONE_SCENARIO = next(s.path for s in SCENARIOS if s.id == "put-logical-order-group-of-two")


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.path.stem for s in SCENARIOS])
def test_every_scenario_gives_the_same_schema_valid_results_through_the_protocol(scenario, served, in_process):
    faults = len(served.faults)
    here, there = run_scenario(scenario, in_process), run_scenario(scenario, served)
    assert (there.status, there.reason) == (here.status, here.reason), scenario.path
    assert [without_clauses(step.outcome) for step in there.steps] == [
        without_clauses(step.outcome) for step in here.steps], scenario.path
    assert served.faults[faults:] == [], scenario.path
    # call.json accepts every call as the runner sends it ($names bound to identifiers), outcome.json every outcome
    # the model gives, and each outcome reads back as itself.
    assert len(here.steps) == len(scenario.steps), (scenario.path, here.reason)
    for step in here.steps:
        where = f"{scenario.path}:{step.line}: step {step.index + 1} {step.op}"
        assert schema_problem("call", dumps(step.call)) is None, (where, schema_problem("call", dumps(step.call)))
        assert schema_problem("outcome", dumps(step.outcome)) is None, (
            where, schema_problem("outcome", dumps(step.outcome)))
        assert Outcome.from_json(step.outcome).to_json() == step.outcome, where


# -- faults of a broken server --------------------------------------------------------------------------------

FAULTS = [
    # server, what the error says, whether the server is stopped (the stream is out of step)
    ("crash", 'the server exited during call 2 (put): exit status 3; last stderr line: "toy: simulated crash in put"',
     True),
    ("hang", f"no answer to call 2 (put) within {FAST:g} s; the server was stopped", True),
    ("not_json", 'the server wrote a line that is not JSON in answer to call 2 (put) (Expecting value at column 1): '
                 '"putting the message now..."', True),
    ("huge_line", "the server wrote a line longer than 1048576 bytes in answer to call 2 (put)", True),
    ("wrong_id", "the server answered call 2 (put) with id 102", True),
    ("wrong_type", 'the server answered call 2 (put) with a "reset" message, not an outcome', True),
    ("bad_outcome", "the server's outcome for call 2 (put) breaks the outcome schema at $.CompCode: 'OK'", False),
    ("refuse", "the server could not run call 2 (put): put is not implemented yet", False),
]


@pytest.mark.parametrize(("server", "message", "stopped"), FAULTS, ids=[f[0] for f in FAULTS])
def test_a_fault_is_one_line_and_the_run_goes_on(server, message, stopped):
    with toy(server, timeout=FAST) as adapter:
        assert adapter.execute(Call("commit", {})).CompCode == "MQCC_OK"  # the toy works until a put
        fault = adapter.execute(Call("put", {"handle": "h", "data": "x"}))
        assert_one_line(fault.error)
        assert fault.error.startswith(message), fault.error
        assert adapter.faults[0].startswith(message)
        after = adapter.execute(Call("commit", {}))
        if stopped:
            assert_one_line(after.error)
            assert after.error.startswith("the server is not running after an earlier fault (" + message)
            assert after.error.endswith("it restarts at the next reset")
        else:
            assert after.CompCode == "MQCC_OK"
        adapter.reset()
        assert adapter.execute(Call("commit", {})).CompCode == "MQCC_OK"


def test_wrong_protocol_version_is_a_clear_error_at_start():
    with pytest.raises(AdapterError) as caught:
        toy("protocol2")
    assert_one_line(str(caught.value))
    assert "the server speaks protocol 2; this suite speaks protocol 1" in str(caught.value)


def test_a_server_that_dies_at_start_names_its_exit_status_and_last_stderr_lines():
    with pytest.raises(AdapterError) as caught:
        toy("no_licence")
    assert_one_line(str(caught.value))
    assert ('exit status 1; last stderr lines: "toy: starting up" / "toy: no licence file found"'
            in str(caught.value))


def test_a_program_that_does_not_exist_is_a_clear_error():
    with pytest.raises(AdapterError) as caught:
        JsonLinesAdapter(["./no-such-server-program"])
    assert_one_line(str(caught.value))
    assert "cannot start ./no-such-server-program: No such file or directory" in str(caught.value)


def test_a_hang_before_hello_is_a_timeout():
    with pytest.raises(AdapterError) as caught:
        JsonLinesAdapter([sys.executable, "-c", "import time; time.sleep(60)"], start_timeout=FAST)
    assert f"no answer to hello within {FAST:g} s" in str(caught.value)


def test_a_server_that_cannot_be_restarted_fails_each_call_at_once_and_is_given_up(caplog):
    adapter = toy("crash")
    adapter.execute(Call("put", {"handle": "h"}))
    adapter.command = [sys.executable, str(SERVERS / "no_licence.py")]  # from now on, every start fails
    for attempt in range(4):
        adapter.reset()  # never raises
        outcome = adapter.execute(Call("commit", {}))
        assert_one_line(outcome.error)
        assert outcome.error.startswith("the server could not be restarted: the server exited during hello")
    assert outcome.error.endswith("(gave up after 3 attempts in a row)")
    assert len([r for r in caplog.records if "could not be restarted" in r.getMessage()]) == 3
    adapter.close()


def test_a_failed_reset_is_logged_and_a_new_server_started(caplog):
    with toy("bad_reset") as adapter:
        first = adapter.pid
        adapter.reset()
        assert adapter.pid is not None and adapter.pid != first
        assert adapter.faults[0].startswith("reset failed: its answer to reset is not a reset reply: $.ok: ")
        assert any("reset failed" in record.getMessage() for record in caplog.records)
        assert adapter.execute(Call("commit", {})).CompCode == "MQCC_OK"


def test_close_is_idempotent_and_calls_after_it_fail_clearly():
    adapter = toy("toy")
    adapter.close()
    adapter.close()
    assert adapter.execute(Call("commit", {})).error == "the adapter is closed"


# -- load() and the command line ------------------------------------------------------------------------------

def test_load_accepts_jsonlines_with_a_quoted_command():
    adapter = load("jsonlines:" + shlex.join([sys.executable, str(SERVERS / "toy.py")]))
    try:
        assert isinstance(adapter, JsonLinesAdapter)
        assert (adapter.name, adapter.capabilities) == ("toy", frozenset({"core"}))
    finally:
        adapter.close()


@pytest.mark.parametrize(("spec", "fragment"), [
    ("jsonlines:", "no command given"),
    ("jsonlines:'unbalanced", "cannot split the command"),
])
def test_load_refuses_a_bad_jsonlines_spec_in_one_line(spec, fragment):
    with pytest.raises(AdapterError) as caught:
        load(spec)
    assert_one_line(str(caught.value))
    assert fragment in str(caught.value)


def test_mqconf_runs_scenarios_through_the_reference_server(capsys):
    assert cli.main(["scenario", str(ONE_SCENARIO), "--adapter", "jsonlines:" + shlex.join(SERVE)]) == 0
    out = capsys.readouterr().out
    assert "1 scenarios: 1 passed" in out and "(adapter mq-conformance reference model)" in out


def test_mqconf_with_a_server_of_another_protocol_is_a_usage_error(capsys):
    status = cli.main(["scenario", str(ONE_SCENARIO), "--adapter",
                       "jsonlines:" + shlex.join([sys.executable, str(SERVERS / "protocol2.py")])])
    err = capsys.readouterr().err
    assert status == 2
    assert err.startswith("mqconf: jsonlines server ") and err.count("\n") == 1, err
    assert "speaks protocol 2" in err


def test_mqconf_serve_needs_stdio(capsys):
    with pytest.raises(SystemExit) as caught:
        cli.main(["serve"])
    assert caught.value.code == 2 and "--stdio" in capsys.readouterr().err


BEFORE = """\
id: before-the-crash
clauses: [put.msgid.generated]
setup:
  queues: [{name: Q1}]
steps:
  - commit: {}
"""
CRASHING = """\
id: the-crash
clauses: [put.msgid.generated]
setup:
  queues: [{name: Q1}]
steps:
  - open: {handle: h, queue: Q1, Options: [MQOO_OUTPUT]}
  - put: {handle: h, data: x}
  - commit: {}
"""
AFTER = """\
id: zafter-the-crash
clauses: [put.msgid.generated]
setup:
  queues: [{name: Q1}]
steps:
  - commit: {}
"""


def test_a_run_with_a_crashing_server_keeps_every_result_and_goes_on(tmp_path, capsys):
    folder = tmp_path / "scenarios"
    folder.mkdir()
    for name, text in {"a.yaml": BEFORE, "b.yaml": CRASHING, "c.yaml": AFTER}.items():
        (folder / name).write_text(text)
    output = tmp_path / "run"
    status = cli.main(["run", "--output", str(output), "--scenarios", str(folder),
                       "--adapter", "jsonlines:" + shlex.join([sys.executable, str(SERVERS / "crash.py")])])
    out, err = capsys.readouterr()
    assert status == 1, out + err
    assert "Traceback" not in out + err
    assert "3 scenarios: 2 passed, 0 failed, 1 errors" in out
    report = json.loads((output / "conformance.json").read_text())
    records = {record["id"]: record for record in report["scenarios"]}
    assert records["before-the-crash"]["status"] == PASSED
    assert records["zafter-the-crash"]["status"] == PASSED  # reset started a new server
    crashed = records["the-crash"]
    assert crashed["status"] == ERROR
    _define, _open, put, commit = crashed["steps"]
    assert put["outcome"]["error"].startswith("the server exited during call 5 (put): exit status 3")
    assert commit["outcome"]["error"].startswith("the server is not running after an earlier fault")


# -- the server's side ----------------------------------------------------------------------------------------

def _serve(lines: list[bytes]) -> tuple[int, list[dict]]:
    out = io.BytesIO()
    status = serve(io.BytesIO(b"".join(lines)), out)
    text = out.getvalue()
    assert text == b"" or text.endswith(b"\n")
    return status, [json.loads(line) for line in text.splitlines()]


def test_serve_answers_each_request_and_stops_at_bye():
    status, replies = _serve([
        b'{"type": "hello", "protocol": 1}\n',
        b'{"type": "call", "id": 1, "call": {"op": "define_queue", "name": "Q1"}}\n',
        b"not json\n",
        b'{"type": "reset"}\n',
        b'{"type": "bye"}\n',
        b'{"type": "reset"}\n',  # never read
    ])
    assert status == 0
    assert [reply["type"] for reply in replies] == ["hello", "outcome", "error", "reset"]
    assert replies[0]["protocol"] == PROTOCOL
    assert replies[1] == {"type": "outcome", "id": 1, "outcome": {
        "CompCode": "MQCC_OK", "Reason": "MQRC_NONE", "clauses": ["admin.define-queue"]}}
    for reply in replies:
        assert check_message("reply", reply) is None


def test_serve_skips_an_over_long_line_and_carries_on():
    status, replies = _serve([b"x" * (3 * MAX_LINE) + b"\n", b'{"type": "reset"}\n'])  # and then end of input
    assert status == 0
    assert replies[0]["type"] == "error" and "over the 1048576-byte limit" in replies[0]["message"]
    assert replies[1] == {"type": "reset", "ok": True}


def test_a_line_of_exactly_the_limit_is_read_whole():
    padded = b'{"type": "reset"' + b" " * (MAX_LINE - 17) + b"}"
    assert len(padded) == MAX_LINE
    assert _serve([padded + b"\n"])[1] == [{"type": "reset", "ok": True}]


def test_the_protocol_schema_examples_are_valid():
    schema = json.loads((REPO / "reference" / "schemas" / "protocol.json").read_text(encoding="utf-8"))
    count = 0
    for name, definition in schema["$defs"].items():
        for sample in definition.get("examples", []):
            assert check_message(name, sample) is None, (name, sample)
            count += 1
    assert count >= 10


def test_the_adapter_sends_only_valid_requests():
    assert check_message("hello_request", {"type": "hello", "protocol": PROTOCOL}) is None
    for name, message in [("reset_request", {"type": "reset"}), ("bye_request", {"type": "bye"}),
                          ("call_request", {"type": "call", "id": 1, "call": {"op": "commit"}})]:
        assert check_message(name, json.loads(encode(message))) is None


# -- fuzzing the server's request reader ----------------------------------------------------------------------

FUZZ_SERVER = Server()

_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)
_names = st.sampled_from(["h", "Q1", "MQOO_OUTPUT", "MQGMO_BROWSE_FIRST", "MQMF_MSG_IN_GROUP", ""])
_calls = st.fixed_dictionaries(
    {"op": st.sampled_from(sorted(OPS)) | st.text(max_size=8)},
    optional={"handle": _names | _json, "queue": _names, "name": _names, "Options": st.lists(_names, max_size=3),
              "MD": _json, "GMO": _json, "data": _json},
)
_requests = st.fixed_dictionaries(
    {"type": st.sampled_from(["hello", "reset", "call", "bye", "outcome", "error"]) | st.text(max_size=6)},
    optional={"id": st.integers(min_value=-3, max_value=2**60) | _json, "protocol": st.integers() | _json,
              "call": _calls | _json},
)


def _check_reply(line: bytes | str) -> dict | None:
    """The server's reply to ``line``, checked: one line that matches the protocol, or nothing after bye."""
    reply, stop = FUZZ_SERVER.handle(line)
    if reply is None:
        assert stop and json.loads(line) == {"type": "bye"}
        return None
    assert not stop
    encoded = encode(reply)
    assert encoded.endswith(b"\n") and encoded.count(b"\n") == 1
    assert check_message("reply", json.loads(encoded)) is None, reply
    return reply


@FUZZ
@given(st.binary(max_size=200) | st.text(max_size=200))
@example(b"[" * 200_000)
@example(b"1" * 5000)
@example(b'{"type": "call", "id": NaN}')
@example(b'{"type": "call", "id": 1, "call": {"op": "put", "handle": "\\ud800"}}')
@example(b"\xef\xbb\xbf{}")
@example("\ud800")
@example(b"x" * (MAX_LINE + 1))
@example(b"")
def test_arbitrary_lines_get_a_one_line_error(line):
    reply = _check_reply(line)
    if reply is None or reply["type"] != "error":  # only a real request gets another answer
        assert isinstance(json.loads(line), dict)


@FUZZ
@given(_requests)
def test_arbitrary_requests_get_a_reply_that_matches_the_protocol(request):
    _check_reply(json.dumps(request))
