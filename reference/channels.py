"""Sender and receiver channels between queue managers, the messages they move, and the dead-letter queue.

Sources (cited by title and URL in fixtures/clauses.yaml, documents `dead-letter-queues`, `undeliverable`,
`safety-of-messages`, `npmspeed`, `sequence-numbering`, `deadletterqname`, `mqdlh`, `report-field`): a sender
channel takes the committed messages of its transmission queue as a get would - by priority, then in the order they
arrived - and its receiver on the partner queue manager puts each on the queue its MQXQH names, resolving the
name again there (a queue-manager alias, or a transmission queue to a further queue manager). A message the
receiver cannot put (no such queue, put-inhibited, full, too long...) goes to the receiving queue manager's
dead-letter queue behind an MQDLH giving the reason, or is discarded when its Report says MQRO_DISCARD_MSG; an
exception report goes back if the Report asks for one. When there is no dead-letter queue (or it cannot take the
message), a persistent message - or any message on a channel whose NPMSPEED is NORMAL - stays on the
transmission queue and the channel stops; a nonpersistent message on a FAST channel is discarded.

The model moves messages only when a scenario says ``transmit`` (the cluster's ``deliver`` is the precedent), so
that what waits can be observed; each step is one attempt, so a put the receiver retries (MRRTY, for a queue full
or put-inhibited) is tried again at the next step.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from . import distributed
from . import report as report_module
from .constants import VALUES
from .errors import NotModelled
from .queue import VISIBLE, StoredMessage
from .result import Result
from .structures import MQMD, MQOD, MQPMO

if TYPE_CHECKING:
    from .qmgr import QueueManager

INACTIVE, RUNNING, STOPPED, RETRYING = "MQCHS_INACTIVE", "MQCHS_RUNNING", "MQCHS_STOPPED", "MQCHS_RETRYING"
NPMS_NORMAL, NPMS_FAST = VALUES["MQNPMS_NORMAL"], VALUES["MQNPMS_FAST"]
MQPER_PERSISTENT = VALUES["MQPER_PERSISTENT"]
TC_ON, TT_FIRST = VALUES["MQTC_ON"], VALUES["MQTT_FIRST"]
MRRTY_DEFAULT = 10  # DEFINE CHANNEL's MRRTY
USEDLQ_NO, USEDLQ_YES = VALUES["MQUSEDLQ_NO"], VALUES["MQUSEDLQ_YES"]
# DEFINE CHANNEL's defaults for how a sender retries reaching its partner (distributed.channel.retry-exhausted):
# SHORTRTY tries SHORTTMR seconds apart, then LONGRTY tries LONGTMR seconds apart.
SHORTRTY_DEFAULT, SHORTTMR_DEFAULT, LONGRTY_DEFAULT, LONGTMR_DEFAULT = 10, 60, 999_999_999, 1200
# Reasons that may clear by themselves, so the receiver retries the put MRRTY times before giving up on it
# (distributed.channel.message-retry)
TRANSITORY = (VALUES["MQRC_Q_FULL"], VALUES["MQRC_PUT_INHIBITED"])
DISCARD_MSG = VALUES["MQRO_DISCARD_MSG"]
# The receiver puts as a message channel agent does: keeping the message's own context, outside any unit of
# work of an application.
MCA_PUT = MQPMO(Version=2, Options=VALUES["MQPMO_SET_ALL_CONTEXT"] | VALUES["MQPMO_NO_SYNCPOINT"])


@dataclass
class SenderChannel:
    """A sender channel on ``qmgr`` serving transmission queue ``XMITQ``, and its receiver of the same name on the
    queue manager ``CONNAME`` reaches; ``state`` is the sender's DISPLAY CHSTATUS STATUS and ``MSGS`` the number of
    messages it has sent."""

    name: str
    qmgr: str
    CONNAME: str
    XMITQ: str
    NPMSPEED: int = NPMS_FAST  # IBM's default
    MRRTY: int = MRRTY_DEFAULT  # how many times the receiver retries a put that failed for a transitory reason
    state: str = INACTIVE
    MSGS: int = 0
    retried: dict[bytes, int] = field(default_factory=dict)  # MsgToken on the transmission queue -> retries so far
    USEDLQ: int = USEDLQ_YES  # NO: an undeliverable message is never put on the dead-letter queue
    SHORTRTY: int = SHORTRTY_DEFAULT
    SHORTTMR: int = SHORTTMR_DEFAULT
    LONGRTY: int = LONGRTY_DEFAULT
    LONGTMR: int = LONGTMR_DEFAULT
    retrying_since: int | None = None  # clock time (ms) its first attempt to reach the partner failed

    def retry_budget_ms(self) -> int:
        """How long after its first failed attempt a retrying sender gives up: the SHORTRTY count (the first
        attempt among them) SHORTTMR apart, then LONGRTY tries LONGTMR apart (distributed.channel.retry-exhausted)."""
        return (max(self.SHORTRTY - 1, 0) * self.SHORTTMR + self.LONGRTY * self.LONGTMR) * 1000


def define(world: Any, name: str, qmgr: str, conname: str, xmitq: str, npmspeed: int,
           mrrty: int = MRRTY_DEFAULT, **attributes: int) -> Result:
    """DEFINE CHANNEL CHLTYPE(SDR) on ``qmgr`` and CHLTYPE(RCVR) of the same name on ``conname``; a new channel is
    inactive until started (distributed.channel.pair). ``attributes``: USEDLQ, SHORTRTY, SHORTTMR, LONGRTY,
    LONGTMR (IBM's defaults when not given)."""
    world.qmgr(qmgr)
    world.qmgr(conname)
    if name in world.channels:
        raise NotModelled(f"channel {name} is a cluster channel; a sender channel needs a name of its own")
    existing = world.senders.get(name)
    channel = SenderChannel(name, qmgr, conname, xmitq, npmspeed, mrrty, **attributes)
    if existing is not None:
        channel.state, channel.MSGS, channel.retrying_since = existing.state, existing.MSGS, existing.retrying_since
    world.senders[name] = channel
    return Result(clauses=["distributed.channel.pair"])


def sender(world: Any, name: str) -> SenderChannel:
    found = world.senders.get(name)
    if found is None:
        raise NotModelled(f"no sender channel {name!r}; channels: {', '.join(sorted(world.senders)) or 'none'}")
    return found


def start(world: Any, name: str) -> Result:
    """START CHANNEL: a stopped, retrying or inactive sender runs (distributed.channel.start)."""
    channel = sender(world, name)
    channel.retrying_since = None  # a restarted channel counts its retries afresh
    queue = world.qmgr(channel.qmgr).queues.get(channel.XMITQ)
    if queue is None or queue.definition.Usage != distributed.MQUS_TRANSMISSION:
        # The channel cannot get from a queue that is not a transmission queue: it does not start.
        channel.state = STOPPED
        return Result(clauses=["distributed.channel.start", "distributed.xmitq.usage"])
    channel.state = RUNNING
    return Result(clauses=["distributed.channel.start"])


def stop(world: Any, name: str, state: str = STOPPED) -> Result:
    """STOP CHANNEL (STATUS STOPPED or INACTIVE), or the connection lost (MQCHS_RETRYING): the messages wait on
    the transmission queue (distributed.channel.stop, distributed.channel.retrying)."""
    channel = sender(world, name)
    if state == RETRYING and channel.state != RETRYING:
        channel.retrying_since = world.qmgr(channel.qmgr).clock.now_ms
    elif state != RETRYING:
        channel.retrying_since = None
    channel.state = state
    return Result(clauses=["distributed.channel.retrying" if state == RETRYING else "distributed.channel.stop"])


def settle(world: Any, channel: SenderChannel) -> list[str]:
    """What has become of ``channel`` by now, without anyone acting on it: a retrying sender whose short and
    long retries have all failed is STOPPED (distributed.channel.retry-exhausted); an inactive one whose
    transmission queue triggers it (TriggerControl MQTC_ON, TriggerType MQTT_FIRST, an InitiationQName, TriggerData
    naming the channel) and holds a committed message was started by the channel initiator
    (distributed.channel.triggered). Returns the clauses applied."""
    qm = world.qmgr(channel.qmgr)
    if channel.state == RETRYING and channel.retrying_since is not None \
            and qm.clock.now_ms - channel.retrying_since >= channel.retry_budget_ms():
        channel.state, channel.retrying_since = STOPPED, None
        return ["distributed.channel.retry-exhausted"]
    if channel.state not in (INACTIVE, STOPPED) or not _trigger_on(qm, channel):
        return []
    if channel.state == INACTIVE and triggers(qm, channel):
        return ["distributed.channel.triggered", *start(world, channel.name).clauses]
    return ["distributed.channel.triggered"]  # the trigger rule decides: not this channel, or a stopped one


def _trigger_on(qm: QueueManager, channel: SenderChannel) -> bool:
    queue = qm.queues.get(channel.XMITQ)
    return queue is not None and queue.definition.TriggerControl == TC_ON


def triggers(qm: QueueManager, channel: SenderChannel) -> bool:
    """Whether ``channel``'s transmission queue on ``qm`` has a trigger event for it: triggering on, type FIRST,
    an initiation queue that is a local queue, TriggerData the channel's name, and a committed message waiting
    (distributed.channel.triggered)."""
    queue = qm.queues.get(channel.XMITQ)
    if queue is None:
        return False
    definition = queue.definition
    initq = qm.queues.get(definition.InitiationQName.strip()) if definition.InitiationQName.strip() else None
    return definition.TriggerControl == TC_ON and definition.TriggerType == TT_FIRST \
        and initq is not None and initq.definition.QType == distributed.MQQT_LOCAL \
        and definition.TriggerData.strip() == channel.name \
        and any(m.state == VISIBLE for m in queue.messages.values())


def status(world: Any, name: str) -> Result:
    """DISPLAY CHSTATUS: the sender's STATUS and MSGS, and how many messages wait on its transmission queue
    (XQMSGSA) (distributed.channel.status)."""
    channel = sender(world, name)
    settled = settle(world, channel)
    queue = world.qmgr(channel.qmgr).queues.get(channel.XMITQ)
    waiting = 0 if queue is None else sum(1 for m in queue.messages.values() if m.state == VISIBLE)
    return Result(clauses=["distributed.channel.status", *settled],
                  attributes={"STATUS": channel.state, "MSGS": channel.MSGS, "XQMSGSA": waiting})


def transmit(world: Any, name: str, count: int | None) -> Result:
    """Let a running sender move up to ``count`` (all, for None) committed messages from its transmission queue
    to the receiving queue manager, in the order a get would take them.

    A put that fails for a transitory reason (the queue full or put-inhibited) is retried at the next step, MRRTY
    times, the messages behind it waiting; then the message is given up as any undeliverable one.

    Clauses: distributed.channel.moves-when-running, distributed.channel.committed-only,
    distributed.channel.message-retry,
    distributed.channel.order, distributed.channel.npmspeed, distributed.channel.receiver-resolves, distributed.channel.expired-discarded,
    distributed.dlq.* (see :func:`undeliverable`).
    """
    channel = sender(world, name)
    clauses = ["distributed.channel.moves-when-running", *settle(world, channel)]
    if channel.state != RUNNING:
        return Result(clauses=clauses)
    source = world.qmgr(channel.qmgr)
    xmitq = source.queues[channel.XMITQ]
    target = world.qmgr(channel.CONNAME)
    moved = 0
    for message in list(xmitq.in_delivery_order()):
        if count is not None and moved >= count:
            break
        if message.state != VISIBLE:
            clauses.append("distributed.channel.committed-only")
            continue
        unpacked = distributed.unpack_xqh(message.data)
        if unpacked is None:  # put straight on the transmission queue without a header: not the channel's to move
            continue
        remote_q, remote_qmgr, md, data = unpacked
        original = StoredMessage(message.seq, md, data, message.token, expires_at=message.expires_at)
        if message.expires_at is not None and message.expires_at <= source.clock.now_ms:
            xmitq.remove(message)
            clauses += ["distributed.channel.expired-discarded"] + report_module.expired(source, original)
            continue
        outcome, more = deliver_one(world, channel, target, remote_q, remote_qmgr, original)
        clauses += more
        if outcome == "retry":  # the put is tried again at the next step; the messages behind it wait
            break
        channel.retried.pop(message.token, None)
        if outcome == "stop":
            channel.state = STOPPED
            break
        xmitq.remove(message)
        channel.MSGS += 1
        moved += 1
    if moved:
        clauses += ["distributed.channel.order", "distributed.channel.npmspeed"]
    return Result(clauses=list(dict.fromkeys(clauses)))


def mca_connection(world: Any, qm: QueueManager) -> int:
    """The connection the receiving message channel agent puts with on ``qm`` (made the first time)."""
    hconn = world.mca_hconns.get(qm.name)
    if hconn is None or hconn not in qm.connections:
        hconn = world.mca_hconns[qm.name] = qm.connect().hconn
    return hconn


def _remaining(qm: QueueManager, md: MQMD, expires_at: int | None) -> MQMD:
    """The descriptor as the receiver puts it: Expiry what remains of the message's lifetime."""
    md = md.copy()
    if expires_at is not None:
        md.Expiry = max(1, -(-(expires_at - qm.clock.now_ms) // 100))
    return md


def deliver_one(world: Any, channel: SenderChannel, qm: QueueManager, remote_q: str, remote_qmgr: str,
                original: StoredMessage) -> tuple[str, list[str]]:
    """The receiver's put of one message on ``qm``: "delivered", "dead-lettered", "discarded" or "stop", and the
    clauses applied. The name is resolved on the receiving queue manager as an MQPUT1 would resolve it, so a
    queue-manager alias or a transmission queue there sends it on (distributed.channel.receiver-resolves)."""
    hconn = mca_connection(world, qm)
    md = _remaining(qm, original.md, original.expires_at)
    result = qm.put1(hconn, MQOD(remote_q, remote_qmgr), md, MCA_PUT.copy(), original.data)
    if not result.failed:
        return "delivered", ["distributed.channel.receiver-resolves"] + [
            c for c in result.clauses if c.startswith(("report.", "distributed."))]
    if result.reason in TRANSITORY and retry(channel.retried, original.token, channel.MRRTY):
        return "retry", ["distributed.channel.message-retry"]
    return undeliverable(channel.NPMSPEED, qm, remote_q, remote_qmgr, original, result.reason,
                         use_dlq=channel.USEDLQ != USEDLQ_NO)


def retry(retried: dict[bytes, int], token: bytes, limit: int) -> bool:
    """Whether the receiver tries a put that failed for a transitory reason again later (counting this failure):
    it does so MRRTY times, then gives the message up (distributed.channel.message-retry)."""
    done = retried.get(token, 0)
    if done >= limit:
        return False
    retried[token] = done + 1
    return True


def undeliverable(speed: int, qm: QueueManager, dest_q: str, dest_qmgr: str, original: StoredMessage,
                  reason: int, reporter: QueueManager | None = None, use_dlq: bool = True) -> tuple[str, list[str]]:
    """What the receiving queue manager ``qm`` does with a message it cannot put on its destination for
    ``reason``: discard it (MQRO_DISCARD_MSG), else put it on the dead-letter queue behind an MQDLH, else stop
    the channel (a persistent message, or any on a channel whose NPMSPEED ``speed`` is NORMAL) or discard it (a
    nonpersistent message on a FAST channel); an exception report goes back when the Report asks for one and the
    message did not stay. The cluster's deliver uses it too (reference/cluster/reallocation.py), its exception
    reports made on ``reporter``, the queue manager they are addressed to (report.exception's decision). With
    ``use_dlq`` false (the channel's USEDLQ(NO)) the dead-letter queue is passed over: the message is discarded or
    the channel stops as NPMSPEED and its persistence say (distributed.channel.usedlq-no).

    Clauses: distributed.channel.usedlq-no, distributed.dlq.discard-msg, distributed.dlq.put, distributed.dlq.header,
    distributed.dlq.none-stops-channel, distributed.dlq.none-fast-nonpersistent-discarded,
    distributed.dlq.exception-report, report.exception.
    """
    md = original.md
    reporter = qm if reporter is None else reporter
    if md.Report & DISCARD_MSG:
        return "discarded", ["distributed.dlq.discard-msg", "report.discard-undeliverable"] + \
            _exception(reporter, original, reason)
    if use_dlq and dead_letter(qm, dest_q, dest_qmgr, original, reason):
        return "dead-lettered", ["distributed.dlq.put", "distributed.dlq.header"] + \
            _exception(reporter, original, reason)
    passed_over = [] if use_dlq else ["distributed.channel.usedlq-no"]
    if md.Persistence == MQPER_PERSISTENT or speed == NPMS_NORMAL:
        return "stop", passed_over + ["distributed.dlq.none-stops-channel", "report.discard-undeliverable"]
    return "discarded", passed_over + ["distributed.dlq.none-fast-nonpersistent-discarded"]


def _exception(qm: QueueManager, original: StoredMessage, reason: int) -> list[str]:
    """The exception report of a message dead-lettered or discarded, if its Report asks for one
    (distributed.dlq.exception-report)."""
    made = report_module.exception_report(qm, original, reason)
    return made + ["distributed.dlq.exception-report"] if made else made


def dead_letter(qm: QueueManager, dest_q: str, dest_qmgr: str, original: StoredMessage, reason: int) -> bool:
    """Put ``original`` on ``qm``'s dead-letter queue behind an MQDLH; False when there is none or it cannot take
    the message (undefined, not a local queue, put-inhibited, full, too short). Clauses: distributed.dlq.put,
    distributed.dlq.header."""
    name = qm.dead_letter_q_name.strip()
    queue = qm.queues.get(name) if name else None
    if queue is None or queue.definition.QType != distributed.MQQT_LOCAL or queue.definition.InhibitPut:
        return False
    put_date, put_time = qm.clock.put_date_time()
    data = distributed.pack_dlh(reason, dest_q, dest_qmgr, original.md, qm.name, put_date, put_time) + original.data
    if queue.depth >= queue.definition.MaxQDepth or len(data) > min(queue.definition.MaxMsgLength, qm.max_msg_length):
        return False
    md = _remaining(qm, original.md, original.expires_at)
    md.Format, md.Encoding, md.CodedCharSetId = distributed.FMT_DLH, distributed.ENC_NATIVE, qm.coded_char_set_id
    queue.add(StoredMessage(qm.next_seq(), md, data, qm.ids.new_token(), expires_at=original.expires_at))
    return True
