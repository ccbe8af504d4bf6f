"""Mutant families of the new areas - selection, message properties, publish/subscribe - generated from the
selector grammar and the tables, each mutant one fault injected around the model (adapters/families.py registers
them beside option-ignored, output-unset and limit):

- ``mutant:selector:<fault>:<subject>``, from the grammar of reference/selection.py (GRAMMAR, read here, never
  re-typed): ``swapped:<rule>:<op>:<other>`` each operator of a terminal (COMPARE, ADD, MUL) used by a rule taken
  for each other operator of that terminal, and each binary keyword rule (AND, OR) for the other;
  ``negated:<rule>`` each rule giving a truth value negated (NOT's dropped); ``caseless:<rule>`` each predicate
  rule comparing strings and property values regardless of case; ``literal-refused:<form>`` each literal kind
  and each alternative of NUMBER refused as a syntax error; ``keyword-case:<KEYWORD>`` each keyword accepted in
  capitals only;
- ``mutant:topic-matcher:<scheme>:<token>:<fault>``, from the wildcard schemes (:data:`WILDCARD_SCHEMES`, which
  a test holds equal to reference/topics.py's matchers): each wildcard of each scheme matching at least one where
  it may match none, one where it matches any, any where it matches one, zero or one, or only itself; the
  topic-based wildcards honoured inside a level, empty levels dropped; the character wildcards stopping at ``/``,
  and ``%`` not escaping;
- ``mutant:property-type:<fault>:<subject>``, from fixtures/tables/property-types.yaml and
  property-conversions.yaml: ``bound:<type>:<low|high>:<+|->`` each range bound one step inward or outward (one
  for an integer, the neighbouring double for a floating-point magnitude); ``conversion:<from>:<to>`` each
  ordered pair of property types answered the other way (a conversion the table makes refused with
  MQRC_PROP_CONV_NOT_SUPPORTED, one it refuses returned unconverted); ``precision:<type>`` each floating-point
  type held at the other's precision.

The faults are applied for the duration of one call to the functions the model looks up by module attribute
(a parsed selector's tree before it is flattened, ``selection.evaluate``'s property lookup, the two wildcard
matchers of reference/topics.py, ``properties.convert`` and ``properties._float32``), or to the model's tables
(a range bound): the model's code is unchanged and a fresh model is never affected.
"""

from __future__ import annotations

import math
import re
import struct
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from itertools import permutations
from typing import Any

from mq_conformance.reference import properties as properties_module
from mq_conformance.reference import selection as selection_module
from mq_conformance.reference import topics as topics_module
from mq_conformance.reference.calls import Call, Outcome
from mq_conformance.reference.tables import default_spec

from .base import AdapterError
from .reference import ReferenceAdapter

PREFIX = "mutant:"
SELECTOR, TOPIC_MATCHER, PROPERTY_TYPE = "selector", "topic-matcher", "property-type"
FAULT_FAMILIES = (SELECTOR, TOPIC_MATCHER, PROPERTY_TYPE)


# -- the selector grammar, read from reference/selection.py ----------------------------------------------------

def grammar_rules(grammar: str = selection_module.GRAMMAR) -> dict[str, list[tuple[str, str | None]]]:
    """Each rule of the grammar (its name without lark's ``?``) -> its alternatives, as (text, alias or None)."""
    rules: dict[str, list[tuple[str, str | None]]] = {}
    current = None
    for line in grammar.splitlines():
        found = re.match(r"\??([a-z_]+):\s*(.*)$", line)
        if found:
            current, text = found.group(1), found.group(2)
            rules[current] = []
        elif current and line.strip().startswith("|"):
            text = line.strip()[1:]
        else:
            current = None
            continue
        for alternative in text.split("|"):
            words = alternative.split("->")
            rules[current].append((words[0].strip(), words[1].strip() if len(words) > 1 else None))
    return rules


