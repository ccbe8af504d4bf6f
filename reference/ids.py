"""Deterministic generation of MsgId, CorrelId, GroupId and MsgToken values.

IBM MQ makes identifiers unique per queue manager; the model makes them unique and reproducible: the same seed
and the same calls give the same identifiers, so a model is a value that can be built twice and compared.
The layout (``AMQ `` + queue manager name + counter) echoes IBM's, but no rule depends on it.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class IdGenerator:
    """A counter-based source of unique identifiers for one queue manager."""

    qmgr_name: str
    seed: int = 0
    counter: int = 0
    _prefix: bytes = field(init=False, compare=False, repr=False)  # made once: ids are made on every put

    def __post_init__(self) -> None:
        self._prefix = ("AMQ " + self.qmgr_name[:8].ljust(8)).encode("ascii", "replace")

    def _next(self) -> bytes:
        self.counter += 1
        return ((self.seed << 40) + self.counter).to_bytes(12, "big")

    def new_id(self) -> bytes:
        """A new 24-byte identifier (MsgId, CorrelId or GroupId)."""
        return self._prefix + self._next()

    def new_token(self) -> bytes:
        """A new 16-byte MsgToken."""
        return b"MTOK" + self._next()
