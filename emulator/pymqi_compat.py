"""pymqi applications on the emulator, unchanged, and an application's own modules never hidden by ``ibmmq``.

**pymqi.** Most Python MQ software in the wild imports ``pymqi``, the package IBM's ``ibmmq`` succeeds with the
same API. Where the emulator is installed (:func:`mq_conformance.emulator.install`) and no real ``pymqi`` is,
``import pymqi`` gives ``ibmmq`` under pymqi's module layout: ``pymqi`` itself (every public name of ``ibmmq``),
``pymqi.CMQC``, ``pymqi.CMQCFC``, ``pymqi.CMQXC`` and ``pymqi.CMQZC``. pymqi's ``CMQC`` also held the names of
IBM's cmqxc.h (the channel definition's: MQCHT_CLNTCONN, MQXPT_TCP, MQCD_VERSION_*...), which ``ibmmq`` keeps in
``CMQXC`` only; the compatibility ``CMQC`` is made here from IBM's own modules, ``CMQC`` first, then every
``CMQXC`` name it lacks. ``CMQZC`` (IBM's cmqzc.h, the installable services) has only the entity types the
emulator's authority records use (MQZAET_*): ``ibmmq`` ships no cmqzc.h names to make it from. Nothing of
pymqi's is copied: the names come from IBM's modules at import time.

**Hidden modules.** ``ibmmq``'s ``CMQC`` puts the package's own folder first on ``sys.path`` and imports its
helpers as top-level modules (``mqqueue``, ``mqpcf``, ``mqlog``...), so an application's own module of such a
name would be shadowed by IBM's. Once ``ibmmq`` has been imported, its folder goes to the end of ``sys.path`` and
its helpers leave ``sys.modules``' top level (``ibmmq`` keeps its references to them; :data:`IBMMQ_HELPERS` keeps
them for the emulator): ``import mqqueue`` then finds the application's.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import threading
from types import ModuleType
from typing import Any

COMPAT = "pymqi"
SUBMODULES = ("CMQC", "CMQCFC", "CMQXC", "CMQZC")
# What makes a module a module rather than what it offers (__version__, __mqbuild__... are offered)
MODULE_MACHINERY = frozenset({"__name__", "__doc__", "__file__", "__path__", "__spec__", "__loader__", "__package__",
                              "__cached__", "__builtins__", "__dict__"})
IBMMQ_HELPERS: dict[str, ModuleType] = {}  # ibmmq's top-level helper modules, kept after they leave sys.modules
_lock = threading.Lock()
_BUILT: dict[int, dict[str, ModuleType]] = {}  # id(ibmmq) -> its compatibility modules, made once


def helper(name: str) -> ModuleType | None:
    """One of ibmmq's top-level helper modules (``mqinq``...), wherever it now is."""
    return IBMMQ_HELPERS.get(name) or sys.modules.get(name)


def unhide(ibmmq: ModuleType) -> None:
    """Move ibmmq's folder to the end of ``sys.path`` and its helpers out of ``sys.modules``' top level, so that
    an application's modules of the same names are found. Idempotent."""
    folder = os.path.realpath(os.path.dirname(getattr(ibmmq, "__file__", "") or ""))
    if not folder:
        return
    with _lock:
        kept = [p for p in sys.path if os.path.realpath(p or ".") != folder]
        if len(kept) != len(sys.path):
            sys.path[:] = kept + [folder]
        for name, module in list(sys.modules.items()):
            if "." in name or module is None or module is ibmmq:
                continue
            path = getattr(module, "__file__", None)
            if path and os.path.realpath(os.path.dirname(path)) == folder:
                IBMMQ_HELPERS[name] = module
                del sys.modules[name]


def _real_pymqi_installed() -> bool:
    """Whether a real pymqi package can be imported (then it is used, not this module)."""
    for finder in sys.meta_path:
        if isinstance(finder, _Finder):
            continue
        find = getattr(finder, "find_spec", None)
        spec = find(COMPAT, None) if find is not None else None
        if spec is not None and spec.origin:  # a module or package, not a folder that happens to be called pymqi
            return True
    return False


