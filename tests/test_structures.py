"""MQI structures hold only the fields given or set; every other field reads as MQ's initial value. A copy must
copy every field, and only copy; and the model never changes the structures a caller passes it."""

import dataclasses

import pytest

from mq_conformance.reference import MQGMO, MQMD, MQOD, MQPMO, QueueDefinition, QueueManager
from mq_conformance.reference.constants import VALUES

STRUCTURES = (MQMD, MQPMO, MQGMO)


def _every_field_set(cls):
    return cls(**{f.name: (i + 1 if f.type == "int" else f"v{i}" if f.type == "str" else bytes([i]) * 3)
                  for i, f in enumerate(dataclasses.fields(cls))})


@pytest.mark.parametrize("cls", STRUCTURES)
def test_copy_copies_every_field_and_is_independent(cls):
    original = _every_field_set(cls)
    copy = original.copy()
    assert copy == original and copy is not original and type(copy) is cls
    assert all(getattr(copy, f.name) == getattr(original, f.name) for f in dataclasses.fields(cls))
    copy.Version += 1
    assert original.Version != copy.Version and copy != original


@pytest.mark.parametrize("cls", STRUCTURES)
def test_unset_fields_read_as_initial_values(cls):
    built, spelled_out = cls(), cls(**{f.name: f.default for f in dataclasses.fields(cls)})
    assert all(getattr(built, f.name) == f.default for f in dataclasses.fields(cls))
    assert built == spelled_out and repr(built) == repr(spelled_out)
    assert dataclasses.asdict(built) == {f.name: f.default for f in dataclasses.fields(cls)}
    changed = dataclasses.replace(built, Version=7)
    assert changed.Version == 7 and built.Version == dataclasses.fields(cls)[0].default


@pytest.mark.parametrize("cls", STRUCTURES)
def test_a_structure_built_from_fields_equals_one_built_by_keyword(cls):
    given = {f.name: f.default for f in dataclasses.fields(cls)[:3]} | {"Version": 2}
    built = cls.of(dict(given))
    assert built == cls(**given) and repr(built) == repr(cls(**given)) and type(built) is cls
    assert all(getattr(built, f.name) == f.default for f in dataclasses.fields(cls)[3:])


def test_setting_a_field_changes_that_structure_only():
    one, other = MQMD(), MQMD()
    one.MsgFlags = VALUES["MQMF_MSG_IN_GROUP"]
    assert other.MsgFlags == 0 and MQMD.MsgFlags == 0 and one != other


@pytest.mark.parametrize("cls", STRUCTURES)
def test_unknown_fields_and_positional_values_are_refused(cls):
    with pytest.raises(TypeError, match="no field"):
        cls(Version=2, NoSuchField=1)
    with pytest.raises(TypeError):
        cls(2)


def test_the_model_never_changes_the_callers_structures():
    """Programs reuse their MQMD, MQPMO and MQGMO from call to call: put and get must leave them as they were."""
    qm = QueueManager()
    qm.define_queue(QueueDefinition("Q1"))
    hconn = qm.connect().hconn
    hobj = qm.open(hconn, MQOD("Q1"), VALUES["MQOO_OUTPUT"] | VALUES["MQOO_INPUT_SHARED"]).hobj
    flags = VALUES["MQMF_LAST_MSG_IN_GROUP"]
    md, pmo = MQMD(Version=2, MsgFlags=flags), MQPMO(Options=VALUES["MQPMO_LOGICAL_ORDER"])
    get_md, gmo = MQMD(Version=2), MQGMO(Version=2, Options=VALUES["MQGMO_LOGICAL_ORDER"], MatchOptions=0)
    before = [dataclasses.asdict(s) for s in (md, pmo, get_md, gmo)]
    for _ in range(3):
        put = qm.put(hconn, hobj, md, pmo, b"payload")
        got = qm.get(hconn, hobj, get_md, gmo)
        assert not put.failed and not got.failed
        assert put.md is not md and put.pmo is not pmo and got.md is not get_md and got.gmo is not gmo
    assert [dataclasses.asdict(s) for s in (md, pmo, get_md, gmo)] == before
