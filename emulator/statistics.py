"""What the emulated queue manager counts about its queues, and the statistics and accounting messages it writes
from those counts.

Counts per queue (clause emulator.reset-q-stats; "MQCMD_RESET_Q_STATS (Reset Queue Statistics) Response",
https://www.ibm.com/docs/en/SSFKSJ_9.2.0/com.ibm.mq.ref.adm.doc/q088310_.html): MsgEnqCount counts every message
put to the queue, committed or not, never decremented by a backout; MsgDeqCount every message removed by a
non-browse MQGET, committed or not; HighQDepth is CurrentQDepth's peak; all three, and TimeSinceReset, since the
last Reset Queue Statistics. The last put's and get's date and time answer Inquire Queue Status.

Statistics (clause emulator.statistics; "Queue statistics message data",
https://www.ibm.com/docs/en/ibm-mq/9.4.x?topic=reference-queue-statistics-message-data, and "Controlling
statistics information collection"): when the queue manager's STATQ is ON, or a queue's STATQ is ON while the
queue manager's is not NONE, every STATINT seconds of the queue manager's clock one MQCMD_STATISTICS_Q message
(MQCFH type MQCFT_STATISTICS) goes to SYSTEM.ADMIN.STATISTICS.QUEUE: QMgrName, StartDate, StartTime, EndDate,
EndTime, CommandLevel, ObjectCount, then one MQGACF_Q_STATISTICS_DATA group per queue with activity or STATQ ON:
QName, CreationDate, CreationTime, QType, QDefinitionType, QMinDepth, QMaxDepth, PutCount, PutFailCount,
Put1Count, Put1FailCount, PutBytes, GetCount, GetBytes, GetFailCount, BrowseCount, BrowseBytes, BrowseFailCount,
ExpiredMsgCount, PurgeCount, NonQueuedMsgCount, AvgQTime (the persistent/non-persistent pairs as IBM gives them).

Accounting (clause emulator.accounting; "Queue accounting message data"): when ACCTQ is ON (queue manager, or the
queue with the queue manager's not NONE), a connection's disconnect writes one MQCMD_ACCOUNTING_Q message
(MQCFT_ACCOUNTING) to SYSTEM.ADMIN.ACCOUNTING.QUEUE: QMgrName, ApplName, UserIdentifier, ConnectionId, StartDate,
StartTime, EndDate, EndTime, CommandLevel, SeqNumber, ObjectCount, and one MQGACF_Q_ACCOUNTING_DATA group per
queue the connection used (QName, QType, QDefinitionType, OpenCount, PutCount, PutFailCount, Put1Count,
PutBytes, GetCount, GetBytes, GetFailCount, BrowseCount, BrowseBytes).
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass, field
from typing import Any

from mq_conformance.reference.clock import _EPOCH as clock_epoch

STATISTICS_QUEUE = "SYSTEM.ADMIN.STATISTICS.QUEUE"
ACCOUNTING_QUEUE = "SYSTEM.ADMIN.ACCOUNTING.QUEUE"
PERFORMANCE_QUEUE = "SYSTEM.ADMIN.PERFM.EVENT"


@dataclass(slots=True)
class Activity:
    """One interval's (statistics) or one connection's (accounting) use of one queue: [non-persistent,
    persistent] pairs as IBM's messages give them."""

    puts: list[int] = field(default_factory=lambda: [0, 0])
    put_fails: int = 0
    put1s: list[int] = field(default_factory=lambda: [0, 0])
    put1_fails: int = 0
    put_bytes: list[int] = field(default_factory=lambda: [0, 0])
    gets: list[int] = field(default_factory=lambda: [0, 0])
    get_bytes: list[int] = field(default_factory=lambda: [0, 0])
    get_fails: int = 0
    browses: list[int] = field(default_factory=lambda: [0, 0])
    browse_bytes: list[int] = field(default_factory=lambda: [0, 0])
    browse_fails: int = 0
    opens: int = 0
    min_depth: int | None = None
    max_depth: int = 0


@dataclass(slots=True)
class QueueCounts:
    """A queue's counts since its statistics were last reset, and its last put and get."""

    reset_ms: int
    enqueued: int = 0
    dequeued: int = 0
    high_depth: int = 0
    last_put_ms: int | None = None
    last_get_ms: int | None = None


