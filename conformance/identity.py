"""Who answered and which suite asked: the identity every run and campaign records with its results.

A result is only worth something with its identity: the implementation's hello (name, version, capabilities, the
other members it declared and the protocol it spoke), the suite (version, git commit, hash of ``fixtures/``), the
profile and the command. A campaign folder resumes only when the identity it recorded matches the one at hand;
:func:`differences` says, in one line, what differs.
"""

from __future__ import annotations

import shlex
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
    return found


def suite() -> dict[str, str]:
    """This suite: its version, git commit and the hash of every file under ``fixtures/``."""
    from .report import fixtures_hash, git_commit

    return {"version": __version__, "commit": git_commit(), "fixtures_hash": fixtures_hash()}


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
