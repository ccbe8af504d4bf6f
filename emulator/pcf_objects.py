"""The command server's other objects: namelists, channel definitions and authentication information objects
(PCF Create, Copy, Change, Delete, Inquire and Inquire ... Names of each), and Inquire Connection.

These are definitions a queue manager keeps and shows: a namelist is a list of names, a channel definition says
how a channel runs (a sender and its receiver move messages between the queue managers of one listener, started
and stopped by command: emulator/channels.py; a connection name only says where the listener is), an authentication information object says how credentials would be checked (the listener's
``--user`` and ``--require-user`` decide that). A new queue manager has the default objects IBM lists ("System
and default objects": server and client channels, authentication information, namelists), and IBM's developer
configuration adds DEV.ADMIN.SVRCONN, DEV.APP.SVRCONN and DEV.AUTHINFO (the queue manager's ConnAuth), from
fixtures/emulator/standing-objects.yaml (clause emulator.admin-objects).

Inquire Connection (clause emulator.inquire-connection) answers for the applications connected now: one response
per connection with MQIACF_CONN_INFO_CONN (its ConnectionId, ApplTag, ApplType MQAT_USER, ChannelName,
ConnectionName, UserId, ConnTag), one per open queue with MQIACF_CONN_INFO_HANDLE (ObjectName, ObjectType,
OpenOptions), both with MQIACF_CONN_INFO_ALL ("Inquire Connection" and its response, IBM MQ documentation).

IBM's pages name the commands' parameters and responses ("MQCMD_INQUIRE_NAMELIST (Inquire Namelist) Response",
"Inquire Channel", "MQCMD_INQUIRE_AUTH_INFO_NAMES (Inquire Authentication Information Object Names)", "Inquire
Connection (Response)"); where they name no reason code the choice is ours: MQRC_UNKNOWN_OBJECT_NAME (channels:
MQRCCF_CHANNEL_NOT_FOUND) for an object that does not exist, MQRCCF_OBJECT_ALREADY_EXISTS for a Create without
MQIACF_REPLACE, MQRCCF_CONNECTION_ID_ERROR when no connection matches.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Any

from .inquiries import generic_match, passes_filters
from .pcf import CommandGroup, PcfFailure
from .standing import constant, resolve, standing


@dataclass(frozen=True)
class Kind:
    """One kind of object: its PCF parameters and the standing table's rows for it."""

    name: str  # the parameter naming one object (MQCA_NAMELIST_NAME...)
    type: str | None  # the parameter of its type, when it has types (always returned with the name)
    all_types: str | None  # the type value that means every type
    attrs: str  # the parameter listing the attributes asked for
    names: str  # the Inquire ... Names response's list of names
    types: str | None  # ... and of their types
    copy_from: str  # Copy's parameter naming the object copied
    not_found: str
    length: int  # the longest name


KINDS = {
    "NAMELIST": Kind("MQCA_NAMELIST_NAME", None, None, "MQIACF_NAMELIST_ATTRS", "MQCACF_NAMELIST_NAMES", None,
                     "MQCACF_FROM_NAMELIST_NAME", "MQRC_UNKNOWN_OBJECT_NAME", 48),
    "CHANNEL": Kind("MQCACH_CHANNEL_NAME", "MQIACH_CHANNEL_TYPE", "MQCHT_ALL", "MQIACF_CHANNEL_ATTRS",
                    "MQCACH_CHANNEL_NAMES", "MQIACH_CHANNEL_TYPES", "MQCACF_FROM_CHANNEL_NAME",
                    "MQRCCF_CHANNEL_NOT_FOUND", 20),
    "AUTH_INFO": Kind("MQCA_AUTH_INFO_NAME", "MQIA_AUTH_INFO_TYPE", "MQAIT_ALL", "MQIACF_AUTH_INFO_ATTRS",
                      "MQCACF_AUTH_INFO_NAMES", None, "MQCACF_FROM_AUTH_INFO_NAME", "MQRC_UNKNOWN_OBJECT_NAME", 48),
}
TABLE = {"NAMELIST": ("namelists", "namelist_defaults"), "CHANNEL": ("channels", "channel_defaults"),
         "AUTH_INFO": ("auth_info", "auth_info_defaults")}
VERBS = ("CREATE", "COPY", "CHANGE", "DELETE", "INQUIRE")
COMMANDS = tuple(f"MQCMD_{verb}_{kind}" for kind in KINDS for verb in VERBS) + tuple(
    f"MQCMD_INQUIRE_{kind}_NAMES" for kind in KINDS) + ("MQCMD_INQUIRE_CONNECTION",)
