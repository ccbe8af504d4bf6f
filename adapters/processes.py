"""Child processes that cannot outlive the suite: each in its own process group, the whole group killed when it
is done with, and (on Linux) a parent-death signal so that a SIGKILL of the suite kills its children too.

Used for the JSON-lines servers (adapters/jsonlines.py) and for ``mqconf run``'s pytest child (conformance/cli.py).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import subprocess
import sys
from collections.abc import Callable

_PR_SET_PDEATHSIG = 1


def _load_prctl() -> Callable[..., int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        prctl = libc.prctl
    except (OSError, AttributeError):
        return None
    prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
    prctl.restype = ctypes.c_int
    return prctl


_PRCTL = _load_prctl()  # looked up once, in the parent: the child only calls it


def die_with_parent() -> Callable[[], None] | None:
    """A ``preexec_fn`` that has the kernel send the child SIGKILL when this process dies (Linux
    ``PR_SET_PDEATHSIG``); None where the OS has no such signal. The signal follows the thread that started the
    child, so start children from a thread that lives as long as they should."""
    if _PRCTL is None:
        return None
    parent = os.getpid()
    prctl = _PRCTL

    def preexec() -> None:
        prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:  # the parent died between fork and prctl: nobody will send the signal
            os._exit(137)

    return preexec


def popen_options() -> dict:
    """Keyword arguments of :class:`subprocess.Popen` for a child in its own process group that dies with us."""
    if os.name != "posix":
        return {}
    options: dict = {"start_new_session": True}
    preexec = die_with_parent()
    if preexec is not None:
        options["preexec_fn"] = preexec
    return options


def kill_group(proc: subprocess.Popen) -> None:
    """SIGKILL ``proc`` and everything in its process group, whether or not ``proc`` itself has already exited
    (a grandchild may still hold its pipes). The group id is ``proc``'s pid, which the kernel does not reuse while
    the group has members."""
    if os.name == "posix":
        try:
            os.killpg(proc.pid, signal.SIGKILL)
            return
        except (ProcessLookupError, PermissionError, OSError):
            pass
    if proc.poll() is None:
        try:
            proc.kill()
        except OSError:
            pass
