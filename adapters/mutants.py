"""Mutants: the reference model with one documented rule broken, selectable as adapters (``mutant:NAME``).

They measure how strong the suite is: a suite that certifies implementations must fail every mutant that is
not equivalent to the model. Two kinds:

- table mutants, made from the data: ``mutant:table:<row id>:<Field>=<value>`` changes one output cell of one
  row of a table in fixtures/tables (the legal values of a cell are those the table's ``outputs`` list), and
  ``mutant:rule-removed:<rule id>`` drops one option rule, and ``mutant:row-moved:<row id>:<position>`` moves a
  row of an ordered table (the cluster workload steps);
- semantic mutants, written by hand: ``mutant:<name>``, each breaking one rule the way an implementation
  plausibly would. Most are the model itself with one part replaced (:data:`SEMANTIC_MODELS`: a subclass of the
  queue manager or of the world, a changed table, or one of the model's named variation points such as
  ``QueueManager.segment_boundary``); a few rewrite the model's outcomes (:data:`SEMANTIC`).

:data:`SEMANTIC_MUTANTS` lists every semantic mutant with the clause it breaks and its area; :data:`EQUIVALENT`
records the mutants shown equivalent to the model, with the argument. ``mqconf strength``
(conformance/strength.py) runs the suite against all of them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from mq_conformance.reference.calls import Call, Outcome
from mq_conformance.reference.cluster import Cluster
from mq_conformance.reference.constants import VALUES
from mq_conformance.reference.handles import GroupPosition
from mq_conformance.reference.qmgr import QueueManager
from mq_conformance.reference.queue import VISIBLE
from mq_conformance.reference.result import Result
from mq_conformance.reference.tables import OptionRules, Spec, Table, default_spec

from .base import AdapterError
from .families import equivalent_notes, family_of_mutant, load_family_mutant
from .reference import ReferenceAdapter

PREFIX = "mutant:"


def table_mutant_names(spec: Spec | None = None) -> Iterator[str]:
    """Every table mutant: each output cell of each row changed to each other legal value, and each option rule
    removed."""
    spec = spec or default_spec()
    for table in spec.tables.values():
        if isinstance(table, OptionRules):
            for rule in table.rows:
                yield f"{PREFIX}rule-removed:{rule.id}"
            continue
        for row in table.rows:
            for field, current in row.then.items():
                for value in _legal_values(table, field):
                    if value != str(current):  # the legal values are text; 127 and "127" are the same cell
                        yield f"{PREFIX}table:{row.id}:{field}={value}"


def _legal_values(table: Table, field: str) -> list[str]:
    vocabulary = table.outputs.get(field)
    if isinstance(vocabulary, dict):
        return [str(v) for v in vocabulary]
    return sorted({str(row.then[field]) for row in table.rows if field in row.then})


def table_mutant(spec_text: str) -> ReferenceAdapter:
    """``table:<row id>:<Field>=<value>`` or ``rule-removed:<rule id>`` applied to the suite's own tables."""
    spec = default_spec()
    kind, _, rest = spec_text.partition(":")
    if kind == "row-moved":
        row_id, _, position = rest.rpartition(":")
        for table in spec.tables.values():
            if isinstance(table, Table) and any(r.id == row_id for r in table.rows):
                rows = [r for r in table.rows if r.id != row_id]
                if not position.isdigit() or int(position) > len(rows):
                    raise AdapterError(f"row position must be 0..{len(rows)}, not {position!r}")
                rows.insert(int(position), table.row(row_id))
                changed = replace(table, rows=tuple(rows), _memo={})
                return _named(ReferenceAdapter(spec=spec.with_table(changed)), f"{PREFIX}{spec_text}")
        raise AdapterError(f"no table row {row_id!r}")
    if kind == "rule-removed":
        for table in spec.tables.values():
            if isinstance(table, OptionRules) and any(r.id == rest for r in table.rows):
                # A fresh memo: the model's remembered answers must not leak into the mutant (nor back).
                changed = replace(table, rows=tuple(r for r in table.rows if r.id != rest), memo={})
                return _named(ReferenceAdapter(spec=spec.with_table(changed)), f"{PREFIX}{spec_text}")
        raise AdapterError(f"no option rule {rest!r} to remove")
    row_id, _, assignment = rest.rpartition(":")
    field, _, value = assignment.partition("=")
    for table in spec.tables.values():
        if isinstance(table, Table) and any(r.id == row_id for r in table.rows):
            row = table.row(row_id)
            if field not in row.then:
                raise AdapterError(f"row {row_id} has no output {field!r}; outputs: {', '.join(row.then)}")
            changed = table.with_row(row_id, **{field: _typed(value, row.then[field])})
            return _named(ReferenceAdapter(spec=spec.with_table(changed)), f"{PREFIX}{spec_text}")
    raise AdapterError(f"no table row {row_id!r}")


def _typed(value: str, like: object) -> object:
    return int(value) if isinstance(like, int) and not isinstance(like, bool) else value


def _named(adapter: ReferenceAdapter, name: str) -> ReferenceAdapter:
    adapter.name = name
    return adapter


class OutcomeMutant(ReferenceAdapter):
    """The model, with each outcome passed through ``rewrite`` (one broken rule)."""

    def __init__(self, name: str, rewrite: Callable[[Call, Outcome], Outcome]):
        super().__init__()
        self.name = name
        self._rewrite = rewrite

    def execute(self, call: Call) -> Outcome:
        return self._rewrite(call, super().execute(call))


def _silence(reason: str) -> Callable[[Call, Outcome], Outcome]:
    """A mutant that reports a warning's call as plain success."""
    def rewrite(call: Call, outcome: Outcome) -> Outcome:
        if outcome.CompCode == "MQCC_WARNING" and outcome.Reason == reason:
            outcome.CompCode, outcome.Reason = "MQCC_OK", "MQRC_NONE"
        return outcome
    return rewrite


def _no_status(call: Call, outcome: Outcome) -> Outcome:
    if outcome.GMO is not None and outcome.GMO.get("GroupStatus") == "MQGS_LAST_MSG_IN_GROUP":
        outcome.GMO["GroupStatus"] = "MQGS_MSG_IN_GROUP"
    return outcome


