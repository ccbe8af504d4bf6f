"""Checking an option field against the documented rules for combining options (fixtures/tables/*-rules.yaml)."""

from __future__ import annotations

from .constants import FLAGS, VALUES
from .result import Result, failure
from .tables import OptionRule, OptionRules, Spec


def _given(options: int, name: str) -> bool:
    # A zero-valued option (MQOO_BIND_AS_Q_DEF) cannot be told from its absence: it counts as given when a rule
    # needs one of a set, and never collides with another option of the set.
    bit = VALUES[name]
    return bit == 0 or options & bit == bit


def _applies(rule: OptionRule, call: str, obj: str) -> bool:
    """Whether ``rule`` speaks of verb ``call`` on a kind of object ``obj`` ("" for a rule of every object)."""
    return (not rule.calls or call in rule.calls) and (not rule.objects or obj in rule.objects)


def _breaks(rule: OptionRule, options: int, call: str, obj: str = "") -> bool:
    if not _applies(rule, call, obj):
        return False
    if rule.at_most_one and sum(1 for n in rule.at_most_one if VALUES[n] and _given(options, n)) > 1:
        return True
    if rule.at_least_one and not any(_given(options, n) for n in rule.at_least_one):
        return True
    if rule.if_any and any(VALUES[n] and _given(options, n) for n in rule.if_any):
        if not any(_given(options, n) for n in rule.requires_one_of):
            return True
    return any(VALUES[n] and _given(options, n) for n in rule.forbidden)


def _engaged(rule: OptionRule, options: int) -> bool:
    """Whether ``options`` give the rule something to decide: a member of its at-most-one set or one of its
    if-any options, or (a rule needing one of some options) always, unless a zero-valued member, given whatever
    the options, meets it (such a rule cannot fail, so it decides nothing). A rule of forbidden options alone
    decides only when one is given."""
    if rule.at_most_one:
        return any(VALUES[n] and _given(options, n) for n in rule.at_most_one)
    if rule.if_any:
        return any(VALUES[n] and _given(options, n) for n in rule.if_any)
    if rule.at_least_one:
        return all(VALUES[n] for n in rule.at_least_one)
    return False


def held(rules: OptionRules, options: int, call: str, obj: str = "") -> tuple[str, ...]:
    """The ids of the rules of ``rules`` that ``options`` engage on verb ``call`` and keep (see :func:`_engaged`):
    a call that passes names them, so a scenario showing an allowed combination can fail at its rule."""
    key = ("held", options, call, obj)
    memo = rules.memo
    if key not in memo:
        memo[key] = tuple(rule.id for rule in rules.rows if _applies(rule, call, obj) and _engaged(rule, options)
                          and not _breaks(rule, options, call, obj))
    return memo[key]


_KNOWN = {family: sum(bits.values()) for family, bits in FLAGS.items()}


def unknown_bits(options: int, family: str) -> int:
    """Bits of an option field that no documented option of ``family`` defines."""
    return options & ~_KNOWN[family] & 0xFFFFFFFF


def first_broken(rules: OptionRules, options: int, call: str, obj: str = "") -> OptionRule | None:
    """The first rule of ``rules`` that ``options`` break on verb ``call`` (``MQOPEN``, ``MQPUT``...), if any;
    ``obj`` is the kind of object opened, for the rules of some kinds only (open-object-types.yaml).

    The answer depends only on its arguments, so it is remembered on the (immutable) rules value.
    """
    key = (options, call, obj)
    memo = rules.memo
    if key not in memo:
        memo[key] = next((rule for rule in rules.rows if _breaks(rule, options, call, obj)), None)
    return memo[key]


def open_refused(spec: Spec, options: int, obj: str = "") -> Result | None:
    """The failure of an MQOPEN whose ``options`` break a rule, or None: bits no MQOO_* option defines
    (open.options.unknown), then the rules of fixtures/tables/open-options.yaml (MQRC_OPTIONS_ERROR), then for a
    kind of object ``obj`` the rows of open-object-types.yaml (:func:`object_refused`).

    Clauses: open.options.unknown, open.options.*, and the rows of open.object-types.
    """
    if unknown_bits(options, "MQOO"):
        return failure("MQRC_OPTIONS_ERROR", "open.options.unknown")
    broken = first_broken(spec["open.options"], options, "MQOPEN")
    if broken is not None:
        return failure(broken.reason, broken.id)
    return object_refused(spec, options, obj) if obj else None


def object_refused(spec: Spec, options: int, obj: str) -> Result | None:
    """The failure of an MQOPEN of a kind of object ``obj`` (``topic``, ``remote-queue``...) with an option not
    valid for it: the first row of fixtures/tables/open-object-types.yaml that ``options`` break, whose id is the
    clause (MQRC_OPTION_NOT_VALID_FOR_TYPE); None when every option is valid for it.

    Clauses: distributed.open.options-not-valid, distributed.open.inquire-needs-definition,
    distributed.resolve.qmgr-alias-local, cluster.open.input-remote, topic.open.output-only.
    """
    broken = first_broken(spec["open.object-types"], options, "MQOPEN", obj)
    return failure(broken.reason, broken.id) if broken is not None else None


def object_rules(spec: Spec, obj: str) -> list[str]:
    """The rows of fixtures/tables/open-object-types.yaml that speak of a kind of object ``obj``: an MQOPEN of it
    that :func:`object_refused` lets through applied each of them and names them (a scenario showing an option valid
    for the object can then fail at its row)."""
    return [rule.id for rule in spec["open.object-types"].rows if obj in rule.objects]
