"""A server with identifiers of its own: the reference model (or, with ``MQCONF_TEST_MUTANT``, one of its
mutants) behind a relabelling of every identifier it generates (hex digits 1 and 2, 3 and 4, ..., d and e
swapped: its own inverse, leaving the all-zero and all-ff identifiers as they are),
so its MsgIds, CorrelIds, GroupIds, MsgTokens and SubCorrelIds are never the model's bytes, as a real
implementation's are not. Identifiers a call passes as ``{"hex": ...}`` are relabelled back. It agrees with the
model wherever the model is right: a witness must pass on it unless it shows a real difference."""

import os
import sys

from mq_conformance.adapters.mutants import load_mutant
from mq_conformance.conformance.serve import Server, serve

FIELDS = {"MD": ("MsgId", "CorrelId", "GroupId"), "GMO": ("MsgToken",), "SD": ("SubCorrelId",)}


SWAPPED = str.maketrans("123456789abcde", "21436587a9cbed")


def relabel(value: str) -> str:
    return value.lower().translate(SWAPPED)


def _is_hex(value) -> bool:
    return isinstance(value, str) and bool(value) and all(c in "0123456789abcdefABCDEF" for c in value)


class OwnIds(Server):
    def _hello(self, request):
        reply, stop = super()._hello(request)
        # the same hello with or without the bug: a program swapped behind an unchanged hello
        reply["implementation"] = {"name": "own-identifiers", "version": "1.0"}
        return reply, stop

    def _call(self, request):
        call = request.get("call")
        if isinstance(call, dict):
            for key, names in FIELDS.items():
                part = call.get(key)
                for name in names if isinstance(part, dict) else ():
                    given = part.get(name)
                    if isinstance(given, dict) and set(given) == {"hex"} and _is_hex(given["hex"]):
                        part[name] = {"hex": relabel(given["hex"])}
        reply, stop = super()._call(request)
        outcome = reply.get("outcome") if reply.get("type") == "outcome" else None
        for key, names in FIELDS.items():
            part = (outcome or {}).get(key)
            for name in names if isinstance(part, dict) else ():
                if _is_hex(part.get(name)):
                    part[name] = relabel(part[name])
        return reply, stop

    _HANDLERS = {**Server._HANDLERS, "hello": _hello, "call": _call}


if __name__ == "__main__":
    mutant = os.environ.get("MQCONF_TEST_MUTANT")
    sys.exit(serve(sys.stdin.buffer, sys.stdout.buffer, OwnIds(load_mutant(f"mutant:{mutant}") if mutant else None)))
