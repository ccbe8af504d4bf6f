"""Replaying one call sequence on the reference model and an adapter, diffing outcomes as the harness does.

:func:`replay` is a pure function of the sequence and two freshly reset adapters: the same sequence gives the
same records on any machine, in any process. Each call runs on the model (left) and the adapter (right);
identifiers are compared by identity structure (conformance/compare.py), and a call naming ``$idN`` gets, on
each side, the identifier that side bound to that symbol. Replay stops at the first divergence, as the state
machines do: what follows it is no longer the same story on both sides.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from adapters.base import Adapter
from reference.calls import Call, Outcome

from ..compare import Identities, compare, load_policy, symbolic

POLICY = load_policy()
# What an identifier symbol the replay never bound stands for: the same unknown value on both sides.
UNKNOWN_ID = {"hex": "ff" * 16}
OPTION_KEYS = (("Options",), ("PMO", "Options"), ("GMO", "Options"), ("GMO", "MatchOptions"))


def execute(adapter: Adapter, call: Call) -> Outcome:
    """``adapter.execute`` with a crash reported as an outcome, never raised (as the scenario runner does)."""
    try:
        return adapter.execute(call)
    except Exception as exc:  # noqa: BLE001 - an adapter's crash is a result
        return Outcome(error=f"adapter raised {type(exc).__name__}: {exc}")


def _is_symbol(value: Any) -> bool:
    return isinstance(value, str) and value.startswith("$") and len(value) > 1


def _symbolic_call(value: Any, identities: Identities, aliases: Mapping[str, str]) -> Any:
    """The call as recorded: scenario variables replaced by the symbols they stand for, unbound ones by
    :data:`UNKNOWN_ID`."""
    if _is_symbol(value):
        symbol = aliases.get(value, value)
        return symbol if symbol in identities.left.values() else dict(UNKNOWN_ID)
    if isinstance(value, Mapping):
        return {k: _symbolic_call(v, identities, aliases) for k, v in value.items()}
    if isinstance(value, list):
        return [_symbolic_call(v, identities, aliases) for v in value]
    return value


def _side(value: Any, identities: Identities, side: str) -> Any:
    """A recorded call as one side runs it: each ``$idN`` replaced by that side's identifier."""
    if _is_symbol(value):
        return {"hex": identities.value(side, value)}
    if isinstance(value, Mapping):
        return {k: _side(v, identities, side) for k, v in value.items()}
    if isinstance(value, list):
        return [_side(v, identities, side) for v in value]
    return value


def call_options(call: Mapping[str, Any]) -> str:
    """The option names a call passes (MQOO/MQCO, PMO and GMO options, match options), sorted, joined by +."""
    found: set[str] = set()
    for path in OPTION_KEYS:
        value: Any = call
        for key in path:
            value = value.get(key) if isinstance(value, Mapping) else None
        if isinstance(value, list):
            found.update(v for v in value if isinstance(v, str))
        elif isinstance(value, str):
            found.add(value)
    return "+".join(sorted(found))


def _field(outcome: Outcome, path: str) -> Any:
    head, _, name = path.partition(".")
    value = getattr(outcome, head, None)
    return value.get(name) if name and isinstance(value, Mapping) else value


def _plain(outcome: Outcome) -> str:
    data = outcome.to_json()
    data.pop("clauses", None)
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def replay(sequence: Mapping[str, Any], model: Adapter, impl: Adapter) -> list[dict[str, Any]]:
    """Run ``sequence`` on ``model`` and ``impl`` (both freshly reset by the caller); one record per call run.

    A record: ``step``, ``op``, ``call`` (the call with ``$idN`` symbols, JSON), ``model`` and ``impl``
    (outcomes, JSON, without clauses; only on a diverging call or one an executor failed on, else None), ``expect`` (the model's outcome as a scenario expectation, JSON),
    ``clauses`` (the model's), ``problems`` (empty unless the outcomes differ), ``diverged``, ``options``,
    ``model_reason`` and ``impl_reason``. The last record is the diverging one, if any.
    """
    identities = Identities()
    aliases: dict[str, str] = {}
    binds = sequence.get("binds") or []
    records: list[dict[str, Any]] = []
    for index, raw in enumerate(sequence["calls"]):
        op = raw["op"]
        args = _symbolic_call({k: v for k, v in raw.items() if k != "op"}, identities, aliases)
        left = execute(model, Call(op, _side(args, identities, "left")))
        right = execute(impl, Call(op, _side(args, identities, "right")))
        problems = compare(left, right, identities, POLICY)
        if index < len(binds) and binds[index]:
            for variable, path in binds[index].items():
                symbol = identities.symbol("left", _field(left, path))
                if symbol is not None:
                    aliases[variable] = symbol
        keep = bool(problems) or left.error is not None or right.error is not None
        records.append({
            "step": index,
            "op": op,
            "call": json.dumps(args, sort_keys=True, separators=(",", ":")),
            # both outcomes in full only where a reader needs them: the diverging call, and calls an executor
            # failed on (the expectation and the clauses describe every other step)
            "model": _plain(left) if keep else None,
            "impl": _plain(right) if keep else None,
            "expect": json.dumps(symbolic(left, identities, "left", POLICY), sort_keys=True, separators=(",", ":")),
            "clauses": list(left.clauses),
            "problems": problems,
            "diverged": bool(problems),
            "options": call_options(args),
            "model_reason": left.Reason or (f"error: {left.error}" if left.error else ""),
            "impl_reason": right.Reason or (f"error: {right.error}" if right.error else ""),
        })
        if problems:
            break
    return records
