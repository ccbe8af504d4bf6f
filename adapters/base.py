"""The adapter protocol and how adapters are found by name.

An adapter declares the capabilities it claims (``groups``, ``segmentation``, ``browse-mark``, ``cluster``...)
so that the suite runs what it claims and reports the rest as not claimed. Adapters are found by name among
those shipped here, through the ``mq_conformance.adapters`` entry-point group, or as ``module:factory``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from importlib.metadata import entry_points
from typing import Protocol, runtime_checkable

from mq_conformance.reference.calls import Call, Outcome

from .capabilities import CapabilityError, check_claim

ENTRY_POINT_GROUP = "mq_conformance.adapters"


class AdapterError(Exception):
    """An adapter that cannot be found or started; the message says which and why."""


@runtime_checkable
class Adapter(Protocol):
    """What every executor of the call language provides."""

    name: str
    capabilities: frozenset[str]

    def reset(self) -> None:
        """Forget every queue, connection and handle: the next call starts from nothing."""

    def execute(self, call: Call) -> Outcome:
        """Run one call and report its outcome (``Outcome.error`` when the executor itself failed)."""

    def close(self) -> None:
        """Release what the adapter holds (processes, connections)."""


def _shipped() -> dict[str, Callable[[], Adapter]]:
    from .ibmmq import IbmMqAdapter
    from .ibmmq_model import NAME as IBMMQ_MODEL, IbmMqModelAdapter
    from .reference import ReferenceAdapter

    return {"reference": ReferenceAdapter, "ibmmq": IbmMqAdapter, IBMMQ_MODEL: IbmMqModelAdapter}


def available() -> dict[str, str]:
    """Every adapter name that :func:`load` accepts, with where it comes from."""
    found = {name: "shipped with the suite" for name in _shipped()}
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        found.setdefault(ep.name, f"entry point {ep.value}")
    found["jsonlines:COMMAND"] = "any program speaking the JSON-lines protocol (docs/implementers.md)"
    found["mutant:NAME"] = "the model with one rule broken (adapters/mutants.py)"
    found["module:factory"] = "a Python factory returning an adapter"
    return found


JSONLINES_PREFIX = "jsonlines:"


def load(name: str) -> Adapter:
    """A new adapter instance by name, entry-point name, ``module:factory``, or ``jsonlines:COMMAND`` (a server
    program speaking the JSON-lines protocol; COMMAND is split as a shell would, without a shell). Its claimed
    capabilities are checked against fixtures/capabilities.yaml: an unknown name is an :class:`AdapterError`."""
    return _checked(_load(name), name)


def _checked(adapter: object, name: str) -> Adapter:
    """``adapter`` if it is one and its claim is known; AdapterError (one line) otherwise."""
    if not isinstance(adapter, Adapter):
        missing = _missing(adapter)
        raise AdapterError(f"adapter {name!r}: its factory returned {_described(adapter)}, not an adapter (one has "
                           f"name, capabilities, reset, execute and close"
                           + (f"; this lacks {', '.join(missing)})" if len(missing) < 5 else ")"))
    try:
        check_claim(getattr(adapter, "capabilities", ()), f"adapter {name!r}")
    except CapabilityError as exc:
        close = getattr(adapter, "close", None)
        if close is not None:
            close()
        raise AdapterError(str(exc)) from None
    return adapter


def _described(value: object) -> str:
    kind = type(value).__name__
    return "None" if value is None else f"{'an' if kind[0] in 'aeiouAEIOU' else 'a'} {kind}"


def _missing(value: object) -> list[str]:
    return [part for part in ("name", "capabilities", "reset", "execute", "close") if not hasattr(value, part)]


def _failure(exc: BaseException) -> str:
    """Why third-party code failed, in one line (a SystemExit is named: it would otherwise end mqconf silently)."""
    if isinstance(exc, SystemExit):
        return f"it called sys.exit({exc.code!r})"
    text = " ".join(str(exc).split())
    text = text if len(text) <= 300 else text[:297] + "..."
    return text or type(exc).__name__


def _load(name: str) -> Adapter:
    if name.startswith("mutant:"):
        from .mutants import load_mutant

        return load_mutant(name)
    if name.startswith(JSONLINES_PREFIX):
        from .jsonlines import JsonLinesAdapter

        return JsonLinesAdapter.from_spec(name[len(JSONLINES_PREFIX):])
    shipped = _shipped()
    if name in shipped:
        return shipped[name]()
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.name == name:
            try:
                return ep.load()()
            except (Exception, SystemExit) as exc:  # noqa: BLE001 - third-party code: reported, not raised
                raise AdapterError(f"adapter {name!r} ({ep.value}) failed to start: {_failure(exc)}") from None
    if ":" in name:
        module_name, _, attr = name.partition(":")
        try:
            factory = getattr(importlib.import_module(module_name), attr)
        except (Exception, SystemExit) as exc:  # noqa: BLE001 - importing runs third-party code
            raise AdapterError(f"cannot load adapter {name!r}: {_failure(exc)}") from None
        if not callable(factory):
            raise AdapterError(f"cannot load adapter {name!r}: {attr} is {_described(factory)}, not a factory")
        def start() -> Adapter:
            try:
                return factory()
            except (Exception, SystemExit) as exc:  # noqa: BLE001
                raise AdapterError(f"adapter {name!r} failed to start: {_failure(exc)}") from None

        from .bounded import BoundedAdapter  # its calls held to the JSON-lines budget: a hang is not forever

        return BoundedAdapter(start, name, check=lambda adapter: _checked(adapter, name))
    known = ", ".join(sorted(available()))
    raise AdapterError(f"unknown adapter {name!r}; known adapters: {known} "
                       f"(or give module:factory, or jsonlines:COMMAND)")
