"""Topics: topic objects, topic strings, the attributes a topic string inherits down the topic tree, and the two
wildcard schemes a subscription chooses between.

Sources (clauses.yaml documents `topic-strings`, `topic-objects`, `topic-wildcards`, `char-wildcards`,
`wildcard-schemes`): a topic string is any text, its levels separated by ``/``; an administrative topic object
names a point of the tree by its TopicString; an attribute a topic object leaves "as parent" is taken from the
nearest topic object above it in the tree, and from SYSTEM.BASE.TOPIC at the top. The attributes, their "as
parent" values and SYSTEM.BASE.TOPIC's values are rows of fixtures/tables/topic-attributes.yaml.

The state of publish/subscribe on one queue manager (topic objects, subscriptions, subscription handles, retained
publications) is a :class:`PubSub` value the queue manager holds; nothing here is global.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from .constants import VALUES
from .patterns import ANY, ANY_ONE, Pattern, compile_tokens
from .structures import MQMD

if TYPE_CHECKING:
    from .tables import Spec

BASE_TOPIC = "SYSTEM.BASE.TOPIC"
SEPARATOR = "/"
MAX_TOPIC_STRING = 10240  # MQ_TOPIC_STR_LENGTH
TOPIC_ATTRIBUTES = "topic.attributes"
# The administrative attributes a topic object carries, by their MQI names (the rows of topic-attributes.yaml).
ATTRIBUTE_NAMES = ("InhibitPublications", "InhibitSubscriptions", "DurableSubscriptions", "DefPersistence",
                   "DefPriority")


@dataclass
class TopicDefinition:
    """An administrative topic object (DEFINE TOPIC): its name, its TopicString, and its attributes, each either a
    value or the attribute's "as parent" value (then inherited; :func:`resolve_attribute`)."""

    name: str
    TopicString: str = ""
    InhibitPublications: int = VALUES["MQTA_PUB_AS_PARENT"]
    InhibitSubscriptions: int = VALUES["MQTA_SUB_AS_PARENT"]
    DurableSubscriptions: int = VALUES["MQSUB_DURABLE_AS_PARENT"]
    DefPersistence: int = VALUES["MQPER_PERSISTENCE_AS_PARENT"]
    DefPriority: int = VALUES["MQPRI_PRIORITY_AS_PARENT"]


@dataclass
class Publication:
    """A retained publication: the message as published (its MQMD, data and the publisher's properties) on one
    topic string."""

    topic: str
    md: MQMD
    data: bytes
    properties: tuple = ()


@dataclass
class PubSub:
    """Publish/subscribe on one queue manager: topic objects by name, subscriptions by their key, open
    subscription handles (Hsub -> subscription key), retained publications by topic string, and the retained
    publications a unit of work will set when it commits (unit-of-work ident -> publications)."""

    topics: dict[str, TopicDefinition] = field(default_factory=dict)
    subscriptions: dict[str, Any] = field(default_factory=dict)
    sub_handles: dict[int, Any] = field(default_factory=dict)
    retained: dict[str, Publication] = field(default_factory=dict)
    pending_retained: dict[int, list[Publication]] = field(default_factory=dict)
    orphaned_queues: set[str] = field(default_factory=set)  # managed queues of removed subscriptions, still open
    put_properties: tuple = ()  # the properties of the put under way (reference/properties.py put_with_properties)
    last_subscription: int = 0
    last_managed_queue: int = 0


def base_topic(spec: Spec) -> TopicDefinition:
    """SYSTEM.BASE.TOPIC as the queue manager defines it: the top of the tree, every attribute given the value of
    its row in topic-attributes.yaml. Clause: topic.attributes.base-topic."""
    table = spec[TOPIC_ATTRIBUTES]
    values = {name: _value(table.lookup(attribute=name).then["base"]) for name in ATTRIBUTE_NAMES}
    return TopicDefinition(BASE_TOPIC, "", **values)


def topic_object(pubsub: PubSub, spec: Spec, name: str) -> TopicDefinition | None:
    """The topic object named ``name`` (SYSTEM.BASE.TOPIC always exists), or None."""
    found = pubsub.topics.get(name)
    if found is None and name == BASE_TOPIC:
        return base_topic(spec)
    return found


def full_topic_string(definition: TopicDefinition | None, object_string: str) -> str:
    """The topic string an MQOD or MQSD names: the topic object's TopicString, then ``/`` and the ObjectString
    when both are given; either alone when the other is empty. Clause: topic.string.concatenated."""
    prefix = definition.TopicString if definition is not None else ""
    if prefix and object_string:
        return f"{prefix}{SEPARATOR}{object_string}"
    return prefix or object_string


