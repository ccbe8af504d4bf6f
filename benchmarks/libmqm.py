"""Speed of libmqm (emulator/libmqm): 1 KB non-persistent messages put by one process and got by another through
`mqconf emulator --listen`, a fresh MQMD and MQPMO/MQGMO per call as applications write it, three ways side by
side in one run (issue 34, item 5):

- a C client through libmqm (the program below, built with the machine's C compiler);
- IBM's ibmmq with its own compiled ibmmqc through libmqm (LD_LIBRARY_PATH);
- IBM's ibmmq over the emulator's Python client of the listener (MQCONF_EMULATOR, emulator/remote.py).

It prints each one's messages per second (the getter's, from its first message to its last; best of ROUNDS) and
the C client's rate against the Python client's (target: at least 3x). Beside each rate, the CPU time of a message
(a put and a get) in the listener process (/proc) and in the two clients together (their rusage), the least of
ROUNDS: a shared machine moves the rates more than these. From them it prints the ceiling each way has on this
machine's cores - one listener process, whose threads share one interpreter lock, serves at most 1/S messages per
second, and a listener and two clients together at most CORES/(S + C) - and the ratio of the two ceilings (what
the ratio of the rates comes to when both ways are bound by CPU rather than by waiting for replies).

Then the floor of S: the same C clients against the same listener whose MQPUT and MQGET answer at once without
the queue manager (the session protocol, the socket calls and a thread per session: everything but the emulator
and the model), plus the model's own put and get (reference/, called directly in this process). The listener
cannot cost less than their sum per message, whatever the emulator between them does; the ceilings' ratio at that
floor is the most any C client could get over this Python client on this machine.
Run: `python benchmarks/libmqm.py`.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

MESSAGES = 5_000
ROUNDS = 3
PAYLOAD = b"x" * 1024

# The C client: the structures it needs at version 1, as IBM's defaults set them (IBM's layouts; the library's
# header states the same offsets, checked against IBM's cmqc.h by tests/test_libmqm.py).
CLIENT = r"""
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
typedef int32_t MQLONG;
void MQCONNX(char *, void *, MQLONG *, MQLONG *, MQLONG *);
void MQOPEN(MQLONG, void *, MQLONG, MQLONG *, MQLONG *, MQLONG *);
void MQPUT(MQLONG, MQLONG, void *, void *, MQLONG, void *, MQLONG *, MQLONG *);
void MQGET(MQLONG, MQLONG, void *, void *, MQLONG, void *, MQLONG *, MQLONG *, MQLONG *);
void MQDISC(MQLONG *, MQLONG *, MQLONG *);
static void put32(unsigned char *s, int at, MQLONG v) { memcpy(s + at, &v, 4); }
static void blanks(unsigned char *s, int at, int n) { memset(s + at, ' ', n); }
static void md_default(unsigned char *md) {  /* MQMD version 1, non-persistent */
    memset(md, 0, 324); memcpy(md, "MD  ", 4); put32(md, 4, 1); put32(md, 12, 8); put32(md, 16, -1);
    put32(md, 24, 546); blanks(md, 32, 8); put32(md, 40, -1); put32(md, 44, 0);
    blanks(md, 100, 108); blanks(md, 240, 32); blanks(md, 276, 48);
}
int main(int argc, char **argv) {
    MQLONG hc, hobj, cc, rc, count = atoi(argv[2]);
    unsigned char cno[24] = "CNO ", cd[1312], od[168], md[324], pmo[128], gmo[72];
    char buffer[2048], payload[1024];
    memset(payload, 'x', sizeof payload);
    memset(cd, 0, sizeof cd); blanks(cd, 0, 20); memcpy(cd, "DEV.APP.SVRCONN", 15); put32(cd, 20, 2);
    put32(cd, 24, 6); put32(cd, 28, 2); blanks(cd, 1024, 264); memcpy(cd + 1024, argv[3], strlen(argv[3]));
    put32(cno, 4, 2); put32(cno, 8, 0); put32(cno, 12, 0); void *p = cd; memcpy(cno + 16, &p, 8);
    MQCONNX("QM1", cno, &hc, &cc, &rc);
    if (cc == 2) { printf("MQCONNX %d\n", rc); return 1; }
    memset(od, 0, sizeof od); memcpy(od, "OD  ", 4); put32(od, 4, 1); put32(od, 8, 1); blanks(od, 12, 156);
    memcpy(od + 12, "DEV.QUEUE.1", 11); memcpy(od + 108, "AMQ.*", 5);
    int putting = argv[1][0] == 'p';
    MQOPEN(hc, od, putting ? 16 : 2, &hobj, &cc, &rc);  /* MQOO_OUTPUT, MQOO_INPUT_SHARED */
    if (cc == 2) { printf("MQOPEN %d\n", rc); return 1; }
    struct timespec first, last;
    for (MQLONG i = 0; i < count; i++) {
        md_default(md);
        if (putting) {
            memset(pmo, 0, sizeof pmo); memcpy(pmo, "PMO ", 4); put32(pmo, 4, 1); put32(pmo, 8, 4);
            put32(pmo, 12, -1); blanks(pmo, 32, 96);
            MQPUT(hc, hobj, md, pmo, sizeof payload, payload, &cc, &rc);
        } else {
            MQLONG length;
            memset(gmo, 0, sizeof gmo); memcpy(gmo, "GMO ", 4); put32(gmo, 4, 1); put32(gmo, 8, 1 | 4);
            put32(gmo, 12, 30000); blanks(gmo, 24, 48);
            MQGET(hc, hobj, md, gmo, sizeof buffer, buffer, &length, &cc, &rc);
            if (i == 0) clock_gettime(CLOCK_MONOTONIC, &first);
        }
        if (cc == 2) { printf("%s %d\n", putting ? "MQPUT" : "MQGET", rc); return 1; }
    }
    clock_gettime(CLOCK_MONOTONIC, &last);
    if (!putting)
        printf("%f\n", (count - 1) / ((last.tv_sec - first.tv_sec) + (last.tv_nsec - first.tv_nsec) / 1e9));
    MQDISC(&hc, &cc, &rc);
    return 0;
}
"""


def serve_floor(address: str) -> None:
    """A listener whose MQPUT and MQGET answer at once (the structures unchanged, MQCC_OK, 1 KB of data), the rest
    of it as it is: what a message costs the listener without the emulator and the model."""
    import types

    from mq_conformance.emulator import hook, native, server

    payload = b"x" * 1024
    floor = types.ModuleType("floor")
    floor.__dict__.update(native.__dict__)
    floor.MQPUT = lambda hconn, hobj, md, pmo, data: (md, pmo, 0, 0)
    floor.MQGET = lambda hconn, hobj, md, gmo, length, cancel=None: (payload[:length], md, gmo, len(payload), 0, 0)
    server.native = floor
    listener = hook.listen(address, developer=True)
    print("listening", flush=True)
    listener.serve_forever()


def model_cost(count: int = 2_000, rounds: int = 5) -> float:
    """CPU microseconds of the model's own MQPUT and MQGET of a 1 KB non-persistent message (reference/, no
    emulator), the least of ROUNDS rounds of COUNT pairs."""
    from mq_conformance.emulator import load_ibmmq
    from mq_conformance.emulator.emulator import Emulator
    from mq_conformance.reference.structures import MQGMO, MQMD, MQOD, MQPMO

    load_ibmmq()  # the emulator reads IBM's constants and layouts
    emulator = Emulator(real_time=True)
    emulator.developer()
    world = emulator.world
    qmgr, connected = world.connect()
    hconn = connected.hconn
    output = world.open(qmgr, hconn, MQOD("DEV.QUEUE.1", ""), 0x10).hobj  # MQOO_OUTPUT
    source = world.open(qmgr, hconn, MQOD("DEV.QUEUE.1", ""), 0x2).hobj  # MQOO_INPUT_SHARED
    best = float("inf")
    for _round in range(rounds):
        started = time.process_time()
        for _ in range(count):  # a fresh descriptor and options each, as the clients send them
            world.put(qmgr, hconn, output, MQMD(Persistence=0), MQPMO(Options=4), PAYLOAD)  # MQPMO_NO_SYNCPOINT
            got = world.get(qmgr, hconn, source, MQMD(), MQGMO(Options=4 | 1, WaitInterval=30_000), 2048)
            if got.comp_code or got.data_length != len(PAYLOAD):
                raise SystemExit(f"the model's get failed: reason {got.reason}")
        best = min(best, time.process_time() - started)
    return best / count * 1e6


def put_loop(count: int, address: str) -> None:
    """COUNT 1 KB non-persistent puts through IBM's ibmmq, a fresh MQMD and MQPMO each."""
    import ibmmq
    from ibmmq import CMQC

    qmgr = ibmmq.connect("QM1", "DEV.APP.SVRCONN", address)
    queue = ibmmq.Queue(qmgr, "DEV.QUEUE.1", CMQC.MQOO_OUTPUT)
    for _ in range(count):
        queue.put(PAYLOAD, ibmmq.MD(Persistence=CMQC.MQPER_NOT_PERSISTENT), ibmmq.PMO(Options=CMQC.MQPMO_NO_SYNCPOINT))
    qmgr.disconnect()


