"""Read-only looks at the working tree, for effects that depend on files on disk.

The analyzer never executes anything and never writes anything. Where a command's effect
depends on what is on disk it looks, within bounds:

- `resolve(segments)`: follow the symbolic links under the project root that a write target
  passes through (`notes/link/gate.sh` with `notes/link -> ../ci` writes `ci/gate.sh`);
- `archive_members(path, kind)`: the member names (and link targets) of a tar or zip archive
  that `tar -x` or `unzip` would write;
- `patch_targets(path)` / `patch_text_targets(text)`: the files a patch names;
- `read_text(path)`: a small text file (`xargs -a list`);
- `read_script(path)`: a script a command runs (`bash build.sh`, `./x.sh`, `python3 t.py`), or
  `BINARY` for a compiled program (only its first kilobyte is read).

Every file is opened through `vm.safeio` (O_NONBLOCK, regular files only, a size bound), so a
FIFO, a device or a symlink to `/dev/zero` planted by the agent cannot hang or exhaust the
judge. Each look costs from one budget per analysis (`LOOKUPS` path lookups, `SECONDS` of
wall time, `ARCHIVE_BYTES` of decompressed archive); past it a look answers `Refused`, and the
judges fail closed on a refusal. A missing file is not a refusal: `Missing` lets the caller
decide (a command on a missing archive writes nothing, unless the line makes the file first).
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Callable, Sequence

import msgspec

from polydeukes.stdlib.shell.paths import dot_resolve
from polydeukes.vm import safeio
from polydeukes.vm.sre import LazyPattern

LOOKUPS = 4096  # path components looked up (lstat) per analysis
# Wall time from an analysis' first look at the disk: the reading and the analysis between
# reads (lazy imports included). Half a second, the first bound, failed harmless lines closed
# on a loaded machine (a six-line Makefile or a package's `__main__.py` read by a process that
# shared two cores with eight others).
SECONDS = 2.0
FILE_BYTES = 16 * safeio.MiB  # one patch or list file
SCRIPT_BYTES = safeio.MiB  # one shell script a command runs (`bash build.sh`): walked command by command
PROGRAM_BYTES = 4 * safeio.MiB  # one program for another interpreter (`python3 tool.py`): only scanned
PRINT_BYTES = 64 * 1024  # one file whose text a substitution gives a word (`"$(cat F)"`): a value, split and matched
_SCRIPT_HEAD = 1024  # bytes read first, to tell a binary program from a script
ARCHIVE_BYTES = 64 * safeio.MiB  # one archive file on disk
UNPACKED_BYTES = 256 * safeio.MiB  # decompressed bytes read from one archive
MEMBERS = 100_000  # archive members
SYMLINK_HOPS = 40  # as the kernel's ELOOP limit
_LISTED = 64  # directory entries listed per lookup spent
TEST_FILES = 2000  # test files (and conftest.py, __init__.py) a test runner would import from one directory
# pytest's `norecursedirs` default (and `__pycache__`, which holds no source).
_NOT_COLLECTED = LazyPattern(r"\..*|.*\.egg|_darcs|build|CVS|dist|node_modules|venv|\{arch\}|__pycache__")


class Refused(msgspec.Struct, frozen=True):
    reason: str


class Missing(msgspec.Struct, frozen=True):
    pass


MISSING = Missing()


class Binary(msgspec.Struct, frozen=True):
    """A file the shell will not run as a script: a NUL byte in its first line (bash's own
    test before it runs a file that `execve` refused; an ELF header has one in its first
    eight bytes)."""


BINARY = Binary()


# A compiled program, module or addon is read to this size for the names it holds (past it:
# refused, fail closed).
COMPILED_BYTES = 64 * safeio.MiB


class CompiledText(str):
    """A compiled file's bytes, one character each (latin-1): searched for the protected
    entries' names (`Protected.compiled_index`), never read as code."""

    __slots__ = ()


class _Walked(msgspec.Struct, frozen=True):
    """A path resolved as far as `Disk._walk` went."""

    done: list[str]  # the resolved segments
    hops: int  # symbolic links followed
    followed: bool  # some link was followed (the result differs from the path as spelled)
    missing: bool  # a segment does not exist: what follows it was resolved lexically


_OUTSIDE = object()  # a directory outside the root and above none of it
_UNUSUAL = object()  # a directory above the root, or spelled with `.`/`..`: resolved in full
_MISSING = object()  # a directory under the root where some segment does not exist, no link above


class Member(msgspec.Struct, frozen=True, gc=False):
    name: str
    link: str | None = None  # a symbolic link member's target


