"""The distributed path for real: on Spark's ``local-cluster[2,1,1024]`` master two separate executor processes
replay the campaign, and its aggregates are exactly those of the in-process loop (and so of local[2], which
tests/test_campaign.py checks against the same loop): nothing depends on driver-side state.

The executors are made a stranger's: their Python is a throwaway virtualenv holding only pyarrow and pyyaml (no
checkout, no editable install of this repository; tests_support.bare_python), they run in their own working
directory (Spark's work folder), and the driver passes them no PYTHONPATH. First an executor task shows that they
cannot import the suite; then the campaign ships it (conformance/campaign/ship.py) and completes with the summary
of the in-process loop, the executors importing the suite from the zip."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mq_conformance.conformance.campaign.run import CampaignConfig, run_campaign
from tests_support import bare_python, java_or_skip

ROOT = Path(__file__).resolve().parents[1]
MUTANT = "mutant:table:put.logical-order.table1.row5:GroupId=MQGI_NONE"
MASTER = "local-cluster[2,1,1024]"

DRIVER = """
import json, sys
sys.path.insert(0, sys.argv[1])  # the driver imports this checkout; nothing passes it to the executors
from mq_conformance.conformance.campaign import ship, spark as campaign_spark
from mq_conformance.conformance.campaign.run import CampaignConfig, run_campaign

def probe(_):
    import os, sys
    try:
        from mq_conformance import conformance
        found = conformance.__file__
    except ImportError as exc:
        found = f"ImportError: {exc}"
    return {"conformance": found, "cwd": os.getcwd(), "python": sys.executable}

master, output, adapter = sys.argv[2], sys.argv[3], sys.argv[4]
spark = campaign_spark.session(master, ship_suite=False)
try:
    before = spark.sparkContext.parallelize(range(4), 4).map(probe).collect()
    shipped = ship.add(spark.sparkContext)  # what session() does for a cluster's master (or --ship)
    config = CampaignConfig(adapter=adapter, sequences=48, length=12, seed=3, partition_size=12)
    summary = run_campaign(config, output, campaign_id="cluster", master=master, spark=spark, show_progress=False)
    after = spark.sparkContext.parallelize(range(4), 4).map(probe).collect()
    work = str(campaign_spark.local_cluster_work(spark))
finally:
    spark.stop()
print(json.dumps({"before": before, "after": after, "shipped": str(shipped), "summary": summary, "work": work}))
"""


@pytest.mark.slow
@pytest.mark.xdist_group("spark-cluster")  # beside the local[2] module's worker, not behind it
def test_executors_that_cannot_import_the_suite_run_the_shipped_campaign_with_the_in_process_summary(tmp_path):
    java_or_skip()
    python = bare_python(tmp_path / "executor-venv")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYSPARK_PYTHON"] = python  # the executors' Python only: the driver is the process below
    result = subprocess.run([sys.executable, "-c", DRIVER, str(ROOT), MASTER, (tmp_path / "out").as_uri(), MUTANT],
                            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-3000:]
    cluster = json.loads(result.stdout.strip().splitlines()[-1])
    # the control: without the zip, the executors' Python workers cannot import the suite
    for probe in cluster["before"]:
        assert probe["conformance"] == "ImportError: No module named 'mq_conformance'", probe
        assert probe["python"] == python and Path(probe["cwd"]).resolve() not in (ROOT, tmp_path.resolve()), probe
    # shipped: they import it from the zip, and the campaign's summary is the in-process loop's
    for probe in cluster["after"]:
        assert f"{Path(cluster['shipped']).name}/mq_conformance/conformance/__init__.py" in probe["conformance"], probe
    # Spark keeps each local-cluster application's work folder inside the installed pyspark: the session removes
    # its own when the driver ends
    assert Path(cluster["work"]).name.startswith("app-") and not Path(cluster["work"]).exists(), cluster["work"]
    on_cluster = cluster["summary"]
    stored = json.loads((tmp_path / "out" / "cluster" / "summary.json").read_text())
    config = CampaignConfig(adapter=MUTANT, sequences=48, length=12, seed=3, partition_size=12)
    in_process = run_campaign(config, tmp_path / "in-process", campaign_id="local", master="inprocess",
                              show_progress=False)
    assert on_cluster["run"]["master"] == MASTER and on_cluster["run"]["partitions_run"] == 4
    assert on_cluster["aggregates"] == stored["aggregates"] == in_process["aggregates"]
    assert on_cluster["aggregates"]["signatures"]
