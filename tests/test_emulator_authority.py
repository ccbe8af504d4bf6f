"""The emulated queue manager's channels and object authority (emulator/authority.py, pcf_authority.py):
a client connects only on a defined server-connection channel (clause emulator.channel-admission, IBM's
"2540 MQRC_UNKNOWN_CHANNEL_NAME"); authority records set by command (authority.records, IBM's
"MQCMD_SET_AUTH_REC (Set Authority Record)") decide MQCONN, MQOPEN by option, MQPUT1, MQSUB (authority.mqi,
"Authorizations for MQI calls") and commands (authority.pcf) with MQRC_NOT_AUTHORIZED; the developer
configuration's records (authority.developer)."""

from __future__ import annotations

import pytest

from mq_conformance.emulator import EmulatorUnavailable, load_ibmmq
from mq_conformance.emulator.authority import profile_matches

try:
    ibmmq = load_ibmmq()
except EmulatorUnavailable as exc:  # no wheel of IBM's ibmmq for this platform (pyproject.toml)
    pytest.skip(str(exc), allow_module_level=True)
CMQC, CMQCFC, CMQXC = ibmmq.CMQC, ibmmq.CMQCFC, ibmmq.CMQXC


def _as(user: str):
    return ibmmq.connect("QM1", "DEV.APP.SVRCONN", "localhost(1414)", user, "password")


@pytest.fixture
def admin(ibmmq_emulator):
    ibmmq_emulator.developer()
    ibmmq_emulator.define_queue("APP.PRIVATE")
    qmgr = _as("admin")
    yield ibmmq.PCFExecute(qmgr)
    qmgr.disconnect()


def _grant(pcf, profile: bytes, object_type: int, authorities: list[int], principal: bytes = b"app",
           remove: bool = False) -> None:
    pcf.MQCMD_SET_AUTH_REC({CMQCFC.MQCACF_AUTH_PROFILE_NAME: profile, CMQCFC.MQIACF_OBJECT_TYPE: object_type,
                            CMQCFC.MQIACF_AUTH_REMOVE_AUTHS if remove else CMQCFC.MQIACF_AUTH_ADD_AUTHS: authorities,
                            CMQCFC.MQCACF_PRINCIPAL_ENTITY_NAMES: [principal]})


@pytest.mark.parametrize("profile, name, matches", [
    ("DEV.**", "DEV.QUEUE.1", True), ("DEV.**", "DEV", True), ("DEV.**", "DEVX.QUEUE", False),
    ("APP.*", "APP.A", True), ("APP.*", "APP.A.B", False), ("A.**.Z", "A.Z", True), ("A.**.Z", "A.B.C.Z", True),
    ("Q?", "Q1", True), ("Q?", "Q12", False), ("ORDERS*", "ORDERS.IN", False), ("**", "ANY.THING", True),
])
def test_generic_profiles_match_as_the_oam_reads_them(profile, name, matches):
    """authority.records: ? one character, * within a qualifier, ** any number of qualifiers."""
    assert profile_matches(profile, name) is matches


def test_without_records_set_by_command_every_user_may_do_everything(admin):
    """The emulator's decision (authority.records): applications that never set a record see no change."""
    qmgr = _as("app")
    ibmmq.Queue(qmgr, "APP.PRIVATE", CMQC.MQOO_OUTPUT).put(b"allowed")
    qmgr.disconnect()


def test_once_records_are_set_an_open_needs_the_authority_of_each_option(admin):
    """authority.mqi and authority.developer: app (group mqclient) may put and get on DEV.**, not elsewhere."""
    _grant(admin, b"APP.PRIVATE", CMQC.MQOT_Q, [CMQCFC.MQAUTH_BROWSE])
    qmgr = _as("app")
    ibmmq.Queue(qmgr, "DEV.QUEUE.1", CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_SHARED).put(b"dev")
    ibmmq.Queue(qmgr, "APP.PRIVATE", CMQC.MQOO_BROWSE).close()
    for options in (CMQC.MQOO_OUTPUT, CMQC.MQOO_INPUT_SHARED, CMQC.MQOO_BROWSE | CMQC.MQOO_INQUIRE):
        with pytest.raises(ibmmq.MQMIError) as refused:
            ibmmq.Queue(qmgr, "APP.PRIVATE", options)
        assert refused.value.reason == CMQC.MQRC_NOT_AUTHORIZED
    with pytest.raises(ibmmq.MQMIError) as put1:
        qmgr.put1("APP.PRIVATE", b"no")
    assert put1.value.reason == CMQC.MQRC_NOT_AUTHORIZED
    qmgr.disconnect()
    mqm = _as("admin")  # an administrator (mqm) has every authority
    ibmmq.Queue(mqm, "APP.PRIVATE", CMQC.MQOO_OUTPUT).put(b"admin")
    mqm.disconnect()


