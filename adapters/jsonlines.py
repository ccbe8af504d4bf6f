"""Any implementation as an adapter: a server program that speaks JSON lines on its standard input and output.

This is protocol 1. The contract for server authors is ``docs/implementers.md``; every message has a schema in
``reference/schemas/protocol.json``. One JSON object per line, UTF-8, newline-terminated, both directions::

    suite -> server                             server -> suite
    {"type": "hello", "protocol": 1}            {"type": "hello", "protocol": 1, "implementation": {...},
                                                 "capabilities": [...]}
    {"type": "reset"}                           {"type": "reset", "ok": true}
    {"type": "call", "id": 7, "call": {...}}    {"type": "outcome", "id": 7, "outcome": {...}}
    {"type": "bye"}                             (no answer; the server exits with status 0)

A server that cannot handle a request answers ``{"type": "error", "id": 7 or null, "message": "..."}``.

The adapter never raises on a server's misbehaviour and never waits forever: each call has a timeout, each line a
size limit, and every fault (the server crashed, hung, wrote something that is not JSON, an outcome that breaks
the outcome schema, a wrong id or type, a line too long) becomes ``Outcome(error=...)`` with the cause in one line.
Faults after which the stream can no longer be trusted stop the server; the following calls fail at once with
the cause, and the next :meth:`JsonLinesAdapter.reset` starts a new server. Faults that leave the stream in step
(an outcome that breaks the schema, an error answer) cost only their call.

Limits (docs/implementers.md, section 7): a line is at most ``MAX_LINE`` bytes; hello within
``MQCONF_JSONLINES_START_TIMEOUT`` (30 s), each call and reset within ``MQCONF_JSONLINES_TIMEOUT`` (10 s), all the
calls from one reset to the next within ``MQCONF_JSONLINES_SCENARIO_TIMEOUT`` (300 s); two seconds to exit after
bye. The server runs in a process group of its own, which is killed whole when the server is done with, fails,
or exits (so a child it started cannot hold its output open), and on Linux it is sent SIGKILL if the suite dies.
"""

from __future__ import annotations

import json
import logging
import os
import select
import shlex
import signal
import subprocess
import sys
import time
import weakref
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from referencing import Resource

from mq_conformance.reference.calls import Call, Outcome
from mq_conformance.reference.schema import SCHEMAS, SchemaError, registry, validate_call, validate_outcome

from .base import AdapterError
from .capabilities import CapabilityError, check_claim
from .processes import kill_group, popen_options
from .protocol import NEWEST, SERVED, call_for, canonical_outcome
from .untrusted import for_terminal

PROTOCOL = NEWEST  # the protocol the suite names in its hello (adapters/protocol.py lists those it serves)
MAX_LINE = 1 << 20  # bytes in one line, newline excluded, in both directions
DEFAULT_TIMEOUT = 10.0  # seconds for one call or reset
DEFAULT_START_TIMEOUT = 30.0  # seconds from starting the program to its hello
DEFAULT_SCENARIO_TIMEOUT = 300.0  # seconds from one reset to the next: every call of one scenario or test
MAX_START_FAILURES = 3  # consecutive failed restarts after which the adapter stops trying
TIMEOUT_ENV = "MQCONF_JSONLINES_TIMEOUT"
START_TIMEOUT_ENV = "MQCONF_JSONLINES_START_TIMEOUT"
SCENARIO_TIMEOUT_ENV = "MQCONF_JSONLINES_SCENARIO_TIMEOUT"
MAX_ID = 2**53 - 1  # ids stay exact in every JSON parser
_STDERR_TAIL = 8192  # bytes of the server's standard error kept for error messages
_SNIPPET = 80  # characters of a bad line quoted in an error message
_EXIT_GRACE = 2.0  # seconds a server gets to exit after closing its output or being told bye

log = logging.getLogger("mqconf.jsonlines")


class _Fault(Exception):
    """The server broke the protocol. The message is one line. ``fatal``: the stream is out of step."""

    def __init__(self, message: str, fatal: bool = True):
        super().__init__(one_line(message))
        self.fatal = fatal


