"""The IBM MQ adapter (adapters/ibmmq.py).

The adapter's main check is tests/test_ibmmq_model_adapter.py: the adapter over IBM's real ``ibmmq`` Python
layer over the model's emulated native module, where every structure is packed by IBM's classes and every
claimed scenario runs. Two kinds of test remain here.

1. Tests against ``tests/fake_pymqi.py``, a stand-in for pymqi that records every MQI call and answers with
   scripted replies, kept for what only it can show: finding the package, configuration, client-connection and
   TLS structures, credentials never leaking, the queue pool's draining, pymqi 1.12's own quirks (no GMO version
   4), reasons and exceptions no queue manager would give on demand. Every CompCode/Reason the fake returns was
   written by the test; the fake copies pymqi's wrapper as read in dsuch/pymqi 1.12.11.

2. Live tests (``test_live_*``) that run only when ``MQCONF_QMGR`` is set, against a real queue manager through
   the real pymqi. None of them had been run when this file was written: no queue manager was available.
"""

from __future__ import annotations

import logging
import os
import pickle
import sys

import pytest

import mq_conformance.adapters.ibmmq as ibmmq_module
from mq_conformance.adapters.base import AdapterError, load
from mq_conformance.adapters.ibmmq import ConnectionConfig, IbmMqAdapter
from mq_conformance.reference.calls import Call, Outcome
from mq_conformance.reference.constants import VALUES
import fake_pymqi
from fake_pymqi import CC_FAILED, Reply

PASSWORD = "pw-Zq8!secret"  # distinctive, so a leak is unmistakable
USER = "mqtester"
CLIENT_ENV = {
    "MQCONF_QMGR": "QM1",
    "MQCONF_CHANNEL": "DEV.APP.SVRCONN",
    "MQCONF_CONN_INFO": "127.0.0.1(1414)",
    "MQCONF_USER": USER,
    "MQCONF_PASSWORD": PASSWORD,
}


@pytest.fixture
def fake(monkeypatch):
    """The fake pymqi's backend, installed as ``pymqi`` (and ``ibmmq`` made unimportable)."""
    _module, backend = fake_pymqi.install(monkeypatch)
    return backend


@pytest.fixture
def adapter(fake):
    instance = IbmMqAdapter(env=CLIENT_ENV)
    instance.reset()
    yield instance
    instance.close()


def run(adapter, op: str, **args) -> Outcome:
    return adapter.execute(Call(op, args))


def ok(adapter, op: str, **args) -> Outcome:
    out = run(adapter, op, **args)
    assert out.error is None, out.error
    assert out.CompCode == "MQCC_OK", (out.CompCode, out.Reason)
    return out


def opened(adapter, *options: str, queue: str = "Q1", handle: str = "h") -> None:
    ok(adapter, "define_queue", name=queue)
    ok(adapter, "open", handle=handle, queue=queue, Options=list(options) or ["MQOO_OUTPUT", "MQOO_INPUT_SHARED"])


# -- finding the package ----------------------------------------------------------------------------------------

def test_neither_package_gives_one_clear_line(monkeypatch):
    monkeypatch.setitem(sys.modules, "pymqi", None)
    monkeypatch.setitem(sys.modules, "ibmmq", None)
    with pytest.raises(AdapterError) as caught:
        IbmMqAdapter(env=CLIENT_ENV)
    message = str(caught.value)
    assert "\n" not in message
    assert "mq-conformance[ibmmq]" in message and "pip install pymqi" in message and "IBM MQ C client" in message


def test_load_by_name_reports_the_missing_package(monkeypatch):
    monkeypatch.setitem(sys.modules, "pymqi", None)
    monkeypatch.setitem(sys.modules, "ibmmq", None)
    with pytest.raises(AdapterError, match=r"install mq-conformance\[ibmmq\]"):
        load("ibmmq")


def test_ibmmq_is_used_when_pymqi_is_absent(monkeypatch):
    fake_pymqi.install(monkeypatch, name="ibmmq")
    adapter = IbmMqAdapter(env=CLIENT_ENV)
    assert adapter.module_name == "ibmmq"
    assert "ibmmq" in adapter.version


