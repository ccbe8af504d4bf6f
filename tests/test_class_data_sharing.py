"""The class-data sharing archives that shorten Spark's JVM start (conformance/campaign/class_data_sharing.py).

Building them takes a minute of Spark, so `make install` does it once; tests/test_campaign.py checks that the
driver's JVM of its session really maps the archive. These tests pin the cheap parts: which JVM is offered
which archive, that an unusable archive costs nothing but time, and that a machine without Java still installs."""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import pytest

from mq_conformance.conformance.campaign import class_data_sharing as cds
from tests_support import java_or_skip


def test_archives_are_offered_once_built_and_executors_get_theirs_only_on_local_cluster(tmp_path):
    assert cds.java_options("local[2]", tmp_path) == ("", "")
    (tmp_path / "driver.jsa").write_bytes(b"x")
    (tmp_path / "executor.jsa").write_bytes(b"x")
    driver, executor = cds.java_options("local[2]", tmp_path)
    assert f"-XX:SharedArchiveFile={tmp_path / 'driver.jsa'}" in driver and executor == ""
    driver, executor = cds.java_options("local-cluster[2,1,1024]", tmp_path)
    assert f"-XX:SharedArchiveFile={tmp_path / 'executor.jsa'}" in executor
    # On a real cluster the executors' machines do not have this machine's files.
    assert cds.java_options("spark://elsewhere:7077", tmp_path)[1] == ""


def test_an_empty_mqconf_spark_cds_dir_turns_the_archives_off(monkeypatch, tmp_path):
    (tmp_path / "driver.jsa").write_bytes(b"x")
    monkeypatch.setenv("MQCONF_SPARK_CDS_DIR", str(tmp_path))
    assert cds.archive(cds.DRIVER) == tmp_path / "driver.jsa"
    monkeypatch.setenv("MQCONF_SPARK_CDS_DIR", "")
    assert cds.directory() is None and cds.java_options("local[2]") == ("", "")
    assert cds.main([]) == 0


