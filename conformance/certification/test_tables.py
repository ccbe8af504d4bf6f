"""Table-driven tests: every row of every table in fixtures/tables, checked against the adapter under test.

The expected values are read from the rows, so these tests certify any implementation against the documents'
tables. (The model reads the same rows; the scenarios under fixtures/scenarios hold concrete values, so a row
changed on disk is caught there, and a row changed in memory - a table mutant - is caught here.)
"""

from __future__ import annotations

import itertools

import pytest

from mq_conformance.adapters.capabilities import needed_by
from mq_conformance.reference.calls import Outcome
from mq_conformance.reference.constants import VALUES
from mq_conformance.reference.options import first_broken
from mq_conformance.reference.tables import EITHER, default_spec
from mq_conformance.conformance.certification.support import Session
from mq_conformance.conformance.difference import Difference, field_problem

SPEC = default_spec()
TABLE1 = SPEC["put.logical-order.table1"]
TABLE2 = SPEC["put.close-outcome.table2"]
CONSISTENCY = SPEC["put.group-consistency"]
NONE_HEX = "MQGI_NONE"
FIELD_GROUP = "FIELD-GROUP"
FIELD_SEQ, FIELD_OFFSET = 7, 100
# Every test of the logical-order tables sets up both groups and segments (_establish), so needs both.
LOGICAL = pytest.mark.capability("groups", "segmentation")
SETUP_DATA = "12345"  # the previous segment's length is 5
PROBE_ID = "TABLE1-PROBE"  # the MsgId of the put a table-1 test checks


def _row_source(table, row) -> str:
    """Where a table test's expectation comes from: the table and its row."""
    return f"the documents: table {table.id} (fixtures/tables/), row {row.id}"


def _open(session: Session, options=("MQOO_OUTPUT", "MQOO_INPUT_SHARED")) -> None:
    session.ok("define_queue", name="Q1")
    session.ok("open", handle="h", queue="Q1", Options=list(options))


def _flags(in_group: bool, segment: bool, segmentation_allowed: bool = False) -> list[str]:
    flags = []
    if in_group:
        flags.append("MQMF_MSG_IN_GROUP")
    if segment:
        flags.append("MQMF_SEGMENT")
    if segmentation_allowed:
        flags.append("MQMF_SEGMENTATION_ALLOWED")
    return flags


def _establish(session: Session, current_group: bool, current_logical_message: bool, logical: bool = True) -> dict:
    """Leave the handle with the given group state, and with previous values unlike the defaults: a finished
    group first (so "previous" is never 1 or 0 by accident), then two puts that open the state asked for.
    Returns the last put's MD outcome ({} when nothing was put)."""
    lo = {"Options": ["MQPMO_LOGICAL_ORDER"]}
    for flags in (["MQMF_MSG_IN_GROUP"], ["MQMF_LAST_MSG_IN_GROUP", "MQMF_SEGMENT"],
                  ["MQMF_LAST_MSG_IN_GROUP", "MQMF_LAST_SEGMENT"]):
        last = session.ok("put", handle="h", PMO=lo, MD={"MsgFlags": flags}, data=SETUP_DATA).MD
    if not (current_group or current_logical_message):
        return last  # no group or logical message open; previous = seq 2, offset 5 of a finished group
    pmo = lo if logical else {"Options": []}
    for number in (1, 2):
        md = {"MsgFlags": _flags(current_group, current_logical_message)}
        if not logical:  # without logical order the fields say where the message goes
            md.update(GroupId="GROUP-OPEN", MsgSeqNumber=number if current_group else 1,
                      Offset=(number - 1) * len(SETUP_DATA) if current_logical_message else 0)
        last = session.ok("put", handle="h", PMO=pmo, MD=md, data=SETUP_DATA).MD
    return last


def _concrete(row) -> list[dict]:
    names = list(TABLE1.inputs)
    choices = [[True, False] if row.when.get(n, EITHER) == EITHER else [row.when[n]] for n in names]
    return [dict(zip(names, combo)) for combo in itertools.product(*choices)]


TABLE1_CASES = [
    pytest.param(row, facts, field_group, id=f"{row.id}-{i}-{'none' if field_group == NONE_HEX else 'field'}",
                 marks=[pytest.mark.clause(row.id), LOGICAL])
    for row in TABLE1.rows
    for i, facts in enumerate(_concrete(row))
    for field_group in (NONE_HEX, FIELD_GROUP)  # a GroupId in the field must not matter where the row ignores it
]


