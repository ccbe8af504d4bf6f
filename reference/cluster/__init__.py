"""Clusters: several queue managers, cluster queues with several instances, the workload-balancing algorithm,
bind options, cluster transmission queues and the reallocation of waiting messages.

Modules follow the documents' topics: ``topology`` (queue managers, channels, instances), ``workload`` (the
algorithm, its step order read from fixtures/tables/cluster-workload.yaml), ``binding`` (MQOPEN / MQPUT /
MQPUT1 of a cluster queue and the bind options), ``reallocation`` (failing channels, delivery) and ``world``
(the value holding every queue manager, with one method per verb).
"""

from .topology import CHANNEL_STATES, CLUSTER_XMITQ, Channel, Destination, InstanceAttributes, Member
from .workload import Choice, choose
from .world import DEFAULT_QMGR, Cluster

__all__ = ["CHANNEL_STATES", "CLUSTER_XMITQ", "DEFAULT_QMGR", "Channel", "Choice", "Cluster", "Destination",
           "InstanceAttributes", "Member", "choose"]
