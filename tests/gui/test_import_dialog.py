"""The workload import dialog on real widgets, real reports and a real store."""

from __future__ import annotations

import re
import shutil

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QApplication

from rtoplanner.app.dialogs.import_dialog import (
    DatabaseSummaryModel,
    ImportDialog,
    ImportPreviewModel,
    read_workload_files,
)
from rtoplanner.core.importers.stored import workload_summaries
from rtoplanner.core.units import parse_rate

from .conftest import REPO

pytestmark = pytest.mark.gui

AWR = REPO / "tests" / "fixtures" / "awr"
DBU = AWR / "Azure-Oracle-Workloads-for-Azure__AWR_DBU.html"
DBS = AWR / "Azure-Oracle-Workloads-for-Azure__AWR_DBS.html"
HOURLY = [AWR / "1newstar-awr2csv__awr_11204_1.html", AWR / "1newstar-awr2csv__awr_11204_2.txt"]


def _dialog(qtbot, window, paths=()) -> ImportDialog:
    dlg = ImportDialog(window, paths)
    qtbot.addWidget(dlg)
    dlg.show()
    return dlg


def _wait(qtbot, dlg: ImportDialog, timeout: int = 20000) -> None:
    qtbot.waitUntil(lambda: not dlg.busy and dlg.run is not None, timeout=timeout)


def test_importing_a_sample_report_updates_the_redo_rate(qtbot, store_window, service):
    doc = store_window.doc
    before_raw = doc.raw["database"]["redo_rate"]
    before_redo = next(p for p in doc.plan.recovery.phases if p.name == "redo_apply")

    dlg = _dialog(qtbot, store_window, [DBU])
    _wait(qtbot, dlg)
    # The preview: the database, its period and its redo rate.
    pm = dlg.preview_model
    assert pm.rowCount() == 1
    row = [pm.index(0, c).data() for c in range(pm.columnCount())]
    assert row[ImportPreviewModel.COL_FILE] == DBU.name
    assert row[ImportPreviewModel.COL_STATUS] == "imported"
    assert row[ImportPreviewModel.COL_DATABASE].startswith("DBU")
    assert row[ImportPreviewModel.COL_PERIOD] == "2023-02-15 00:00 → 2023-02-21 00:00"
    assert row[ImportPreviewModel.COL_REDO] == "3.28 MB/s"
    assert dlg.db_model.rowCount() == 1
    assert dlg.db_model.index(0, DatabaseSummaryModel.COL_P95).data() == "3.28 MB/s"
    # Kept in the store.
    assert [w.db_name for w in workload_summaries(service.store)] == ["DBU"]

    assert dlg.apply_button.isEnabled()
    assert "Redo generated" in dlg.apply_label.text()  # the form's label, not the key
    dlg.set_redo_choice("avg")
    qtbot.mouseClick(dlg.apply_button, Qt.MouseButton.LeftButton)
    assert doc.wait_idle()

    after_raw = doc.raw["database"]["redo_rate"]
    assert after_raw != before_raw
    # In the user's units with the three figures shown everywhere (issue 15.8: the field
    # showed "1207.6 B/s"; issue 23.11: a fourth figure read 5.22 in one place, 5.21 in another).
    assert re.fullmatch(r"\d[\d.]{0,3} (kB|MB|GB)/s", after_raw), after_raw
    assert parse_rate(after_raw) == pytest.approx(3277772.8, rel=1e-3)
    prov = doc.raw["provenance"]
    assert prov["workload.database"] == "DBU"
    assert "average redo" in prov["database.redo_rate"]
    assert doc.scenario.provenance["database.redo_rate"] == prov["database.redo_rate"]
    after_redo = next(p for p in doc.plan.recovery.phases if p.name == "redo_apply")
    assert after_redo.data_bytes != pytest.approx(before_redo.data_bytes)
    assert doc.undo_stack.undoText() == "Apply workload from DBU"
    assert "redo redo" not in dlg.status_label.text()  # issue 15.8
    assert "Applied the average redo of DBU" in dlg.status_label.text()

    # One undo step takes the value and its provenance back.
    doc.undo_stack.undo()
    assert doc.wait_idle()
    assert doc.raw["database"]["redo_rate"] == before_raw
    assert "database.redo_rate" not in (doc.raw.get("provenance") or {})
    restored = next(p for p in doc.plan.recovery.phases if p.name == "redo_apply")
    assert restored.data_bytes == pytest.approx(before_redo.data_bytes)
    dlg.close()


