"""What a DBA winced at in the PDF (issue 15.10), each read back from the real PDF."""

from __future__ import annotations

import io
import re
from datetime import date

import pytest
from pypdf import PdfReader
from report_helpers import DEMOS, demo_ids, rendered
from reportlab.graphics.shapes import Group, Line, Rect, String
from reportlab.lib import colors

from rtoplanner.core.plan import compute_plan
from rtoplanner.core.report import build_report_data, charts
from rtoplanner.core.scenario import load_scenario
from rtoplanner.core.units import HOUR


def pages_text(pdf: bytes) -> list[str]:
    return [p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages]


@pytest.mark.parametrize("path", DEMOS, ids=demo_ids())
def test_real_plurals_not_bracketed_ones(path):
    text = "\n".join(pages_text(rendered(path, with_workload=True).pdf))
    assert not re.findall(r"\w\(s\)", text)


@pytest.mark.parametrize("path", DEMOS, ids=demo_ids())
def test_a_table_of_contents_lists_every_section_with_its_page(path):
    rd = rendered(path)
    r = PdfReader(io.BytesIO(rd.pdf))
    contents = r.pages[1].extract_text()
    assert "Contents" in contents
    top = [
        (item.title, r.get_destination_page_number(item) + 1)
        for item in r.outline
        if not isinstance(item, list) and item.title not in ("Cover", "Contents")
    ]
    assert len(top) >= 8
    # Each entry is a title, dot leaders and its page (extracted as leaders, page, title).
    after = contents.split("Contents", 1)[1]
    listed = {
        title.strip(): int(page) for page, title in re.findall(r"\.\s*(\d+)\n([^\n]+)", after)
    }
    for title, page in top:
        assert listed.get(title) == page, (title, page, listed)


@pytest.mark.parametrize("path", DEMOS, ids=demo_ids())
def test_no_page_begins_with_a_lone_last_word(path):
    """Page 4 began with the single word "starts."."""
    for i, text in enumerate(pages_text(rendered(path, with_workload=True).pdf)[1:], 2):
        body = [line for line in text.splitlines() if line.strip()][1:]  # after the header
        assert body, i
        first = body[0].strip()
        assert not (len(first.split()) == 1 and first.endswith(".")), (i, first)


def test_time_axes_read_hours_and_minutes():
    unit, name, step = charts._time_axis(7.5 * HOUR)
    assert unit == HOUR and name == "h:mm"
    assert step in (0.25, 0.5, 1, 2, 3, 4, 6, 8, 12, 24)
    assert charts._tick(2.5, name) == "2:30"
    assert charts._tick(0.25, name) == "0:15"
    for path in DEMOS:
        pages = pages_text(rendered(path).pdf)
        timeline = next(t for t in pages if "time from the failure" in t)
        assert "time from the failure (h:mm)" in timeline or "(min)" in timeline


def _strings_and_rects(node, out):
    for item in getattr(node, "contents", []):
        if isinstance(item, Group):
            _strings_and_rects(item, out)
        else:
            out.append(item)
    return out


def _labels_on_the_total_line(path):
    """(labels the dashed total line crosses, those of them with no white ground)."""
    items = _strings_and_rects(charts.gantt_chart(rendered(path).data, 480), [])
    total = next(i for i, it in enumerate(items) if isinstance(it, Line) and it.strokeDashArray)
    x = items[total].x1
    y_lo, y_hi = sorted((items[total].y1, items[total].y2))
    later = items[total + 1 :]
    grounds = [it for it in later if isinstance(it, Rect) and it.fillColor == colors.white]
    crossed, bare = [], []
    for it in later:
        if not isinstance(it, String) or it.fillColor == colors.white:
            continue
        width = charts._w(it.text, it.fontSize)
        left = it.x - (width if it.textAnchor == "end" else 0)
        if not (left < x < left + width and y_lo < it.y < y_hi):
            continue
        crossed.append(it.text)
        if not any(
            g.x <= left and left + width <= g.x + g.width and g.y <= it.y <= g.y + g.height
            for g in grounds
        ):
            bare.append(it.text)
    return crossed, bare


