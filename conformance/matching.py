"""Comparing an expected outcome with an actual one.

Generated identifiers differ between implementations by nature, so an expectation names them with ``$name``:
the first time a name is met it is bound to the actual value, and afterwards the same name must meet the same
value and no other name may meet it (a bijection). A text field such as ``PMO.ResolvedQMgrName`` binds a
``$name`` the same way (to its text), so a later call can name the resolved queue manager.

Where the documents allow more than one value an expectation says so, and no more: ``{one_of: [...]}`` accepts
any of several values; ``{not: value}`` any value but one (a ``$name`` there must already be bound);
``{at_least: n}`` and ``{at_most: n}`` (alone or together) a range of numbers - "approximately" in IBM's text.
These work on every outcome field and on inquired attributes. Options compare as sets; everything else by value.
"""

from __future__ import annotations

import binascii
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from mq_conformance.reference import constants
from mq_conformance.reference.pubsub_calls import OUTCOME_STRUCTURES
from mq_conformance.reference.calls import STRUCTURES, CallError, Outcome, decode_bytes, decode_field

EXPECT_KEYS = ("CompCode", "Reason", "MD", "PMO", "GMO", "data", "DataLength", "attributes", "ObjectName", "property",
               "SD", "SRO", "XQH", "DLH", "CHSTATUS", "ResObjectString")
# Distributed queuing's outcome members (reference/distributed.py): headers and channel status, compared field by
# field; the MQXQH's MsgDesc as an MD.
HEADER_KEYS = ("XQH", "DLH", "CHSTATUS")


MATCHERS = ("one_of", "not", "at_least", "at_most")


@dataclass
class Bindings:
    """``$name`` -> bytes (identifiers) or text (queue manager and queue names), kept one-to-one."""

    values: dict[str, bytes] = field(default_factory=dict)
    names: dict[bytes, str] = field(default_factory=dict)
    texts: dict[str, str] = field(default_factory=dict)

    def copy(self) -> Bindings:
        return Bindings(dict(self.values), dict(self.names), dict(self.texts))

    def adopt(self, other: Bindings) -> None:
        self.values, self.names, self.texts = other.values, other.names, other.texts

    def check_text(self, name: str, actual: str) -> str | None:
        """Bind or check ``name`` against the text ``actual``; a message when they disagree."""
        bound = self.texts.get(name)
        if bound is None:
            other = next((n for n, t in self.texts.items() if t == actual), None)
            if other is not None:
                return f"{name} would be {actual!r}, which is already {other}"
            self.texts[name] = actual
            return None
        return None if bound == actual else f"{name} is {bound!r} but this is {actual!r}"

    def check(self, name: str, actual: bytes) -> str | None:
        """Bind or check ``name`` against ``actual``; a message when they disagree."""
        bound = self.values.get(name)
        if bound is None:
            other = self.names.get(actual)
            if other is not None:
                return f"{name} would be {identifier(actual)}, which is already {other}"
            self.values[name], self.names[actual] = actual, name
            return None
        if bound != actual:
            return f"{name} is {identifier(bound)} but this is {identifier(actual)}"
        return None


def is_variable(value: Any) -> bool:
    return isinstance(value, str) and value.startswith("$") and len(value) > 1


def actual_field(kind: tuple, value: Any) -> Any:
    """An Outcome's field in the same canonical form :func:`decode_field` gives an expectation."""
    tag = kind[0]
    if tag == "id":
        if isinstance(value, str) and value in constants.BYTES:
            return constants.BYTES[value]
        try:
            return binascii.unhexlify(value)
        except (binascii.Error, TypeError, ValueError):
            return value
    if tag == "options":
        total = 0
        for name in value or []:
            if isinstance(name, str) and name.startswith("0x"):
                total |= int(name, 16)
            elif name in constants.VALUES:
                total |= constants.VALUES[name]
            else:
                return tuple(value)  # an unknown name never equals a decoded expectation
        return total
    if tag == "enum" or tag == "int":
        if isinstance(value, str):
            if value in constants.VALUES:
                return constants.VALUES[value]
            tail = value.rsplit("_", 1)[-1]
            return int(tail) if tail.lstrip("-").isdigit() else value
        return value
    return decode_field(kind, value, "") if tag == "format" else value


MISSING = "nothing (the field is missing)"


def shown(value: Any) -> str:
    """A value as a problem line shows it; a field the outcome does not have is said to be missing, never None."""
    return MISSING if value is None else repr(value)


def _describe(kind: tuple, value: Any) -> str:
    if value is None:
        return MISSING
    tag = kind[0]
    if tag == "id":
        return identifier(value) if isinstance(value, bytes) else repr(value)
    if tag == "options":
        names = constants.option_names(value, kind[1]) if isinstance(value, int) else list(value)
        return "[" + ", ".join(names) + "]"
    if tag == "enum":
        return constants.name_of(value, kind[1])
    return repr(value)


