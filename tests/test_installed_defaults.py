"""Defaults that work from anywhere, not only from a clone: ``mqconf scenario`` and ``mqconf lint`` default to the
scenarios installed with the suite, ``mqconf scenarios --path`` says where they are, ``mqconf constants --json``
prints the constants, and the example server copied out of the repository finds them (its argument,
MQCONF_CONSTANTS, or ``mqconf constants --json`` on PATH), or says in one line how to give them."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mq_conformance import fixtures
from mq_conformance.conformance import cli
from mq_conformance.conformance.scenario import scenario_files

ROOT = Path(__file__).resolve().parents[1]
HELLO = '{"type":"hello","protocol":1}\n'


def test_mqconf_scenario_without_paths_runs_the_installed_scenarios(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # no fixtures/ folder here
    assert cli.main(["scenario", "--adapter", "reference"]) == 0
    count = len(scenario_files([fixtures.SCENARIOS]))
    assert f"{count} scenarios: {count} passed" in capsys.readouterr().out


def test_mqconf_scenarios_lists_them_and_says_where_they_are(capsys):
    assert cli.main(["scenarios", "--path"]) == 0
    assert capsys.readouterr().out == f"{fixtures.SCENARIOS}\n"
    assert cli.main(["scenarios"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(scenario_files([fixtures.SCENARIOS]))
    assert "put-logical-order-group-of-two\t" in "\n".join(lines)


def test_mqconf_constants_prints_the_installed_constants_or_their_path(capsys):
    assert cli.main(["constants", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads((fixtures.ROOT / "constants.json").read_text())
    assert cli.main(["constants", "--path"]) == 0
    assert capsys.readouterr().out == f"{fixtures.ROOT / 'constants.json'}\n"


@pytest.fixture
def copied_server(tmp_path) -> tuple[str, Path]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("needs Node.js (`node` on PATH) to run the example server")
    target = tmp_path / "elsewhere" / "server.js"
    target.parent.mkdir()
    shutil.copy(ROOT / "docs" / "examples" / "server.js", target)
    return node, target


def _hello(node: str, server: Path, *args: str, path: str, **env: str) -> subprocess.CompletedProcess:
    """The server started from its own folder with ``args``, PATH ``path`` and ``env``, sent a hello."""
    environment = {**{k: v for k, v in os.environ.items() if k != "MQCONF_CONSTANTS"}, "PATH": path, **env}
    return subprocess.run([node, str(server), *args], input=HELLO, capture_output=True, text=True, timeout=60,
                          cwd=server.parent, env=environment)


def test_the_example_server_copied_elsewhere_reads_the_constants_from_mqconf_on_path(copied_server):
    node, server = copied_server
    done = _hello(node, server, path=f"{Path(sys.executable).parent}{os.pathsep}/usr/bin{os.pathsep}/bin")
    assert json.loads(done.stdout.splitlines()[0])["type"] == "hello", done.stderr


def test_the_example_server_copied_elsewhere_reads_the_constants_it_is_given(copied_server):
    node, server = copied_server
    constants = str(fixtures.ROOT / "constants.json")
    for args, env in (((constants,), {}), ((), {"MQCONF_CONSTANTS": constants})):
        done = _hello(node, server, *args, path=f"/usr/bin{os.pathsep}/bin", **env)
        assert json.loads(done.stdout.splitlines()[0])["type"] == "hello", done.stderr


def test_the_example_server_without_constants_says_how_to_give_them_in_one_line(copied_server):
    node, server = copied_server
    done = _hello(node, server, path=f"/usr/bin{os.pathsep}/bin")
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.splitlines()) == 1 and "MQCONF_CONSTANTS" in done.stderr and "mqconf" in done.stderr
