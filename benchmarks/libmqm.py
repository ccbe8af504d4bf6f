"""Speed of libmqm (emulator/libmqm): 1 KB non-persistent messages put by one process and got by another through
`mqconf emulator --listen`, a fresh MQMD and MQPMO/MQGMO per call as applications write it, three ways side by
side in one run (issue 34, item 5):

- a C client through libmqm (the program below, built with the machine's C compiler);
- IBM's ibmmq with its own compiled ibmmqc through libmqm (LD_LIBRARY_PATH);
- IBM's ibmmq over the emulator's Python client of the listener (MQCONF_EMULATOR, emulator/remote.py).

It prints each one's messages per second (the getter's, from its first message to its last; best of ROUNDS) and
the C client's rate against the Python client's (target: at least 3x). Run: `python benchmarks/libmqm.py`.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

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


def _pair(put: list[str], get: list[str], env: dict[str, str]) -> float:
    """A getter and a putter, each a process of its own: the getter's rate."""
    getter = subprocess.Popen(get, env=env, stdout=subprocess.PIPE, text=True)
    putter = subprocess.run(put, env=env, capture_output=True, text=True, timeout=600, check=False)
    out, _ = getter.communicate(timeout=600)
    if putter.returncode != 0 or getter.returncode != 0:
        raise SystemExit(f"a client failed: {putter.stdout}{putter.stderr}{out}")
    return float(out.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=MESSAGES)
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    parser.add_argument("--role", choices=("put", "get"), help=argparse.SUPPRESS)
    parser.add_argument("--address", help=argparse.SUPPRESS)
    args = parser.parse_args()
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
            for _round in range(args.rounds):  # the ways alternate: a shared machine slows each by turns
                best["C through libmqm"] = max(best["C through libmqm"], _pair(
                    [str(client), "put", count, address], [str(client), "get", count, address], over_libmqm))
                best["IBM's ibmmq through libmqm"] = max(best["IBM's ibmmq through libmqm"], _pair(
                    [*python, "put"], [*python, "get"], over_libmqm))
                best["IBM's ibmmq, Python client"] = max(best["IBM's ibmmq, Python client"], _pair(
                    [*python, "put"], [*python, "get"], python_client))
        finally:
            server.terminate()
            server.wait()
    print(f"{args.messages:,} 1 KB messages, one process putting and another getting through the listener "
          f"(best of {args.rounds}):", flush=True)
    for label, rate in best.items():
        print(f"  {label:<30} {rate:>10,.0f} messages/s", flush=True)
    ratio = best["C through libmqm"] / best["IBM's ibmmq, Python client"]
    print(f"the C client gets {ratio:.1f}x the Python client's rate (target: at least 3x)", flush=True)


if __name__ == "__main__":
    main()