def _companion_missing(call: Call, outcome: Outcome) -> Outcome:
    if call.op == "get" and outcome.MD and "MQMF_LAST_MSG_IN_GROUP" in outcome.MD.get("MsgFlags", []):
        outcome.MD["MsgFlags"] = [f for f in outcome.MD["MsgFlags"] if f != "MQMF_MSG_IN_GROUP"]
    return outcome


def _no_backout_count(call: Call, outcome: Outcome) -> Outcome:
    if call.op == "get" and outcome.MD:
        outcome.MD["BackoutCount"] = 0
    return outcome


SEMANTIC: dict[str, tuple[str, Callable[[Call, Outcome], Outcome]]] = {
    "incomplete-group-warning-dropped": ("put.close-outcome.table2.row3", _silence("MQRC_INCOMPLETE_GROUP")),
    "truncation-warning-dropped": ("get.truncated.accepted", _silence("MQRC_TRUNCATED_MSG_ACCEPTED")),
    "last-in-group-status-wrong": ("get.status.group-and-segment", _no_status),
    "stored-copy-lacks-msg-in-group": ("msgflags.last-msg-in-group-implies-msg-in-group", _companion_missing),
    "backout-count-not-kept": ("uow.backout.gets-restored", _no_backout_count),
}


class CoopMarksNeverLapse(ReferenceAdapter):
    """browse-mark.coop-mark-lapses broken: MsgMarkBrowseInterval is treated as unlimited."""

    def reset(self) -> None:
        super().reset()
        self.qm.mark_browse_interval = -1


# -- model-level mutants: the queue manager or the world with one part replaced ------------------------------
GMO = {name: VALUES[name] for name in VALUES if name.startswith("MQGMO_")}
MF_SEGMENT, MF_LAST_SEGMENT = VALUES["MQMF_SEGMENT"], VALUES["MQMF_LAST_SEGMENT"]
MF_MSG_IN_GROUP, MF_LAST_MSG_IN_GROUP = VALUES["MQMF_MSG_IN_GROUP"], VALUES["MQMF_LAST_MSG_IN_GROUP"]
BROWSE = GMO["MQGMO_BROWSE_FIRST"] | GMO["MQGMO_BROWSE_NEXT"] | GMO["MQGMO_BROWSE_MSG_UNDER_CURSOR"]


def _model(qmgr: type[QueueManager] | None = None, world: type[Cluster] | None = None,
           spec: Spec | None = None) -> Callable[[], ReferenceAdapter]:
    """A mutant adapter factory: the model whose queue managers are ``qmgr``, whose world is ``world``, or whose
    tables are ``spec``."""
    world_type = world or Cluster
    if qmgr is not None:
        class World(world_type):  # type: ignore[valid-type, misc]
            def _new_qmgr(self, name: str) -> QueueManager:
                return qmgr(name=name, seed=self.seed, spec=self.spec, clock=self.clock)
        world_type = World

    def build() -> ReferenceAdapter:
        adapter = ReferenceAdapter(spec=spec)
        adapter.world_type = world_type
        adapter.reset()
        return adapter
    return build


class _Qm(QueueManager):
    """Helpers for queue-manager mutants (no behaviour of its own)."""

    def _queue_of(self, hobj: int):
        handle = self.handles.get(hobj)
        return self.queues.get(handle.queue) if handle is not None else None  # None once a dynamic queue is deleted

    def _new_messages(self, hobj: int, before: int):
        queue = self._queue_of(hobj)
        return [m for m in queue.messages.values() if m.seq > before] if queue is not None else []


# uow
class MqbackKeepsGroupPosition(_Qm):
    """MQBACK leaves the handle's group and segment position where the unit of work moved it."""

    def enlist(self, uow, handle) -> None:
        pass


class MqbackCommitsPuts(_Qm):
    """MQBACK makes the unit of work's puts visible instead of removing them."""

    def backout(self, hconn: int) -> Result:
        conn = self.connections.get(hconn)
        if conn is not None and conn.uow is not None:
            for _name, message in conn.uow.puts:
                message.state, message.uow = VISIBLE, None
            conn.uow.puts.clear()
        return super().backout(hconn)


class MqbackDiscardsGets(_Qm):
    """MQBACK removes the messages got in the unit of work instead of restoring them."""

    def backout(self, hconn: int) -> Result:
        conn = self.connections.get(hconn)
        if conn is not None and conn.uow is not None:
            for name, message in conn.uow.gets:
                self.queues[name].remove(message)
            conn.uow.gets.clear()
        return super().backout(hconn)


class BackoutCountNotIncremented(_Qm):
    """MQBACK restores got messages without adding one to their BackoutCount (model-level)."""

    def backout(self, hconn: int) -> Result:
        conn = self.connections.get(hconn)
        got = [m for _n, m in conn.uow.gets] if conn is not None and conn.uow is not None else []
        result = super().backout(hconn)
        for message in got:
            message.md.BackoutCount -= 1
        return result


class DisconnectBacksOut(_Qm):
    """MQDISC backs the unit of work out instead of committing it."""

    def disconnect(self, hconn: int) -> Result:
        if hconn in self.connections:
            self.backout(hconn)
        return super().disconnect(hconn)


class SyncpointPutVisible(_Qm):
    """A put under syncpoint is visible to other connections before MQCMIT (backout still removes it)."""

    def put(self, hconn, hobj, md, pmo, data) -> Result:
        result = super().put(hconn, hobj, md, pmo, data)
        conn = self.connections.get(hconn)
        if conn is not None and conn.uow is not None:
            for _name, message in conn.uow.puts:
                message.state = VISIBLE
        return result


class SyncpointGetRemoves(_Qm):
    """A get under syncpoint removes the message at once: MQBACK has nothing to restore."""

    def get(self, hconn, hobj, md, gmo, buffer_length=None) -> Result:
        result = super().get(hconn, hobj, md, gmo, buffer_length)
        conn = self.connections.get(hconn)
        if conn is not None and conn.uow is not None:
            for name, message in conn.uow.gets:
                if message.seq in self.queues[name].messages:
                    self.queues[name].remove(message)
            conn.uow.gets.clear()
        return result


# browse-mark
class MarkIntervalIgnored(_Qm):
    """ALTER QMGR MARKINT is ignored: co-operative marks always lapse after the default 5000 ms."""

    def alter_qmgr(self, **attributes: int) -> Result:
        attributes.pop("MsgMarkBrowseInterval", None)
        return super().alter_qmgr(**attributes)


