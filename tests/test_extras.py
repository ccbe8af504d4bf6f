"""What the base install leaves out, and what a command that needs it says: the base install certifies a JSON-lines
implementation without Spark or IBM's package; ``[spark]`` brings campaigns, ``[ibmmq]`` the emulator and the IBM
MQ adapters. The ranges in pyproject.toml exclude the versions known to break and accept the pins of
constraints.txt (what ``make install`` installs)."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from mq_conformance.conformance import cli

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def _names(requirements: list[str]) -> set[str]:
    return {Requirement(line).name.lower() for line in requirements}


def _pins() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, version = line.partition("==")
            pins[name.lower()] = version
    return pins


def test_the_base_install_has_no_spark_and_no_ibm_package():
    base = _names(PROJECT["dependencies"])
    assert not base & {"pyspark", "pyarrow", "ibmmq", "pymqi", "pytest-xdist", "moto"}, base
    extras = PROJECT["optional-dependencies"]
    assert _names(extras["spark"]) == {"pyspark", "pyarrow"}
    assert _names(extras["ibmmq"]) == {"ibmmq"}


def test_the_ranges_exclude_pytest_9_2_and_accept_every_pin_of_constraints_txt():
    requirements = [Requirement(line) for group in (PROJECT["dependencies"], *PROJECT["optional-dependencies"].values())
                    for line in group]
    pins = _pins()
    (pytest_range,) = [r for r in requirements if r.name == "pytest"]
    assert "9.2.0" not in pytest_range.specifier and "9.2.1" not in pytest_range.specifier
    for requirement in requirements:
        assert requirement.name.lower() in pins, f"{requirement.name} is not pinned in constraints.txt"
        assert pins[requirement.name.lower()] in requirement.specifier, (requirement, pins[requirement.name.lower()])


@pytest.mark.parametrize(("missing", "arguments", "named"), [
    ("pyspark", ["--master", "local[1]"], "pyspark"),
    ("pyarrow", ["--master", "inprocess"], "pyarrow"),
])
def test_a_campaign_without_the_spark_extra_is_one_line_naming_it(tmp_path, capsys, monkeypatch, missing,
                                                                    arguments, named):
    monkeypatch.setitem(sys.modules, missing, None)  # as if not installed
    output = tmp_path / "campaigns"
    assert cli.main(["campaign", "--sequences", "2", "--output", str(output), *arguments]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and named in err and "install mq-conformance[spark]" in err, err
    assert not output.exists()


def test_a_run_including_a_campaign_at_a_uri_without_pyarrow_is_one_line_naming_the_extra(tmp_path, capsys,
                                                                                         monkeypatch):
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    status = cli.main(["run", "--campaign", "s3://bucket/campaigns/x", "--output", str(tmp_path / "run")])
    err = capsys.readouterr().err
    assert status == 2 and len(err.splitlines()) == 1 and "install mq-conformance[spark]" in err, err
