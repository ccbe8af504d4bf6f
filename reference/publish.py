"""Publishing: MQOPEN of a topic for output, MQPUT and MQPUT1 of a publication, its delivery to every matching
subscription, and retained publications.

Sources (clauses.yaml documents `mqopen`, `rc2045`, `pmo-options`, `rc2417`, `rc2550`, `retained-publications`,
`subscription-options`, `topic-objects`): a topic is opened by its topic object's name, by a topic string
(ObjectString), or by both; it is opened to publish, never to get or browse; a message in a group or a segment is
never published; each subscription whose topic string selects the publication's gets its own copy on its
destination queue, with the subscription's SubCorrelId as CorrelId; under syncpoint, the copies appear when the
unit of work commits; a retained publication replaces the one kept for its topic string.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import context, report, topics
from .constants import VALUES
from .handles import Connection, ObjectHandle
from .msgflags import GroupFlags
from .properties import MQTYPE_BOOLEAN, MQTYPE_STRING, Property
from .options import open_refused, unknown_bits
from .queue import PUT_PENDING, StoredMessage
from .errors import NotModelled
from .result import MQCC_WARNING, Result, failure
from .structures import MQMD, MQMD_VERSION_2, MQOD, MQPMO, NONE_ACCOUNTING, NONE_ID

if TYPE_CHECKING:
    from .qmgr import QueueManager
    from .subscriptions import Subscription

MQOT_TOPIC = VALUES["MQOT_TOPIC"]
PMO_SYNCPOINT = VALUES["MQPMO_SYNCPOINT"]
PMO_RETAIN = VALUES["MQPMO_RETAIN"]
PMO_NOT_OWN_SUBS = VALUES["MQPMO_NOT_OWN_SUBS"]
PMO_WARN_IF_NO_SUBS_MATCHED = VALUES["MQPMO_WARN_IF_NO_SUBS_MATCHED"]
PMO_SUPPRESS_REPLYTO = VALUES["MQPMO_SUPPRESS_REPLYTO"]
MQPER_PERSISTENCE_AS_TOPIC_DEF = VALUES["MQPER_PERSISTENCE_AS_TOPIC_DEF"]
MQPRI_PRIORITY_AS_TOPIC_DEF = VALUES["MQPRI_PRIORITY_AS_Q_DEF"]  # the same value, -1
MQTA_PUB_INHIBITED = VALUES["MQTA_PUB_INHIBITED"]
CONTEXT_CLAUSES = ("publish.context.identity-from-subscription", "publish.context.origin-from-publication")
RETAINED_PUB_LEVEL = 1  # a retained publication is sent again at PubLevel 1 (sub.level.retained-at-level-one)


def is_topic(od: MQOD) -> bool:
    """Whether an MQOD names a topic (ObjectType MQOT_TOPIC)."""
    return od.ObjectType == MQOT_TOPIC


def resolve_topic(qm: QueueManager, name: str, object_string: str) -> tuple[str, list[str]] | Result:
    """The full topic string an MQOD or MQSD names (ObjectName a topic object, ObjectString a topic string), or
    the failure: an unknown topic object, neither field given, or a topic string longer than MQ_TOPIC_STR_LENGTH
    (an ObjectString: MQRC_OBJECT_STRING_ERROR; the two joined: MQRC_TOPIC_STRING_ERROR).

    A topic object whose TopicString is empty names no topic: MQRC_TOPIC_STRING_ERROR (topic.string.object-empty).

    Clauses: topic.open.unknown-object, topic.open.name-or-string, topic.string.concatenated,
    topic.string.object-empty, topic.string.too-long.
    """
    if len(object_string) > topics.MAX_TOPIC_STRING:  # checked first: nothing longer is split or matched
        return failure("MQRC_OBJECT_STRING_ERROR", "topic.string.too-long")
    name = name.strip()
    definition = None
    if name:
        definition = topics.topic_object(qm.pubsub, qm.spec, name)
        if definition is None:
            return failure("MQRC_UNKNOWN_OBJECT_NAME", "topic.open.unknown-object")
        if not definition.TopicString:
            return failure("MQRC_TOPIC_STRING_ERROR", "topic.string.object-empty")
    elif not object_string:
        return failure("MQRC_UNKNOWN_OBJECT_NAME", "topic.open.name-or-string")
    clauses = ["topic.string.concatenated"] if name and object_string else []
    full = topics.full_topic_string(definition, object_string)
    if len(full) > topics.MAX_TOPIC_STRING:
        return failure("MQRC_TOPIC_STRING_ERROR", "topic.string.too-long")
    return full, clauses


def open_topic(qm: QueueManager, conn: Connection, od: MQOD, options: int) -> Result:
    """MQOPEN of a topic: only to publish (MQOO_OUTPUT and options that name no other access). A new handle in
    ``Result.hobj``; whether publication is inhibited is checked at each MQPUT, as for queues.

    Clauses: open.options.*, topic.open.output-only, topic.open.unknown-object, topic.open.name-or-string,
    topic.string.concatenated.
    """
    refused = open_refused(qm.spec, options, "topic")  # fixtures/tables/open-object-types.yaml
    if refused is not None:
        return refused
    resolved = resolve_topic(qm, od.ObjectName, od.ObjectString)
    if isinstance(resolved, Result):
        return resolved
    topic, clauses = resolved
    hobj = qm.next_handle()
    qm.handles[hobj] = ObjectHandle(hobj=hobj, hconn=conn.hconn, queue="", options=options, topic=topic)
    conn.handles.add(hobj)
    return Result(clauses=clauses + ["topic.open.output-only", "topic.open.res-object-string"], hobj=hobj,
                  res_object_string=topic)


def close_topic(qm: QueueManager, conn: Connection, handle: ObjectHandle, options: int) -> Result:
    """MQCLOSE of a handle opened on a topic. Clauses: close.options.unknown, close.delete.not-dynamic,
    close.handle-invalid-after."""
    if unknown_bits(options, "MQCO"):
        return failure("MQRC_OPTIONS_ERROR", "close.options.unknown")
    if options & (VALUES["MQCO_DELETE"] | VALUES["MQCO_DELETE_PURGE"] | VALUES["MQCO_KEEP_SUB"]
                  | VALUES["MQCO_REMOVE_SUB"]):
        return failure("MQRC_OPTION_NOT_VALID_FOR_TYPE", "topic.close.no-delete-options")
    del qm.handles[handle.hobj]
    conn.handles.discard(handle.hobj)
    return Result(clauses=["close.handle-invalid-after"])


def publish(qm: QueueManager, conn: Connection, topic: str, md: MQMD, pmo: MQPMO, data: bytes,
            call: str = "MQPUT", handle: ObjectHandle | None = None) -> Result:
    """MQPUT (or MQPUT1) of a publication on ``topic``: checked, then a copy put on the destination queue of
    every subscription that selects it; kept as the topic's retained publication with MQPMO_RETAIN.

    When a publication breaks several rules, the first in the order below is reported.
    Clauses: put.options.*, publish.not-in-group, publish.put-inhibited, put.persistence.*, put.priority.*,
    report.*, publish.persistence-as-topic-def, publish.priority-as-topic-def, publish.copy-per-subscription,
    publish.correl-id-from-subscription, publish.not-own-subs, publish.suppress-reply-to, publish.syncpoint,
    publish.retain, publish.no-subs-matched, publish.on-request-not-sent, publish.level.highest-sublevel,
    topic.wildcard.example.* (the kind of
    wildcard each subscription's topic string applied: topics.wildcard_clauses).
    """
    from .put import options_refusal  # put imports open, which this module's callers import

    options = pmo.Options
    refused = options_refusal(qm, options, call)
    if refused is not None:
        return failure(*refused)
    if not 0 <= pmo.PubLevel <= 9:
        raise NotModelled(f"MQPMO PubLevel {pmo.PubLevel} outside 0 to 9 (IBM names no reason code)")
    refused = context.check(handle, options)  # the topic handle's context options, as a queue's (put.context.*)
    if refused is not None:
        return failure(*refused)
    version2 = md.Version >= MQMD_VERSION_2
    flags = GroupFlags.of(md.MsgFlags if version2 else 0)
    if flags.in_group or flags.segment:
        return failure("MQRC_MSG_NOT_ALLOWED_IN_GROUP", "publish.not-in-group")
    clauses: list[str] = []
    inhibited, source = topics.resolve_attribute(qm.pubsub, qm.spec, topic, "InhibitPublications")
    clauses += topics.attribute_clauses(qm.spec, "InhibitPublications", source)
    if inhibited == MQTA_PUB_INHIBITED:
        return failure("MQRC_PUT_INHIBITED", "publish.put-inhibited", "topic.attributes.inherited", *clauses)
    persistence = md.Persistence
    if persistence == MQPER_PERSISTENCE_AS_TOPIC_DEF:
        persistence, source = topics.resolve_attribute(qm.pubsub, qm.spec, topic, "DefPersistence")
        clauses += ["publish.persistence-as-topic-def", "topic.attributes.inherited",
                    *topics.attribute_clauses(qm.spec, "DefPersistence", source)]
    elif persistence not in (VALUES["MQPER_NOT_PERSISTENT"], VALUES["MQPER_PERSISTENT"]):
        return failure("MQRC_PERSISTENCE_ERROR", "put.persistence.invalid")
    priority = md.Priority
    if priority == MQPRI_PRIORITY_AS_TOPIC_DEF:
        priority, source = topics.resolve_attribute(qm.pubsub, qm.spec, topic, "DefPriority")
        clauses += ["publish.priority-as-topic-def", *topics.attribute_clauses(qm.spec, "DefPriority", source)]
    elif priority < 0:
        return failure("MQRC_PRIORITY_ERROR", "put.priority.invalid")
    suppress = bool(options & PMO_SUPPRESS_REPLYTO)
    checked = md
    if suppress and md.ReplyToQ:  # checked as if there were no reply queue (publish.suppress-reply-to)
        checked = md.copy()
        checked.ReplyToQ = ""
    refused = report.check_put(checked)
    if refused is not None:
        return failure(*refused, *(["publish.suppress-reply-to"] if checked is not md else []))

    published = md.copy()
    published.Version, published.Persistence, published.Priority = MQMD_VERSION_2, persistence, priority
    published.MsgId = md.MsgId if md.MsgId != NONE_ID and not options & VALUES["MQPMO_NEW_MSG_ID"] \
        else qm.ids.new_id()
    # The publication's context as a put's (put.context.*): its origin is each copy's (publish.context.origin)
    clauses += context.clauses_of(context.apply(qm, conn, options, published))
    if published.CodedCharSetId == VALUES["MQCCSI_Q_MGR"]:  # as on any put (put.coded-char-set-id.q-mgr-replaced)
        published.CodedCharSetId = qm.coded_char_set_id
        clauses.append("put.coded-char-set-id.q-mgr-replaced")
    if suppress:
        published.ReplyToQ, published.ReplyToQMgr = "", ""
        clauses.append("publish.suppress-reply-to")
    uow = qm.unit_of_work(conn) if options & PMO_SYNCPOINT else None
    if uow is not None:
        clauses.append("publish.syncpoint")

    carried = publication_properties(qm.pubsub.put_properties, clauses)
    selecting = []
    for subscription in sorted(qm.pubsub.subscriptions.values(), key=lambda s: s.ordinal):
        selected = topics.matches(subscription.topic, topic, subscription.character_scheme)
        clauses += [c for c in topics.wildcard_clauses(subscription.topic, topic, subscription.character_scheme,
                                                       selected) if c not in clauses]
        if selected:
            selecting.append(subscription)
    level = target_level(selecting, pmo.PubLevel, clauses)
    matched = 0
    for subscription in selecting:
        if subscription.level != level:
            continue
        if options & PMO_NOT_OWN_SUBS and subscription.hconn == conn.hconn:
            clauses.append("publish.not-own-subs")
            continue
        if subscription.on_request:
            clauses.append("publish.on-request-not-sent")
            continue
        if deliver(qm, subscription, published, data, uow, clauses, topic=topic, properties=carried):
            matched += 1
    if matched:
        clauses += ["publish.copy-per-subscription", "publish.correl-id-from-subscription"]
    if options & PMO_RETAIN:
        retained = topics.Publication(topic, published.copy(), bytes(data), carried)
        if uow is not None:
            qm.pubsub.pending_retained.setdefault(uow.ident, []).append(retained)
        else:
            qm.pubsub.retained[topic] = retained
        clauses.append("publish.retain")
    out = md.copy()
    out.MsgId = published.MsgId
    context.returned(published, out)
    pmo_out = pmo.copy()
    pmo_out.ResolvedQName, pmo_out.ResolvedQMgrName = "", qm.name
    if not matched and options & PMO_WARN_IF_NO_SUBS_MATCHED:
        return Result(MQCC_WARNING, VALUES["MQRC_NO_SUBS_MATCHED"], clauses + ["publish.no-subs-matched"], out,
                      pmo_out)
    return Result(clauses=clauses, md=out, pmo=pmo_out)


def target_level(subscriptions: list[Subscription], pub_level: int, clauses: list[str]) -> int | None:
    """The one SubLevel a publication at ``pub_level`` reaches among the subscriptions whose topic strings select
    it: the highest at or below its PubLevel (None when every one is above). The levels are weighed before
    MQPMO_NOT_OWN_SUBS, MQSO_PUBLICATIONS_ON_REQUEST and a subscription's selector (publish.level.highest-sublevel).
    """
    levels = [s.level for s in subscriptions if s.level <= pub_level]
    if subscriptions:
        clauses.append("publish.level.highest-sublevel")
    return max(levels) if levels else None


def publication_properties(properties: tuple[Property, ...], clauses: list[str]) -> tuple[Property, ...]:
    """The publisher's properties a publication carries: those whose MQPD CopyOptions name MQCOPY_PUBLISH (or
    MQCOPY_ALL); the others stay with the message put (properties.pd.copy-publish)."""
    if properties:
        clauses.append("properties.pd.copy-publish")
    return tuple(p for p in properties if p.copy_options & (COPY_PUBLISH | COPY_ALL))


COPY_PUBLISH, COPY_ALL = VALUES["MQCOPY_PUBLISH"], VALUES["MQCOPY_ALL"]


def pubsub_properties(topic: str, subscription: Subscription, retained: bool) -> tuple[Property, ...]:
    """The properties the queue manager gives each copy of a publication it delivers, after the publisher's:
    MQTopicString, the topic string it was published on (publish.properties.topic-string); MQSubUserData, the
    subscription's SubUserData, when it has any (publish.properties.sub-user-data); MQIsRetained, TRUE, on a
    retained publication sent at MQSUB or MQSUBRQ (publish.properties.is-retained). Their MQRFH2 folder is mqps
    (fixtures/tables/property-folders.yaml)."""
    found = [Property("MQTopicString", MQTYPE_STRING, topic)]
    if subscription.user_data:
        found.append(Property("MQSubUserData", MQTYPE_STRING, subscription.user_data))
    if retained:
        found.append(Property("MQIsRetained", MQTYPE_BOOLEAN, True))
    return tuple(found)


def pubsub_clauses(properties: tuple[Property, ...]) -> list[str]:
    """The clauses of the publish/subscribe properties a copy carries."""
    return [PUBSUB_PROPERTY_CLAUSES[p.name] for p in properties if p.name in PUBSUB_PROPERTY_CLAUSES]


PUBSUB_PROPERTY_CLAUSES = {"MQTopicString": "publish.properties.topic-string",
                           "MQSubUserData": "publish.properties.sub-user-data",
                           "MQIsRetained": "publish.properties.is-retained"}


def deliver(qm: QueueManager, subscription: Subscription, published: MQMD, data: bytes, uow, clauses: list[str],
            retained: bool = False, topic: str = "", properties: tuple[Property, ...] = ()) -> bool:
    """Put one copy of a publication on a subscription's destination queue: its own MsgId, the subscription's
    SubCorrelId as CorrelId; pending until commit under a unit of work. False when the destination cannot take
    it (gone, put-inhibited, full or too small): that subscription then misses the publication. The copy carries
    the publisher's ``properties`` (those of a live publication are added by its put: properties.put.copied), then
    the publish/subscribe properties of :func:`pubsub_properties`.

    Clauses: publish.copy-per-subscription, publish.destination-unavailable, publish.properties.*,
    publish.context.identity-from-subscription, publish.context.origin-from-publication.
    """
    queue = qm.queues.get(subscription.queue)
    definition = queue.definition if queue is not None else None
    if (definition is None or definition.InhibitPut or queue.depth >= definition.MaxQDepth
            or len(data) > definition.MaxMsgLength):
        clauses.append("publish.destination-unavailable")
        return False
    added = pubsub_properties(topic, subscription, retained)
    if subscription.selection is not None:
        candidate = StoredMessage(0, published, b"", b"")
        candidate.properties = (*properties, *added)
        clauses.append("sub.selection.filters")
        absent: set[str] = set()
        selected = subscription.selection.selects(candidate, absent)
        if absent and "selection.null-unknown" not in clauses:
            clauses.append("selection.null-unknown")
        if not selected:
            return False
    copy = published.copy()
    copy.MsgId, copy.CorrelId = qm.ids.new_id(), subscription.correl_id
    # identity context: the subscription's user, no accounting token (publish.context.identity-from-subscription)
    copy.UserIdentifier, copy.AccountingToken = subscription.user, NONE_ACCOUNTING
    clauses += [c for c in CONTEXT_CLAUSES if c not in clauses]
    message = StoredMessage(qm.next_seq(), copy, bytes(data), qm.ids.new_token())
    message.properties = (*properties, *added)
    clauses += [c for c in pubsub_clauses(added) if c not in clauses]
    if uow is not None:
        message.state, message.uow = PUT_PENDING, uow.ident
        uow.puts.append((definition.name, message))
    queue.add(message)
    return True


def retained_for(qm: QueueManager, subscription: Subscription, clauses: list[str]) -> list[topics.Publication]:
    """The retained publications a subscription's topic string selects, in topic-string order; ``clauses`` gains
    the wildcard rules each match applied (topics.wildcard_clauses)."""
    found = []
    for topic, publication in sorted(qm.pubsub.retained.items()):
        selected = topics.matches(subscription.topic, topic, subscription.character_scheme)
        clauses += [c for c in topics.wildcard_clauses(subscription.topic, topic, subscription.character_scheme,
                                                       selected) if c not in clauses]
        if selected:
            found.append(publication)
    return found


def end_unit_of_work(qm: QueueManager, ident: int, committed: bool) -> list[str]:
    """At MQCMIT, the retained publications published under the unit of work replace those kept for their
    topics; at MQBACK they are forgotten. Clause: publish.retain-under-syncpoint."""
    pending = qm.pubsub.pending_retained.pop(ident, None)
    if not pending:
        return []
    if committed:
        for publication in pending:
            qm.pubsub.retained[publication.topic] = publication
    return ["publish.retain-under-syncpoint"]