def grammar_terminals(grammar: str = selection_module.GRAMMAR) -> dict[str, str]:
    """Each terminal of the grammar (NAME, without its priority) -> its definition's text."""
    return {m.group(1): m.group(2).strip()
            for m in re.finditer(r"^([A-Z_]+)(?:\.\d+)?:\s*(.*)$", grammar, flags=re.MULTILINE)}


def operator_terminals() -> dict[str, tuple[str, ...]]:
    """The terminals whose alternatives are fixed strings (the operators): name -> the operators."""
    return {name: tuple(re.findall(r'"([^"]+)"', text)) for name, text in grammar_terminals().items()
            if re.fullmatch(r'("[^"]+"\s*\|?\s*)+', text)}


def keywords() -> tuple[str, ...]:
    """The keyword terminals of the grammar (``_AND: /and\\b/i``), as their capitalised words."""
    return tuple(m.group(1).upper() for text in grammar_terminals().values()
                 if (m := re.fullmatch(r"/(\w+)\\b/i", text)))


def number_forms() -> tuple[str, ...]:
    """The alternatives of the NUMBER terminal, by the names of :data:`NUMBER_FORM_NAMES` (a test holds the two
    the same length: a new alternative of the grammar needs its name)."""
    return NUMBER_FORM_NAMES[:len(_number_alternatives())]


def _number_alternatives() -> list[str]:
    return re.findall(r"/((?:[^/\\]|\\.)+)/", grammar_terminals()["NUMBER"])


NUMBER_FORM_NAMES = ("hex", "decimal-point", "exponent", "integer")
BOOLEAN_RULES = ("or_expr", "and_expr", "not_expr", "predicate")  # the rules whose value is a truth value


def rule_aliases(*rule_names: str) -> list[str]:
    """The aliases of the alternatives of the named rules, in grammar order."""
    rules = grammar_rules()
    return [alias for name in rule_names for _text, alias in rules.get(name, []) if alias]


def operator_uses() -> list[tuple[str, str]]:
    """(rule alias, operator terminal) for each aliased alternative that names an operator terminal."""
    terminals = operator_terminals()
    found = []
    for alternatives in grammar_rules().values():
        for text, alias in alternatives:
            for word in text.split():
                if alias and word in terminals and (alias, word) not in found:
                    found.append((alias, word))
    return found


def keyword_rules() -> list[str]:
    """The aliases of binary keyword rules, ``<rule> _KW <next>`` (the logical connectives)."""
    return [alias for name, alternatives in grammar_rules().items() for text, alias in alternatives
            if alias and re.fullmatch(rf"{name} _[A-Z]+ \w+", text)]


def selector_subjects() -> Iterator[str]:
    """Every selector mutant's subject: ``<fault>:<...>``."""
    terminals = operator_terminals()
    for alias, terminal in operator_uses():
        for op, other in permutations(terminals[terminal], 2):  # each operator for each other of its terminal
            yield f"swapped:{alias}:{op}:{other}"
    for alias, other in permutations(keyword_rules(), 2):
        yield f"swapped:{alias}:{other}"
    for alias in rule_aliases(*BOOLEAN_RULES):
        yield f"negated:{alias}"
    for alias in rule_aliases("predicate"):
        yield f"caseless:{alias}"
    for form in (*[a for a in rule_aliases("literal") if a != "number"], *(f"number-{f}" for f in number_forms())):
        yield f"literal-refused:{form}"
    for keyword in keywords():
        yield f"keyword-case:{keyword}"


# A name wrapped so that its value is compared regardless of case (``caseless``): the evaluation's lookup unwraps
# it. A character no property name holds.
_CASELESS = "\x00"


