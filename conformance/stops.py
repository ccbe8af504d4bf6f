"""How ``mqconf`` ends when it is told to stop, or when nobody reads it any more.

- SIGTERM and SIGHUP (what a CI system sends on a timeout, what a closed terminal sends) stop a command as Ctrl-C
  does: :class:`Stopped` is a ``KeyboardInterrupt``, so what finished is written and the report says INCOMPLETE;
  the command ends with one line on standard error and exit status 128 + the signal (143, 129).
- A closed standard output or error (``mqconf run ... | head -1``) never stops a command or loses its report:
  writes to a stream nobody reads are dropped (:class:`Tolerant`), the work goes on, and the report is written.
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import sys
import threading
from collections.abc import Iterator
from typing import Any, TextIO

SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


class Stopped(KeyboardInterrupt):
    """The command was told to stop by ``signum``."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum

    @property
    def exit_status(self) -> int:
        return 128 + self.signum


def _raise(signum: int, _frame: Any) -> None:
    raise Stopped(signum)


@contextlib.contextmanager
def signals_stop() -> Iterator[None]:
    """While inside, SIGTERM and SIGHUP raise :class:`Stopped` in the main thread (elsewhere: no change)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {signum: signal.signal(signum, _raise) for signum in SIGNALS}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


class Tolerant(io.TextIOBase):
    """A text stream that drops what it cannot write: a reader that went away (EPIPE), a terminal that hung up
    (EIO) or any other failure of the stream itself never reaches the command. ``lost`` says whether it did."""

    def __init__(self, stream: TextIO):
        super().__init__()
        self.stream = stream
        self.lost = False

    def write(self, text: str) -> int:
        if not self.lost:
            try:
                self.stream.write(text)
            except (OSError, ValueError):
                self.lost = True
        return len(text)

    def flush(self) -> None:
        if not self.lost:
            try:
                self.stream.flush()
            except (OSError, ValueError):
                self.lost = True

    def isatty(self) -> bool:
        try:
            return not self.lost and self.stream.isatty()
        except (OSError, ValueError):
            return False

    def fileno(self) -> int:
        return self.stream.fileno()

    @property
    def buffer(self) -> Any:
        """The stream's bytes (``mqconf serve`` speaks the protocol on it, and handles a closed pipe itself)."""
        return self.stream.buffer

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self.stream, "encoding", "utf-8")

    def writable(self) -> bool:
        return True


@contextlib.contextmanager
def tolerant_output() -> Iterator[None]:
    """While inside, ``sys.stdout`` and ``sys.stderr`` drop what they cannot write. On the way out, a stream
    that was lost is pointed at /dev/null, so that the interpreter's last flush cannot fail either."""
    saved = sys.stdout, sys.stderr
    wrapped = [Tolerant(stream) if stream is not None else None for stream in saved]
    sys.stdout, sys.stderr = wrapped
    try:
        yield
    finally:
        for stream in wrapped:
            if stream is not None:
                stream.flush()
        sys.stdout, sys.stderr = saved
        for stream, original in zip(wrapped, saved):
            if stream is not None and stream.lost:
                _silence(original)


def _silence(stream: TextIO) -> None:
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, stream.fileno())
        os.close(null)
    except (OSError, ValueError, io.UnsupportedOperation):
        pass
