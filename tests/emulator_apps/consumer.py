"""THREADS threads, each with its own connection, get from DEV.QUEUE.2 under syncpoint (waiting up to 10 s) until
TOTAL messages have arrived between them; prints every body, one a line (run with MQCONF_EMULATOR set)."""
import sys
import threading

import ibmmq
from ibmmq import CMQC

threads, total = int(sys.argv[1]), int(sys.argv[2])
received: list[bytes] = []
lock = threading.Lock()


def consume() -> None:
    qmgr = ibmmq.connect("QM1", "DEV.APP.SVRCONN", "localhost(1414)")
    queue = ibmmq.Queue(qmgr, "DEV.QUEUE.2", CMQC.MQOO_INPUT_SHARED)
    gmo = ibmmq.GMO(Options=CMQC.MQGMO_WAIT | CMQC.MQGMO_SYNCPOINT, WaitInterval=10_000)
    while True:
        with lock:
            if len(received) >= total:
                break
        try:
            data = queue.get(None, ibmmq.MD(), gmo)
        except ibmmq.MQMIError as exc:
            if exc.reason == CMQC.MQRC_NO_MSG_AVAILABLE:
                break
            raise
        qmgr.commit()
        with lock:
            received.append(data)
    qmgr.disconnect()


workers = [threading.Thread(target=consume) for _ in range(threads)]
for worker in workers:
    worker.start()
for worker in workers:
    worker.join()
sys.stdout.write("".join(body.decode() + "\n" for body in received))
