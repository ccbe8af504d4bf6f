"""MQOPEN, MQPUT and MQPUT1 of a cluster queue: when the destination is chosen, and what a put sends.

Sources: IBM's MQI reference (clauses.yaml document `facts`) (bind options: MQOO_BIND_ON_OPEN chooses once at MQOPEN,
MQOO_BIND_NOT_FIXED for every put, MQOO_BIND_ON_GROUP once per message group; MQOO_BIND_AS_Q_DEF takes the
queue's DefBind; MQPUT1 is never bound; a named ObjectQMgrName bypasses the choice), "Putting Logically Ordered
Groups to a Clustered Queue (MQOO_BIND_ON_GROUP)" in document `ordering`, document `cluster-instances` (DefBind, the local instance), and the
reason codes of section 4.4 (2268, 2270, 2085).

A put to the sender's own instance is an ordinary local put (reference/put.py). A put to a remote instance is
the same put onto the sender's cluster transmission queue, with the destination instance's DefPersistence and
DefPriority, recorded with a :class:`Transmission` header; the put's MQPMO returns the destination in
ResolvedQName and ResolvedQMgrName (cluster.destination.resolved-qmgr).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from .. import alias as alias_module
from .. import put as put_module
from ..constants import VALUES
from ..errors import NotModelled
from ..handles import Connection, ObjectHandle
from ..msgflags import ANY_GROUP
from ..options import object_rules, open_refused
from ..qmgr import QueueManager
from ..queue import QueueDefinition
from ..result import MQCC_FAILED, MQCC_WARNING, Result, failure
from ..structures import MQMD, MQMD_VERSION_2, MQOD, MQPMO, NONE_ACCOUNTING
from . import workload
from .topology import (
    BIND_NOT_FIXED,
    BIND_ON_GROUP,
    BIND_ON_OPEN,
    CLUSTER_XMITQ,
    Binding,
    Destination,
    Transmission,
)

if TYPE_CHECKING:
    from .world import Cluster

OO_OUTPUT = VALUES["MQOO_OUTPUT"]
OO_INQUIRE = VALUES["MQOO_INQUIRE"]
MQOT_Q = VALUES["MQOT_Q"]
# What an open of a cluster queue without a local instance may ask for: output, inquire, the bind option, context.
OO_OUTPUT_ONLY = OO_OUTPUT | OO_INQUIRE | VALUES["MQOO_BIND_ON_OPEN"] | VALUES["MQOO_BIND_NOT_FIXED"] | VALUES["MQOO_BIND_ON_GROUP"] \
    | VALUES["MQOO_FAIL_IF_QUIESCING"] | VALUES["MQOO_PASS_IDENTITY_CONTEXT"] | VALUES["MQOO_PASS_ALL_CONTEXT"] \
    | VALUES["MQOO_SET_IDENTITY_CONTEXT"] | VALUES["MQOO_SET_ALL_CONTEXT"]
OO_BIND = {
    VALUES["MQOO_BIND_ON_OPEN"]: (BIND_ON_OPEN, "cluster.bind.on-open"),
    VALUES["MQOO_BIND_NOT_FIXED"]: (BIND_NOT_FIXED, "cluster.bind.not-fixed"),
    VALUES["MQOO_BIND_ON_GROUP"]: (BIND_ON_GROUP, "cluster.bind.on-group"),
}
MODE_CLAUSE = dict(OO_BIND.values())
PMO_LOGICAL_ORDER = VALUES["MQPMO_LOGICAL_ORDER"]


def is_cluster_queue(cluster: Cluster, qm: QueueManager, od: MQOD) -> bool:
    """Whether MQOPEN/MQPUT1 of ``od`` on ``qm`` resolves in the cluster rather than to a local queue.

    An ObjectQMgrName naming another member goes to the cluster, unless a local object of that name (a
    transmission queue, a queue-manager alias) resolves it first (distributed.resolve.qmgr-name-first) or the world
    holds no cluster queue at all (its queue managers then know each other only by distributed queuing); one
    naming this queue manager, or a local queue outside the cluster, is an ordinary local open
    (cluster.topology.local-queue-first).
    """
    if not cluster.clustered or od.ObjectType != MQOT_Q:  # a topic is never a cluster queue
        return False
    target = od.ObjectQMgrName.strip()
    if target and target != qm.name:
        return target in cluster.members and target not in qm.queues and cluster.has_cluster_queues()
    if target:
        return False
    if od.ObjectName in qm.queues and cluster.members[qm.name].clustered_instance(od.ObjectName) is None:
        return False
    return bool(cluster.hosts(od.ObjectName))


def cluster_alias(cluster: Cluster, qm: QueueManager, od: MQOD) -> QueueDefinition | None:
    """The local alias ``od`` names when its BaseQName is a cluster queue with no queue of that name here: such
    an alias opens (and takes MQPUT1) as the cluster queue, with its own DefBind, InhibitPut and defaults
    (queue.alias.cluster-base); None for any other object."""
    if not cluster.clustered or od.ObjectQMgrName.strip() not in ("", qm.name):
        return None
    found = qm.queues.get(od.ObjectName)
    if found is None or found.definition.QType != VALUES["MQQT_ALIAS"]:
        return None
    alias = found.definition
    if cluster.members[qm.name].clustered_instance(alias.name) is not None or alias.BaseQName in qm.queues:
        return None
    return alias if cluster.hosts(alias.BaseQName) else None


def alias_def_bind(cluster: Cluster, qm: QueueManager, alias: QueueDefinition) -> int:
    """The DefBind of a local alias: MQOO_BIND_AS_Q_DEF through it takes the alias's, not the cluster queue's
    (queue.alias.cluster-base)."""
    own = cluster.members[qm.name].instances.get(alias.name)
    return own.DefBind if own is not None else alias.DefBind


def def_bind(cluster: Cluster, qm: QueueManager, queue: str) -> int:
    """The DefBind that MQOO_BIND_AS_Q_DEF takes: the local instance's, else that of the instance on the
    queue manager with the lowest name (cluster.bind.def-bind-source)."""
    return cluster.members[def_bind_source(cluster, qm, queue)].instances[queue].DefBind


def def_bind_source(cluster: Cluster, qm: QueueManager, queue: str) -> str:
    """The queue manager whose instance's DefBind counts (cluster.bind.def-bind-source)."""
    if cluster.members[qm.name].clustered_instance(queue) is not None:
        return qm.name
    return cluster.hosts(queue)[0]