def test_an_installed_but_unloadable_pymqi_is_named(monkeypatch):
    def broken(name):
        raise ImportError("libmqic_r.so: cannot open shared object file: No such file or directory")

    monkeypatch.setattr(ibmmq_module, "_import", broken)
    with pytest.raises(AdapterError) as caught:
        IbmMqAdapter(env=CLIENT_ENV)
    assert "pymqi is installed but cannot be imported" in str(caught.value)
    assert "libmqic_r.so" in str(caught.value) and "LD_LIBRARY_PATH" in str(caught.value)


def test_load_by_name_with_the_fake(fake):
    adapter = load("ibmmq")
    assert isinstance(adapter, IbmMqAdapter)
    assert {"core", "groups", "units-of-work", "segmentation"} <= adapter.capabilities
    assert adapter.name == "ibmmq"


# -- configuration ------------------------------------------------------------------------------------------------

def test_client_connection_from_the_environment(adapter, fake):
    opened(adapter)
    connect = fake.of("MQCONNX")[-1]
    assert connect["name"] == b"QM1"
    assert connect["cd"]["ChannelName"].rstrip(b"\0") == b"DEV.APP.SVRCONN"
    assert connect["cd"]["ConnectionName"].rstrip(b"\0") == b"127.0.0.1(1414)"
    assert connect["cd"]["ChannelType"] == 6 and connect["cd"]["TransportType"] == 2
    assert connect["options"] == 0x40 | 0x800  # MQCNO_HANDLE_SHARE_BLOCK, MQCNO_CLIENT_BINDING
    assert connect["user"] == USER and connect["password"] == PASSWORD


def test_bindings_when_no_channel(fake):
    adapter = IbmMqAdapter(env={"MQCONF_QMGR": "QM1"})
    assert not adapter.config.client
    opened(adapter)
    connect = fake.of("MQCONNX")[-1]
    assert connect["cd"] is None and "user" not in connect.args
    assert connect["options"] == 0x40  # MQCNO_HANDLE_SHARE_BLOCK, standard binding
    assert "bindings connection to 'QM1'" in repr(adapter)


def test_tls_settings_reach_cd_and_sco(fake):
    env = {**CLIENT_ENV, "MQCONF_TLS_CIPHER": "ANY_TLS12_OR_HIGHER",
           "MQCONF_TLS_KEY_REPOSITORY": "/var/mqm/keys/client", "MQCONF_TLS_CERT_LABEL": "ibmwebspheremqapp"}
    adapter = IbmMqAdapter(env=env)
    ok(adapter, "connect")
    connect = fake.of("MQCONNX")[-1]
    assert connect["cd"]["SSLCipherSpec"].rstrip(b"\0") == b"ANY_TLS12_OR_HIGHER"
    assert connect["cd"]["Version"] >= 7  # pymqi raises the MQCD version for TLS (line 1730)
    assert connect["sco"]["KeyRepository"].rstrip(b"\0") == b"/var/mqm/keys/client"
    assert connect["sco"]["CertificateLabel"].rstrip(b"\0") == b"ibmwebspheremqapp"


def test_password_file_is_read_and_its_newline_dropped(fake, tmp_path):
    secret_file = tmp_path / "pw"
    secret_file.write_text(PASSWORD + "\n")
    env = {k: v for k, v in CLIENT_ENV.items() if k != "MQCONF_PASSWORD"}
    adapter = IbmMqAdapter(env={**env, "MQCONF_PASSWORD_FILE": str(secret_file)})
    ok(adapter, "connect")
    assert fake.of("MQCONNX")[-1]["password"] == PASSWORD


