"""Cannot reset: answers reset with "ok": false, which protocol 1 does not allow (it should send an error)."""

from toy import run

run(reset={"type": "reset", "ok": False})
