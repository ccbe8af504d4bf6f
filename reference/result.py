"""What an MQI call returns in the model: completion code, reason, output structures, and the clause ids of
the rules that decided the outcome."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .constants import VALUES
from .structures import MQGMO, MQMD, MQPMO

MQCC_OK = VALUES["MQCC_OK"]
MQCC_WARNING = VALUES["MQCC_WARNING"]
MQCC_FAILED = VALUES["MQCC_FAILED"]
MQRC_NONE = VALUES["MQRC_NONE"]


@dataclass(slots=True)
class Result:
    """The result of one MQI call on the model.

    ``clauses`` lists, in the order they were applied, the ids (from fixtures/clauses.yaml) of the rules that
    decided this outcome. Output structures are present only for the calls that return them.
    """

    comp_code: int = MQCC_OK
    reason: int = MQRC_NONE
    clauses: list[str] = field(default_factory=list)
    md: MQMD | None = None
    pmo: MQPMO | None = None
    gmo: MQGMO | None = None
    data: bytes | None = None
    data_length: int | None = None
    hconn: int | None = None
    hobj: int | None = None
    attributes: dict[str, Any] | None = None
    object_name: str | None = None  # MQOPEN of a model queue: the dynamic queue's name (MQOD ObjectName)
    message: Any = None  # MQGET: the stored message returned (reference/properties.py reads its properties)
    hsub: int | None = None  # MQSUB: the subscription handle (reference/subscriptions.py)
    sub_correl_id: bytes | None = None  # MQSUB: the MQSD SubCorrelId publications carry as their CorrelId
    sub_level: int | None = None  # MQSUB with MQSO_RESUME: the MQSD SubLevel of the subscription resumed
    num_pubs: int | None = None  # MQSUBRQ: the MQSRO NumPubs, publications sent
    res_object_string: str | None = None  # MQOPEN of a topic: the MQOD ResObjectString, the full topic string

    @property
    def failed(self) -> bool:
        return self.comp_code == MQCC_FAILED


def failure(reason: str, *clauses: str) -> Result:
    """A failed call with reason ``reason`` (a MQRC_* name), decided by ``clauses``."""
    return Result(MQCC_FAILED, VALUES[reason], list(clauses))


def reason_code(name: str) -> int:
    """The value of a MQRC_* name."""
    return VALUES[name]