@pytest.mark.parametrize("env, words", [
    ({"MQCONF_CHANNEL": "C"}, "MQCONF_CONN_INFO is not"),
    ({"MQCONF_CONN_INFO": "h(1)"}, "MQCONF_CHANNEL is not"),
    ({"MQCONF_CHANNEL": "C", "MQCONF_CONN_INFO": "host:1414"}, "is not host(port)"),
    ({"MQCONF_USER": "u"}, "neither MQCONF_PASSWORD nor MQCONF_PASSWORD_FILE"),
    ({"MQCONF_PASSWORD": PASSWORD}, "MQCONF_USER is not"),
    ({"MQCONF_USER": "u", "MQCONF_PASSWORD": PASSWORD, "MQCONF_PASSWORD_FILE": "/x"}, "set only one"),
    ({"MQCONF_USER": "u", "MQCONF_PASSWORD_FILE": "/no/such/file"}, "cannot read MQCONF_PASSWORD_FILE /no/such/file"),
    ({"MQCONF_TLS_CIPHER": "X"}, "need a client connection"),
    ({"MQCONF_CHANNEL": "C", "MQCONF_CONN_INFO": "h(1)", "MQCONF_TLS_KEY_REPOSITORY": "/k"}, "MQCONF_TLS_CIPHER"),
    ({"MQCONF_QUEUES": "A,A"}, "twice"),
    ({"MQCONF_QUEUES": " , "}, "lists no queues"),
    ({"MQCONF_GET_BUFFER_LENGTH": "lots"}, "MQCONF_GET_BUFFER_LENGTH"),
])
def test_bad_configuration_is_one_clear_line(env, words):
    with pytest.raises(AdapterError) as caught:
        ConnectionConfig.from_env(env)
    assert words in str(caught.value) and "\n" not in str(caught.value)
    assert PASSWORD not in str(caught.value)


def test_connection_list_and_default_port_are_accepted():
    config = ConnectionConfig.from_env({"MQCONF_CHANNEL": "C", "MQCONF_CONN_INFO": "a(1414),b.example.com"})
    assert config.conn_info == "a(1414),b.example.com"


def test_queue_pool_numbers_take_the_prefix():
    config = ConnectionConfig.from_env({"MQCONF_QUEUES": "5, 7,OTHER.Q", "MQCONF_QUEUE_PREFIX": "APP.Q."})
    assert config.queues == ("APP.Q.5", "APP.Q.7", "OTHER.Q")
    assert ConnectionConfig.from_env({}).queues == ("DEV.QUEUE.1", "DEV.QUEUE.2", "DEV.QUEUE.3")


# -- credentials --------------------------------------------------------------------------------------------------

def test_password_never_shows(fake, caplog, capsys):
    caplog.set_level(logging.DEBUG)
    adapter = IbmMqAdapter(env=CLIENT_ENV)
    outcomes = [run(adapter, "connect")]
    fake.on("MQCONNX", Reply(cc=CC_FAILED, rc=VALUES["MQRC_NOT_AUTHORIZED"]))
    outcomes.append(run(adapter, "connect", connection="c2"))
    # a library error that echoes the credentials must be scrubbed before it leaves the adapter
    fake.on("MQCONNX", Reply(exception=RuntimeError(f"login {USER}/{PASSWORD} refused")))
    outcomes.append(run(adapter, "connect", connection="c3"))
    # MQ reports the connecting user in MD.UserIdentifier
    opened(adapter)
    ok(adapter, "put", handle="h", data="x")
    fake.on("MQGET", Reply(data=b"x", md={"UserIdentifier": USER.encode().ljust(12)}))
    outcomes.append(run(adapter, "get", handle="h"))
    texts = [repr(o.to_json()) for o in outcomes] + [repr(adapter), str(adapter.config), repr(vars(adapter)),
                                                    repr(adapter.config.password), caplog.text]
    printed = capsys.readouterr()
    texts += [printed.out, printed.err]
    for text in texts:
        assert PASSWORD not in text
    assert outcomes[1].Reason == "MQRC_NOT_AUTHORIZED"
    assert "***" in outcomes[2].error and USER not in outcomes[2].error
    assert outcomes[3].MD["UserIdentifier"] == "***"
    with pytest.raises(TypeError):
        pickle.dumps(adapter.config.password)
    adapter.close()


def test_failed_implicit_connect_is_an_error_without_credentials(fake):
    adapter = IbmMqAdapter(env=CLIENT_ENV)
    fake.on("MQCONNX", Reply(cc=CC_FAILED, rc=VALUES["MQRC_HOST_NOT_AVAILABLE"]))
    out = run(adapter, "open", handle="h", queue="Q1", Options=["MQOO_OUTPUT"])
    assert out.error is not None and "MQRC_HOST_NOT_AVAILABLE" in out.error
    assert "user id and password set" in out.error and PASSWORD not in out.error


# -- queues: the pool, draining, attributes -------------------------------------------------------------------------

