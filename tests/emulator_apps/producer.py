"""THREADS threads, each with its own connection, put COUNT messages each to DEV.QUEUE.2 (run with MQCONF_EMULATOR
set); every message's body names its process, thread and number."""
import os
import sys
import threading

import ibmmq
from ibmmq import CMQC

threads, count = int(sys.argv[1]), int(sys.argv[2])


def produce(number: int) -> None:
    qmgr = ibmmq.connect("QM1", "DEV.APP.SVRCONN", "localhost(1414)")
    queue = ibmmq.Queue(qmgr, "DEV.QUEUE.2", CMQC.MQOO_OUTPUT)
    for index in range(count):
        queue.put(b"%d-%d-%d" % (os.getpid(), number, index))
    qmgr.disconnect()


workers = [threading.Thread(target=produce, args=(n,)) for n in range(threads)]
for worker in workers:
    worker.start()
for worker in workers:
    worker.join()
print("produced", threads * count)
