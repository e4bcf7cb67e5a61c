"""Reading a report or export from disk: bounded, regular files only (docs/importing.md).

Every importer that opens a path calls `read_input`, so `/dev/zero`, `/dev/urandom` (whose
`st_size` is 0), a FIFO (which blocks until written to) and a multi-gigabyte file are
refused with a one-line `ReportError` instead of hanging or exhausting memory.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..inputfile import InputFileError, read_limited
from .errors import ReportError

MAX_REPORT_BYTES = 64 * 1024 * 1024
"""64 MiB. The largest AWR reports (global RAC HTML with many instances, long SQL
sections) are a few tens of megabytes; DBA_HIST_SYSSTAT and RMAN exports of a year are a
few megabytes. Larger files are refused: they are not reports, and reading one would take
several times its size in memory."""


def read_input(path: str | os.PathLike[str], *, error: type[ReportError] = ReportError) -> bytes:
    """The bytes of one report or export file, or `error` naming the file and why."""
    name = str(path)
    try:
        return read_limited(Path(path), MAX_REPORT_BYTES, "report or export")
    except InputFileError as exc:
        raise error(exc.reason, source=name) from None
    except FileNotFoundError:
        raise error("no such file", source=name) from None
    except PermissionError:
        raise error("permission denied", source=name) from None
    except OSError as exc:
        raise error(f"cannot read: {exc.strerror or exc}", source=name) from None
