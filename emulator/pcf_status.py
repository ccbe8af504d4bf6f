"""The command server's status commands, answered with the emulator's own figures: what monitoring tools ask a
queue manager.

- Inquire Channel Status (clause emulator.channel-status; "MQCMD_INQUIRE_CHANNEL_STATUS (Inquire Channel Status)
  Response", https://www.ibm.com/docs/en/SSFKSJ_9.2.0/com.ibm.mq.ref.adm.doc/q087560_.html): one response per
  current instance of a server-connection channel, that is per client connection the queue manager has on it
  (the listener's connections; in process, the connections whose MQCONNX named a channel). ChannelName,
  ChannelInstanceType, ChannelStatus MQCHS_RUNNING, ChannelType, ConnectionName, RemoteApplTag, RemoteQMgrName,
  StopRequested, SubState and XmitQName always; the rest when asked for (MQIACH_CHANNEL_INSTANCE_ATTRS).
  No instance: MQRCCF_CHL_STATUS_NOT_FOUND (3065); server connections keep no saved status. Sender and receiver
  channels between the listener's queue managers show too (clause emulator.channel.status): ChannelStatus
  MQCHS_RUNNING, MQCHS_RETRYING or MQCHS_STOPPED, RemoteQMgrName the partner, XmitQName, and Msgs and
  XmitQMsgsAvailable when asked for; an inactive channel has no status.
- Start Channel and Stop Channel (clauses emulator.channel.start, emulator.channel.stop; "MQCMD_START_CHANNEL
  (Start Channel)", "MQCMD_STOP_CHANNEL (Stop Channel)"): emulator/channels.py.
- Inquire Queue Manager Status (clause emulator.qmgr-status): QMgrName, QMgrStatus MQQMSTA_RUNNING,
  ConnectionCount, the command server's and channel initiator's status, StartDate and StartTime (when the
  emulator's queue manager was made), the installation.
- Reset Queue Statistics (clause emulator.reset-q-stats; "MQCMD_RESET_Q_STATS (Reset Queue Statistics) Response",
  https://www.ibm.com/docs/en/SSFKSJ_9.2.0/com.ibm.mq.ref.adm.doc/q088310_.html): per local queue matching a
  (generic) name, HighQDepth, MsgEnqCount, MsgDeqCount and TimeSinceReset since the last reset, then the counts
  start again (statistics.py).
- Inquire Queue Status with StatusType MQIACF_Q_HANDLE (clause emulator.queue-handle-status; "MQCMD_INQUIRE_Q_STATUS
  (Inquire Queue Status) Response"): one response per open handle of the queue: its owner (ApplTag, ApplType,
  ChannelName, ConnectionName, UserIdentifier, ProcessId, ThreadId) and how it is open (OpenOptions,
  OpenBrowse, OpenInputType, OpenInquire, OpenOutput, OpenSet, HandleState).
- Topic objects (clause emulator.topic-admin): Create, Change, Delete, Inquire Topic and Inquire Topic Names on
  the model's topic objects (reference/topics.py; SYSTEM.BASE.TOPIC always there); Inquire Topic Status (the
  topic strings the queue manager knows: topic objects', subscriptions', retained publications'); Inquire
  Subscription Status (clause emulator.sub-status).
"""

from __future__ import annotations

from typing import Any

from .inquiries import generic_match
from .pcf import CommandGroup, PcfFailure
from .statistics import pcf_date_time

COMMANDS = ("MQCMD_INQUIRE_CHANNEL_STATUS", "MQCMD_START_CHANNEL", "MQCMD_STOP_CHANNEL", "MQCMD_INQUIRE_Q_MGR_STATUS", "MQCMD_RESET_Q_STATS",
            "MQCMD_INQUIRE_TOPIC", "MQCMD_INQUIRE_TOPIC_NAMES", "MQCMD_INQUIRE_TOPIC_STATUS",
            "MQCMD_CREATE_TOPIC", "MQCMD_CHANGE_TOPIC", "MQCMD_DELETE_TOPIC", "MQCMD_COPY_TOPIC",
            "MQCMD_INQUIRE_SUB_STATUS", "MQCMD_CLEAR_Q")
