"""The emulated command server's namelists, channel definitions, authentication information objects and Inquire
Connection (emulator/pcf_objects.py; clauses emulator.admin-objects, emulator.inquire-connection),
through IBM's own PCFExecute."""

from __future__ import annotations

import pytest

from mq_conformance.emulator import EmulatorUnavailable, load_ibmmq

try:
    ibmmq = load_ibmmq()
except EmulatorUnavailable as exc:  # no wheel of IBM's ibmmq for this platform (pyproject.toml)
    pytest.skip(str(exc), allow_module_level=True)
CMQC, CMQCFC, CMQXC = ibmmq.CMQC, ibmmq.CMQCFC, ibmmq.CMQXC


@pytest.fixture
def pcf(ibmmq_emulator):
    qmgr = ibmmq.connect("QM1")
    yield ibmmq.PCFExecute(qmgr)
    qmgr.disconnect()


def test_a_namelist_is_created_inquired_replaced_and_deleted(pcf):
    pcf.MQCMD_CREATE_NAMELIST({CMQC.MQCA_NAMELIST_NAME: b"APP.NAMES", CMQC.MQCA_NAMES: [b"ONE", b"TWO"]})
    [answer] = pcf.MQCMD_INQUIRE_NAMELIST({CMQC.MQCA_NAMELIST_NAME: b"APP.NAMES"})
    assert answer[CMQC.MQIA_NAME_COUNT] == 2
    assert [n.strip() for n in answer[CMQC.MQCA_NAMES]] == [b"ONE", b"TWO"]
    with pytest.raises(ibmmq.MQMIError) as exists:
        pcf.MQCMD_CREATE_NAMELIST({CMQC.MQCA_NAMELIST_NAME: b"APP.NAMES", CMQC.MQCA_NAMES: [b"THREE"]})
    assert exists.value.reason == CMQCFC.MQRCCF_OBJECT_ALREADY_EXISTS
    pcf.MQCMD_CREATE_NAMELIST([ibmmq.CFST(Parameter=CMQC.MQCA_NAMELIST_NAME, String=b"APP.NAMES"),
                               ibmmq.CFSL(Parameter=CMQC.MQCA_NAMES, Strings=[]),
                               ibmmq.CFIN(Parameter=CMQCFC.MQIACF_REPLACE, Value=CMQCFC.MQRP_YES)])
    [emptied] = pcf.MQCMD_INQUIRE_NAMELIST({CMQC.MQCA_NAMELIST_NAME: b"APP.NAMES",
                                           CMQCFC.MQIACF_NAMELIST_ATTRS: [CMQC.MQIA_NAME_COUNT]})
    assert emptied[CMQC.MQIA_NAME_COUNT] == 0 and CMQC.MQCA_NAMES not in emptied
    [names] = pcf.MQCMD_INQUIRE_NAMELIST_NAMES({CMQC.MQCA_NAMELIST_NAME: b"*"})
    assert [n.strip() for n in names[CMQCFC.MQCACF_NAMELIST_NAMES]] == [b"APP.NAMES", b"SYSTEM.DEFAULT.NAMELIST"]
    pcf.MQCMD_DELETE_NAMELIST({CMQC.MQCA_NAMELIST_NAME: b"APP.NAMES"})
    with pytest.raises(ibmmq.MQMIError) as gone:
        pcf.MQCMD_INQUIRE_NAMELIST({CMQC.MQCA_NAMELIST_NAME: b"APP.NAMES"})
    assert gone.value.reason == CMQC.MQRC_UNKNOWN_OBJECT_NAME


def test_a_namelist_of_more_than_256_names_is_refused(pcf):
    with pytest.raises(ibmmq.MQMIError) as refused:
        pcf.MQCMD_CREATE_NAMELIST({CMQC.MQCA_NAMELIST_NAME: b"APP.NAMES",
                                   CMQC.MQCA_NAMES: [f"Q{i}".encode() for i in range(257)]})
    assert refused.value.reason == CMQCFC.MQRCCF_PARM_VALUE_ERROR


