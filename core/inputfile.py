"""Reading a file the user named: regular files only, never more than a bound.

`Path.read_bytes()` trusts the file: `/dev/zero` and `/dev/urandom` never end (their
`st_size` is 0, so a size check passes), a FIFO blocks until someone writes to it, and a
multi-gigabyte file is read whole into memory. Every reader of user files (scenarios,
reports, CSV exports) goes through `read_limited` instead:

* the file is opened without blocking (`O_NONBLOCK`), then `fstat` decides: a directory,
  device, FIFO or socket is refused with a message naming what it is;
* at most `max_bytes + 1` bytes are read, whatever `st_size` says, so a file that grows
  or lies about its size is refused as too large rather than read without end.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISSOCK, "a socket"),
)


class InputFileError(OSError):
    """Why a file cannot be read; `reason` is the bare explanation (no file name)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _what(mode: int) -> str:
    return next((what for test, what in _KINDS if test(mode)), "not a regular file")


def read_limited(path: str | os.PathLike[str], max_bytes: int, what: str = "file") -> bytes:
    """The bytes of the regular file at `path`; raises `InputFileError` (reason only) for a
    non-regular file or one larger than `max_bytes`, and `OSError` as `open` does."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    flags |= getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(Path(path), flags)
    except IsADirectoryError:
        raise InputFileError("is a directory, not a file") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            article = "an" if what[:1].lower() in "aeiou" else "a"
            raise InputFileError(
                f"is {_what(st.st_mode)}, not a regular file; give {article} {what}"
            )
        if st.st_size > max_bytes:
            raise InputFileError(_too_large(st.st_size, max_bytes, what))
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        chunks: list[bytes] = []
        total = 0
        while True:
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > max_bytes:
                raise InputFileError(_too_large(None, max_bytes, what))
        return b"".join(chunks)
    finally:
        os.close(fd)


def _too_large(size: int | None, max_bytes: int, what: str) -> str:
    from .units import format_size

    got = f"{format_size(size)} is" if size is not None else "it is"
    return f"{got} larger than any {what} ({format_size(max_bytes)} at most)"