def get_loop(count: int, address: str) -> float:
    """COUNT waiting gets, a fresh MQMD and MQGMO each: messages per second from the first to the last."""
    import ibmmq
    from ibmmq import CMQC

    qmgr = ibmmq.connect("QM1", "DEV.APP.SVRCONN", address)
    queue = ibmmq.Queue(qmgr, "DEV.QUEUE.1", CMQC.MQOO_INPUT_SHARED)
    started = 0.0
    for index in range(count):
        queue.get(2048, ibmmq.MD(), ibmmq.GMO(Options=CMQC.MQGMO_WAIT | CMQC.MQGMO_NO_SYNCPOINT, WaitInterval=30_000))
        if index == 0:
            started = time.perf_counter()
    elapsed = time.perf_counter() - started
    qmgr.disconnect()
    return (count - 1) / elapsed


def _cpu_of_process() -> Any:
    """benchmarks/emulator.py's reading of a process's CPU seconds (/proc), one description of it."""
    spec = importlib.util.spec_from_file_location("emulator_benchmark", Path(__file__).with_name("emulator.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module._cpu_of


def _children_cpu() -> float:
    """CPU seconds of this process's children that have ended (the clients of a pair, once waited for)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _pair(put: list[str], get: list[str], env: dict[str, str], server: int, count: int) -> tuple[float, float, float]:
    """A getter and a putter, each a process of its own: the getter's rate, and the CPU microseconds of a message
    in the listener (process ``server``) and in the two clients together."""
    cpu_of = _cpu_of_process()
    listener, clients = cpu_of(server), _children_cpu()
    getter = subprocess.Popen(get, env=env, stdout=subprocess.PIPE, text=True)
    putter = subprocess.run(put, env=env, capture_output=True, text=True, timeout=600, check=False)
    out, _ = getter.communicate(timeout=600)
    if putter.returncode != 0 or getter.returncode != 0:
        raise SystemExit(f"a client failed: {putter.stdout}{putter.stderr}{out}")
    listener, clients = cpu_of(server) - listener, _children_cpu() - clients
    return float(out.split()[-1]), listener / count * 1e6, clients / count * 1e6


def _ceiling(listener_us: float, clients_us: float, cores: int) -> float:
    """Messages per second a way can reach at most on ``cores``: one listener process at ``listener_us`` a
    message (its threads share one interpreter lock), and every process together within the cores."""
    return min(1e6 / listener_us, cores * 1e6 / (listener_us + clients_us))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=MESSAGES)
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    parser.add_argument("--role", choices=("put", "get", "floor"), help=argparse.SUPPRESS)
    parser.add_argument("--address", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.role == "floor":
        serve_floor(args.address)
        return
    if args.role:
        if os.environ.get("MQCONF_EMULATOR"):
            from mq_conformance.emulator import install_remote

            install_remote()  # the Python client of the listener
        if args.role == "put":
            put_loop(args.messages, args.address)
        else:
            print(get_loop(args.messages, args.address))
        return

    from mq_conformance.emulator import libmqm

    library = libmqm.folder()
    mqconf = Path(sys.executable).parent / "mqconf"
    base = {k: v for k, v in os.environ.items() if not k.startswith("MQCONF_") and k != "MQSERVER"}
    best = {"C through libmqm": 0.0, "IBM's ibmmq through libmqm": 0.0, "IBM's ibmmq, Python client": 0.0}
    cpu = {label: (float("inf"), float("inf")) for label in best}  # least listener and clients us a message
    with tempfile.TemporaryDirectory() as folder:
        client = Path(folder) / "client"
        (Path(folder) / "client.c").write_text(CLIENT)
        subprocess.run([*libmqm.compiler(), "-O2", "-o", str(client), str(Path(folder) / "client.c"),
                        f"-L{library}", "-lmqm_r"], check=True)
        address = f"unix:{folder}/qm.sock"
        server = subprocess.Popen([str(mqconf), "emulator", "--listen", address, "--developer"],
                                  stdout=subprocess.PIPE, text=True)
        try:
            server.stdout.readline()
            over_libmqm = {**base, "LD_LIBRARY_PATH": str(library)}
            python_client = {**base, "MQCONF_EMULATOR": address}
            count = str(args.messages)
            python = [sys.executable, __file__, "--messages", count, "--address", address, "--role"]
            ways = {"C through libmqm": ([str(client), "put", count, address], [str(client), "get", count, address],
                                         over_libmqm),
                    "IBM's ibmmq through libmqm": ([*python, "put"], [*python, "get"], over_libmqm),
                    "IBM's ibmmq, Python client": ([*python, "put"], [*python, "get"], python_client)}
            for _round in range(args.rounds):  # the ways alternate: a shared machine slows each by turns
                for label, (put, get, env) in ways.items():
                    rate, listener_us, clients_us = _pair(put, get, env, server.pid, args.messages)
                    best[label] = max(best[label], rate)
                    cpu[label] = (min(cpu[label][0], listener_us), min(cpu[label][1], clients_us))
        finally:
            server.terminate()
            server.wait()
        floor_address = f"unix:{folder}/floor.sock"
        floor = subprocess.Popen([sys.executable, __file__, "--role", "floor", "--address", floor_address],
                                 stdout=subprocess.PIPE, text=True, env=base)
        try:
            floor.stdout.readline()
            floor_us = float("inf")
            for _round in range(args.rounds):
                floor_us = min(floor_us, _pair([str(client), "put", count, floor_address],
                                               [str(client), "get", count, floor_address], over_libmqm, floor.pid,
                                               args.messages)[1])
        finally:
            floor.terminate()
            floor.wait()
    model_us = model_cost()
    cores = os.cpu_count() or 1
    print(f"{args.messages:,} 1 KB messages, one process putting and another getting through the listener "
          f"(best of {args.rounds}; CPU of a message, a put and a get, the least of {args.rounds}; load average "
          f"{os.getloadavg()[0]:.1f} on {cores} cores):", flush=True)
    for label, rate in best.items():
        listener_us, clients_us = cpu[label]
        print(f"  {label:<30} {rate:>10,.0f} messages/s   CPU: listener {listener_us:4.0f} us + clients "
              f"{clients_us:4.0f} us   ceiling {_ceiling(listener_us, clients_us, cores):>7,.0f}/s", flush=True)
    ratio = best["C through libmqm"] / best["IBM's ibmmq, Python client"]
    print(f"the C client gets {ratio:.1f}x the Python client's rate (target: at least 3x)", flush=True)
    c_way, python_way = cpu["C through libmqm"], cpu["IBM's ibmmq, Python client"]
    print(f"the ceilings' ratio (the rates' ratio when CPU, not waiting, binds both) on {cores} cores: "
          f"{_ceiling(*c_way, cores):,.0f} / {_ceiling(*python_way, cores):,.0f} = "
          f"{_ceiling(*c_way, cores) / _ceiling(*python_way, cores):.1f}x; 3x needs the listener at most "
          f"{_needed(python_way, c_way[1], cores):.0f} us a message", flush=True)
    lowest = floor_us + model_us
    print(f"the listener's floor: {floor_us:.0f} us a message without the emulator and the model (protocol, sockets, "
          f"threads) + {model_us:.0f} us the model's own put and get = {lowest:.0f} us; at that floor the ceilings' "
          f"ratio would be {_ceiling(lowest, c_way[1], cores) / _ceiling(lowest, python_way[1], cores):.1f}x "
          f"(the rest of the C way's {c_way[0]:.0f} us, {c_way[0] - lowest:.0f}, is the emulator, and the model and the "
          f"emulator slower in the listener than in a loop: caches go cold between calls)", flush=True)


def _needed(python_way: tuple[float, float], c_clients_us: float, cores: int) -> float:
    """The listener's CPU a message at which the C way's ceiling is 3 times the Python way's, the clients' CPU as
    measured (the same listener cost both ways): the largest S with ceiling(S, C_c) >= 3 ceiling(S, C_py)."""
    _listener, python_clients = python_way
    low, high = 0.1, 1e6
    for _step in range(60):  # both ceilings fall as S grows; their ratio with it: bisect
        middle = (low + high) / 2
        if _ceiling(middle, c_clients_us, cores) >= 3 * _ceiling(middle, python_clients, cores):
            low = middle
        else:
            high = middle
    return low


if __name__ == "__main__":
    main()
