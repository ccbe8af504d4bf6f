"""Which tests certify an adapter, for ``mqconf run`` and ``mqconf strength``: the certification tests installed
with the suite (mq_conformance.conformance.certification), run in a pytest of their own.

Tests that check the suite or the model itself (a state machine catching a fixed mutant, a table's internal
consistency) live in the repository's tests/; a ``self_check`` marker on any test is left out all the same: it
would pass or fail whatever adapter is named.
"""

from __future__ import annotations

import sys
from pathlib import Path

# The certification tests' folder, and the root their node ids are relative to (``certification/test_x.py::...``,
# the same from a clone and from an install).
CERTIFICATION = Path(__file__).resolve().parent / "certification"
ROOT = CERTIFICATION.parent
# The scenarios are run by the runner itself, so tests/test_scenarios.py is not repeated here.
ADAPTER_TESTS = (
    "certification/test_tables.py",
    "certification/test_differential.py",
    "certification/test_logical_order_property.py",
    "certification/test_cluster_workload_table.py",
)
NOT_SELF_CHECKS = ("-m", "not self_check")


def pytest_command(adapter: str, profile: str) -> list[str]:
    """The pytest that runs the certification tests on ``adapter`` with the Hypothesis ``profile``; callers add
    their reporting options. Its own configuration file (``-c``) and root: no pytest settings of the folder it
    runs in, or above the installed suite (a project's pyproject.toml around its virtualenv), apply. It runs in
    the caller's folder, which ``python -m`` puts on ``sys.path``: an adapter named ``module:factory`` there loads
    in the tests as in ``mqconf``."""
    return [sys.executable, "-m", "pytest", "-c", str(CERTIFICATION / "pytest.ini"), f"--rootdir={ROOT}",
            *(str(ROOT / name) for name in ADAPTER_TESTS), "--adapter", adapter, "--mq-profile", profile,
            "-p", "no:cacheprovider", "-q", "--no-header", "-o", "addopts=", *NOT_SELF_CHECKS]
