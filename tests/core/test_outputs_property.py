"""Issue 25 ("the property tests cover ... every -o writer"): whatever already stands at the
path a user names with -o, every writer either writes a whole regular file there (exit 0)
or refuses in one line (exit 2) and leaves the path exactly as it was; the command's own
inputs are never changed either way.

Hypothesis draws the writer and what stands at the path (nothing, a file of any bytes, a
symlink to a file, a dangling symlink, a symlink loop, a folder, a path under a file, a
path in a missing folder, a hard link to one of the inputs); the targeted cases (FIFOs,
/dev/null, a full disk) are in test_fault_outputs.py.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import stat
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fault_outputs import WRITERS, Work, make_work

from rtoplanner.core.cli import main

SHAPES = [
    "missing",
    "file",
    "link to file",
    "dangling link",
    "link loop",
    "folder",
    "under a file",
    "missing folder",
    "hard link to an input",
]

_counter = itertools.count()


@pytest.fixture(scope="module")
def work(tmp_path_factory) -> Work:
    return make_work(tmp_path_factory.mktemp("outputs-property"))


def _inputs(w: Work) -> dict[Path, str]:
    """The digest of every file a writer reads (the scenario, the estate and its scenarios)."""
    files = [w.scenario, w.estate, *sorted((w.root / "site_loss").glob("*.toml"))]
    return {f: hashlib.sha256(f.read_bytes()).hexdigest() for f in files}


def _state(paths: list[Path]) -> dict[str, object]:
    """What stands at each path, without following links: kind, link text, bytes."""
    out: dict[str, object] = {}
    for p in paths:
        try:
            st_ = os.lstat(p)
        except OSError:
            out[str(p)] = None
            continue
        if stat.S_ISLNK(st_.st_mode):
            out[str(p)] = ("link", os.readlink(p))
        elif stat.S_ISDIR(st_.st_mode):
            out[str(p)] = ("folder", sorted(os.listdir(p)))
        else:
            out[str(p)] = ("file", p.read_bytes(), st_.st_ino)
    return out


def _build(w: Work, writer: str, shape: str, content: bytes) -> tuple[Path, list[Path]]:
    """Put `shape` at a fresh path beside the estate (estate --fix must write there);
    return the path to name with -o and every path the shape made."""
    n = next(_counter)
    suffix = ".toml" if writer == "estate --fix" else ".out"
    target = w.root / f"t{n}{suffix}"
    aux = w.root / f"t{n}-aux"
    made = [target, aux]
    if shape == "file":
        target.write_bytes(content)
    elif shape == "link to file":
        aux.write_bytes(content)
        target.symlink_to(aux.name)
    elif shape == "dangling link":
        target.symlink_to(aux.name)
    elif shape == "link loop":
        target.symlink_to(aux.name)
        aux.symlink_to(target.name)
    elif shape == "folder":
        target.mkdir()
        (target / "keep").write_bytes(content)
        made.append(target / "keep")
    elif shape == "under a file":
        aux.write_bytes(content)
        target = aux / "out"
    elif shape == "missing folder":
        target = aux / "out"
    elif shape == "hard link to an input":
        os.link(w.scenario, target)
    return target, made


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    writer=st.sampled_from(sorted(WRITERS)),
    shape=st.sampled_from(SHAPES),
    content=st.binary(max_size=64),
)
def test_a_writer_writes_whole_or_leaves_the_path_as_it_was(work, capsys, writer, shape, content):
    inputs = _inputs(work)
    target, made = _build(work, writer, shape, content)
    before = _state(made)
    capsys.readouterr()
    rc = main(WRITERS[writer](work, str(target)))
    err = capsys.readouterr().err
    assert rc in (0, 2), (writer, shape, rc, err)
    if rc == 2:
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("rto-planner: error:"), err
        assert "internal error" not in err
        assert _state(made) == before, (writer, shape)
    else:
        assert os.path.isfile(target) and os.path.getsize(target) > 0, (writer, shape)
        if shape == "link to file":
            assert os.path.islink(target), "a symlink named with -o is followed and kept"
    assert _inputs(work) == inputs, (writer, shape)
