"""Hostile and careless input: one-line errors, sane ranges, valid JSON, no hang (issue 16).

Items 3, 4, 7 and 8 of issue 16, each through the real command line (in-process `main`
where that is enough, a real child process where the case is about the process: closed
or full standard output, devices, FIFOs). Every case here failed before the fix.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rtoplanner.core.cli import main
from rtoplanner.core.textsafe import safe_text

REPO = Path(__file__).resolve().parents[2]
BASE = (REPO / "data" / "scenarios" / "small_gige_lto.toml").read_text(encoding="utf-8")
TIMEOUT = 60  # a guard against a hang, not a speed assertion


def _with(tmp_path: Path, key: str, value: str, name: str = "s.toml") -> Path:
    pattern = rf"(?m)^{re.escape(key)}\s*=.*$"
    text, n = re.subn(pattern, lambda m: f"{key} = {value}", BASE, count=1)
    assert n == 1, key
    out = tmp_path / name
    out.write_text(text, encoding="utf-8")
    return out


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _one_line(code: int, err: str, *needles: str) -> None:
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("rto-planner"), err
    assert "Traceback" not in err and "internal error" not in err
    for needle in needles:
        assert needle in lines[0], lines[0]


# ------------------------------------------------------------------ 7: exit 70 paths

WRONG_VALUES = [
    ("growth", '"99%/s"', "growth"),
    ("daily_change", "[1]", "daily_change"),
    ("daily_change", "{a = 1}", "daily_change"),
    ("compression_ratio", "{a = 1}", "compression_ratio"),
    ("compression_ratio", "[2]", "compression_ratio"),
    ("efficiency", "[0.5]", "efficiency"),
    ("rto", '"5e-324 s"', "rto"),
]


@pytest.mark.parametrize("key, value, needle", WRONG_VALUES)
def test_wrong_values_are_one_line_errors(tmp_path, capsys, key, value, needle) -> None:
    path = _with(tmp_path, key, value)
    _one_line(*_run(capsys, "plan", str(path), "--no-store")[::2], needle)


def test_as_of_far_future_is_refused(tmp_path, capsys) -> None:
    path = _with(tmp_path, "rto", '"12 h"')
    with pytest.raises(SystemExit) as info:
        main(["plan", str(path), "--no-store", "--as-of", "9999-12-31"])
    assert info.value.code == 2
    assert "between" in capsys.readouterr().err


def test_deep_nesting_is_refused(tmp_path, capsys) -> None:
    path = tmp_path / "deep.toml"
    path.write_text(BASE + "\nx = " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
    _one_line(*_run(capsys, "plan", str(path), "--no-store")[::2], "nested")


def _nested(construct: str, depth: int) -> str:
    """A minimal TOML text whose deepest table or array lies `depth` levels down."""
    if construct == "dotted key":
        return ".".join(["k"] * (depth + 1)) + " = 1\n"
    if construct == "table header":
        return "[" + ".".join(["k"] * depth) + "]\nv = 1\n"
    if construct == "array":
        return "x = " + "[" * depth + "1" + "]" * depth + "\n"
    return "x = " + "{a = " * (depth - 1) + "{a = 1}" + "}" * (depth - 1) + "\n"


@pytest.mark.parametrize("construct", ["dotted key", "table header", "array", "inline table"])
def test_nesting_at_the_limit_is_refused_through_every_construct(construct) -> None:
    """Issue 22.3 skips walking a document whose text has fewer `[`, `{` and `.` than the
    limit: each construct that nests spends one of them per level, so exactly the texts
    that reach MAX_NESTING are still walked and refused, and one level less is not."""
    from rtoplanner.core.bounds import MAX_NESTING
    from rtoplanner.core.errors import ScenarioError
    from rtoplanner.core.scenario import load_scenario_text

    with pytest.raises(ScenarioError, match="nested more than"):
        load_scenario_text(_nested(construct, MAX_NESTING), "deep.toml")
    with pytest.raises(ScenarioError) as info:
        load_scenario_text(_nested(construct, MAX_NESTING - 1), "deep.toml")
    assert "nested" not in str(info.value)


def test_long_name_in_report_is_refused(tmp_path, capsys) -> None:
    path = _with(tmp_path, "name", '"' + "N" * 10_000 + '"')
    code, _, err = _run(capsys, "report", str(path), "-o", str(tmp_path / "x.pdf"), "--no-store")
    _one_line(code, err, "10,000 characters")
    assert not (tmp_path / "x.pdf").exists()


@pytest.mark.parametrize("where", ["missing/out.pdf", "file.txt/out.pdf"])
def test_report_and_export_to_a_missing_folder(tmp_path, capsys, where) -> None:
    (tmp_path / "file.txt").write_text("x")
    path = _with(tmp_path, "rto", '"12 h"')
    code, _, err = _run(capsys, "report", str(path), "-o", str(tmp_path / where), "--no-store")
    _one_line(code, err)
    db = str(tmp_path / "db.duckdb")
    assert _run(capsys, "--db", db, "scenarios", "import", str(path))[0] == 0
    name = json.loads(_run(capsys, "--db", db, "scenarios", "list", "--json")[1])[0]["name"]
    code, _, err = _run(
        capsys, "--db", db, "scenarios", "export", name, "-o", str(tmp_path / where)
    )
    _one_line(code, err)


def _child(args: list[str], **kw) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rtoplanner.core.cli", *args],
        capture_output=kw.pop("capture", True), text=True, timeout=TIMEOUT, **kw,
    )  # fmt: skip


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_stdout_on_a_full_device(tmp_path) -> None:
    path = _with(tmp_path, "rto", '"12 h"')
    with open("/dev/full", "w") as full:
        proc = subprocess.run(
            [sys.executable, "-m", "rtoplanner.core.cli", "plan", str(path), "--no-store"],
            stdout=full, stderr=subprocess.PIPE, text=True, timeout=TIMEOUT,
        )  # fmt: skip
    _one_line(proc.returncode, proc.stderr, "No space left")


def test_stdout_closed(tmp_path) -> None:
    path = _with(tmp_path, "rto", '"12 h"')
    proc = subprocess.run(
        [sys.executable, "-c",
         "import os, sys; os.close(1); from rtoplanner.core.cli import main; "
         "sys.stdout = None; sys.exit(main(sys.argv[1:]))", "plan", str(path), "--no-store"],
        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, timeout=TIMEOUT,
    )  # fmt: skip
    _one_line(proc.returncode, proc.stderr, "closed")


def test_catalog_add_of_a_scenario_is_an_error(tmp_path, capsys) -> None:
    path = _with(tmp_path, "rto", '"12 h"')
    code, out, err = _run(capsys, "--db", str(tmp_path / "db.duckdb"), "catalog", "add", str(path))
    _one_line(code, err, "scenario")
    assert "Added 0" not in out


def test_results_of_a_missing_version_says_so(tmp_path, capsys) -> None:
    path = _with(tmp_path, "rto", '"12 h"')
    db = str(tmp_path / "db.duckdb")
    assert _run(capsys, "--db", db, "scenarios", "import", str(path))[0] == 0
    name = json.loads(_run(capsys, "--db", db, "scenarios", "list", "--json")[1])[0]["name"]
    code, out, err = _run(capsys, "--db", db, "scenarios", "results", name, "--version", "99")
    _one_line(code, err, "no version 99")
    assert "No plans kept" not in out


def test_store_permission_error_is_not_called_damage(tmp_path) -> None:
    import duckdb

    from rtoplanner.core.store.errors import translate_duckdb_error

    for text, needle in (
        ('IO Error: Cannot open file "x.duckdb": Permission denied', "permission denied"),
        ("IO Error: Could not write file: No space left on device", "disk is full"),
    ):
        err = translate_duckdb_error(duckdb.IOException(text), tmp_path / "x.duckdb")
        assert needle in str(err) and "damaged" not in str(err) and "backup" not in str(err)


# ------------------------------------------------------------------ 8: sensible ranges

OUT_OF_RANGE = [
    ("efficiency", "1e-308"),
    ("level1_every", '"0.5 ms"'),
    ("rto", '"1e300 s"'),
    ("channels", "1000000000000000000"),
    ("count", "1000000000000"),
    ("name", '"   "'),
    ("name", '""'),
    ("compression_ratio", "1e300"),
    ("size", '"1e30 TB"'),
    ("level0_every", '"10000 w"'),
    ("level0_every", '"1e6 w"'),
]


@pytest.mark.parametrize("key, value", OUT_OF_RANGE)
def test_nonsense_values_are_refused_with_the_reason(tmp_path, capsys, key, value) -> None:
    path = _with(tmp_path, key, value)
    code, out, err = _run(capsys, "plan", str(path), "--no-store", "--json")
    _one_line(code, err, key)
    assert out == ""


@pytest.mark.parametrize("margin", ['"-10%"', "-0.1", '"95%"'])
def test_risk_margin_range(tmp_path, capsys, margin) -> None:
    path = tmp_path / "m.toml"
    path.write_text(BASE.replace("[targets]\n", f"[targets]\nrisk_margin = {margin}\n"), "utf-8")
    _one_line(*_run(capsys, "plan", str(path), "--no-store")[::2], "risk_margin")


def test_json_is_always_valid(capsys) -> None:
    from rtoplanner.core.jsonable import dumps_json

    text = dumps_json({"a": float("inf"), "b": [float("nan"), 1.5], "c": -float("inf")})
    assert json.loads(text) == {"a": None, "b": [None, 1.5], "c": None}
    assert "Infinity" not in text and "NaN" not in text


# ------------------------------------------------------------------ 3: escape sequences


def test_control_characters_never_reach_the_terminal(tmp_path, capsys) -> None:
    evil = "\x1b]0;pwned\x07\x1b[2J\x9b31m\u202e"
    path = _with(tmp_path, "name", json.dumps("Evil " + evil))
    code, out, err = _run(capsys, "plan", str(path), "--no-store")
    assert code == 0, err
    for ch in "\x1b\x07\x9b\u202e":
        assert ch not in out and ch not in err
    assert "\\u001b]0;pwned" in out
    _, out, err = _run(capsys, "plan", str(path), "--no-store", "--json")
    assert "\x1b" not in out and json.loads(out)  # still valid JSON
    db = str(tmp_path / "db.duckdb")
    assert _run(capsys, "--db", db, "scenarios", "import", str(path))[0] == 0
    code, out, err = _run(capsys, "--db", db, "scenarios", "list")
    assert code == 0 and "\x1b" not in out and "\\u001b" in out
    # an error message quoting user data is escaped too
    bad = tmp_path / "bad.toml"
    bad.write_text(BASE.replace("[database]\n", '[database]\n"k\\u001b[2J" = 1\n'), "utf-8")
    code, _, err = _run(capsys, "plan", str(bad), "--no-store")
    assert code == 2 and "\x1b" not in err


def test_csv_header_escapes_are_escaped(tmp_path, capsys) -> None:
    csv = tmp_path / "x.csv"
    csv.write_text("A\x1b]0;title\x07,B\n1,2\n", encoding="utf-8")
    _, out, err = _run(capsys, "--db", str(tmp_path / "db.duckdb"), "import", str(csv))
    assert "\x1b" not in out + err and "\x07" not in out + err


def test_safe_text_keeps_newlines_tabs_and_unicode() -> None:
    assert safe_text("a\tb\nc – é 東京 😀") == "a\tb\nc – é 東京 😀"
    assert safe_text("\x1b[2J\r") == "\\u001b[2J\\u000d"


# ------------------------------------------------------------------ 4: no hang, bounded


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_devices_are_refused_not_read(capsys, device) -> None:
    if not Path(device).exists():
        pytest.skip(f"no {device}")
    _one_line(*_run(capsys, "plan", device, "--no-store")[::2], "device")
    code, _, err = _run(capsys, "awr", device)
    assert code != 0 and "device" in err and "Traceback" not in err


def test_fifos_are_refused_not_waited_on(tmp_path) -> None:
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    db = str(tmp_path / "db.duckdb")
    for args in (["plan", str(fifo), "--no-store"], ["awr", str(fifo)],
                 ["--db", db, "import", str(fifo)], ["--db", db, "scenarios", "import", str(fifo)],
                 ["--db", str(fifo), "scenarios", "list"]):  # fmt: skip
        proc = _child(args)  # the timeout guards against the old hang
        assert proc.returncode != 0 and "FIFO" in proc.stderr + proc.stdout, (args, proc.stderr)
        assert "Traceback" not in proc.stderr


def test_line_number_scan_is_linear(tmp_path, capsys) -> None:
    spaces = " " * 60_000
    path = tmp_path / "spaces.toml"
    text = f'author = """[{spaces}\n{spaces}x"""\nbogus = 1'
    path.write_text(BASE.replace('author = "RTO Planner demo"', text), "utf-8")
    _one_line(*_run(capsys, "plan", str(path), "--no-store")[::2], "bogus")


@pytest.mark.parametrize("value", ["1 GB" + " " * 60_000 + "x", "1" + " " * 60_000 + "%/y x"])
def test_unit_parser_refuses_long_values_at_once(value) -> None:
    from rtoplanner.core.errors import UnitError
    from rtoplanner.core.units import parse_growth, parse_rate, parse_size

    for parse in (parse_size, parse_rate, parse_growth):
        with pytest.raises(UnitError, match="characters long"):
            parse(value)


def test_many_stages_and_huge_notes_are_refused(tmp_path, capsys) -> None:
    stage = '\n[[path]]\nkind = "network"\nname = "n"\ncount = 1\nrate = "1 GB/s"\n'
    many = tmp_path / "many.toml"
    many.write_text(BASE + stage * 5000, encoding="utf-8")
    _one_line(*_run(capsys, "report", str(many), "-o", str(tmp_path / "m.pdf"), "--no-store")[::2],
              "stages")  # fmt: skip
    notes = tmp_path / "notes.toml"
    long_notes = 'author = "x"\nnotes = "' + "n" * 1_000_000 + '"'
    notes.write_text(BASE.replace('author = "RTO Planner demo"', long_notes), "utf-8")
    _one_line(*_run(capsys, "report", str(notes), "-o", str(tmp_path / "n.pdf"), "--no-store")[::2],
              "notes")  # fmt: skip
    big = tmp_path / "big.toml"
    big.write_text(BASE + "#" + "x" * 11_000_000 + "\n", encoding="utf-8")
    _one_line(*_run(capsys, "plan", str(big), "--no-store")[::2], "larger than any scenario")
