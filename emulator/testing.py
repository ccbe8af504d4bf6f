"""One line of set-up for ``unittest`` tests of an ``ibmmq`` application (pytest has the ``ibmmq_emulator``
fixture): a class decorator, or a base class.

    from mq_conformance.emulator.testing import emulated

    @emulated(developer=True)          # QM1 with DEV.QUEUE.1-3 for the whole class
    class OrderTests(unittest.TestCase):
        @classmethod
        def setUpClass(cls):           # connecting here works: the queue manager is already up
            cls.qmgr = ibmmq.connect("QM1")

The queue manager lives from before the class's ``setUpClass`` to after its ``tearDownClass``; the test methods
reach it as ``self.mq`` (the :class:`~.emulator.Emulator`, for set-up and inspection).
"""

from __future__ import annotations

import unittest
from typing import Any

from . import emulated_mq


def emulated(qmgr: str = "QM1", queues: tuple[str, ...] = (), developer: bool = False, real_time: bool = False):
    """A class decorator: the ``unittest.TestCase`` runs against an emulated queue manager of its own."""

    def decorate(cls: type) -> type:
        original_setup = cls.__dict__.get("setUpClass")
        original_teardown = cls.__dict__.get("tearDownClass")

        def set_up_class(klass: Any) -> None:
            context = emulated_mq(qmgr=qmgr, queues=queues, real_time=real_time)
            klass.mq = context.__enter__()
            klass._mq_context = context
            if developer:
                klass.mq.developer()
            try:
                if original_setup is not None:
                    original_setup.__func__(klass)
                else:
                    super(cls, klass).setUpClass()
            except BaseException:
                context.__exit__(None, None, None)
                raise

        def tear_down_class(klass: Any) -> None:
            try:
                if original_teardown is not None:
                    original_teardown.__func__(klass)
                else:
                    super(cls, klass).tearDownClass()
            finally:
                klass._mq_context.__exit__(None, None, None)

        cls.setUpClass = classmethod(set_up_class)
        cls.tearDownClass = classmethod(tear_down_class)
        return cls

    return decorate


@emulated()
class EmulatedTestCase(unittest.TestCase):
    """A base class: every subclass runs against an emulated queue manager QM1 of its own (``self.mq``); a
    subclass's ``setUpClass`` must call ``super().setUpClass()`` first, as unittest asks of every base class."""
