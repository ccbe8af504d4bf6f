"""The world of several queue managers: a value holding every queue manager, the cluster they form, and one
method per MQI verb that routes a call to the queue manager its connection belongs to.

A world that never defines a second queue manager, a channel or a cluster queue is one queue manager, QM1,
and every verb is that queue manager's own (reference/qmgr.py): scenarios without a cluster behave exactly as
before. Once the cluster exists (:meth:`Cluster.join`), an MQOPEN, MQPUT or MQPUT1 that names a cluster queue
branches off to reference/cluster/binding.py, and channel changes re-drive waiting messages
(reference/cluster/reallocation.py).

Nothing is global: the queue managers share the world's clock, and two worlds built with the same arguments
and given the same calls are equal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .. import channels as channels_module
from ..clock import Clock
from ..constants import VALUES
from ..errors import NotModelled
from ..qmgr import QueueManager
from ..queue import LocalQueue, QueueDefinition
from ..result import Result, failure
from ..structures import MQGMO, MQMD, MQOD, MQPMO
from ..tables import Spec, default_spec
from . import binding, reallocation
from .topology import (
    CHANNEL_STATES,
    CHANNEL_WLM,
    CLUSTER_XMITQ,
    QUEUE_WLM,
    Channel,
    Destination,
    InstanceAttributes,
    Member,
)

DEFAULT_QMGR = "QM1"
UNKNOWN_OBJECT_NAME = VALUES["MQRC_UNKNOWN_OBJECT_NAME"]
UNKNOWN_REMOTE_Q_MGR = VALUES["MQRC_UNKNOWN_REMOTE_Q_MGR"]
# The binding options; MQOO_BIND_AS_Q_DEF is zero, so giving it is giving none (open.bind-options-ignored)
OO_BIND = VALUES["MQOO_BIND_ON_OPEN"] | VALUES["MQOO_BIND_NOT_FIXED"] | VALUES["MQOO_BIND_ON_GROUP"]


@dataclass
class Cluster:
    """Every queue manager of a scenario and, once there is one, the cluster they belong to."""

    seed: int = 0
    spec: Spec = field(default_factory=default_spec, compare=False, repr=False)
    clock: Clock = field(default_factory=Clock)
    default: str = DEFAULT_QMGR
    qmgrs: dict[str, QueueManager] = field(default_factory=dict)
    members: dict[str, Member] = field(default_factory=dict)
    channels: dict[str, Channel] = field(default_factory=dict)
    clustered: bool = False
    # Distributed queuing (reference/channels.py): sender channels by name, and the connection each receiving
    # queue manager's message channel agent puts with
    senders: dict[str, channels_module.SenderChannel] = field(default_factory=dict)
    mca_hconns: dict[str, int] = field(default_factory=dict)
    delivery_retries: dict[bytes, int] = field(default_factory=dict)  # cluster messages the receiver retries

    def __post_init__(self) -> None:
        if self.default not in self.qmgrs:
            self.qmgrs[self.default] = self._new_qmgr(self.default)

    def _new_qmgr(self, name: str) -> QueueManager:
        return QueueManager(name=name, seed=self.seed, spec=self.spec, clock=self.clock)

    @property
    def qm(self) -> QueueManager:
        """The default queue manager (the only one of a scenario without a cluster)."""
        return self.qmgrs[self.default]

    def qmgr(self, name: str | None) -> QueueManager:
        """The queue manager called ``name`` (the default one for None); NotModelled for an unknown name."""
        name = name or self.default
        if name not in self.qmgrs:
            raise NotModelled(f"no queue manager {name!r} is defined; define_qmgr {{name: {name}}} first")
        return self.qmgrs[name]

    # -- topology -------------------------------------------------------------------------------------------
    def join(self) -> None:
        """Form the cluster: every queue manager becomes a member with a cluster transmission queue and a
        cluster-receiver channel TO.<name> (cluster.topology.one-cluster, cluster.topology.channel-per-destination)."""
        self.clustered = True
        for name in list(self.qmgrs):
            self._admit(name)

    def _admit(self, name: str) -> None:
        if name in self.members:
            return
        self.members[name] = Member(name)
        qm = self.qmgrs[name]
        qm.queues.setdefault(CLUSTER_XMITQ, LocalQueue(QueueDefinition(CLUSTER_XMITQ, MaxQDepth=999_999_999)))
        if not any(c.qmgr == name for c in self.channels.values()):
            self.channels[f"TO.{name}"] = Channel(f"TO.{name}", name)
        self._wlm_changed()

    def _wlm_changed(self) -> str:
        """New destinations or changed workload attributes: every DestSeqFactor starts again from 0; the clause,
        for the result of the call that changed them (cluster.workload.reset-on-change)."""
        for member in self.members.values():
            for usage in member.usage.values():
                usage.factor = 0
        return "cluster.workload.reset-on-change"

    def define_qmgr(self, name: str | None, attributes: dict[str, int], cluster: dict[str, int]) -> Result:
        """Define (or alter) a queue manager. Naming one, or giving it cluster attributes (CLWLUSEQ,
        CLWLMRUC), makes the world a cluster (cluster.admin.topology)."""
        named, name = name is not None, name or self.default
        clauses = []
        if name not in self.qmgrs:
            self.qmgrs[name] = self._new_qmgr(name)
        if attributes:
            clauses += self.qmgrs[name].alter_qmgr(**attributes).clauses
        if named or cluster or self.clustered:
            self.join()
            member = self.members[name]
            for key, value in cluster.items():
                setattr(member, key, value)
            clauses.append("cluster.admin.topology")
        return Result(clauses=clauses or ["admin.alter-qmgr"])

    def define_channel(self, name: str, qmgr: str | None, attributes: dict[str, Any]) -> Result:
        """Define or alter the route to a queue manager: a cluster channel with its workload attributes and,
        optionally, its state (cluster.admin.topology)."""
        self.join()
        clauses = ["cluster.admin.topology"]
        channel = self.channels.get(name)
        if channel is None:
            if qmgr is None:
                raise NotModelled(f"channel {name} is new: say which queue manager it leads to (qmgr)")
            self.qmgr(qmgr)
            channel = self.channels[name] = Channel(name, qmgr)
            clauses.append(self._wlm_changed())
        elif qmgr is not None and qmgr != channel.qmgr:
            raise NotModelled(f"channel {name} leads to {channel.qmgr}, not {qmgr}")
        state = attributes.pop("state", None)
        if any(getattr(channel, k) != v for k, v in attributes.items() if k in CHANNEL_WLM):
            clauses.append(self._wlm_changed())
        for key, value in attributes.items():
            setattr(channel, key, value)
        if state is not None:
            clauses += self.set_channel(name, state).clauses
        return Result(clauses=clauses)

    def set_channel(self, name: str, state: str) -> Result:
        """Change a channel's state; a channel that starts failing re-drives its waiting messages
        (see reference/cluster/reallocation.py)."""
        channel = self.channels.get(name)
        if channel is None:
            raise NotModelled(f"no channel {name!r}; channels: {', '.join(sorted(self.channels))}")
        if state not in CHANNEL_STATES:
            raise NotModelled(f"unknown channel state {state!r}")
        return reallocation.channel_changed(self, channel, state)

    def suspend_qmgr(self, qmgr: str, suspended: bool = True) -> Result:
        """SUSPEND QMGR / RESUME QMGR: whether the workload algorithm avoids the queue manager
        (cluster.workload.suspended)."""
        self.qmgr(qmgr)
        self.join()
        self.members[qmgr].suspended = suspended
        return Result(clauses=["cluster.admin.topology"])

    def define_queue(self, qmgr: str | None, definition: QueueDefinition, cluster: dict[str, Any]) -> Result:
        """Define a local queue on ``qmgr``; a CLUSTER attribute makes it an instance of a cluster queue."""
        qm = self.qmgr(qmgr)
        result = qm.define_queue(definition)
        if cluster or self.clustered:
            self.join()
            attributes = InstanceAttributes(**cluster)
            self.members[qm.name].instances[definition.name] = attributes
            if attributes.clustered:
                result.clauses += [self._wlm_changed(), "cluster.admin.topology"]
        return result

    def alter_queue(self, qmgr: str | None, name: str, local: dict[str, Any], cluster: dict[str, Any]) -> Result:
        """ALTER QLOCAL: change some attributes of an existing queue, local (InhibitPut...) or cluster
        (CLUSTER, CLWLRANK, CLWLPRTY, CLWLUSEQ, DefBind)."""
        qm = self.qmgr(qmgr)
        queue = qm.queues.get(name)
        if queue is None:
            return failure("MQRC_UNKNOWN_OBJECT_NAME", "open.unknown-object")
        for key, value in local.items():
            setattr(queue.definition, key, value)
        clauses = ["cluster.admin.topology"]
        if cluster or self.clustered:
            self.join()
            attributes = self.members[qm.name].instances.setdefault(name, InstanceAttributes())
            if any(getattr(attributes, k) != v for k, v in cluster.items() if k in QUEUE_WLM):
                clauses.append(self._wlm_changed())
            for key, value in cluster.items():
                setattr(attributes, key, value)
        return Result(clauses=clauses)

    def deliver(self, qmgr: str | None, channel: str | None, indoubt: bool) -> Result:
        """Let channels move waiting messages to their destinations (see reference/cluster/reallocation.py)."""
        if qmgr is not None:
            self.qmgr(qmgr)
        if channel is not None and channel not in self.channels:
            raise NotModelled(f"no channel {channel!r}")
        return reallocation.deliver(self, qmgr, channel, indoubt)

    # -- distributed queuing (reference/distributed.py, reference/channels.py) ---------------------------------
    def define_qremote(self, qmgr: str | None, definition: QueueDefinition) -> Result:
        """DEFINE QREMOTE on ``qmgr``: a remote queue definition, a queue-manager alias or a reply-to queue alias
        (distributed.admin.define-qremote)."""
        result = self.qmgr(qmgr).define_queue(definition)
        return Result(clauses=result.clauses + ["distributed.admin.define-qremote"])

    def define_sender(self, name: str, qmgr: str | None, conname: str, xmitq: str, npmspeed: int,
                      mrrty: int = channels_module.MRRTY_DEFAULT, **attributes: int) -> Result:
        """A sender channel on ``qmgr`` and its receiver on ``conname``; ``attributes``: USEDLQ, SHORTRTY,
        SHORTTMR, LONGRTY, LONGTMR (see reference/channels.py)."""
        return channels_module.define(self, name, qmgr or self.default, conname, xmitq, npmspeed, mrrty,
                                      **attributes)

    def start_channel(self, name: str) -> Result:
        return channels_module.start(self, name)

    def stop_channel(self, name: str, state: str) -> Result:
        return channels_module.stop(self, name, state)

    def channel_status(self, name: str) -> Result:
        return channels_module.status(self, name)

    def transmit(self, name: str, count: int | None) -> Result:
        return channels_module.transmit(self, name, count)

    # -- what the workload algorithm reads -------------------------------------------------------------------
    def has_cluster_queues(self) -> bool:
        """Whether any queue manager hosts an instance of a cluster queue."""
        return any(m.clustered_instance(q) is not None for m in self.members.values() for q in m.instances)

    def hosts(self, queue: str) -> list[str]:
        """The queue managers hosting an instance of cluster queue ``queue``, by name."""
        return sorted(n for n, m in self.members.items() if m.clustered_instance(queue) is not None)

    def routes_to(self, qmgr: str) -> list[Channel]:
        """The channels that lead to ``qmgr``, by name."""
        return sorted((c for c in self.channels.values() if c.qmgr == qmgr), key=lambda c: c.name)

    def route_channel(self, destination: Destination) -> Channel:
        return self.channels[destination.channel]

    def destinations(self, sender: str, queue: str, only_qmgr: str | None = None) -> list[Destination]:
        """Every instance of ``queue`` with every route to it: the candidates of the workload algorithm. The
        sender's own instance is one candidate, reached through its own cluster-receiver
        (cluster.workload.local-route)."""
        found = []
        for host in self.hosts(queue):
            if only_qmgr is not None and host != only_qmgr:
                continue
            routes = self.routes_to(host)
            if host == sender:
                found += [Destination(host, queue, routes[0].name, local=True)] if routes else []
            else:
                found += [Destination(host, queue, c.name) for c in routes]
        return found

    def put_inhibited(self, destination: Destination) -> bool:
        return self.qmgrs[destination.qmgr].queues[destination.queue].definition.InhibitPut

    def instance_definition(self, qmgr: str, queue: str) -> QueueDefinition:
        return self.qmgrs[qmgr].queues[queue].definition

    def record_choice(self, sender: str, destination: Destination) -> None:
        self.members[sender].record_choice(destination, self.route_channel(destination).CLWLWGHT)

    # -- MQI verbs ------------------------------------------------------------------------------------------
    def connect(self, qmgr: str | None = None) -> tuple[str, Result]:
        """MQCONN to ``qmgr`` (the default queue manager for None): its name and the result with the Hconn."""
        qm = self.qmgr(qmgr)
        return qm.name, qm.connect()

    def disconnect(self, qmgr: str, hconn: int) -> Result:
        qm = self.qmgr(qmgr)
        conn = qm.connections.get(hconn)
        handles = set(conn.handles) if conn is not None else set()
        result = qm.disconnect(hconn)
        self._forget(qm.name, handles)
        return result

    def _forget(self, qmgr: str, hobjs: set[int]) -> None:
        member = self.members.get(qmgr)
        if member is not None:
            for hobj in hobjs:
                member.bindings.pop(hobj, None)
                member.inquired.pop(hobj, None)

    def _unknown_qmgr(self, od: MQOD, result: Result) -> Result:
        """MQRC_UNKNOWN_REMOTE_Q_MGR for an ObjectQMgrName that is no queue manager of the world at all becomes
        MQRC_UNKNOWN_OBJECT_Q_MGR, as protocol 1 was published with (open.unknown-object-q-mgr's decision); a queue
        manager of the world without a route keeps IBM's code (reference/distributed.py)."""
        if result.reason == UNKNOWN_REMOTE_Q_MGR and "distributed.resolve.unknown-remote-qmgr" in result.clauses \
                and od.ObjectQMgrName.strip() and od.ObjectQMgrName.strip() not in self.qmgrs:
            return failure("MQRC_UNKNOWN_OBJECT_Q_MGR", "open.unknown-object-q-mgr")
        return result

    def open(self, qmgr: str, hconn: int, od: MQOD, options: int) -> Result:
        qm = self.qmgr(qmgr)
        if binding.is_cluster_queue(self, qm, od):
            return binding.open_cluster(self, qm, hconn, od, options)
        alias = binding.cluster_alias(self, qm, od)
        if alias is not None:
            return binding.open_cluster(self, qm, hconn, MQOD(alias.BaseQName), options, alias)
        result = self._local(self._unknown_qmgr(od, qm.open(hconn, od, options)))
        if options & OO_BIND and not result.failed and od.ObjectString == "":
            result.clauses.append("open.bind-options-ignored")  # not a cluster queue: nothing to bind
        if not result.failed and self.clustered and od.ObjectType == VALUES["MQOT_Q"] and self.hosts(od.ObjectName):
            # a cluster queue's name opened here: the local queue, or this queue manager named (no workload choice)
            result.clauses += ["cluster.topology.local-queue-first", *(
                ["cluster.bind.explicit-qmgr"] if od.ObjectQMgrName.strip() == qm.name else [])]
        return result

    def _local(self, result: Result) -> Result:
        """An MQOPEN or MQPUT1 resolved outside the cluster; in a cluster, a name that no queue and no instance
        has is unknown (cluster.open.no-instance)."""
        if self.clustered and result.reason == UNKNOWN_OBJECT_NAME:
            result.clauses.append("cluster.open.no-instance")
        return result

    def close(self, qmgr: str, hconn: int, hobj: int, options: int = 0) -> Result:
        qm = self.qmgr(qmgr)
        result = qm.close(hconn, hobj, options)
        if hobj not in qm.handles:
            self._forget(qm.name, {hobj})
        return result

    def put(self, qmgr: str, hconn: int, hobj: int, md: MQMD, pmo: MQPMO, data: bytes) -> Result:
        qm = self.qmgr(qmgr)
        member = self.members.get(qm.name)
        bound = member.bindings.get(hobj) if member is not None else None
        if bound is None:
            return qm.put(hconn, hobj, md, pmo, data)
        return binding.put_cluster(self, qm, hconn, hobj, bound, md, pmo, data)

    def put1(self, qmgr: str, hconn: int, od: MQOD, md: MQMD, pmo: MQPMO, data: bytes) -> Result:
        qm = self.qmgr(qmgr)
        if binding.is_cluster_queue(self, qm, od):
            return binding.put1_cluster(self, qm, hconn, od, md, pmo, data)
        alias = binding.cluster_alias(self, qm, od)
        if alias is not None:
            return binding.put1_cluster(self, qm, hconn, MQOD(alias.BaseQName), md, pmo, data, alias)
        return self._local(self._unknown_qmgr(od, qm.put1(hconn, od, md, pmo, data)))

    def get(self, qmgr: str, hconn: int, hobj: int, md: MQMD, gmo: MQGMO, buffer_length: int | None = None) -> Result:
        return self.qmgr(qmgr).get(hconn, hobj, md, gmo, buffer_length)

    def commit(self, qmgr: str, hconn: int) -> Result:
        return self.qmgr(qmgr).commit(hconn)

    def backout(self, qmgr: str, hconn: int) -> Result:
        return self.qmgr(qmgr).backout(hconn)

    def inquire(self, qmgr: str, hconn: int, hobj: int, selectors: list[str]) -> Result:
        qm = self.qmgr(qmgr)
        member = self.members.get(qm.name)
        queue = member.inquired.get(hobj) if member is not None else None
        if queue is not None:
            return binding.inquire_remote(self, qm, hconn, hobj, queue, selectors)
        result = qm.inquire(hconn, hobj, selectors)
        handle = qm.handles.get(hobj)
        if result.attributes and member is not None and handle is not None:
            # A queue's DefBind and CLWLUseQ are kept with its cluster attributes (inquire.local-queue-attributes).
            own = member.instances.get(handle.alias or handle.queue)
            for selector, name in (("MQIA_DEF_BIND", "DefBind"), ("MQIA_CLWL_USEQ", "CLWLUSEQ")):
                if own is not None and selector in result.attributes and \
                        result.attributes[selector] != binding.NOT_APPLICABLE:
                    result.attributes[selector] = getattr(own, name)
        return result

    def set(self, qmgr: str, hconn: int, hobj: int, selectors: list[str], int_attrs: list[int]) -> Result:
        return self.qmgr(qmgr).set(hconn, hobj, selectors, int_attrs)

    # -- publish/subscribe: on the connection's own queue manager (reference/topics.py, subscriptions.py) ------
    def define_topic(self, qmgr: str | None, definition: Any) -> Result:
        return self.qmgr(qmgr).define_topic(definition)

    def sub(self, qmgr: str, hconn: int, sd: Any, hobj: int | None) -> Result:
        return self.qmgr(qmgr).sub(hconn, sd, hobj)

    def subrq(self, qmgr: str, hconn: int, hsub: int) -> Result:
        return self.qmgr(qmgr).subrq(hconn, hsub)

    def advance_clock(self, milliseconds: int) -> Result:
        """Let time pass for every queue manager (they share one clock)."""
        return self.qm.advance_clock(milliseconds)
