"""Channels between the queue managers of one listener (``mqconf emulator --listen ... --qmgr QM1 --qmgr QM2``):
the message channel agents that move what waits on a transmission queue to the partner queue manager in real
time, and START CHANNEL, STOP CHANNEL and the channel status the command server answers with them.

A sender (or server) channel is a definition on its queue manager (DEFINE CHANNEL CHLTYPE(SDR) CONNAME XMITQ,
kept by :mod:`.pcf_objects`); its partner is the queue manager of the same listener that defines a receiver (or
requester) channel of the same name, as a real sender finds its receiver by name at the other end. CONNAME says
where the partner listens and is shown as given; every partner is in this listener, so it is never dialled.
START CHANNEL makes the sender run; without a partner (or with its receiver stopped) it is RETRYING and looks
again every :data:`RETRY_SECONDS` until one appears. Moving the messages, and what happens to one that cannot be
delivered (the dead-letter queue with an MQDLH, MQRO_DISCARD_MSG, an exception report, a channel that stops), is
the model's (reference/channels.py: ``start``, ``stop``, ``transmit``), called here with the two queue managers
locked, in the listener's order, so that no two agents wait for each other.

One watcher thread per queue manager sleeps on the queue manager's own condition - the one a waiting MQGET
sleeps on, which every call that may make a message available notifies - while one of its senders runs, so a
committed message on a transmission queue wakes it at once; otherwise it sleeps until a command wakes it or a
retry is due. A batch is at most the channel's BATCHSZ messages (IBM's default 50); a message the receiver is
retrying (MRRTY) is tried again after MRTMR milliseconds. The threads stop with the listener.

Channels persist nothing: definitions, states and messages live as long as the listener (clause
emulator.channel.agent).
"""

from __future__ import annotations

import logging
import threading
import time
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any

from mq_conformance.reference import channels as model_channels
from mq_conformance.reference.queue import VISIBLE

from .standing import constant

LOG = logging.getLogger("mq_conformance.emulator")
RUNNING, STOPPED, RETRYING, INACTIVE = (model_channels.RUNNING, model_channels.STOPPED, model_channels.RETRYING,
                                        model_channels.INACTIVE)
SENDING = ("MQCHT_SENDER", "MQCHT_SERVER")
RECEIVING = ("MQCHT_RECEIVER", "MQCHT_REQUESTER")
ENABLE_ONLY = ("MQCHT_RECEIVER", "MQCHT_REQUESTER", "MQCHT_SVRCONN", "MQCHT_CLUSRCVR")  # START only enables them
RETRY_SECONDS = 1.0  # a retrying sender looks for its partner again this often (IBM's SHORTTMR is 60 s)
IDLE_SECONDS = 5.0  # the longest a watcher sleeps unwoken
BATCH_DEFAULT, MRTMR_DEFAULT = 50, 1000  # DEFINE CHANNEL's BATCHSZ and MRTMR


def _number(name: str) -> int:
    found = constant(name)
    assert found is not None, name
    return found


def _text(raw: Any) -> str:
    if isinstance(raw, bytes | bytearray):
        return bytes(raw).split(b"\0", 1)[0].decode("utf-8", errors="replace").strip()
    return str(raw or "").strip()


def _type_name(definition: dict[int, Any]) -> str:
    number = definition.get(_number("MQIACH_CHANNEL_TYPE"))
    return next((n for n in (*SENDING, *RECEIVING, "MQCHT_SVRCONN", "MQCHT_CLNTCONN", "MQCHT_CLUSSDR",
                             "MQCHT_CLUSRCVR") if _number(n) == number), "")


@dataclass
class Sender:
    """A sender channel of the listener: the model's channel (its state, MSGS, the receiver's retries), the
    definition's CONNAME, and when it started and last moved a message (model clock)."""

    model: model_channels.SenderChannel
    conname: str
    batch: int
    mrtmr_ms: int
    started_ms: int
    last_ms: int | None = None
    not_before: float = 0.0  # monotonic: no attempt before (a retry interval)


@dataclass(frozen=True)
class Status:
    """One current channel instance for Inquire Channel Status (pcf_status.py)."""

    name: str
    type: str  # MQCHT_*
    status: str  # MQCHS_*
    conname: str
    xmitq: str
    remote_qmgr: str
    msgs: int
    available: int  # XQMSGSA: messages waiting on the transmission queue
    started_ms: int | None
    last_ms: int | None
    npmspeed: int