class Disk:
    """One analysis' access to the working tree under `root` (an absolute directory)."""

    def __init__(self, root: str, *, seconds: float = SECONDS, lookups: int = LOOKUPS) -> None:
        self.root = root
        self.root_segs = [s for s in root.split("/") if s]
        self.seconds = seconds
        self.lookups = lookups
        self._deadline: float | None = None
        self._lstat: dict[str, os.stat_result | None] = {}
        self._resolved: dict[tuple[tuple[str, ...], bool], list[str] | Refused] = {}
        self._directories: dict[tuple[str, ...], _Walked | Refused] = {}
        self._last_directory: tuple[str, ...] | None = None
        self._last_walked: _Walked | Refused | object = None
        self._real_root: list[str] | None = None
        self._missing_directories: set[tuple[str, ...]] = set()

    # -- budget -----------------------------------------------------------------------------

    def _spend(self, lookups: int = 1) -> Refused | None:
        now = time.monotonic()
        if self._deadline is None:
            self._deadline = now + self.seconds
        self.lookups -= lookups
        if self.lookups < 0:
            return Refused("too many paths to look up on disk")
        if now > self._deadline:
            return Refused(f"reading the working tree took longer than {self.seconds:g} s")
        return None

    def _lstat_of(self, path: str) -> os.stat_result | None | Refused:
        if path in self._lstat:
            return self._lstat[path]
        refused = self._spend()
        if refused is not None:
            return refused
        try:
            info: os.stat_result | None = os.lstat(path)
        except (OSError, ValueError):  # ValueError: a NUL byte in the path names nothing
            info = None
        self._lstat[path] = info
        return info

    # -- symbolic links ---------------------------------------------------------------------

    def resolve(self, segments: list[str], *, follow_last: bool = True) -> list[str] | Refused:
        """`segments` (absolute, dot-resolved) with every symbolic link at or below the project
        root followed; the last component is followed only with `follow_last` (`rm link`
        removes the link itself). Paths outside the root are returned as they are."""
        root = self.root_segs
        if segments[: len(root)] != root or len(segments) == len(root):
            return segments
        key = (tuple(segments), follow_last)
        found = self._resolved.get(key)
        if found is None:
            found = self._resolved[key] = self._resolve(segments, follow_last)
        return found

    def resolve_below(self, directory: tuple[str, ...], parts: list[str], *,
                      follow_last: bool = True) -> list[str] | Refused | None:
        """`resolve(directory + parts)` for an absolute `directory` and relative `parts` with
        no `.` or `..`, or None when the path resolves to itself (no symbolic link on the way).

        The directory's own resolution is worked out once per analysis and kept: a script runs
        many commands in one directory, and walking its segments again for every write target
        made the cost of each grow with the directory's depth (measured: about 60,000
        instructions per target 50 levels down)."""
        if directory is self._last_directory:  # (the walk hands the same tuple until a `cd`:
            walked = self._last_walked        # no hashing of the whole directory per target)
        elif self._last_walked is _MISSING and self._below_last(directory):
            # Below a directory where nothing exists, nothing exists either: a script that keeps
            # `cd`-ing down a missing tree is not walked again, from the root, at every level.
            walked = self._last_walked
            self._last_directory = directory
        else:
            walked = self._directories.get(directory)
            if walked is None:
                walked = self._directories[directory] = self._walk_directory(directory)
            self._last_directory, self._last_walked = directory, walked
        if walked is _OUTSIDE or walked is _MISSING:
            # Nothing outside the root is followed; with nothing at some segment of the
            # directory and no link above it, the path resolves to itself.
            return None
        if walked is _UNUSUAL:
            lexical = dot_resolve([*directory, *parts])
            while lexical and lexical[0] == "..":
                lexical = lexical[1:]
            resolved = self.resolve(lexical, follow_last=follow_last)
            return None if resolved == lexical else resolved
        if isinstance(walked, Refused):
            return walked
        if walked.missing:
            # Nothing exists at some segment of the directory, so nothing below it is a link:
            # without a link above, the path resolves to itself (answered without building the
            # path: that costs the directory's depth, for every target).
            if not walked.followed:
                return None
            found = _Walked(walked.done + parts, walked.hops, walked.followed, True)
        else:
            found = self._walk(list(walked.done), list(parts), walked.hops, follow_last)
            if isinstance(found, Refused):
                return found
        if not (walked.followed or found.followed) or found.done == [*directory, *parts]:
            return None
        return found.done

    def _below_last(self, directory: tuple[str, ...]) -> bool:
        """Is `directory` strictly below the last directory walked (and spelled without `.`
        or `..` in the segments that extend it)?"""
        last = self._last_directory
        if last is None or len(directory) <= len(last) or directory[len(last) - 1] != last[-1]:
            return False
        extension = directory[len(last) :]
        return "." not in extension and ".." not in extension and directory[: len(last)] == last

    def _walk_directory(self, directory: tuple[str, ...]) -> _Walked | Refused | object:
        root = self.root_segs
        if directory[: len(root)] == tuple(root):
            if "." in directory or ".." in directory:
                return _UNUSUAL
            walked = self._walk(list(root), list(directory[len(root) :]), 0, True)
            if isinstance(walked, _Walked) and walked.missing and not walked.followed:
                return _MISSING
            return walked
        if tuple(root[: len(directory)]) == directory:
            return _UNUSUAL  # an ancestor of the root: the parts may lead into it
        return _OUTSIDE

    def _resolve(self, segments: list[str], follow_last: bool) -> list[str] | Refused:
        root = self.root_segs
        found = self._walk(list(root), list(segments[len(root) :]), 0, follow_last)
        return found if isinstance(found, Refused) else found.done

    def _walk(self, done: list[str], todo: list[str], hops: int, follow_last: bool) -> _Walked | Refused:
        """Resolve `todo` from the resolved prefix `done`, segment by segment, following links
        at or below the root (`hops` counts the links followed so far)."""
        root = self.root_segs
        followed = False
        while todo:
            name = todo.pop(0)
            if name == ".":
                continue
            if name == "..":
                if done:
                    done.pop()
                continue
            candidate = done + [name]
            if candidate[: len(root)] != root or (not todo and not follow_last):
                done = candidate
                continue
            info = self._lstat_of("/" + "/".join(candidate))
            if isinstance(info, Refused):
                return info
            if info is None:
                # Nothing exists here, so nothing below it is a link (the rest resolves lexically).
                return _Walked(dot_resolve(candidate + todo), hops, followed, True)
            if not stat.S_ISLNK(info.st_mode):
                done = candidate
                continue
            hops += 1
            if hops > SYMLINK_HOPS:
                return Refused("too many levels of symbolic links")
            try:
                target = os.readlink("/" + "/".join(candidate))
            except (OSError, ValueError):
                done = candidate
                continue
            followed = True
            if target.startswith(("/proc/", "/dev/fd/")):
                # (`m -> /proc/self/cwd/.claude`: where it leads depends on the process that
                # follows it, not on this one)
                return Refused(f"'/{'/'.join(candidate)}' leads through the process files ({target})")
            parts = [s for s in target.split("/") if s]
            if target.startswith("/"):
                done = []
                parts = self._from_real_root(parts)
            todo = parts + todo
        return _Walked(done, hops, followed, False)

    def _from_real_root(self, parts: list[str]) -> list[str]:
        """An absolute link target spelled through the root's real path, mapped back onto the
        root as the judges spell it (a project under a symlinked /tmp, say)."""
        if self._real_root is None:
            self._real_root = [s for s in os.path.realpath(self.root).split("/") if s]
        real = self._real_root
        if real != self.root_segs and parts[: len(real)] == real:
            return self.root_segs + parts[len(real) :]
        return parts

    def kind(self, segments: list[str]) -> str | Refused:
        """'file', 'dir', 'link', 'other' or 'missing' (no link followed)."""
        info = self._lstat_of("/" + "/".join(segments))
        if isinstance(info, Refused):
            return info
        if info is None:
            return "missing"
        if stat.S_ISDIR(info.st_mode):
            return "dir"
        if stat.S_ISREG(info.st_mode):
            return "file"
        if stat.S_ISLNK(info.st_mode):
            return "link"
        return "other"

    def missing_directory(self, segments: tuple[str, ...]) -> bool:
        """Is nothing at `segments` (no link followed)? Below a directory found missing the
        answer comes without a look (a script that keeps `cd`-ing down a missing tree and
        running `make` there spends no lookup, and so no time budget, per level)."""
        missing = self._missing_directories
        if segments[:-1] in missing:
            missing.add(segments)
            return True
        if self.kind(list(segments)) != "missing":  # (a refusal: not known missing)
            return False
        missing.add(segments)
        return True

    def first_missing(self, segments: tuple[str, ...], low: int = 0) -> int:
        """The length of the shortest leading part of `segments`, `low` or more, at which
        nothing is on disk (`missing_directory`); len(segments) + 1 when all of it is there.
        Nothing is below what is missing, so a binary search finds it: a script deep in a
        missing tree pays a few lookups per command, not one per level above it. (A refused
        look counts as present: more is then read, and reading it is refused in turn.)"""
        lo, hi = low, len(segments) + 1
        while lo < hi:
            mid = (lo + hi) // 2
            if self.missing_directory(segments[:mid]):
                hi = mid
            else:
                lo = mid + 1
        return lo

    def tree_has(self, segments: list[str], accept) -> bool | Refused:
        """Does the directory tree at `segments` hold an entry whose name `accept`s (the
        directory itself included)? Symbolic links are not followed."""
        return self._walk_tree(segments, lambda name, entry: accept(name))

    def tree_has_file(self, segments: list[str], accept) -> bool | Refused:
        """As `tree_has`, for the entries below the directory that are no directory (a
        symbolic link is such an entry)."""
        return self._walk_tree(segments, lambda name, entry: entry is not None
                               and not entry.is_dir(follow_symlinks=False) and accept(name))

    def tree_has_path(self, segments: list[str], accept) -> bool | Refused:
        """As `tree_has`, with each entry below the directory given as its path from it."""
        cut = len("/" + "/".join(segments)) + 1
        return self._walk_tree(segments, lambda name, entry: entry is not None and accept(entry.path[cut:]))

    def _walk_tree(self, segments: Sequence[str], visit) -> bool | Refused:
        """Every entry at or below the directory at `segments` (symbolic links not followed),
        a lookup spent per directory: `visit(name, entry)` (entry None for the top) returns
        True to stop there; True when it stopped."""
        stack = [("/" + "/".join(segments), segments[-1] if segments else "", None)]
        while stack:
            path, name, entry = stack.pop()
            if visit(name, entry):
                return True
            refused = self._spend()
            if refused is not None:
                return refused
            try:
                with os.scandir(path) as entries:
                    for entry in entries:
                        if entry.is_dir(follow_symlinks=False):
                            stack.append((entry.path, entry.name, entry))
                        elif visit(entry.name, entry):
                            return True
            except (OSError, ValueError):
                continue
        return False

    def files_below(self, segments: list[str], accept, limit: int) -> list[str] | Refused:
        """The absolute paths of the entries below the directory at `segments` that are no
        directory and whose name `accept`s (symbolic links not followed: a link is such an
        entry); more than `limit` of them refuse."""
        found: list[str] = []

        def visit(name: str, entry) -> bool:
            if entry is not None and not entry.is_dir(follow_symlinks=False) and accept(name):
                found.append(entry.path)
            return len(found) > limit

        walked = self._walk_tree(segments, visit)
        if isinstance(walked, Refused):
            return walked
        if walked:
            return Refused(f"more than {limit} files below '/{'/'.join(segments)}' pass its filters")
        return found

    def last_directory_present(self) -> bool:
        """Does the directory `resolve_below` walked last exist under the root? (Below a missing
        or outside one, no file has a second name to look at.)"""
        walked = self._last_walked
        return type(walked) is _Walked and not walked.missing or walked is _UNUSUAL

    def hard_link_id(self, segments: Sequence[str]) -> tuple[int, int] | None:
        """(device, inode) of the regular file at `segments` when it has more than one name
        (a hard link), else None (no link followed)."""
        info = self._lstat_of("/" + "/".join(segments))
        if info is None or isinstance(info, Refused) or not stat.S_ISREG(info.st_mode) or info.st_nlink < 2:
            return None
        return info.st_dev, info.st_ino

    def linked_file_ids(self, segments: Sequence[str]) -> set[tuple[int, int]] | Refused:
        """(device, inode) of every regular file with more than one name at or below
        `segments` (symbolic links not followed); a lookup is spent per directory."""
        found: set[tuple[int, int]] = set()
        top = self.hard_link_id(segments)
        if top is not None:
            found.add(top)

        def visit(name: str, entry) -> bool:
            if entry is not None and entry.is_file(follow_symlinks=False):
                info = entry.stat(follow_symlinks=False)
                if info.st_nlink > 1:
                    found.add((info.st_dev, info.st_ino))
            return False

        refused = self._walk_tree(segments, visit)
        return refused if isinstance(refused, Refused) else found

    def links_in(self, segments: list[str], accept, *, directories: bool = False) -> list[str] | Refused:
        """Names of the symbolic links (and, with `directories`, the directories) directly
        inside the directory at `segments` whose name `accept`s (`_names_in`)."""
        return self._names_in(segments, lambda entry: (entry.is_symlink() or directories and entry.is_dir(
            follow_symlinks=False)) and accept(entry.name))

    def names_in(self, segments: Sequence[str], accept) -> list[str] | Refused:
        """Names of every entry directly inside the directory at `segments` whose name
        `accept`s (`_names_in`)."""
        return self._names_in(segments, lambda entry: accept(entry.name))

    def _names_in(self, segments: Sequence[str], keep) -> list[str] | Refused:
        """Names of the entries directly inside the directory at `segments` that `keep`
        (a missing or unreadable directory has none). One lookup is spent per `_LISTED`
        entries, so a huge directory runs into the budget and is refused."""
        refused = self._spend()
        if refused is not None:
            return refused
        found: list[str] = []
        try:
            with os.scandir("/" + "/".join(segments)) as entries:
                for count, entry in enumerate(entries, 1):
                    if count % _LISTED == 0:
                        refused = self._spend()
                        if refused is not None:
                            return refused
                    if keep(entry):
                        found.append(entry.name)
        except (OSError, ValueError):
            return found
        return found

    def test_files(self, segments: list[str], limit: int | None = None, *, any_python: bool = False,
                   files=None, skip=None, recursive: bool = True, packages: bool = False) -> list[str] | Refused:
        """The files a test runner collects under the directory at `segments`, as absolute
        paths. By default pytest's: `conftest.py`, `test_*.py` and `*_test.py` (any `*.py` with
        `any_python`), in the directories it recurses into (not those its `norecursedirs`
        default names, nor a virtualenv, one holding `pyvenv.cfg`). Another runner's rule
        (testrunners.py) gives `files`, a pattern the path relative to `segments` matches in
        full, `skip`, a pattern of the directory names not entered, `recursive` False (only the
        directory itself: mocha without `--recursive`), `packages` (only the subdirectories
        holding an `__init__.py`, which is collected too: unittest's discovery). Directory
        links are followed once each (the runners follow them). One lookup per directory and
        per `_LISTED` entries; more than `limit` files is refused."""
        limit = TEST_FILES if limit is None else limit
        pytest_rule = files is None
        skip = _NOT_COLLECTED if skip is None else skip
        found: list[str] = []
        top = "/" + "/".join(segments)
        relative_from = len(top) + 1
        stack = [top]
        seen: set[tuple[int, int]] = set()
        while stack:
            path = stack.pop()
            refused = self._spend()
            if refused is not None:
                return refused
            try:
                info = os.stat(path)
                if (info.st_dev, info.st_ino) in seen:
                    continue
                seen.add((info.st_dev, info.st_ino))
                with os.scandir(path) as listing:
                    entries = list(listing)
            except (OSError, ValueError):
                continue
            if len(entries) >= _LISTED:
                refused = self._spend(len(entries) // _LISTED)
                if refused is not None:
                    return refused
            if path != top and pytest_rule and any(entry.name == "pyvenv.cfg" for entry in entries):
                continue  # a virtualenv: pytest does not collect in it (unless named)
            if path != top and packages:
                if not any(entry.name == "__init__.py" for entry in entries):
                    continue  # not a package: unittest's discovery does not enter it
                found.append(path + "/__init__.py")  # (importing the package runs it)
            for entry in entries:
                name = entry.name
                try:
                    is_dir = entry.is_dir()
                except OSError:
                    continue
                if is_dir:
                    if recursive and not skip().fullmatch(name):
                        stack.append(entry.path)
                    continue
                if pytest_rule:
                    collected = name.endswith(".py") and (any_python or name == "conftest.py"
                                                          or name.startswith("test_") or name.endswith("_test.py"))
                else:
                    collected = files().fullmatch(entry.path[relative_from:]) is not None
                if collected:
                    found.append(entry.path)
                    if len(found) > limit:
                        return Refused(f"more than {limit} test files under '{path}'")
        return found

    # -- files ------------------------------------------------------------------------------

    def read_text(self, path: str, limit: int = FILE_BYTES) -> str | Missing | Refused:
        data = self.read_bytes(path, limit)
        return data.decode("utf-8", errors="replace") if type(data) is bytes else data

    def stat(self, path: str) -> os.stat_result | None | Refused:
        """`os.stat` of `path` (links followed, as Python's import system stats a source file),
        None when nothing is there."""
        refused = self._spend()
        if refused is not None:
            return refused
        try:
            return os.stat(path)
        except (OSError, ValueError):
            return None

    def read_bytes(self, path: str, limit: int = FILE_BYTES) -> bytes | Missing | Refused:
        """The bytes of a file (a pickle, a compiled module, text `read_text` decodes), within
        `limit`."""
        refused = self._spend()
        if refused is not None:
            return refused
        try:
            return safeio.read_regular(path, limit=limit)
        except (OSError, ValueError) as exc:
            return _open_failure(exc, path)

    def read_compiled(self, path: str) -> CompiledText | Missing | Refused:
        """The bytes of a compiled module or addon a program loads, as `CompiledText`, within
        `COMPILED_BYTES`."""
        data = self.read_bytes(path, COMPILED_BYTES)
        return CompiledText(data.decode("latin-1")) if type(data) is bytes else data

    def read_script(self, path: str, limit: int = SCRIPT_BYTES) -> str | Binary | Missing | Refused:
        """The text of a script a command runs, or `BINARY` for a compiled program, of which
        only the first kilobyte is read (an unknown program is not judged by its bytes). A
        directory runs nothing (`MISSING`); a script larger than `limit` is refused."""
        refused = self._spend()
        if refused is not None:
            return refused
        try:
            fd = safeio.open_regular(path, os.O_RDONLY)
        except IsADirectoryError:
            return MISSING
        except (OSError, ValueError) as exc:
            return _open_failure(exc, path)
        try:
            head = os.read(fd, _SCRIPT_HEAD)
            if b"\0" in head.split(b"\n", 1)[0]:
                return BINARY
            if os.fstat(fd).st_size > limit:
                return Refused(f"'{path}' is larger than {safeio.size_text(limit)}")
            chunks = [head]
            total = len(head)
            while True:  # to EOF, not to the fstat size: the file may grow while it is read
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    break
                total += len(chunk)
                if total > limit:
                    return Refused(f"'{path}' is larger than {safeio.size_text(limit)}")
                chunks.append(chunk)
        except OSError as exc:
            return Refused(f"cannot read '{path}': {exc.strerror or exc}")
        finally:
            os.close(fd)
        return b"".join(chunks).decode("utf-8", errors="replace")

    def index_paths(self, path: str) -> list[str] | Missing | Refused:
        """The paths a git index file (`.git/index`, versions 2 to 4, SHA-1 names) records, read
        within `FILE_BYTES`; an index of another form or a malformed one is refused."""
        refused = self._spend()
        if refused is not None:
            return refused
        try:
            data = safeio.read_regular(path, limit=FILE_BYTES)
        except (OSError, ValueError) as exc:
            return _open_failure(exc, path)
        return git_index_paths(data, path)

    def patch_targets(self, path: str) -> list[str] | Missing | Refused:
        text = self.read_text(path)
        if not isinstance(text, str):
            return text
        return patch_text_targets(text)

    def archive_members(self, path: str, kind: str) -> list[Member] | Missing | Refused:
        """The members of the archive at `path`: `kind` is tar (any compression), zip or ar;
        the formats archivers.py names unlisted (7-Zip, RAR, cpio) are refused unread."""
        from polydeukes.stdlib.shell.archivers import UNLISTED_KINDS

        if kind in UNLISTED_KINDS:
            return Refused(f"{UNLISTED_KINDS[kind]} archives are not read")
        refused = self._spend()
        if refused is not None:
            return refused
        try:
            fd = safeio.open_regular(path, os.O_RDONLY)
        except (OSError, ValueError) as exc:
            return _open_failure(exc, path)
        try:
            if os.fstat(fd).st_size > ARCHIVE_BYTES:
                return Refused(f"'{path}' is larger than {ARCHIVE_BYTES // safeio.MiB} MiB")
            with os.fdopen(fd, "rb", closefd=False) as handle:
                if kind in ("zip", "wheel"):
                    return self._zip_members(handle, path)
                if kind == "ar":
                    return self._ar_members(handle, path)
                if kind.startswith("cpio"):
                    return self._cpio_members(handle, path)
                if kind == "uu":
                    return uu_names(handle.read(), path)
                if kind == "gz":
                    return _gzip_name(handle.read(64 * 1024), path)
                return self._tar_members(handle, path)
        except _Budget as exc:
            return Refused(str(exc))
        except Exception as exc:  # noqa: BLE001 - a corrupt archive is a refusal, never a raise
            return Refused(f"cannot list '{path}': {type(exc).__name__}: {exc}")
        finally:
            os.close(fd)

    def _cpio_members(self, handle, path: str) -> list[Member] | Refused:
        """The member names of a cpio archive in the new ASCII (`070701`, `070702` with CRC),
        old ASCII (`070707`) or old binary form (either byte order), up to `TRAILER!!!`; a
        symbolic link member's target is its data."""
        members: list[Member] = []
        while True:
            magic = handle.read(6)
            if magic in (b"070701", b"070702"):
                header = handle.read(104)
                if len(header) < 104:
                    return Refused(f"'{path}' has a truncated cpio header")
                mode, size, namesize = (int(header[k * 8 + 8 : k * 8 + 16], 16) for k in (0, 5, 10))
                name = handle.read(namesize)
                handle.read((4 - (110 + namesize) % 4) % 4)
                pad = (4 - size % 4) % 4
            elif magic == b"070707":
                header = handle.read(70)
                if len(header) < 70:
                    return Refused(f"'{path}' has a truncated cpio header")
                mode, namesize, size = int(header[12:18], 8), int(header[53:59], 8), int(header[59:70], 8)
                name = handle.read(namesize)
                pad = 0
            elif magic[:2] in (b"\xc7\x71", b"\x71\xc7") and len(magic) == 6:
                order = "little" if magic[:2] == b"\xc7\x71" else "big"
                header = magic + handle.read(20)
                if len(header) < 26:
                    return Refused(f"'{path}' has a truncated cpio header")
                words = [int.from_bytes(header[k : k + 2], order) for k in range(0, 26, 2)]
                mode, namesize, size = words[3], words[10], (words[11] << 16) | words[12]
                name = handle.read(namesize + (namesize & 1))
                pad = size & 1
            else:
                return Refused(f"'{path}' is not a cpio archive this reading knows")
            text = name.split(b"\0", 1)[0].decode("utf-8", errors="replace")
            if text == "TRAILER!!!":
                return members
            link = None
            if stat.S_ISLNK(mode):
                if size > 4096:
                    return Refused(f"'{path}' holds an oversized link member")
                link = handle.read(size).decode("utf-8", errors="replace")
                handle.read(pad)
            else:
                handle.seek(size + pad, os.SEEK_CUR)
            members.append(Member(text, link))
            if len(members) > MEMBERS:
                return Refused(f"'{path}' has more than {MEMBERS} members")
            self._check_time()

    def _tar_members(self, handle, path: str) -> list[Member] | Refused:
        import tarfile  # only a `tar -x` needs it

        head = handle.read(6)
        handle.seek(0)
        stream = _Decompressing(handle, head, self)
        members: list[Member] = []
        with tarfile.open(fileobj=stream, mode="r|") as archive:
            for info in archive:
                members.append(Member(info.name, info.linkname if (info.issym() or info.islnk()) else None))
                if len(members) > MEMBERS:
                    return Refused(f"'{path}' has more than {MEMBERS} members")
        return members

    def _zip_members(self, handle, path: str) -> list[Member] | Refused:
        import zipfile  # only an `unzip` needs it

        members: list[Member] = []
        with zipfile.ZipFile(handle) as archive:
            infos = archive.infolist()
            if len(infos) > MEMBERS:
                return Refused(f"'{path}' has more than {MEMBERS} members")
            for info in infos:
                link = None
                if stat.S_ISLNK(info.external_attr >> 16):
                    if info.file_size > 4096:
                        return Refused(f"'{path}' holds an oversized link member")
                    link = archive.read(info).decode("utf-8", errors="replace")
                members.append(Member(info.filename, link))
                if "\\" in info.filename:
                    # Info-ZIP's unzip reads `\` as a directory separator in a name made on
                    # another system (`ci\gate.sh` lands in ci/): both readings are members.
                    members.append(Member(info.filename.replace("\\", "/"), link))
                self._check_time()
        return members

    def _ar_members(self, handle, path: str) -> list[Member] | Refused:
        """The member names of a Unix `ar` archive (System V/GNU and BSD name forms): a magic
        line, then per member a 60-byte header (name, times, ids, mode, decimal size, `` `\n``)
        and its data, padded to an even length. GNU keeps long names in the `//` member and
        refers to them as `/OFFSET`; BSD puts a `#1/LEN` name before the data. The symbol
        tables (`/`, `/SYM64/`, `__.SYMDEF…`) are not extracted."""
        magic = handle.read(8)
        if magic == b"!<thin>\n":
            return Refused(f"'{path}' is a thin archive, whose members are other files")
        if magic != b"!<arch>\n":
            return Refused(f"'{path}' is not an ar archive")
        members: list[Member] = []
        long_names = b""
        while True:
            header = handle.read(60)
            if not header:
                return members
            if len(header) < 60 or header[58:60] != b"`\n":
                return Refused(f"'{path}' has a malformed member header")
            raw = header[:16].rstrip(b" ")
            try:
                size = int(header[48:58].strip() or b"0")
            except ValueError:
                return Refused(f"'{path}' has a malformed member size")
            data_skip = size + (size & 1)
            if raw.startswith(b"#1/"):  # BSD: the name is the first LEN bytes of the data
                length = int(raw[3:] or b"0") if raw[3:].isdigit() else -1
                if not 0 <= length <= size:
                    return Refused(f"'{path}' has a malformed member name")
                raw = handle.read(length).rstrip(b"\0")
                data_skip -= length
            elif raw == b"//":
                long_names = handle.read(size)
                data_skip -= size
                raw = b""
            elif raw.startswith(b"/") and raw[1:].isdigit():
                offset = int(raw[1:])
                end = long_names.find(b"/\n", offset)
                raw = long_names[offset:end if end >= 0 else len(long_names)]
            elif raw in (b"/", b"/SYM64/") or raw.startswith(b"__.SYMDEF"):
                raw = b""
            elif b"/" in raw[:-1]:
                # GNU ends a short name at its first `/`; a BSD name runs to the padding: a
                # name holding a `/` is listed both ways
                members.append(Member(raw.split(b"/", 1)[0].decode("utf-8", errors="replace"), None))
            else:
                raw = raw[:-1] if raw.endswith(b"/") else raw  # GNU ends a short name with `/`
            if raw:
                members.append(Member(raw.decode("utf-8", errors="replace"), None))
                if len(members) > MEMBERS:
                    return Refused(f"'{path}' has more than {MEMBERS} members")
            handle.seek(data_skip, os.SEEK_CUR)
            self._check_time()

    def _check_time(self) -> None:
        if self._deadline is not None and time.monotonic() > self._deadline:
            raise _Budget(f"reading the working tree took longer than {self.seconds:g} s")


class _Budget(Exception):
    pass


def _open_failure(exc: Exception, path: str) -> Missing | Refused:
    """Why a file could not be opened: absent (a missing file or directory, or a path with a
    NUL byte, which names no file) or refused (not a regular file, too large, unreadable)."""
    if isinstance(exc, (FileNotFoundError, NotADirectoryError, ValueError)):
        return MISSING
    if isinstance(exc, safeio.UnsafeFile):
        return Refused(str(exc))
    return Refused(f"cannot read '{path}': {getattr(exc, 'strerror', None) or exc}")


class _Decompressing:
    """A read-only stream over an archive file that undoes gzip, bzip2 or xz compression and
    raises past `UNPACKED_BYTES` or the disk's time budget (a decompression bomb ends here)."""

    def __init__(self, handle, head: bytes, disk: Disk) -> None:
        self.handle = handle
        self.disk = disk
        self.total = 0
        if head.startswith(b"\x1f\x8b"):
            import zlib

            self.decoder = zlib.decompressobj(16 + zlib.MAX_WBITS)
        elif head.startswith(b"BZh"):
            import bz2

            self.decoder = bz2.BZ2Decompressor()
        elif head.startswith(b"\xfd7zXZ\x00"):
            import lzma

            self.decoder = lzma.LZMADecompressor()
        elif head.startswith(b"\x28\xb5\x2f\xfd"):
            raise _Budget("zstd archives cannot be listed here")
        else:
            self.decoder = None
        self.buffer = b""

    def read(self, size: int = -1) -> bytes:
        want = size if size >= 0 else 1 << 20
        while len(self.buffer) < want:
            self.disk._check_time()
            if self.decoder is None:
                chunk = self.handle.read(want - len(self.buffer))
                if not chunk:
                    break
                self.buffer += chunk
                continue
            raw = self.handle.read(1 << 16)
            if not raw:
                tail = self.decoder.flush() if hasattr(self.decoder, "flush") else b""
                self.buffer += tail
                break
            self.buffer += self.decoder.decompress(raw)
        out, self.buffer = self.buffer[:want], self.buffer[want:]
        self.total += len(out)
        if self.total > UNPACKED_BYTES:
            raise _Budget(f"the archive unpacks to more than {UNPACKED_BYTES // safeio.MiB} MiB")
        return out


def patch_text_targets(text: str) -> list[str] | Refused:
    """The paths a unified diff creates, modifies, deletes or renames (both sides)."""
    from polydeukes.stdlib.diff import DEV_NULL, DiffError, parse_unified_diff

    start = _diff_start(text)
    try:
        blocks = parse_unified_diff(text[start:])
    except DiffError as exc:
        return Refused(f"the patch cannot be read: {exc}")
    except Exception as exc:  # noqa: BLE001
        return Refused(f"the patch cannot be read: {type(exc).__name__}")
    found: list[str] = []
    for block in blocks:
        for path in (block.old_path, block.new_path):
            if path and path != DEV_NULL and path not in found:
                found.append(path)
    return found


# The file headers of a V4A patch (`apply_patch`), where Codex's parser finds them: at a line's
# start after blanks.
_V4A_HEADER = LazyPattern(r"(?m)^[ \t]*\*\*\* (?:Add File|Delete File|Update File|Move to):[ \t]*(.*?)[ \t\r]*$")


def v4a_targets(text: str, read: Callable[[str], str | None]) -> tuple[list[str], str | None]:
    """The paths a V4A patch (Codex's `apply_patch`) adds, deletes, updates or moves (both
    ends), as `adapters.v4a.parse_patch` reads them with `read` giving each target's text
    (None: not there). A patch it refuses may still be applied in part (the tool writes each
    file as it goes): then the paths of every file header found, and why it was refused."""
    from polydeukes.stdlib.adapters.v4a import PatchRefused, parse_patch

    try:
        return [change["path"] for change in parse_patch(text, read)], None
    except PatchRefused as exc:
        return [m.group(1) for m in _V4A_HEADER().finditer(text) if m.group(1)], str(exc)


def patch_text_links(text: str) -> list[str]:
    """Where the symbolic links a git diff creates lead, each joined to the link's directory
    (`new file mode 120000` or `new mode 120000`, the link's text as the added line): a link
    made into the tree is a way into what it leads to, as an archive's link member is."""
    found: list[str] = []
    header = ""  # the `diff --git` line's names
    link = False  # the block being read makes a link
    path = None  # its new side, once known
    for line in text.splitlines():
        if line.startswith("diff --git "):
            header, link, path = line[len("diff --git "):], False, None
        elif line.startswith(("new file mode 120000", "new mode 120000")):
            link = True
            new_side = header.rpartition(" b/")[2] if " b/" in header else header.rpartition(" ")[2]
            path = new_side.strip('"') or None
        elif link and line.startswith("+++ "):
            new_side = line[4:].split("\t")[0].strip('"')
            path = new_side[2:] if new_side.startswith("b/") else new_side  # (the `+++` line names the new side too)
            path = path if path and path != "/dev/null" else None
        elif link and path is not None and line.startswith("+") and not line.startswith("+++"):
            directory = path.rpartition("/")[0]
            found.append(line[1:] if line[1:2] == "/" or not directory else directory + "/" + line[1:])
            link, path = False, None
    return found


def _diff_start(text: str) -> int:
    """Where the diff begins: a mail (`git am`, `format-patch`) carries headers before it."""
    for marker in ("\ndiff --git ", "\n--- "):
        if text.startswith(marker[1:]):
            return 0
        at = text.find(marker)
        if at >= 0:
            return at + 1
    return 0


_INDEX_FIXED = 62  # an index entry's fields before its name: times, ids, mode, size, SHA-1, flags


def git_index_paths(data: bytes, path: str) -> list[str] | Refused:
    """The entry names of a git index (gitformat-index(5)): a `DIRC` header with the version and
    the entry count, then per entry 62 bytes of fields, the extended flags (version 3 and up,
    when flagged), and the name: NUL-padded to a multiple of 8 in versions 2 and 3; in version
    4 a varint of how many bytes to drop from the previous name, then the rest, NUL-ended."""
    if len(data) < 12 or data[:4] != b"DIRC":
        return Refused(f"'{path}' is not a git index")
    version = int.from_bytes(data[4:8], "big")
    count = int.from_bytes(data[8:12], "big")
    if version not in (2, 3, 4) or count > MEMBERS:
        return Refused(f"'{path}' is a git index of a form not read (version {version}, {count} entries)")
    names: list[str] = []
    previous = b""
    at = 12
    try:
        for _ in range(count):
            start = at
            flags = int.from_bytes(data[at + 60 : at + 62], "big")
            at += _INDEX_FIXED + (2 if version >= 3 and flags & 0x4000 else 0)
            if version == 4:
                drop = shift = 0
                while True:  # (git's offset varint: each continuation adds one before shifting)
                    byte = data[at]
                    at += 1
                    drop = (drop << 7) | (byte & 0x7F) if not shift else ((drop + 1) << 7) | (byte & 0x7F)
                    shift = 1
                    if not byte & 0x80:
                        break
                end = data.index(b"\0", at)
                if drop > len(previous):
                    return Refused(f"'{path}' is a malformed git index")
                name = previous[: len(previous) - drop] + data[at:end]
                at = end + 1
            else:
                end = data.index(b"\0", at)
                name = data[at:end]
                at = start + ((end - start) // 8 + 1) * 8  # (1 to 8 NULs: the entry ends on a multiple of 8)
            if at > len(data):
                return Refused(f"'{path}' is a malformed git index")
            names.append(name.decode("utf-8", errors="replace"))
            previous = name
    except (IndexError, ValueError):
        return Refused(f"'{path}' is a malformed git index")
    return names


# uudecode's header line (GNU sharutils 4.15, BSD, BusyBox): `begin MODE NAME` or
# `begin-base64 MODE NAME` at the start of a line; the name is the rest of the line, its
# trailing blanks and CR dropped. Every header of a file counts (GNU decodes each in turn).
_UU_HEADER = LazyPattern(r"(?m)^begin(?:-base64)? +\S+ +(.*?)[ \t\r]*$")


def uu_names(data: bytes | str, path: str) -> list[Member] | Refused:
    """The names uudecode writes from the headers in `data` (of `path`, for messages): each as
    written (GNU: relative to the directory, absolute, or `~/` for the home), and its last
    segment (BSD's uudecode strips the directories unless `-s`). A name below another user's
    home (`~user/…`) is refused."""
    out: list[Member] = []
    text = data if isinstance(data, str) else data.decode("utf-8", errors="replace")
    for match in _UU_HEADER().finditer(text):
        name = match.group(1)
        if not name:
            continue
        if name.startswith("~") and not name.startswith("~/"):
            return Refused(f"'{path}' names a file below another user's home ({name})")
        out.append(Member(name))
        base = name.rstrip("/").rsplit("/", 1)[-1]
        if base != name and base not in ("", ".", ".."):
            out.append(Member(base))
        if len(out) > MEMBERS:
            return Refused(f"'{path}' names more than {MEMBERS} files")
    return out


def _gzip_name(head: bytes, path: str) -> list[Member] | Refused:
    """The name stored in a gzip file's header (RFC 1952: FLG.FNAME, after FEXTRA), which
    `gunzip -N` gives the output in the input's directory (its last segment: gzip 1.12 keeps
    the input's directory and drops the stored one); none stored: no member."""
    if head[:2] != b"\x1f\x8b":
        return []  # (not gzip: gzip -N restores nothing, as for `compress`'s .Z)
    if len(head) < 10:
        return Refused(f"'{path}' has a truncated gzip header")
    flags = head[3]
    at = 10
    if flags & 4:  # FEXTRA
        if len(head) < at + 2:
            return Refused(f"'{path}' has a truncated gzip header")
        at += 2 + int.from_bytes(head[at : at + 2], "little")
    if not flags & 8:  # no FNAME
        return []
    end = head.find(b"\0", at)
    if end < 0:
        return Refused(f"'{path}' stores a name longer than this reading allows")
    name = head[at:end].decode("utf-8", errors="replace")
    base = name.rsplit("/", 1)[-1]
    # (the whole name too, as written: pigz is not known to drop its directories)
    return [Member(n) for n in dict.fromkeys((base, name)) if n.rsplit("/", 1)[-1] not in ("", ".", "..")]
