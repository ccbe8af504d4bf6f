"""A campaign (``mqconf campaign``) in the report of ``mqconf run``: ``conformance.json`` holds a ``campaigns``
section that matches its schema and the summary's numbers; ``conformance.html`` shows it with inline SVG charts
(table rows covered per table, divergences per signature) that carry their labels as text, and each witness with
the command that runs it; a bad ``--campaign`` is one line and exit 2; without one, the run includes the latest
campaign of its adapter under reports/campaigns/ (a bad one skipped with a warning); ``--no-campaign`` includes
none.

Real campaigns run in process (``master="inprocess"``: no Spark); the rest use summaries written by hand.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
from pathlib import Path

import pytest
from test_cli import _assert_usage_error, _registry_read_once  # noqa: F401 (an autouse fixture: one registry read)
from test_report import CHROMIUM, ESCAPED, HOSTILE, SCENARIOS, _dump_dom, _json, _quick_run

from mq_conformance.conformance import cli
from mq_conformance.conformance.campaign.run import CampaignConfig, run_campaign
from mq_conformance.conformance.report import TOP_CLAUSES, validate_report

MUTANT = "mutant:table:put.logical-order.table1.row5:GroupId=MQGI_NONE"


@pytest.fixture(scope="module")
def campaigns(tmp_path_factory) -> dict[str, dict]:
    """Two small real campaigns, run once for the module: one on the model (no divergence), one on a mutant of a
    put table row (the groups area, where that row is decided)."""
    root = tmp_path_factory.mktemp("campaigns")
    return {adapter: run_campaign(CampaignConfig(adapter=adapter, sequences=8, length=6, seed=0, areas=("groups",)),
                                  root,
                                  master="inprocess", show_progress=False)
            for adapter in ("reference", MUTANT)}


def _folder(summary: dict) -> Path:
    return Path(summary["directory"])


def _run(output: Path, *options: str) -> int:
    """A scenario-only run of the close scenarios with extra ``mqconf run`` options, in process."""
    return cli.main(["run", "--adapter", "reference", "--output", str(output), "--scenarios", str(SCENARIOS / "close"),
                     *options])


def _summary(campaign: str = "hand-made", adapter: str = "reference", signatures: int = 0,
             clauses: int = 3) -> dict:
    """A summary.json of the shape ``mqconf campaign`` writes, made by hand."""
    sigs = [{"op": "put", "options": f"MQPMO_OPTION_{i}", "model_reason": "MQRC_NONE", "impl_reason": f"MQRC_{i}",
             "count": 100 - i, "slug": f"put-{i:010d}",
             "witness": {"sequence": i, "sequence_id": f"0:{i}", "length": 3}}
            for i in range(signatures)]
    return {
        "campaign": campaign, "directory": f"reports/campaigns/{campaign}",
        "config": {"adapter": adapter, "sequences": 50, "length": 10, "seed": 4, "areas": ["groups"],
                   "partition_size": 4, "corpus": None, "corpus_digest": None},
        "run": {"master": "local[2]", "partitions": 13, "partitions_run": 13, "partitions_skipped": 0, "seconds": 2.5},
        "aggregates": {
            "sequences": 50, "steps": 480, "divergent_sequences": sum(s["count"] for s in sigs), "signatures": sigs,
            "clauses": {f"clause.{i:03d}": i + 1 for i in range(clauses)},
            "coverage": {"clauses_applied": clauses, "clauses_total": 233, "table_rows_covered": 3,
                         "table_rows_total": 5},
            "table_rows": {"t.one": {"rows": 2, "covered": 2, "counts": {"t.one.row1": 4, "t.one.row2": 1}},
                           "t.two": {"rows": 3, "covered": 1, "counts": {"t.two.row1": 0, "t.two.row2": 7,
                                                                         "t.two.row3": 0}}},
        },
        "witnesses": {s["slug"]: f"reports/campaigns/{campaign}/witnesses/{s['slug']}.yaml" for s in sigs},
    }


def _write_campaign(root: Path, summary: dict | str | None, adapter: str, age: int, name: str | None = None) -> Path:
    """A campaign folder as ``mqconf campaign`` leaves it (settings, then summary.json unless ``summary`` is
    None, as after an interruption; a string is written as is), ``age`` seconds old."""
    folder = root / (name or summary["campaign"])
    folder.mkdir(parents=True)
    (folder / "campaign.json").write_text(json.dumps({"adapter": adapter}))
    stamp = os.path.getmtime(folder) - age
    if summary is not None:
        (folder / "summary.json").write_text(summary if isinstance(summary, str) else json.dumps(summary))
        os.utime(folder / "summary.json", (stamp, stamp))
    os.utime(folder, (stamp, stamp))
    return folder


def _svg(page: str, chart_id: str) -> str:
    found = re.search(rf'<svg [^>]*id="{re.escape(chart_id)}".*?</svg>', page, re.S)
    assert found, f"no chart {chart_id}"
    return found.group(0)


# -- conformance.json -------------------------------------------------------------------------------------------

def test_report_json_holds_the_campaign_numbers_signatures_and_witness_paths_and_matches_the_schema(
        campaigns, tmp_path, capsys):
    summary = campaigns[MUTANT]
    output = tmp_path / "run"
    assert _run(output, "--campaign", str(_folder(summary))) == 0
    assert f"campaign: {_folder(summary).resolve() / 'summary.json'}" in capsys.readouterr().out.splitlines()
    report = _json(output)
    validate_report(report)
    [section] = report["campaigns"]
    aggregates = summary["aggregates"]
    assert (section["id"], section["adapter"], section["master"]) == (summary["campaign"], MUTANT, "inprocess")
    assert (section["sequences"], section["length"], section["seed"]) == (8, 6, 0)
    assert section["steps"] == aggregates["steps"]
    assert section["divergent_sequences"] == aggregates["divergent_sequences"] > 0
    assert section["coverage"] == aggregates["coverage"]
    for table_id, table in aggregates["table_rows"].items():
        shown = section["tables"][table_id]
        assert (shown["rows"], shown["covered"]) == (table["rows"], table["covered"])
        assert len(shown["uncovered"]) == table["rows"] - table["covered"]
    slugs = [(s["slug"], s["count"]) for s in aggregates["signatures"]]
    assert [(s["slug"], s["count"]) for s in section["signatures"]] == slugs
    for signature in section["signatures"]:
        witness = signature["witness"]
        assert not Path(witness["path"]).is_absolute()  # relative to the report folder
        assert (output / witness["path"]).resolve() == Path(summary["witnesses"][signature["slug"]]).resolve()
        assert witness["command"] == (f"mqconf scenario {(output / witness['path']).resolve()} "
                                      f"--adapter {shlex.quote(MUTANT)}")
    assert (output / section["summary"]).resolve() == _folder(summary).resolve() / "summary.json"
    counts = [c["count"] for c in section["top_clauses"]]
    assert counts == sorted(counts, reverse=True) and section["clauses_counted"] == len(aggregates["clauses"])


def test_the_witness_command_in_the_report_fails_on_the_adapter_and_passes_on_the_model(campaigns, tmp_path, capsys):
    assert _run(tmp_path / "run", "--campaign", str(_folder(campaigns[MUTANT]))) == 0
    command = shlex.split(_json(tmp_path / "run")["campaigns"][0]["signatures"][0]["witness"]["command"])
    assert command[:2] == ["mqconf", "scenario"] and command[3:] == ["--adapter", MUTANT]
    assert cli.main(command[1:]) == 1
    assert cli.main(["scenario", command[2], "--adapter", "reference"]) == 0


def test_a_summary_json_file_given_directly_is_included_like_its_folder(campaigns, tmp_path):
    summary = campaigns["reference"]
    assert _run(tmp_path / "run", "--campaign", str(_folder(summary) / "summary.json"),
                "--campaign", str(_folder(campaigns[MUTANT]))) == 0
    report = _json(tmp_path / "run")
    assert [c["id"] for c in report["campaigns"]] == [summary["campaign"], campaigns[MUTANT]["campaign"]]
    assert report["campaigns"][0]["signatures"] == [] and report["campaigns"][0]["divergent_sequences"] == 0


def test_report_keeps_only_the_most_applied_clauses_but_every_signature(tmp_path):
    campaign = _write_campaign(tmp_path, _summary(signatures=30, clauses=300), "reference", 0)
    assert _run(tmp_path / "run", "--campaign", str(campaign)) == 1  # its divergences fail the run
    report = _json(tmp_path / "run")
    validate_report(report)
    [section] = report["campaigns"]
    assert len(section["signatures"]) == 30 and section["clauses_counted"] == 300
    assert [c["id"] for c in section["top_clauses"]] == [f"clause.{i:03d}" for i in range(299, 299 - TOP_CLAUSES, -1)]
    assert section["tables"]["t.two"] == {"rows": 3, "covered": 1, "uncovered": ["t.two.row1", "t.two.row3"]}
    assert section["signatures"][0]["witness"]["path"] is not None  # recorded, though the file is not there


def test_report_rebuilt_later_shows_the_campaign_the_run_included(tmp_path, capsys):
    campaign = _write_campaign(tmp_path / "campaigns", _summary(signatures=2), "reference", 0)
    assert _run(tmp_path / "run", "--campaign", str(campaign)) == 1
    before = _json(tmp_path / "run")["campaigns"]
    shutil.rmtree(campaign)
    assert cli.main(["report", str(tmp_path / "run")]) == 0
    assert _json(tmp_path / "run")["campaigns"] == before


# -- conformance.html -------------------------------------------------------------------------------------------

def test_html_campaign_section_draws_table_coverage_and_signature_charts_with_text_labels(campaigns, tmp_path):
    summary = campaigns[MUTANT]
    assert _run(tmp_path / "run", "--campaign", str(_folder(summary))) == 0
    page = (tmp_path / "run" / "conformance.html").read_text()
    section = _json(tmp_path / "run")["campaigns"][0]
    assert '<h2 id="campaign">Campaign</h2>' in page and summary["campaign"] in page
    tables = _svg(page, "campaign-1-tables")
    assert "<title" in tables and "Table rows covered" in tables
    for table_id, table in section["tables"].items():
        assert f">{table_id}</text>" in tables and f">{table['covered']}/{table['rows']}</text>" in tables
    signatures = _svg(page, "campaign-1-signatures")
    first = section["signatures"][0]
    assert first["fields"]  # the chart's label names the fields the call differs in
    assert (f"#1 put in {first['fields']}: model MQRC_NONE, adapter MQRC_NONE"[:60] in signatures
            and f">{first['count']}</text>" in signatures)
    assert page.count('<tr class="signature"') == len(section["signatures"])
    assert first["witness"]["path"] in page and "mqconf scenario " in page
    assert (f"of {section['coverage']['table_rows_total']}" in page
            and f"{section['divergent_sequences']} of 8" in page)  # the headline numbers
    assert "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "") and "https://" not in page


def test_html_says_there_was_no_divergence_instead_of_a_signature_chart(campaigns, tmp_path):
    assert _run(tmp_path / "run", "--campaign", str(_folder(campaigns["reference"]))) == 0
    page = (tmp_path / "run" / "conformance.html").read_text()
    assert "No divergence in 8 sequences" in page and 'id="campaign-1-signatures"' not in page
    assert 'id="campaign-1-tables"' in page


def test_hostile_strings_in_a_campaign_summary_are_shown_as_text(tmp_path):
    summary = _summary(campaign="evil", signatures=1)
    summary["aggregates"]["signatures"][0].update(op=HOSTILE, impl_reason=HOSTILE, options=HOSTILE)
    summary["aggregates"]["table_rows"][HOSTILE] = {"rows": 1, "covered": 0, "counts": {HOSTILE: 0}}
    summary["aggregates"]["clauses"][HOSTILE] = 999
    summary["config"]["areas"] = [HOSTILE]
    campaign = _write_campaign(tmp_path, summary, "reference", 0)
    assert _run(tmp_path / "run", "--campaign", str(campaign)) == 1
    page = (tmp_path / "run" / "conformance.html").read_text()
    assert HOSTILE not in page and ESCAPED in _svg(page, "campaign-1-signatures") and ESCAPED in _svg(
        page, "campaign-1-tables")


@pytest.mark.skipif(CHROMIUM is None, reason="no chromium on this machine; the browser check did not run")
def test_campaign_charts_render_in_a_real_browser(campaigns, tmp_path):
    assert _run(tmp_path / "run", "--campaign", str(_folder(campaigns[MUTANT]))) == 0
    dom = _dump_dom(tmp_path / "run" / "conformance.html")
    assert 'data-rendered="ok"' in dom and 'data-script-errors="' not in dom
    assert 'id="campaign-1-tables"' in dom and 'id="campaign-1-signatures"' in dom


# -- which campaigns a run includes ----------------------------------------------------------------------------

@pytest.mark.parametrize(("make", "fragment"), [
    (lambda d: d / "absent", "no such file"),
    (lambda d: d, "no summary.json in that folder"),
    (lambda d: (d / "summary.json").write_text('{"campaign": ') and d, "summary.json:1: not JSON"),
    (lambda d: (d / "summary.json").write_text(json.dumps({**_summary(), "campaign": 1})) and d,
     "not a campaign summary ($.campaign: 1 is not of type 'string')"),
    (lambda d: (d / "summary.json").write_text(json.dumps({**_summary(), "aggregates": {}})) and d,
     "not a campaign summary ($.aggregates"),
], ids=["missing", "folder-without-summary", "not-json", "wrong-type", "missing-keys"])
def test_an_explicit_bad_campaign_is_one_line_and_exit_2_before_anything_runs(tmp_path, capsys, make, fragment):
    target = make(tmp_path)
    output = tmp_path / "run"
    status = _run(output, "--campaign", str(target))
    _assert_usage_error(status, capsys.readouterr().err, fragment)
    assert not output.exists()


def test_without_campaign_option_the_run_includes_the_latest_campaign_of_its_adapter(tmp_path, monkeypatch, capsys):
    root = tmp_path / "reports" / "campaigns"
    _write_campaign(root, _summary("older"), "reference", 300)
    _write_campaign(root, _summary("newer", signatures=1), "reference", 100)
    _write_campaign(root, _summary("other-adapter", adapter=MUTANT), MUTANT, 0)  # newer still, another adapter
    monkeypatch.chdir(tmp_path)
    assert _quick_run(tmp_path / "run", "reference", "close", campaigns=()) == 1  # newer's divergence counts
    assert "campaign: reports/campaigns/newer/summary.json" in capsys.readouterr().out.splitlines()
    assert [c["id"] for c in _json(tmp_path / "run")["campaigns"]] == ["newer"]


def test_a_latest_campaign_that_cannot_be_read_is_skipped_with_a_one_line_warning(tmp_path, monkeypatch, capsys):
    root = tmp_path / "reports" / "campaigns"
    _write_campaign(root, _summary("finished"), "reference", 300)
    _write_campaign(root, None, "reference", 0, name="interrupted")
    _write_campaign(root, "{", "reference", 100, name="broken")
    monkeypatch.chdir(tmp_path)
    assert _quick_run(tmp_path / "run", "reference", "close", campaigns=()) == 0
    warnings = capsys.readouterr().err.splitlines()
    assert len(warnings) == 2 and all(w.startswith("mqconf: warning: campaign skipped: ") for w in warnings)
    assert "interrupted" in warnings[0] and "broken" in warnings[1]
    assert [c["id"] for c in _json(tmp_path / "run")["campaigns"]] == ["finished"]


def test_no_campaign_option_leaves_the_campaign_out(tmp_path, monkeypatch):
    _write_campaign(tmp_path / "reports" / "campaigns", _summary(), "reference", 0)
    monkeypatch.chdir(tmp_path)
    assert _run(tmp_path / "run") == 0 and _json(tmp_path / "run")["campaigns"]
    # the same folder again, replacing the earlier run: its campaign copy must not stay
    assert _run(tmp_path / "run", "--no-campaign", "--replace") == 0
    report = _json(tmp_path / "run")
    validate_report(report)
    assert report["campaigns"] == [] and not (tmp_path / "run" / "campaigns.json").exists()
    assert "No campaign in this report" in (tmp_path / "run" / "conformance.html").read_text()


def test_campaign_and_no_campaign_together_are_a_usage_error(tmp_path, capsys):
    with pytest.raises(SystemExit) as stopped:
        _run(tmp_path / "run", "--campaign", str(tmp_path), "--no-campaign")
    assert stopped.value.code == 2 and "not allowed with argument" in capsys.readouterr().err


def test_divergences_of_a_campaign_of_this_implementation_fail_the_run_and_another_adapters_do_not(tmp_path):
    own = _write_campaign(tmp_path / "own", _summary("own", signatures=2), "reference", 0)
    other = _write_campaign(tmp_path / "other", _summary("other", adapter=MUTANT, signatures=2), MUTANT, 0)
    assert _run(tmp_path / "a", "--campaign", str(other)) == 0
    assert _json(tmp_path / "a")["verdict"]["status"] == "passed"
    assert _run(tmp_path / "b", "--campaign", str(own)) == 1
    report = _json(tmp_path / "b")
    assert report["verdict"]["counts"]["campaign_signatures"] == 2
    assert "2 campaign divergence signatures" in report["verdict"]["headline"]
    failure = next(f for f in report["failures"] if f["kind"] == "campaign")
    assert failure["id"] == "own/put-0000000000" and "model MQRC_NONE, implementation MQRC_0" in failure["message"]
    assert "2 campaign divergence signatures" in (tmp_path / "b" / "summary.md").read_text()


def test_the_matrix_shows_each_runs_campaigns_beside_the_others(campaigns, tmp_path, capsys):
    with_campaign, without = tmp_path / "with", tmp_path / "without"
    assert _run(with_campaign, "--campaign", str(_folder(campaigns[MUTANT]))) == 0
    assert _run(without, "--no-campaign") == 0
    capsys.readouterr()
    assert cli.main(["matrix", str(with_campaign), str(without), "--output", str(tmp_path / "matrix.html")]) == 0
    page = (tmp_path / "matrix.html").read_text()
    campaigns_table = page[page.index('id="campaigns"'):page.index('id="clauses"')]
    summary = campaigns[MUTANT]
    assert summary["campaign"] in campaigns_table and "no campaign" in campaigns_table
    divergent = summary["aggregates"]["divergent_sequences"]
    assert f"{divergent:,} ({len(summary['aggregates']['signatures'])})" in campaigns_table
