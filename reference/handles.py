"""Connections and object handles, and the group and segment information the queue manager keeps per handle.

The information kept for MQPUT is separate from that kept for MQGET ("Logical and physical ordering",
seed 000: put.logical-order.state-separate-from-get), so a handle carries one of each.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .structures import NONE_ID


@dataclass(slots=True)
class GroupPosition:
    """Where a handle stands in a message group and a logical message.

    For the put side this is the retained "group and segment information" of seed 000: the previous message's
    GroupId, MsgSeqNumber, Offset and length, whether a group or logical message is unterminated, and the
    Persistence and unit-of-work setting every later message of them must repeat.
    """

    current_group: bool = False
    current_logical_message: bool = False
    group_id: bytes = NONE_ID
    seq: int = 1
    offset: int = 0
    length: int = 0
    in_group: bool = False  # MQMF_MSG_IN_GROUP/LAST_MSG_IN_GROUP of the unterminated logical message
    last_in_group: bool = False
    persistence: int = 0
    in_syncpoint: bool = False
    logical_order: bool = False  # the previous call on this side specified LOGICAL_ORDER

    @property
    def unterminated(self) -> bool:
        return self.current_group or self.current_logical_message


@dataclass(slots=True)
class ObjectHandle:
    """An open queue handle (Hobj) and its per-handle state."""

    hobj: int
    hconn: int
    queue: str
    options: int
    put_position: GroupPosition = field(default_factory=GroupPosition)
    get_position: GroupPosition = field(default_factory=GroupPosition)


@dataclass(slots=True)
class UnitOfWork:
    """The messages put and got under syncpoint on one connection since its last commit or backout."""

    ident: int
    puts: list = field(default_factory=list)  # (queue name, StoredMessage)
    gets: list = field(default_factory=list)  # (queue name, StoredMessage)


@dataclass(slots=True)
class Connection:
    """A connection (Hconn): its handles and its unit of work, if one is in progress."""

    hconn: int
    handles: set[int] = field(default_factory=set)
    uow: UnitOfWork | None = None
