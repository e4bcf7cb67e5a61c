"""RESTORE PREVIEW fills a scenario (core and `rto-planner preview`)."""

from __future__ import annotations

import json

import pytest

from rtoplanner.core.cli import main
from rtoplanner.core.evidence.edits import raw_edits
from rtoplanner.core.evidence.preview_fill import PreviewFillError, fill_from_preview
from rtoplanner.core.importers.preview import load_preview, parse_preview_text
from rtoplanner.core.plan import compute_plan
from rtoplanner.core.scenario import load_scenario
from rtoplanner.core.store import Store

from .conftest import EVIDENCE, EXADATA
from .test_view_readers import PUBLIC_PREVIEW


def test_preview_sets_the_volumes_with_exact_provenance(exadata) -> None:
    fill = fill_from_preview(exadata, load_preview(EVIDENCE / "preview_prod.txt"))
    s = fill.scenario
    assert s.database.size_bytes == pytest.approx(10e12, rel=1e-5)
    assert s.recovery.incremental_size_bytes == pytest.approx(2.4e12, rel=1e-4)
    assert s.recovery.redo_volume_bytes == pytest.approx(400e9, rel=1e-3)
    assert s.recovery.archivelogs_on_disk is False  # every log comes from a backup set
    figures = [v for v in fill.values if v.key != "recovery.archivelogs_on_disk"]
    assert all(
        s.provenance[v.key].startswith("exact: RESTORE PREVIEW (preview_prod.txt)") for v in figures
    )
    assert any(n.startswith("recovery.archivelogs_on_disk = false") for n in fill.notes)
    assert fill.log_ranges == ((1, 48211, 48410, 200),) and len(fill.cartridges) == 30
    assert any("30 tape volumes" in n for n in fill.notes)
    # the plan now restores the archived redo through the path and applies 400 GB of it
    plan = compute_plan(s, include_cycle=False, include_growth=False)
    assert plan.recovery.phase("restore_archivelogs").duration_s > 0


def test_public_preview_with_compressed_sets_uses_the_ratio() -> None:
    text = EXADATA.read_text().replace("compression_ratio = 1.0", "compression_ratio = 4.0")
    from rtoplanner.core.scenario import load_scenario_text

    sc = load_scenario_text(text, "x")
    fill = fill_from_preview(sc, parse_preview_text(PUBLIC_PREVIEW, "p.txt"))
    # the compressed Full set ×4, the uncompressed tape set ×1
    level0 = {v.key: v for v in fill.values}["database.size"]
    assert "× backup.compression_ratio 4" in level0.provenance
    assert fill.scenario.recovery.archivelogs_on_disk  # one log is read from disk: kept
    assert any("read from disk" in n for n in fill.notes)


def test_several_level1_tags_are_differentials() -> None:
    text = PUBLIC_PREVIEW.replace("1234    Incr 0  1.20T", "1234    Incr 1  1.20T").replace(
        "BS Key  Size       Device Type",
        "BS Key  Type LV Size       Device Type Elapsed Time Completion Time\n"
        "------- ---- -- ---------- ----------- ------------ ---------------\n"
        "1300    Incr 1  2.00G      DISK        00:00:05     14-MAY-18\n"
        "        BP Key: 9   Status: AVAILABLE  Compressed: NO  Tag: TAG_B\n\n"
        "BS Key  Size       Device Type",
    )
    sc = load_scenario(EXADATA)
    p = parse_preview_text(text, "p.txt")
    assert len({s.tag for s in p.of_level("1")}) == 2
    fill = fill_from_preview(sc, p)
    assert any("differentials" in n for n in fill.notes)  # the scenario says cumulative


def test_summary_cannot_fill(exadata) -> None:
    with pytest.raises(PreviewFillError, match="PREVIEW SUMMARY prints no sizes"):
        fill_from_preview(exadata, load_preview(EVIDENCE / "preview_summary_prod.txt"))


def test_raw_edits_are_the_fill_as_one_step(exadata) -> None:
    """What the GUI applies as one undo step reproduces the filled scenario."""
    from rtoplanner.core.scenario import with_values

    fill = fill_from_preview(exadata, load_preview(EVIDENCE / "preview_prod.txt"))
    edits = raw_edits(exadata, fill.scenario)
    assert "provenance.database.size" in edits and "database.size" in edits
    again = with_values(exadata, edits)
    assert again.database == fill.scenario.database and again.recovery == fill.scenario.recovery
    assert dict(again.provenance) == dict(fill.scenario.provenance)


def test_cli_summary_fill_file_and_stored(tmp_path, store_path, capsys) -> None:
    preview = str(EVIDENCE / "preview_prod.txt")
    assert main(["preview", preview]) == 0
    out = capsys.readouterr().out
    assert "level 0        70 backup sets of 1 backup(s)" in out and "48211 – 48410" in out
    new = tmp_path / "filled.toml"
    assert main(["preview", preview, str(EXADATA), "-o", str(new)]) == 0
    assert "wrote" in capsys.readouterr().out
    assert load_scenario(new).recovery.redo_volume_bytes == pytest.approx(400e9, rel=1e-3)
    db = ["--db", str(store_path)]
    with Store(store_path) as s:
        s.save_scenario(EXADATA.read_text(), comment="v1")
    assert main([*db, "preview", preview, "Exadata", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert {v["key"] for v in doc["values"]} >= {"database.size", "recovery.redo_volume"}
    with Store(store_path) as s:
        assert (
            s.scenario_version("Exadata full rack – restore from LTO-4 over InfiniBand").version
            == 2
        )


def test_cli_refuses_what_is_not_a_preview(capsys) -> None:
    assert main(["preview", str(EVIDENCE / "drill_prod_iso.log")]) == 2
    assert "not RESTORE … PREVIEW output but rman_log" in capsys.readouterr().err
