"""The section registry: one module per section, added by one registration."""

from __future__ import annotations

import io
from dataclasses import dataclass

import pytest
from pypdf import PdfReader
from report_helpers import DEMOS

from rtoplanner.core.plan import compute_plan
from rtoplanner.core.report import build_report_data, render_pdf
from rtoplanner.core.report.model import ReportContext, Section
from rtoplanner.core.report.sections import PLAN_SECTIONS
from rtoplanner.core.scenario import load_scenario


@pytest.fixture(scope="module")
def plan():
    return compute_plan(load_scenario(DEMOS[0]))


def test_section_keys_are_unique_and_parts_follow_print_order(plan):
    keys = [s.key for s in PLAN_SECTIONS]
    assert len(keys) == len(set(keys))
    data = build_report_data(plan, advice=())
    assert [k for k in keys if k in data.parts] == list(data.parts)
    assert data.part("recovery").phase_table is data.phase_table  # flat access still works


@dataclass(frozen=True)
class _NotePart:
    note_text: str


def _note_build(ctx: ReportContext) -> _NotePart | None:
    return _NotePart(f"{ctx.scenario.name} has {len(ctx.scenario.path)} stages.")


def _note_render(r, part: _NotePart):
    return r.section("A section added by one registration", r.para(part.note_text))


NOTE = Section("note", "note", _note_build, _note_render)


def test_a_new_section_prints_where_it_is_registered(plan):
    after = [s.key for s in PLAN_SECTIONS].index("recovery") + 1
    sections = (*PLAN_SECTIONS[:after], NOTE, *PLAN_SECTIONS[after:])
    data = build_report_data(plan, advice=(), sections=sections)
    assert data.note_text.endswith("stages.")
    pdf = PdfReader(io.BytesIO(render_pdf(data, sections=sections)))
    titles = [o.title for o in pdf.outline if not isinstance(o, list)]
    assert titles.index("A section added by one registration") == (
        titles.index("Recovery timeline") + 1
    )


def test_a_section_that_builds_none_is_left_out(plan):
    quiet = Section("note", "note", lambda ctx: None, _note_render)
    data = build_report_data(plan, advice=(), sections=(*PLAN_SECTIONS, quiet))
    assert data.part("note") is None
    pdf = PdfReader(io.BytesIO(render_pdf(data, sections=(*PLAN_SECTIONS, quiet))))
    assert "A section added" not in "".join(p.extract_text() for p in pdf.pages)


def test_two_sections_may_not_share_a_field_name(plan):
    @dataclass(frozen=True)
    class Clash:
        phase_table: str

    clash = Section("clash", "clash", lambda ctx: Clash("x"), _note_render)
    with pytest.raises(ValueError, match="phase_table"):
        build_report_data(plan, advice=(), sections=(*PLAN_SECTIONS, clash))


def test_the_pdf_renderer_offers_all_a_section_may_use(plan):
    """Sections type their renderer as `model.Renderer`, so they need not import the
    renderer that imports them (no circle); the real renderer has every member."""
    from rtoplanner.core.report.model import Renderer
    from rtoplanner.core.report.pdf import ReportRenderer

    renderer = ReportRenderer(build_report_data(plan, advice=()))
    members = {n for n in vars(Renderer) if not n.startswith("_")}
    members |= set(Renderer.__annotations__)
    assert {"data", "width", "styles", "para", "table", "section", "heading"} <= members
    missing = [n for n in members if not hasattr(renderer, n)]
    assert not missing, f"ReportRenderer lacks {missing} of the Renderer protocol"
