"""The capability names an implementation may claim, read from fixtures/capabilities.yaml (the one list).

Scenarios, tests, state machines and campaigns each need capabilities; an adapter claims some. What needs a
capability that is not claimed is reported *not claimed*, never passed. A name that is not in the list is an
error wherever it appears (a server's hello, an adapter's declaration, a scenario), in one line that lists the
valid names. (Clause ids do not apply: this is the suite's vocabulary of areas, not a rule of IBM's.)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import yaml

# Read through importlib.resources: a file, or a member of the zip a campaign ships to Spark's executors.
CAPABILITIES_FILE = files("mq_conformance.fixtures") / "capabilities.yaml"
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class CapabilityError(ValueError):
    """An unknown capability name, or a claim missing what a claimed capability requires (one line)."""


@dataclass(frozen=True)
class Capability:
    """One claimable area: what it covers, what it cannot be claimed without, and the MQ names and call-language
    ops whose use means a scenario needs it."""

    name: str
    covers: str
    requires: frozenset[str]
    names: frozenset[str]
    ops: frozenset[str]


def _parse(data: Any, path: Path) -> dict[str, Capability]:
    if not isinstance(data, Mapping) or not isinstance(data.get("capabilities"), Mapping):
        raise CapabilityError(f"{path}: expected a mapping with a 'capabilities' mapping")
    found: dict[str, Capability] = {}
    for name, item in data["capabilities"].items():
        if not isinstance(item, Mapping) or not isinstance(item.get("covers"), str):
            raise CapabilityError(f"{path}: capability {name!r} needs 'covers' (a sentence)")
        lists = {}
        for key in ("requires", "names", "ops"):
            value = item.get(key) or []
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise CapabilityError(f"{path}: capability {name!r}: '{key}' must be a list of strings")
            lists[key] = frozenset(value)
        found[str(name)] = Capability(str(name), " ".join(item["covers"].split()), **lists)
    for capability in found.values():
        unknown = capability.requires - set(found)
        if unknown:
            raise CapabilityError(f"{path}: capability {capability.name!r} requires unknown {sorted(unknown)}")
    return found


@lru_cache(maxsize=4)
def load_capabilities(path: Path | Traversable = CAPABILITIES_FILE) -> dict[str, Capability]:
    """Every capability by name, in the file's order."""
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)  # noqa: S506 - a safe loader
    except (OSError, yaml.YAMLError) as exc:
        raise CapabilityError(f"{path}: cannot read the capability list ({exc})") from None
    return _parse(data, path)


def capability_names() -> tuple[str, ...]:
    """Every valid capability name, in the file's order."""
    return tuple(load_capabilities())


def check_names(names: Iterable[Any], where: str) -> frozenset[str]:
    """``names`` as a set, or :class:`CapabilityError` naming ``where`` and listing the valid names when one is
    not a capability."""
    known = load_capabilities()
    given = list(names)
    unknown = [n for n in given if not isinstance(n, str) or n not in known]
    if unknown:
        shown = ", ".join(repr(n)[:40] for n in unknown[:5])
        raise CapabilityError(f"{where}: unknown capability {shown}; valid capabilities: {', '.join(known)}")
    return frozenset(given)


def check_claim(names: Iterable[Any], where: str) -> frozenset[str]:
    """An implementation's claim, checked: every name known, and every capability a claimed one requires also
    claimed (so that nothing is run whose ground was not claimed)."""
    claimed = check_names(names, where)
    known = load_capabilities()
    for name in sorted(claimed):
        missing = known[name].requires - claimed
        if missing:
            raise CapabilityError(f"{where}: claims {name!r}, which requires {', '.join(sorted(missing))}; claim "
                                  f"that too, or leave {name!r} out")
    return claimed


def needed_by(ops: Iterable[str], names: Iterable[str]) -> frozenset[str]:
    """The capabilities that the use of these call-language ``ops`` and MQ ``names`` shows a scenario needs
    (``core`` aside: every scenario needs it)."""
    ops, names = set(ops), set(names)
    return frozenset(c.name for c in load_capabilities().values()
                     if c.name != "core" and (c.ops & ops or c.names & names))


_MQ_NAME = re.compile(r"MQ[A-Z]+_[A-Z0-9_]+")


def mq_names(value: Any, found: set[str] | None = None) -> set[str]:
    """Every MQ constant name in ``value`` (keys, values, nested), added to ``found``."""
    found = set() if found is None else found
    if isinstance(value, str):
        found.update(_MQ_NAME.findall(value))
    elif isinstance(value, Mapping):
        for key, item in value.items():
            mq_names(key, found)
            mq_names(item, found)
    elif isinstance(value, (list, tuple)):
        for item in value:
            mq_names(item, found)
    return found


def needed_by_calls(calls: Iterable[Mapping[str, Any]]) -> frozenset[str]:
    """The capabilities a sequence of calls in the call language (``{"op": ..., ...}``) needs."""
    ops: set[str] = set()
    names: set[str] = set()
    for call in calls:
        ops.add(str(call.get("op")))
        mq_names(dict(call), names)
    return needed_by(ops, names)
