"""Statistics and accounting of the emulated queue manager (emulator/statistics.py; clauses emulator.statistics
and emulator.accounting; IBM's "Queue statistics message data" and "Queue accounting message data"): STATQ,
STATINT and ACCTQ switch them on, MQCMD_STATISTICS_Q messages go to SYSTEM.ADMIN.STATISTICS.QUEUE at the end of
each interval of the queue manager's clock and MQCMD_ACCOUNTING_Q messages to SYSTEM.ADMIN.ACCOUNTING.QUEUE when
a connection ends, readable by IBM's own PCF parsing (PCFExecute.unpack)."""

from __future__ import annotations

import pytest

from mq_conformance.emulator import EmulatorUnavailable, load_ibmmq

try:
    ibmmq = load_ibmmq()
except EmulatorUnavailable as exc:  # no wheel of IBM's ibmmq for this platform (pyproject.toml)
    pytest.skip(str(exc), allow_module_level=True)
CMQC, CMQCFC = ibmmq.CMQC, ibmmq.CMQCFC


def _read_all(qmgr, name: str, events: bool = False) -> list[tuple[dict, object]]:
    """Every PCF message on a queue, as IBM's reader reads it (an event's header carries MQCC_WARNING and the
    event's reason, which IBM's public unpack raises: its own reader that ignores them reads events)."""
    queue = ibmmq.Queue(qmgr, name, CMQC.MQOO_INPUT_SHARED)
    found = []
    read = (lambda data: ibmmq.PCFExecute._unpack_option(data, True)) if events else ibmmq.PCFExecute.unpack
    while True:
        try:
            found.append(read(queue.get(None, ibmmq.MD(), ibmmq.GMO(Options=CMQC.MQGMO_NO_WAIT))))
        except ibmmq.MQMIError as exc:
            assert exc.reason == CMQC.MQRC_NO_MSG_AVAILABLE
            queue.close()
            return found


def _mqsc(pcf, command: str) -> None:
    pcf.MQCMD_ESCAPE({CMQCFC.MQIACF_ESCAPE_TYPE: CMQCFC.MQET_MQSC, CMQCFC.MQCACF_ESCAPE_TEXT: command.encode()})


def test_no_statistics_are_written_while_statq_is_off(ibmmq_emulator):
    ibmmq_emulator.define_queue("APP.Q")
    qmgr = ibmmq.connect("QM1")
    ibmmq.Queue(qmgr, "APP.Q", CMQC.MQOO_OUTPUT).put(b"x")
    ibmmq_emulator.advance_clock(3_600_000)
    assert ibmmq_emulator.depth("SYSTEM.ADMIN.STATISTICS.QUEUE") == 0
    qmgr.disconnect()


def test_statistics_are_written_at_the_interval_with_the_queues_counts(ibmmq_emulator):
    ibmmq_emulator.define_queue("APP.Q")
    qmgr = ibmmq.connect("QM1")
    pcf = ibmmq.PCFExecute(qmgr)
    _mqsc(pcf, "ALTER QMGR STATQ(ON) STATINT(60)")
    queue = ibmmq.Queue(qmgr, "APP.Q", CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_SHARED)
    queue.put(b"one", ibmmq.MD(Persistence=CMQC.MQPER_PERSISTENT))
    queue.put(b"two")
    queue.get()
    ibmmq_emulator.advance_clock(59_000)
    assert ibmmq_emulator.depth("SYSTEM.ADMIN.STATISTICS.QUEUE") == 0  # the interval has not ended
    ibmmq_emulator.advance_clock(2_000)
    [(message, header)] = _read_all(qmgr, "SYSTEM.ADMIN.STATISTICS.QUEUE")
    assert (header.Type, header.Command) == (CMQCFC.MQCFT_STATISTICS, CMQCFC.MQCMD_STATISTICS_Q)
    assert message[CMQC.MQCA_Q_MGR_NAME].strip() == b"QM1"
    assert message[CMQCFC.MQIAMO_OBJECT_COUNT] == len(message[CMQCFC.MQGACF_Q_STATISTICS_DATA])
    [group] = [g for g in message[CMQCFC.MQGACF_Q_STATISTICS_DATA] if g[CMQC.MQCA_Q_NAME].strip() == b"APP.Q"]
    assert group[CMQCFC.MQIAMO_PUTS] == [1, 1]  # non-persistent, persistent
    assert sum(group[CMQCFC.MQIAMO_GETS]) == 1 and group[CMQCFC.MQIAMO64_PUT_BYTES] == [3, 3]
    assert group[CMQCFC.MQIAMO_Q_MAX_DEPTH] == 2
    queue.close()
    qmgr.disconnect()


