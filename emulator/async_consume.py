"""Asynchronous consumption (MQCB, MQCTL) for the emulated native module, in the application's own process.

IBM's ``ibmmq`` registers one dispatcher with the native module (``MQCBINIT``); ``Queue.cb``/``QueueManager.cb``
call MQCB and ``QueueManager.ctl`` calls MQCTL. Here each connection with callbacks has one consumer thread, as
IBM MQ's client runs one: while the connection is started it gets messages for each registered, resumed message
consumer (with the MQMD and MQGMO given at registration, through the same native MQGET the application's own gets
use, so in-process and ``mqconf emulator --listen`` alike) and calls the dispatcher with the message, an MQCBC of
CallType MQCBCT_MSG_REMOVED (MQCBCT_MSG_NOT_REMOVED for a browse or a message too long for MaxMsgLength), one
callback at a time per connection. As IBM documents ("MQCB - Manage callback", "MQCTL - Control callbacks",
"CallType (MQLONG)" of MQCBC; clause emulator.async-consume):

- MQOP_REGISTER defines or replaces the callback of an object handle (the event handler: of the connection);
  MQOP_DEREGISTER removes it (MQRC_CALLBACK_NOT_REGISTERED if there is none); MQOP_SUSPEND / MQOP_RESUME (alone
  or with MQOP_REGISTER) pause and continue a consumer; a CallbackType other than MQCBT_MESSAGE_CONSUMER or
  MQCBT_EVENT_HANDLER is MQRC_CALLBACK_TYPE_ERROR;
- MQCBDO_REGISTER_CALL, MQCBDO_START_CALL, MQCBDO_STOP_CALL and MQCBDO_DEREGISTER_CALL ask for the control calls
  of those names (register and deregister for consumers and event handlers, start and stop for consumers);
- MQCTL MQOP_START starts delivery on the consumer thread and returns; MQOP_START_WAIT delivers on the caller's
  thread until a callback issues MQOP_STOP, or fails at once with MQRC_NO_CALLBACKS_ACTIVE when no consumer is
  registered and resumed; MQOP_STOP stops (from a callback: once it returns); MQOP_SUSPEND and MQOP_RESUME pause
  and continue the whole connection;
- a consumer whose MQGMO waits and to which no message comes within its WaitInterval is called with
  MQCBCT_EVENT_CALL and MQRC_NO_MSG_AVAILABLE, and goes on waiting;
- a connection that breaks (its listener gone) is told to the event handler with MQCBCT_EVENT_CALL and
  MQRC_CONNECTION_BROKEN, and delivery stops.

Our decisions where the pages leave it open: a consumer whose MQGMO does not wait waits without end (it is never
called with MQRC_NO_MSG_AVAILABLE); a get that fails for another reason is given to the consumer as
MQCBCT_EVENT_CALL with that reason, and the consumer is then suspended (rather than retried at once); an exception
raised by a callback is logged and delivery goes on. Not modelled: other MQI calls of the connection from other
threads while it is started are not refused with MQRC_HCONN_ASYNC_ACTIVE, and read-ahead is not offered.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

LOG = logging.getLogger("mq_conformance.emulator")

MQCC_OK, MQCC_WARNING, MQCC_FAILED = 0, 1, 2
MQRC_NONE = 0
MQRC_HCONN_ERROR = 2018
MQRC_CONNECTION_BROKEN = 2009
MQRC_NO_MSG_AVAILABLE = 2033
MQRC_TRUNCATED_MSG_FAILED = 2080
MQRC_NO_CALLBACKS_ACTIVE = 2446
MQRC_CALLBACK_NOT_REGISTERED = 2448
MQRC_CALLBACK_TYPE_ERROR = 2483
MQRC_OPERATION_ERROR = 2488
MQOP_START, MQOP_START_WAIT, MQOP_STOP = 1, 2, 4
MQOP_REGISTER, MQOP_DEREGISTER, MQOP_SUSPEND, MQOP_RESUME = 0x100, 0x200, 0x10000, 0x20000
MQCBT_MESSAGE_CONSUMER, MQCBT_EVENT_HANDLER = 1, 2
MQCBDO_START_CALL, MQCBDO_STOP_CALL, MQCBDO_REGISTER_CALL, MQCBDO_DEREGISTER_CALL = 1, 4, 0x100, 0x200
MQCBCT_START_CALL, MQCBCT_STOP_CALL, MQCBCT_REGISTER_CALL, MQCBCT_DEREGISTER_CALL = 1, 2, 3, 4
MQCBCT_EVENT_CALL, MQCBCT_MSG_REMOVED, MQCBCT_MSG_NOT_REMOVED = 5, 6, 7
MQCS_NONE, MQCS_SUSPENDED, MQCS_STOPPED = 0, 3, 4
MQHO_NONE = 0
MQGMO_WAIT = 0x1
MQGMO_ACCEPT_TRUNCATED_MSG = 0x40
MQGMO_BROWSE = 0x10 | 0x20 | 0x800  # BROWSE_FIRST, BROWSE_NEXT, BROWSE_MSG_UNDER_CURSOR
MQWI_UNLIMITED = -1
MQCBD_FULL_MSG_LENGTH = -1
FULL_LENGTH = 100 * 1024 * 1024  # MQ's largest message
SLICE_MS = 100  # a consumer's wait is cut in slices this long, so MQCTL STOP is seen at once


@dataclass
class _Callback:
    kind: int  # MQCBT_*
    options: int  # MQCBDO_*
    max_length: int
    md: bytes = b""
    gmo: bytes = b""
    suspended: bool = False
    waited_ms: int = 0  # since the last message (a consumer whose MQGMO waits)
    register_call: bool = False  # an MQCBCT_REGISTER_CALL still to make


@dataclass
class _Connection:
    callbacks: dict[int, _Callback] = field(default_factory=dict)  # Hobj (MQHO_NONE: the event handler) -> it
    started: bool = False
    suspended: bool = False
    thread: threading.Thread | None = None
    delivering: threading.Thread | None = None  # the thread calling callbacks now


_lock = threading.RLock()
_connections: dict[int, _Connection] = {}
_dispatcher: list[Callable[..., Any]] = []


def init(function: Callable[..., Any]) -> None:
    """MQCBINIT: the Python layer's dispatcher, ``function(hconn, md, gmo, buffer, cbc)``."""
    _dispatcher[:] = [function]