@dataclass
class Counters:
    """Every count of one queue manager: per queue, per interval and per connection."""

    started_ms: int
    queues: dict[str, QueueCounts] = field(default_factory=dict)
    interval_start_ms: int = 0
    interval: dict[str, Activity] = field(default_factory=dict)
    connections: dict[int, dict[str, Activity]] = field(default_factory=dict)  # hconn -> queue -> activity
    last_ms: dict[int, int] = field(default_factory=dict)  # hconn -> its last put or get (channel status)
    sequence: int = 0

    def counts(self, queue: str, now_ms: int) -> QueueCounts:
        found = self.queues.get(queue)
        if found is None:
            found = self.queues[queue] = QueueCounts(reset_ms=self.started_ms if now_ms is None else now_ms)
        return found

    def _activities(self, hconn: int | None, queue: str, now_ms: int = 0) -> tuple[Activity, Activity | None]:
        interval = self.interval.get(queue)
        if interval is None:
            interval = self.interval[queue] = Activity()
        if hconn is None:
            return interval, None
        self.last_ms[hconn] = now_ms
        mine = self.connections.setdefault(hconn, {})
        account = mine.get(queue)
        if account is None:
            account = mine[queue] = Activity()
        return interval, account

    def opened(self, hconn: int, queue: str, now_ms: int) -> None:
        """An MQOPEN of ``queue`` by connection ``hconn`` (accounting's OpenCount)."""
        for activity in self._activities(hconn, queue, now_ms):
            if activity is not None:
                activity.opens += 1

    def put(self, hconn: int | None, queue: str, persistent: bool, length: int, depth: int, now_ms: int,
            put1: bool = False, failed: bool = False) -> None:
        """A put (MQPUT or MQPUT1) to ``queue``, its depth after it."""
        for activity in self._activities(hconn, queue, now_ms):
            if activity is None:
                continue
            if failed:
                if put1:
                    activity.put1_fails += 1
                else:
                    activity.put_fails += 1
                continue
            (activity.put1s if put1 else activity.puts)[persistent] += 1
            activity.put_bytes[persistent] += length
            if activity.min_depth is None or depth < activity.min_depth:
                activity.min_depth = depth
            if depth > activity.max_depth:
                activity.max_depth = depth
        if not failed:
            counts = self.counts(queue, now_ms)
            counts.enqueued += 1
            counts.high_depth = max(counts.high_depth, depth)
            counts.last_put_ms = now_ms

    def got(self, hconn: int | None, queue: str, persistent: bool, length: int, depth: int, now_ms: int,
            browse: bool = False, failed: bool = False) -> None:
        """An MQGET from ``queue`` (``browse``: a browse, which removes nothing), its depth after it."""
        for activity in self._activities(hconn, queue, now_ms):
            if activity is None:
                continue
            if failed:
                if browse:
                    activity.browse_fails += 1
                else:
                    activity.get_fails += 1
                continue
            if browse:
                activity.browses[persistent] += 1
                activity.browse_bytes[persistent] += length
            else:
                activity.gets[persistent] += 1
                activity.get_bytes[persistent] += length
                if activity.min_depth is None or depth < activity.min_depth:
                    activity.min_depth = depth
        if not failed and not browse:
            counts = self.counts(queue, now_ms)
            counts.dequeued += 1
            counts.last_get_ms = now_ms

    def reset(self, queue: str, depth: int, now_ms: int) -> QueueCounts:
        """Reset Queue Statistics of one queue: the counts until now, and new ones from now (HighQDepth starts
        again from the current depth). Clause: emulator.reset-q-stats."""
        before = self.counts(queue, now_ms)
        self.queues[queue] = QueueCounts(reset_ms=now_ms, high_depth=depth, last_put_ms=before.last_put_ms,
                                         last_get_ms=before.last_get_ms)
        return before

    def forget(self, queue: str) -> None:
        """A deleted queue's counts go with it."""
        self.queues.pop(queue, None)
        self.interval.pop(queue, None)


def pcf_date_time(ms: int) -> tuple[str, str]:
    """A model-clock instant (milliseconds since its epoch, reference/clock.py) as PCF gives dates and times
    (``YYYY-MM-DD``, ``HH.MM.SS``)."""
    moment = clock_epoch + _dt.timedelta(milliseconds=ms)
    return moment.strftime("%Y-%m-%d"), moment.strftime("%H.%M.%S")


