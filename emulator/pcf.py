"""The emulated queue manager's command server: PCF commands put to SYSTEM.ADMIN.COMMAND.QUEUE are run on the
model and answered on the request's ReplyToQ, as ``ibmmq.PCFExecute`` expects.

The command queue is a local queue of the model; after every MQPUT, MQPUT1, MQCMIT and MQDISC the emulator lets
the server take what has become visible on it. A request is parsed with IBM's own PCF reader
(``PCFExecute._unpack_option``, the layouts of ``ibmmq``'s CFH/CFIN/CFST/CFIL classes); the response is one
MQCFH of type MQCFT_RESPONSE (Control MQCFC_LAST) with the command's completion and reason, put with MQMT_REPLY,
Format MQFMT_ADMIN and the request's MsgId as CorrelId (IBM MQ's "Responses" to PCF commands).

Commands answered, as IBM documents them:

- Create Queue and Change Queue ("Change, Copy, and Create Queue", IBM MQ documentation,
  https://www.ibm.com/docs/en/SSFKSJ_9.2.0/com.ibm.mq.ref.adm.doc/q086990_.html): Create sets every attribute it
  does not give to the default local queue's value and needs MQIACF_REPLACE to replace an existing queue; Change
  leaves every attribute it does not give as it was. Local, model, alias and remote queues (with their
  DefinitionType, BaseQName, Usage, RemoteQName, RemoteQMgrName and XmitQName), and the backout and trigger
  attributes the model keeps; a remote queue with a blank RemoteQName is a queue-manager alias.
- Delete Queue ("MQCMD_DELETE_Q (Delete Queue)",
  https://www.ibm.com/docs/en/ibm-mq/10.0.x?topic=formats-mqcmd-delete-q-delete-queue, and "DELETE queues",
  https://ibm.com/docs/SSFKSJ_9.3.0/refadmin/q085890_.html): refused while an application has the queue open or
  it holds uncommitted messages, or while it holds messages unless MQIACF_PURGE is MQPO_YES.
- Change Queue Manager (MsgMarkBrowseInterval only) and Ping Queue Manager.
- Inquire Queue, Inquire Queue Names, Inquire Queue Status, Inquire Queue Manager and Escape (MQSC DEFINE, ALTER,
  DELETE, DISPLAY of queues): :mod:`.inquiries`.
- Create, Copy, Change, Delete, Inquire and Inquire ... Names of namelists, channel definitions and authentication
  information objects, and Inquire Connection: :mod:`.pcf_objects`.

The queue attributes are those of the model (:class:`mq_conformance.reference.queue.QueueDefinition`) and the
standing table's (:mod:`.standing`), by their PCF parameter (the MQIA_*/MQCA_* selector). Any other command fails
with MQRC_FUNCTION_NOT_SUPPORTED, named in the emulator's log; an unknown parameter with
MQRCCF_CFIN_PARM_ID_ERROR or MQRCCF_CFST_PARM_ID_ERROR. Where the pages name no reason code the choice is ours:
MQRCCF_OBJECT_OPEN for an open queue, MQRC_OBJECT_IN_USE for uncommitted messages, MQRC_Q_NOT_EMPTY for messages
without PURGE.
"""

from __future__ import annotations

import dataclasses
import struct
from typing import TYPE_CHECKING, Any

from mq_conformance.reference.queue import VISIBLE, QueueDefinition
from mq_conformance.reference.structures import MQGMO, MQMD, MQOD, MQPMO

from . import pcf_validate
from .standing import standing


def short_strings(data: bytes, offset: int, count: int) -> dict[int, bytes]:
    """The MQCFST parameters of one character (a generic name ``*``), which IBM's PCF reader drops; read from the
    layout: Type, StrucLength, Parameter, CodedCharSetId, StringLength, then the string."""
    found = {}
    for _ in range(count):
        if offset + 8 > len(data):
            break
        kind, length = struct.unpack_from("=ii", data, offset)
        if kind == 4 and offset + 20 <= len(data):  # MQCFT_STRING
            parameter, _ccsid, string_length = struct.unpack_from("=iii", data, offset + 8)
            if string_length == 1:
                found[parameter] = data[offset + 20:offset + 21]
        if length <= 0:
            break
        offset += length
    return found


