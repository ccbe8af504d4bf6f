"""The command server's authority commands (PCF Set, Delete and Inquire Authority Records, Inquire Entity
Authority) and the authority each command needs (emulator/authority.py keeps the records).

- Set Authority Record (clause authority.records; "MQCMD_SET_AUTH_REC (Set Authority Record)",
  https://www.ibm.com/docs/en/ibm-mq/9.4.x?topic=reference-mqcmd-set-auth-rec-set-authority-record):
  ProfileName, ObjectType, PrincipalEntityNames and/or GroupEntityNames, AuthorityAdd and AuthorityRemove
  lists of MQAUTH_* values. No object type: MQRCCF_OBJECT_TYPE_MISSING; no entity: MQRCCF_ENTITY_NAME_MISSING; an
  authority the object type does not have: MQRCCF_AUTH_VALUE_ERROR.
- Delete Authority Record: the record of each entity named for the profile and type.
- Inquire Authority Records ("MQCMD_INQUIRE_AUTH_RECS (Inquire Authority Records) Response"): one response per
  record, EntityName, EntityType, ObjectType, ProfileName, AuthorizationList; Options MQAUTHOPT_NAME_EXPLICIT
  (the profile named only) or MQAUTHOPT_NAME_ALL_MATCHING (every profile matching the name), with
  MQAUTHOPT_ENTITY_EXPLICIT or MQAUTHOPT_ENTITY_SET for an EntityName.
- Inquire Entity Authority: the authorities one entity has on one object (AuthorizationList).

Command authority (clause authority.pcf; "Authorizations for PCF commands", "Commands and the authority they
need"): an Inquire needs dsp on the object named (a generic name: dsp on the queue manager), Create and Copy crt
on the object type (profile @class), Change chg, Delete dlt, Clear clr on the object; Reset Queue Statistics
dsp and chg on the queue; the rest chg on the queue manager (Set and Delete Authority Record) or dsp
(Ping, Inquire ... Status, Inquire Authority Records).
"""

from __future__ import annotations

from typing import Any

from .authority import MQZAET_GROUP, MQZAET_PRINCIPAL, expand, invalid_for, object_type_word, table
from .pcf import PcfFailure
from .pcf_status import text

COMMANDS = ("MQCMD_SET_AUTH_REC", "MQCMD_DELETE_AUTH_REC", "MQCMD_INQUIRE_AUTH_RECS", "MQCMD_INQUIRE_ENTITY_AUTH")

# PCF parameter naming the object of a command, by the object type's word
NAME_PARAMETERS = {"QUEUE": "MQCA_Q_NAME", "CHANNEL": "MQCACH_CHANNEL_NAME", "NAMELIST": "MQCA_NAMELIST_NAME",
                   "AUTHINFO": "MQCA_AUTH_INFO_NAME", "TOPIC": "MQCA_TOPIC_NAME"}
KINDS = {"_Q": "QUEUE", "_Q_NAMES": "QUEUE", "_Q_STATUS": "QUEUE", "_CHANNEL": "CHANNEL",
         "_CHANNEL_NAMES": "CHANNEL", "_CHANNEL_STATUS": "CHANNEL", "_NAMELIST": "NAMELIST",
         "_NAMELIST_NAMES": "NAMELIST", "_AUTH_INFO": "AUTHINFO", "_AUTH_INFO_NAMES": "AUTHINFO",
         "_TOPIC": "TOPIC", "_TOPIC_NAMES": "TOPIC"}


