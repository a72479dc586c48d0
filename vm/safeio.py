"""Reading files an adversary may have planted: only regular files, never a blocking open.

The agent a check judges runs as the same user and can put a FIFO, a device or a symlink to
`/dev/zero` wherever the judge reads. Every file the judge reads goes through `read_regular`:
opened with O_NONBLOCK (opening a FIFO never waits for a writer), checked with fstat to be a
regular file before one byte is read, and read with a size bound. Absence is not a refusal
(FileNotFoundError propagates as it is: callers give absence its own meaning); anything else
that is not a plain, bounded regular file raises UnsafeFile with a message naming the reason.

Standard library only: this module is on the hot path.
"""

from __future__ import annotations

import os
import stat

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_BINARY = getattr(os, "O_BINARY", 0)  # Windows: no newline translation

MiB = 1 << 20


class UnsafeFile(OSError):
    """A file the judge refuses to read: not regular, too large, or a final symlink."""


def file_kind(mode: int) -> str:
    """A person's name for what a path is, for refusal messages."""
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    return "not a regular file"


def open_regular(path: str, flags: int, *, follow_symlinks: bool = True, mode: int = 0o644,
                 dir_fd: int | None = None) -> int:
    """os.open with O_NONBLOCK (and O_NOFOLLOW unless `follow_symlinks`), then fstat: the
    descriptor is returned only when it is a regular file; otherwise it is closed and
    UnsafeFile raised. O_NONBLOCK is cleared again before returning, so a regular file
    behaves as usual."""
    extra = _NONBLOCK | _CLOEXEC | _BINARY | (0 if follow_symlinks else _NOFOLLOW)
    try:
        fd = os.open(path, flags | extra, mode, dir_fd=dir_fd)
    except OSError as exc:
        if not follow_symlinks and _NOFOLLOW and os.path.islink(path):
            raise UnsafeFile(f"'{path}' is a symbolic link") from exc
        raise
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UnsafeFile(f"'{path}' is {file_kind(info.st_mode)}")
        if _NONBLOCK and hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_regular(path: str, *, limit: int, follow_symlinks: bool = True,
                 dir_fd: int | None = None) -> bytes:
    """The whole content of the regular file at `path`, at most `limit` bytes.

    FileNotFoundError (and NotADirectoryError for a missing parent) propagate unchanged;
    a file larger than `limit` (by fstat, or grown while read) raises UnsafeFile."""
    fd = open_regular(path, os.O_RDONLY, follow_symlinks=follow_symlinks, dir_fd=dir_fd)
    try:
        size = os.fstat(fd).st_size
        if size > limit:
            raise UnsafeFile(f"'{path}' is larger than {_size_text(limit)}")
        chunks = []
        total = 0
        while True:  # to EOF, not to the fstat size: the file may grow while it is read
            chunk = os.read(fd, min(max(size, 1 << 16), limit - total + 1))
            if not chunk:
                break
            total += len(chunk)
            if total > limit:
                raise UnsafeFile(f"'{path}' is larger than {_size_text(limit)}")
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def _size_text(limit: int) -> str:
    if limit >= MiB and limit % MiB == 0:
        return f"{limit // MiB} MiB"
    return f"{limit} bytes"