def _bytes(value: Any) -> bytes:
    return value if isinstance(value, bytes) else str(value).encode("utf-8")


def char_length_of(parameter: int) -> int:
    from .emulator import char_length_of as length

    return length(parameter)


def string_length(parameter: int) -> int:
    """The length IBM's replies blank-pad a string parameter to: an object attribute's (MQCA_*) from IBM's MQINQ
    table, a command's and a channel's (MQCACF_*, MQCACH_*, MQCAMO_*) from the standing table's
    ``pcf_string_lengths``; 0 for a string IBM returns as long as it is."""
    if 2000 <= parameter < 3000:
        return char_length_of(parameter)
    return pcf_string_lengths().get(parameter, 0)


def pcf_string_lengths() -> dict[int, int]:
    """Parameter number -> padded length, from fixtures/emulator/standing-objects.yaml (read once)."""
    global _LENGTHS
    if _LENGTHS is None:
        from .standing import constant

        lengths = {}
        for parameter, length in standing().pcf_string_lengths.items():
            number = constant(parameter)
            size = length if isinstance(length, int) else constant(length)
            if number is not None and size:
                lengths[number] = size
        _LENGTHS = lengths
    return _LENGTHS


_LENGTHS: dict[int, int] | None = None


def command_name(module: Any, number: int) -> str:
    for name, value in vars(module).items():
        if value == number and name.startswith("MQCMD_"):
            return name
    return str(number)


def refuse_log(line: str) -> None:
    """One line in the emulator's log (a command refused for a reason other than a missing feature)."""
    from .emulator import LOG

    LOG.warning("%s", line)


def refuse(feature: str) -> None:
    from .emulator import refuse as log_refusal

    log_refusal(feature)

if TYPE_CHECKING:
    from .emulator import Emulator

COMMAND_QUEUE = "SYSTEM.ADMIN.COMMAND.QUEUE"

# PCF parameter (IBM's MQIA_* name) -> the model's queue attribute, and how PCF spells its values.
QUEUE_PARAMETERS: dict[str, str] = {
    "MQIA_MAX_MSG_LENGTH": "MaxMsgLength",
    "MQIA_MAX_Q_DEPTH": "MaxQDepth",
    "MQIA_INHIBIT_PUT": "InhibitPut",  # MQQA_PUT_INHIBITED (1) / MQQA_PUT_ALLOWED (0)
    "MQIA_INHIBIT_GET": "InhibitGet",  # MQQA_GET_INHIBITED (1) / MQQA_GET_ALLOWED (0)
    "MQIA_MSG_DELIVERY_SEQUENCE": "MsgDeliverySequence",
    "MQIA_DEF_PERSISTENCE": "DefPersistence",
    "MQIA_DEF_PRIORITY": "DefPriority",
    "MQIA_DEF_INPUT_OPEN_OPTION": "DefInputOpenOption",
    "MQIA_SHAREABILITY": "Shareability",
    "MQIA_DEFINITION_TYPE": "DefinitionType",  # of a model queue: the dynamic queues it makes
    "MQCA_BASE_Q_NAME": "BaseQName",  # of an alias queue
    "MQIA_BACKOUT_THRESHOLD": "BackoutThreshold",
    "MQCA_BACKOUT_REQ_Q_NAME": "BackoutRequeueQName",
    "MQIA_TRIGGER_CONTROL": "TriggerControl",
    "MQIA_TRIGGER_TYPE": "TriggerType",
    "MQIA_TRIGGER_DEPTH": "TriggerDepth",
    "MQIA_TRIGGER_MSG_PRIORITY": "TriggerMsgPriority",
    # distributed queuing (reference/distributed.py): a local queue's Usage (MQUS_TRANSMISSION: a transmission
    # queue), a remote queue definition's RNAME, RQMNAME and XMITQ (clause emulator.distributed-admin)
    "MQIA_USAGE": "Usage",
    "MQCA_REMOTE_Q_NAME": "RemoteQName",
    "MQCA_REMOTE_Q_MGR_NAME": "RemoteQMgrName",
    "MQCA_XMIT_Q_NAME": "XmitQName",
}
TEXT = {"BaseQName", "BackoutRequeueQName", "RemoteQName", "RemoteQMgrName", "XmitQName"}
QUEUE_TYPES = ("MQQT_LOCAL", "MQQT_MODEL", "MQQT_ALIAS", "MQQT_REMOTE")
QMGR_PARAMETERS: dict[str, str] = {"MQIA_MSG_MARK_BROWSE_INTERVAL": "MsgMarkBrowseInterval"}
BOOLEAN = {"InhibitPut", "InhibitGet"}
# Queue-manager attributes no command changes (what the queue manager is, not how it is set up)
FIXED_QMGR_ATTRIBUTES = frozenset({"MQCA_Q_MGR_NAME", "MQCA_Q_MGR_IDENTIFIER", "MQCA_VERSION", "MQIA_COMMAND_LEVEL",
                                   "MQIA_PLATFORM", "MQIA_CODED_CHAR_SET_ID", "MQCA_CREATION_DATE",
                                   "MQCA_CREATION_TIME", "MQCA_ALTERATION_DATE", "MQCA_ALTERATION_TIME",
                                   "MQIA_SYNCPOINT", "MQIA_MAX_PRIORITY", "MQCA_COMMAND_INPUT_Q_NAME",
                                   "MQIA_MAX_MSG_LENGTH", "MQIA_MSG_MARK_BROWSE_INTERVAL"})


