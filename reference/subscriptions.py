"""Subscriptions: MQSUB (create, resume, alter), managed and unmanaged destinations, durable and non-durable
subscriptions, MQSUBRQ, and MQCLOSE of a subscription handle with MQCO_KEEP_SUB / MQCO_REMOVE_SUB.

Sources (clauses.yaml documents `mqsub`, `mqsd-options`, `mqi-options-rules`, `mqsubrq`, `mqclose`,
`subscription-durability`, `managed-destinations`, `retained-publications`, `subscription-options` and the
reason-code pages): the option rules are rows of fixtures/tables/sub-options-rules.yaml; a subscription is found
by its SubName; a durable subscription needs a name and survives the closing of its handle, a non-durable one is
removed with it; a managed destination is a queue the queue manager makes for the subscription and removes with
it; a new subscription is sent the retained publications its topic string selects unless it asks for new
publications only or for publications on request.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import publish, topics
from .constants import VALUES
from .handles import Connection, ObjectHandle
from .options import first_broken, held, unknown_bits
from .queue import LocalQueue, QueueDefinition
from .errors import NotModelled
from .result import Result, failure
from .structures import NONE_ID

if TYPE_CHECKING:
    from .qmgr import QueueManager

SO = {name: VALUES[f"MQSO_{name}"] for name in (
    "ALTER", "CREATE", "RESUME", "DURABLE", "MANAGED", "PUBLICATIONS_ON_REQUEST", "NEW_PUBLICATIONS_ONLY",
    "WILDCARD_CHAR", "SET_CORREL_ID")}
OO_INPUT = VALUES["MQOO_INPUT_AS_Q_DEF"] | VALUES["MQOO_INPUT_SHARED"] | VALUES["MQOO_INPUT_EXCLUSIVE"]
OO_BROWSE = VALUES["MQOO_BROWSE"]
MANAGED_OPEN_OPTIONS = VALUES["MQOO_INPUT_AS_Q_DEF"] | OO_BROWSE
CO_KEEP_SUB = VALUES["MQCO_KEEP_SUB"]
CO_REMOVE_SUB = VALUES["MQCO_REMOVE_SUB"]
CO_DELETE = VALUES["MQCO_DELETE"] | VALUES["MQCO_DELETE_PURGE"]
MQTA_SUB_INHIBITED = VALUES["MQTA_SUB_INHIBITED"]
MQSUB_DURABLE_INHIBITED = VALUES["MQSUB_DURABLE_INHIBITED"]
WILDCARD_CHARACTERS = {False: ("#", "+"), True: ("*", "?")}


@dataclass
class MQSD:
    """The subscription descriptor of an MQSUB: Options (MQSO_*), the topic (ObjectName of a topic object and/or
    ObjectString), SubName, SubCorrelId (read with MQSO_SET_CORREL_ID) and SubUserData."""

    Options: int = 0
    ObjectName: str = ""
    ObjectString: str = ""
    SubName: str = ""
    SubCorrelId: bytes = NONE_ID
    SubUserData: str = ""
    SelectionString: str = ""  # a selector on the publications' properties (sub.selection.filters)
    SubLevel: int = 1  # the subscription's level, 0 to 9 (sub.level.*)


@dataclass
class Subscription:
    """One subscription: where its publications go and which handle, if any, has it open."""

    key: str  # its SubName, or a name the model gives an unnamed subscription
    name: str  # the SubName given ("" for none)
    ordinal: int  # creation order: publications reach subscriptions in this order
    topic: str  # the full topic string, wildcards included
    character_scheme: bool  # MQSO_WILDCARD_CHAR
    durable: bool
    managed: bool
    queue: str  # the destination queue
    correl_id: bytes
    on_request: bool  # MQSO_PUBLICATIONS_ON_REQUEST
    user_data: str = ""
    hconn: int | None = None  # the connection whose handle has it open
    hsub: int | None = None
    sub_id: bytes = NONE_ID  # SUBID: the identifier the queue manager gives it (administration names it so)
    user: str = ""  # SUBUSER: the user who made it, each publication's UserIdentifier (publish.context.*)
    selection: Any = None  # its SelectionString parsed (reference/selection.py Selection), None for none
    level: int = 1  # its SubLevel: publications reach the highest level at or below their PubLevel (sub.level.*)


def sub(qm: QueueManager, conn: Connection, sd: MQSD, hobj: int | None) -> Result:
    """MQSUB: create, resume or alter the subscription ``sd`` describes; ``hobj`` is the destination queue's
    handle for an unmanaged subscription (None for MQHO_NONE). The subscription handle is ``Result.hsub``, the
    managed destination's handle ``Result.hobj``, the SubCorrelId ``Result.sub_correl_id``.

    When a call breaks several rules, the first in the order below is reported.
    Clauses: sub.options.*, sub.name.required-for-durable, sub.create.*, sub.resume.*, sub.alter.*,
    sub.destination.*, sub.retained-on-create, sub.alter.sublevel-not-alterable, sub.resume.returns-sublevel,
    sub.level.retained-at-level-one, topic.*.
    """
    options = sd.Options
    if unknown_bits(options, "MQSO"):
        return failure("MQRC_OPTIONS_ERROR", "sub.options.unknown")
    broken = first_broken(qm.spec["sub.options"], options, "MQSUB")
    if broken is not None:
        return failure(broken.reason, broken.id)
    result = _subscribe(qm, conn, sd, hobj)
    # the option rules held: named on every answer past them, so an allowed combination can fail at its rule
    result.clauses[:0] = ["sub.options", *held(qm.spec["sub.options"], options, "MQSUB")]
    return result


def _subscribe(qm: QueueManager, conn: Connection, sd: MQSD, hobj: int | None) -> Result:
    """MQSUB past its option rules: the level, the name, then a subscription resumed or made."""
    options = sd.Options
    level_refused = level_refusal(sd)
    if level_refused is not None:
        raise NotModelled(level_refused)
    durable = bool(options & SO["DURABLE"])
    name = sd.SubName.strip()
    if durable and not name:
        return failure("MQRC_SUB_NAME_ERROR", "sub.name.required-for-durable")
    existing = qm.pubsub.subscriptions.get(name) if name else None
    if existing is not None:
        return _resume(qm, conn, existing, sd, hobj)
    if not options & SO["CREATE"]:
        return failure("MQRC_NO_SUBSCRIPTION", "sub.resume.no-subscription")
    return _create(qm, conn, sd, hobj, name, durable)


def _create(qm: QueueManager, conn: Connection, sd: MQSD, hobj: int | None, name: str, durable: bool) -> Result:
    options = sd.Options
    resolved = publish.resolve_topic(qm, sd.ObjectName, sd.ObjectString)
    if isinstance(resolved, Result):
        return resolved
    topic, clauses = resolved
    character_scheme = bool(options & SO["WILDCARD_CHAR"])
    if character_scheme:
        if not escapes_valid(topic):
            return failure("MQRC_TOPIC_STRING_ERROR", "topic.string.char-escape")
        clauses = [*clauses, "topic.string.char-escape"]
    node = wildcard_free_prefix(topic, character_scheme)
    if node != topic:
        clauses = [*clauses, "sub.create.attributes-at-first-wildcard"]
    inhibited, source = topics.resolve_attribute(qm.pubsub, qm.spec, node, "InhibitSubscriptions")
    applied = topics.attribute_clauses(qm.spec, "InhibitSubscriptions", source)
    if inhibited == MQTA_SUB_INHIBITED:
        return failure("MQRC_SUB_INHIBITED", "sub.create.sub-inhibited", "topic.attributes.inherited", *applied)
    if durable:
        allowed, source = topics.resolve_attribute(qm.pubsub, qm.spec, node, "DurableSubscriptions")
        durability = topics.attribute_clauses(qm.spec, "DurableSubscriptions", source)
        if allowed == MQSUB_DURABLE_INHIBITED:
            return failure("MQRC_DURABILITY_NOT_ALLOWED", "sub.create.durability-not-allowed",
                           "topic.attributes.inherited", *durability)
        applied += durability
    clauses = [*clauses, *applied]
    chosen = None
    if sd.SelectionString.strip():
        chosen = selection_of(qm, sd.SelectionString)
        if chosen is None:
            return failure("MQRC_SELECTOR_SYNTAX_ERROR", "sub.selection.syntax-error")
    managed = bool(options & SO["MANAGED"])
    if not managed:
        queue = destination_of(qm, conn, hobj)
        if queue is None:
            return failure("MQRC_HOBJ_ERROR", "sub.destination.unmanaged-needs-input-handle")
        clauses.append("sub.destination.unmanaged")
    correl_id = _correl_id(qm, sd)
    clauses.append("sub.correl-id")
    qm.pubsub.last_subscription += 1
    ordinal = qm.pubsub.last_subscription
    key = name or f"\0unnamed.{ordinal}"  # no SubName can hold a NUL, so no later MQSUB finds it by name
    if managed:
        queue = make_managed_queue(qm, durable)
        clauses.append("sub.destination.managed")
    subscription = Subscription(key, name, ordinal, topic, character_scheme, durable, managed, queue, correl_id,
                                bool(options & SO["PUBLICATIONS_ON_REQUEST"]), sd.SubUserData,
                                sub_id=qm.ids.new_id(), selection=chosen, level=sd.SubLevel,
                                user=conn.user or qm.context_user)
    qm.pubsub.subscriptions[key] = subscription
    result = _bind(qm, conn, subscription, clauses + ["sub.create.new"])
    if options & (SO["NEW_PUBLICATIONS_ONLY"] | SO["PUBLICATIONS_ON_REQUEST"]):
        result.clauses.append("sub.create.no-retained" if options & SO["NEW_PUBLICATIONS_ONLY"]
                              else "subrq.on-request-only")
    elif subscription.level > publish.RETAINED_PUB_LEVEL:  # sent at PubLevel 1: above it, never (sub.level.retained)
        result.clauses.append("sub.level.retained-at-level-one")
    else:
        sent = [p for p in publish.retained_for(qm, subscription, result.clauses)
                if publish.deliver(qm, subscription, p.md, p.data, None, result.clauses, retained=True, topic=p.topic,
                                   properties=p.properties)]
        if sent:
            result.clauses.append("sub.retained-on-create")
    return result


def _resume(qm: QueueManager, conn: Connection, subscription: Subscription, sd: MQSD, hobj: int | None) -> Result:
    """MQSUB of a subscription that exists: MQSO_CREATE alone fails; a subscription a handle has open is in use;
    MQSO_ALTER may change its destination, SubCorrelId, MQSO_PUBLICATIONS_ON_REQUEST and SubUserData, never its
    durability."""
    options = sd.Options
    if not options & (SO["RESUME"] | SO["ALTER"]):
        return failure("MQRC_SUB_ALREADY_EXISTS", "sub.create.already-exists")
    if subscription.hsub is not None:
        return failure("MQRC_SUBSCRIPTION_IN_USE", "sub.resume.in-use")
    clauses = ["sub.resume.existing"]
    if options & SO["ALTER"]:
        if bool(options & SO["DURABLE"]) != subscription.durable:
            return failure("MQRC_DURABILITY_NOT_ALTERABLE", "sub.alter.durability-not-alterable")
        if sd.SubLevel != subscription.level:
            return failure("MQRC_SUBLEVEL_NOT_ALTERABLE", "sub.alter.sublevel-not-alterable")
        if not subscription.managed and hobj is not None:
            queue = destination_of(qm, conn, hobj)
            if queue is None:
                return failure("MQRC_HOBJ_ERROR", "sub.destination.unmanaged-needs-input-handle")
            subscription.queue = queue
        if options & SO["SET_CORREL_ID"]:
            subscription.correl_id = sd.SubCorrelId
            clauses.append("sub.correl-id")
        subscription.on_request = bool(options & SO["PUBLICATIONS_ON_REQUEST"])
        subscription.user_data = sd.SubUserData
        clauses.append("sub.alter.changes-subscription")
    result = _bind(qm, conn, subscription, clauses)
    result.sub_level = subscription.level  # the MQSD returns the level resumed (sub.resume.returns-sublevel)
    result.clauses.append("sub.resume.returns-sublevel")
    return result


def _bind(qm: QueueManager, conn: Connection, subscription: Subscription, clauses: list[str]) -> Result:
    """Open a subscription handle on ``subscription``, and for a managed one a handle on its queue."""
    hsub = qm.next_handle()
    subscription.hsub, subscription.hconn = hsub, conn.hconn
    qm.pubsub.sub_handles[hsub] = subscription.key
    hobj = None
    if subscription.managed:
        hobj = qm.next_handle()
        queue = qm.queues[subscription.queue]
        queue.open_input_count += 1
        qm.handles[hobj] = ObjectHandle(hobj=hobj, hconn=conn.hconn, queue=subscription.queue,
                                        options=MANAGED_OPEN_OPTIONS)
        conn.handles.add(hobj)
        clauses.append("sub.destination.managed-handle")
    return Result(clauses=clauses, hsub=hsub, hobj=hobj, sub_correl_id=subscription.correl_id)


def level_refusal(sd: MQSD) -> str | None:
    """What the model does not model of an MQSD's SubLevel: a level outside 0 to 9, and a level above 1 with
    MQSO_PUBLICATIONS_ON_REQUEST. IBM's SubLevel page says neither is allowed but names no reason code for either
    (sub.level.highest-receives, decision)."""
    if not 0 <= sd.SubLevel <= 9:
        return f"MQSD SubLevel {sd.SubLevel} outside 0 to 9 (IBM names no reason code)"
    if sd.SubLevel > 1 and sd.Options & SO["PUBLICATIONS_ON_REQUEST"]:
        return "MQSD SubLevel above 1 with MQSO_PUBLICATIONS_ON_REQUEST (IBM names no reason code)"
    return None


def _correl_id(qm: QueueManager, sd: MQSD) -> bytes:
    """The SubCorrelId: the caller's with MQSO_SET_CORREL_ID, else one the queue manager makes.
    Clause: sub.correl-id."""
    return sd.SubCorrelId if sd.Options & SO["SET_CORREL_ID"] else qm.ids.new_id()


def define(qm: QueueManager, name: str, topic: str, destination: str | None, user_data: str = "") -> Result:
    """DEFINE SUB (administration): a durable subscription named ``name`` that no handle has open, its publications
    going to the queue ``destination`` or, for None, to a managed queue; MQSUB resumes it by its name. Nothing is
    checked here: the command server decides what the command may do. Clauses: admin.define-sub,
    sub.destination.managed."""
    qm.pubsub.last_subscription += 1
    managed = destination is None
    queue = make_managed_queue(qm, durable=True) if managed else destination
    qm.pubsub.subscriptions[name] = Subscription(
        name, name, qm.pubsub.last_subscription, topic, False, True, managed, queue, qm.ids.new_id(), False,
        user_data, sub_id=qm.ids.new_id(), user=qm.context_user)
    return Result(clauses=["admin.define-sub"] + (["sub.destination.managed"] if managed else []))


def selection_of(qm: QueueManager, text: str) -> Any:
    """A subscription's SelectionString as a selector of reference/selection.py, or None when it is no selector
    (MQSUB then fails with MQRC_SELECTOR_SYNTAX_ERROR: sub.selection.syntax-error). A publication reaches the
    subscription only when the selector is TRUE on its properties (sub.selection.filters)."""
    from . import selection  # selection reads properties, which publish imports

    try:
        return selection.Selection(text, selection.parse(text), qm)
    except selection.SelectorSyntaxError:
        return None


def escapes_valid(topic: str) -> bool:
    """Whether every ``%`` of a character-scheme topic string escapes a ``*``, ``?`` or ``%`` (a ``%`` before any
    other character, or at the end, makes MQSUB fail with MQRC_TOPIC_STRING_ERROR: topic.string.char-escape)."""
    index = topic.find("%")
    while index != -1:
        if index + 1 >= len(topic) or topic[index + 1] not in "*?%":
            return False
        index = topic.find("%", index + 2)
    return True


def wildcard_free_prefix(topic: str, character_scheme: bool) -> str:
    """The topic string of the node a subscription is made at: its levels before the first level holding a
    wildcard of its scheme (all of it when there is none). Clause: sub.create.attributes-at-first-wildcard."""
    wildcards = WILDCARD_CHARACTERS[character_scheme]
    levels = []
    for level in topic.split(topics.SEPARATOR):
        if (level in wildcards) if not character_scheme else any(c in level for c in wildcards):
            break
        levels.append(level)
    return topics.SEPARATOR.join(levels)


def destination_of(qm: QueueManager, conn: Connection, hobj: int | None) -> str | None:
    """The queue an unmanaged subscription sends its publications to: that of ``hobj``, a handle of this
    connection opened on a queue for input or browse; None when there is no such handle.
    Clause: sub.destination.unmanaged-needs-input-handle."""
    handle = qm.handles.get(hobj) if hobj is not None else None
    if handle is None or handle.hconn != conn.hconn or handle.topic is not None or handle.deleted:
        return None
    if not handle.options & (OO_INPUT | OO_BROWSE):
        return None
    return handle.queue


def make_managed_queue(qm: QueueManager, durable: bool) -> str:
    """A queue the queue manager makes for a managed subscription. Clause: sub.destination.managed."""
    qm.pubsub.last_managed_queue += 1
    kind = "DURABLE" if durable else "NDURABLE"
    name = f"SYSTEM.MANAGED.{kind}.{qm.pubsub.last_managed_queue:016X}"
    qm.queues[name] = LocalQueue(QueueDefinition(name))
    return name


def subrq(qm: QueueManager, conn: Connection, hsub: int) -> Result:
    """MQSUBRQ with MQSR_ACTION_PUBLICATION: send the subscription the retained publications its topic string
    selects (several when it holds wildcards); ``Result.num_pubs`` counts them. None kept: MQRC_NO_RETAINED_MSG.

    Clauses: subrq.hsub-error, subrq.sends-retained, subrq.no-retained-msg.
    """
    subscription = _subscription(qm, conn, hsub)
    if subscription is None:
        return failure("MQRC_HOBJ_ERROR", "subrq.hsub-error")
    matched: list[str] = []
    retained = publish.retained_for(qm, subscription, matched)
    if not retained:
        return failure("MQRC_NO_RETAINED_MSG", "subrq.no-retained-msg", *matched)
    clauses = ["subrq.sends-retained", *matched]
    sent = sum(1 for p in retained if publish.deliver(qm, subscription, p.md, p.data, None, clauses, retained=True,
                                                      topic=p.topic, properties=p.properties))
    return Result(clauses=clauses, num_pubs=sent)


def _subscription(qm: QueueManager, conn: Connection, hsub: int) -> Subscription | None:
    key = qm.pubsub.sub_handles.get(hsub)
    subscription = qm.pubsub.subscriptions.get(key) if key is not None else None
    if subscription is None or subscription.hconn != conn.hconn:
        return None
    return subscription


def is_subscription_handle(qm: QueueManager, hsub: int) -> bool:
    """Whether ``hsub`` is an open subscription handle."""
    return hsub in qm.pubsub.sub_handles


def close_sub(qm: QueueManager, conn: Connection, hsub: int, options: int) -> Result:
    """MQCLOSE of a subscription handle: a durable subscription is kept unless MQCO_REMOVE_SUB says otherwise; a
    non-durable one is removed (MQCO_KEEP_SUB is refused for it); removing a managed subscription removes its
    queue once no handle has that queue open. The handle is unusable afterwards.

    Clauses: close.options.unknown, sub.close.one-sub-option, sub.close.no-delete-options,
    sub.close.keep-needs-durable, sub.close.durable-kept, sub.close.removed, sub.close.managed-queue-removed,
    close.handle-invalid-after.
    """
    subscription = _subscription(qm, conn, hsub)
    if subscription is None:
        return failure("MQRC_HOBJ_ERROR", "conn.hobj-error")
    if unknown_bits(options, "MQCO"):
        return failure("MQRC_OPTIONS_ERROR", "close.options.unknown")
    if options & CO_KEEP_SUB and options & CO_REMOVE_SUB:
        return failure("MQRC_OPTIONS_ERROR", "sub.close.one-sub-option")
    if options & CO_DELETE:
        return failure("MQRC_OPTIONS_ERROR", "sub.close.no-delete-options")
    if options & CO_KEEP_SUB and not subscription.durable:
        return failure("MQRC_OPTIONS_ERROR", "sub.close.keep-needs-durable")
    del qm.pubsub.sub_handles[hsub]
    subscription.hsub = subscription.hconn = None
    if subscription.durable and not options & CO_REMOVE_SUB:
        return Result(clauses=["sub.close.durable-kept", "close.handle-invalid-after"])
    clauses = ["sub.close.removed"]
    clauses += remove(qm, subscription)
    return Result(clauses=clauses + ["close.handle-invalid-after"])


def remove(qm: QueueManager, subscription: Subscription) -> list[str]:
    """Forget a subscription; its managed queue goes now, or when the last handle on it closes."""
    del qm.pubsub.subscriptions[subscription.key]
    if not subscription.managed:
        return []
    qm.pubsub.orphaned_queues.add(subscription.queue)
    return release_managed_queue(qm, subscription.queue)


def release_managed_queue(qm: QueueManager, name: str) -> list[str]:
    """Delete the managed queue ``name`` of a removed subscription, with the publications nobody got, once no
    handle has it open. Clause: sub.close.managed-queue-removed."""
    if name not in qm.pubsub.orphaned_queues or any(h.queue == name for h in qm.handles.values()):
        return []
    qm.pubsub.orphaned_queues.discard(name)
    del qm.queues[name]
    return ["sub.close.managed-queue-removed"]


def disconnect(qm: QueueManager, conn: Connection) -> None:
    """At MQDISC the connection's subscription handles are closed as MQCLOSE without options closes them."""
    for hsub in sorted(h for h, key in qm.pubsub.sub_handles.items()
                       if qm.pubsub.subscriptions[key].hconn == conn.hconn):
        close_sub(qm, conn, hsub, 0)
