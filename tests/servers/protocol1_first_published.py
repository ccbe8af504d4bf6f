"""A server written against protocol 1 as first published (fixtures/compat/protocol-1/schemas/).

It runs the reference model, but speaks the way a server written to the first text of protocol 1 may: it reads
only calls that the first call.json accepts (any other call is an outcome with ``error``), and it answers every
option, flag and enumerated structure field with its integer value (``Report: 0``, ``MsgFlags: 8``,
``Feedback: 0``, ``MsgType: 8``, ``GMO.Options: 4``...), CompCode and Reason by name. Such a server must be
certified exactly as the reference model is (tests/test_protocol_compat.py).
"""

import json
import os
import sys
from pathlib import Path

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from mq_conformance import fixtures
from mq_conformance.conformance.serve import Server, serve
from mq_conformance.reference.calls import STRUCTURES, decode_field

FIRST = Path(fixtures.__file__).parent / "compat" / "protocol-1" / "schemas"
CAPABILITIES_THEN = ["browse-mark", "cluster", "core", "groups", "segmentation", "units-of-work"]


def _validator() -> Draft202012Validator:
    schemas = {name: json.loads((FIRST / f"{name}.json").read_text()) for name in ("call", "outcome")}
    known = Registry().with_resources((s["$id"], Resource.from_contents(s)) for s in schemas.values())
    return Draft202012Validator(schemas["call"], registry=known)


CALLS = _validator()


def as_integers(outcome: dict) -> dict:
    for key, (_cls, kinds) in STRUCTURES.items():
        for name, value in (outcome.get(key) or {}).items():
            if kinds[name][0] == "options":
                residue = sum(int(bit, 16) for bit in value if bit.startswith("0x"))
                outcome[key][name] = residue | decode_field(kinds[name], [n for n in value if n[:2] != "0x"], name)
            elif kinds[name][0] in ("enum", "int") and not isinstance(value, int):
                outcome[key][name] = decode_field(kinds[name], value, name)
    return outcome


class FirstPublished(Server):
    def _hello(self, request):
        reply, stop = super()._hello(request)
        reply["implementation"] = {"name": "protocol-1-as-first-published", "language": "Python",
                                   "version": os.environ.get("MQCONF_TEST_SERVER_VERSION", "1.0")}
        reply["capabilities"] = CAPABILITIES_THEN
        return reply, stop

    def _call(self, request):
        errors = sorted(CALLS.iter_errors(request.get("call")), key=lambda e: e.json_path)
        if errors:
            return {"type": "outcome", "id": request.get("id"),
                    "outcome": {"error": f"not protocol 1 as first published: {errors[0].json_path}: "
                                         f"{errors[0].message}"[:400]}}, False
        reply, stop = super()._call(request)
        if reply.get("type") == "outcome":
            as_integers(reply["outcome"])
        return reply, stop

    _HANDLERS = {**Server._HANDLERS, "hello": _hello, "call": _call}


if __name__ == "__main__":
    sys.exit(serve(sys.stdin.buffer, sys.stdout.buffer, FirstPublished()))