def identifier(value: bytes) -> str:
    """An identifier as a person reads it: its text when it is text padded with zeros (``CORREL-A (hex
    434f...)``), *none* when all zeros, else its hexadecimal digits."""
    text = value.rstrip(b"\0")
    if not text:
        return f"none (all zeros, hex {value.hex()})" if value else "empty"
    if all(32 < byte < 127 for byte in text):
        return f"{text.decode('ascii')} (hex {value.hex()})"
    return value.hex()


def is_matcher(expected: Any) -> bool:
    """Whether ``expected`` is one of the call language's matchers rather than a value."""
    return isinstance(expected, Mapping) and bool(expected) and set(expected) <= set(MATCHERS) and (
        set(expected) in ({"one_of"}, {"not"}) or set(expected) <= {"at_least", "at_most"})


def _match_with(expected: Any, actual: Any, bindings: Bindings, where: str, base, describe) -> str | None:
    """``expected`` (a value or a matcher) against ``actual``; ``base`` compares a plain value."""
    if not is_matcher(expected):
        return base(expected, actual, bindings, where)
    if "one_of" in expected:
        for choice in expected["one_of"]:
            trial = bindings.copy()
            if _match_with(choice, actual, trial, where, base, describe) is None:
                bindings.adopt(trial)
                return None
        return f"{where}: expected one of {expected['one_of']}, got {describe(actual)}"
    if "not" in expected:
        unwanted = expected["not"]
        if is_variable(unwanted) and unwanted not in bindings.values and unwanted not in bindings.texts:
            return f"{where}: {unwanted} in 'not' is not bound yet (bind it in an earlier step)"
        if _match_with(unwanted, actual, bindings.copy(), where, base, describe) is None:
            return f"{where}: expected anything but {unwanted}, got {describe(actual)}"
        return None
    if not isinstance(actual, int) or isinstance(actual, bool):
        return f"{where}: expected a number in a range, got {describe(actual)}"
    low, high = expected.get("at_least"), expected.get("at_most")
    if (low is not None and actual < low) or (high is not None and actual > high):
        bounds = " and ".join(f"{word} {n}" for word, n in (("at least", low), ("at most", high)) if n is not None)
        return f"{where}: expected {bounds}, got {describe(actual)}"
    return None


def _match_value(kind: tuple, expected: Any, actual: Any, bindings: Bindings, where: str) -> str | None:
    return _match_with(expected, actual, bindings, where, lambda e, a, b, w: _match_plain(kind, e, a, b, w),
                       lambda a: _describe(kind, a))


def _match_plain(kind: tuple, expected: Any, actual: Any, bindings: Bindings, where: str) -> str | None:
    if kind[0] == "id" and is_variable(expected):
        if not isinstance(actual, bytes):
            return f"{where}: expected an identifier for {expected}, got {shown(actual)}"
        problem = bindings.check(expected, actual)
        return f"{where}: {problem}" if problem else None
    if kind[0] == "text" and is_variable(expected):
        if not isinstance(actual, str):
            return f"{where}: expected a name for {expected}, got {shown(actual)}"
        problem = bindings.check_text(expected, actual.rstrip())
        return f"{where}: {problem}" if problem else None
    try:
        want = decode_field(kind, expected, where)
    except CallError as exc:
        return str(exc)
    if want != actual:
        return f"{where}: expected {_describe(kind, want)}, got {_describe(kind, actual)}"
    return None


ENUMS = {"CompCode": ("enum", "MQCC"), "Reason": ("enum", "MQRC"), "DataLength": ("int", ())}


def match(expected: Mapping[str, Any], outcome: Outcome, bindings: Bindings) -> list[str]:
    """Every way ``outcome`` differs from ``expected`` (empty when it matches)."""
    problems: list[str] = []
    for key, want in expected.items():
        if key in ENUMS:
            have = getattr(outcome, key)
            problem = _match_value(ENUMS[key], want, actual_field(ENUMS[key], have), bindings, key)
        elif key in STRUCTURES or key in OUTCOME_STRUCTURES:
            problem = _match_structure(key, want, getattr(outcome, key), bindings)
        elif key == "data":
            problem = _match_data(want, outcome.data)
        elif key == "attributes":
            problem = _match_attributes(want, outcome.attributes or {}, bindings)
        elif key == "ObjectName":
            problem = match_object_name(want, outcome.ObjectName)
        elif key == "property":
            problem = match_property(want, outcome.property)
        elif key in HEADER_KEYS:
            problem = match_header(key, want, getattr(outcome, key), bindings)
        elif key == "ResObjectString":
            have = outcome.ResObjectString
            problem = None if have == want else f"ResObjectString: expected {want!r}, got {shown(have)}"
        else:
            problem = f"{key}: not something an outcome has (expect one of {', '.join(EXPECT_KEYS)})"
        if problem:
            problems.append(problem)
    return problems


