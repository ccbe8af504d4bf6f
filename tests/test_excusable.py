"""Reproducible and excusable: a machine's divergence says which value is the model's, and `mqconf scenario` judges
with the implementation's expectations file as `mqconf run` does."""

from __future__ import annotations

from pathlib import Path

from mq_conformance.conformance.differential import divergence_line, name_sides


def test_each_differing_field_names_the_models_value_and_the_implementations():
    line = divergence_line("my-mq 1.0", "put", {"handle": "h"},
                           ["Reason: 'MQRC_NONE' vs 'MQRC_Q_FULL'", "MD: present vs absent"])
    assert line == ("my-mq 1.0 differs from the model on put {'handle': 'h'}: Reason: model 'MQRC_NONE', "
                    "implementation 'MQRC_Q_FULL'; MD: model present, implementation absent")


def test_a_problem_of_another_shape_is_kept_as_it_is():
    assert name_sides("the server is not running") == "the server is not running"


def test_mqconf_scenario_takes_the_expectations_file_and_judges_as_a_run_does(tmp_path, capsys):
    import shutil

    from mq_conformance.conformance import cli
    from mq_conformance.fixtures import SCENARIOS

    node = shutil.which("node")
    if node is None:
        import pytest

        pytest.skip("needs Node.js for the guide's example server")
    root = Path(__file__).resolve().parent.parent
    adapter = f"jsonlines:{node} {root / 'docs' / 'examples' / 'server.js'}"
    expected = root / "docs" / "examples" / "server-expected.yaml"
    folder = SCENARIOS / "browse"
    assert cli.main(["scenario", str(folder), "--adapter", adapter]) == 1  # its known gaps fail
    capsys.readouterr()
    assert cli.main(["scenario", str(folder), "--adapter", adapter, "--expectations", str(expected)]) == 0
    out = capsys.readouterr().out
    assert "EXPECTED FAILURE browse-length-unknown: MQGMO_BROWSE_MSG_UNDER_CURSOR is not implemented" in out
    assert " 0 failed, 0 errors, " in out and "expected failures" in out
