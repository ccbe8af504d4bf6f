"""Table-driven tests of fixtures/tables/cluster-workload.yaml, the order of the workload algorithm's steps.

Each row has a witness: a small cluster and a put whose destination that row decides (``REMOVAL``), and each
pair of neighbouring rows has a witness whose destination depends on which of the two comes first (``ORDER``).
The witnesses run against the adapter under test with the answers the documents give. The suite's own tests
(tests/test_cluster_workload_witnesses.py) run them against the model with the table changed - a row removed, or
moved to any other place - where at least one witness must then give another answer. So a step that is dropped
or reordered, in the table or in an implementation, is caught.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest

from mq_conformance.adapters.reference import ReferenceAdapter
from mq_conformance.conformance.difference import Difference, error_answer, field_problem
from mq_conformance.reference.calls import Call
from mq_conformance.reference.tables import default_spec

TABLE = default_spec()["cluster.workload"]
ROW_IDS = [row.id for row in TABLE.rows]
NOT_FIXED = ["MQOO_OUTPUT", "MQOO_BIND_NOT_FIXED"]


@dataclass(frozen=True)
class Witness:
    """Calls that end in a put (or a delivery and a depth), and the answer the documents give.

    ``observe`` is "put": the answer is the last put's ResolvedQMgrName, or its Reason when it failed; or
    "depth": the answer is the depth the last inquire returned (as text).
    """

    name: str
    calls: tuple[Call, ...]
    expected: str
    observe: str = "put"


def cluster(queues=({"qmgr": "QM2"}, {"qmgr": "QM4"}), channels=(), qmgrs=None) -> list[Call]:
    """Define QM1, QM2 and QM4 (attributes from ``qmgrs``), ``channels`` and instances of Q3."""
    qmgrs = qmgrs or {}
    calls = [Call("define_qmgr", {"name": name, **qmgrs.get(name, {})}) for name in ("QM1", "QM2", "QM4")]
    calls += [Call("define_channel", dict(c)) for c in channels]
    calls += [Call("define_queue", {"name": "Q3", "CLUSTER": "DEMO", **q}) for q in queues]
    return calls


def put(connection: str = "default") -> list[Call]:
    return [Call("open", {"handle": f"q3-{connection}", "connection": connection, "queue": "Q3", "Options": NOT_FIXED}),
            Call("put", {"handle": f"q3-{connection}", "data": "witness"})]


def on_qm2() -> list[Call]:
    return [Call("connect", {"connection": "app", "qmgr": "QM2"})]


def route_used(channel: str) -> list[Call]:
    """Deliver only what waits for ``channel``, then the depth of QM2's Q3 (1: the message took that route)."""
    return [Call("deliver", {"channel": channel}), Call("connect", {"connection": "qm2", "qmgr": "QM2"}),
            Call("open", {"handle": "q3-qm2", "connection": "qm2", "queue": "Q3", "Options": ["MQOO_INQUIRE"]}),
            Call("inquire", {"handle": "q3-qm2", "Selectors": ["MQIA_CURRENT_Q_DEPTH"]})]


def state(channel: str, value: str) -> Call:
    return Call("set_channel", {"name": channel, "state": value})


QM2_ONLY = ({"qmgr": "QM2"},)
FAST = {"name": "TO.QM2.FAST", "qmgr": "QM2"}