def needed(server: Any, name: str, parameters: dict[int, Any]) -> tuple[str, str, set[str]] | None:
    """(object type, object name, authorities) a command needs; None for one no authority decides (Escape: each
    MQSC command it carries is checked as its PCF command). Clause: authority.pcf."""
    if name == "MQCMD_ESCAPE":
        return None
    qmgr = server.qmgr
    verb, _, rest = name[len("MQCMD_"):].partition("_")
    kind = KINDS.get("_" + rest)
    if name == "MQCMD_RESET_Q_STATS":
        return "QUEUE", text(parameters.get(server._value("MQCA_Q_NAME"), b"")), {"MQAUTH_DISPLAY", "MQAUTH_CHANGE"}  # noqa: SLF001
    if kind is None or verb not in ("INQUIRE", "CREATE", "COPY", "CHANGE", "DELETE", "CLEAR"):
        if verb in ("SET", "DELETE") or name == "MQCMD_CHANGE_Q_MGR":
            return "QMGR", qmgr, {"MQAUTH_CHANGE"}
        return "QMGR", qmgr, {"MQAUTH_DISPLAY"}
    if verb in ("CREATE", "COPY"):
        return kind, "@class", {"MQAUTH_CREATE"}
    object_name = text(parameters.get(server._value(NAME_PARAMETERS[kind]), b""))  # noqa: SLF001
    if verb == "INQUIRE":
        if "*" in object_name or rest.endswith("_NAMES"):
            return "QMGR", qmgr, {"MQAUTH_DISPLAY"}
        return kind, object_name, {"MQAUTH_DISPLAY"}
    return kind, object_name, {"CHANGE": {"MQAUTH_CHANGE"}, "DELETE": {"MQAUTH_DELETE"},
                               "CLEAR": {"MQAUTH_CLEAR"}}[verb]


def check(server: Any, user: str, name: str, parameters: dict[int, Any]) -> None:
    """Refuse a command its user has not the authority for (MQRC_NOT_AUTHORIZED). Clause: authority.pcf."""
    authority = server.emulator.authority(server.qmgr)
    if not authority.enforcing:
        return
    need = needed(server, name, parameters)
    if need is None:
        return
    object_type, object_name, authorities = need
    if not authority.allows(user, object_type, object_name, authorities):
        from .pcf import refuse_log

        refuse_log(f"MQRC_NOT_AUTHORIZED (2035): user {user!r} may not run {name} on {object_type.lower()} "
                   f"{object_name}")
        raise PcfFailure("MQRC_NOT_AUTHORIZED")


def run(server: Any, name: str, parameters: dict[int, Any]) -> list[list[tuple[int, Any]]] | None:
    """One authority command of ``server`` (pcf.CommandServer). Clause: authority.records."""
    value = server._value  # noqa: SLF001
    emulator, qmgr = server.emulator, server.qmgr
    authority = emulator.authority(qmgr)
    object_number = parameters.get(value("MQIACF_OBJECT_TYPE"))
    profile = text(parameters.get(value("MQCACF_AUTH_PROFILE_NAME"), b""))
    if name == "MQCMD_INQUIRE_AUTH_RECS":
        return _inquire(server, authority, profile, object_number, parameters)
    if object_number is None:
        raise PcfFailure("MQRCCF_OBJECT_TYPE_MISSING")
    object_type = object_type_word(object_number, value)
    if object_type is None:
        raise PcfFailure("MQRCCF_PARM_VALUE_ERROR")
    if object_type == "QMGR" and not profile:
        profile = qmgr
    if not profile or len(profile) > 48:
        raise PcfFailure("MQRCCF_PROFILE_NAME_ERROR")
    entities = [(e, MQZAET_PRINCIPAL) for e in _names(parameters.get(value("MQCACF_PRINCIPAL_ENTITY_NAMES")))]
    entities += [(e, MQZAET_GROUP) for e in _names(parameters.get(value("MQCACF_GROUP_ENTITY_NAMES")))]
    if name == "MQCMD_INQUIRE_ENTITY_AUTH":
        entity = text(parameters.get(value("MQCACF_ENTITY_NAME"), b""))
        if not entity:
            raise PcfFailure("MQRCCF_ENTITY_NAME_MISSING")
        granted = authority.granted(entity, object_type, profile)
        return [[(value("MQCACF_ENTITY_NAME"), entity), (value("MQIACF_ENTITY_TYPE"), MQZAET_PRINCIPAL),
                 (value("MQIACF_OBJECT_TYPE"), object_number), (value("MQCACF_AUTH_PROFILE_NAME"), profile),
                 (value("MQIACF_AUTHORIZATION_LIST"), sorted(value(a) for a in granted))]]
    if not entities:
        raise PcfFailure("MQRCCF_ENTITY_NAME_MISSING")
    if name == "MQCMD_DELETE_AUTH_REC":
        for entity, entity_type in entities:
            authority.delete(profile, object_type, entity, entity_type)
    else:
        add = _authorities(value, parameters.get(value("MQIACF_AUTH_ADD_AUTHS")))
        remove = _authorities(value, parameters.get(value("MQIACF_AUTH_REMOVE_AUTHS")))
        if add is None or remove is None or invalid_for(add | remove, object_type):
            raise PcfFailure("MQRCCF_AUTH_VALUE_ERROR")
        try:
            for entity, entity_type in entities:
                authority.set(profile, object_type, entity, entity_type, add, remove)
        except OverflowError:
            raise PcfFailure("MQRC_STORAGE_NOT_AVAILABLE") from None  # the records' bound (authority.py)
    authority.enforcing = True  # records decide from the first set by command (authority.py)
    emulator.authority_changed(qmgr)
    return None


