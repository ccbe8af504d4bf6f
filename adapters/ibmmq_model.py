"""``ibmmq+model``: the ibmmq adapter (adapters/ibmmq.py), unchanged, over IBM's ``ibmmq`` Python layer over the
emulated native module, i.e. over the reference model.

Every scenario the ibmmq adapter claims runs through the same translation a real queue manager would see: call
language -> the adapter's pymqi calls -> IBM's structure classes and packing -> the emulated ``ibmqmc`` functions
-> the model, and back. A difference from the reference adapter is a defect of the adapter's translation, of the
emulator, or a documented limit of the ibmmq adapter (fixtures/expectations/ibmmq+model.yaml).
"""

from __future__ import annotations

from mq_conformance.adapters.base import AdapterError
from mq_conformance.adapters.ibmmq import ConnectionConfig, IbmMqAdapter

from mq_conformance.emulator import EmulatorUnavailable, load_ibmmq, native
from mq_conformance.emulator.emulator import Emulator

NAME = "ibmmq+model"
POOL = tuple(f"DEV.QUEUE.{n}" for n in range(1, 10))  # as the developer container names its queues


class IbmMqModelAdapter(IbmMqAdapter):
    """The ibmmq adapter connected to an in-process emulated queue manager QM1 (queues DEV.QUEUE.1-9)."""

    name = NAME

    def __init__(self) -> None:
        try:
            ibmmq = load_ibmmq()
        except EmulatorUnavailable as exc:
            raise AdapterError(f"{NAME}: {exc}") from None
        self.emulator = Emulator(qmgr="QM1", queues=POOL, waits=False)  # one thread: the model's own wait
        # A real queue manager's clock is never at the suite's instant 0 when the adapter connects (the expectation
        # for put-sets-put-date-and-time says so); at 0, the first scenario a test worker ran saw it, and whether
        # that expected failure failed depended on the order pytest-xdist handed out the tests.
        self.emulator.advance_clock(3_600_000)
        native.activate(self.emulator)
        # PCF on (the emulator answers it); real-time waiting on, with the emulated queue manager's clock as the
        # time that passes: advance_clock's wait is the adapter's translation, the model's clock is the time.
        config = ConnectionConfig(queue_manager="QM1", queues=POOL, pcf="yes", real_time=True,
                                  max_wait_ms=2**31 - 1)
        super().__init__(config=config, module=("ibmmq", ibmmq))
        self._sleep = self._wait
        self.version = f"{self.version} over the reference model"

    def _wait(self, seconds: float) -> None:
        """The real-time wait of ``advance_clock``: on the emulated queue manager, its clock moves instead."""
        self.emulator.advance_clock(round(seconds * 1000))

    def close(self) -> None:
        try:
            super().close()
        finally:
            native.deactivate(self.emulator)
