"""Fails to start: a line on standard error, then exit status 1, before any hello."""

import sys

sys.stderr.write("toy: starting up\ntoy: no licence file found\n")
sys.exit(1)
