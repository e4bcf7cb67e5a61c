"""The least hardware for priority 1 where it shows: `rto-planner estate` text and JSON
(with prices from the store), and the estate PDF read back."""

from __future__ import annotations

import io
import json
import shutil
import sys
import tomllib
from pathlib import Path

import pytest
from pypdf import PdfReader

from rtoplanner.app.__main__ import main
from rtoplanner.core.cli import progress as progress_module
from rtoplanner.core.estate import run_estate
from rtoplanner.core.estate.model import estate_from_mapping

from .estate_helpers import with_shared_edits
from .test_estate_policy import tight_demo

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "data" / "estates" / "site_loss.toml"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.fixture
def tight(tmp_path: Path) -> Path:
    """The demo where no runbook is enough (see `tight_demo`): the hardware search runs."""
    return tight_demo(tmp_path)


def demo_with_edits(path: Path, edits: dict[str, object], runbook: dict | None = None):
    """The estate file with `shared[i].key` edits made and a runbook, loaded as a file is."""
    doc = with_shared_edits(tomllib.loads(path.read_text(encoding="utf-8")), edits)
    if runbook:
        doc["policy"] = {"order": runbook["order"], "reserve": runbook["reserve"],
                         "start": {k: f"{v} s" for k, v in runbook["start_s"].items()}}  # fmt: skip
    return estate_from_mapping(doc, source="edited.toml", base_dir=path.parent)


def test_json_answer_loads_and_meets(capsys, tight):
    rc, out, err = run(capsys, "estate", str(tight), "--json", "--no-store")
    assert rc == 0, err
    least = json.loads(out)["least_hardware"]
    assert not least["already_met"] and least["misses_alone"] == []
    answer = least["answer"]
    assert answer["meets"] and answer["changes"]
    assert least["total_text"] == answer["cost_text"] and least["currency"] == "USD"
    assert least["priced"] is False  # nothing in the shipped catalog has a price
    assert least["proven_cheapest"] is True and least["cap_hit"] is False
    assert 2 <= len(least["frontier"]) <= 10
    assert {c["resource"] for c in least["counts"]} == {"LTO-8 library", "Media servers"}
    edits = {k: v for c in answer["changes"] for k, v in c["edits"].items()}
    before = run_estate(demo_with_edits(tight, {}), trace=False)
    after = run_estate(demo_with_edits(tight, edits, least["runbook"]), trace=False)
    assert not before.tier1_all_meet and after.tier1_all_meet
    assert least["purchase_needed"] is True


def test_prices_from_the_store_make_the_answer_priced(capsys, store_path, tight):
    db = str(store_path)
    for item, amount in (("LTO-8 library", "9000"), ("Media servers", "30000")):
        kind = "tape_drive" if item.startswith("LTO") else "media_server"
        rc, _out, err = run(capsys, "catalog", "price", item, amount, "--kind", kind,
                            "--currency", "EUR", "--db", db)  # fmt: skip
        assert rc == 0, err
    rc, out, err = run(capsys, "estate", str(tight), "--json", "--db", db)
    assert rc == 0, err
    least = json.loads(out)["least_hardware"]
    assert least["priced"] is True and least["currency"] == "EUR"
    assert least["total"] == sum(c["cost"] for c in least["answer"]["changes"])
    for c in least["answer"]["changes"]:
        ((key, count),) = c["edits"].items()
        unit = 9000 if key.startswith("shared[0]") else 30000
        current = 10 if key.startswith("shared[0]") else 2
        assert c["cost"] == (count - current) * unit
    rc, text, err = run(capsys, "estate", str(tight), "--db", db)
    assert rc == 0, err
    total_line = next(line for line in text.splitlines() if line.strip().startswith("Total"))
    assert least["total_text"] in total_line
    assert "EUR" in text and "Unpriced" not in text


def test_text_names_the_changes_the_total_and_the_method(capsys, tight):
    rc, out, err = run(capsys, "estate", str(tight), "--no-store")
    assert rc == 0, err
    _, js, _ = run(capsys, "estate", str(tight), "--json", "--no-store")
    least = json.loads(js)["least_hardware"]
    section = out.split("Least hardware for every priority-1 database to meet its RTO", 1)[1]
    for change in least["answer"]["changes"]:
        assert change["words"] in section
    assert "Total" in section and "Method:" in section
    assert "rto-planner catalog price" in section  # unpriced: how to give a price