def _retyped(tree: Any, transform: Callable[[Any], Any]) -> Any:
    """lark's tree with ``transform`` applied to every subtree, innermost first (iteratively: a selector may nest
    hundreds deep)."""
    from lark import Tree

    done: dict[int, Any] = {}
    stack = [(tree, False)]
    while stack:
        node, expanded = stack.pop()
        if not isinstance(node, Tree):
            done[id(node)] = node
            continue
        if not expanded:
            stack.append((node, True))
            stack.extend((c, False) for c in node.children)
            continue
        done[id(node)] = transform(Tree(node.data, [done[id(c)] for c in node.children]))
    return done[id(tree)]


def _number_form(text: str) -> str:
    for name, pattern in zip(NUMBER_FORM_NAMES, _number_alternatives()):
        if re.fullmatch(pattern, text):
            return name
    raise AdapterError(f"no NUMBER alternative reads {text!r}")


def selector_fault(subject: str) -> tuple[Callable[[Any], Any] | None, Callable[[str], None] | None, bool]:
    """The fault ``subject`` makes: a transform of lark's tree, a check of the selector's text, and whether
    string values are compared regardless of case."""
    from lark import Token, Tree

    fault, _, rest = subject.partition(":")
    if fault == "swapped" and rest.count(":") == 2:
        alias, op, other = rest.split(":")

        def swap_operator(node: Tree) -> Tree:
            if node.data == alias:
                node.children = [Token(c.type, other) if isinstance(c, Token) and str(c) == op else c
                                 for c in node.children]
            return node
        return swap_operator, None, False
    if fault == "swapped":
        alias, _, other = rest.partition(":")
        return (lambda node: Tree(other, node.children) if node.data == alias else node), None, False
    if fault == "negated":
        def negate(node: Tree) -> Any:
            if node.data != rest:
                return node
            return node.children[0] if rest == "not_" else Tree("not_", [node])
        return negate, None, False
    if fault == "caseless":
        def caseless(node: Tree) -> Tree:
            if node.data != rest:
                return node
            for below in node.iter_subtrees():  # tokens are strings: each is replaced, never changed
                if below.data == "name" and not str(below.children[0]).startswith(_CASELESS):
                    below.children = [Token("NAME", _CASELESS + str(below.children[0]))]
                else:
                    below.children = [Token("STRING", str(c).lower()) if isinstance(c, Token) and c.type == "STRING"
                                      else c for c in below.children]
            return node
        return caseless, None, True
    if fault == "literal-refused":
        def refuse(node: Tree) -> Tree:
            kind = node.data
            if kind == "number":
                kind = f"number-{_number_form(str(node.children[0]))}"
            if kind == rest:
                raise selection_module.SelectorSyntaxError(f"{rest} literals are not read (mutant)")
            return node
        return refuse, None, False
    if fault == "keyword-case":
        def check(text: str) -> None:
            for word in re.findall(r"'(?:[^']|'')*'|[\w$.]+", text):
                if word.upper() == rest and word != rest:
                    raise selection_module.SelectorSyntaxError(f"{word}: keywords in capitals only (mutant)")
        return None, check, False
    raise AdapterError(f"no selector fault {subject!r}")


# -- the wildcard schemes -------------------------------------------------------------------------------------

ANY, ONE, ESCAPE = "any", "one", "escape"
TOPIC_SCHEME, CHAR_SCHEME = "MQSO_WILDCARD_TOPIC", "MQSO_WILDCARD_CHAR"
# Each scheme's special characters and what each stands for ("Wildcard schemes"; reference/topics.py): the
# topic-based scheme matches whole levels, the character-based one characters, ``/`` included.
WILDCARD_SCHEMES: dict[str, dict[str, str]] = {TOPIC_SCHEME: {"#": ANY, "+": ONE},
                                              CHAR_SCHEME: {"*": ANY, "?": ONE, "%": ESCAPE}}
# How each kind of wildcard can be broken, and the faults of a scheme as a whole.
TOKEN_FAULTS = {ANY: ("at-least-one", "as-one", "literal"), ONE: ("as-any", "zero-or-one", "literal"),
                ESCAPE: ("ignored",)}