def test_define_maps_queues_from_the_pool_and_open_uses_the_real_name(adapter, fake):
    ok(adapter, "define_queue", name="Q1")
    ok(adapter, "define_queue", name="Q2")
    ok(adapter, "open", handle="a", queue="Q2", Options=["MQOO_OUTPUT"])
    ok(adapter, "put1", queue="Q1", data="one")
    assert fake.of("MQOPEN")[-1]["od"]["ObjectName"].rstrip(b"\0") == b"DEV.QUEUE.2"
    assert fake.of("MQPUT1")[-1]["od"]["ObjectName"].rstrip(b"\0") == b"DEV.QUEUE.1"


def test_outputs_name_the_suite_queue(adapter, fake):
    opened(adapter)
    put = ok(adapter, "put", handle="h", data="x")
    assert put.PMO["ResolvedQName"] == "Q1"  # the fake resolved DEV.QUEUE.1 (space padded)
    fake.on("MQGET", Reply(data=b"x", gmo={"ResolvedQName": b"DEV.QUEUE.1".ljust(48)}))
    assert ok(adapter, "get", handle="h").GMO["ResolvedQName"] == "Q1"


def test_pool_exhaustion_is_an_error(adapter):
    for name in ("Q1", "Q2", "Q3"):
        ok(adapter, "define_queue", name=name)
    out = run(adapter, "define_queue", name="Q4")
    assert "MQCONF_QUEUES" in out.error and "DEV.QUEUE.3" in out.error


def test_define_drains_the_queue_with_destructive_truncating_gets(adapter, fake):
    fake.queues["DEV.QUEUE.1"] += [(b"left over", {}), (b"x" * 100, {})]
    ok(adapter, "define_queue", name="Q1")
    assert fake.queues["DEV.QUEUE.1"] == []
    drain_open = fake.of("MQOPEN")[-1]
    assert drain_open["options"] & VALUES["MQOO_INPUT_SHARED"]
    gets = fake.of("MQGET")
    assert len(gets) == 3  # two messages, then MQRC_NO_MSG_AVAILABLE
    for get in gets:
        gmo = get["gmo"]
        assert gmo["Options"] & VALUES["MQGMO_ACCEPT_TRUNCATED_MSG"]
        assert gmo["Options"] & VALUES["MQGMO_NO_SYNCPOINT"]
        assert not gmo["Options"] & VALUES["MQGMO_WAIT"]
        assert gmo["MatchOptions"] == VALUES["MQMO_NONE"]
    # the drain used its own connection, not one the scenario can see
    assert fake.of("MQOPEN")[-1]["hconn"] not in {c.qmgr.get_handle() for c in adapter._connections.values()}


def test_redefining_a_queue_keeps_its_messages(adapter, fake):
    opened(adapter)
    ok(adapter, "put", handle="h", data="keep")
    ok(adapter, "define_queue", name="Q1")
    assert len(fake.queues["DEV.QUEUE.1"]) == 1


def test_reset_backs_out_closes_disconnects_and_drains(adapter, fake):
    opened(adapter)
    ok(adapter, "put", handle="h", data="x")
    fake.calls.clear()
    adapter.reset()
    verbs = [record.verb for record in fake.calls]
    assert verbs.index("MQBACK") < verbs.index("MQCLOSE") < verbs.index("MQDISC")
    assert fake.queues["DEV.QUEUE.1"] == []
    assert adapter._mapping == {}
    ok(adapter, "define_queue", name="Q9")  # the pool is free again
    assert adapter._mapping == {"Q9": "DEV.QUEUE.1"}


def test_attribute_that_differs_from_the_real_queue_is_refused(adapter, fake):
    out = run(adapter, "define_queue", name="Q1", MaxMsgLength=100)
    assert out.error is not None
    assert "not settable on a pre-defined queue" in out.error
    assert "MaxMsgLength=100 (the queue has 4194304; MQSC MAXMSGL)" in out.error
    assert "PCF" in out.error and adapter._mapping == {}


def test_attribute_equal_to_the_real_queue_is_accepted(adapter, fake):
    fake.attributes["DEV.QUEUE.1"] = {VALUES["MQIA_INHIBIT_PUT"]: 1, VALUES["MQIA_MSG_DELIVERY_SEQUENCE"]: 1}
    ok(adapter, "define_queue", name="Q1", InhibitPut="MQQA_PUT_INHIBITED", MsgDeliverySequence="MQMDS_FIFO")
    refused = run(adapter, "define_queue", name="Q2", InhibitPut="MQQA_PUT_INHIBITED")
    assert "InhibitPut=1 (the queue has 0" in refused.error


