"""The cluster workload management algorithm: which instance of a cluster queue, by which route, gets a message.

The order of the steps is data: the rows of fixtures/tables/cluster-workload.yaml, applied top to bottom. Each
row names, in ``by``, the attribute or predicate its step keeps the best of; this module holds one function per
``by`` and nothing about their order (cluster.workload.order). A reordered table changes the model's choices.

Sources: the precedence list of document `reallocation` ("Cluster message re-allocation"), which is the verified order of
channel CLWLRANK, queue CLWLRANK, PUT(DISABLED), suspended queue managers, channel state, NETPRTY, channel
CLWLPRTY and queue CLWLPRTY; and IBM's MQI reference (clauses.yaml document `facts`) for what IBM's description of the algorithm adds:
the local instance and CLWLUSEQ (its step 6, between PUT(DISABLED) and suspension), CLWLMRUC (step 17) and the
least-recently-used choice weighted by CLWLWGHT (step 18).

Every step keeps at least one candidate, except PUT(DISABLED) when only put-disabled instances remain: then the
choice fails with MQRC_CLUSTER_PUT_INHIBITED (cluster.workload.all-put-disabled). Choosing changes nothing: the
caller records the choice (:meth:`Member.record_choice`) once the put it was made for has succeeded.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..tables import Row, TableError
from .topology import RUNNING, USEQ_AS_Q_MGR, USEQ_LOCAL, Destination

if TYPE_CHECKING:
    from .world import Cluster

TABLE = "cluster.workload"


@dataclass
class Choice:
    """The outcome of one run of the algorithm: a destination, or the reason none could be chosen."""

    destination: Destination | None
    clauses: list[str] = field(default_factory=list)
    reason: str = "MQRC_NONE"

    @property
    def failed(self) -> bool:
        return self.destination is None


@dataclass
class Context:
    """What the steps read: the world, the sending queue manager and the queue being chosen for."""

    cluster: Cluster
    sender: str
    queue: str

    def channel(self, d: Destination):
        return self.cluster.route_channel(d)

    def instance(self, d: Destination):
        return self.cluster.members[d.qmgr].instances[d.queue]

    def state(self, d: Destination) -> str:
        # The local instance is reached without a channel: it is as available as a running one
        # (cluster.workload.local-route).
        return RUNNING if d.local else self.channel(d).state


class Refused(Exception):
    """A step found no destination it may choose: the reason code and the row that says so."""

    def __init__(self, reason: str, clause: str):
        super().__init__(reason)
        self.reason, self.clause = reason, clause


Step = Callable[[Context, list[Destination], Row], list[Destination]]


def _keep_highest(candidates: list[Destination], key: Callable[[Destination], int]) -> list[Destination]:
    best = max(key(d) for d in candidates)
    return [d for d in candidates if key(d) == best]


def channel_rank(ctx: Context, candidates: list[Destination], row: Row) -> list[Destination]:
    """Keep the destinations whose channel has the highest CLWLRANK (cluster.workload.channel-rank)."""
    return _keep_highest(candidates, lambda d: ctx.channel(d).CLWLRANK)


def queue_rank(ctx: Context, candidates: list[Destination], row: Row) -> list[Destination]:
    """Keep the instances with the highest queue CLWLRANK (cluster.workload.queue-rank)."""
    return _keep_highest(candidates, lambda d: ctx.instance(d).CLWLRANK)


def put_enabled(ctx: Context, candidates: list[Destination], row: Row) -> list[Destination]:
    """Drop PUT(DISABLED) instances; when nothing else remains the operation fails
    (cluster.workload.put-disabled, cluster.workload.all-put-disabled)."""
    enabled = [d for d in candidates if not ctx.cluster.put_inhibited(d)]
    if not enabled:
        raise Refused("MQRC_CLUSTER_PUT_INHIBITED", "cluster.workload.all-put-disabled")
    return enabled


def local_instance(ctx: Context, candidates: list[Destination], row: Row) -> list[Destination]:
    """Keep only the local instance when it remains and CLWLUSEQ says to use it: the queue's CLWLUSEQ is LOCAL,
    or it is QMGR and the queue manager's is LOCAL (cluster.workload.local-instance)."""
    local = [d for d in candidates if d.local]
    if not local:
        return candidates
    useq = ctx.instance(local[0]).CLWLUSEQ
    if useq == USEQ_AS_Q_MGR:
        useq = ctx.cluster.members[ctx.sender].CLWLUSEQ
    return local if useq == USEQ_LOCAL else candidates


def not_suspended(ctx: Context, candidates: list[Destination], row: Row) -> list[Destination]:
    """Drop destinations on suspended queue managers unless they are all that remain (cluster.workload.suspended)."""
    resumed = [d for d in candidates if not ctx.cluster.members[d.qmgr].suspended]
    return resumed or candidates


def channel_state(ctx: Context, candidates: list[Destination], row: Row) -> list[Destination]:
    """Keep the destinations whose channel state is in the most favoured tier present; the tiers are the row's
    ``tiers``, best first, separated by ``|`` (cluster.workload.channel-state)."""
    tiers = [tier.split() for tier in str(row.then["tiers"]).split("|")]

    def tier_of(d: Destination) -> int:
        state = ctx.state(d)
        for index, tier in enumerate(tiers):
            if state in tier:
                return index
        raise TableError(f"{row.id}: channel state {state} is in no tier")

    return _keep_highest(candidates, lambda d: -tier_of(d))