BASE_TOPIC = "SYSTEM.BASE.TOPIC"
# The model's topic attribute -> its PCF parameter
TOPIC_PARAMETERS = {"TopicString": "MQCA_TOPIC_STRING", "InhibitPublications": "MQIA_INHIBIT_PUB",
                    "InhibitSubscriptions": "MQIA_INHIBIT_SUB", "DurableSubscriptions": "MQIA_DURABLE_SUB",
                    "DefPersistence": "MQIA_TOPIC_DEF_PERSISTENCE", "DefPriority": "MQIA_DEF_PRIORITY"}


def text(raw: Any) -> str:
    """A PCF string parameter as text (blanks and NULs at its end dropped)."""
    if isinstance(raw, bytes | bytearray):
        return bytes(raw).split(b"\0", 1)[0].decode("utf-8", errors="replace").rstrip(" ")
    return str(raw).rstrip("\0 ")


def _wanted(value, parameters: dict[int, Any], attrs: str) -> set[int] | None:
    """The parameters asked for by an attribute list (None: all)."""
    asked = parameters.get(value(attrs))
    if asked is None:
        return set()
    asked = asked if isinstance(asked, list) else [asked]
    return None if value("MQIACF_ALL") in asked else set(asked)


class StatusCommands(CommandGroup):
    """The commands of :data:`COMMANDS` for one command server (:class:`~.pcf.CommandServer`)."""

    def required(self, parameters: dict[int, Any], name: str) -> str:
        """A command's required string parameter (MQRCCF_PARM_MISSING when absent or empty)."""
        found = text(parameters.get(self.value(name), b""))
        if not found:
            raise PcfFailure("MQRCCF_PARM_MISSING")
        return found

    def run(self, name: str, parameters: dict[int, Any]) -> list[list[tuple[int, Any]]] | None:
        handler = {"MQCMD_INQUIRE_CHANNEL_STATUS": self.channel_status,
                   "MQCMD_START_CHANNEL": self.start_channel, "MQCMD_STOP_CHANNEL": self.stop_channel,
                   "MQCMD_INQUIRE_Q_MGR_STATUS": self.qmgr_status,
                   "MQCMD_RESET_Q_STATS": self.reset_q_stats,
                   "MQCMD_INQUIRE_TOPIC": self.inquire_topic,
                   "MQCMD_INQUIRE_TOPIC_NAMES": self.topic_names,
                   "MQCMD_INQUIRE_TOPIC_STATUS": self.topic_status,
                   "MQCMD_INQUIRE_SUB_STATUS": self.sub_status,
                   "MQCMD_CLEAR_Q": self.clear_q}.get(name)
        if handler is not None:
            return handler(parameters)
        return self.define_topic(name, parameters)

    # -- channels -------------------------------------------------------------------------------------------
    def _only(self, parameters: dict[int, Any], allowed: tuple[str, ...]) -> None:
        """A parameter the command does not take: MQRCCF_CFIN_PARM_ID_ERROR or MQRCCF_CFST_PARM_ID_ERROR."""
        known = {self.value(name) for name in allowed}
        for parameter, given in parameters.items():
            if parameter not in known:
                raise PcfFailure("MQRCCF_CFST_PARM_ID_ERROR" if isinstance(given, bytes) else
                                 "MQRCCF_CFIN_PARM_ID_ERROR")

    def start_channel(self, parameters: dict[int, Any]) -> None:
        """Start Channel: a sender channel runs and moves its transmission queue's messages to its partner; a
        receiver is enabled. MQRCCF_CHANNEL_IN_USE when it runs already (unless IgnoreState MQIS_YES). Clause:
        emulator.channel.start."""
        from .channels import RUNNING, agent_of

        self._only(parameters, ("MQCACH_CHANNEL_NAME", "MQIACF_IGNORE_STATE", "MQCACF_COMMAND_SCOPE",
                                "MQIACH_CHANNEL_DISP"))
        name = self.required(parameters, "MQCACH_CHANNEL_NAME")
        agent = agent_of(self.emulator)
        running = agent.senders.get((self.qmgr, name))
        if running is not None and running.model.state == RUNNING:
            if parameters.get(self.value("MQIACF_IGNORE_STATE")) == self.value("MQIS_YES"):
                return None
            raise PcfFailure("MQRCCF_CHANNEL_IN_USE")
        failed = agent.start_channel(self.qmgr, name)
        if failed:
            raise PcfFailure(failed)
        return None

    def stop_channel(self, parameters: dict[int, Any]) -> None:
        """Stop Channel with ChannelStatus MQCHS_STOPPED (the default) or MQCHS_INACTIVE; every Mode stops at
        once. MQRCCF_CHANNEL_NOT_ACTIVE when it is not running (unless IgnoreState MQIS_YES). Clause:
        emulator.channel.stop."""
        from .channels import INACTIVE, STOPPED, agent_of

        value = self.value
        self._only(parameters, ("MQCACH_CHANNEL_NAME", "MQIACH_CHANNEL_STATUS", "MQIACF_MODE", "MQCA_Q_MGR_NAME",
                                "MQCACH_CONNECTION_NAME", "MQIACF_IGNORE_STATE", "MQCACF_COMMAND_SCOPE",
                                "MQIACH_CHANNEL_DISP"))
        name = self.required(parameters, "MQCACH_CHANNEL_NAME")
        status = parameters.get(value("MQIACH_CHANNEL_STATUS"), value("MQCHS_STOPPED"))
        mode = parameters.get(value("MQIACF_MODE"), value("MQMODE_QUIESCE"))
        if status not in (value("MQCHS_STOPPED"), value("MQCHS_INACTIVE")) or mode not in (
                value("MQMODE_QUIESCE"), value("MQMODE_FORCE"), value("MQMODE_TERMINATE")):
            raise PcfFailure("MQRCCF_PARM_VALUE_ERROR")
        failed = agent_of(self.emulator).stop_channel(
            self.qmgr, name, STOPPED if status == value("MQCHS_STOPPED") else INACTIVE)
        if failed == "MQRCCF_CHANNEL_NOT_ACTIVE" and \
                parameters.get(value("MQIACF_IGNORE_STATE")) == value("MQIS_YES"):
            return None
        if failed:
            if failed == "MQRC_FUNCTION_NOT_SUPPORTED":
                from .pcf import refuse

                refuse(f"STOP CHANNEL of {name}, a channel of a type that only clients use")
            raise PcfFailure(failed)
        return None

    def channel_status(self, parameters: dict[int, Any]) -> list[list[tuple[int, Any]]]:
        """Inquire Channel Status: the current instances of server-connection channels, and of sender and
        receiver channels between the listener's queue managers (emulator/channels.py). Clauses:
        emulator.channel-status, emulator.channel.status."""
        value = self.value
        pattern = self.required(parameters, "MQCACH_CHANNEL_NAME")
        instance = parameters.get(value("MQIACH_CHANNEL_INSTANCE_TYPE"), value("MQOT_CURRENT_CHANNEL"))
        if instance not in (value("MQOT_CURRENT_CHANNEL"), value("MQOT_SAVED_CHANNEL"),
                            value("MQOT_SHORT_CHANNEL")):
            raise PcfFailure("MQRCCF_PARM_VALUE_ERROR")
        conname = parameters.get(value("MQCACH_CONNECTION_NAME"))
        wanted = _wanted(value, parameters, "MQIACH_CHANNEL_INSTANCE_ATTRS")
        responses = []
        if instance == value("MQOT_CURRENT_CHANNEL"):
            counters = self.emulator.counters(self.qmgr)
            for hconn, conn in sorted(self.emulator.connections(self.qmgr).items()):
                if not conn.channel or not generic_match(pattern, conn.channel):
                    continue
                if conname is not None and text(conname) and text(conname) != conn.conname:
                    continue
                responses.append(self._instance(conn, counters, wanted))
            from .channels import agent_of

            for found in agent_of(self.emulator).statuses(self.qmgr):
                if generic_match(pattern, found.name) and (conname is None or not text(conname)
                                                           or text(conname) == found.conname):
                    responses.append(self._message_channel(found, wanted))
        from .inquiries import passes_filters

        responses = [r for r in responses if passes_filters(r, parameters, value)]
        if not responses:
            raise PcfFailure("MQRCCF_CHL_STATUS_NOT_FOUND")
        return responses

    def _instance(self, conn: Any, counters: Any, wanted: set[int] | None) -> list[tuple[int, Any]]:
        value = self.value
        always = [(value("MQCACH_CHANNEL_NAME"), conn.channel),
                  (value("MQIACH_CHANNEL_INSTANCE_TYPE"), value("MQOT_CURRENT_CHANNEL")),
                  (value("MQIACH_CHANNEL_STATUS"), value("MQCHS_RUNNING")),
                  (value("MQIACH_CHANNEL_TYPE"), value("MQCHT_SVRCONN")),
                  (value("MQCACH_CONNECTION_NAME"), conn.conname),
                  (value("MQCACH_REMOTE_APPL_TAG"), conn.appl),
                  (value("MQCA_REMOTE_Q_MGR_NAME"), ""),
                  (value("MQIACH_STOP_REQUESTED"), value("MQCHSR_STOP_NOT_REQUESTED")),
                  (value("MQIACH_CHANNEL_SUBSTATE"), value("MQCHSSTATE_RECEIVING")),
                  (value("MQCACH_XMIT_Q_NAME"), "")]
        activity = counters.connections.get(conn.hconn, {})
        messages = sum(sum(a.puts) + sum(a.put1s) + sum(a.gets) + sum(a.browses) for a in activity.values())
        start_date, start_time = pcf_date_time(conn.started_ms)
        last = pcf_date_time(counters.last_ms.get(conn.hconn, conn.started_ms))
        more = [(value("MQCACH_CHANNEL_START_DATE"), start_date), (value("MQCACH_CHANNEL_START_TIME"), start_time),
                (value("MQCACH_LAST_MSG_DATE"), last[0]), (value("MQCACH_LAST_MSG_TIME"), last[1]),
                (value("MQIACH_MSGS"), messages), (value("MQCACH_MCA_USER_ID"), conn.user),
                (value("MQIACH_MCA_STATUS"), value("MQMCAS_RUNNING")),
                (value("MQIACH_CURRENT_SHARING_CONVS"), 1), (value("MQIACH_MAX_SHARING_CONVS"), 10)]
        return always + [(p, v) for p, v in more if wanted is None or p in wanted]

    def _message_channel(self, found: Any, wanted: set[int] | None) -> list[tuple[int, Any]]:
        """One sender or receiver channel's status (emulator.channel.status): IBM's common fields always, the
        current-only ones when asked for."""
        value = self.value
        sending = found.type == "MQCHT_SENDER"
        substate = ("MQCHSSTATE_OTHER" if found.status != "MQCHS_RUNNING" else
                    "MQCHSSTATE_IN_MQGET" if sending else "MQCHSSTATE_RECEIVING")
        always = [(value("MQCACH_CHANNEL_NAME"), found.name),
                  (value("MQIACH_CHANNEL_INSTANCE_TYPE"), value("MQOT_CURRENT_CHANNEL")),
                  (value("MQIACH_CHANNEL_STATUS"), value(found.status)),
                  (value("MQIACH_CHANNEL_TYPE"), value(found.type)),
                  (value("MQCACH_CONNECTION_NAME"), found.conname),
                  (value("MQCA_REMOTE_Q_MGR_NAME"), found.remote_qmgr),
                  (value("MQIACH_STOP_REQUESTED"), value("MQCHSR_STOP_NOT_REQUESTED")),
                  (value("MQIACH_CHANNEL_SUBSTATE"), value(substate)),
                  (value("MQCACH_XMIT_Q_NAME"), found.xmitq)]
        start_date, start_time = pcf_date_time(found.started_ms) if found.started_ms is not None else ("", "")
        last_date, last_time = pcf_date_time(found.last_ms) if found.last_ms is not None else ("", "")
        more = [(value("MQCACH_CHANNEL_START_DATE"), start_date), (value("MQCACH_CHANNEL_START_TIME"), start_time),
                (value("MQCACH_LAST_MSG_DATE"), last_date), (value("MQCACH_LAST_MSG_TIME"), last_time),
                (value("MQIACH_MSGS"), found.msgs), (value("MQIACH_NPM_SPEED"), found.npmspeed),
                (value("MQIACH_MCA_STATUS"), value("MQMCAS_RUNNING" if found.status == "MQCHS_RUNNING"
                                                   else "MQMCAS_STOPPED"))]
        if sending:
            more.append((value("MQIACH_XMITQ_MSGS_AVAILABLE"), found.available))
        return always + [(p, v) for p, v in more if wanted is None or p in wanted]

    # -- the queue manager ----------------------------------------------------------------------------------
    def qmgr_status(self, parameters: dict[int, Any]) -> list[list[tuple[int, Any]]]:
        """Inquire Queue Manager Status. Clause: emulator.qmgr-status."""
        value = self.value
        start_date, start_time = self.emulator.started(self.qmgr)
        response = [(value("MQCA_Q_MGR_NAME"), self.qmgr),
                    (value("MQIACF_Q_MGR_STATUS"), value("MQQMSTA_RUNNING")),
                    (value("MQIACF_CONNECTION_COUNT"), len(self.emulator.connections(self.qmgr))),
                    (value("MQIACF_CHINIT_STATUS"), value("MQSVC_STATUS_RUNNING")),
                    (value("MQIACF_CMD_SERVER_STATUS"), value("MQSVC_STATUS_RUNNING")),
                    (value("MQCACF_Q_MGR_START_DATE"), start_date), (value("MQCACF_Q_MGR_START_TIME"), start_time),
                    (value("MQCA_INSTALLATION_NAME"), "Installation1"),
                    (value("MQCA_INSTALLATION_PATH"), "/opt/mqm"), (value("MQCA_INSTALLATION_DESC"), ""),
                    (value("MQCACF_LOG_PATH"), f"/var/mqm/log/{self.qmgr}/active/"),
                    (value("MQCACF_CURRENT_LOG_EXTENT_NAME"), "S0000000.LOG")]
        wanted = _wanted(value, parameters, "MQIACF_Q_MGR_STATUS_ATTRS")  # not given: all
        always = {value("MQCA_Q_MGR_NAME"), value("MQIACF_Q_MGR_STATUS")}
        return [[(p, v) for p, v in response if not wanted or p in wanted or p in always]]

    # -- queues ---------------------------------------------------------------------------------------------
    def reset_q_stats(self, parameters: dict[int, Any]) -> list[list[tuple[int, Any]]]:
        """Reset Queue Statistics of every local queue matching the (generic) name. Clause:
        emulator.reset-q-stats."""
        value = self.value
        pattern = self.required(parameters, "MQCA_Q_NAME")
        names = [n for n in sorted(self.qm.queues) if generic_match(pattern, n)]
        if not names:
            raise PcfFailure("MQRC_UNKNOWN_OBJECT_NAME")
        local = [n for n in names if self.qm.queues[n].definition.QType == value("MQQT_LOCAL")]
        if not local:
            raise PcfFailure("MQRCCF_Q_WRONG_TYPE")  # only local queues keep statistics
        counters = self.emulator.counters(self.qmgr)
        now = self.server.world.clock.now_ms
        responses = []
        for name in local:
            before = counters.reset(name, self.qm.queues[name].depth, now)
            responses.append([(value("MQCA_Q_NAME"), name), (value("MQIA_HIGH_Q_DEPTH"), before.high_depth),
                              (value("MQIA_MSG_ENQ_COUNT"), before.enqueued),
                              (value("MQIA_MSG_DEQ_COUNT"), before.dequeued),
                              (value("MQIA_TIME_SINCE_RESET"), max(0, (now - before.reset_ms) // 1000))])
        return responses

    def clear_q(self, parameters: dict[int, Any]) -> None:
        """Clear Queue: every message of a local queue removed; refused while an application has it open
        (MQRC_OBJECT_IN_USE) or it holds uncommitted messages. Clause: emulator.mqsc."""
        from mq_conformance.reference.queue import VISIBLE
        from mq_conformance.reference.structures import MQGMO, MQMD, MQOD

        value = self.value
        name = text(parameters.get(value("MQCA_Q_NAME"), b""))
        queue = self.qm.queues.get(name)
        if queue is None:
            raise PcfFailure("MQRC_UNKNOWN_OBJECT_NAME")
        if queue.definition.QType != value("MQQT_LOCAL"):
            raise PcfFailure("MQRCCF_Q_WRONG_TYPE")
        own = self.emulator.connections(self.qmgr)
        if any(h.queue == name and any(c.hconn == h.hconn for c in own.values()) for h in self.qm.handles.values()) \
                or any(m.state != VISIBLE for m in queue.messages.values()):
            raise PcfFailure("MQRC_OBJECT_IN_USE")
        hconn = self.emulator.system_hconn(self.qmgr)
        world = self.server.world
        opened = world.open(self.qmgr, hconn, MQOD(name, ""), value("MQOO_INPUT_SHARED"))
        if opened.failed:
            raise PcfFailure("MQRC_OBJECT_IN_USE")
        options = value("MQGMO_NO_SYNCPOINT") | value("MQGMO_NO_WAIT") | value("MQGMO_ACCEPT_TRUNCATED_MSG")
        for _ in range(queue.depth + 1):
            if world.get(self.qmgr, hconn, opened.hobj, MQMD(Version=2), MQGMO(Version=2, Options=options),
                         0).failed and not queue.depth:
                break
        world.close(self.qmgr, hconn, opened.hobj, 0)
        return None

    def handles(self, name: str) -> list[list[tuple[int, Any]]]:
        """Inquire Queue Status, StatusType MQIACF_Q_HANDLE, for one queue: one response per open handle.
        Clause: emulator.queue-handle-status."""
        value = self.value
        conns = {conn.hconn: conn for conn in self.emulator.connections(self.qmgr).values()}
        responses = []
        for handle in sorted(self.qm.handles.values(), key=lambda h: h.hobj):
            if handle.queue != name and handle.alias != name:
                continue
            conn = conns.get(handle.hconn)
            if conn is None:  # the emulator's own (the command server's)
                continue
            options = handle.options

            def flag(option: str, _options: int = options) -> int:
                return value("MQQSO_YES") if _options & value(option) else value("MQQSO_NO")

            input_type = (value("MQQSO_EXCLUSIVE") if options & value("MQOO_INPUT_EXCLUSIVE") else
                          value("MQQSO_SHARED") if options & (value("MQOO_INPUT_SHARED") | value("MQOO_INPUT_AS_Q_DEF"))
                          else value("MQQSO_NO"))
            responses.append([(value("MQCA_Q_NAME"), name),
                              (value("MQIACF_Q_STATUS_TYPE"), value("MQIACF_Q_HANDLE")),
                              (value("MQCACF_APPL_TAG"), conn.appl), (value("MQIA_APPL_TYPE"), value("MQAT_USER")),
                              (value("MQCACH_CHANNEL_NAME"), conn.channel),
                              (value("MQCACH_CONNECTION_NAME"), conn.conname),
                              (value("MQCACF_USER_IDENTIFIER"), conn.user),
                              (value("MQIACF_PROCESS_ID"), conn.pid), (value("MQIACF_THREAD_ID"), 0),
                              (value("MQIACF_OPEN_OPTIONS"), options),
                              (value("MQIACF_OPEN_BROWSE"), flag("MQOO_BROWSE")),
                              (value("MQIACF_OPEN_INPUT_TYPE"), input_type),
                              (value("MQIACF_OPEN_INQUIRE"), flag("MQOO_INQUIRE")),
                              (value("MQIACF_OPEN_OUTPUT"), flag("MQOO_OUTPUT")),
                              (value("MQIACF_OPEN_SET"), flag("MQOO_SET")),
                              (value("MQIACF_HANDLE_STATE"), value("MQHSTATE_ACTIVE"))])
        return responses

    # -- topics and subscriptions ---------------------------------------------------------------------------
    def _topics(self) -> dict[str, Any]:
        from mq_conformance.reference.topics import topic_object

        found = dict(self.qm.pubsub.topics)
        found[BASE_TOPIC] = topic_object(self.qm.pubsub, self.qm.spec, BASE_TOPIC)
        return found

    def _describe_topic(self, name: str, definition: Any, wanted: set[int] | None) -> list[tuple[int, Any]]:
        value = self.value
        response = [(value("MQCA_TOPIC_NAME"), name), (value("MQIA_TOPIC_TYPE"), value("MQTOPT_LOCAL"))]
        attributes = [(value(parameter), getattr(definition, attribute))
                      for attribute, parameter in TOPIC_PARAMETERS.items()]
        extras = self.emulator.topic_extras.get((self.qmgr, name), {})
        attributes += [(value("MQCA_TOPIC_DESC"), extras.get("MQCA_TOPIC_DESC", "")),
                       (value("MQCA_ALTERATION_DATE"), extras.get("date", self.emulator.created[0])),
                       (value("MQCA_ALTERATION_TIME"), extras.get("time", self.emulator.created[1]))]
        return response + [(p, v) for p, v in attributes if wanted is None or p in wanted]

    def inquire_topic(self, parameters: dict[int, Any]) -> list[list[tuple[int, Any]]]:
        """Inquire Topic by (generic) name. Clause: emulator.topic-admin."""
        value = self.value
        pattern = self.required(parameters, "MQCA_TOPIC_NAME")
        wanted = _wanted(value, parameters, "MQIACF_TOPIC_ATTRS")
        topics = self._topics()
        from .inquiries import passes_filters

        responses = [self._describe_topic(n, topics[n], None if wanted == set() else wanted)
                     for n in sorted(topics) if generic_match(pattern, n)]
        responses = [r for r in responses if passes_filters(r, parameters, value)]
        if not responses:
            raise PcfFailure("MQRC_UNKNOWN_OBJECT_NAME")
        return responses

    def topic_names(self, parameters: dict[int, Any]) -> list[list[tuple[int, Any]]]:
        """Inquire Topic Names. Clause: emulator.topic-admin."""
        value = self.value
        pattern = self.required(parameters, "MQCA_TOPIC_NAME")
        names = [n.ljust(48) for n in sorted(self._topics()) if generic_match(pattern, n)]
        return [[(value("MQCACF_TOPIC_NAMES"), names)]]

    def define_topic(self, name: str, parameters: dict[int, Any]) -> None:
        """Create, Copy, Change or Delete Topic on the model's topic objects. Clause: emulator.topic-admin."""
        import dataclasses

        from mq_conformance.reference.topics import TopicDefinition

        value = self.value
        target = self.required(parameters, "MQCA_TOPIC_NAME")
        if len(target) > 48:
            raise PcfFailure("MQRCCF_OBJECT_NAME_ERROR")
        topics = self.qm.pubsub.topics
        existing = topics.get(target)
        if name == "MQCMD_DELETE_TOPIC":
            if existing is None:
                raise PcfFailure("MQRC_UNKNOWN_OBJECT_NAME")
            del topics[target]
            self.emulator.topic_extras.pop((self.qmgr, target), None)
            return None
        by_parameter = {value(parameter): attribute for attribute, parameter in TOPIC_PARAMETERS.items()}
        control = {value(n) for n in ("MQCA_TOPIC_NAME", "MQIACF_REPLACE", "MQCACF_FROM_TOPIC_NAME",
                                      "MQIA_TOPIC_TYPE", "MQCACF_COMMAND_SCOPE", "MQIA_QSG_DISP")}
        given: dict[str, Any] = {}
        description = None
        for parameter, raw in parameters.items():
            if parameter in control:
                continue
            if parameter == value("MQCA_TOPIC_DESC"):
                description = text(raw)
                continue
            attribute = by_parameter.get(parameter)
            if attribute is None:
                raise PcfFailure("MQRCCF_CFST_PARM_ID_ERROR" if isinstance(raw, bytes) else
                                 "MQRCCF_CFIN_PARM_ID_ERROR")
            given[attribute] = text(raw) if attribute == "TopicString" else raw
        if name == "MQCMD_CHANGE_TOPIC":
            if existing is None:
                raise PcfFailure("MQRC_UNKNOWN_OBJECT_NAME")
            if "TopicString" in given and given["TopicString"] != existing.TopicString:
                raise PcfFailure("MQRCCF_PARM_VALUE_ERROR")  # a topic object's TOPICSTR cannot be altered
            base = existing
        else:
            if existing is not None and parameters.get(value("MQIACF_REPLACE"),
                                                       value("MQRP_NO")) != value("MQRP_YES"):
                raise PcfFailure("MQRCCF_OBJECT_ALREADY_EXISTS")
            if name == "MQCMD_COPY_TOPIC":
                source = self._topics().get(text(parameters.get(value("MQCACF_FROM_TOPIC_NAME"), b"")))
                if source is None:
                    raise PcfFailure("MQRC_UNKNOWN_OBJECT_NAME")
                base = source
            else:
                if not given.get("TopicString"):
                    raise PcfFailure("MQRCCF_PARM_MISSING")  # DEFINE TOPIC needs TOPICSTR
                base = TopicDefinition(target)
        self.emulator.define_topic_definition(self.qmgr, dataclasses.replace(base, name=target, **given))
        extras = self.emulator.topic_extras.setdefault((self.qmgr, target), {})
        if description is not None:
            extras["MQCA_TOPIC_DESC"] = description
        extras["date"], extras["time"] = self.emulator._stamp()  # noqa: SLF001 - the emulator's clock
        return None

    def topic_status(self, parameters: dict[int, Any]) -> list[list[tuple[int, Any]]]:
        """Inquire Topic Status: each known topic string matching (``#`` alone: all). Clause:
        emulator.topic-admin."""
        value = self.value
        pattern = self.required(parameters, "MQCA_TOPIC_STRING")
        status_type = parameters.get(value("MQIACF_TOPIC_STATUS_TYPE"), value("MQIACF_TOPIC_STATUS"))
        pubsub = self.qm.pubsub
        strings = {t.TopicString: n for n, t in self._topics().items()}
        known = set(strings) | {s.topic for s in pubsub.subscriptions.values()} | set(pubsub.retained)
        matching = sorted(s for s in known if pattern in ("#", "*") or s == pattern
                          or (pattern.endswith("/#") and s.startswith(pattern[:-1])))
        if not matching:
            raise PcfFailure("MQRCCF_TOPIC_STRING_NOT_FOUND" if self.server._has(  # noqa: SLF001
                "MQRCCF_TOPIC_STRING_NOT_FOUND") else "MQRC_UNKNOWN_OBJECT_NAME")
        responses = []
        for topic in matching:
            subs = [s for s in pubsub.subscriptions.values() if s.topic == topic]
            if status_type == value("MQIACF_TOPIC_SUB"):
                responses += [[(value("MQCA_TOPIC_STRING"), topic), (value("MQBACF_SUB_ID"), s.sub_id),
                               (value("MQIACF_DURABLE_SUBSCRIPTION"),
                                value("MQSUB_DURABLE_YES" if s.durable else "MQSUB_DURABLE_NO"))] for s in subs]
                continue
            admin = strings.get(topic, "")
            responses.append([(value("MQCA_TOPIC_STRING"), topic), (value("MQCA_ADMIN_TOPIC_NAME"), admin),
                              (value("MQIA_SUB_COUNT"), len(subs)),
                              (value("MQIACF_RETAINED_PUBLICATION"),
                               value("MQQSO_YES") if topic in pubsub.retained else value("MQQSO_NO"))])
        return responses

    def sub_status(self, parameters: dict[int, Any]) -> list[list[tuple[int, Any]]]:
        """Inquire Subscription Status by (generic) SubName or SubId. Clause: emulator.sub-status."""
        value = self.value
        pattern = text(parameters.get(value("MQCACF_SUB_NAME"), b""))
        sub_id = parameters.get(value("MQBACF_SUB_ID"))
        if not pattern and sub_id is None:
            raise PcfFailure("MQRCCF_PARM_MISSING")
        conns = {conn.hconn: hconn for hconn, conn in self.emulator.connections(self.qmgr).items()}
        from .pcf_objects import connection_id_of

        responses = []
        for s in sorted(self.qm.pubsub.subscriptions.values(), key=lambda s: s.ordinal):
            if sub_id is not None and bytes(sub_id) != s.sub_id:
                continue
            if sub_id is None and not generic_match(pattern, s.name):
                continue
            active = conns.get(s.hconn) if s.hconn is not None else None
            responses.append([(value("MQCACF_SUB_NAME"), s.name), (value("MQBACF_SUB_ID"), s.sub_id),
                              (value("MQBACF_CONNECTION_ID"),
                               connection_id_of(self.qmgr, active) if active is not None else b"\0" * 24),
                              (value("MQIACF_DURABLE_SUBSCRIPTION"),
                               value("MQSUB_DURABLE_YES" if s.durable else "MQSUB_DURABLE_NO")),
                              (value("MQIACF_SUB_TYPE"),
                               value("MQSUBTYPE_ADMIN" if s.hsub is None and s.durable and s.hconn is None
                                     and s.name in self.emulator.admin_subscriptions else "MQSUBTYPE_API")),
                              (value("MQCA_TOPIC_STRING"), s.topic)])
        if not responses:
            raise PcfFailure("MQRC_NO_SUBSCRIPTION")
        return responses
