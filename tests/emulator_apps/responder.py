"""An ibmmq responder, written as for a real queue manager: answer COUNT requests on DEV.QUEUE.1 to their
ReplyToQ, the reply's CorrelId the request's MsgId (run with MQCONF_EMULATOR set)."""
import sys

import ibmmq
from ibmmq import CMQC

count = int(sys.argv[1])
qmgr = ibmmq.connect("QM1", "DEV.APP.SVRCONN", "localhost(1414)", "app", "passw0rd")
requests = ibmmq.Queue(qmgr, "DEV.QUEUE.1", CMQC.MQOO_INPUT_SHARED)
for _ in range(count):
    md = ibmmq.MD()
    data = requests.get(None, md, ibmmq.GMO(Options=CMQC.MQGMO_WAIT | CMQC.MQGMO_SYNCPOINT, WaitInterval=30_000))
    reply = ibmmq.Queue(qmgr, md.ReplyToQ.strip(), CMQC.MQOO_OUTPUT)
    reply.put(b"answer to " + data, ibmmq.MD(MsgType=CMQC.MQMT_REPLY, CorrelId=md.MsgId),
              ibmmq.PMO(Options=CMQC.MQPMO_SYNCPOINT))
    qmgr.commit()
    reply.close()
qmgr.disconnect()
print("responder answered", count)
