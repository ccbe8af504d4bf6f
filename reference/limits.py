"""What one connection may hold, and the failures of a call past it.

IBM's queue manager attribute MaxHandles (document `maxhandles`, topic q102500_) bounds the object handles a
connection has open at one time, 256 by default outside z/OS; an MQOPEN past it fails with
MQRC_HANDLE_NOT_AVAILABLE (document `rc2017`; clause conn.handles.max). A queue manager short of storage fails the
call that needs it with MQRC_STORAGE_NOT_AVAILABLE (document `rc2071`; clause conn.storage.not-available): the model
served over the protocol (conformance/serve.py) has budgets for what a client may make it keep, and answers a call
past one that way. The values are data (:class:`Limits`); the checks are pure functions of counts.
"""

from __future__ import annotations

from dataclasses import dataclass

from .result import Result, failure

MiB = 1024 * 1024


@dataclass(frozen=True)
class Limits:
    """The bounds of one connection: ``max_handles`` is IBM's MaxHandles default; the others are the served
    model's budgets (decisions of conn.storage.not-available: a client cannot make the server grow without bound)."""

    max_handles: int = 256  # open object handles (MaxHandles)
    put_bytes: int = 256 * MiB  # message data put between resets (a put counts its message handle's properties)
    message_properties: int = 4096  # properties of one message handle
    message_property_bytes: int = 32 * MiB  # the bytes of one message handle's property names and values
    property_bytes: int = 64 * MiB  # the same over all the connection's message handles
    subscriptions: int = 1024  # open subscription handles


LIMITS = Limits()


def handle_refused(open_handles: int, limits: Limits = LIMITS) -> Result | None:
    """The failure of an MQOPEN on a connection that already holds ``open_handles`` handles: None below
    MaxHandles, else MQRC_HANDLE_NOT_AVAILABLE. Clause: conn.handles.max."""
    if open_handles >= limits.max_handles:
        return failure("MQRC_HANDLE_NOT_AVAILABLE", "conn.handles.max")
    return None


def storage_refused(used: int, more: int, budget: int) -> Result | None:
    """The failure of a call that would take ``more`` of a budget of which ``used`` is taken: None while it fits,
    else MQRC_STORAGE_NOT_AVAILABLE. Clause: conn.storage.not-available."""
    if used + more > budget:
        return failure("MQRC_STORAGE_NOT_AVAILABLE", "conn.storage.not-available")
    return None
