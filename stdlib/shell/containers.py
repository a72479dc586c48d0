"""Container engines that give a container the host's files (issue 11, shell axis).

`docker run -v "$(pwd)":/src img` gives the container write access to the whole project: the
image's entrypoint, or the command after the image, can then delete `ci/gate.sh` though no word
of the line spells it. This module reads the bind mounts a container engine makes and the host
paths `docker cp` writes; the judge (judgment.py) calls `judge` for a command named one of
`analysis.CONTAINER_ENGINES` (docker, podman, nerdctl, docker-compose), after unwrapping
(`sudo docker run …`, `env X=1 podman run …`). It is imported only for such a command.

- `run`/`create` (also `container run|create`, and `compose run` / `docker-compose run` for
  their own `-v` options): each `-v SRC:DST[:OPTS]` (`-vSRC:DST`, `-v=…`, `--volume[=]…`) and
  `--mount type=bind,source|src=SRC,…[,readonly|ro[=true]]` whose source is a host path (it
  starts with `/`, `.`, `~` or `$`; a bare name is a named volume), and podman's `--rootfs DIR`.
  The source is resolved as any path on the line (the directory a `cd` left, `~`, `$PWD`,
  `$(pwd)`, symbolic links below the root). A mount is writable unless its options say
  `ro`/`readonly` (podman's `U` chowns the source: writable even then). A writable mount breaks
  when its source is an entry, lies inside one, or is an ancestor of one (the project root, `.`,
  `..`, `~`, `/`); a source of unknown value (a variable, a glob, a relative path where the
  directory is unknown) fails closed, and so does a word of unknown value where the command reads
  its options (it may be `-v /:/host`).
- `cp SRC DST` (and `container cp`): a host DST is written. It breaks when DST is an entry or
  inside one, or when what lands in DST (`DST/<name of SRC>`, or anything below DST when that name
  is not known) reaches one; an unknown DST fails closed (a literal tail after an unknown value
  is judged as any write operand's, `judgment._Judge.unknown_prefix`).
- compose (`docker compose up|run|create|start|restart|watch`, `docker-compose …`): the compose
  file's services' `volumes:` (`_compose_file`, `compose_mounts`), judged as `-v` is.

Left open (docs/shell-axis.md "Containers"): `--volumes-from`, `exec`/`start` of a container
made earlier (its mounts are not on the line), `--privileged` and other ways out of a
container, compose's `include:`/`extends:` and override files.
"""

from __future__ import annotations

from polydeukes.stdlib.shell.expansion import unknown_tail
from polydeukes.stdlib.shell.paths import comparable
from polydeukes.vm.sre import LazyPattern

# Break messages.
MOUNTS = "{what} mounts {path} writable into a container, which may write protected path {p}"
MOUNTS_UNKNOWN = ("{what} mounts {path} writable into a container, and where it leads is unknown: "
                  "it may hold protected path {p}")
MOUNTS_UNREADABLE = "{what} mounts {path}, whose symbolic links cannot be followed: {why}"
OPTIONS_UNKNOWN = ("{what} takes {word}, whose value is unknown, where it reads its options: "
                   "it may mount protected path {p} writable")
COPIES = "{what} copies from a container into {path}, which may write protected path {p}"
COPIES_UNKNOWN = ("{what} copies from a container into {path}, and where it leads is unknown: "
                  "it may write protected path {p}")
COPIES_TAIL = ("{what} copies from a container into {path}, which can be protected path {p}: "
               "its value before {tail!r} is unknown")

