"""The emulator's own framing between an application's process and ``mqconf emulator --listen`` (not IBM's wire
protocol): each message is a 4-byte big-endian length and that many bytes of UTF-8 JSON.

A request is ``[call, arg...]`` (the native function's name and its arguments); a reply is ``["ok", [value...]]``
(the native function's return tuple) or ``["error", text]`` (what IBM's native module would raise as
``ibmmqc.error``). Bytes travel as ``{"$b": base64}``; numbers, strings, None, lists and booleans as themselves.
"""

from __future__ import annotations

import base64
import json
import socket
import struct
from typing import Any

HEADER = struct.Struct(">I")
MAX_FRAME = 256 * 1024 * 1024  # larger than any message MQ allows (100 MB) with its structures


class WireError(Exception):
    """The peer closed the socket, or sent a frame this framing does not allow."""


def _encode(value: Any) -> Any:
    if isinstance(value, bytes | bytearray | memoryview):
        return {"$b": base64.b64encode(bytes(value)).decode("ascii")}
    if isinstance(value, list | tuple):
        return [_encode(item) for item in value]
    if isinstance(value, dict):
        return {"$d": [[_encode(k), _encode(v)] for k, v in value.items()]}
    return value


def _decode(value: Any) -> Any:
    if isinstance(value, list):
        return [_decode(item) for item in value]
    if isinstance(value, dict):
        if "$b" in value:
            return base64.b64decode(value["$b"])
        if "$d" in value:
            return {_decode(k): _decode(v) for k, v in value["$d"]}
        raise WireError("an object that is neither bytes nor a mapping")
    return value


def send(sock: socket.socket, value: Any) -> None:
    """Send one frame holding ``value``."""
    body = json.dumps(_encode(value), separators=(",", ":")).encode("utf-8")
    sock.sendall(HEADER.pack(len(body)) + body)


def _exactly(sock: socket.socket, count: int) -> bytes:
    chunks, remaining = [], count
    while remaining:
        chunk = sock.recv(min(remaining, 1 << 20))
        if not chunk:
            raise WireError("the peer closed the connection")
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


def receive(sock: socket.socket) -> Any:
    """Receive one frame's value; :class:`WireError` when the peer is gone or the frame is malformed."""
    (length,) = HEADER.unpack(_exactly(sock, HEADER.size))
    if length > MAX_FRAME:
        raise WireError(f"a frame of {length} bytes is larger than the {MAX_FRAME} this framing allows")
    try:
        return _decode(json.loads(_exactly(sock, length)))
    except (ValueError, UnicodeDecodeError) as exc:
        raise WireError(f"a frame that is not JSON: {exc}") from None


def parse_address(text: str) -> tuple[str, Any]:
    """``("unix", path)`` or ``("tcp", (host, port))`` from ``unix:/path``, ``/path``, ``host:port``, ``host(port)``
    (MQ's CONNAME; the first of a comma-separated list) or ``port``. ValueError for anything else."""
    text = text.strip()
    if text.startswith("unix:"):
        return "unix", text[len("unix:"):]
    if text.startswith("/"):
        return "unix", text
    text = text.split(",")[0].strip()
    if text.endswith(")") and "(" in text:
        host, port = text[:-1].split("(", 1)
    elif ":" in text:
        host, port = text.rsplit(":", 1)
    else:
        host, port = "localhost", text
    try:
        number = int(port)
    except ValueError:
        raise ValueError(f"not an address: {text!r} (host(port), host:port or unix:/path)") from None
    return "tcp", (host.strip() or "localhost", number)


def connect(address: str, timeout: float | None = 5.0) -> socket.socket:
    """A socket connected to an emulator listening at ``address``; OSError when nothing listens there."""
    kind, where = parse_address(address)
    if kind == "unix":
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    else:
        sock = socket.socket(socket.AF_INET6 if ":" in where[0] else socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.settimeout(timeout)
    try:
        sock.connect(where)
    except OSError:
        sock.close()
        raise
    sock.settimeout(None)
    return sock
