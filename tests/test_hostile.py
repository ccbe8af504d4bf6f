"""Hostile input and broken implementations (issue 16): each attack that once hung the suite, crashed it, lost
what it had written or printed a traceback, run again in a subprocess under a time and memory budget, so that
none can come back. Each must end within its budget with one clear line (or a report naming the cause).

The quick profile runs the fast attacks; ``--mq-profile thorough`` runs them all (the slow ones start pytest or
a JVM). The hostile servers are in tests/servers/.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SERVERS = Path(__file__).resolve().parent / "servers"
MQCONF = [sys.executable, "-m", "conformance.cli"]
MEMORY = 1 << 30  # bytes of address space an attack may make the suite use (the suite itself needs ~300 MB)


def budgeted(args: list[str], seconds: float, memory: int = MEMORY, env: dict | None = None,
             cwd: Path = REPO) -> subprocess.CompletedProcess:
    """Run ``args`` with at most ``memory`` bytes of address space and ``seconds`` of wall time; a test fails
    (rather than hangs) when the budget is exceeded. The process and all it starts are killed at the end."""

    def limits() -> None:
        os.setsid()
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    full_env = {**os.environ, "PYTHONPATH": str(REPO), **(env or {})}
    started = time.monotonic()
    process = subprocess.Popen(args, cwd=cwd, env=full_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, errors="replace", preexec_fn=limits)
    try:
        out, err = process.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        out, err = process.communicate()
        pytest.fail(f"{' '.join(args[:6])}... took more than its {seconds} s budget\nstdout: {out[-2000:]}\n"
                    f"stderr: {err[-2000:]}")
    finally:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    result = subprocess.CompletedProcess(args, process.returncode, out, err)
    result.seconds = time.monotonic() - started  # type: ignore[attr-defined]
    return result


def one_line_error(result: subprocess.CompletedProcess) -> str:
    """The single line on standard error of a command that failed as it should (exit status 2)."""
    assert "Traceback" not in result.stderr + result.stdout, result.stderr[-3000:]
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr[-3000:]
    assert result.returncode == 2, (result.returncode, result.stderr)
    return lines[0]


@pytest.fixture
def thorough(request):
    """Skips a slow attack unless the run is ``--mq-profile thorough``."""
    if request.config.getoption("--mq-profile") != "thorough":
        pytest.skip("a slow attack: runs with --mq-profile thorough")


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is dead
        return Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1][0] != "Z"
    except (OSError, IndexError):
        return True


def wait_gone(pid: int, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not alive(pid):
            return True
        time.sleep(0.05)
    return False


# -- broken servers: hangs and orphans ------------------------------------------------------------------------

PUT_SCENARIO = """\
id: hostile-put
title: one put
clauses: []
setup: {queues: [{name: Q1}]}
steps:
  - open: {handle: h, queue: Q1, Options: [MQOO_OUTPUT]}
  - put: {handle: h, data: x}
"""


def server(name: str) -> str:
    return f"jsonlines:{sys.executable} {SERVERS / name}.py"


@pytest.fixture
def put_scenario(tmp_path) -> Path:
    path = tmp_path / "put.yaml"
    path.write_text(PUT_SCENARIO)
    return path


@pytest.mark.parametrize(("name", "expected"), [
    ("orphan", 'the server exited during call 3 (put): exit status 4; last stderr line: "toy: leaving a child behind"'),
    ("half_line_exit", "the server exited during call 3 (put): exit status 6"),
    ("half_line", 'no answer to call 3 (put) within 1 s (it wrote 34 bytes with no newline: '),
    ("no_read", "no answer to call 1 (define_queue) within 1 s"),
    ("orphan_at_bye", None),
    ("stderr_flood", None),
])
def test_a_broken_server_costs_one_line_and_no_hang(name, expected, put_scenario, tmp_path):
    pidfile = tmp_path / "orphan.pid"
    result = budgeted([*MQCONF, "scenario", str(put_scenario), "--adapter", server(name)], seconds=20,
                      env={"MQCONF_JSONLINES_TIMEOUT": "1", "MQCONF_TEST_PIDFILE": str(pidfile)})
    assert "Traceback" not in result.stdout + result.stderr
    if expected is None:
        assert result.returncode == 0, result.stdout + result.stderr
    else:
        assert result.returncode == 1, result.stdout + result.stderr
        assert expected in result.stdout, result.stdout
        assert result.seconds < 10, result.seconds
    if pidfile.exists():  # the child the server left behind died with its process group
        assert wait_gone(int(pidfile.read_text())), "the server's child outlived it"


def test_the_adapter_reports_an_exit_at_once_although_a_child_holds_the_output(tmp_path, monkeypatch):
    from adapters.jsonlines import JsonLinesAdapter
    from reference.calls import Call

    monkeypatch.setenv("MQCONF_TEST_PIDFILE", str(tmp_path / "pid"))
    with JsonLinesAdapter([sys.executable, str(SERVERS / "orphan.py")], timeout=30) as adapter:
        started = time.monotonic()
        outcome = adapter.execute(Call("put", {"handle": "h", "data": "x"}))
        assert time.monotonic() - started < 5
        assert outcome.error.startswith("the server exited during call 1 (put): exit status 4")
    assert wait_gone(int((tmp_path / "pid").read_text()))


def test_a_scenario_has_a_total_time_budget(put_scenario):
    result = budgeted([*MQCONF, "scenario", str(put_scenario), "--adapter", server("slow")], seconds=20,
                      env={"MQCONF_JSONLINES_TIMEOUT": "5", "MQCONF_JSONLINES_SCENARIO_TIMEOUT": "1"})
    assert result.returncode == 1, result.stdout + result.stderr
    assert "the calls since the last reset took more than the scenario's 1 s" in result.stdout or \
        "left of the scenario's 1 s (MQCONF_JSONLINES_SCENARIO_TIMEOUT)" in result.stdout, result.stdout
    assert result.seconds < 10


def test_sigkill_of_mqconf_run_kills_its_pytest_child(tmp_path, thorough):
    output = tmp_path / "run"
    process = subprocess.Popen([*MQCONF, "run", "--output", str(output), "--no-campaign"], cwd=REPO,
                               env={**os.environ, "PYTHONPATH": str(REPO)}, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline, child = time.monotonic() + 60, None
        while child is None and time.monotonic() < deadline and process.poll() is None:
            children = Path(f"/proc/{process.pid}/task/{process.pid}/children")
            found = children.read_text().split() if children.exists() else []
            child = int(found[0]) if found else None
            time.sleep(0.05)
        assert child is not None, "mqconf run never started pytest"
        process.kill()
        process.wait()
        assert wait_gone(child, 5), "pytest outlived mqconf run"
    finally:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


# -- hostile scenario files -----------------------------------------------------------------------------------

def laughs(field_line: str) -> str:
    """A scenario whose ``field_line`` (with ``{bomb}``) names nine anchors of nine aliases each: 9**9 strings."""
    anchors = 'x-a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]\n'
    for index in range(8):
        name, previous = chr(ord("b") + index), chr(ord("a") + index)
        anchors += f"x-{name}: &{name} [" + ", ".join([f"*{previous}"] * 9) + "]\n"
    return anchors + field_line.replace("{bomb}", "*i") + "\n"


BASE = """id: hostile
clauses: []
setup: {queues: [{name: Q1}]}
"""
STEPS = """steps:
  - open: {handle: h, queue: Q1, Options: [MQOO_OUTPUT]}
