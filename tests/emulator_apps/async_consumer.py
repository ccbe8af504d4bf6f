"""Registers a message consumer on DEV.QUEUE.3 (MQCB), starts the connection (MQCTL) and prints every message the
callback is given until COUNT have come; a second connection of this process puts them (run with MQCONF_EMULATOR
set: the callbacks run here, their gets go to the listener)."""
import sys
import threading

import ibmmq
from ibmmq import CMQC

count = int(sys.argv[1])
received: list[bytes] = []
done = threading.Event()


def on_message(**kwargs):
    cbc = kwargs["cbc"]
    if cbc.CallType == CMQC.MQCBCT_MSG_REMOVED:
        received.append(kwargs["msg"][:cbc.DataLength])
        if len(received) == count:
            done.set()


qmgr = ibmmq.connect("QM1", "DEV.APP.SVRCONN", "localhost(1414)")
queue = ibmmq.Queue(qmgr, "DEV.QUEUE.3", CMQC.MQOO_INPUT_AS_Q_DEF)
cbd = ibmmq.CBD()
cbd.CallbackFunction = on_message
queue.cb(operation=CMQC.MQOP_REGISTER, cbd=cbd, md=ibmmq.MD(),
         gmo=ibmmq.GMO(Options=CMQC.MQGMO_NO_SYNCPOINT | CMQC.MQGMO_WAIT, WaitInterval=CMQC.MQWI_UNLIMITED))
qmgr.ctl(CMQC.MQOP_START, ibmmq.CTLO())
sender = ibmmq.connect("QM1", "DEV.APP.SVRCONN", "localhost(1414)")
out = ibmmq.Queue(sender, "DEV.QUEUE.3", CMQC.MQOO_OUTPUT)
for n in range(count):
    out.put(f"message {n}".encode())
finished = done.wait(30)
qmgr.ctl(CMQC.MQOP_STOP, ibmmq.CTLO())
queue.close()
qmgr.disconnect()
sender.disconnect()
sys.stdout.write("".join(body.decode() + "\n" for body in received) + ("" if finished else "timed out\n"))
