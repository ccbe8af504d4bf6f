"""Comparing two implementations' outcomes of the same call, field by field, as fixtures/comparison.yaml says.

Generated identifiers (MsgId, CorrelId, GroupId, MsgToken) differ between implementations by nature, so they
are compared by identity structure: each side's first new value is bound to a fresh symbol (``$id1``, ...),
and a value seen before must map to the same symbol on both sides.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import yaml

from mq_conformance import fixtures
from mq_conformance.reference import constants
from mq_conformance.reference.calls import Outcome

NONE_NAMES = {"MQMI_NONE", "MQCI_NONE", "MQGI_NONE", "MQMTOK_NONE", "MQACT_NONE"}


def load_policy() -> dict[str, Any]:
    """The comparison policy (fixtures/comparison.yaml)."""
    return yaml.safe_load((fixtures.ROOT / "comparison.yaml").read_text())


# What an identifier symbol or variable no call has bound stands for (a campaign's replay, a shrunk sequence):
# the same value on both sides, 16 bytes, a valid MsgToken, MsgId, CorrelId or GroupId that nothing generated.
UNKNOWN_ID = {"hex": "ff" * 16}


@dataclass
class Identities:
    """The symbols bound so far: for each side, identifier value -> symbol."""

    left: dict[Any, str] = field(default_factory=dict)
    right: dict[Any, str] = field(default_factory=dict)
    count: int = 0

    def symbol(self, side: str, value: Any) -> str | None:
        return (self.left if side == "left" else self.right).get(value)

    def value(self, side: str, symbol: str) -> Any:
        """The identifier a side bound to ``symbol``."""
        for value, name in (self.left if side == "left" else self.right).items():
            if name == symbol:
                return value
        raise KeyError(symbol)

    def match(self, a: Any, b: Any) -> tuple[bool, str | None]:
        """Whether identifiers ``a`` (left) and ``b`` (right) correspond; binds them when both are new."""
        if a in NONE_NAMES or b in NONE_NAMES or a is None or b is None:
            return a == b, None
        sa, sb = self.left.get(a), self.right.get(b)
        if sa is None and sb is None:
            self.count += 1
            name = f"$id{self.count}"
            self.left[a], self.right[b] = name, name
            return True, name
        return sa == sb and sa is not None, sa


FAILED = "MQCC_FAILED"
ONLY_ON_FAILURE = ("CompCode", "Reason")


def _options_equal(a: Any, b: Any) -> bool:
    if isinstance(a, list) and isinstance(b, list):
        return sorted(a) == sorted(b)
    return a == b


def compare(left: Outcome, right: Outcome, identities: Identities, policy: dict[str, Any]) -> list[str]:
    """Every compared field where ``left`` and ``right`` differ, as "Field: left vs right".

    A call that failed (MQCC_FAILED on either side) sets only its CompCode and Reason; every other output is left
    as the caller gave it (IBM MQ, "API completion and reason codes", topic q040700_), so only those two are
    compared: an implementation that returns the structures it was given on a failure is not failed for it.

    This is :func:`compare_full` (the definition) with one shortcut, for campaigns that compare every call: a
    structure (MD, GMO...) equal as a whole on both sides has no differing exact field, so only its identity
    fields are matched (in the same order, binding the same symbols). tests/test_campaign_lean.py checks, over
    generated outcomes and a mutant adapter's, that both give the same problems and the same bindings."""
    if left.error or right.error:
        return [] if left.error == right.error else [f"error: {left.error!r} vs {right.error!r}"]
    plan = _plan(policy)
    problems: list[str] = []
    for key, rule, identity_names in (plan[1] if FAILED in (left.CompCode, right.CompCode) else plan[0]):
        a, b = getattr(left, key), getattr(right, key)
        if rule is None:
            if a != b and not _options_equal(a, b):
                problems.append(f"{key}: {a!r} vs {b!r}")
        elif a is None and b is None:
            continue  # neither side has the structure: each of its fields is None on both sides
        elif type(a) is dict and type(b) is dict and a == b:
            for name in identity_names:
                x, y = a.get(name), b.get(name)
                if not identities.match(x, y)[0]:
                    problems.append(f"{key}.{name}: {x!r} vs {y!r}")
        else:
            _compare_structure(key, rule, a, b, identities, problems)
    return problems