def test_no_least_skips_it(capsys):
    rc, out, _err = run(capsys, "estate", str(DEMO), "--json", "--no-store", "--no-least")
    assert rc == 0 and "least_hardware" not in json.loads(out)


def test_pdf_prints_the_changes_and_the_total(capsys, tmp_path, tight):
    out = tmp_path / "estate.pdf"
    assert main(["report", str(tight), "-o", str(out), "-q", "--no-store"]) == 0
    text = " ".join(" ".join(p.extract_text() for p in PdfReader(out).pages).split())
    _, js, _ = run(capsys, "estate", str(tight), "--json", "--no-store")
    least = json.loads(js)["least_hardware"]
    assert "Least hardware for priority 1" in text
    for change in least["answer"]["changes"]:
        assert change["words"] in text
    assert "Total" in text and "Cost against the worst priority-1 margin" in text


def demo_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "estates"
    shutil.copytree(DEMO.parent, folder)
    return folder / DEMO.name


def test_fix_writes_the_answer_into_a_copy_keeping_comments(capsys, tight, store_path):
    db = str(store_path)
    # LTO-9 quoted very cheap: replacing the library's drives becomes the answer (a
    # change of several keys); the drives and servers themselves are priced too.
    for item, amount, kind in (("LTO-9", "10", "tape_drive"),
                               ("LTO-8 library", "9000", "tape_drive"),
                               ("Media servers", "30000", "media_server")):  # fmt: skip
        assert run(capsys, "catalog", "price", item, amount, "--kind", kind, "--db", db)[0] == 0
    src = tight
    new = src.with_name("fixed.toml")
    rc, out, err = run(capsys, "estate", str(src), "--db", db, "--fix", "-o", str(new))
    assert rc == 0, err
    assert f"Wrote {new}" in out
    text = new.read_text(encoding="utf-8")
    original = src.read_text(encoding="utf-8")
    assert text.startswith("# Least hardware for priority 1")
    assert "× LTO-9" in text.splitlines()[1]
    for line in original.splitlines():
        if line.startswith("#"):
            assert line in text  # the sources of the figures stay
    from rtoplanner.core.estate import load_estate

    fixed = load_estate(new)
    assert run_estate(fixed, trace=False).tier1_all_meet
    assert not run_estate(load_estate(src), trace=False).tier1_all_meet
    assert fixed.resource("LTO-8 library").stage.rate_Bps == 400e6


def test_fix_refuses_what_it_cannot_write(capsys, tmp_path):
    src = demo_copy(tmp_path)
    cases = [
        (["-o", str(src.with_name("x.toml"))], "-o is for --fix"),
        (["--fix"], "--fix needs -o"),
        (["--fix", "-o", str(src)], "is the estate itself"),
        (["--fix", "-o", str(tmp_path / "elsewhere.toml")], "write it beside"),
        (["--fix", "--no-least", "-o", str(src.with_name("x.toml"))], "drop --no-least"),
    ]
    for extra, message in cases:
        rc, _out, err = run(capsys, "estate", str(src), "--no-store", *extra)
        assert rc != 0 and message in err, (extra, err)
        assert "Traceback" not in err
    assert not src.with_name("x.toml").exists()


class _Terminal(io.StringIO):
    """Standard error as a terminal (the progress line shows only on one)."""

    def isatty(self) -> bool:
        return True


def test_progress_line_on_a_terminal_only(capsys, monkeypatch, tight):
    monkeypatch.setattr(progress_module, "MIN_INTERVAL_S", 0.0)  # every report shows
    rc, piped_out, piped_err = run(capsys, "estate", str(tight), "--no-store")
    assert rc == 0 and piped_err == ""
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    rc = main(["estate", str(tight), "--no-store"])
    out, _ = capsys.readouterr()
    assert rc == 0 and out == piped_out  # what a script reads never changes
    shown = terminal.getvalue()
    assert "\rleast hardware for priority 1:   0 %  trying recovery orders" in shown
    assert "bounding each shared resource" in shown
    assert "searching the cheapest combination" in shown  # and then the search
    assert shown.endswith("\r") and shown.split("\r")[-2].strip() == ""  # line cleared


def test_progress_is_none_off_a_terminal():
    assert progress_module.terminal_progress("x", io.StringIO()) is None
    line = progress_module.terminal_progress("x", _Terminal())
    assert line is not None
    line(0.5, "half")
    line.close()
    assert line.stream.getvalue() == "\rx:  50 %  half\r" + " " * len("x:  50 %  half") + "\r"
