"""Reading a JSON client channel definition table (emulator/ccdt.py; clause emulator.ccdt): which
channels and addresses a connect tries, and the bounds on what is read."""

from __future__ import annotations

import json

import pytest

from mq_conformance.emulator import ccdt

TABLE = {"channel": [
    {"name": "A.SVRCONN", "type": "clientConnection",
     "clientConnection": {"connection": [{"host": "h1", "port": 1414}, {"host": "h2", "port": 1416}],
                          "queueManager": "QMGroupA"}},
    {"name": "B.SVRCONN", "type": "clientConnection",
     "clientConnection": {"connection": [{"host": "h3"}], "queueManager": "QM1"}},
    {"name": "B.RCVR", "type": "receiver"}]}


def _routes(qmgr: str, table=TABLE) -> list[ccdt.Route]:
    return ccdt.routes(json.dumps(table).encode(), "test.json", qmgr)


def test_the_channels_of_the_queue_manager_asked_for_in_order():
    assert _routes("QM1") == [ccdt.Route("B.SVRCONN", ("h3(1414)",))]
    assert _routes("*QMGroupA") == [ccdt.Route("A.SVRCONN", ("h1(1414)", "h2(1416)"))]  # a group
    assert [r.channel for r in _routes("")] == ["A.SVRCONN", "B.SVRCONN"]  # the default: any


def test_no_channel_for_the_queue_manager_is_q_mgr_name_error():
    with pytest.raises(ccdt.CcdtError) as none:
        _routes("QM9")
    assert none.value.reason == ccdt.MQRC_Q_MGR_NAME_ERROR


def test_what_is_read_is_bounded(tmp_path):
    deep = "[" * (ccdt.MAX_DEPTH + 1) + "]" * (ccdt.MAX_DEPTH + 1)
    with pytest.raises(ccdt.CcdtError) as too_deep:
        ccdt.routes(deep.encode(), "deep.json", "QM1")
    assert too_deep.value.reason == ccdt.MQRC_CHANNEL_CONFIG_ERROR
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (ccdt.MAX_BYTES + 1))
    with pytest.raises(ccdt.CcdtError) as too_big:
        ccdt.read(str(big))
    assert too_big.value.reason == ccdt.MQRC_CHANNEL_CONFIG_ERROR
    many = {"channel": [{"name": "X", "clientConnection": {}}] * (ccdt.MAX_CHANNELS + 1)}
    with pytest.raises(ccdt.CcdtError):
        _routes("QM1", many)


def test_a_binary_ccdt_a_remote_url_and_a_missing_file_are_ccdt_url_error(tmp_path):
    binary = tmp_path / "AMQCLCHL.TAB"
    binary.write_bytes(b"AMQR\xff\xfe\x00\x01")
    for url in (str(binary), "http://example.com/ccdt.json", str(tmp_path / "missing.json")):
        with pytest.raises(ccdt.CcdtError) as refused:
            ccdt.routes(ccdt.read(url), url, "QM1")
        assert refused.value.reason == ccdt.MQRC_CCDT_URL_ERROR


def test_the_environment_names_the_table():
    assert ccdt.location({"MQCCDTURL": "file:///x/ccdt.json", "MQCHLLIB": "/y"}) == "file:///x/ccdt.json"
    assert ccdt.location({"MQCHLLIB": "/y", "MQCHLTAB": "ccdt.json"}) == "/y/ccdt.json"
    assert ccdt.location({"MQCHLLIB": "/y"}) == "/y/AMQCLCHL.TAB"
    assert ccdt.location({}) is None


def test_trailing_commas_as_in_ibms_examples_are_read():
    text = ('{"channel": [{"name": "B.SVRCONN", "type": "clientConnection",\n'
            '  "clientConnection": {"connection": [{"host": "h3", "port": 1415,},],\n'
            '                       "queueManager": "QM1",},},\n], }')
    assert ccdt.routes(text.encode(), "ibm-style.json", "QM1") == [ccdt.Route("B.SVRCONN", ("h3(1415)",))]


def test_a_comma_inside_a_string_is_kept_and_a_lone_comma_is_still_refused():
    kept = '{"channel": [{"name": "A,}", "clientConnection": {"connection": [{"host": "h,]"}], "queueManager": "QM1"}}]}'
    assert ccdt.routes(kept.encode(), "t.json", "QM1") == [ccdt.Route("A,}", ("h,](1414)",))]
    with pytest.raises(ccdt.CcdtError) as refused:
        ccdt.routes(b'{"channel": [,]}', "t.json", "QM1")
    assert refused.value.reason == ccdt.MQRC_CHANNEL_CONFIG_ERROR