# -- the messages ---------------------------------------------------------------------------------------------
def _monitoring(emulator: Any, qmgr: str, selector: str) -> Any:
    """A queue-manager monitoring attribute (STATQ, STATINT, ACCTQ) as it is now."""
    return emulator.qmgr_attribute_values(qmgr, [constant(selector)]).get(constant(selector))


def _queue_on(emulator: Any, qmgr: str, queue: str, selector: str, qmgr_value: int) -> bool:
    """Whether a queue collects statistics (or accounting): its own STATQ ON, or QMGR while the queue manager's is
    ON; the queue manager's NONE switches every queue off."""
    if qmgr_value == constant("MQMON_NONE"):
        return False
    own = emulator.extras(qmgr, queue).get(selector, constant("MQMON_Q_MGR"))
    if own == constant("MQMON_Q_MGR"):
        return qmgr_value == constant("MQMON_ON")
    return own == constant("MQMON_ON")


def due(emulator: Any, qmgr: str) -> None:
    """Write the statistics message of each interval that has ended on the queue manager's clock (STATINT
    seconds), for the queues that collect statistics and had activity. Clause: emulator.statistics."""
    counters = emulator.counters(qmgr)
    now = emulator.world.clock.now_ms
    interval = _monitoring(emulator, qmgr, "MQIA_STATISTICS_INTERVAL") or 1800
    if now - counters.interval_start_ms < interval * 1000:
        return
    qmgr_value = _monitoring(emulator, qmgr, "MQIA_STATISTICS_Q")
    queues = emulator.world.qmgr(qmgr).queues
    chosen = {name: activity for name, activity in sorted(counters.interval.items())
              if name in queues and _queue_on(emulator, qmgr, name, "MQIA_STATISTICS_Q", qmgr_value)}
    start, counters.interval_start_ms, counters.interval = counters.interval_start_ms, now, {}
    if not chosen:
        return
    groups = [("MQGACF_Q_STATISTICS_DATA", _queue_group(emulator, qmgr, name, activity, statistics=True))
              for name, activity in chosen.items()]
    _write(emulator, qmgr, STATISTICS_QUEUE, "MQCFT_STATISTICS", "MQCMD_STATISTICS_Q",
           _head(emulator, qmgr, start, now, len(groups)), groups)


def disconnected(emulator: Any, qmgr: str, hconn: int, appl: str, user: str, connection_id: bytes) -> None:
    """A connection ended: its accounting message, for the queues it used that collect accounting (ACCTQ), then
    its counts are forgotten. Clause: emulator.accounting."""
    counters = emulator.counters(qmgr)
    used = counters.connections.pop(hconn, {})
    started = counters.last_ms.pop(hconn, None)
    qmgr_value = _monitoring(emulator, qmgr, "MQIA_ACCOUNTING_Q")
    queues = emulator.world.qmgr(qmgr).queues
    chosen = {name: activity for name, activity in sorted(used.items())
              if name in queues and _queue_on(emulator, qmgr, name, "MQIA_ACCOUNTING_Q", qmgr_value)}
    if not chosen:
        return
    now = emulator.world.clock.now_ms
    counters.sequence += 1
    head = [("MQCA_Q_MGR_NAME", qmgr), ("MQCACF_APPL_NAME", appl), ("MQCACF_USER_IDENTIFIER", user),
            ("MQBACF_CONNECTION_ID", connection_id)]
    head += _head(emulator, qmgr, started if started is not None else now, now, len(chosen))[1:]
    head.append(("MQIACF_SEQUENCE_NUMBER", counters.sequence))
    groups = [("MQGACF_Q_ACCOUNTING_DATA", _queue_group(emulator, qmgr, name, activity, statistics=False))
              for name, activity in chosen.items()]
    _write(emulator, qmgr, ACCOUNTING_QUEUE, "MQCFT_ACCOUNTING", "MQCMD_ACCOUNTING_Q", head, groups)


