"""The command server's inquiries: Inquire Queue, Inquire Queue Names, Inquire Queue Status and Inquire Queue
Manager (IBM MQ documentation: "Inquire Queue", "Inquire Queue Names", "Inquire Queue Status", "Inquire Queue
Manager"), and the route of Escape (MQCMD_ESCAPE) to the MQSC reader (:mod:`.mqsc`).

A queue's attributes are those MQINQ gives (the model's, the standing table's, CurrentQDepth and the open
counts), by their PCF parameter (the MQIA_*/MQCA_* selector); a generic name is a prefix followed by ``*``.
Integer and string filters (MQCFIF, MQCFSF) narrow Inquire Queue. Namelists, channel definitions and
authentication information are :mod:`.pcf_objects`', status and topics :mod:`.pcf_status`'.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mq_conformance.reference import inquire as model_inquire
from mq_conformance.reference.queue import VISIBLE

from .pcf import CommandGroup
from .standing import standing

if TYPE_CHECKING:
    from .pcf import CommandServer

Response = list[tuple[int, Any]]

def passes_filters(response: Response, parameters: dict[int, Any], value) -> bool:
    """Whether an object's shown attributes pass a PCF command's integer and string filters (MQCFIF, MQCFSF):
    one reading for queues and for the other objects (pcf_objects.py)."""
    values = dict(response)
    for parameter, given in parameters.items():
        if not isinstance(given, tuple) or len(given) != 2:
            continue
        operator, wanted = given
        have = values.get(parameter)
        if have is None:  # an attribute this type of object does not have: not shown
            return False
        if isinstance(wanted, bytes):
            wanted, have = _text(wanted), str(have).rstrip()
        if not compare(operator, have, wanted, value):
            return False
    return True


class Inquiries(CommandGroup):
    """The inquiries of one command server (:class:`~.pcf.CommandServer`)."""

    def run(self, name: str, parameters: dict[int, Any]) -> list[Response]:
        from .pcf import PcfFailure

        if name == "MQCMD_INQUIRE_Q_MGR":
            return [self.qmgr_attributes(parameters)]
        if name == "MQCMD_ESCAPE":
            if parameters.get(self.value("MQIACF_ESCAPE_TYPE"), self.value("MQET_MQSC")) != self.value("MQET_MQSC"):
                raise PcfFailure("MQRCCF_ESCAPE_TYPE_ERROR")
            text = _text(parameters.get(self.value("MQCACF_ESCAPE_TEXT"), b""))
            ok, answers = self.mqsc(text)
            response = [[(self.value("MQIACF_ESCAPE_TYPE"), self.value("MQET_MQSC")),
                         (self.value("MQCACF_ESCAPE_TEXT"), answer)] for answer in answers]
            if not ok:
                raise PcfFailure("MQRCCF_COMMAND_FAILED", response)
            return response
        names = self.matching(parameters)
        if name == "MQCMD_INQUIRE_Q_NAMES":
            types = [self.qm.queues[n].definition.QType for n in names]
            return [[(self.value("MQCACF_Q_NAMES"), [n.ljust(48) for n in names]),
                     (self.value("MQIACF_Q_TYPES"), types)]]
        if not names:
            raise PcfFailure("MQRC_UNKNOWN_OBJECT_NAME")
        if name == "MQCMD_INQUIRE_Q_STATUS":
            local = [n for n in names if self.qm.queues[n].definition.QType == self.value("MQQT_LOCAL")]
            status_type = parameters.get(self.value("MQIACF_Q_STATUS_TYPE"), self.value("MQIACF_Q_STATUS"))
            if status_type == self.value("MQIACF_Q_HANDLE"):  # the open handles and their owners: pcf_status.py
                from .pcf_status import StatusCommands

                handles = StatusCommands(self.server)
                return [r for n in local for r in handles.handles(n)] or [[]]
            if status_type != self.value("MQIACF_Q_STATUS"):
                raise PcfFailure("MQRCCF_PARM_VALUE_ERROR")
            return [self.status(n) for n in local]
        responses = [self.queue_attributes(n, parameters) for n in names]
        responses = [r for r in responses if self.passes(r, parameters)]
        if not responses:
            raise PcfFailure("MQRC_UNKNOWN_OBJECT_NAME")
        return responses

    # -- which queues -------------------------------------------------------------------------------------
    def matching(self, parameters: dict[int, Any]) -> list[str]:
        """The queues a (generic) MQCA_Q_NAME and an optional MQIA_Q_TYPE name, in name order."""
        from .pcf import PcfFailure

        pattern = _text(parameters.get(self.value("MQCA_Q_NAME"), b""))
        if not pattern:
            raise PcfFailure("MQRCCF_PARM_MISSING")
        qtype = parameters.get(self.value("MQIA_Q_TYPE"), self.value("MQQT_ALL"))
        found = []
        for name in sorted(self.qm.queues):
            if not generic_match(pattern, name):
                continue
            if qtype != self.value("MQQT_ALL") and self.qm.queues[name].definition.QType != qtype:
                continue
            found.append(name)
        return found

    def passes(self, response: Response, parameters: dict[int, Any]) -> bool:
        """Whether a queue's attributes pass the command's integer and string filters (MQCFIF, MQCFSF)."""
        return passes_filters(response, parameters, self.value)

    # -- what they show -----------------------------------------------------------------------------------
    def attributes_of(self, name: str) -> dict[str, Any]:
        """Every attribute of a queue MQINQ would show, by selector name."""
        queue = self.qm.queues[name]
        definition = queue.definition
        readers = dict(model_inquire.DEFINITION_READERS)
        remote = definition.QType == self.value("MQQT_REMOTE")
        if definition.QType == self.value("MQQT_ALIAS"):
            readers.update(model_inquire.ALIAS_READERS)
        elif remote:  # a remote queue definition or queue-manager alias: its own attributes only
            readers = dict(model_inquire.REMOTE_READERS)
        else:
            readers.update(model_inquire.LOCAL_READERS)
        values: dict[str, Any] = {selector: read(definition) for selector, read in readers.items()}
        if definition.QType == self.value("MQQT_LOCAL"):
            values.update({selector: read(queue) for selector, read in model_inquire.QUEUE_STATE.items()})
        # The standing attributes the model does not keep (a transmission queue's Usage is the model's), and
        # those the emulator keeps in its place (its description, trigger data)
        from .emulator import KEPT_HERE

        extras = self.emulator.extras(self.qmgr, name)
        values.update({k: v for k, v in extras.items() if (k not in values or k in KEPT_HERE)
                       and (not remote or k in KEPT_HERE)})
        return values

    def queue_attributes(self, name: str, parameters: dict[int, Any]) -> Response:
        """One Inquire Queue response: the queue's name and type, then the attributes asked for (all by
        default)."""
        asked = parameters.get(self.value("MQIACF_Q_ATTRS"), [self.value("MQIACF_ALL")])
        asked = asked if isinstance(asked, list) else [asked]
        wanted = None if self.value("MQIACF_ALL") in asked else set(asked)
        wanted = wanted if wanted is None else wanted | {p for p, v in parameters.items() if isinstance(v, tuple)}
        response: Response = [(self.value("MQCA_Q_NAME"), name), (self.value("MQIA_Q_TYPE"),
                                                                   self.qm.queues[name].definition.QType)]
        for selector, value in sorted(self.attributes_of(name).items()):
            number = self.server._has(selector) and self.value(selector)  # noqa: SLF001
            if not number or number in (self.value("MQCA_Q_NAME"), self.value("MQIA_Q_TYPE")):
                continue
            if wanted is None or number in wanted:
                response.append((number, int(value) if isinstance(value, bool) else value))
        return response

    def status(self, name: str) -> Response:
        """One Inquire Queue Status response (MQIACF_Q_STATUS): depth, open counts, uncommitted messages."""
        from .statistics import pcf_date_time

        queue = self.qm.queues[name]
        uncommitted = sum(1 for message in queue.messages.values() if message.state != VISIBLE)
        counts = self.emulator.counters(self.qmgr).queues.get(name)
        last_put = pcf_date_time(counts.last_put_ms) if counts and counts.last_put_ms is not None else ("", "")
        last_get = pcf_date_time(counts.last_get_ms) if counts and counts.last_get_ms is not None else ("", "")
        return [(self.value("MQCA_Q_NAME"), name),
                (self.value("MQIACF_Q_STATUS_TYPE"), self.value("MQIACF_Q_STATUS")),
                (self.value("MQIA_CURRENT_Q_DEPTH"), queue.depth),
                (self.value("MQIA_OPEN_INPUT_COUNT"), queue.open_input_count),
                (self.value("MQIA_OPEN_OUTPUT_COUNT"), queue.open_output_count),
                (self.value("MQIACF_UNCOMMITTED_MSGS"), uncommitted),
                (self.value("MQCACF_LAST_GET_DATE"), last_get[0]), (self.value("MQCACF_LAST_GET_TIME"), last_get[1]),
                (self.value("MQCACF_LAST_PUT_DATE"), last_put[0]), (self.value("MQCACF_LAST_PUT_TIME"), last_put[1]),
                (self.value("MQIACF_OLDEST_MSG_AGE"), -1)]

    def qmgr_attributes(self, parameters: dict[int, Any]) -> Response:
        """The Inquire Queue Manager response: every attribute of the standing table (or those asked for)."""
        asked = parameters.get(self.value("MQIACF_Q_MGR_ATTRS"), [self.value("MQIACF_ALL")])
        asked = asked if isinstance(asked, list) else [asked]
        wanted = None if self.value("MQIACF_ALL") in asked else set(asked)
        numbers = [self.value(s) for s in standing().qmgr if self.server._has(s)]  # noqa: SLF001
        values = self.emulator.qmgr_attribute_values(self.qmgr, numbers)
        return [(n, values[n]) for n in numbers if wanted is None or n in wanted]

    # -- MQSC ---------------------------------------------------------------------------------------------
    def mqsc(self, text: str) -> tuple[bool, list[str]]:
        """Run one MQSC command (emulator/mqsc.py): whether it succeeded, and the text of each response. A
        command the emulator does not run is refused (MQRC_FUNCTION_NOT_SUPPORTED, named in the log)."""
        from . import mqsc
        from .pcf import PcfFailure, refuse

        try:
            return mqsc.run(self.server, text)
        except mqsc.NotRun as exc:
            refuse(f"the MQSC command {exc}")
            raise PcfFailure("MQRC_FUNCTION_NOT_SUPPORTED") from None


def generic_match(pattern: str, name: str) -> bool:
    """MQ's generic names: ``*`` alone is every name, a prefix then ``*`` every name starting with it."""
    if pattern.endswith("*"):
        return name.startswith(pattern[:-1])
    return name == pattern


def compare(operator: int, have: Any, wanted: Any, value) -> bool:
    """An MQCFOP_* comparison of a filter."""
    if operator == value("MQCFOP_LIKE"):
        return generic_match(str(wanted), str(have))
    if operator == value("MQCFOP_NOT_LIKE"):
        return not generic_match(str(wanted), str(have))
    checks = {"MQCFOP_LESS": have < wanted, "MQCFOP_EQUAL": have == wanted, "MQCFOP_GREATER": have > wanted,
              "MQCFOP_NOT_LESS": have >= wanted, "MQCFOP_NOT_EQUAL": have != wanted,
              "MQCFOP_NOT_GREATER": have <= wanted}
    return next((result for name, result in checks.items() if value(name) == operator), True)


def _text(raw: Any) -> str:
    if isinstance(raw, bytes):
        return raw.split(b"\0", 1)[0].decode("utf-8", errors="replace").rstrip(" ")
    return str(raw).rstrip("\0 ")

