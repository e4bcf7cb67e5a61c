"""Property: whatever scenario text or report bytes a user hands over, the command line
answers with exit 0 or 2, valid JSON on success, one line and no traceback on failure,
in bounded time (issue 16). Runs the real `main` in-process to stay fast in CI."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rtoplanner.core.cli import main

REPO = Path(__file__).resolve().parents[2]
BASE = (REPO / "data" / "scenarios" / "small_gige_lto.toml").read_text(encoding="utf-8")
REPORT = (REPO / "tests" / "fixtures" / "awr" / "1newstar-awr2csv__awr_11204_1.txt").read_bytes()

KEYS = (
    "size",
    "redo_rate",
    "daily_change",
    "growth",
    "compression_ratio",
    "channels",
    "level0_every",
    "level1_every",
    "rto",
    "rpo",
    "efficiency",
    "count",
    "rate",
    "name",
)
VALUES = st.one_of(
    st.integers(-(10**20), 10**20).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(lambda f: repr(f).replace("inf", "1e999")),
    st.text(max_size=40).map(json.dumps),
    st.sampled_from(
        [
            '"1e300 s"',
            '"5e-324 s"',
            '"-1 h"',
            '"99%/s"',
            "[1]",
            "{a = 1}",
            "true",
            '"10000 w"',
            '"0.5 ms"',
            '"1e30 TB"',
            '"   "',
            '"\\u001b[2J"',
        ]
    ),
)
SETTINGS = settings(
    max_examples=60, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)  # fmt: skip


def _strict_json(text: str) -> None:
    """Parse as a strict parser would: `NaN` and `Infinity` are not JSON."""

    def refuse(token: str) -> None:
        raise AssertionError(f"{token} in the JSON output")

    json.loads(text, parse_constant=refuse)


def _check(code: int, out: str, err: str, want_json: bool) -> None:
    assert code in (0, 2), err
    assert "Traceback" not in err and "internal error" not in err, err
    if code == 0 and want_json:
        _strict_json(out)
    if code == 2:
        assert len(err.strip().splitlines()) == 1, err
    assert "\x1b" not in out + err


@SETTINGS
@given(edits=st.lists(st.tuples(st.sampled_from(KEYS), VALUES), max_size=3))
def test_random_scenario_values(tmp_path_factory, capsys, edits) -> None:
    import re

    text = BASE
    for key, value in edits:
        text = re.sub(rf"(?m)^{key}\s*=.*$", lambda m, k=key, v=value: f"{k} = {v}", text, count=1)
    path = tmp_path_factory.mktemp("fuzz") / "s.toml"
    path.write_text(text, encoding="utf-8")
    code = main(["plan", str(path), "--no-store", "--json"])
    out, err = capsys.readouterr()
    _check(code, out, err, want_json=True)


@SETTINGS
@given(data=st.binary(max_size=2000))
def test_random_toml_bytes(tmp_path_factory, capsys, data) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "s.toml"
    path.write_bytes(data)
    code = main(["plan", str(path), "--no-store", "--json"])
    out, err = capsys.readouterr()
    _check(code, out, err, want_json=True)


@SETTINGS
@given(cut=st.integers(0, len(REPORT)), junk=st.binary(max_size=200), at=st.integers(0, 4000))
def test_random_report_bytes(tmp_path_factory, capsys, cut, junk, at) -> None:
    data = REPORT[:cut]
    data = data[:at] + junk + data[at:]
    path = tmp_path_factory.mktemp("fuzz") / "r.txt"
    path.write_bytes(data)
    code = main(["awr", str(path), "--json"])
    out, err = capsys.readouterr()
    assert code in (0, 1, 2), err  # awr: 1 = "this file is not a readable report"
    assert "Traceback" not in err and "internal error" not in err, err
    if code == 0:
        _strict_json(out)
