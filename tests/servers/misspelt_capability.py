"""Claims a capability the suite does not know (``clusters`` for ``cluster``) in its hello."""

from toy import HELLO, run

run(hello={**HELLO, "capabilities": ["core", "clusters"]})