def test_the_dashed_total_line_never_runs_through_a_phase_label():
    crossed_any = False
    for path in DEMOS:
        crossed, bare = _labels_on_the_total_line(path)
        assert bare == [], (path.stem, bare)
        crossed_any = crossed_any or bool(crossed)
    assert crossed_any  # the demos do put a label across the line


def test_the_cover_quotes_the_restore_rate_of_the_phase_table():
    """The cover said 11.5 TB/h where the phase table said 11.3 TB/h."""
    for path in DEMOS:
        rd = rendered(path)
        d = rd.data
        figure = next(f for f in d.key_figures if f.label == "Restore rate")
        level0 = next(r for r in d.phase_table.rows if r[0] == "Restore level 0")
        assert figure.value == level0[4]
        assert figure.value in pages_text(rd.pdf)[0]


@pytest.mark.parametrize(
    ("as_of", "day"), [(date(2026, 3, 21), "-03-21"), (date(2028, 2, 29), "-02-2")]
)
def test_growth_dates_stay_on_one_day_of_the_year(as_of, day):
    plan = compute_plan(load_scenario(DEMOS[0]), as_of=as_of)
    d = build_report_data(plan, advice=())
    dates = [row[0] for row in d.growth_table.rows]
    assert len(dates) >= 10
    assert all(day in x for x in dates), dates
    if as_of.month == 2:
        assert dates[1].endswith("-02-28")


def test_a_paragraph_never_leaves_its_last_line_alone_on_the_next_page():
    """The backups text ended on a new page with the single word "starts."."""
    from reportlab.platypus import Paragraph

    from rtoplanner.core.report.pdf import ReportRenderer

    rd = rendered(DEMOS[0])
    renderer = ReportRenderer(rd.data)
    style = renderer.styles["body"]
    para = Paragraph(rd.data.jobs_text, style)
    width = renderer.width
    _, height = para.wrap(width, 10_000)
    lines = round(height / style.leading)
    assert lines >= 3
    parts = Paragraph(rd.data.jobs_text, style).split(width, (lines - 1) * style.leading + 1)
    if parts:  # split: the part on the next page has at least two lines
        _, rest = parts[-1].wrap(width, 10_000)
        assert round(rest / style.leading) >= 2


def test_the_ledger_speaks_a_dbas_words_and_carries_the_files_comments():
    """The ledger was raw keys with an empty Source column; the file's comments were lost."""
    path = next(p for p in DEMOS if p.stem == "exadata_tape_infiniband")
    rd = rendered(path)
    d = rd.data
    by_key = {
        r[0].split("\n")[-1]: r
        for i, r in enumerate(d.assumptions.rows)
        if i not in d.assumptions.group_rows
    }
    assert by_key["database.redo_rate"][0].startswith("Redo generated\n")
    assert by_key["path[1].rate"][0].startswith("Rate of one unit\n")
    # A comment beside a value is that value's source.
    assert "1.6 GB/sec" in by_key["path[1].rate"][4]
    assert "24 channels" in by_key["backup.channel_init"][4]
    assert d.file_note.startswith("Figures from the Oracle MAA white paper")
    text = re.sub(r"\s+", " ", " ".join(pages_text(rd.pdf)))
    assert "The scenario file says: Figures from the Oracle MAA white paper" in text
    assert "Redo generated" in text and "per InfiniBand DDR HCA" in text


def test_a_stage_comment_heads_its_stage_in_the_ledger(tmp_path):
    text = DEMOS[0].read_text(encoding="utf-8")
    text = text.replace("[[path]]\n", "# the customer's tape library, 2019\n[[path]]\n", 1)
    src = tmp_path / "commented.toml"
    src.write_text(text, encoding="utf-8")
    d = build_report_data(compute_plan(load_scenario(src)), advice=())
    heads = [d.assumptions.rows[i][0] for i in d.assumptions.group_rows]
    assert any(h.startswith("Path stage 1") and "tape library, 2019" in h for h in heads)
