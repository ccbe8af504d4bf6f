"""The emulator's speed through IBM's ibmmq layer (issues 26 and 34), printed, never asserted.

1. In one process: puts and gets per second of 1 KB non-persistent messages through IBM's Python layer over the
   emulated native module, against the floor of the same layer over a native module that does nothing (returns
   its structures unchanged with MQCC_OK): the ratio is the emulator's and the model's cost over IBM's own. Each
   side counts its process's CPU time and is the best of ROUNDS rounds of COUNT puts and COUNT gets.
2. Through the listener, side by side in one run with the same Python client loop (a fresh MQMD and MQGMO per
   call, as applications write it): a putter and a getter of PAIR 1 KB non-persistent messages, as two threads
   of one process over the in-process emulator and as two processes through `mqconf emulator --listen`; the
   getter's rate from its first message to its last, and the ratio of the two (issue 34's target: at least 0.5);
   beside it the CPU time of a message each way (the loops' threads; through the listener, the putter's, the
   listener's and the getter's), which a shared machine does not change as much as it changes the rates; the two
   ways alternate PAIR_ROUNDS times and the best of each is printed.
   Then ROUND_TRIPS request/reply round trips (a requester putting a request and waiting for the reply by
   CorrelId, a responder answering), the median printed for both ways.
3. Across processes: MESSAGES messages from 2 threads of one process to 2 threads of another through
   `mqconf emulator --listen`, checked to arrive exactly once, with the time it took.

Run: make bench-emulator (or .venv/bin/python benchmarks/emulator.py [--messages N] [--pair N]).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
import types
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COUNT = 20_000
ROUNDS = 5
PAIR = 5_000
PAIR_ROUNDS = 3
ROUND_TRIPS = 500
PAYLOAD = b"x" * 1024


def _do_nothing_native() -> types.ModuleType:
    """A native module that answers every call at once: the floor of IBM's layer."""
    from mq_conformance.emulator import native

    module = types.ModuleType("ibmmq.ibmmqc")
    for name in ("__version__", "__cmdlevel__", "__mqbuild__", "__strucversions__", "error"):
        setattr(module, name, getattr(native, name))
    setattr(module, "ibmmqc.error", native.error)
    module.MQCONNX = lambda name, *rest: (1, 0, 0)
    module.MQCONN = lambda name: (1, 0, 0)
    module.MQOPEN = lambda hconn, od, options: (1, od, 0, 0)
    module.MQCLOSE = lambda hconn, hobj, options: (0, 0)
    module.MQDISC = lambda hconn: (0, 0)
    module.MQPUT = lambda hconn, hobj, md, pmo, data: (md, pmo, 0, 0)
    payload = b"x" * 1024
    module.MQGET = lambda hconn, hobj, md, gmo, length: (payload[:length], md, gmo, len(payload), 0, 0)
    for name in dir(native):
        if name.startswith("MQ") and not hasattr(module, name):
            setattr(module, name, getattr(native, name))
    return module


def _rates(label: str) -> tuple[float, float]:
    """Puts and gets per second of this process's CPU time (the machine may be shared: other processes' work does
    not count), the best of ROUNDS rounds of COUNT puts then COUNT gets."""
    import ibmmq
    from ibmmq import CMQC

    qmgr = ibmmq.connect("QM1")
    queue = ibmmq.Queue(qmgr, "BENCH.Q", CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_SHARED)
    data = b"x" * 1024
    md, pmo = ibmmq.MD(), ibmmq.PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)
    gmo = ibmmq.GMO(Options=CMQC.MQGMO_NO_SYNCPOINT | CMQC.MQGMO_NO_WAIT)
    puts = gets = 0.0
    for _round in range(ROUNDS):
        started = time.process_time()
        for _ in range(COUNT):
            md.MsgId = CMQC.MQMI_NONE
            queue.put(data, md, pmo)
        puts = max(puts, COUNT / (time.process_time() - started))
        started = time.process_time()
        for _ in range(COUNT):
            queue.get(2048, ibmmq.MD(), gmo)
        gets = max(gets, COUNT / (time.process_time() - started))
    queue.close()
    qmgr.disconnect()
    print(f"{label:<48} {puts:>10,.0f} puts/s {gets:>10,.0f} gets/s (CPU time)", flush=True)
    return puts, gets


