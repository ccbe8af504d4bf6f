"""An application written with IBM's ``ibmmq`` that sets, reads, inquires with wildcards and selects on message
properties, run on the emulator (emulator/handles.py over reference/properties.py and
reference/selection.py)."""

from __future__ import annotations

import pytest

from mq_conformance.emulator import EmulatorUnavailable, load_ibmmq

try:
    ibmmq = load_ibmmq()
except EmulatorUnavailable as exc:  # pragma: no cover - ibmmq is a dependency where its wheels exist
    pytest.skip(str(exc), allow_module_level=True)

CMQC = ibmmq.CMQC


def _put_with(qmgr, queue, data: bytes, **props) -> None:
    handle = ibmmq.MessageHandle(qmgr)
    for name, (value, kind) in props.items():
        handle.properties.set(name, value, property_type=kind)
    pmo = ibmmq.PMO(Version=CMQC.MQPMO_VERSION_3)
    pmo.OriginalMsgHandle = handle.msg_handle
    queue.put(data, ibmmq.MD(Version=CMQC.MQMD_VERSION_2), pmo)
    handle.dlt()


def _get_into(qmgr, queue, **gmo_fields):
    handle = ibmmq.MessageHandle(qmgr)
    gmo = ibmmq.GMO(Version=CMQC.MQGMO_CURRENT_VERSION, Options=CMQC.MQGMO_PROPERTIES_IN_HANDLE, **gmo_fields)
    gmo.MsgHandle = handle.msg_handle
    return queue.get(None, ibmmq.MD(), gmo), handle


def test_properties_of_every_type_travel_with_the_message_into_the_getters_handle(ibmmq_emulator):
    ibmmq_emulator.define_queue("APP.PROPS")
    qmgr = ibmmq.connect("QM1")
    queue = ibmmq.Queue(qmgr, "APP.PROPS", CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_SHARED)
    values = {"s": ("text é", CMQC.MQTYPE_STRING), "i8": (-128, CMQC.MQTYPE_INT8), "i16": (300, CMQC.MQTYPE_INT16),
              "i32": (-7, CMQC.MQTYPE_INT32), "i64": (2**40, CMQC.MQTYPE_INT64), "f32": (0.25, CMQC.MQTYPE_FLOAT32),
              "f64": (1e-300, CMQC.MQTYPE_FLOAT64), "flag": (True, CMQC.MQTYPE_BOOLEAN),
              "raw": (b"\x00\x01", CMQC.MQTYPE_BYTE_STRING), "none": (None, CMQC.MQTYPE_NULL)}
    _put_with(qmgr, queue, b"body", **values)
    data, handle = _get_into(qmgr, queue)
    assert data == b"body"
    got = {name: handle.properties.get(name, max_value_length=64) for name in values}
    assert got == {name: value for name, (value, _kind) in values.items()}
    with pytest.raises(ibmmq.MQMIError) as short:  # the value does not fit the buffer the application gives
        handle.properties.get("s", max_value_length=2)
    assert short.value.reason == CMQC.MQRC_PROPERTY_VALUE_TOO_BIG
    qmgr.disconnect()


def test_a_wildcard_inquiry_walks_the_properties_then_reports_none_left(ibmmq_emulator):
    ibmmq_emulator.define_queue("APP.PROPS")
    qmgr = ibmmq.connect("QM1")
    queue = ibmmq.Queue(qmgr, "APP.PROPS", CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_SHARED)
    _put_with(qmgr, queue, b"x", Colour=("red", CMQC.MQTYPE_STRING), Size=(3, CMQC.MQTYPE_INT32))
    _data, handle = _get_into(qmgr, queue)
    found, options = [], CMQC.MQIMPO_INQ_FIRST
    while True:
        try:
            found.append(handle.properties.get("usr.%", impo_options=options))
        except ibmmq.MQMIError as exc:
            assert exc.reason == CMQC.MQRC_PROPERTY_NOT_AVAILABLE
            break
        options = CMQC.MQIMPO_INQ_NEXT
    assert found == [("red", "Colour"), (3, "Size")]
    handle.properties.dlt("Colour")
    with pytest.raises(ibmmq.MQMIError) as gone:
        handle.properties.get("Colour")
    assert gone.value.reason == CMQC.MQRC_PROPERTY_NOT_AVAILABLE
    qmgr.disconnect()


