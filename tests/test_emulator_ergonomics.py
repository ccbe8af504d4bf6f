"""Tests of an ibmmq application with at most one line of set-up: unittest classes (a decorator or a base class,
emulator/testing.py), and a conftest.py that imports ibmmq at its top."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import unittest

import pytest

from mq_conformance.emulator import EmulatorUnavailable, load_ibmmq
from mq_conformance.emulator.testing import EmulatedTestCase, emulated

try:
    ibmmq = load_ibmmq()
except EmulatorUnavailable as exc:  # no wheel of IBM's ibmmq for this platform (pyproject.toml)
    pytest.skip(str(exc), allow_module_level=True)
CMQC = ibmmq.CMQC


def _run(case: type) -> unittest.TestResult:
    result = unittest.TestResult()
    unittest.defaultTestLoader.loadTestsFromTestCase(case).run(result)
    return result


def test_a_decorated_unittest_class_connects_in_its_set_up_class():
    @emulated(developer=True)
    class Orders(unittest.TestCase):
        @classmethod
        def setUpClass(cls):
            cls.qmgr = ibmmq.connect("QM1", "DEV.APP.SVRCONN", "localhost(1414)")

        @classmethod
        def tearDownClass(cls):
            cls.qmgr.disconnect()

        def test_put_then_get(self):
            queue = ibmmq.Queue(self.qmgr, "DEV.QUEUE.1", CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_SHARED)
            queue.put(b"order")
            self.assertEqual(queue.get(), b"order")
            self.assertEqual(self.mq.depth("DEV.QUEUE.1"), 0)

    result = _run(Orders)
    assert result.wasSuccessful() and result.testsRun == 1, result.errors + result.failures


def test_a_subclass_of_the_base_class_has_its_own_queue_manager():
    class Inventory(EmulatedTestCase):
        def test_define_and_inquire(self):
            self.mq.define_queue("APP.STOCK", MaxQDepth=3)
            queue = ibmmq.Queue(ibmmq.connect("QM1"), "APP.STOCK", CMQC.MQOO_INQUIRE)
            self.assertEqual(queue.inquire(CMQC.MQIA_MAX_Q_DEPTH), 3)

    result = _run(Inventory)
    assert result.wasSuccessful() and result.testsRun == 1, result.errors + result.failures
    with pytest.raises(ibmmq.MQMIError) as gone:  # the class's queue manager ended with it
        ibmmq.connect("QM1")
    assert gone.value.reason == CMQC.MQRC_Q_MGR_NOT_AVAILABLE


def test_a_conftest_may_import_ibmmq_at_its_top(tmp_path):
    (tmp_path / "conftest.py").write_text("import ibmmq\nQUEUE = 'APP.IN'\n")
    (tmp_path / "test_app.py").write_text(textwrap.dedent("""
        import ibmmq
        from conftest import QUEUE

        def test_put(ibmmq_emulator):
            ibmmq_emulator.define_queue(QUEUE)
            ibmmq.Queue(ibmmq.connect("QM1"), QUEUE, ibmmq.CMQC.MQOO_OUTPUT).put(b"x")
            assert ibmmq_emulator.depth(QUEUE) == 1
    """))
    env = {**os.environ, "MQCONF_IBMMQ_EMULATOR": "1"}
    env.pop("MQCONF_EMULATOR", None)
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n0", str(tmp_path)],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
