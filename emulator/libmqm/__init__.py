"""libmqm: IBM MQ's C MQI library for the emulator, built from the C source beside this file.

An application in any language whose IBM MQ binding loads IBM's ``libmqm_r.so`` (IBM's Python ``ibmmq``, Node.js
``ibmmq``, Go's mq-golang, pymqi's C extension, C and C++ programs) reaches ``mqconf emulator --listen`` with this
folder first on its library path (``LD_LIBRARY_PATH=$(mqconf emulator --libmqm)``); it finds the listener as IBM's
client finds a queue manager (docs/emulator.md, "Any language: libmqm").

:func:`folder` builds the library with the machine's C compiler (``$CC``, else ``cc``) on first use, into a
per-user cache keyed by the source and the compiler (``$XDG_CACHE_HOME/mq-conformance/libmqm/<key>``, else
``~/.cache/...``), never a fixed name another user could plant: it is built in a fresh private folder and renamed
into place, so a half-built library is never seen and two processes building at once both succeed. The library is
``libmqm_r.so``, with the other names IBM's bindings load (``libmqm.so``, ``libmqic_r.so``, ``libmqic.so``) as
links to it.
"""

from __future__ import annotations

import hashlib
import os
import shlex
import shutil
import subprocess
import tempfile
from pathlib import Path

SOURCE = Path(__file__).resolve().parent
LIBRARY = "libmqm_r.so"
ALIASES = ("libmqm.so", "libmqic_r.so", "libmqic.so")
FLAGS = ("-O2", "-fPIC", "-shared", "-fvisibility=hidden", "-pthread", f"-Wl,-soname,{LIBRARY}")
BUILD_SECONDS = 300


class LibmqmUnavailable(Exception):
    """The library cannot be built here (no C compiler, or it failed): the message says why, in one line."""


def sources() -> list[Path]:
    """The library's C source and headers, in a stable order."""
    return sorted(p for p in SOURCE.iterdir() if p.suffix in (".c", ".h"))


def compiler() -> list[str]:
    """The C compiler command: ``$CC`` (split as a shell would), else ``cc``."""
    command = shlex.split(os.environ.get("CC", "").strip() or "cc")
    if not command or shutil.which(command[0]) is None:
        raise LibmqmUnavailable(f"no C compiler: {command[0] if command else 'cc'!r} is not on PATH (set CC to one)")
    return command


def cache_root() -> Path:
    """The per-user folder holding built libraries."""
    base = os.environ.get("XDG_CACHE_HOME", "").strip()
    return (Path(base) if base else Path.home() / ".cache") / "mq-conformance" / "libmqm"


def _key(command: list[str]) -> str:
    digest = hashlib.sha256()
    for path in sources():
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    digest.update("\0".join(command + list(FLAGS)).encode())
    return digest.hexdigest()[:16]


def build(into: Path, command: list[str] | None = None) -> Path:
    """Compile the library into the folder ``into`` (created; it must not hold one already) and link the other
    names to it; the folder."""
    command = command or compiler()
    into.mkdir(parents=True, exist_ok=True)
    target = into / LIBRARY
    argv = [*command, *FLAGS, "-o", str(target), *(str(p) for p in sources() if p.suffix == ".c"), "-ldl"]
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=BUILD_SECONDS, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise LibmqmUnavailable(f"building {LIBRARY} failed: {exc}") from None
    if done.returncode != 0:
        first = (done.stderr or done.stdout).strip().splitlines()
        raise LibmqmUnavailable(f"building {LIBRARY} failed ({command[0]}): {first[0] if first else done.returncode}")
    for alias in ALIASES:
        (into / alias).symlink_to(LIBRARY)
    return into


def folder(root: Path | None = None) -> Path:
    """The folder holding the built library, built on first use (see the module's docstring)."""
    command = compiler()
    root = root or cache_root()
    final = root / _key(command)
    if (final / LIBRARY).is_file():
        return final
    try:
        root.mkdir(parents=True, exist_ok=True, mode=0o700)
        aside = Path(tempfile.mkdtemp(prefix=".build-", dir=root))
    except OSError as exc:
        raise LibmqmUnavailable(f"cannot build in {root}: {exc.strerror or exc} (set XDG_CACHE_HOME to a folder "
                                "of yours)") from None
    try:
        build(aside, command)
        try:
            aside.rename(final)
        except OSError:
            if not (final / LIBRARY).is_file():  # not another process that built it first
                raise
    finally:
        if aside.exists():
            shutil.rmtree(aside, ignore_errors=True)
    return final