@pytest.mark.parametrize(("row", "facts", "field_group"), TABLE1_CASES)
def test_put_uses_the_group_id_sequence_and_offset_of_its_table1_row(adapter, row, facts, field_group):
    session = Session(adapter, _row_source(TABLE1, row))
    _open(session)
    previous = _establish(session, facts["current_group"], facts["current_logical_message"])
    pmo = {"Options": ["MQPMO_LOGICAL_ORDER"] if facts["logical_order"] else []}
    md = {"MsgFlags": _flags(facts["in_group"], facts["segment"], facts["segmentation_allowed"]),
          "GroupId": field_group, "MsgSeqNumber": FIELD_SEQ, "Offset": FIELD_OFFSET, "MsgId": PROBE_ID}
    outcome = session("put", handle="h", PMO=pmo, MD=md, data="abc")
    probe = session.last_call
    if outcome.CompCode not in ("MQCC_OK", "MQCC_WARNING"):
        raise Difference(probe, [field_problem("CompCode", "MQCC_OK or MQCC_WARNING", outcome.CompCode),
                                 field_problem("Reason", "MQRC_NONE or a warning", outcome.Reason)],
                         session.expected_from, [row.id])
    put_md, got = outcome.MD, None
    if put_md is None and outcome.CompCode == "MQCC_WARNING":
        # IBM's ibmmq (and pymqi) return no MQMD from a put that warns: the rule is then checked on the fields
        # the message was stored with, which are the ones the put returns
        got = session.ok("get", handle="h", MD={"MsgId": PROBE_ID}, GMO={"MatchOptions": ["MQMO_MATCH_MSG_ID"]})
        put_md = got.MD
    group_id, seq, offset = put_md["GroupId"], put_md["MsgSeqNumber"], put_md["Offset"]

    rule = row.then["GroupId"]
    field_hex = FIELD_GROUP.encode().ljust(24, b"\0").hex()
    if rule == "MQGI_NONE":
        session.expect(probe, **{"MD.GroupId": (NONE_HEX, group_id)})
    elif rule == "previous":
        session.expect(probe, **{"MD.GroupId": (previous["GroupId"], group_id)})
    elif rule == "new-if-none-else-field" and field_group != NONE_HEX:
        session.expect(probe, **{"MD.GroupId": (field_hex, group_id)})
    elif group_id in (NONE_HEX, previous.get("GroupId"), field_hex):  # a new identifier was due
        raise Difference(probe, [field_problem("MD.GroupId", "a new identifier (not MQGI_NONE, the previous put's "
                                               "or the field's)", group_id)], session.expected_from, [row.id])
    expected_seq = {"one": 1, "previous-plus-one": previous.get("MsgSeqNumber", 0) + 1,
                    "previous": previous.get("MsgSeqNumber"), "field": FIELD_SEQ}[row.then["MsgSeqNumber"]]
    expected_offset = {"zero": 0, "previous-end": previous.get("Offset", 0) + len(SETUP_DATA),
                       "field": FIELD_OFFSET}[row.then["Offset"]]
    session.expect(probe, **{"MD.MsgSeqNumber": (expected_seq, seq), "MD.Offset": (expected_offset, offset)})

    # The stored copy carries the same values.
    if got is None:
        got = session.ok("get", handle="h", MD={"MsgId": {"hex": outcome.MD["MsgId"]}},
                         GMO={"MatchOptions": ["MQMO_MATCH_MSG_ID"]})
    session.expect(**{"MD.GroupId": (group_id, got.MD.get("GroupId")), "MD.Offset": (offset, got.MD.get("Offset")),
                      "MD.MsgSeqNumber": (seq, got.MD.get("MsgSeqNumber"))})


# -- Table 2 -------------------------------------------------------------------------------------------------

CALLS = {
    "MQPUT with MQPMO_LOGICAL_ORDER": lambda s: s("put", handle="h", PMO={"Options": ["MQPMO_LOGICAL_ORDER"]}, data="x"),
    "MQPUT without MQPMO_LOGICAL_ORDER": lambda s: s("put", handle="h", data="x"),
    "MQCLOSE": lambda s: s("close", handle="h"),
}