def test_properties_forced_into_an_rfh2_are_read_by_ibmmqs_rfh2(ibmmq_emulator):
    ibmmq_emulator.define_queue("APP.PROPS")
    qmgr = ibmmq.connect("QM1")
    queue = ibmmq.Queue(qmgr, "APP.PROPS", CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_SHARED)
    _put_with(qmgr, queue, b"payload", Colour=("red", CMQC.MQTYPE_STRING), Size=(3, CMQC.MQTYPE_INT32))
    md = ibmmq.MD()
    data = queue.get(None, md, ibmmq.GMO(Version=4, Options=CMQC.MQGMO_PROPERTIES_FORCE_MQRFH2))
    assert md.Format == CMQC.MQFMT_RF_HEADER_2
    header = ibmmq.RFH2()
    header.unpack(data)
    assert header["NameValueCCSID"] == 1208
    assert header["usr"] == b'<usr><Colour>red</Colour><Size dt="i4">3</Size></usr>   '  # padded to 4
    assert data[header["StrucLength"]:] == b"payload"
    qmgr.disconnect()


def test_a_selection_string_on_open_gets_only_the_messages_it_selects(ibmmq_emulator):
    ibmmq_emulator.define_queue("APP.PROPS")
    qmgr = ibmmq.connect("QM1")
    queue = ibmmq.Queue(qmgr, "APP.PROPS", CMQC.MQOO_OUTPUT)
    for colour, size in (("red", 1), ("blue", 2), ("red", 30)):
        _put_with(qmgr, queue, f"{colour}-{size}".encode(), Colour=(colour, CMQC.MQTYPE_STRING),
                  Size=(size, CMQC.MQTYPE_INT32))
    od = ibmmq.OD(Version=CMQC.MQOD_VERSION_4, ObjectName=b"APP.PROPS")
    od.set_vs("SelectionString", "Colour = 'red' AND Size BETWEEN 2 AND 40")
    selecting = ibmmq.Queue(qmgr, od, CMQC.MQOO_INPUT_SHARED)
    assert selecting.get(None, ibmmq.MD(), ibmmq.GMO(Version=4, Options=CMQC.MQGMO_NO_PROPERTIES)) == b"red-30"
    with pytest.raises(ibmmq.MQMIError) as none_left:
        selecting.get(None, ibmmq.MD(), ibmmq.GMO(Version=4, Options=CMQC.MQGMO_NO_PROPERTIES))
    assert none_left.value.reason == CMQC.MQRC_NO_MSG_AVAILABLE
    assert ibmmq_emulator.depth("APP.PROPS") == 2
    bad = ibmmq.OD(Version=CMQC.MQOD_VERSION_4, ObjectName=b"APP.PROPS")
    bad.set_vs("SelectionString", "Colour = ")
    with pytest.raises(ibmmq.MQMIError) as refused:
        ibmmq.Queue(qmgr, bad, CMQC.MQOO_INPUT_SHARED)
    assert refused.value.reason == CMQC.MQRC_SELECTOR_SYNTAX_ERROR
    qmgr.disconnect()


def test_a_deleted_message_handle_is_refused_on_put(ibmmq_emulator):
    ibmmq_emulator.define_queue("APP.PROPS")
    qmgr = ibmmq.connect("QM1")
    queue = ibmmq.Queue(qmgr, "APP.PROPS", CMQC.MQOO_OUTPUT)
    handle = ibmmq.MessageHandle(qmgr)
    pmo = ibmmq.PMO(Version=CMQC.MQPMO_VERSION_3)
    pmo.OriginalMsgHandle = handle.msg_handle
    handle.dlt()
    with pytest.raises(ibmmq.MQMIError) as refused:
        queue.put(b"x", ibmmq.MD(Version=2), pmo)
    assert refused.value.reason == CMQC.MQRC_HMSG_ERROR
    assert ibmmq_emulator.depth("APP.PROPS") == 0
    qmgr.disconnect()
