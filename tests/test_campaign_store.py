"""The campaign folder on any filesystem pyarrow reaches (conformance/campaign/store.py): a campaign written
through a ``file://`` URI is the campaign written to the same local path, its summary and witnesses readable from
there; an unreachable or unsupported location is one line (exit 2), never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.campaign.run import CampaignConfig, run_campaign
from conformance.campaign.store import CampaignError, Store, join
from conformance.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]
MUTANT = "mutant:table:put.logical-order.table1.row5:GroupId=MQGI_NONE"


def test_a_campaign_through_a_file_uri_is_the_campaign_on_the_local_path(tmp_path):
    config = CampaignConfig(adapter=MUTANT, sequences=12, length=8, seed=1, areas=("groups",), partition_size=4)
    local = run_campaign(config, tmp_path / "local", campaign_id="c", master="inprocess", show_progress=False)
    uri = (tmp_path / "uri").as_uri()
    remote = run_campaign(config, uri, campaign_id="c", master="inprocess", show_progress=False)
    assert remote["aggregates"] == local["aggregates"] and remote["aggregates"]["signatures"]
    assert remote["directory"] == f"{uri}/c"
    stored = Store(remote["directory"]).summary()
    assert stored["aggregates"] == local["aggregates"]
    for slug, witness in remote["witnesses"].items():
        assert witness == f"{uri}/c/{stored['witnesses'][slug]}"
        assert load_scenario(tmp_path / "uri" / "c" / stored["witnesses"][slug]).steps
    # the same layout on disk: settings, a Parquet file and a done-marker per partition, nothing written aside left
    files = sorted(str(p.relative_to(tmp_path / "uri" / "c")) for p in (tmp_path / "uri" / "c").rglob("*") if p.is_file())
    assert [f for f in files if not f.startswith("witnesses/")] == [
        "campaign.json", *(f"done/part-{k}" for k in range(3)),
        *(f"steps/part={k}/part-00000.parquet" for k in range(3)), "summary.json"]


def test_a_resumed_campaign_on_a_uri_redoes_only_unmarked_partitions(tmp_path):
    config = CampaignConfig(adapter="reference", sequences=9, length=5, seed=2, areas=("groups",), partition_size=3)
    uri = (tmp_path / "runs").as_uri()
    with pytest.raises(KeyboardInterrupt):
        run_campaign(config, uri, campaign_id="c", master="inprocess", show_progress=False, stop_after=1)
    store = Store(join(uri, "c"))
    assert store.finished() == {0}
    store.write_text("half a partition", "steps", "part=2", "part-00000.parquet")  # interrupted mid-write
    resumed = run_campaign(config, uri, campaign_id="c", master="inprocess", show_progress=False)
    assert resumed["run"]["partitions_run"] == 2 and resumed["run"]["partitions_skipped"] == 1
    whole = run_campaign(config, tmp_path / "whole", campaign_id="c", master="inprocess", show_progress=False)
    assert resumed["aggregates"] == whole["aggregates"]


def test_join_keeps_a_uris_query_at_the_end():
    assert join("s3://bucket/runs?endpoint_override=h:9000&scheme=http", "c", "summary.json") == \
        "s3://bucket/runs/c/summary.json?endpoint_override=h:9000&scheme=http"
    assert join("file:///tmp/runs/", "c") == "file:///tmp/runs/c"
    assert join("reports/campaigns", "c") == str(Path("reports/campaigns/c"))


@pytest.mark.parametrize("location, said", [
    ("nosuch://x/runs", "Unrecognized filesystem type"),
    ("s3://bucket/runs?endpoint_override=127.0.0.1:1&scheme=http", "127.0.0.1:1"),
])
def test_an_unreachable_or_unsupported_location_is_one_line(tmp_path, location, said):
    result = subprocess.run([sys.executable, "-m", "conformance.cli", "campaign", "--master", "inprocess",
                             "--sequences", "2", "--length", "3", "--output", location],
                            cwd=tmp_path, capture_output=True, text=True, timeout=120,
                            env={**__import__("os").environ, "AWS_EC2_METADATA_DISABLED": "true",
                                 "AWS_ACCESS_KEY_ID": "x", "AWS_SECRET_ACCESS_KEY": "x"})
    errors = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    assert len(errors) == 1 and errors[0].startswith("mqconf: ") and said in errors[0], errors
    with pytest.raises(CampaignError):
        Store(location).prepare(CampaignConfig(sequences=2, length=3))


def test_the_summary_written_to_a_uri_names_its_files_relative_to_the_folder(tmp_path):
    config = CampaignConfig(adapter=MUTANT, sequences=4, length=6, seed=0, areas=("groups",))
    uri = (tmp_path / "u").as_uri()
    summary = run_campaign(config, uri, campaign_id="c", master="inprocess", show_progress=False)
    stored = json.loads((tmp_path / "u" / "c" / "summary.json").read_text())
    assert "directory" not in stored and stored["campaign"] == summary["campaign"] == "c"
    assert all(path.startswith("witnesses/") for path in stored["witnesses"].values())