def _rows(table) -> list:
    """A table's rows as test parameters, each carrying its clause id and the capabilities its test needs (the
    logical-order ones, and units-of-work for a row about a unit of work)."""
    return [pytest.param(row, id=row.id, marks=[pytest.mark.clause(row.id), LOGICAL]
                         + ([pytest.mark.capability("units-of-work")] if ".uow-" in row.id else []))
            for row in table.rows]


@pytest.mark.parametrize("row", _rows(TABLE2))
def test_call_inconsistent_with_an_open_group_completes_as_table2_says(adapter, row):
    session = Session(adapter, _row_source(TABLE2, row))
    _open(session)
    _establish(session, current_group=True, current_logical_message=False, logical=row.when["previous_logical_order"])
    outcome = CALLS[row.when["call"]](session)
    expected_reason = "MQRC_NONE" if row.then["CompCode"] == "MQCC_OK" else "MQRC_INCOMPLETE_GROUP"
    session.expect(CompCode=(row.then["CompCode"], outcome.CompCode), Reason=(expected_reason, outcome.Reason))


# -- consistency rows ---------------------------------------------------------------------------------------

def _situation(session: Session, row_id: str) -> Outcome:
    """Make the call that the consistency row ``row_id`` is the first to decide."""
    logical = {"Options": ["MQPMO_LOGICAL_ORDER"]}
    in_uow = {"Options": ["MQPMO_LOGICAL_ORDER", "MQPMO_SYNCPOINT"]}
    group = {"MsgFlags": ["MQMF_MSG_IN_GROUP"]}
    segment = {"MsgFlags": ["MQMF_SEGMENT"]}
    put = lambda pmo, md, data="x": session("put", handle="h", PMO=pmo, MD=md, data=data)  # noqa: E731
    if row_id == "put.group-consistency.close-incomplete-msg":
        session.ok("put", handle="h", PMO=logical, MD={"MsgFlags": ["MQMF_MSG_IN_GROUP", "MQMF_SEGMENT"]}, data="x")
        return session("close", handle="h")
    if row_id == "put.group-consistency.close-incomplete-group":
        session.ok("put", handle="h", PMO=logical, MD=group, data="x")
        return session("close", handle="h")
    if row_id == "put.group-consistency.incomplete-msg-not-segment":
        session.ok("put", handle="h", PMO=logical, MD={"MsgFlags": ["MQMF_MSG_IN_GROUP", "MQMF_SEGMENT"]}, data="x")
        return put(logical, {})
    if row_id == "put.group-consistency.incomplete-msg-group-flags":
        session.ok("put", handle="h", PMO=logical, MD={"MsgFlags": ["MQMF_MSG_IN_GROUP", "MQMF_SEGMENT"]}, data="x")
        return put(logical, {"MsgFlags": ["MQMF_LAST_MSG_IN_GROUP", "MQMF_SEGMENT"]})
    if row_id == "put.group-consistency.incomplete-group":
        session.ok("put", handle="h", PMO=logical, MD=group, data="x")
        return put(logical, {})
    if row_id == "put.group-consistency.persistence-in-group":
        session.ok("put", handle="h", PMO=logical, MD={**group, "Persistence": "MQPER_PERSISTENT"}, data="x")
        return put(logical, {**group, "Persistence": "MQPER_NOT_PERSISTENT"})
    if row_id == "put.group-consistency.persistence-in-logical-message":
        session.ok("put", handle="h", PMO=logical, MD={**segment, "Persistence": "MQPER_PERSISTENT"}, data="x")
        return put(logical, {**segment, "Persistence": "MQPER_NOT_PERSISTENT"})
    if row_id == "put.group-consistency.uow-in-group":
        session.ok("put", handle="h", PMO=in_uow, MD=group, data="x")
        return put(logical, group)
    if row_id == "put.group-consistency.uow-in-logical-message":
        session.ok("put", handle="h", PMO=logical, MD=segment, data="x")
        return put(in_uow, segment)
    if row_id == "put.group-consistency.left-logical-order-incomplete-msg":
        session.ok("put", handle="h", PMO=logical, MD=segment, data="x")
        return put({}, {**segment, "GroupId": "ANOTHER-MESSAGE"})
    if row_id == "put.group-consistency.left-logical-order-incomplete-group":
        session.ok("put", handle="h", PMO=logical, MD=group, data="x")
        return put({}, {**group, "GroupId": "ANOTHER-GROUP"})
    raise AssertionError(f"no situation written for {row_id}: add one so every row is tested")