class PcfFailure(Exception):
    """A command that fails: its reason code (an MQRC_* or MQRCCF_* name)."""

    def __init__(self, reason: str, responses: list | None = None):
        super().__init__(reason)
        self.reason = reason
        self.responses = responses  # what the failed command still answers (the text of a failed MQSC command)


class CommandGroup:
    """One group of the command server's commands (inquiries.py, pcf_objects.py, pcf_status.py): the server, its
    constant lookup, its emulator, queue manager and the model's queue manager."""

    def __init__(self, server: CommandServer):
        self.server = server
        self.value = server._value  # noqa: SLF001 - the command server's constant lookup
        self.emulator = server.emulator
        self.qmgr = server.qmgr
        self.qm = server.world.qmgr(server.qmgr)


class CommandServer:
    """Takes the visible requests off one queue manager's command queue and answers each."""

    def __init__(self, emulator: Emulator, qmgr: str):
        self.emulator = emulator
        self.world = emulator.world
        self.qmgr = qmgr
        self.ibmmq = emulator_ibm()
        self.cmqc, self.cmqcfc = self.ibmmq.CMQC, self.ibmmq.CMQCFC
        self.user = ""  # the user of the request being answered (its MQMD UserIdentifier): authority.py
        # PCF parameter -> a standing attribute's selector name (the attributes the model keeps no rule about)
        self._standing = {self._value(name): name for name in standing().queue if self._has(name)}

    def _has(self, name: str) -> bool:
        return any(isinstance(getattr(module, name, None), int) for module in (self.cmqc, self.cmqcfc,
                                                                                self.ibmmq.CMQXC))

    def _value(self, name: str) -> int:
        for module in (self.cmqc, self.cmqcfc, self.ibmmq.CMQXC):
            value = getattr(module, name, None)
            if isinstance(value, int):
                return value
        raise KeyError(name)

    def serve(self, hconn: int, hobj: int) -> None:
        """Answer every visible request on the command queue (opened for input as ``hobj`` of ``hconn``)."""
        no_msg = self._value("MQRC_NO_MSG_AVAILABLE")
        gmo_options = self._value("MQGMO_NO_SYNCPOINT") | self._value("MQGMO_NO_WAIT")
        for _ in range(10_000):
            gmo = MQGMO(Version=2, Options=gmo_options, MatchOptions=0)
            result = self.world.get(self.qmgr, hconn, hobj, MQMD(Version=2), gmo, None)
            if result.reason == no_msg or result.failed or result.md is None:
                return
            self._answer(hconn, result.md, result.data or b"")

    def _answer(self, hconn: int, request: MQMD, data: bytes) -> None:
        parameters, command = None, 0
        self.user = (request.UserIdentifier or "").strip()
        header_length = self.cmqcfc.MQCFH_STRUC_LENGTH
        commands = (self.cmqcfc.MQCFT_COMMAND, self.cmqcfc.MQCFT_COMMAND_XR)
        refused = pcf_validate.refusal(data, self.ibmmq)  # before IBM's reader believes any length
        if len(data) >= header_length and refused is None:
            header = self.ibmmq.CFH().unpack(data[:header_length])
            if header.Type in commands and header.StrucLength == header_length:
                try:
                    parameters, cfh = self.ibmmq.PCFExecute._unpack_option(data, True)
                    command = cfh.Command
                    parameters.update(short_strings(data, header_length, cfh.ParameterCount))
                except Exception:  # noqa: BLE001 - a malformed command is answered, never raised into the put
                    parameters = None
        responses: list[list[tuple[int, Any]]] = [[]]
        if parameters is None:
            comp, reason = self._value("MQCC_FAILED"), self._value(refused or "MQRCCF_STRUCTURE_TYPE_ERROR")
        else:
            try:
                responses = self._run(command, parameters) or [[]]
                comp, reason = self._value("MQCC_OK"), self._value("MQRC_NONE")
            except PcfFailure as exc:
                comp, reason = self._value("MQCC_FAILED"), self._value(exc.reason)
                responses = exc.responses or [[]]
        if not request.ReplyToQ.strip():
            return
        for index, response in enumerate(responses, 1):
            last = index == len(responses)
            header = self.ibmmq.CFH(Type=self.cmqcfc.MQCFT_RESPONSE, Command=command, MsgSeqNumber=index,
                                    Control=self.cmqcfc.MQCFC_LAST if last else self.cmqcfc.MQCFC_NOT_LAST,
                                    CompCode=comp, Reason=reason, ParameterCount=len(response))
            body = header.pack() + b"".join(self._pack(parameter, value) for parameter, value in response)
            md = MQMD(Version=2, MsgType=self._value("MQMT_REPLY"), Format="MQADMIN ", CorrelId=request.MsgId,
                      Persistence=request.Persistence, Priority=request.Priority)
            pmo = MQPMO(Version=2, Options=self._value("MQPMO_NO_SYNCPOINT"))
            self.world.put1(self.qmgr, hconn, MQOD(request.ReplyToQ.strip(), ""), md, pmo, body)

    def _pack(self, parameter: int, value: Any) -> bytes:
        """One PCF parameter of a response: MQCFIN, MQCFIL, MQCFST (blank-padded to the attribute's length) or
        MQCFSL."""
        ibmmq = self.ibmmq
        if isinstance(value, bool | int):
            return ibmmq.CFIN(Parameter=parameter, Value=int(value)).pack()
        if isinstance(value, list) and all(isinstance(v, int) for v in value) \
                and not (value == [] and 2000 <= parameter < 4000):  # no names: an empty MQCFSL
            return ibmmq.CFIL(Parameter=parameter, Values=list(value)).pack()
        if isinstance(value, list):
            width = max([len(_bytes(v)) for v in value] + [1])
            return ibmmq.CFSL(Parameter=parameter, Strings=[_bytes(v).ljust(width) for v in value]).pack()
        if 7000 <= parameter < 8000:  # an MQBACF_* byte string (a subscription's SUBID): MQCFBS
            return ibmmq.CFBS(Parameter=parameter, String=bytes(value)).pack()
        raw = _bytes(value)
        length = string_length(parameter)
        return ibmmq.CFST(Parameter=parameter, String=raw.ljust(length) if length else raw or b" ").pack()

    # -- the commands ---------------------------------------------------------------------------------------
    def _run(self, command: int, parameters: dict[int, Any]) -> list[list[tuple[int, Any]]] | None:
        """Run one command: the parameters of each response message (None: one response without any)."""
        known = {self._value(name): name for name in (
            "MQCMD_CREATE_Q", "MQCMD_CHANGE_Q", "MQCMD_DELETE_Q", "MQCMD_CHANGE_Q_MGR", "MQCMD_PING_Q_MGR",
            "MQCMD_INQUIRE_Q", "MQCMD_INQUIRE_Q_NAMES", "MQCMD_INQUIRE_Q_STATUS", "MQCMD_INQUIRE_Q_MGR",
            "MQCMD_ESCAPE", "MQCMD_CREATE_SUBSCRIPTION", "MQCMD_DELETE_SUBSCRIPTION", "MQCMD_INQUIRE_SUBSCRIPTION")}
        from .pcf_objects import COMMANDS as OBJECT_COMMANDS, ObjectCommands
        from . import pcf_authority
        from .pcf_status import COMMANDS as STATUS_COMMANDS, StatusCommands

        known.update({self._value(name): name for name in OBJECT_COMMANDS + STATUS_COMMANDS
                      + pcf_authority.COMMANDS if self._has(name)})
        name = known.get(command)
        if name is None:
            refuse(f"the PCF command {command_name(self.cmqcfc, command)}")
            raise PcfFailure("MQRC_FUNCTION_NOT_SUPPORTED")
        pcf_authority.check(self, self.user, name, parameters)  # clause authority.pcf
        if name == "MQCMD_PING_Q_MGR":
            return None
        if name in pcf_authority.COMMANDS:  # authority records: emulator/pcf_authority.py
            return pcf_authority.run(self, name, parameters)
        if name in OBJECT_COMMANDS:  # namelists, channels, authentication information, connections
            return ObjectCommands(self).run(name, parameters)
        if name in STATUS_COMMANDS:  # status, statistics, topics: emulator/pcf_status.py
            return StatusCommands(self).run(name, parameters)
        if name.endswith("_SUBSCRIPTION"):  # emulator/pcf_subscriptions.py
            from .pcf_subscriptions import run

            return run(self, name, parameters)
        if name.startswith("MQCMD_INQUIRE") or name == "MQCMD_ESCAPE":
            from .inquiries import Inquiries

            return Inquiries(self).run(name, parameters)
        if name == "MQCMD_CHANGE_Q_MGR":
            self._change_qmgr(parameters)
            return
        queue = self._queue_name(parameters)
        qm = self.world.qmgr(self.qmgr)
        if name == "MQCMD_DELETE_Q":
            self._delete(qm, queue, parameters)
            return
        attributes = self._queue_attributes(parameters, {"MQCA_Q_NAME", "MQIA_Q_TYPE", "MQIACF_REPLACE"})
        qtype = parameters.get(self._value("MQIA_Q_TYPE"))
        if qtype is not None and qtype not in {self._value(t) for t in QUEUE_TYPES}:
            raise PcfFailure("MQRCCF_Q_TYPE_ERROR")
        existing = qm.queues.get(queue)
        if existing is not None and qtype is not None and existing.definition.QType != qtype:
            raise PcfFailure("MQRCCF_Q_WRONG_TYPE")  # a queue of that name exists with another type
        if name == "MQCMD_CREATE_Q":
            replace = parameters.get(self._value("MQIACF_REPLACE"), self._value("MQRP_NO"))
            if existing is not None and replace != self._value("MQRP_YES"):
                raise PcfFailure("MQRCCF_OBJECT_ALREADY_EXISTS")
            if qtype is None:
                raise PcfFailure("MQRCCF_PARM_MISSING")  # Create Queue needs QType
            # the default queue of that type's attributes, as the model defines them
            base = QueueDefinition(queue, QType=qtype)
            if qtype == self._value("MQQT_MODEL"):  # DEFINE QMODEL's default: DEFTYPE(TEMPDYN)
                base.DefinitionType = self._value("MQQDT_TEMPORARY_DYNAMIC")
        else:
            if existing is None:
                raise PcfFailure("MQRC_UNKNOWN_OBJECT_NAME")
            base = existing.definition
        extras = {key: attributes.pop(key) for key in list(attributes) if key.startswith(("MQCA_", "MQIA_"))}
        self.world.define_queue(self.qmgr, dataclasses.replace(base, name=queue, **attributes), {})
        if existing is None or name == "MQCMD_CREATE_Q":
            self.emulator.defined(self.qmgr, queue, **extras)
        else:
            self.emulator.extras(self.qmgr, queue).update(extras)

    def _queue_name(self, parameters: dict[int, Any]) -> str:
        raw = parameters.get(self._value("MQCA_Q_NAME"))
        if not isinstance(raw, bytes | str):
            raise PcfFailure("MQRCCF_PARM_MISSING")
        name = (raw.decode("ascii", errors="replace") if isinstance(raw, bytes) else raw).rstrip("\0 ")
        if not name or len(name) > 48:
            raise PcfFailure("MQRCCF_OBJECT_NAME_ERROR")
        return name

    def _queue_attributes(self, parameters: dict[int, Any], allowed: set[str]) -> dict[str, Any]:
        by_number = {self._value(name): attribute for name, attribute in QUEUE_PARAMETERS.items()}
        ignored = {self._value(name) for name in allowed}
        attributes: dict[str, Any] = {}
        for parameter, value in parameters.items():
            if parameter in ignored:
                continue
            attribute = by_number.get(parameter) or self._standing.get(parameter)
            if attribute is None:
                raise PcfFailure("MQRCCF_CFST_PARM_ID_ERROR" if isinstance(value, bytes) else
                                 "MQRCCF_CFIN_PARM_ID_ERROR")
            if attribute.startswith(("MQCA_", "MQIA_")):  # a standing attribute (standing.py), kept as given
                attributes[attribute] = (value.rstrip(b"\0 ").decode("utf-8", errors="replace")
                                         if isinstance(value, bytes) else value)
                continue
            if attribute in TEXT:
                if not isinstance(value, bytes) or len(value.rstrip(b"\0 ")) > 48:
                    raise PcfFailure("MQRCCF_PARM_VALUE_ERROR")
                attributes[attribute] = value.rstrip(b"\0 ").decode("ascii", errors="replace")
                continue
            if not isinstance(value, int) or value < 0:
                raise PcfFailure("MQRCCF_PARM_VALUE_ERROR")
            attributes[attribute] = bool(value) if attribute in BOOLEAN else value
        return attributes

    def _delete(self, qm: Any, queue: str, parameters: dict[int, Any]) -> None:
        existing = qm.queues.get(queue)
        if existing is None:
            raise PcfFailure("MQRC_UNKNOWN_OBJECT_NAME")
        if queue == COMMAND_QUEUE or any(handle.queue == queue for handle in qm.handles.values()):
            raise PcfFailure("MQRCCF_OBJECT_OPEN")
        purge = parameters.get(self._value("MQIACF_PURGE"), self._value("MQPO_NO"))
        if any(message.state != VISIBLE for message in existing.messages.values()):
            raise PcfFailure("MQRC_OBJECT_IN_USE")
        if existing.depth and purge != self._value("MQPO_YES"):
            raise PcfFailure("MQRC_Q_NOT_EMPTY")
        self.emulator.forget_queue(self.qmgr, queue)

    def _change_qmgr(self, parameters: dict[int, Any]) -> None:
        """Change Queue Manager: the model's MsgMarkBrowseInterval, and the standing table's attributes an
        administrator may alter (ALTER QMGR: DESCR, DEADQ, STATQ, STATINT, ACCTQ...), kept as changes since
        creation. Clause: emulator.qmgr-attributes."""
        by_number = {self._value(name): attribute for name, attribute in QMGR_PARAMETERS.items()}
        standing_names = {self._value(name): name for name in standing().qmgr
                          if self._has(name) and name not in FIXED_QMGR_ATTRIBUTES}
        attributes, changes = {}, {}
        for parameter, value in parameters.items():
            attribute = by_number.get(parameter)
            if attribute is None and parameter in standing_names:
                if isinstance(value, bytes | bytearray):
                    changes[standing_names[parameter]] = bytes(value).split(b"\0", 1)[0].decode(
                        "utf-8", errors="replace").rstrip(" ")
                elif isinstance(value, int):
                    changes[standing_names[parameter]] = value
                else:
                    raise PcfFailure("MQRCCF_PARM_VALUE_ERROR")
                continue
            if attribute is None:
                raise PcfFailure("MQRCCF_CFST_PARM_ID_ERROR" if isinstance(value, bytes) else
                                 "MQRCCF_CFIN_PARM_ID_ERROR")
            if not isinstance(value, int) or value < -1:
                raise PcfFailure("MQRCCF_PARM_VALUE_ERROR")
            attributes[attribute] = value
        if attributes:
            self.world.qmgr(self.qmgr).alter_qmgr(**attributes)
        if changes.keys() & {"MQCA_DEF_XMIT_Q_NAME", "MQCA_DEAD_LETTER_Q_NAME"}:
            from .channels import model_routes

            model_routes(self.emulator, self.qmgr, changes)  # name resolution and the dead-letter queue
        if changes:
            date, time = self.emulator._stamp()  # noqa: SLF001 - the emulator's clock
            self.emulator.qmgr_changes.update(changes, MQCA_ALTERATION_DATE=date, MQCA_ALTERATION_TIME=time)


def emulator_ibm() -> Any:
    from .emulator import ibm

    return ibm()