def bind_mode(cluster: Cluster, qm: QueueManager, queue: str, options: int,
              alias: QueueDefinition | None = None) -> tuple[int, list[str]]:
    """The MQBND_* value an open handle works by: its MQOO_BIND_* option, or the queue's DefBind (the alias's,
    when opened through a local alias of the cluster queue)."""
    for bit, (mode, clause) in OO_BIND.items():
        if options & bit:
            return mode, [clause]
    if alias is not None:
        mode = alias_def_bind(cluster, qm, alias)
        return mode, ["cluster.bind.as-q-def", MODE_CLAUSE[mode]]
    mode = def_bind(cluster, qm, queue)
    clauses = ["cluster.bind.as-q-def", MODE_CLAUSE[mode], "cluster.bind.def-bind-source"]
    if cluster.instance_definition(def_bind_source(cluster, qm, queue), queue).QType == VALUES["MQQT_ALIAS"]:
        clauses.append("queue.alias.cluster-alias")  # the DefBind of the alias instances
    return mode, clauses


def explicit_route(cluster: Cluster, qm: QueueManager, target: str, queue: str) -> Destination:
    """The destination of a message for a named queue manager: its instance, by the first of its channels.
    The workload algorithm does not run (cluster.bind.explicit-qmgr). Only local names are checked at MQOPEN: a
    queue manager that hosts no instance of the queue is sent the message all the same, and its queue manager
    treats it as any message for a queue it does not have (cluster.bind.explicit-qmgr-no-instance)."""
    routes = cluster.routes_to(target)
    if not routes:
        raise NotModelled(f"a message for {queue} on {target}, which no channel of the cluster leads to")
    return Destination(target, queue, routes[0].name)


