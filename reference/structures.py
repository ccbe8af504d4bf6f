"""MQI structures as plain dataclasses with IBM MQ's initial values (MQMD_DEFAULT, MQPMO_DEFAULT, ...).

Field names are MQ's own CamelCase so that a structure reads like the MQI reference. Option and flag fields hold
the numeric value; identifiers hold bytes. Only the fields the model's rules read or set are included; the rest
of an implementation's structure is outside this suite's scope.

Version rules (shared/mq-facts.md section 1): GroupId, MsgSeqNumber, Offset, MsgFlags and OriginalLength are
ignored in a version-1 MQMD; MatchOptions, GroupStatus, SegmentStatus and Segmentation in a version-1 MQGMO;
MsgToken and ReturnedLength below MQGMO version 3.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

MQMD_VERSION_1 = 1
MQMD_VERSION_2 = 2
MQGMO_VERSION_1 = 1
MQGMO_VERSION_2 = 2
MQGMO_VERSION_3 = 3
MQGMO_VERSION_4 = 4

NONE_ID = bytes(24)
NONE_TOKEN = bytes(16)
NONE_ACCOUNTING = bytes(32)


@dataclass(slots=True)
class MQMD:
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

    def copy(self) -> MQMD:
        """An independent copy (the model never shares a caller's descriptor).

        Spelled out field by field: the model copies a descriptor on every put and get, and this is several
        times faster than dataclasses.replace or copy.copy.
        """
        return MQMD(
            self.Version, self.Report, self.MsgType, self.Expiry, self.Feedback, self.Encoding,
            self.CodedCharSetId, self.Format, self.Priority, self.Persistence, self.MsgId, self.CorrelId,
            self.BackoutCount, self.ReplyToQ, self.ReplyToQMgr, self.UserIdentifier, self.AccountingToken,
            self.PutApplName, self.PutDate, self.PutTime, self.GroupId, self.MsgSeqNumber, self.Offset,
            self.MsgFlags, self.OriginalLength,
        )


@dataclass(slots=True)
class MQPMO:
    """Put-message options. Initial values as MQPMO_DEFAULT."""

    Version: int = 1
    Options: int = 0  # MQPMO_NONE
    ResolvedQName: str = ""
    ResolvedQMgrName: str = ""


@dataclass(slots=True)
class MQGMO:
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
