"""Which files a local ingest reads: a folder (recursively), one file, or a glob, and never more than that.

Symbolic links are not followed out of the folder given (a link to /etc/passwd or to /etc is skipped and
reported) unless ``follow_symlinks`` is set; a link inside the folder is read under its real path, once.
Directory loops are detected by (device, inode), so a link cycle cannot index a file twice or walk forever.
Globs are matched against that same safe walk of their fixed prefix, not by ``glob.glob`` (which follows
every link it meets).
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from openresearch.errors import InputError
from openresearch.ingest.safe_open import file_kind

_MAGIC = re.compile(r"[*?\[]")


@dataclass
class Expansion:
    root: str
    """The key the sources of this spec are stored under: an absolute folder, file or glob pattern."""
    files: list[Path]
    """Resolved absolute paths, each once, in a stable order."""
    skipped: list[str] = field(default_factory=list)


def _inside(path: Path, top: Path) -> bool:
    return path == top or top in path.parents


def walk(top: Path, accept: Callable[[Path], bool], *, follow_symlinks: bool = False,
         skipped: list[str] | None = None) -> Iterator[Path]:
    """Resolved paths of the regular files under ``top`` whose name ``accept`` takes, each once."""
    notes = skipped if skipped is not None else []
    top_real = top.resolve()
    seen_dirs: set[tuple[int, int]] = set()
    seen_files: set[Path] = set()
    stack = [top_real]
    while stack:
        folder = stack.pop()
        try:
            st = folder.stat()
            entries = sorted(os.scandir(folder), key=lambda e: e.name, reverse=True)
        except OSError as exc:
            notes.append(f"{folder}: cannot read folder: {exc.strerror}")
            continue
        key = (st.st_dev, st.st_ino)
        if key in seen_dirs:
            notes.append(f"{folder}: folder reached twice (a symbolic link loop); read once")
            continue
        seen_dirs.add(key)
        subdirs: list[Path] = []
        for entry in reversed(entries):
            path = Path(entry.path)
            try:
                if entry.is_symlink():
                    try:
                        target = path.resolve(strict=True)
                    except (OSError, RuntimeError):
                        notes.append(f"{path}: broken or looping symbolic link; skipped")
                        continue
                    if not _inside(target, top_real) and not follow_symlinks:
                        notes.append(f"{path}: symbolic link to {target}, outside {top}; skipped "
                                     "(OPENRESEARCH_FOLLOW_SYMLINKS=1 follows it)")
                        continue
                    mode = target.stat().st_mode
                    if stat.S_ISDIR(mode):
                        if _inside(target, top_real):
                            continue  # walked under its real path anyway
                        subdirs.append(target)
                        continue
                    real = target
                else:
                    mode = entry.stat(follow_symlinks=False).st_mode
                    if stat.S_ISDIR(mode):
                        subdirs.append(path)
                        continue
                    real = path
            except OSError as exc:
                notes.append(f"{path}: cannot read: {exc.strerror}")
                continue
            if not accept(real):
                continue
            if not stat.S_ISREG(mode):  # sockets, FIFOs and devices are never opened (a FIFO would block the read)
                notes.append(f"{path}: {file_kind(mode)}, not a regular file; skipped")
                continue
            if real not in seen_files:
                seen_files.add(real)
                yield real
        stack.extend(reversed(subdirs))


def _glob_regex(pattern: str) -> re.Pattern[str]:
    """The regex of a relative glob: ``**/`` is any number of folders, ``*`` and ``?`` stay in one name."""
    out = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:[^/]*/)*")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        elif pattern[i] == "[" and (j := pattern.find("]", i + 2)) != -1:
            body = pattern[i + 1:j]
            out.append("[" + ("^" + re.escape(body[1:]) if body.startswith("!") else re.escape(body)) + "]")
            i = j + 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out) + r"\Z")


def expand(spec: str | Path, accept: Callable[[Path], bool], *, follow_symlinks: bool = False) -> Expansion:
    """A folder (recursively), a file or a glob -> the files to read. Raises InputError if nothing matches."""
    p = Path(spec).expanduser()
    if p.is_dir():
        skipped: list[str] = []
        files = list(walk(p, accept, follow_symlinks=follow_symlinks, skipped=skipped))
        return Expansion(str(p.resolve()), sorted(files), skipped)
    if p.is_file():
        return Expansion(str(p.resolve()), [p.resolve()])
    text = str(p)
    parts = Path(os.path.abspath(text)).parts
    fixed = 0
    while fixed < len(parts) and not _MAGIC.search(parts[fixed]):
        fixed += 1
    if fixed == len(parts):
        raise InputError(f"no documents match {spec}")
    base = Path(*parts[:fixed])
    rest = "/".join(parts[fixed:])
    regex = _glob_regex(rest)
    skipped = []
    files = []
    if base.is_dir():
        base_real = base.resolve()
        for f in walk(base, accept, follow_symlinks=follow_symlinks, skipped=skipped):
            try:
                rel = f.relative_to(base_real).as_posix()
            except ValueError:
                continue  # reached through a followed link: outside the pattern's folder
            if regex.match(rel):
                files.append(f)
    if not files:
        raise InputError(f"no documents match {spec}")
    return Expansion(str(base / rest), sorted(files), skipped)
