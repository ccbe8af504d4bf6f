"""Speaks protocol 2: its hello says so."""

from toy import HELLO, run

run(hello={**HELLO, "protocol": 2})
