"""Scenario and estate files are read by tomli's compiled parser (core/toml_read.py):
the same documents as the standard library's tomllib, the same errors."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from rtoplanner.core import toml_read

REPO = Path(__file__).resolve().parents[2]
FILES = sorted((REPO / "data").rglob("*.toml"))

BAD = [
    "a = ",
    'x = "1\n',
    "[a]\nb = 1\n[a]\n",
    "a = 1 2",
    "a = [1, 2",
    "a = 1\na = 2",
    "a = 2000-13-01",
    'k = """never closed',
    # TOML 1.1 (tomli 2.4+) would read these; TOML 1.0 refuses them.
    "a = { b = 1,\n c = 2 }",
    'e = "\\e"',
    "t = 12:30",
]


def test_tomli_compiled_reads_the_files():
    assert toml_read._loads.__module__.startswith("tomli")  # the wrapper calls it
    assert FILES


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(REPO)))
def test_same_documents_as_tomllib(path):
    text = path.read_text(encoding="utf-8")
    assert toml_read.loads(text) == tomllib.loads(text)


@pytest.mark.parametrize("text", BAD)
def test_same_errors_as_tomllib(text):
    with pytest.raises(tomllib.TOMLDecodeError) as expected:
        tomllib.loads(text)
    with pytest.raises(toml_read.TOMLDecodeError) as got:
        toml_read.loads(text)
    assert str(got.value) == str(expected.value)


def test_deep_nesting_is_a_recursion_error_as_before():
    text = "a = " + "[" * 5000 + "]" * 5000
    with pytest.raises(RecursionError):
        toml_read.loads(text)
