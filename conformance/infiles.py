"""The one way the suite reads a user's files: a confined reader (issue 25).

Scenarios, expectations, run folders, reports, campaign summaries and witnesses are read through
:func:`read_bytes` / :func:`read_text`:

- only a **regular file**: a FIFO, a device, a socket or a folder is refused with one line saying which, and the
  file is opened without blocking (``O_NONBLOCK``) and its type checked on the open descriptor (``fstat``), so a
  FIFO never hangs the suite and ``/dev/zero`` is never read;
- **inside the tree** it was asked to read (``root``, e.g. the scenario folder or the run folder): a symbolic link
  whose target lies outside it, or that loops, is refused;
- under a **size limit checked while reading** (never by ``stat``, which a FIFO, ``/proc`` or a growing file
  defeat): reading stops at one byte past the limit.

Each refusal is :class:`UnsafeFile` (an ``OSError`` whose message is one line naming the file); callers turn it
into their own error (SourceError, ReportError...).
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

DEFAULT_LIMIT = 64 * 1024 * 1024  # bytes of one file of a run folder or report (a whole run's results is ~5 MB)
_CHUNK = 1 << 20
_KINDS = ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a folder"))


class UnsafeFile(OSError):
    """A file the suite will not read: not a regular file, out of its tree, a link loop, or too large."""

    def __init__(self, path: Path | str, why: str):
        super().__init__(errno.EINVAL, why, str(path))
        self.why = why

    def __str__(self) -> str:
        return f"{self.filename}: {self.why}"


def _kind(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def check_inside(path: Path, root: Path | None) -> None:
    """:class:`UnsafeFile` when ``path`` is a symbolic link that loops, or (with ``root``) one whose target lies
    outside ``root``; nothing for any other path."""
    if not path.is_symlink() and root is None:
        return
    try:
        target = path.resolve(strict=True)
    except FileNotFoundError:
        if path.is_symlink():
            raise UnsafeFile(path, "a symbolic link to nothing") from None
        raise
    except (RuntimeError, OSError) as exc:  # a loop: RuntimeError before Python 3.13, ELOOP after
        if isinstance(exc, OSError) and exc.errno != errno.ELOOP:
            raise
        raise UnsafeFile(path, "a symbolic link loop") from None
    if root is not None and path.is_symlink():
        inside = Path(root).resolve()
        if target != inside and inside not in target.parents:
            raise UnsafeFile(path, f"a symbolic link out of {root} (to {target}); mqconf reads only files inside "
                                   "the folder it was given")


def read_bytes(path: Path | str, limit: int = DEFAULT_LIMIT, root: Path | str | None = None) -> bytes:
    """The bytes of the regular file ``path`` (see the module's description); FileNotFoundError when it is
    missing, :class:`UnsafeFile` when it is not to be read, OSError for any other failure."""
    path = Path(path)
    check_inside(path, Path(root) if root is not None else None)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise UnsafeFile(path, "a symbolic link loop") from None
        if exc.errno in (errno.ENXIO, errno.EISDIR):  # a socket; a folder
            raise UnsafeFile(path, "a socket" if exc.errno == errno.ENXIO else "a folder") from None
        raise
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise UnsafeFile(path, f"{_kind(mode)}, not a regular file; mqconf reads only regular files")
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(_CHUNK, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise UnsafeFile(path, f"more than {limit} bytes, the limit for this file")
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_text(path: Path | str, limit: int = DEFAULT_LIMIT, root: Path | str | None = None) -> str:
    """:func:`read_bytes` decoded as UTF-8 (UnicodeDecodeError when it is not)."""
    return read_bytes(path, limit, root).decode("utf-8")