def match_header(key: str, want: Mapping[str, Any], have: Any, bindings: Bindings) -> str | None:
    """An MQXQH, MQDLH or channel status: each field given equals the outcome's (MsgDesc as an MD structure)."""
    if not isinstance(have, Mapping):
        return f"{key}: expected {key} fields, but the call returned no {key}"
    problems = []
    for name, expected in want.items():
        actual = have.get(name)
        if name == "MsgDesc":
            problem = _match_structure("MD", expected, actual, bindings)
            if problem:
                problems.append(f"{key}.{problem}")
        elif actual != expected:
            problems.append(f"{key}.{name}: expected {expected!r}, got {shown(actual)}")
    return "; ".join(problems) or None


def match_property(want: Any, have: Any) -> str | None:
    """MQINQMP's answer (reference/properties.py): each of Name, Type and Value given is compared by value; a
    byte-string Value as {hex: ...} in either case of hexadecimal digits. Where IBM leaves the answer open (the
    order a wildcard inquiry visits properties) ``{one_of: [...]}`` accepts any of several answers, and
    ``{not: {...}}`` any answer but that one."""
    if isinstance(want, Mapping) and set(want) == {"one_of"}:
        tried = [match_property(choice, have) for choice in want["one_of"]]
        if any(problem is None for problem in tried):
            return None
        return f"property: expected one of {len(tried)} answers, got {shown(have)} ({'; or '.join(tried)})"
    if isinstance(want, Mapping) and set(want) == {"not"}:
        if isinstance(have, Mapping) and match_property(want["not"], have) is None:
            return f"property: expected any answer but {want['not']!r}, got it"
        return None
    if not isinstance(have, Mapping):
        return f"property: expected a property, got {shown(have)}"
    problems = []
    for name, expected in want.items():
        actual = have.get(name)
        if isinstance(expected, Mapping) and isinstance(actual, Mapping) and set(expected) == {"hex"}:
            same = str(expected["hex"]).lower() == str(actual.get("hex", "")).lower()
        else:
            # a whole number may be written 2 for a floating-point value; an integer type's value is an integer
            integer_type = str(have.get("Type", "")).startswith("MQTYPE_INT")
            same = actual == expected and type(actual) is type(expected) or (
                isinstance(actual, float) and isinstance(expected, int) and not isinstance(expected, bool)
                and actual == expected and not integer_type)
        if not same:
            problems.append(f"property.{name}: expected {expected!r}, got {shown(actual)}")
    return "; ".join(problems) or None


def match_object_name(want: Any, have: Any) -> str | None:
    """ObjectName after MQOPEN of a model queue: the exact name, or ``{prefix: text}`` for a name the queue
    manager completed from a DynamicQName ending in ``*`` (the generated characters differ by nature)."""
    if not isinstance(have, str):
        return f"ObjectName: expected a queue name, got {shown(have)}"
    if isinstance(want, Mapping):
        prefix = want.get("prefix", "")
        if have.startswith(prefix) and len(have) > len(prefix):
            return None
        return f"ObjectName: expected a name that {prefix!r} begins, with generated characters after, got {have!r}"
    return None if have == want else f"ObjectName: expected {want!r}, got {shown(have)}"


def _match_structure(key: str, want: Mapping[str, Any], have: Mapping[str, Any] | None, bindings: Bindings) -> str | None:
    if have is None:
        return f"{key}: expected {key} fields, but the call returned no {key}"
    kinds = STRUCTURES[key][1] if key in STRUCTURES else OUTCOME_STRUCTURES[key]
    problems = []
    for name, expected in want.items():
        if name not in kinds:
            problems.append(f"{key}.{name}: {key} has no such field")
            continue
        problem = _match_value(kinds[name], expected, actual_field(kinds[name], have.get(name)), bindings,
                               f"{key}.{name}")
        if problem:
            problems.append(problem)
    return "; ".join(problems) or None


def _match_data(want: Any, have: Any) -> str | None:
    try:
        expected = decode_bytes(want, "data")
        actual = decode_bytes(have if have is not None else "", "data")
    except CallError as exc:
        return str(exc)
    if expected != actual:
        return f"data: expected {expected!r}, got {MISSING if have is None else repr(actual)}"
    return None


def _match_attributes(want: Mapping[str, Any], have: Mapping[str, Any], bindings: Bindings) -> str | None:
    def base(expected: Any, actual: Any, _bindings: Bindings, where: str) -> str | None:
        wanted = constants.VALUES.get(expected, expected) if isinstance(expected, str) else expected
        return None if actual == wanted else f"{where}: expected {expected!r}, got {shown(actual)}"

    problems = []
    for name, expected in want.items():
        problem = _match_with(expected, have.get(name), bindings, f"attributes.{name}", base, shown)
        if problem:
            problems.append(problem)
    return "; ".join(problems) or None
