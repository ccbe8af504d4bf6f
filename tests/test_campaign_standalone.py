"""A standalone Spark cluster on this machine, started as the README says from the installed PySpark - a master
and a worker on 127.0.0.1 with ``bin/spark-class`` of the suite's ``spark_home()`` - and ``mqconf campaign --master
spark://127.0.0.1:PORT`` run on it with nothing else set (no SPARK_HOME, SPARK_LOCAL_IP or PYSPARK_PYTHON): the
suite sets the Spark home, the loopback driver address and the executors' Python itself, and the aggregates are
the in-process loop's. A standalone master nobody listens on is one line naming it, in seconds, with nothing
written."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mq_conformance.adapters.processes import die_with_parent
from mq_conformance.conformance import cli
from mq_conformance.conformance.campaign.run import CampaignConfig, run_campaign
from tests_support import java_or_skip

pytestmark = pytest.mark.xdist_group("spark-cluster")
MUTANT = "mutant:table:put.logical-order.table1.row5:GroupId=MQGI_NONE"
SPARK_VARIABLES = ("SPARK_HOME", "SPARK_LOCAL_IP", "PYSPARK_PYTHON", "PYSPARK_DRIVER_PYTHON", "SPARK_CONF_DIR")
START_SECONDS = 90


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _wait_for(log: Path, text: str, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if text in log.read_text(errors="replace"):
            return
        if process.poll() is not None:
            break
        time.sleep(0.5)
    pytest.fail(f"{log.name}: no '{text}' within {START_SECONDS} s: {log.read_text(errors='replace')[-2000:]}")


@pytest.fixture
def standalone(tmp_path):
    """A master and a worker (one core) of the installed PySpark on 127.0.0.1, as the README starts them; the
    master's URL. Both end with the test."""
    java_or_skip()
    from mq_conformance.conformance.campaign.spark import JVM_OPTIONS, spark_home

    home = Path(spark_home())
    env = {k: v for k, v in os.environ.items() if k not in SPARK_VARIABLES}
    env.update(SPARK_HOME=str(home), SPARK_LOCAL_IP="127.0.0.1", SPARK_DAEMON_JAVA_OPTS=JVM_OPTIONS)
    port = _free_port()
    url = f"spark://127.0.0.1:{port}"
    commands = {
        "master": ["org.apache.spark.deploy.master.Master", "--host", "127.0.0.1", "--port", str(port),
                   "--webui-port", str(_free_port())],
        "worker": ["org.apache.spark.deploy.worker.Worker", url, "--host", "127.0.0.1", "--cores", "1", "--memory",
                   "1g", "--webui-port", str(_free_port()), "--work-dir", str(tmp_path / "work")],
    }
    started = []
    try:
        for name, ready in (("master", "Starting Spark master"), ("worker", "Successfully registered with master")):
            log = tmp_path / f"{name}.log"
            with log.open("wb") as out:
                process = subprocess.Popen([str(home / "bin" / "spark-class"), *commands[name]], env=env,
                                           stdout=out, stderr=subprocess.STDOUT, cwd=tmp_path,
                                           preexec_fn=die_with_parent())
            started.append(process)
            _wait_for(log, ready, process)
        yield url
    finally:
        for process in reversed(started):
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@pytest.mark.slow
def test_a_campaign_on_a_standalone_master_and_worker_on_loopback_has_the_in_process_aggregates(standalone,
                                                                                              tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in SPARK_VARIABLES}
    mqconf = [sys.executable, "-m", "mq_conformance.conformance.cli"]
    done = subprocess.run([*mqconf, "campaign", "--master", standalone, "--adapter", MUTANT, "--sequences", "24",
                           "--length", "10", "--seed", "3", "--partition-size", "12", "--id", "standalone",
                           "--output", str(tmp_path / "out")], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 1, done.stdout[-2000:] + done.stderr[-3000:]  # 1: the mutant's divergences
    on_cluster = json.loads((tmp_path / "out" / "standalone" / "summary.json").read_text())
    config = CampaignConfig(adapter=MUTANT, sequences=24, length=10, seed=3, partition_size=12)
    in_process = run_campaign(config, tmp_path / "local", campaign_id="local", master="inprocess",
                              show_progress=False)
    assert on_cluster["run"]["master"] == standalone and on_cluster["run"]["partitions_run"] == 2
    assert on_cluster["aggregates"] == in_process["aggregates"] and on_cluster["aggregates"]["signatures"]


def test_a_standalone_master_nobody_listens_on_is_one_line_naming_it_in_seconds(tmp_path, capsys):
    url = f"spark://127.0.0.1:{_free_port()}"
    started = time.monotonic()
    status = cli.main(["campaign", "--master", url, "--sequences", "4", "--output", str(tmp_path / "out")])
    seconds = time.monotonic() - started
    err = capsys.readouterr().err
    assert status == 2 and len(err.splitlines()) == 1 and url in err and "cannot be reached" in err, err
    assert seconds < 10 and not (tmp_path / "out").exists()


def test_a_task_failing_with_an_error_of_the_suite_is_named_by_its_class_and_message():
    """Spark 4 gives a Python worker's error as its traceback; the suite's own errors end it with their module."""
    from mq_conformance.conformance.campaign.spark import _first_line

    text = ("[PYTHON_EXCEPTION] An exception was thrown from the Python worker: Traceback (most recent call last):\n"
            '  File "spark.py", line 398, in task\n'
            "mq_conformance.conformance.campaign.store.CampaignError: the campaign location /c needs pyarrow\n"
            " SQLSTATE: 38000")
    assert _first_line(Exception(text)) == "CampaignError: the campaign location /c needs pyarrow"
    assert _first_line(Exception("x\nModuleNotFoundError: No module named 'yaml'")) == (
        "ModuleNotFoundError: No module named 'yaml'")