# Global options (before the subcommand) that take a value as the next word: docker, podman,
# nerdctl, compose. An option not listed is taken to take one when the next word is no
# subcommand this module reads (the safe reading: it keeps looking for `run`).
_GLOBAL_VALUES = frozenset({
    "--config", "-c", "--context", "-H", "--host", "-l", "--log-level", "--tlscacert", "--tlscert",
    "--tlskey", "--connection", "--url", "--identity", "--root", "--runroot", "--runtime",
    "--runtime-flag", "--storage-driver", "--storage-opt", "--tmpdir", "--cgroup-manager",
    "--conmon", "--events-backend", "--hooks-dir", "--imagestore", "--module", "--network-cmd-path",
    "--network-config-dir", "--out", "--ssh", "--volumepath", "--cdi-spec-dir", "-n", "--namespace",
    "-a", "--address", "--snapshotter", "--cni-path", "--cni-netconfpath", "--data-root",
    "--host-gateway-ip", "--hosts-dir", "--bridge-ip", "-f", "--file", "-p", "--project-name",
    "--project-directory", "--profile", "--env-file", "--ansi", "--progress", "--parallel",
})
# `run`/`create` options that take no value (docker, podman, nerdctl, compose run). Any other
# option takes one: reading a flag as taking a value only makes the scan look further (at the
# image or its command), never stop short of a `-v`.
_RUN_FLAGS = frozenset({
    "--detach", "--interactive", "--tty", "--rm", "--privileged", "--init", "--publish-all",
    "--read-only", "--sig-proxy", "--oom-kill-disable", "--no-healthcheck", "--disable-content-trust",
    "--quiet", "--help", "--replace", "--rmi", "--env-host", "--http-proxy", "--no-hosts",
    "--passwd", "--read-only-tmpfs", "--tls-verify", "--no-deps", "--no-TTY", "--service-ports",
    "--use-aliases", "--build", "--quiet-pull", "--remove-orphans",
})
_RUN_SHORT_FLAGS = frozenset("ditPqT")
_MOUNT_OPTIONS = ("-v", "--volume", "--mount")
# A source spelled with the working directory: `$PWD`, `${PWD}`, `$(pwd)`, `` `pwd` ``.
_PWD = LazyPattern(r"(?:\$PWD|\$\{PWD\}|\$\(pwd\)|`pwd`)(?=/|$)")
_UNKNOWN = object()  # a source whose value is unknown


def judge(j, view) -> None:
    """Judge one container-engine command (`j`: the `judgment._Judge`; `view`: its view)."""
    args = view.args
    k = view.inner + 1
    engine = view.name
    what = [engine]
    sub = None
    if engine == "docker-compose":
        sub = "compose"
    else:
        sub, k = _subcommand(args, k, ("run", "create", "container", "compose", "cp"))
        if sub is None:
            return
        what.append(sub if sub != "?" else args[k].text)
        k += 1
    if sub == "container":
        sub, k = _subcommand(args, k, ("run", "create", "cp"))
        if sub is None:
            return
        what.append(sub if sub != "?" else args[k].text)
        k += 1
    if sub == "compose":
        compose_at = k
        sub, k = _subcommand(args, k, ("run",) + _COMPOSE_STARTS)
        if sub is None:
            return
        what.append(sub if sub != "?" else args[k].text)
        _compose_file(j, view, " ".join(what), compose_at, k)
        k += 1
        if sub != "run" and sub != "?":
            return  # (only `run` takes mount options of its own)
    head = " ".join(what)
    if sub == "cp":
        _copy(j, view, head, k)
    else:
        _run(j, view, head, k, compose=what[1] == "compose" or engine == "docker-compose")


# Compose subcommands that create or start the services' containers with the compose file's
# mounts (`run` too, which also takes `-v` of its own).
_COMPOSE_STARTS = ("up", "create", "start", "restart", "watch")
# The compose file's names, looked for where the command runs and in each directory above it up
# to the project's root, as compose looks for them.
_COMPOSE_NAMES = ("compose.yaml", "compose.yml", "docker-compose.yaml", "docker-compose.yml")
COMPOSE_MOUNTS = ("{what} mounts {path} ({file}) writable into a container, which may write "
                  "protected path {p}")
COMPOSE_UNKNOWN = ("{what} mounts {path} ({file}) writable into a container, and where it leads "
                   "is unknown: it may hold protected path {p}")
COMPOSE_UNREADABLE = "{what} reads {file}, which cannot be read within bounds ({why})"
COMPOSE_FILE_UNKNOWN = "{what} reads a compose file of unknown value: it may mount protected path {p} writable"
# One `key: value` line of a YAML block, perhaps a list item's first (`- key: value`), or a
# list item that is a scalar (`- ./src:/app`).
_YAML_LINE = LazyPattern(r"( *)(- +)?(?:([A-Za-z_][\w.-]*)[ \t]*:(?:[ \t]+(.*?))?|(.*?))[ \t]*(?:#.*)?")


