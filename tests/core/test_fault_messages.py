"""Issue 25, misleading messages: an error line names the line TOML counts, and echoes a
100,000-character value cut, not whole."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rtoplanner.core.comments import source_comments
from rtoplanner.core.errors import ScenarioError
from rtoplanner.core.estate import load_estate_text
from rtoplanner.core.scenario import load_scenario, load_scenario_text

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "data" / "scenarios" / "small_gige_lto.toml"
SEPARATORS = ("\u2028", "\u2029", "\u0085")
"""What `str.splitlines()` breaks at and TOML allows in comments and strings (its newline
is LF or CRLF only)."""


def _demo() -> str:
    return DEMO.read_text(encoding="utf-8")


def _line_of(text: str, fragment: str) -> int:
    return text[: text.index(fragment)].count("\n") + 1


def _bad_channels(text: str) -> str:
    assert "channels = 2\n" in text
    return text.replace("channels = 2\n", "channels = -3\n", 1)


def _message(text: str) -> str:
    with pytest.raises(ScenarioError) as info:
        load_scenario_text(text, source="plan.toml")
    return str(info.value)


@pytest.mark.parametrize("sep", ["\u2028", "\u0085"])
def test_a_separator_in_a_comment_or_string_does_not_move_the_line(sep):
    text = f"# a comment{sep}that goes on{sep}and on\n" + _bad_channels(_demo())
    text = text.replace('name = "LTO-5"', f'name = "LTO{sep}5"', 1)
    line = _line_of(text, "channels = -3")
    assert _message(text).startswith(f"plan.toml:{line}: backup.channels: ")


def test_a_key_inside_a_multiline_string_is_not_the_key():
    fake = '"""\n[backup]\nchannels = 4\n[[path]]\nrate = "1 MB/s"\n"""'
    text = _bad_channels(_demo()).replace("\n[database]", f"\nnotes = {fake}\n\n[database]", 1)
    line = _line_of(text, "channels = -3")
    assert _message(text).startswith(f"plan.toml:{line}: backup.channels: ")


def test_a_table_header_inside_a_literal_multiline_string_is_not_a_stage():
    fake = "'''\n[[path]]\nkind = 'disk'\n'''"
    text = _demo().replace("\n[database]", f"\nnotes = {fake}\n\n[database]", 1)
    text = text.replace('name = "SAN LUNs"', 'name = "SAN LUNs"\nfoo = 1', 1)
    message = _message(text)
    assert message.startswith(f"plan.toml:{_line_of(text, 'foo = 1')}: path[2].foo: "), message


@given(
    st.lists(st.sampled_from(SEPARATORS), min_size=1, max_size=6),
    st.sampled_from(["comment", "string", "multiline"]),
)
def test_line_numbers_are_tomls_whatever_the_separators(seps, where):
    sep = "".join(seps)
    text = _bad_channels(_demo())
    if where == "comment":
        text = f"# from{sep}the vendor{sep}\n" + text
    elif where == "string":
        text = text.replace('name = "LTO-5"', f'name = "LTO{sep}5"', 1)
    else:
        text = text.replace("\n[database]", f'\nnotes = """a{sep}\n{sep}b"""\n[database]', 1)
    line = _line_of(text, "channels = -3")
    assert _message(text).startswith(f"plan.toml:{line}: backup.channels: ")


def test_comments_are_found_by_toms_lines():
    """The ledger's end-of-line sources: a key in a multi-line string takes no comment and a
    separator inside a comment does not split it."""
    text = (
        "# the file\u2028its source\n[backup]\n"
        'note = """\nchannels = 9 # not a comment\n"""\n'
        "channels = 2  # two drives\u0085two channels\n"
    )
    comments = source_comments(text)
    assert comments["backup.channels"] == "two drives\u0085two channels"
    assert comments[""] == "the file\u2028its source"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("channels = 2\n", "channels = 2\n" + "k" * 100_000 + " = 1\n"),
        ("channels = 2\n", 'channels = "' + "9" * 100_000 + '"\n'),
        ("channels = 2\n", 'channels = "' + "x" * 100_000 + '"\n'),
        ("[uncertainty]\n", '[uncertainty]\n"path.' + "Q" * 100_000 + '.rate" = "±5%"\n'),
        ("compression_ratio = 1.0", 'compression_ratio = "' + "7" * 100_000 + '"'),
    ],
)
def test_a_100000_character_value_is_echoed_cut(old, new):
    text = _demo()
    assert old in text
    message = _message(text.replace(old, new, 1))
    assert len(message) < 1_000, message[:300]
    assert "characters" in message or "digits" in message or "..." in message
    assert message.startswith("plan.toml:") and "\n" not in message


def test_an_integer_past_pythons_digit_limit_is_one_line_with_its_line(tmp_path):
    """tomli turns a 5,000-digit integer into int()'s bare ValueError: an internal error."""
    text = _demo().replace("channels = 2\n", "channels = " + "9" * 5_000 + "\n", 1)
    path = tmp_path / "plan.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    line = _line_of(text, "channels = 9")
    assert str(info.value).startswith(f"{path}:{line}: not valid TOML: an integer of more")


def test_an_estate_with_a_huge_integer_is_one_line():
    estate = REPO / "data" / "estates" / "site_loss.toml"
    text = estate.read_text(encoding="utf-8")
    text = text.replace("count = 10\n", "count = " + "1" * 5000 + "\n")
    with pytest.raises(ScenarioError) as info:
        load_estate_text(text, source="e.toml", base_dir=estate.parent)
    assert str(info.value).startswith(f"e.toml:{_line_of(text, 'count = 111')}: not valid TOML")


def test_an_absurdly_small_range_end_is_echoed_in_a_few_characters():
    """`"5e-324 B/s..1e300 B/s"` echoed its low end as 330 digits of 0.000…"""
    text = (REPO / "data" / "scenarios" / "oltp_zfs_nas.toml").read_text(encoding="utf-8")
    old = '"path.DB CPU (MEDIUM decompression).rate" = "-40%..+25%"'
    assert old in text
    text = text.replace(old, '"path.DB CPU (MEDIUM decompression).rate" = "5e-324 B/s..1 GB/s"')
    message = _message(text)
    assert "the low end 4.94e-324 B/s is out of range" in message, message
    assert len(message) < 400
