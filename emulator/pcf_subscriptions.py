"""The command server's subscription commands (PCF Create, Delete and Inquire Subscription), on the model's
subscriptions (reference/subscriptions.py): what IBM's ``ibmmq`` applications and tests use to define
subscriptions by administration and to clean them up.

Create Subscription makes a durable subscription no handle has open (DEFINE SUB: MQSUB then resumes it by name),
its publications going to the queue DESTINATION (MQDC_PROVIDED) or to a queue the queue manager manages
(MQDC_MANAGED); Delete Subscription removes one by name or SUBID, refused while a handle has it open; Inquire
Subscription answers by a name (generic with ``*``) or SUBID.
"""

from __future__ import annotations

from typing import Any

from mq_conformance.reference import publish, subscriptions

from .inquiries import generic_match
from .pcf import PcfFailure

COMMANDS = ("MQCMD_CREATE_SUBSCRIPTION", "MQCMD_DELETE_SUBSCRIPTION", "MQCMD_INQUIRE_SUBSCRIPTION")


def _text(raw: Any) -> str:
    if isinstance(raw, bytes | bytearray):
        return bytes(raw).split(b"\0", 1)[0].decode("utf-8", errors="replace").rstrip(" ")
    return str(raw).rstrip("\0 ")


def run(server: Any, name: str, parameters: dict[int, Any]) -> list[list[tuple[int, Any]]] | None:
    """One subscription command of ``server`` (pcf.CommandServer): its responses' parameters."""
    value = server._value  # noqa: SLF001 - the command server's constant lookup
    qm = server.world.qmgr(server.qmgr)
    sub_name = _text(parameters.get(value("MQCACF_SUB_NAME"), ""))
    sub_id = parameters.get(value("MQBACF_SUB_ID"))
    if name == "MQCMD_INQUIRE_SUBSCRIPTION":
        found = [s for s in _ordered(qm) if (sub_id is not None and s.sub_id == bytes(sub_id))
                 or (sub_id is None and generic_match(sub_name or "*", s.name))]
        if not found:
            raise PcfFailure("MQRC_NO_SUBSCRIPTION")
        return [_describe(server, s) for s in found]
    if name == "MQCMD_DELETE_SUBSCRIPTION":
        found = [s for s in _ordered(qm) if (sub_id is not None and s.sub_id == bytes(sub_id))
                 or (sub_id is None and sub_name and s.name == sub_name)]
        if not found:
            raise PcfFailure("MQRC_NO_SUBSCRIPTION")
        if found[0].hsub is not None:
            raise PcfFailure("MQRCCF_SUBSCRIPTION_IN_USE")
        subscriptions.remove(qm, found[0])
        return None
    # Create Subscription
    if not sub_name:
        raise PcfFailure("MQRCCF_SUB_NAME_ERROR")
    existing = qm.pubsub.subscriptions.get(sub_name)
    if existing is not None:
        if parameters.get(value("MQIACF_REPLACE"), value("MQRP_NO")) != value("MQRP_YES"):
            raise PcfFailure("MQRCCF_SUB_ALREADY_EXISTS")
        if existing.hsub is not None:
            raise PcfFailure("MQRCCF_SUBSCRIPTION_IN_USE")
        subscriptions.remove(qm, existing)
    topic = publish.resolve_topic(qm, _text(parameters.get(value("MQCA_TOPIC_NAME"), "")),
                                  _text(parameters.get(value("MQCA_TOPIC_STRING"), "")))
    if not isinstance(topic, tuple):
        raise PcfFailure("MQRC_UNKNOWN_OBJECT_NAME")
    managed = parameters.get(value("MQIACF_DESTINATION_CLASS"), value("MQDC_PROVIDED")) == value("MQDC_MANAGED")
    destination = None if managed else _text(parameters.get(value("MQCACF_DESTINATION"), ""))
    if destination is not None and destination not in qm.queues:
        raise PcfFailure("MQRC_UNKNOWN_OBJECT_NAME" if destination else "MQRCCF_PARM_MISSING")
    subscriptions.define(qm, sub_name, topic[0], destination,
                         _text(parameters.get(value("MQCACF_SUB_USER_DATA"), "")))
    return None


def _ordered(qm: Any) -> list[Any]:
    return sorted(qm.pubsub.subscriptions.values(), key=lambda s: s.ordinal)


def _describe(server: Any, subscription: Any) -> list[tuple[int, Any]]:
    value = server._value  # noqa: SLF001
    return [(value("MQCACF_SUB_NAME"), subscription.name), (value("MQBACF_SUB_ID"), subscription.sub_id),
            (value("MQCA_TOPIC_STRING"), subscription.topic), (value("MQCACF_DESTINATION"), subscription.queue),
            (value("MQIACF_DESTINATION_CLASS"), value("MQDC_MANAGED" if subscription.managed else "MQDC_PROVIDED")),
            (value("MQIACF_DURABLE_SUBSCRIPTION"),
             value("MQSUB_DURABLE_YES" if subscription.durable else "MQSUB_DURABLE_NO"))]
