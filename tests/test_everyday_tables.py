"""Table-driven tests of the everyday MQI tables: MQCLOSE's delete options (fixtures/tables/close-delete.yaml) and
the attributes MQSET may set (fixtures/tables/set-selectors.yaml), checked against the adapter under test.

The expected outcomes are read from the rows, so these certify any implementation, and a row changed in memory (a
table mutant) is caught here as well as by the scenarios under fixtures/scenarios/close and fixtures/scenarios/set.
"""

from __future__ import annotations

import itertools

import pytest

from mq_conformance.reference.constants import VALUES
from mq_conformance.reference.tables import default_spec
from tests_support import Session

SPEC = default_spec()
CLOSE_DELETE = SPEC["close.delete"]
SET_SELECTORS = SPEC["set.selectors"]
MODEL_TYPES = {"temporary": "MQQDT_TEMPORARY_DYNAMIC", "permanent": "MQQDT_PERMANENT_DYNAMIC"}
OPTIONS = ("MQCO_NONE", "MQCO_DELETE", "MQCO_DELETE_PURGE")


def _close_cases():
    """Every combination of the table's inputs that calls can bring about, with the row that decides it."""
    cases = []
    for kind, option, creating, uncommitted, messages in itertools.product(
            ("predefined", "temporary", "permanent"), OPTIONS, (True, False), (True, False), (True, False)):
        if kind == "predefined" and (creating or option == "MQCO_NONE"):
            continue  # a predefined queue has no creating handle; closing it plainly decides nothing
        if uncommitted and not messages:
            continue  # an uncommitted put is a message on the queue
        row = CLOSE_DELETE.lookup(definition_type=kind, option=option, creating_handle=creating,
                                  uncommitted=uncommitted, messages=messages)
        assert row is not None, (kind, option, creating, uncommitted, messages)
        ident = f"{kind}-{option}-{'creator' if creating else 'other'}-{'uow' if uncommitted else 'no-uow'}-" \
                f"{'msgs' if messages else 'empty'}"
        cases.append(pytest.param(kind, option, creating, uncommitted, messages, row, id=ident,
                                  marks=[pytest.mark.clause(row.id), pytest.mark.capability("dynamic-queues",
                                                                                           "units-of-work")]))
    return cases


@pytest.mark.parametrize(("kind", "option", "creating", "uncommitted", "messages", "row"), _close_cases())
def test_close_with_a_delete_option_does_what_its_close_delete_row_says(adapter, kind, option, creating, uncommitted,
                                                                        messages, row):
    session = Session(adapter)
    name = "Q1" if kind == "predefined" else "DYN.ONE"
    if kind == "predefined":
        session.ok("define_queue", name=name)
        session.ok("open", handle="creator", queue=name, Options=["MQOO_OUTPUT"])
    else:
        session.ok("define_queue", name="THE.MODEL", QType="MQQT_MODEL", DefinitionType=MODEL_TYPES[kind])
        session.ok("open", handle="creator", queue="THE.MODEL", DynamicQName=name, Options=["MQOO_OUTPUT"])
    if messages:
        session.ok("put", handle="creator", data="committed")
    if uncommitted:
        session.ok("put", handle="creator", PMO={"Options": ["MQPMO_SYNCPOINT"]}, data="uncommitted")
    target = "creator"
    if not creating:
        session.ok("open", handle="other", queue=name, Options=["MQOO_INQUIRE"])
        target = "other"

    closed = session("close", handle=target, Options=[option])

    reason = row.then["Reason"]
    assert (closed.CompCode, closed.Reason) == ("MQCC_OK" if reason == "MQRC_NONE" else "MQCC_FAILED", reason)
    if uncommitted:
        session.ok("backout")
    again = session("open", handle="again", queue=name, Options=["MQOO_INQUIRE"])
    deleted = row.then["delete"] == "deleted"
    assert again.Reason == ("MQRC_UNKNOWN_OBJECT_NAME" if deleted else "MQRC_NONE"), row.id


def _value_cases():
    """For each settable attribute: values its row allows, and one it refuses."""
    cases = []
    for row in SET_SELECTORS.rows:
        spelled = str(row.then["values"])
        if ".." in spelled:
            low, high = (int(part) for part in spelled.split("..", 1))
            allowed, refused = [low, high], [low - 1, high + 1]
        else:
            allowed = [VALUES[name] for name in spelled.split()]
            refused = [max(allowed) + 1]
        marks = [pytest.mark.clause(row.id, "set.attributes"), pytest.mark.capability("set")]
        cases += [pytest.param(row, value, True, id=f"{row.id}-{value}", marks=marks) for value in allowed]
        cases += [pytest.param(row, value, False, id=f"{row.id}-{value}-refused", marks=marks) for value in refused]
    return cases


@pytest.mark.parametrize(("row", "value", "accepted"), _value_cases())
def test_set_takes_the_values_its_set_selectors_row_allows_and_refuses_others_with_its_reason(adapter, row, value,
                                                                                                accepted):
    session = Session(adapter)
    session.ok("define_queue", name="Q1")
    session.ok("open", handle="h", queue="Q1", Options=["MQOO_SET", "MQOO_INQUIRE"])
    selector = row.when["selector"]
    before = session.ok("inquire", handle="h", Selectors=[selector]).attributes[selector]

    done = session("set", handle="h", Selectors=[selector], IntAttrs=[value])

    after = session.ok("inquire", handle="h", Selectors=[selector]).attributes[selector]
    after = VALUES.get(after, after) if isinstance(after, str) else after
    if accepted:
        assert (done.CompCode, done.Reason) == ("MQCC_OK", "MQRC_NONE")
        assert after == value
    else:
        assert (done.CompCode, done.Reason) == ("MQCC_FAILED", row.then["Reason"])
        assert after == (VALUES.get(before, before) if isinstance(before, str) else before)  # nothing changed


@pytest.mark.capability("set", "alias-queues")
@pytest.mark.clause("set.selector-error")
@pytest.mark.parametrize("row", [pytest.param(r, id=r.id) for r in SET_SELECTORS.rows])
def test_through_an_alias_only_the_attributes_an_alias_has_can_be_set(adapter, row):
    session = Session(adapter)
    session.ok("define_queue", name="Q1")
    session.ok("define_queue", name="ALIAS.Q1", QType="MQQT_ALIAS", BaseQName="Q1")
    session.ok("open", handle="h", queue="ALIAS.Q1", Options=["MQOO_SET"])
    spelled = str(row.then["values"])
    value = int(spelled.split("..")[0]) if ".." in spelled else VALUES[spelled.split()[0]]

    done = session("set", handle="h", Selectors=[row.when["selector"]], IntAttrs=[value])

    assert done.Reason == ("MQRC_NONE" if row.then["alias"] == "yes" else "MQRC_SELECTOR_ERROR")