def test_a_queue_differing_from_suite_defaults_is_logged(adapter, fake, caplog):
    fake.attributes["DEV.QUEUE.1"] = {VALUES["MQIA_MAX_Q_DEPTH"]: 10}
    with caplog.at_level(logging.WARNING, logger="mq_conformance.adapters.ibmmq"):
        ok(adapter, "define_queue", name="Q1")
    assert "MaxQDepth=10; the suite assumes 5000" in caplog.text


# -- calls and structures -----------------------------------------------------------------------------------------

def test_gmo_version_3_when_pymqi_lacks_version_4(monkeypatch, caplog):
    _module, backend = fake_pymqi.install(monkeypatch, mq7=False)
    adapter = IbmMqAdapter(env=CLIENT_ENV)
    opened(adapter)
    with caplog.at_level(logging.WARNING, logger="mq_conformance.adapters.ibmmq"):
        ok(adapter, "put", handle="h", data="x")
        ok(adapter, "get", handle="h")
    assert backend.of("MQGET")[-1]["gmo"]["Version"] == 3
    assert backend.of("MQPUT")[-1]["pmo"]["Version"] == 2
    assert "MQGMO_VERSION_3" in caplog.text and "MQPMO_VERSION_2" in caplog.text


# -- warnings and failures ------------------------------------------------------------------------------------------

def test_reason_unknown_to_the_model_is_named_from_cmqc(adapter, fake):
    fake.on("MQCONNX", Reply(cc=CC_FAILED, rc=2393))
    assert run(adapter, "connect", connection="x").Reason == "MQRC_SSL_INITIALIZATION_ERROR"
    fake.on("MQCONNX", Reply(cc=CC_FAILED, rc=9999))
    assert run(adapter, "connect", connection="y").Reason == "MQRC_9999"


def test_library_exceptions_become_errors_not_crashes(adapter, fake):
    opened(adapter)
    fake.on("MQGET", Reply(exception=MemoryError("No memory for message")))
    out = run(adapter, "get", handle="h")
    assert out.error == "get: pymqi raised MemoryError: No memory for message"


def test_bad_calls_and_unsupported_ops(adapter):
    assert "never opened" in run(adapter, "put", handle="nope", data="x").error
    assert run(adapter, "put", handle="h", data="x", MD={"Bogus": 1}).error.startswith("bad call")
    assert "cannot be advanced" in run(adapter, "advance_clock", milliseconds=10).error
    assert run(adapter, "frobnicate").error == "unknown op 'frobnicate'"
    assert "not supported by the ibmmq adapter" in run(adapter, "define_qmgr", name="QM2").error
    assert "not supported" in run(adapter, "connect", connection="c", qmgr="QM2").error
    assert "qmgr not supported" in run(adapter, "define_queue", name="Q1", qmgr="QM2").error


# -- live: a real queue manager ---------------------------------------------------------------------------------

LIVE_REASON = ("set MQCONF_QMGR, MQCONF_CHANNEL, MQCONF_CONN_INFO (and MQCONF_USER with MQCONF_PASSWORD or "
               "MQCONF_PASSWORD_FILE if the channel authenticates; MQCONF_QUEUES unless DEV.QUEUE.1-3 exist) to "
               "run against a live queue manager")


@pytest.fixture
def live():
    """An adapter on the queue manager MQCONF_* names, through the real pymqi (or ibmmq)."""
    if not os.environ.get("MQCONF_QMGR"):
        pytest.skip(LIVE_REASON)
    try:
        adapter = IbmMqAdapter()
    except AdapterError as exc:
        pytest.skip(f"MQCONF_QMGR is set but the ibmmq adapter cannot start: {exc}")
    adapter.reset()
    yield adapter
    adapter.close()