def test_a_bad_file_shows_its_reason_and_the_rest_is_read(qtbot, window, tmp_path):
    bad = tmp_path / "not_a_report.html"
    bad.write_text("<html><body>Quarterly sales</body></html>", encoding="utf-8")
    cut = tmp_path / "cut.html"
    cut.write_bytes(DBS.read_bytes()[:4000])
    # The window has no store: figures come from the files only.
    dlg = _dialog(qtbot, window, [bad, cut, DBU])
    _wait(qtbot, dlg)
    pm = dlg.preview_model
    rows = {
        pm.index(r, 0).data(): [pm.index(r, c).data() for c in range(pm.columnCount())]
        for r in range(pm.rowCount())
    }
    assert rows[bad.name][ImportPreviewModel.COL_STATUS] == "not read"
    assert "not an AWR or Statspack report" in rows[bad.name][ImportPreviewModel.COL_NOTES]
    assert rows[cut.name][ImportPreviewModel.COL_STATUS] == "not read"
    assert rows[cut.name][ImportPreviewModel.COL_NOTES]
    assert rows[DBU.name][ImportPreviewModel.COL_STATUS] == "read"
    assert dlg.status_label.text() == "1 of 3 files read; 2 not read (see Notes)"
    assert "Not kept" in dlg.store_label.text()
    # Without a store the figures of the files read can still be applied.
    assert dlg.select_database("DBU")
    assert dlg.apply()
    assert window.doc.wait_idle()
    assert parse_rate(window.doc.raw["database"]["redo_rate"]) == pytest.approx(3277772.8, rel=1e-3)
    dlg.close()


def test_stop_ends_a_long_import_and_keeps_what_was_read(qtbot, store_window, tmp_path):
    folder = tmp_path / "many"
    folder.mkdir()
    for i in range(150):
        shutil.copy(HOURLY[i % 2], folder / f"r{i:03d}{HOURLY[i % 2].suffix}")
    dlg = _dialog(qtbot, store_window, [folder])
    qtbot.waitUntil(lambda: dlg.preview_model.rowCount() >= 2, timeout=10000)
    qtbot.mouseClick(dlg.stop_button, Qt.MouseButton.LeftButton)
    _wait(qtbot, dlg)
    run = dlg.run
    assert run.stopped
    assert run.total_files == 150
    assert 2 <= len(run.files) < 150
    assert dlg.status_label.text().startswith("Stopped:")
    assert dlg.preview_model.rowCount() == len(run.files)
    dlg.close()


def test_closing_cancels_and_waits(qtbot, store_window, tmp_path):
    folder = tmp_path / "many"
    folder.mkdir()
    for i in range(150):
        shutil.copy(DBU, folder / f"r{i:03d}.html")
    dlg = _dialog(qtbot, store_window, [folder])
    qtbot.waitUntil(lambda: dlg.preview_model.rowCount() >= 1, timeout=10000)
    dlg.close()
    QApplication.processEvents()
    assert not dlg.busy
    assert dlg.run is None  # a cancelled task delivers nothing


def test_worker_function_reports_per_file(tmp_path):
    seen = []
    empty = tmp_path / "empty"
    empty.mkdir()
    run = read_workload_files([*HOURLY, empty], on_file=seen.append)
    assert len(seen) == 3 and run.total_files == 3
    assert [f.status for f in run.files].count("error") == 1  # the empty folder
    assert [w.db_name for w in run.databases] == ["ORCL"]