def test_the_default_channels_are_listed_and_a_channel_can_be_defined(pcf, ibmmq_emulator):
    answers = pcf.MQCMD_INQUIRE_CHANNEL({CMQCFC.MQCACH_CHANNEL_NAME: b"SYSTEM.*"})
    by_name = {a[CMQCFC.MQCACH_CHANNEL_NAME].strip(): a[CMQCFC.MQIACH_CHANNEL_TYPE] for a in answers}
    assert by_name[b"SYSTEM.DEF.SVRCONN"] == CMQXC.MQCHT_SVRCONN and by_name[b"SYSTEM.DEF.SENDER"] == CMQXC.MQCHT_SENDER
    assert b"DEV.APP.SVRCONN" not in by_name
    ibmmq_emulator.developer()
    [names] = pcf.MQCMD_INQUIRE_CHANNEL_NAMES({CMQCFC.MQCACH_CHANNEL_NAME: b"DEV.*"})
    assert [n.strip() for n in names[CMQCFC.MQCACH_CHANNEL_NAMES]] == [b"DEV.ADMIN.SVRCONN", b"DEV.APP.SVRCONN"]
    pcf.MQCMD_CREATE_CHANNEL({CMQCFC.MQCACH_CHANNEL_NAME: b"MYCHANNEL.1", CMQCFC.MQIACH_CHANNEL_TYPE:
                              CMQXC.MQCHT_SVRCONN, CMQCFC.MQCACH_DESC: b"mine"})
    svrconn = ibmmq.Filter(CMQCFC.MQIACH_CHANNEL_TYPE).equal(CMQXC.MQCHT_SVRCONN)
    [mine] = pcf.MQCMD_INQUIRE_CHANNEL({CMQCFC.MQCACH_CHANNEL_NAME: b"MY*"}, [svrconn])
    assert mine[CMQCFC.MQCACH_DESC].strip() == b"mine" and mine[CMQCFC.MQIACH_MAX_MSG_LENGTH] == 4194304
    with pytest.raises(ibmmq.MQMIError) as missing:
        pcf.MQCMD_CREATE_CHANNEL({CMQCFC.MQCACH_CHANNEL_NAME: b"NO.TYPE"})
    assert missing.value.reason == CMQCFC.MQRCCF_PARM_MISSING
    with pytest.raises(ibmmq.MQMIError) as unknown:
        pcf.MQCMD_DELETE_CHANNEL({CMQCFC.MQCACH_CHANNEL_NAME: b"NO.SUCH"})
    assert unknown.value.reason == CMQCFC.MQRCCF_CHANNEL_NOT_FOUND


def test_connection_authentication_is_the_developer_authinfo_object(pcf, ibmmq_emulator):
    [qmgr] = pcf.MQCMD_INQUIRE_Q_MGR({CMQCFC.MQIACF_Q_MGR_ATTRS: [CMQC.MQCA_CONN_AUTH]})
    assert qmgr[CMQC.MQCA_CONN_AUTH].strip() == b"SYSTEM.DEFAULT.AUTHINFO.IDPWOS"
    ibmmq_emulator.developer()
    [qmgr] = pcf.MQCMD_INQUIRE_Q_MGR({CMQCFC.MQIACF_Q_MGR_ATTRS: [CMQC.MQCA_CONN_AUTH]})
    assert qmgr[CMQC.MQCA_CONN_AUTH].strip() == b"DEV.AUTHINFO"
    [info] = pcf.MQCMD_INQUIRE_AUTH_INFO({CMQC.MQCA_AUTH_INFO_NAME: b"DEV.AUTHINFO",
                                         CMQC.MQIA_AUTH_INFO_TYPE: CMQC.MQAIT_IDPW_OS,
                                         CMQCFC.MQIACF_AUTH_INFO_ATTRS: [CMQC.MQIA_CHECK_CLIENT_BINDING]})
    assert info[CMQC.MQIA_CHECK_CLIENT_BINDING] == CMQCFC.MQCHK_REQUIRED_ADMIN
    assert CMQC.MQIA_ADOPT_CONTEXT not in info
    [names] = pcf.MQCMD_INQUIRE_AUTH_INFO_NAMES({CMQC.MQCA_AUTH_INFO_NAME: b"SYSTEM.*"})
    assert len(names[CMQCFC.MQCACF_AUTH_INFO_NAMES]) == 4


def test_inquire_connection_lists_the_connected_applications_and_their_open_queues(pcf, ibmmq_emulator):
    ibmmq_emulator.define_queue("APP.A")
    other = ibmmq.connect("QM1")
    queue = ibmmq.Queue(other, "APP.A", CMQC.MQOO_OUTPUT)
    user_apps = ibmmq.Filter(CMQC.MQIA_APPL_TYPE).equal(CMQC.MQAT_USER)
    answers = pcf.MQCMD_INQUIRE_CONNECTION({CMQCFC.MQBACF_GENERIC_CONNECTION_ID: ibmmq.ByteString(b"")},
                                           [user_apps])
    assert len(answers) == 2  # the PCF application's own connection and the other one
    assert all(len(a[CMQCFC.MQBACF_CONNECTION_ID]) == 24 and a[CMQC.MQIA_APPL_TYPE] == CMQC.MQAT_USER
               for a in answers)
    handles = pcf.MQCMD_INQUIRE_CONNECTION({CMQCFC.MQBACF_GENERIC_CONNECTION_ID: ibmmq.ByteString(b""),
                                            CMQCFC.MQIACF_CONN_INFO_TYPE: CMQCFC.MQIACF_CONN_INFO_HANDLE})
    assert b"APP.A" in {h[CMQCFC.MQCACF_OBJECT_NAME].strip() for h in handles}
    queue.close()
    other.disconnect()
    after = pcf.MQCMD_INQUIRE_CONNECTION({CMQCFC.MQBACF_GENERIC_CONNECTION_ID: ibmmq.ByteString(b"")})
    assert len(after) == 1
