"""The emulated queue manager's channels and object authority: who may connect on which channel, and what each
user may do to each object (fixtures/emulator/authority.yaml).

Channels (clause emulator.channel-admission; "MQCONN", reason codes 2540 MQRC_UNKNOWN_CHANNEL_NAME and 2539
MQRC_CHANNEL_CONFIG_ERROR): a client connects only on a server-connection channel the queue manager has
defined; a name no channel has is refused with MQRC_UNKNOWN_CHANNEL_NAME, a channel of another type with
MQRC_CHANNEL_CONFIG_ERROR. A client that names no channel (the emulator's own address mode) is not checked.

Authority (clauses authority.records, authority.mqi, authority.pcf, authority.developer; "Authority records",
https://www.ibm.com/docs/en/ibm-mq/9.4.x?topic=reference-mqcmd-set-auth-rec-set-authority-record; "SET AUTHREC",
https://www.ibm.com/docs/en/ibm-mq/9.4.x?topic=commands-set-authrec-set-authority-records; "Authorizations for
MQI calls", https://www.ibm.com/docs/en/ibm-mq/9.4.x?topic=access-authorizations-mqi-calls): a record grants
an entity (a principal, a user, or a group) authorities on the objects of one type whose names match a profile
(a name, or a generic profile with ``*``, ``**`` and ``?``). For one entity, the most specific profile that
matches the name decides; a user has what it and every group it is in are granted. Members of the mqm group have
every authority. MQCONN needs connect on the queue manager, MQOPEN the authority each of its options stands for
on the object it names (a model queue's, for a dynamic queue, whose creator is granted all MQI authorities on
it), MQPUT1 put and its context authorities, MQSUB sub and a put to a topic pub on the topic object that holds
the topic string's nearest administrative node; a command needs dsp to inquire, crt to create, chg to change,
dlt to delete, chg on the queue manager for the rest. Refused: MQRC_NOT_AUTHORIZED (2035).

The emulator's decision (recorded in the clauses): authority is checked once a record has been set or deleted
by command (Set/Delete Authority Record, SET AUTHREC, DELETE AUTHREC). Until then every user may do everything,
as before authority existed in the emulator, so applications that never set a record see no change; the
developer configuration's records are there from the start (inquired like any other) and apply from then on.
The records are kept as messages on SYSTEM.AUTH.DATA.QUEUE too, as a real queue manager keeps them.
"""

from __future__ import annotations

import getpass
import os
from dataclasses import dataclass, field
from functools import lru_cache
from importlib.resources import files
from typing import Any

import yaml

MQZAET_PRINCIPAL, MQZAET_GROUP = 1, 2  # cmqzc.h (not in IBM's Python package)
AUTH_DATA_QUEUE = "SYSTEM.AUTH.DATA.QUEUE"
MAX_PROFILE = 48
MAX_RECORDS = 10_000  # records one queue manager keeps: what a client may make it hold is bounded


@dataclass(frozen=True)
class Table:
    """fixtures/emulator/authority.yaml, read once."""

    authorities: dict[str, dict[str, Any]]  # MQAUTH_* -> {word, types}
    groups: dict[str, list[str]]
    group_words: dict[str, str]
    object_types: dict[str, str]  # OBJTYPE word -> MQOT_*
    open_options: dict[str, str]
    put1_options: dict[str, str]
    administrators: dict[str, Any]
    developer: dict[str, Any]


@lru_cache(maxsize=1)
def table() -> Table:
    """The authority table (clauses authority.records, authority.mqi, authority.developer)."""
    data = yaml.safe_load((files("mq_conformance.fixtures") / "emulator" / "authority.yaml").read_text())
    return Table(data["authorities"], data["groups"], data["group_words"], data["object_types"],
                 data["open_options"], data["put1_options"], data["administrators"], data["developer"])


def by_word() -> dict[str, str]:
    """SET AUTHREC word (upper case) -> MQAUTH_* name, the group words included."""
    t = table()
    words = {row["word"]: name for name, row in t.authorities.items()}
    words.update({word: name for name, word in t.group_words.items()})
    return words


