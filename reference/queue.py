"""Local queues: their attributes and the messages on them, in physical order within priority.

Physical order is arrival order (``seq``). A queue whose MsgDeliverySequence is MQMDS_PRIORITY delivers the
highest priority first and, within a priority, in physical order; MQMDS_FIFO delivers in physical order alone
("Logical and physical ordering", document `ordering`). Indexes on MsgId, CorrelId and GroupId let a matched get find its
candidates without scanning the queue.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import chain

from .structures import MQMD, NONE_ID

MQMDS_PRIORITY = 0
MQMDS_FIFO = 1
MAX_PRIORITY = 9  # the queue manager's MaxPriority on Multiplatforms

# A stored message is visible, or belongs to a unit of work that has not ended yet.
VISIBLE = 0
PUT_PENDING = 1  # put in a unit of work not yet committed: on the queue, counted in depth, invisible
GET_PENDING = 2  # got in a unit of work not yet committed: invisible, restored by backout

EAGER_INDEXES = ("CorrelId", "GroupId")  # see LocalQueue.index


@dataclass(slots=True)
class QueueDefinition:
    """A local queue's attributes, named as MQINQ and DEFINE QLOCAL name them, with their defaults."""

    name: str
    MaxMsgLength: int = 4_194_304
    MaxQDepth: int = 5000
    InhibitPut: bool = False
    InhibitGet: bool = False
    MsgDeliverySequence: int = MQMDS_PRIORITY
    DefPersistence: int = 0  # MQPER_NOT_PERSISTENT
    DefPriority: int = 0
    DefInputOpenOption: int = 2  # MQOO_INPUT_SHARED
    Shareability: int = 1  # MQQA_SHAREABLE
    # The object's type and how it came to be (reference/dynamic_queues.py, reference/alias.py)
    QType: int = 1  # MQQT_LOCAL; MQQT_MODEL and MQQT_ALIAS definitions hold no messages
    DefinitionType: int = 1  # MQQDT_PREDEFINED; a model's says what kind of dynamic queue it makes
    BaseQName: str = ""  # an alias queue's target (DEFINE QALIAS TARGET)
    BackoutThreshold: int = 0
    BackoutRequeueQName: str = ""
    TriggerControl: int = 0  # MQTC_OFF
    TriggerType: int = 1  # MQTT_FIRST
    TriggerDepth: int = 1
    TriggerMsgPriority: int = 0
    PropertyControl: int = 0  # MQPROP_COMPATIBILITY (reference/properties.py)
    TriggerData: str = ""
    InitiationQName: str = ""  # INITQ: where trigger messages go (reference/channels.py: a triggered channel)
    QDesc: str = ""
    DefBind: int = 0  # MQBND_BIND_ON_OPEN; a cluster queue's own is its instance's (reference/cluster/topology.py)
    CLWLUseQ: int = -3  # MQCLWL_USEQ_AS_Q_MGR; likewise
    # Distributed queuing (reference/distributed.py): a remote queue definition's (QType MQQT_REMOTE) RNAME,
    # RQMNAME and XMITQ, and a local queue's Usage (MQUS_TRANSMISSION: a transmission queue)
    RemoteQName: str = ""
    RemoteQMgrName: str = ""
    XmitQName: str = ""
    Usage: int = 0  # MQUS_NORMAL


@dataclass(slots=True)
class StoredMessage:
    """A physical message on a queue: the stored copy of its descriptor, its data and its state."""

    seq: int
    md: MQMD
    data: bytes
    token: bytes
    state: int = VISIBLE
    uow: int | None = None
    handle_marks: set[int] | None = None  # handles that marked it with MQGMO_MARK_BROWSE_HANDLE
    coop_marked_at: int | None = None  # clock time of its co-operative mark, if any
    expires_at: int | None = None  # clock time its Expiry ends (reference/expiry.py); None: MQEI_UNLIMITED
    properties: tuple | None = None  # its message properties (reference/properties.py); None: none

    @property
    def level(self) -> int:
        """The priority level the message is queued at (priorities above MaxPriority queue at MaxPriority)."""
        priority = self.md.Priority
        return priority if priority < MAX_PRIORITY else MAX_PRIORITY


def _empty_levels() -> list[dict[int, StoredMessage]]:
    return [{} for _ in range(MAX_PRIORITY + 1)]


def _eager_indexes() -> dict[str, dict[bytes, dict[int, StoredMessage]]]:
    return {name: {} for name in EAGER_INDEXES}