def net_priority(ctx: Context, candidates: list[Destination], row: Row) -> list[Destination]:
    """For each queue manager reached by more than one channel, keep its channels with the highest NETPRTY
    (cluster.workload.netprty). Destinations on other queue managers are not compared."""
    best: dict[tuple[str, str], int] = {}
    for d in candidates:
        key = (d.qmgr, d.queue)
        best[key] = max(best.get(key, -1), ctx.channel(d).NETPRTY)
    return [d for d in candidates if ctx.channel(d).NETPRTY == best[(d.qmgr, d.queue)]]


def channel_priority(ctx: Context, candidates: list[Destination], row: Row) -> list[Destination]:
    """Keep the destinations whose channel has the highest CLWLPRTY (cluster.workload.channel-priority)."""
    return _keep_highest(candidates, lambda d: ctx.channel(d).CLWLPRTY)


def queue_priority(ctx: Context, candidates: list[Destination], row: Row) -> list[Destination]:
    """Keep the instances with the highest queue CLWLPRTY (cluster.workload.queue-priority)."""
    return _keep_highest(candidates, lambda d: ctx.instance(d).CLWLPRTY)


def most_recently_used(ctx: Context, candidates: list[Destination], row: Row) -> list[Destination]:
    """When more than CLWLMRUC remain, keep the CLWLMRUC most recently used (highest DestSeqNumber; the model
    breaks ties by channel name) (cluster.workload.most-recently-used)."""
    member = ctx.cluster.members[ctx.sender]
    limit = member.CLWLMRUC
    if len(candidates) <= limit:
        return candidates
    ordered = sorted(candidates, key=lambda d: (-member.usage_of(d.channel).number, d.channel, d.qmgr))
    kept = set(ordered[:limit])
    return [d for d in candidates if d in kept]


def _usage_key(ctx: Context, d: Destination) -> tuple[int, int]:
    usage = ctx.cluster.members[ctx.sender].usage_of(d.channel)
    return usage.factor, usage.number


def _tied(ctx: Context, candidates: list[Destination]) -> bool:
    """Whether two candidates are equally least recently used (cluster.workload.tie-break)."""
    keys = sorted(_usage_key(ctx, d) for d in candidates)
    return len(keys) > 1 and keys[0] == keys[1]


def least_recently_used(ctx: Context, candidates: list[Destination], row: Row) -> list[Destination]:
    """Choose the least recently used: lowest DestSeqFactor, then lowest DestSeqNumber; the model breaks a
    remaining tie by the lowest channel name, which another implementation need not do
    (cluster.workload.least-recently-used, cluster.workload.tie-break)."""
    return [min(candidates, key=lambda d: (*_usage_key(ctx, d), d.channel, d.qmgr))]


STEPS: dict[str, Step] = {
    "channel-rank": channel_rank,
    "queue-rank": queue_rank,
    "put-enabled": put_enabled,
    "local-instance": local_instance,
    "not-suspended": not_suspended,
    "channel-state": channel_state,
    "netprty": net_priority,
    "channel-priority": channel_priority,
    "queue-priority": queue_priority,
    "most-recently-used": most_recently_used,
    "least-recently-used": least_recently_used,
}


def choose(cluster: Cluster, sender: str, queue: str, only_qmgr: str | None = None) -> Choice:
    """Run the algorithm for a message that ``sender`` sends to cluster queue ``queue``.

    ``only_qmgr`` limits the candidates to the instance on a named queue manager (an explicit ObjectQMgrName),
    leaving only the choice of route. The clauses returned are the ids of the rows applied: every row when there
    were two or more candidates to choose from, whether or not it dropped any (PUT(DISABLED) alone otherwise).
    Clauses: the rows of cluster-workload.yaml, cluster.workload.order (more than one candidate),
    cluster.topology.channel-per-destination, cluster.workload.local-route, cluster.workload.all-put-disabled, cluster.put.no-destinations,
    cluster.workload.tie-break.
    """
    candidates = cluster.destinations(sender, queue, only_qmgr)
    if not candidates:
        return Choice(None, ["cluster.put.no-destinations"], "MQRC_NO_DESTINATIONS_AVAILABLE")
    ctx = Context(cluster, sender, queue)
    choosing = len(candidates) > 1  # the algorithm runs: each row is applied, in the table's order
    # each destination is reached by a channel whose attributes the steps read (cluster.topology.channel-per-destination)
    clauses: list[str] = ["cluster.workload.order", "cluster.topology.channel-per-destination"] if choosing else []
    if choosing and any(d.local for d in candidates):
        clauses.append("cluster.workload.local-route")  # the local instance competes by its own receiver's attributes
    for row in cluster.spec[TABLE].rows:
        by = row.then.get("by")
        step = STEPS.get(by)
        if step is None:
            raise TableError(f"{TABLE}: row {row.id} names no known step ({by!r}); steps: {', '.join(STEPS)}")
        if len(candidates) == 1 and by not in ("put-enabled",):
            if choosing:
                clauses.append(row.id)  # applied to the one candidate left, which it keeps
            continue  # one candidate left: only PUT(DISABLED) can still refuse it
        if by == "least-recently-used" and _tied(ctx, candidates):
            clauses.append("cluster.workload.tie-break")  # equally least recently used: the model's pick
        try:
            survivors = step(ctx, candidates, row)
        except Refused as refused:
            return Choice(None, clauses + [row.id, refused.clause], refused.reason)
        if choosing:
            clauses.append(row.id)  # it decided which remain, whether or not it dropped any
        candidates = survivors
    if len(candidates) > 1:
        # The table chose no single destination (a table without its least-recently-used row): the model
        # still answers, by the lowest channel name.
        candidates = [min(candidates, key=lambda d: (d.channel, d.qmgr))]
        clauses.append("cluster.workload.tie-break")
    return Choice(candidates[0], clauses)
