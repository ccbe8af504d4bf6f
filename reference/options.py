"""Checking an option field against the documented rules for combining options (fixtures/tables/*-rules.yaml)."""

from __future__ import annotations

from .constants import FLAGS, VALUES
from .tables import OptionRule, OptionRules


def _given(options: int, name: str) -> bool:
    # A zero-valued option (MQOO_BIND_AS_Q_DEF) cannot be told from its absence: it counts as given when a rule
    # needs one of a set, and never collides with another option of the set.
    bit = VALUES[name]
    return bit == 0 or options & bit == bit


def _breaks(rule: OptionRule, options: int, call: str) -> bool:
    if rule.calls and call not in rule.calls:
        return False
    if rule.at_most_one and sum(1 for n in rule.at_most_one if VALUES[n] and _given(options, n)) > 1:
        return True
    if rule.at_least_one and not any(_given(options, n) for n in rule.at_least_one):
        return True
    if rule.if_any and any(VALUES[n] and _given(options, n) for n in rule.if_any):
        if not any(_given(options, n) for n in rule.requires_one_of):
            return True
    return any(VALUES[n] and _given(options, n) for n in rule.forbidden)


_KNOWN = {family: sum(bits.values()) for family, bits in FLAGS.items()}


def unknown_bits(options: int, family: str) -> int:
    """Bits of an option field that no documented option of ``family`` defines."""
    return options & ~_KNOWN[family] & 0xFFFFFFFF


def first_broken(rules: OptionRules, options: int, call: str) -> OptionRule | None:
    """The first rule of ``rules`` that ``options`` break on verb ``call`` (``MQOPEN``, ``MQPUT``...), if any.

    The answer depends only on its arguments, so it is remembered on the (immutable) rules value.
    """
    key = (options, call)
    memo = rules.memo
    if key not in memo:
        memo[key] = next((rule for rule in rules.rows if _breaks(rule, options, call)), None)
    return memo[key]