def explicit_clauses(cluster: Cluster, target: str, queue: str) -> list[str]:
    """The clauses of sending to queue manager ``target`` by name: cluster.bind.explicit-qmgr, and
    cluster.bind.explicit-qmgr-no-instance when it hosts no instance of ``queue``."""
    return ["cluster.bind.explicit-qmgr"] + \
        ([] if target in cluster.hosts(queue) else ["cluster.bind.explicit-qmgr-no-instance"])


def open_cluster(cluster: Cluster, qm: QueueManager, hconn: int, od: MQOD, options: int,
                 alias: QueueDefinition | None = None) -> Result:
    """MQOPEN of a cluster queue (``alias``: through a local alias of it, queue.alias.cluster-base).

    Clauses: open.options.*, cluster.open.input-remote, cluster.bind.*, the workload rows, cluster.open.all-put-
    disabled, cluster.open.local-instance-put-disabled, cluster.inquire.remote-instance.
    """
    conn = qm.connections.get(hconn)
    if conn is None:
        return failure("MQRC_HCONN_ERROR", "conn.hconn-error")
    queue = od.ObjectName
    target = od.ObjectQMgrName.strip()
    explicit = bool(target) and target != qm.name
    local = not explicit and cluster.members[qm.name].clustered_instance(queue) is not None
    # input, browse and set need a local instance (fixtures/tables/open-object-types.yaml)
    kind = "" if local else "nonlocal-cluster-queue"
    refused = open_refused(qm.spec, options, kind)
    if refused is not None:
        return refused
    # a queue manager of the cluster without an instance opens it all the same (cluster.topology.one-cluster)
    applied = object_rules(qm.spec, kind) + ([] if local else ["cluster.topology.one-cluster"])
    if not local and options & ~OO_OUTPUT_ONLY:
        raise NotModelled("MQOPEN of a cluster queue with no local instance with options other than output, "
                          "inquire, bind and context options")
    if not options & OO_OUTPUT:
        opened = qm.open(hconn, MQOD(queue if local else CLUSTER_XMITQ), options)  # nothing to bind
        if not local and not opened.failed:
            _through(qm, opened, alias)
            if alias is None:
                cluster.members[qm.name].inquired[opened.hobj] = queue
                opened.clauses.append("cluster.inquire.remote-instance")
            opened.clauses += applied
        return opened

    clauses: list[str] = []
    chosen: Destination | None = None
    if explicit:
        bound = Binding(queue, BIND_ON_OPEN, explicit=True, fixed=explicit_route(cluster, qm, target, queue))
        clauses += explicit_clauses(cluster, target, queue)
    else:
        mode, clauses = bind_mode(cluster, qm, queue, options, alias)
        bound = Binding(queue, mode)
        if mode == BIND_ON_OPEN:
            choice = workload.choose(cluster, qm.name, queue)
            clauses += choice.clauses
            if choice.failed:
                if not (local and choice.reason == "MQRC_CLUSTER_PUT_INHIBITED"):
                    return Result(MQCC_FAILED, VALUES[choice.reason], clauses + ["cluster.open.all-put-disabled"])
                # A local instance lets MQOPEN succeed even when put-inhibited; the put then fails.
                routes = cluster.routes_to(qm.name)
                choice.destination = Destination(qm.name, queue, routes[0].name, local=True)
                clauses.append("cluster.open.local-instance-put-disabled")
            else:
                chosen = choice.destination
            bound.fixed = choice.destination
    opened = qm.open(hconn, MQOD(queue if local else CLUSTER_XMITQ), options)
    if opened.failed:
        return opened
    cluster.members[qm.name].bindings[opened.hobj] = bound
    _through(qm, opened, alias)
    if not local and options & OO_INQUIRE and alias is None:
        cluster.members[qm.name].inquired[opened.hobj] = queue
        clauses.append("cluster.inquire.remote-instance")
    if chosen is not None:
        cluster.record_choice(qm.name, chosen)
    return Result(clauses=clauses + opened.clauses + applied, hobj=opened.hobj)