# Witnesses whose answer the given row decides: without the row the model falls back to a choice the row
# would have eliminated (its tie-break prefers QM2, by channel name, so the preferred destination here is QM4).
REMOVAL: dict[str, Witness] = {w.name: w for w in [
    Witness("cluster.workload.channel-rank",
            tuple(cluster(channels=[{"name": "TO.QM4", "CLWLRANK": 3}]) + put()), "QM4"),
    Witness("cluster.workload.queue-rank",
            tuple(cluster(queues=[{"qmgr": "QM2"}, {"qmgr": "QM4", "CLWLRANK": 4}]) + put()), "QM4"),
    Witness("cluster.workload.put-disabled",
            tuple(cluster(queues=[{"qmgr": "QM2", "InhibitPut": "MQQA_PUT_INHIBITED"}, {"qmgr": "QM4"}]) + put()),
            "QM4"),
    Witness("cluster.workload.local-instance",
            tuple(cluster() + [Call("connect", {"connection": "app", "qmgr": "QM4"})] + put("app")), "QM4"),
    Witness("cluster.workload.suspended",
            tuple(cluster() + [Call("suspend_qmgr", {"qmgr": "QM2"})] + put()), "QM4"),
    Witness("cluster.workload.channel-state",
            tuple(cluster() + [state("TO.QM2", "MQCHS_STOPPED")] + put()), "QM4"),
    Witness("cluster.workload.netprty",
            tuple(cluster(queues=QM2_ONLY, channels=[{**FAST, "NETPRTY": 5}]) + put() + route_used("TO.QM2.FAST")),
            "1", "depth"),
    Witness("cluster.workload.channel-priority",
            tuple(cluster(channels=[{"name": "TO.QM4", "CLWLPRTY": 1}]) + put()), "QM4"),
    Witness("cluster.workload.queue-priority",
            tuple(cluster(queues=[{"qmgr": "QM2"}, {"qmgr": "QM4", "CLWLPRTY": 1}]) + put()), "QM4"),
    Witness("cluster.workload.most-recently-used",
            tuple(cluster(qmgrs={"QM1": {"CLWLMRUC": 1}}) + [state("TO.QM2", "MQCHS_STOPPED")] + put()
                  + [state("TO.QM2", "MQCHS_RUNNING"), Call("put", {"handle": "q3-default", "data": "again"})]),
            "QM4"),
    Witness("cluster.workload.least-recently-used",
            tuple(cluster() + [state("TO.QM4", "MQCHS_STOPPED")] + put()
                  + [state("TO.QM4", "MQCHS_RUNNING"), Call("put", {"handle": "q3-default", "data": "again"})]),
            "QM4"),
]}

# Witnesses whose answer depends on the order of two neighbouring rows (the first row's preference wins).
ORDER: dict[tuple[str, str], Witness] = {(a, b): replace(w, name=f"{a} before {b}") for (a, b), w in {
    ("cluster.workload.channel-rank", "cluster.workload.queue-rank"): Witness("", tuple(
        cluster(channels=[{"name": "TO.QM2", "CLWLRANK": 1}], queues=[{"qmgr": "QM2"}, {"qmgr": "QM4", "CLWLRANK": 9}])
        + put()), "QM2"),
    ("cluster.workload.queue-rank", "cluster.workload.put-disabled"): Witness("", tuple(
        cluster(queues=[{"qmgr": "QM2", "CLWLRANK": 5, "InhibitPut": "MQQA_PUT_INHIBITED"}, {"qmgr": "QM4"}])
        + put()), "MQRC_CLUSTER_PUT_INHIBITED"),
    ("cluster.workload.put-disabled", "cluster.workload.local-instance"): Witness("", tuple(
        cluster(queues=[{"qmgr": "QM2", "InhibitPut": "MQQA_PUT_INHIBITED"}, {"qmgr": "QM4"}]) + on_qm2()
        + put("app")), "QM4"),
    ("cluster.workload.local-instance", "cluster.workload.suspended"): Witness("", tuple(
        cluster() + [Call("suspend_qmgr", {"qmgr": "QM2"})] + on_qm2() + put("app")), "QM2"),
    ("cluster.workload.suspended", "cluster.workload.channel-state"): Witness("", tuple(
        cluster() + [Call("suspend_qmgr", {"qmgr": "QM2"}), state("TO.QM4", "MQCHS_RETRYING")] + put()), "QM4"),
    ("cluster.workload.channel-state", "cluster.workload.netprty"): Witness("", tuple(
        cluster(queues=QM2_ONLY, channels=[{**FAST, "NETPRTY": 5, "state": "MQCHS_STOPPED"}]) + put()
        + route_used("TO.QM2")), "1", "depth"),
    ("cluster.workload.netprty", "cluster.workload.channel-priority"): Witness("", tuple(
        cluster(queues=QM2_ONLY, channels=[{"name": "TO.QM2", "CLWLPRTY": 5}, {**FAST, "NETPRTY": 5}]) + put()
        + route_used("TO.QM2.FAST")), "1", "depth"),
    ("cluster.workload.channel-priority", "cluster.workload.queue-priority"): Witness("", tuple(
        cluster(channels=[{"name": "TO.QM4", "CLWLPRTY": 1}], queues=[{"qmgr": "QM2", "CLWLPRTY": 9}, {"qmgr": "QM4"}])
        + put()), "QM4"),
    ("cluster.workload.queue-priority", "cluster.workload.most-recently-used"): Witness("", tuple(
        cluster(qmgrs={"QM1": {"CLWLMRUC": 1}}) + [state("TO.QM4", "MQCHS_STOPPED")] + put()
        + [state("TO.QM4", "MQCHS_RUNNING"), Call("alter_queue", {"qmgr": "QM4", "name": "Q3", "CLWLPRTY": 5}),
           Call("put", {"handle": "q3-default", "data": "again"})]), "QM4"),
    ("cluster.workload.most-recently-used", "cluster.workload.least-recently-used"): Witness("", tuple(
        cluster(qmgrs={"QM1": {"CLWLMRUC": 1}}) + [state("TO.QM4", "MQCHS_STOPPED")] + put()
        + [state("TO.QM4", "MQCHS_RUNNING"), Call("put", {"handle": "q3-default", "data": "again"})]), "QM2"),
}.items()}

