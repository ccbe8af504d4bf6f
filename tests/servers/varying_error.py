"""A server whose every put fails with an error text of its own (it names the call's id): a campaign must not
make a divergence signature (and a witness) per sequence out of it."""

import json
import sys

from toy import run


def varying(request: dict) -> None:
    sys.stdout.write(json.dumps({"type": "outcome", "id": request["id"],
                                 "outcome": {"error": f"failure number {request['id']}"}}) + "\n")
    sys.stdout.flush()


run(varying)
