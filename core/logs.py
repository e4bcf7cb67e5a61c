"""The log file: what was opened, imported, saved and exported, and every error.

One rotating file, `rto-planner.log` (1 MB, three old copies kept), in platformdirs'
user log directory — `~/.local/state/rto-planner/log/` on Linux,
`~/Library/Logs/rto-planner/` on macOS, `%LOCALAPPDATA%\\rto-planner\\Logs\\` on Windows.
Modules log to `logging.getLogger(__name__)` (under `rtoplanner`); `setup_logging()`,
called by the command line and the GUI at start, attaches the file. A log that cannot
be written (read-only home) never stops the program.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from .appinfo import APP_ID

LOGGER_NAME = "rtoplanner"
LOG_FILE_NAME = f"{APP_ID}.log"
MAX_BYTES = 1_000_000
BACKUP_COUNT = 3
FORMAT = "%(asctime)s %(levelname)-7s %(name)s: %(message)s"

log = logging.getLogger(LOGGER_NAME)
log.addHandler(logging.NullHandler())  # no log file (RTOPLANNER_LOG=0): Python's "last
# resort" handler must not print each warning to stderr beside the command's own line


def log_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_log_dir(APP_ID, appauthor=False))


def log_path() -> Path:
    """Where the log is written (whether or not it exists yet)."""
    return log_dir() / LOG_FILE_NAME


class _Handler(logging.FileHandler):
    """The app's log file, rotated as `logging.handlers.RotatingFileHandler` does: before
    a record would take the file to `max_bytes`, `.log` becomes `.log.1`, `.1` becomes
    `.2` … and the oldest beyond `backup_count` goes. Written here because importing
    `logging.handlers` pulls in socket, pickle and queue: a sixth of the start-up of
    `rto-planner plan --no-store`, on every command."""

    def __init__(self, path: Path, *, max_bytes: int, backup_count: int) -> None:
        super().__init__(path, encoding="utf-8", delay=True)
        self.max_bytes = max_bytes
        self.backup_count = backup_count

    def emit(self, record: logging.LogRecord) -> None:
        try:
            if self._would_overflow(record):
                self._rotate()
        except Exception:  # as logging does: a log that cannot rotate never stops work
            self.handleError(record)
            return
        super().emit(record)

    def _would_overflow(self, record: logging.LogRecord) -> bool:
        if self.max_bytes <= 0 or not os.path.isfile(self.baseFilename):
            return False
        if self.stream is None:
            self.stream = self._open()
        size = self.stream.seek(0, os.SEEK_END)
        return size > 0 and size + len(f"{self.format(record)}\n") >= self.max_bytes

    def _rotate(self) -> None:
        if self.stream is not None:
            self.stream.close()
            self.stream = None  # type: ignore[assignment]
        base = self.baseFilename
        for i in range(self.backup_count - 1, 0, -1):
            if os.path.exists(f"{base}.{i}"):
                os.replace(f"{base}.{i}", f"{base}.{i + 1}")
        if self.backup_count > 0:
            os.replace(base, f"{base}.1")
        else:
            os.remove(base)
        self.stream = self._open()


def setup_logging(level: int = logging.INFO) -> Path | None:
    """Attach the rotating log file to the `rtoplanner` logger (again if the log folder
    changed, e.g. another XDG_STATE_HOME). Returns the file, or None if it cannot be
    written; RTOPLANNER_LOG=0 turns the file off."""
    if os.environ.get("RTOPLANNER_LOG", "1") == "0":
        return None
    path = log_path()
    for handler in list(log.handlers):
        if isinstance(handler, _Handler):
            if Path(handler.baseFilename) == path:
                return path
            log.removeHandler(handler)
            handler.close()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handler = _Handler(path, max_bytes=MAX_BYTES, backup_count=BACKUP_COUNT)
    except OSError:
        return None
    handler.setFormatter(logging.Formatter(FORMAT))
    log.addHandler(handler)
    log.setLevel(min(level, log.level or level))
    return path


def close_logging() -> None:
    """Detach and close the log file (tests, and before a frozen bundle exits)."""
    for handler in list(log.handlers):
        if isinstance(handler, _Handler):
            log.removeHandler(handler)
            handler.close()
