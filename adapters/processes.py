"""Child processes that cannot outlive the suite: each in its own process group, the whole group killed when it
is done with, and (on Linux) a parent-death signal so that a SIGKILL of the suite kills its children too.

A process group does not reach a descendant that left it (``setsid()`` then ``fork()``): on Linux the suite makes
itself a child subreaper (:func:`become_subreaper`, ``PR_SET_CHILD_SUBREAPER``), so such a process, orphaned, becomes
the suite's child rather than init's; :func:`kill_group` kills a child's whole tree of descendants (found by their
parent ids in ``/proc``) besides its group, and :func:`kill_descendants` kills every descendant left when the suite
ends.

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
_PR_SET_CHILD_SUBREAPER = 36


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


def become_subreaper() -> bool:
    """Make this process a child subreaper (Linux): a descendant orphaned by its parent's exit becomes our child,
    so :func:`kill_descendants` reaches it even after it left every process group and session of ours. False
    where the OS has no such thing."""
    if _PRCTL is None:
        return False
    return _PRCTL(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0


def descendants(root: int) -> list[int]:
    """The pids of every living descendant of ``root`` (children first), from the parent ids in ``/proc``; none
    where there is no ``/proc``."""
    children: dict[int, list[int]] = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return []
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields and fields[0] != b"Z":
            children.setdefault(int(fields[1]), []).append(int(entry))
    found, todo = [], list(children.get(root, []))
    while todo:
        pid = todo.pop(0)
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def _kill(pids: list[int]) -> None:
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError, OSError):
            pass


def kill_descendants() -> None:
    """SIGKILL every descendant of this process (repeated until none is left: one may fork while we kill) and
    reap those that became our children."""
    for _ in range(20):
        pids = descendants(os.getpid())
        if not pids:
            break
        _kill(pids)
        _reap()
    _reap()


def _reap() -> None:
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except (ChildProcessError, OSError):
            return
        if pid == 0:
            return


def kill_group(proc: subprocess.Popen) -> None:
    """SIGKILL ``proc``, its whole tree of descendants (those that left its group too) and everything in its
    process group, whether or not ``proc`` itself has already exited (a grandchild may still hold its pipes). The
    group id is ``proc``'s pid, which the kernel does not reuse while the group has members."""
    if proc.poll() is None:
        _kill(descendants(proc.pid))
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