# What MQINQ can read of an instance on another queue manager; QType reads MQQT_CLUSTER.
REMOTE_READERS = {
    "MQIA_DEF_BIND": lambda d, a: a.DefBind,
    "MQIA_DEF_PERSISTENCE": lambda d, a: d.DefPersistence,
    "MQIA_DEF_PRIORITY": lambda d, a: d.DefPriority,
    "MQIA_INHIBIT_PUT": lambda d, a: VALUES["MQQA_PUT_INHIBITED" if d.InhibitPut else "MQQA_PUT_ALLOWED"],
    "MQCA_Q_DESC": lambda d, a: getattr(d, "QDesc", ""),
    "MQCA_Q_NAME": lambda d, a: d.name,
    "MQIA_Q_TYPE": lambda d, a: VALUES["MQQT_CLUSTER"],
}
NOT_APPLICABLE = VALUES["MQIAV_NOT_APPLICABLE"]
NOT_APPLICABLE_TEXT = "*" * 48  # a character attribute that does not apply: asterisks (MQ_Q_NAME_LENGTH of them)


def inquire_remote(cluster: Cluster, qm: QueueManager, hconn: int, hobj: int, queue: str,
                   selectors: list[str]) -> Result:
    """MQINQ on a cluster queue opened for inquire (alone or with output) with no local instance: the attributes
    of an instance elsewhere in the cluster - the one the handle is bound to, else the instance on the queue
    manager with the lowest name. Only DefBind, DefPersistence, DefPriority, InhibitPut, QDesc, QName and QType
    (MQQT_CLUSTER) can be read; another queue attribute completes with MQCC_WARNING and
    MQRC_SELECTOR_NOT_FOR_TYPE, its value MQIAV_NOT_APPLICABLE (asterisks for a character attribute).
    Clauses: inquire.not-open-for-inquire, inquire.selector-error, cluster.inquire.remote-instance,
    cluster.inquire.selector-not-for-type.
    """
    from ..inquire import queue_selector

    found = qm._handle(hconn, hobj)
    if isinstance(found, Result):
        return found
    _conn, handle = found
    if not handle.options & OO_INQUIRE:
        return failure("MQRC_NOT_OPEN_FOR_INQUIRE", "inquire.not-open-for-inquire")
    bound = cluster.members[qm.name].bindings.get(hobj)
    hosts = cluster.hosts(queue)
    host = bound.fixed.qmgr if bound is not None and bound.fixed is not None else hosts[0] if hosts else None
    if host is None:
        raise NotModelled(f"MQINQ of cluster queue {queue} after its last instance left the cluster")
    definition = cluster.instance_definition(host, queue)
    instance = cluster.members[host].instances[queue]
    attributes: dict[str, int | str] = {}
    inapplicable = False
    for selector in selectors:
        reader = REMOTE_READERS.get(selector)
        if reader is not None:
            attributes[selector] = reader(definition, instance)
        elif queue_selector(selector):
            attributes[selector] = NOT_APPLICABLE_TEXT if selector.startswith("MQCA_") \
                else VALUES["MQIAV_NOT_APPLICABLE"]
            inapplicable = True
        else:
            return failure("MQRC_SELECTOR_ERROR", "inquire.selector-error")
    clauses = ["cluster.inquire.remote-instance"]
    if inapplicable:
        return Result(MQCC_WARNING, VALUES["MQRC_SELECTOR_NOT_FOR_TYPE"],
                      clauses + ["cluster.inquire.selector-not-for-type"], attributes=attributes)
    return Result(clauses=clauses, attributes=attributes)


def _through(qm: QueueManager, opened: Result, alias: QueueDefinition | None) -> None:
    """Remember the local alias a cluster queue was opened through: MQINQ reads its attributes, and its
    InhibitPut and defaults count for the puts (queue.alias.cluster-base)."""
    if alias is not None:
        qm.handles[opened.hobj].alias = alias.name
        opened.clauses.append("queue.alias.cluster-base")


