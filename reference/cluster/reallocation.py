"""Channels failing and delivering: reallocation of waiting messages, and their delivery to the instances.

Sources: "Cluster message re-allocation" (document `reallocation`): reallocation happens when a cluster-sender channel stops,
and again each time a retry fails; every message on the cluster transmission queue for that channel is driven
through the workload algorithm again - except those bound on open, those of a group bound with
MQOO_BIND_ON_GROUP and MQPMO_LOGICAL_ORDER, and those for an explicitly named queue manager, which carry an
all-zero AccountingToken; a message whose best destination is still the same one stays, with its PutDate and
PutTime renewed; if only put-disabled instances remain it stays. Seed 004: reallocation happens only while a
channel is failing, never once it has failed; a message left in doubt is not rerouted; rerouting neither loses
nor duplicates a message. Seed 000: no reallocation for messages bound with MQOO_BIND_ON_GROUP.

A re-driven message that moves stays on the same transmission queue with a new header, or, when the sender's
own instance is chosen, moves onto it. Messages move only between queues of the world: the state machine in
tests/test_cluster_machine.py checks that every message is always on exactly one queue.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import alias as alias_module
from .. import channels
from .. import report as report_module
from ..constants import VALUES
from ..queue import VISIBLE, StoredMessage
from ..result import Result
from . import workload
from .topology import CLUSTER_XMITQ, DELIVERING, FAILING, INACTIVE, RUNNING, Channel, Member

if TYPE_CHECKING:
    from .world import Cluster

STOPPING = "MQCHS_STOPPING"
STOPPED = "MQCHS_STOPPED"
UNKNOWN_ALIAS_BASE_Q = VALUES["MQRC_UNKNOWN_ALIAS_BASE_Q"]
UNKNOWN_OBJECT_NAME = VALUES["MQRC_UNKNOWN_OBJECT_NAME"]
PUT_INHIBITED = VALUES["MQRC_PUT_INHIBITED"]
Q_FULL = VALUES["MQRC_Q_FULL"]


def _unique(clauses: list[str]) -> list[str]:
    return list(dict.fromkeys(clauses))


def _waiting(cluster: Cluster, sender: str) -> list[tuple[StoredMessage, object]]:
    """The messages on ``sender``'s cluster transmission queue, in physical order, with their headers; headers
    of messages no longer there (got by an application, backed out) are forgotten."""
    member: Member = cluster.members[sender]
    xmitq = cluster.qmgrs[sender].queues[CLUSTER_XMITQ]
    for token in [t for t in member.transmissions if t not in xmitq.tokens]:
        del member.transmissions[token]
    return [(m, member.transmissions[m.token]) for m in list(xmitq.messages.values())
            if m.token in member.transmissions]


def channel_changed(cluster: Cluster, channel: Channel, state: str) -> Result:
    """Set a channel's state. Entering a failing state (stopping, or retrying - again at every failed retry)
    re-drives the messages waiting for it; a channel that is already stopped re-drives nothing.

    Clauses: cluster.reallocation.on-stopping, cluster.reallocation.on-retry, cluster.reallocation.not-once-stopped.
    """
    channel.state = state
    clauses = ["cluster.admin.topology"]
    if state in FAILING:
        clauses.append("cluster.reallocation.on-stopping" if state == STOPPING else "cluster.reallocation.on-retry")
        for sender in sorted(cluster.members):
            clauses += redrive(cluster, sender, channel.name)
    elif state == STOPPED:
        clauses.append("cluster.reallocation.not-once-stopped")
    return Result(clauses=_unique(clauses))


def redrive(cluster: Cluster, sender: str, channel: str) -> list[str]:
    """Drive every eligible message on ``sender``'s transmission queue for ``channel`` through the workload
    algorithm again.

    Clauses: cluster.reallocation.not-bound-on-open / not-bound-on-group / not-explicit-qmgr (as the message's
    ineligibility), cluster.reallocation.not-in-doubt, cluster.reallocation.uncommitted-waits,
    cluster.reallocation.all-put-disabled-stays, cluster.reallocation.same-destination-put-time,
    cluster.reallocation.moved, cluster.reallocation.integrity.
    """
    qm = cluster.qmgrs[sender]
    member = cluster.members[sender]
    xmitq = qm.queues[CLUSTER_XMITQ]
    clauses: list[str] = []
    for message, header in _waiting(cluster, sender):
        if header.channel != channel:
            continue
        if message.state != VISIBLE:
            clauses.append("cluster.reallocation.uncommitted-waits")
            continue
        if not header.eligible:
            clauses.append(header.bound)
            continue
        if header.indoubt:
            clauses.append("cluster.reallocation.not-in-doubt")
            continue
        choice = workload.choose(cluster, sender, header.queue)
        clauses += choice.clauses
        if choice.failed:
            clauses.append("cluster.reallocation.all-put-disabled-stays")
            continue
        destination = choice.destination
        put_date, put_time = qm.clock.put_date_time()
        if destination.local:
            local = qm.queues[destination.queue]
            if local.depth >= local.definition.MaxQDepth:
                continue  # the local instance is full: the message waits where it is
            if too_big(qm, local, message):
                clauses.append("cluster.deliver.too-big-for-destination")
                continue
            xmitq.remove(message)
            del member.transmissions[message.token]
            md = message.md
            md.AccountingToken = header.accounting
            md.PutDate, md.PutTime = put_date, put_time
            local.add(StoredMessage(seq=qm.next_seq(), md=md, data=message.data, token=qm.ids.new_token()))
            clauses += ["cluster.reallocation.moved", "cluster.reallocation.integrity"]
        else:
            same = (destination.qmgr, destination.queue, destination.channel) == \
                (header.qmgr, header.queue, header.channel)
            message.md.PutDate, message.md.PutTime = put_date, put_time
            header.qmgr, header.queue, header.channel = destination.qmgr, destination.queue, destination.channel
            clauses.append("cluster.reallocation.same-destination-put-time" if same else "cluster.reallocation.moved")
            if not same:
                clauses.append("cluster.reallocation.integrity")
        cluster.record_choice(sender, destination)
    return clauses


def too_big(qm, queue, message) -> bool:
    """Whether ``message`` is longer than ``queue`` on ``qm`` accepts: the smaller of the queue's and the queue
    manager's MaxMsgLength, as a direct put checks (put.msg-too-big-for-q). Clause:
    cluster.deliver.too-big-for-destination."""
    return len(message.data) > min(qm.max_msg_length, queue.definition.MaxMsgLength)


def deliver(cluster: Cluster, qmgr: str | None, channel: str | None, indoubt: bool) -> Result:
    """Move the committed messages waiting on the cluster transmission queues (of ``qmgr``, or of every member)
    whose channel is running (or inactive: it starts) onto their destination instance.

    With ``indoubt`` the batch is sent but its confirmation is lost: the messages stay on the transmission queue,
    in doubt, until a later delivery on a running channel completes them (cluster.deliver.in-doubt). A message
    whose destination queue is put-inhibited or full is retried (the receiver's MRRTY, 10), then - like one longer
    than the destination queue's or queue manager's MaxMsgLength, or one for an alias with no target there -
    dead-lettered, discarded or left with its channel stopped, as any channel does (reference/channels.py).
    Clauses: cluster.deliver.running-channel, cluster.deliver.in-doubt, cluster.deliver.target-unavailable,
    cluster.deliver.too-big-for-destination, distributed.channel.message-retry, distributed.dlq.*.
    """
    clauses = ["cluster.deliver.running-channel"]
    senders = [qmgr] if qmgr is not None else sorted(cluster.members)
    for sender in senders:
        if sender not in cluster.members:
            continue
        member = cluster.members[sender]
        xmitq = cluster.qmgrs[sender].queues[CLUSTER_XMITQ]
        for message, header in _waiting(cluster, sender):
            if channel is not None and header.channel != channel:
                continue
            route = cluster.channels[header.channel]
            if message.state != VISIBLE or route.state not in DELIVERING:
                continue
            target_qm = cluster.qmgrs[header.qmgr]
            # An instance of a cluster queue alias delivers to its target (queue.alias.cluster-alias).
            target, via = alias_module.local_target(target_qm, header.queue)
            reason = None
            if target is None:  # an alias with no target there, or no such queue (explicit-qmgr-no-instance)
                reason = UNKNOWN_ALIAS_BASE_Q if via is not None else UNKNOWN_OBJECT_NAME
            elif target.definition.InhibitPut or (via is not None and via.InhibitPut):
                reason = PUT_INHIBITED
            elif target.depth >= target.definition.MaxQDepth:
                reason = Q_FULL
            elif too_big(target_qm, target, message):
                reason = report_module.MQRC_MSG_TOO_BIG_FOR_Q
                clauses.append("cluster.deliver.too-big-for-destination")
            if reason is not None:
                if reason != report_module.MQRC_MSG_TOO_BIG_FOR_Q:
                    clauses.append("cluster.deliver.target-unavailable")
                # Message retry, then the destination's dead-letter queue, MQRO_DISCARD_MSG or a stopped channel,
                # as for any channel (reference/channels.py)
                if reason in channels.TRANSITORY and channels.retry(cluster.delivery_retries, message.token,
                                                                    channels.MRRTY_DEFAULT):
                    clauses.append("distributed.channel.message-retry")
                    continue
                cluster.delivery_retries.pop(message.token, None)
                md = message.md.copy()
                md.AccountingToken = header.accounting
                original = StoredMessage(message.seq, md, message.data, message.token, expires_at=message.expires_at)
                outcome, more = channels.undeliverable(channels.NPMS_FAST, target_qm, header.queue, header.qmgr,
                                                       original, reason, cluster.qmgrs[sender])
                clauses += more
                if outcome == "stop":
                    route.state = STOPPED
                    continue
                xmitq.remove(message)
                del member.transmissions[message.token]
                continue
            if route.state == INACTIVE:
                route.state = RUNNING
            if indoubt and not header.indoubt:
                header.indoubt = True
                clauses.append("cluster.deliver.in-doubt")
                continue
            xmitq.remove(message)
            del member.transmissions[message.token]
            md = message.md.copy()
            md.AccountingToken = header.accounting
            # The message keeps its expiry: the queue managers share one clock (expiry.tenths).
            target.add(StoredMessage(seq=target_qm.next_seq(), md=md, data=message.data,
                                     token=target_qm.ids.new_token(), expires_at=message.expires_at))
    return Result(clauses=_unique(clauses))