class MarkLapsesOneMsEarly(_Qm):
    """A co-operative mark lapses when MsgMarkBrowseInterval has passed, not after it (< instead of <=)."""

    def alter_qmgr(self, **attributes: int) -> Result:
        if attributes.get("MsgMarkBrowseInterval", -1) > 0:
            attributes["MsgMarkBrowseInterval"] -= 1
        return super().alter_qmgr(**attributes)


class CloseKeepsCoopMarks(_Qm):
    """Closing the last co-operating handle leaves the co-operative marks in place."""

    def close(self, hconn: int, hobj: int, options: int = 0) -> Result:
        queue = self._queue_of(hobj)
        kept = {m.seq: m.coop_marked_at for m in queue.messages.values()} if queue is not None else {}
        result = super().close(hconn, hobj, options)
        for message in queue.messages.values() if queue is not None else ():
            if kept.get(message.seq) is not None:
                message.coop_marked_at = kept[message.seq]
        return result


class DestructiveGetKeepsMarks(_Qm):
    """A destructive get leaves the message's marks, so a message backed out is still marked."""

    def get(self, hconn, hobj, md, gmo, buffer_length=None) -> Result:
        queue = self._queue_of(hobj)
        kept = {m.seq: (set(m.handle_marks or ()), m.coop_marked_at) for m in queue.messages.values()} \
            if queue is not None else {}
        result = super().get(hconn, hobj, md, gmo, buffer_length)
        for message in queue.messages.values() if queue is not None else ():
            if message.seq in kept:
                marks, coop = kept[message.seq]
                message.handle_marks, message.coop_marked_at = (marks or None), coop
        return result


# get
class _GetOptionIgnored(_Qm):
    """MQGET that ignores one option (the echoed MQGMO still shows it)."""

    option = 0
    match = 0

    def get(self, hconn, hobj, md, gmo, buffer_length=None) -> Result:
        changed = replace(gmo, Options=gmo.Options & ~self.option, MatchOptions=gmo.MatchOptions & ~self.match)
        result = super().get(hconn, hobj, md, changed, buffer_length)
        if result.gmo is not None:
            result.gmo.Options, result.gmo.MatchOptions = gmo.Options, gmo.MatchOptions
        return result


class MatchMsgIdIgnored(_GetOptionIgnored):
    match = VALUES["MQMO_MATCH_MSG_ID"]


class MatchCorrelIdIgnored(_GetOptionIgnored):
    match = VALUES["MQMO_MATCH_CORREL_ID"]


class AllMsgsAvailableIgnored(_GetOptionIgnored):
    option = GMO["MQGMO_ALL_MSGS_AVAILABLE"]


class CompleteMsgIgnored(_GetOptionIgnored):
    option = GMO["MQGMO_COMPLETE_MSG"]


class WaitDoesNotAdvanceClock(_Qm):
    """An MQGET with MQGMO_WAIT that finds nothing returns at once: the wait interval does not pass."""

    def get(self, hconn, hobj, md, gmo, buffer_length=None) -> Result:
        before = self.clock.now_ms
        result = super().get(hconn, hobj, md, gmo, buffer_length)
        if gmo.Options & GMO["MQGMO_WAIT"]:
            self.clock.now_ms = before
        return result


class GetInhibitNotForBrowse(_Qm):
    """InhibitGet refuses destructive gets only: a browse of a get-inhibited queue succeeds."""

    def get(self, hconn, hobj, md, gmo, buffer_length=None) -> Result:
        queue = self._queue_of(hobj)
        if queue is None or not queue.definition.InhibitGet or not gmo.Options & BROWSE:
            return super().get(hconn, hobj, md, gmo, buffer_length)
        queue.definition.InhibitGet = False
        try:
            return super().get(hconn, hobj, md, gmo, buffer_length)
        finally:
            queue.definition.InhibitGet = True


class TruncatedFailedRemoves(_Qm):
    """A destructive get whose message does not fit removes it even without MQGMO_ACCEPT_TRUNCATED_MSG."""

    def get(self, hconn, hobj, md, gmo, buffer_length=None) -> Result:
        accept = GMO["MQGMO_ACCEPT_TRUNCATED_MSG"]
        if gmo.Options & (accept | BROWSE) or buffer_length is None:
            return super().get(hconn, hobj, md, gmo, buffer_length)
        result = super().get(hconn, hobj, md, replace(gmo, Options=gmo.Options | accept), buffer_length)
        if result.reason == VALUES["MQRC_TRUNCATED_MSG_ACCEPTED"]:
            result.reason = VALUES["MQRC_TRUNCATED_MSG_FAILED"]
        if result.gmo is not None:
            result.gmo.Options = gmo.Options
        return result


class LogicalOrderEntersMidGroup(_Qm):
    """A logical-order get with no current group starts at any item, entering a group whose first is missing."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.group_start_needs_first_item = False


class _QueueDefinitionChanged(_Qm):
    """Every queue is defined with one attribute changed."""

    def changed(self, definition):
        return definition

    def define_queue(self, definition) -> Result:
        return super().define_queue(self.changed(replace(definition)))


class PriorityIgnored(_QueueDefinitionChanged):
    """Every queue delivers in physical order alone (as if MsgDeliverySequence were FIFO)."""

    def changed(self, definition):
        definition.MsgDeliverySequence = 1
        return definition


class FifoDeliversByPriority(_QueueDefinitionChanged):
    """A FIFO queue still delivers the highest priority first."""

    def changed(self, definition):
        definition.MsgDeliverySequence = 0
        return definition


class QueueFullOneLate(_QueueDefinitionChanged):
    """MQRC_Q_FULL only once the depth exceeds MaxQDepth by one."""

    def changed(self, definition):
        definition.MaxQDepth += 1
        return definition


class InputAsQDefAlwaysShared(_QueueDefinitionChanged):
    """MQOO_INPUT_AS_Q_DEF always opens shared, whatever DefInputOpenOption says."""

    def changed(self, definition):
        definition.DefInputOpenOption = VALUES["MQOO_INPUT_SHARED"]
        return definition


# put, segmentation, msgflags
class _PutChanged(_Qm):
    def put(self, hconn, hobj, md, pmo, data) -> Result:
        queue = self._queue_of(hobj)
        before = self.last_seq
        result = self.put_changed(hconn, hobj, md, pmo, data, queue)
        if not result.failed and queue is not None:
            self.after_put(queue, [m for m in queue.messages.values() if m.seq > before])
        return result

    def put_changed(self, hconn, hobj, md, pmo, data, queue) -> Result:
        return super().put(hconn, hobj, md, pmo, data)

    def after_put(self, queue, messages) -> None:
        pass


class PriorityAsQDefIgnored(_PutChanged):
    """MQPRI_PRIORITY_AS_Q_DEF gives priority 0, not the queue's DefPriority."""

    def put_changed(self, hconn, hobj, md, pmo, data, queue) -> Result:
        if md.Priority == VALUES["MQPRI_PRIORITY_AS_Q_DEF"]:
            md = md.copy()
            md.Priority = 0
        return super().put_changed(hconn, hobj, md, pmo, data, queue)


