"""Tests of the suite run through its own pytest plugin (conformance/pytest_plugin.py, installed as the
``pytest11`` entry point ``mq_conformance``): ``--adapter``, the ``adapter`` fixture, capability and clause
markers, expectation files. Run them with ``make test``, which installs the suite first."""

# ``pytester`` runs pytest in process for the tests of the plugin itself (tests/test_pytest_plugin.py).
pytest_plugins = ["pytester"]