def _compose_file(j, view, head: str, k: int, end: int) -> None:
    """The writable bind mounts a compose file gives the services (`docker compose up`, `run`,
    …): the files `-f`/`--file` name (relative to where the command runs), else the first of
    `_COMPOSE_NAMES` there or in a directory above it up to the project's root. Each service's
    `volumes:` (`- SRC:DST[:ro]`, or the long form's `type: bind`, `source:`, `read_only:`) is
    judged as `-v` is, a relative source against the compose file's directory (or
    `--project-directory`). Read line by line, not as YAML (no YAML parser on the check path):
    a file that cannot be read within bounds, or one of unknown value, fails closed."""
    from polydeukes.stdlib.shell.scripts import _read_file  # only a compose command loads it

    args = view.args
    files: list[str] = []
    project_directory = None
    while k < end:
        a = args[k]
        text = a.text
        for option in ("-f", "--file", "--project-directory"):
            value = None
            if text == option and k + 1 < end:
                k += 1
                value = args[k]
            elif text.startswith(option + "=") and option.startswith("--"):
                value = a
            if value is None:
                continue
            spelled = value.text.partition("=")[2] if value is a else value.text
            if value.opaque and ("$" in spelled or "`" in spelled):
                _unknown(j, COMPOSE_FILE_UNKNOWN.format(what=head, p=j.p.entries[0]))
                return
            if option == "--project-directory":
                project_directory = spelled
            else:
                files.append(spelled)
            break
        k += 1
    walk = j.walk
    if files:
        candidates = [(f, True) for f in files]
    else:
        cwd, root = view.cwd, walk.root_segs
        ups = range(len(cwd) - len(root) + 1) if cwd is not None and root is not None and cwd[: len(root)] == root else [0]
        candidates = [("../" * up + n, False) for up in ups for n in _COMPOSE_NAMES]
    for spelled, named in candidates:
        text = _read_file(walk, view, spelled)
        if text is None:
            continue
        if not isinstance(text, str):
            _unknown(j, COMPOSE_UNREADABLE.format(what=head, file=spelled, why=text.refused))
            return
        directory = project_directory if project_directory is not None else spelled.rpartition("/")[0] or "."
        base = walk.absolute(directory, view.cwd)
        for source, readonly in compose_mounts(text):
            if readonly or not source.startswith((".", "/", "~", "$")):
                continue  # read-only, or a named volume
            _compose_source(j, view, head, spelled, base, source)
            if j.reason is not None:
                return  # (judged: not `j.reached`, which an earlier command's read may have set)
        if not named:
            return  # (the first file found is the one compose reads)


def _compose_source(j, view, head: str, file: str, base, source: str) -> None:
    """One writable bind source of a compose file, relative to `base` (the file's directory)."""
    p = j.p
    context = j.walk.context
    spelled = source
    match = _PWD().match(source) or _COMPOSE_PWD().match(source)
    if match is not None and "PWD" not in context.scope.values and view.cwd is not None:
        source = "/" + "/".join(view.cwd) + source[match.end():]
    if "$" in source or "`" in source:
        _unknown(j, COMPOSE_UNKNOWN.format(what=head, path=spelled, file=file, p=p.entries[0]))
        return
    if source.startswith(("/", "~")):
        absolute = j.walk.absolute(source, view.cwd)
    else:
        absolute = None if base is None else j.walk.absolute("/" + "/".join(base) + "/" + source, None)
    if absolute is None:
        _unknown(j, COMPOSE_UNKNOWN.format(what=head, path=spelled, file=file, p=p.entries[0]))
        return
    _mounted(j, head, spelled, absolute, COMPOSE_MOUNTS, file=file)


# `${PWD}` with a default (`${PWD:-.}`) is the working directory too.
_COMPOSE_PWD = LazyPattern(r"\$\{PWD(?::?-[^}]*)?\}(?=/|$)")


