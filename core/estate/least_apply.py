"""The least hardware's answer written into the estate: `rto-planner estate ESTATE.toml
--fix -o NEW.toml` and the Estate window's *Apply*.

The answer's edits (`shared[i].count`, `shared[i].rate`, …) are made on the estate's
`[[shared]]` entries and loaded by the estate loader's own checks
(`with_shared_edits`); the file is written through `core.toml_edit.merge_edits`, so only
the edited values change and the file's comments (where its figures come from) stay.
"""

from __future__ import annotations

from ..catalog import Catalog, shipped_catalog
from ..errors import CoreError
from ..toml_edit import merge_edits
from .least import LeastHardware
from .least_candidates import with_shared_edits
from .model import Estate, dump_estate


def apply_answer(estate: Estate, least: LeastHardware, catalog: Catalog | None = None) -> Estate:
    """The estate with the answer: the runbook found before any purchase (policy before
    purchase), else the purchases made and the runbook to follow with them."""
    if not least.purchase_needed and least.runbook is not None and not least.already_met:
        return estate.with_policy(least.runbook)
    if least.answer is None or not least.answer.changes:
        raise CoreError("the least hardware has no purchase to apply", hint="nothing to buy")
    bought = with_shared_edits(estate, least.answer.edits, catalog or shipped_catalog())
    return bought if least.runbook is None else bought.with_policy(least.runbook)


def header_lines(least: LeastHardware) -> list[str]:
    """Comment lines naming what was bought and what it costs, and the runbook."""
    if least.answer is None:
        return ["# Runbook order for priority 1 (rto-planner estate --fix): the [policy] "
                "below, no purchase."]  # fmt: skip
    cur = least.currency
    out = ["# Least hardware for priority 1 (rto-planner estate --fix):"]
    out += [f"#   {c.words} — {c.cost.text(cur)}" for c in least.answer.changes]
    out.append(f"#   Total: {least.answer.cost.text(cur)}")
    if least.runbook is not None and not least.runbook.empty:
        out.append("#   With the runbook order in [policy].")
    return out


def fixed_estate_text(
    estate: Estate,
    least: LeastHardware,
    original_text: str | None = None,
    catalog: Catalog | None = None,
) -> str:
    """ESTATE.toml with the answer made: the original text with only the edited values
    changed (its comments kept) when given, else the canonical form; a header says what
    was bought."""
    fixed = apply_answer(estate, least, catalog)
    text = dump_estate(fixed)
    if original_text is not None:
        text = merge_edits(original_text, dump_estate(estate), text)
    return "\n".join(header_lines(least)) + "\n" + text
