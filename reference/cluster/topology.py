"""The cluster's topology: queue managers, their cluster-receiver channels and the queues they host in the cluster.

Sources: "Example of a cluster with more than one instance of a queue" (document `cluster-instances`) for the shape - one queue,
several instances on several queue managers, opened from a queue manager that may or may not host one - and
IBM's MQI reference (clauses.yaml document `facts`) for the attributes and their defaults. The model knows one cluster
(cluster.topology.one-cluster): every queue manager of the world is a member, and a local queue whose CLUSTER
attribute is not blank is an instance of the cluster queue of that name.

A channel here is the route to a destination queue manager: its workload attributes (CLWLRANK, CLWLPRTY,
NETPRTY, CLWLWGHT) are those of the cluster-receiver at the destination, which every member's auto-defined
cluster-sender copies, and its state is the state of the cluster-senders that lead there
(cluster.topology.channel-per-destination). Each queue manager gets one such channel, ``TO.<name>``, when it joins;
more can be defined, for example to show NETPRTY between two routes to the same queue manager.

Messages for a remote instance wait on the sending queue manager's SYSTEM.CLUSTER.TRANSMIT.QUEUE, each with a
:class:`Transmission` header naming where it goes, until a ``deliver`` moves them
(cluster.topology.transmission-queue).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..constants import VALUES
from ..structures import NONE_ACCOUNTING

CLUSTER_XMITQ = "SYSTEM.CLUSTER.TRANSMIT.QUEUE"

# Channel states, by the names of IBM's MQCHS_* constants (DISPLAY CHSTATUS STATUS). The model needs only
# their names: how they rank for the workload algorithm is a row of fixtures/tables/cluster-workload.yaml.
CHANNEL_STATES = (
    "MQCHS_INACTIVE", "MQCHS_BINDING", "MQCHS_STARTING", "MQCHS_RUNNING", "MQCHS_STOPPING", "MQCHS_RETRYING",
    "MQCHS_STOPPED", "MQCHS_REQUESTING", "MQCHS_PAUSED", "MQCHS_INITIALIZING", "MQCHS_SWITCHING",
)
RUNNING = "MQCHS_RUNNING"
INACTIVE = "MQCHS_INACTIVE"
# States in which a channel is failing: entering one re-drives the workload algorithm for the messages waiting
# for the channel (cluster.reallocation.on-stopping, cluster.reallocation.on-retry).
FAILING = ("MQCHS_STOPPING", "MQCHS_RETRYING")
# States in which a channel moves messages when asked to deliver; an inactive channel starts when messages
# arrive for it (cluster.deliver.running-channel).
DELIVERING = (RUNNING, INACTIVE)

USEQ_AS_Q_MGR = VALUES["MQCLWL_USEQ_AS_Q_MGR"]
USEQ_LOCAL = VALUES["MQCLWL_USEQ_LOCAL"]
USEQ_ANY = VALUES["MQCLWL_USEQ_ANY"]
BIND_ON_OPEN = VALUES["MQBND_BIND_ON_OPEN"]
BIND_NOT_FIXED = VALUES["MQBND_BIND_NOT_FIXED"]
BIND_ON_GROUP = VALUES["MQBND_BIND_ON_GROUP"]
MAX_MRUC = 999_999_999

# Attributes whose change resets every DestSeqFactor (cluster.workload.reset-on-change).
CHANNEL_WLM = ("CLWLRANK", "CLWLPRTY", "NETPRTY", "CLWLWGHT")
QUEUE_WLM = ("CLUSTER", "CLWLRANK", "CLWLPRTY", "CLWLUSEQ")


@dataclass(slots=True)
class Channel:
    """The route to a destination queue manager (its cluster-receiver's attributes) and its current state."""

    name: str
    qmgr: str
    CLWLRANK: int = 0
    CLWLPRTY: int = 0
    NETPRTY: int = 0
    CLWLWGHT: int = 50
    state: str = RUNNING


@dataclass(slots=True)
class InstanceAttributes:
    """The cluster attributes of one local queue (one instance of a cluster queue), MQSC names and defaults."""

    CLUSTER: str = ""
    CLWLRANK: int = 0
    CLWLPRTY: int = 0
    CLWLUSEQ: int = USEQ_AS_Q_MGR
    DefBind: int = BIND_ON_OPEN

    @property
    def clustered(self) -> bool:
        return bool(self.CLUSTER.strip())


@dataclass(frozen=True, slots=True)
class Destination:
    """One candidate of the workload algorithm: an instance of the queue and the route to it.

    ``channel`` names the route; for the sender's own instance (``local``) it is the sender's cluster-receiver,
    whose workload attributes stand for the local destination (cluster.workload.local-route).
    """

    qmgr: str
    queue: str
    channel: str
    local: bool = False


@dataclass(slots=True)
class Usage:
    """What the workload algorithm remembers of one destination: MQWDR.DestSeqFactor and DestSeqNumber."""

    factor: int = 0
    number: int = 0


@dataclass(slots=True)
class Transmission:
    """Where a message on a cluster transmission queue is going, and whether it may be reallocated.

    ``accounting`` is the AccountingToken the message carries when it arrives; on the transmission queue an
    ineligible message shows an all-zero token instead (cluster.reallocation.accounting-token-zero).
    """

    qmgr: str
    queue: str
    channel: str
    bound: str = ""  # why it may not be reallocated: the clause id; "" when it may
    accounting: bytes = NONE_ACCOUNTING
    indoubt: bool = False

    @property
    def eligible(self) -> bool:
        return not self.bound


@dataclass(slots=True)
class Binding:
    """How a handle open on a cluster queue chooses its destination.

    ``mode`` is the MQBND_* value in force (from MQOO_BIND_* or the queue's DefBind); ``fixed`` is the
    destination chosen at MQOPEN for MQBND_BIND_ON_OPEN or for an explicitly named queue manager; ``group`` the
    destination of the message group in progress under MQBND_BIND_ON_GROUP.
    """

    queue: str
    mode: int
    explicit: bool = False
    fixed: Destination | None = None
    group: Destination | None = None


@dataclass
class Member:
    """A queue manager's part in the cluster: its attributes, what it has chosen, and what waits to be sent."""

    name: str
    CLWLUSEQ: int = USEQ_LOCAL
    CLWLMRUC: int = MAX_MRUC
    suspended: bool = False
    instances: dict[str, InstanceAttributes] = field(default_factory=dict)  # queue name -> cluster attributes
    usage: dict[str, Usage] = field(default_factory=dict)  # channel name -> DestSeqFactor / DestSeqNumber
    last_number: int = 0  # the DestSeqNumber of the most recent choice
    transmissions: dict[bytes, Transmission] = field(default_factory=dict)  # MsgToken on the xmitq -> header
    bindings: dict[int, Binding] = field(default_factory=dict)  # Hobj -> how it chooses
    inquired: dict[int, str] = field(default_factory=dict)  # Hobj -> cluster queue opened to inquire, no local instance

    def usage_of(self, channel: str) -> Usage:
        return self.usage.get(channel) or Usage()

    def record_choice(self, destination: Destination, weight: int) -> None:
        """Remember a choice: its DestSeqNumber becomes the next number, its DestSeqFactor grows by about
        1000/CLWLWGHT (cluster.workload.weight)."""
        self.last_number += 1
        usage = self.usage.setdefault(destination.channel, Usage())
        usage.number = self.last_number
        usage.factor += 1000 // max(weight, 1)

    def clustered_instance(self, queue: str) -> InstanceAttributes | None:
        attributes = self.instances.get(queue)
        return attributes if attributes is not None and attributes.clustered else None
