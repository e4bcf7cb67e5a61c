"""The log file (core/logs.py): where it is, that it rotates, and that it never stops work."""

from __future__ import annotations

import logging

from rtoplanner.core import logs


def _flush() -> None:
    for handler in logs.log.handlers:
        handler.flush()


def test_the_log_lives_in_the_platform_log_folder_and_follows_it(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "a"))
    try:
        first = logs.setup_logging()
        assert first == tmp_path / "a" / "rto-planner" / "log" / "rto-planner.log"
        assert logs.setup_logging() == first  # once, not a second handler
        assert sum(isinstance(h, logs._Handler) for h in logs.log.handlers) == 1
        logging.getLogger("rtoplanner.core.somewhere").info("opened x.toml")
        _flush()
        assert "opened x.toml" in first.read_text(encoding="utf-8")

        monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "b"))
        second = logs.setup_logging()
        assert second != first and second.parent.is_dir()
        assert sum(isinstance(h, logs._Handler) for h in logs.log.handlers) == 1
    finally:
        logs.close_logging()


def test_the_log_rotates(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    monkeypatch.setattr(logs, "MAX_BYTES", 2_000)
    try:
        path = logs.setup_logging()
        for i in range(200):
            logs.log.info("line %d %s", i, "x" * 40)
        _flush()
        rotated = sorted(p.name for p in path.parent.iterdir())
        assert rotated == ["rto-planner.log", "rto-planner.log.1", "rto-planner.log.2",
                           "rto-planner.log.3"]  # fmt: skip
        assert path.stat().st_size <= 2_000
    finally:
        logs.close_logging()


def test_an_unwritable_log_folder_is_no_error(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("XDG_STATE_HOME", str(blocker))
    assert logs.setup_logging() is None
    logs.log.warning("still fine")


def test_rtoplanner_log_0_turns_it_off(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    monkeypatch.setenv("RTOPLANNER_LOG", "0")
    assert logs.setup_logging() is None
    assert not (tmp_path / "rto-planner").exists()
