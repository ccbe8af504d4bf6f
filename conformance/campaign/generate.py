"""Call sequences generated deterministically from ``(seed, index)`` and, when steered, a target table row.

A sequence is reproducible anywhere from its index (and target) alone: ``random.Random(f"{seed}:{index}")``
(string seeds are hashed with SHA-512, so no process-dependent hash randomisation enters) draws rules and their
arguments from the one vocabulary the differential state machines use too (conformance/vocabulary.py).

A sequence is a plain JSON-able mapping::

    {"id": "7:42", "area": "groups", "calls": [{"op": "define_queue", "name": "Q1"}, ...], "binds": [],
     "target": "put.logical-order.table1.row4"}

Calls may name identifiers the replay binds as it goes: ``$id1``, ``$id2``... are the symbols that
:class:`mq_conformance.conformance.compare.Identities` gives to each new identifier, in the order the outcomes return them (as
the state machines' ``ids`` bundle does). ``binds`` (optional, one mapping per call) names scenario variables
(``$g``) bound from a call's outcome, for sequences loaded from scenario files.

Table-directed generation: :class:`Steering` keeps, for one partition, the table rows reached so far, and sends
half of the following sequences at a row not yet reached, through the vocabulary's recipe for it (the calls
that set up the facts the row's ``when`` needs); the rest of the sequence is drawn freely.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from .. import vocabulary

AREAS = tuple(vocabulary.AREAS)


def sequence(seed: int | str, index: int, length: int, areas: Sequence[str] = AREAS,
             target: str | None = None) -> dict[str, Any]:
    """The ``index``-th sequence of campaign ``seed``: ``length`` generated calls after the area's set-up calls.

    With ``target`` (a table row id), the generated calls start with the vocabulary's recipe for that row."""
    rng = random.Random(f"{seed}:{index}")
    recipe: list[dict[str, Any]] = []
    if target is not None:
        table_id = target_table(target)
        area = vocabulary.table_area(table_id)
        recipe = vocabulary.recipe(table_id, target, rng) or []
    else:
        area = vocabulary.AREAS[areas[0] if len(areas) == 1 else rng.choice(sorted(areas))]
    calls = area.setup_calls() + recipe
    binds: list[dict[str, str]] = [{} for _ in calls]
    ids = vocabulary.Ids()
    end = len(area.setup) + max(length, len(recipe))
    while len(calls) < end:
        more, bound = vocabulary.draw_step(area, rng, ids)
        calls += more
        binds += bound
    result: dict[str, Any] = {"id": f"{seed}:{index}", "area": area.name, "calls": calls[:end],
                              "binds": binds[:end]}
    if target is not None:
        result["target"] = target
    return result


_ROW_TABLE: dict[str, str] = {}


def target_table(row_id: str) -> str:
    """The table a row id belongs to."""
    if not _ROW_TABLE:
        for table_id, rows in vocabulary.table_rows().items():
            _ROW_TABLE.update(dict.fromkeys(rows, table_id))
    return _ROW_TABLE[row_id]


def steerable_rows(areas: Iterable[str]) -> list[str]:
    """The table rows the vocabulary has a recipe for, in the tables of ``areas``, in table order."""
    chosen = set(areas)
    rows = []
    for table_id, row_ids in sorted(vocabulary.table_rows().items()):
        area = vocabulary.table_area(table_id)
        if area is None or area.name not in chosen:
            continue
        rows += [r for r in row_ids if vocabulary.unreachable(table_id, r) is None]
    return rows


class Steering:
    """Table-directed generation within one partition: which rows its sequences have reached so far, and which
    row (if any) the next sequence aims at. Deterministic: it depends only on the campaign's settings and the
    outcomes of the partition's earlier sequences, which the model makes the same everywhere."""

    def __init__(self, seed: int | str, areas: Sequence[str], share: float = 0.5):
        self.seed, self.share = seed, share
        self.rows = steerable_rows(areas)
        self.reached: set[str] = set()

    def target(self, index: int) -> str | None:
        waiting = [r for r in self.rows if r not in self.reached]
        rng = random.Random(f"{self.seed}:{index}:target")
        if not waiting or rng.random() >= self.share:
            return None
        return waiting[rng.randrange(len(waiting))]

    def saw(self, clauses: Iterable[str]) -> None:
        self.reached.update(clauses)
