"""Adapters for the campaign tests, named as ``campaign_adapters:NAME`` (pytest puts this folder on sys.path): the
model with two different MQINQ attribute bugs, each showing on its own selector."""

from __future__ import annotations

from dataclasses import replace

from mq_conformance.adapters.reference import ReferenceAdapter
from mq_conformance.reference.calls import Call, Outcome


class TwoAttributeBugs(ReferenceAdapter):
    """The model, but MQINQ answers CurrentQDepth one too many and InhibitGet inverted."""

    name = "two-attribute-bugs"

    def execute(self, call: Call) -> Outcome:
        outcome = super().execute(call)
        if call.op != "inquire" or not isinstance(outcome.attributes, dict):
            return outcome
        attributes = dict(outcome.attributes)
        if isinstance(attributes.get("MQIA_CURRENT_Q_DEPTH"), int):
            attributes["MQIA_CURRENT_Q_DEPTH"] += 1
        if "MQIA_INHIBIT_GET" in attributes:
            allowed = attributes["MQIA_INHIBIT_GET"] == "MQQA_GET_ALLOWED"
            attributes["MQIA_INHIBIT_GET"] = "MQQA_GET_INHIBITED" if allowed else "MQQA_GET_ALLOWED"
        return replace(outcome, attributes=attributes)


def two_attribute_bugs() -> TwoAttributeBugs:
    return TwoAttributeBugs()
