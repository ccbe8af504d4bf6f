"""Starting the listening emulator, and the one documented step that puts the emulated native module under
``import ibmmq`` in every other process.

``mqconf emulator --install-hook`` writes ``mq_conformance_emulator.pth`` into this environment's site-packages: a
one-line hook Python runs at start-up, which does nothing unless ``MQCONF_EMULATOR`` is set (then, at the first
``import ibmmq``, it installs :mod:`.remote` as ``ibmmq.ibmmqc``) or ``MQCONF_IBMMQ_EMULATOR=1`` (then the in-process
module, for ``python -m unittest`` of classes decorated with ``testing.emulated``). At start-up it only puts the
tiny finder of :mod:`.startup` on ``sys.meta_path``: a process that never imports ``ibmmq`` loads nothing of the
emulator. (In pytest the suite's plugin does the same without the hook.)
"""

from __future__ import annotations

import sys
import sysconfig
from collections.abc import Mapping
from pathlib import Path

PTH_NAME = "mq_conformance_emulator.pth"
# Run by the .pth line in a namespace of its own when a variable asks for the emulator: finds the emulator's folder
# (importing only the tiny top-level mq_conformance package, never the emulator's) and installs startup.py's
# finder from it. One line on stderr, never a traceback, if that fails: a start-up hook must not break Python.
_LOADER = """\
import importlib.util, os, sys
try:
    found = importlib.util.find_spec('mq_conformance.emulator')
    folder = next(iter(found.submodule_search_locations or ())) if found else None
    if folder:
        spec = importlib.util.spec_from_file_location('mq_conformance_emulator_startup',
                                                      os.path.join(folder, 'startup.py'))
        startup = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(startup)
        startup.install()
except Exception as exc:
    print(f'mq_conformance emulator hook: {exc}', file=sys.stderr)
"""
PTH_LINE = ("import os; (os.environ.get('MQCONF_EMULATOR', '').strip() or "
            "os.environ.get('MQCONF_IBMMQ_EMULATOR', '').strip() == '1') and "
            f"exec({_LOADER!r}, {{}})\n")


def boot() -> None:
    """The start-up hook's work, run by :mod:`.startup`'s finder at the first ``import ibmmq``: install the remote
    native module when ``MQCONF_EMULATOR`` asks for it and ``ibmmq`` is not imported yet; a failure never stops the interpreter (it is reported once on stderr)."""
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