# Parameters that steer a command rather than describe the object
CONTROL = ("MQIACF_REPLACE", "MQCACF_COMMAND_SCOPE", "MQIA_QSG_DISP", "MQIACF_CHANNEL_ATTRS", "MQIACF_NAMELIST_ATTRS",
           "MQIACF_AUTH_INFO_ATTRS")
MQNC_MAX_NAMELIST_NAME_COUNT = 256


def _text(raw: Any) -> str:
    if isinstance(raw, bytes | bytearray):
        return bytes(raw).split(b"\0", 1)[0].decode("utf-8", errors="replace").rstrip(" ")
    return str(raw).rstrip("\0 ")


def objects(emulator: Any, qmgr: str) -> dict[str, dict[str, dict[int, Any]]]:
    """The namelists, channels and authentication information objects of one queue manager: kind -> name ->
    attributes by parameter (selector) number, made from the standing table on first use. Clause:
    emulator.admin-objects."""
    kept = emulator.admin_objects
    found = kept.get(qmgr)
    if found is None:
        found = kept[qmgr] = {kind: {} for kind in KINDS}
        add_rows(emulator, qmgr, developer=False)
    return found


def add_rows(emulator: Any, qmgr: str, developer: bool) -> None:
    """Define the standing table's objects (``developer``: those IBM's developer configuration adds)."""
    table = standing().admin
    store = objects(emulator, qmgr)
    for kind, (rows_key, defaults_key) in TABLE.items():
        rows = (table.get("developer") or {}).get(rows_key, ()) if developer else table.get(rows_key, ())
        for row in rows:
            attributes = _numbered(table.get(defaults_key) or {})
            attributes.update(_numbered({key: value for key, value in row.items() if key != "name"}))
            attributes.update(_altered(emulator))
            store[kind][row["name"]] = attributes


def _numbered(row: dict[str, Any]) -> dict[int, Any]:
    """A table row's attributes by parameter number, their values resolved (constant names to numbers)."""
    found = {}
    for key, value in row.items():
        number = constant(key)
        if number is None:
            raise KeyError(f"standing-objects.yaml: {key} is no MQ constant")
        found[number] = list(value) if isinstance(value, list) else resolve(value, {})
    return found


def _altered(emulator: Any) -> dict[int, str]:
    date, time = emulator._stamp()  # noqa: SLF001 - the emulator's clock, as for queues
    return {constant("MQCA_ALTERATION_DATE"): date, constant("MQCA_ALTERATION_TIME"): time}


def _is_attribute(parameter: int) -> bool:
    """Whether a parameter number is an object attribute (MQIA_*, MQCA_*, MQIACH_*, MQCACH_*), not a command's
    own parameter (MQIACF_*, MQCACF_*)."""
    return 1 <= parameter <= 4000 and not (1001 <= parameter <= 1500 or 3001 <= parameter <= 3500)


