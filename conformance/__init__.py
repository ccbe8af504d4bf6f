"""The conformance suite: scenario runner, table-driven tests, reports and the ``mqconf`` command."""

__version__ = "0.1.0"
