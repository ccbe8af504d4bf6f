"""The first release's reference server, replayed from its recorded exchanges (fixtures/compat/protocol-1/).

It answers the hello as the first release's server did, and each call with the outcome that server gave to the
same call in a recorded scenario: after a reset every recorded scenario is a candidate, and each call keeps the
candidates whose call at that point was the same (MD.Report compared by value: an MQLONG, one MQRO_* name or a
list). A call that protocol 1 as first published did not allow, or that no recorded scenario sent there, is an
outcome with ``error`` saying so. So today's suite, run on this server, sends what the first release's suite
sent and reads what its server answered.
"""

import gzip
import json
import sys
from pathlib import Path

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from mq_conformance import fixtures
from mq_conformance.reference.calls import decode_options

CORPUS = Path(fixtures.__file__).parent / "compat" / "protocol-1"


def _validator() -> Draft202012Validator:
    schemas = {name: json.loads((CORPUS / "schemas" / f"{name}.json").read_text()) for name in ("call", "outcome")}
    known = Registry().with_resources((s["$id"], Resource.from_contents(s)) for s in schemas.values())
    return Draft202012Validator(schemas["call"], registry=known)


def same_call(call: dict) -> str:
    """The call as a text in which equal calls are equal (Report by its value)."""
    md = call.get("MD")
    if isinstance(md, dict) and "Report" in md:
        call = {**call, "MD": {**md, "Report": decode_options(md["Report"], "MQRO", "MD.Report")}}
    return json.dumps(call, sort_keys=True)


def load() -> tuple[dict, list[list]]:
    with gzip.open(CORPUS / "first-release-exchanges.jsonl.gz", "rt", encoding="utf-8") as lines:
        head, *records = [json.loads(line) for line in lines]
    return head["hello"][1], [[ex for ex in r["exchanges"] if ex[0]["type"] == "call"] for r in records]


def main() -> int:
    hello, scenarios = load()
    calls = _validator()
    candidates, position = [], 0
    for line in sys.stdin:
        request = json.loads(line)
        kind = request["type"]
        if kind == "hello":
            reply = hello
        elif kind == "reset":
            candidates, position = list(range(len(scenarios))), 0
            reply = {"type": "reset", "ok": True}
        elif kind == "call":
            errors = sorted(calls.iter_errors(request["call"]), key=lambda e: e.json_path)
            if errors:
                outcome = {"error": f"not protocol 1 as first published: {errors[0].json_path}: "
                                    f"{errors[0].message}"[:400]}
            else:
                wanted = same_call(request["call"])
                candidates = [i for i in candidates if position < len(scenarios[i])
                              and same_call(scenarios[i][position][0]["call"]) == wanted]
                outcome = (scenarios[candidates[0]][position][1]["outcome"] if candidates else
                           {"error": f"the first release never sent this call here: {wanted}"[:400]})
                position += 1
            reply = {"type": "outcome", "id": request["id"], "outcome": outcome}
        else:
            return 0
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