def put_cluster(cluster: Cluster, qm: QueueManager, hconn: int, hobj: int, bound: Binding, md: MQMD, pmo: MQPMO,
                data: bytes) -> Result:
    """MQPUT on a handle open on a cluster queue: the destination by the handle's binding, then the put.

    Clauses: cluster.bind.*, the workload rows, cluster.put.no-destinations, cluster.workload.all-put-disabled,
    and those of reference/put.py.
    """
    found = qm._handle(hconn, hobj)
    if isinstance(found, Result):
        return found
    conn, handle = found
    refused = put_module.check_options(qm, pmo.Options, "MQPUT")
    if refused is not None:
        return refused
    via = alias_module.definition_of(qm, handle.alias)
    if via is not None and via.InhibitPut:
        return failure("MQRC_PUT_INHIBITED", "queue.alias.inhibit-put", "queue.alias.cluster-base")
    record = False
    group_bound = False
    if bound.fixed is not None:
        destination = bound.fixed
        clauses = ["cluster.bind.explicit-qmgr" if bound.explicit else "cluster.bind.on-open"]
        pinned = "cluster.reallocation." + ("not-explicit-qmgr" if bound.explicit else "not-bound-on-open")
    else:
        flags = md.MsgFlags if md.Version >= MQMD_VERSION_2 else 0
        in_group = bool(flags & ANY_GROUP)
        logical = bool(pmo.Options & PMO_LOGICAL_ORDER)
        group_open = bound.group is not None and handle.put_position.current_group
        if bound.mode == BIND_ON_GROUP and group_open:
            if not in_group:
                return failure("MQRC_INCOMPLETE_GROUP", "cluster.bind.on-group-incomplete-group")
            destination, group_bound = bound.group, True
            clauses, pinned = ["cluster.bind.on-group"], "cluster.reallocation.not-bound-on-group"
        else:
            pinned = ""
            if bound.mode == BIND_ON_GROUP and logical and in_group:
                clauses, group_bound = ["cluster.bind.on-group"], True
                pinned = "cluster.reallocation.not-bound-on-group"
            elif bound.mode == BIND_ON_GROUP:
                clauses = ["cluster.bind.on-group-not-in-group"]
            else:
                clauses = ["cluster.bind.not-fixed"]
            choice = workload.choose(cluster, qm.name, bound.queue)
            clauses += choice.clauses
            if choice.failed:
                return Result(MQCC_FAILED, VALUES[choice.reason], clauses)
            destination, record = choice.destination, True
    result = send(cluster, qm, conn, handle, destination, md, pmo, data, "MQPUT", pinned, clauses, via)
    if result.failed:
        return result
    if record:
        cluster.record_choice(qm.name, destination)
        result.clauses.append("cluster.workload.weight")
    if bound.mode == BIND_ON_GROUP:
        bound.group = destination if group_bound and handle.put_position.current_group else None
    return result


def put1_cluster(cluster: Cluster, qm: QueueManager, hconn: int, od: MQOD, md: MQMD, pmo: MQPMO,
                 data: bytes, via: QueueDefinition | None = None) -> Result:
    """MQPUT1 of a cluster queue: chosen for this one message, as if MQOO_BIND_NOT_FIXED
    (cluster.bind.put1-not-fixed), unless a queue manager is named (cluster.bind.explicit-qmgr). ``via``: the
    local alias it was named through (queue.alias.cluster-base)."""
    conn = qm.connections.get(hconn)
    if conn is None:
        return failure("MQRC_HCONN_ERROR", "conn.hconn-error")
    refused = put_module.check_options(qm, pmo.Options, "MQPUT1")
    if refused is not None:
        return refused
    if via is not None and via.InhibitPut:
        return failure("MQRC_PUT_INHIBITED", "queue.alias.inhibit-put", "queue.alias.cluster-base")
    target = od.ObjectQMgrName.strip()
    if target and target != qm.name:
        destination = explicit_route(cluster, qm, target, od.ObjectName)
        return send(cluster, qm, conn, None, destination, md, pmo, data, "MQPUT1",
                    "cluster.reallocation.not-explicit-qmgr", explicit_clauses(cluster, target, od.ObjectName))
    choice = workload.choose(cluster, qm.name, od.ObjectName)
    clauses = ["cluster.bind.put1-not-fixed"] + choice.clauses + (["queue.alias.cluster-base"] if via else [])
    if choice.failed:
        return Result(MQCC_FAILED, VALUES[choice.reason], clauses)
    result = send(cluster, qm, conn, None, choice.destination, md, pmo, data, "MQPUT1", "", clauses, via)
    if not result.failed:
        cluster.record_choice(qm.name, choice.destination)
        result.clauses.append("cluster.workload.weight")
    return result