def _head(emulator: Any, qmgr: str, start: int, end: int, count: int) -> list[tuple[str, Any]]:
    start_date, start_time = pcf_date_time(start)
    end_date, end_time = pcf_date_time(end)
    return [("MQCA_Q_MGR_NAME", qmgr), ("MQCAMO_START_DATE", start_date), ("MQCAMO_START_TIME", start_time),
            ("MQCAMO_END_DATE", end_date), ("MQCAMO_END_TIME", end_time),
            ("MQIA_COMMAND_LEVEL", _monitoring(emulator, qmgr, "MQIA_COMMAND_LEVEL")),
            ("MQIAMO_OBJECT_COUNT", count)]


def _queue_group(emulator: Any, qmgr: str, name: str, activity: Activity, statistics: bool) -> list[tuple[str, Any]]:
    queue = emulator.world.qmgr(qmgr).queues[name]
    extras = emulator.extras(qmgr, name)
    group: list[tuple[str, Any]] = [
        ("MQCA_Q_NAME", name), ("MQCA_CREATION_DATE", extras.get("MQCA_CREATION_DATE", "")),
        ("MQCA_CREATION_TIME", extras.get("MQCA_CREATION_TIME", "")), ("MQIA_Q_TYPE", queue.definition.QType),
        ("MQIA_DEFINITION_TYPE", getattr(queue.definition, "DefinitionType", None) or constant("MQQDT_PREDEFINED"))]
    if statistics:
        group += [("MQIAMO_Q_MIN_DEPTH", activity.min_depth if activity.min_depth is not None else queue.depth),
                  ("MQIAMO_Q_MAX_DEPTH", activity.max_depth)]
    else:
        group.append(("MQIAMO_OPENS", [activity.opens]))
    group += [("MQIAMO_PUTS", list(activity.puts)), ("MQIAMO_PUTS_FAILED", activity.put_fails),
              ("MQIAMO_PUT1S", list(activity.put1s)), ("MQIAMO_PUT1S_FAILED", activity.put1_fails),
              ("MQIAMO64_PUT_BYTES", ("64", list(activity.put_bytes))), ("MQIAMO_GETS", list(activity.gets)),
              ("MQIAMO64_GET_BYTES", ("64", list(activity.get_bytes))), ("MQIAMO_GETS_FAILED", activity.get_fails),
              ("MQIAMO_BROWSES", list(activity.browses)),
              ("MQIAMO64_BROWSE_BYTES", ("64", list(activity.browse_bytes))),
              ("MQIAMO_BROWSES_FAILED", activity.browse_fails)]
    return group


def _write(emulator: Any, qmgr: str, queue: str, kind: str, command: str, head: list[tuple[str, Any]],
           groups: list[tuple[str, list[tuple[str, Any]]]]) -> None:
    """One statistics or accounting message, in IBM's PCF layout (readable by ``PCFExecute.unpack``)."""
    from mq_conformance.reference.structures import MQMD, MQOD, MQPMO

    from .emulator import ibm
    from .pcf import CommandServer

    if queue not in emulator.world.qmgr(qmgr).queues:
        return
    package = ibm()
    packer = CommandServer(emulator, qmgr)

    def pack(name: str, value: Any) -> bytes:
        if isinstance(value, tuple) and value[0] == "64":
            return package.CFIL64(Parameter=constant(name), Values=value[1]).pack()
        return packer._pack(constant(name), value)  # noqa: SLF001 - one packing of a parameter

    body = b"".join(pack(name, value) for name, value in head)
    for group_name, parameters in groups:
        body += package.CFGR(Parameter=constant(group_name), ParameterCount=len(parameters)).pack()
        body += b"".join(pack(name, value) for name, value in parameters)
    header = package.CFH(Type=constant(kind), Command=constant(command), MsgSeqNumber=1,
                         Control=constant("MQCFC_LAST"), ParameterCount=len(head) + len(groups))
    md = MQMD(Version=2, MsgType=constant("MQMT_DATAGRAM"), Format="MQADMIN ")
    pmo = MQPMO(Version=2, Options=constant("MQPMO_NO_SYNCPOINT"))
    emulator.world.put1(qmgr, emulator.system_hconn(qmgr), MQOD(queue, ""), md, pmo, header.pack() + body)


def constant(name: str) -> Any:
    from .standing import constant as lookup

    return lookup(name)