def in_process(which: str) -> None:
    """One measurement in this (fresh) process: ``floor`` or ``emulator``."""
    from mq_conformance import emulator as ibmmq_emulator

    if which == "floor":
        ibmmq_emulator.install(_do_nothing_native())
        _rates("IBM's layer over a do-nothing native module")
        return
    with ibmmq_emulator.emulated_mq(queues=("BENCH.Q",)) as emulator:
        emulator.define_queue("BENCH.Q", MaxQDepth=COUNT + 1)
        puts, gets = _rates("IBM's layer over the emulator (the model)")
        _split(emulator, {"put": 1e6 / puts, "get": 1e6 / gets})


def _split(emulator, cpu_us: dict[str, float]) -> None:
    """Where a put's and a get's CPU time goes: IBM's layer (the rest), the emulator (the native call less the
    model's), the model (its put or get). The shares come from one more round with the native functions and the
    model's calls timed by the wall clock (its interruptions fall on each part alike); the times are those shares
    of the CPU time per call the rounds measured."""
    import ibmmq
    from ibmmq import CMQC

    from mq_conformance.emulator import native

    spent = {"MQPUT": 0.0, "MQGET": 0.0, "put": 0.0, "get": 0.0}
    clock = time.perf_counter

    def timed(owner, name):
        call = getattr(owner, name)

        def wrapper(*args):
            started = clock()
            try:
                return call(*args)
            finally:
                spent[name] += clock() - started
        setattr(owner, name, wrapper)

    for owner, name in ((native, "MQPUT"), (native, "MQGET"), (emulator.world, "put"), (emulator.world, "get")):
        timed(owner, name)
    qmgr = ibmmq.connect("QM1")
    queue = ibmmq.Queue(qmgr, "BENCH.Q", CMQC.MQOO_OUTPUT | CMQC.MQOO_INPUT_SHARED)
    data, md, pmo = b"x" * 1024, ibmmq.MD(), ibmmq.PMO(Options=CMQC.MQPMO_NO_SYNCPOINT)
    gmo = ibmmq.GMO(Options=CMQC.MQGMO_NO_SYNCPOINT | CMQC.MQGMO_NO_WAIT)
    started = clock()
    for _ in range(COUNT):
        md.MsgId = CMQC.MQMI_NONE
        queue.put(data, md, pmo)
    put_total = clock() - started
    started = clock()
    for _ in range(COUNT):
        queue.get(2048, ibmmq.MD(), gmo)
    get_total = clock() - started
    queue.close()
    qmgr.disconnect()
    for verb, total, native_call in (("put", put_total, "MQPUT"), ("get", get_total, "MQGET")):
        scale = cpu_us[verb] / total
        ibm_us = (total - spent[native_call]) * scale
        emulator_us = (spent[native_call] - spent[verb]) * scale
        print(f"  a {verb}: {cpu_us[verb]:.1f} us of CPU = IBM's layer {ibm_us:.1f} + the emulator {emulator_us:.1f} "
              f"+ the model {spent[verb] * scale:.1f}", flush=True)


# -- the same client loops in one process and through the listener ---------------------------------------------

def _connect():
    import ibmmq

    return ibmmq.connect("QM1", "DEV.APP.SVRCONN", "localhost(1414)")


def put_loop(count: int, queue_name: str = "DEV.QUEUE.1") -> float:
    """COUNT 1 KB non-persistent puts, a fresh MQMD and MQPMO each: the CPU seconds of this thread's loop."""
    import ibmmq
    from ibmmq import CMQC

    qmgr = _connect()
    queue = ibmmq.Queue(qmgr, queue_name, CMQC.MQOO_OUTPUT)
    cpu = time.thread_time()
    for _ in range(count):
        queue.put(PAYLOAD, ibmmq.MD(Persistence=CMQC.MQPER_NOT_PERSISTENT),
                  ibmmq.PMO(Options=CMQC.MQPMO_NO_SYNCPOINT))
    cpu = time.thread_time() - cpu
    queue.close()
    qmgr.disconnect()
    return cpu


