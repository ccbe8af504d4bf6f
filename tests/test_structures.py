"""MQMD.copy is spelled out field by field for speed; it must copy every field, and only copy."""

import dataclasses

from reference.structures import MQMD


def test_md_copy_copies_every_field_and_is_independent():
    md = MQMD(**{f.name: (i + 1 if f.type == "int" else f"v{i}" if f.type == "str" else bytes([i]) * 3)
                 for i, f in enumerate(dataclasses.fields(MQMD))})
    copy = md.copy()
    assert copy == md and copy is not md
    assert [f.name for f in dataclasses.fields(MQMD)] == list(MQMD.__slots__)
    copy.MsgSeqNumber += 1
    assert md.MsgSeqNumber != copy.MsgSeqNumber
