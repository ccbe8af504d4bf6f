"""Any implementation as an adapter: a server program that speaks JSON lines on its standard input and output.

This is protocol 1. The contract for server authors is ``docs/implementers.md``; every message has a schema in
``conformance/schemas/protocol.json``. One JSON object per line, UTF-8, newline-terminated, both directions::

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
"""

from __future__ import annotations

import json
import logging
import os
import queue
import shlex
import signal
import subprocess
import sys
import threading
import weakref
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from referencing import Resource

from conformance.schema import SCHEMAS, SchemaError, registry, validate_call, validate_outcome
from reference.calls import Call, Outcome

from .base import AdapterError

PROTOCOL = 1
MAX_LINE = 1 << 20  # bytes in one line, newline excluded, in both directions
DEFAULT_TIMEOUT = 10.0  # seconds for one call or reset
DEFAULT_START_TIMEOUT = 30.0  # seconds from starting the program to its hello
MAX_START_FAILURES = 3  # consecutive failed restarts after which the adapter stops trying
TIMEOUT_ENV = "MQCONF_JSONLINES_TIMEOUT"
START_TIMEOUT_ENV = "MQCONF_JSONLINES_START_TIMEOUT"
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


def decode(raw: bytes) -> Any:
    """A protocol line as a JSON value; ``ValueError`` with a short reason when it is not UTF-8 JSON."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"not UTF-8 (byte {exc.start})") from None
    try:
        return json.loads(text, parse_constant=_reject_constant)
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

def _kill(proc: subprocess.Popen) -> None:
    """Kill the server and whatever it started (it leads its own process group on POSIX)."""
    if proc.poll() is not None:
        return
    try:
        if os.name == "posix":
            os.killpg(proc.pid, signal.SIGKILL)
        else:
            proc.kill()
    except (ProcessLookupError, PermissionError, OSError):
        try:
            proc.kill()
        except OSError:
            pass


class _Server:
    """One server process. A worker thread writes each request and reads one answer line (so a server that stops
    reading or stops answering cannot block the caller past its timeout); another keeps the tail of its standard
    error for error messages. Reading stops at ``max_line`` bytes without a newline."""

    def __init__(self, argv: Sequence[str], max_line: int):
        self.max_line = max_line
        self.proc = subprocess.Popen(
            list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            start_new_session=(os.name == "posix"),
        )
        self._finalizer = weakref.finalize(self, _kill, self.proc)
        self._requests: queue.Queue = queue.Queue()
        self._answers: queue.Queue = queue.Queue()
        self._tail = bytearray()
        self._tail_lock = threading.Lock()
        self._worker = threading.Thread(target=self._exchange_loop, name="jsonlines-io", daemon=True)
        self._drain = threading.Thread(target=self._drain_stderr, name="jsonlines-stderr", daemon=True)
        self._worker.start()
        self._drain.start()

    # -- threads ----------------------------------------------------------------------------------------------
    def _exchange_loop(self) -> None:
        stdin, stdout = self.proc.stdin, self.proc.stdout
        while True:
            request = self._requests.get()
            if request is None:
                return
            data, answered = request
            try:
                stdin.write(data)
                stdin.flush()
            except (OSError, ValueError) as exc:
                self._answers.put(("closed", f"closed its input ({exc.__class__.__name__})"))
                continue
            if not answered:
                continue
            try:
                line = stdout.readline(self.max_line + 1)
            except (OSError, ValueError):
                line = b""
            if line.endswith(b"\n"):
                self._answers.put(("line", line[:-1]))
            elif len(line) > self.max_line:
                self._answers.put(("too-long", None))
            else:
                self._answers.put(("closed", "closed its output" + (" in mid-line" if line else "")))

    def _drain_stderr(self) -> None:
        stream = self.proc.stderr
        while True:
            try:
                chunk = stream.read1(65536)
            except (OSError, ValueError):
                return
            if not chunk:
                return
            with self._tail_lock:
                self._tail += chunk
                del self._tail[:-_STDERR_TAIL]

    # -- the caller's side ------------------------------------------------------------------------------------
    def exchange(self, data: bytes, timeout: float) -> tuple[str, Any]:
        """Write one request and wait for one answer line: ("line", bytes), ("too-long", None),
        ("closed", why) or ("timeout", None)."""
        self._requests.put((data, True))
        try:
            return self._answers.get(timeout=timeout)
        except queue.Empty:
            return ("timeout", None)

    def last_stderr_line(self) -> str | None:
        with self._tail_lock:
            text = bytes(self._tail).decode("utf-8", "replace")
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        return one_line(lines[-1], 200) if lines else None

    def ended(self, grace: float = _EXIT_GRACE) -> tuple[bool, str]:
        """Whether the process exited by itself within ``grace`` seconds (else it is killed), and how it ended,
        with its last line on standard error."""
        try:
            code = self.proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            self.kill()
            self.proc.wait()
            code = None
        self._drain.join(timeout=0.5)
        if code is None:
            how = "it did not exit, and was stopped"
        elif code >= 0:
            how = f"exit status {code}"
        else:
            try:
                how = f"killed by signal {-code} ({signal.Signals(-code).name})"
            except ValueError:
                how = f"killed by signal {-code}"
        last = self.last_stderr_line()
        return code is not None, how + (f"; last stderr line: {json.dumps(last, ensure_ascii=False)}" if last else "")

    def kill(self) -> None:
        _kill(self.proc)

    def stop(self, bye: bytes | None = None, grace: float = _EXIT_GRACE) -> None:
        """End the server: say ``bye`` and give it ``grace`` seconds to exit, else kill it. Idempotent."""
        if bye is not None and self.proc.poll() is None:
            self._requests.put((bye, False))
            try:
                self.proc.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                pass
        self.kill()
        try:
            self.proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            pass
        self._requests.put(None)
        self._worker.join(timeout=grace)
        self._drain.join(timeout=grace)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                stream.close()
            except (OSError, ValueError):
                pass
        self._finalizer.detach()


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
                 start_timeout: float | None = None, max_line: int = MAX_LINE, validate_calls: bool = True):
        argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not argv:
            raise AdapterError("jsonlines: no command given (write jsonlines:PROGRAM [ARGUMENTS...])")
        self.command = argv
        self.timeout = _seconds(timeout, TIMEOUT_ENV, DEFAULT_TIMEOUT)
        self.start_timeout = _seconds(start_timeout, START_TIMEOUT_ENV, max(DEFAULT_START_TIMEOUT, self.timeout))
        self.max_line = max_line
        self.validate_calls = validate_calls
        self.name, self.version, self.capabilities = "jsonlines", "", frozenset()
        self.implementation: dict[str, Any] = {}
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
                return
            except _Fault as fault:
                self._fault(f"reset failed: {fault}")
                log.warning("jsonlines server %s: reset failed (%s); starting a new server", self._label, fault)
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
            log.warning("jsonlines server %s: %s", self._label, cause)

    def execute(self, call: Call) -> Outcome:
        if self._server is None:
            return Outcome(error=one_line(self._down or "the server is not running"))
        payload = call.to_json()
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
        data = f'{{"type":"call","id":{ident},"call":{text}}}\n'.encode("utf-8")
        if len(data) > self.max_line + 1:
            return Outcome(error=f"call not sent: it is {len(data) - 1} bytes as JSON, over the protocol's "
                                 f"{self.max_line}-byte line limit")
        try:
            answer = self._ask(data, self.timeout, what)
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
            if hello.get("type") == "hello" and hello.get("protocol") != PROTOCOL:
                raise _Fault(f"the server speaks protocol {json.dumps(hello.get('protocol'))}; this suite speaks "
                             f"protocol {PROTOCOL} (docs/implementers.md)")
            problem = check_message("hello_reply", hello)
            if problem:
                raise _Fault(f"its answer to hello is not a hello reply: {problem}")
        except _Fault:
            self._server = None
            server.stop()
            raise
        self.implementation = dict(hello["implementation"])
        self.name = str(hello["implementation"]["name"])
        self.version = str(hello["implementation"]["version"])
        self.capabilities = frozenset(hello["capabilities"])
        self._down = None
        self._start_failures = 0

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
            raise _Fault(f"no answer to {what} within {timeout:g} s; the server was stopped")
        if kind == "too-long":
            server.kill()
            raise _Fault(f"the server wrote a line longer than {self.max_line} bytes in answer to {what}; "
                         f"the server was stopped")
        if kind == "closed":
            exited, how = server.ended()
            if exited:
                raise _Fault(f"the server exited during {what}: {how}")
            raise _Fault(f"the server {value} during {what}; {how}")
        try:
            message = decode(value)
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
        return Outcome.from_json(outcome)


def _refused(answer: dict[str, Any], what: str) -> None:
    """A fault when ``answer`` is an error reply to ``what``."""
    if answer.get("type") == "error":
        message = answer.get("message")
        raise _Fault(f"the server refused {what}: " + (message if isinstance(message, str) else json.dumps(answer)))


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m adapters.jsonlines COMMAND...``: greet a server and print what it declares (a quick check)."""
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
