"""Channels between the queue managers of one listener (emulator/channels.py), printed, never asserted.

`mqconf emulator --listen` with QM1 and QM2 and the path of docs/emulator.md ("Distributed queuing between the
listener's queue managers"), then, through IBM's ibmmq with the emulator's Python client in processes of their own:

1. ROUND_TRIPS request/reply round trips: a requester on QM1 putting to a remote queue and waiting for the reply by
   CorrelId, a responder on QM2 answering through the queue-manager alias - two channel hops each way - beside the
   same loop on one queue manager (requester and responder both on QM1); the median of each and their ratio.
2. PUTS puts of 1 KB non-persistent messages to a local queue of QM1, with QM1's sender channel running (its
   watcher sleeps on QM1's condition, so every call wakes it) and with it stopped: the rates and the listener's
   CPU time a put (Linux's /proc), and their ratios - the cost a running channel puts on a queue manager's other
   work.

Run: .venv/bin/python benchmarks/channels.py [--round-trips N] [--puts N]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from test_emulator_channels import ADMIN, QM1_SETUP, QM2_SETUP, _start  # noqa: E402 - the test's path and processes

MQCONF = Path(sys.executable).parent / "mqconf"

REQUESTER = """
import json, statistics, sys, time, ibmmq
from ibmmq import CMQC
count, target = int(sys.argv[1]), sys.argv[2]
qmgr = ibmmq.connect("QM1", "DEV.APP.SVRCONN", "localhost(1414)")
od = ibmmq.OD(ObjectName=b"DEV.APP.MODEL.QUEUE", DynamicQName=b"BENCH.REPLIES.*")
replies = ibmmq.Queue(qmgr, od, CMQC.MQOO_INPUT_EXCLUSIVE)
requests = ibmmq.Queue(qmgr, target, CMQC.MQOO_OUTPUT)
times = []
for index in range(count):
    started = time.perf_counter()
    md = ibmmq.MD(MsgType=CMQC.MQMT_REQUEST, ReplyToQ=od.ObjectName.strip())
    requests.put(b"request %d" % index, md)
    gmo = ibmmq.GMO(Options=CMQC.MQGMO_WAIT, WaitInterval=60_000, MatchOptions=CMQC.MQMO_MATCH_CORREL_ID)
    replies.get(None, ibmmq.MD(CorrelId=md.MsgId), gmo)
    times.append(time.perf_counter() - started)
print(json.dumps(statistics.median(times)))
"""
RESPONDER = """
import sys, ibmmq
from ibmmq import CMQC
count, qmgr_name = int(sys.argv[1]), sys.argv[2]
qmgr = ibmmq.connect(qmgr_name, "DEV.APP.SVRCONN", "localhost(1414)")
requests = ibmmq.Queue(qmgr, "DEV.QUEUE.1", CMQC.MQOO_INPUT_SHARED)
for _ in range(count):
    md = ibmmq.MD()
    data = requests.get(None, md, ibmmq.GMO(Options=CMQC.MQGMO_WAIT, WaitInterval=60_000))
    qmgr.put1(ibmmq.OD(ObjectName=md.ReplyToQ, ObjectQMgrName=md.ReplyToQMgr), b"answer",
              ibmmq.MD(MsgType=CMQC.MQMT_REPLY, CorrelId=md.MsgId))
"""
PUTTER = """
import json, sys, time, ibmmq
from ibmmq import CMQC
count = int(sys.argv[1])
qmgr = ibmmq.connect("QM1", "DEV.APP.SVRCONN", "localhost(1414)")
queue = ibmmq.Queue(qmgr, "DEV.QUEUE.2", CMQC.MQOO_OUTPUT)
payload = b"x" * 1024
started = time.perf_counter()
for _ in range(count):
    queue.put(payload, ibmmq.MD(Persistence=CMQC.MQPER_NOT_PERSISTENT))
print(json.dumps(count / (time.perf_counter() - started)))
"""


def _result(process: subprocess.Popen):
    out, err = process.communicate(timeout=600)
    if process.returncode:
        raise SystemExit(err.strip().splitlines()[-1] if err.strip() else "a benchmark process failed")
    return json.loads(out.strip().splitlines()[-1]) if out.strip() else None


def _cpu_seconds(pid: int) -> float:
    """The user and system CPU time of process ``pid`` so far (Linux's /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _mqsc(env: dict[str, str], qmgr: str, *commands: str) -> None:
    _result(_start(env, ADMIN, qmgr, *commands))


def _round_trips(env: dict[str, str], count: int, target: str, responder_qmgr: str) -> float:
    responder = _start(env, RESPONDER, str(count), responder_qmgr)
    median = _result(_start(env, REQUESTER, str(count), target))
    _result(responder)
    return median


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--round-trips", type=int, default=300)
    parser.add_argument("--puts", type=int, default=4_000)  # DEV.QUEUE.2 holds 5,000
    args = parser.parse_args()
    from mq_conformance.emulator import hook

    with tempfile.TemporaryDirectory() as tmp:
        address = f"unix:{tmp}/qm.sock"
        server = subprocess.Popen([str(MQCONF), "emulator", "--listen", address, "--developer", "--qmgr", "QM1",
                                   "--qmgr", "QM2"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            server.stdout.readline()
            site = Path(tmp) / "site"
            site.mkdir()
            hook.install_pth(site)
            env = {"MQCONF_EMULATOR": address, "SITE": str(site), "TMP": tmp}
            _mqsc(env, "QM2", *QM2_SETUP)
            _mqsc(env, "QM1", *QM1_SETUP)
            local = _round_trips(env, args.round_trips, "DEV.QUEUE.1", "QM1")
            across = _round_trips(env, args.round_trips, "REQUESTS.QM2", "QM2")
            print(f"request/reply round trip, median of {args.round_trips}: one queue manager "
                  f"{local * 1000:.2f} ms, QM1 -> QM2 -> QM1 over two channels {across * 1000:.2f} ms "
                  f"(ratio {across / local:.2f})")
            rates: dict[str, list[float]] = {"running": [], "stopped": []}
            cpu: dict[str, list[float]] = {"running": [], "stopped": []}
            for _ in range(3):  # alternated, the best of each: a shared machine moves both
                for state, command in (("running", "START CHANNEL(QM1.TO.QM2)"),
                                       ("stopped", "STOP CHANNEL(QM1.TO.QM2)")):
                    _mqsc(env, "QM1", command, "CLEAR QLOCAL(DEV.QUEUE.2)")
                    before = _cpu_seconds(server.pid)
                    rates[state].append(_result(_start(env, PUTTER, str(args.puts))))
                    cpu[state].append((_cpu_seconds(server.pid) - before) / args.puts * 1e6)
            running, stopped = max(rates["running"]), max(rates["stopped"])
            print(f"puts/s of 1 KB to a local queue of QM1: its sender running {running:,.0f}, stopped "
                  f"{stopped:,.0f} (ratio {running / stopped:.2f}); the listener's CPU a put: running "
                  f"{min(cpu['running']):.0f} us, stopped {min(cpu['stopped']):.0f} us "
                  f"(ratio {min(cpu['running']) / min(cpu['stopped']):.2f})")
        finally:
            server.terminate()
            server.wait(timeout=10)


if __name__ == "__main__":
    main()
