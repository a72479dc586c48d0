"""Effect-model readers for programs that copy a tree whose file names come from elsewhere — a
bucket, a remote repository, a backup, a server — into a local directory (round 8).

`aws s3 sync s3://b/ .` writes whatever names the bucket holds below `.`, `ci/gate.sh` among
them: no word of the line spells the protected path, and the analyzer cannot know the remote
names, so a local destination that is a protected path, lies inside one, or lies above one (`.`,
the project root, `ci`) fails closed; one elsewhere (`/tmp/x`, `build/`, `vendor/lib`) passes.
Before these rows the programs had none: with no protected path spelled they passed.

Each program is one row of `TOOLS` (data): how many words name its subcommand (`aws s3 sync`:
two), the options that take a value, the options that make it write nothing (`--dryrun`), and
per subcommand a mode:

    tree      SRC... DEST: DEST (a local last operand) receives a remote tree (`rclone copy`)
    object    SRC... DEST: as `tree` with a recursive option; else DEST or `DEST/<name of SRC>`
              (`aws s3 cp s3://b/k .` writes `./k`)
    move      as `tree`, and a local SRC is deleted (`rclone move ./ci r:b`)
    both      every local operand receives a tree (two-way sync: `rclone bisync`, `unison`)
    clone     SRC [DEST]: DEST, by default a directory named after SRC's last segment
    first     DEST first (`bzr export DEST [BRANCH]`)
    paths     each local operand (by default `.`) is rewritten from the repository (`svn update`)
    work      the work tree holding the directory (`hg update`): judged as git's whole-tree
    cwd       the directory it runs in (`borg extract`), or the `-C` directory (`tarsnap -x`)
    target    the value of a destination option (`restic restore --target DIR`, `az … -d DIR`)
    delete    each local operand may be deleted (`rclone purge`, `rclone delete`)
    read      nothing local is written (`rclone ls`, `svn log`, an upload)

A destination operand is local unless it has the row's remote form (`s3://…`, `remote:path`,
`pod:path`, `https://…`); a local one is a `write` item (a protected path spelled as the
destination blocks as any write does; an unknown value is judged as any written word's) and an
`Extra(WRITE, tree=True, rule="remote")` the judge reports as "copies a remote tree into" (a
mount: "mounts a remote tree over"). An option the row does not list is read as a flag; when the
destination is the word after one, the word before it is taken as a destination too (the option
may have taken a value), and an `object` copy is taken as recursive (it may be an abbreviation of
the recursive option). Include and exclude filters are not read: a destination above a
protected path fails closed whatever they say. A subcommand the row does not list is unproven
(as an unknown program: a protected path it mentions blocks); one of unknown value is `tree`.
`tarsnap` (tar's modes) and `lftp` (its command scripts) have readers of their own below.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from polydeukes.stdlib.shell.effects import (DATA, DELETE, READ, UNKNOWN, WRITE, Effects, Env, Extra, Item,
                                              Model, into)
from polydeukes.stdlib.shell.expansion import Arg
from polydeukes.vm.sre import LazyPattern


class Tool(msgspec.Struct, frozen=True, gc=False):
    depth: int  # words naming the subcommand (`aws s3 sync`: 2)
    subs: dict[str, str]  # subcommand (its words joined by a space) → mode
    values: frozenset[str] = frozenset()  # options that take a value (the next word, or `=VALUE`)
    dry: frozenset[str] = frozenset()  # options after which nothing is written
    recursive: frozenset[str] = frozenset()  # `object` mode: copy a tree
    target: frozenset[str] = frozenset()  # `target` mode (and any mode): the destination option
    repo: frozenset[str] = frozenset()  # `work` mode: the option naming the work tree's directory
    remote: str = r"[a-z][a-z0-9+.-]*://"  # a remote operand starts so (a regular expression)
    writes: frozenset[str] = frozenset()  # options whose value is a file written
    label: str = ""  # the program as messages name it, when not its command name (`git svn`)
    chdir: frozenset[str] = frozenset()  # options naming the directory relative paths start from
    dry_subs: frozenset[str] = frozenset()  # the subcommands `dry` applies to (empty: every one)


def _options(text: str) -> frozenset[str]:
    return frozenset(text.split())


_URL = r"[a-zA-Z][a-zA-Z0-9+.-]*://"
_BUCKET = _options("--source-region --region --profile --endpoint-url --output --query --cli-read-timeout "
                   "--cli-connect-timeout --color --ca-bundle --sse-c-key --sse-kms-key-id "
                   "--sse-c-copy-source-key --storage-class --website-redirect "
                   "--content-type --cache-control --content-disposition --content-encoding --content-language "
                   "--expires --acl --exclude --include --metadata --metadata-directive --expected-size "
                   "--page-size --checksum-mode --checksum-algorithm --copy-props --cli-binary-format")
# rclone's flags that take a value (the common ones; any other is read as a flag, see the module
# docstring).
_RCLONE = _options("--config --transfers --checkers --bwlimit --exclude --include --filter --exclude-from "
                   "--include-from --filter-from --files-from --files-from-raw --max-age --min-age --max-size "
                   "--min-size --max-depth --backup-dir --suffix --log-file --log-level --stats --retries "
                   "--low-level-retries --timeout --contimeout --order-by --compare-dest --copy-dest "
                   "--max-transfer --cutoff-mode --buffer-size --multi-thread-streams --user-agent "
                   "--tpslimit --track-renames-strategy --password-command --cache-dir --temp-dir "
                   "--max-backlog --max-delete --max-duration --delete-excluded --exclude-if-present "
                   "--streaming-upload-cutoff --metadata-set --header --header-download --header-upload "
                   "--workdir --conflict-resolve --conflict-loser --conflict-suffix --vfs-cache-mode "
                   "--dir-cache-time --poll-interval --allow-other --umask --uid --gid --volname "
                   "-v --verbose")
_RCLONE_VALUES = _RCLONE - {"-v", "--verbose", "--delete-excluded", "--allow-other"}
_SVN = _options("-r --revision -m --message -F --file --username --password --depth "
                "--set-depth --accept --config-dir --config-option --encoding -c --change --native-eol "
                "--changelist --cl -x --extensions -l --limit --search --search-and --with-revprop "
                "--targets --editor-cmd --diff-cmd --diff3-cmd")
_HG = _options("-R --repository --cwd -r --rev -b --branch -u --updaterev -e --ssh --remotecmd -I --include "
               "-X --exclude -t --type -p --prefix -o --output -m --message -l --logfile -d --date "
               "--config --encoding --encodingmode -T --template -s --source --tool")
_BZR = _options("-r --revision -d --directory --format --root -m --message -F --file")
_FOSSIL = _options("-R --repository --workdir --repodir -A --admin-user --ssh-command -B --httpauth --chdir")
_KUBECTL = _options("-c --container -n --namespace --retries --kubeconfig --context --cluster --user -s --server "
                    "--token --as --as-group --certificate-authority --client-certificate --client-key "
                    "--request-timeout --cache-dir --log-file -v --v")
_RESTIC = _options("-r --repo --repository-file -p --password-file --password-command --key-hint -t --target "
                   "-i --include -e --exclude --iinclude --iexclude --include-file --exclude-file --host -H --path "
                   "--tag --cacert --cache-dir --limit-upload --limit-download -o --option --pack-size --tls-client-cert "
                   "--compression --json -v --verbose --retry-lock --overwrite")
_RESTIC_VALUES = _RESTIC - {"--json", "-v", "--verbose"}
_BORG = _options("--remote-path --lock-wait --umask --rsh --upload-ratelimit --upload-buffer --debug-topic "
                 "-e --exclude --exclude-from --pattern --patterns-from --strip-components --pattern-type "
                 "--comment --format -P --prefix -a --glob-archives --sort-by --first --last --exclude-if-present")
_DUPLICITY = _options("--file-to-restore -r --restore-time -t --time --encrypt-key --sign-key --hidden-encrypt-key "
                      "--archive-dir --name --tempdir --log-file --exclude --include --exclude-filelist "
                      "--include-filelist --exclude-regexp --include-regexp --ssh-options --volsize --gpg-options "
                      "--s3-region-name --s3-endpoint-url --verbosity -v --num-retries --full-if-older-than "
                      "--backend-retry-delay --timeout --path-to-restore")
_RDIFF = _options("-r --restore-as-of --at --exclude --include --exclude-filelist --include-filelist --exclude-regexp "
                  "--include-regexp --remote-schema --tempdir --api-version -v --verbosity --terminal-verbosity "
                  "--current-time --group-mapping-file --user-mapping-file --exclude-globbing-filelist "
                  "--include-globbing-filelist --remove-older-than")
_AZCOPY = _options("--include-pattern --exclude-pattern --include-path --exclude-path --include-regex "
                   "--exclude-regex --overwrite --log-level --from-to --cap-mbps --block-size-mb --output-type "
                   "--include-after --include-before --list-of-files --trusted-microsoft-suffixes --delete-destination "
                   "--compare-hash --check-md5 --blob-type --block-blob-tier --page-blob-tier --metadata "
                   "--content-type --content-encoding --cache-control --include-directory-stub --exclude-attributes "
                   "--include-attributes")
_AZ = _options("-d --destination -s --source --account-name --account-key --connection-string --sas-token "
               "--pattern --auth-mode --max-connections --subscription --output -o --query "
               "--blob-endpoint")
_B2 = _options("--threads --compare-versions --compare-threshold --exclude-regex --include-regex "
               "--exclude-dir-regex --exclude-if-modified-after --keep-days "
               "--destination-server-side-encryption --destination-server-side-encryption-algorithm "
               "--source-server-side-encryption --source-server-side-encryption-algorithm --write-buffer-size "
               "--sync-threads --download-threads --upload-threads --profile")
_S3CMD = _options("-c --config --access_key --secret_key --region --bucket-location --exclude --include --rexclude "
                  "--rinclude --exclude-from --include-from --rexclude-from --rinclude-from --host --host-bucket "
                  "--add-header --mime-type --default-mime-type --storage-class --encoding --cache-file "
                  "--limit-rate --max-delete --progress-frequency --multipart-chunk-size-mb --ssl-client-cert-file "
                  "--ssl-client-key-file --ca-certs")
_MC = _options("--config-dir -C --exclude --older-than --newer-than --storage-class --encrypt --encrypt-key "
               "--attr --tags --limit-upload --limit-download --rewind --version-id --region")
_GSUTIL = _options("-o -h -u -L -z -j -s -x -y -a")
_GCLOUD = _options("--project --account --configuration --format --verbosity --billing-project --impersonate-service-account "
                   "--exclude --include --manifest-path --additional-headers --storage-class --encryption-key "
                   "--predefined-acl --cache-control --content-type --content-disposition --content-encoding "
                   "--content-language --custom-time --custom-metadata --decryption-keys -x")
_LXC = _options("--uid --gid --mode -p --project")
_UNISON = _options("-path -ignore -ignorenot -prefer -force -ui -root -logfile -backup -backupdir -backuploc "
                   "-merge -sshargs -servercmd -sshcmd -rsrc -perms -repeat -retry -times -fastcheck -label "
                   "-copyprog -copyprogrest -diff -addprefsto -follow -ignorecase -nocreation -nodeletion "
                   "-noupdate -maxthreads -include -source -confirmbigdel")

_S3 = r"s3://"
_GS = r"(gs|s3)://"
# rclone: `name:path` (or an on-the-fly `:backend:path`): a colon before the first slash; a local
# path holding a colon is written `./a:b` or `/a:b`.
_RCLONE_REMOTE = r"(?![./~])[^/]*:"
# kubectl: `[namespace/]pod:path`
_POD = r"(?![./~])[^/:]*(/[^/:]*)?:"

TOOLS: dict[str, Tool] = {
    "aws": Tool(2, {"s3 cp": "object", "s3 mv": "object move", "s3 sync": "tree", "s3 ls": "read",
                    "s3 rm": "read", "s3 mb": "read", "s3 rb": "read", "s3 presign": "read", "s3 website": "read"},
                _BUCKET, _options("--dryrun"), _options("--recursive"), remote=_S3),
    "gsutil": Tool(1, {"cp": "object", "mv": "object move", "rsync": "tree", "ls": "read", "cat": "read",
                       "du": "read", "stat": "read", "hash": "read", "rm": "read", "mb": "read", "rb": "read"},
                   _GSUTIL, _options("-n"), _options("-r -R"), remote=_GS, dry_subs=frozenset({"rsync"})),
    "gcloud": Tool(2, {"storage cp": "object", "storage mv": "object move", "storage rsync": "tree",
                       "storage ls": "read", "storage cat": "read", "storage du": "read", "storage hash": "read",
                       "storage rm": "read"}, _GCLOUD, _options("--dry-run"), _options("-r -R --recursive"),
                   remote=_GS),
    "rclone": Tool(1, {"copy": "tree", "sync": "tree", "move": "tree move", "copyto": "tree", "moveto": "tree move",
                       "bisync": "both", "mount": "tree", "nfsmount": "tree", "copyurl": "tree", "cryptdecode": "read",
                       "ls": "read", "lsl": "read", "lsd": "read", "lsf": "read", "lsjson": "read", "cat": "read",
                       "check": "read", "cryptcheck": "read", "size": "read", "md5sum": "read", "sha1sum": "read",
                       "hashsum": "read", "tree": "read", "version": "read", "listremotes": "read", "about": "read",
                       "delete": "delete", "purge": "delete", "rmdir": "delete", "rmdirs": "delete",
                       "deletefile": "delete", "help": "read"},
                   _RCLONE_VALUES, _options("-n --dry-run"), remote=_RCLONE_REMOTE),
    "s3cmd": Tool(1, {"get": "object", "sync": "tree", "ls": "read", "la": "read", "info": "read", "du": "read",
                      "put": "read", "del": "read", "rm": "read", "mb": "read", "rb": "read"},
                  _S3CMD, _options("-n --dry-run"), _options("-r --recursive"), remote=_S3),
    # mc: a first segment that is an alias in mc's configuration is remote; the line cannot know
    # the aliases, so every destination is taken to be local.
    "mc": Tool(1, {"cp": "object", "mirror": "tree", "mv": "object move", "get": "tree", "ls": "read",
                   "cat": "read", "stat": "read", "du": "read", "tree": "read", "find": "read", "diff": "read"},
               _MC, _options("--dry-run"), _options("-r --recursive"), remote=r"(?!)"),
    "azcopy": Tool(1, {"copy": "tree", "cp": "tree", "sync": "tree", "list": "read", "jobs": "read", "login": "read",
                       "remove": "read", "rm": "read", "make": "read"},
                   _AZCOPY, _options("--dry-run"), remote=_URL),
    "az": Tool(3, {"storage blob download-batch": "target", "storage file download-batch": "target",
                   "storage blob list": "read", "storage blob upload-batch": "read",
                   "storage file upload-batch": "read", "storage blob show": "read"},
               _AZ, _options("--dryrun"), target=_options("-d --destination")),
    "b2": Tool(1, {"sync": "tree", "ls": "read", "get-file-info": "read", "version": "read"},
               _B2, _options("--dry-run --dryRun"), remote=r"b2:(//)?"),
    "svn": Tool(1, {"checkout": "clone", "co": "clone", "export": "clone", "update": "paths", "up": "paths",
                    "switch": "paths1", "sw": "paths1", "revert": "paths", "merge": "paths1",
                    "resolve": "paths", "patch": "paths1", "relocate": "read", "log": "read",
                    "info": "read", "status": "read", "st": "read", "stat": "read", "diff": "read", "di": "read",
                    "cat": "read", "list": "read", "ls": "read", "blame": "read", "praise": "read",
                    "annotate": "read", "ann": "read", "propget": "read", "pget": "read", "pg": "read",
                    "proplist": "read", "plist": "read", "pl": "read", "help": "read", "mergeinfo": "read",
                    "youngest": "read"},
                _SVN, _options("--dry-run"), remote=_URL + r"|\^/"),
    "hg": Tool(1, {"clone": "clone", "update": "work", "up": "work", "checkout": "work", "co": "work",
                   "revert": "work", "archive": "first", "merge": "work", "graft": "work", "backout": "work",
                   "rebase": "work", "histedit": "work", "strip": "work", "shelve": "work", "unshelve": "work",
                   "import": "work", "patch": "work", "rollback": "work", "unbundle": "work", "fetch": "work",
                   "pull": "pull", "log": "read", "status": "read", "st": "read", "diff": "read", "identify": "read",
                   "id": "read", "summary": "read", "sum": "read", "heads": "read", "incoming": "read",
                   "in": "read", "outgoing": "read", "out": "read", "paths": "read", "root": "read",
                   "version": "read", "help": "read", "annotate": "read", "blame": "read", "grep": "read",
                   "files": "read", "manifest": "read", "tip": "read", "branches": "read", "tags": "read",
                   "config": "read", "showconfig": "read", "verify": "read", "parents": "read", "locate": "read",
                   "cat": "read", "export": "read", "bundle": "read", "push": "read", "commit": "read",
                   "ci": "read", "add": "read"},
               _HG, _options("-n --dry-run"), repo=_options("-R --repository --cwd"), chdir=_options("--cwd"),
               writes=_options("-o --output"), remote=_URL),
    "bzr": Tool(1, {"branch": "clone", "get": "clone", "clone": "clone", "checkout": "clone", "co": "clone",
                    "export": "first", "pull": "work", "update": "work", "up": "work", "merge": "work",
                    "revert": "work", "switch": "work", "shelve": "work", "unshelve": "work", "uncommit": "work",
                    "log": "read", "status": "read", "st": "read", "diff": "read", "di": "read", "cat": "read",
                    "info": "read", "annotate": "read", "blame": "read", "ls": "read", "help": "read",
                    "version": "read", "missing": "read", "push": "read", "commit": "read", "ci": "read"},
                _BZR, _options("--dry-run"), repo=_options("-d --directory"), remote=_URL + r"|lp:"),
    "fossil": Tool(1, {"open": "work", "checkout": "work", "co": "work", "update": "work", "up": "work",
                       "revert": "work", "merge": "work", "undo": "work", "redo": "work", "clone": "read",
                       "timeline": "read", "status": "read", "changes": "read", "diff": "read", "info": "read",
                       "ls": "read", "cat": "read", "help": "read", "version": "read", "pull": "read",
                       "push": "read", "sync": "read", "commit": "read", "ci": "read"},
                   _FOSSIL, _options("-n --dry-run"), repo=_options("--workdir --chdir"), remote=_URL),
    "kubectl": Tool(1, {"cp": "tree"}, _KUBECTL, remote=_POD),
    "oc": Tool(1, {"cp": "tree", "rsync": "tree"}, _KUBECTL, remote=_POD),
    "lxc": Tool(2, {"file pull": "object", "file push": "read"}, _LXC, recursive=_options("-r --recursive"),
                remote=r"(?!)"),
    "incus": Tool(2, {"file pull": "object", "file push": "read"}, _LXC, recursive=_options("-r --recursive"),
                  remote=r"(?!)"),
    "restic": Tool(1, {"restore": "target", "mount": "last", "snapshots": "read", "ls": "read", "check": "read",
                       "stats": "read", "find": "read", "diff": "read", "cat": "read", "version": "read", "dump": "read",
                       "help": "read", "backup": "read"},
                   _RESTIC_VALUES, _options("--dry-run -n"), target=_options("-t --target"),
                   writes=_options("-t --target")),
    "borg": Tool(1, {"extract": "cwd", "mount": "last", "list": "read", "info": "read", "diff": "read",
                     "check": "read", "create": "read", "version": "read", "help": "read"},
                 _BORG, _options("-n --dry-run --stdout")),
    "duplicity": Tool(1, {"restore": "tree", "verify": "read", "collection-status": "read",
                          "list-current-files": "read", "full": "read", "incremental": "read", "inc": "read",
                          "backup": "read", "": "tree"},
                      _DUPLICITY),
    "rdiff-backup": Tool(1, {"restore": "tree", "backup": "tree", "": "tree", "list": "read", "verify": "read",
                             "compare": "read", "info": "read", "calculate": "read", "test": "read"},
                         _RDIFF, _options("-l --list-increments --list-increment-sizes --list-changed-since "
                                          "--list-at-time --compare --compare-at-time --compare-hash --compare-full "
                                          "--verify --verify-at-time --test-server --calculate-average"),
                         remote=r"[^/]*::"),
    "unison": Tool(0, {"": "both"}, _UNISON, remote=r"(ssh|socket|rsh)://|//"),
}
TOOLS["brz"] = TOOLS["bzr"]
# git's own subcommands, read by git.py (`git svn clone`, `git lfs pull`) and as the programs
# `git-svn`/`git-lfs`. `git lfs pull`/`checkout` rewrite the files `.gitattributes` gives the
# lfs filter: the whole work tree is taken (the attributes are not read).
TOOLS["git-svn"] = Tool(1, {"clone": "clone", "rebase": "work", "dcommit": "work", "create-ignore": "work",
                            "mkdirs": "work", "fetch": "read", "init": "read", "log": "read", "info": "read",
                            "find-rev": "read", "show-ignore": "read", "blame": "read", "propget": "read",
                            "proplist": "read", "show-externals": "read", "branch": "read", "tag": "read",
                            "reset": "read", "gc": "read"},
                        _options("-T --trunk -b --branches -t --tags --prefix --username -r --revision "
                                 "--ignore-paths --include-paths --authors-file -A --authors-prog --config-dir "
                                 "--ignore-refs --log-window-size"),
                        _options("-n --dry-run"), remote=_URL, label="git svn")
TOOLS["git-lfs"] = Tool(1, {"pull": "work", "checkout": "work", "fetch": "read", "ls-files": "read",
                            "status": "read", "env": "read", "version": "read", "logs": "read", "locks": "read",
                            "fsck": "read", "push": "read", "pointer": "read", "ext": "read",
                            # (its filter and hook entry points: they store or print content,
                            # gitruns.with_paths)
                            "clean": "read", "smudge": "read", "filter-process": "read", "pre-push": "read",
                            "post-checkout": "read", "post-commit": "read", "post-merge": "read"},
                        _options("-I --include -X --exclude -r --remote"), label="git lfs")

_MOUNTS = frozenset({"mount", "nfsmount"})
# Programs whose `object` copy with one operand writes into the directory they run in
# (`s3cmd get s3://b/k` writes `./k`), and those that read the names to copy from stdin
# (`gsutil cp -I DEST`): their one operand is the destination.
_CWD_DEFAULT = frozenset({"s3cmd"})
_STDIN_NAMES = frozenset({"-I"})


def _remote(tool: Tool, text: str) -> bool:
    if text.startswith(_LOCAL_URLS):
        return False
    return text == "-" or LazyPattern(tool.remote)().match(text) is not None


# Spellings of a local path as a remote one: gsutil's and gcloud's `file://PATH`, rclone's
# on-the-fly local backend `:local:PATH`.
_LOCAL_URLS = ("file://", ":local:", ":local,")


def _local_path(name: str, text: str, base: str) -> str:
    """The local path a destination word names (below `base`, hg's `--cwd`)."""
    if text.startswith("file://"):
        text = text[len("file://"):] or "."
    elif text.startswith((":local:", ":local,")):
        text = text.split(":", 2)[2] or "."
    if base and not text.startswith(("/", "~")):
        text = base.rstrip("/") + "/" + text
    return text


def remote_copy(name: str, args: Sequence[Arg], model: Model, env: Env) -> Effects:
    """The local paths one of `TOOLS` writes (the module docstring)."""
    tool = TOOLS[name]
    items: list[Item] = []
    operands: list[int] = []
    after_unknown: set[int] = set()  # words right after an option the row does not list
    sub_words: list[int] = []
    flags: set[str] = set()
    values: dict[str, list[str]] = {}  # the destination and work-tree options' values
    options_done = unknown_flag = False
    k = 0
    n = len(args)
    while k < n:
        a = args[k]
        t = a.text
        if options_done or not t.startswith("-") or t == "-":
            if len(sub_words) < tool.depth:
                sub_words.append(k)
                items.append(Item(k, t, DATA if not a.opaque else UNKNOWN))
            else:
                operands.append(k)
                items.append(Item(k, t, ""))
            k += 1
            continue
        if t == "--":
            options_done = True
            items.append(Item(k, t, DATA))
            k += 1
            continue
        key, eq, value = t.partition("=")
        if not t.startswith("--") and key not in tool.values:
            # A bundle of short flags (`-rn`), up to a letter that takes a value: the rest of the
            # word (`-d.`, `-t/tmp/x`) or, ending the word, the next one.
            for pos in range(1, len(t)):
                letter = "-" + t[pos]
                flags.add(letter)
                if letter in tool.values:
                    key = letter
                    if pos + 1 < len(t):
                        eq, value = "=", t[pos + 1 :]
                    break
        flags.add(key)
        role = WRITE if key in tool.writes else DATA
        if key in tool.values and not eq:
            items.append(Item(k, t, DATA))
            if k + 1 < n:
                items.append(Item(k + 1, args[k + 1].text, role, True, key))
                values.setdefault(key, []).append(args[k + 1].text)
            k += 2
            continue
        if eq:
            items.append(Item(k, value, role, False, key))
            values.setdefault(key, []).append(value)
        else:
            items.append(Item(k, t, DATA))
            if key not in tool.dry and key not in tool.recursive:
                after_unknown.add(k + 1)
                unknown_flag = True
        k += 1
    sub = " ".join(args[j].text for j in sub_words)
    if sub not in tool.subs and "" in tool.subs:
        # (`duplicity URL DIR`, `rdiff-backup SRC DEST`: no subcommand word)
        operands = sub_words + operands
        items = [Item(it.index, it.text, "") if it.index in sub_words else it for it in items]
        sub_words, sub = [], ""
    what = " ".join([tool.label or name, *(args[j].text for j in sub_words)])
    mode = tool.subs.get(sub)
    if any(args[j].opaque for j in sub_words):
        mode = "tree"  # (a subcommand of unknown value may be `sync`: its last operand is taken)
    elif mode is None:
        return Effects(tuple(Item(it.index, it.text, UNKNOWN) if not it.role else it for it in items), (),
                       f"{what} is not in the model")
    move = mode.endswith(" move")
    mode = mode.split()[0]
    if flags & tool.dry and sub not in _MOUNTS and (not tool.dry_subs or sub in tool.dry_subs):
        mode = "read"  # (`--dry-run`: nothing is written)
    base = next((v for key in tool.chdir for v in values.get(key, ())), "")
    extra: list[Extra] = []
    role_of: dict[int, str] = {}
    local = [j for j in operands if not _remote(tool, args[j].text)]
    dests: list[int] = []  # local operands that receive a tree
    default: str | None = None  # a destination no word spells
    if mode in ("tree", "object"):
        last = operands[-1] if operands else None
        if last is not None and (len(operands) >= 2 or sub in _MOUNTS or flags & _STDIN_NAMES) \
                and last in local:
            dests.append(last)
            if last in after_unknown and len(operands) >= 3 and operands[-2] in local:
                dests.append(operands[-2])  # (the unknown option may have taken `last` as its value)
        elif len(operands) == 1 and name in _CWD_DEFAULT and last not in local:
            operands = [last, -1]  # (the directory it runs in)
        if move and len(operands) >= 2:
            # (a move's local sources are deleted once copied: `rclone move ci r:b`)
            for j in operands[:-1]:
                if j in local:
                    role_of[j] = DELETE
                    if not args[j].opaque:
                        extra.append(Extra(DELETE, path=args[j].text, tree=True, rule="remote", what=what))
        sources = operands[:-1]
        # (an option the row does not list may be a recursive one: `aws s3 cp --rec`, abbreviated)
        if mode == "object" and not flags & tool.recursive and not flags & _STDIN_NAMES and not unknown_flag and sources \
                and (dests or operands[-1] == -1):
            directory = "." if operands[-1] == -1 else _local_path(name, args[dests[0]].text, base)
            if dests:
                role_of[dests[0]] = WRITE
            dests = []
            for j in sources:
                source = args[j]
                tail = source.text.split("://", 1)[-1]
                if any(c in tail for c in "*?[") or source.opaque:
                    extra.append(Extra(WRITE, path=directory, tree=True, rule="remote", what=what))
                else:
                    plain = Arg(tail, None, False, source.count, source.word)
                    extra.extend(into(directory, plain, WRITE))
        elif operands[-1:] == [-1]:
            default = "."
    elif mode == "both":
        dests = list(local)
        if len(operands) < 2:
            # (`unison PROFILE`: the roots are in a profile the line does not show)
            extra.append(Extra(WRITE, path="", tree=True, rule="remote-profile", what=what))
    elif mode == "clone":
        if len(operands) >= 2:
            dests = [operands[-1]] if operands[-1] in local else []
        elif operands and args[operands[0]].opaque:
            default = "."  # (named after a source of unknown value: anywhere in the directory)
        elif operands:
            default = args[operands[0]].text.rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1] or "."
            if name == "svn":
                default = default.split("@", 1)[0] or "."  # (a peg revision: `URL@5`)
            elif default.endswith((".git", ".hg")):
                default = default.rsplit(".", 1)[0]
    elif mode == "first":
        dests = operands[:1] if operands[:1] and operands[0] in local else []
    elif mode in ("paths", "paths1"):
        # (`svn switch URL [PATH]`, `svn merge SRC [TARGET]`: the first operand is the source)
        dests = [j for j in (operands[1:] if mode == "paths1" else operands) if j in local]
        if not dests:
            default = "."
    elif mode == "work" or (mode == "pull" and flags & {"-u", "--update"}):
        for directory in [v for key in tool.repo for v in values.get(key, ())] or ["."]:
            extra.append(Extra(WRITE, path=directory, tree=True, rule="whole-tree", what=what))
    elif mode == "cwd":
        default = next((v for key in tool.target for v in values.get(key, ())), ".")
    elif mode == "target":
        named = [v for key in tool.target for v in values.get(key, ())]
        if not named:
            return Effects(tuple(assign(items, {})), (), f"{what} without its destination option is not in the model")
        extra.extend(Extra(WRITE, path=v, tree=True, rule="remote", what=what) for v in named)
    elif mode == "last":
        dests = operands[-1:]
    elif mode == "delete":
        for j in local:
            role_of[j] = DELETE
            if not args[j].opaque:
                extra.append(Extra(DELETE, path=args[j].text, tree=True, rule="remote", what=what))
    rule = "remote-mount" if sub in _MOUNTS else "remote"
    for j in dests:
        role_of[j] = WRITE
        if not args[j].opaque:
            extra.append(Extra(WRITE, path=_local_path(name, args[j].text, base), tree=True, rule=rule, what=what))
    if default is not None:
        extra.append(Extra(WRITE, path=_local_path(name, default, base), tree=True, rule="remote", what=what))
    return Effects(tuple(assign(items, role_of)), tuple(extra), None)


