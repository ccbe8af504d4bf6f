"""Starting the listening emulator, and the one documented step that puts the emulated native module under
``import ibmmq`` in every other process.

``mqconf emulator --install-hook`` writes ``mq_conformance_emulator.pth`` into this environment's site-packages: a
one-line hook Python runs at start-up, which does nothing unless ``MQCONF_EMULATOR`` is set (then it installs
:mod:`.remote` as ``ibmmq.ibmmqc`` before the application imports ``ibmmq``) or ``MQCONF_IBMMQ_EMULATOR=1`` (then
the in-process module, for ``python -m unittest`` of classes decorated with ``testing.emulated``). (In pytest the suite's plugin does
the same without the hook.)
"""

from __future__ import annotations

import sys
import sysconfig
from collections.abc import Mapping
from pathlib import Path

PTH_NAME = "mq_conformance_emulator.pth"
PTH_LINE = ("import os; (os.environ.get('MQCONF_EMULATOR', '').strip() or "
            "os.environ.get('MQCONF_IBMMQ_EMULATOR', '').strip() == '1') and "
            "__import__('mq_conformance.emulator.hook', fromlist=['boot']).boot()\n")


def boot() -> None:
    """The start-up hook: install the remote native module when ``MQCONF_EMULATOR`` asks for it and ``ibmmq`` is
    not imported yet; a failure never stops the interpreter (it is reported once on stderr)."""
    try:
        from . import install_unless_client

        install_unless_client()
    except Exception as exc:  # noqa: BLE001 - a start-up hook must not break every Python process
        print(f"mq_conformance emulator hook: {exc}", file=sys.stderr)


def install_pth(site_packages: Path | None = None) -> Path:
    """Write the start-up hook into ``site_packages`` (default: this environment's); returns its path."""
    folder = site_packages or Path(sysconfig.get_paths()["purelib"])
    path = folder / PTH_NAME
    path.write_text(PTH_LINE)
    return path


def listen(address: str, qmgr: str | tuple[str, ...] = "QM1", developer: bool = False,
           users: Mapping[str, str] | None = None, real_time: bool = True, require_user: tuple[str, ...] = (),
           budgets=None):
    """A :class:`~.server.Listener` (not yet serving) for new emulated queue managers: ``qmgr`` names one or
    several (the first is the default a blank QMgrName reaches). ``ValueError`` (one line) when it cannot listen
    at ``address``."""
    from . import NATIVE_NAME, load_ibmmq
    from .emulator import Emulator
    from .server import Listener

    current = sys.modules.get(NATIVE_NAME)
    if current is not None and getattr(current, "__name__", "").startswith(__package__ + "."):
        import ibmmq  # noqa: F401 - this environment's start-up hook installed our client: its layouts serve
    else:
        load_ibmmq()
    names = (qmgr,) if isinstance(qmgr, str) else tuple(qmgr)
    if len(set(names)) != len(names):
        raise ValueError(f"a queue manager named twice: {' '.join(names)}")
    emulators = []
    for name in names:
        emulator = Emulator(qmgr=name, real_time=real_time)
        if developer:
            emulator.developer()
        emulators.append(emulator)
    return Listener(address, emulators, users, require_user, budgets)
