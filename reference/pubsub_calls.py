"""The call language of publish/subscribe (capability ``pubsub``): ``define_topic``, ``sub`` (MQSUB), ``subrq``
(MQSUBRQ), and ``open`` / ``put1`` of a topic; their arguments spelled as MQ spells them.

- ``define_topic: {name, TopicString, InhibitPublications, InhibitSubscriptions, DurableSubscriptions,
  DefPersistence, DefPriority}`` (DEFINE TOPIC; attributes left out are "as parent"); a scenario's setup lists them
  under ``topics``.
- ``open: {handle, topic: <topic object name>, ObjectString: <topic string>, Options}``: either key (or both)
  makes the MQOD's ObjectType MQOT_TOPIC; ``put1`` takes the same two keys.
- ``sub: {handle, Hobj, SD: {Options, ObjectName, ObjectString, SubName, SubCorrelId, SubUserData,
  SelectionString, SubLevel}}``: ``handle`` names the subscription handle (Hsub), which ``close`` and ``subrq`` then
  take; ``Hobj`` names the destination queue's handle of an unmanaged subscription (an earlier ``open``), or, with
  MQSO_MANAGED, the name the managed destination's handle gets. The outcome's ``SD`` returns ``SubCorrelId``, and
  ``SubLevel`` when the call resumed a subscription (the level it has).
- ``put`` and ``put1`` of a publication take ``PMO: {PubLevel}`` (reference/calls.py; default 9).
- ``subrq: {handle, Action: MQSR_ACTION_PUBLICATION}``: the outcome's ``SRO`` returns ``NumPubs``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .calls import CallError, _join, _name, decode_field, encode_bytes
from .constants import VALUES
from .structures import MQOD
from .subscriptions import MQSD
from .topics import TopicDefinition

PUBSUB_OPS = frozenset({"define_topic", "sub", "subrq"})
_INT = ("int", ())
TOPIC_FIELDS: dict[str, tuple] = {
    "TopicString": ("text",), "InhibitPublications": ("enum", "MQTA"), "InhibitSubscriptions": ("enum", "MQTA"),
    "DurableSubscriptions": ("enum", "MQSUB"), "DefPersistence": ("enum", "MQPER"), "DefPriority": ("int", ("MQPRI",)),
}
SD_FIELDS: dict[str, tuple] = {
    "Options": ("options", "MQSO"), "ObjectName": ("text",), "ObjectString": ("text",), "SubName": ("text",),
    "SubCorrelId": ("id", "MQCI_NONE", 24), "SubUserData": ("text",), "SelectionString": ("text",),
    "SubLevel": _INT,
}
SD_OUTPUT_FIELDS: dict[str, tuple] = {"SubCorrelId": ("id", "MQCI_NONE", 24), "SubLevel": _INT}
SRO_FIELDS: dict[str, tuple] = {"NumPubs": _INT}
# Structures only publish/subscribe outcomes return, by their key in an Outcome and an expectation.
OUTCOME_STRUCTURES: dict[str, dict[str, tuple]] = {"SD": SD_OUTPUT_FIELDS, "SRO": SRO_FIELDS}
ARGUMENTS: dict[str, set[str]] = {
    "define_topic": {"name", "qmgr", *TOPIC_FIELDS},
    "sub": {"handle", "Hobj", "SD", "connection"},
    "subrq": {"handle", "Action"},
}
TOPIC_OD_KEYS = ("topic", "ObjectString")


def decode_topic(args: Mapping[str, Any], path: str) -> tuple[str | None, TopicDefinition]:
    """``define_topic``: the queue manager (``qmgr``, none: the default one) and the topic object."""
    name = args.get("name")
    if not isinstance(name, str) or not name or len(name) > 48:
        raise CallError("a topic object needs a 'name' of 1 to 48 characters", _join(path, "name"))
    qmgr = args.get("qmgr")
    if qmgr is not None and (not isinstance(qmgr, str) or not qmgr):
        raise CallError("expected a queue manager name", _join(path, "qmgr"))
    if "TopicString" not in args:  # DEFINE TOPIC requires TOPICSTR; "" is given only to name an empty one
        raise CallError("a topic object needs a 'TopicString' (DEFINE TOPIC's TOPICSTR)", _join(path, "TopicString"))
    definition = TopicDefinition(name)
    for key, item in args.items():
        if key in ("name", "qmgr"):
            continue
        if key not in TOPIC_FIELDS:
            raise CallError(f"unknown topic attribute {key!r}; attributes: {', '.join(TOPIC_FIELDS)}",
                            _join(path, key))
        setattr(definition, key, decode_field(TOPIC_FIELDS[key], item, _join(path, key)))
    return qmgr, definition


def is_topic_od(args: Mapping[str, Any]) -> bool:
    """Whether the arguments of an ``open`` or ``put1`` name a topic rather than a queue."""
    return any(key in args for key in TOPIC_OD_KEYS)


def decode_topic_od(args: Mapping[str, Any], path: str) -> MQOD:
    """The MQOD of an ``open`` or ``put1`` of a topic: ObjectType MQOT_TOPIC, ``topic`` as ObjectName and
    ``ObjectString``."""
    if "queue" in args:
        raise CallError("names both a queue and a topic; an MQOD names one object", _join(path, "queue"))
    name, string = args.get("topic", ""), args.get("ObjectString", "")
    if not isinstance(name, str) or len(name) > 48:
        raise CallError("expected a topic object name of at most 48 characters", _join(path, "topic"))
    if not isinstance(string, str):
        raise CallError("expected a topic string", _join(path, "ObjectString"))
    return MQOD(ObjectName=name, ObjectType=VALUES["MQOT_TOPIC"], ObjectString=string)


def decode_sd(value: Any, path: str) -> MQSD:
    """An MQSD from its call-language mapping."""
    if value is None:
        value = {}
    if not isinstance(value, Mapping):
        raise CallError(f"expected a mapping of SD fields, not {value!r}", path)
    sd = MQSD()
    for name, item in value.items():
        if name not in SD_FIELDS:
            raise CallError(f"SD has no field {name!r}; fields: {', '.join(SD_FIELDS)}", _join(path, name))
        setattr(sd, name, decode_field(SD_FIELDS[name], item, _join(path, name)))
    return sd


def decode_action(args: Mapping[str, Any], path: str) -> int:
    """The Action of a ``subrq``: MQSR_ACTION_PUBLICATION, the one action IBM defines (the default)."""
    action = args.get("Action", "MQSR_ACTION_PUBLICATION")
    if action not in ("MQSR_ACTION_PUBLICATION", VALUES["MQSR_ACTION_PUBLICATION"]):
        raise CallError("Action is MQSR_ACTION_PUBLICATION", _join(path, "Action"))
    return VALUES["MQSR_ACTION_PUBLICATION"]


def handle_name(args: Mapping[str, Any], key: str, path: str, required: bool = True) -> str | None:
    """A symbolic handle name argument (calls.py's name check, worded for a handle)."""
    return _name(args, key, path, required, what="handle name")


def encode_sub_correl_id(correl_id: bytes, sub_level: int | None = None) -> dict[str, Any]:
    """The outcome's SD of an MQSUB: the SubCorrelId, and the SubLevel of a subscription resumed (None: not
    returned)."""
    sd: dict[str, Any] = {"SubCorrelId": encode_bytes(correl_id, "MQCI_NONE")}
    if sub_level is not None:
        sd["SubLevel"] = sub_level
    return sd


def check_call(op: str, args: Mapping[str, Any]) -> None:
    """Decode a publish/subscribe call's arguments as the model would (for loading scenarios)."""
    for key in args:
        if key not in ARGUMENTS[op]:
            raise CallError(f"{op} takes no argument {key!r}; it takes {', '.join(sorted(ARGUMENTS[op]))}", key)
    if op == "define_topic":
        decode_topic(args, "")
    elif op == "sub":
        handle_name(args, "handle", "")
        handle_name(args, "Hobj", "", required=False)
        decode_sd(args.get("SD"), "SD")
    else:
        handle_name(args, "handle", "")
        decode_action(args, "")
