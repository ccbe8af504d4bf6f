"""A ``module:factory`` adapter held to the same time budget as a JSON-lines server.

A Python adapter named as ``module:factory`` runs in this process: its factory, ``reset``, ``execute`` and
``close`` are third-party code that may never return (a lost connection, a deadlock, a loop). A JSON-lines server
that does not answer is stopped after ``MQCONF_JSONLINES_TIMEOUT`` (10 s a call; ``MQCONF_JSONLINES_START_TIMEOUT``,
30 s, to start); this module gives the in-process adapter the same budgets, read from the same variables.

Why a worker thread and not a subprocess. A subprocess can be killed and a thread cannot, so a subprocess would
bound even a hang in C code that holds the interpreter lock. But a ``module:factory`` adapter is in process by
contract: its objects are the caller's (a test patches a module, a wrapper shares state with its adapter), its
exceptions reach the runner as they were raised ("adapter raised RuntimeError: boom"), and it needs nothing
serialisable. Whoever wants an adapter out of process already has one: ``jsonlines:mqconf serve --stdio
--adapter module:factory`` runs it behind the protocol, killed on a hang. So each adapter's calls run on one
daemon thread of its own, and the caller waits for each at most the budget: a call that overruns is the call's
outcome (an error naming the budget), like a JSON-lines timeout; the hung thread is abandoned (it cannot be
killed; being a daemon, it never keeps mqconf from exiting) with the instance it holds, and the next ``reset``
starts a fresh instance from the factory, as the JSON-lines adapter restarts its server (up to MAX_ABANDONED
times: each hung thread holds its memory for good, so after that every call is the error). A factory or ``reset``
that overruns is an :class:`AdapterError` (one line). What this cannot bound is code that never gives the lock
back; that is what the ``jsonlines:`` route is for.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any

from mq_conformance.reference.calls import Call, Outcome

from .base import AdapterError
from .jsonlines import (DEFAULT_START_TIMEOUT, DEFAULT_TIMEOUT, START_TIMEOUT_ENV, TIMEOUT_ENV, _seconds)


MAX_ABANDONED = 3  # hung instances (each a thread that may never end) before the adapter is given up for good


class _Overran(Exception):
    """A call on the worker thread did not return within its budget."""


class _Worker:
    """One daemon thread running an adapter's calls one at a time, waited for at most a budget each."""

    def __init__(self, label: str):
        self.requests: queue.SimpleQueue = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._serve, name=f"mqconf-adapter {label}", daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while True:
            job = self.requests.get()
            if job is None:
                return
            action, answer = job
            try:
                answer.put((True, action()))
            except BaseException as exc:  # noqa: BLE001 - handed to the waiting caller, which raises it
                answer.put((False, exc))

    def run(self, action: Callable[[], Any], seconds: float) -> Any:
        answer: queue.SimpleQueue = queue.SimpleQueue()
        self.requests.put((action, answer))
        try:
            ok, value = answer.get(timeout=seconds)
        except queue.Empty:
            raise _Overran from None
        if not ok:
            raise value
        return value

    def stop(self) -> None:
        self.requests.put(None)


class BoundedAdapter:
    """The adapter ``factory`` makes (named ``label``), each of its calls bounded (see the module's docstring)."""

    def __init__(self, factory: Callable[[], Any], label: str, check: Callable[[Any], Any] = lambda a: a,
                 timeout: float | None = None, start_timeout: float | None = None):
        self.factory, self.label, self.check = factory, label, check
        self.timeout = _seconds(timeout, TIMEOUT_ENV, DEFAULT_TIMEOUT)
        self.start_timeout = _seconds(start_timeout, START_TIMEOUT_ENV, max(DEFAULT_START_TIMEOUT, self.timeout))
        self.hung: str | None = None  # why the current instance was abandoned, until the next reset
        self.abandoned = 0  # hung threads left behind: after MAX_ABANDONED, no fresh instance is started
        self._start()

    def _start(self) -> None:
        self.worker = _Worker(self.label)
        try:
            self.adapter = self.check(self.worker.run(self.factory, self.start_timeout))
        except _Overran:
            raise AdapterError(f"adapter {self.label!r} failed to start: its factory did not return within "
                               f"{self.start_timeout:g} s ({START_TIMEOUT_ENV})") from None
        except BaseException:
            self.worker.stop()
            raise
        self.name = self.adapter.name
        self.capabilities = self.adapter.capabilities

    def __getattr__(self, attribute: str) -> Any:  # what else the adapter offers (decisions, version...)
        if "adapter" not in self.__dict__:
            raise AttributeError(attribute)
        return getattr(self.__dict__["adapter"], attribute)

    def reset(self) -> None:
        """Reset the adapter; after a call that hung, start a fresh one from the factory instead."""
        if self.hung is not None:
            if self.abandoned >= MAX_ABANDONED:
                return  # every call stays an error at once: no more threads left hanging
            self.hung = None
            self._start()
            return
        try:
            self.worker.run(self.adapter.reset, self.timeout)
        except _Overran:
            self._abandon()
            raise AdapterError(f"adapter {self.label!r}: reset did not return within {self.timeout:g} s "
                               f"({TIMEOUT_ENV}); the adapter was abandoned") from None

    def execute(self, call: Call) -> Outcome:
        if self.hung is not None:
            return Outcome(error=self.hung)
        try:
            return self.worker.run(lambda: self.adapter.execute(call), self.timeout)
        except _Overran:
            self._abandon()
            self.hung = (f"adapter {self.label!r} did not return from {call.op} within {self.timeout:g} s "
                         f"({TIMEOUT_ENV}); it was abandoned, " + (
                             "and a fresh one starts at the next reset" if self.abandoned < MAX_ABANDONED else
                             f"the {MAX_ABANDONED}th time: every later call is this error"))
            return Outcome(error=self.hung)

    def close(self) -> None:
        if self.hung is not None:
            return  # its thread is still inside the adapter: nothing more may be asked of it
        try:
            self.worker.run(self.adapter.close, self.timeout)
        except _Overran:
            self._abandon()
            return
        self.worker.stop()

    def _abandon(self) -> None:
        self.abandoned += 1
        self.worker.stop()  # the thread ends once the hung call returns, if it ever does