def _names(raw: Any) -> list[str]:
    if raw is None:
        return []
    items = raw if isinstance(raw, list) else [raw]
    return [n for n in (text(item)[:1024] for item in items) if n]


def _authorities(value, raw: Any) -> set[str] | None:
    """MQAUTH_* names of a list of values (None: a value that is no authority)."""
    if raw is None:
        return set()
    numbers = raw if isinstance(raw, list) else [raw]
    names = {value(n): n for n in (*table().authorities, *table().groups, "MQAUTH_ALL", "MQAUTH_NONE")}
    found = set()
    for number in numbers:
        if number not in names:
            return None
        found.add(names[number])
    return found


def _inquire(server: Any, authority: Any, profile: str, object_number: Any,
             parameters: dict[int, Any]) -> list[list[tuple[int, Any]]]:
    value = server._value  # noqa: SLF001
    from .authority import profile_matches

    options = parameters.get(value("MQIACF_AUTH_OPTIONS"), value("MQAUTHOPT_NAME_ALL_MATCHING"))
    explicit = bool(options & value("MQAUTHOPT_NAME_EXPLICIT"))
    object_type = None
    if object_number is not None and object_number != value("MQOT_ALL"):
        object_type = object_type_word(object_number, value)
        if object_type is None:
            raise PcfFailure("MQRCCF_PARM_VALUE_ERROR")
    entity = text(parameters.get(value("MQCACF_ENTITY_NAME"), b""))
    entity_type = parameters.get(value("MQIACF_ENTITY_TYPE"))
    groups = authority.groups_of(entity) if entity and options & value("MQAUTHOPT_ENTITY_SET") else set()
    responses = []
    for record in sorted(authority.records.values(), key=lambda r: (r.object_type, r.profile, r.entity)):
        if object_type is not None and record.object_type != object_type:
            continue
        if profile and (record.profile != profile if explicit else not (
                record.profile == profile or profile_matches(record.profile, profile)
                or profile_matches(profile, record.profile))):
            continue
        if entity and record.entity != entity and record.entity not in groups:
            continue
        if entity_type is not None and entity_type in (MQZAET_PRINCIPAL, MQZAET_GROUP) \
                and record.entity_type != entity_type and record.entity not in groups:
            continue
        number = value(table().object_types[record.object_type])
        responses.append([(value("MQCACF_ENTITY_NAME"), record.entity),
                          (value("MQIACF_ENTITY_TYPE"), record.entity_type),
                          (value("MQIACF_OBJECT_TYPE"), number),
                          (value("MQCACF_AUTH_PROFILE_NAME"), record.profile),
                          (value("MQIACF_AUTHORIZATION_LIST"), sorted(value(a) for a in expand(
                              record.authorities, record.object_type)))])
    if not responses:
        raise PcfFailure("MQRC_UNKNOWN_ENTITY" if entity else "MQRCCF_PROFILE_NAME_ERROR")
    return responses
