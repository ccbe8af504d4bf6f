"""The reference model as an in-process IBM MQ for applications written with IBM's ``ibmmq`` package.

``ibmmq`` (IBM's Python layer, pymqi's successor) calls one native module, ``ibmmq.ibmmqc``, which needs IBM's C
client. :func:`install` puts :mod:`mq_conformance.emulator.native` in its place in ``sys.modules``, so the real
Python layer (structures, QueueManager, Queue, PCFExecute) runs unchanged over the model. Then::

    from mq_conformance.emulator import emulated_mq

    with emulated_mq() as mq:                 # QM1, in this process
        mq.define_queue("APP.IN", MaxQDepth=10)
        import ibmmq
        qmgr = ibmmq.connect("QM1")
        ...

In pytest, the ``ibmmq_emulator`` fixture of the suite's plugin does the same (docs/emulator.md).

This package is a binding around the model, like an adapter the other way round: it imports ``reference`` and
IBM's ``ibmmq``, never ``conformance``.
"""

from __future__ import annotations

import ctypes
import importlib.util
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from contextlib import contextmanager
from typing import Any

from . import native
from .emulator import Emulator, EmulatorError

NATIVE_NAME = "ibmmq.ibmmqc"

__all__ = ["Emulator", "EmulatorError", "EmulatorUnavailable", "emulated_mq", "install", "install_unless_client", "load_ibmmq"]


class EmulatorUnavailable(Exception):
    """``ibmmq`` is not installed, or was already imported with IBM's own native module."""


def install(module: Any = None) -> None:
    """Make ``import ibmmq`` use the emulated native module (the in-process one, or ``module``). Idempotent.

    Must run before ``ibmmq`` is first imported in this process; if ``ibmmq`` was already imported with IBM's
    real native module (an installed MQ client), :class:`EmulatorUnavailable` says so rather than mixing the two.
    """
    module = module or native
    from . import pymqi_compat

    pymqi_compat.guard()  # import pymqi gives ibmmq as pymqi; ibmmq hides no application module
    current = sys.modules.get(NATIVE_NAME)
    if current is module:
        return
    if current is not None or _imported_with_real_native(module):
        raise EmulatorUnavailable(
            "ibmmq was already imported with IBM's native module (an IBM MQ client is installed); install the "
            "emulator before the first 'import ibmmq' in this process, e.g. run the tests in a fresh process")
    sys.modules[NATIVE_NAME] = module


def install_remote() -> None:
    """Make ``import ibmmq`` reach ``mqconf emulator --listen`` (:mod:`.remote`; where: ``MQCONF_EMULATOR``)."""
    from . import remote

    install(remote)


def remote_requested() -> bool:
    """Whether ``MQCONF_EMULATOR`` asks this process to use a listening emulator."""
    return bool(os.environ.get("MQCONF_EMULATOR", "").strip())


def ibm_client_loadable() -> bool:
    """Whether IBM's own native module could load here (an IBM MQ client library is installed), found without
    importing ``ibmmq``: its extension file is loaded by the dynamic loader, which needs IBM's libraries."""
    spec = importlib.util.find_spec("ibmmq")
    if spec is None or not spec.submodule_search_locations:
        return False
    for folder in spec.submodule_search_locations:
        for path in Path(folder).glob("ibmmqc*"):
            if path.suffix in (".so", ".pyd", ".dylib"):
                try:
                    ctypes.CDLL(str(path))
                except OSError:
                    return False
                return True
    return False


def install_unless_client() -> bool:
    """Install the emulator when ``ibmmq`` is installed but IBM's client is not (so ``import ibmmq`` would fail
    anyway), or when ``MQCONF_IBMMQ_EMULATOR=1`` asks for it; never over an ``ibmmq`` already imported. The pytest
    plugin calls this at start-up, so test modules may ``import ibmmq`` at their top. Returns whether installed."""
    current = sys.modules.get(NATIVE_NAME)
    if current is not None and getattr(current, "__name__", "").startswith(__name__):
        return True
    if "ibmmq" in sys.modules or NATIVE_NAME in sys.modules:
        return False
    if remote_requested():
        install_remote()
        return True
    forced = os.environ.get("MQCONF_IBMMQ_EMULATOR", "").strip() == "1"
    if not forced and (importlib.util.find_spec("ibmmq") is None or ibm_client_loadable()):
        return False
    install()
    return True


def _imported_with_real_native(module: Any = None) -> bool:
    module = module or native
    package = sys.modules.get("ibmmq")
    return package is not None and getattr(package, "ibmmqc", module) is not module


def load_ibmmq() -> Any:
    """IBM's ``ibmmq`` package over the emulated native module; :class:`EmulatorUnavailable` if it cannot be."""
    install()
    try:
        import ibmmq
    except ImportError as exc:
        raise EmulatorUnavailable(f"IBM's ibmmq package is not installed ({exc}): install mq-conformance[ibmmq] "
                                  "(pip install 'mq-conformance[ibmmq]')") from None
    if getattr(ibmmq, "ibmmqc", None) is not native:
        raise EmulatorUnavailable("ibmmq is bound to another native module than the emulator")
    return ibmmq


@contextmanager
def emulated_mq(qmgr: str = "QM1", seed: int = 0, queues: tuple[str, ...] = (),
                real_time: bool = False) -> Iterator[Emulator]:
    """An in-process queue manager named ``qmgr`` for the duration of the block: ``ibmmq.connect(qmgr)`` and
    ``QueueManager(...).connect`` reach it. ``queues`` are defined up front (more with ``define_queue``).
    ``real_time``: the clock follows the wall clock (else it moves only when told). Connections left open at
    the end are dropped; a later call on them fails with MQRC_HCONN_ERROR."""
    load_ibmmq()
    emulator = Emulator(qmgr=qmgr, seed=seed, queues=queues, real_time=real_time)
    native.activate(emulator)
    try:
        yield emulator
    finally:
        native.deactivate(emulator)
