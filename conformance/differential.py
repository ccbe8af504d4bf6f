"""Differential state machines: every generated call runs on the reference model and on the implementation
under test, and their outcomes must agree (conformance/compare.py, fixtures/comparison.yaml).

The machines are part of the product: subclass :class:`DifferentialMachine` (as zarr.testing does) to add
rules for an area. A divergence fails the run with a message naming the call, and the shrunk call sequence is
written as a scenario file (``reports/divergences/<machine>.yaml``) whose expectations are the model's
outcomes: it runs as is with ``mqconf scenario`` and can be moved into fixtures/scenarios as a regression.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import yaml
from hypothesis import strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, initialize, rule

from adapters.base import Adapter, load
from adapters.reference import ReferenceAdapter
from reference.calls import Call
from reference.tables import default_spec

from .compare import Identities, compare, load_policy, symbolic

POLICY = load_policy()
QUEUE = {"name": "Q1"}
HANDLE_OPTIONS = ["MQOO_OUTPUT", "MQOO_INPUT_SHARED", "MQOO_BROWSE"]


# libyaml's safe dumper when it is there, the pure one otherwise: the same text, several times faster, and a
# failing machine writes its sequence at every failing example it tries while shrinking.
_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


class Divergence(AssertionError):
    """The implementation answered a call differently from the model. ``mq_clauses`` are the clauses the model
    applied at that call: the rules the difference blames (the suite's pytest plugin records them)."""

    def __init__(self, message: str, clauses: Any = ()):
        super().__init__(message)
        self.mq_clauses = list(clauses)


def divergence_dir() -> Path:
    return Path(os.environ.get("MQCONF_REPORTS", "reports")) / "divergences"


class DifferentialMachine(RuleBasedStateMachine):
    """Runs each call on the model (left) and the adapter under test (right) and compares the outcomes."""

    adapter_name = "reference"
    shared_adapter: Adapter | None = None  # one instance every example resets and reuses (see machine_for)
    area = "core"
    policy = POLICY
    ids = Bundle("ids")

    @initialize()
    def start(self) -> None:
        self.model: Adapter = ReferenceAdapter()
        self.impl: Adapter = self.shared_adapter or load(self.adapter_name)
        self.model.reset()
        self.impl.reset()
        self.identities = Identities()
        self.history: list[dict[str, Any]] = []
        self.run(Call("define_queue", dict(QUEUE)), record=False)
        self.run(Call("open", {"handle": "h", "queue": "Q1", "Options": HANDLE_OPTIONS}))
        self.set_up_area()

    def set_up_area(self) -> None:
        """Calls a subclass needs before its rules run (opening more handles, say)."""

    def teardown(self) -> None:
        if hasattr(self, "impl") and self.impl is not self.shared_adapter:
            self.impl.close()

    def _side(self, value: Any, side: str) -> Any:
        if isinstance(value, str) and value.startswith("$id"):
            return {"hex": self.identities.value(side, value)}
        if isinstance(value, dict):
            return {k: self._side(v, side) for k, v in value.items()}
        if isinstance(value, list):
            return [self._side(v, side) for v in value]
        return value

    def run(self, call: Call, record: bool = True) -> list[str]:
        """Run ``call`` on both sides; fail with a scenario file if they disagree. Returns new id symbols."""
        left = self.model.execute(Call(call.op, self._side(dict(call.args), "left")))
        right = self.impl.execute(Call(call.op, self._side(dict(call.args), "right")))
        before = self.identities.count
        problems = compare(left, right, self.identities, self.policy)
        self.last = left
        self.history.append({call.op: dict(call.args),
                             "expect": symbolic(left, self.identities, "left", self.policy)})
        if problems:
            path = self.write_scenario()
            raise Divergence(f"{self.impl.name} differs from the model on {call.op} {dict(call.args)}: "
                             + "; ".join(problems) + f"\n  minimal sequence written to {path}", left.clauses)
        return [f"$id{n}" for n in range(before + 1, self.identities.count + 1)]

    def write_scenario(self) -> Path:
        """The call sequence so far as a scenario file, with the model's outcomes as expectations."""
        directory = divergence_dir()
        directory.mkdir(parents=True, exist_ok=True)
        name = f"divergence-{type(self).__name__.lower()}"
        document = {
            "id": name,
            "title": f"Sequence on which {self.impl.name} differed from the reference model",
            "clauses": sorted({c for c in self._clauses()}) or ["get.order.priority-then-physical"],
            "capabilities": [self.area],
            "setup": {"queues": [dict(QUEUE)]},
            "steps": self.history,
        }
        path = directory / f"{name}.yaml"
        path.write_text(yaml.dump(document, Dumper=_DUMPER, sort_keys=False, width=120))
        return path

    def _clauses(self) -> list[str]:
        return []


FLAG_SETS = st.sampled_from([
    [], ["MQMF_MSG_IN_GROUP"], ["MQMF_LAST_MSG_IN_GROUP"], ["MQMF_SEGMENT"], ["MQMF_LAST_SEGMENT"],
    ["MQMF_MSG_IN_GROUP", "MQMF_SEGMENT"], ["MQMF_MSG_IN_GROUP", "MQMF_LAST_SEGMENT"],
    ["MQMF_LAST_MSG_IN_GROUP", "MQMF_SEGMENT"], ["MQMF_LAST_MSG_IN_GROUP", "MQMF_LAST_SEGMENT"],
    ["MQMF_SEGMENTATION_ALLOWED"],
])
# Get options drawn from those the get table and the option rules speak of.
GET_OPTIONS = st.lists(st.sampled_from(["MQGMO_LOGICAL_ORDER", "MQGMO_SYNCPOINT", "MQGMO_COMPLETE_MSG",
                                        "MQGMO_ALL_MSGS_AVAILABLE", "MQGMO_ALL_SEGMENTS_AVAILABLE",
                                        "MQGMO_ACCEPT_TRUNCATED_MSG"]), max_size=3, unique=True)
BROWSE_OPTIONS = st.sampled_from([["MQGMO_BROWSE_FIRST"], ["MQGMO_BROWSE_NEXT"],
                                  ["MQGMO_BROWSE_FIRST", "MQGMO_LOGICAL_ORDER"],
                                  ["MQGMO_BROWSE_NEXT", "MQGMO_LOGICAL_ORDER"], ["MQGMO_BROWSE_MSG_UNDER_CURSOR"]])


class GroupsMachine(DifferentialMachine):
    """Puts and gets of groups and segments, in logical and physical order, with units of work."""

    area = "groups"

    @rule(target=DifferentialMachine.ids, flags=FLAG_SETS, logical=st.booleans(), syncpoint=st.booleans(),
          persistent=st.booleans(), data=st.sampled_from(["", "a", "bcd", "efghijklmnopqrstuvwxyz0123"]))
    def put(self, flags, logical, syncpoint, persistent, data):
        options = (["MQPMO_LOGICAL_ORDER"] if logical else []) + (["MQPMO_SYNCPOINT"] if syncpoint else [])
        md = {"MsgFlags": flags, "Persistence": "MQPER_PERSISTENT" if persistent else "MQPER_NOT_PERSISTENT"}
        new = self.run(Call("put", {"handle": "h", "PMO": {"Options": options}, "MD": md, "data": data}))
        return new[-1] if new else "MQGI_NONE"

    @rule(target=DifferentialMachine.ids, group=DifferentialMachine.ids, seq=st.integers(1, 3),
          offset=st.sampled_from([0, 1, 3]), flags=FLAG_SETS)
    def put_explicit(self, group, seq, offset, flags):
        md = {"GroupId": group, "MsgSeqNumber": seq, "Offset": offset, "MsgFlags": flags}
        new = self.run(Call("put", {"handle": "h", "MD": md, "data": "x"}))
        return new[-1] if new else "MQGI_NONE"

    @rule(options=GET_OPTIONS, buffer=st.sampled_from([None, None, 0, 2]))
    def get(self, options, buffer):
        args: dict[str, Any] = {"handle": "h", "GMO": {"Options": options, "MatchOptions": []}}
        if buffer is not None:
            args["BufferLength"] = buffer
        self.run(Call("get", args))

    @rule(group=DifferentialMachine.ids)
    def get_by_group(self, group):
        self.run(Call("get", {"handle": "h", "MD": {"GroupId": group},
                              "GMO": {"MatchOptions": ["MQMO_MATCH_GROUP_ID"]}}))

    @rule(options=BROWSE_OPTIONS)
    def browse(self, options):
        self.run(Call("get", {"handle": "h", "GMO": {"Options": options, "MatchOptions": []}}))

    @rule(commit=st.booleans())
    def end_unit_of_work(self, commit):
        self.run(Call("commit" if commit else "backout", {}))

    @rule()
    def reopen(self):
        self.run(Call("close", {"handle": "h"}))
        self.run(Call("open", {"handle": "h", "queue": "Q1", "Options": HANDLE_OPTIONS}))


def table_inputs_covered() -> set[str]:
    """The Table 1 inputs the put rule's strategies can set (a check that the machine speaks the table's terms)."""
    return set(default_spec()["put.logical-order.table1"].inputs)


def machine_for(base: type[DifferentialMachine], adapter_name: str,
                adapter: Adapter | None = None) -> type[DifferentialMachine]:
    """A subclass of ``base`` that tests ``adapter_name``. With ``adapter`` (an instance of it), every example
    resets and reuses that instance and none closes it: out of process that is one server for the whole run
    instead of a new process per example (most of a machine's time over JSON lines)."""
    return type(base.__name__, (base,), {"adapter_name": adapter_name, "shared_adapter": adapter})


class BrowseMarkMachine(DifferentialMachine):
    """Co-operating browsers, handle marks, MsgToken hand-over and the mark interval on the clock.

    Only a MsgToken a browse returned is handed to ``consume`` (the ``tokens`` bundle): a 24-byte MsgId in the
    16-byte GMO.MsgToken is not a call MQ can be given, and each side would refuse it in its own words."""

    area = "browse-mark"
    tokens = Bundle("tokens")

    def set_up_area(self) -> None:
        for name in ("d1", "d2"):
            self.run(Call("open", {"handle": name, "queue": "Q1", "Options": ["MQOO_BROWSE", "MQOO_CO_OP"]}))

    @rule(data=st.sampled_from(["a", "b", "c"]))
    def put(self, data):
        self.run(Call("put", {"handle": "h", "data": data}))

    @rule(target=tokens, browser=st.sampled_from(["d1", "d2"]),
          options=st.sampled_from([["MQGMO_BROWSE_CO_OP"], ["MQGMO_BROWSE_HANDLE"],
                                   ["MQGMO_BROWSE_NEXT", "MQGMO_UNMARKED_BROWSE_MSG", "MQGMO_MARK_BROWSE_CO_OP"],
                                   ["MQGMO_BROWSE_MSG_UNDER_CURSOR", "MQGMO_UNMARK_BROWSE_CO_OP"],
                                   ["MQGMO_BROWSE_MSG_UNDER_CURSOR", "MQGMO_UNMARK_BROWSE_HANDLE"]]))
    def browse(self, browser, options):
        self.run(Call("get", {"handle": browser, "GMO": {"Options": options, "MatchOptions": []}}))
        token = (self.last.GMO or {}).get("MsgToken")
        return self.identities.symbol("left", token) or "MQMTOK_NONE"

    @rule(token=tokens, syncpoint=st.booleans())
    def consume(self, token, syncpoint):
        if not token.startswith("$id"):
            return
        self.run(Call("get", {"handle": "h", "GMO": {"Options": ["MQGMO_SYNCPOINT"] if syncpoint else [],
                                                     "MatchOptions": ["MQMO_MATCH_MSG_TOKEN"], "MsgToken": token}}))

    @rule(commit=st.booleans())
    def end_unit_of_work(self, commit):
        self.run(Call("commit" if commit else "backout", {}))

    @rule(milliseconds=st.sampled_from([1000, 6000]))
    def time_passes(self, milliseconds):
        self.run(Call("advance_clock", {"milliseconds": milliseconds}))

    @rule(browser=st.sampled_from(["d1", "d2"]))
    def reopen_browser(self, browser):
        self.run(Call("close", {"handle": browser}))
        self.run(Call("open", {"handle": browser, "queue": "Q1", "Options": ["MQOO_BROWSE", "MQOO_CO_OP"]}))


CLUSTER_POLICY = {**POLICY, "PMO": {"ResolvedQMgrName": "exact"}}


class ClusterMachine(DifferentialMachine):
    """Puts to a queue with instances on QM2 and QM4 from QM1, channel states changing, deliveries, and the
    depths on every queue manager. Channel priorities always differ, so the documents fix every choice and
    the chosen queue manager is compared exactly (with equal priorities the products may choose either)."""

    area = "cluster"
    policy = CLUSTER_POLICY

    def set_up_area(self) -> None:
        for name in ("QM2", "QM4"):
            self.run(Call("define_qmgr", {"name": name}))
            self.run(Call("define_queue", {"name": "Q3", "qmgr": name, "CLUSTER": "DEMO"}))
            self.run(Call("connect", {"connection": f"on-{name}", "qmgr": name}))
            self.run(Call("open", {"handle": f"q3-{name}", "connection": f"on-{name}", "queue": "Q3",
                                   "Options": ["MQOO_INQUIRE"]}))
        self.run(Call("define_channel", {"name": "TO.QM2", "CLWLPRTY": 5}))
        self.run(Call("define_channel", {"name": "TO.QM4", "CLWLPRTY": 3}))
        for handle, bind in (("nf", "MQOO_BIND_NOT_FIXED"), ("oo", "MQOO_BIND_ON_OPEN")):
            self.run(Call("open", {"handle": handle, "queue": "Q3", "Options": ["MQOO_OUTPUT", bind]}))
        self.run(Call("open", {"handle": "xmit", "queue": "SYSTEM.CLUSTER.TRANSMIT.QUEUE",
                               "Options": ["MQOO_INQUIRE"]}))

    @rule(handle=st.sampled_from(["nf", "oo"]), data=st.sampled_from(["a", "b"]))
    def put(self, handle, data):
        self.run(Call("put", {"handle": handle, "data": data}))

    @rule(channel=st.sampled_from(["TO.QM2", "TO.QM4"]),
          state=st.sampled_from(["MQCHS_RUNNING", "MQCHS_STOPPING", "MQCHS_RETRYING", "MQCHS_STOPPED",
                                 "MQCHS_INACTIVE"]))
    def set_channel(self, channel, state):
        self.run(Call("set_channel", {"name": channel, "state": state}))

    @rule(channel=st.sampled_from(["TO.QM2", "TO.QM4"]), high=st.booleans())
    def change_priority(self, channel, high):
        # QM2 takes 1 or 5, QM4 3 or 7: never equal, so no tie is left to the product's own choice.
        value = {"TO.QM2": (1, 5), "TO.QM4": (3, 7)}[channel][high]
        self.run(Call("define_channel", {"name": channel, "CLWLPRTY": value}))

    @rule()
    def deliver(self):
        self.run(Call("deliver", {}))

    @rule()
    def depths(self):
        for handle in ("q3-QM2", "q3-QM4", "xmit"):
            self.run(Call("inquire", {"handle": handle, "Selectors": ["MQIA_CURRENT_Q_DEPTH"]}))