SCHEME_TOKEN_FAULTS = {TOPIC_SCHEME: ("inside-level",), CHAR_SCHEME: ("stops-at-separator",)}
SCHEME_FAULTS = {TOPIC_SCHEME: ("empty-levels-dropped",), CHAR_SCHEME: ()}
SCHEME_NAMES = {TOPIC_SCHEME: "topic", CHAR_SCHEME: "char"}


def topic_subjects() -> Iterator[str]:
    """Every topic-matcher mutant's subject: ``<scheme>:<token>:<fault>`` or ``<scheme>:<fault>``."""
    for scheme, tokens in WILDCARD_SCHEMES.items():
        for token, meaning in tokens.items():
            for fault in TOKEN_FAULTS[meaning] + (SCHEME_TOKEN_FAULTS[scheme] if meaning != ESCAPE else ()):
                yield f"{SCHEME_NAMES[scheme]}:{token}:{fault}"
        for fault in SCHEME_FAULTS[scheme]:
            yield f"{SCHEME_NAMES[scheme]}:{fault}"


_MEANING_REGEX = {ANY: ".*", ONE: "."}
_FAULT_REGEX = {"at-least-one": ".+", "as-one": ".", "as-any": ".*", "zero-or-one": ".?"}


def char_regex(pattern: str, token: str | None = None, fault: str | None = None) -> str:
    """The character-based scheme as a regular expression, with one token's fault (none: the scheme as
    documented)."""
    meanings = WILDCARD_SCHEMES[CHAR_SCHEME]
    out, index = [], 0
    while index < len(pattern):
        char = pattern[index]
        index += 1
        meaning = meanings.get(char)
        if meaning == ESCAPE and not (char == token and fault == "ignored"):
            if index < len(pattern):
                out.append(re.escape(pattern[index]))
                index += 1
            continue
        if meaning in (ANY, ONE) and char == token:
            if fault == "literal":
                meaning = None
            elif fault == "stops-at-separator":
                out.append("[^/]*" if meaning == ANY else "[^/]")
                continue
            else:
                out.append(_FAULT_REGEX[fault])
                continue
        out.append(_MEANING_REGEX[meaning] if meaning in _MEANING_REGEX else re.escape(char))
    return "".join(out)


def char_match(pattern: str, topic: str, token: str | None = None, fault: str | None = None) -> bool:
    """Whether ``pattern`` selects ``topic`` under the character-based scheme with the fault."""
    return re.fullmatch(char_regex(pattern, token, fault), topic, flags=re.DOTALL) is not None


def level_match(pattern: str, topic: str, token: str | None = None, fault: str | None = None) -> bool:
    """Whether ``pattern`` selects ``topic`` under the topic-based scheme with the fault (none: as documented),
    matched level by level."""
    meanings = WILDCARD_SCHEMES[TOPIC_SCHEME]
    levels, subject = pattern.split("/"), topic.split("/")
    if fault == "empty-levels-dropped":
        levels, subject = [x for x in levels if x] or [""], [x for x in subject if x] or [""]

    def kind(level: str) -> tuple[str | None, str]:
        meaning = meanings.get(level)
        if meaning is not None and level == token:
            if fault == "literal":
                return None, level
            if fault in _FAULT_REGEX:
                return {".+": "at-least-one", ".": ONE, ".*": ANY, ".?": "zero-or-one"}[_FAULT_REGEX[fault]], level
        if meaning is None and fault == "inside-level" and token in level:
            return "inside", level
        return meaning, level

    kinds = [kind(level) for level in levels]
    # reachable[i]: the first i levels of the pattern match some prefix of the topic's levels (a set of lengths)
    reachable = {0}
    for meaning, level in kinds:
        after: set[int] = set()
        for j in reachable:
            if meaning == ANY:
                after.update(range(j, len(subject) + 1))
            elif meaning == "at-least-one":
                after.update(range(j + 1, len(subject) + 1))
            elif meaning == "zero-or-one":
                after.update(k for k in (j, j + 1) if k <= len(subject))
            elif j < len(subject) and (
                    meaning == ONE or
                    meaning == "inside" and re.fullmatch(
                        ".*".join(re.escape(p) for p in level.split(token)), subject[j], flags=re.DOTALL) or
                    meaning is None and subject[j] == level):
                after.add(j + 1)
        reachable = after
    return len(subject) in reachable


