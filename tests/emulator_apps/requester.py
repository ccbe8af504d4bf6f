"""An ibmmq requester: put COUNT requests to DEV.QUEUE.1 with a dynamic reply queue from DEV.APP.MODEL.QUEUE and
wait for each reply by CorrelId; prints each answer and who put it (run with MQCONF_EMULATOR set)."""
import sys

import ibmmq
from ibmmq import CMQC

count = int(sys.argv[1])
qmgr = ibmmq.connect("QM1", "DEV.APP.SVRCONN", "localhost(1414)", "app", "passw0rd")
od = ibmmq.OD(ObjectName=b"DEV.APP.MODEL.QUEUE", DynamicQName=b"APP.REPLIES.*")
replies = ibmmq.Queue(qmgr, od, CMQC.MQOO_INPUT_EXCLUSIVE)
reply_name = od.ObjectName.strip()
requests = ibmmq.Queue(qmgr, "DEV.QUEUE.1", CMQC.MQOO_OUTPUT)
for index in range(count):
    md = ibmmq.MD(MsgType=CMQC.MQMT_REQUEST, ReplyToQ=reply_name)
    requests.put(b"request %d" % index, md)
    answer = ibmmq.MD(CorrelId=md.MsgId)
    gmo = ibmmq.GMO(Options=CMQC.MQGMO_WAIT, WaitInterval=30_000, MatchOptions=CMQC.MQMO_MATCH_CORREL_ID)
    data = replies.get(None, answer, gmo)
    print(data.decode(), answer.UserIdentifier.decode().strip(), answer.PutDate.decode())
qmgr.disconnect()
