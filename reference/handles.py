"""Connections and object handles, and the group and segment information the queue manager keeps per handle.

The information kept for MQPUT is separate from that kept for MQGET ("Logical and physical ordering",
document `ordering`: put.logical-order.state-separate-from-get), so a handle carries one of each; and it belongs to the
handle, so another or a new handle starts with none (put.logical-order.state-per-handle).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .msgflags import KNOWN, GroupFlags, every_combination
from .structures import NONE_ID


@dataclass(slots=True)
class GroupPosition:
    """Where a handle stands in a message group and a logical message.

    For the put side this is the retained "group and segment information" of document `ordering`: the previous message's
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
    flags: int = 0  # MsgFlags of the previous message (the get side reads its group and segment status)

    @property
    def unterminated(self) -> bool:
        return self.current_group or self.current_logical_message

    def msg_seq_number(self, rule: str, field: int | None = None) -> int:
        """The MsgSeqNumber a table's rule word gives after this position (put Table 1 and the get table share
        the vocabulary; only a put has the ``field`` of its own MQMD)."""
        if rule == "one":
            return 1
        if rule == "previous":
            return self.seq
        if rule == "previous-plus-one":
            return self.seq + 1
        if rule == "field" and field is not None:
            return field
        raise KeyError(f"unknown MsgSeqNumber rule {rule!r}")

    def offset_after(self, rule: str, field: int | None = None) -> int:
        """The Offset a table's rule word gives after this position (see :meth:`msg_seq_number`)."""
        if rule == "zero":
            return 0
        if rule == "previous-end":
            return self.offset + self.length
        if rule == "field" and field is not None:
            return field
        raise KeyError(f"unknown Offset rule {rule!r}")

    def advance(self, md, length: int, logical: bool, persistence: int, syncpoint: bool) -> None:
        """Record the message just put or returned as the previous one.

        A call without LOGICAL_ORDER replaces the information with its own values; one with it continues the
        group, and the first message of a group or logical message fixes the Persistence and unit-of-work
        setting the rest must repeat (put.logical-order.restart-in-middle, get.logical-order.uow-consistency).
        What the message's flags leave unterminated is :func:`group_state`.
        """
        if not logical or not self.unterminated:
            self.persistence, self.in_syncpoint = persistence, syncpoint
        self.group_id, self.seq, self.offset, self.length = md.GroupId, md.MsgSeqNumber, md.Offset, length
        flags = self.flags = md.MsgFlags
        self.current_group, self.current_logical_message, self.in_group, self.last_in_group = \
            _GROUP_STATE[flags & KNOWN]
        self.logical_order = logical


def group_state(flags: int) -> tuple[bool, bool, bool, bool]:
    """``current_group``, ``current_logical_message``, ``in_group`` and ``last_in_group`` after a message with
    MsgFlags ``flags``: a group ends with a message that is last in the group and not a non-last segment."""
    read = GroupFlags.of(flags)
    return (read.in_group and not read.ends_group, read.segment and not read.last_segment, read.in_group,
            read.last_in_group)


_GROUP_STATE = every_combination(group_state)


@dataclass(slots=True)
class ObjectHandle:
    """An open queue handle (Hobj) and its per-handle state."""

    hobj: int
    hconn: int
    queue: str
    options: int
    put_position: GroupPosition = field(default_factory=GroupPosition)
    get_position: GroupPosition = field(default_factory=GroupPosition)
    browse_position: GroupPosition = field(default_factory=GroupPosition)
    # The browse cursor: delivery key and physical position of the message last browsed (None: before the first).
    cursor: tuple[tuple[int, int], int] | None = None
    # Where a logical-order browse looks for the next group: the delivery key of the current group's first item.
    anchor: tuple[int, int] | None = None
    browse_logical: bool | None = None  # LOGICAL_ORDER of the call that started the browse; None before one
    # Positions as they were when the handle first worked under the connection's current unit of work.
    uow_snapshot: tuple[GroupPosition, GroupPosition] | None = None
    alias: str = ""  # the alias queue the handle was opened through ("": opened by the queue's own name)
    created_dynamic: bool = False  # this handle's MQOPEN created its (dynamic) queue
    deleted: bool = False  # its queue was deleted while it was open (MQRC_Q_DELETED)
    topic: str | None = None  # the topic string of a handle opened on a topic (reference/publish.py)
    # A handle whose queue resolved to a transmission queue (reference/distributed.py): the remote queue
    # definition it was opened through ("" for none) and where its messages go (RemoteQName, RemoteQMgrName)
    remote: str = ""
    route: tuple[str, str] | None = None


@dataclass(slots=True)
class UnitOfWork:
    """The messages put and got under syncpoint on one connection since its last commit or backout."""

    ident: int
    puts: list = field(default_factory=list)  # (queue name, StoredMessage)
    gets: list = field(default_factory=list)  # (queue name, StoredMessage)
    handles: set[int] = field(default_factory=set)  # handles whose positions were snapshot for backout


@dataclass(slots=True)
class Connection:
    """A connection (Hconn): its handles and its unit of work, if one is in progress."""

    hconn: int
    handles: set[int] = field(default_factory=set)
    uow: UnitOfWork | None = None
    # The identity of the program behind the connection, for default context (reference/context.py); blank: the
    # queue manager's settings
    user: str = ""
    appl_name: str = ""