class PersistenceAsQDefIgnored(_PutChanged):
    """MQPER_PERSISTENCE_AS_Q_DEF gives a non-persistent message, whatever DefPersistence says."""

    def put_changed(self, hconn, hobj, md, pmo, data, queue) -> Result:
        if md.Persistence == VALUES["MQPER_PERSISTENCE_AS_Q_DEF"]:
            md = md.copy()
            md.Persistence = VALUES["MQPER_NOT_PERSISTENT"]
        return super().put_changed(hconn, hobj, md, pmo, data, queue)


class ExpiryNeverApplies(_Qm):
    """Messages put with an Expiry never expire (expiry.discarded-at-get broken)."""

    def put(self, hconn, hobj, md, pmo, data) -> Result:
        before = self.last_seq
        result = super().put(hconn, hobj, md, pmo, data)
        if result.failed:
            return result
        queue = self._queue_of(hobj)
        for message in self._new_messages(hobj, before):
            message.expires_at = None
            queue.expiring.pop(message.seq, None)
        return result


class TemporaryQueueOutlivesClose(_Qm):
    """Closing the handle that created a temporary dynamic queue leaves the queue in place
    (queue.dynamic.temporary-deleted-at-close broken)."""

    def close(self, hconn, hobj, options=0) -> Result:
        handle = self.handles.get(hobj)
        if handle is not None and not options:
            handle.created_dynamic = False
        return super().close(hconn, hobj, options)


class AliasDefaultsFromTarget(_Qm):
    """A put through an alias takes DefPriority and DefPersistence from the target queue, not the alias
    (queue.alias.def-priority broken)."""

    def put(self, hconn, hobj, md, pmo, data) -> Result:
        handle = self.handles.get(hobj)
        if handle is None or not handle.alias:
            return super().put(hconn, hobj, md, pmo, data)
        alias, handle.alias = handle.alias, ""
        try:
            return super().put(hconn, hobj, md, pmo, data)
        finally:
            handle.alias = alias


class PutInhibitIgnored(_PutChanged):
    """MQPUT succeeds on a put-inhibited queue."""

    def put_changed(self, hconn, hobj, md, pmo, data, queue) -> Result:
        if queue is None or not queue.definition.InhibitPut:
            return super().put_changed(hconn, hobj, md, pmo, data, queue)
        queue.definition.InhibitPut = False
        try:
            return super().put_changed(hconn, hobj, md, pmo, data, queue)
        finally:
            queue.definition.InhibitPut = True


class _PutOptionIgnored(_PutChanged):
    """A put option the put does not act on (``ignored``), though the PMO returned still shows it."""

    ignored = ""

    def put_changed(self, hconn, hobj, md, pmo, data, queue) -> Result:
        changed = replace(pmo, Options=pmo.Options & ~VALUES[self.ignored])
        result = super().put_changed(hconn, hobj, md, changed, data, queue)
        if result.pmo is not None:
            result.pmo.Options = pmo.Options
        return result


class NewMsgIdIgnored(_PutOptionIgnored):
    """MQPMO_NEW_MSG_ID is ignored: the MsgId field is used when it is not MQMI_NONE."""

    ignored = "MQPMO_NEW_MSG_ID"


class NewCorrelIdIgnored(_PutOptionIgnored):
    """MQPMO_NEW_CORREL_ID is ignored: the CorrelId field is used as given."""

    ignored = "MQPMO_NEW_CORREL_ID"


class SegmentsGetOwnMsgId(_PutChanged):
    """Segments made by the queue manager each get a new MsgId instead of sharing the message's."""

    def after_put(self, queue, messages) -> None:
        for message in messages[1:] if len(messages) > 1 else ():
            queue.remove(message)
            message.md.MsgId = self.ids.new_id()
            queue.add(message)


class LastSegmentFlagMissing(_PutChanged):
    """The last segment the queue manager makes lacks MQMF_LAST_SEGMENT."""

    def after_put(self, queue, messages) -> None:
        if len(messages) > 1:
            messages[-1].md.MsgFlags &= ~MF_LAST_SEGMENT


class StoredLastInGroupLacksMsgInGroup(_PutChanged):
    """The stored copy of a message put with MQMF_LAST_MSG_IN_GROUP alone lacks MQMF_MSG_IN_GROUP."""

    def put_changed(self, hconn, hobj, md, pmo, data, queue) -> Result:
        self._alone = md.Version >= 2 and md.MsgFlags & MF_LAST_MSG_IN_GROUP and not md.MsgFlags & MF_MSG_IN_GROUP
        return super().put_changed(hconn, hobj, md, pmo, data, queue)

    def after_put(self, queue, messages) -> None:
        for message in messages if self._alone else ():
            message.md.MsgFlags &= ~MF_MSG_IN_GROUP


class StoredLastSegmentLacksSegment(_PutChanged):
    """The stored copy of a message put with MQMF_LAST_SEGMENT alone lacks MQMF_SEGMENT."""

    def put_changed(self, hconn, hobj, md, pmo, data, queue) -> Result:
        self._alone = md.Version >= 2 and md.MsgFlags & MF_LAST_SEGMENT and not md.MsgFlags & MF_SEGMENT
        return super().put_changed(hconn, hobj, md, pmo, data, queue)

    def after_put(self, queue, messages) -> None:
        for message in messages if self._alone else ():
            message.md.MsgFlags &= ~MF_SEGMENT


