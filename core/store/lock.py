"""The store's own lock: `flock` on a sidecar file, taken before DuckDB sees the store.

Why not rely on DuckDB's lock: on POSIX DuckDB holds its file with an `fcntl` record
lock, and the kernel drops every record lock a process holds on a file as soon as that
process closes *any* descriptor of the file — Qt's file dialog opened on the store's
folder does that, so does hashing or copying the file. A second process then gets in and
both write the same file (issue 16: "field id mismatch" forever after).

A `flock` lock belongs to the open file description, not to the process and file, so no
other `open()`/`close()` of any file can drop it. Every RTO Planner process takes it on
`<store>.lock` before it opens the store in any way, and keeps it until the store is
closed: exclusive for a writable open, shared for a read-only one (several readers may
share a store, as DuckDB allows). The file holds the PID of the exclusive holder, for the
message the next process prints. It is never deleted: removing a lock file while someone
waits on it would let two processes each hold "the" lock.

Programs other than RTO Planner (the `duckdb` shell) do not know about the sidecar; see
docs/store.md. On Windows DuckDB's own lock (`LockFileEx`) is not dropped that way, and
`fcntl` does not exist, so the sidecar is not used there.
"""

from __future__ import annotations

import contextlib
import errno
import os
from pathlib import Path

from .errors import StoreError, StoreLockedError

try:
    import fcntl
except ImportError:  # Windows: DuckDB's own lock is reliable there
    fcntl = None  # type: ignore[assignment]

LOCK_SUFFIX = ".lock"


def lock_path_for(db_path: Path) -> Path:
    """`store.duckdb` → `store.duckdb.lock`, beside it."""
    return db_path.with_name(db_path.name + LOCK_SUFFIX)


def _holder_pid(fd: int) -> str:
    with contextlib.suppress(OSError, ValueError):
        os.lseek(fd, 0, os.SEEK_SET)
        text = os.read(fd, 32).decode("ascii", "replace").strip()
        if text.isdigit():
            return f" (PID {text})"
    return ""


class StoreLock:
    """Hold `<db>.lock` with `flock` for as long as the store is open."""

    def __init__(self, db_path: Path, *, shared: bool) -> None:
        self.db_path = db_path
        self.path = lock_path_for(db_path)
        self.shared = shared
        self._fd: int | None = None
        self._created = False

    def acquire(self) -> None:
        if fcntl is None or self._fd is not None:
            return
        fd = self._open()
        if fd is None:
            return
        op = fcntl.LOCK_SH if self.shared else fcntl.LOCK_EX
        try:
            fcntl.flock(fd, op | fcntl.LOCK_NB)
        except OSError as exc:
            who = _holder_pid(fd)
            os.close(fd)
            if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise StoreLockedError(
                    f"{self.db_path} is open in another RTO Planner process{who}",
                    hint="close the other window or command and try again, "
                    "or pass --db with another file",
                ) from None
            raise StoreError(
                f"cannot lock {self.path} ({exc.strerror or exc})",
                hint="check the store folder's file system, or pass --db with another file",
            ) from None
        if not self.shared:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, 0)
                os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
        self._fd = fd

    def _open(self) -> int | None:
        """The lock file's descriptor; None for a read-only open where none can exist."""
        flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0)
        try:
            fd = os.open(self.path, flags | os.O_EXCL, 0o644)
            self._created = True
            return fd
        except FileExistsError:
            pass
        except OSError:
            pass
        try:
            return os.open(self.path, flags, 0o644)
        except OSError as exc:
            if self.shared:
                try:
                    return os.open(self.path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
                except FileNotFoundError:
                    # Nobody can create the lock file here, so no RTO Planner process
                    # can be writing this store: reading it unlocked is safe.
                    return None
                except OSError:
                    pass
            raise StoreError(
                f"cannot create the lock file {self.path} beside the store ({exc.strerror or exc})",
                hint="the store's folder must be writable (DuckDB writes its journal "
                "there too); fix its permissions or pass --db with a writable location",
            ) from None

    def release(self, *, failed_open: bool = False) -> None:
        """Let go of the lock. After a refused open, a lock file this call created is
        removed again, so a damaged or foreign file gets no litter beside it."""
        fd, self._fd = self._fd, None
        if fd is None:
            return
        if failed_open and self._created:
            with contextlib.suppress(OSError):
                self.path.unlink()
        with contextlib.suppress(OSError):
            os.close(fd)  # closing the description releases the flock

    @property
    def held(self) -> bool:
        return self._fd is not None
