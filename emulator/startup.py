"""The start-up hook's only code: a meta-path finder that waits for the first ``import ibmmq`` (or ``pymqi``).

The ``.pth`` line ``mqconf emulator --install-hook`` writes runs in every Python process of the environment. With
``MQCONF_EMULATOR`` (or ``MQCONF_IBMMQ_EMULATOR=1``) set it loads this file by its path, without importing the
emulator package (which imports the whole model), and puts :class:`FirstImport` first on ``sys.meta_path``. A
process that never imports ``ibmmq`` pays for nothing more; the first ``import ibmmq`` removes the finder, runs
:func:`mq_conformance.emulator.hook.boot` (the emulated native module goes under ``ibmmq.ibmmqc``) and lets the
usual finders find the package. Standard library only: this module must stay tiny.
"""

import importlib
import sys

TRIGGERS = frozenset({"ibmmq", "pymqi"})  # pymqi: the emulator stands ibmmq in for it (pymqi_compat.py)


class FirstImport:
    """Finds nothing itself: on the first import of a trigger it installs the emulator, then asks the finders after
    it, so that the emulator's own finders (pymqi's) are consulted too."""

    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if name not in TRIGGERS:
            return None
        uninstall()
        importlib.import_module("mq_conformance.emulator.hook").boot()
        for finder in list(sys.meta_path):
            find = getattr(finder, "find_spec", None)
            spec = find(name, path, target) if find is not None else None
            if spec is not None:
                return spec
        return None


def install():
    """Put the finder first on ``sys.meta_path`` (once)."""
    if FirstImport not in sys.meta_path:
        sys.meta_path.insert(0, FirstImport)


def uninstall():
    """Take the finder off ``sys.meta_path``: it has done its work, or ``ibmmq`` is already there."""
    while FirstImport in sys.meta_path:
        sys.meta_path.remove(FirstImport)