def compose_mounts(text: str) -> list[tuple[str, bool]]:
    """The bind sources a compose file's services mount, with whether each is read-only: the
    items of every `volumes:` list indented under a service (the top-level `volumes:` defines
    named volumes), short form `SRC:DST[:MODE]` (quoted or not; `[a, b]` on one line too) or
    long form (`source:` with `type: bind`, or any `source:` that is a path; `read_only:
    true`)."""
    mounts: list[tuple[str, bool]] = []
    lines = text.split("\n")
    k = 0
    while k < len(lines):
        m = _YAML_LINE().fullmatch(lines[k])
        k += 1
        if m is None or m.group(3) != "volumes" or m.group(2) or len(m.group(1)) == 0:
            continue
        indent = len(m.group(1))
        inline = (m.group(4) or "").strip()
        if inline.startswith("["):
            for item in inline.strip("[]").split(","):
                _short_mount(item.strip(), mounts)
            continue
        item: dict[str, str] | None = None
        item_column = None
        while k < len(lines):
            line = lines[k]
            if not line.strip() or line.lstrip().startswith("#"):
                k += 1
                continue
            n = _YAML_LINE().fullmatch(line)
            if n is None or len(n.group(1)) <= indent and not (n.group(2) and len(n.group(1)) == indent):
                break  # (a list may stand at its key's own indentation)
            if n.group(2):  # a new item
                if item is not None:
                    _long_mount(item, mounts)
                item = None
                if n.group(3) is None:
                    _short_mount((n.group(5) or "").strip(), mounts)
                else:
                    item = {n.group(3): _scalar(n.group(4) or "")}
                    item_column = len(n.group(1)) + len(n.group(2))
            elif item is not None and n.group(3) is not None and len(n.group(1)) == item_column:
                item[n.group(3)] = _scalar(n.group(4) or "")
            k += 1
        if item is not None:
            _long_mount(item, mounts)
    return mounts


