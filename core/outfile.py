"""Writing a file the user named: one way for every writer (PDF, TOML, JSON, PNG).

The rules (docs/store.md, "Files RTO Planner writes"):

* **Regular files only.** A directory, device, FIFO or socket at the path is refused
  with a message: `-o /dev/null` as root used to turn the device into a regular file.
* **Symlinks are followed.** A path that is a symlink writes the file the link points to
  (as editors do); the link itself is kept. A dangling link writes its target if that
  target's folder exists.
* **All or nothing.** The bytes go to a temporary file in the target's folder, are
  flushed to disk, then renamed over the target: a full disk, a killed process or a
  closed pipe leaves the old file exactly as it was, never half a file.
* **Permissions kept.** An existing file's mode (0600 stays 0600) and, where the process
  may, its owner and group are given to the new file. A new file gets 0666 less umask,
  as any program's would.
* A file with several hard links loses the link to its other names (the rename makes a
  new file); a message cannot help there and editors do the same.

`check_output_path` runs the checks without writing, so a command can fail before a
long computation rather than after it.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterable, Mapping
from pathlib import Path

from .errors import CoreError


class OutputFileError(CoreError, OSError):
    """A file the user asked for cannot be written; the message names it and says why."""


_KINDS = (
    (stat.S_ISDIR, "a directory", "give a file name inside it"),
    (stat.S_ISCHR, "a device", "give the name of a regular file"),
    (stat.S_ISBLK, "a block device", "give the name of a regular file"),
    (stat.S_ISFIFO, "a FIFO (named pipe)", "give the name of a regular file"),
    (stat.S_ISSOCK, "a socket", "give the name of a regular file"),
)


def _resolve(path: Path) -> Path:
    """The file that will be replaced: `path`, or what its symlink(s) point to."""
    try:
        return Path(os.path.realpath(path))
    except (OSError, ValueError) as exc:
        raise OutputFileError(f"cannot write {path}: {exc}") from None


def check_output_path(path: str | os.PathLike[str]) -> Path:
    """Check that `path` can be written as a regular file; returns the real target."""
    given = Path(path)
    if not str(given):
        raise OutputFileError("no output file name given")
    target = _resolve(given)
    try:
        st = os.stat(target)
    except (FileNotFoundError, NotADirectoryError):
        st = None
    except OSError as exc:
        raise OutputFileError(f"cannot write {given}: {exc.strerror or exc}") from None
    if st is not None and not stat.S_ISREG(st.st_mode):
        what, hint = next(
            ((w, h) for test, w, h in _KINDS if test(st.st_mode)),
            ("not a regular file", "give the name of a regular file"),
        )
        via = f" (the symlink points to {target})" if target != given.absolute() else ""
        raise OutputFileError(f"cannot write {given}: it is {what}{via}", hint=hint)
    parent = target.parent
    if not parent.exists():
        raise OutputFileError(
            f"cannot write {given}: the folder {parent} does not exist",
            hint="create the folder first or choose another location",
        )
    if not parent.is_dir():
        raise OutputFileError(f"cannot write {given}: {parent} is a file, not a folder")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise OutputFileError(
            f"cannot write {given}: no permission to create files in {parent}",
            hint="choose a folder you can write to",
        )
    return target


def check_not_an_input(
    path: str | os.PathLike[str],
    inputs: Mapping[str | os.PathLike[str], str] | Iterable[str | os.PathLike[str]],
    *,
    hint: str | None = None,
) -> None:
    """Refuse to write `path` when it is one of `inputs` (a mapping gives what each is:
    "the scenario"): the same file by device and inode, so a symlink, a hard link or
    another spelling of the path is caught. A path that does not exist is no input."""
    try:
        out = os.stat(path)
    except (OSError, ValueError):
        return
    named = inputs if isinstance(inputs, Mapping) else dict.fromkeys(inputs, "the input")
    for item, what in named.items():
        try:
            st = os.stat(item)
        except (OSError, ValueError):
            continue
        if (st.st_dev, st.st_ino) == (out.st_dev, out.st_ino):
            same = "" if os.fspath(item) == os.fspath(path) else f"{item}: "
            raise OutputFileError(
                f"cannot write {path}: it is {what} itself ({same}the same file)",
                hint=hint or "write to a new file",
            )


def write_output_bytes(
    path: str | os.PathLike[str],
    data: bytes,
    *,
    inputs: Mapping[str | os.PathLike[str], str] | Iterable[str | os.PathLike[str]] = (),
) -> Path:
    """Replace (or create) the regular file at `path` with `data`, all or nothing.

    Returns the path written (the symlink's target when `path` is a link). Raises
    `OutputFileError` with a one-line message; the old file is then untouched. `inputs`
    are files the output must not be (`check_not_an_input`).
    """
    given = Path(path)
    target = check_output_path(given)
    check_not_an_input(given, inputs)
    try:
        old = os.stat(target)
    except FileNotFoundError:
        old = None
    except OSError as exc:
        raise OutputFileError(f"cannot write {given}: {exc.strerror or exc}") from None
    fd, tmp = -1, ""
    try:
        import tempfile  # (here: most commands write no file)

        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        _give_mode(fd, old)
        with os.fdopen(fd, "wb") as fh:
            fd = -1
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
        tmp = ""
        _sync_folder(target.parent)
    except OSError as exc:
        raise OutputFileError(
            f"cannot write {given}: {exc.strerror or exc}"
            + ("; the old file was left as it was" if old is not None else ""),
            hint=_hint(exc),
        ) from None
    finally:
        if fd >= 0:
            os.close(fd)
        if tmp:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    return target


def write_output_text(
    path: str | os.PathLike[str],
    text: str,
    *,
    inputs: Mapping[str | os.PathLike[str], str] | Iterable[str | os.PathLike[str]] = (),
) -> Path:
    """`write_output_bytes` of UTF-8 text (newlines as given)."""
    return write_output_bytes(path, text.encode("utf-8"), inputs=inputs)


def _give_mode(fd: int, old: os.stat_result | None) -> None:
    if old is None:
        os.fchmod(fd, 0o666 & ~_umask())
        return
    os.fchmod(fd, stat.S_IMODE(old.st_mode))
    with contextlib.suppress(OSError, AttributeError):  # only root may give files away
        os.fchown(fd, old.st_uid, old.st_gid)


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (best effort: not every system allows it)."""
    with contextlib.suppress(OSError, AttributeError):
        dfd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)


def _hint(exc: OSError) -> str | None:
    import errno

    if exc.errno == errno.ENOSPC:
        return "the disk is full: free some space and try again"
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return "choose a location you can write to"
    return None


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