def one_line(text: str, limit: int = 500) -> str:
    """``text`` on one line, at most ``limit`` characters."""
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _snippet(raw: bytes | str) -> str:
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    return json.dumps(text[:_SNIPPET] + ("..." if len(text) > _SNIPPET else ""), ensure_ascii=True)


def dumps(value: Any) -> str:
    """Compact JSON text that encodes to UTF-8 (``\\u`` escapes only where text is not valid Unicode)."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(value, ensure_ascii=True, separators=(",", ":"), allow_nan=False)
    return text


def encode(message: Mapping[str, Any]) -> bytes:
    """One protocol line: compact JSON, UTF-8, newline."""
    return dumps(message).encode("utf-8") + b"\n"


_CACHED_TEXT = 4096  # characters: longer values are validated every time rather than remembered


@lru_cache(maxsize=8192)
def _schema_problem_of_text(schema: str, text: str) -> str | None:
    try:
        (validate_call if schema == "call" else validate_outcome)(json.loads(text))
    except SchemaError as exc:
        return str(exc)
    return None


def schema_problem(schema: str, text: str) -> str | None:
    """Where and why the JSON ``text`` breaks the ``call`` or ``outcome`` schema, or None.

    Validation is a pure function of the text, and a suite sends and receives the same small calls and outcomes
    many times, so short texts are validated once."""
    if len(text) <= _CACHED_TEXT:
        return _schema_problem_of_text(schema, text)
    return _schema_problem_of_text.__wrapped__(schema, text)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


class DuplicateKey(ValueError):
    """A JSON object names the same key twice (JSON leaves the meaning open; the protocol refuses it)."""

    def __init__(self, key: str):
        super().__init__(f"the key {json.dumps(key, ensure_ascii=True)[:80]} appears twice in one object")
        self.key = key


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        seen: set[str] = set()
        for key, _value in pairs:
            if key in seen:
                raise DuplicateKey(key)
            seen.add(key)
    return result


def decode(raw: bytes) -> Any:
    """A protocol line as a JSON value; ``ValueError`` with a short reason when it is not UTF-8 JSON, or
    :class:`DuplicateKey` when an object in it has a key twice."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"not UTF-8 (byte {exc.start})") from None
    try:
        return json.loads(text, parse_constant=_reject_constant, object_pairs_hook=_unique_keys)
    except DuplicateKey:
        raise
    except json.JSONDecodeError as exc:
        raise ValueError(f"{exc.msg} at column {exc.colno}") from None
    except RecursionError:
        raise ValueError("nested too deeply") from None
    except ValueError as exc:  # NaN, Infinity; integers too long to read
        raise ValueError(one_line(str(exc), 120)) from None


# -- the protocol's schema ------------------------------------------------------------------------------------

PROTOCOL_SCHEMA = SCHEMAS / "protocol.json"


@lru_cache(maxsize=None)
def protocol_validator(definition: str) -> Draft202012Validator:
    """A validator for one message of protocol.json (``hello_reply``, ``call_request``...)."""
    schema = json.loads(PROTOCOL_SCHEMA.read_text(encoding="utf-8"))
    known = registry().with_resource(schema["$id"], Resource.from_contents(schema))
    return Draft202012Validator({"$ref": f"{schema['$id']}#/$defs/{definition}"}, registry=known)


def check_message(definition: str, message: Any) -> str | None:
    """Why ``message`` is not a valid ``definition`` of protocol.json, in one line (None when it is)."""
    error = best_match(protocol_validator(definition).iter_errors(message))
    return None if error is None else one_line(f"{error.json_path}: {error.message}", 300)


# -- one running server ---------------------------------------------------------------------------------------

_POLL = 0.1  # seconds between checks that the server is still alive while waiting for its answer
_STDERR_LINES = 3  # lines of the server's standard error quoted when it exits


