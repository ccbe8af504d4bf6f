"""The JSON Schemas of the call language (``schemas/call.json``, ``schemas/outcome.json``) and of scenario files
(``schemas/scenario.json``), and one-line validation against them.

Everything that crosses a process boundary (a call sent to a JSON-lines adapter, an outcome read back, a
scenario written by a tool) can be checked here. A problem is a :class:`SchemaError` whose message is one line:
the JSON path of the offending value, then what is wrong with it.

They live here, beside the call language they describe (``reference/calls.py``), because adapters validate with
them too (``adapters/jsonlines.py``) and dependencies point one way: conformance -> adapters -> reference.

The schemas follow ``reference/calls.py``: MQ's field names, option fields as lists of constant names of the
field's family (or the field's value as a number, to set bits no name defines), byte values as text,
``{hex: ...}`` or ``{fill: ..., length: ...}`` (data only). In a scenario file, ``$name`` is allowed wherever an
identifier goes (``scenario.json`` sets the ``variable`` dynamic anchor that ``call.json`` leaves empty).

Where the schemas and ``calls.py`` differ, on purpose (tests/test_schemas.py pins each):
- a constant name is checked for its form and family (``MQPMO_...`` in PMO Options), not looked up;
- an option field is a list or a number, never one bare name (``calls.py`` also takes that);
- a whole number must fit an MQLONG (an option field's bits may also be read unsigned);
- a text identifier's length is counted in characters, where MQ counts UTF-8 bytes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from importlib.resources import files
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource

try:  # jsonschema-rs judges the same files a hundred times faster; without it the pure validator judges alone
    import jsonschema_rs
except ImportError:  # pragma: no cover - it is a dependency, but a missing one only costs time
    jsonschema_rs = None

# Read through importlib.resources: a folder, or one inside the zip a campaign ships to Spark's executors.
SCHEMAS = files("mq_conformance.reference") / "schemas"
NAMES = ("call", "outcome", "scenario")
_MAX_MESSAGE = 300


class SchemaError(ValueError):
    """A value that does not match its schema; ``path`` is the JSON path (``$.MD.MsgFlags[0]``)."""

    def __init__(self, path: str, message: str):
        self.path, self.detail = path, message
        super().__init__(f"{path}: {message}")


def load_schema(name: str) -> dict[str, Any]:
    """One schema document by name: ``call``, ``outcome`` or ``scenario``."""
    if name not in NAMES:
        raise ValueError(f"no schema {name!r}; schemas: {', '.join(NAMES)}")
    return json.loads((SCHEMAS / f"{name}.json").read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def registry() -> Registry:
    """The three schemas by their ``$id``, so that one may refer to another (or a tool to any part of one)."""
    return Registry().with_resources(
        (schema["$id"], Resource.from_contents(schema)) for schema in map(load_schema, NAMES)
    ).crawl()


def _inline(node: Any, documents: Mapping[str, Any], base: str) -> Any:
    """``node`` with every plain ``{"$ref": ...}`` into these documents replaced by a copy of its target.

    Validation then skips the reference lookups that otherwise take half its time; the files keep their
    references for the reader. (``$dynamicRef`` is kept: resolved from the document it is copied into, it finds
    that document's anchor, which is the dynamic resolution it would reach anyway.)
    """
    if isinstance(node, list):
        return [_inline(item, documents, base) for item in node]
    if not isinstance(node, Mapping):
        return node
    if set(node) == {"$ref"}:
        uri, _, pointer = node["$ref"].partition("#")
        target: Any = documents[uri or base]
        for part in filter(None, pointer.split("/")):
            target = target[part.replace("~1", "/").replace("~0", "~")]
        return _inline(target, documents, uri or base)
    return {key: _inline(value, documents, base) for key, value in node.items()}


@lru_cache(maxsize=None)
def _validators() -> dict[str, Draft202012Validator]:
    schemas = {name: load_schema(name) for name in NAMES}
    documents = {schema["$id"]: schema for schema in schemas.values()}
    inlined = {name: _inline(schema, documents, schema["$id"]) for name, schema in schemas.items()}
    fast = Registry().with_resources(
        (schema["$id"], Resource.from_contents(schema)) for schema in inlined.values()
    ).crawl()
    return {name: Draft202012Validator(schema, registry=fast) for name, schema in inlined.items()}


def validator(name: str) -> Draft202012Validator:
    """The validator of schema ``name`` (with the other schemas available to its references)."""
    if name not in NAMES:
        raise ValueError(f"no schema {name!r}; schemas: {', '.join(NAMES)}")
    return _validators()[name]


def _one_line(text: str, limit: int = _MAX_MESSAGE) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _message(error: ValidationError) -> str:
    """jsonschema's message, except for alternatives, where it would repeat the whole value: then the value in
    short and the description of what was expected."""
    if error.validator not in ("anyOf", "oneOf"):
        return _one_line(error.message)
    shown = _one_line(repr(error.instance), 60)
    several = error.validator == "oneOf" and not error.context
    verdict = "matches more than one of the allowed forms" if several else "matches none of the allowed forms"
    description = error.schema.get("description") if isinstance(error.schema, Mapping) else None
    return _one_line(f"{shown} {verdict}" + (f" ({description})" if description else ""))


def _pick(error: ValidationError) -> ValidationError:
    """The failure that reached furthest into the value; among alternatives (anyOf, oneOf) that all fail at the
    same place, the alternatives' own message."""
    if not error.context:
        return error
    deepest = max((_pick(e) for e in error.context), key=lambda e: len(e.absolute_path))
    return deepest if len(deepest.absolute_path) > len(error.absolute_path) else error


def quick_validator(schema: Mapping[str, Any], registry: Any = None) -> Any:
    """A jsonschema-rs validator of ``schema`` that only says whether a value is valid (None without jsonschema-rs).

    Most values are valid, and for those the pure-Python validator's walk is most of the cost of a JSON-lines
    exchange, of reading a scenario or of checking a report. The pure validator still judges every value this
    one does not accept, and it alone writes the messages, so they read the same (tests/test_schemas.py checks
    that both judge alike)."""
    if jsonschema_rs is None:
        return None
    return jsonschema_rs.validator_for(schema, registry=registry, validate_formats=False)


def accepts(quick: Any, value: Any) -> bool:
    """Whether ``quick`` (a :func:`quick_validator`) accepts ``value``; False when it cannot tell (there is none,
    or the value holds something JSON cannot, such as bytes)."""
    try:
        return quick is not None and quick.is_valid(value)
    except ValueError:  # "Unsupported type": the pure validator says what is wrong with it
        return False


@lru_cache(maxsize=None)
def _quick_validators() -> dict[str, Any]:
    """The quick validators of the three files, each able to follow references into the others."""
    if jsonschema_rs is None:
        return {}
    schemas = {name: load_schema(name) for name in NAMES}
    shared = jsonschema_rs.Registry([(schema["$id"], schema) for schema in schemas.values()])
    return {name: quick_validator(schema, shared) for name, schema in schemas.items()}


def quickly_valid(name: str, value: Any) -> bool:
    """Whether jsonschema-rs accepts ``value`` under schema ``name`` (see :func:`accepts`)."""
    return accepts(_quick_validators().get(name), value)


def _validate(name: str, value: Any) -> None:
    if quickly_valid(name, value):
        return
    errors = [_pick(e) for e in validator(name).iter_errors(value)]
    if errors:
        error = max(errors, key=lambda e: len(e.absolute_path))
        raise SchemaError(error.json_path, _message(error))


def validate_call(call: Mapping[str, Any]) -> None:
    """Check a call (``Call.to_json()``); a :class:`SchemaError` names the path and the problem."""
    _validate("call", call)


def validate_outcome(outcome: Mapping[str, Any]) -> None:
    """Check an outcome (``Outcome.to_json()``); a :class:`SchemaError` names the path and the problem."""
    _validate("outcome", outcome)


def validate_scenario(scenario: Mapping[str, Any]) -> None:
    """Check a scenario document as plain parsed YAML; a :class:`SchemaError` names the path and the problem."""
    _validate("scenario", scenario)