def assign(items: Sequence[Item], role_of: dict[int, str]) -> list[Item]:
    """Operands (role '') take their role from `role_of`, else `read` (a source, a remote)."""
    return [it if it.role else Item(it.index, it.text, role_of.get(it.index, READ), it.whole, it.option)
            for it in items]


# -- tarsnap --------------------------------------------------------------------------------------

_TARSNAP_VALUES = frozenset("-f -C --keyfile --cachedir --configfile -T --files-from -X --exclude-from "
                            "--include --exclude --strip-components -s --newer --newer-than --older --older-than "
                            "--maxbw --maxbw-rate --checkpoint-bytes --archive-names".split())
# Letters of a bundle that take the next word (`-xvf NAME`, `-xC DIR`).
_TARSNAP_LETTERS = frozenset("fCTXs")


def tarsnap(name: str, args: Sequence[Arg], model: Model, env: Env) -> Effects:
    """`tarsnap -x -f NAME [-C DIR] [members]`: as `tar -x`, but the archive is on a server, so
    its member names are unknown: a tree below the directory (`-C`, else the one it runs in).
    `-c` reads (its `--dry-run` is for `-c` only); `-t`, `--list-archives` and `--print-stats`
    write nothing."""
    items: list[Item] = []
    extract = False
    directory = "."
    k = 0
    n = len(args)
    while k < n:
        a = args[k]
        t = a.text
        key, eq, value = t.partition("=")
        bundle = t[1:] if t.startswith("-") and not t.startswith("--") else (t if k == 0 and t.isalpha() else "")
        if key in ("-x", "--extract") or "x" in bundle:
            extract = True
        takes = key in _TARSNAP_VALUES and not eq or (bundle[-1:] in _TARSNAP_LETTERS and len(bundle) > 1)
        if takes and k + 1 < n:
            items.append(Item(k, t, DATA))
            items.append(Item(k + 1, args[k + 1].text, DATA, True, key))
            if key == "-C" or bundle.endswith("C"):
                directory = args[k + 1].text
            k += 2
            continue
        if key == "--directory" or key == "-C" and eq:
            directory = value
        items.append(Item(k, value if eq else t, DATA if t.startswith("-") or bundle else READ, not eq))
        k += 1
    extra = (Extra(WRITE, path=directory, tree=True, rule="remote", what="tarsnap -x"),) if extract else ()
    return Effects(tuple(items), extra, None)