@dataclass
class LocalQueue:
    """A local queue: its definition and its messages."""

    definition: QueueDefinition
    messages: dict[int, StoredMessage] = field(default_factory=dict)  # physical order
    levels: list[dict[int, StoredMessage]] = field(default_factory=_empty_levels)
    # Field name -> value -> the messages with that value, in the order they were added. Derived from
    # ``messages``, so not compared; read them through :meth:`index`.
    indexes: dict[str, dict[bytes, dict[int, StoredMessage]]] = field(default_factory=_eager_indexes, compare=False)
    # MsgToken -> message; a token is made once per put and kept until the message goes (browse-mark.msg-token-stable)
    tokens: dict[bytes, StoredMessage] = field(default_factory=dict)
    coop_handles: set[int] = field(default_factory=set)  # the co-operating set: handles opened with MQOO_CO_OP
    open_input_count: int = 0
    open_output_count: int = 0
    exclusive_input: bool = False
    removals: int = field(default=0, compare=False, repr=False)  # since the dictionaries were last rebuilt
    # The messages with an expiry (reference/expiry.py), so that a get on a queue without any looks at none.
    expiring: dict[int, StoredMessage] = field(default_factory=dict, compare=False, repr=False)
    # The messages got in a unit of work not yet ended (GET_PENDING), which CurrentQDepth no longer counts.
    pending_gets: dict[int, StoredMessage] = field(default_factory=dict, compare=False, repr=False)

    @property
    def depth(self) -> int:
        """CurrentQDepth: the messages on the queue, counting those put in a unit of work not yet committed but
        not those got in one (inquire.current-depth.uncommitted-get)."""
        if not self.pending_gets:
            return len(self.messages)
        return len(self.messages) - sum(1 for m in self.pending_gets.values() if m.state == GET_PENDING)

    def get_pending(self, message: StoredMessage, uow: int) -> None:
        """Mark a message got in unit of work ``uow``: invisible, no longer counted, restored by backout."""
        message.state, message.uow = GET_PENDING, uow
        self.pending_gets[message.seq] = message

    def restore(self, message: StoredMessage) -> None:
        """Make a message visible again (a backed-out get, a committed put)."""
        message.state, message.uow = VISIBLE, None
        self.pending_gets.pop(message.seq, None)

    def index(self, name: str) -> dict[bytes, dict[int, StoredMessage]]:
        """The messages by their value of ``name`` (MsgId, CorrelId or GroupId).

        The CorrelId and GroupId indexes are kept from the start. The MsgId index is made the first time a get
        asks for it: MsgIds are nearly always unique, so keeping it would cost a dictionary per message, which
        few programs need.
        """
        index = self.indexes.get(name)
        if index is None:
            index = self.indexes[name] = {}
            for message in self.messages.values():
                index.setdefault(getattr(message.md, name), {})[message.seq] = message
        return index

    def add(self, message: StoredMessage) -> None:
        """Place a message at the end of its priority level."""
        seq, md = message.seq, message.md
        self.messages[seq] = message
        self.levels[message.level][seq] = message
        self.tokens[message.token] = message
        if message.expires_at is not None:
            self.expiring[seq] = message
        for name, index in self.indexes.items():
            value = getattr(md, name)
            bucket = index.get(value)
            if bucket is None:
                index[value] = {seq: message}
            else:
                bucket[seq] = message

    def remove(self, message: StoredMessage) -> None:
        """Take a message off the queue for good."""
        seq, md = message.seq, message.md
        del self.messages[seq]
        del self.levels[message.level][seq]
        del self.tokens[message.token]
        if self.expiring:
            self.expiring.pop(seq, None)
        if self.pending_gets:
            self.pending_gets.pop(seq, None)
        for name, index in self.indexes.items():
            value = getattr(md, name)
            bucket = index[value]
            del bucket[seq]
            # Most messages have no CorrelId or GroupId: that bucket is kept rather than made again and again.
            if not bucket and value != NONE_ID:
                del index[value]
        # A dictionary keeps the places of deleted entries until it next grows, and iterating it walks past them,
        # so on a queue drained from the front each get would be slower than the last. Rebuilding the
        # dictionaries keeps a get's cost flat. After 256 + messages/16 removals, the rebuilds and the walks each
        # cost a get a fraction of a microsecond; after as many removals as messages (as before), a get half-way
        # down a queue of 20,000 cost 2 us more than the first (benchmarks/emulator.py's drain).
        self.removals += 1
        if self.removals > 256 + len(self.messages) // 16:
            self.messages = dict(self.messages)
            self.levels = [dict(level) for level in self.levels]
            self.removals = 0

    def delivery_key(self, message: StoredMessage) -> tuple[int, int]:
        """Sort key of delivery order: priority first unless the queue is FIFO, then physical order.

        A browse cursor is such a key, so on a priority queue a later arrival of higher priority sorts before
        the cursor and only BROWSE_FIRST finds it (get.browse.priority-arrivals-need-browse-first).
        """
        if self.definition.MsgDeliverySequence == MQMDS_FIFO:
            return (0, message.seq)
        return (-message.level, message.seq)

    def in_delivery_order(self) -> Iterator[StoredMessage]:
        """Every message, in the order a destructive get without selection would meet them."""
        # No copies: callers stop iterating before they change the queue. Empty priority levels are passed over.
        if self.definition.MsgDeliverySequence == MQMDS_FIFO:
            return iter(self.messages.values())
        return chain.from_iterable(map(dict.values, filter(None, reversed(self.levels))))

    def candidates(self, keys: dict[str, bytes]) -> Iterator[StoredMessage]:
        """Messages whose indexed fields equal ``keys``, in delivery order (all messages when ``keys`` is empty)."""
        if not keys:
            return self.in_delivery_order()
        buckets = []
        for name, wanted in keys.items():
            bucket = self.index(name).get(wanted)
            if not bucket:
                return iter(())
            buckets.append(bucket)
        # The smallest bucket bounds the work; its messages must still match every other key given
        # (get.match.msg-id with get.match.correl-id: a message with only one of the two is not a match).
        smallest = min(buckets, key=len)
        matching = [m for m in smallest.values() if all(getattr(m.md, name) == wanted for name, wanted in keys.items())]
        return iter(sorted(matching, key=self.delivery_key))
