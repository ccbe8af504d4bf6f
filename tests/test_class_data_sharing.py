"""The class-data sharing archives that shorten Spark's JVM start (conformance/campaign/class_data_sharing.py).

Building them takes a minute of Spark, so `make install` does it once; tests/test_campaign.py checks that the
driver's JVM of its session really maps the archive. These tests pin the cheap parts: which JVM is offered
which archive, that an unusable archive costs nothing but time, and that a machine without Java still installs."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from conformance.campaign import class_data_sharing as cds


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
    java = shutil.which("java")
    if java is None:
        pytest.skip("needs `java` on PATH")
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
    if shutil.which("java") is None:
        pytest.skip("needs `java` on PATH (without it the build stops earlier, at the Java check)")
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert cds.main(["--dir", str(blocker / "archives")]) == 1
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1 and out[0].startswith("class-data sharing archives not built: cannot make")
