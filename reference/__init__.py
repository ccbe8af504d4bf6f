"""The executable reference model of IBM MQ's documented behaviour.

Pure Python with no I/O beyond reading the suite's own tables: a :class:`QueueManager` is a value with one
method per MQI verb, and every result names the clauses (fixtures/clauses.yaml) that decided it.
"""

from .errors import NotModelled
from .qmgr import QueueManager
from .queue import QueueDefinition
from .result import Result
from .structures import MQGMO, MQMD, MQOD, MQPMO
from .tables import Spec, default_spec

__all__ = ["MQGMO", "MQMD", "MQOD", "MQPMO", "NotModelled", "QueueDefinition", "QueueManager", "Result", "Spec",
           "default_spec"]
