"""``mqconf serve --stdio``: the reference model as a server of the JSON-lines adapter protocol (protocol 1).

It is the protocol's reference server: running the suite through ``jsonlines:mqconf serve --stdio`` gives the
same results as running it on the model in process, and a server written in another language can be compared
with it line by line (``docs/implementers.md``).

Each request line gets exactly one reply line, except ``bye``. A line that is not a request (not UTF-8, not JSON,
not an object, an unknown type, a missing or ill-typed member, over the line limit) is answered with a one-line
``{"type": "error", "id": ..., "message": ...}``, and the server carries on. Only ``bye`` or the end of input ends
it, with status 0.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any, BinaryIO

from mq_conformance.adapters.jsonlines import MAX_ID, MAX_LINE, PROTOCOL, decode, encode, one_line
from mq_conformance.adapters.reference import ReferenceAdapter, outcome
from mq_conformance.reference.calls import Call, Outcome
from mq_conformance.reference.limits import LIMITS, handle_refused, storage_refused

from . import __version__

IMPLEMENTATION = {"name": "mq-conformance reference model", "version": __version__, "language": "Python"}
REQUEST_TYPES = ("hello", "reset", "call", "bye")
# What one connection of the served model may hold is reference/limits.py's (conn.handles.max,
# conn.storage.not-available): a client cannot make the server grow without bound.
_SKIP_CHUNK = 1 << 16


def error(ident: int | None, message: str) -> dict[str, Any]:
    """An error reply (``ident`` is the request's id when it could be read)."""
    return {"type": "error", "id": ident, "message": one_line(message) or "error"}


def _is_id(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_ID


class Server:
    """Answers protocol requests with an adapter (the reference model unless another is given)."""

    def __init__(self, adapter: Any = None, max_line: int = MAX_LINE, claim: frozenset[str] | None = None):
        self.adapter = adapter if adapter is not None else ReferenceAdapter()
        self.serves_model = adapter is None
        self.max_line = max_line
        # what the hello claims: the adapter's capabilities, or fewer (``mqconf serve --stdio --claim core``
        # plays an implementation that lacks the rest)
        self.claim = claim
        self.implementation = dict(IMPLEMENTATION) if adapter is None else {
            **IMPLEMENTATION, "name": str(getattr(adapter, "name", type(adapter).__name__))}
        self.handles: set[str] = set()  # the object handles open on this connection
        self.put_bytes = 0  # message data put since the last reset
        self.properties: dict[str, dict[str, int]] = {}  # message handle -> property name -> its bytes
        self.property_bytes = 0  # their sum
        self.subscriptions: set[str] = set()  # the subscription handles open on this connection

    def handle(self, line: bytes | str) -> tuple[dict[str, Any] | None, bool]:
        """The reply to one request line (None for ``bye``) and whether to stop. Never raises."""
        try:
            return self._handle(line)
        except Exception as exc:  # noqa: BLE001 - the last guard: a bug in a handler must not end the session
            return error(None, f"internal error of the server: {type(exc).__name__}: {exc}"), False

    def _handle(self, line: bytes | str) -> tuple[dict[str, Any] | None, bool]:
        raw = line.encode("utf-8", "surrogatepass") if isinstance(line, str) else line
        if len(raw) > self.max_line:
            return error(None, f"request line is {len(raw)} bytes, over the {self.max_line}-byte limit"), False
        if not raw.strip():
            return error(None, "empty request line"), False
        try:
            request = decode(raw)
        except ValueError as exc:
            return error(None, f"request is not JSON: {exc}"), False
        if not isinstance(request, dict):
            return error(None, f"a request is a JSON object, not {_json_type(request)}"), False
        kind = request.get("type")
        ident = request.get("id") if _is_id(request.get("id")) else None
        if kind not in REQUEST_TYPES:
            shown = json.dumps(kind, ensure_ascii=True)[:60] if isinstance(kind, str) else _json_type(kind)
            return error(ident, f"unknown request type {shown}; types: {', '.join(REQUEST_TYPES)}"), False
        extra = sorted(set(request) - _MEMBERS[kind])
        if extra:
            shown = json.dumps(extra[0], ensure_ascii=True)[:60]
            return error(ident, f"a {kind} request has no member {shown}; members: "
                                f"{', '.join(sorted(_MEMBERS[kind]))}"), False
        return self._HANDLERS[kind](self, request)

    # -- one handler per request type -------------------------------------------------------------------------
    def _hello(self, request: dict[str, Any]) -> tuple[dict[str, Any], bool]:
        protocol = request.get("protocol")
        if not isinstance(protocol, int) or isinstance(protocol, bool):
            return error(None, "a hello request needs 'protocol', a whole number"), False
        # Answer with the protocol spoken here whatever was asked: the suite decides what a difference means.
        capabilities = sorted(self.claim if self.claim is not None else getattr(self.adapter, "capabilities", ()))
        return {"type": "hello", "protocol": PROTOCOL, "implementation": dict(self.implementation),
                "capabilities": capabilities}, False

    def _reset(self, request: dict[str, Any]) -> tuple[dict[str, Any], bool]:
        self.adapter.reset()
        self.handles.clear()
        self.put_bytes = 0
        self.properties.clear()
        self.property_bytes = 0
        self.subscriptions.clear()
        return {"type": "reset", "ok": True}, False

    def _call(self, request: dict[str, Any]) -> tuple[dict[str, Any], bool]:
        ident = request.get("id")
        if not _is_id(ident):
            return error(None, f"a call request needs 'id', a whole number from 0 to {MAX_ID}"), False
        payload = request.get("call")
        if not isinstance(payload, dict) or not isinstance(payload.get("op"), str):
            return error(ident, "a call request needs 'call', an object with an 'op'"), False
        call = Call(payload["op"], {k: v for k, v in payload.items() if k != "op"})
        refused = self._over_budget(call)
        if refused is not None:
            return {"type": "outcome", "id": ident, "outcome": refused.to_json()}, False
        try:
            outcome = self.adapter.execute(call)
        except Exception as exc:  # noqa: BLE001 - the served adapter failed; that is the call's outcome
            outcome = Outcome(error=self._failed(exc))
        self._account(call, outcome)
        return {"type": "outcome", "id": ident, "outcome": outcome.to_json()}, False

    def _failed(self, exc: Exception) -> str:
        """The error of a call whose adapter raised: served alone, the adapter is the reference model, and its
        failure is the model's defect, never blamed on an implementation (the exception's text stays out: it is
        Python's, not MQ's)."""
        if self.serves_model:
            return f"the reference model failed on this call ({type(exc).__name__}): a defect of the model, " \
                   "not of the implementation under test; please report it"
        return one_line(f"the implementation raised {type(exc).__name__}: {exc}")

    def _over_budget(self, call: Call) -> Outcome | None:
        """The failure of a call the connection has no room for, as reference/limits.py answers it (clauses
        conn.handles.max, conn.storage.not-available), else None."""
        handle = call.args.get("handle")
        refused = None
        if call.op == "open" and handle not in self.handles:
            refused = handle_refused(len(self.handles))
        elif call.op in ("put", "put1"):
            refused = storage_refused(self.put_bytes, self._put_size(call), LIMITS.put_bytes)
        elif call.op == "setmp":
            refused = self._property_refused(call)
        elif call.op == "bufmh":
            refused = self._buffer_refused(call)
        elif call.op == "sub" and handle not in self.subscriptions:
            refused = storage_refused(len(self.subscriptions), 1, LIMITS.subscriptions)
        return None if refused is None else outcome(refused)

    def _held(self, hmsg: Any) -> dict[str, int]:
        return self.properties.get(hmsg, {}) if isinstance(hmsg, str) else {}

    def _put_size(self, call: Call) -> int:
        """The bytes a put adds: its data and the properties of the message handle it puts."""
        return data_size(call.args.get("data")) + sum(self._held(call.args.get("OriginalMsgHandle")).values())

    def _property_refused(self, call: Call):
        """The failure of an MQSETMP past the budgets of its message handle or of the connection, else None."""
        held, name = self._held(call.args.get("hmsg")), call.args.get("Name")
        if not isinstance(name, str):
            return None  # the model refuses it
        grows = property_size(name, call.args.get("Value")) - held.get(name, 0)
        return (None if name in held else storage_refused(len(held), 1, LIMITS.message_properties)) \
            or storage_refused(sum(held.values()), grows, LIMITS.message_property_bytes) \
            or storage_refused(self.property_bytes, grows, LIMITS.property_bytes)

    def _buffer_refused(self, call: Call):
        """The failure of an MQBUFMH past the budgets: the properties it sets count as its buffer's bytes."""
        grows = data_size(call.args.get("data"))
        return storage_refused(sum(self._held(call.args.get("hmsg")).values()), grows, LIMITS.message_property_bytes) \
            or storage_refused(self.property_bytes, grows, LIMITS.property_bytes)

    def _account(self, call: Call, outcome: Outcome) -> None:
        if outcome.CompCode in (None, "MQCC_FAILED"):
            return
        handle = call.args.get("handle")
        if call.op == "open" and isinstance(handle, str):
            self.handles.add(handle)
        elif call.op == "close" and isinstance(handle, str):
            self.handles.discard(handle)
        elif call.op in ("put", "put1"):
            self.put_bytes += self._put_size(call)
        hmsg, name = call.args.get("hmsg"), call.args.get("Name")
        if call.op in ("setmp", "dltmp") and isinstance(hmsg, str) and isinstance(name, str):
            held = self.properties.setdefault(hmsg, {})
            self.property_bytes -= held.pop(name, 0)
            if call.op == "setmp":
                held[name] = property_size(name, call.args.get("Value"))
                self.property_bytes += held[name]
        elif call.op == "bufmh" and isinstance(hmsg, str):  # its properties, counted as its buffer's bytes
            held = self.properties.setdefault(hmsg, {})
            grows = data_size(call.args.get("data"))
            held["\0bufmh"] = held.get("\0bufmh", 0) + grows  # no property name holds a NUL
            self.property_bytes += grows
        elif call.op == "dltmh" and isinstance(hmsg, str):
            self.property_bytes -= sum(self.properties.pop(hmsg, {}).values())
        elif call.op == "sub" and isinstance(handle, str):
            self.subscriptions.add(handle)
        elif call.op == "close" and isinstance(handle, str):
            self.subscriptions.discard(handle)

    def _bye(self, request: dict[str, Any]) -> tuple[None, bool]:
        return None, True

    _HANDLERS: dict[str, Callable[[Server, dict[str, Any]], tuple[dict[str, Any] | None, bool]]] = {
        "hello": _hello, "reset": _reset, "call": _call, "bye": _bye,
    }


_MEMBERS = {"hello": {"type", "protocol"}, "reset": {"type"}, "call": {"type", "id", "call"}, "bye": {"type"}}


def data_size(data: Any) -> int:
    """The bytes a call's ``data`` stands for, without making them (a fill counts its length)."""
    if isinstance(data, str):
        return len(data.encode("utf-8", "surrogatepass"))
    if isinstance(data, dict) and isinstance(data.get("length"), int):
        return max(data["length"], 0)
    if isinstance(data, dict) and isinstance(data.get("hex"), str):
        return len(data["hex"]) // 2
    return 0


def property_size(name: Any, value: Any) -> int:
    """The bytes a property stands for: its name and value as text, a byte string's bytes, 8 for anything else."""
    name_size = len(name.encode("utf-8", "surrogatepass")) if isinstance(name, str) else 0
    if isinstance(value, str):
        return name_size + len(value.encode("utf-8", "surrogatepass"))
    if isinstance(value, dict):
        return name_size + data_size(value)
    return name_size + 8


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"


def _encoded(reply: dict[str, Any]) -> bytes:
    """The reply's line; a reply JSON cannot hold (an infinity or NaN a defect let through) is answered with an
    error line for the same request instead of ending the session."""
    try:
        return encode(reply)
    except (ValueError, TypeError):
        return encode(error(reply.get("id"), "the reply holds a value JSON cannot carry (an infinity or NaN): a "
                                             "defect of the server, not of the request"))


def serve(stdin: BinaryIO, stdout: BinaryIO, server: Server | None = None) -> int:
    """Answer requests from ``stdin`` on ``stdout`` until ``bye`` or the end of input. Returns the exit status."""
    server = server or Server()
    limit = server.max_line
    while True:
        line = stdin.readline(limit + 1)
        if not line:
            return 0
        if len(line) > limit and not line.endswith(b"\n"):
            skipped = len(line) + _skip_rest_of_line(stdin)
            reply: dict[str, Any] | None = error(None, f"request line is over the {limit}-byte limit "
                                                       f"({skipped} bytes read); skipped")
            stop = False
        else:
            reply, stop = server.handle(line[:-1] if line.endswith(b"\n") else line)
        if reply is not None:
            stdout.write(_encoded(reply))
            stdout.flush()
        if stop:
            return 0


def _skip_rest_of_line(stdin: BinaryIO) -> int:
    """Read and drop the rest of an over-long line, in chunks; the number of bytes dropped."""
    dropped = 0
    while True:
        chunk = stdin.readline(_SKIP_CHUNK)
        dropped += len(chunk)
        if not chunk or chunk.endswith(b"\n"):
            return dropped


def serve_stdio(claim: frozenset[str] | None = None, adapter: Any = None) -> int:
    """Serve ``adapter`` (the reference model when None) on this process's standard input and output. Anything
    else printed goes to standard error, so that it cannot break the protocol stream. ``claim`` (checked names)
    replaces the capabilities the hello claims."""
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr
    try:
        return serve(stdin, stdout, Server(adapter, claim=claim))
    except BrokenPipeError:  # the suite went away: nothing left to answer
        return 0
    except KeyboardInterrupt:
        return 130