def accounting_token(qm: QueueManager, conn: Connection) -> bytes:
    """The AccountingToken the queue manager gives a connection's messages (never all zeros)."""
    name = qm.name.encode("ascii", "replace")[:12].ljust(12)
    return (b"ACCT" + name + conn.hconn.to_bytes(4, "big")).ljust(32, b"\0")


def send(cluster: Cluster, qm: QueueManager, conn: Connection, handle: ObjectHandle | None,
         destination: Destination, md: MQMD, pmo: MQPMO, data: bytes, call: str, pinned: str,
         clauses: list[str], via: QueueDefinition | None = None) -> Result:
    """Put one message for ``destination``: on the local instance, or on the cluster transmission queue.

    ``pinned`` is empty for a message that may be reallocated, else the clause that forbids it; on the
    transmission queue such a message carries an all-zero AccountingToken
    (cluster.reallocation.accounting-token-zero). Clauses: cluster.topology.transmission-queue,
    cluster.destination.resolved-qmgr.
    """
    if destination.local:
        target, via = alias_module.local_target(qm, destination.queue)
        if target is None:
            return failure("MQRC_UNKNOWN_ALIAS_BASE_Q", "queue.alias.unknown-base", "queue.alias.cluster-alias")
        result = put_module.put(qm, conn, handle, target, md, pmo, data, call=call, via=via)
        result.clauses.append("cluster.workload.local-route")
        if via is not None:
            result.clauses.append("queue.alias.cluster-alias")
    else:
        xmitq = qm.queues[CLUSTER_XMITQ]
        # The first definition on the path decides MQPER_PERSISTENCE_AS_Q_DEF and MQPRI_PRIORITY_AS_Q_DEF: a local
        # alias the queue was named through, else the destination instance, else (a named queue manager hosting
        # none, cluster.bind.explicit-qmgr-no-instance) the transmission queue, as for any queue with no local
        # definition.
        saved = xmitq.definition
        instance = via or (cluster.instance_definition(destination.qmgr, destination.queue)
                           if destination.queue in cluster.qmgrs[destination.qmgr].queues else saved)
        xmitq.definition = replace(saved, DefPersistence=instance.DefPersistence, DefPriority=instance.DefPriority)
        first = qm.last_seq
        try:
            result = put_module.put(qm, conn, handle, xmitq, md, pmo, data, call=call)
        finally:
            xmitq.definition = saved
        if not result.failed:
            token = accounting_token(qm, conn)
            member = cluster.members[qm.name]
            for seq in range(first + 1, qm.last_seq + 1):
                message = xmitq.messages.get(seq)
                if message is None:
                    continue
                message.md.AccountingToken = NONE_ACCOUNTING if pinned else token
                member.transmissions[message.token] = Transmission(
                    destination.qmgr, destination.queue, destination.channel, pinned, token)
            result.clauses.append("cluster.topology.transmission-queue")
            if pinned:
                result.clauses += [pinned, "cluster.reallocation.accounting-token-zero"]
    result.clauses[:0] = clauses
    if result.pmo is not None:
        result.pmo.ResolvedQName, result.pmo.ResolvedQMgrName = destination.queue, destination.qmgr
        result.clauses.append("cluster.destination.resolved-qmgr")
    return result
