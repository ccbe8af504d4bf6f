"""One emulated queue manager that any number of processes reach: ``mqconf emulator --listen HOST:PORT`` (or a
Unix socket path).

Each MQCONN/MQCONNX of an application's process opens one socket (as a client channel instance would); every
native call on that connection is a frame of :mod:`.wire` answered by the emulator's native functions
(:mod:`.native`), in a thread of its own, so a waiting get waits only for its own connection. When a socket
closes with connections still open, their uncommitted work is backed out and they are disconnected (a broken
client connection).

In this mode the queue manager runs in real time (PutDate/PutTime from the wall clock, expiry and browse-mark
intervals in real milliseconds) and a put with default context carries the identity of the connecting user:
the user of the MQCSP when one is given (as a developer queue manager adopts it), otherwise the user the
application's process runs as. With ``users``, a user and password given at connect must be one of them, or the
connect fails with MQRC_NOT_AUTHORIZED (2035); on the channels of ``require_user`` ("*": all) a connect without a
user fails the same way.
"""

from __future__ import annotations

import logging
import os
import socket
import socketserver
import threading
from collections.abc import Mapping
from typing import Any

from . import native, wire
from .emulator import MQCC_FAILED, MQHC_UNUSABLE_HCONN, Emulator, EmulatorError

LOG = logging.getLogger("mq_conformance.emulator")
MQRC_NOT_AUTHORIZED = 2035
CONNECT = "CONNECT"


class _Session(socketserver.BaseRequestHandler):
    """One application connection: frames in, native calls, frames out."""

    server: _Server

    def handle(self) -> None:
        sock: socket.socket = self.request
        if sock.family != socket.AF_UNIX:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        owned: set[int] = set()
        try:
            while True:
                try:
                    request = wire.receive(sock)
                except (wire.WireError, OSError):
                    return
                wire.send(sock, self.server.listener.answer(request, owned, self._peer()))
        finally:
            for hconn in owned:
                self.server.listener.emulator.abandon(hconn)

    def _peer(self) -> str:
        """The client's address as a queue manager shows a connection name (its IP address)."""
        address = self.client_address
        return str(address[0]) if isinstance(address, tuple) and address else "localhost"


class _Server(socketserver.ThreadingMixIn, socketserver.TCPServer):
    daemon_threads = True
    allow_reuse_address = True
    listener: Listener


class _UnixServer(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    daemon_threads = True
    listener: Listener


class Listener:
    """An emulated queue manager listening at ``address`` (``host:port``, ``host(port)`` or ``unix:/path``)."""

    def __init__(self, address: str, emulator: Emulator, users: Mapping[str, str] | None = None,
                 require_user: tuple[str, ...] = ()):
        self.emulator = emulator
        self.users = dict(users or {})
        self.require_user = {name.upper() for name in require_user}  # channels where a user and password must be given
        kind, where = wire.parse_address(address)
        if kind == "unix":
            if os.path.exists(where):
                os.unlink(where)
            self._server: Any = _UnixServer(where, _Session)
        else:
            self._server = _Server(where, _Session)
        self._server.listener = self
        self.address = address if kind == "unix" else f"{where[0]}({self._server.server_address[1]})"
        native.activate(emulator)
        self._thread: threading.Thread | None = None
        self._serving = False

    def answer(self, request: Any, owned: set[int], peer: str = "") -> Any:
        """The reply frame for one request frame."""
        if not isinstance(request, list) or not request or not isinstance(request[0], str):
            return ["error", "a request is [call, arguments...]"]
        call, args = request[0], request[1:]
        try:
            if call == CONNECT:
                return ["ok", list(self._connect(args, owned, peer))]
            function = getattr(native, call, None) if call.startswith("MQ") else None
            if function is None:
                return ["error", f"no native function {call}"]
            result = function(*args)
            if call == "MQDISC" and args and result[0] != MQCC_FAILED:
                owned.discard(args[0])
            return ["ok", list(result) if isinstance(result, tuple) else [result]]
        except (EmulatorError, TypeError, ValueError) as exc:
            return ["error", str(exc)]

    def _connect(self, args: list, owned: set[int], peer: str = "") -> tuple[int, int, int]:
        name, identity = (args + [None, None])[:2]
        identity = identity if isinstance(identity, dict) else {}
        user, password = identity.get("user"), identity.get("password")
        if self.users and user is not None and self.users.get(user) != password:
            LOG.warning("MQRC_NOT_AUTHORIZED (2035): user %r gave a wrong password or is not known", user)
            return MQHC_UNUSABLE_HCONN, MQCC_FAILED, MQRC_NOT_AUTHORIZED
        channel = str(identity.get("channel") or "").upper()
        if user is None and ("*" in self.require_user or channel in self.require_user):
            LOG.warning("MQRC_NOT_AUTHORIZED (2035): channel %r needs a user and password", channel)
            return MQHC_UNUSABLE_HCONN, MQCC_FAILED, MQRC_NOT_AUTHORIZED
        hconn, comp, reason = native.connect_as(name if isinstance(name, bytes | str) else b"",
                                                user=user or identity.get("os_user") or "",
                                                appl=identity.get("appl") or "")
        if comp != MQCC_FAILED:
            owned.add(hconn)
            self.emulator.describe_connection(hconn, channel, peer)
        return hconn, comp, reason

    def start(self) -> Listener:
        """Serve in a background thread (tests); :meth:`serve_forever` serves in this one."""
        self._serving = True
        self._thread = threading.Thread(target=self._server.serve_forever, name="mq-emulator", daemon=True)
        self._thread.start()
        return self

    def serve_forever(self) -> None:
        self._serving = True
        self._server.serve_forever()

    def close(self) -> None:
        if self._serving and self._thread is not None:  # serve_forever in another thread: stop it first
            self._server.shutdown()
        self._server.server_close()
        native.deactivate(self.emulator)
