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
import logging.handlers
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


class _Handler(logging.handlers.RotatingFileHandler):
    """The app's file handler (a class of its own so set-up can find and replace it)."""


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
        handler = _Handler(path, maxBytes=MAX_BYTES, backupCount=BACKUP_COUNT,
                           encoding="utf-8", delay=True)  # fmt: skip
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
