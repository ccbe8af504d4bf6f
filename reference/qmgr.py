"""The queue manager: a value holding queues, connections, handles, units of work, a clock and an identifier
generator, with one method per MQI verb.

Each verb finds its connection and handle, then hands over to the module that mirrors the documents' topic
(open, put, get, close, syncpoint, inquire). Every module checks before it changes anything, so a call that
fails leaves the queue manager as it was (mqi.failed-call-no-effect). Nothing is global: two queue managers built with the same
arguments and given the same calls are equal.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from . import alias as alias_module
from . import close as close_module
from . import distributed
from . import get as get_module
from . import inquire as inquire_module
from . import limits
from . import open as open_module
from . import properties as properties_module
from . import publish
from . import put as put_module
from . import set as set_module
from . import subscriptions, syncpoint
from .clock import Clock
from .constants import VALUES
from .handles import Connection, ObjectHandle, UnitOfWork
from .ids import IdGenerator
from .queue import LocalQueue, QueueDefinition
from .result import Result, failure
from .structures import MQGMO, MQMD, MQOD, MQPMO
from .tables import Spec, default_spec
from .topics import PubSub, TopicDefinition

OO_OUTPUT = VALUES["MQOO_OUTPUT"]


@dataclass
class QueueManager:
    """One queue manager of the model. ``spec`` holds the tables it decides by (a mutant passes its own)."""

    name: str = "QM1"
    seed: int = 0
    max_msg_length: int = 4_194_304
    mark_browse_interval: int = 5000  # MsgMarkBrowseInterval in milliseconds; -1 never (browse-mark.coop-mark-lapses)
    # CodedCharSetId: the character set a put with MQCCSI_Q_MGR is stored with (put.coded-char-set-id.q-mgr-replaced)
    coded_char_set_id: int = 1208
    # The environment default context comes from (reference/context.py): the user a put runs as, the program
    context_user: str = "mqconf"
    context_appl_name: str = "mqconf"
    # Variation points, fixed by the documents; only the suite's mutants (adapters/mutants.py) change them:
    segment_boundary: int = 16  # segments are cut on multiples of this (segmentation.sixteen-byte-boundaries)
    group_start_needs_first_item: bool = True  # logical-order get starts only at item 1/0 (get.logical-order.first-item)
    spec: Spec = field(default_factory=default_spec, compare=False, repr=False)
    clock: Clock = field(default_factory=Clock)
    ids: IdGenerator = field(init=False)
    queues: dict[str, LocalQueue] = field(default_factory=dict)
    connections: dict[int, Connection] = field(default_factory=dict)
    handles: dict[int, ObjectHandle] = field(default_factory=dict)
    last_seq: int = 0
    last_hconn: int = 0
    last_hobj: int = 0
    last_uow: int = 0
    last_dynamic: int = 0  # dynamic queue names made from a prefix (reference/dynamic_queues.py)
    message_handles: dict = field(default_factory=dict)  # Hmsg -> MessageHandle (reference/properties.py)
    last_hmsg: int = 0
    selections: dict = field(default_factory=dict)  # Hobj -> its MQOPEN SelectionString (reference/selection.py)
    pubsub: PubSub = field(default_factory=PubSub)  # topics and subscriptions (reference/topics.py)
    # Distributed queuing (reference/distributed.py): DefXmitQName and DeadLetterQName, blank by default
    def_xmitq_name: str = ""
    dead_letter_q_name: str = ""

    def __post_init__(self) -> None:
        self.ids = IdGenerator(self.name, self.seed)

    # -- counters -------------------------------------------------------------------------------------------
    def next_seq(self) -> int:
        """The physical position of the next message to arrive."""
        self.last_seq += 1
        return self.last_seq

    def next_handle(self) -> int:
        """A new object handle number."""
        self.last_hobj += 1
        return self.last_hobj

    def unit_of_work(self, conn: Connection) -> UnitOfWork:
        """The connection's unit of work, started by its first call under syncpoint."""
        if conn.uow is None:
            self.last_uow += 1
            conn.uow = UnitOfWork(self.last_uow)
        return conn.uow

    def enlist(self, uow: UnitOfWork, handle: ObjectHandle) -> None:
        """Remember the handle's group positions as the unit of work found them, for MQBACK to restore."""
        if handle.uow_snapshot is None:
            handle.uow_snapshot = (dataclasses.replace(handle.put_position), dataclasses.replace(handle.get_position))
            uow.handles.add(handle.hobj)

    # -- administration -------------------------------------------------------------------------------------
    def define_queue(self, definition: QueueDefinition) -> Result:
        """Define a local queue (DEFINE QLOCAL); redefining an existing name replaces its attributes."""
        existing = self.queues.get(definition.name)
        if existing is None:
            self.queues[definition.name] = LocalQueue(definition)
        else:
            existing.definition = definition
        return Result(clauses=["admin.define-queue"])

    def define_topic(self, definition: TopicDefinition) -> Result:
        """Define a topic object (DEFINE TOPIC); redefining an existing name replaces it. Clause:
        admin.define-topic."""
        self.pubsub.topics[definition.name] = definition
        return Result(clauses=["admin.define-topic"])

    def alter_qmgr(self, **attributes: int) -> Result:
        """Set queue-manager attributes by their MQ names (MsgMarkBrowseInterval, MaxMsgLength)."""
        names = {"MsgMarkBrowseInterval": "mark_browse_interval", "MaxMsgLength": "max_msg_length",
                 "DefXmitQName": "def_xmitq_name", "DeadLetterQName": "dead_letter_q_name"}
        for name, value in attributes.items():
            setattr(self, names[name], value)
        return Result(clauses=["admin.alter-qmgr"])

    def advance_clock(self, milliseconds: int) -> Result:
        """Let time pass (the model never sleeps)."""
        self.clock.advance(milliseconds)
        return Result()

    # -- MQI verbs ------------------------------------------------------------------------------------------
    def connect(self) -> Result:
        """MQCONN: a new connection handle in ``Result.hconn``."""
        self.last_hconn += 1
        self.connections[self.last_hconn] = Connection(self.last_hconn)
        return Result(hconn=self.last_hconn)

    def disconnect(self, hconn: int) -> Result:
        """MQDISC: close the connection's handles with MQCO_NONE, naming what each close applied
        (conn.disconnect-closes-handles), commit its unit of work (a normal end of program), naming what the commit
        applied, and delete its message handles (properties.handle.deleted-at-disconnect)."""
        conn = self.connections.get(hconn)
        if conn is None:
            return failure("MQRC_HCONN_ERROR", "conn.hconn-error")
        subscriptions.disconnect(self, conn)
        clauses: list[str] = ["conn.disconnect-closes-handles"] if conn.handles else []
        for hobj in sorted(conn.handles):
            closed = self._close_handle(conn, self.handles[hobj], 0)
            clauses += [c for c in closed.clauses if c not in clauses]
        if conn.uow is not None:
            clauses += syncpoint.commit(self, conn).clauses
        clauses += properties_module.disconnect(self, hconn)
        del self.connections[hconn]
        return Result(clauses=clauses + ["conn.disconnect-commits"])

    def _conn(self, hconn: int) -> Connection | Result:
        conn = self.connections.get(hconn)
        return conn if conn is not None else failure("MQRC_HCONN_ERROR", "conn.hconn-error")

    def _handle(self, hconn: int, hobj: int) -> tuple[Connection, ObjectHandle] | Result:
        conn = self.connections.get(hconn)
        if conn is None:
            return failure("MQRC_HCONN_ERROR", "conn.hconn-error")
        handle = self.handles.get(hobj)
        if handle is None or handle.hconn != hconn:
            return failure("MQRC_HOBJ_ERROR", "conn.hobj-error")
        return conn, handle

    def _live_handle(self, hconn: int, hobj: int) -> tuple[Connection, ObjectHandle] | Result:
        """A handle for any call but MQCLOSE: its queue must still exist (close.delete.other-handles-q-deleted)."""
        found = self._handle(hconn, hobj)
        if not isinstance(found, Result) and found[1].deleted:
            return failure("MQRC_Q_DELETED", "close.delete.other-handles-q-deleted")
        return found

    def open(self, hconn: int, od: MQOD, options: int) -> Result:
        """MQOPEN (see reference/open.py); a connection holding MaxHandles handles has none left
        (reference/limits.py, conn.handles.max)."""
        conn = self._conn(hconn)
        if isinstance(conn, Result):
            return conn
        refused = limits.handle_refused(len(conn.handles))
        if refused is not None:
            return refused
        if publish.is_topic(od):
            return publish.open_topic(self, conn, od, options)
        return open_module.open_queue(self, conn, od, options)

    def close(self, hconn: int, hobj: int, options: int = 0) -> Result:
        """MQCLOSE (see reference/close.py); of a subscription handle, reference/subscriptions.py."""
        if subscriptions.is_subscription_handle(self, hobj) and hconn in self.connections:
            return subscriptions.close_sub(self, self.connections[hconn], hobj, options)
        found = self._handle(hconn, hobj)
        if isinstance(found, Result):
            return found
        return self._close_handle(*found, options)

    def _close_handle(self, conn: Connection, handle: ObjectHandle, options: int) -> Result:
        """MQCLOSE of an object handle: a topic's (reference/publish.py) or a queue's (reference/close.py); the
        managed queue of a removed subscription goes with the last handle on it."""
        if handle.topic is not None:
            return publish.close_topic(self, conn, handle, options)
        result = close_module.close_queue(self, conn, handle, options)
        if handle.queue in self.pubsub.orphaned_queues and not result.failed:
            result.clauses += subscriptions.release_managed_queue(self, handle.queue)
        return result

    def put(self, hconn: int, hobj: int, md: MQMD, pmo: MQPMO, data: bytes) -> Result:
        """MQPUT (see reference/put.py); through an alias, the alias's definition counts too (reference/alias.py)."""
        found = self._handle(hconn, hobj)
        if isinstance(found, Result):
            return found
        conn, handle = found
        if handle.deleted:  # _live_handle's check, inline on the MQPUT/MQGET path (one call less per message)
            return failure("MQRC_Q_DELETED", "close.delete.other-handles-q-deleted")
        if not handle.options & OO_OUTPUT:
            return failure("MQRC_NOT_OPEN_FOR_OUTPUT", "put.not-open-for-output")
        if handle.topic is not None:
            return publish.publish(self, conn, handle.topic, md, pmo, data, handle=handle)
        if handle.route is not None:  # a queue that resolved to a transmission queue (reference/distributed.py)
            return distributed.put_remote(self, conn, handle, md, pmo, data)
        return put_module.put(self, conn, handle, self.queues[handle.queue], md, pmo, data,
                              via=alias_module.definition_of(self, handle.alias) if handle.alias else None)

    def put1(self, hconn: int, od: MQOD, md: MQMD, pmo: MQPMO, data: bytes) -> Result:
        """MQPUT1: open for output, put once, close; no group information is kept or checked."""
        conn = self._conn(hconn)
        if isinstance(conn, Result):
            return conn
        refused = put_module.check_options(self, pmo.Options, "MQPUT1")
        if refused is not None:
            return refused
        if publish.is_topic(od):
            resolved = publish.resolve_topic(self, od.ObjectName, od.ObjectString)
            if isinstance(resolved, Result):
                return resolved
            result = publish.publish(self, conn, resolved[0], md, pmo, data, call="MQPUT1")
            result.clauses[:0] = resolved[1]
            return result
        target = self.queues.get(od.ObjectName)
        if target is not None and target.definition.QType == VALUES["MQQT_MODEL"]:
            return failure("MQRC_Q_TYPE_ERROR", "queue.dynamic.put1-model")
        opened = open_module.open_queue(self, conn, od, OO_OUTPUT)
        if opened.failed:
            return opened
        handle = self.handles[opened.hobj]
        if handle.route is not None:
            result = distributed.put_remote(self, conn, handle, md, pmo, data, call="MQPUT1")
            result.clauses[:0] = opened.clauses
        else:
            result = put_module.put(self, conn, None, self.queues[handle.queue], md, pmo, data, call="MQPUT1",
                                    via=alias_module.definition_of(self, handle.alias))
            # a queue-manager alias that brought the name here (reference/distributed.py), an alias queue
            result.clauses[:0] = [c for c in opened.clauses if c.startswith(("distributed.", "queue.alias."))]
        close_module.close_queue(self, conn, handle, 0)
        return result

    def get(self, hconn: int, hobj: int, md: MQMD, gmo: MQGMO, buffer_length: int | None = None, *,
            header=None, exclude=None) -> Result:
        """MQGET (see reference/get.py). ``buffer_length`` None means a buffer large enough for any message;
        ``header`` and ``exclude`` are the hooks of message properties and selection (reference/properties.py,
        reference/selection.py)."""
        found = self._handle(hconn, hobj)
        if isinstance(found, Result):
            return found
        conn, handle = found
        if handle.deleted:  # _live_handle's check, inline (see put)
            return failure("MQRC_Q_DELETED", "close.delete.other-handles-q-deleted")
        selection = self.selections.get(hobj) if self.selections else None
        own = selection is not None and exclude is None
        absent: set[str] = set()  # the names the selector read that a message weighed had no property of
        if own:
            exclude = selection.excluder(absent)
        if handle.topic is not None:
            return failure("MQRC_NOT_OPEN_FOR_INPUT", "topic.get-not-open-for-input")
        result = get_module.get(self, conn, handle, self.queues[handle.queue], md, gmo, buffer_length,
                                via=alias_module.definition_of(self, handle.alias) if handle.alias else None,
                                header=header, exclude=exclude)
        if own and (not result.failed or result.reason == VALUES["MQRC_NO_MSG_AVAILABLE"]):
            result.clauses.extend(selection.clauses(absent))  # the selector chose among the messages
        return result

    def commit(self, hconn: int) -> Result:
        """MQCMIT (see reference/syncpoint.py)."""
        conn = self._conn(hconn)
        return conn if isinstance(conn, Result) else syncpoint.commit(self, conn)

    def backout(self, hconn: int) -> Result:
        """MQBACK (see reference/syncpoint.py)."""
        conn = self._conn(hconn)
        return conn if isinstance(conn, Result) else syncpoint.backout(self, conn)

    def inquire(self, hconn: int, hobj: int, selectors: list[str]) -> Result:
        """MQINQ of attributes, by MQIA_*/MQCA_* name (see reference/inquire.py)."""
        found = self._live_handle(hconn, hobj)
        if isinstance(found, Result):
            return found
        if found[1].topic is not None:
            return failure("MQRC_NOT_OPEN_FOR_INQUIRE", "topic.inquire-not-open-for-inquire")
        return inquire_module.inquire(self, found[1], selectors)

    def set(self, hconn: int, hobj: int, selectors: list[str], int_attrs: list[int]) -> Result:
        """MQSET of integer attributes (see reference/set.py)."""
        found = self._live_handle(hconn, hobj)
        if isinstance(found, Result):
            return found
        if found[1].topic is not None:
            return failure("MQRC_NOT_OPEN_FOR_SET", "topic.set-not-open-for-set")
        return set_module.set_attributes(self, found[1], selectors, int_attrs)

    def sub(self, hconn: int, sd: subscriptions.MQSD, hobj: int | None) -> Result:
        """MQSUB (see reference/subscriptions.py)."""
        conn = self._conn(hconn)
        return conn if isinstance(conn, Result) else subscriptions.sub(self, conn, sd, hobj)

    def subrq(self, hconn: int, hsub: int) -> Result:
        """MQSUBRQ with MQSR_ACTION_PUBLICATION (see reference/subscriptions.py)."""
        conn = self._conn(hconn)
        return conn if isinstance(conn, Result) else subscriptions.subrq(self, conn, hsub)