def _layout(name: str):
    from .emulator import layout

    return layout(name)


def mqcb(calls: Any, hconn: int, operation: int, cbd: bytes, hobj: int, md: bytes, gmo: bytes) -> tuple[int, int]:
    """MQCB on the native functions ``calls`` (the in-process or the remote module) for a connection they own."""
    if not isinstance(operation, int) or operation & ~(MQOP_REGISTER | MQOP_DEREGISTER | MQOP_SUSPEND | MQOP_RESUME) \
            or bool(operation & MQOP_REGISTER) and bool(operation & MQOP_DEREGISTER) \
            or bool(operation & MQOP_SUSPEND) and bool(operation & MQOP_RESUME) or not operation:
        return MQCC_FAILED, MQRC_OPERATION_ERROR
    described = _layout("CBD").unpack(bytes(cbd)) if operation & MQOP_REGISTER else None
    kind = described.CallbackType if described is not None else None
    if kind is not None and kind not in (MQCBT_MESSAGE_CONSUMER, MQCBT_EVENT_HANDLER):
        return MQCC_FAILED, MQRC_CALLBACK_TYPE_ERROR
    key = MQHO_NONE if kind == MQCBT_EVENT_HANDLER else hobj
    calls_after: list[tuple[int, _Callback, int]] = []
    with _lock:
        connection = _connections.setdefault(hconn, _Connection())
        if operation & MQOP_REGISTER:
            replaced = connection.callbacks.get(key)
            callback = _Callback(kind, described.Options, described.MaxMsgLength, bytes(md or b""), bytes(gmo or b""),
                                 suspended=bool(replaced and replaced.suspended))
            connection.callbacks[key] = callback
            # IBM's layer keeps the callback only once MQCB has returned: the register call comes at the next
            # start, turn of the consumer thread, or deregistration
            callback.register_call = replaced is None and bool(callback.options & MQCBDO_REGISTER_CALL)
        else:
            key = hobj if hobj in connection.callbacks else (MQHO_NONE if hobj in (MQHO_NONE, -1) else hobj)
            callback = connection.callbacks.get(key)
            if callback is None:
                return MQCC_FAILED, MQRC_CALLBACK_NOT_REGISTERED
            if operation & MQOP_DEREGISTER:
                del connection.callbacks[key]
                if callback.register_call:
                    callback.register_call = False
                    calls_after.append((key, callback, MQCBCT_REGISTER_CALL))
                if callback.options & MQCBDO_DEREGISTER_CALL:
                    calls_after.append((key, callback, MQCBCT_DEREGISTER_CALL))
        if operation & MQOP_SUSPEND:
            callback.suspended = True
        if operation & MQOP_RESUME:
            callback.suspended = False
    for key, callback, call_type in calls_after:
        _control_call(hconn, key, callback, call_type)
    return MQCC_OK, MQRC_NONE


