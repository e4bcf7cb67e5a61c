"""Installing RTO Planner into a Linux desktop: menu entry, icon and scenario MIME type.

`rto-planner desktop-install` writes, under `$XDG_DATA_HOME` (default `~/.local/share`):

- `applications/rto-planner.desktop` — the shipped entry, its `Exec` pointing at this
  installation (the bundle's executable, the venv's `rto-planner`, or `python -m
  rtoplanner`), so it works from a pipx venv or a bundle that is not on PATH;
- `icons/hicolor/<N>x<N>/apps/rto-planner.png` and `scalable/apps/rto-planner.svg`;
- `mime/packages/rto-planner.xml` — `application/x-rtoplanner-scenario` for `*.rto.toml`
  (not every `.toml`), then runs `update-mime-database`, `update-desktop-database` and
  `gtk-update-icon-cache` when they are installed. `--uninstall` removes the same files.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from .appinfo import APP_ID
from .errors import CoreError
from .paths import resources_dir

ICON_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
MIME_FILE = f"{APP_ID}-mime.xml"


class DesktopInstallError(CoreError):
    """The desktop files cannot be written (not Linux, or a folder is not writable)."""


def data_home() -> Path:
    """`$XDG_DATA_HOME`, else `~/.local/share` (the XDG base directory default)."""
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")


def launch_command() -> list[str]:
    """How the desktop should start this installation (program and arguments)."""
    if getattr(sys, "frozen", False):
        return [sys.executable]
    script = Path(sys.executable).with_name(APP_ID)
    if script.is_file() and os.access(script, os.X_OK):
        return [str(script)]
    found = shutil.which(APP_ID)
    if found:
        return [found]
    return [sys.executable, "-m", "rtoplanner"]


def _exec_quote(arg: str) -> str:
    """An Exec= argument quoted as the Desktop Entry spec says (double quotes only)."""
    if not any(c in arg for c in " \t\n\"'\\><~|&;$*?#()`"):
        return arg
    escaped = "".join("\\" + c if c in '"`$\\' else c for c in arg)
    return f'"{escaped}"'.replace("\\", "\\\\")


def _targets(root: Path) -> dict[Path, Path | None]:
    """{installed file: shipped source} (None for the entry, which is rewritten)."""
    res = resources_dir()
    icons = res / "icons"
    out: dict[Path, Path | None] = {root / "applications" / f"{APP_ID}.desktop": None}
    for size in ICON_SIZES:
        out[root / "icons" / "hicolor" / f"{size}x{size}" / "apps" / f"{APP_ID}.png"] = (
            icons / f"{APP_ID}-{size}.png"
        )
    out[root / "icons" / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg"] = (
        icons / f"{APP_ID}.svg"
    )
    out[root / "mime" / "packages" / f"{APP_ID}.xml"] = res / MIME_FILE
    return out


def desktop_entry_text(command: list[str]) -> str:
    """The shipped desktop entry with `Exec`/`TryExec` pointing at `command`."""
    exec_line = " ".join(_exec_quote(a) for a in command)
    lines = []
    for line in (resources_dir() / f"{APP_ID}.desktop").read_text(encoding="utf-8").splitlines():
        if line.startswith("Exec="):
            line = f"Exec={exec_line} gui %f"
        elif line.startswith("TryExec="):
            line = f"TryExec={command[0]}"
        lines.append(line)
    return "\n".join(lines) + "\n"


def _require_linux() -> None:
    if not sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        raise DesktopInstallError(
            f"desktop-install is for Linux desktops (this is {sys.platform})",
            hint="on macOS and Windows use the bundle from packaging/",
        )


def install(root: Path | None = None, command: list[str] | None = None) -> list[Path]:
    """Write the entry, icons and MIME type under `root` (default: `data_home()`)."""
    _require_linux()
    root = root or data_home()
    written = []
    try:
        for target, source in _targets(root).items():
            target.parent.mkdir(parents=True, exist_ok=True)
            if source is None:
                target.write_text(desktop_entry_text(command or launch_command()),
                                  encoding="utf-8")  # fmt: skip
            else:
                shutil.copyfile(source, target)
            written.append(target)
    except OSError as exc:
        raise DesktopInstallError(f"cannot write the desktop files under {root}: {exc}") from None
    refresh_caches(root)
    return written


def uninstall(root: Path | None = None) -> list[Path]:
    """Remove what `install` wrote; returns the files removed."""
    _require_linux()
    root = root or data_home()
    removed = []
    for target in _targets(root):
        if target.is_file():
            target.unlink()
            removed.append(target)
    refresh_caches(root)
    return removed


def refresh_caches(root: Path) -> list[str]:
    """Run the desktop's cache tools that are installed; returns the ones run."""
    hicolor = str(root / "icons" / "hicolor")
    commands = (
        ("update-mime-database", str(root / "mime")),
        ("update-desktop-database", str(root / "applications")),
        ("gtk-update-icon-cache", "--quiet", "--ignore-theme-index", hicolor),
    )
    ran = []
    for tool, *args in commands:
        if shutil.which(tool) and Path(args[-1]).is_dir():
            subprocess.run([tool, *args], capture_output=True, timeout=60, check=False)
            ran.append(tool)
    return ran