def build(ibmmq: ModuleType) -> dict[str, ModuleType]:
    """The compatibility modules: ``pymqi`` and its constant modules, made from IBM's ``ibmmq``."""
    from .authority import MQZAET_GROUP, MQZAET_PRINCIPAL

    top = ModuleType(COMPAT, "ibmmq under pymqi's name (mq_conformance.emulator.pymqi_compat)")
    top.__dict__.update({k: v for k, v in vars(ibmmq).items() if k not in MODULE_MACHINERY})
    top.__path__ = []  # a package: its constant modules are pymqi.CMQC...
    cmqc = ModuleType(f"{COMPAT}.CMQC", "IBM's CMQC, then the CMQXC names it lacks, as pymqi's CMQC had them")
    cmqc.__dict__.update({k: v for k, v in vars(ibmmq.CMQXC).items() if k.startswith("MQ")})
    cmqc.__dict__.update({k: v for k, v in vars(ibmmq.CMQC).items() if not k.startswith("__")})
    cmqzc = ModuleType(f"{COMPAT}.CMQZC", "the entity types of IBM's cmqzc.h the emulator uses")
    cmqzc.__dict__.update({"MQZAET_NONE": 0, "MQZAET_PRINCIPAL": MQZAET_PRINCIPAL, "MQZAET_GROUP": MQZAET_GROUP,
                           "MQZAET_UNKNOWN": 3})
    top.RFH2 = _pymqi_rfh2(ibmmq.RFH2)
    modules = {COMPAT: top, f"{COMPAT}.CMQC": cmqc, f"{COMPAT}.CMQCFC": ibmmq.CMQCFC,
               f"{COMPAT}.CMQXC": ibmmq.CMQXC, f"{COMPAT}.CMQZC": cmqzc}
    top.CMQC, top.CMQZC = cmqc, cmqzc
    return modules


def _pymqi_rfh2(base: type) -> type:
    """ibmmq's RFH2 with its structure identifier also under the name pymqi gave it (``StrucId``; ibmmq's is
    ``_StrucId``): ``rfh2["StrucId"]`` of a pymqi application reads and sets the same field."""

    class RFH2(base):  # type: ignore[misc, valid-type]
        __doc__ = base.__doc__

        @property
        def StrucId(self) -> Any:  # noqa: N802 - pymqi's name
            return self._StrucId

        @StrucId.setter
        def StrucId(self, value: Any) -> None:  # noqa: N802
            self._StrucId = value

    RFH2.__module__ = COMPAT
    return RFH2


class _Loader(importlib.abc.Loader):
    def __init__(self, module: ModuleType):
        self.module = module

    def create_module(self, spec: Any) -> ModuleType:
        return self.module

    def exec_module(self, module: ModuleType) -> None:
        return None


class _UnhidingLoader(importlib.abc.Loader):
    """ibmmq's own loader, then :func:`unhide`."""

    def __init__(self, loader: Any):
        self.loader = loader

    def create_module(self, spec: Any) -> ModuleType | None:
        return self.loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self.loader.exec_module(module)
        unhide(module)


class _Finder(importlib.abc.MetaPathFinder):
    """``pymqi`` (and its constant modules) when no real pymqi is installed; ``ibmmq`` with its helpers
    unhidden once imported."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name == "ibmmq":
            spec = importlib.machinery.PathFinder.find_spec(name, path)
            if spec is not None and spec.loader is not None:
                spec.loader = _UnhidingLoader(spec.loader)
            return spec
        if name != COMPAT and not (name.startswith(COMPAT + ".") and name.split(".", 1)[1] in SUBMODULES):
            return None
        if _real_pymqi_installed():
            return None
        import ibmmq

        with _lock:
            if id(ibmmq) not in _BUILT:
                _BUILT.clear()
                _BUILT[id(ibmmq)] = build(ibmmq)
            modules = _BUILT[id(ibmmq)]
        return importlib.util.spec_from_loader(name, _Loader(modules[name]), is_package=name == COMPAT)


def guard() -> None:
    """Install the finder (once): ``import pymqi`` gives ibmmq as pymqi, ``import ibmmq`` hides no application
    module. If ibmmq is already imported, its helpers are unhidden now."""
    with _lock:
        if not any(isinstance(f, _Finder) for f in sys.meta_path):
            sys.meta_path.insert(0, _Finder())
    imported = sys.modules.get("ibmmq")
    if imported is not None:
        unhide(imported)