def topic_fault(subject: str) -> tuple[str, Callable[[str, str], bool]]:
    """The model's matcher function a topic-matcher mutant replaces, and the faulty matcher."""
    parts = subject.split(":")
    scheme = {v: k for k, v in SCHEME_NAMES.items()}.get(parts[0])
    if scheme is None or subject not in set(topic_subjects()):
        raise AdapterError(f"no topic-matcher fault {subject!r}; faults: {', '.join(topic_subjects())}")
    token, fault = (parts[1], parts[2]) if len(parts) == 3 else (None, parts[1])
    if scheme == TOPIC_SCHEME:
        return "topic_wildcard_match", lambda p, t: level_match(p, t, token, fault)
    return "char_wildcard_match", lambda p, t: char_match(p, t, token, fault)


# -- message property types -----------------------------------------------------------------------------------

TYPES_TABLE, CONVERSIONS_TABLE = "properties.types", "properties.conversions"


def property_type_names() -> list[str]:
    """The property types of fixtures/tables/property-types.yaml, in its order."""
    return [str(row.when["type"]) for row in default_spec()[TYPES_TABLE].rows]


def conversion_supported(source: str, target: str) -> bool:
    """Whether property-conversions.yaml converts a property of type ``source`` to ``target``."""
    return default_spec()[CONVERSIONS_TABLE].lookup(**{"from": source, "to": target}) is not None


def _bound_step(row: Any, bound: str, sign: str) -> float | int | None:
    """The bound moved one step (``+`` up, ``-`` down), or None where no such step is a value of the column (the
    largest double has no larger neighbour)."""
    value = row.then[bound]
    if isinstance(value, int):
        return value + (1 if sign == "+" else -1)
    moved = math.nextafter(float(value), math.inf if sign == "+" else -math.inf)
    return moved if math.isfinite(moved) else None


def property_subjects() -> Iterator[str]:
    """Every property-type mutant's subject."""
    table = default_spec()[TYPES_TABLE]
    for row in table.rows:
        for bound in ("low", "high"):
            if bound in row.then:
                for sign in ("+", "-"):
                    if _bound_step(row, bound, sign) is not None:
                        yield f"bound:{row.when['type']}:{bound}:{sign}"
    for source, target in permutations(property_type_names(), 2):
        yield f"conversion:{source}:{target}"
    for row in table.rows:
        if row.then["json"] == "number":
            yield f"precision:{row.when['type']}"


def _coerced(value: Any, kind: str) -> Any:
    """``value`` made a value of a property type's kind (its ``json`` column) the way a careless conversion would:
    what an implementation converting a pair the table does not name returns instead of failing."""
    number = (int.from_bytes(value[:8], "big") if isinstance(value, bytes) else
              int(value) if isinstance(value, (bool, int)) or isinstance(value, float) and math.isfinite(value) else 0)
    return {"string": "" if value is None else value.hex() if isinstance(value, bytes) else str(value),
            "hex": value if isinstance(value, bytes) else b"" if value is None else str(value).encode(),
            "integer": number, "number": float(value) if isinstance(value, float) else float(number),
            "boolean": bool(value), "null": None}[kind]


def _to_float32(value: Any) -> Any:
    if isinstance(value, float) and math.isfinite(value) and abs(value) <= 3.4028234663852886e+38:
        return struct.unpack("<f", struct.pack("<f", value))[0]
    return value


