"""MQI structures as dataclasses with IBM MQ's initial values (MQMD_DEFAULT, MQPMO_DEFAULT, ...).

Field names are MQ's own CamelCase so that a structure reads like the MQI reference. Option and flag fields hold
the numeric value; identifiers hold bytes. Only the fields the model's rules read or set are included; the rest
of an implementation's structure is outside this suite's scope.

The initial values are the class's attributes; an instance holds only the fields that were given or set since,
and reads every other field as its initial value. An MQI program builds (and the model copies) structures on
every call, and this makes building one cost the fields given instead of all 25. Equality, repr,
``dataclasses.fields``, ``asdict`` and ``replace`` see every field, as for any dataclass. Fields are given by
keyword; an unknown field name is refused.

Version rules (IBM's MQI reference (clauses.yaml document `facts`)): GroupId, MsgSeqNumber, Offset, MsgFlags and OriginalLength are
ignored in a version-1 MQMD; MatchOptions, GroupStatus, SegmentStatus and Segmentation in a version-1 MQGMO;
MsgToken and ReturnedLength below MQGMO version 3.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

MQMD_VERSION_1 = 1
MQMD_VERSION_2 = 2
MQGMO_VERSION_1 = 1
MQGMO_VERSION_2 = 2
MQGMO_VERSION_3 = 3
MQGMO_VERSION_4 = 4

NONE_ID = bytes(24)
NONE_TOKEN = bytes(16)
NONE_ACCOUNTING = bytes(32)

_S = TypeVar("_S", bound="Structure")


class Structure:
    """An MQI structure: fields given as keywords, every other field at its initial value (a class attribute)."""

    _FIELDS: frozenset[str] = frozenset()

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        cls._FIELDS = frozenset(getattr(cls, "__annotations__", {}))

    def __init__(self, **given: object) -> None:
        if not self._FIELDS.issuperset(given):
            unknown = ", ".join(sorted(set(given) - self._FIELDS))
            raise TypeError(f"{type(self).__name__} has no field {unknown}")
        self.__dict__ = given  # a new dict: Python makes one for every call with **given

    @classmethod
    def of(cls: type[_S], fields: dict[str, object]) -> _S:
        """A structure holding ``fields`` (the dict itself, not a copy): how the model builds the output structures
        it returns on every call, without the keyword call's cost. Unlike the constructor it does not check the
        names (the model's own code gives them; the scenarios read every output field back)."""
        new = _new(cls)
        new.__dict__ = fields
        return new

    def copy(self: _S) -> _S:
        """An independent copy (the model never shares a caller's structure)."""
        new = _new(type(self))
        new.__dict__ = self.__dict__.copy()
        return new


_new = object.__new__


@dataclass(init=False, eq=True, repr=True)
class MQMD(Structure):
    """Message descriptor. Initial values as IBM's MQMD_DEFAULT (version 1)."""

    Version: int = MQMD_VERSION_1
    Report: int = 0  # MQRO_NONE
    MsgType: int = 8  # MQMT_DATAGRAM
    Expiry: int = -1  # MQEI_UNLIMITED
    Feedback: int = 0  # MQFB_NONE
    Encoding: int = 546  # MQENC_NATIVE
    CodedCharSetId: int = 0  # MQCCSI_Q_MGR
    Format: str = "        "  # MQFMT_NONE
    Priority: int = -1  # MQPRI_PRIORITY_AS_Q_DEF
    Persistence: int = 2  # MQPER_PERSISTENCE_AS_Q_DEF
    MsgId: bytes = NONE_ID
    CorrelId: bytes = NONE_ID
    BackoutCount: int = 0
    ReplyToQ: str = ""
    ReplyToQMgr: str = ""
    UserIdentifier: str = ""
    AccountingToken: bytes = NONE_ACCOUNTING
    PutApplName: str = ""
    PutDate: str = ""
    PutTime: str = ""
    GroupId: bytes = NONE_ID
    MsgSeqNumber: int = 1
    Offset: int = 0
    MsgFlags: int = 0  # MQMF_NONE
    OriginalLength: int = -1  # MQOL_UNDEFINED


@dataclass(init=False, eq=True, repr=True)
class MQPMO(Structure):
    """Put-message options. Initial values as MQPMO_DEFAULT."""

    Version: int = 1
    Options: int = 0  # MQPMO_NONE
    ResolvedQName: str = ""
    ResolvedQMgrName: str = ""
    PubLevel: int = 9  # the subscription level a publication targets (reference/publish.py, publish.level.*)


@dataclass(init=False, eq=True, repr=True)
class MQGMO(Structure):
    """Get-message options. Initial values as MQGMO_DEFAULT (MatchOptions MsgId and CorrelId)."""

    Version: int = MQGMO_VERSION_1
    Options: int = 0  # MQGMO_NO_WAIT
    WaitInterval: int = 0
    ResolvedQName: str = ""
    MatchOptions: int = 3  # MQMO_MATCH_MSG_ID | MQMO_MATCH_CORREL_ID
    GroupStatus: int = 32  # MQGS_NOT_IN_GROUP
    SegmentStatus: int = 32  # MQSS_NOT_A_SEGMENT
    Segmentation: int = 32  # MQSEG_INHIBITED
    MsgToken: bytes = NONE_TOKEN
    ReturnedLength: int = -1  # MQRL_UNDEFINED


@dataclass(slots=True)
class MQOD:
    """Object descriptor: the queue to open and, optionally, the queue manager that hosts it."""

    ObjectName: str = ""
    ObjectQMgrName: str = ""
    DynamicQName: str = "AMQ.*"  # the initial value outside z/OS; read only when ObjectName is a model queue
    ObjectType: int = 1  # MQOT_Q; MQOT_TOPIC opens a topic to publish on (reference/publish.py)
    ObjectString: str = ""  # a topic string, after the topic object's TopicString (reference/topics.py)
