"""Which of the suite's own tests certify an adapter, for ``mqconf run`` and ``mqconf strength``.

Tests that check the suite or the model itself (a state machine catching a fixed mutant, a table's internal
consistency, a model-only property) carry the ``self_check`` marker and are left out: they would pass or fail
whatever adapter is named.
"""

# The scenarios are run by the runner itself, so tests/test_scenarios.py is not repeated here.
ADAPTER_TESTS = (
    "tests/test_tables.py",
    "tests/test_differential.py",
    "tests/test_logical_order_property.py",
    "tests/test_cluster_workload_table.py",
)
NOT_SELF_CHECKS = ("-m", "not self_check")