class _Pair:
    """The world the model's channel functions see for one sender: its name, and the listener's queue managers."""

    def __init__(self, agent: ChannelAgent, channel: model_channels.SenderChannel):
        self.senders = {channel.name: channel}
        self.channels: dict[str, Any] = {}  # no cluster channels here
        self.mca_hconns = agent.mca_hconns
        self._agent = agent

    def qmgr(self, name: str | None) -> Any:
        """The model's queue manager ``name`` of the listener."""
        emulator = self._agent.emulators[name or ""]
        return emulator.world.qmgr(emulator.name)


class ChannelAgent:
    """The channels of one listener's queue managers (``emulators``, in the listener's order)."""

    def __init__(self, emulators: list[Any]):
        self.emulators = {e.name: e for e in emulators}
        self.order = [e.name for e in emulators]
        self.senders: dict[tuple[str, str], Sender] = {}  # (queue manager, channel) -> its sender
        self.stopped_receivers: set[tuple[str, str]] = set()
        self.mca_hconns: dict[str, int] = {}  # the receiving agents' model connections, by queue manager
        self._closed = False
        self._threads: list[threading.Thread] = []
        for emulator in emulators:
            emulator.channel_agent = self

    # -- the listener's life --------------------------------------------------------------------------------
    def start(self) -> ChannelAgent:
        """One watcher thread per queue manager (clause emulator.channel.agent)."""
        for emulator in self.emulators.values():
            thread = threading.Thread(target=self._watch, args=(emulator,), name=f"mq-channels-{emulator.name}",
                                      daemon=True)
            self._threads.append(thread)
            thread.start()
        return self

    def close(self) -> None:
        """Stop every watcher (the listener closes; clause emulator.channel.agent)."""
        self._closed = True
        for emulator in self.emulators.values():
            emulator.wake()
        for thread in self._threads:
            if thread is not threading.current_thread():
                thread.join(timeout=5)
        for emulator in self.emulators.values():  # an emulator used again after its listener gets a new agent
            if getattr(emulator, "channel_agent", None) is self:
                del emulator.channel_agent

    # -- commands (run by a queue manager's command server, under its lock) ----------------------------------
    def definition(self, qmgr: str, name: str) -> dict[int, Any] | None:
        """Channel ``name``'s definition on ``qmgr`` (by PCF parameter), read without making the queue manager's
        objects (clause emulator.channel.agent)."""
        kinds = self.emulators[qmgr].admin_objects.get(qmgr)
        return None if kinds is None else kinds.get("CHANNEL", {}).get(name)

    def start_channel(self, qmgr: str, name: str) -> str:
        """START CHANNEL on ``qmgr``: a sender runs (RETRYING until its partner answers), a receiver is enabled.
        Returns the reason a command fails with, or "". Clause: emulator.channel.start."""
        from .pcf_objects import objects

        definition = objects(self.emulators[qmgr], qmgr)["CHANNEL"].get(name)
        if definition is None:
            return "MQRCCF_CHANNEL_NOT_FOUND"
        kind = _type_name(definition)
        if kind in ENABLE_ONLY:
            self.stopped_receivers.discard((qmgr, name))
            return ""
        if kind not in SENDING:
            return "MQRCCF_CHANNEL_TYPE_ERROR"  # a client-connection channel is never started
        emulator = self.emulators[qmgr]
        now = emulator.world.clock.now_ms
        model = model_channels.SenderChannel(
            name=name, qmgr=qmgr, CONNAME="", XMITQ=_text(definition.get(_number("MQCACH_XMIT_Q_NAME"))),
            NPMSPEED=definition.get(_number("MQIACH_NPM_SPEED"), model_channels.NPMS_FAST),
            MRRTY=definition.get(_number("MQIACH_MR_COUNT"), model_channels.MRRTY_DEFAULT))
        sender = Sender(model, _text(definition.get(_number("MQCACH_CONNECTION_NAME"))),
                        max(1, definition.get(_number("MQIACH_BATCH_SIZE"), BATCH_DEFAULT)),
                        max(0, definition.get(_number("MQIACH_MR_INTERVAL"), MRTMR_DEFAULT)), now)
        self.senders[(qmgr, name)] = sender
        model_channels.start(_Pair(self, model), name)  # RUNNING, or STOPPED when XMITQ is no transmission queue
        if model.state == RUNNING:
            model.CONNAME = self._partner(sender) or ""
            if not model.CONNAME:  # the watcher looks for it again
                model_channels.stop(_Pair(self, model), name, RETRYING)
        else:
            LOG.warning("channel %s of %s stopped: its XMITQ(%s) is not a transmission queue", name, qmgr,
                        model.XMITQ)
        emulator.wake()
        return ""

    def stop_channel(self, qmgr: str, name: str, status: str) -> str:
        """STOP CHANNEL on ``qmgr`` with STATUS ``status`` (MQCHS_STOPPED or MQCHS_INACTIVE): a sender's messages
        wait on its transmission queue; a stopped receiver makes its sender retry. Returns the reason a command
        fails with, or "". Clause: emulator.channel.stop."""
        from .pcf_objects import objects

        definition = objects(self.emulators[qmgr], qmgr)["CHANNEL"].get(name)
        if definition is None:
            return "MQRCCF_CHANNEL_NOT_FOUND"
        kind = _type_name(definition)
        if kind in RECEIVING:
            feeding = self._feeding(qmgr, name)
            if (qmgr, name) in self.stopped_receivers or (feeding is None and status == INACTIVE):
                return "MQRCCF_CHANNEL_NOT_ACTIVE"
            if status == STOPPED:  # its sender retries until the receiver is started again
                self.stopped_receivers.add((qmgr, name))
            elif feeding is not None:  # the instance ends; its sender connects again after its retry interval
                model_channels.stop(_Pair(self, feeding.model), name, RETRYING)
                feeding.not_before = time.monotonic() + RETRY_SECONDS
            return ""
        if kind not in SENDING:
            return "MQRCCF_CHANNEL_TYPE_ERROR" if kind == "MQCHT_CLNTCONN" else "MQRC_FUNCTION_NOT_SUPPORTED"
        sender = self.senders.get((qmgr, name))
        if sender is None or sender.model.state in (INACTIVE, STOPPED):
            return "MQRCCF_CHANNEL_NOT_ACTIVE"
        model_channels.stop(_Pair(self, sender.model), name, status)
        self.emulators[qmgr].wake()
        return ""

    def _feeding(self, qmgr: str, name: str) -> Sender | None:
        """The running sender whose receiver is channel ``name`` of ``qmgr``."""
        return next((s for (_q, n), s in list(self.senders.items())
                     if n == name and s.model.CONNAME == qmgr and s.model.state == RUNNING), None)

    def statuses(self, qmgr: str) -> list[Status]:
        """The current instances of ``qmgr``'s sender and receiver channels (not inactive ones), by name.
        Clause: emulator.channel.status."""
        found = []
        qm = self.emulators[qmgr].world.qmgr(qmgr)
        senders = sorted(self.senders.items())
        for (owner, name), sender in senders:
            model = sender.model
            if owner == qmgr and model.state != INACTIVE:
                found.append(Status(name, "MQCHT_SENDER", model.state, sender.conname, model.XMITQ,
                                    model.CONNAME if model.state == RUNNING else "", model.MSGS,
                                    _available(qm, model.XMITQ), sender.started_ms, sender.last_ms,
                                    model.NPMSPEED))
        for (owner, name) in sorted(self.stopped_receivers):
            if owner == qmgr:
                found.append(Status(name, "MQCHT_RECEIVER", STOPPED, "", "", "", 0, 0, None, None,
                                    model_channels.NPMS_FAST))
        for (owner, name), sender in senders:
            model = sender.model
            if model.CONNAME == qmgr and model.state == RUNNING and (qmgr, name) not in self.stopped_receivers:
                found.append(Status(name, "MQCHT_RECEIVER", RUNNING, owner, "", owner, model.MSGS, 0,
                                    sender.started_ms, sender.last_ms, model.NPMSPEED))
        return sorted(found, key=lambda s: (s.name, s.type))

    # -- the watchers ---------------------------------------------------------------------------------------
    def _watch(self, emulator: Any) -> None:
        """Sleep on the queue manager's condition until one of its senders has work, then move it."""
        while not self._closed:
            try:
                with emulator._lock:  # noqa: SLF001 - the condition a waiting get sleeps on
                    due, wait = self._due(emulator.name)
                    if not due:
                        running = any(s.model.state == RUNNING for (q, _n), s in list(self.senders.items())
                                      if q == emulator.name)
                        if running:  # every call that may make a message visible notifies while it waits
                            emulator._waiting += 1  # noqa: SLF001
                        try:
                            emulator._changed.wait(wait)  # noqa: SLF001
                        finally:
                            if running:
                                emulator._waiting -= 1  # noqa: SLF001
                        continue
                for sender in due:
                    self._pump(emulator, sender)
            except Exception:  # noqa: BLE001 - a defect stops no channel thread: it is logged, the watch goes on
                LOG.exception("the channels of %s", emulator.name)
                time.sleep(RETRY_SECONDS)

    def _due(self, qmgr: str) -> tuple[list[Sender], float]:
        """The senders of ``qmgr`` with something to do now, and how long to sleep when there are none."""
        now = time.monotonic()
        due, wait = [], IDLE_SECONDS
        for (owner, _name), sender in list(self.senders.items()):
            model = sender.model
            if owner != qmgr or model.state not in (RUNNING, RETRYING):
                continue
            if sender.not_before > now:
                wait = min(wait, sender.not_before - now)
                continue
            if model.state == RETRYING or self._waiting_on(sender):
                due.append(sender)
        return due, wait

    def _waiting_on(self, sender: Sender) -> bool:
        queue = self.emulators[sender.model.qmgr].world.qmgr(sender.model.qmgr).queues.get(sender.model.XMITQ)
        return queue is not None and any(m.state == VISIBLE for m in queue.messages.values())

    def _partner(self, sender: Sender) -> str | None:
        """The queue manager of this listener whose receiver of the same name answers the sender: one named like
        CONNAME first, then the others in the listener's order; None when none does (or it is stopped)."""
        name, own = sender.model.name, sender.model.qmgr
        candidates = sorted((q for q in self.order if q != own),
                            key=lambda q: (q != sender.conname, self.order.index(q)))
        for qmgr in candidates:
            definition = self.definition(qmgr, name)
            if definition is not None and _type_name(definition) in RECEIVING:
                return None if (qmgr, name) in self.stopped_receivers else qmgr
        return None

    def _pump(self, source: Any, sender: Sender) -> None:
        """One attempt of one sender: find its partner, then move a batch under both queue managers' locks."""
        model = sender.model
        partner = self._partner(sender)
        if partner is None:
            if model.state == RUNNING:
                LOG.warning("channel %s of %s is retrying: no queue manager of this listener answers it (a receiver "
                            "channel of that name, not stopped)", model.name, model.qmgr)
                model_channels.stop(_Pair(self, model), model.name, RETRYING)
                model.CONNAME = ""
            sender.not_before = time.monotonic() + RETRY_SECONDS
            return
        target = self.emulators[partner]
        pair = _Pair(self, model)
        with ExitStack() as locks:
            for emulator in sorted((source, target), key=lambda e: self.order.index(e.name)):
                locks.enter_context(emulator._call())  # noqa: SLF001 - the clock brought to now, waiters told
            if model.state != RUNNING and model.state != RETRYING:
                return  # stopped meanwhile
            if model.state == RETRYING:
                model.CONNAME = partner
                model_channels.start(pair, model.name)
                if model.state != RUNNING:
                    return
            model.CONNAME = partner
            # the receiving end decides what it cannot put: its own channel's USEDLQ (IBM's default YES)
            receiver = self.definition(partner, model.name) or {}
            model.USEDLQ = receiver.get(_number("MQIA_USE_DEAD_LETTER_Q"), model_channels.USEDLQ_YES)
            before = model.MSGS
            model_channels.transmit(pair, model.name, sender.batch)
            moved = model.MSGS - before
            if moved:
                sender.last_ms = source.world.clock.now_ms
            if partner_commands := getattr(target, "_serve", None):
                partner_commands(partner)  # a command message delivered to its command queue is answered
            left = model.state == RUNNING and self._waiting_on(sender)
        target.wake()
        if model.state == STOPPED:
            LOG.warning("channel %s of %s stopped: a message could not be delivered to %s and no dead-letter queue "
                        "took it", model.name, model.qmgr, partner)
        elif left and moved < sender.batch:  # what is left waits for the receiver's retry interval
            sender.not_before = time.monotonic() + sender.mrtmr_ms / 1000


def _available(qm: Any, xmitq: str) -> int:
    queue = qm.queues.get(xmitq)
    return 0 if queue is None else sum(1 for m in queue.messages.values() if m.state == VISIBLE)


def model_routes(emulator: Any, qmgr: str, changes: dict[str, Any]) -> None:
    """ALTER QMGR DEFXMITQ and DEADQ reach the model: the default transmission queue of name resolution, the
    dead-letter queue of undeliverable messages (clause emulator.distributed-admin)."""
    names = {"MQCA_DEF_XMIT_Q_NAME": "DefXmitQName", "MQCA_DEAD_LETTER_Q_NAME": "DeadLetterQName"}
    given = {names[k]: _text(v) for k, v in changes.items() if k in names}
    if given:
        emulator.world.qmgr(qmgr).alter_qmgr(**given)


def agent_of(emulator: Any) -> ChannelAgent:
    """The channel agent of ``emulator``'s listener; an emulator outside a listener gets one of its own, without
    threads (its senders have no partner: they retry). Clause: emulator.channel.agent."""
    found = getattr(emulator, "channel_agent", None)
    if found is None or emulator.name not in found.emulators:
        found = ChannelAgent([emulator])
    return found