# -- lftp ------------------------------------------------------------------------------------------

_LFTP_VALUES = frozenset("-c -e -f -u -p --rcfile --user --password --port".split())
# A command's options that take a value (mirror's and get's).
_LFTP_COMMAND_VALUES = frozenset("-I -X -i -x -P -O -o -N --include-glob --exclude-glob --include --exclude "
                                 "--parallel --target-directory --newer-than --older-than --size-range "
                                 "--log --script --on-change --exclude-glob-from --include-glob-from "
                                 "--use-pget-n --loop --file --directory".split())
_LFTP_GETS = frozenset({"get", "get1", "pget", "mget", "reget"})
_LFTP_UNKNOWN = frozenset({"source", "eval", "alias", "cmd:default-protocol", "queue", "at"})


def lftp(name: str, args: Sequence[Arg], model: Model, env: Env) -> Effects:
    """lftp's commands (`-c CMDS`, `-e CMDS`, a heredoc on stdin): `mirror [SRC [DST]]` writes a
    remote tree into DST (by default SRC's last name, or the local directory when SRC is not
    given; `-R`/`--reverse` uploads), `get`/`mget`/`pget` write the remote files' names (`-o`
    one file, `-O` a directory), `lcd` moves the local directory. A script the line does not
    show (`-f FILE`, stdin from a file or a pipe, `source`) may do any of that in the directory
    it runs in: a tree there."""
    items: list[Item] = []
    scripts: list[str] = []
    unknown = False
    k = 0
    n = len(args)
    while k < n:
        t = args[k].text
        key, eq, value = t.partition("=")
        if key in _LFTP_VALUES and not eq and k + 1 < n:
            items.append(Item(k, t, DATA))
            items.append(Item(k + 1, args[k + 1].text, READ if key in ("-f", "--rcfile") else DATA, True, key))
            if key in ("-c", "-e"):
                if args[k + 1].opaque:
                    unknown = True
                scripts.append(args[k + 1].text)
            elif key == "-f":
                unknown = True
            k += 2
            continue
        items.append(Item(k, t, DATA))
        k += 1
    scripts.extend(env.heredocs)
    if (env.stdin_file is not None or env.piped) and not env.heredocs and not any(a.text == "-c" for a in args):
        unknown = True  # (its commands come on stdin)
    extra: list[Extra] = []
    if unknown:
        extra.append(Extra(WRITE, path=".", tree=True, rule="remote", what="lftp"))
    for script in scripts:
        extra.extend(_lftp_script(script))
    return Effects(tuple(items), tuple(extra), None)


