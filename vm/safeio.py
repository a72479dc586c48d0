"""Reading files an adversary may have planted: only regular files, never a blocking open.

The agent a check judges runs as the same user and can put a FIFO, a device or a symlink to
`/dev/zero` wherever the judge reads. Every file the judge reads or appends goes through
`open_regular` (or `read_regular` / `append_regular` on top of it): opened with O_NONBLOCK
(opening a FIFO never waits for a writer), checked with fstat to be a regular file before one
byte moves, and read with a size bound. Absence is not a refusal (FileNotFoundError propagates
as it is: callers give absence its own meaning), and neither is a directory (IsADirectoryError,
as `open()` raises it, so callers that read a directory as "no file" keep doing so); anything
else that is not a plain, bounded regular file raises UnsafeFile naming the reason.

Which files refuse a final symlink is the caller's choice (`follow_symlinks`); the rule of the
guard is `follows_symlinks(path)`: the guard's own state under a `.polydeukes` directory is
never read or written through one, files the user owns (the config, a configured log) are
followed to a regular file. docs/security.md states it.

Standard library only: this module is on the hot path.
"""

from __future__ import annotations

import errno
import os
import stat

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_BINARY = getattr(os, "O_BINARY", 0)  # Windows: no newline translation

MiB = 1 << 20
GUARD_STATE_DIR = ".polydeukes"
# (Python design) A project file the judge reads (a declaration's `file` source, the pre-state
# of a shell write) past this size is refused: the call is then unjudgeable, never judged on a
# prefix.
PROJECT_FILE_LIMIT = 32 * MiB


class UnsafeFile(OSError):
    """A file the judge refuses to read: not regular, too large, or a final symlink.

    `reason` completes "it is …" ("a FIFO, not a regular file", "larger than 4 MiB"), so a
    caller can name the file its own way; `str()` names the path."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"'{path}' is {reason}")
        self.path = path
        self.reason = reason


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


def follows_symlinks(path: str) -> bool:
    """False for the guard's own state (any path with a `.polydeukes` segment)."""
    return GUARD_STATE_DIR not in path.replace("\\", "/").split("/")


def _not_regular(path: str, mode: int) -> OSError:
    if stat.S_ISDIR(mode):
        return IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
    if stat.S_ISLNK(mode):
        return UnsafeFile(path, "a symbolic link, which the guard does not follow here")
    return UnsafeFile(path, f"{file_kind(mode)}, not a regular file")


def open_regular(path: str, flags: int, *, follow_symlinks: bool = True, mode: int = 0o644,
                 dir_fd: int | None = None) -> int:
    """os.open with O_NONBLOCK (and O_NOFOLLOW unless `follow_symlinks`), then fstat: the
    descriptor is returned only when it is a regular file; otherwise it is closed and
    IsADirectoryError (a directory) or UnsafeFile raised. O_NONBLOCK is cleared again before
    returning, so a regular file behaves as usual."""
    extra = _NONBLOCK | _CLOEXEC | _BINARY | (0 if follow_symlinks else _NOFOLLOW)
    try:
        fd = os.open(path, flags | extra, mode, dir_fd=dir_fd)
    except FileNotFoundError:
        raise
    except OSError as exc:
        # ELOOP (a final symlink under O_NOFOLLOW), ENXIO (a FIFO with no reader, a socket),
        # EISDIR (a directory opened for writing): name what the path is, when it is not a
        # plain file that failed for another reason (permissions, a full disk, ...).
        try:
            info = os.stat(path, dir_fd=dir_fd, follow_symlinks=follow_symlinks)
        except OSError:
            raise exc from None
        if stat.S_ISREG(info.st_mode):
            raise
        raise _not_regular(path, info.st_mode) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise _not_regular(path, info.st_mode)
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
            raise UnsafeFile(path, f"larger than {size_text(limit)}")
        chunks = []
        total = 0
        while True:  # to EOF, not to the fstat size: the file may grow while it is read
            chunk = os.read(fd, min(max(size, 1 << 16), limit - total + 1))
            if not chunk:
                break
            total += len(chunk)
            if total > limit:
                raise UnsafeFile(path, f"larger than {size_text(limit)}")
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def append_regular(path: str, data: bytes, *, follow_symlinks: bool = True) -> None:
    """Exactly one append write of `data` to the regular file at `path` (created 0644).

    One `write` on an O_APPEND descriptor: rows from concurrent processes never interleave.
    Raises OSError (UnsafeFile for what is not a regular file; a short write as OSError)."""
    fd = open_regular(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT,
                      follow_symlinks=follow_symlinks)
    try:
        written = os.write(fd, data)
        if written != len(data):
            raise OSError(f"short write ({written} of {len(data)} bytes)")
    finally:
        os.close(fd)


def refusal_text(exc: OSError) -> str:
    """Why a file could not be used, without repeating its path (the caller names it)."""
    if isinstance(exc, UnsafeFile):
        return f"it is {exc.reason}"
    if isinstance(exc, IsADirectoryError):
        return "it is a directory"
    return exc.strerror or str(exc)


def size_text(limit: int) -> str:
    if limit >= MiB and limit % MiB == 0:
        return f"{limit // MiB} MiB"
    return f"{limit} bytes"
