"""The ``ibmmq_emulator`` pytest fixture (registered by the suite's plugin, conformance/pytest_plugin.py).

A test that asks for it runs with an in-process queue manager QM1 made of the reference model: the application's
own ``ibmmq`` code (``ibmmq.connect("QM1")``, ``QueueManager``, ``Queue``, ``PCFExecute``) reaches it through
IBM's Python layer. The fixture's value is the :class:`~mq_conformance.emulator.emulator.Emulator`:
``define_queue(name, **attributes)``, ``clock``, ``advance_clock(ms)``, ``queues``, ``depth(name)``,
``messages(name)``. See docs/emulator.md.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from . import emulated_mq
from .emulator import Emulator


@pytest.fixture
def ibmmq_emulator() -> Iterator[Emulator]:
    """An emulated queue manager QM1 for this test; connections left open are dropped at its end."""
    with emulated_mq() as emulator:
        yield emulator