def is_at_or_above(upper: str, topic: str) -> bool:
    """Whether topic string ``upper`` is ``topic`` or a topic string above it in the tree (the empty one, the root,
    is above every other): ``a/b`` is above ``a/b/c``, not above ``a/bc``. Compared in place: building every prefix
    of a 10,240-character topic string would cost a square of its length at each publication."""
    return upper == topic or not upper or topic.startswith(upper + SEPARATOR)


def resolve_attribute(pubsub: PubSub, spec: Spec, topic: str, attribute: str) -> tuple[int, str]:
    """The value ``attribute`` has for ``topic``, and the name of the topic object it was taken from: the nearest
    topic object at or above the topic string in the tree whose value is not "as parent", else SYSTEM.BASE.TOPIC.

    Clauses: topic.attributes.inherited, topic.attributes.base-topic.
    """
    row = spec[TOPIC_ATTRIBUTES].lookup(attribute=attribute)
    as_parent = _value(row.then["as-parent"])
    by_string = {d.TopicString: d for d in pubsub.topics.values()}
    above = sorted((level for level in by_string if is_at_or_above(level, topic)), key=len, reverse=True)
    for level in above:  # nearest first
        definition = by_string[level]
        if getattr(definition, attribute) != as_parent:
            return getattr(definition, attribute), definition.name
    base = pubsub.topics.get(BASE_TOPIC) or base_topic(spec)
    value = getattr(base, attribute)
    return (value if value != as_parent else _value(row.then["base"])), BASE_TOPIC


def attribute_clauses(spec: Spec, attribute: str, source: str) -> list[str]:
    """The clauses a resolution of ``attribute`` (:func:`resolve_attribute`, which gave it from topic object
    ``source``) applied: the attribute's row of topic-attributes.yaml (what "as parent" is, and SYSTEM.BASE.TOPIC's
    value) with the table's own clause topic.attributes, and topic.attributes.base-topic when the value came from
    SYSTEM.BASE.TOPIC."""
    row = spec[TOPIC_ATTRIBUTES].lookup(attribute=attribute)
    return ["topic.attributes", row.id, *(["topic.attributes.base-topic"] if source == BASE_TOPIC else [])]


def _value(item: int | str) -> int:
    """A table cell: an MQ constant name, or a number (written as text where the column holds names)."""
    if isinstance(item, int):
        return item
    return int(item) if item.lstrip("-").isdigit() else VALUES[item]


# -- wildcards --------------------------------------------------------------------------------------------------

def topic_wildcard_match(pattern: str, topic: str) -> bool:
    """Whether subscription topic string ``pattern`` selects ``topic`` under the topic-based scheme: a level that
    is ``#`` alone matches any number of levels, none included; a level that is ``+`` alone matches exactly one
    level; any other level, a ``#`` or ``+`` inside a level included, matches itself only. Matched as an automaton
    over levels (reference/patterns.py): ``#/`` 3,000 times costs one pass, never a recursion.

    Clauses: topic.wildcard.multilevel, topic.wildcard.single-level, topic.wildcard.literal-inside-level.
    """
    return _level_pattern(pattern).fullmatch(topic.split(SEPARATOR))


@lru_cache(maxsize=1024)
def _level_pattern(pattern: str) -> Pattern:
    return compile_tokens(ANY if level == "#" else ANY_ONE if level == "+" else level
                          for level in pattern.split(SEPARATOR))


@lru_cache(maxsize=1024)
def _char_pattern(pattern: str) -> Pattern:
    tokens: list[object] = []
    escaped = False
    for char in pattern:
        if escaped:
            tokens.append(char)
            escaped = False
        elif char == "%":
            escaped = True
        else:
            tokens.append(ANY if char == "*" else ANY_ONE if char == "?" else char)
    return compile_tokens(tokens)


def char_wildcard_match(pattern: str, topic: str) -> bool:
    """Whether ``pattern`` selects ``topic`` under the character-based scheme: ``*`` stands for any characters
    (none included, ``/`` included), ``?`` for exactly one character, and ``%`` makes the next character literal.
    Matched as an automaton (reference/patterns.py), in time linear in the topic string however many ``*``.

    Clause: topic.wildcard.character-based.
    """
    return _char_pattern(pattern).fullmatch(topic)