def test_files_dropped_on_the_window_open_the_dialog(qtbot, store_window):
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(DBU))])
    drop = QDropEvent(
        QPointF(200, 200),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    store_window.dropEvent(drop)
    dlg = store_window.import_dialog
    assert isinstance(dlg, ImportDialog) and dlg.isVisible()
    _wait(qtbot, dlg)
    assert dlg.preview_model.rowCount() == 1
    dlg.close()


def test_preview_models(qtmodeltester, qtbot):
    run = read_workload_files(HOURLY)
    pm = ImportPreviewModel()
    for f in run.files:
        pm.add_outcome(f)
    qtmodeltester.check(pm)
    dm = DatabaseSummaryModel()
    dm.set_rows(run.databases)
    qtmodeltester.check(dm)
    assert dm.rowCount() == 1


def _big_sysstat(path, hours: int):
    import sys

    sys.path.insert(0, str(REPO / "tests" / "workloads"))
    from workload_helpers import sysstat_csv

    return sysstat_csv(path, hours=hours, instances=2)


def test_a_large_export_moves_the_bar_within_the_file(qtbot, store_window, tmp_path, monkeypatch):
    """Issue 25: one large DBA_HIST_SYSSTAT export used to sit at 0 % until it was done."""
    from rtoplanner.core.importers import store_import as si

    monkeypatch.setattr(si, "CHUNK_ROWS", 2000)
    big = _big_sysstat(tmp_path / "year.csv", 8760)
    dlg = ImportDialog(store_window, [])
    qtbot.addWidget(dlg)
    messages, values = [], []
    dlg.runner.progress.connect(lambda _f, m: messages.append(m))
    dlg.progress_bar.valueChanged.connect(values.append)
    dlg.show()
    assert dlg.start([big])
    _wait(qtbot, dlg, 60000)
    assert dlg.run.files[0].status == "imported"
    storing = [m for m in messages if "storing" in m]
    assert storing[0] == "Reading 1 of 1: year.csv — storing 0 of 17,520 rows"
    assert len(storing) == 9
    inside = sorted({v for v in values if 0 < v < 100})
    assert len(inside) >= 5 and inside == sorted(inside)  # steps within the one file
    assert dlg.progress_bar.value() == 100
    # the file's row names its database and period, as a report's row does (were blank)
    pm = dlg.preview_model
    assert pm.index(0, ImportPreviewModel.COL_DATABASE).data() == "PROD"
    assert (
        pm.index(0, ImportPreviewModel.COL_PERIOD).data() == "2024-03-01 00:00 → 2025-03-01 00:00"
    )
    dlg.close()


def test_stop_in_a_large_file_keeps_nothing_of_it(
    qtbot, store_window, service, tmp_path, monkeypatch
):
    """Stop while a large export is being stored: its transaction is rolled back, the
    preview says so, and the store holds none of its rows (nothing half-stored)."""
    from rtoplanner.core.importers import store_import as si

    monkeypatch.setattr(si, "CHUNK_ROWS", 2000)
    big = _big_sysstat(tmp_path / "year.csv", 8760)
    dlg = ImportDialog(store_window, [])
    qtbot.addWidget(dlg)
    real = si.insert_select

    def insert_then_stop(*args, **kwargs):
        real(*args, **kwargs)
        dlg._stop.set()  # what Stop sets, once the first rows went in (a threading.Event)

    monkeypatch.setattr(si, "insert_select", insert_then_stop)
    dlg.show()
    assert dlg.start([big])
    _wait(qtbot, dlg, 60000)
    run = dlg.run
    assert run.stopped and [f.status for f in run.files] == ["stopped"]
    assert dlg.preview_model.index(0, ImportPreviewModel.COL_STATUS).data() == "stopped"
    assert "nothing of it kept" in dlg.status_label.text()
    assert dlg.status_label.text().startswith("Stopped:")
    n = service.store.read(lambda cur: cur.execute("SELECT count(*) FROM workload").fetchone())
    assert n == (0,)
    dlg.close()
