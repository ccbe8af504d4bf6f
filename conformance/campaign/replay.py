"""Replaying one call sequence on the reference model and an adapter, diffing outcomes as the harness does.

:func:`replay` is a pure function of the sequence and two freshly reset adapters: the same sequence gives the
same records on any machine, in any process. Each call runs on the model (left) and the adapter (right);
identifiers are compared by identity structure (conformance/compare.py), and a call naming ``$idN`` gets, on
each side, the identifier that side bound to that symbol. Replay stops at the first divergence, as the state
machines do: what follows it is no longer the same story on both sides.

A campaign replays millions of calls, so the loop does per call only what every step's record needs (the op,
the option names, both reason codes, the model's clauses, the comparison); the call as recorded and the
model's outcome as a scenario expectation (JSON text) are built after the loop, and only where a reader needs
them: for every step of a sequence that diverged (its witness is made of them), and for a call an executor
failed on. :func:`replay` (``full``) builds them for every step.
"""

from __future__ import annotations

import functools
import itertools
import json
import marshal
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from mq_conformance.adapters.base import Adapter
from mq_conformance.reference.calls import Call, Outcome

from ..compare import UNKNOWN_ID, Identities, compare, load_policy, on_side, symbolic

POLICY = load_policy()
OPTION_KEYS = (("Options",), ("PMO", "Options"), ("GMO", "Options"), ("GMO", "MatchOptions"))
_JSON = json.JSONEncoder(sort_keys=True, separators=(",", ":")).encode


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


def call_sides(raw: Mapping[str, Any], identities: Identities, aliases: Mapping[str, str]
               ) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any], bytes | None]:
    """A call's arguments (``raw`` without its op) three ways: as recorded (symbols for identifiers), as the
    model runs it, and as the adapter runs it (a copy of its own, so an adapter that changes what it was given
    changes nothing the replay keeps); and, for a call that names no identifier, its arguments' ``marshal``
    bytes (equal bytes, equal arguments: a key for what is computed from the call alone).

    Most calls name no identifier: their arguments are recorded and given to the model as they are (the model
    changes nothing it is given), and copied for the adapter through ``marshal`` (exact for the call language's
    plain values, and no ``$`` in the bytes proves no string starts with one). A call that names one, or holds
    a value ``marshal`` cannot copy, takes the walk that resolves symbols."""
    args = {k: v for k, v in raw.items() if k != "op"}
    try:
        blob = marshal.dumps(args)
    except ValueError:
        blob = b"$"
    if b"$" not in blob:
        return args, args, marshal.loads(blob), blob
    recorded = _symbolic_call(args, identities, aliases)
    return recorded, on_side(recorded, identities, "left"), on_side(recorded, identities, "right"), None


def call_options(call: Mapping[str, Any]) -> str:
    """The option names a call passes (MQOO/MQCO, PMO and GMO options, match options), sorted, joined by +."""
    found: list[str] = []
    for path in OPTION_KEYS:
        value: Any = call
        for key in path:
            if value is None:
                break
            value = value.get(key) if type(value) is dict or isinstance(value, Mapping) else None
        if value is None:
            continue
        if isinstance(value, list):
            found += [v for v in value if isinstance(v, str)]
        elif isinstance(value, str):
            found.append(value)
    return "+".join(sorted(set(found))) if found else ""


@functools.lru_cache(maxsize=50_000)
def _options_by_blob(blob: bytes) -> str:
    """:func:`call_options` of the identifier-free call whose arguments' marshal bytes are ``blob`` (calls
    repeat, so a campaign looks most of them up)."""
    return call_options(marshal.loads(blob))


def _options_of(recorded: Mapping[str, Any], blob: bytes | None) -> str:
    return call_options(recorded) if blob is None else _options_by_blob(blob)


def _field(outcome: Outcome, path: str) -> Any:
    head, _, name = path.partition(".")
    value = getattr(outcome, head, None)
    return value.get(name) if name and isinstance(value, Mapping) else value


