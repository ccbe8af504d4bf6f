"""The campaign folder on any filesystem pyarrow reaches (conformance/campaign/store.py): a campaign written
through a ``file://`` URI is the campaign written to the same local path, its summary and witnesses readable from
there; an unreachable or unsupported location is one line (exit 2), never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mq_conformance.conformance.campaign.run import CampaignConfig, run_campaign
from mq_conformance.conformance.campaign.store import CampaignError, Store, join
from mq_conformance.conformance.scenario import load_scenario

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
    result = subprocess.run([sys.executable, "-m", "mq_conformance.conformance.cli", "campaign", "--master", "inprocess",
                             "--sequences", "2", "--length", "3", "--output", location],
                            cwd=tmp_path, capture_output=True, text=True, timeout=120,
                            env={**__import__("os").environ, "AWS_EC2_METADATA_DISABLED": "true",
                                 "AWS_ACCESS_KEY_ID": "x", "AWS_SECRET_ACCESS_KEY": "x"})
    errors = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    assert len(errors) == 1 and errors[0].startswith("mqconf: ") and said in errors[0], errors


def test_an_unsupported_location_is_a_campaign_error_when_the_store_is_built():
    with pytest.raises(CampaignError, match="nosuch://x/runs: cannot reach this campaign location"):
        Store("nosuch://x/runs")


def test_the_summary_written_to_a_uri_names_its_files_relative_to_the_folder(tmp_path):
    config = CampaignConfig(adapter=MUTANT, sequences=4, length=6, seed=0, areas=("groups",))
    uri = (tmp_path / "u").as_uri()
    summary = run_campaign(config, uri, campaign_id="c", master="inprocess", show_progress=False)
    stored = json.loads((tmp_path / "u" / "c" / "summary.json").read_text())
    assert "directory" not in stored and stored["campaign"] == summary["campaign"] == "c"
    assert all(path.startswith("witnesses/") for path in stored["witnesses"].values())


# -- a real S3 endpoint (moto's server on 127.0.0.1; tests/conftest.py s3_campaigns) -------------------------------

def test_a_campaign_on_s3_gives_the_local_aggregates_and_its_summary_is_read_back_from_there(s3_campaigns, tmp_path):
    config = CampaignConfig(adapter=MUTANT, sequences=12, length=8, seed=1, areas=("groups",), partition_size=4)
    on_s3 = run_campaign(config, s3_campaigns, campaign_id="c", master="inprocess", show_progress=False)
    local = run_campaign(config, tmp_path, campaign_id="c", master="inprocess", show_progress=False)
    assert on_s3["aggregates"] == local["aggregates"] and on_s3["aggregates"]["signatures"]
    store = Store(join(s3_campaigns, "c"))
    assert store.summary()["aggregates"] == local["aggregates"]
    assert store.finished() == {0, 1, 2} and sorted(store.listing("steps", "part=1")) == ["part-00000.parquet"]
    # a re-run resumes it: every partition is done
    again = run_campaign(config, s3_campaigns, campaign_id="c", master="inprocess", show_progress=False)
    assert again["run"]["partitions_skipped"] == 3 and again["aggregates"] == local["aggregates"]


def test_a_run_includes_a_campaign_on_s3_with_its_witnesses_copied_into_the_run(s3_campaigns, tmp_path, capsys):
    from mq_conformance.conformance import cli

    config = CampaignConfig(adapter=MUTANT, sequences=8, length=6, seed=0, areas=("groups",))
    run_campaign(config, s3_campaigns, campaign_id="w", master="inprocess", show_progress=False)
    output = tmp_path / "run"
    assert cli.main(["run", "--adapter", "reference", "--output", str(output), "--scenarios",
                     str(ROOT / "fixtures" / "scenarios" / "close"), "--campaign", join(s3_campaigns, "w")]) == 0
    printed = capsys.readouterr().out
    assert "test:***@" in printed and "test:test@" not in printed  # the URI's secret is not printed
    [section] = json.loads((output / "conformance.json").read_text())["campaigns"]
    assert section["id"] == "w" and section["summary"].endswith("/w/summary.json?" + s3_campaigns.split("?")[1])
    for signature in section["signatures"]:
        witness = output / signature["witness"]["path"]
        assert witness.is_relative_to(output / "campaign-witnesses") and load_scenario(witness).steps
        assert cli.main(["scenario", str(witness), "--adapter", MUTANT]) == 1
        assert cli.main(["scenario", str(witness), "--adapter", "reference"]) == 0


def test_a_campaign_uri_with_no_summary_is_one_line_and_exit_2(s3_campaigns, tmp_path, capsys):
    from mq_conformance.conformance import cli

    status = cli.main(["run", "--adapter", "reference", "--output", str(tmp_path / "run"), "--scenarios",
                       str(ROOT / "fixtures" / "scenarios" / "close"), "--campaign", join(s3_campaigns, "nothing")])
    errors = capsys.readouterr().err.splitlines()
    assert status == 2 and len(errors) == 1 and "no summary.json there" in errors[0] and "test:test@" not in errors[0]
