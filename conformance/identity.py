"""Who answered and which suite asked: the identity every run and campaign records with its results.

A result is only worth something with its identity: the implementation's hello (name, version, capabilities, the
other members it declared and the protocol it spoke), a fingerprint of its program where that is a local file
(:func:`program_fingerprint`: a server swapped behind an unchanged hello is another identity), the suite (version,
git commit, hash of ``fixtures/``), the profile and the command. A campaign folder resumes only when the
identity it recorded matches the one at hand; :func:`differences` says, in one line, what differs.
"""

from __future__ import annotations

import hashlib
import os
import shlex
import shutil
import stat
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from . import __version__


def implementation_of(adapter: Any) -> dict[str, Any]:
    """What ``adapter``'s implementation declared: name, version and capabilities, and for a server its hello's
    other members (``hello``) and the protocol it spoke."""
    found: dict[str, Any] = {
        "name": str(getattr(adapter, "name", "?")),
        "version": str(getattr(adapter, "version", "?")),
        "capabilities": sorted(map(str, getattr(adapter, "capabilities", ()))),
    }
    hello = getattr(adapter, "implementation", None)
    if isinstance(hello, Mapping) and hello:
        found["hello"] = {str(k): str(v) for k, v in hello.items()}
    protocol = getattr(adapter, "protocol", None)
    if isinstance(protocol, int) and not isinstance(protocol, bool):
        found["protocol"] = protocol
    program = program_fingerprint(adapter)
    if program:
        found["program"] = program
    return found


FINGERPRINT_BYTES = 64 * 1024 * 1024  # hashed of each file at most (a larger one: its first 64 MiB and its size)
FINGERPRINT_FILES = 8  # files of one command at most
_CHUNK = 1024 * 1024


def program_fingerprint(adapter: Any) -> dict[str, str]:
    """A hash of each local file the adapter's program is made of, by its resolved path: for a JSON-lines server
    the files its command names (the program, found on PATH as the command would be, and every argument that is
    an existing regular file: ``node server.js``, ``./srv.sh``); for an adapter of a Python module of its own
    (``module:factory``) that module's file. The suite's own adapters are the suite's identity already.

    Bounded and safe: at most :data:`FINGERPRINT_FILES` files, each hashed to at most :data:`FINGERPRINT_BYTES`;
    only regular files are read (a FIFO or device named in the command is never opened for reading, so it
    cannot block), links resolved. The limit: only what the command names is seen - a script that runs another
    program, a server reached over the network or a program changed in a file the command does not name is not
    fingerprinted, and then only its hello tells it apart."""
    argv = getattr(adapter, "command", None)
    if isinstance(argv, (list, tuple)) and argv and all(isinstance(word, str) for word in argv):
        first = argv[0] if os.sep in argv[0] else (shutil.which(argv[0]) or argv[0])
        words = [first, *argv[1:]]
    else:
        module = sys.modules.get(type(adapter).__module__)
        name = getattr(module, "__name__", "")
        words = [] if name.startswith("mq_conformance") else [getattr(module, "__file__", None) or ""]
    found: dict[str, str] = {}
    for word in words:
        if len(found) >= FINGERPRINT_FILES:
            break
        if not word or word.startswith("-"):
            continue
        path = os.path.realpath(word)
        digest = _file_digest(path)
        if digest is not None:
            found[path] = digest
    return found


def _file_digest(path: str) -> str | None:
    """``sha256:<16 hex>`` of a regular file's first :data:`FINGERPRINT_BYTES` (with its size when it is larger);
    None for anything else or anything that cannot be read."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except (OSError, ValueError):
        return None
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):  # replaced between the look and the open
            return None
        digest, left = hashlib.sha256(), FINGERPRINT_BYTES
        while left > 0:
            chunk = os.read(descriptor, min(_CHUNK, left))
            if not chunk:
                break
            digest.update(chunk)
            left -= len(chunk)
    except OSError:
        return None
    finally:
        os.close(descriptor)
    shown = f"sha256:{digest.hexdigest()[:16]}"
    if info.st_size > FINGERPRINT_BYTES:
        shown += f" (first {FINGERPRINT_BYTES} of {info.st_size} bytes)"
    return shown


def suite() -> dict[str, str]:
    """This suite: its version, git commit, the hash of every file under ``fixtures/`` and of its own code."""
    from .report import code_hash, fixtures_hash, git_commit

    return {"version": __version__, "commit": git_commit(), "fixtures_hash": fixtures_hash(), "code_hash": code_hash()}


def command_line(argv: Sequence[str]) -> str:
    """The ``mqconf`` command as it was given."""
    return shlex.join(["mqconf", *map(str, argv)])


def _flatten(value: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(value, Mapping):
        flat: dict[str, Any] = {}
        for key, item in value.items():
            flat.update(_flatten(item, f"{prefix}.{key}" if prefix else str(key)))
        return flat
    return {prefix: value}


def differences(recorded: Mapping[str, Any], current: Mapping[str, Any]) -> list[str]:
    """Each field of two identities that differs, as ``implementation.version '1.0' then, '2.0' now``."""
    before, now = _flatten(recorded), _flatten(current)
    return [f"{key} {before.get(key, '(none)')!r} then, {now.get(key, '(none)')!r} now"
            for key in sorted(set(before) | set(now)) if before.get(key) != now.get(key)]
