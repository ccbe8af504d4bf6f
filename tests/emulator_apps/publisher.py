"""Publishes one message on each topic string given (run with MQCONF_EMULATOR set)."""
import sys

import ibmmq

qmgr = ibmmq.connect("QM1", "DEV.APP.SVRCONN", "localhost(1414)", "app", "passw0rd")
for topic_string in sys.argv[1:]:
    topic = ibmmq.Topic(qmgr, topic_string=topic_string)
    topic.pub("news of " + topic_string)
    topic.close()
qmgr.disconnect()
print("published", len(sys.argv) - 1)
