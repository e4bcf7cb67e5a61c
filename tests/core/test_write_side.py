"""Issue 20 item 3: the write side of a restore rests on evidence — a storage_write
stage's catalog figure has a prior of its own (write-side points, cited), and a restore
path that names no target storage says so in the plan instead of leaving it silent."""

from __future__ import annotations

import pytest

from rtoplanner.core.plan import compute_plan
from rtoplanner.core.scenario import load_scenario_text
from rtoplanner.core.scenario.priors import UNVERIFIED_WIDEN, shipped_priors
from rtoplanner.core.uncertainty.inputs import uncertain_inputs

TEMPLATE = """\
format = 1
name = "write side"

[database]
size = "2 TB"

[backup]
channels = 4

[[path]]
kind = "media_server"
rate = "1 GB/s"
{extra}
[targets]
rto = "24 h"
"""

WRITE_NOTE = "The write side of the restore is not in the path"


def notes(extra: str = "") -> tuple[str, ...]:
    return compute_plan(load_scenario_text(TEMPLATE.format(extra=extra))).notes


def test_a_path_without_its_target_storage_says_so():
    found = [n for n in notes() if n.startswith(WRITE_NOTE)]  # before: silent
    assert len(found) == 1 and "write_factor" in found[0] and "ASM" in found[0]


@pytest.mark.parametrize(
    "extra",
    [
        '\n[[path]]\nkind = "storage_write"\nrate = "2 GB/s"\nwrite_factor = 2\n',
        '\n[[path]]\nkind = "nas_head"\nrate = "2 GB/s"\ncarries = "data"\n',
    ],
    ids=["storage_write", "datafiles-on-nfs"],
)
def test_a_path_with_its_target_storage_has_no_such_note(extra):
    assert not any(n.startswith(WRITE_NOTE) for n in notes(extra))


def test_a_catalog_storage_write_figure_takes_the_write_side_prior():
    prior = shipped_priors().find("storage_write", "rate")
    assert prior is not None and prior.points == 3 and prior.kind == "storage_write"
    assert "EqualLogic" in prior.source and "tablespace creation" in prior.source
    extra = '\n[[path]]\nkind = "storage_write"\nname = "Exadata cell SAS (V1)"\nwrite_factor = 2\n'
    s = load_scenario_text(TEMPLATE.format(extra=extra))
    row = {i.key: i for i in uncertain_inputs(s)}["path[1].rate"]
    assert row.origin == "catalog" and "EqualLogic" in row.prior_source
    # the catalog item reads "read rate used as the write rate" (⚠): twice the spread
    assert row.sigma == pytest.approx(prior.sigma * UNVERIFIED_WIDEN)