def get_loop(count: int, queue_name: str = "DEV.QUEUE.1") -> tuple[float, float]:
    """COUNT waiting gets, a fresh MQMD and MQGMO each: messages per second from the first message to the last,
    and the CPU seconds of this thread's loop."""
    import ibmmq
    from ibmmq import CMQC

    qmgr = _connect()
    queue = ibmmq.Queue(qmgr, queue_name, CMQC.MQOO_INPUT_SHARED)
    started, cpu = 0.0, time.thread_time()
    for index in range(count):
        queue.get(2048, ibmmq.MD(), ibmmq.GMO(Options=CMQC.MQGMO_WAIT | CMQC.MQGMO_NO_SYNCPOINT,
                                                WaitInterval=30_000))
        if index == 0:
            started = time.perf_counter()
    elapsed, cpu = time.perf_counter() - started, time.thread_time() - cpu
    queue.close()
    qmgr.disconnect()
    return (count - 1) / elapsed, cpu


def respond_loop(count: int) -> None:
    """Answer COUNT requests from DEV.QUEUE.1 on their ReplyToQ, CorrelId = the request's MsgId."""
    import ibmmq
    from ibmmq import CMQC

    qmgr = _connect()
    requests = ibmmq.Queue(qmgr, "DEV.QUEUE.1", CMQC.MQOO_INPUT_SHARED)
    for _ in range(count):
        md = ibmmq.MD()
        data = requests.get(2048, md, ibmmq.GMO(Options=CMQC.MQGMO_WAIT | CMQC.MQGMO_NO_SYNCPOINT,
                                                  WaitInterval=30_000))
        reply = ibmmq.MD(MsgType=CMQC.MQMT_REPLY, CorrelId=md.MsgId, Persistence=CMQC.MQPER_NOT_PERSISTENT)
        od = ibmmq.OD(ObjectName=md.ReplyToQ)
        qmgr.put1(od, data, reply, ibmmq.PMO(Options=CMQC.MQPMO_NO_SYNCPOINT))
    requests.close()
    qmgr.disconnect()


def request_loop(count: int) -> float:
    """COUNT request/reply round trips (a reply awaited by CorrelId on DEV.QUEUE.2): the median, in ms."""
    import statistics

    import ibmmq
    from ibmmq import CMQC

    qmgr = _connect()
    requests = ibmmq.Queue(qmgr, "DEV.QUEUE.1", CMQC.MQOO_OUTPUT)
    replies = ibmmq.Queue(qmgr, "DEV.QUEUE.2", CMQC.MQOO_INPUT_SHARED)
    times = []
    for _ in range(count):
        started = time.perf_counter()
        md = ibmmq.MD(MsgType=CMQC.MQMT_REQUEST, ReplyToQ=b"DEV.QUEUE.2", Persistence=CMQC.MQPER_NOT_PERSISTENT)
        requests.put(PAYLOAD, md, ibmmq.PMO(Options=CMQC.MQPMO_NO_SYNCPOINT))
        replies.get(2048, ibmmq.MD(CorrelId=md.MsgId),
                    ibmmq.GMO(Options=CMQC.MQGMO_WAIT | CMQC.MQGMO_NO_SYNCPOINT, WaitInterval=30_000,
                              MatchOptions=CMQC.MQMO_MATCH_CORREL_ID))
        times.append(time.perf_counter() - started)
    requests.close()
    replies.close()
    qmgr.disconnect()
    return statistics.median(times) * 1000


