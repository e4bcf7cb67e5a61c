"""The restore path's structural edits (`app/stage_edits.py`) against a list model of
the path: every stage ends where `moved` says, and an edit undone by its inverse is the
document it started from."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from rtoplanner.app.stage_edits import NEW_STAGE, stage_added, stage_moved, stage_removed

paths = st.lists(st.integers(0, 99).map(lambda n: {"kind": "network", "name": f"s{n}"}),
                 max_size=6)  # fmt: skip


def _follows(before: list, after: list, moved: dict) -> bool:
    return all(new is None or after[new] == before[old] for old, new in moved.items())


@given(paths, st.integers(-2, 8))
def test_adding_then_removing_a_stage_is_the_document_again(path, index):
    raw = {"name": "x", "path": path}
    after, at, moved = stage_added(raw, index, None)
    assert after["path"][at] == NEW_STAGE and len(after["path"]) == len(path) + 1
    assert _follows(path, after["path"], moved)
    back, moved_back = stage_removed(after, at)
    assert back == raw and moved_back[at] is None
    assert raw["path"] == path  # the input is not edited in place


@given(paths, st.integers(0, 6), st.sampled_from([-1, 1]))
def test_moving_a_stage_and_back_is_the_document_again(path, index, delta):
    raw = {"path": path}
    edit = stage_moved(raw, index, delta)
    if not (0 <= index < len(path) and 0 <= index + delta < len(path)):
        assert edit is None
        return
    after, new, moved = edit
    assert new == index + delta and _follows(path, after["path"], moved)
    assert stage_moved(after, new, -delta)[0] == raw


def test_removing_a_stage_that_is_not_there_changes_nothing():
    assert stage_removed({"path": [{"kind": "network"}]}, 3) is None
    assert stage_removed({}, 0) is None