class ObjectCommands(CommandGroup):
    """The commands of :data:`COMMANDS` for one command server (:class:`~.pcf.CommandServer`)."""

    @staticmethod
    def _number(name: str | None) -> int | None:
        return None if name is None else constant(name)

    def run(self, name: str, parameters: dict[int, Any]) -> list[list[tuple[int, Any]]] | None:
        if name == "MQCMD_INQUIRE_CONNECTION":
            return self.connections(parameters)
        verb, _, rest = name[len("MQCMD_"):].partition("_")
        names_only = rest.endswith("_NAMES")
        kind = rest[:-len("_NAMES")] if names_only else rest
        spec = KINDS[kind]
        store = objects(self.emulator, self.qmgr)[kind]
        if verb == "INQUIRE":
            return self.inquire(kind, spec, store, parameters, names_only)
        target = self._name(spec, parameters)
        if verb == "DELETE":
            if target not in store:
                raise PcfFailure(spec.not_found)
            del store[target]
            return None
        given = self._attributes(kind, spec, parameters)
        if verb == "CHANGE":
            if target not in store:
                raise PcfFailure(spec.not_found)
            self._check_type(spec, store[target], given)
            attributes = dict(store[target])
        else:  # CREATE, COPY
            existing = store.get(target)
            if existing is not None and parameters.get(self.value("MQIACF_REPLACE"),
                                                       self.value("MQRP_NO")) != self.value("MQRP_YES"):
                raise PcfFailure("MQRCCF_OBJECT_ALREADY_EXISTS")
            if verb == "COPY":
                source = _text(parameters.get(self.value(spec.copy_from), b""))
                if source not in store:
                    raise PcfFailure(spec.not_found)
                attributes = dict(store[source])
                self._check_type(spec, attributes, given)
            else:
                attributes = self._defaults(kind)
                if spec.type is not None and self.value(spec.type) not in given:
                    raise PcfFailure("MQRCCF_PARM_MISSING")
        attributes.update(given)
        attributes.update(_altered(self.emulator))
        store[target] = attributes
        return None

    def _name(self, spec: Kind, parameters: dict[int, Any]) -> str:
        raw = parameters.get(self.value(spec.name))
        if raw is None:
            raise PcfFailure("MQRCCF_PARM_MISSING")
        name = _text(raw)
        if not name or len(name) > spec.length:
            raise PcfFailure("MQRCCF_OBJECT_NAME_ERROR")
        return name

    def _check_type(self, spec: Kind, existing: dict[int, Any], given: dict[int, Any]) -> None:
        number = self._number(spec.type)
        if number is not None and number in given and given[number] != existing.get(number):
            raise PcfFailure("MQRCCF_OBJECT_WRONG_TYPE")

    @staticmethod
    def _defaults(kind: str) -> dict[int, Any]:
        return _numbered(standing().admin.get(TABLE[kind][1]) or {})

    def _attributes(self, kind: str, spec: Kind, parameters: dict[int, Any]) -> dict[int, Any]:
        """The attributes a Create, Copy or Change gives, by selector name: every parameter but the name and those
        that steer the command; a namelist's names are checked (at most 256 names of at most 48 characters)."""
        skip = {self._number(n) for n in (*CONTROL, spec.name, spec.copy_from)}
        given: dict[int, Any] = {}
        for parameter, value in parameters.items():
            if parameter in skip:
                continue
            if not _is_attribute(parameter) or isinstance(value, tuple):
                raise PcfFailure("MQRCCF_CFST_PARM_ID_ERROR" if isinstance(value, bytes) else
                                 "MQRCCF_CFIN_PARM_ID_ERROR")
            if isinstance(value, list):
                value = [_text(v) if isinstance(v, bytes | str) else v for v in value]
            elif isinstance(value, bytes | bytearray):
                value = _text(value)
            given[parameter] = value
        names = given.get(self.value("MQCA_NAMES"), [])
        if kind == "NAMELIST" and self.value("MQCA_NAMES") in given:
            # IBM's reader gives one name as a string, and an MQCFSL of no names (Count 0) as one empty string
            names = [names] if isinstance(names, str) else names
            names = given[self.value("MQCA_NAMES")] = [n for n in names if n != ""] if isinstance(names, list) \
                else names
        if kind == "NAMELIST":
            if not isinstance(names, list) or len(names) > MQNC_MAX_NAMELIST_NAME_COUNT \
                    or any(not isinstance(n, str) or len(n) > 48 for n in names):
                raise PcfFailure("MQRCCF_PARM_VALUE_ERROR")
        return given

    def inquire(self, kind: str, spec: Kind, store: dict[str, dict[int, Any]], parameters: dict[int, Any],
                names_only: bool) -> list[list[tuple[int, Any]]]:
        """Inquire (generic names, a type, an attribute list, integer and string filters) and Inquire ... Names."""
        pattern = _text(parameters.get(self.value(spec.name), b""))
        if not pattern:
            raise PcfFailure("MQRCCF_PARM_MISSING")
        type_number = self._number(spec.type)
        wanted_type = parameters.get(type_number) if type_number is not None else None
        if wanted_type == self._number(spec.all_types) or isinstance(wanted_type, tuple):  # a tuple: a filter
            wanted_type = None
        found = [name for name in sorted(store) if generic_match(pattern, name)
                 and (wanted_type is None or store[name].get(type_number) == wanted_type)]
        if names_only:
            response = [(self.value(spec.names), [n.ljust(spec.length) for n in found])]
            if spec.types:
                response.append((self.value(spec.types), [store[n].get(type_number, 0) for n in found]))
            return [response]
        responses = [self._describe(kind, spec, name, store[name], parameters) for name in found]
        responses = [r for r in responses if passes_filters(r, parameters, self.value)]
        if not responses:
            raise PcfFailure(spec.not_found if found or "*" not in pattern else "MQRC_UNKNOWN_OBJECT_NAME")
        return responses

    def _describe(self, kind: str, spec: Kind, name: str, attributes: dict[int, Any],
                  parameters: dict[int, Any]) -> list[tuple[int, Any]]:
        asked = parameters.get(self.value(spec.attrs), [self.value("MQIACF_ALL")])
        asked = asked if isinstance(asked, list) else [asked]
        wanted = None if self.value("MQIACF_ALL") in asked else set(asked) | {
            p for p, v in parameters.items() if isinstance(v, tuple)}
        response: list[tuple[int, Any]] = [(self.value(spec.name), name)]
        type_number = self._number(spec.type)
        if type_number is not None:
            response.append((type_number, attributes.get(type_number, 0)))
        shown = dict(attributes)
        if kind == "NAMELIST":
            names = shown.get(self.value("MQCA_NAMES")) or []
            shown[self.value("MQIA_NAME_COUNT")] = len(names)
            shown[self.value("MQCA_NAMES")] = [n.ljust(48) for n in names]
        for number, value in sorted(shown.items()):
            if number == type_number:
                continue
            if wanted is None or number in wanted:
                response.append((number, value))
        return response

    # -- Inquire Connection ---------------------------------------------------------------------------------
    def connections(self, parameters: dict[int, Any]) -> list[list[tuple[int, Any]]]:
        """Inquire Connection: the applications connected to this queue manager now. Clause:
        emulator.inquire-connection."""
        value = self.value
        specific = parameters.get(value("MQBACF_CONNECTION_ID"))
        generic = parameters.get(value("MQBACF_GENERIC_CONNECTION_ID"))
        if isinstance(generic, bytes | bytearray) and bytes(generic).strip(b"\0"):
            raise PcfFailure("MQRCCF_CONNECTION_ID_ERROR")  # a generic id may only be empty (every connection)
        info = parameters.get(value("MQIACF_CONN_INFO_TYPE"), value("MQIACF_CONN_INFO_CONN"))
        if info not in (value("MQIACF_CONN_INFO_CONN"), value("MQIACF_CONN_INFO_HANDLE"),
                        value("MQIACF_CONN_INFO_ALL")):
            raise PcfFailure("MQRCCF_PARM_VALUE_ERROR")
        asked = parameters.get(value("MQIACF_CONNECTION_ATTRS"), [value("MQIACF_ALL")])
        asked = asked if isinstance(asked, list) else [asked]
        wanted = None if value("MQIACF_ALL") in asked else set(asked) | {
            p for p, v in parameters.items() if isinstance(v, tuple)}
        responses = []
        qm = self.server.world.qmgr(self.qmgr)
        for hconn, conn in sorted(self.emulator.connections(self.qmgr).items()):
            connection_id = connection_id_of(self.qmgr, hconn)
            if specific is not None and bytes(specific) != connection_id:
                continue
            head = [(value("MQBACF_CONNECTION_ID"), connection_id)]
            described = self._connection(conn, connection_id)
            if not passes_filters(head + described, parameters, self.value):
                continue
            if info != value("MQIACF_CONN_INFO_HANDLE"):
                responses.append(head + [(value("MQIACF_CONN_INFO_TYPE"), value("MQIACF_CONN_INFO_CONN"))] + [
                    (p, v) for p, v in described if wanted is None or p in wanted])
            if info != value("MQIACF_CONN_INFO_CONN"):
                for handle in sorted((h for h in qm.handles.values() if h.hconn == conn.hconn),
                                     key=lambda h: h.hobj):
                    responses.append(head + [(value("MQIACF_CONN_INFO_TYPE"), value("MQIACF_CONN_INFO_HANDLE")),
                                             (value("MQCACF_OBJECT_NAME"), handle.queue),
                                             (value("MQIACF_OBJECT_TYPE"), value("MQOT_Q")),
                                             (value("MQIACF_OPEN_OPTIONS"), handle.options)])
        if not responses:
            raise PcfFailure("MQRCCF_CONNECTION_ID_ERROR")
        return responses

    def _connection(self, conn: Any, connection_id: bytes) -> list[tuple[int, Any]]:
        value = self.value
        return [(value("MQCACF_APPL_TAG"), conn.appl[:28]), (value("MQIA_APPL_TYPE"), value("MQAT_USER")),
                (value("MQCACH_CHANNEL_NAME"), conn.channel), (value("MQCACH_CONNECTION_NAME"), conn.conname),
                (value("MQCACF_USER_IDENTIFIER"), conn.user[:12]),
                (value("MQBACF_CONN_TAG"), (b"MQCONF" + connection_id).ljust(128, b"\0"))]


def connection_id_of(qmgr: str, hconn: int) -> bytes:
    """A connection's ConnectionId (MQ_CONNECTION_ID_LENGTH, 24 bytes): the queue manager's name and the
    connection's handle, unique while the queue manager runs."""
    return qmgr.encode("ascii", errors="replace")[:16].ljust(16, b"\0") + struct.pack(">Q", hconn)