def test_live_round_trip_and_identifiers(live):
    """Not yet run against a live queue manager."""
    opened(live)
    put = ok(live, "put", handle="h", data="hello")
    assert len(put.MD["MsgId"]) == 48 and put.PMO["ResolvedQName"] == "Q1"
    got = ok(live, "get", handle="h")
    assert got.data == "hello" and got.DataLength == 5 and got.MD["MsgId"] == put.MD["MsgId"]
    empty = run(live, "get", handle="h")
    assert (empty.CompCode, empty.Reason) == ("MQCC_FAILED", "MQRC_NO_MSG_AVAILABLE")


def test_live_logical_order_group(live):
    """Not yet run against a live queue manager."""
    opened(live)
    first = ok(live, "put", handle="h", PMO={"Options": ["MQPMO_LOGICAL_ORDER"]},
               MD={"MsgFlags": ["MQMF_MSG_IN_GROUP"]}, data="one")
    second = ok(live, "put", handle="h", PMO={"Options": ["MQPMO_LOGICAL_ORDER"]},
                MD={"MsgFlags": ["MQMF_LAST_MSG_IN_GROUP"]}, data="two")
    assert first.MD["GroupId"] != "MQGI_NONE" and first.MD["GroupId"] == second.MD["GroupId"]
    assert (first.MD["MsgSeqNumber"], second.MD["MsgSeqNumber"]) == (1, 2)
    options = ["MQGMO_LOGICAL_ORDER", "MQGMO_ALL_MSGS_AVAILABLE"]
    a = ok(live, "get", handle="h", GMO={"Options": options, "MatchOptions": ["MQMO_NONE"]})
    b = ok(live, "get", handle="h", GMO={"Options": options, "MatchOptions": ["MQMO_NONE"]})
    assert (a.data, a.GMO["GroupStatus"]) == ("one", "MQGS_MSG_IN_GROUP")
    assert (b.data, b.GMO["GroupStatus"]) == ("two", "MQGS_LAST_MSG_IN_GROUP")


def test_live_truncation_warnings(live):
    """Not yet run against a live queue manager."""
    opened(live)
    ok(live, "put", handle="h", data="0123456789")
    failed = run(live, "get", handle="h", BufferLength=4)
    assert (failed.CompCode, failed.Reason, failed.DataLength) == ("MQCC_WARNING", "MQRC_TRUNCATED_MSG_FAILED", 10)
    accepted = run(live, "get", handle="h", BufferLength=4, GMO={"Options": ["MQGMO_ACCEPT_TRUNCATED_MSG"]})
    assert (accepted.Reason, accepted.data, accepted.DataLength) == ("MQRC_TRUNCATED_MSG_ACCEPTED", "0123", 10)


def test_live_close_warning_then_calls_on_the_handle(live):
    """Not yet run against a live queue manager. Shows what MQ answers on a handle whose close warned."""
    opened(live, "MQOO_OUTPUT")
    ok(live, "put", handle="h", PMO={"Options": ["MQPMO_LOGICAL_ORDER"]}, MD={"MsgFlags": ["MQMF_MSG_IN_GROUP"]},
       data="one")
    closed = run(live, "close", handle="h")
    assert (closed.CompCode, closed.Reason) == ("MQCC_WARNING", "MQRC_INCOMPLETE_GROUP")
    after = run(live, "put", handle="h", data="two")
    assert after.error is None and after.CompCode is not None


def test_live_units_of_work_and_reset(live):
    """Not yet run against a live queue manager."""
    opened(live)
    ok(live, "open", handle="r", queue="Q1", Options=["MQOO_INPUT_SHARED"], connection="reader")
    ok(live, "put", handle="h", PMO={"Options": ["MQPMO_SYNCPOINT"]}, data="pending")
    assert run(live, "get", handle="r").Reason == "MQRC_NO_MSG_AVAILABLE"
    ok(live, "commit")
    assert ok(live, "get", handle="r").data == "pending"
    ok(live, "put", handle="h", data="left behind")
    live.reset()
    opened(live)
    assert run(live, "get", handle="h").Reason == "MQRC_NO_MSG_AVAILABLE"


def test_live_password_never_logged(live, caplog):
    """Not yet run against a live queue manager."""
    caplog.set_level(logging.DEBUG)
    opened(live)
    ok(live, "put", handle="h", data="x")
    out = ok(live, "get", handle="h")
    password = live.config.password.reveal() if live.config.password else None
    if password:
        assert password not in caplog.text and password not in repr(out.to_json()) and password not in repr(live)