# -- equivalent mutants, each with its argument ----------------------------------------------------------------

def fault_equivalent_notes() -> dict[str, str]:
    """The mutants of :data:`FAULT_FAMILIES` that no conforming check can tell from the model, each with the
    argument (merged into adapters/mutants.py EQUIVALENT)."""
    notes: dict[str, str] = {}
    for alias in ("between", "not_between"):
        notes[f"{SELECTOR}:caseless:{alias}"] = (
            f"{alias} compares its operand with >= and <= (reference/selection.py evaluate), and an ordering of "
            "strings is FALSE whatever their case (selection.comparison): folding the case of a string changes no "
            "answer, and numbers, booleans and NULL have no case")
    for alias in ("is_null", "is_not_null"):
        notes[f"{SELECTOR}:caseless:{alias}"] = (
            f"{alias} asks only whether the property is absent (selection.is-null): a value folded to lower case is "
            "present exactly when the value is, so every answer is the model's")
    notes[f"{PROPERTY_TYPE}:bound:MQTYPE_FLOAT32:high:+"] = (
        "MQSETMP's Value for MQTYPE_FLOAT32 is a C float (\"Property data types and values\"): no value above "
        "3.4028234663852886e+38 can be passed to IBM's MQI, so what a call language's number one double above it "
        "means - refused, as the model does, or narrowed to the largest float, as the mutant does - is left open by "
        "the documents, and no conforming scenario may depend on it")
    return notes


# -- the adapters ---------------------------------------------------------------------------------------------

def fault_subjects(family: str) -> Iterator[str]:
    """Every subject of one of :data:`FAULT_FAMILIES`."""
    return {SELECTOR: selector_subjects, TOPIC_MATCHER: topic_subjects, PROPERTY_TYPE: property_subjects}[family]()


def fault_mutant_names() -> list[str]:
    """Every mutant of :data:`FAULT_FAMILIES`, as an adapter name."""
    return [f"{PREFIX}{family}:{subject}" for family in FAULT_FAMILIES for subject in fault_subjects(family)]


class FaultInjected(ReferenceAdapter):
    """The model, with module functions it looks up replaced for the duration of each call (:meth:`patches`)."""

    def __init__(self, family: str, subject: str, spec: Any = None):
        self.family, self.subject = family, subject
        super().__init__(spec=spec)
        self.name = f"{PREFIX}{family}:{subject}"

    def patches(self) -> list[tuple[Any, str, Any]]:
        """(module, attribute, replacement) for each function replaced during a call."""
        return []

    def rewrite(self, call: Call) -> Call:
        """The call as the faulty implementation would make it of the model (unchanged by default)."""
        return call

    def execute(self, call: Call) -> Outcome:
        with _patched(self.patches()):
            return super().execute(self.rewrite(call))


@contextmanager
def _patched(patches: list[tuple[Any, str, Any]]) -> Iterator[None]:
    with ExitStack() as stack:
        for module, attribute, replacement in patches:
            original = getattr(module, attribute)
            setattr(module, attribute, replacement)
            stack.callback(setattr, module, attribute, original)
        yield


class SelectorFault(FaultInjected):
    """The model with one rule of the selector grammar broken (:func:`selector_fault`)."""

    def __init__(self, subject: str):
        if subject not in set(selector_subjects()):
            raise AdapterError(f"no selector fault {subject!r}; faults: {', '.join(selector_subjects())}")
        self.transform, self.check, self.caseless = selector_fault(subject)
        super().__init__(SELECTOR, subject)

    def patches(self) -> list[tuple[Any, str, Any]]:
        found: list[tuple[Any, str, Any]] = []
        if self.transform is not None:
            flatten, transform = selection_module._flatten, self.transform
            found.append((selection_module, "_flatten", lambda tree: flatten(_retyped(tree, transform))))
        if self.check is not None:
            parse, check = selection_module.parse, self.check

            def checked(text: str) -> Any:
                check(text)
                return parse(text)
            found.append((selection_module, "parse", checked))
        if self.caseless:
            evaluate = selection_module.evaluate

            def caseless_evaluate(program: Any, lookup: Callable[[str], Any]) -> Any:
                def folded(name: str) -> Any:
                    if not name.startswith(_CASELESS):
                        return lookup(name)
                    value = lookup(name[len(_CASELESS):])
                    return value.lower() if isinstance(value, str) else value
                return evaluate(program, folded)
            found.append((selection_module, "evaluate", caseless_evaluate))
        return found