# -- generic profiles -------------------------------------------------------------------------------------------
def profile_matches(profile: str, name: str) -> bool:
    """Whether an OAM profile matches an object name: ``?`` one character and ``*`` any characters within one
    qualifier (the parts between dots), a ``**`` qualifier any number of whole qualifiers. Tables over the
    qualifiers and characters (at most 48 each), never a backtracking regular expression. Clause:
    authority.records."""
    if len(profile) > MAX_PROFILE or len(name) > MAX_PROFILE:
        return profile == name
    if "*" not in profile and "?" not in profile:
        return profile == name
    pattern, parts = profile.split("."), name.split(".")
    # can[i][j]: pattern qualifiers from i match name qualifiers from j
    can = [[False] * (len(parts) + 1) for _ in range(len(pattern) + 1)]
    can[len(pattern)][len(parts)] = True
    for i in range(len(pattern) - 1, -1, -1):
        for j in range(len(parts), -1, -1):
            if pattern[i] == "**":
                can[i][j] = can[i + 1][j] or (j < len(parts) and can[i][j + 1])
            else:
                can[i][j] = j < len(parts) and _qualifier_matches(pattern[i], parts[j]) and can[i + 1][j + 1]
    return can[0][0]


def _qualifier_matches(pattern: str, text: str) -> bool:
    """One qualifier against a glob of ``*`` (any characters) and ``?`` (one character), as a table."""
    ends = {0}
    for char in pattern:
        if char == "*":
            ends = set(range(min(ends), len(text) + 1)) if ends else ends
        elif char == "?":
            ends = {e + 1 for e in ends if e < len(text)}
        else:
            ends = {e + 1 for e in ends if e < len(text) and text[e] == char}
        if not ends:
            return False
    return len(text) in ends


def specificity(profile: str) -> tuple[int, int, int]:
    """How specific a profile is, most specific largest: a name with no wildcard first, then the more characters
    before the first wildcard, then the fewer wildcards."""
    first = min([profile.find(c) for c in "*?" if c in profile] or [len(profile)])
    generic = "*" in profile or "?" in profile
    return (0 if generic else 1, first, -sum(profile.count(c) for c in "*?"))


# -- the records ------------------------------------------------------------------------------------------------
@dataclass
class Record:
    """One authority record: ``entity`` of ``entity_type`` (MQZAET_PRINCIPAL or MQZAET_GROUP) has
    ``authorities`` (MQAUTH_* names) on objects of type ``object_type`` (an OBJTYPE word) matching ``profile``."""

    profile: str
    object_type: str
    entity: str
    entity_type: int
    authorities: set[str] = field(default_factory=set)


@dataclass
class Authority:
    """One queue manager's records, who is in which group, and whether the records are enforced."""

    records: dict[tuple[str, str, str, int], Record] = field(default_factory=dict)
    members: dict[str, set[str]] = field(default_factory=dict)  # user -> its groups
    enforcing: bool = False

    def set(self, profile: str, object_type: str, entity: str, entity_type: int, add: set[str],
            remove: set[str]) -> Record:
        """Set Authority Record: add then remove authorities for one entity and profile."""
        key = (profile, object_type, entity, entity_type)
        if key not in self.records and len(self.records) >= MAX_RECORDS:
            raise OverflowError(f"more than {MAX_RECORDS} authority records")
        record = self.records.get(key) or Record(profile, object_type, entity, entity_type)
        if "MQAUTH_NONE" in remove or "MQAUTH_ALL" in remove:
            record.authorities.clear()
        record.authorities |= expand(add, object_type)
        record.authorities -= expand(remove, object_type)
        self.records[key] = record
        return record

    def delete(self, profile: str, object_type: str, entity: str, entity_type: int) -> bool:
        return self.records.pop((profile, object_type, entity, entity_type), None) is not None

    def groups_of(self, user: str) -> set[str]:
        return self.members.get(user, set())

    def granted(self, user: str, object_type: str, name: str) -> set[str]:
        """Every authority ``user`` has on the object ``name`` of ``object_type``: for the user and each of its
        groups, the record of the most specific matching profile; mqm's members have all. Clause:
        authority.records."""
        groups = self.groups_of(user)
        if table().administrators["group"] in groups:
            return set(table().authorities)
        entities = [(user, MQZAET_PRINCIPAL)] + [(g, MQZAET_GROUP) for g in sorted(groups)]
        found: set[str] = set()
        for entity, entity_type in entities:
            best = None
            for record in self.records.values():
                if record.entity != entity or record.entity_type != entity_type or record.object_type != object_type:
                    continue
                if profile_matches(record.profile, name) and (
                        best is None or specificity(record.profile) > specificity(best.profile)):
                    best = record
            if best is not None:
                found |= best.authorities
        return found

    def allows(self, user: str, object_type: str, name: str, needed: set[str]) -> bool:
        """Whether ``user`` has every authority of ``needed`` (always, while records are not enforced).
        Clauses: authority.mqi, authority.pcf."""
        if not self.enforcing or not needed:
            return True
        return needed <= self.granted(user, object_type, name)


