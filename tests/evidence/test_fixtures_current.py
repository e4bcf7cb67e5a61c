"""The evidence fixtures are what make_evidence.py writes (nobody edited one by hand)."""

from __future__ import annotations

import make_evidence

from .conftest import EVIDENCE


def test_fixtures_are_what_the_script_writes(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(make_evidence, "OUT", tmp_path)
    make_evidence.main()
    written = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    assert written, "the script wrote nothing"
    for rel in written:
        assert (tmp_path / rel).read_bytes() == (EVIDENCE / rel).read_bytes(), rel
