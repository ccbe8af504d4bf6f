"""Executors of the call language: each adapter runs a :class:`mq_conformance.reference.calls.Call` on one implementation
and returns an :class:`mq_conformance.reference.calls.Outcome`."""

from .base import Adapter, AdapterError, available, load

__all__ = ["Adapter", "AdapterError", "available", "load"]