def wildcard_clauses(pattern: str, topic: str, character_scheme: bool, matched: bool) -> list[str]:
    """The rows of IBM's wildcard examples (fixtures/tables/topic-wildcards.yaml, topic.wildcard.example.*) whose
    rule a match decision applied, with the table's own clause topic.wildcard.examples when a row is named: the kind of each wildcard the subscription's topic string holds, and what it
    matched. The examples' rows are never read here (the model decides by :func:`matches`); this names, after the
    decision, the example of the same kind so that a scenario showing that kind can fail at it.

    Topic scheme: ``#`` first (multilevel-leading), ``#`` matching no level or some (multilevel-zero-levels,
    multilevel-below), ``+`` matching its level (single-level) or failing for a topic string with more levels
    (single-level-not-two) or fewer (single-level-not-none), a ``*`` inside a level taken literally
    (topic-scheme-star-literal), no wildcard at all (exact). Character scheme: ``+`` taken literally
    (character-plus-literal), ``?`` (character-question-mark), ``*`` within a level or across ``/``
    (character-star, character-star-crosses-levels).
    """
    found = rule_clauses(pattern, topic, character_scheme)
    examples = _example_clauses(pattern, topic, character_scheme, matched)
    return found + (["topic.wildcard.examples", *examples] if examples else [])


def _example_clauses(pattern: str, topic: str, character_scheme: bool, matched: bool) -> list[str]:
    """The example rows of :func:`wildcard_clauses`."""
    example = "topic.wildcard.example."
    found: list[str] = []
    if character_scheme:
        found += [example + "character-plus-literal"] if "+" in pattern else []
        if matched and "?" in pattern:
            found.append(example + "character-question-mark")
        if matched and "*" in pattern:
            crosses = topic.count(SEPARATOR) > pattern.count(SEPARATOR)
            found.append(example + ("character-star-crosses-levels" if crosses else "character-star"))
        return found
    levels, published = pattern.split(SEPARATOR), topic.split(SEPARATOR)
    if "#" in levels:
        if levels[0] == "#" and matched:
            found.append(example + "multilevel-leading")
        if matched:
            zero = len(published) == len(levels) - levels.count("#")
            found.append(example + ("multilevel-zero-levels" if zero else "multilevel-below"))
    elif "+" in levels:
        if matched:
            found.append(example + "single-level")
        elif len(published) != len(levels):
            found.append(example + ("single-level-not-two" if len(published) > len(levels) else "single-level-not-none"))
    elif any("*" in level for level in levels):
        found.append(example + "topic-scheme-star-literal")
    elif matched:
        found.append(example + "exact")
    return found


def rule_clauses(pattern: str, topic: str, character_scheme: bool) -> list[str]:
    """The wildcard rules a subscription's topic string ``pattern`` makes a match against ``topic`` apply:
    topic.wildcard.character-based for a character-scheme string holding ``*``, ``?`` or ``%``;
    topic.wildcard.multilevel and topic.wildcard.single-level for a topic-scheme level that is ``#`` or ``+`` alone;
    topic.wildcard.literal-inside-level for a wildcard character sharing its level, or one in the published topic
    string; topic.wildcard.scheme-per-subscription where the scheme chosen decides what a character means (the
    character scheme, or ``*`` and ``?`` under the topic scheme)."""
    wildcard = "topic.wildcard."
    found = []
    if character_scheme or "*" in pattern or "?" in pattern:
        found.append(wildcard + "scheme-per-subscription")
    if character_scheme:
        if any(c in pattern for c in "*?%"):
            found.append(wildcard + "character-based")
        return found
    levels = pattern.split(SEPARATOR)
    if "#" in levels:
        found.append(wildcard + "multilevel")
    if "+" in levels:
        found.append(wildcard + "single-level")
    if any(level not in ("#", "+") and ("#" in level or "+" in level) for level in levels) or \
            any(c in topic for c in "#+"):
        found.append(wildcard + "literal-inside-level")
    return found


def matches(pattern: str, topic: str, character_scheme: bool) -> bool:
    """Whether a subscription on ``pattern`` selects a publication on ``topic``, under the scheme it chose
    (MQSO_WILDCARD_CHAR, or the default MQSO_WILDCARD_TOPIC). Clause: topic.wildcard.scheme-per-subscription."""
    if character_scheme:
        return char_wildcard_match(pattern, topic)
    return topic_wildcard_match(pattern, topic)
