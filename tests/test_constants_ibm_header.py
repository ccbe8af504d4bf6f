"""Every MQ constant the suite names has the value of IBM's own header, as IBM's ``ibmmq`` package (installed with
the suite) carries it in CMQC, CMQCFC and CMQXC.

A wrong number (MQIAV_NOT_APPLICABLE once read -2, MQIAV_UNDEFINED's value) cannot come back: the model's
constants (reference/constants.py), the names the scenarios and tables use, fixtures/constants.json and the
reason-code ledger (fixtures/reason-codes.yaml) are all compared with IBM's modules here.
"""

from __future__ import annotations

import json
import re

import pytest
import yaml

from mq_conformance import fixtures
from mq_conformance.emulator import EmulatorUnavailable, load_ibmmq
from mq_conformance.reference.cluster.topology import CHANNEL_STATES
from mq_conformance.reference.constants import BYTES, FORMATS, VALUES

try:
    IBMMQ = load_ibmmq()
except EmulatorUnavailable as exc:  # no wheel of IBM's ibmmq for this platform (pyproject.toml)
    pytest.skip(str(exc), allow_module_level=True)

MODULES = tuple(getattr(IBMMQ, name) for name in ("CMQC", "CMQCFC", "CMQXC"))
NAME = re.compile(r"\bMQ[A-Z]+_[A-Z0-9_]+\b")


def ibm_value(name: str) -> int | bytes | None:
    """The value IBM's header gives ``name`` (None if no module of IBM's defines it)."""
    for module in MODULES:
        value = getattr(module, name, None)
        if isinstance(value, (int, bytes)):
            return value
    return None


def mismatches(named: dict) -> dict[str, tuple]:
    return {n: (v, ibm_value(n)) for n, v in sorted(named.items()) if ibm_value(n) != v}


def test_every_model_constant_has_ibms_value():
    assert len(VALUES) > 300
    assert mismatches(VALUES) == {}


def test_not_applicable_is_minus_one_and_undefined_minus_two():
    # The value the model once had wrong: the two are distinct in IBM's header.
    assert VALUES["MQIAV_NOT_APPLICABLE"] == ibm_value("MQIAV_NOT_APPLICABLE") == -1
    assert ibm_value("MQIAV_UNDEFINED") == -2


def test_byte_string_and_format_constants_are_ibms():
    assert mismatches(BYTES) == {}
    assert mismatches({name: text.encode("ascii") for name, text in FORMATS.items()}) == {}


def test_channel_states_the_model_names_are_ibms():
    assert all(isinstance(ibm_value(name), int) for name in CHANNEL_STATES)


def test_constants_json_has_ibms_values():
    published = json.loads((fixtures.ROOT / "constants.json").read_text(encoding="utf-8"))["values"]
    assert len(published) > 300
    assert mismatches(published) == {}


def test_reason_code_ledger_names_and_values_are_ibms():
    ledger = yaml.safe_load((fixtures.ROOT / "reason-codes.yaml").read_text(encoding="utf-8"))
    codes = {entry["code"]: entry["value"] for entry in ledger["codes"]}
    assert len(codes) > 100
    assert mismatches(codes) == {}


def test_every_constant_a_scenario_or_table_names_is_ibms():
    texts = [p.read_text(encoding="utf-8") for p in fixtures.ROOT.joinpath("scenarios").rglob("*.yaml")]
    texts += [p.read_text(encoding="utf-8") for p in fixtures.TABLES.glob("*.yaml")]
    # the values the files give, not their prose (titles, notes, descriptions and comments)
    prose = re.compile(r"^\s*(?:-\s*)?(?:title|note|description):|^\s*#")
    named = {name for text in texts for line in text.splitlines() if not prose.match(line)
             for name in NAME.findall(line.split(" #")[0])}
    assert len(named) > 150
    known = {**VALUES, **BYTES, **{n: t.encode("ascii") for n, t in FORMATS.items()}}
    unknown = sorted(n for n in named if n not in known and n not in CHANNEL_STATES)
    assert unknown == [], "scenarios or tables name constants the model does not know"
    assert mismatches({n: known[n] for n in named if n in known}) == {}
    assert all(ibm_value(n) is not None for n in named)