def expand(names: set[str], object_type: str) -> set[str]:
    """MQAUTH_* names with the group values (MQAUTH_ALL, MQAUTH_ALL_MQI, MQAUTH_ALL_ADMIN) spelt out, kept to those
    valid for ``object_type``."""
    t = table()
    out: set[str] = set()
    for name in names:
        if name == "MQAUTH_ALL":
            out |= set(t.authorities)
        elif name in t.groups:
            out |= set(t.groups[name])
        elif name != "MQAUTH_NONE":
            out.add(name)
    return {n for n in out if object_type in t.authorities.get(n, {}).get("types", ())}


def invalid_for(names: set[str], object_type: str) -> set[str]:
    """The single authorities among ``names`` that objects of ``object_type`` do not have."""
    t = table()
    return {n for n in names if n in t.authorities and object_type not in t.authorities[n]["types"]}


def own_user() -> str:
    """The user the emulator runs as: the queue manager's own, a member of mqm."""
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return str(os.getuid()) if hasattr(os, "getuid") else ""


def new_authority() -> Authority:
    """A new queue manager's authority: its own user and mqm in the mqm group, no record, nothing enforced."""
    admins = table().administrators
    members = {user: {admins["group"]} for user in admins["members"]}
    members.setdefault(own_user()[:12], set()).add(admins["group"])
    return Authority(members=members)


def add_developer(authority: Authority, qmgr: str) -> None:
    """What IBM's developer configuration adds: app in mqclient, admin in mqm, mqclient's records. Clause:
    authority.developer."""
    dev = table().developer
    for user, groups in dev["members"].items():
        authority.members.setdefault(user, set()).update(groups)
    words = by_word()
    for row in dev["records"]:
        authority.set(row["profile"].replace("{qmgr}", qmgr), row["type"], row["group"], MQZAET_GROUP,
                      {words[w] for w in row["authorities"]}, set())


def object_type_word(number: int, constant) -> str | None:
    """The OBJTYPE word of an MQOT_* value (None: not one authority records name)."""
    for word, name in table().object_types.items():
        if constant(name) == number:
            return word
    return None


def needed_for_open(options: int, constant) -> set[str]:
    """The authorities an MQOPEN's options need on the object. Clause: authority.mqi."""
    return {auth for option, auth in table().open_options.items() if options & (constant(option) or 0)}


def needed_for_put1(pmo_options: int, constant) -> set[str]:
    """The authorities an MQPUT1 needs on its queue: put, and those of its context options. Clause:
    authority.mqi."""
    return {"MQAUTH_OUTPUT"} | {auth for option, auth in table().put1_options.items()
                                if pmo_options & (constant(option) or 0)}


# -- channels -------------------------------------------------------------------------------------------------
def admit_channel(channel_type: int | None, svrconn: int) -> str | None:
    """The reason a client connecting on a channel is refused (None: admitted): ``channel_type`` is the channel
    definition's MQIACH_CHANNEL_TYPE, None when no channel has the name. Clause: emulator.channel-admission."""
    if channel_type is None:
        return "MQRC_UNKNOWN_CHANNEL_NAME"
    if channel_type != svrconn:
        return "MQRC_CHANNEL_CONFIG_ERROR"
    return None


def record_text(record: Record) -> bytes:
    """A record as the emulator keeps it on SYSTEM.AUTH.DATA.QUEUE (its own format, one record a message)."""
    kind = "principal" if record.entity_type == MQZAET_PRINCIPAL else "group"
    return (f"profile={record.profile} objtype={record.object_type} {kind}={record.entity} "
            f"authorities={','.join(sorted(record.authorities))}").encode("utf-8")