def _kill(proc: subprocess.Popen) -> None:
    """Kill the server and whatever it started (it leads its own process group on POSIX), even when the server
    itself has exited: a child of its own may still hold its output open."""
    kill_group(proc)


def _describe_exit(code: int | None) -> str:
    if code is None:
        return "it did not exit, and was stopped"
    if code >= 0:
        return f"exit status {code}"
    try:
        return f"killed by signal {-code} ({signal.Signals(-code).name})"
    except ValueError:
        return f"killed by signal {-code}"


class _Server:
    """One server process, in its own process group, that dies with the suite (Linux). Its three pipes are read
    and written without blocking, in the caller's thread, under one deadline per exchange: a server that stops
    reading, stops answering, writes half a line or an endless one, exits, or leaves a child of its own holding
    its output cannot hold the caller past the deadline. Its standard error is read at the same time (so it can
    never fill up and block the server) and its tail kept for error messages."""

    def __init__(self, argv: Sequence[str], max_line: int):
        self.max_line = max_line
        self.proc = subprocess.Popen(
            list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0,
            **popen_options(),
        )
        self._finalizer = weakref.finalize(self, _kill, self.proc)
        self._in: int | None = self.proc.stdin.fileno()
        self._out: int | None = self.proc.stdout.fileno()
        self._err: int | None = self.proc.stderr.fileno()
        for fd in (self._in, self._out, self._err):
            os.set_blocking(fd, False)
        self._buffer = bytearray()  # what the server wrote on stdout beyond the last line taken
        self._tail = bytearray()
        self._closed_why: str | None = None

    # -- the pipes ----------------------------------------------------------------------------------------------
    def _read_stderr(self) -> None:
        if self._err is None:
            return
        for _ in range(64):  # at most 4 MiB a turn: a server that floods its stderr cannot keep us here
            try:
                chunk = os.read(self._err, 65536)
            except BlockingIOError:
                return
            except OSError:
                chunk = b""
            if not chunk:
                self._err = None
                return
            self._tail += chunk
            del self._tail[:-_STDERR_TAIL]

    def _read_stdout(self) -> bool:
        """Read what is there; False at end of file."""
        try:
            chunk = os.read(self._out, 65536)
        except BlockingIOError:
            return True
        except OSError:
            chunk = b""
        if not chunk:
            return False
        self._buffer += chunk
        return True

    def _take_line(self) -> tuple[str, Any] | None:
        index = self._buffer.find(b"\n", 0, self.max_line + 1)
        if index >= 0:
            line = bytes(self._buffer[:index])
            del self._buffer[:index + 1]
            return ("line", line)
        if len(self._buffer) > self.max_line:
            return ("too-long", None)
        return None

    def exchange(self, data: bytes | None, timeout: float) -> tuple[str, Any]:
        """Write one request (``data``) and wait at most ``timeout`` seconds for one answer line: ("line", bytes),
        ("too-long", None), ("closed", why) when the server closed its input or output, ("exited", None) when it
        exited without answering (even if a child of its own still holds its output), or ("timeout", None)."""
        if self._closed_why is not None:
            return ("closed", self._closed_why)
        deadline = time.monotonic() + timeout
        pending = memoryview(data) if data else memoryview(b"")
        answer = self._take_line()
        while True:
            if answer is not None and not pending:
                return answer
            if answer is not None and answer[0] == "too-long":
                return answer
            now = time.monotonic()
            if now >= deadline:
                return ("timeout", None)
            readers = [fd for fd in (self._out, self._err) if fd is not None]
            writers = [self._in] if pending and self._in is not None else []
            try:
                readable, writable, _ = select.select(readers, writers, [], min(deadline - now, _POLL))
            except (OSError, ValueError) as exc:
                return self._closed(f"cannot be read ({exc.__class__.__name__})")
            if self._err in readable:
                self._read_stderr()
            if writable:
                try:
                    pending = pending[os.write(self._in, pending):]
                except BlockingIOError:
                    pass
                except (BrokenPipeError, OSError, ValueError) as exc:
                    return self._closed(f"closed its input ({exc.__class__.__name__})")
            if self._out in readable:
                if not self._read_stdout():
                    return self._closed("closed its output" + (" in mid-line" if self._buffer else ""))
                if answer is None:
                    answer = self._take_line()
                continue
            if self._out not in readable and self.proc.poll() is not None:
                # Exited: a last look at what it wrote before, then no more waiting for a child holding the pipe.
                for _ in range(self.max_line // 65536 + 2):
                    before = len(self._buffer)
                    if not self._read_stdout() or len(self._buffer) == before:
                        break
                if answer is None:
                    answer = self._take_line()
                if answer is None or pending:
                    return ("exited", None)

    def partial_line(self) -> bytes:
        """What the server wrote after its last complete line (half an answer)."""
        return bytes(self._buffer)

    def _closed(self, why: str) -> tuple[str, str]:
        self._closed_why = why
        return ("closed", why)

    def stderr_lines(self, count: int = _STDERR_LINES) -> list[str]:
        """The last ``count`` non-blank lines the server wrote on standard error, each escaped to one line."""
        self._read_stderr()
        text = bytes(self._tail).decode("utf-8", "replace")
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        return [one_line(line, 200) for line in lines[-count:]]

    def last_stderr_line(self) -> str | None:
        lines = self.stderr_lines(1)
        return lines[-1] if lines else None

    def ended(self, grace: float = _EXIT_GRACE) -> tuple[bool, str]:
        """Whether the process exited by itself within ``grace`` seconds (else it is killed), and how it ended,
        with its last lines on standard error. The whole process group is killed either way."""
        try:
            code = self.proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            code = None
        self._read_stderr()
        _kill(self.proc)
        if code is None:
            self.proc.wait()
        lines = self.stderr_lines()
        how = _describe_exit(code)
        if len(lines) == 1:
            how += f"; last stderr line: {json.dumps(lines[0], ensure_ascii=False)}"
        elif lines:
            how += "; last stderr lines: " + " / ".join(json.dumps(line, ensure_ascii=False) for line in lines)
        return code is not None, how

    def kill(self) -> None:
        _kill(self.proc)

    def stop(self, bye: bytes | None = None, grace: float = _EXIT_GRACE) -> None:
        """End the server: say ``bye``, close its input and give it ``grace`` seconds to exit; then kill its whole
        process group (whatever it started goes too). Never blocks longer than about ``2 * grace``. Idempotent."""
        if bye is not None and self.proc.poll() is None and self._in is not None and self._closed_why is None:
            deadline = time.monotonic() + grace
            pending = memoryview(bye)
            while pending and time.monotonic() < deadline:
                try:
                    _, writable, _ = select.select([], [self._in], [], max(0.0, deadline - time.monotonic()))
                    if writable:
                        pending = pending[os.write(self._in, pending):]
                except BlockingIOError:
                    continue
                except (OSError, ValueError):
                    break
            self._close_fds(stdin_only=True)
            try:
                self.proc.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
        self.kill()
        try:
            self.proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            pass
        self._read_stderr()
        self._close_fds()
        self._finalizer.detach()

    def _close_fds(self, stdin_only: bool = False) -> None:
        streams = (self.proc.stdin,) if stdin_only else (self.proc.stdin, self.proc.stdout, self.proc.stderr)
        for stream in streams:
            try:
                stream.close()  # unbuffered (bufsize=0) and read by no other thread: never blocks
            except (OSError, ValueError):
                pass
        self._in = None
        if not stdin_only:
            self._out = self._err = None


# -- the adapter ----------------------------------------------------------------------------------------------

def _seconds(value: float | None, env: str, default: float) -> float:
    if value is not None:
        return float(value)
    text = os.environ.get(env)
    if text is None:
        return default
    try:
        seconds = float(text)
    except ValueError:
        raise AdapterError(f"{env}={text!r} is not a number of seconds") from None
    if not seconds > 0:
        raise AdapterError(f"{env}={text!r} must be more than 0 seconds")
    return seconds


class JsonLinesAdapter:
    """Runs calls on a server program over protocol 1 of the JSON-lines adapter protocol.

    ``command`` is the program and its arguments (a list, or a string split as a shell would, without a shell).
    The program is started, and greeted, when the adapter is made; an :class:`AdapterError` says why when that
    fails. ``name``, ``version`` and ``capabilities`` are what the server declares in its hello.
    """

    def __init__(self, command: Sequence[str] | str, *, timeout: float | None = None,
                 start_timeout: float | None = None, scenario_timeout: float | None = None,
                 max_line: int = MAX_LINE, validate_calls: bool = True):
        argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not argv:
            raise AdapterError("jsonlines: no command given (write jsonlines:PROGRAM [ARGUMENTS...])")
        if os.name != "posix":  # select() on pipes, process groups: the server's lifetime needs a POSIX system
            raise AdapterError("jsonlines: servers can be run on POSIX systems (Linux, macOS) only")
        self.command = argv
        self.timeout = _seconds(timeout, TIMEOUT_ENV, DEFAULT_TIMEOUT)
        self.start_timeout = _seconds(start_timeout, START_TIMEOUT_ENV, max(DEFAULT_START_TIMEOUT, self.timeout))
        self.scenario_timeout = _seconds(scenario_timeout, SCENARIO_TIMEOUT_ENV,
                                         max(DEFAULT_SCENARIO_TIMEOUT, self.timeout))
        self._budget_end = 0.0  # when the calls since the last reset have used up scenario_timeout
        self.max_line = max_line
        self.validate_calls = validate_calls
        self.name, self.version, self.capabilities = "jsonlines", "", frozenset()
        self.implementation: dict[str, Any] = {}
        self.protocol = PROTOCOL  # the protocol the server answered the hello with
        self.faults: list[str] = []  # every fault met, in order, one line each (outcomes carry them too)
        self._server: _Server | None = None
        self._down: str | None = None  # why there is no usable server until the next reset
        self._start_failures = 0
        self._last_id = 0
        try:
            self._start()
        except _Fault as fault:
            raise AdapterError(f"jsonlines server {self._label}: {fault}") from None

    @classmethod
    def from_spec(cls, spec: str) -> JsonLinesAdapter:
        """The adapter for ``jsonlines:COMMAND`` (the part after ``jsonlines:``)."""
        try:
            argv = shlex.split(spec)
        except ValueError as exc:
            raise AdapterError(f"jsonlines:{spec}: cannot split the command: {exc}") from None
        return cls(argv)

    @property
    def pid(self) -> int | None:
        """The process id of the running server (None when none is running)."""
        return self._server.proc.pid if self._server is not None else None

    @property
    def _label(self) -> str:
        return shlex.join(self.command) if len(self.command) < 6 else shlex.join(self.command[:5]) + " ..."

    # -- the Adapter protocol -----------------------------------------------------------------------------------
    def reset(self) -> None:
        """Tell the server to forget everything; start a new server when the last one failed. Never raises: when
        no server can be had, the calls until the next reset fail with the reason."""
        if self._server is not None:
            try:
                answer = self._ask({"type": "reset"}, self.timeout, "reset")
                _refused(answer, "reset")
                problem = check_message("reset_reply", answer)
                if problem:
                    raise _Fault(f"its answer to reset is not a reset reply: {problem}")
                self._budget_end = time.monotonic() + self.scenario_timeout
                return
            except _Fault as fault:
                self._fault(f"reset failed: {fault}")
                log.warning("jsonlines server %s: reset failed (%s); starting a new server", self._label,
                            for_terminal(fault))
        if self._start_failures >= MAX_START_FAILURES:
            return
        try:
            self._start()
        except _Fault as fault:
            self._start_failures += 1
            gave_up = self._start_failures >= MAX_START_FAILURES
            cause = f"the server could not be restarted: {fault}" + (
                f" (gave up after {MAX_START_FAILURES} attempts in a row)" if gave_up else "")
            self._down = cause
            self.faults.append(cause)
            log.warning("jsonlines server %s: %s", self._label, for_terminal(cause))

    def execute(self, call: Call) -> Outcome:
        if self._server is None:
            return Outcome(error=one_line(self._down or "the server is not running"))
        payload = call_for(self.protocol, call.to_json())
        try:
            text = dumps(payload)
        except (TypeError, ValueError) as exc:
            return Outcome(error=one_line(f"call not sent: it cannot be written as JSON: {exc}"))
        if self.validate_calls:
            problem = schema_problem("call", text)
            if problem:
                return Outcome(error=one_line(f"call not sent: it breaks the call schema at {problem}"))
        self._last_id += 1
        ident = self._last_id
        what = f"call {ident} ({call.op})"
        left = self._budget_end - time.monotonic()
        if left <= 0:
            cause = (f"{what} not sent: the calls since the last reset took more than the scenario's "
                     f"{self.scenario_timeout:g} s ({SCENARIO_TIMEOUT_ENV}); the server was stopped")
            self._fault(cause)
            return Outcome(error=cause)
        data = f'{{"type":"call","id":{ident},"call":{text}}}\n'.encode("utf-8")
        if len(data) > self.max_line + 1:
            return Outcome(error=f"call not sent: it is {len(data) - 1} bytes as JSON, over the protocol's "
                                 f"{self.max_line}-byte line limit")
        try:
            answer = self._ask(data, min(self.timeout, left), what)
            return self._outcome(answer, ident, what)
        except _Fault as fault:
            if fault.fatal:
                self._fault(str(fault))
            else:
                self.faults.append(str(fault))
            return Outcome(error=str(fault))

    def close(self) -> None:
        """Say bye and let the server exit (kill it if it does not). Idempotent."""
        server, self._server = self._server, None
        self._down = "the adapter is closed"
        if server is not None:
            server.stop(bye=encode({"type": "bye"}), grace=min(self.timeout, _EXIT_GRACE))

    def __enter__(self) -> JsonLinesAdapter:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- inside ---------------------------------------------------------------------------------------------
    def _start(self) -> None:
        try:
            server = _Server(self.command, self.max_line)
        except OSError as exc:
            raise _Fault(f"cannot start {self._label}: {exc.strerror or exc}") from None
        self._server = server
        try:
            hello = self._ask({"type": "hello", "protocol": PROTOCOL}, self.start_timeout, "hello")
            _refused(hello, "hello")
            if hello.get("type") == "hello" and hello.get("protocol") not in SERVED:
                raise _Fault(f"the server speaks protocol {json.dumps(hello.get('protocol'))}; this suite speaks "
                             f"protocol {' or '.join(map(str, SERVED))} (docs/implementers.md)")
            problem = check_message("hello_reply", hello)
            if problem:
                raise _Fault(f"its answer to hello is not a hello reply: {problem}")
            try:
                check_claim(hello["capabilities"], "its hello")
            except CapabilityError as exc:
                raise _Fault(str(exc)) from None
        except _Fault:
            self._server = None
            server.stop()
            raise
        self.protocol = hello["protocol"]
        self.implementation = dict(hello["implementation"])
        self.name = str(hello["implementation"]["name"])
        self.version = str(hello["implementation"]["version"])
        self.capabilities = frozenset(hello["capabilities"])
        self._down = None
        self._start_failures = 0
        self._budget_end = time.monotonic() + self.scenario_timeout

    def _fault(self, cause: str) -> None:
        """Stop the server after a fault that leaves the stream out of step; calls fail until the next reset."""
        self.faults.append(cause)
        server, self._server = self._server, None
        self._down = one_line(f"the server is not running after an earlier fault ({cause}); it restarts at the "
                              f"next reset")
        if server is not None:
            server.stop()

    def _ask(self, request: Mapping[str, Any] | bytes, timeout: float, what: str) -> dict[str, Any]:
        """Send one request, read one answer: a JSON object, or a :class:`_Fault` naming what went wrong."""
        server = self._server
        assert server is not None
        data = request if isinstance(request, bytes) else encode(request)
        kind, value = server.exchange(data, timeout)
        if kind == "timeout":
            server.kill()
            partial = server.partial_line()
            partial = f" (it wrote {len(partial)} bytes with no newline: {_snippet(partial)})" if partial else ""
            if timeout < self.timeout and what.startswith("call"):
                raise _Fault(f"no answer to {what} within the {timeout:.3g} s left of the scenario's "
                             f"{self.scenario_timeout:g} s ({SCENARIO_TIMEOUT_ENV}){partial}; the server was stopped")
            raise _Fault(f"no answer to {what} within {timeout:g} s{partial}; the server was stopped")
        if kind == "too-long":
            server.kill()
            raise _Fault(f"the server wrote a line longer than {self.max_line} bytes in answer to {what}; "
                         f"the server was stopped")
        if kind == "exited":
            exited, how = server.ended(grace=0)
            raise _Fault(f"the server exited during {what}: {how}")
        if kind == "closed":
            exited, how = server.ended()
            if exited:
                raise _Fault(f"the server exited during {what}: {how}")
            raise _Fault(f"the server {value} during {what}; {how}")
        try:
            message = decode(value)
        except DuplicateKey as exc:
            # The line is whole and the stream in step: only this answer is refused.
            raise _Fault(f"the server's answer to {what} is ambiguous: {exc}", fatal=False) from None
        except ValueError as exc:
            raise _Fault(f"the server wrote a line that is not JSON in answer to {what} ({exc}): "
                         f"{_snippet(value)}") from None
        if not isinstance(message, dict):
            raise _Fault(f"the server wrote {type(message).__name__} JSON in answer to {what}, not an object: "
                         f"{_snippet(value)}")
        return message

    def _outcome(self, answer: dict[str, Any], ident: int, what: str) -> Outcome:
        kind = answer.get("type")
        if kind == "error":
            problem = check_message("error_reply", answer)
            if problem:
                raise _Fault(f"its error answer to {what} is malformed: {problem}")
            if answer["id"] is not None and answer["id"] != ident:
                raise _Fault(f"the server answered {what} with an error for id {answer['id']}")
            raise _Fault(f"the server could not run {what}: {answer['message']}", fatal=False)
        if kind != "outcome":
            raise _Fault(f"the server answered {what} with a {json.dumps(kind)} message, not an outcome")
        if answer.get("id") != ident or isinstance(answer.get("id"), bool):
            raise _Fault(f"the server answered {what} with id {json.dumps(answer.get('id'))}")
        extra = sorted(set(answer) - {"type", "id", "outcome"})
        if extra or "outcome" not in answer:
            problem = f"unexpected member {extra[0]!r}" if extra else "no 'outcome' member"
            raise _Fault(f"the server's outcome message for {what} is malformed: {problem}", fatal=False)
        outcome = answer["outcome"]
        if not isinstance(outcome, dict):
            raise _Fault(f"the server's outcome for {what} is not an object", fatal=False)
        problem = schema_problem("outcome", dumps(outcome))
        if problem:
            raise _Fault(f"the server's outcome for {what} breaks the outcome schema at {problem}", fatal=False)
        return Outcome.from_json(canonical_outcome(outcome))


def _refused(answer: dict[str, Any], what: str) -> None:
    """A fault when ``answer`` is an error reply to ``what``."""
    if answer.get("type") == "error":
        message = answer.get("message")
        raise _Fault(f"the server refused {what}: " + (message if isinstance(message, str) else json.dumps(answer)))


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m mq_conformance.adapters.jsonlines COMMAND...``: greet a server and print what it declares (a quick check)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        adapter = JsonLinesAdapter(argv)
    except AdapterError as exc:
        print(f"jsonlines: {exc}", file=sys.stderr)
        return 2
    with adapter:
        print(json.dumps({"implementation": adapter.implementation, "capabilities": sorted(adapter.capabilities)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
