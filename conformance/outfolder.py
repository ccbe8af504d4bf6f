"""The one way the suite writes files: into a confined output folder (issues 25 and 29).

Every report, run record, campaign file and witness the suite writes goes through an :class:`OutputFolder`:

- **confined**: a file or folder is named by plain names (:func:`check_name`: letters, digits, ``.``, ``_``,
  ``-``; never ``.``, ``..``, a separator or a control character), and every folder on the way is opened without
  following a symbolic link (``O_NOFOLLOW`` relative to its parent's descriptor), so nothing is written outside the
  folder, whatever links someone placed in it;
- **whole or not at all**: a file is written aside (a dot-file in the same folder) and renamed over its name; a
  rename replaces a link placed there rather than writing through it, and a full disk leaves the earlier file as
  it was;
- **the suite's own**: a folder the suite makes holds a marker file (:data:`MARKER`); a folder that is not empty
  and has no marker is someone else's, and is refused as output. Nothing is deleted but the artefacts the suite
  itself names (:data:`RUN_ARTEFACTS`), and then only inside a folder that is its own;
- **one run, one folder**: a run folder that already holds a run is refused unless asked to replace it
  (``--replace``), and replacing removes every artefact of the earlier run first; an advisory lock (``flock`` on
  the marker) refuses a second run or campaign on the same folder while the first holds it.

Every refusal is one :class:`OutputError` line naming the folder or file and what to do.
"""

from __future__ import annotations

import errno
import json
import os
import re
import stat
from pathlib import Path

MARKER = ".mqconf-folder"
# Every file and folder a conformance run may leave in its folder: replacing a run removes them all first.
RUN_ARTEFACTS = ("run.json", "results.jsonl", "tests.jsonl", "pytest.log", "junit.xml", "allure-results",
                 "allure-report", "divergences", "campaigns.json", "campaign-witnesses", "conformance.json",
                 "conformance.html", "summary.md", "badge.svg", "matrix.html", "strength.json", "strength.md")
_NAME = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._=-]{0,199}\Z")
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


class OutputError(Exception):
    """An output folder or file the suite will not (or cannot) write; one line naming it and saying why."""


def check_name(text: object, what: str = "name") -> str:
    """``text`` if it is a plain file name the suite may write (an id, a slug): 1 to 200 letters, digits, ``_``,
    ``-``, ``=`` or ``.``, not starting with ``.``; else :class:`OutputError` saying so (``what`` names
    where it came from, e.g. ``--id``). A name is never a path: ``../x``, ``.``, ``a/b`` and ``"x\\n"`` are
    refused."""
    if not isinstance(text, str) or not _NAME.match(text):
        shown = repr(text)[:80]
        raise OutputError(f"{what} {shown}: not a plain name (1 to 200 letters, digits, '_', '-', '=' or '.', not "
                          "starting with '.'; never a path)")
    return text


def _why(exc: OSError) -> str:
    if exc.errno == errno.ELOOP:
        return "is a symbolic link; mqconf writes nothing through a link"
    if exc.errno == errno.ENOTDIR:
        return "is not a folder"
    return exc.strerror or str(exc)


