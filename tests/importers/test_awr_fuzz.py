"""Property tests: whatever bytes arrive, the importers answer with reports or a `CoreError`.

Truncation anywhere, random byte flips and plain garbage must give a clear error naming the
file (a `ReportError`, which is a `CoreError`) and never another exception: the CLI turns
anything else into "internal error", which a user must not meet for a damaged file.
"""

from __future__ import annotations

from functools import cache

from awr_paths import FIXTURES, SYNTHETIC
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rtoplanner.core.errors import CoreError
from rtoplanner.core.importers.errors import ReportError
from rtoplanner.core.importers.model import WorkloadReport
from rtoplanner.core.importers.reader import parse_bytes

SOURCES = (
    FIXTURES / "1newstar-awr2csv__awr_11204_1.txt",
    FIXTURES / "1newstar-awr2csv__awr_11204_1.html",
    SYNTHETIC / "awrgrpt_19c_text.txt",
    SYNTHETIC / "awrddrpt_12c.html",
    SYNTHETIC / "awrddrpt_11g_text.txt",
    SYNTHETIC / "statspack_19c_crlf_de.txt",
    SYNTHETIC / "awr_21c_pdb_resaved.html",
)
FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@cache
def _data(i: int) -> bytes:
    data = SOURCES[i].read_bytes()
    # keep the big HTML sample to its summary part: the fuzzing is about structure, not size
    return data[:200_000]


def _check(data: bytes) -> None:
    try:
        reports = parse_bytes(data, "fuzzed.file")
    except CoreError as exc:
        assert isinstance(exc, ReportError)
        assert "fuzzed.file" in str(exc)
        return
    assert reports and all(isinstance(r, WorkloadReport) for r in reports)
    for r in reports:
        assert r.elapsed_s > 0 and r.redo_bytes_per_s == r.redo_bytes_per_s  # not NaN
        r.to_dict()


@FUZZ
@given(st.integers(0, len(SOURCES) - 1), st.floats(0, 1))
def test_truncated_anywhere(i: int, where: float) -> None:
    data = _data(i)
    _check(data[: int(len(data) * where)])


@FUZZ
@given(
    st.integers(0, len(SOURCES) - 1),
    st.lists(st.tuples(st.floats(0, 1, exclude_max=True), st.integers(0, 255)), max_size=40),
)
def test_random_byte_flips(i: int, flips: list[tuple[float, int]]) -> None:
    data = bytearray(_data(i))
    for where, byte in flips:
        data[int(len(data) * where)] = byte
    _check(bytes(data))


@FUZZ
@given(st.binary(max_size=4000))
def test_garbage(data: bytes) -> None:
    _check(data)


@FUZZ
@given(st.text(max_size=2000))
def test_garbage_after_a_real_heading(text: str) -> None:
    _check(("WORKLOAD REPOSITORY report for\n" + text).encode())
    _check(("<html><h1>WORKLOAD REPOSITORY report for</h1>" + text).encode())
    _check(("STATSPACK report for\n" + text).encode("utf-8", "replace"))


@FUZZ
@given(st.integers(0, len(SOURCES) - 1), st.integers(0, 400), st.integers(1, 4000))
def test_lines_removed(i: int, start_line: int, count: int) -> None:
    lines = _data(i).split(b"\n")
    _check(b"\n".join(lines[:start_line] + lines[start_line + count :]))