class TopicMatcherFault(FaultInjected):
    """The model with one rule of one wildcard scheme broken (:func:`topic_fault`)."""

    def __init__(self, subject: str):
        self.attribute, self.matcher = topic_fault(subject)
        super().__init__(TOPIC_MATCHER, subject)

    def patches(self) -> list[tuple[Any, str, Any]]:
        return [(topics_module, self.attribute, self.matcher)]


class PropertyTypeFault(FaultInjected):
    """The model with one property type's bound, one conversion or one type's precision wrong."""

    def __init__(self, subject: str):
        if subject not in set(property_subjects()):
            raise AdapterError(f"no property-type fault {subject!r}; faults: {', '.join(property_subjects())}")
        fault, _, rest = subject.partition(":")
        self.fault, spec = fault, None
        if fault == "bound":
            type_name, bound, sign = rest.split(":")
            spec = default_spec()
            table = spec[TYPES_TABLE]
            row = table.lookup(type=type_name)
            spec = spec.with_table(table.with_row(row.id, **{bound: _bound_step(row, bound, sign)}))
        elif fault == "conversion":
            self.pair = tuple(rest.split(":"))
            self.supported = conversion_supported(*self.pair)
        else:
            self.float_type = rest
        super().__init__(PROPERTY_TYPE, subject, spec=spec)

    def patches(self) -> list[tuple[Any, str, Any]]:
        if self.fault == "conversion":
            convert, (source, target), supported = properties_module.convert, self.pair, self.supported

            def converted(qm: Any, prop: Any, wanted: str) -> Any:
                if (properties_module.type_name(prop.type), wanted) != (source, target):
                    return convert(qm, prop, wanted)
                if supported:
                    return "MQRC_PROP_CONV_NOT_SUPPORTED", "properties.conversions.not-supported", None
                return _coerced(prop.value, properties_module.type_row(qm, target).then["json"]), "properties.inquire.as-set"
            return [(properties_module, "convert", converted)]
        if self.fault == "precision" and self.float_type == "MQTYPE_FLOAT32":
            return [(properties_module, "_float32", lambda value: value)]  # single precision held as double
        return []

    def rewrite(self, call: Call) -> Call:
        if self.fault == "precision" and self.float_type != "MQTYPE_FLOAT32" and call.op == "setmp" \
                and call.args.get("Type") == self.float_type:
            return Call(call.op, {**call.args, "Value": _to_float32(call.args.get("Value"))})
        return call


def load_fault_mutant(family: str, subject: str) -> ReferenceAdapter:
    """The mutant ``mutant:<family>:<subject>`` of one of :data:`FAULT_FAMILIES`."""
    return {SELECTOR: SelectorFault, TOPIC_MATCHER: TopicMatcherFault, PROPERTY_TYPE: PropertyTypeFault}[family](
        subject)


def fault_hint(family: str, subject: str) -> tuple[str, str]:
    """(a word a scenario that could kill the mutant mentions, its area)."""
    if family == SELECTOR:
        return "SelectionString", "selection"
    if family == TOPIC_MATCHER:
        return subject.split(":")[0] == "char" and CHAR_SCHEME or "ObjectString", "pubsub"
    parts = subject.split(":")
    return parts[1] if parts[0] != "conversion" else "MQIMPO_CONVERT_TYPE", "properties"