class EightByteSegments(_Qm):
    """The queue manager cuts segments on 8-byte boundaries instead of 16."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.segment_boundary = 8


class CloseForgetsIncompleteGroup(_Qm):
    """MQCLOSE of a handle in the middle of a group says nothing (the retained group information is dropped)."""

    def close(self, hconn: int, hobj: int, options: int = 0) -> Result:
        handle = self.handles.get(hobj)
        if handle is not None:
            handle.put_position = GroupPosition()
        return super().close(hconn, hobj, options)


class ExclusiveInputNotEnforced(_Qm):
    """An exclusive open for input does not keep other input opens out."""

    def open(self, hconn, od, options) -> Result:
        result = super().open(hconn, od, options)
        queue = self.queues.get(od.ObjectName)
        if queue is not None:
            queue.exclusive_input = False
        return result


# cluster
class _Redrive(Cluster):
    """A world whose channel changes first make some waiting messages eligible for reallocation."""

    freed = ""

    def set_channel(self, name: str, state: str) -> Result:
        for member in self.members.values():
            for header in member.transmissions.values():
                if header.bound == self.freed:
                    header.bound = ""
        return super().set_channel(name, state)


class ReallocatesBindOnOpen(_Redrive):
    freed = "cluster.reallocation.not-bound-on-open"


class ReallocatesBindOnGroup(_Redrive):
    freed = "cluster.reallocation.not-bound-on-group"


class ReallocatesExplicitQmgr(_Redrive):
    freed = "cluster.reallocation.not-explicit-qmgr"


class ReallocatesInDoubt(Cluster):
    """A failing channel re-drives messages left in doubt."""

    def set_channel(self, name: str, state: str) -> Result:
        for member in self.members.values():
            for header in member.transmissions.values():
                header.indoubt = False
        return super().set_channel(name, state)


class ReallocatesOnceStopped(Cluster):
    """A channel that has stopped re-drives its messages as one that is stopping does."""

    def set_channel(self, name: str, state: str) -> Result:
        if state != "MQCHS_STOPPED":
            return super().set_channel(name, state)
        result = super().set_channel(name, "MQCHS_STOPPING")
        self.channels[name].state = state
        return result


# distributed queuing
class DeadLetterQueueIgnored(Cluster):
    """The receiving queue manager's DeadLetterQName is ignored: what a channel cannot put stops the channel or is
    discarded as if there were no dead-letter queue."""

    def transmit(self, name: str, count: int | None) -> Result:
        saved = {qm.name: qm.dead_letter_q_name for qm in self.qmgrs.values()}
        for qm in self.qmgrs.values():
            qm.dead_letter_q_name = ""
        try:
            return super().transmit(name, count)
        finally:
            for qm in self.qmgrs.values():
                qm.dead_letter_q_name = saved[qm.name]


class WeightIgnored(Cluster):
    """CLWLWGHT is ignored: every choice counts as if the weight were the default 50."""

    def record_choice(self, sender, destination) -> None:
        self.members[sender].record_choice(destination, 50)


class SuspendIgnored(Cluster):
    """SUSPEND QMGR does not make the workload algorithm avoid the queue manager."""

    def suspend_qmgr(self, qmgr: str, suspended: bool = True) -> Result:
        return super().suspend_qmgr(qmgr, False)


def _workload(change: Callable[[Table], Table]) -> Callable[[], Spec]:
    def spec() -> Spec:
        base = default_spec()
        return base.with_table(change(base["cluster.workload"]))
    return spec


def _move(row_id: str, after: str) -> Callable[[Table], Table]:
    """The workload table with ``row_id`` moved to just after ``after``."""
    def change(table: Table) -> Table:
        rows = [r for r in table.rows if r.id != row_id]
        index = next(i for i, r in enumerate(rows) if r.id == after) + 1
        rows.insert(index, table.row(row_id))
        return replace(table, rows=tuple(rows), _memo={})
    return change


def _drop(row_id: str) -> Callable[[Table], Table]:
    return lambda table: replace(table, rows=tuple(r for r in table.rows if r.id != row_id), _memo={})


def _tiers(text: str) -> Callable[[Table], Table]:
    return lambda table: table.with_row("cluster.workload.channel-state", tiers=text)


def _spec_model(spec: Callable[[], Spec]) -> Callable[[], ReferenceAdapter]:
    return lambda: ReferenceAdapter(spec=spec())


@dataclass(frozen=True)
class SemanticMutant:
    """A hand-written mutant: the clause it breaks, its area (the clause's first part), how to build it."""

    clause: str
    build: Callable[[], ReferenceAdapter]
    what: str

    @property
    def area(self) -> str:
        return self.clause.split(".")[0]


def _m(clause: str, build: Callable[[], ReferenceAdapter], what: str = "") -> SemanticMutant:
    return SemanticMutant(clause, build, what or (build.__doc__ or "").strip())


def _q(clause: str, qmgr: type[QueueManager]) -> SemanticMutant:
    return SemanticMutant(clause, _model(qmgr=qmgr), (qmgr.__doc__ or "").strip())


def _w(clause: str, world: type[Cluster]) -> SemanticMutant:
    return SemanticMutant(clause, _model(world=world), (world.__doc__ or "").strip())


# Mutants that change the model's state or tables rather than its outcomes.
SEMANTIC_MODELS: dict[str, SemanticMutant] = {
    "co-op-marks-never-lapse": _m("browse-mark.coop-mark-lapses", CoopMarksNeverLapse,
                                  "MsgMarkBrowseInterval is treated as unlimited"),
    "mark-interval-ignored": _q("browse-mark.coop-mark-lapses", MarkIntervalIgnored),
    "mark-lapses-one-ms-early": _q("browse-mark.coop-mark-lapses", MarkLapsesOneMsEarly),
    "close-keeps-co-op-marks": _q("browse-mark.close-unmarks", CloseKeepsCoopMarks),
    "destructive-get-keeps-marks": _q("browse-mark.destructive-get-unmarks", DestructiveGetKeepsMarks),
    "mqback-keeps-group-position": _q("uow.backout.restores-group-position", MqbackKeepsGroupPosition),
    "mqback-commits-puts": _q("uow.backout.puts-removed", MqbackCommitsPuts),
    "mqback-discards-gets": _q("uow.backout.gets-restored", MqbackDiscardsGets),
    "backout-count-not-incremented": _q("uow.backout.gets-restored", BackoutCountNotIncremented),
    "disconnect-backs-out": _q("conn.disconnect-commits", DisconnectBacksOut),
    "syncpoint-put-visible-before-commit": _q("put.syncpoint.invisible-until-commit", SyncpointPutVisible),
    "syncpoint-get-removes-at-once": _q("get.syncpoint.pending-until-commit", SyncpointGetRemoves),
    "logical-order-enters-group-midway": _q("get.logical-order.first-item", LogicalOrderEntersMidGroup),
    "match-msg-id-ignored": _q("get.match.msg-id", MatchMsgIdIgnored),
    "match-correl-id-ignored": _q("get.match.correl-id", MatchCorrelIdIgnored),
    "all-msgs-available-ignored": _q("get.all-msgs-available.complete", AllMsgsAvailableIgnored),
    "complete-msg-ignored": _q("get.complete-msg.reassembled", CompleteMsgIgnored),
    "wait-does-not-advance-clock": _q("get.wait.expires", WaitDoesNotAdvanceClock),
    "get-inhibited-not-for-browse": _q("get.get-inhibited", GetInhibitNotForBrowse),
    "truncated-failed-removes": _q("get.truncated.failed", TruncatedFailedRemoves),
    "priority-ignored": _q("get.order.priority-then-physical", PriorityIgnored),
    "fifo-delivers-by-priority": _q("get.order.fifo", FifoDeliversByPriority),
    "queue-full-one-late": _q("put.q-full", QueueFullOneLate),
    "input-as-q-def-always-shared": _q("open.input-as-q-def", InputAsQDefAlwaysShared),
    "exclusive-input-not-enforced": _q("open.input-exclusive-in-use", ExclusiveInputNotEnforced),
    "priority-as-q-def-ignored": _q("put.priority.as-q-def", PriorityAsQDefIgnored),
    "persistence-as-q-def-ignored": _q("put.persistence.as-q-def", PersistenceAsQDefIgnored),
    "put-inhibit-ignored": _q("put.put-inhibited", PutInhibitIgnored),
    "expiry-never-applies": _q("expiry.discarded-at-get", ExpiryNeverApplies),
    "temporary-queue-outlives-close": _q("queue.dynamic.temporary-deleted-at-close", TemporaryQueueOutlivesClose),
    "alias-defaults-from-target": _q("queue.alias.def-priority", AliasDefaultsFromTarget),
    "new-msg-id-ignored": _q("put.msgid.generated", NewMsgIdIgnored),
    "new-correl-id-ignored": _q("put.correlid.generated", NewCorrelIdIgnored),
    "close-forgets-incomplete-group": _q("put.close-outcome.table2.row5", CloseForgetsIncompleteGroup),
    "segmentation-on-8-byte-boundaries": _q("segmentation.sixteen-byte-boundaries", EightByteSegments),
    "segments-get-own-msg-id": _q("segmentation.msgid-shared", SegmentsGetOwnMsgId),
    "last-segment-flag-missing": _q("segmentation.flags-on-stored-copies", LastSegmentFlagMissing),
    "stored-last-in-group-lacks-msg-in-group": _q("msgflags.last-msg-in-group-implies-msg-in-group",
                                                  StoredLastInGroupLacksMsgInGroup),
    "stored-last-segment-lacks-segment": _q("msgflags.last-segment-implies-segment", StoredLastSegmentLacksSegment),
    "clwlrank-after-channel-state": _m("cluster.workload.channel-rank", _spec_model(
        _workload(_move("cluster.workload.channel-rank", "cluster.workload.channel-state"))),
        "channel CLWLRANK is evaluated after channel state"),
    "queue-priority-before-channel-priority": _m("cluster.workload.queue-priority", _spec_model(
        _workload(_move("cluster.workload.channel-priority", "cluster.workload.queue-priority"))),
        "queue CLWLPRTY is evaluated before channel CLWLPRTY"),
    "put-disabled-checked-after-suspension": _m("cluster.workload.put-disabled", _spec_model(
        _workload(_move("cluster.workload.put-disabled", "cluster.workload.suspended"))),
        "PUT(DISABLED) instances are dropped only after suspended queue managers"),
    "mruc-ignored": _m("cluster.workload.most-recently-used", _spec_model(
        _workload(_drop("cluster.workload.most-recently-used"))), "CLWLMRUC is ignored"),
    "retrying-as-good-as-running": _m("cluster.workload.channel-state", _spec_model(_workload(_tiers(
        "MQCHS_RUNNING MQCHS_INACTIVE MQCHS_RETRYING | MQCHS_STOPPING MQCHS_BINDING MQCHS_INITIALIZING "
        "MQCHS_STARTING | MQCHS_STOPPED MQCHS_REQUESTING MQCHS_PAUSED MQCHS_SWITCHING"))),
        "a retrying channel is as favoured as a running one"),
    "reallocation-moves-bind-on-open": _w("cluster.reallocation.not-bound-on-open", ReallocatesBindOnOpen),
    "reallocation-moves-bind-on-group": _w("cluster.reallocation.not-bound-on-group", ReallocatesBindOnGroup),
    "reallocation-moves-explicit-qmgr": _w("cluster.reallocation.not-explicit-qmgr", ReallocatesExplicitQmgr),
    "reallocation-reroutes-in-doubt": _w("cluster.reallocation.not-in-doubt", ReallocatesInDoubt),
    "reallocation-once-stopped": _w("cluster.reallocation.not-once-stopped", ReallocatesOnceStopped),
    "dead-letter-queue-ignored": _w("distributed.dlq.put", DeadLetterQueueIgnored),
    "clwlwght-ignored": _w("cluster.workload.weight", WeightIgnored),
    "suspend-ignored": _w("cluster.workload.suspended", SuspendIgnored),
}
for _name, (_clause, _rewrite) in SEMANTIC.items():
    assert _name not in SEMANTIC_MODELS

# Every semantic mutant, outcome-rewriting or model-level.
SEMANTIC_MUTANTS: dict[str, SemanticMutant] = {
    **{name: SemanticMutant(clause, (lambda n=name, r=rewrite: OutcomeMutant(PREFIX + n, r)),
                            f"outcomes rewritten: {rewrite.__name__.strip('_')}")
       for name, (clause, rewrite) in SEMANTIC.items()},
    **SEMANTIC_MODELS,
}

# Mutants shown equivalent to the model: no implementation could be told apart from it, so a survivor here is
# not a gap of the suite. Each entry is the argument.
EQUIVALENT: dict[str, str] = {
    "table:get.logical-order.table4.row1:MsgSeqNumber=previous": (
        "row1 follows a previous message that was neither in a group nor a segment (or no previous message: a "
        "fresh position has MsgSeqNumber 1). Every row of put.logical-order.table1 for a put outside a group "
        "(in_group no) stores MsgSeqNumber 'one', and nothing else changes a stored MsgSeqNumber, so such a "
        "message always has MsgSeqNumber 1 and 'previous' equals 'one'"),
    "table:get.logical-order.table4.row2:MsgSeqNumber=previous": (
        "row2 follows a segment of a logical message not in a group; put.logical-order.table1 stores "
        "MsgSeqNumber 'one' for every put outside a group, so the previous MsgSeqNumber is 1 and 'previous' "
        "equals 'one'"),
    "table:get.logical-order.table4.row3:MsgSeqNumber=previous": (
        "row3 follows the last segment of a logical message not in a group, whose MsgSeqNumber is 1 by every "
        "in_group-no row of put.logical-order.table1, so 'previous' equals 'one'"),
    "table:put.logical-order.table1.row4:MsgSeqNumber=previous": (
        "row4 applies only with a current logical message and no current group, i.e. the previous put on the "
        "handle was a non-last segment outside a group; rows 3, 4 and 10 of the same table (the only ones that "
        "leave such a state) store MsgSeqNumber 'one', so 'previous' equals 'one'"),
    "rule-removed:open.options.access-required": (
        "the rule's at-least-one list holds MQOO_BIND_AS_Q_DEF, whose value is 0; a zero-valued option cannot "
        "be told from its absence and counts as given (reference/options.py _given), so the rule can never "
        "fail and removing it changes no MQOPEN (the clause's decision records this)"),
    # close.delete rows that refuse the close: a failed MQCLOSE changes nothing (mqi.failed-call-no-effect), so
    # the model returns before it reads the row's `delete`, and what the row says there cannot be observed.
    **{f"table:close.delete.{row}:delete=deleted": (
        f"close.delete.{row} refuses the close ({reason}); a failed call has no effect "
        "(mqi.failed-call-no-effect), so the queue stays whatever the row's delete column says, and the model "
        "reads that column only for a close that succeeds - scenarios close-delete-* show the queue kept")
       for row, reason in (("predefined", "MQRC_OPTION_NOT_VALID_FOR_TYPE"),
                           ("temporary-not-creator", "MQRC_OPTION_NOT_VALID_FOR_TYPE"),
                           ("uncommitted", "MQRC_Q_NOT_EMPTY"), ("not-empty", "MQRC_Q_NOT_EMPTY"))},
    # set.selectors rows whose mutated value list names other constants with the same numbers (0 and 1): the
    # lists allow exactly the same values, so MQSET answers alike.
    **{f"table:set.selectors.{row}:values={names}": (
        f"{names} are 0 and 1, the same numbers as the row's own values (IBM's header: MQQA_GET_ALLOWED = "
        "MQQA_PUT_ALLOWED = MQTC_OFF = 0, MQQA_GET_INHIBITED = MQQA_PUT_INHIBITED = MQTC_ON = 1), so the mutant "
        "allows exactly the values the model allows")
       for row, names in (("inhibit-get", "MQQA_PUT_ALLOWED MQQA_PUT_INHIBITED"), ("inhibit-get", "MQTC_OFF MQTC_ON"),
                          ("inhibit-put", "MQQA_GET_ALLOWED MQQA_GET_INHIBITED"), ("inhibit-put", "MQTC_OFF MQTC_ON"),
                          ("trigger-control", "MQQA_GET_ALLOWED MQQA_GET_INHIBITED"),
                          ("trigger-control", "MQQA_PUT_ALLOWED MQQA_PUT_INHIBITED"))},
    # Semantic mutants that change only what the documents leave open: no conforming test may kill them.
    "mark-lapses-one-ms-early": (
        "differs only when a co-operative mark is exactly MsgMarkBrowseInterval old; IBM calls the interval "
        "approximate (browse-mark.coop-mark-lapses decision), so an implementation may unmark at either "
        "instant and the scenarios deliberately step well past the interval"),
    "segments-get-own-msg-id": (
        "the documents do not say whether the segments a queue manager makes share one MsgId "
        "(segmentation.msgid-shared is a decision, and scenarios do not depend on it): both behaviours conform"),
}


EQUIVALENT.update(equivalent_notes())

# Topic attributes (fixtures/tables/topic-attributes.yaml): a cell changed to another name of the same value, or a
# SYSTEM.BASE.TOPIC value changed to one that the model treats exactly as the documented one.
_SAME_VALUE = ("{new} has the value the row already holds ({value} in cmqc.h), so the row, and every resolution by "
               "it, is unchanged")
_ALLOWS_ALIKE = ("the model compares the resolved {attribute} with {inhibited} only (MQINQ of a topic's attributes "
                 "is not modelled), and {new} (0) allows, as {base} does; SYSTEM.BASE.TOPIC's value resolves to it "
                 "unchanged, so every publication and subscription is decided alike")
for _row, _attribute, _inhibited, _base, _same in (
        ("inhibit-publications", "InhibitPublications", "MQTA_PUB_INHIBITED", "MQTA_PUB_ALLOWED",
         (("as-parent", "MQSUB_DURABLE_AS_PARENT", 0), ("as-parent", "MQTA_SUB_AS_PARENT", 0),
          ("base", "MQTA_SUB_ALLOWED", 2))),
        ("inhibit-subscriptions", "InhibitSubscriptions", "MQTA_SUB_INHIBITED", "MQTA_SUB_ALLOWED",
         (("as-parent", "MQSUB_DURABLE_AS_PARENT", 0), ("as-parent", "MQTA_PUB_AS_PARENT", 0),
          ("base", "MQTA_PUB_ALLOWED", 2))),
        ("durable-subscriptions", "DurableSubscriptions", "MQSUB_DURABLE_INHIBITED", "MQSUB_DURABLE_ALLOWED",
         (("as-parent", "MQTA_PUB_AS_PARENT", 0), ("as-parent", "MQTA_SUB_AS_PARENT", 0)))):
    for _cell, _new, _value in _same:
        EQUIVALENT[f"table:topic.attributes.{_row}:{_cell}={_new}"] = _SAME_VALUE.format(new=_new, value=_value)
    for _new in ("0", "MQPER_NOT_PERSISTENT"):
        EQUIVALENT[f"table:topic.attributes.{_row}:base={_new}"] = _ALLOWS_ALIKE.format(
            attribute=_attribute, inhibited=_inhibited, new=_new, base=_base)
EQUIVALENT["table:topic.attributes.def-persistence:base=0"] = _SAME_VALUE.format(new="0 (DEFPRTY's base, as text)",
                                                                                 value=0)
EQUIVALENT["table:topic.attributes.def-priority:base=MQPER_NOT_PERSISTENT"] = _SAME_VALUE.format(
    new="MQPER_NOT_PERSISTENT", value=0)


def semantic_mutant_names() -> list[str]:
    """Every semantic mutant, as an adapter name."""
    return [PREFIX + name for name in SEMANTIC_MUTANTS]


def load_mutant(name: str) -> ReferenceAdapter:
    """The mutant adapter ``mutant:<rest>``."""
    rest = name[len(PREFIX):]
    if rest.startswith(("table:", "rule-removed:", "row-moved:")):
        return table_mutant(rest)
    if family_of_mutant(name) is not None:
        return load_family_mutant(name)
    if rest in SEMANTIC_MUTANTS:
        return _named(SEMANTIC_MUTANTS[rest].build(), name)
    raise AdapterError(f"unknown mutant {name!r}; semantic mutants: {', '.join(sorted(SEMANTIC_MUTANTS))}; "
                       "table mutants: mutant:table:<row id>:<Field>=<value>, mutant:rule-removed:<rule id>, "
                       "mutant:row-moved:<row id>:<position>; families: mutant:option-ignored:<option>, "
                       "mutant:output-unset:<MD|PMO|GMO>.<field>, mutant:limit:<limit>:<+1|-1>")


# Selector header names (fixtures/tables/selector-headers.yaml): `as: text` removes trailing blanks from a character
# value (reference/selection.py header_value strips a str only), so for a row whose MQMD field is a number the
# mutant reading it as text reads the same number. Which fields are numbers is the MQMD's own declaration.
def _numeric_md_field(name: str) -> bool:
    from mq_conformance.reference.structures import MQMD

    return MQMD.__dataclass_fields__[name].type in (int, "int")


for _row in default_spec()["selection.headers"].rows:
    if _row.then.get("as") == "value" and _numeric_md_field(_row.then["field"]):
        EQUIVALENT[f"table:{_row.id}:as=text"] = (
            f"MQMD {_row.then['field']} is a number (an MQLONG), and 'text' only removes trailing blanks from a "
            "character value (reference/selection.py header_value strips a str alone): reading the number as text "
            "reads the same number, so every selector compares alike")


# Message properties (fixtures/tables/property-types.yaml, property-control.yaml, property-conversions.yaml).
for _dt in sorted({str(r.then["dt"]) for r in default_spec()["properties.types"].rows} - {"null"}):
    EQUIVALENT[f"table:properties.types.null:dt={_dt}"] = (
        "a null property is written as an element with xsi:nil=\"true\" and no data type (\"Mapping property data "
        "types to MQRFH2 data types\"; reference/properties.py _element returns before it writes a dt), so the null "
        "row's dt reaches no MQRFH2 and no other outcome")
for _row, _above in (("properties.get.compatibility-discards", "properties.get.compatibility-handle"),
                     ("properties.propctl.none", "properties.propctl.handle"),
                     ("properties.propctl.compatibility-discards", "properties.propctl.handle")):
    EQUIVALENT[f"table:{_row}:representation=handle"] = (
        f"{_row} decides only for a get that gives no message handle ({_above} comes first in a first-match table "
        "and decides whenever one is given); 'handle' fills the handle given, and with none it returns no MQRFH2 "
        "and fills nothing, exactly as 'none' drops the properties")
for _value in ("handle", "none", "refused", "rfh2"):
    EQUIVALENT[f"table:properties.propctl.v6compat:representation={_value}"] = (
        "not modelled: the model answers PropertyControl MQPROP_V6COMPAT as not modelled (the row's value), so no "
        "conforming scenario can get from such a queue and nothing the suite runs reads this row; a gap named, not "
        "a proof")
EQUIVALENT["table:properties.conversions.float-to-float:how=narrow"] = (
    "the model's narrow and widen differ only by widen's float() of the value (reference/properties.py convert), and "
    "a floating-point property's value is a float already; the range check of integer targets and the rounding to "
    "MQTYPE_FLOAT32 that follow apply alike")
for _row in ("integer-to-float", "float-to-float"):
    EQUIVALENT[f"table:properties.conversions.{_row}:how=parse"] = (
        "the model parses text to a floating-point type with float() (reference/properties.py _parse), which, given "
        "a number rather than text, returns that number as a float: exactly what widen does, and the float32 rounding "
        "after applies alike")

# Distributed queuing's tables (fixtures/tables/name-resolution.yaml, xmitq-separate-descriptor.yaml).
for _value in ("copied", "report-masked", "queue-manager", "new-id", "embedded-msg-id"):
    EQUIVALENT[f"table:distributed.xmitq.descriptor.backout-count:value={_value}"] = (
        f"a put's BackoutCount is an output field, so the embedded descriptor's is always 0; '{_value}' gives 0 (the "
        "copied value, or MQMD's initial value where the value does not apply to a count) as 'zero' does")
EQUIVALENT["table:distributed.resolve.qmgr-alias-local:resolve=again"] = (
    "resolving again with ObjectQMgrName the alias's RemoteQMgrName - this queue manager's own name - reaches no row "
    "of the table (the name is local), so ObjectName is a queue of this queue manager, which is what 'local-queue' says")
EQUIVALENT["table:distributed.resolve.qmgr-name-model-queue:resolve=to-alias-qmgr"] = (
    "a model queue named in ObjectQMgrName is no queue-manager alias, so there is no RemoteQMgrName to send to: the "
    "model fails the call with MQRC_UNKNOWN_REMOTE_Q_MGR, which is the row's own decision")
