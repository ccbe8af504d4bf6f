"""Tests of the suite run through its own pytest plugin (conformance/pytest_plugin.py, installed as the
``pytest11`` entry point ``mq_conformance``): ``--adapter``, the ``adapter`` fixture, capability and clause
markers, expectation files. Run them with ``make test``, which installs the suite first."""