def _plain(outcome: Outcome) -> str:
    data = outcome.to_json()
    data.pop("clauses", None)
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def _expectation(outcome: Outcome, identities: Identities, bound: int, other: Outcome | None = None) -> str:
    """The model's outcome as a scenario expectation (JSON), with the symbols the first ``bound`` bindings
    gave: what :func:`~mq_conformance.conformance.compare.symbolic` said right after that call's comparison (bindings are
    only ever added, in order, so a prefix of them is the state at any earlier call). ``other`` is the
    implementation's outcome of a diverging call: an identifier only the model generated there is expected as a
    new one (or as not the none value the implementation gave), never as the model's bytes."""
    if bound != identities.count:
        identities = Identities(dict(itertools.islice(identities.left.items(), bound)),
                                dict(itertools.islice(identities.right.items(), bound)), bound)
    return _JSON(symbolic(outcome, identities, "left", POLICY, other))


@dataclass
class Replayed:
    """One sequence's replay, column by column (one entry per call run; the last is the diverging call, if
    any). ``call`` and ``expect`` are JSON text where kept (see the module's docstring), else None; ``model``
    and ``impl`` (both outcomes, JSON, without clauses) only on the diverging call and on calls an executor
    failed on; ``problems`` are the diverging call's differences (every other call has none)."""

    op: list[str] = field(default_factory=list)
    options: list[str] = field(default_factory=list)
    clauses: list[list[str]] = field(default_factory=list)
    model_reason: list[str] = field(default_factory=list)
    impl_reason: list[str] = field(default_factory=list)
    call: list[str | None] = field(default_factory=list)
    expect: list[str | None] = field(default_factory=list)
    model: list[str | None] = field(default_factory=list)
    impl: list[str | None] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    fields: str = ""  # the fields the diverging call differs in (:func:`differing_fields`), "" without a divergence

    @property
    def diverged(self) -> bool:
        return bool(self.problems)

    def __len__(self) -> int:
        return len(self.op)

    def records(self) -> list[dict[str, Any]]:
        """One mapping per call run (see :func:`replay`)."""
        last = len(self.op) - 1
        return [{"step": i, "op": self.op[i], "call": self.call[i], "model": self.model[i], "impl": self.impl[i],
                 "expect": self.expect[i], "clauses": list(self.clauses[i]),
                 "problems": list(self.problems) if i == last else [], "diverged": i == last and self.diverged,
                 "options": self.options[i], "model_reason": self.model_reason[i],
                 "impl_reason": self.impl_reason[i], "fields": self.fields if i == last else ""}
                for i in range(len(self.op))]


def replay_columns(sequence: Mapping[str, Any], model: Adapter, impl: Adapter, full: bool = False) -> Replayed:
    """Run ``sequence`` on ``model`` and ``impl`` (both freshly reset by the caller), recording it column by
    column; ``full`` builds the recorded call and the expectation of every step, not only where kept."""
    identities = Identities()
    aliases: dict[str, str] = {}
    binds = sequence.get("binds") or []
    out = Replayed()
    ops, options, clauses, model_reasons, impl_reasons = (out.op, out.options, out.clauses, out.model_reason,
                                                          out.impl_reason)
    history: list[tuple[dict[str, Any], Outcome, int]] = []  # per call: as recorded, the model's outcome, bindings
    kept: dict[int, tuple[str, str]] = {}
    problems: list[str] = []
    for index, raw in enumerate(sequence["calls"]):
        op = raw["op"]
        recorded, mine, theirs, blob = call_sides(raw, identities, aliases)
        options.append(_options_of(recorded, blob))
        left = execute(model, Call(op, mine))
        right = execute(impl, Call(op, theirs))
        problems = compare(left, right, identities, POLICY)
        if index < len(binds) and binds[index]:
            for variable, path in binds[index].items():
                symbol = identities.symbol("left", _field(left, path))
                if symbol is not None:
                    aliases[variable] = symbol
        ops.append(op)
        clauses.append(left.clauses)
        model_reasons.append(left.Reason or (f"error: {left.error}" if left.error else ""))
        # never the implementation's free text: a server whose error text differs on every call would make one
        # signature (and one witness) per sequence; the text stays in the row's problems
        impl_reasons.append(_known_reason(right.Reason) or ("error" if right.error else ""))
        history.append((recorded, left, identities.count))
        if problems or left.error is not None or right.error is not None:
            # both outcomes in full only where a reader needs them: the diverging call, and calls an executor
            # failed on (the expectation and the clauses describe every other step)
            kept[index] = (_plain(left), _plain(right))
        if problems:
            out.fields = differing_fields(left, right, problems)
            break
    out.problems = problems
    count = len(history)
    out.call, out.expect, out.model, out.impl = [None] * count, [None] * count, [None] * count, [None] * count
    for index in range(count) if full or problems else kept:
        recorded, left, bound = history[index]
        out.call[index] = _JSON(recorded)
        out.expect[index] = _expectation(left, identities, bound, right if problems and index == count - 1 else None)
    for index, (model_json, impl_json) in kept.items():
        out.model[index], out.impl[index] = model_json, impl_json
    return out


