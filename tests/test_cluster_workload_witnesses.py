"""The witnesses of the cluster workload table's certification tests are sharp: every row and every pair of
neighbouring rows has one, and the model with the table changed - a row removed, moved or swapped, a row's tiers
reordered - gives another answer on at least one (the witnesses and their runs are
mq_conformance/conformance/certification/test_cluster_workload_table.py)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from mq_conformance.adapters.reference import ReferenceAdapter
from mq_conformance.conformance.certification.test_cluster_workload_table import (
    ORDER, REMOVAL, ROW_IDS, TABLE, WITNESSES, Witness, answer, cluster, put, state)
from mq_conformance.reference.tables import default_spec


def model_with(rows) -> ReferenceAdapter:
    """The reference model deciding by a workload table with ``rows``."""
    return ReferenceAdapter(spec=default_spec().with_table(replace(TABLE, rows=tuple(rows), _memo={})))


# -- every row and every neighbouring pair has a witness -----------------------------------------------------

def test_every_row_has_a_removal_witness():
    assert list(REMOVAL) == ROW_IDS


def test_every_pair_of_neighbouring_rows_has_an_order_witness():
    assert list(ORDER) == list(zip(ROW_IDS, ROW_IDS[1:]))


# -- the model with the table changed gives another answer ---------------------------------------------------

@pytest.mark.parametrize("row_id", ROW_IDS)
def test_removing_a_row_changes_its_witness(row_id):
    mutant = model_with(r for r in TABLE.rows if r.id != row_id)
    assert answer(mutant, REMOVAL[row_id]) != REMOVAL[row_id].expected


MOVES = [pytest.param(row_id, place, id=f"{row_id}-to-{place}") for row_id in ROW_IDS
         for place in range(len(ROW_IDS)) if place != ROW_IDS.index(row_id)]


@pytest.mark.parametrize(("row_id", "place"), MOVES)
def test_moving_a_row_changes_some_witness(row_id, place):
    rows = [r for r in TABLE.rows if r.id != row_id]
    rows.insert(place, TABLE.row(row_id))
    mutant = model_with(rows)
    changed = [w.name for w in WITNESSES if answer(mutant, w) != w.expected]
    assert changed, f"moving {row_id} to place {place} changed no witness"


def test_swapping_neighbours_changes_their_order_witness():
    for (first, second), witness in ORDER.items():
        rows = list(TABLE.rows)
        i = ROW_IDS.index(first)
        rows[i], rows[i + 1] = rows[i + 1], rows[i]
        assert answer(model_with(rows), witness) != witness.expected, witness.name


def test_channel_state_tiers_are_read_from_the_row():
    """The tiers of the channel-state row are data: swapping the retrying and stopped tiers changes the choice."""
    row = TABLE.row("cluster.workload.channel-state")
    tiers = row.then["tiers"].split("|")
    tiers[2], tiers[3] = tiers[3], tiers[2]
    changed = replace(row, then={**row.then, "tiers": "|".join(tiers)})
    witness = Witness("retrying-over-stopped", tuple(
        cluster() + [state("TO.QM2", "MQCHS_STOPPED"), state("TO.QM4", "MQCHS_RETRYING")] + put()), "QM4")
    assert answer(ReferenceAdapter(), witness) == "QM4"
    assert answer(model_with(changed if r.id == row.id else r for r in TABLE.rows), witness) == "QM2"
