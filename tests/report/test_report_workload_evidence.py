"""`rto-planner report` prints the workload evidence behind an imported redo rate."""

from __future__ import annotations

from pathlib import Path

from pypdf import PdfReader

from rtoplanner.app.__main__ import main

REPO = Path(__file__).resolve().parents[2]
DBU = REPO / "tests" / "fixtures" / "awr" / "Azure-Oracle-Workloads-for-Azure__AWR_DBU.html"
DEMO = REPO / "data" / "scenarios" / "oltp_zfs_nas.toml"


def _text(pdf: Path) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(pdf).pages)


def test_report_includes_evidence_of_imported_reports(tmp_path, capsys):
    db = str(tmp_path / "store.duckdb")
    assert main(["import", str(DBU), "--db", db]) == 0
    applied = tmp_path / "applied.toml"
    rc = main(["imports", "apply", str(DEMO), "--database", "DBU", "--redo", "p95",
               "-o", str(applied), "--db", db])  # fmt: skip
    assert rc == 0, capsys.readouterr().err
    with_evidence = tmp_path / "with.pdf"
    assert main(["report", str(applied), "-o", str(with_evidence), "--db", db, "-q"]) == 0
    text = _text(with_evidence)
    assert "Workload evidence" in text and "DBU" in text
    # The plain demo has no imported figures: no evidence section.
    plain = tmp_path / "plain.pdf"
    assert main(["report", str(DEMO), "-o", str(plain), "--db", db, "-q"]) == 0
    assert "Workload evidence" not in _text(plain)
