"""What an implementation says is read strictly: a key given twice in one JSON object is an error of that reply,
naming the key and the call, never silently the last value (JSON leaves it open; readers differ)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from mq_conformance.adapters.base import AdapterError
from mq_conformance.adapters.jsonlines import DuplicateKey, JsonLinesAdapter, decode
from mq_conformance.reference.calls import Call

SERVERS = Path(__file__).parent / "servers"


def test_an_outcome_with_a_key_twice_is_that_calls_error_naming_the_key_and_the_call():
    with JsonLinesAdapter([sys.executable, str(SERVERS / "duplicate_key.py")]) as adapter:
        adapter.reset()
        assert adapter.execute(Call("open", {"handle": "h", "queue": "Q1"})).CompCode == "MQCC_OK"
        outcome = adapter.execute(Call("put", {"handle": "h", "data": "x"}))
        assert outcome.CompCode is None
        assert outcome.error == ('the server\'s answer to call 2 (put) is ambiguous: the key "CompCode" appears '
                                 'twice in one object')
        # the stream is in step: the next call, without a restart, is answered
        assert adapter.execute(Call("close", {"handle": "h"})).CompCode == "MQCC_OK"


@pytest.mark.parametrize("line", [
    b'{"type": "hello", "type": "hello"}',
    b'{"type": "outcome", "outcome": {"MD": {"Report": 0, "Report": 256}}}',
])
def test_a_key_twice_at_any_depth_is_refused(line):
    with pytest.raises(DuplicateKey):
        decode(line)


def test_a_hello_with_a_key_twice_stops_the_start_in_one_line(tmp_path):
    server = tmp_path / "server.py"
    server.write_text(
        "import sys\nsys.stdin.readline()\n"
        "print('{\"type\":\"hello\",\"protocol\":1,\"protocol\":2,\"implementation\":{\"name\":\"x\",\"version\":\"1\"},'"
        " '\"capabilities\":[\"core\"]}', flush=True)\nsys.stdin.readline()\n")
    with pytest.raises(AdapterError) as caught:
        JsonLinesAdapter([sys.executable, str(server)])
    assert 'the key "protocol" appears twice' in str(caught.value)
    assert "\n" not in str(caught.value)