def test_removing_an_authority_refuses_what_it_allowed(admin):
    _grant(admin, b"APP.PRIVATE", CMQC.MQOT_Q, [CMQCFC.MQAUTH_OUTPUT, CMQCFC.MQAUTH_INQUIRE])
    qmgr = _as("app")
    ibmmq.Queue(qmgr, "APP.PRIVATE", CMQC.MQOO_OUTPUT).put(b"yes")
    _grant(admin, b"APP.PRIVATE", CMQC.MQOT_Q, [CMQCFC.MQAUTH_OUTPUT], remove=True)
    with pytest.raises(ibmmq.MQMIError) as refused:
        ibmmq.Queue(qmgr, "APP.PRIVATE", CMQC.MQOO_OUTPUT)
    assert refused.value.reason == CMQC.MQRC_NOT_AUTHORIZED
    qmgr.disconnect()


def test_a_user_without_connect_authority_cannot_connect(admin):
    _grant(admin, b"APP.PRIVATE", CMQC.MQOT_Q, [CMQCFC.MQAUTH_OUTPUT])
    with pytest.raises(ibmmq.MQMIError) as refused:
        _as("stranger")
    assert refused.value.reason == CMQC.MQRC_NOT_AUTHORIZED
    _grant(admin, b"QM1", CMQC.MQOT_Q_MGR, [CMQCFC.MQAUTH_CONNECT], principal=b"stranger")
    _as("stranger").disconnect()


def test_a_subscription_needs_sub_on_the_topic_object(admin):
    _grant(admin, b"APP.PRIVATE", CMQC.MQOT_Q, [CMQCFC.MQAUTH_OUTPUT])
    qmgr = _as("app")
    for topic, allowed in (("DEV/news", True), ("app/news", False)):
        admin.MQCMD_CREATE_TOPIC({CMQC.MQCA_TOPIC_NAME: f"{topic.split('/')[0].upper()}.TOPIC".encode(),
                                  CMQC.MQCA_TOPIC_STRING: topic.split("/")[0].encode()})
        sd = ibmmq.SD(Options=CMQC.MQSO_CREATE | CMQC.MQSO_MANAGED)
        sd.set_vs("ObjectString", topic)
        sub = ibmmq.Subscription(qmgr)
        if allowed:
            sub.sub(sub_desc=sd)
            sub.close(close_sub_queue=True)
            continue
        with pytest.raises(ibmmq.MQMIError) as refused:
            sub.sub(sub_desc=sd)
        assert refused.value.reason == CMQC.MQRC_NOT_AUTHORIZED
    qmgr.disconnect()


def test_a_command_needs_its_authority(admin):
    """authority.pcf: app may not create queues (crt) but may display DEV.QUEUE.1 once granted dsp."""
    _grant(admin, b"DEV.QUEUE.1", CMQC.MQOT_Q, [CMQCFC.MQAUTH_DISPLAY])
    qmgr = _as("app")
    with pytest.raises(ibmmq.MQMIError) as no_put:  # sending a command needs put on the command queue
        ibmmq.PCFExecute(qmgr, model_queue_name=b"DEV.APP.MODEL.QUEUE").MQCMD_PING_Q_MGR()
    assert no_put.value.reason == CMQC.MQRC_NOT_AUTHORIZED
    _grant(admin, b"SYSTEM.ADMIN.COMMAND.QUEUE", CMQC.MQOT_Q, [CMQCFC.MQAUTH_OUTPUT])
    pcf = ibmmq.PCFExecute(qmgr, model_queue_name=b"DEV.APP.MODEL.QUEUE")
    with pytest.raises(ibmmq.MQMIError) as refused:
        pcf.MQCMD_CREATE_Q({CMQC.MQCA_Q_NAME: b"APP.NEW", CMQC.MQIA_Q_TYPE: CMQC.MQQT_LOCAL})
    assert refused.value.reason == CMQC.MQRC_NOT_AUTHORIZED
    [shown] = pcf.MQCMD_INQUIRE_Q({CMQC.MQCA_Q_NAME: b"DEV.QUEUE.1"})
    assert shown[CMQC.MQCA_Q_NAME].strip() == b"DEV.QUEUE.1"
    qmgr.disconnect()