@pytest.mark.parametrize("row", _rows(CONSISTENCY))
def test_inconsistent_logical_order_call_reports_the_reason_of_its_row(adapter, row):
    session = Session(adapter, _row_source(CONSISTENCY, row))
    _open(session)
    outcome = _situation(session, row.id)
    closing = row.when.get("closing") is True
    call = "MQCLOSE" if closing else "MQPUT without MQPMO_LOGICAL_ORDER" if row.when.get("left_logical_order") is True \
        else "MQPUT with MQPMO_LOGICAL_ORDER"
    expected_cc = TABLE2.lookup(call=call, previous_logical_order=True).then["CompCode"]
    session.expect(CompCode=(expected_cc, outcome.CompCode), Reason=(row.then["Reason"], outcome.Reason))


# -- option rules -------------------------------------------------------------------------------------------

# The rules of option combinations; open.object-types, whose rows speak of kinds of object, is tested below
OPTION_TABLES = [t for t in SPEC.tables.values() if hasattr(t, "family") and t.id != "open.object-types"]
BASE = {"MQOO": ["MQOO_OUTPUT"], "MQPMO": [], "MQGMO": [], "MQSO": ["MQSO_CREATE"]}
# What a rule that needs one of BASE's options breaks with instead (MQSO_RESUME: a subscription is still asked for)
OTHER_BASE = {"MQOO": ["MQOO_INQUIRE"], "MQSO": ["MQSO_RESUME"]}


def _breaking_options(family: str, rule) -> list[str] | None:
    """Options that break ``rule`` and, as far as the rule table says, nothing before it."""
    nonzero = lambda names: [n for n in names if VALUES[n]]  # noqa: E731
    if rule.at_most_one:
        return BASE[family] + nonzero(rule.at_most_one)[:2]
    if rule.if_any:
        needed = set(rule.requires_one_of)
        base = [o for o in BASE[family] if o not in needed] or OTHER_BASE.get(family, [])
        return base + nonzero(rule.if_any)[:1]
    if rule.forbidden:
        return BASE[family] + nonzero(rule.forbidden)[:1]
    if rule.at_least_one and all(VALUES[n] for n in rule.at_least_one):
        return [o for o in BASE[family] if o not in rule.at_least_one]  # none of the options it needs
    return None  # at-least-one with a zero-valued member cannot be broken


def _option_row(table, rule):
    """An option rule as a test parameter: its clause, and the capabilities of the options its test uses."""
    used = _breaking_options(table.family, rule) or [n for n in rule.at_least_one if VALUES[n]][:1]
    return pytest.param(table, rule, id=rule.id,
                        marks=[pytest.mark.clause(rule.id), pytest.mark.capability(*needed_by((), used))])


OPTION_ROWS = [_option_row(t, r) for t in OPTION_TABLES for r in t.rows]


def _call_breaking_only(table, rule, options: list[str], call: str) -> str:
    """``call``, or MQGET-BROWSE when a destructive MQGET with ``options`` would break an earlier rule of the
    table first (the mark options need a browse option): the test's call breaks the rule it pins and no other, so
    the model names that rule where the test applies it."""
    value = sum(VALUES[name] for name in options)
    if call == "MQGET" and first_broken(table, value, call) is not rule:
        if first_broken(table, value | VALUES["MQGMO_BROWSE_FIRST"], "MQGET-BROWSE") is rule:
            return "MQGET-BROWSE"
    return call


def _call_with(session: Session, family: str, call: str, options: list[str]) -> Outcome:
    if family == "MQSO":
        session.ok("open", handle="d", queue="Q1", Options=["MQOO_INPUT_AS_Q_DEF"])
        return session("sub", handle="s", Hobj="d", SD={"Options": options, "ObjectString": "T", "SubName": "S"})
    if family == "MQOO":
        return session("open", handle="h", queue="Q1", Options=options)
    session.ok("open", handle="h", queue="Q1", Options=["MQOO_OUTPUT", "MQOO_INPUT_SHARED", "MQOO_BROWSE"])
    if family == "MQPMO":
        if call == "MQPUT1":
            return session("put1", queue="Q1", PMO={"Options": options}, data="x")
        return session("put", handle="h", PMO={"Options": options}, data="x")
    session.ok("put", handle="h", data="x")
    if call == "MQGET-BROWSE":
        options = options + ["MQGMO_BROWSE_FIRST"]
    return session("get", handle="h", GMO={"Options": options})


