"""The banner and status bar show the plan's headline verdict and what decides it."""

from __future__ import annotations

import shutil

import pytest

from rtoplanner.core.paths import data_dir

from .conftest import close_window, show_window

pytestmark = pytest.mark.gui


@pytest.fixture
def gige_window(qtbot, tmp_path):
    path = tmp_path / "gige.toml"
    shutil.copy(data_dir() / "scenarios" / "small_gige_lto.toml", path)
    win = show_window(qtbot, path=path)
    assert win.doc.wait_idle()
    yield win
    close_window(win)


def test_missed_rpo_turns_the_banner_red_although_recovery_meets(gige_window):
    plan = gige_window.doc.plan
    assert plan.recovery.verdict == "meets"
    banner = gige_window.banner
    assert banner.verdict == "misses"
    assert "MISSES</b> <span style='color:gray'><i>— probability pending…</i></span> — decided "\
        "by <b>RPO" in banner.text()  # fmt: skip
    assert gige_window.odds.wait_idle()
    assert "MISSES</b> — <b style='color:#d23c3c'>0 % likely to meet</b> — decided by <b>RPO" in (
        banner.text())  # fmt: skip
    assert "MISSES" in gige_window.verdict_label.text()
    assert "(RPO)" in gige_window.verdict_label.text()
    assert "RPO: site-loss data loss" in banner.toolTip()


def test_banner_names_the_deciding_phase_then_its_limit(qtbot, tmp_path):
    path = tmp_path / "oltp.toml"
    shutil.copy(data_dir() / "scenarios" / "oltp_zfs_nas.toml", path)
    win = show_window(qtbot, path=path)
    try:
        assert win.doc.wait_idle()
        text = win.banner.text()
        rec = win.doc.plan.recovery
        share = rec.phase("redo_apply").duration_s / rec.total_s * 100
        assert rec.longest_phase.name == "redo_apply"
        assert (
            f"Redo apply takes {share:.0f} % of the recovery, limited by the redo apply rate"
            in text
        )
        assert "restore limited by" not in text
        # the OLTP redo apply class default and (model v3) its cost per archived log
        assert "2 defaults that decide" in text
        assert "read them</a>, Ctrl+Shift+I)" in text and ": hover" not in text
        assert "V$RECOVERY_PROGRESS" in win.banner.toolTip()
    finally:
        close_window(win)
