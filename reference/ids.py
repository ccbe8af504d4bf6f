"""Deterministic generation of MsgId, CorrelId, GroupId and MsgToken values.

IBM MQ makes identifiers unique per queue manager; the model makes them unique and reproducible: the same seed
and the same calls give the same identifiers, so a model is a value that can be built twice and compared.
The layout (``AMQ `` + queue manager name + counter) echoes IBM's, but no rule depends on it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class IdGenerator:
    """A counter-based source of unique identifiers for one queue manager."""

    qmgr_name: str
    seed: int = 0
    counter: int = 0

    def _next(self) -> int:
        self.counter += 1
        return (self.seed << 40) + self.counter

    def new_id(self) -> bytes:
        """A new 24-byte identifier (MsgId, CorrelId or GroupId)."""
        prefix = ("AMQ " + self.qmgr_name[:8].ljust(8)).encode("ascii", "replace")
        return prefix + self._next().to_bytes(12, "big")

    def new_token(self) -> bytes:
        """A new 16-byte MsgToken."""
        return b"MTOK" + self._next().to_bytes(12, "big")
