"""The certification tests: the table tests, property tests and differential state machines that ``mqconf run``
runs against an implementation after the scenarios (as ``zarr.testing`` ships zarr's), installed with the suite
so that an install certifies with exactly what a clone does. Each takes the ``adapter`` fixture of the suite's
pytest plugin (conformance/pytest_plugin.py); the repository's ``tests/`` holds the tests *of* the suite.

``mqconf run`` and ``mqconf strength`` run them through :func:`mq_conformance.conformance.suite.pytest_command`;
``pytest --pyargs mq_conformance.conformance.certification --adapter NAME`` runs them too.
"""
