"""What a customer's DBA winced at in the PDF, round 2 (issue 23), read back from the
real PDF with pypdf."""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader
from report_helpers import DEMOS, demo_ids, rendered

from rtoplanner.core.plan import compute_plan
from rtoplanner.core.report import build_report_data, render_pdf
from rtoplanner.core.scenario import load_scenario, with_values


def pages_text(pdf: bytes) -> list[str]:
    return [p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages]


def flat(pdf: bytes) -> str:
    """The PDF's text with line breaks folded to spaces (a sentence may wrap)."""
    return re.sub(r"\s+", " ", " ".join(pages_text(pdf)))


GROWING = [p for p in DEMOS if load_scenario(p).database.growth is not None]


# ------------------------------------------------------------------ item 5: growth


@pytest.mark.parametrize("path", GROWING, ids=[p.stem for p in GROWING])
def test_growth_sentence_says_redo_grows_when_the_model_grows_it(path):
    """Every PDF with a growth rate said "Redo generation … held constant" while the
    model grows the redo with the database (redo_growth = with_size, the default)."""
    assert load_scenario(path).database.redo_growth == "with_size"
    text = flat(rendered(path).pdf)
    assert "Redo generation and the largest file are held constant" not in text
    assert "redo generation grow in proportion to the database" in text


def test_growth_sentence_says_redo_is_held_when_the_scenario_holds_it(epoch):
    path = GROWING[0]
    s = with_values(load_scenario(path), {"database.redo_growth": "constant"})
    pdf = render_pdf(build_report_data(compute_plan(s)))
    text = flat(pdf)
    assert "redo generation stays as measured" in text
    assert "redo generation grow in proportion" not in text


# ------------------------------------------------------------ item 6: customer words

RAW_CHOICES = ("with_size", "nas_head", "storage_write", "tape_drive", "media_server")


@pytest.mark.parametrize("path", DEMOS, ids=demo_ids())
def test_no_command_line_or_raw_choice_in_the_customer_pdf(path):
    """`rto-planner catalog price …` and `nas_head`/`with_size` reached the PDF."""
    text = flat(rendered(path).pdf)
    assert "rto-planner" not in text and "`" not in text
    for raw in RAW_CHOICES:
        assert raw not in text, raw


@pytest.mark.parametrize("path", DEMOS, ids=demo_ids())
def test_notes_name_inputs_by_their_labels_not_their_keys(path):
    """Notes said "set recovery.redo_apply_rate", "give database.log_size", "(name the
    RMAN level in backup.compression …)"; the ledger keeps each key in small print under
    its label, which is the one place a key is printed."""
    text = flat(rendered(path).pdf)
    for phrase in ("set recovery.", "give database.", "in backup.compression", "without database."):
        assert phrase not in text, phrase
    assert not re.search(r"\(backup\.[a-z_]+\)", text)  # "fixed time per job (backup.job_overhead)"


def test_today_sentence_gives_recovery_its_own_verdict():
    """'Today the worst case is 7 h 53 min (MISSES)': the RPO's verdict on a recovery
    time that meets its RTO."""
    path = next(p for p in DEMOS if p.stem == "small_gige_lto")
    plan = rendered(path).plan
    assert plan.recovery.verdict == "meets" and plan.verdict == "misses"
    text = flat(rendered(path).pdf)
    assert re.search(r"Today the worst-case recovery takes [^.]*\(MEETS\); the plan as a "
                     r"whole MISSES on its RPO", text)  # fmt: skip
    assert not re.search(r"Today the worst case is [^.]*\(MISSES\)", text)


def _phase_rows(pdf: bytes) -> str:
    page = next(t for t in pages_text(pdf) if "Phase" in t and "Limited by" in t)
    return page


def test_no_tape_recall_row_on_a_disk_only_path():
    disk = next(p for p in DEMOS if p.stem == "nas_two_heads")
    assert all(st.kind != "tape_drive" for st in load_scenario(disk).path)
    assert "Tape recall" not in _phase_rows(rendered(disk).pdf)
    tape = next(p for p in DEMOS if p.stem == "small_gige_lto")  # a 2 h recall
    assert "Tape recall" in _phase_rows(rendered(tape).pdf)


def test_compression_cpu_stage_counts_the_cores_the_channels_use(epoch):
    """The CPU stage showed 96 units / 24 GB/s where the appendix says min(channels,
    cores) = 64 × 250 MB/s: with fewer channels than cores only as many cores work."""
    path = next(p for p in DEMOS if p.stem == "nas_two_heads")
    s = with_values(load_scenario(path), {"backup.compression": "low",
                                          "database.cpu_cores": 96})  # fmt: skip
    plan = compute_plan(s, include_cycle=False, include_growth=False)
    model = plan.restore_path
    cpu = next(i for i, st in enumerate(model.stages) if st.one_channel_per_unit)
    n = model.active_channels
    assert n < 96
    assert model.capacity_at_Bps(cpu) == pytest.approx(model.stages[cpu].unit_Bps * n)
    text = flat(render_pdf(build_report_data(plan)))
    assert f"{n} of 96" in text and "one channel per core" in text
