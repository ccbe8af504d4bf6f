"""Tests of the suite run through its own pytest plugin (conformance/pytest_plugin.py, installed as the
``pytest11`` entry point ``mq_conformance``): ``--adapter``, the ``adapter`` fixture, capability and clause
markers, expectation files. Run them with ``make test``, which installs the suite first."""

import os

from conformance.campaign.spark import JVM_OPTIONS

# ``pytester`` runs pytest in process for the tests of the plugin itself (tests/test_pytest_plugin.py).
pytest_plugins = ["pytester"]

# The Spark tests start four short-lived JVMs (local[2], and local-cluster's driver and two executors). Skipping
# bytecode verification of Spark's own jars (installed by pip, trusted) cuts their start-up CPU by about a sixth;
# only the tests do this, the campaign's defaults (conformance/campaign/spark.py JVM_OPTIONS) verify as usual.
os.environ.setdefault("MQCONF_SPARK_JAVA_OPTIONS",
                      JVM_OPTIONS + " -XX:+UnlockDiagnosticVMOptions -XX:-BytecodeVerificationRemote")

# The first campaign on Spark builds class-data sharing archives (conformance/campaign/class_data_sharing.py ensure):
# a minute of Spark no test should spend by accident. Tests that need an archive build one explicitly.
os.environ.setdefault("MQCONF_SPARK_CDS_BUILD", "0")