WITNESSES = list(REMOVAL.values()) + list(ORDER.values())


def answer(adapter, witness: Witness) -> str:
    """Run ``witness`` on a freshly reset ``adapter`` and return what it observes."""
    adapter.reset()
    outcomes = []
    for call in witness.calls:
        outcome = adapter.execute(call)
        if outcome.error is not None:
            raise Difference(call.to_json(), [error_answer(outcome.error)],
                             _source(witness), where=f"witness {witness.name}")
        outcomes.append((call, outcome))
    if witness.observe == "depth":
        return str(outcomes[-1][1].attributes["MQIA_CURRENT_Q_DEPTH"])
    last = [o for c, o in outcomes if c.op == "put"][-1]
    return last.Reason if last.CompCode == "MQCC_FAILED" else last.PMO["ResolvedQMgrName"]


# -- the adapter under test gives the documents' answers -----------------------------------------------------

# Each witness pins the row (or the two neighbouring rows) it is the witness of.
WITNESS_PARAMS = ([pytest.param(w, id=w.name, marks=pytest.mark.clause(row)) for row, w in REMOVAL.items()]
                  + [pytest.param(w, id=w.name, marks=pytest.mark.clause(*rows)) for rows, w in ORDER.items()])


@pytest.mark.capability("cluster")
@pytest.mark.parametrize("witness", WITNESS_PARAMS)
def test_witness_gives_the_answer_of_the_documented_order(adapter, witness):
    got = answer(adapter, witness)
    if got != witness.expected:
        last = [c for c in witness.calls if c.op == ("put" if witness.observe == "put" else "inquire")][-1]
        what = ("PMO.ResolvedQMgrName (or the Reason of a failed put)" if witness.observe == "put"
                else "attributes.MQIA_CURRENT_Q_DEPTH")
        raise Difference(last.to_json(), [field_problem(what, witness.expected, got)], _source(witness),
                         where=f"witness {witness.name}, the last of its {len(witness.calls)} calls")


def _source(witness: Witness) -> str:
    return f"the documents: table {TABLE.id} (fixtures/tables/), the order of its rows (witness {witness.name})"