class OutputFolder:
    """A folder the suite writes in, held open by its descriptor; see the module's description."""

    def __init__(self, path: Path, fd: int, lock_fd: int | None = None):
        self.path = Path(path)
        self._fd = fd
        self._lock_fd = lock_fd

    # -- opening ---------------------------------------------------------------------------------------------

    @classmethod
    def open(cls, path: Path | str, *, make: bool = True) -> "OutputFolder":
        """The folder at ``path`` (made with its parents when ``make``), without any check of whose it is: for
        writing known artefacts into a folder already chosen (a run folder's reports, a test's divergences)."""
        path = Path(path)
        if make:
            try:
                path.mkdir(parents=True, exist_ok=True)
            except FileExistsError:
                raise OutputError(f"{path}: is a file, not a folder") from None
            except OSError as exc:
                raise OutputError(f"{path}: cannot make this folder ({_why(exc)})") from None
        try:
            fd = os.open(path, os.O_RDONLY | _DIRECTORY | _CLOEXEC)
        except OSError as exc:
            raise OutputError(f"{path}: cannot open this folder ({_why(exc)})") from None
        return cls(path, fd)

    @classmethod
    def claim(cls, path: Path | str, kind: str, *, option: str = "--output", replace: bool = False,
              resume: bool = False, lock: bool = True) -> "OutputFolder":
        """The output folder ``path`` of a command, made the suite's own (its marker says ``kind``) and locked.

        Refused (:class:`OutputError`): a folder that is not empty and holds no marker (someone else's); one whose
        marker is of another kind; one that already holds a run (``run.json``) unless ``replace`` (which removes
        every artefact of that run first) or ``resume`` (a campaign continuing); one another mqconf process
        holds."""
        folder = cls.open(path)
        try:
            entries = set(os.listdir(folder._fd))
            if entries and MARKER not in entries:
                raise OutputError(f"{option} {path}: a folder mqconf did not make (it holds files and no {MARKER}); "
                                  "give a new or empty folder")
            if MARKER in entries:
                marked = folder._read_marker()
                if marked != kind:
                    raise OutputError(f"{option} {path}: an mqconf {marked or 'unknown'} folder, not a {kind} "
                                      "folder; give another folder")
            else:
                folder.write_text(json.dumps({"kind": kind}) + "\n", MARKER)
            if lock:
                folder._lock(option)
            if kind == "run" and "run.json" in entries and not resume:
                if not replace:
                    raise OutputError(f"{option} {path}: holds a run already; give a new folder, or --replace to "
                                      "remove that run and write this one there")
                for name in RUN_ARTEFACTS:
                    folder.remove(name)
        except BaseException:
            folder.close()
            raise
        return folder

    def _read_marker(self) -> str | None:
        try:
            text = self._read_small(MARKER)
            kind = json.loads(text).get("kind")
        except (OSError, ValueError, AttributeError):
            return None
        return kind if isinstance(kind, str) else None

    def _read_small(self, name: str, limit: int = 4096) -> str:
        fd = os.open(name, os.O_RDONLY | _NOFOLLOW | _CLOEXEC | os.O_NONBLOCK, dir_fd=self._fd)
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise OSError(errno.EINVAL, "not a regular file")
            return os.read(fd, limit).decode("utf-8")
        finally:
            os.close(fd)

    def _lock(self, option: str) -> None:
        import fcntl

        try:
            fd = os.open(MARKER, os.O_RDONLY | _NOFOLLOW | _CLOEXEC | os.O_NONBLOCK, dir_fd=self._fd)
        except OSError as exc:
            raise OutputError(f"{option} {self.path}: cannot open its {MARKER} ({_why(exc)})") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise OutputError(f"{option} {self.path}: another mqconf run or campaign is writing this folder; wait "
                              "for it to end or give another folder") from None
        except OSError:  # a file system without locks: carry on unlocked
            os.close(fd)
            return
        self._lock_fd = fd

    def lock_if_marked(self, option: str) -> None:
        """Take the folder's lock when it is the suite's own (it holds a marker); an older folder without one is
        written unlocked. :class:`OutputError` when another mqconf process holds it."""
        try:
            os.lstat(MARKER, dir_fd=self._fd)
        except FileNotFoundError:
            return
        self._lock(option)

    def close(self) -> None:
        """Release the folder (and its lock)."""
        for fd in (self._lock_fd, self._fd):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self._lock_fd = None
        self._fd = -1

    def __enter__(self) -> "OutputFolder":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- paths inside ----------------------------------------------------------------------------------------

    def _parent(self, parts: tuple[str, ...], make: bool) -> tuple[int, str]:
        """A descriptor of the folder holding ``parts[-1]`` (the caller closes it unless it is the root's) and that
        last name; every folder on the way is opened without following a link."""
        if not parts:
            raise OutputError(f"{self.path}: no file named")
        self.file(*parts)
        fd = self._fd
        for index, part in enumerate(parts[:-1]):
            if make:
                try:
                    os.mkdir(part, 0o777, dir_fd=fd)
                except FileExistsError:
                    pass
                except OSError as exc:
                    self._close_inner(fd)
                    raise OSError(exc.errno, exc.strerror, str(self.path.joinpath(*parts[:index + 1]))) from None
            try:
                inner = os.open(part, os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC, dir_fd=fd)
            except OSError as exc:
                self._close_inner(fd)
                raise OutputError(f"{self.path.joinpath(*parts[:index + 1])}: {_why(exc)}") from None
            self._close_inner(fd)
            fd = inner
        return fd, parts[-1]

    def _close_inner(self, fd: int) -> None:
        if fd != self._fd:
            os.close(fd)

    def file(self, *parts: str) -> Path:
        """The path of ``parts`` inside the folder (for printing, or for a program the suite starts)."""
        for part in parts:
            if part != MARKER:
                check_name(part, f"{self.path}: file name")
        return self.path.joinpath(*parts)

    def folder(self, *parts: str) -> "OutputFolder":
        """Subfolder ``parts`` (made when missing; a link there is refused) as an :class:`OutputFolder`."""
        fd, name = self._parent(parts, make=True)
        try:
            try:
                os.mkdir(name, 0o777, dir_fd=fd)
            except FileExistsError:
                pass
            inner = os.open(name, os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC, dir_fd=fd)
        except OSError as exc:
            raise OutputError(f"{self.file(*parts)}: {_why(exc)}") from None
        finally:
            self._close_inner(fd)
        return OutputFolder(self.file(*parts), inner)

    # -- writing ---------------------------------------------------------------------------------------------

    def write_bytes(self, data: bytes, *parts: str) -> Path:
        """Write file ``parts`` whole: aside, then renamed over its name (a link there is replaced, not followed;
        on a full disk the earlier file stays as it was and the OSError names the file)."""
        fd, name = self._parent(parts, make=True)
        aside = f".{name}.{os.getpid()}.tmp"
        target = self.file(*parts)
        try:
            try:
                if stat.S_ISDIR(os.lstat(name, dir_fd=fd).st_mode):
                    raise OutputError(f"{target}: is a folder, not a file mqconf writes")
            except FileNotFoundError:
                pass
            try:
                out = os.open(aside, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | _NOFOLLOW | _CLOEXEC, 0o644, dir_fd=fd)
            except OSError as exc:
                raise OSError(exc.errno, exc.strerror, str(target)) from None
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(out, view):]
            except OSError as exc:
                os.close(out)
                _unlink(aside, fd)
                raise OSError(exc.errno, exc.strerror, str(target)) from None
            os.close(out)
            try:
                os.replace(aside, name, src_dir_fd=fd, dst_dir_fd=fd)
            except OSError as exc:
                _unlink(aside, fd)
                raise OSError(exc.errno, exc.strerror, str(target)) from None
        finally:
            self._close_inner(fd)
        return target

    def write_text(self, text: str, *parts: str) -> Path:
        """:meth:`write_bytes` of ``text`` in UTF-8 (a lone surrogate is written as an escape, never an error)."""
        return self.write_bytes(text.encode("utf-8", "backslashreplace"), *parts)

    def append(self, *parts: str):
        """File ``parts`` opened for appending text (made when missing; a link there is refused)."""
        fd, name = self._parent(parts, make=True)
        try:
            raw = os.open(name, os.O_WRONLY | os.O_APPEND | os.O_CREAT | _NOFOLLOW | _CLOEXEC, 0o644, dir_fd=fd)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise OutputError(f"{self.file(*parts)}: {_why(exc)}") from None
            raise OSError(exc.errno, exc.strerror, str(self.file(*parts))) from None
        finally:
            self._close_inner(fd)
        return os.fdopen(raw, "a", encoding="utf-8", errors="backslashreplace")

    def move_in(self, source: Path, *parts: str) -> Path:
        """Move the file ``source`` (one the suite made elsewhere, e.g. pytest's junit.xml) into the folder as
        ``parts``, through :meth:`write_bytes`."""
        data = Path(source).read_bytes()
        target = self.write_bytes(data, *parts)
        Path(source).unlink()
        return target

    def remove(self, *parts: str) -> None:
        """Remove the file or folder ``parts`` (a folder with everything in it; a link itself, never what it
        points at). Only for artefacts the suite names."""
        fd, name = self._parent(parts, make=False)
        try:
            _remove_at(name, fd)
        finally:
            self._close_inner(fd)


def _unlink(name: str, fd: int) -> None:
    try:
        os.unlink(name, dir_fd=fd)
    except OSError:
        pass


def _remove_at(name: str, fd: int) -> None:
    """Remove ``name`` in folder ``fd``: a file or link unlinked, a folder emptied (without following links) and
    removed; nothing when it is missing."""
    try:
        mode = os.lstat(name, dir_fd=fd).st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISDIR(mode):
        os.unlink(name, dir_fd=fd)
        return
    inner = os.open(name, os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC, dir_fd=fd)
    try:
        for entry in os.listdir(inner):
            _remove_at(entry, inner)
    finally:
        os.close(inner)
    os.rmdir(name, dir_fd=fd)
