"""The command server's inquiries and its MQSC route: Inquire Queue, Inquire Queue Names, Inquire Queue Status,
Inquire Queue Manager, and Escape (MQCMD_ESCAPE) with MQSC DEFINE/ALTER/DELETE/DISPLAY of QLOCAL, QALIAS and
QMODEL (IBM MQ documentation: "Inquire Queue", "Inquire Queue Names", "Inquire Queue Status", "Inquire Queue
Manager", "Escape", and the MQSC commands DEFINE, ALTER, DELETE and DISPLAY QUEUE).

A queue's attributes are those MQINQ gives (the model's, the standing table's, CurrentQDepth and the open
counts), by their PCF parameter (the MQIA_*/MQCA_* selector); a generic name is a prefix followed by ``*``.
Integer and string filters (MQCFIF, MQCFSF) narrow Inquire Queue. Namelists, channel definitions and
authentication information are :mod:`.pcf_objects`'; what the emulator has no notion of (channel status,
authority records...) is refused with MQRC_FUNCTION_NOT_SUPPORTED.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from mq_conformance.reference import inquire as model_inquire
from mq_conformance.reference.queue import VISIBLE

from .standing import standing

if TYPE_CHECKING:
    from .pcf import CommandServer

Response = list[tuple[int, Any]]

# MQSC keyword -> (PCF parameter name, how its value is read): "int", "name" (a string), "yes" (a flag
# keyword whose presence sets the value), or a mapping of MQSC values to constant names.
MQSC_KEYWORDS: dict[str, tuple[str, Any]] = {
    "MAXDEPTH": ("MQIA_MAX_Q_DEPTH", "int"),
    "MAXMSGL": ("MQIA_MAX_MSG_LENGTH", "int"),
    "PUT": ("MQIA_INHIBIT_PUT", {"ENABLED": "MQQA_PUT_ALLOWED", "DISABLED": "MQQA_PUT_INHIBITED"}),
    "GET": ("MQIA_INHIBIT_GET", {"ENABLED": "MQQA_GET_ALLOWED", "DISABLED": "MQQA_GET_INHIBITED"}),
    "MSGDLVSQ": ("MQIA_MSG_DELIVERY_SEQUENCE", {"PRIORITY": "MQMDS_PRIORITY", "FIFO": "MQMDS_FIFO"}),
    "DEFPSIST": ("MQIA_DEF_PERSISTENCE", {"YES": "MQPER_PERSISTENT", "NO": "MQPER_NOT_PERSISTENT"}),
    "DEFPRTY": ("MQIA_DEF_PRIORITY", "int"),
    "DEFSOPT": ("MQIA_DEF_INPUT_OPEN_OPTION", {"SHARED": "MQOO_INPUT_SHARED", "EXCL": "MQOO_INPUT_EXCLUSIVE"}),
    "SHARE": ("MQIA_SHAREABILITY", ("yes", "MQQA_SHAREABLE")),
    "NOSHARE": ("MQIA_SHAREABILITY", ("yes", "MQQA_NOT_SHAREABLE")),
    "DEFTYPE": ("MQIA_DEFINITION_TYPE", {"TEMPDYN": "MQQDT_TEMPORARY_DYNAMIC",
                                         "PERMDYN": "MQQDT_PERMANENT_DYNAMIC"}),
    "TARGET": ("MQCA_BASE_Q_NAME", "name"),
    "BOTHRESH": ("MQIA_BACKOUT_THRESHOLD", "int"),
    "BOQNAME": ("MQCA_BACKOUT_REQ_Q_NAME", "name"),
    "TRIGGER": ("MQIA_TRIGGER_CONTROL", ("yes", "MQTC_ON")),
    "NOTRIGGER": ("MQIA_TRIGGER_CONTROL", ("yes", "MQTC_OFF")),
    "TRIGTYPE": ("MQIA_TRIGGER_TYPE", {"NONE": "MQTT_NONE", "FIRST": "MQTT_FIRST", "EVERY": "MQTT_EVERY",
                                       "DEPTH": "MQTT_DEPTH"}),
    "TRIGDPTH": ("MQIA_TRIGGER_DEPTH", "int"),
    "TRIGMPRI": ("MQIA_TRIGGER_MSG_PRIORITY", "int"),
    "DESCR": ("MQCA_Q_DESC", "name"),
    "TRIGDATA": ("MQCA_TRIGGER_DATA", "name"),
    "PROCESS": ("MQCA_PROCESS_NAME", "name"),
    "INITQ": ("MQCA_INITIATION_Q_NAME", "name"),
    "REPLACE": ("MQIACF_REPLACE", ("yes", "MQRP_YES")),
    "NOREPLACE": ("MQIACF_REPLACE", ("yes", "MQRP_NO")),
    "PURGE": ("MQIACF_PURGE", ("yes", "MQPO_YES")),
    "NOPURGE": ("MQIACF_PURGE", ("yes", "MQPO_NO")),
}
MQSC_TYPES = {"QLOCAL": "MQQT_LOCAL", "QALIAS": "MQQT_ALIAS", "QMODEL": "MQQT_MODEL"}
# The name DISPLAY QUEUE shows for each attribute (the MQSC keyword; MQINQ's otherwise)
DISPLAY_NAMES = {parameter: keyword for keyword, (parameter, reader) in MQSC_KEYWORDS.items()
                 if not isinstance(reader, tuple)}
DISPLAY_NAMES.update({"MQIA_CURRENT_Q_DEPTH": "CURDEPTH", "MQIA_OPEN_INPUT_COUNT": "IPPROCS",
                      "MQIA_OPEN_OUTPUT_COUNT": "OPPROCS", "MQIA_SHAREABILITY": "SHARE",
                      "MQIA_TRIGGER_CONTROL": "TRIGGER"})
_TOKEN = re.compile(r"\s*([A-Za-z0-9_.*]+)(?:\(\s*('(?:[^']|'')*'|[^)]*)\s*\))?")


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


class Inquiries:
    """The inquiries of one command server (:class:`~.pcf.CommandServer`)."""

    def __init__(self, server: CommandServer):
        self.server = server
        self.emulator = server.emulator
        self.qmgr = server.qmgr
        self.value = server._value  # noqa: SLF001 - the command server's constant lookup
        self.qm = server.world.qmgr(server.qmgr)

    def run(self, name: str, parameters: dict[int, Any]) -> list[Response]:
        from .pcf import PcfFailure

        if name == "MQCMD_INQUIRE_Q_MGR":
            return [self.qmgr_attributes(parameters)]
        if name == "MQCMD_ESCAPE":
            if parameters.get(self.value("MQIACF_ESCAPE_TYPE"), self.value("MQET_MQSC")) != self.value("MQET_MQSC"):
                raise PcfFailure("MQRCCF_ESCAPE_TYPE_ERROR")
            text = _text(parameters.get(self.value("MQCACF_ESCAPE_TEXT"), b""))
            ok, answer = self.mqsc(text)
            response = [[(self.value("MQIACF_ESCAPE_TYPE"), self.value("MQET_MQSC")),
                         (self.value("MQCACF_ESCAPE_TEXT"), answer)]]
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
        if definition.QType == self.value("MQQT_ALIAS"):
            readers.update(model_inquire.ALIAS_READERS)
        else:
            readers.update(model_inquire.LOCAL_READERS)
        values: dict[str, Any] = {selector: read(definition) for selector, read in readers.items()}
        if definition.QType == self.value("MQQT_LOCAL"):
            values.update({selector: read(queue) for selector, read in model_inquire.QUEUE_STATE.items()})
        values.update(self.emulator.extras(self.qmgr, name))
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
    def mqsc(self, text: str) -> tuple[bool, str]:
        """Run one MQSC command (DEFINE, ALTER, DELETE, DISPLAY of QLOCAL, QALIAS, QMODEL or QUEUE): whether it
        succeeded, and the text runmqsc would answer. Other commands are refused (MQRC_FUNCTION_NOT_SUPPORTED,
        named in the emulator's log)."""
        from .pcf import PcfFailure, refuse

        try:
            verb, kind, name, keywords = parse_mqsc(text)
        except NotRun as exc:
            refuse(f"the MQSC command {text.split('(')[0].strip()!r} ({exc})")
            raise PcfFailure("MQRC_FUNCTION_NOT_SUPPORTED") from None
        except ValueError as exc:
            return False, f"Syntax error in MQSC command: {exc}: {text}"
        try:
            if verb == "DISPLAY":
                return self.display(kind, name, keywords)
            parameters = self.pcf_parameters(kind, name, keywords)
            command = {"DEFINE": "MQCMD_CREATE_Q", "ALTER": "MQCMD_CHANGE_Q", "DELETE": "MQCMD_DELETE_Q"}[verb]
            self.server._run(self.value(command), parameters)  # noqa: SLF001
        except ValueError as exc:
            return False, f"Syntax error in MQSC command: {exc}: {text}"
        except PcfFailure as exc:
            return False, f"{verb} {kind}({name}) failed: {exc.reason}"
        done = {"DEFINE": "created", "ALTER": "changed", "DELETE": "deleted"}
        return True, f"IBM MQ queue {name} {done[verb]}."

    def pcf_parameters(self, kind: str, name: str, keywords: list[tuple[str, str | None]]) -> dict[int, Any]:
        """The PCF parameters of an MQSC DEFINE, ALTER or DELETE."""
        parameters: dict[int, Any] = {self.value("MQCA_Q_NAME"): name.encode("ascii")}
        if kind in MQSC_TYPES:
            parameters[self.value("MQIA_Q_TYPE")] = self.value(MQSC_TYPES[kind])
        for keyword, argument in keywords:
            entry = MQSC_KEYWORDS.get(keyword)
            if entry is None:
                raise ValueError(f"{keyword} is not a keyword the emulator knows")
            parameter, reader = entry
            if isinstance(reader, tuple):
                value: Any = self.value(reader[1])
            elif argument is None:
                raise ValueError(f"{keyword} needs a value")
            elif reader == "int":
                value = int(argument)
            elif reader == "name":
                value = argument.encode("utf-8")
            else:
                if argument.upper() not in reader:
                    raise ValueError(f"{keyword}({argument}) is not one of {', '.join(reader)}")
                value = self.value(reader[argument.upper()])
            parameters[self.value(parameter)] = value
        return parameters

    def display(self, kind: str, name: str, keywords: list[tuple[str, str | None]]) -> tuple[bool, str]:
        """DISPLAY QUEUE/QLOCAL/QALIAS/QMODEL(generic name) [ALL | attribute keywords]."""
        parameters: dict[int, Any] = {self.value("MQCA_Q_NAME"): name.encode("ascii")}
        if kind in MQSC_TYPES:
            parameters[self.value("MQIA_Q_TYPE")] = self.value(MQSC_TYPES[kind])
        names = self.matching(parameters)
        if not names:
            return False, f"IBM MQ object {name} not found."
        shown = {keyword for keyword, _ in keywords if keyword != "ALL"}
        blocks = []
        kinds = {self.value(v): k for k, v in MQSC_TYPES.items()}
        for queue in names:
            values = self.attributes_of(queue)
            lines = [f"QUEUE({queue})", f"TYPE({kinds.get(self.qm.queues[queue].definition.QType, 'QLOCAL')})"]
            for selector, value in sorted(values.items()):
                keyword = DISPLAY_NAMES.get(selector, selector)
                if selector in ("MQCA_Q_NAME", "MQIA_Q_TYPE") or (shown and keyword not in shown):
                    continue
                lines.append(self.shown(keyword, value))
            blocks.append("Display Queue details.\n   " + "\n   ".join(lines))
        return True, "\n".join(blocks)

    def shown(self, keyword: str, value: Any) -> str:
        """One attribute as DISPLAY shows it: a quoted string, an MQSC word (PUT(DISABLED), NOSHARE), a number."""
        if isinstance(value, str):
            return f"{keyword}('{value}')"
        for flag, (parameter, reader) in MQSC_KEYWORDS.items():
            if isinstance(reader, tuple) and DISPLAY_NAMES.get(parameter) == keyword \
                    and self.value(reader[1]) == value and flag not in ("REPLACE", "NOREPLACE", "PURGE", "NOPURGE"):
                return flag
        entry = MQSC_KEYWORDS.get(keyword)
        if entry is not None and isinstance(entry[1], dict):
            for word, constant in entry[1].items():
                if self.value(constant) == value:
                    return f"{keyword}({word})"
        return f"{keyword}({int(value)})"


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


class NotRun(ValueError):
    """An MQSC command outside what the emulator runs (another verb, another type of object)."""


def parse_mqsc(text: str) -> tuple[str, str, str, list[tuple[str, str | None]]]:
    """``(verb, object type, name, [(keyword, value or None)...])`` of one MQSC command; ValueError when it is not
    one the emulator runs."""
    tokens = [(m.group(1).upper(), m.group(2)) for m in _TOKEN.finditer(text.strip()) if m.group(1)]
    if len(tokens) < 2:
        raise ValueError("a command is VERB TYPE(name) [keywords]")
    (verb, _), (kind, name) = tokens[0], tokens[1]
    verb = {"DEF": "DEFINE", "DIS": "DISPLAY", "DELETE": "DELETE", "ALTER": "ALTER"}.get(verb, verb)
    kind = {"QL": "QLOCAL", "QA": "QALIAS", "QM": "QMODEL", "Q": "QUEUE"}.get(kind, kind)
    if verb not in ("DEFINE", "ALTER", "DELETE", "DISPLAY"):
        raise NotRun(f"the emulator runs DEFINE, ALTER, DELETE and DISPLAY, not {verb}")
    if kind not in (*MQSC_TYPES, "QUEUE") or (kind == "QUEUE" and verb != "DISPLAY"):
        raise NotRun(f"the emulator runs them for QLOCAL, QALIAS and QMODEL, not {kind}")
    if not name:
        raise ValueError(f"{kind} needs a name in parentheses")
    keywords = [(keyword, _unquote(argument)) for keyword, argument in tokens[2:]]
    return verb, kind, _unquote(name) or "", keywords


def _unquote(argument: str | None) -> str | None:
    if argument is None:
        return None
    argument = argument.strip()
    if len(argument) >= 2 and argument[0] == argument[-1] == "'":
        return argument[1:-1].replace("''", "'")
    return argument.upper() if argument and " " not in argument and not argument.startswith("'") else argument


def _text(raw: Any) -> str:
    if isinstance(raw, bytes):
        return raw.split(b"\0", 1)[0].decode("utf-8", errors="replace").rstrip(" ")
    return str(raw).rstrip("\0 ")

