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

The sidecar follows the path; the same store reached through a hard link or a bind mount
has another sidecar. So the lock is also taken on the store file itself (`flock` on a
descriptor of it: the kernel keys that lock by the file, device and inode, whatever name
opened it) as soon as the file exists (issue 25.14). The refusal names the process that
holds the lock now, read from the kernel's lock table (`/proc/locks` on Linux), not the
PID the last writer left in the sidecar, which may be long gone.

Programs other than RTO Planner (the `duckdb` shell) do not know about these locks; see
docs/store.md. On Windows DuckDB's own lock (`LockFileEx`) is not dropped that way, and
`fcntl` does not exist, so the sidecar is not used there.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
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


PROC_LOCKS = Path("/proc/locks")


def _kernel_holders(fd: int) -> list[int] | None:
    """PIDs holding an `flock` on the file of `fd` now (the kernel's lock table), or None
    where the table cannot be read (not Linux)."""
    try:
        st = os.fstat(fd)
        table = PROC_LOCKS.read_text(encoding="ascii", errors="replace")
    except OSError:
        return None
    want = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    pids: list[int] = []
    for line in table.splitlines():
        m = re.match(r"\s*\d+:\s+FLOCK\s+\S+\s+\S+\s+(\d+)\s+(\S+)\s", line)
        if m and m.group(2) == want and int(m.group(1)) not in (0, os.getpid(), *pids):
            pids.append(int(m.group(1)))
    return pids


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def _written_pid(fd: int) -> list[int]:
    """The PID the last exclusive holder wrote into the sidecar, if it still runs."""
    with contextlib.suppress(OSError, ValueError):
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
        if text.isdigit() and _alive(int(text)):
            return [int(text)]
    return []


def holder_text(fd: int, sidecar: int | None = None) -> str:
    """` (PID 123)` / ` (PIDs 123, 456)`: who holds the lock on `fd`'s file now."""
    pids = _kernel_holders(fd)
    if pids is None:
        pids = _written_pid(sidecar if sidecar is not None else fd)
    if not pids:
        return ""
    label = "PID" if len(pids) == 1 else "PIDs"
    return f" ({label} {', '.join(str(p) for p in sorted(pids))})"


def _locked(db_path: Path, who: str) -> StoreLockedError:
    return StoreLockedError(
        f"{db_path} is open in another RTO Planner process{who}",
        hint="close the other window or command and try again, or pass --db with another file",
    )


def _flock(fd: int, shared: bool) -> OSError | None:
    op = fcntl.LOCK_SH if shared else fcntl.LOCK_EX
    try:
        fcntl.flock(fd, op | fcntl.LOCK_NB)
    except OSError as exc:
        return exc
    return None


def _busy(exc: OSError) -> bool:
    return exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES)


class StoreLock:
    """Hold `<db>.lock` with `flock` for as long as the store is open."""

    def __init__(self, db_path: Path, *, shared: bool) -> None:
        self.db_path = db_path
        self.path = lock_path_for(db_path)
        self.shared = shared
        self._fd: int | None = None
        self._file_fd: int | None = None
        self._created = False

    def acquire(self) -> None:
        """The sidecar's lock, then the store file's own (when the file exists)."""
        if fcntl is None or self._fd is not None:
            return
        fd = self._open()
        if fd is None:
            self.hold_file()
            return
        exc = _flock(fd, self.shared)
        if exc is not None:
            who = holder_text(fd)
            os.close(fd)
            if _busy(exc):
                raise _locked(self.db_path, who) from None
            raise StoreError(
                f"cannot lock {self.path} ({exc.strerror or exc})",
                hint="check the store folder's file system, or pass --db with another file",
            ) from None
        self._fd = fd
        self.hold_file()
        if not self.shared:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, 0)
                os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)

    def hold_file(self) -> None:
        """Lock the store file itself, by the file and not its name (a hard link or a bind
        mount reaches the same lock). A store created by this open is locked once it is
        in place (`StoreFile` calls this again then); a special file is left to the
        opening's checks."""
        if fcntl is None or self._file_fd is not None:
            return
        try:
            fd = os.open(self.db_path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | os.O_NONBLOCK)
        except OSError:
            return  # no file yet, or unreadable: opening says why
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            return
        exc = _flock(fd, self.shared)
        if exc is None:
            self._file_fd = fd
            return
        who = holder_text(fd, self._fd)
        os.close(fd)
        self.release(failed_open=True)
        if _busy(exc):
            raise _locked(self.db_path, who) from None
        raise StoreError(
            f"cannot lock {self.db_path} ({exc.strerror or exc})",
            hint="check the store folder's file system, or pass --db with another file",
        ) from None

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
        file_fd, self._file_fd = self._file_fd, None
        if file_fd is not None:
            with contextlib.suppress(OSError):
                os.close(file_fd)
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
