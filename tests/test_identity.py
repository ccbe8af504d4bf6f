"""Every result says who answered and which suite asked: a run and a campaign record the implementation's hello,
the suite (version, commit, fixtures hash), the profile and the command; a campaign folder resumes only when the
identity it recorded is the one at hand, else one line says what differs."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from mq_conformance.conformance import cli

SERVER = Path(__file__).parent / "servers" / "protocol1_first_published.py"


def _server_script(folder: Path, version: str) -> Path:
    script = folder / "srv.sh"
    script.write_text(f"#!/bin/sh\nMQCONF_TEST_SERVER_VERSION={version} exec {sys.executable} {SERVER}\n")
    script.chmod(0o755)
    return script


def test_a_campaign_folder_of_another_implementation_is_not_resumed_and_one_line_says_what_differs(tmp_path,
                                                                                                     capsys):
    script = _server_script(tmp_path, "1.0")
    command = ["campaign", "--adapter", f"jsonlines:{script}", "--sequences", "8", "--length", "5", "--areas",
               "queues", "--master", "inprocess", "--output", str(tmp_path / "campaigns"), "--id", "c"]
    assert cli.main(command) in (0, 1)
    recorded = json.loads((tmp_path / "campaigns" / "c" / "campaign.json").read_text())["identity"]
    assert recorded["implementation"]["version"] == "1.0"
    assert recorded["implementation"]["hello"]["language"] == "Python"
    assert set(recorded["suite"]) == {"version", "commit", "fixtures_hash", "code_hash"}
    summary = json.loads((tmp_path / "campaigns" / "c" / "summary.json").read_text())
    assert summary["identity"] == recorded
    assert summary["run"]["command"].startswith("mqconf campaign --adapter")
    capsys.readouterr()

    _server_script(tmp_path, "2.0")  # the same command now reaches another implementation
    assert cli.main(command) == 2
    out, err = capsys.readouterr()
    assert "partitions" not in out
    [line] = err.strip().splitlines()
    assert "holds a campaign of another implementation or suite, not resumed" in line
    assert "implementation.hello.version '1.0' then, '2.0' now" in line
    assert "implementation.version '1.0' then, '2.0' now" in line

    _server_script(tmp_path, "1.0")  # the implementation that made it: resumed, nothing run again
    assert cli.main(command) in (0, 1)
    assert "partitions 0 run, 8 already done" in capsys.readouterr().out


def test_without_an_id_another_implementation_or_suite_gets_a_campaign_of_its_own_and_each_resumes(tmp_path,
                                                                                                     capsys):
    """The default campaign id names the identity too: ``make conformance`` after an upgrade of the suite (or the
    same command reaching another implementation) starts a new campaign instead of refusing the old folder; the
    old one stays, and each resumes when what answers and what asks are the same again."""
    script = _server_script(tmp_path, "1.0")
    campaigns = tmp_path / "campaigns"
    command = ["campaign", "--adapter", f"jsonlines:{script}", "--sequences", "4", "--length", "5", "--areas",
               "queues", "--master", "inprocess", "--output", str(campaigns)]
    assert cli.main(command) in (0, 1)
    [first] = [f.name for f in campaigns.iterdir() if f.is_dir()]
    capsys.readouterr()
    _server_script(tmp_path, "2.0")
    assert cli.main(command) in (0, 1)
    assert "partitions 4 run, 0 already done" in capsys.readouterr().out
    folders = sorted(f.name for f in campaigns.iterdir() if f.is_dir())
    assert len(folders) == 2 and first in folders
    versions = {json.loads((campaigns / f / "campaign.json").read_text())["identity"]["implementation"]["version"]
                for f in folders}
    assert versions == {"1.0", "2.0"}
    _server_script(tmp_path, "1.0")
    assert cli.main(command) in (0, 1)
    assert "partitions 0 run, 4 already done" in capsys.readouterr().out
    assert len([f for f in campaigns.iterdir() if f.is_dir()]) == 2


def test_the_same_command_after_the_suites_code_changed_starts_a_campaign_of_its_own(tmp_path, capsys,
                                                                                     monkeypatch):
    """Edited code at the same commit and version (a generator or model changed in a checkout) is another suite:
    the campaign it draws is its own, never the stored one of the older code resumed."""
    from mq_conformance.conformance import report

    script = _server_script(tmp_path, "1.0")
    campaigns = tmp_path / "campaigns"
    command = ["campaign", "--adapter", f"jsonlines:{script}", "--sequences", "4", "--length", "5", "--areas",
               "queues", "--master", "inprocess", "--output", str(campaigns)]
    assert cli.main(command) in (0, 1)
    capsys.readouterr()
    monkeypatch.setattr(report, "code_hash", lambda: "0" * 16)
    assert cli.main(command) in (0, 1)
    assert "partitions 4 run, 0 already done" in capsys.readouterr().out
    assert len([f for f in campaigns.iterdir() if f.is_dir()]) == 2


def test_a_run_records_and_shows_the_implementations_hello_the_suite_and_the_command(tmp_path):
    script = _server_script(tmp_path, "3.1")
    scenario = Path(cli.fixtures.SCENARIOS) / "put" / "put-logical-order-group-of-two.yaml"
    argv = ["run", "--adapter", f"jsonlines:{script}", "--scenarios", str(scenario), "--no-campaign",
            "--output", str(tmp_path / "run")]
    cli.main(argv)
    meta = json.loads((tmp_path / "run" / "run.json").read_text())
    assert meta["command"] == "mqconf " + " ".join(argv)
    assert meta["adapter"]["hello"] == {"name": "protocol-1-as-first-published", "language": "Python",
                                        "version": "3.1"}
    assert meta["adapter"]["protocol"] == 1
    report = json.loads((tmp_path / "run" / "conformance.json").read_text())
    assert report["command"] == meta["command"] and report["adapter"]["hello"]["version"] == "3.1"
    summary = (tmp_path / "run" / "summary.md").read_text()
    assert ("Implementation: protocol-1-as-first-published 3.1; language Python; protocol 1; claims browse-mark, "
            "cluster, core, groups, segmentation, units-of-work.") in summary
    assert "Command: `mqconf run --adapter" in summary
    html = (tmp_path / "run" / "conformance.html").read_text()
    assert "protocol-1-as-first-published 3.1; language Python; protocol 1" in html
    assert f"<td>command</td><td>mqconf run --adapter jsonlines:{script}" in html


def test_a_program_swapped_behind_the_same_hello_is_not_resumed_and_the_line_names_the_program(tmp_path, capsys):
    """The campaign of the issue: srv.sh switched to a broken implementation that greets exactly as before. The
    fingerprint of the program the command names (conformance/identity.py) tells them apart."""
    own_ids = Path(__file__).parent / "servers" / "own_ids.py"
    script = tmp_path / "srv.sh"
    script.write_text(f"#!/bin/sh\nexec {sys.executable} {own_ids}\n")
    script.chmod(0o755)
    command = ["campaign", "--adapter", f"jsonlines:{script}", "--sequences", "4", "--length", "5", "--areas",
               "queues", "--master", "inprocess", "--output", str(tmp_path / "campaigns"), "--id", "c"]
    assert cli.main(command) in (0, 1)
    recorded = json.loads((tmp_path / "campaigns" / "c" / "campaign.json").read_text())["identity"]
    assert recorded["implementation"]["program"] == {str(script.resolve()): recorded["implementation"]["program"][
        str(script.resolve())]} and recorded["implementation"]["program"][str(script.resolve())].startswith("sha256:")
    capsys.readouterr()

    script.write_text(f"#!/bin/sh\nMQCONF_TEST_MUTANT=new-msg-id-ignored exec {sys.executable} {own_ids}\n")
    assert cli.main(command) == 2
    out, err = capsys.readouterr()
    [line] = err.strip().splitlines()
    assert "holds a campaign of another implementation or suite, not resumed" in line, line
    assert f"implementation.program.{script.resolve()} 'sha256:" in line and "version" not in line, line
    assert "partitions" not in out


def test_the_fingerprint_reads_only_regular_files_the_command_names_and_never_a_fifo(tmp_path):
    import os
    from types import SimpleNamespace

    from mq_conformance.conformance.identity import program_fingerprint

    fifo, script = tmp_path / "fifo", tmp_path / "server.js"
    os.mkfifo(fifo)  # opening it for reading would block until a writer came
    script.write_text("console.log('hello')\n")
    adapter = SimpleNamespace(command=["node-that-is-not-installed", str(script), str(fifo), "--port", str(tmp_path)])
    assert program_fingerprint(adapter) == {str(script.resolve()): program_fingerprint(adapter)[str(script.resolve())]}


def test_a_run_counts_a_campaign_only_of_the_implementation_it_certifies(tmp_path, capsys):
    """The same --adapter string now reaches another program: the campaign it names was of the old one, so the
    run shows it, says what differs, and counts none of its signatures."""
    own_ids = Path(__file__).parent / "servers" / "own_ids.py"
    script = tmp_path / "srv.sh"
    script.write_text(f"#!/bin/sh\nMQCONF_TEST_MUTANT=new-msg-id-ignored exec {sys.executable} {own_ids}\n")
    script.chmod(0o755)
    adapter = f"jsonlines:{script}"
    assert cli.main(["campaign", "--adapter", adapter, "--sequences", "40", "--areas", "matching", "--master",
                     "inprocess", "--output", str(tmp_path / "campaigns"), "--id", "c"]) == 1
    scenario = Path(cli.fixtures.SCENARIOS) / "put" / "put-logical-order-group-of-two.yaml"
    run = ["run", "--adapter", adapter, "--scenarios", str(scenario), "--campaign", str(tmp_path / "campaigns" / "c")]
    assert cli.main([*run, "--output", str(tmp_path / "same")]) == 1  # the broken program: its campaign counts
    same = json.loads((tmp_path / "same" / "conformance.json").read_text())
    assert same["verdict"]["counts"]["campaign_signatures"] > 0 and not same["campaigns"][0]["identity_differs"]

    script.write_text(f"#!/bin/sh\nexec {sys.executable} {own_ids}\n")  # fixed, greeting as before
    capsys.readouterr()
    assert cli.main([*run, "--output", str(tmp_path / "other")]) == 0
    other = json.loads((tmp_path / "other" / "conformance.json").read_text())
    assert other["verdict"]["counts"]["campaign_signatures"] == 0
    assert not [f for f in other["failures"] if f["kind"] == "campaign"]
    [differs] = other["campaigns"][0]["identity_differs"]
    assert differs.startswith(f"implementation.program.{script.resolve()} 'sha256:")
    summary = (tmp_path / "other" / "summary.md").read_text()
    assert "of another implementation than this run's (shown, not counted)" in summary
    assert "of another implementation than this run's (shown, not counted)" in (
        tmp_path / "other" / "conformance.html").read_text()
