"""Bad scenario files never give a traceback: each ends in one line naming the file, the line and what is wrong.

Each case is checked twice: through :func:`mq_conformance.conformance.scenario.load_scenario` (a ``SourceError`` whose text is
``path:line: message``) and through ``mqconf scenario BAD.yaml`` (exit status 2, one line on standard error
starting ``mqconf: ``). A handful of cases also run the CLI in a subprocess, as a person would.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mq_conformance.conformance import cli
from mq_conformance.conformance.scenario import load_scenario, parse
from mq_conformance.conformance.yamlsource import MAX_BYTES, SourceError, loads

REPO = Path(__file__).resolve().parents[1]

# Lines 1-6 of most bad files; the step under test is on line 7.
HEAD = (
    "id: bad-input\n"                                                              # 1
    "clauses: [put.logical-order.table1.row5]\n"                                   # 2
    "setup:\n"                                                                     # 3
    "  queues: [{name: Q1}]\n"                                                     # 4
    "steps:\n"                                                                     # 5
    "  - open: {handle: h, queue: Q1, Options: [MQOO_OUTPUT, MQOO_INPUT_SHARED]}\n"  # 6
)

OPEN_Q1 = "  - open: {handle: h, queue: Q1}\n"
EXPECT_TYPO = "  - put: {handle: h}\n    expect:\n      CompCode: MQCC_OK\n      Reasn: MQRC_NONE\n"  # lines 7-10

# (case id, file text, expected line or None when no line applies, a fragment the message must contain)
CASES = [
    ("unclosed-bracket", HEAD + "  - put: {handle: h, data: [one}\n  - close: {handle: h}\n", 7, "not valid YAML"),
    ("bad-indentation", HEAD + "  - put: {handle: h}\n     expect: {CompCode: MQCC_OK}\n", 8, "not valid YAML"),
    ("tab-indentation", HEAD + "\t- put: {handle: h}\n", 7, "cannot start any token"),
    ("duplicate-key-in-call",
     HEAD + "  - put:\n      handle: h\n      data: a\n      data: b\n", 10, "duplicate key 'data'"),
    ("duplicate-top-level-key", HEAD + "id: again\n", 7, "duplicate key 'id'"),
    ("top-level-list", "- id: x\n- steps: []\n", 1, "a scenario is a mapping"),
    ("top-level-scalar", "just some words\n", 1, "a scenario is a mapping"),
    ("missing-steps", "id: no-steps\nsetup:\n  queues: [{name: Q1}]\n", 1, "steps must be a non-empty list"),
    ("empty-steps", "id: no-steps\nsetup:\n  queues: [{name: Q1}]\nsteps: []\n", 4, "steps must be a non-empty list"),
    ("null-steps", "id: no-steps\nsetup:\n  queues: [{name: Q1}]\nsteps:\n", 4, "steps must be a non-empty list"),
    ("step-with-no-op", HEAD + "  - expect: {CompCode: MQCC_OK}\n", 7, "exactly one op, found no op"),
    ("step-with-two-ops", HEAD + "  - put: {handle: h}\n    get: {handle: h}\n", 7, "several ops (put, get)"),
    ("step-not-a-mapping", HEAD + "  - put\n", 7, "a step is a mapping"),
    ("unknown-op", HEAD + "  - putt: {handle: h}\n", 7, "unknown op 'putt'"),
    ("call-arguments-not-a-mapping", HEAD + "  - put: [h]\n", 7, "the arguments of put must be a mapping"),
    ("unknown-constant",
     HEAD + "  - put:\n      handle: h\n      PMO:\n        Options: [MQPMO_LOGICAL_ORDR]\n", 10,
     "unknown MQ constant MQPMO_LOGICAL_ORDR"),
    ("constant-of-wrong-family",
     HEAD + "  - put:\n      handle: h\n      PMO:\n        Options:\n          - MQPMO_LOGICAL_ORDER\n"
            "          - MQGMO_LOGICAL_ORDER\n", 12, "MQGMO_LOGICAL_ORDER is not an MQPMO_* constant"),
    ("text-for-a-number", HEAD + "  - put:\n      handle: h\n      MD: {MsgSeqNumber: one}\n", 9, "MD.MsgSeqNumber"),
    ("float-for-options", HEAD + "  - put:\n      handle: h\n      PMO: {Options: 5.5}\n", 9, "PMO.Options"),
    ("list-for-data", HEAD + "  - put:\n      handle: h\n      data: [1]\n", 9, "data: expected text"),
    ("bool-for-a-number", HEAD + "  - put:\n      handle: h\n      MD: {MsgSeqNumber: true}\n", 9, "whole number"),
    ("not-hexadecimal", HEAD + "  - put:\n      handle: h\n      data: {hex: zz}\n", 9, "not hexadecimal"),
    ("identifier-too-long", HEAD + "  - put:\n      handle: h\n      MD: {GroupId: " + "x" * 25 + "}\n", 9,
     "longer than 24 bytes"),
    ("unknown-md-field", HEAD + "  - put:\n      handle: h\n      MD: {GroupID: abc}\n", 9,
     "MD has no field 'GroupID'"),
    ("unknown-call-argument", HEAD + "  - put:\n      handle: h\n      Data: x\n", 9, "put takes no argument 'Data'"),
    ("unbound-variable", HEAD + "  - get: {handle: h, MD: {GroupId: $g}}\n", 7,
     "$g is used before any expectation binds it"),
    ("handle-before-open", HEAD + "  - put: {handle: k}\n", 7, "handle 'k' is used before any open names it"),
    ("unknown-expect-key", HEAD + EXPECT_TYPO, 10, "expect has no 'Reasn'"),
    ("expect-not-a-mapping", HEAD + "  - put: {handle: h}\n    expect: MQCC_OK\n", 8, "expect must be a mapping"),
    ("expect-bad-compcode", HEAD + "  - put: {handle: h}\n    expect: {CompCode: OK}\n", 8, "CompCode"),
    ("expect-option-of-wrong-family",
     HEAD + "  - put: {handle: h}\n    expect:\n      PMO:\n        Options: [MQGMO_WAIT]\n", 10,
     "MQGMO_WAIT is not an MQPMO_* constant"),
    ("invalid-scenario-id", "id: Bad_Id\nsetup: {queues: [{name: Q1}]}\nsteps:\n  - open: {handle: h, queue: Q1}\n", 1,
     "kebab-case"),
    ("unknown-scenario-key",
     "id: t\nsetup: {queues: [{name: Q1}]}\nsteps:\n  - open: {handle: h, queue: Q1}\nauthor: me\n", 5,
     "unknown scenario key 'author'"),
    ("unknown-setup-key", "id: t\nsetup:\n  queues: [{name: Q1}]\n  namelists: []\nsteps:\n" + OPEN_Q1, 4,
     "unknown setup key 'namelists'"),
    ("unknown-queue-attribute",
     "id: t\nsetup:\n  queues:\n    - {name: Q1}\n    - {name: Q2, MaxDepth: 5}\nsteps:\n" + OPEN_Q1,
     5, "unknown queue attribute 'MaxDepth'"),
    ("clauses-not-a-list", "id: t\nclauses: put.one\nsetup: {queues: [{name: Q1}]}\nsteps:\n" + OPEN_Q1, 2,
     "clauses must be a list"),
    ("empty-file", "", 1, "a scenario is a mapping"),
    ("nul-character", "id: t\x00\n", 1, "a NUL character is not allowed"),
]


def _write(tmp_path: Path, text: str | bytes, name: str = "bad.yaml") -> Path:
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return path


def _load_error(path: Path) -> SourceError:
    with pytest.raises(SourceError) as caught:
        load_scenario(path)
    return caught.value


def _assert_one_line(message: str, path: Path, line: int | None, fragment: str) -> None:
    assert "\n" not in message, message
    where = f"{path}:{line}: " if line is not None else f"{path}: "
    assert message.startswith(where), f"{message!r} does not start with {where!r}"
    assert fragment in message[len(where):], f"{fragment!r} not in {message!r}"
    assert "Traceback" not in message


@pytest.mark.parametrize(("text", "line", "fragment"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_file_is_one_line_naming_file_and_line(tmp_path, text, line, fragment):
    path = _write(tmp_path, text)
    error = _load_error(path)
    _assert_one_line(str(error), path, line, fragment)
    assert (error.path, error.line) == (str(path), line)


@pytest.mark.parametrize(("text", "line", "fragment"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_cli_reports_bad_file_in_one_line_with_status_2(tmp_path, capsys, text, line, fragment):
    path = _write(tmp_path, text)
    status = cli.main(["scenario", str(path)])
    out, err = capsys.readouterr()
    assert status == 2
    assert err.count("\n") == 1 and err.startswith("mqconf: "), err
    _assert_one_line(err.removeprefix("mqconf: ").rstrip("\n"), path, line, fragment)
    assert "Traceback" not in out + err


def test_unknown_constant_names_file_and_line(tmp_path):
    path = _write(tmp_path, HEAD + "  - put:\n      handle: h\n      PMO:\n        Options: [MQPMO_LOGICAL_ORDR]\n")
    assert str(_load_error(path)) == f"{path}:10: put: PMO.Options[0]: unknown MQ constant MQPMO_LOGICAL_ORDR"


def test_constant_of_wrong_family_names_the_item_line(tmp_path):
    text = HEAD + "  - get:\n      handle: h\n      GMO:\n        Options:\n          - MQGMO_WAIT\n"
    text += "          - MQPMO_SYNCPOINT\n"
    path = _write(tmp_path, text)
    assert str(_load_error(path)) == f"{path}:12: get: GMO.Options[1]: MQPMO_SYNCPOINT is not an MQGMO_* constant"


def test_unbound_variable_names_the_step_line(tmp_path):
    text = HEAD + "  - put: {handle: h}\n    expect: {MD: {MsgId: $m}}\n  - get: {handle: h, MD: {CorrelId: $c}}\n"
    path = _write(tmp_path, text)
    assert str(_load_error(path)) == f"{path}:9: $c is used before any expectation binds it"


def test_variable_bound_by_an_earlier_expectation_may_be_used(tmp_path):
    text = HEAD + "  - put: {handle: h}\n    expect: {MD: {MsgId: $m}}\n  - get: {handle: h, MD: {MsgId: $m}}\n"
    scenario = load_scenario(_write(tmp_path, text))
    assert [step.call.op for step in scenario.steps] == ["define_queue", "open", "put", "get"]


def test_duplicate_key_names_the_second_occurrence(tmp_path):
    path = _write(tmp_path, HEAD + "  - put:\n      handle: h\n      data: a\n      data: b\n")
    assert str(_load_error(path)) == f"{path}:10: not valid YAML: duplicate key 'data'"


def test_unknown_expect_key_names_its_line(tmp_path):
    path = _write(tmp_path, HEAD + EXPECT_TYPO)
    assert str(_load_error(path)).startswith(f"{path}:10: expect has no 'Reasn'; it takes CompCode, Reason,")


def test_non_utf8_file_is_one_line_naming_the_file(tmp_path):
    path = _write(tmp_path, b"id: t\nsteps:\n  - open: {handle: h, queue: Q\xff1}\n")
    _assert_one_line(str(_load_error(path)), path, 3, "not UTF-8 text: byte 0xff")


def test_non_utf8_file_names_the_line(tmp_path):
    path = _write(tmp_path, b"id: t\nsteps:\n  - open: {handle: h, queue: Q\xff1}\n")
    assert str(_load_error(path)).startswith(f"{path}:3: ")


def test_file_over_the_limit_is_refused_without_reading(tmp_path):
    path = _write(tmp_path, b"#" * (MAX_BYTES + 1))
    error = _load_error(path)
    _assert_one_line(str(error), path, None, f"the limit is {MAX_BYTES}")


def test_missing_file_is_one_line(tmp_path):
    path = tmp_path / "absent.yaml"
    _assert_one_line(str(_load_error(path)), path, None, "cannot read")


def test_deeply_nested_yaml_is_one_line(tmp_path):
    path = _write(tmp_path, "id: t\nx: " + "[" * 600 + "]" * 600 + "\n")
    message = str(_load_error(path))
    assert message.startswith(f"{path}:") and "\n" not in message, message


def test_wrong_field_types_each_name_the_field(tmp_path):
    for field, value, fragment in [
        ("MD", "{MsgSeqNumber: one}", "MD.MsgSeqNumber"),
        ("PMO", "{Options: 5.5}", "PMO.Options: expected a list of MQPMO_* names"),
        ("data", "[1]", "data: expected text"),
        ("MD", "{Persistence: MQPMO_SYNCPOINT}", "MD.Persistence"),
        ("MD", "{MsgFlags: [1]}", "MD.MsgFlags[0]: expected a MQMF_* name"),
    ]:
        path = _write(tmp_path, HEAD + f"  - put:\n      handle: h\n      {field}: {value}\n")
        message = str(_load_error(path))
        assert message.startswith(f"{path}:9: put: {fragment}"), message


# -- found as bugs when this file was written, fixed since ------------------------------------------------------

NO_SETUP = "id: no-setup\nclauses: [put.logical-order.table1.row5]\nsteps:\n  - open: {handle: h, queue: Q1}\n"


@pytest.mark.parametrize("setup", ["", "setup:\n", "setup: {}\n", "setup:\n  qmgr: {MsgMarkBrowseInterval: -1}\n"],
                         ids=["absent", "null", "empty", "qmgr-only"])
def test_scenario_without_queues_in_setup_loads(tmp_path, setup):
    scenario = load_scenario(_write(tmp_path, setup + NO_SETUP))
    assert [step.call.op for step in scenario.steps if not step.setup] == ["open"]


def test_missing_steps_without_setup_is_one_line(tmp_path):
    path = _write(tmp_path, "id: no-steps\n")
    _assert_one_line(str(_load_error(path)), path, 1, "steps must be a non-empty list")


@pytest.mark.parametrize("step", [
    "  - advance_clock: {milliseconds: soon}\n",
    "  - get: {handle: h, BufferLength: big}\n",
    "  - inquire: {handle: h, Selectors: MQIA_CURRENT_Q_DEPTH}\n",
], ids=["milliseconds", "BufferLength", "Selectors"])
def test_argument_checked_only_by_the_adapter_is_refused_at_load(tmp_path, step):
    path = _write(tmp_path, HEAD + step)
    _assert_one_line(str(_load_error(path)), path, 7, "")


def test_expect_attributes_not_a_mapping_is_refused_at_load(tmp_path):
    path = _write(tmp_path, HEAD + "  - put: {handle: h}\n    expect: {attributes: [MQIA_CURRENT_Q_DEPTH]}\n")
    _assert_one_line(str(_load_error(path)), path, 8, "attributes")


@pytest.mark.parametrize("one_of", ["MQRC_NONE", "[]"], ids=["bare-name", "empty-list"])
def test_one_of_must_be_a_non_empty_list(tmp_path, one_of):
    path = _write(tmp_path, HEAD + f"  - put: {{handle: h}}\n    expect: {{Reason: {{one_of: {one_of}}}}}\n")
    _assert_one_line(str(_load_error(path)), path, 8, "one_of")


def test_expect_data_length_of_wrong_type_is_refused_at_load(tmp_path):
    path = _write(tmp_path, HEAD + "  - put: {handle: h}\n    expect: {DataLength: many}\n")
    _assert_one_line(str(_load_error(path)), path, 8, "DataLength")


@pytest.mark.parametrize("one_of", ["null", "5"])
def test_one_of_that_is_not_a_list_is_one_line(tmp_path, one_of):
    path = _write(tmp_path, HEAD + f"  - put: {{handle: h}}\n    expect: {{Reason: {{one_of: {one_of}}}}}\n")
    _assert_one_line(str(_load_error(path)), path, 8, "one_of")


def test_structure_version_constant_is_not_an_option(tmp_path):
    path = _write(tmp_path, HEAD + "  - put:\n      handle: h\n      PMO: {Options: [MQPMO_VERSION_2]}\n")
    _assert_one_line(str(_load_error(path)), path, 9, "MQPMO_VERSION_2")


def test_number_outside_mqlong_is_refused_at_load(tmp_path):
    path = _write(tmp_path, HEAD + "  - put:\n      handle: h\n      MD: {MsgSeqNumber: 99999999999999}\n")
    _assert_one_line(str(_load_error(path)), path, 9, "MsgSeqNumber")


def test_argument_path_has_no_stray_dot(tmp_path):
    path = _write(tmp_path, HEAD.replace("queue: Q1,", "queue: 5,"))
    message = str(_load_error(path))
    assert message.startswith(f"{path}:6: open: queue: "), message


# -- no input at all gives a traceback --------------------------------------------------------------------------

VALID = yaml.safe_load(HEAD + "  - put: {handle: h, MD: {MsgFlags: [MQMF_MSG_IN_GROUP]}, data: one}\n"
                              "    expect: {CompCode: MQCC_OK, MD: {GroupId: $g, MsgSeqNumber: 1}}\n"
                              "  - get: {handle: h, MD: {GroupId: $g}, GMO: {MatchOptions: [MQMO_MATCH_GROUP_ID]}}\n"
                              "    expect: {Reason: {one_of: [MQRC_NONE, MQRC_NO_MSG_AVAILABLE]}}\n")
NASTY = st.sampled_from([
    None, True, 0, -1, 5.5, 2**40, "", "x", "$g", "$unbound", "MQRC_FOO", "MQGMO_WAIT", [], [1], ["MQPMO_NONE"],
    {}, {"hex": "zz"}, {"one_of": "x"}, {"fill": "a", "length": -1}, {"a": {"b": []}}, "Bad Id",
])


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*prefix, index))


def _mutated(document, path, replacement, delete):
    if not path:
        return replacement
    head, rest = path[0], path[1:]
    copy = list(document) if isinstance(document, list) else dict(document)
    if delete and not rest and isinstance(copy, dict):
        del copy[head]
    else:
        copy[head] = _mutated(copy[head], rest, replacement, delete)
    return copy


PATHS = list(_paths(VALID))


# 100 examples each in the quick run; MQCONF_FUZZ_EXAMPLES (e.g. 10000) for a thorough one.
FUZZ = settings(max_examples=int(os.environ.get("MQCONF_FUZZ_EXAMPLES", "100")), deadline=None,
                derandomize="MQCONF_FUZZ_EXAMPLES" not in os.environ,
                suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(st.sampled_from(PATHS), NASTY, st.booleans())
def test_no_mutation_of_a_valid_scenario_gives_a_traceback(path, replacement, delete):
    document = _mutated(VALID, path, replacement, delete)
    text = yaml.safe_dump(document)
    try:
        parse(loads(text, "fuzz.yaml"), Path("fuzz.yaml"))
    except SourceError as exc:
        assert "\n" not in str(exc) and str(exc).startswith("fuzz.yaml")


@FUZZ
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=400))
def test_no_text_gives_the_scenario_loader_a_traceback(text):
    try:
        parse(loads(text, "fuzz.yaml"), Path("fuzz.yaml"))
    except SourceError as exc:
        assert "\n" not in str(exc) and str(exc).startswith("fuzz.yaml")


# -- the CLI as a person runs it ---------------------------------------------------------------------------------

def _mqconf(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mq_conformance.conformance.cli", *args], cwd=REPO, capture_output=True,
                          text=True, timeout=60)


@pytest.mark.parametrize(("text", "line"), [
    (HEAD + "  - put:\n      handle: h\n      PMO:\n        Options: [MQPMO_LOGICAL_ORDR]\n", 10),
    (HEAD + "  - put: {handle: h, data: [one}\n  - close: {handle: h}\n", 7),
], ids=["unknown-constant", "malformed-yaml"])
def test_subprocess_cli_bad_file_is_one_line_and_exit_2(tmp_path, text, line):
    path = _write(tmp_path, text)
    done = _mqconf("scenario", str(path))
    assert done.returncode == 2
    assert done.stderr.startswith("mqconf: ") and done.stderr.count("\n") == 1, done.stderr
    assert str(path) in done.stderr
    if line is not None:
        assert f"{path}:{line}:" in done.stderr
    assert "Traceback" not in done.stdout + done.stderr


def test_subprocess_cli_huge_file_is_one_line_and_exit_2(tmp_path):
    path = _write(tmp_path, b"#" * (MAX_BYTES + 1))
    done = _mqconf("scenario", str(path))
    assert done.returncode == 2
    # the size is counted while reading, which stops one byte past the limit
    assert done.stderr == f"mqconf: {path}: file is more than {MAX_BYTES} bytes; the limit is {MAX_BYTES}\n"


def test_cli_non_utf8_file_is_one_line_and_exit_2(tmp_path, capsys):
    path = _write(tmp_path, b"id: t\nsteps:\n  - open: {handle: h, queue: Q\xff1}\n")
    assert cli.main(["scenario", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"mqconf: {path}:3: not UTF-8 text: ") and err.count("\n") == 1, err


def test_cli_missing_path_is_one_line_and_exit_2(tmp_path, capsys):
    assert cli.main(["scenario", str(tmp_path / "nowhere")]) == 2
    assert capsys.readouterr().err == f"mqconf: {tmp_path / 'nowhere'}: no such file or folder\n"
