"""Where a command writes its files (`--out`): checked before any work starts, written without following links.

A planted symbolic link at ``out/report.md`` must not redirect the write to its target, and a typo such as
``--out /etc`` must not cost a finished run its report. So the folder and every file to be written are checked
up front (no symbolic link, not a system folder, a folder that exists or can be made, writable), and each file
is written to a fresh temporary name in that folder (``O_CREAT|O_EXCL|O_NOFOLLOW``, through a descriptor of the
folder opened with ``O_NOFOLLOW``) and renamed over the final name: a rename replaces a link, never its target.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO

from openresearch.errors import InputError

# folders of the system, never a place for a report (resolved: /bin on a merged /usr is /usr/bin)
SYSTEM_DIRS = ("/etc", "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/boot", "/proc", "/sys",
               "/dev", "/run", "/var/run", "/var/lib", "/var/log", "/var/spool", "/var/cache", "/snap")
REPORT_FILES = ("report.md", "report.json", "report.html")
"""What a research run writes into its --out folder."""
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
_NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)


def _system(path: Path) -> str | None:
    text = str(path)
    if text == "/":
        return "/"
    return next((d for d in SYSTEM_DIRS if text == d or text.startswith(d + "/")), None)


def _nearest_existing(path: Path) -> Path:
    p = path
    while not os.path.lexists(p) and p != p.parent:
        p = p.parent
    return p


def check_out_dir(out: Path, names: Sequence[str], option: str = "--out") -> Path:
    """The absolute folder ``out`` if ``names`` can be written in it safely; InputError (one line) otherwise."""
    where = Path(os.path.abspath(Path(out).expanduser()))
    label = f"{option} {out}"
    if where.is_symlink():
        raise InputError(f"{label} is a symbolic link (to {os.readlink(where)}); name the folder itself")
    real = Path(os.path.realpath(where))
    if (system := _system(real)) is not None:
        raise InputError(f"{label} is inside the system folder {system}; choose a folder of your own")
    if os.path.lexists(where) and not where.is_dir():
        raise InputError(f"{label} exists and is not a folder")
    for name in names:
        target = where / name
        if target.is_symlink():
            raise InputError(f"{label}: {name} there is a symbolic link (to {os.readlink(target)}); remove it or "
                             "choose another folder")
        if os.path.lexists(target) and not target.is_file():
            raise InputError(f"{label}: {name} there exists and is not a regular file")
    base = _nearest_existing(where)
    if not base.is_dir():
        raise InputError(f"{label}: {base} is not a folder")
    if not os.access(base, os.W_OK | os.X_OK):
        raise InputError(f"{label}: {base} is not writable")
    return where


def check_out_file(out: Path, option: str = "--out") -> Path:
    """An output file named by the user: its folder and the file itself pass ``check_out_dir``."""
    path = Path(os.path.abspath(Path(out).expanduser()))
    if os.path.lexists(path) and path.is_dir() and not path.is_symlink():
        raise InputError(f"{option} {out} is a folder; name a file")
    check_out_dir(path.parent, [path.name], option=f"{option} {out}:")
    return path


@contextlib.contextmanager
def _folder(out: Path) -> Iterator[int]:
    out.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(out, _DIR_FLAGS)
    except OSError as e:
        if e.errno in (errno.ELOOP, errno.ENOTDIR):
            raise InputError(f"{out} became a symbolic link or a file before the output was written") from None
        raise
    try:
        yield fd
    finally:
        os.close(fd)


@contextlib.contextmanager
def open_new_file(out: Path, name: str, *, dir_fd: int | None = None) -> Iterator[IO[str]]:
    """A text file written to a temporary name in ``out`` and renamed to ``name`` once complete (UTF-8)."""
    with contextlib.ExitStack() as stack:
        folder = dir_fd if dir_fd is not None else stack.enter_context(_folder(out))
        tmp = f".{name}.{secrets.token_hex(6)}.tmp"
        fd = os.open(tmp, _NEW_FILE, 0o644, dir_fd=folder)
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
                yield fh
            os.replace(tmp, name, src_dir_fd=folder, dst_dir_fd=folder)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp, dir_fd=folder)
            raise


def write_files(out: Path, files: Mapping[str, str]) -> None:
    """Write each named text into ``out`` safely (see the module); a file is either whole or absent."""
    with _folder(out) as folder:
        for name, text in files.items():
            with open_new_file(out, name, dir_fd=folder) as fh:
                fh.write(text)
