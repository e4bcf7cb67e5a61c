"""Issue 23.6: the views give rates per second, as they are typed, where the backups
labels, the path headline and the timeline's hover said "705 GB/h effective"."""

from __future__ import annotations

import re

PER_HOUR = re.compile(r"\d[\d.,]*\s?[kMGTP]i?B/(?:h|min)\b")
PER_SECOND = re.compile(r"\d[\d.,]*\s?[kMGTP]i?B/s\b")


def test_views_give_rates_per_second(window):
    window.show_view("backups")
    backups = window.results.panel("backups")
    labels = [lab.toPlainText() for lab in backups.job_labels if lab.toPlainText()]
    path = window.results.panel("path").headline.text()
    p = next(p for p in window.timeline_panel.shown if p.rate_Bps)
    hover = window.timeline_panel.text_at(
        p.start_s + p.duration_s / 2, window.timeline_panel.shown.index(p)
    )
    shown = [*labels, backups.note.text(), path, hover]
    assert labels and all(PER_SECOND.search(t) for t in [*labels, path, hover]), shown
    assert not any(PER_HOUR.search(t) for t in shown), shown