def mqctl(calls: Any, hconn: int, operation: int, ctlo: bytes) -> tuple[int, int]:
    """MQCTL on the native functions ``calls``."""
    with _lock:
        connection = _connections.setdefault(hconn, _Connection())
        if operation == MQOP_SUSPEND:
            connection.suspended = True
            return MQCC_OK, MQRC_NONE
        if operation == MQOP_RESUME:
            connection.suspended = False
            return MQCC_OK, MQRC_NONE
        if operation == MQOP_STOP:
            thread, was_started = connection.thread, connection.started
            connection.started = False
        elif operation in (MQOP_START, MQOP_START_WAIT):
            if operation == MQOP_START_WAIT and not _active(connection):
                return MQCC_FAILED, MQRC_NO_CALLBACKS_ACTIVE
            if connection.started:
                return MQCC_OK, MQRC_NONE
            connection.started = True
        else:
            return MQCC_FAILED, MQRC_OPERATION_ERROR
    if operation == MQOP_STOP:
        if was_started:
            if thread is not None and thread is not threading.current_thread():
                thread.join()
            _stop_calls(hconn, connection)
        return MQCC_OK, MQRC_NONE
    _start_calls(hconn, connection)
    if operation == MQOP_START_WAIT:
        if not _deliver(calls, hconn, connection, wait=True):
            return MQCC_FAILED, MQRC_NO_CALLBACKS_ACTIVE  # every consumer deregistered or suspended meanwhile
        return MQCC_OK, MQRC_NONE
    thread = threading.Thread(target=_deliver, args=(calls, hconn, connection), name=f"mq-consumer-{hconn:#x}",
                              daemon=True)
    with _lock:
        connection.thread = thread
    thread.start()
    return MQCC_OK, MQRC_NONE


def delivering_here(hconn: int) -> bool:
    """Whether the calling thread is ``hconn``'s delivering thread (its consumers' gets, its callbacks)."""
    connection = _connections.get(hconn)
    return connection is not None and connection.delivering is threading.current_thread()


def forget(hconn: int) -> None:
    """The connection is gone (MQDISC): its callbacks are stopped and deregistered (with their deregister calls)."""
    with _lock:
        connection = _connections.pop(hconn, None)
    if connection is None:
        return
    connection.started = False
    if connection.thread is not None and connection.thread is not threading.current_thread():
        connection.thread.join()
    for key, callback in list(connection.callbacks.items()):
        if callback.register_call:
            _control_call(hconn, key, callback, MQCBCT_REGISTER_CALL)
        if callback.options & MQCBDO_DEREGISTER_CALL:
            _control_call(hconn, key, callback, MQCBCT_DEREGISTER_CALL)


def _active(connection: _Connection) -> bool:
    return any(c.kind == MQCBT_MESSAGE_CONSUMER and not c.suspended for c in connection.callbacks.values())


def _register_calls(hconn: int, connection: _Connection) -> None:
    for key, callback in list(connection.callbacks.items()):
        if callback.register_call:
            callback.register_call = False
            _control_call(hconn, key, callback, MQCBCT_REGISTER_CALL)


def _start_calls(hconn: int, connection: _Connection) -> None:
    _register_calls(hconn, connection)
    for key, callback in list(connection.callbacks.items()):
        if callback.kind == MQCBT_MESSAGE_CONSUMER and callback.options & MQCBDO_START_CALL:
            _control_call(hconn, key, callback, MQCBCT_START_CALL)


def _stop_calls(hconn: int, connection: _Connection) -> None:
    for key, callback in list(connection.callbacks.items()):
        if callback.kind == MQCBT_MESSAGE_CONSUMER and callback.options & MQCBDO_STOP_CALL:
            _control_call(hconn, key, callback, MQCBCT_STOP_CALL)


