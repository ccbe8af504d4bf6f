"""Subscribes (managed, durable, named) to a topic string, prints "subscribed", then waits up to 30 s for COUNT
publications and prints each (run with MQCONF_EMULATOR set)."""
import sys

import ibmmq
from ibmmq import CMQC

topic_string, count = sys.argv[1], int(sys.argv[2])
qmgr = ibmmq.connect("QM1", "DEV.APP.SVRCONN", "localhost(1414)", "app", "passw0rd")
sd = ibmmq.SD(Options=CMQC.MQSO_CREATE | CMQC.MQSO_MANAGED | CMQC.MQSO_DURABLE)
sd.set_vs("ObjectString", topic_string)
sd.set_vs("SubName", "CROSS.PROCESS")
subscription = ibmmq.Subscription(qmgr)
subscription.sub(sub_desc=sd)
print("subscribed", flush=True)
for _ in range(count):
    gmo = ibmmq.GMO(Options=CMQC.MQGMO_WAIT, WaitInterval=30_000, MatchOptions=CMQC.MQMO_NONE)
    print(subscription.get(None, ibmmq.MD(), gmo).decode(), flush=True)
subscription.close(sub_close_options=CMQC.MQCO_REMOVE_SUB, close_sub_queue=True)
qmgr.disconnect()
