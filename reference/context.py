"""Message context on MQPUT and MQPUT1: who put the message, from where and when.

Sources: "Message context", "Controlling message context information", the MQMD field pages "UserIdentifier",
"PutApplName", "PutDate", "PutTime" and "ApplIdentityData", and the reason-code pages 2093-2097 (cited by title and
URL in fixtures/clauses.yaml).

The context fields of the call language's MQMD are UserIdentifier and AccountingToken (identity) and PutApplName,
PutDate and PutTime (origin). With MQPMO_DEFAULT_CONTEXT, or no context option, the queue manager fills them
whatever the application gave: the user and application name from its environment - in the model, the queue
manager's settings ``context_user`` and ``context_appl_name`` - and the date and time from its clock. With
MQPMO_SET_IDENTITY_CONTEXT the identity fields are the application's and the origin is generated; with
MQPMO_SET_ALL_CONTEXT every context field is the application's; with MQPMO_NO_CONTEXT they are blank. An MQPUT
that sets or passes context needs the queue opened with the matching MQOO_* context option (MQPUT1 opens the
queue itself). Passing context names the input handle in MQPMO's Context field, which the call language does
not carry, so a pass option always finds the field at its initial value, no handle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .constants import VALUES
from .handles import Connection, ObjectHandle
from .structures import MQMD, NONE_ACCOUNTING

if TYPE_CHECKING:
    from .qmgr import QueueManager

PMO_NO = VALUES["MQPMO_NO_CONTEXT"]
PMO_SET_IDENTITY = VALUES["MQPMO_SET_IDENTITY_CONTEXT"]
PMO_SET_ALL = VALUES["MQPMO_SET_ALL_CONTEXT"]
PMO_PASS_IDENTITY = VALUES["MQPMO_PASS_IDENTITY_CONTEXT"]
PMO_PASS_ALL = VALUES["MQPMO_PASS_ALL_CONTEXT"]
PMO_CONTEXT = PMO_NO | PMO_SET_IDENTITY | PMO_SET_ALL | PMO_PASS_IDENTITY | PMO_PASS_ALL
OO_SET_ALL = VALUES["MQOO_SET_ALL_CONTEXT"]
OO_SET_IDENTITY = VALUES["MQOO_SET_IDENTITY_CONTEXT"]
OO_PASS_ALL = VALUES["MQOO_PASS_ALL_CONTEXT"]
OO_PASS_IDENTITY = VALUES["MQOO_PASS_IDENTITY_CONTEXT"]
# Each put option, the open options any of which allows it (an option implies the weaker ones: "or another
# option that implies it", 2093-2096), and the reason when none was given.
NEEDS_OPEN = (
    (PMO_SET_ALL, OO_SET_ALL, "MQRC_NOT_OPEN_FOR_SET_ALL"),
    (PMO_SET_IDENTITY, OO_SET_IDENTITY | OO_SET_ALL, "MQRC_NOT_OPEN_FOR_SET_IDENT"),
    (PMO_PASS_ALL, OO_PASS_ALL | OO_SET_ALL, "MQRC_NOT_OPEN_FOR_PASS_ALL"),
    (PMO_PASS_IDENTITY, OO_PASS_IDENTITY | OO_PASS_ALL | OO_SET_IDENTITY | OO_SET_ALL,
     "MQRC_NOT_OPEN_FOR_PASS_IDENT"),
)
IDENTITY = ("UserIdentifier", "AccountingToken")
ORIGIN = ("PutApplName", "PutDate", "PutTime")


def check(handle: ObjectHandle | None, options: int) -> tuple[str, str] | None:
    """The failure (reason name, clause) of a put whose context option the handle was not opened for, or that
    passes context (the call language names no Context handle); None otherwise. ``handle`` is None for MQPUT1.

    Clauses: put.context.not-open-for-context, put.context.pass-needs-context-handle.
    """
    if not options & PMO_CONTEXT:
        return None
    if handle is not None:
        for option, allowed, reason in NEEDS_OPEN:
            if options & option and not handle.options & allowed:
                return reason, "put.context.not-open-for-context"
    if options & (PMO_PASS_IDENTITY | PMO_PASS_ALL):
        return "MQRC_CONTEXT_HANDLE_ERROR", "put.context.pass-needs-context-handle"
    return None


def apply(qm: QueueManager, conn: Connection, options: int, stored: MQMD) -> str:
    """Set the context fields of ``stored`` (a copy of the caller's MQMD) as the put's context option says;
    the clause applied. The environment is the connection's identity where it has one, else the queue manager's
    settings.

    Clauses: put.context.default, put.context.set-identity, put.context.set-all, put.context.none.
    """
    if options & PMO_SET_ALL:
        return "put.context.set-all"
    if options & PMO_NO:
        stored.UserIdentifier, stored.AccountingToken = "", NONE_ACCOUNTING
        stored.PutApplName, stored.PutDate, stored.PutTime = "", "", ""
        return "put.context.none"
    stored.PutDate, stored.PutTime = qm.clock.put_date_time()  # put.context.date-time
    stored.PutApplName = conn.appl_name or qm.context_appl_name
    if options & PMO_SET_IDENTITY:
        return "put.context.set-identity"
    stored.UserIdentifier, stored.AccountingToken = conn.user or qm.context_user, NONE_ACCOUNTING
    return "put.context.default"


_CLAUSES_OF = {applied: (applied, "put.context.date-time") if applied in ("put.context.default",
                                                                          "put.context.set-identity") else (applied,)
               for applied in ("put.context.default", "put.context.set-identity", "put.context.set-all",
                               "put.context.none")}


def clauses_of(applied: str) -> tuple[str, ...]:
    """The clauses of a put whose context ``apply`` set: the option's own, and put.context.date-time when the
    queue manager set PutDate and PutTime."""
    return _CLAUSES_OF[applied]


def returned(stored: MQMD, out: MQMD) -> None:
    """Copy the context the message was put with into the caller's MQMD: they are output fields of MQPUT and
    MQPUT1 (put.context.default). The fields are IDENTITY and ORIGIN, written out: this runs on every put."""
    out.UserIdentifier, out.AccountingToken = stored.UserIdentifier, stored.AccountingToken
    out.PutApplName, out.PutDate, out.PutTime = stored.PutApplName, stored.PutDate, stored.PutTime