@pytest.mark.parametrize(("table", "rule"), OPTION_ROWS)
def test_options_that_break_a_documented_rule_are_refused(adapter, table, rule):
    session = Session(adapter, _row_source(table, rule))
    session.ok("define_queue", name="Q1")
    options = _breaking_options(table.family, rule)
    if options is None:
        # As documented, the rule is met by a zero-valued option; a minimal legal call must then succeed.
        outcome = _call_with(session, table.family, "MQOPEN", [n for n in rule.at_least_one if VALUES[n]][:1])
        session.expect(CompCode=("MQCC_OK", outcome.CompCode))
        return
    call = rule.calls[0] if rule.calls else {"MQOO": "MQOPEN", "MQPMO": "MQPUT", "MQGMO": "MQGET",
                                             "MQSO": "MQSUB"}[table.family]
    call = _call_breaking_only(table, rule, options, call)
    outcome = _call_with(session, table.family, call, options)
    session.expect(CompCode=("MQCC_FAILED", outcome.CompCode), Reason=(rule.reason, outcome.Reason))


# -- options valid for each type of object ----------------------------------------------------------------------

OBJECT_TYPES = SPEC["open.object-types"]
# Options valid for every kind of object the table names: a call that adds one option to them breaks only what that
# option breaks (MQOO_FAIL_IF_QUIESCING alone asks for no access, which a topic needs).
VALID_EVERYWHERE = ["MQOO_OUTPUT", "MQOO_FAIL_IF_QUIESCING"]
OBJECT_CAPABILITIES = {"topic": ("pubsub",), "nonlocal-cluster-queue": ("cluster",)}


def _object(session: Session, kind: str) -> dict:
    """Make an object of ``kind`` (open-object-types.yaml) on the queue manager QM1 and return the open arguments
    naming it."""
    if kind == "topic":
        return {"ObjectString": "Sports"}
    session.ok("define_qmgr", name="QM1")
    session.ok("define_qmgr", name="QM2")
    if kind == "nonlocal-cluster-queue":
        session.ok("define_queue", name="Q3", qmgr="QM2", CLUSTER="DEMO")
        return {"queue": "Q3"}
    session.ok("define_queue", name="QM2", qmgr="QM1", Usage="MQUS_TRANSMISSION")
    session.ok("define_queue", name="TARGET", qmgr="QM2")
    if kind == "remote-queue":
        session.ok("define_qremote", name="RQ", qmgr="QM1", RemoteQName="TARGET", RemoteQMgrName="QM2")
        return {"queue": "RQ"}
    if kind == "queue-on-remote-qmgr":
        return {"queue": "TARGET", "ObjectQMgrName": "QM2"}
    if kind == "qmgr-alias-to-local":
        session.ok("define_queue", name="HOME", qmgr="QM1")
        session.ok("define_qremote", name="OLD.NAME.QM1", qmgr="QM1", RemoteQMgrName="QM1")
        return {"queue": "HOME", "ObjectQMgrName": "OLD.NAME.QM1"}
    raise AssertionError(f"no object made for kind {kind!r}: add one so every row is tested")


def _object_cases() -> list:
    """(row, kind, options) for each kind a row names: each forbidden option added to the options valid
    everywhere, where no rule of open-options.yaml breaks first (MQOO_CO_OP alone needs MQOO_BROWSE), and for a
    row needing one of some options, the options valid everywhere without them."""
    cases = []
    for row in OBJECT_TYPES.rows:
        for kind in row.objects:
            tried = [VALID_EVERYWHERE + [name] for name in row.forbidden]
            if row.at_least_one:
                tried.append([n for n in VALID_EVERYWHERE if n not in row.at_least_one])
            for options in tried:
                value = sum(VALUES[n] for n in options)
                if first_broken(SPEC["open.options"], value, "MQOPEN") is not None:
                    continue
                capability = pytest.mark.capability(*OBJECT_CAPABILITIES.get(kind, ("distributed",)))
                cases.append(pytest.param(row, kind, options, id=f"{row.id}-{kind}-{'+'.join(options)}",
                                          marks=[pytest.mark.clause(row.id), capability]))
    return cases


