"""The distributed path for real: on Spark's ``local-cluster[2,1,1024]`` master two separate executor processes
replay the campaign, and its aggregates are exactly those of the in-process loop (and so of local[2], which
tests/test_campaign.py checks against the same loop): nothing depends on driver-side state."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.campaign.run import CampaignConfig, run_campaign
from tests_support import java_or_skip

ROOT = Path(__file__).resolve().parents[1]
MUTANT = "mutant:table:put.logical-order.table1.row5:GroupId=MQGI_NONE"


@pytest.mark.slow
@pytest.mark.xdist_group("spark-cluster")  # beside the local[2] module's worker, not behind it
def test_local_cluster_gives_the_same_aggregates_as_in_process(tmp_path):
    java_or_skip()
    args = ["--adapter", MUTANT, "--sequences", "48", "--length", "12", "--seed", "3", "--partition-size", "12"]
    result = subprocess.run([sys.executable, "-m", "conformance.cli", "campaign", *args, "--id", "cluster",
                             "--master", "local-cluster[2,1,1024]", "--output", str(tmp_path)],
                            cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert result.returncode == 1, result.stdout + result.stderr  # 1: divergences found
    assert "DIVERGENCE" in result.stdout and "Traceback" not in result.stderr
    on_cluster = json.loads((tmp_path / "cluster" / "summary.json").read_text())
    config = CampaignConfig(adapter=MUTANT, sequences=48, length=12, seed=3, partition_size=12)
    in_process = run_campaign(config, tmp_path, campaign_id="local", master="inprocess")
    assert on_cluster["run"]["master"] == "local-cluster[2,1,1024]"
    assert on_cluster["aggregates"] == in_process["aggregates"]
    assert on_cluster["aggregates"]["signatures"]