"""

HOSTILE_FILES = {
    # name: (text, what the one line says)
    "flow-30000": (BASE + "title: " + "[" * 30000 + "\n", "nested more than 64 deep"),
    "flow-20000": (BASE + "title: " + "[" * 20000 + "]" * 20000 + "\n" + STEPS, "nested more than 64 deep"),
    "flow-5000": (BASE + STEPS + "  - put: {handle: h, data: " + "[" * 5000 + "]" * 5000 + "}\n",
                  "nested more than 64 deep"),
    "mappings-5000": (BASE + STEPS + "  - put: " + "{a: " * 5000 + "}" * 5000 + "\n", "nested more than 64 deep"),
    "dashes-3000": (BASE + STEPS + "  - " + "- " * 3000 + "x\n", "nested more than 64 deep"),
    "bomb-in-title": (BASE + STEPS + laughs("title: {bomb}"), "its aliases expand the file beyond"),
    "bomb-in-description": (BASE + STEPS + laughs("description: {bomb}"), "its aliases expand the file beyond"),
    "bomb-in-data": (laughs(BASE + STEPS + "  - put: {handle: h, data: {bomb}}"), "its aliases expand the file beyond"),
    "bomb-in-expect": (laughs(BASE + STEPS + "    expect: {CompCode: {bomb}}"), "its aliases expand the file beyond"),
    "alias-cycle": (BASE + STEPS + "title: &t [*t]\n", "alias *t refers to a collection that contains it"),
    "title-a-list": (BASE + STEPS + "title: [a, b]\n", "title must be text, not a list"),
    "description-a-mapping": (BASE + STEPS + "description: {a: b}\n", "description must be text, not a mapping"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE_FILES))
def test_a_hostile_scenario_file_is_one_line_naming_file_and_line(name, tmp_path):
    text, expected = HOSTILE_FILES[name]
    path = tmp_path / f"{name}.yaml"
    path.write_text(text)
    result = budgeted([*MQCONF, "scenario", str(path)], seconds=30, memory=MEMORY)
    line = one_line_error(result)
    assert line.startswith(f"mqconf: {path}:"), line
    assert expected in line, line
    assert len(line) < 700, line


@pytest.mark.parametrize("name", ["flow-30000", "bomb-in-data"])
def test_a_hostile_scenario_in_a_campaign_corpus_is_one_line(name, tmp_path):
    text, expected = HOSTILE_FILES[name]
    path = tmp_path / f"{name}.yaml"
    path.write_text(text)
    result = budgeted([*MQCONF, "campaign", "--corpus", str(path), "--output", str(tmp_path / "out")], seconds=30,
                      memory=MEMORY)
    line = one_line_error(result)
    assert str(path) in line and expected in line, line


def test_a_deeply_nested_json_lines_corpus_is_one_line(tmp_path):
    path = tmp_path / "deep.jsonl"
    path.write_text("[" * 100000 + "]" * 100000 + "\n")
    result = budgeted([*MQCONF, "campaign", "--corpus", str(path), "--output", str(tmp_path / "out")], seconds=30,
                      memory=MEMORY)
    assert f"{path}:1: nested too deeply to read" in one_line_error(result)