@pytest.mark.parametrize(("row", "kind", "options"), _object_cases())
def test_an_option_not_valid_for_the_object_type_is_refused_by_its_row(adapter, row, kind, options):
    session = Session(adapter, _row_source(OBJECT_TYPES, row))
    names = _object(session, kind)
    # the first row broken for the kind decides (the rows are checked in order)
    decides = first_broken(OBJECT_TYPES, sum(VALUES[n] for n in options), "MQOPEN", kind)
    outcome = session("open", handle="h", Options=options, **names)
    session.expect(CompCode=("MQCC_FAILED", outcome.CompCode), Reason=(decides.reason, outcome.Reason))


@pytest.mark.parametrize(("row", "kind"), [
    pytest.param(row, kind, id=f"{row.id}-{kind}", marks=[
        pytest.mark.clause(row.id), pytest.mark.capability(*OBJECT_CAPABILITIES.get(kind, ("distributed",)))])
    for row in OBJECT_TYPES.rows for kind in row.objects])
def test_the_options_valid_for_every_object_type_open_each_kind_a_row_names(adapter, row, kind):
    session = Session(adapter, _row_source(OBJECT_TYPES, row))
    names = _object(session, kind)
    session.ok("open", handle="h", Options=VALID_EVERYWHERE, **names)


# -- the get-side logical-order table -----------------------------------------------------------------------

TABLE4 = SPEC["get.logical-order.table4"]


@pytest.mark.parametrize("row", _rows(TABLE4))
def test_logical_order_get_takes_what_its_table4_row_names_next(adapter, row):
    """The previous message P has the row's group and segment status; a lone message D sits physically before
    the item N that the row names. The next logical-order get must take N for a "next" row, D for a "start" row."""
    session = Session(adapter, _row_source(TABLE4, row))
    _open(session)
    group_status, segment_status = row.when["previous_group_status"], row.when["previous_segment_status"]
    p_flags = {"MQGS_MSG_IN_GROUP": ["MQMF_MSG_IN_GROUP"], "MQGS_LAST_MSG_IN_GROUP": ["MQMF_LAST_MSG_IN_GROUP"]}.get(
        group_status, []) + {"MQSS_SEGMENT": ["MQMF_SEGMENT"], "MQSS_LAST_SEGMENT": ["MQMF_LAST_SEGMENT"]}.get(
        segment_status, [])
    p_md = {"MsgFlags": p_flags, "MsgSeqNumber": 1, "Offset": 0}
    if p_flags:
        p_md["GroupId"] = "GROUP-P"
    session.ok("put", handle="h", MD=p_md, data="P")
    session.ok("put", handle="h", data="D")
    if row.then["select"] == "next":
        seq = {"one": 1, "previous": 1, "previous-plus-one": 2}[row.then["MsgSeqNumber"]]
        offset = {"zero": 0, "previous-end": len("P")}[row.then["Offset"]]
        continuing_segment = row.then["Offset"] == "previous-end"
        # A continuing segment repeats P's group flag; a next logical message ends the group.
        group_flag = [f for f in p_flags if "GROUP" in f] if continuing_segment else (
            ["MQMF_LAST_MSG_IN_GROUP"] if group_status != "MQGS_NOT_IN_GROUP" else [])
        n_flags = (["MQMF_LAST_SEGMENT"] if continuing_segment else []) + group_flag
        session.ok("put", handle="h", data="N",
                   MD={"GroupId": "GROUP-P", "MsgSeqNumber": seq, "Offset": offset, "MsgFlags": n_flags})

    first = session.ok("get", handle="h", GMO={"Options": ["MQGMO_LOGICAL_ORDER"]})
    session.expect(data=("P", first.data), **{"GMO.GroupStatus": (group_status, (first.GMO or {}).get("GroupStatus")),
                                              "GMO.SegmentStatus": (segment_status,
                                                                    (first.GMO or {}).get("SegmentStatus"))})
    second = session.ok("get", handle="h", GMO={"Options": ["MQGMO_LOGICAL_ORDER"]})
    session.expect(data=("N" if row.then["select"] == "next" else "D", second.data))
