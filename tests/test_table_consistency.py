"""Table 1 of the logical-order rules and the group-consistency rows between them decide every logical-order put:
a check of the tables themselves, whatever the implementation (the certification tests that read these tables are
mq_conformance/conformance/certification/test_tables.py)."""

from __future__ import annotations

from mq_conformance.reference.tables import default_spec

TABLE1 = default_spec()["put.logical-order.table1"]
CONSISTENCY = default_spec()["put.group-consistency"]


def test_table1_and_the_consistency_rows_decide_every_logical_order_put():
    """Every combination of Table 1's inputs has exactly one Table 1 row, or a consistency row says why not."""
    undecided = []
    for facts in TABLE1.combinations():
        matches = [row.id for row in TABLE1.rows if row.matches(facts)]
        assert len(matches) <= 1, (facts, matches)
        if matches or not facts["logical_order"]:
            continue
        given = {k: facts[k] for k in ("current_group", "current_logical_message", "in_group", "segment")}
        consistency = {"closing": False, "group_flags_changed": False, "persistence_differs": False,
                       "syncpoint_differs": False, "left_logical_order": False, **given}
        if consistency["current_logical_message"] and not consistency["current_group"] and facts["in_group"]:
            consistency["group_flags_changed"] = True
        if CONSISTENCY.lookup(**consistency) is None:
            undecided.append(facts)
    assert undecided == []
