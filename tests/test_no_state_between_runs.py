"""A run's results depend on its adapter and its seed, never on earlier runs: no Hypothesis example database is
kept (Hypothesis keeps one in the folder it runs in by default and replays it first, so failures found with one
adapter steered later runs of another)."""

from __future__ import annotations

import subprocess

from hypothesis import settings

from mq_conformance.conformance.suite import pytest_command


def test_the_suites_hypothesis_profiles_keep_no_example_database():
    for profile in ("quick", "thorough"):
        assert settings.get_profile(profile).database is None, profile


def test_a_certification_run_leaves_no_example_database_in_its_folder(tmp_path):
    command = pytest_command("mutant:table:put.logical-order.table1.row5:GroupId=MQGI_NONE", "quick")
    done = subprocess.run([*command, "-k", "agrees_with_the_model and groups"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=600)
    assert "failed" in done.stdout, done.stdout[-2000:]  # the mutant is caught: Hypothesis found failing examples
    # (Hypothesis may still cache the literals of the code it imports, under .hypothesis/constants: derived from the
    # source alone, that changes no result)
    assert not (tmp_path / ".hypothesis" / "examples").exists()