def _scalar(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def _short_mount(item: str, mounts: list) -> None:
    parts = _colon_fields(_scalar(item))
    if len(parts) >= 2:
        mounts.append((parts[0], "ro" in ",".join(parts[2:]).split(",")))


def _colon_fields(text: str) -> list[str]:
    """`SRC:DST:MODE` split at the colons outside `${…}` (`${PWD:-.}/x:/x`)."""
    fields, depth, start = [], 0, 0
    for k, c in enumerate(text):
        if c == "{" and text[k - 1 : k] == "$":
            depth += 1
        elif c == "}" and depth:
            depth -= 1
        elif c == ":" and not depth:
            fields.append(text[start:k])
            start = k + 1
    fields.append(text[start:])
    return fields


def _long_mount(item: dict[str, str], mounts: list) -> None:
    source = item.get("source")
    if source and item.get("type", "bind") in ("bind", ""):
        mounts.append((source, item.get("read_only", "false").lower() in ("true", "yes", "on")))


def _subcommand(args, k: int, wanted: tuple[str, ...]) -> tuple[str | None, int]:
    """The first of `wanted` among the words from `k` on that can be the subcommand, and its
    index; (None, k) when the subcommand is another one."""
    maybe_value = False  # the previous word was an option that may take this word as its value
    while k < len(args):
        a = args[k]
        text = a.text
        if a.opaque and not maybe_value:
            return "?", k  # a subcommand of unknown value: it may be `run`
        if a.opaque:
            maybe_value = False  # (an unknown global option's value: the next word is looked at)
        elif text.startswith("-") and text != "-":
            maybe_value = "=" not in text
            if text in _GLOBAL_VALUES:
                k += 1
                maybe_value = False
        elif text in wanted:
            return text, k
        elif not maybe_value:
            return None, k
        else:
            maybe_value = False
        k += 1
    return None, k


def _run(j, view, head: str, k: int, compose: bool) -> None:
    """`run`/`create`: the bind mounts in the options before the image (the service, for compose)."""
    args = view.args
    rootfs = False
    while k < len(args):
        a = args[k]
        text = a.text
        if a.opaque and not text.startswith("-"):
            # A word of unknown value where an option may stand: it may be `-v /:/host`.
            _unknown(j, OPTIONS_UNKNOWN.format(what=head, word=text, p=j.p.entries[0]))
            return
        if not text.startswith("-") or text == "-":
            break  # the image (the service): what follows is the container's command
        if text == "--":
            k += 1
            break
        if text.startswith("--"):
            option, eq, value = text.partition("=")
            if a.opaque and ("$" in option or "`" in option):
                _unknown(j, OPTIONS_UNKNOWN.format(what=head, word=text, p=j.p.entries[0]))
                return
            if option in _MOUNT_OPTIONS:
                if not eq:
                    k += 1
                    if k >= len(args):
                        return
                    value = args[k].text
                    a = args[k]
                _mount(j, view, head, a, value, long=option == "--mount")
            elif option == "--rootfs":
                rootfs = True
            elif not eq and option not in _RUN_FLAGS:
                k += 1  # its value
        else:
            # Short options, possibly grouped: `-it`, `-dv/x:/y`, `-v=/x:/y`.
            for n in range(1, len(text)):
                c = text[n]
                if c in _RUN_SHORT_FLAGS:
                    continue
                if a.opaque and c in "$`":
                    _unknown(j, OPTIONS_UNKNOWN.format(what=head, word=text, p=j.p.entries[0]))
                    return
                value = text[n + 1 :]
                if not value:
                    k += 1
                    if k >= len(args):
                        return
                    a = args[k]
                    value = a.text
                elif value.startswith("="):
                    value = value[1:]
                if c == "v":
                    _mount(j, view, head, a, value, long=False)
                break
        k += 1
    if rootfs and not compose and k < len(args):
        # podman `--rootfs DIR[:O]`: the container's root file system is DIR itself (`:O`: an
        # overlay, whose writes stay out of DIR).
        a = args[k]
        source, _, options = a.text.partition(":")
        if options != "O":
            _judge_source(j, view, head, a, source)


def _mount(j, view, head: str, a, value: str, long: bool) -> None:
    """One `-v`/`--volume` or `--mount` value (`a`: the word it came from)."""
    if long:
        source = None
        readonly = False
        for field in value.split(","):
            key, eq, v = field.partition("=")
            key = key.strip().lower()
            if a.opaque and ("$" in key or "`" in key or key in ("source", "src", "volume-opt")
                             and ("$" in v or "`" in v)):
                # `--mount "$M"`, `src=$D`: the source is unknown (a field of unknown value may be
                # one, and may carry a `"` of CSV quoting)
                if not (key in ("source", "src") and _PWD().match(v)):
                    _unknown(j, MOUNTS_UNKNOWN.format(what=head, path=value, p=j.p.entries[0]))
                    return
            if key in ("source", "src"):
                source = v
            elif key == "volume-opt" and v.startswith("device="):
                source = v[len("device="):]  # a local volume that binds a host directory
            elif key in ("readonly", "ro"):
                readonly = not eq or v.strip().lower() in ("true", "1")
            elif key in ("rw",):
                readonly = eq and v.strip().lower() in ("false", "0")
            elif key in ("u", "chown") and (not eq or v.strip().lower() in ("true", "1")):
                readonly = False  # podman: the source's owner is changed
                break
        if '"' in value and source is not None:
            _unknown(j, MOUNTS_UNKNOWN.format(what=head, path=value, p=j.p.entries[0]))
            return
        if source is None or readonly:
            return
    else:
        parts = value.split(":")
        if len(parts) < 2:
            if a.opaque and ("$" in value or "`" in value):
                _unknown(j, MOUNTS_UNKNOWN.format(what=head, path=value, p=j.p.entries[0]))
            return  # `-v /data`: an anonymous volume at a container path
        source = parts[0]
        options = ",".join(parts[2:]).split(",")
        if "ro" in options and "U" not in options and not (a.opaque and "$" in ",".join(parts[2:])):
            return
    if not source.startswith(("/", ".", "~", "$", "`")):
        return  # a named volume
    _judge_source(j, view, head, a, source)


def _judge_source(j, view, head: str, a, source: str) -> None:
    """A writable bind mount of the host path `source` (as spelled): does it reach an entry?"""
    absolute = _absolute(j, view, a, source)
    if absolute is _UNKNOWN:
        _unknown(j, MOUNTS_UNKNOWN.format(what=head, path=source, p=j.p.entries[0]))
        return
    _mounted(j, head, source, absolute, MOUNTS)


def _mounted(j, head: str, shown: str, absolute, message: str, **fields: str) -> None:
    """A writable mount of the host directory `absolute` (spelled `shown`): it breaks with
    `message` when it reaches an entry, fails closed when its links cannot be followed."""
    hits, why = _hits(j, absolute)
    if why is not None:
        _unknown(j, MOUNTS_UNREADABLE.format(what=head, path=shown, why=why))
        return
    if hits:
        j.reached.update(hits)
        j.found("effect", message.format(what=head, path=shown, p=j.p.entries[hits[0]], **fields))


def _absolute(j, view, a, text: str):
    """The absolute segments `text` names on the host, or `_UNKNOWN`."""
    walk = j.walk
    context = walk.context
    match = _PWD().match(text) if a.opaque else None
    if match is not None:
        if "PWD" in context.scope.values or (context.redefined and "pwd" in context.redefined) \
                or context.cwd is None:
            return _UNKNOWN
        text = "/" + "/".join(context.cwd) + text[match.end():]
    elif a.opaque and ("$" in text or "`" in text) or not a.opaque and text.startswith("$"):
        return _UNKNOWN
    if a.pattern is not None and any(c in text for c in "*?["):
        return _UNKNOWN  # a glob: what it matches is not worked out here
    if "$" in text or "`" in text:
        return _UNKNOWN
    absolute = walk.absolute(text, view.cwd)
    return _UNKNOWN if absolute is None else absolute


def _hits(j, absolute) -> tuple[list[int], str | None]:
    """The entries on the branch of the host directory `absolute` (it is one, lies inside one,
    or holds one), the path taken through its symbolic links too; or why its links cannot be
    followed."""
    p = j.p
    if p.absolute is None:
        return list(range(len(p.entries))), None  # no valid root: every entry may lie below
    paths = [list(absolute)]
    disk = j.walk.disk
    if disk is not None and absolute:
        resolved = disk.resolve(list(absolute), follow_last=True)
        if not isinstance(resolved, list):
            return [], resolved.reason
        if resolved != paths[0]:
            paths.append(resolved)
    hits = set()
    for path in paths:
        folded = [comparable(s, p.fold) for s in path]
        for index, target in enumerate(p.absolute):
            n = min(len(folded), len(target))
            if folded[:n] == target[:n]:
                hits.add(index)
    return sorted(hits), None


def _unknown(j, reason: str) -> None:
    j.unknown_reach = True
    j.found("opaque-write-target", reason)


def _copy(j, view, head: str, k: int) -> None:
    """`cp [OPTIONS] SRC DST`: a DST on the host is written with what SRC holds."""
    args = view.args
    operands = []
    while k < len(args):
        a = args[k]
        if a.text == "--":
            operands.extend(args[k + 1 :])
            break
        if a.text.startswith("-") and a.text != "-" and not a.opaque:
            k += 1
            continue
        operands.append(a)
        k += 1
    if len(operands) != 2:
        return  # docker refuses it
    src, dst = operands
    if dst.text == "-" or not _local(dst):
        return  # to stdout, or into a container
    p = j.p
    text = dst.text
    if dst.opaque and ("$" in text or "`" in text) and not _PWD().match(text):
        tail = unknown_tail(text) if text.startswith(("$", "`")) else None
        if tail and tail.strip("/"):
            # judged by its literal tail, as any written operand (`_Judge.unknown_prefix`)
            hits = j._tail_hits(tail)
            if hits:
                j.reached.update(hits)
                j.found("opaque-write-target", COPIES_TAIL.format(what=head, path=text, tail=tail,
                                                                  p=p.entries[hits[0]]))
        else:
            _unknown(j, COPIES_UNKNOWN.format(what=head, path=text, p=p.entries[0]))
        return
    absolute = _absolute(j, view, dst, text)
    if absolute is _UNKNOWN:
        _unknown(j, COPIES_UNKNOWN.format(what=head, path=text, p=p.entries[0]))
        return
    # What lands: DST itself (or what lies in it), or DST/<name> when DST is a directory.
    path = src.text if _local(src) else src.text.partition(":")[2]
    name = path.rstrip("/").rpartition("/")[2]
    known = not src.opaque and src.pattern is None and name not in ("", ".", "..") and not path.endswith("/.")
    hits, why = _hits(j, absolute)
    if why is not None:
        _unknown(j, MOUNTS_UNREADABLE.format(what=head, path=text, why=why))
        return
    depth = len(absolute)
    reach = []
    for index in hits:
        target = p.absolute[index]
        if depth >= len(target) or not known:
            reach.append(index)  # DST is the entry or inside it, or anything may land below DST
        elif comparable(name, p.fold) == target[depth]:
            reach.append(index)  # DST/<name> is on the entry's branch
    if reach:
        j.reached.update(reach)
        j.found("effect", COPIES.format(what=head, path=text, p=p.entries[reach[0]]))


def _local(a) -> bool:
    """Is a `cp` operand a host path (docker's `splitCpArg`: absolute, no `:`, or `./…:…`)?
    One of unknown value may be either: it is taken as a host path."""
    text = a.text
    if a.opaque or text.startswith("/"):
        return True
    before, colon, _ = text.partition(":")
    return not colon or before.startswith(".")