def test_a_queue_with_statq_off_is_left_out(ibmmq_emulator):
    ibmmq_emulator.define_queue("APP.Q")
    ibmmq_emulator.define_queue("APP.QUIET")
    qmgr = ibmmq.connect("QM1")
    pcf = ibmmq.PCFExecute(qmgr)
    _mqsc(pcf, "ALTER QMGR STATQ(ON) STATINT(10)")
    _mqsc(pcf, "ALTER QLOCAL(APP.QUIET) STATQ(OFF)")
    for name in ("APP.Q", "APP.QUIET"):
        ibmmq.Queue(qmgr, name, CMQC.MQOO_OUTPUT).put(b"x")
    ibmmq_emulator.advance_clock(10_000)
    [(message, _header)] = _read_all(qmgr, "SYSTEM.ADMIN.STATISTICS.QUEUE")
    names = [g[CMQC.MQCA_Q_NAME].strip() for g in message[CMQCFC.MQGACF_Q_STATISTICS_DATA]]
    assert b"APP.Q" in names and b"APP.QUIET" not in names
    qmgr.disconnect()


def test_accounting_is_written_when_a_connection_ends(ibmmq_emulator):
    ibmmq_emulator.define_queue("APP.Q")
    admin = ibmmq.connect("QM1")
    _mqsc(ibmmq.PCFExecute(admin), "ALTER QMGR ACCTQ(ON)")
    app = ibmmq.connect("QM1")
    queue = ibmmq.Queue(app, "APP.Q", CMQC.MQOO_OUTPUT)
    queue.put(b"abc")
    queue.close()
    app.disconnect()
    found = _read_all(admin, "SYSTEM.ADMIN.ACCOUNTING.QUEUE")
    mine = [m for m, h in found if h.Command == CMQCFC.MQCMD_ACCOUNTING_Q
            and any(g[CMQC.MQCA_Q_NAME].strip() == b"APP.Q" for g in m[CMQCFC.MQGACF_Q_ACCOUNTING_DATA])]
    assert len(mine) == 1
    [group] = [g for g in mine[0][CMQCFC.MQGACF_Q_ACCOUNTING_DATA] if g[CMQC.MQCA_Q_NAME].strip() == b"APP.Q"]
    assert sum(group[CMQCFC.MQIAMO_PUTS]) == 1 and group[CMQCFC.MQIAMO_OPENS] == [1]
    admin.disconnect()


def test_performance_events_tell_depth_high_low_and_full(ibmmq_emulator):
    """emulator.performance-events: with PERFMEV ENABLED, Queue Depth High at QDEPTHHI per cent of MAXDEPTH (then
    off, Low on), Queue Depth Low at QDEPTHLO, Queue Full on MQRC_Q_FULL, each an MQCMD_PERFM_EVENT on
    SYSTEM.ADMIN.PERFM.EVENT with the queue's statistics since the last reset."""
    ibmmq_emulator.define_queue("APP.Q", MaxQDepth=10)
    qmgr = ibmmq.connect("QM1")
    pcf = ibmmq.PCFExecute(qmgr)
    _mqsc(pcf, "ALTER QMGR PERFMEV(ENABLED)")
    _mqsc(pcf, "ALTER QLOCAL(APP.Q) QDEPTHHI(50) QDEPTHLO(20) QDPHIEV(ENABLED)")
    queue = ibmmq.Queue(qmgr, "APP.Q", CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_SHARED)
    for index in range(10):
        queue.put(b"%d" % index)
    with pytest.raises(ibmmq.MQMIError) as full:
        queue.put(b"one too many")
    assert full.value.reason == CMQC.MQRC_Q_FULL
    for _ in range(8):
        queue.get()
    events = _read_all(qmgr, "SYSTEM.ADMIN.PERFM.EVENT", events=True)
    assert [(h.Command, h.Reason) for _m, h in events] == [
        (CMQCFC.MQCMD_PERFM_EVENT, CMQC.MQRC_Q_DEPTH_HIGH), (CMQCFC.MQCMD_PERFM_EVENT, CMQC.MQRC_Q_FULL),
        (CMQCFC.MQCMD_PERFM_EVENT, CMQC.MQRC_Q_DEPTH_LOW)]
    high = events[0][0]
    assert high[CMQC.MQCA_BASE_Q_NAME].strip() == b"APP.Q" and high[CMQC.MQIA_HIGH_Q_DEPTH] == 5
    assert high[CMQC.MQIA_MSG_ENQ_COUNT] == 5
    queue.close()
    qmgr.disconnect()