def replay(sequence: Mapping[str, Any], model: Adapter, impl: Adapter) -> list[dict[str, Any]]:
    """Run ``sequence`` on ``model`` and ``impl`` (both freshly reset by the caller); one record per call run.

    A record: ``step``, ``op``, ``call`` (the call with ``$idN`` symbols, JSON), ``model`` and ``impl``
    (outcomes, JSON, without clauses; only on a diverging call or one an executor failed on, else None),
    ``expect`` (the model's outcome as a scenario expectation, JSON), ``clauses`` (the model's), ``problems``
    (empty unless the outcomes differ), ``diverged``, ``options``, ``model_reason`` and ``impl_reason``. The
    last record is the diverging one, if any."""
    return replay_columns(sequence, model, impl, full=True).records()


def signature_slug_of(op: str, args: Mapping[str, Any], left: Outcome, right: Outcome, problems: list[str]) -> str:
    """The campaign signature's slug (``put-13f238897c``) of a diverging call, computed as a campaign's replay
    computes its columns, so a state machine's divergence and a campaign's share one name that an expectations
    file can list."""
    from .run import signature_slug

    return signature_slug({"op": op, "options": call_options(args),
                           "model_reason": left.Reason or (f"error: {left.error}" if left.error else ""),
                           "impl_reason": _known_reason(right.Reason) or ("error" if right.error else ""),
                           "fields": differing_fields(left, right, problems)})


def differing_fields(left: Outcome, right: Outcome, problems: list[str]) -> str:
    """The fields a diverging call differs in, for its signature: each difference's field as the comparison names
    it (``Reason``, ``MD.Priority``, ``error``), and for ``attributes`` (MQINQ's answer) each selector whose value
    differs (``attributes.MQIA_CURRENT_Q_DEPTH``), sorted, joined by +. Two different attribute bugs are two
    signatures. Only names the comparison policy or MQ defines appear: a selector the implementation made up is
    ``attributes.(not an MQ selector)``, so an implementation's free text never makes a signature each."""
    found: set[str] = set()
    for problem in problems:
        name = problem.split(":", 1)[0]
        if name != "attributes":
            found.add(name if name.replace(".", "").replace("_", "").isalnum() else "(other)")
            continue
        mine, theirs = left.attributes, right.attributes
        if not isinstance(mine, Mapping) or not isinstance(theirs, Mapping):
            found.add("attributes")
            continue
        for selector in set(mine) | set(theirs):
            if mine.get(selector, _ABSENT) != theirs.get(selector, _ABSENT):
                found.add(f"attributes.{_known_selector(selector, mine)}")
    return "+".join(sorted(found))


_ABSENT = object()


def _known_selector(selector: Any, model: Mapping[str, Any]) -> str:
    from mq_conformance.reference.constants import VALUES

    return selector if selector in model or (isinstance(selector, str) and selector in VALUES) \
        else "(not an MQ selector)"


def _known_reason(reason: Any) -> str | None:
    """An implementation's Reason as a signature shows it: a reason code MQ defines, or one word for any other
    (names made up per call would make a signature each)."""
    from mq_conformance.reference.constants import VALUES

    if not reason:
        return None
    return reason if isinstance(reason, str) and reason in VALUES else "MQRC_(not an MQ reason)"
