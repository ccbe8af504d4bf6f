"""A raw client of the emulator's session protocol (emulator/session.py) for the tests: it says exactly what a
test tells it, including what a well-behaved client never says (pytest puts this folder on sys.path)."""

from __future__ import annotations

import socket
from typing import Any

from mq_conformance.emulator import session as protocol
from mq_conformance.emulator.session import Verb


class RawSession:
    """One socket to a listener; ``call`` sends a request and returns ``[CompCode, Reason, outputs...]``."""

    def __init__(self, address: str, timeout: float = 10.0):
        self.sock = protocol.connect(address)
        self.sock.settimeout(timeout)
        self.reader = protocol.Reader(self.sock)
        self.reader.idle = timeout
        self.tag = 0
        self.hconn = -1
        self.token = b""

    def call(self, verb: int, *values: Any) -> list[Any]:
        self.tag += 1
        return protocol.call(self.sock, self.reader, verb, self.tag, *values)

    def hello(self) -> list[Any]:
        return self.call(Verb.HELLO, protocol.MAGIC, protocol.VERSION, protocol.VERSION)

    def connx(self, qmgr: bytes = b"", user: bytes = b"", password: bytes = b"", channel: bytes = b"",
              hello: bool = True) -> list[Any]:
        """HELLO (unless told not to) and CONNX; the session's Hconn and token are kept."""
        if hello:
            self.hello()
        out = self.call(Verb.CONNX, qmgr.ljust(48, b" "), b"", user, password, channel.ljust(20, b" "),
                        b"raw".ljust(28, b" "), b"tester")
        self.hconn, self.token = out[2], out[3]
        return out

    def send(self, raw: bytes) -> None:
        self.sock.sendall(raw)

    def closed_by_peer(self) -> bool:
        """Whether the listener closes this socket (waits for it, within the socket's timeout)."""
        try:
            while True:
                if not self.sock.recv(65536):
                    return True
        except TimeoutError:
            return False
        except OSError:
            return True

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass


def structure(name: str, **fields: Any) -> bytes:
    """IBM's structure ``name`` (MD, OD, GMO...) packed with ``fields``."""
    import ibmmq

    return getattr(ibmmq, name)(**fields).pack()


def silent_socket(address: str) -> socket.socket:
    """A socket that connects and says nothing."""
    return protocol.connect(address)