def _pair_in_process(count: int, round_trips: int) -> tuple[float, float, float]:
    """The put and get loops as two threads of this process, then the round trips: (messages/s, CPU us per
    message, median ms)."""
    import threading

    from mq_conformance import emulator as ibmmq_emulator

    with ibmmq_emulator.emulated_mq(real_time=True) as emulator:
        emulator.developer()
        results: list[tuple[float, float]] = []
        getter = threading.Thread(target=lambda: results.append(get_loop(count)))
        getter.start()
        put_cpu = put_loop(count)
        getter.join()
        responder = threading.Thread(target=respond_loop, args=(round_trips,))
        responder.start()
        median = request_loop(round_trips)
        responder.join()
    rate, get_cpu = results[0]
    return rate, (put_cpu + get_cpu) / count * 1e6, median


def _cpu_of(pid: int) -> float:
    """The CPU seconds process ``pid`` has used (Linux /proc; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


@contextmanager
def _listener() -> Iterator[dict[str, str]]:
    """`mqconf emulator --listen` on a unix socket with IBM's developer objects, for the block; yields the
    environment that sends an application's process there."""
    mqconf = Path(sys.executable).parent / "mqconf"
    with tempfile.TemporaryDirectory() as folder:
        address = f"unix:{folder}/qm.sock"
        server = subprocess.Popen([str(mqconf), "emulator", "--listen", address, "--developer"],
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            server.stdout.readline()
            env = {**os.environ, "MQCONF_EMULATOR": address, "LISTENER_PID": str(server.pid)}
            env.pop("MQCONF_IBMMQ_EMULATOR", None)
            yield env
        finally:
            server.terminate()
            server.wait()


def _pair_through_listener(count: int, round_trips: int) -> tuple[float, tuple[float, float, float], float]:
    """The same loops in two processes through `mqconf emulator --listen` (a third): (messages/s, CPU us per
    message of the putter, the listener and the getter, median ms)."""
    with _listener() as env:
        def role(name: str, number: int) -> subprocess.Popen:
            return subprocess.Popen([sys.executable, __file__, "--role", name, "--pair", str(number)], env=env,
                                    stdout=subprocess.PIPE, text=True)

        listener_cpu = _cpu_of(int(env["LISTENER_PID"]))
        getter = role("get", count)
        put_cpu = float(role("put", count).communicate()[0])
        rate, get_cpu = (float(word) for word in getter.communicate()[0].split())
        listener_cpu = _cpu_of(int(env["LISTENER_PID"])) - listener_cpu
        responder = role("respond", round_trips)
        median = float(role("request", round_trips).communicate()[0])
        responder.communicate()
    return rate, (put_cpu / count * 1e6, listener_cpu / count * 1e6, get_cpu / count * 1e6), median


def client_loops(count: int, round_trips: int, rounds: int = PAIR_ROUNDS) -> None:
    """Item 2 of the module's description, printed: the two ways alternate, ``rounds`` times each, and the best
    of each is kept (the machine may be shared: what others run slows one way or the other by turns)."""
    in_rate = out_rate = 0.0
    in_median = out_median = in_cpu = float("inf")
    out_cpu = (float("inf"),)
    for _round in range(rounds):
        inside = subprocess.run([sys.executable, __file__, "--role", "inside", "--pair", str(count),
                                 "--round-trips", str(round_trips)], capture_output=True, text=True,
                                check=True).stdout.split()
        in_rate, in_cpu, in_median = max(in_rate, float(inside[0])), min(in_cpu, float(inside[1])), min(
            in_median, float(inside[2]))
        rate, cpu, median = _pair_through_listener(count, round_trips)
        out_rate, out_median = max(out_rate, rate), min(out_median, median)
        out_cpu = min(out_cpu, cpu, key=sum)
    print(f"{count:,} 1 KB messages, one putter and one getter, fresh MQMD/MQGMO per call (best of {rounds}):",
          flush=True)
    print(f"  in one process (two threads)        {in_rate:>10,.0f} messages/s   CPU {in_cpu:,.0f} us a message",
          flush=True)
    print(f"  two processes through the listener  {out_rate:>10,.0f} messages/s   CPU {sum(out_cpu):,.0f} us a message "
          f"(putter {out_cpu[0]:,.0f} + listener {out_cpu[1]:,.0f} + getter {out_cpu[2]:,.0f})", flush=True)
    print(f"  ratio of the rates {out_rate / in_rate:.2f} (target: at least 0.5); of the CPU per message "
          f"{sum(out_cpu) / in_cpu:.2f}", flush=True)
    print(f"{round_trips:,} request/reply round trips, median (best of {rounds}): {in_median:.3f} ms in one process, "
          f"{out_median:.3f} ms through the listener ({out_median / in_median:.1f}x)", flush=True)


def across_processes(messages: int) -> None:
    """MESSAGES messages through 2 threads of a producer process and 2 of a consumer, exactly once."""
    apps = ROOT / "tests" / "emulator_apps"
    with _listener() as env:
        boot = ("import sys, runpy; from mq_conformance.emulator import install_unless_client; "
                "install_unless_client(); sys.argv = sys.argv[1:]; runpy.run_path(sys.argv[0], run_name='__main__')")
        started = time.perf_counter()
        consumer = subprocess.Popen([sys.executable, "-c", boot, str(apps / "consumer.py"), "2", str(messages)],
                                    env=env, stdout=subprocess.PIPE, text=True)
        producer = subprocess.Popen([sys.executable, "-c", boot, str(apps / "producer.py"), "2",
                                     str(messages // 2)], env=env, stdout=subprocess.PIPE, text=True)
        producer.communicate()
        received = consumer.communicate()[0].splitlines()
        elapsed = time.perf_counter() - started
    expected = {f"{producer.pid}-{t}-{i}" for t in range(2) for i in range(messages // 2)}
    verdict = "each exactly once" if len(received) == messages and set(received) == expected else \
        f"NOT exactly once: {len(received)} received, {len(set(received))} distinct"
    print(f"{messages:,} messages, 2 producer threads -> 2 consumer threads in 2 processes: {elapsed:.1f} s "
          f"({messages / elapsed:,.0f} messages/s put and got), {verdict}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=10_000)
    parser.add_argument("--pair", type=int, default=PAIR, help="messages of the put/get pair (default 5,000)")
    parser.add_argument("--round-trips", type=int, default=ROUND_TRIPS)
    parser.add_argument("--only", choices=("floor", "emulator", "pair"), help=argparse.SUPPRESS)
    parser.add_argument("--role", choices=("put", "get", "request", "respond", "inside"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.role:
        from mq_conformance.emulator import install_unless_client

        if args.role != "inside":
            install_unless_client()  # MQCONF_EMULATOR: the Python client of the listener
        if args.role == "put":
            print(put_loop(args.pair))
        elif args.role == "respond":
            respond_loop(args.pair)
        elif args.role == "get":
            print(*get_loop(args.pair))
        elif args.role == "request":
            print(request_loop(args.pair))
        else:
            print(*_pair_in_process(args.pair, args.round_trips))
        return
    if args.only == "pair":
        client_loops(args.pair, args.round_trips)
        return
    if args.only:
        in_process(args.only)
        return
    rates = {}
    for which in ("floor", "emulator"):
        out = subprocess.run([sys.executable, __file__, "--only", which], capture_output=True, text=True, check=True)
        sys.stdout.write(out.stdout)
        words = out.stdout.split()
        rates[which] = tuple(float(words[words.index(unit) - 1].replace(",", "")) for unit in ("puts/s", "gets/s"))
    put_ratio = rates["floor"][0] / rates["emulator"][0]
    get_ratio = rates["floor"][1] / rates["emulator"][1]
    print(f"the emulator takes {put_ratio:.1f}x the floor's time per put and {get_ratio:.1f}x per get "
          f"(target: at most 1.5x)", flush=True)
    client_loops(args.pair, args.round_trips)
    across_processes(args.messages)


if __name__ == "__main__":
    main()