def compare_full(left: Outcome, right: Outcome, identities: Identities, policy: dict[str, Any]) -> list[str]:
    """:func:`compare` field by field with no shortcut: the plain reading of fixtures/comparison.yaml that
    :func:`compare` must always agree with."""
    if left.error or right.error:
        return [] if left.error == right.error else [f"error: {left.error!r} vs {right.error!r}"]
    if FAILED in (left.CompCode, right.CompCode):
        policy = {key: rule for key, rule in policy.items() if key in ONLY_ON_FAILURE}
    problems: list[str] = []
    for key, rule in policy.items():
        a, b = getattr(left, key), getattr(right, key)
        if isinstance(rule, dict):
            _compare_structure(key, rule, a, b, identities, problems)
        elif not _options_equal(a, b):
            problems.append(f"{key}: {a!r} vs {b!r}")
    return problems


def _compare_structure(key: str, rule: dict[str, str], a: Any, b: Any, identities: Identities,
                       problems: list[str]) -> None:
    """The problems of one structure (MD, GMO...) compared field by field under ``rule``, added to ``problems``."""
    if (a is None) != (b is None):
        problems.append(f"{key}: {'absent' if a is None else 'present'} vs {'absent' if b is None else 'present'}")
        return
    for name, how in rule.items():
        x, y = (a or {}).get(name), (b or {}).get(name)
        if how == "identity":
            same, _ = identities.match(x, y)
        else:
            same = _options_equal(x, y)
        if not same:
            problems.append(f"{key}.{name}: {x!r} vs {y!r}")


# policy id -> (the policy, its plan); holding the policy keeps its id from being reused by another object
_PLANS: dict[int, tuple[dict[str, Any], tuple]] = {}


def _plan(policy: dict[str, Any]) -> tuple:
    """The policy as two lists of (key, rule or None for a plain field, its identity fields): every key, and
    the keys compared when a call failed. Built once per policy object (a policy is read from
    fixtures/comparison.yaml by :func:`load_policy` and never changed)."""
    cached = _PLANS.get(id(policy))
    if cached is not None:
        return cached[1]
    fields = []
    for key, rule in policy.items():
        if isinstance(rule, dict):
            fields.append((key, rule, tuple(name for name, how in rule.items() if how == "identity")))
        else:
            fields.append((key, None, ()))
    plan = (tuple(fields), tuple(f for f in fields if f[0] in ONLY_ON_FAILURE))
    _PLANS[id(policy)] = (policy, plan)
    return plan


def on_side(value: Any, identities: Identities, side: str) -> Any:
    """A call's arguments as one side runs them: each identifier symbol (``$idN``) replaced by the identifier that
    side bound to it."""
    if isinstance(value, str) and value.startswith("$id"):
        return {"hex": identities.value(side, value)}
    if isinstance(value, Mapping):
        return {k: on_side(v, identities, side) for k, v in value.items()}
    if isinstance(value, list):
        return [on_side(v, identities, side) for v in value]
    return value


def symbolic(outcome: Outcome, identities: Identities, side: str, policy: dict[str, Any],
             other: Outcome | None = None) -> dict[str, Any]:
    """The compared part of an outcome, with identifiers replaced by their symbols: an expectation.

    An identifier no symbol stands for yet (one this side generated at a diverging call, where the other side's
    did not match) is never this side's own bytes, which no other implementation generates, so the expectation
    replays on any implementation: where the ``other`` side answered the none value (``MQGI_NONE``), it is
    ``{not: MQGI_NONE}``; otherwise a fresh variable, ``$new1``..., the expectation that the call generates an
    identifier not seen before (the scenario language binds variables one-to-one)."""
    expect: dict[str, Any] = {}
    fresh: dict[Any, str] = {}
    for key, rule in policy.items():
        value = getattr(outcome, key)
        if value is None:
            continue
        if isinstance(rule, dict):
            part = {}
            for name, how in rule.items():
                if name not in value:
                    continue
                item = value[name]
                if how == "identity" and item not in NONE_NAMES:
                    theirs = (getattr(other, key, None) or {}).get(name) if other is not None else None
                    item = identities.symbol(side, item) or (
                        {"not": theirs} if theirs in NONE_NAMES else fresh.setdefault(item, f"$new{len(fresh) + 1}"))
                part[name] = _expected_options(item)
            expect[key] = part
        else:
            expect[key] = value
    return expect


def _expected_options(value: Any) -> Any:
    """An option list as a scenario can expect it: an outcome shows bits no name defines as a residue
    (``["MQMF_SEGMENT", "0x01000000"]``), which the scenario language does not take in a list; such a list is
    expected as the field's number instead (the same bits, as a scenario may give any option field)."""
    if not (isinstance(value, list) and any(isinstance(v, str) and v.startswith("0x") for v in value)):
        return value
    number = 0
    for item in value:
        number |= int(item, 16) if item.startswith("0x") else constants.VALUES[item]
    return number - (1 << 32) if number >= 1 << 31 else number


def enum_name(value: int, family: str) -> str:
    """A constant's canonical name (used in messages)."""
    return constants.name_of(value, family)
