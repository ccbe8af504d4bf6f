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

from mq_conformance.reference.clock import _EPOCH as clock_epoch

STATISTICS_QUEUE = "SYSTEM.ADMIN.STATISTICS.QUEUE"
ACCOUNTING_QUEUE = "SYSTEM.ADMIN.ACCOUNTING.QUEUE"


@dataclass
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

    def depth(self, depth: int) -> None:
        self.min_depth = depth if self.min_depth is None else min(self.min_depth, depth)
        self.max_depth = max(self.max_depth, depth)


@dataclass
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
            (activity.put1s if put1 else activity.puts)[int(persistent)] += 1
            activity.put_bytes[int(persistent)] += length
            activity.depth(depth)
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
                activity.browses[int(persistent)] += 1
                activity.browse_bytes[int(persistent)] += length
            else:
                activity.gets[int(persistent)] += 1
                activity.get_bytes[int(persistent)] += length
                activity.depth(depth)
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
