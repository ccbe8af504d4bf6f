"""Tests of the suite run through its own pytest plugin (conformance/pytest_plugin.py, installed as the
``pytest11`` entry point ``mq_conformance``): ``--adapter``, the ``adapter`` fixture, capability and clause
markers, expectation files. Run them with ``make test``, which installs the suite first."""

import os

import pytest

from mq_conformance.conformance.campaign.spark import JVM_OPTIONS

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


@pytest.fixture(scope="session")
def s3_campaigns():
    """A real S3 endpoint on 127.0.0.1 (moto's server, in a thread; the ``test`` extra ``make install`` installs)
    with one bucket: the base URI of a campaigns folder there, credentials and endpoint in the URI (so Spark's
    Python workers, whose environment was fixed when their JVM started, reach it too). Skipped without moto."""
    import logging
    import uuid

    pytest.importorskip("moto.server", reason="moto's S3 server (the test extra: make install) is not installed")
    import pyarrow.fs as pafs
    from moto.server import ThreadedMotoServer

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    bucket = f"mqconf-{uuid.uuid4().hex[:12]}"
    query = f"endpoint_override={host}:{port}&scheme=http&region=us-east-1"
    fs, _ = pafs.FileSystem.from_uri(f"s3://test:test@{bucket}?{query}&allow_bucket_creation=true")
    fs.create_dir(bucket)
    yield f"s3://test:test@{bucket}/campaigns?{query}"
    server.stop()
