"""Reading a local file once, as the walk saw it: no symbolic link followed, only a regular file, one open.

The walk (ingest/walk.py) decides which paths to read; between that decision and the read a file can be swapped
for a link to /etc/passwd, or a folder on its path for a link to /etc. So the path is opened one component at a
time from the root with ``O_NOFOLLOW`` (a link anywhere on it is refused, not followed), the file itself with
``O_NONBLOCK`` (a FIFO put in its place cannot block the open), and what was opened is checked with ``fstat``
on that descriptor: a regular file, or nothing is read. Every byte then comes from that one descriptor.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from openresearch.errors import ParseError

_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
# O_PATH: a folder on the way needs search permission only, as when the kernel walks the path itself
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | getattr(os, "O_PATH", 0) | _CLOEXEC
_FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | _CLOEXEC

_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"), (stat.S_ISLNK, "a symbolic link"))


def file_kind(mode: int) -> str:
    """What a non-regular file is, in words ("a FIFO (named pipe)")."""
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def _refused(path: Path, why: str) -> ParseError:
    return ParseError(f"{path}: {why}; not read")


def _open_parent(path: Path) -> int:
    """A descriptor of ``path``'s folder, reached from the root without following any link."""
    fd = os.open("/", _DIR_FLAGS)
    try:
        for part in path.parts[1:-1]:
            try:
                nxt = os.open(part, _DIR_FLAGS, dir_fd=fd)
            except OSError as e:
                if e.errno in (errno.ELOOP, errno.ENOTDIR):
                    raise _refused(path, f"{part!r} on its path is no longer a folder (a symbolic link or a file "
                                         "put in its place after the folder was read)") from None
                raise
            os.close(fd)
            fd = nxt
            if not stat.S_ISDIR(os.fstat(fd).st_mode):  # O_PATH opens a link itself: check what it is
                raise _refused(path, f"{part!r} on its path is a symbolic link")
        return fd
    except BaseException:
        os.close(fd)
        raise


@dataclass(frozen=True)
class LocalFile:
    """A file as it was read: its bytes and its mode, both from the one descriptor."""

    data: bytes
    mode: int


def read_regular_file(path: Path, max_bytes: int) -> bytes:
    """The bytes of the regular file at ``path``; see read_regular."""
    return read_regular(path, max_bytes).data


def read_regular(path: Path, max_bytes: int) -> LocalFile:
    """The regular file at ``path`` (absolute), read through one descriptor opened without following links.
    ParseError (one line naming the file) for a link, a FIFO, a device, a socket, a file over ``max_bytes``, or
    a read that fails."""
    path = Path(os.path.abspath(path))
    try:
        parent = _open_parent(path)
        try:
            try:
                fd = os.open(path.name, _FILE_FLAGS, dir_fd=parent)
            except OSError as e:
                if e.errno == errno.ELOOP:
                    raise _refused(path, "a symbolic link (put in its place after the folder was read?); links "
                                         "are not followed") from None
                raise
        finally:
            os.close(parent)
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                raise _refused(path, f"{file_kind(st.st_mode)}, not a regular file")
            if st.st_size > max_bytes:
                raise _refused(path, f"{st.st_size:,} bytes, more than a document file may have ({max_bytes:,})")
            os.set_blocking(fd, True)
            chunks: list[bytes] = []
            total = 0
            while chunk := os.read(fd, min(1 << 20, max_bytes + 1 - total)):
                chunks.append(chunk)
                total += len(chunk)
                if total > max_bytes:  # grew while being read
                    raise _refused(path, f"more than a document file may have ({max_bytes:,} bytes)")
            return LocalFile(b"".join(chunks), st.st_mode)
        finally:
            os.close(fd)
    except OSError as e:
        raise ParseError(f"{path}: cannot read: {e.strerror}") from None