def _lftp_script(script: str) -> list[Extra]:
    """The local writes of one lftp script (see `lftp`)."""
    import shlex

    out: list[Extra] = []
    local = "."

    def where(path: str) -> str:
        return path if path.startswith(("/", "~")) or local == "." else f"{local}/{path}"

    for line in script.replace("&&", ";").replace("||", ";").splitlines():
        for command in line.split(";"):
            try:
                words = shlex.split(command, comments=True)
            except ValueError:
                return [Extra(WRITE, path=local, tree=True, rule="remote", what="lftp")]
            if not words:
                continue
            verb = words[0]
            operands: list[str] = []
            values: dict[str, str] = {}
            flags: set[str] = set()
            j = 1
            while j < len(words):
                w = words[j]
                key, eq, value = w.partition("=")
                if w.startswith("-") and key in _LFTP_COMMAND_VALUES:
                    if eq:
                        values[key] = value
                    elif j + 1 < len(words):
                        values[key] = words[j + 1]
                        j += 1
                elif w.startswith("-") and len(w) > 1:
                    flags.add(key)
                    if not w.startswith("--"):
                        flags.update("-" + c for c in w[1:])
                else:
                    operands.append(w)
                j += 1
            if verb == "lcd":
                local = where(operands[0]) if operands else "~"
            elif verb == "mirror":
                if flags & {"-R", "--reverse", "--dry-run"}:
                    continue
                if len(operands) >= 2:
                    target = where(operands[1])
                elif "-O" in values or "--target-directory" in values:
                    target = where(values.get("-O", values.get("--target-directory", ".")))
                elif operands:
                    base = operands[0].rstrip("/").rsplit("/", 1)[-1]
                    target = where(base) if base not in ("", ".", "..") and not any(c in base for c in "*?[") else local
                else:
                    target = local
                out.append(Extra(WRITE, path=target, tree=True, rule="remote", what="lftp mirror"))
            elif verb in _LFTP_GETS:
                directory = where(values["-O"]) if "-O" in values else local
                if "-o" in values:
                    out.append(Extra(WRITE, path=where(values["-o"]), rule="into"))
                    continue
                for operand in operands:
                    base = operand.rstrip("/").rsplit("/", 1)[-1]
                    if verb == "mget" or base in ("", ".", "..") or any(c in base for c in "*?[$`"):
                        out.append(Extra(WRITE, path=directory, tree=True, rule="remote", what=f"lftp {verb}"))
                    else:
                        out.append(Extra(WRITE, path=f"{directory}/{base}" if directory != "." else base, rule="into"))
            elif verb in _LFTP_UNKNOWN:
                out.append(Extra(WRITE, path=local, tree=True, rule="remote", what=f"lftp {verb}"))
    return out


HANDLERS = {"remote-copy": remote_copy, "tarsnap": tarsnap, "lftp": lftp}