# -- performance events -----------------------------------------------------------------------------------------
def performance(emulator: Any, qmgr: str, queue: str, depth: int, full: bool, got: bool) -> None:
    """Queue Full, Queue Depth High and Queue Depth Low events on SYSTEM.ADMIN.PERFM.EVENT, while the queue
    manager's PERFMEV is ENABLED (clause emulator.performance-events; "Queue Full", "Queue Depth High", "Queue
    Depth Low"): ``full`` a put refused with MQRC_Q_FULL, ``got`` a get that removed a message, else a put that
    did; each event resets the queue's statistics and switches the events as IBM's pages say (High: High off, Max
    and Low on; Low: Low off, Max and High on; Full: Low on)."""
    extras = emulator.extras(qmgr, queue)
    stored = emulator.world.qmgr(qmgr).queues.get(queue)
    if stored is None or stored.definition.QType != constant("MQQT_LOCAL"):
        return
    enabled, disabled = constant("MQEVR_ENABLED"), constant("MQEVR_DISABLED")
    limit = stored.definition.MaxQDepth
    event = None
    if full:
        if extras.get("MQIA_Q_DEPTH_MAX_EVENT", enabled) == enabled:
            event, switches = "MQRC_Q_FULL", {"MQIA_Q_DEPTH_LOW_EVENT": enabled}
    elif not got:
        high = limit * extras.get("MQIA_Q_DEPTH_HIGH_LIMIT", 80) // 100
        if extras.get("MQIA_Q_DEPTH_HIGH_EVENT", disabled) == enabled and depth >= high:
            event, switches = "MQRC_Q_DEPTH_HIGH", {"MQIA_Q_DEPTH_HIGH_EVENT": disabled,
                                                    "MQIA_Q_DEPTH_MAX_EVENT": enabled,
                                                    "MQIA_Q_DEPTH_LOW_EVENT": enabled}
    else:
        low = limit * extras.get("MQIA_Q_DEPTH_LOW_LIMIT", 20) // 100
        if extras.get("MQIA_Q_DEPTH_LOW_EVENT", disabled) == enabled and depth <= low:
            event, switches = "MQRC_Q_DEPTH_LOW", {"MQIA_Q_DEPTH_LOW_EVENT": disabled,
                                                   "MQIA_Q_DEPTH_MAX_EVENT": enabled,
                                                   "MQIA_Q_DEPTH_HIGH_EVENT": enabled}
    if event is None:
        return
    extras.update(switches)
    counters = emulator.counters(qmgr)
    now = emulator.world.clock.now_ms
    before = counters.reset(queue, depth, now)
    _event(emulator, qmgr, event, [("MQCA_Q_MGR_NAME", qmgr), ("MQCA_BASE_Q_NAME", queue),
                                   ("MQIA_TIME_SINCE_RESET", max(0, (now - before.reset_ms) // 1000)),
                                   ("MQIA_HIGH_Q_DEPTH", max(before.high_depth, depth)),
                                   ("MQIA_MSG_ENQ_COUNT", before.enqueued), ("MQIA_MSG_DEQ_COUNT", before.dequeued)])


def _event(emulator: Any, qmgr: str, reason: str, parameters: list[tuple[str, Any]]) -> None:
    """One performance event message (MQCFH MQCFT_EVENT, MQCMD_PERFM_EVENT, the event's reason)."""
    from mq_conformance.reference.structures import MQMD, MQOD, MQPMO

    from .emulator import ibm
    from .pcf import CommandServer

    if PERFORMANCE_QUEUE not in emulator.world.qmgr(qmgr).queues:
        return
    packer = CommandServer(emulator, qmgr)
    body = b"".join(packer._pack(constant(name), value) for name, value in parameters)  # noqa: SLF001
    header = ibm().CFH(Type=constant("MQCFT_EVENT"), Command=constant("MQCMD_PERFM_EVENT"), MsgSeqNumber=1,
                       Control=constant("MQCFC_LAST"), CompCode=constant("MQCC_WARNING"), Reason=constant(reason),
                       ParameterCount=len(parameters))
    md = MQMD(Version=2, MsgType=constant("MQMT_DATAGRAM"), Format="MQEVENT ")
    pmo = MQPMO(Version=2, Options=constant("MQPMO_NO_SYNCPOINT"))
    emulator.world.put1(qmgr, emulator.system_hconn(qmgr), MQOD(PERFORMANCE_QUEUE, ""), md, pmo, header.pack() + body)
