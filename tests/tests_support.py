"""Helpers shared by tests: a session that runs calls on an adapter and fails the test on executor errors, and the
suite's own scenarios, read once per process."""

from __future__ import annotations

from functools import lru_cache

from mq_conformance import fixtures
from mq_conformance.conformance.scenario import Scenario, load_scenario, scenario_files
from mq_conformance.conformance.certification.support import Session, examples  # noqa: F401 - for tests


@lru_cache(maxsize=None)
def suite_scenarios() -> tuple[Scenario, ...]:
    """Every scenario file under fixtures/scenarios, loaded and checked by the scenario loader once per process.

    Several test modules run every scenario (against the adapter under test, through the JSON-lines protocol,
    on the IBM MQ adapter's translation layer, against mutants); reading and checking 331 files is the same work
    each time. Scenarios are frozen values, so sharing them is safe. The loader itself is tested on files of its
    own (tests/test_loader_errors.py), never through this cache."""
    return tuple(load_scenario(path) for path in scenario_files([fixtures.SCENARIOS]))


def java_or_skip() -> str:
    """The Java the campaign would run Spark on (mq_conformance.conformance.campaign.spark.find_java, the product's own
    search); the test is skipped, with the reason, when there is none that works."""
    import pytest

    from mq_conformance.conformance.campaign.run import CampaignError
    from mq_conformance.conformance.campaign.spark import find_java

    try:
        return find_java()[0]
    except CampaignError as exc:
        pytest.skip(f"Spark needs a working Java: {exc}")


def bare_site(folder) -> str:
    """A folder holding only pyarrow and pyyaml (links to this environment's copies): on ``sys.path`` of a Python
    run without site-packages, what a cluster's executors are promised to need and nothing else (no checkout,
    no editable install, no jsonschema, hypothesis or ibmmq)."""
    import importlib.util
    import os
    from pathlib import Path

    site = Path(folder)
    site.mkdir(parents=True, exist_ok=True)
    for name in ("pyarrow", "yaml", "_yaml"):
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.origin:
            source = Path(spec.origin).parent if spec.submodule_search_locations else Path(spec.origin)
            os.symlink(source, site / source.name)
    return str(site)


def bare_python(folder) -> str:
    """A throwaway virtualenv of this Python whose only packages are pyarrow and pyyaml (:func:`bare_site`, named
    by a ``.pth`` line); returns its interpreter. It cannot import the suite."""
    import subprocess
    import sys
    from pathlib import Path

    venv = Path(folder)
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    site = subprocess.run([str(python), "-c", "import site; print(site.getsitepackages()[0])"], check=True,
                          capture_output=True, text=True, timeout=60).stdout.strip()
    (Path(site) / "mqconf-bare.pth").write_text(bare_site(venv / "bare-site") + "\n")
    return str(python)