def test_a_jvm_given_an_archive_it_cannot_use_starts_and_says_nothing(tmp_path):
    java = java_or_skip()
    (tmp_path / "driver.jsa").write_bytes(b"not an archive")
    driver, _ = cds.java_options("local[2]", tmp_path)
    run = subprocess.run([java, *driver.split(), "-version"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0
    assert "warning" not in (run.stdout + run.stderr).lower() and "version" in run.stderr


def test_building_without_java_is_one_line_and_does_not_fail_the_install(monkeypatch, tmp_path, capsys):
    monkeypatch.delenv("JAVA_HOME", raising=False)
    monkeypatch.setenv("PATH", "/nonexistent")
    assert cds.main(["--dir", str(tmp_path / "archives")]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1 and out[0].startswith("class-data sharing archives not built") and "Java 17" in out[0]
    assert not (tmp_path / "archives").exists()


def test_a_folder_that_cannot_be_made_is_one_line(monkeypatch, tmp_path, capsys):
    java_or_skip()  # without it the build stops earlier, at the Java check
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert cds.main(["--dir", str(blocker / "archives")]) == 1
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1 and out[0].startswith("class-data sharing archives not built: cannot make")


def test_make_install_starts_no_jvm_and_make_spark_cds_builds_the_archives():
    make = shutil.which("make")
    if make is None:
        pytest.skip("needs `make`")
    root = Path(__file__).resolve().parents[1]
    install = subprocess.run([make, "-n", "-B", "install"], cwd=root, capture_output=True, text=True, timeout=60)
    assert install.returncode == 0, install.stderr
    commands = [line for line in install.stdout.splitlines() if not line.startswith(("echo ", "#"))]
    assert any("pip install" in line for line in commands)
    assert not [line for line in commands if "class_data_sharing" in line or "java" in line or "pyspark" in line]
    explicit = subprocess.run([make, "-n", "-B", "spark-cds"], cwd=root, capture_output=True, text=True, timeout=60)
    assert "-m mq_conformance.conformance.campaign.class_data_sharing" in explicit.stdout


@pytest.fixture
def first_use(monkeypatch, tmp_path):
    """ensure() as a campaign on a machine with Java sees it, building into tmp_path; the builds it asks for are
    recorded instead of run."""
    from mq_conformance.conformance.campaign import spark

    monkeypatch.setenv("MQCONF_SPARK_CDS_DIR", str(tmp_path))
    monkeypatch.setenv("MQCONF_SPARK_CDS_BUILD", "1")
    monkeypatch.setattr(spark, "java_version", lambda: 17)
    asked = []
    monkeypatch.setattr(cds, "build", lambda folder, roles, out, remember_failures: asked.append(
        (folder, roles, remember_failures)) or 0)
    return asked


def test_the_first_campaign_builds_only_the_missing_archives_its_master_maps_and_says_so(first_use, tmp_path):
    out = io.StringIO()
    cds.ensure("local[*]", out)
    assert first_use == [(tmp_path, (cds.DRIVER,), True)]
    assert out.getvalue().startswith("campaign: first use of Spark here: building class-data sharing archives")
    (tmp_path / "driver.jsa").write_bytes(b"x")
    cds.ensure("local-cluster[2,1,1024]", io.StringIO())
    assert first_use[-1] == (tmp_path, (cds.EXECUTOR,), True)
    (tmp_path / "executor.jsa").write_bytes(b"x")
    quiet = io.StringIO()
    cds.ensure("local-cluster[2,1,1024]", quiet)
    assert len(first_use) == 2 and quiet.getvalue() == ""


def test_a_build_that_failed_on_first_use_is_not_tried_again_by_every_campaign(first_use, tmp_path):
    (tmp_path / "driver.failed").write_text("no space left on device\n")
    cds.ensure("local[2]", io.StringIO())
    assert first_use == []


def test_no_build_on_first_use_when_turned_off_or_without_java(first_use, monkeypatch):
    from mq_conformance.conformance.campaign import spark
    from mq_conformance.conformance.campaign.run import CampaignError

    monkeypatch.setenv("MQCONF_SPARK_CDS_BUILD", "0")
    cds.ensure("local[2]", io.StringIO())
    monkeypatch.setenv("MQCONF_SPARK_CDS_BUILD", "1")
    monkeypatch.setenv("MQCONF_SPARK_CDS_DIR", "")
    cds.ensure("local[2]", io.StringIO())
    monkeypatch.delenv("MQCONF_SPARK_CDS_DIR")

    def no_java():
        raise CampaignError("no `java` found")

    monkeypatch.setattr(spark, "java_version", no_java)
    out = io.StringIO()
    cds.ensure("local[2]", out)  # the session says what to install, once
    assert first_use == [] and out.getvalue() == ""


def test_a_build_on_first_use_that_breaks_is_one_line_and_the_campaign_goes_on(first_use, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(cds, "build", broken)
    out = io.StringIO()
    cds.ensure("local[2]", out)  # does not raise
    last = out.getvalue().strip().splitlines()[-1]
    assert last == "class-data sharing archives not built: disk on fire; the campaign goes on without them"


def test_a_jvm_that_cannot_build_its_archive_leaves_a_marker_with_the_reason(monkeypatch, tmp_path):
    java_or_skip()  # without it nothing is built and nothing is remembered
    monkeypatch.setenv("MQCONF_SPARK_JAVA_OPTIONS", "-Xmx1k")  # too small a heap: the JVM cannot start
    # the failed JVM's log is kept for a reader (spark.py _jvm_log): here, in the test's own folder, not /tmp
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    out = io.StringIO()
    assert cds.build(tmp_path, (cds.DRIVER,), out=out, remember_failures=True) == 1
    lines = out.getvalue().strip().splitlines()
    assert lines[0].startswith("class-data sharing archive for the Spark driver: building")
    assert lines[-1].startswith("class-data sharing archive for the Spark driver not built: ")
    assert (tmp_path / "driver.failed").read_text().strip() and cds.archive(cds.DRIVER, tmp_path) is None
    assert not list(tmp_path.glob(".driver.*"))  # no half-written archive left behind