def test_records_are_inquired_and_kept_on_the_auth_data_queue(admin, ibmmq_emulator):
    """authority.records and authority.developer: the developer configuration's records, then ours."""
    _grant(admin, b"APP.*", CMQC.MQOT_Q, [CMQCFC.MQAUTH_ALL_MQI])
    records = admin.MQCMD_INQUIRE_AUTH_RECS({CMQCFC.MQIACF_AUTH_OPTIONS: CMQCFC.MQAUTHOPT_NAME_ALL_MATCHING,
                                             CMQCFC.MQCACF_AUTH_PROFILE_NAME: b"**"})
    by_profile = {(r[CMQCFC.MQCACF_AUTH_PROFILE_NAME].strip(), r[CMQCFC.MQCACF_ENTITY_NAME].strip(),
                   r[CMQCFC.MQIACF_OBJECT_TYPE]): r
                  for r in records}
    dev = by_profile[(b"DEV.**", b"mqclient", CMQC.MQOT_Q)]
    assert set(dev[CMQCFC.MQIACF_AUTHORIZATION_LIST]) == {CMQCFC.MQAUTH_BROWSE, CMQCFC.MQAUTH_INPUT,
                                                          CMQCFC.MQAUTH_INQUIRE, CMQCFC.MQAUTH_OUTPUT}
    assert CMQCFC.MQAUTH_OUTPUT in by_profile[(b"APP.*", b"app", CMQC.MQOT_Q)][CMQCFC.MQIACF_AUTHORIZATION_LIST]
    assert ibmmq_emulator.depth("SYSTEM.AUTH.DATA.QUEUE") == len(
        ibmmq_emulator.authority("QM1").records)
    admin.MQCMD_DELETE_AUTH_REC({CMQCFC.MQCACF_AUTH_PROFILE_NAME: b"APP.*", CMQCFC.MQIACF_OBJECT_TYPE: CMQC.MQOT_Q,
                                 CMQCFC.MQCACF_PRINCIPAL_ENTITY_NAMES: [b"app"]})
    with pytest.raises(ibmmq.MQMIError) as gone:
        admin.MQCMD_INQUIRE_AUTH_RECS({CMQCFC.MQIACF_AUTH_OPTIONS: CMQCFC.MQAUTHOPT_NAME_EXPLICIT,
                                       CMQCFC.MQCACF_AUTH_PROFILE_NAME: b"APP.*"})
    assert gone.value.reason == CMQCFC.MQRCCF_PROFILE_NAME_ERROR


def test_set_auth_rec_refuses_an_authority_the_object_type_has_not(admin):
    with pytest.raises(ibmmq.MQMIError) as refused:
        _grant(admin, b"APP.PRIVATE", CMQC.MQOT_Q, [CMQCFC.MQAUTH_CONNECT])
    assert refused.value.reason == CMQCFC.MQRCCF_AUTH_VALUE_ERROR
    with pytest.raises(ibmmq.MQMIError) as missing:
        admin.MQCMD_SET_AUTH_REC({CMQCFC.MQCACF_AUTH_PROFILE_NAME: b"APP.PRIVATE",
                                  CMQCFC.MQIACF_OBJECT_TYPE: CMQC.MQOT_Q})
    assert missing.value.reason == CMQCFC.MQRCCF_ENTITY_NAME_MISSING


@pytest.mark.parametrize("channel, reason", [("NO.SUCH.CHANNEL", 2540), ("SYSTEM.DEF.SENDER", 2539),
                                             ("DEV.APP.SVRCONN", 0)])
def test_a_client_connects_only_on_a_defined_server_connection_channel(tmp_path, channel, reason):
    """emulator.channel-admission: MQRC_UNKNOWN_CHANNEL_NAME, MQRC_CHANNEL_CONFIG_ERROR for another type."""
    from mq_conformance.emulator.emulator import Emulator
    from mq_conformance.emulator.server import Listener

    from session_client import RawSession

    emulator = Emulator()
    emulator.developer()
    listener = Listener(f"unix:{tmp_path}/qm.sock", emulator)
    listener.start()
    try:
        answer = RawSession(listener.address).connx(channel=channel.encode())
        assert answer[:2] == [2 if reason else 0, reason]
    finally:
        listener.close()


def test_the_developer_topic_opens_dev_topic_strings_to_app(admin):
    """authority.developer: DEV.BASE.TOPIC (dev/) is a DEV.** topic: app publishes and subscribes under it."""
    _grant(admin, b"APP.PRIVATE", CMQC.MQOT_Q, [CMQCFC.MQAUTH_BROWSE])
    qmgr = _as("app")
    for topic in ("dev/", "dev/news"):
        sd = ibmmq.SD(Options=CMQC.MQSO_CREATE | CMQC.MQSO_MANAGED)
        sd.set_vs("ObjectString", topic)
        sub = ibmmq.Subscription(qmgr)
        sub.sub(sub_desc=sd)
        sub.close(close_sub_queue=True)
    qmgr.disconnect()


def test_the_records_a_client_may_make_a_queue_manager_keep_are_bounded(admin, monkeypatch):
    from mq_conformance.emulator import authority

    monkeypatch.setattr(authority, "MAX_RECORDS", 5)
    with pytest.raises(ibmmq.MQMIError) as refused:
        admin.MQCMD_SET_AUTH_REC({CMQCFC.MQCACF_AUTH_PROFILE_NAME: b"APP.*", CMQCFC.MQIACF_OBJECT_TYPE: CMQC.MQOT_Q,
                                  CMQCFC.MQIACF_AUTH_ADD_AUTHS: [CMQCFC.MQAUTH_OUTPUT],
                                  CMQCFC.MQCACF_PRINCIPAL_ENTITY_NAMES: [f"u{i}".encode() for i in range(10)]})
    assert refused.value.reason == CMQC.MQRC_STORAGE_NOT_AVAILABLE