def _deliver(calls: Any, hconn: int, connection: _Connection, wait: bool = False) -> bool:
    """The consumer loop: while the connection is started, one get per resumed consumer in turn. With ``wait``
    (MQOP_START_WAIT) it also ends when no consumer is registered and resumed: then False."""
    with _lock:
        connection.delivering = threading.current_thread()
    try:
        while connection.started:
            _register_calls(hconn, connection)
            if wait and not _active(connection):
                connection.started = False
                return False
            if connection.suspended or not _active(connection):
                time.sleep(SLICE_MS / 1000)
                continue
            consumers = [(k, c) for k, c in list(connection.callbacks.items())
                         if c.kind == MQCBT_MESSAGE_CONSUMER and not c.suspended]
            slice_ms = max(10, SLICE_MS // max(1, len(consumers)))
            for key, callback in consumers:
                if not connection.started or connection.suspended:
                    break
                if not _consume_one(calls, hconn, connection, key, callback, slice_ms):
                    return True
        return True
    finally:
        with _lock:
            connection.delivering = None


def _consume_one(calls: Any, hconn: int, connection: _Connection, key: int, callback: _Callback,
                 slice_ms: int) -> bool:
    """One get for one consumer (waiting at most ``slice_ms``) and its callback; False when the connection broke."""
    gmo_layout = _layout("GMO")
    gmo = gmo_layout.unpack(callback.gmo) if callback.gmo else gmo_layout.unpack(_default("GMO"))
    waits = bool(gmo.Options & MQGMO_WAIT)
    interval = gmo.WaitInterval
    gmo.Options |= MQGMO_WAIT
    gmo.WaitInterval = slice_ms
    md = callback.md or _default("MD")
    length = FULL_LENGTH if callback.max_length == MQCBD_FULL_MSG_LENGTH else max(0, callback.max_length)
    started = time.monotonic()
    data, md_out, gmo_out, data_length, comp, reason = calls.MQGET(hconn, key, md, gmo.pack(), length)
    if reason == MQRC_NO_MSG_AVAILABLE:
        callback.waited_ms += int((time.monotonic() - started) * 1000)
        if waits and interval != MQWI_UNLIMITED and callback.waited_ms >= interval:
            callback.waited_ms = 0
            _call(hconn, key, md, callback.gmo, b"", MQCBCT_EVENT_CALL, comp, reason, 0, 0)
        return True
    callback.waited_ms = 0
    if reason in (MQRC_HCONN_ERROR, MQRC_CONNECTION_BROKEN):
        connection.started = False
        handler = connection.callbacks.get(MQHO_NONE)
        if handler is not None:
            _call(hconn, MQHO_NONE, b"", b"", b"", MQCBCT_EVENT_CALL, MQCC_FAILED, MQRC_CONNECTION_BROKEN, 0, 0)
        return False
    if comp == MQCC_FAILED and reason != MQRC_TRUNCATED_MSG_FAILED:
        callback.suspended = True  # our decision: told once, then suspended rather than retried at once
        _call(hconn, key, md_out, gmo_out, b"", MQCBCT_EVENT_CALL, comp, reason, 0, 0)
        return True
    removed = not (gmo.Options & MQGMO_BROWSE) and reason != MQRC_TRUNCATED_MSG_FAILED
    _call(hconn, key, md_out, gmo_out, data, MQCBCT_MSG_REMOVED if removed else MQCBCT_MSG_NOT_REMOVED, comp,
          reason, data_length, length)
    return True


def _default(name: str) -> bytes:
    from .emulator import ibm

    return getattr(ibm(), name)().pack()


def _control_call(hconn: int, key: int, callback: _Callback, call_type: int) -> None:
    _call(hconn, key, callback.md if callback.kind == MQCBT_MESSAGE_CONSUMER else b"", callback.gmo, b"",
          call_type, MQCC_OK, MQRC_NONE, 0, 0)


def _call(hconn: int, hobj: int, md: bytes, gmo: bytes, data: bytes, call_type: int, comp: int, reason: int,
          data_length: int, buffer_length: int) -> None:
    """Call the Python layer's dispatcher with an MQCBC for one callback (one at a time per connection)."""
    if not _dispatcher:
        return
    from .emulator import ibm

    cbc = ibm().CBC(CallType=call_type, Hobj=hobj, CompCode=comp, Reason=reason, DataLength=data_length,
                    BufferLength=buffer_length)
    try:
        _dispatcher[0](hconn, md or None, gmo or None, data, cbc.pack())
    except Exception as exc:  # noqa: BLE001 - a callback's failure must not end the consumer thread
        LOG.warning("an asynchronous-consume callback raised %s: %s", type(exc).__name__, exc)
