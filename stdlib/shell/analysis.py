"""Stage 4 of the shell analysis: the walk — every simple command as the shell would run it.

`Walk(text, root=..., home=...)` reads one command string and yields, in order, what the judges
look at: the `UnreadSpan`s of each script it reads and one `View` per simple command. A view is
a command after expansion (braces, globs, variables the line assigned), with the wrappers it
runs under peeled off (`sudo`, `env`, `xargs` …), the directory it runs in, and its effects from
the model (`view.effects`, computed on first use). The walk carries the line's state from one
command to the next, the way the shell would:

- the working directory (`cd`, `pushd`, `popd`, `cd ..` leaving the project; a `( … )` group
  restores it);
- variables assigned literally (`d=src; rm -rf $d/core`), `for f in …` loop values, and what
  `read`, `unset` or a substitution make unknown;
- the glob options (`shopt -s dotglob extglob globstar nocaseglob`, `set -f`, GLOBIGNORE);
- names the line redefines (functions, `alias`, `hash -p`, `enable`): a later call of such a
  name proves nothing;
- files the line writes, with their content when it is computable, so a script written and run
  on the same line is read as the script it is.

Code passed as data is walked as code: the script of `bash -c '…'`, `eval …`, a heredoc or
herestring fed to a shell, a script file the line wrote or one on disk (scripts.py), command
and process substitutions, `find -exec`, alias values — each up to `MAX_NESTING` levels deep
(deeper text is an unread span). Nothing is executed; files on disk are only looked at through
`disk.Disk`, within bounds.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Iterator, Sequence
from functools import lru_cache
from itertools import islice
from typing import TYPE_CHECKING, NamedTuple

from polydeukes.stdlib.shell import effects as E
from polydeukes.stdlib.shell import listers
from polydeukes.stdlib.shell.expansion import (
    ANY,
    MANY,
    ONE,
    Arg,
    TOPLEVEL,
    Scope,
    Value,
    brace_expand,
    compile_segment,
    escape_pattern,
    expand_word,
    file_prints,
    printed_file,
    printed_words,
    prints_directory,
    segment_matches,
    prints_unworked_directory,
    unworked_expansion,
    word_values,
)
from polydeukes.stdlib.shell.inputs import AFTER_SUBSHELL
from polydeukes.stdlib.shell.paths import dot_resolve
from polydeukes.stdlib.shell.startup import NAMES as STARTUP_NAMES
from polydeukes.stdlib.shell.viewers import LESS_VARIABLES, PAGER_OPTIONS, PAGER_USERS, VIEWERS, pager_log
from polydeukes.stdlib.shell.tokenizer import (
    PLAIN_RUNS_FROM,
    UNCLOSED_QUOTE,
    UNCLOSED_SUBSTITUTION,
    W_BRACE,
    W_GLOB,
    W_SUBST,
    W_VAR,
    Heredoc,
    PlainRun,
    Redirect,
    Script,
    SimpleCommand,
    UnreadSpan,
    Word,
    group_end,
    is_assignment,
    argument_names_pattern,
    plain_lines_pattern,
    scan,
    tokenize,
    tokenized,
)
from polydeukes.vm.sre import LazyPattern

if TYPE_CHECKING:  # disk.py loads when a command first looks at the working tree
    from polydeukes.stdlib.shell.disk import Disk
    from polydeukes.stdlib.shell.scripts import FileScript

# §8.1.7 names eval/bash/sh/zsh; the other POSIX-family shells reinterpret text the same way.
# (round 8: the other POSIX-like shells, `yash -c '. x.sh'`, `posh x.sh`, passed as programs
# of unknown effects that named nothing: their scripts and `-c` code are walked as sh's)
NESTED_SHELLS = frozenset({"eval", "bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "yash", "posh", "rbash",
                           "ksh93", "pdksh", "oksh", "loksh", "lksh", "bosh", "osh", "oil"})
DIRECTORY_CHANGES = frozenset({"cd", "pushd", "popd"})
# Container engines: `run` may mount a host directory writable into a container, `cp` writes a
# host path (containers.py reads their options).
CONTAINER_ENGINES = frozenset({"docker", "podman", "nerdctl", "docker-compose"})
MAX_NESTING = 8
MAX_DEPTH = 1024  # directory levels a followed `cd` may reach (PATH_MAX allows no more)
NESTING_TOO_DEEP = "nesting too deep"
# Past the bound, text that repeats what was walked: a script or function run again as it was
# (`f() { f "$@"; }; f x`), or text bash cannot parse (an unclosed `<(<(…`: nothing runs).
NESTING_REPEATED = "nesting too deep: a loop, or unclosed text"

# Reserved words that open a command list: the command follows them (`then rm -rf x`).
_RESERVED = frozenset({"!", "if", "then", "else", "elif", "do", "while", "until", "{", "time"})
_NO_OPENING = (0, 0)  # no subshell opens the command (`inputs.subshell_opening`)
_SUBSHELL_HEADS = _RESERVED | {"case"}  # words a subshell may follow in one command (`! (bash)`)
_DECLARATIONS = frozenset({"export", "declare", "typeset", "local", "readonly"})
_PYTHON_ASSIGNMENTS = ("PYTHONPATH=", "PYTHONHOME=")  # (`Context.python_environment`)
_FUNCTION_DEFINITION = LazyPattern(r"[A-Za-z_][A-Za-z0-9_.:-]*\(\)")
# Builtins and keywords: redefining one of these names changes what a later line means.
BUILTINS = frozenset({
    "cd", "pushd", "popd", "echo", "printf", "read", "test", "[", "source", ".", "exec", "eval",
    "set", "shopt", "export", "declare", "typeset", "local", "readonly", "unset", "alias",
    "unalias", "hash", "enable", "command", "builtin", "type", "trap", "wait", "kill", "true",
    "false", "exit", "return", "let", "mapfile", "readarray", "getopts", "shift", "umask",
})
# Environment variables that make ordinary programs run code or read other files.
DANGEROUS_ENVIRONMENT = frozenset({
    "LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "DYLD_INSERT_LIBRARIES", "BASH_ENV", "ENV",
    "PAGER", "GIT_PAGER", "MANPAGER", "LESSOPEN", "LESSCLOSE", "EDITOR", "VISUAL", "GIT_EDITOR",
    "GIT_EXTERNAL_DIFF", "GIT_SSH", "GIT_SSH_COMMAND", "GIT_EXEC_PATH", "GIT_CONFIG",
    "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT",
    "GIT_DIR", "GIT_WORK_TREE", "PERL5OPT", "PERL5LIB", "PYTHONPATH", "PYTHONSTARTUP",
    "NODE_OPTIONS", "RUBYOPT", "PATH", "IFS", "PROMPT_COMMAND", "SHELLOPTS", "BASHOPTS",
})
# Environment variables whose value is a command line a program runs (through a shell), and
# those whose value is a file or options a program loads: what each means as a line to walk
# (`{}` is the value). Assigned on the line, in front of a command, through `env`, or with
# `export`/`declare`, the value is walked as a script (`PAGER='sh x.sh' git log`).
_COMMAND_VARIABLES = {
    **dict.fromkeys((
        "PAGER", "GIT_PAGER", "MANPAGER", "SYSTEMD_PAGER", "EDITOR", "VISUAL", "GIT_EDITOR",
        "GIT_SEQUENCE_EDITOR", "FCEDIT", "GIT_SSH_COMMAND", "GIT_SSH",
        "GIT_ASKPASS", "SSH_ASKPASS", "SUDO_ASKPASS", "GIT_PROXY_COMMAND", "PROMPT_COMMAND",
        "LESSCLOSE", "BROWSER", "SHELL", "MAKESHELL", "CONFIG_SHELL", "npm_config_script_shell",
        "npm_config_shell", "npm_config_editor", "FZF_DEFAULT_COMMAND",
        # (round 10) bat's, delta's and psql's pagers
        "BAT_PAGER", "DELTA_PAGER", "PSQL_PAGER",
        # rsync's remote shell (`-e`) and the program it connects to a daemon through (round 8:
        # `RSYNC_RSH=./x.sh rsync f h:x` ran x.sh)
        "RSYNC_RSH", "RSYNC_CONNECT_PROG",
        # cargo's programs (projectfiles.py reads the same keys in its configuration files)
        "RUSTC_WRAPPER", "RUSTC_WORKSPACE_WRAPPER", "CARGO_BUILD_RUSTC_WRAPPER",
        "CARGO_BUILD_RUSTC_WORKSPACE_WRAPPER", "RUSTC", "CARGO_BUILD_RUSTC", "RUSTDOC", "CARGO_BUILD_RUSTDOC",
        "CARGO_HOST_LINKER", "CARGO_REGISTRY_CREDENTIAL_PROVIDER"), "{}"),
    # (`git diff` hands it the paths it compares, of the work tree too: round 2, M; gitruns.PATHS)
    "GIT_EXTERNAL_DIFF": "{} `git ls-files :/`",
    "BASH_ENV": "source {}", "ENV": "source {}",  # sourced by a non-interactive bash, an interactive sh
    "PYTHONSTARTUP": "python3 {}", "NODE_OPTIONS": "node {} -e 0", "PERL5OPT": "perl {} -e 0",
    "RUBYOPT": "ruby {} -e 0",
    # (round 8) JVM options: read by every JVM that starts (JAVA_TOOL_OPTIONS, _JAVA_OPTIONS),
    # by the java launcher (JDK_JAVA_OPTIONS), by the start scripts of build tools and JVM
    # programs (mvn, gradle and gradlew, sbt, ant, kotlinc, lein, tomcat …): walked as java's
    # options (`-XX:OnError=CMD`, `-javaagent:a.jar`, `@FILE`: scripts.jvm_option_lines)
    **dict.fromkeys(("JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "JAVA_OPTS", "MAVEN_OPTS",
                     "GRADLE_OPTS", "SBT_OPTS", "ANT_OPTS", "LEIN_JVM_OPTS", "JVM_OPTS", "CATALINA_OPTS",
                     "ES_JAVA_OPTS"), "java {} -version"),
    # the java those scripts run (mvn and ant honour JAVACMD, clojure JAVA_CMD; most take
    # JAVA_HOME's bin/java)
    "JAVACMD": "{}", "JAVA_CMD": "{}", "JAVA_HOME": "{}/bin/java -version",
    # a shared object the dynamic linker loads into every program (its constructors run first):
    # read as the compiled program it is (scripts.py, `_compiled_strings`)
    "LD_PRELOAD": "{}", "LD_AUDIT": "{}", "DYLD_INSERT_LIBRARIES": "{}",
    # make's built-in rules run these programs (`CC=./x.sh make x.o` with no makefile rule for
    # it); configure scripts, cmake and compiler crates read CC, CXX, LD … from the environment too
    **dict.fromkeys((
        "CC", "CXX", "CPP", "FC", "F77", "AS", "AR", "LD", "LEX", "YACC", "PC", "M2C", "CO", "GET",
        "MAKEINFO", "TEX", "TEXI2DVI", "WEAVE", "CWEAVE", "TANGLE", "CTANGLE", "LINT", "RM",
        # (cmake reads its compiler launchers from the environment too, 3.17)
        "CMAKE_C_COMPILER_LAUNCHER", "CMAKE_CXX_COMPILER_LAUNCHER"), "{}"),
    # Files a program appends its log or trace to (`export PIP_LOG=f; pip install …`; git's
    # traces, to an absolute path): a write of the file named.
    **dict.fromkeys(("PIP_LOG", "PIP_LOG_FILE", "GIT_TRACE", "GIT_TRACE_PACKET", "GIT_TRACE_PERFORMANCE",
                     "GIT_TRACE_SETUP", "GIT_TRACE_PACK_ACCESS", "GIT_TRACE_CURL", "GIT_TRACE_SHALLOW",
                     "GIT_TRACE_REFS", "GIT_TRACE_FSMONITOR", "GIT_TRACE2", "GIT_TRACE2_EVENT", "GIT_TRACE2_PERF"),
                    ": >> {}"),
}
# The flags make's built-in rules put on those programs' command lines (`$(CC) $(CFLAGS) …`):
# handed to make from the environment, their text is part of a recipe line the shell runs.
_MAKE_RULE_FLAGS = frozenset({
    "CFLAGS", "CXXFLAGS", "CPPFLAGS", "FFLAGS", "LDFLAGS", "LDLIBS", "LOADLIBES", "ASFLAGS",
    "ARFLAGS", "LFLAGS", "YFLAGS", "PFLAGS", "RFLAGS", "LINTFLAGS", "COFLAGS", "GFLAGS",
    "TARGET_ARCH", "TARGET_MACH", "OUTPUT_OPTION",
})

# Wrappers run the rest of their words as a command. Per wrapper: short options that take a
# separate argument, long options that take one (unless written `--opt=value`), how many
# positional arguments precede the command, and whether `NAME=VALUE` words may precede it.
_WRAPPERS: dict[str, tuple[frozenset[str], frozenset[str], int, bool]] = {
    "env": (frozenset("uCS"), frozenset({"--unset", "--chdir", "--split-string"}), 0, True),
    "command": (frozenset(), frozenset(), 0, False),
    "builtin": (frozenset(), frozenset(), 0, False),
    "exec": (frozenset("a"), frozenset(), 0, False),
    "nice": (frozenset("n"), frozenset({"--adjustment"}), 0, False),
    "nohup": (frozenset(), frozenset(), 0, False),
    "jobs": (frozenset(), frozenset(), 0, False),  # (round 10: `jobs -x CMD` runs CMD; without -x nothing runs)
    # `coproc CMD`, `coproc NAME { …; }` (a NAME only before a compound command: `_unwrap`)
    "coproc": (frozenset(), frozenset(), 0, False),
    "time": (frozenset("fo"), frozenset({"--format", "--output"}), 0, False),
    "timeout": (frozenset("sk"), frozenset({"--signal", "--kill-after"}), 1, False),
    "sudo": (
        frozenset("ughprtCDTU"),
        frozenset({"--user", "--group", "--host", "--prompt", "--role", "--type",
                   "--close-from", "--chdir", "--command-timeout", "--other-user"}),
        0,
        True,
    ),
    "doas": (frozenset("uC"), frozenset(), 0, False),
    "stdbuf": (frozenset("ioe"), frozenset({"--input", "--output", "--error"}), 0, False),
    "ionice": (frozenset("cnpPu"), frozenset({"--class", "--classdata", "--pid", "--pgid", "--uid"}), 0, False),
    "setsid": (frozenset(), frozenset(), 0, False),
    "flock": (frozenset("wEc"), frozenset({"--timeout", "--conflict-exit-code", "--command"}), 1, False),
    # (`-d`/`--differences` take a value only as `--differences=permanent`: `watch -d cmd`.)
    "watch": (frozenset("nq"), frozenset({"--interval", "--equexit"}), 0, False),
    # (since 2026-12-02) the command they run is the next word, or a `-c` string (`_wrapper_options`)
    # (round 8) Watchers that run a command on a change: watchexec 2.x hands its words, joined,
    # to `sh -c` (`_WRAPPER_STRINGS`); reflex runs them as an argv (`reflex -r R -- cmd`).
    "watchexec": (frozenset("wWefisdEFo"), frozenset({
        "--watch", "--watch-non-recursive", "--exts", "--filter", "--filter-file", "--ignore", "--ignore-file",
        "--shell", "--debounce", "--delay-run", "--signal", "--stop-signal", "--stop-timeout", "--env",
        "--workdir", "--project-origin", "--on-busy-update", "--emit-events-to", "--poll", "--timeout",
        "--color", "--notify", "--fs-events", "--watch-file", "--log-file", "--filter-prog", "--print-events",
        "--wrap-process", "--socket"}), 0, False),
    # (sshpass runs its command with a password typed: `sshpass -p pw ssh -o ProxyCommand=… h`)
    "sshpass": (frozenset("pfdP"), frozenset(), 0, False),
    "reflex": (frozenset("rRgGcd"), frozenset({"--regex", "--inverse-regex", "--glob", "--inverse-glob", "--config",
                                                "--decoration"}), 0, False),
    "busybox": (frozenset(), frozenset(), 0, False),
    "toybox": (frozenset(), frozenset(), 0, False),
    "chrt": (frozenset("TPD"), frozenset({"--sched-runtime", "--sched-period", "--sched-deadline"}), 1, False),
    "taskset": (frozenset(), frozenset(), 1, False),  # `-c LIST`: the list is the positional
    "unbuffer": (frozenset(), frozenset(), 0, False),
    "firejail": (frozenset(), frozenset(), 0, False),
    # (round 5) Namespaces and fake privileges: the command runs with the same files.
    "unshare": (frozenset("SGRw"), frozenset({"--setuid", "--setgid", "--root", "--wd", "--propagation",
                                               "--setgroups", "--map-user", "--map-group", "--map-users",
                                               "--map-groups", "--mount-binfmt"}), 0, False),
    "fakeroot": (frozenset("lsib"), frozenset({"--lib", "--faked"}), 0, False),
    "fakechroot": (frozenset("lsce"), frozenset({"--lib", "--config-dir", "--environment"}), 0, False),
    "caffeinate": (frozenset("tw"), frozenset(), 0, False),
    "arch": (frozenset("de"), frozenset(), 0, False),
    # (round 6) More of them: a fake clock (the timestamp before the command), namespaces and
    # privileges entered, limits, schedulers, locks (the lock file before the command), proxies,
    # sessions and personalities (`setarch ARCH cmd`; its aliases take no ARCH).
    "faketime": (frozenset("p"), frozenset({"--date-prog"}), 1, False),
    "nsenter": (frozenset("tSG"), frozenset({"--target", "--setuid", "--setgid"}), 0, False),  # (`-n[FILE]`: attached)
    "setpriv": (frozenset(), frozenset({
        "--reuid", "--regid", "--ruid", "--euid", "--rgid", "--egid", "--groups", "--inh-caps", "--ambient-caps",
        "--bounding-set", "--securebits", "--pdeathsig", "--selinux-label", "--apparmor-profile",
        "--landlock-access", "--landlock-rule", "--seccomp-filter", "--rlimit"}), 0, False),
    "prlimit": (frozenset("po"), frozenset({"--pid", "--output"}), 0, False),  # (limits: `--nofile=N`)
    "cpulimit": (frozenset("lpem"), frozenset({"--limit", "--pid", "--exe", "--cpu", "--monitor-forks"}), 0, False),
    "numactl": (frozenset("imNCpPwb"), frozenset({"--interleave", "--membind", "--cpunodebind", "--physcpubind",
                                                 "--preferred", "--preferred-many", "--weighted-interleave"}),
                0, False),
    "cgexec": (frozenset("g"), frozenset(), 0, False),
    "timelimit": (frozenset("STst"), frozenset(), 0, False),
    "trickle": (frozenset("dutlnLw"), frozenset(), 0, False),
    "nocache": (frozenset("n"), frozenset(), 0, False),
    "eatmydata": (frozenset(), frozenset(), 0, False),
    "chronic": (frozenset(), frozenset(), 0, False),
    "ifne": (frozenset(), frozenset(), 0, False),
    "tini": (frozenset("pe"), frozenset(), 0, False),
    "dumb-init": (frozenset("r"), frozenset({"--rewrite"}), 0, False),
    "lckdo": (frozenset("W"), frozenset(), 1, False),
    "with-lock-ex": (frozenset(), frozenset(), 1, False),
    "setlock": (frozenset(), frozenset(), 1, False),
    "setuidgid": (frozenset(), frozenset(), 1, False),
    "envuidgid": (frozenset(), frozenset(), 1, False),
    "envdir": (frozenset(), frozenset(), 1, False),
    "softlimit": (frozenset("amdosplfcrt"), frozenset(), 0, False),
    "torsocks": (frozenset("uapP"), frozenset({"--user", "--pass", "--address", "--port"}), 0, False),
    "proxychains": (frozenset("f"), frozenset(), 0, False),
    "proxychains4": (frozenset("f"), frozenset(), 0, False),
    "tsocks": (frozenset(), frozenset(), 0, False),
    "rlwrap": (frozenset("bCDfFHlOPqSstwz"), frozenset({
        "--break-chars", "--command-name", "--history-no-dupes", "--file", "--history-format",
        "--history-filename", "--logfile", "--one-shot", "--pre-given", "--quote-characters", "--prompt",
        "--histsize", "--set-term-name", "--wait-before-prompt", "--filter"}), 0, False),
    "dbus-run-session": (frozenset(), frozenset({"--config-file", "--dbus-daemon"}), 0, False),
    "ssh-agent": (frozenset("aEOPt"), frozenset(), 0, False),
    "setarch": (frozenset(), frozenset(), 0, False),  # (its ARCH comes before the options)
    **dict.fromkeys(("linux32", "linux64", "i386", "x86_64", "uname26"), (frozenset(), frozenset(), 0, False)),
    # Run the command under another root directory (`_new_root` fails closed where the
    # files differ): chroot's NEWROOT, bwrap's binds (its options: `_past_bwrap`), proot's,
    # schroot's and systemd-nspawn's.
    "chroot": (frozenset(), frozenset({"--userspec", "--groups"}), 1, False),
    "bwrap": (frozenset(), frozenset(), 0, False),
    "proot": (frozenset("rbmqwkivRS"), frozenset({"--rootfs", "--bind", "--mount", "--qemu", "--pwd", "--cwd",
                                                 "--kernel-release", "--verbose", "--change-id"}), 0, False),
    "schroot": (frozenset("cudno"), frozenset({"--chroot", "--user", "--directory", "--session-name", "--option"}),
                0, False),
    "systemd-nspawn": (frozenset("DiMuELSZ"), frozenset({"--directory", "--image", "--machine", "--user",
                                                       "--setenv", "--chdir", "--template", "--bind", "--bind-ro",
                                                       "--overlay", "--overlay-ro", "--tmpfs", "--network-veth-extra",
                                                       "--property", "--slice", "--uuid"}), 0, False),
    "chpst": (frozenset("uUbe/nlLmdopfc"), frozenset(), 0, False),
    # (round 10) More that run their words as a command: an inhibitor lock held, another user
    # entered in a container (gosu's and su-exec's USER first), GNU parallel's semaphore, task
    # spooler's queue, BSD's lock file (first), a daemon made of it (`-c DIR` its directory;
    # `-o`/`-e` files it writes)
    "systemd-inhibit": (frozenset(), frozenset({"--what", "--who", "--why", "--mode"}), 0, False),
    "gosu": (frozenset(), frozenset(), 1, False),
    "su-exec": (frozenset(), frozenset(), 1, False),
    "sem": (frozenset("j"), frozenset({"--id", "--jobs", "--semaphorename", "--timeout", "--st",
                                       "--semaphoretimeout"}), 0, False),
    "tsp": (frozenset("LNDW"), frozenset(), 0, False),
    "lockf": (frozenset("t"), frozenset(), 1, False),
    "daemonize": (frozenset("acelopuE"), frozenset(), 0, False),
    "vglrun": (frozenset("cdp"), frozenset(), 0, False),
    "gamemoderun": (frozenset(), frozenset(), 0, False),
    "prime-run": (frozenset(), frozenset(), 0, False),
    # Run no command word of their own: the `-c` string is the command (a user, a group or a
    # typescript file stands where the command would).
    "su": (frozenset("cgGsw"), frozenset({"--command", "--session-command", "--group",
                                            "--supp-group", "--shell", "--whitelist-environment"}), 1 << 16, False),
    "runuser": (frozenset("cgGsuw"), frozenset({"--command", "--session-command", "--group", "--supp-group",
                                                "--shell", "--user", "--whitelist-environment"}), 0, False),
    "sg": (frozenset("c"), frozenset(), 1 << 16, False),
    "script": (frozenset("cEIOBTm"), frozenset({"--command", "--echo", "--log-in", "--log-out", "--log-io",
                                                "--log-timing", "--logging-format", "--output-limit"}), 1 << 16, False),
    # (since 2026-12-02, round 2) Package runners' one-word forms: the first operand is the
    # command (`npx -c 'cmd'` is a command string, `_WRAPPER_STRINGS`).
    "npx": (frozenset("pcw"), frozenset({"--package", "--call", "--workspace", "--userconfig", "--globalconfig",
                                         "--script-shell", "--shell", "--prefix", "--registry", "--cache"}), 0, False),
    "pnpx": (frozenset(), frozenset({"--package", "--allow-build"}), 0, False),
    "bunx": (frozenset("p"), frozenset({"--package"}), 0, False),
    "uvx": (frozenset("pw"), frozenset({"--from", "--with", "--with-editable", "--with-requirements", "--python",
                                         "--index", "--default-index", "--index-url", "--extra-index-url",
                                         "--directory", "--project", "--cache-dir", "--config-file", "--color"}),
            0, False),
    # Privilege and session launchers, and programs that run a command under a tracer or a display.
    "pkexec": (frozenset(), frozenset({"--user"}), 0, False),
    "systemd-run": (
        frozenset("upEHM"),
        frozenset({"--unit", "--property", "--description", "--slice", "--setenv", "--host", "--machine",
                   "--root-directory",
                   "--uid", "--gid", "--nice", "--working-directory", "--service-type", "--path-property",
                   "--socket-property", "--timer-property", "--on-active", "--on-boot", "--on-startup",
                   "--on-unit-active", "--on-unit-inactive", "--on-calendar", "--expand-environment"}),
        0,
        False,
    ),
    "xvfb-run": (frozenset("efnpsw"), frozenset({"--error-file", "--auth-file", "--server-num",
                                                   "--xauth-protocol", "--server-args", "--wait"}), 0, False),
    "catchsegv": (frozenset(), frozenset(), 0, False),
    "strace": (
        frozenset("eopusaEPbIOSXU"),
        frozenset({"--output", "--attach", "--user", "--string-limit", "--columns", "--env", "--trace-path",
                   "--detach-on", "--interruptible", "--summary-sort-by", "--summary-syscall-overhead",
                   "--trace", "--signal", "--status", "--abbrev", "--verbose", "--raw", "--read", "--write",
                   "--fault", "--inject", "--const-print-style", "--decode-fds", "--silence", "--quiet",
                   "--summary-columns"}),
        0,
        False,
    ),
    "ltrace": (frozenset("aADeFlnopsuwx"), frozenset({"--align", "--config", "--indent", "--library",
                                                        "--output"}), 0, False),
    "valgrind": (frozenset(), frozenset(), 0, False),  # every option is `--name=value`
    # gdb spells its options with one dash or two, some taking a value (`-ex CMD`, `-x FILE`); a
    # command is what `--args` runs, or the program `run` starts: its first operand either way.
    "gdb": (frozenset(), frozenset(f"{dashes}{option}" for dashes in ("-", "--") for option in (
        "ex", "iex", "x", "ix", "eval-command", "init-eval-command", "command", "init-command", "p", "pid",
        "c", "core", "cd", "d", "directory", "s", "symbols", "e", "exec", "se", "tty", "t", "b", "l", "D",
        "data-directory", "i", "interpreter")), 0, False),
    # entr runs its command each time a file it reads on stdin changes (`-s`: the operand is a shell
    # command line, `_WRAPPER_STRINGS`); dotenv-cli loads an env file and runs the rest.
    "entr": (frozenset(), frozenset(), 0, False),
    "screen": (frozenset("cehpsStTX"), frozenset({"-Logfile"}), 0, False),
    # Run no command word of their own: their command lines are option values and operands
    # (`_WRAPPER_STRINGS`); a nix file or a benchmark's parameter stands where a command would.
    "nix-shell": (frozenset("AIEpj"), frozenset({"--attr", "--include", "--expr", "--packages", "--run",
                                                 "--command", "--arg", "--argstr", "--option", "--max-jobs",
                                                 "--cores", "--keep"}), 1 << 16, False),
    "hyperfine": (
        frozenset("wmMrpscPDLSnu"),
        frozenset({"--warmup", "--min-runs", "--max-runs", "--runs", "--prepare", "--setup", "--cleanup",
                   "--conclude", "--reference", "--parameter-scan", "--parameter-step-size", "--parameter-list",
                   "--shell", "--command-name", "--time-unit", "--export-json", "--export-csv",
                   "--export-markdown", "--export-asciidoc", "--export-orgmode", "--output", "--input", "--style",
                   "--sort", "--min-benchmarking-time"}),
        1 << 16,
        False,
    ),
    "xargs": (
        frozenset("ILnPsdEa"),
        frozenset({"--replace", "--max-lines", "--max-args", "--max-procs", "--max-chars",
                   "--delimiter", "--eof", "--arg-file", "--process-slot-var"}),
        0,
        False,
    ),
}
_WrapperRow = tuple[frozenset[str], frozenset[str], int, bool]
_NO_VALUES: frozenset[str] = frozenset()
# (as npx's row: npm's options that take a value, `npm exec --userconfig rc -- x` runs x)
_NPM_EXEC: _WrapperRow = (frozenset("pcw"), frozenset({"--package", "--call", "--workspace", "--userconfig",
                                                       "--globalconfig", "--script-shell", "--shell", "--prefix",
                                                       "--registry", "--cache"}), 0, False)
_PERF_RUN_VALUES = "eoptCGcFmujkrIxM"
_PERF_RUN_LONG = frozenset({"--event", "--output", "--pid", "--tid", "--cpu", "--cgroup", "--count", "--freq",
                            "--mmap-pages", "--uid", "--branch-filter", "--clockid", "--realtime", "--repeat",
                            "--field-separator", "--interval-print", "--metrics", "--call-graph", "--log-fd",
                            "--pre", "--post", "--filter", "--duration", "--max-stack", "--affinity", "--max-size"})
# Programs that are wrappers under a subcommand only (`uv run CMD`, `npm exec CMD`, `perf stat
# CMD`): per program, its global options that take a value (short letters, long names, as in
# `_WRAPPERS`) and, per subcommand word, the `_WRAPPERS` row the words after it are read with.
# Any other subcommand (`npm run test`: scripts.py's runner; `uv sync`, `perf report`, `tmux ls`)
# leaves the program itself the command. The row of `""` reads a first operand that is no
# subcommand as the command (dotenv-cli's `dotenv -e .env -- cmd` beside python-dotenv's
# `dotenv -f .env run cmd`).
_SUBCOMMAND_WRAPPERS: dict[str, tuple[frozenset[str], frozenset[str], dict[str, _WrapperRow]]] = {
    "uv": (frozenset(), frozenset({"--directory", "--project", "--cache-dir", "--config-file", "--color"}), {
        "run": (frozenset("pPCf"), frozenset({
            "--with", "--with-editable", "--with-requirements", "--python", "--extra", "--group", "--only-group",
            "--no-group", "--env-file", "--package", "--index", "--default-index", "--index-url",
            "--extra-index-url", "--find-links", "--index-strategy", "--keyring-provider", "--resolution",
            "--prerelease", "--exclude-newer", "--refresh-package", "--reinstall-package", "--upgrade-package",
            "--link-mode", "--config-setting", "--no-build-package", "--no-binary-package", "--python-platform",
            "--directory", "--project", "--cache-dir", "--config-file", "--color", "--fork-strategy",
            "--allow-insecure-host", "--no-sources-package", "--exclude-newer-package"}), 0, False),
    }),
    "poetry": (frozenset("CP"), frozenset({"--directory", "--project"}), {"run": (_NO_VALUES, _NO_VALUES, 0, False)}),
    "pipenv": (frozenset(), frozenset({"--python", "--pypi-mirror"}), {"run": (_NO_VALUES, _NO_VALUES, 0, False)}),
    # (`bundle exec CMD` evaluates the Gemfile first: `_wrapper_options` adds `bundle check`,
    # which reads it as projectfiles.CONFIG_TOOLS says; `bundle install` is the command itself.)
    "bundle": (_NO_VALUES, frozenset({"--gemfile"}), {sub: (_NO_VALUES, frozenset({"--gemfile"}), 0, False)
                                                      for sub in ("exec", "e")}),
    "npm": (frozenset("w"), frozenset({"--prefix", "--workspace", "--userconfig", "--registry", "--loglevel"}),
            {"exec": _NPM_EXEC, "x": _NPM_EXEC}),
    "pnpm": (frozenset("CF"), frozenset({"--dir", "--filter", "--workspace-dir"}), {
        "exec": (_NO_VALUES, frozenset({"--filter", "--workspace-concurrency", "--report-summary"}), 0, False),
        "dlx": (_NO_VALUES, frozenset({"--package", "--allow-build"}), 0, False),
    }),
    "yarn": (frozenset(), frozenset({"--cwd"}), {
        "exec": (_NO_VALUES, _NO_VALUES, 0, False),
        "dlx": (frozenset("p"), frozenset({"--package"}), 0, False),
    }),
    "direnv": (_NO_VALUES, _NO_VALUES, {"exec": (_NO_VALUES, _NO_VALUES, 1, False)}),  # `direnv exec DIR cmd`
    "perf": (_NO_VALUES, _NO_VALUES, {
        sub: (frozenset(_PERF_RUN_VALUES), _PERF_RUN_LONG, 0, False) for sub in ("stat", "record", "trace")}),
    "dotenv": (frozenset("fqevcp"), frozenset({"--file", "--quote", "--export"}), {
        "run": (_NO_VALUES, _NO_VALUES, 0, False),
        "": (_NO_VALUES, _NO_VALUES, 0, False),
    }),
    # `nix develop … --command CMD ARGS`, `nix shell PKGS -c CMD ARGS`: the command is after that
    # option (`_WRAPPER_STRINGS`); the operands before it are installables.
    "nix": (_NO_VALUES, frozenset({"--option", "--extra-experimental-features", "--log-format"}), {
        sub: (frozenset("fIks"), frozenset({
            "--file", "--expr", "--include", "--profile", "--redirect", "--arg", "--argstr", "--override-input",
            "--inputs-from", "--phase", "--unset", "--keep", "--set-env-var", "--reference-lock-file",
            "--output-lock-file", "--update-input", "--option"}), 1 << 16, False) for sub in ("develop", "shell")}),
    # tmux runs a shell command line for these subcommands: their operands (`_WRAPPER_STRINGS`;
    # the letters are each subcommand's options that take a value).
    "tmux": (frozenset("LSfcT"), _NO_VALUES, {
        sub: (frozenset(letters), _NO_VALUES, 1 << 16, False) for subs, letters in (
            (("new-session", "new"), "ceFfnstxy"), (("new-window", "neww"), "ceFnt"),
            (("split-window", "splitw"), "celtFp"), (("respawn-pane", "respawnp", "respawn-window", "respawnw"), "cet"),
            (("run-shell", "run"), "dt"), (("display-popup", "popup"), "bcdehsStTwxy"), (("pipe-pane", "pipep"), "t"),
            (("if-shell", "if"), "t"), (("send-keys", "send"), "Nt"))
        for sub in subs}),
}
# (round 7) iproute2's `ip netns exec NAME CMD`, `ip -all netns exec CMD` and `ip vrf exec NAME
# CMD`: a wrapper two words deep, its words abbreviated as ip matches them (`_ip_exec_row`); GNU
# parallel with a command and arguments not given as `:::` words (`_parallel_row`).
_WRAPPER_NAMES = frozenset(_WRAPPERS) | frozenset(_SUBCOMMAND_WRAPPERS) | {"ip", "parallel"}


class _WrapperStrings(NamedTuple):
    """What a wrapper's words hold besides its command: options whose value is a command line a
    shell runs (walked as a script), or a file the wrapper writes; a value that is a command line
    only after one of `prefixes` (gdb's `-ex 'shell CMD'`, strace's `-o '|CMD'`: the rest is
    the line, and another value of an option in `outputs` is a file); and operands that are command
    lines ("each": hyperfine's), one line when joined by blanks ("joined": watch hands its words
    to `sh -c` so), one line if there is one and else a command's argv ("argv": tmux's) or keys
    typed into a shell ("keys": tmux send-keys)."""

    options: frozenset[str] = _NO_VALUES
    outputs: frozenset[str] = _NO_VALUES
    operands: str = ""
    prefixes: tuple[str, ...] = ()
    argv_options: frozenset[str] = _NO_VALUES  # the words after one are a command's argv (`nix develop -c`)
    # files the wrapper writes in its directory when no option of `outputs` names one
    # (`nohup.out`, `perf record`'s `perf.data`, whose old copy becomes `perf.data.old`)
    defaults: tuple[str, ...] = ()


_TMUX_STRINGS = _WrapperStrings(operands="argv")
# Per wrapper, or per program and subcommand (`perf stat`).
_WRAPPER_STRINGS: dict[str, _WrapperStrings] = {
    "time": _WrapperStrings(outputs=frozenset({"-o", "--output"})),
    # (coreutils 9.1: when stdout is a terminal; in $HOME when the directory is not writable)
    "nohup": _WrapperStrings(defaults=("nohup.out", "~/nohup.out")),
    # (util-linux 2.38: the typescript when no FILE, -O, -I, -B or -T names one; `_typescript`)
    "script": _WrapperStrings(defaults=("typescript",)),
    "nix-shell": _WrapperStrings(options=frozenset({"--run", "--command"})),
    "hyperfine": _WrapperStrings(
        options=frozenset({"-p", "--prepare", "-s", "--setup", "-c", "--cleanup", "--conclude", "--reference"}),
        outputs=frozenset({"--export-json", "--export-csv", "--export-markdown", "--export-asciidoc",
                           "--export-orgmode", "--output"}),  # (`--output=FILE`, or null, pipe, inherit)
        operands="each"),
    "watch": _WrapperStrings(operands="joined"),
    "entr": _WrapperStrings(operands="joined"),  # `entr -s 'cmd'`
    "watchexec": _WrapperStrings(operands="joined"),
    "npx": _WrapperStrings(options=frozenset({"-c", "--call"})),
    "npm exec": _WrapperStrings(options=frozenset({"-c", "--call"})),
    "npm x": _WrapperStrings(options=frozenset({"-c", "--call"})),
    "strace": _WrapperStrings(options=frozenset({"-o", "--output"}), outputs=frozenset({"-o", "--output"}),
                              prefixes=("|", "!")),
    "ltrace": _WrapperStrings(outputs=frozenset({"-o", "--output"})),
    "daemonize": _WrapperStrings(outputs=frozenset({"-o", "-e", "-p", "-l"})),
    "valgrind": _WrapperStrings(outputs=frozenset({"--log-file", "--xml-file"})),
    "xvfb-run": _WrapperStrings(outputs=frozenset({"-e", "--error-file", "-f", "--auth-file"})),
    "screen": _WrapperStrings(outputs=frozenset({"-Logfile"})),
    "gdb": _WrapperStrings(options=frozenset(f"{dashes}{option}" for dashes in ("-", "--") for option in (
        "ex", "iex", "eval-command", "init-eval-command")), prefixes=("shell ", "!", "pipe ", "|")),
    "nix develop": _WrapperStrings(argv_options=frozenset({"-c", "--command"})),
    "nix shell": _WrapperStrings(argv_options=frozenset({"-c", "--command"})),
    "perf stat": _WrapperStrings(options=frozenset({"--pre", "--post"}), outputs=frozenset({"-o", "--output"})),
    "perf record": _WrapperStrings(outputs=frozenset({"-o", "--output"}), defaults=("perf.data", "perf.data.old")),
    "perf trace": _WrapperStrings(outputs=frozenset({"-o", "--output"})),
    **{f"tmux {sub}": _TMUX_STRINGS for sub in _SUBCOMMAND_WRAPPERS["tmux"][2]},
    "tmux send-keys": _WrapperStrings(operands="keys"),
    "tmux send": _WrapperStrings(operands="keys"),
}
# Per wrapper, its options that run the command in another directory (`env -C DIR`, `uv
# --directory DIR`; gdb's `--directory` is a source path, its `-cd` a directory).
_CHDIR_OPTIONS = frozenset({
    ("env", "-C"), ("env", "--chdir"), ("sudo", "-D"), ("sudo", "--chdir"), ("uv", "--directory"),
    ("uvx", "--directory"), ("daemonize", "-c"), ("poetry", "-C"), ("poetry", "--directory"), ("pnpm", "-C"), ("pnpm", "--dir"),
    ("yarn", "--cwd"), ("systemd-run", "--working-directory"), ("gdb", "-cd"), ("gdb", "--cd"),
})
# The wrappers with such an option (`_moves_directory` unwraps only their lines).
_MOVING_WRAPPERS = frozenset(name for name, _ in _CHDIR_OPTIONS)
# Programs that run a job later, read now from stdin, from `-f FILE` (at(1)) or a FILE operand
# (crontab(1)): at's and batch's job is judged as if a shell ran it (`sh <<EOF`, `sh < FILE`),
# a crontab's lines' commands the same way (`_job_text`).
# unshar (GNU sharutils 4.15) runs a shell archive the same way: its FILE operand or stdin,
# a mail header before it skipped, is a script `sh` runs.
_SCHEDULERS = frozenset({"at", "batch", "crontab", "unshar"})
# Programs `echo` or `printf` prints a program into (`echo 'rm -rf c?' | sh`, `| at now`,
# `echo '.shell …' | sqlite3`).
_ECHO_RUNNERS = NESTED_SHELLS | _SCHEDULERS | {"sqlite3"}
# Wrappers (`_wrapper_options`' keys) that run a `.py` command, or one after `--script`, with python.
_PYTHON_FILE_RUNNERS = frozenset({"uv run"})
_STDIN_PROGRAMS = E.STDIN_PROGRAMS  # (a global: one lookup less on every view and pipeline stage)
# Stages that execute what arrives on stdin (as commands or as operands of a command).
# What runs a compiled program (scripts.py reads its strings, the judge names them), for messages.
COMPILED_RUNNER = "the system"
_STDIN_EXECUTORS = frozenset({"xargs", "parallel", "while", "until", "source", "."})
_FD_REFERENCE = LazyPattern(r"-|\d+-?")
# A walk-only word flag beside the tokenizer's `W_*` bits: the command has a substitution that
# prints a file whose text the walk read (`_print_values`), so its words are expanded.
W_PRINTS = 64
_NAME = LazyPattern(r"[A-Za-z_][A-Za-z0-9_]*")
_VARIABLE_REFERENCE = LazyPattern(r"\$\{?[#!]?([A-Za-z_][A-Za-z0-9_]*|[0-9@*])")

# Programs that run shell lines they read from a file: a makefile's recipes, package.json's
# scripts (scripts.py).
PROGRAM_RUNNERS = frozenset({"make", "gmake", "npm", "yarn", "pnpm"})
MAKES = frozenset({"make", "gmake"})  # the rest of `PROGRAM_RUNNERS` run package.json scripts (scripts.py)
# Wrapper scripts of build tools, and the tool whose project files they run.
_BUILD_WRAPPERS = {"gradlew": "gradle", "mvnw": "mvn"}
# Programs whose options or files hold command lines they run (execopts.py, round 8).
EXEC_OPTION_PROGRAMS = frozenset({
    "ssh", "slogin", "autossh", "ssh-copy-id", "mosh", "sshfs", "scp", "sftp", "man", "psql", "mysql", "mariadb",
    "apt-get", "apt", "aptitude", "dpkg", "nodemon", "onchange", "chokidar", "terraform", "tofu", "ansible",
    "ansible-playbook", "terragrunt",
})
# Build tools and task runners that run files of the project (projectfiles.py holds the table:
# which invocations run which files, read how).
PROJECT_TOOLS = frozenset({"just", "task", "go-task", "rake", "invoke", "inv", "nox", "tox", "pdm", "poe",
                           "hatch", "cargo", "pip", "pip3", "cmake", "meson", "gradle", "bazel", "bazelisk",
                           "scons", "sbt", "mix", "mvn", "ninja", "composer", "deno", "go",
                           # (round r8: runners.py)
                           "doit", "fab", "cargo-make", "makers", "mise", "honcho", "foreman", "overmind",
                           "hivemind", "forego", "devbox", "earthly", "lefthook", "buck2", "pants", "nix",
                           "turbo", "nx",
                           # (tools whose configuration file is a program: projectfiles.CONFIG_TOOLS)
                           "eslint", "prettier", "webpack", "webpack-cli", "webpack-dev-server", "vite",
                           "rollup", "babel", "next", "nuxt", "nuxi", "astro", "svelte-kit", "tailwindcss",
                           "postcss", "stylelint", "commitlint", "lint-staged", "playwright", "cypress",
                           "karma", "grunt", "gulp", "tsup", "docusaurus", "gatsby", "storybook",
                           "start-storybook", "build-storybook", "bundle", "sphinx-build",
                           "mkdocs", "pre-commit", "dotnet",
                           # (round 8: options and files whose values are command lines: execopts.py)
                           "ssh", "slogin", "autossh", "ssh-copy-id", "mosh", "sshfs", "scp", "sftp", "man", "psql", "mysql", "mariadb", "apt-get", "apt",
                           "aptitude", "dpkg", "nodemon", "onchange", "chokidar", "terraform", "tofu",
                           "ansible", "ansible-playbook", "terragrunt",
                           # (Python front ends that build local projects: projectfiles._BUILDERS)
                           "uv", "pipx", "poetry", "pyproject-build"})
# Options that make a command work in another directory (their value then is its `cd`).
# Of those, the commands whose option only says where archive members or patched files land.
_EXTRACTORS = frozenset({"tar", "bsdtar", "unzip", "7z", "7za", "7zr", "7zz", "patch"})
_WORKING_DIRECTORY_OPTIONS = {"git": ("-C",), "tar": ("-C", "--directory"), "bsdtar": ("-C", "--cd", "--directory"),
                              "unzip": ("-d",), "7z": ("-o",), "7za": ("-o",), "7zr": ("-o",), "7zz": ("-o",),
                              "patch": ("-d", "--directory"), "make": ("-C", "--directory"),
                              "gmake": ("-C", "--directory")}


def _command_line(program: str, args: Sequence[Arg], quote_program: bool = True, unknown: bool = False) -> str:
    """`program` run with the texts of `args`, as one shell line that gives them back (with
    `unknown`, a word of unknown value as its spelling in double quotes, so that it stays of
    unknown value where the line is walked: `uvx --from "$X"`)."""
    return " ".join([("'" + program.replace("'", "'\\''") + "'") if quote_program else program,
                     *('"' + a.text + '"' if unknown and a.opaque and not any(c in a.text for c in '"\\`')
                       else a.pattern if a.pattern is not None and _REGLOBBED().fullmatch(a.pattern)
                       else "'" + a.text.replace("'", "'\\''") + "'" for a in args)])


# (round 11) A pattern a command word expanded to files is written back as the pattern, so the
# line that runs it globs again (`PATH=bin:$PATH; cat -rf *` with bin/cat a script that runs
# `rm "$@"`: the script's arguments are the files, not a literal `*`). Only a pattern of plain
# and backslash-escaped characters: the shell reads it back as the same pattern.
_REGLOBBED = LazyPattern(r"(?![#~])(?:[^\s'\"`$;&|<>(){}\\]|\\.)+")


def _unknown_option(args: Sequence[Arg], inner: int) -> Arg | None:
    """(round 9) A word of unknown value among an extractor's arguments that may be an option:
    its value may begin with `-` (`$O`, `"$O"`, `-$O`), so it may be `-Cci`, `--directory=ci`
    (tar, which takes options after operands too), `-dci` (unzip, patch) or `-oci` (7z), and the
    members land below a directory of unknown value, as after `-C "$D"`. None when every such
    word begins with other literal text (`a$N.tar`) or there is none."""
    for a in args[inner + 1 :]:
        if a.opaque and a.word is not None and a.word.text[:1] in ("$", "`", "-", '"'):
            return Arg(a.text, None, True, ANY, a.word)
    return None


def _git_unknown_global(text: str, cmd: SimpleCommand, args: Sequence[Arg], inner: int) -> str | None:
    """(round 9) `git $O rm -f gate.sh`: a word of unknown value where git's global options or
    its subcommand are may be `-C ci` (then `rm` runs in ci/) or nothing (then it runs here).
    The line that covers both: the rest of the command run in a directory of unknown value, in
    a subshell (`( cd "$O" && git rm -f gate.sh )`); None when there is no such word."""
    k = inner + 1
    while k < len(args) and not args[k].opaque and args[k].text.startswith("-"):
        k += 2 if args[k].text in _GIT_VALUED_GLOBALS else 1
    if k + 1 >= len(args) or not args[k].opaque or not any(w is args[k].word for w in cmd.words):
        return None  # (a word of another text: a function's `"$@"` bound to its caller's words)
    word = args[k].word
    rest = _without_word(text, cmd, word)
    return "( cd " + _quoted_spelling(text[word.start : word.end]) + " && " + rest + "\n)"


def _quoted_spelling(spelled: str) -> str:
    """A word as spelled, in double quotes unless it is quoted already (`$O` → `"$O"`)."""
    return spelled if spelled[:1] in ('"', "'") else '"' + spelled + '"'


def _without_word(text: str, cmd: SimpleCommand, word: Word) -> str:
    """The command `cmd` of `text` as spelled, its redirects too, less the word `word` (its
    heredocs' bodies are not part of the span: a heredoc stays unread, and fails closed)."""
    end = max([cmd.words[-1].end, *(r.target.end for r in cmd.redirects)])
    return text[cmd.words[0].start : word.start] + text[word.end : end]


def _unknown_chdir(args: Sequence[Arg], inner: int, options: tuple[str, ...]) -> Arg | None:
    """The word of one of `options` (`-C DIR`, `-CDIR`, `--directory=DIR`) that gets a value of
    unknown value or a glob (an attached value stays in its option's word), or None."""
    for k in range(inner + 1, len(args)):
        t = args[k].text
        for option in options:
            if t == option and k + 1 < len(args):
                value = args[k + 1]
                if value.opaque or value.pattern is not None:
                    return value
            elif t.startswith(option) and t != option and (option.startswith("--") and t[len(option)] == "="
                                                           or len(option) == 2):
                a = args[k]
                if a.opaque or a.pattern is not None:
                    cut = len(option) + (option.startswith("--"))  # (`--directory=c?`: the value)
                    return Arg(t[cut:], None if a.pattern is None else a.pattern[cut:], a.opaque, a.count, a.word)
    return None


# A directory named through the kernel's process files, at a word's start: the shell's own
# working directory (`own`), the root (`root`), one of its file descriptors (`fd`), or another
# process's (none of them).
_PROCESS_DIRECTORY = LazyPattern(
    r"(?:/proc/(?:self|thread-self)/(?:(?P<own>cwd)|(?P<root>root))|/proc/(?:self|thread-self)/fd/(?P<fd>[0-9]+)"
    r"|/dev/fd/(?P<devfd>[0-9]+)|/proc/[^/]+/(?:cwd|root|fd/[^/]+)|/proc/(?:self|thread-self)/fd/[^/]+|/dev/fd/[^/]+)"
    r"(?=/|$)")
_NO_FD_PATHS: dict = {}
def _spells_name(raw: str, name: str) -> bool:
    """Whether an assignment word spells its `NAME=` (or `NAME+=`) itself, quoted or not (`x=…`,
    `"x=$v"`), rather than taking it from an expansion (`$(cat .env)`, `x$s`)."""
    head = raw[: len(name) + 8].replace('"', "").replace("'", "")
    return head.startswith(name) and head[len(name) : len(name) + 1] in ("=", "+")


# Where bash evaluates a name's value again, running a `$(…)` in it (`_evaluated_made`): an
# arithmetic expansion or command, an array subscript, a substring offset, `${!x}`, `${x@P}`.
_EVALUATING_SPAN = LazyPattern(r"\$?\(\((.*?)\)\)|\$\{!([^}]*)\}|\$\{([A-Za-z_][A-Za-z0-9_]*)@P\}"
                               r"|\$\{[A-Za-z_][A-Za-z0-9_]*(\[[^]]*\]|:(?![-=+?])[^}]*)\}", re.DOTALL)
_ARITHMETIC_TEST = LazyPattern(r"\s-(?:eq|ne|lt|le|gt|ge)\s")
_INTEGER_OPTION = LazyPattern(r"\s-[a-zA-Z]*i")
_IDENTIFIER = LazyPattern(r"(?<![A-Za-z0-9_])[A-Za-z_][A-Za-z0-9_]*")


# A word whose text the shell may evaluate again later: an assignment (`x=…`, `x+=…`: its value)
# or an array element's name (`a[…]`, given to `printf -v`, `read`, `let`, `test -v`, `declare`;
# or assigned, `a[…]=…`: bash evaluates the subscript as arithmetic, running its `$(…)`).
_EVALUATED_LATER = LazyPattern(r"[A-Za-z_][A-Za-z0-9_]*(?:\[|\+?=)")
# A tilde prefix of the directory stack at the start of a word: `~+`, `~-`, `~N`, `~+N`, `~-N`
# (then `/` or the word's end); bash expands it like `$PWD`, `$OLDPWD`, `${DIRSTACK[N]}`.
_TILDE_PREFIX = LazyPattern(r"(?<![^\s;&|(<>=:])(~([+-]?)([0-9]*))(?=[/\s;&|)<>]|$)(?<!~)")
# Package runners that run a binary of the local packages (`npx foo`: node_modules/.bin/foo).
_NODE_BIN_RUNNERS = frozenset({"npx", "bunx", "pnpx", "npm exec", "npm x", "pnpm exec", "yarn exec"})
# Python project runners that run a command from the project's virtual environment first.
_VENV_RUNNERS = frozenset({"uv run", "poetry run", "pipenv run"})
_VENV_BIN = (".venv", "bin")
# A string literal in a program's code that names a Python file (`_code_writes`).
_PYTHON_FILE_LITERAL = LazyPattern(r"""['"]([^'"\s]*(?:\.pyc?|\.pth|__pycache__/[^'"\s]*))['"]""")
_PYTHON_FILE_NAME = LazyPattern(r"""[^'"\s]*(?:\.pyc?|\.pth|__pycache__/[^'"\s]*)""")
# Runs of string literals joined by `+` or by nothing but blanks (Python's implicit concatenation).
_LITERAL_RUN = LazyPattern(r"""(?:'[^'\\\n]*'|"[^"\\\n]*")(?:[ \t]*\+?[ \t]*(?:'[^'\\\n]*'|"[^"\\\n]*"))+""")
_LITERAL = LazyPattern(r"'([^'\\\n]*)'|\"([^\"\\\n]*)\"")
# What names a site-packages directory in Python code: `site.getsitepackages()`,
# `getusersitepackages()`, `site.USER_SITE`, sysconfig's `purelib`/`platlib`, a spelled path.
_SITE_DIRECTORY = LazyPattern(r"getsitepackages|getusersitepackages|USER_SITE|\b(?:pure|plat)lib\b|(?:site|dist)-packages")
# `uv run` options after which it installs nothing before the command.
_UV_RUN_NO_SYNC = frozenset({"--no-sync", "--no-project", "--script"})
# Modules that `python3 -m MODULE` runs as the tool of that name (projectfiles.py).
_TOOL_MODULES = {"pip": "pip", "pip3": "pip", "sphinx": "sphinx-build", "mkdocs": "mkdocs", "build": "pyproject-build",
                 "pre_commit": "pre-commit",
                 # (round r8: task runners run as modules read their files as the command does)
                 "invoke": "invoke", "doit": "doit", "nox": "nox", "tox": "tox", "fabric": "fab",
                 "poethepoet": "poe", "pdm": "pdm", "hatch": "hatch", "SCons": "scons", "honcho": "honcho"}
# Programs whose own program may come from a file (`awk -f prog.awk`, `sed -f script.sed`).
# (Also compilers' `@FILE`/`-wrapper`/`-B`, curl's `-K FILE` and wget's `--config FILE`, and
# their configuration files the environment names: scripts.OPTION_FILE_READERS.)
_SED_AWK_NAMES = frozenset({"sed", "gsed", "awk", "gawk", "mawk", "nawk"})
# Programs that read a program file after `-f` (make's makefile too).
_PROGRAM_FILE_OPTIONS = _SED_AWK_NAMES | {"make", "gmake"}
# An interpreter's options that give it code (then no operand is its script).
_CODE_OPTIONS = frozenset({"-c", "-e", "-E", "-m", "--eval", "-p", "--print", "-r"})
PROGRAM_FILE_READERS = frozenset({"awk", "gawk", "mawk", "nawk", "sed", "gsed", "gcc", "cc", "g++", "c++", "clang",
                                  "clang++", "ld", "ld.bfd", "ld.gold", "ld.lld", "as", "cpp", "gfortran",
                                  "objcopy", "javac", "curl", "wget"})
# Programs that run code from files the line names and no row models (scripts.py `_command_files`):
# java's single-file source launch, jshell, gdb's command files, sqlite3's `.read`/stdin.
CODE_FILE_PROGRAMS = frozenset({"java", "jshell", "gdb", "sqlite3"})
# (round 8) Programs that start a JVM with launch options of the line: java's own, and the
# prefix of the words JDK tools and JVM languages hand their JVM (`javac -J-javaagent:a.jar`;
# jshell's `-R…` go to its execution JVM). scripts.jvm_option_lines reads them.
JVM_OPTION_PREFIXES: dict[str, tuple[str, ...]] = {
    "java": (),
    **dict.fromkeys(("javac", "jar", "javadoc", "javap", "jdeps", "jlink", "jmod", "jpackage", "keytool",
                     "jarsigner", "jdb", "jcmd", "jconsole", "jstat", "jps", "jinfo", "jmap", "jstack", "jhsdb",
                     "jfr", "jdeprscan", "jimage", "jrunscript", "serialver", "rmiregistry", "kotlin", "kotlinc",
                     "scala", "scalac", "sbt", "jruby"), ("-J",)),
    "jshell": ("-J", "-R"),
}
# Python console scripts known by name (pip's, formatters, linters, task runners …): programs of
# the environment, run by Python, whose start-up files the judge reads as for `python3` (round
# r7; judgment `_runs_python`). Those named as Python (`imports.family`: pytest …) are read as
# interpreters.
PYTHON_TOOLS = frozenset({
    "pip", "pip3", "pipx", "pipenv", "poetry", "pdm", "hatch", "tox", "nox", "black", "isort", "flake8", "pylint",
    "mypy", "pyflakes", "pycodestyle", "pydocstyle", "autopep8", "yapf", "bandit", "pyupgrade", "codespell",
    "pre-commit", "sphinx-build", "sphinx-apidoc", "mkdocs", "jupyter", "django-admin", "flask", "gunicorn",
    "uvicorn", "celery", "alembic", "ansible", "ansible-playbook", "twine", "pyproject-build", "virtualenv",
    "pydoc", "pydoc3", "pygmentize", "cookiecutter", "invoke", "scrapy", "streamlit", "dvc", "conda",
    "pyinstaller", "cython", "semgrep", "aws", "pip3.8", "pip3.9", "pip3.10", "pip3.11", "pip3.12", "pip3.13",
    "pip3.14",
})
# Formatters, fixers and bulk editors that rewrite every file of their kind below a directory
# (formatters.py holds their rows; the judge calls it for these names only).
FORMATTERS = frozenset({"black", "ruff", "isort", "autopep8", "yapf", "prettier", "eslint", "gofmt", "go", "cargo",
                        "rustfmt", "rubocop", "terraform", "tofu", "markdownlint", "markdownlint-cli2",
                        "codespell", "typos", "shfmt", "deno", "pre-commit"})
# Python modules that are those formatters (`python3 -m black .`).
FORMATTER_MODULES = {"black": "black", "isort": "isort", "autopep8": "autopep8", "yapf": "yapf", "ruff": "ruff",
                     "codespell_lib": "codespell", "pre_commit": "pre-commit"}
# fd runs a command per path it finds (`-x`, `-X`), as `find -exec` does.
_FD = frozenset({"fd", "fdfind"})
# Names whose command can matter without a mention: writers and programs the table models as
# such, shells, wrappers, reserved words, builtins that change the line's state, and programs
# that run scripts from files.
_NAMES_WITH_EFFECTS = (
    E.names_with_effects() | NESTED_SHELLS | DIRECTORY_CHANGES | _RESERVED | _DECLARATIONS
    | (BUILTINS - {"echo", "true", "false", "test", "[", "type", "pwd", "wait", "kill", "exit", "return"})
    | _WRAPPER_NAMES
    | frozenset({"for", "select", "case", "function", "trap", "parallel", "coproc", "history"}) | PROJECT_TOOLS
    | _SCHEDULERS
    | PROGRAM_RUNNERS
    | CONTAINER_ENGINES
    | CODE_FILE_PROGRAMS
    | frozenset(JVM_OPTION_PREFIXES)
    | VIEWERS  # (their `+cmd` and `-c` words are commands: viewers.py)
    | PYTHON_TOOLS
    | FORMATTERS
    | STARTUP_NAMES  # (their start-up files where they run: startup.py)
    | _FD
    | frozenset(E.STDIN_PROGRAMS)  # (their stdin may be a program: `ed -s <<EOF`)
)
# Issue 11 (round 11): a program no row models may be a wrapper the table does not list
# (`runcon CTX find . -delete`, `retry -t 3 rm -rf ci`, `flatpak-spawn --host …`) and run its
# arguments as a command. An argument that names a program which can write or run code
# (`_ARGUMENT_COMMANDS`: no builtin, which only a shell runs) starts a tail the walk reads as a
# command of its own (`_argument_commands`), beside the unknown program's own mention rule.
_KNOWN_NAMES = _NAMES_WITH_EFFECTS | frozenset(E.COMMANDS)
_UNWRAPPED_FIRST = _RESERVED | _WRAPPER_NAMES  # (known names that hand on to a later word)
_ARGUMENT_COMMANDS = _NAMES_WITH_EFFECTS - BUILTINS - _RESERVED - _DECLARATIONS - DIRECTORY_CHANGES - frozenset(
    {"for", "select", "case", "function", "trap", "coproc", "history"})
MAX_ARGUMENT_COMMANDS = 4  # tails read per unknown program (each is a nested walk)
_plain_lines: re.Pattern[str] | None = None


def plain_lines() -> re.Pattern[str]:
    """The regex of runs of plain lines for this command table (`tokenizer.plain_lines_pattern`),
    compiled when the first large string is read (see `tokenizer.PLAIN_RUNS_FROM`)."""
    global _plain_lines
    if _plain_lines is None:
        _plain_lines = plain_lines_pattern(name for name in _NAMES_WITH_EFFECTS
                                           if name.isprintable())
    return _plain_lines


_argument_names: re.Pattern[str] | None = None


def argument_names() -> re.Pattern[str]:
    """The regex of an argument naming a program of `_ARGUMENT_COMMANDS`, compiled when the
    first run of plain lines is read."""
    global _argument_names
    if _argument_names is None:
        _argument_names = argument_names_pattern(name for name in _ARGUMENT_COMMANDS if name.isprintable())
    return _argument_names


def scanned(text: str) -> Script:
    """The tokens of `text`, with its runs of plain lines kept whole when it is large; once per
    process for each of the last few command strings (routing and every judge of a call read
    the same string)."""
    if len(text) < PLAIN_RUNS_FROM:
        return tokenized(text)
    return _scanned_large(text)


@lru_cache(maxsize=2)
def _scanned_large(text: str) -> Script:
    return scan(text, plain_lines())


@lru_cache(maxsize=1024)
def basename(text: str) -> str:
    return text.rsplit("/", 1)[-1]


# Where a program named by its path is the one its name says: the directories a standard PATH
# lists, which the judge trusts for a bare name too. Anywhere else (the project, the home,
# /tmp) the file may be any program: `cp /bin/rm notes/cat` in one call, `notes/cat -rf
# .claude` in the next.
TRUSTED_PROGRAM_DIRECTORIES = frozenset({
    "/bin", "/sbin", "/usr/bin", "/usr/sbin", "/usr/local/bin", "/usr/local/sbin",
    "/opt/homebrew/bin", "/opt/homebrew/sbin",
})


def untrusted_program_path(spelled: str) -> bool:
    """Is a command word a path outside `TRUSTED_PROGRAM_DIRECTORIES`? Its row then tells what
    the name's program would do, not what the file does: the row may add effects (a write,
    code it runs), never prove a mention a read or its stdin data. A path with `..` is not
    trusted (`/usr/bin/x/..` is wherever the link x leads)."""
    if "/" not in spelled:
        return False
    directory = spelled.rpartition("/")[0]
    segments = [s for s in directory.split("/") if s and s != "."]
    return not spelled.startswith("/") or ".." in segments \
        or "/" + "/".join(segments) not in TRUSTED_PROGRAM_DIRECTORIES


def is_write_redirect(r: Redirect) -> bool:
    """§8.2: a redirect with `>` in its operator, except an fd duplication (`2>&1`, `>&-`)."""
    if ">" not in r.operator:
        return False
    return not (r.operator.endswith(">&") and _FD_REFERENCE().fullmatch(r.target.text) is not None)


class GlobOptions:
    __slots__ = ("dotglob", "extglob", "globstar", "nocaseglob", "noglob")

    def __init__(self) -> None:
        self.dotglob = False
        self.extglob = True  # extglob syntax is read whenever it appears (a superset)
        self.globstar = False
        self.nocaseglob = False
        self.noglob = False

    def copy(self) -> GlobOptions:
        other = GlobOptions()
        for name in self.__slots__:
            setattr(other, name, getattr(self, name))
        return other


# Why a relative file the command runs or reads as code is not read after `cd "$D"`: `$D` may be a
# directory outside the project holding any file of the name, written there by an earlier call
# (round r7; before, every project file of the name was read).
UNKNOWN_DIRECTORY = "the directory it runs in is unknown"


class View:
    """One simple command as the shell would run it (see the module docstring).

    The attributes most commands leave at their default are class attributes: a walk makes a
    view per command, and setting a dozen fewer attributes on each is measurable."""

    cmd: SimpleCommand
    words: tuple[Word, ...]
    args: list[Arg]  # the expanded argv, prefixes and wrappers included
    inner: int  # index in `args` of the command that runs (len(args): none)
    name: str  # its basename ('' when unknown)
    model: E.Model | None
    cwd: tuple[str, ...] | None  # absolute directory it runs in (None: unknown)
    depth = 0  # nesting level of the script it belongs to
    fully_read = True
    feeds_executor = False  # its stdout reaches, through `|`, a stage that runs what it reads
    piped_code: tuple[str, ...] = ()  # heredoc/herestring bodies piped into it, when it runs its stdin
    piped_unread: tuple[str, ...] = ()  # those of `piped_code` no analysis reads as code or operands
    stdin_program = ""  # the program (`E.STDIN_PROGRAMS`) whose own code its stdin is, when fed to it
    redefined: str | None = None  # how the line redefined `name` (function, alias …)
    via_xargs = False  # xargs appends operands this layer cannot read
    env: E.Env = E.Env()
    targets: tuple = ()  # (redirect, its expanded targets)
    glob: GlobOptions
    runs_written: str | None = None  # a script the line wrote with unknown content, run here
    # What git runs that nothing read, as the reason judged last (gitruns.py: settings of unknown
    # value, a repository of unknown place): a reason of the command's own words (a protected
    # hook `-c "$S"` takes out of use, `git -C "$D" rm gate.sh`) comes first.
    runs_unknown: str | None = None
    written_code: str | None = None  # a program the line wrote, run by an interpreter here
    file_script = None  # a script file on disk it runs (`scripts.FileScript`)
    passes_unreadable: tuple[str, str] | None = None  # a file it passes to an executor, unread: (path, why)
    passes_written: str | None = None  # a file it passes to an executor, written by the line, content unknown
    items_refused: str | None = None  # why xargs's operand file could not be read
    configuration_home: str | None = None  # `HOME=notes`: where the line points its configuration
    option_glob: tuple[str, str] | None = None  # a glob word, and the option-like name it can expand to
    unknown_directory: Arg | None = None  # `tar -C c?`, `unzip -d "$D"`: where members land, unknown
    cwd_glob: tuple[tuple[str, ...], str] | None = None  # with `cwd` unknown: `Context.cwd_glob`
    items_written: str | None = None  # xargs's operand file, written by the line with content not computed
    # A `$(cat F)` whose F cannot be read within bounds: (F, why, whether it matters only to a
    # command that runs it as code: F relative where the directory is unknown)
    print_refused: tuple[str, str, bool] | None = None
    prints_written: str | None = None  # a `$(cat F)` whose F the line wrote with content not computed
    rewritten_word: str | None = None  # a rewriter of literal text whose output is one of its words
    # A word whose value the line makes of text the walk does not work out (`Scope.made`,
    # `_data_rewriter`): (the word as spelled, how its value is made, whether it is a write
    # redirect's target).
    made_word: tuple[str, str, bool] | None = None
    made_input: str | None = None  # how a `read`'s input is made, when its names take made values
    loop_values: dict[str, tuple[Value, ...]] | None = None  # what `while read` gets from `done <<EOF`
    rewritten_by: str | None = None  # an earlier pipeline stage that rewrites the code this one runs
    feeds_process: str | None = None  # `>(sh)` it writes into, whose command runs what it reads (`_feeds_process`)
    rewritten_operands: str | None = None  # the same for the operands it takes (`| xargs rm`)
    synthetic = False  # built by another command (find -exec)
    # Paths a lister gives this command (`find -exec … {}`, `lister | xargs cmd`, `$f` of a loop
    # over a lister's output), as `listers.listing` items whose `source` holds the indexes of
    # the arguments they stand for: in `listed_argv` when set (xargs appends them), else `args`.
    listed: tuple = ()
    listed_argv: list | None = None
    listed_targets: tuple = ()  # the same for its write redirects' targets (`: > "$f"`)
    stdin_listing: tuple | None = None  # what the previous stage prints, when it lists paths
    # A `done` whose loop's commands only read (`_reads_only_loop`): what it reads from its
    # redirect reaches no writer.
    loop_reads_only = False
    loop_listing: tuple | None = None  # what a `for` loop's `$(…)` word list prints
    replace_string: str = "{}"  # what `xargs -I R` replaces with each path (find's is `{}`)
    source = ""  # the script text the words index into
    # The descriptors its own redirects set (`inputs.input_fds`), the fd-0 redirect of a group
    # around it (`{ bash; } < x.sh`), and those `exec` opened earlier (`Context.fds`).
    inputs: dict | None = None
    group_input = None
    opened_fds: dict = {}
    moves_directory = False  # the script changes directory somewhere (§8.6)
    prefix_roles: dict[int, str] = {}
    wrapper_scripts: tuple = ()
    wrapper_outputs: tuple = ()  # files the wrapper writes by default (`_WrapperStrings.defaults`)
    wrapper = ""  # the wrapper that runs the command, `program subcommand` for one under a subcommand
    new_root: tuple[str, str] | None = None  # (wrapper, root) it runs under, when the files differ (`_new_root`)
    follow = False  # the walk reads scripts this command runs
    runs_options = False  # an option's value may be a command line it runs (`_follow`)
    code_runs = False  # an interpreter's or awk's code, which may hand strings to a shell
    spells_entry = False  # its words or targets spell an entry (the walk's `spells` said so)
    path_unknown = False  # a bare program name looked up on a PATH of unknown value (round 11)
    _effects: E.Effects | None | bool = False

    @property
    def head(self) -> str:
        """The command's first word as written (break messages name it)."""
        if self.cmd.words:
            return self.cmd.words[0].text
        return self.cmd.redirects[0].operator if self.cmd.redirects else ""

    @property
    def effects(self) -> E.Effects | None:
        """The model's effects of the command's own arguments (indexes into `args`), or None
        when the command has no row (or no known name)."""
        if self._effects is False:
            self._effects = E.effects_of(self.name, self.args[self.inner + 1 :], self.env,
                                         self.inner + 1, self.model) if self.model is not None else None
        return self._effects

    @property
    def is_nested_shell(self) -> bool:
        return self.name in NESTED_SHELLS


_REMOVING = frozenset({E.DELETE, E.MOVE})  # (roles that leave nothing at the path)
_NO_PATHS: frozenset = frozenset()
_NO_WRITERS: dict = {}  # (shared, never written: `Context.written_by` until its first entry)
GIT_CONFIG = "git config"
# The archives the line extracts (a key of `Walk.file_scripts`): (the directory, the `extract`
# extra, the command's directory), listed only when a git command after them works there
# (gitruns.py: a member may be a hook or the configuration of its repository).
EXTRACTED = ("archives extracted by the line",)
# Set (a key of `Walk.file_scripts`) once the line has a writer that may make a git repository
# where the disk has none: a word or target that spells `.git`, or an archive extracted.
MAKES_REPOSITORY = ("a repository the line may make",)


def _sets_git_config(view: View) -> bool:
    from polydeukes.stdlib.shell import gitruns  # only a git command loads it

    return gitruns.sets_config(view)


class Context:
    """The line's state as the walk goes (see the module docstring)."""

    __slots__ = ("cwd", "stack", "oldpwd", "scope", "glob", "redefined", "written", "writers", "groups", "listed",
                 "node_bin", "links", "cwd_uncertain", "path_dirs", "cwd_glob", "functions", "root", "fds",
                 "removed", "trees_written", "written_by", "python_written", "python_environment", "path_followed",
                 "path_unknown", "fd_paths")

    def __init__(self, root: tuple[str, ...] | None) -> None:
        self.root = root
        self.cwd: tuple[str, ...] | None = root
        self.stack: list[tuple[str, ...] | None] = []
        self.oldpwd: tuple[str, ...] | None = None
        self.scope = Scope(self.directory_value)
        self.glob = GlobOptions()
        self.redefined: dict[str, str] = {}
        self.written: dict[tuple[str, ...], str | None] = {}
        # Among them, those the line last removed (`rm`, the source of `mv`): no content of
        # its own there, nothing of the line for a program to import (imports.local_modules).
        self.removed: set[tuple[str, ...]] = set()
        # Commands whose writes `written` has not taken in yet.
        self.writers: list[View | QuietCommand] = []
        self.groups: list[tuple[str, ...] | None] = []
        self.listed: dict[str, tuple] = {}  # loop variables that take the paths a lister prints
        # The package directory of a package.json script being walked: its node_modules/.bin
        # (and those above it) come first on the script's PATH (`Walk._node_binary`).
        self.node_bin: tuple[str, ...] | None = None
        # Symbolic links the line makes (`ln -s`): where each leads (None: unknown); the key
        # None: a link somewhere unknown.
        self.links: dict[tuple[str, ...] | None, tuple[str, ...] | None] = {}
        self.cwd_uncertain = False  # a `cd` that might not have run was followed until its list ends
        # Directories the line put before the rest of PATH (`export PATH=bin:$PATH`), absolute.
        self.path_dirs: tuple[tuple[str, ...], ...] = ()
        # The count of PATH assignments (`Scope.path_assignments`) `path_dirs` and `path_unknown`
        # took in (-1: an assignment spelled out just now, taken in at the next command); set
        # when the line gave PATH a value the walk cannot read (`read PATH`, `$HOME/x:$PATH`):
        # which program a bare name runs is then unknown (`Walk._follow_path`).
        self.path_followed = 0
        self.path_unknown = False
        # Descriptors `exec 3<ci` opened, and the absolute path each leads to (None: unknown);
        # empty and shared until one is opened.
        self.fd_paths: dict[str, tuple[str, ...] | None] = _NO_FD_PATHS
        # The last `cd GLOB`: the directory it was read in and the glob (only asked while `cwd`
        # is unknown: a relative write target then lands below one of its matches).
        self.cwd_glob: tuple[tuple[str, ...], str] | None = None
        # Functions the line defines: name -> the text of the body (`Walk._function_call`).
        self.functions: dict[str, str] = {}
        # File descriptors `exec 3<x.sh` opened: the file spelled (None: not a file read).
        self.fds: dict[str, str | None] = {}
        # Directories the line writes members of unknown names into (an archive extracted, a
        # patch applied there): a hook below one may be new (gitruns.py).
        # (empty and shared until the line writes such a path: `_record_writes`)
        self.trees_written: set[tuple[str, ...]] | frozenset = _NO_PATHS
        # Paths of `written` whose last write removed them (`rm .git/hooks/pre-commit`: no hook)
        # or only set git configuration (`git config -f F k v`): E.DELETE or GIT_CONFIG.
        self.written_by: dict[tuple[str, ...], str] = _NO_WRITERS
        # Python start-up files and compiled modules a program's code on the line may write
        # (`python3 -c "open('x.pth', 'w')…"`), where its code spells them: wherever they land
        # (a `.pth` joined to a site directory at run time), a Python run after it fails closed.
        self.python_written: tuple[tuple[str, ...], ...] = ()
        # The line assigned PYTHONPATH or PYTHONHOME (`export PYTHONPATH=.`): any program after
        # it may be a Python console script that reads them, so none is a plain command (r7).
        self.python_environment = False


    def directory_value(self, name: str) -> tuple[Value, ...] | None:
        """`$PWD`, `$OLDPWD` and `${DIRSTACK[N]}` (and so `~+`, `~-`, `~N`) where the walk is:
        the directory stack is the working directory, then what `pushd` saved, last first."""
        if name == "PWD":
            path = self.cwd
        elif name == "OLDPWD":
            path = self.oldpwd
        elif name == TOPLEVEL:
            # (the project's directory is taken as its repository's top, where the line is in it)
            root = self.root
            path = root if root is not None and self.cwd is not None and self.cwd[: len(root)] == root else None
        else:
            index = name[len("DIRSTACK["):-1]
            stack = [self.cwd, *reversed(self.stack)]
            if index in ("@", "*"):  # every entry (`cd ci; rm -rf "${DIRSTACK[@]}"`)
                if any(path is None for path in stack):
                    return None
                return tuple(Value("/" + "/".join(path)) for path in stack)
            if not index.lstrip("-").isdigit() or not -len(stack) <= int(index) < len(stack):
                return None
            path = stack[int(index)]
        return None if path is None else (Value("/" + "/".join(path)),)


class QuietCommand:
    """A command the walk judged from its tokens alone, without a view (`Walk(spells=...)`):
    a plain command (see `Walk._quiet_text`) whose words and redirect targets spell no
    protected entry.
    What is left of it for a judge is its write redirects, whose targets may still reach an
    entry (through a symbolic link, from an unknown directory); it also stands for them in `Context.writers` (the attributes
    `Walk._record_writes` reads, as a view has them)."""

    __slots__ = ("cmd", "cwd", "cwd_glob", "glob")
    model = None  # nothing for `_record_writes` to take from a model: it writes no operand

    def __init__(self, cmd: SimpleCommand, context: Context) -> None:
        self.cmd = cmd
        self.cwd = context.cwd
        self.cwd_glob = context.cwd_glob if context.cwd is None else None
        self.glob = context.glob

    @property
    def head(self) -> str:
        return self.cmd.words[0].text

    @property
    def targets(self) -> list[tuple[Redirect, list[Arg]]]:
        return [(r, [Arg(r.target.text, None, r.target.opaque, ANY if r.target.opaque else ONE, r.target)])
                for r in self.cmd.redirects]


Event = View | UnreadSpan | QuietCommand


class Walk:
    """The commands of one command string, in order (see the module docstring).

    `wants_run(text, context)` is asked for each run of plain lines (`tokenizer.PlainRun`):
    True reads the run word by word (a judge answers from a cheap test of the run's text
    whether it can matter).

    `spells(text, context)`, given by a judge that only looks at commands which can concern
    its entries, is asked for each plain command (`_quiet_text`: plain words and redirect
    targets, a name without effects of its own or whose model effects only read, nothing run
    from stdin): False means nothing in it can name an entry, and the walk makes no view of
    it; one with a write redirect is yielded as a `QuietCommand` instead (its targets may be
    links), one without is not yielded at all.

    `names_entry(token, cwd)`, given by the judge, is asked for each substitution that prints
    a file (`_print_values`): True (`$(cat ci/gate.sh)`) leaves it of unknown value, so the
    rule on a protected path inside an opaque token still reads its spelling."""

    # The scripts and functions being walked, outermost first, each with what it runs with
    # (scripts.py); one seen again is a loop (`_runs_more`). (A class default: a line that runs
    # no script sets no attribute.)
    frames: tuple[tuple, ...] = ()

    def __init__(self, text: str, *, root: str, home: str | None, disk: Disk | None = None,
                 wants_run: Callable[[str, Context], bool] | None = None,
                 spells: Callable[[str, Context], bool] | None = None,
                 names_entry: Callable[[str, tuple[str, ...] | None], bool] | None = None,
                 track_moves: bool = False, cwd: str | None = None) -> None:
        self.text = text
        self.track_moves = track_moves  # `View.moves_directory` is read by the derivation only
        self.root = root
        self.root_segs: tuple[str, ...] | None = _root_segments(root)
        self.home_segs = _home_segments(home)
        self._disk: Disk | None | bool = disk if disk is not None else False  # False: not made yet
        self.wants_run = wants_run
        self.spells = spells
        self.names_entry = names_entry
        self.context = Context(self.root_segs)
        if cwd is not None:
            # The directory the host runs the line in (`cwd` of the call): a shell whose `cd`
            # persists between calls runs `rm gate.sh` in ci/ after a `cd ci` of an earlier one.
            self.context.cwd = call_directory(cwd, self.root_segs)
        self._moves = False
        self._tilde_text: str | None = None  # (`_tildes`: the last text asked about, and its answer)
        self._tilde_found = False
        self._root_there: bool | None = None  # (`_tree_known`)
        self._after_condition = False  # the command being walked follows `&&` or `||`
        self.printed: tuple | None = None  # what the last lister stage walked prints
        self.origin: str | None = None  # the script file being walked, for reasons (scripts.py)
        self.file_scripts: dict = {}  # files read so far (`read_file`) and what was worked out of them
        self._group_inputs: dict = {}  # (`inputs.group_inputs`, by `id` of the command)
        # The scripts of process substitutions `exec` opened descriptors on (`exec 3< <(git
        # ls-files)`), by descriptor: `Context.fds` holds no file for them
        self._exec_substitutions: dict[str, str] = {}
        self._physical_of: tuple[str, ...] | None = None  # (`_physical`: the last directory asked,
        self._physical_cwd: tuple[str, ...] | None = None  # and where it is on disk)
        # A script walked names `cdable_vars` (`shopt -s`, `bash -O`, `BASHOPTS`): from then on
        # `cd NAME` of no directory may go to $NAME (`_searched_directory`).
        self.cdable_vars = False

    def close(self) -> None:
        """The walk is over: drop what ties it to its judge (the callbacks are the judge's
        methods) and the scope to its context. Left as cycles, the walk's objects would wait
        for the cycle collector, whose passes over them cost a typical line about 3 % of its
        instructions; without them, reference counting frees everything at once."""
        self.wants_run = self.spells = self.names_entry = None
        self.context.scope.directories = None

    @property
    def disk(self) -> Disk | None:
        """The working tree under the root, looked at read-only (None without a valid root);
        made on first use, so a line that never looks at a file never loads disk.py."""
        if self._disk is False:
            from polydeukes.stdlib.shell.disk import Disk

            self._disk = Disk(self.root) if self.root_segs is not None else None
        return self._disk

    def environment(self, view: View, name: str) -> str | None:
        """The value of the environment variable `name` the command `view` runs with, when the
        line gives it one known value: assigned in front of it (or through `env`), else
        assigned earlier on the line (whether exported or not: reading more only fails
        closed); None otherwise."""
        for a in reversed(view.args[: view.inner]):
            if a.text.startswith(name + "="):
                return None if a.opaque else a.text[len(name) + 1 :]
        values = self.context.scope.values.get(name)
        if values is not None and len(values) == 1 and values[0].pattern is None:
            return values[0].text
        return None

    def read_file(self, path: tuple[str, ...], limit: int):
        """The text of the file at `path` (`Disk.read_script`: a compiled program is `BINARY`,
        a directory or nothing there `MISSING`, past `limit` or unreadable a `Refused`), read
        once per walk for each bound; None without a disk. Scripts, modules, hooks and
        configuration files all come through here, so no file is read twice for one line."""
        disk = self.disk
        if disk is None:
            return None
        key = (path, limit)
        content = self.file_scripts.get(key)
        if content is None:
            content = self.file_scripts[key] = disk.read_script("/" + "/".join(path), limit)
        return content

    def events(self) -> Iterator[Event]:
        script = scanned(self.text) if self.wants_run is not None else tokenized(self.text)
        yield from self._script(self.text, script, 0, True)

    # -- scripts ----------------------------------------------------------------------------

    def _script(self, text: str, script: Script, depth: int, outer_fully_read: bool,
                outer_moves: bool = False) -> Iterator[Event]:
        yield from script.unread
        if "cdable_vars" in text:
            self.cdable_vars = True
        fully_read = outer_fully_read and script.fully_read
        commands = script.commands
        feeds: list[bool] = []  # per stage of the pipeline that starts at `feeds_from`
        feeds_from = -1
        # Issue 11: heredoc and herestring bodies of earlier stages of this pipeline whose
        # stdout reaches an executor (through filters too): code for the executor.
        upstream: list[str] = []
        # The first earlier stage of this pipeline that rewrites the text it passes on (`| sed
        # s/X/ci/ | sh`): what reaches an executor after it is text nobody read.
        rewriter: str | None = None
        pipeline_start = 0  # the index of this pipeline's first stage
        loop_ends: dict[int, int] | None = None  # loop opener index -> its `done`, once a loop is seen
        reading_loop_ends: set[int] | None = None  # the `done`s of loops whose commands only read
        # §8.6: a directory change anywhere in a script (or the script around it) makes its
        # relative write targets ambiguous for the evidence derivation (order-blind).
        moves = outer_moves or (self.track_moves and any(
            type(cmd) is not PlainRun and _moves_directory(cmd) for cmd in commands))
        self._moves = moves
        context = self.context
        flowing = None  # the paths the previous stage prints, when it lists them (listers.py)
        # (the text first: most lines close no group, and a substring test costs less than a
        # look at every command)
        if ("}" in text or ")" in text or "done" in text or "fi" in text or "esac" in text) and any(
                type(cmd) is not PlainRun and cmd.redirects and cmd.words and (
                    cmd.words[0].text in _GROUP_ENDS or cmd.words[-1].text.endswith(")"))
                for cmd in commands):
            from polydeukes.stdlib.shell import inputs  # `{ bash; } < x.sh`: the group's stdin

            self._group_inputs.update(inputs.group_inputs(commands))
        for k, cmd in enumerate(commands):
            if k and type(commands[k - 1]) is not PlainRun:
                previous = commands[k - 1].connector
                # (after `cd X &&` the walk already takes the `cd` to have succeeded)
                self._after_condition = previous == "||" or previous == "&&" and not (
                    commands[k - 1].words and commands[k - 1].words[0].text in DIRECTORY_CHANGES)
                if context.cwd_uncertain and previous != "&&" and previous != "||" and previous != "|":
                    # the list that held a `cd` which might not have run has ended: where the
                    # shell is now is one of two places
                    context.cwd = context.oldpwd = None
                    context.cwd_uncertain = False
            else:
                self._after_condition = False
            if type(cmd) is PlainRun:
                run_text = text[cmd.start : cmd.end]
                if context.redefined or (self.wants_run is not None and self.wants_run(run_text, context)) \
                        or self.spells is not None and argument_names().search(run_text) is not None:
                    yield from self._script(run_text, tokenize(run_text), depth, fully_read, moves)
                continue
            spells = self.spells
            first = cmd.words[0].text if cmd.words else ""
            if first.endswith("(){") and not cmd.words[0].opaque \
                    and _FUNCTION_DEFINITION().fullmatch(first[:-1]) is not None:
                # `f(){ x=c?; …; }`: to bash the name and the `{` are two words, and what
                # follows is the body's first command (read as `f(){`'s arguments, `x=c?`
                # was no assignment)
                cmd = _opened_definition(cmd)
                commands = [*commands[:k], cmd, *commands[k + 1 :]]
                first = cmd.words[0].text
            if first.endswith("()") or first == "function":
                _function_definition(commands, k, text, context.functions)
            if spells is not None and (first not in _KNOWN_NAMES or first in _UNWRAPPED_FIRST and not (
                    first in _RESERVED and len(cmd.words) > 1 and cmd.words[1].text in _KNOWN_NAMES
                    and cmd.words[1].text not in _UNWRAPPED_FIRST)) and len(cmd.words) > 1:
                # (`do ruff check "$f"`: a reserved word before a known name, answered here)
                for j in _argument_commands(cmd.words, context.functions):
                    yield from self.nested(_tail_text(text, cmd, j), depth, fully_read)
            piped = k > 0 and type(commands[k - 1]) is not PlainRun and commands[k - 1].connector == "|"
            if not piped:
                rewriter = None
                flowing = None
                pipeline_start = k
            # (asked of a stage even when it is skipped below: `echo … | tr … | sh`)
            rewrites = _rewrites_text(cmd, first=not piped) if cmd.connector == "|" and rewriter is None else None
            if spells is None and self.wants_run is not None and not context.redefined and _inert(cmd) \
                    and not context.python_environment \
                    and flowing is None and not self.wants_run(" ".join([w.text for w in cmd.words]), context) \
                    and not (cmd.words[0].text in _FLOWING_SOURCES and (
                        depth and cmd.words[0].text in listers.LISTERS
                        or cmd.connector == "|" and _pipeline_feeds_executor(commands, k)[0])) \
                    and not (cmd.connector == "|" and cmd.words[0].text in listers.WORD_PRINTERS and _into_xargs(commands, k)):
                rewriter = rewriter or rewrites
                continue  # a plain command that can only matter through a mention it lacks
            if not piped:
                upstream = []
            feeds_executor = False
            if cmd.connector == "|":
                if not feeds_from <= k < feeds_from + len(feeds):
                    feeds_from, feeds = k, _pipeline_feeds_executor(commands, k)
                feeds_executor = feeds[k - feeds_from]
            args = None
            mentioned = False
            # (A stage a listing flows into, or a lister whose paths may reach a writer — inside a
            # substitution, or piped on — needs its view: the listing travels on it.)
            if spells is not None and not context.redefined and not feeds_executor and not (piped and upstream) \
                    and flowing is None and not (depth and cmd.words and (cmd.words[0].text in listers.LISTERS or cmd.flags
                                                                          & W_SUBST and cmd.words[0].text == "echo")):
                spelled, args = self._quiet_text(text, cmd)
                if spelled is not None and spells(spelled, context):
                    mentioned = True
                elif spelled is not None and (cmd.words[0].text not in _MODELLED_WRITERS or _reads_only(
                        cmd.words[0].text, args, self._env(cmd, piped) if cmd.heredocs or cmd.redirects or piped
                        else _NO_ENV)) and not (cmd.words[0].text == "git" and self._git_may_run(spelled)) \
                        and not (cmd.words[0].text in PAGER_USERS and self._pager_set()) \
                        and not (cmd.words[0].text == "curl" and _CURL_HOMES.intersection(context.scope.values)):
                    # No view, no effects: a plain command that can only matter through a
                    # mention it lacks, or through a write redirect's target being a link.
                    for r in cmd.redirects:
                        if is_write_redirect(r):
                            quiet = QuietCommand(cmd, context)
                            context.writers.append(quiet)
                            if ".git" in r.target.text:
                                self.file_scripts[MAKES_REPOSITORY] = True
                            yield quiet
                            break
                    name = cmd.words[0].text
                    if name in DIRECTORY_CHANGES:
                        self._directory(name, args[1:], cmd.connector)  # what its view's `_update` would do
                    # (No loop opens here, and no stage that runs its input as code: the name
                    # is neither a reserved word nor an executor.)
                    rewriter = rewriter or rewrites
                    continue
            self._moves = moves
            view, written_script = self._view(text, cmd, depth, fully_read, feeds_executor, piped, upstream,
                                              flowing, args)
            if mentioned:
                view.spells_entry = True  # the judge's mention test, answered above
            if reading_loop_ends is not None and k in reading_loop_ends:
                view.loop_reads_only = True
            if not piped and _opens_input_loop(cmd):
                if loop_ends is None:
                    loop_ends = _loop_ends(commands)
                done = loop_ends.get(k)
                if done is not None:
                    if _reads_only_loop(commands, k, done, text):
                        reading_loop_ends = (reading_loop_ends or set()) | {done}
                    self._loop_input(view, commands[done])
                    # `… done < <(git ls-files)`: `read`'s names take the paths it prints
                    view.stdin_listing = self._done_listing(commands[done], depth) or view.stdin_listing
            elif view.name in _READERS_OF_LINES and (cmd.heredocs or cmd.redirects) and not view.redefined:
                # `read f <<< ci/gate.sh`, `mapfile -t a < list`: the names take the lines of the
                # command's own input, as a loop's `read` takes its `done`'s
                self._loop_input(view, cmd)
                # (`mapfile -t a < <(git ls-files)`: the paths it prints)
                view.stdin_listing = self._done_listing(cmd, depth) or view.stdin_listing
            if view.stdin_listing is None and view.name in _READERS_OF_LINES and not view.redefined \
                    and (view.group_input is not None or self._exec_substitutions or view.inputs):
                # `read -u 3 f` after `exec 3< <(git ls-files)`, `{ while read f; …; }
                # < <(git ls-files)` (round 10: they passed)
                view.stdin_listing = self._reader_listing(view, depth)
            if rewriter is not None and _runs_stdin_as_code(cmd) and (
                    rewriter not in _PATH_PRINTERS or _stdin_shell(cmd)):
                # (a lister's paths are commands to a shell only; a read loop or `zip -@` takes
                # them as names: the listing's own rule)
                view.rewritten_by = rewriter
            elif piped and _reads_stdin_as_program(cmd):
                # `echo x | sed s/x/ci/ | xargs rm`: operands made on the way
                view.rewritten_operands = _operand_rewriter(commands, pipeline_start, k)
            rewriter = rewriter or rewrites
            if feeds_executor and (cmd.heredocs or cmd.redirects):
                upstream = upstream + [h.body for h in cmd.heredocs]
                upstream.extend(r.target.text + "\n" for r in cmd.redirects
                                if r.operator == "<<<" and not r.target.opaque)  # as `shell_script_sources`
            if feeds_executor and view.name in listers.WORD_PRINTERS and not view.redefined and k + 1 < len(commands) \
                    and type(commands[k + 1]) is not PlainRun and commands[k + 1].words \
                    and (basename(commands[k + 1].words[0].text) in _ECHO_RUNNERS
                         or _code_on_stdin(commands[k + 1])):
                # `echo 'rm -rf c?' | sh`, `printf '%s\n' 'rm …' | sh`: what it prints is the
                # script the shell runs (`| at now`: the job it runs later; `| sqlite3`: its program;
                # round 11: `| python3 -`, `| perl`, `| awk -f -`, `| make -f -`: its code)
                printed = None if any(a.opaque for a in view.args[view.inner + 1 :]) else _words_printed(
                    " ".join(a.text if a.pattern is not None else _quoted(a.text) for a in view.args[view.inner :])
                ) if view.name == "echo" else (
                    _printf_text([a.text for a in view.args[view.inner + 1 :]]), False)
                if printed is not None and printed[0] is None:
                    printed = None
                if printed is not None:
                    upstream = upstream + [printed[0]]
            if feeds_executor and not piped and view.name in FILE_PASSERS:
                from polydeukes.stdlib.shell import scripts  # only such a pipeline loads it

                upstream = upstream + scripts.passed_files(self, view)  # `cat list | xargs rm`
            elif feeds_executor and not piped and view.name == "find" and rewriter == "find":
                from polydeukes.stdlib.shell import scripts  # only such a pipeline loads it

                # `find . -name x.sh -exec cat {} + | sh`: what it passes on is the found files' text
                texts = scripts.found_texts(self, view)
                if texts is not None:
                    upstream = upstream + texts
                    rewriter = None
            elif feeds_executor and flowing is not None and view.name in listers.SELECTING and view.listed \
                    and view.listed_argv is not None and view.name not in ("grep", "egrep", "fgrep", "tee") \
                    and all(a.text[:1] == "-" or a.text.isdigit() for a in view.listed_argv[view.inner + 1 : -1]):
                from polydeukes.stdlib.shell import scripts  # only such a pipeline loads it

                # `ls x.sh | xargs cat | bash`: what it passes on is the listed files' text (of
                # `xargs head -n 3`, part of it: the whole is read)
                texts = scripts.listed_texts(self, view)
                if texts is not None:
                    upstream = upstream + texts
                    rewriter = None
            yield view
            if view.follow or written_script is not None:
                yield from self._follow(text, view, written_script)
            self._update(view)
            # (Only a stage whose output reaches an executor (`| xargs rm`, `| while read f`), or
            # the output of a substitution, can give a command its paths.)
            if flowing is not None or (depth or feeds_executor) and (
                    view.name in listers.LISTERS or view.name in listers.WORD_PRINTERS):
                if flowing is not None or view.name in listers.LISTERS:
                    flowing = _flows_out(view, flowing)
                elif not view.redefined and (feeds_executor and _into_xargs(commands, k)
                                             or depth and cmd.flags & W_SUBST and not piped):
                    # `echo x.sh | xargs bash`, `$(echo $(ls x.sh))`: the words it prints name files
                    flowing = self._printed_listing(view, text)
                if flowing is not None:
                    self.printed = flowing
            elif feeds_executor and view.listed and not view.redefined:
                # (round 10) `sha1sum $(git ls-files) | awk '{print $2}' | xargs rm`: a reader
                # given a lister's paths prints their names (a checksum, a count) or their text:
                # what reaches the executor is one of those paths, or any path at all
                given = listers.within(view.listed, ())
                flowing = given if view.name in _NAME_PRINTERS else listers.anywhere(given)
                self.printed = flowing
            if context.groups and cmd.words and (cmd.words[-1].text.endswith(")")
                                                 or cmd.words[-1].text in AFTER_SUBSHELL):
                from polydeukes.stdlib.shell import inputs  # (`x.sh))`, `x.sh ) )`: each restores)

                for _ in range(min(inputs.subshell_closing(cmd.words)[1], len(context.groups))):
                    context.cwd = context.groups.pop()

    def _tildes(self, text: str) -> bool:
        """Could a word of `text` start with a tilde prefix of the directory stack (`~+`, `~-`,
        `~N`), or name a directory through the kernel's process files (`/proc/self/cwd`,
        `/dev/fd/N`)? Asked once per script text (the walk's texts are few; scanning one per
        command would cost a long script its length again for every command)."""
        if self._tilde_text is not text:
            self._tilde_text = text
            self._tilde_found = "~" in text and _TILDE_PREFIX().search(text) is not None \
                or "/proc/" in text or "/dev/fd/" in text
        return self._tilde_found

    def _tilde_prefixes(self, text: str, args: list[Arg]) -> list[Arg]:
        """`args` with each unquoted tilde prefix of the directory stack expanded, as bash does:
        `~+` is `$PWD`, `~-` `$OLDPWD`, `~N` / `~+N` entry N of `dirs` and `~-N` entry N from its
        end; one the walk does not know leaves the word of unknown value. Then the process
        files' names of a directory (`_process_aliases`)."""
        out = self._process_aliases(args)
        for k, a in enumerate(args):
            word = a.word
            if word is None:
                continue
            m = _TILDE_PREFIX().match(text, word.start, word.end)
            if m is None or m.start() != word.start or not a.text.startswith(m.group(1)):
                continue
            sign, digits = m.group(2), m.group(3)
            if not digits:
                name = "PWD" if sign == "+" else "OLDPWD"
            else:
                name = f"DIRSTACK[{-int(digits) - 1 if sign == '-' else int(digits)}]"
            values = self.context.scope.value(name)
            prefix = m.group(1)
            if values is None or len(values) != 1:
                replaced = Arg(a.text, None, True, ANY, word)
            else:
                value = values[0].text
                pattern = None if a.pattern is None else escape_pattern(value) + a.pattern[len(prefix):]
                replaced = Arg(value + a.text[len(prefix):], pattern, a.opaque, a.count, word)
            if out is args:
                out = list(args)
            out[k] = replaced
        return out

    def _process_aliases(self, args: list[Arg]) -> list[Arg]:
        """`args` with the kernel's names of a directory spelled as that directory:
        `/proc/self/cwd/ci` (also `thread-self`) is `./ci` where the command runs, `/proc/self/
        root/x` is `/x`; another process's working directory or a file descriptor
        (`/proc/$$/cwd/ci`, `/proc/1234/cwd`, `/proc/self/fd/3/ci`, `/dev/fd/3/ci`) is a
        directory of unknown value, so what follows is judged as after `$D` (`rm -rf
        /proc/self/cwd/ci` passed and removed the protected directory)."""
        out = args
        cwd = self.context.cwd
        for k, a in enumerate(args):
            if not a.text.startswith(("/proc/", "/dev/fd/")):
                continue
            m = _PROCESS_DIRECTORY().match(a.text)
            if m is None:
                continue
            rest = a.text[m.end():]
            pattern_rest = a.pattern[len(a.pattern) - len(rest):] if a.pattern is not None and a.pattern.endswith(rest) \
                else None
            if m.group("root") is not None:
                replaced = Arg(rest or "/", None if a.pattern is None else (pattern_rest or "/"), a.opaque, a.count,
                               a.word)
            elif m.group("own") is not None and cwd is not None \
                    or rest and (fd := m.group("fd") or m.group("devfd")) is not None and self.context.fd_paths.get(fd):
                # (round 11: `exec 3<ci && rm -rf /dev/fd/3/*` is `rm -rf ci/*`; `bash /dev/fd/3`
                # is left to the descriptor's own reading, `inputs`)
                here = "/" + "/".join(cwd if m.group("own") is not None else self.context.fd_paths[fd])
                replaced = Arg(here + rest, None if a.pattern is None else escape_pattern(here) + (pattern_rest or ""),
                               a.opaque, a.count, a.word)
            else:
                replaced = Arg("${PROCESS_DIRECTORY}" + rest, None, True, ANY, a.word)
            if out is args:
                out = list(args)
            out[k] = replaced
        return out

    def _quiet_text(self, text: str, cmd: SimpleCommand) -> tuple[str | None, list[Arg] | None]:
        """The text of a command that can matter only through what its words and redirect
        targets spell (None for any other command), and its words expanded (or made `Arg`s)
        if that was needed.

        Such a command has a plain name without `/` (a script the line may have written), `=`
        (an assignment) or a final digit (a versioned interpreter) that is either no writer,
        executor, shell, wrapper, reserved word or state-changing builtin
        (`_NAMES_WITH_EFFECTS`), or a writer the model reads (`_MODELLED_WRITERS`: the caller
        asks `_reads_only`), or `cd`/`pushd`/`popd` (the caller follows the directory); words
        without glob, brace or substitution, whose variables the line gave no pattern (an
        unknown value leaves the word opaque, spelled as written); no group parenthesis;
        targets that expand to nothing else. Its heredocs and herestrings are data it reads
        (the caller has ruled out a pipe into an executor). The text is what the judge's
        mention test reads for its view: the expanded words' and the targets' texts, joined by
        blanks."""
        words = cmd.words
        if not words:
            return None, None
        first = words[0]
        name = first.text
        flags = cmd.flags
        if (name in _NAMES_WITH_EFFECTS and name not in _QUIET_WITH_ARGS) or flags & (W_GLOB | W_BRACE | W_SUBST) \
                or first.flags or first.opaque or "/" in name or "=" in name or name[-1:].isdigit() \
                or self.context.node_bin is not None or self.context.path_dirs or self.context.python_environment \
                or (self._tilde_found if self._tilde_text is text else self._tildes(text)) \
                or cmd.heredocs and _heredoc_runs(cmd) \
                or name == "git" and any(w.text == "config" for w in words) \
                or name in _ELEMENT_TESTS and _spells_substitution(text[first.start : words[-1].end]) \
                or flags & W_VAR and (self.context.scope.made or self.context.scope.wild is not None) \
                or name in _OPTION_VARIABLES and not self.context.scope.values.keys().isdisjoint(_OPTION_VARIABLES[name]) \
                or self.context.scope.values and not _HOME_NAMES.isdisjoint(self.context.scope.values):
            # (a package script's name may be a local binary; `~+` is a path; an unquoted
            # heredoc's `$(…)` runs; `git config` may set what git runs; `test -v 'a[$(…)]'`
            # runs the subscript's `$(…)`; `${a[x]}` runs what a made `x` holds: `_evaluated_made`)
            return None, None
        args = None
        if flags & W_VAR:
            for r in cmd.redirects:
                if r.target.flags & W_VAR:
                    return None, None
            args = self._expand(text, words, flags)
            texts = []
            for a in args:  # (a plain loop: cheaper than generator expressions for a few words)
                if a.pattern is not None:
                    return None, args  # a variable the line gave a pattern (`for f in src/*`)
                texts.append(a.text)
        else:
            texts = [w.text for w in words]
            if name in _QUIET_WITH_ARGS:  # the model or `_directory` reads its arguments
                args = [Arg(w.text, None, w.opaque, ANY if w.opaque else ONE, w) for w in words]
        for t in texts:
            if t.startswith("(") or t.endswith(")"):
                return None, args
        for r in cmd.redirects:
            texts.append(r.target.text)
        if cmd.heredocs and name not in E.COMMANDS:
            texts.extend(h.body for h in cmd.heredocs)  # (an unknown program's stdin: `_view`)
        return " ".join(texts), args

    def nested(self, source: str, depth: int, fully_read: bool) -> Iterator[Event]:
        """A script the line runs (nested shell, substitution, written script, alias)."""
        if depth >= MAX_NESTING:
            yield UnreadSpan(source, NESTING_TOO_DEEP if self._runs_more(source) else NESTING_REPEATED, 0)
            return
        # (`tokenized`: a substitution's script was read already when the command's words were
        # checked for rewritten text, `_rewritten_word`)
        yield from self._script(source, tokenized(source), depth + 1, fully_read, self._moves)

    def _substitution(self, source: str, depth: int, fully_read: bool) -> Iterator[Event]:
        """A command substitution's script: it runs in a subshell, so a `cd` there leaves the
        line where it was (`d=$(cd "$(dirname "$0")" && pwd); ./x.sh`: x.sh where the line is)."""
        context = self.context
        if "cd" not in source and "pushd" not in source and "popd" not in source:
            yield from self.nested(source, depth, fully_read)
            return
        saved = (context.cwd, list(context.stack), context.oldpwd, context.cwd_glob, context.cwd_uncertain)
        yield from self.nested(source, depth, fully_read)
        context.cwd, context.stack, context.oldpwd, context.cwd_glob, context.cwd_uncertain = saved

    def _runs_more(self, source: str) -> bool:
        """May `source`, past the nesting bound, run what the walk has not read? Not when the
        script or function it is in runs as an outer one did (the same text, arguments,
        variables and directory: a loop), nor when bash cannot parse it from its start."""
        frames = self.frames
        if frames and frames[-1] in frames[:-1]:
            return False
        return not any(span.start == 0 and span.reason in (UNCLOSED_QUOTE, UNCLOSED_SUBSTITUTION)
                       for span in tokenized(source).unread)

    # -- one command ------------------------------------------------------------------------

    def _physical(self, cwd: tuple[str, ...]) -> tuple[str, ...]:
        """The directory a command runs in: `cd l` with `l -> ci` on disk leaves the shell in
        ci (bash keeps the spelled path only for `$PWD` and a later `cd ..`), so what the
        command does to `*`, `.` or an archive's members lands in ci. Kept per directory tuple."""
        if cwd is self._physical_of:
            return self._physical_cwd
        disk = self.disk
        resolved = disk.resolve_below(cwd, []) if disk is not None else None
        physical = tuple(resolved) if type(resolved) is list else cwd  # (a refusal: judged per target)
        self._physical_of, self._physical_cwd = cwd, physical
        return physical

    def _view(self, text: str, cmd: SimpleCommand, depth: int, fully_read: bool,
              feeds_executor: bool, piped: bool, upstream: Sequence[str] = (),
              flowing: tuple | None = None, args: list[Arg] | None = None) -> tuple[View, str | None]:
        """The view of one command, and the text of a shell script it runs that the line wrote
        (`flowing`: the paths a lister upstream prints into it; `args`: its words expanded
        already, by `_quiet_text`)."""
        context = self.context
        words = cmd.words
        view = View()
        view.cmd = cmd
        view.words = words
        if depth:
            view.depth = depth
        if not fully_read:
            view.fully_read = False
        if feeds_executor:
            view.feeds_executor = True
        view.source = text
        if self._moves:
            view.moves_directory = True
        view.glob = context.glob
        cwd = view.cwd = context.cwd
        if cwd is not None and cwd is not context.root:
            view.cwd = self._physical_cwd if cwd is self._physical_of else self._physical(cwd)
        if context.cwd is None and context.cwd_glob is not None:
            view.cwd_glob = context.cwd_glob
        flags = cmd.flags
        if flags & W_SUBST:  # (a process substitution, as a word or a redirect's target, sets it)
            view.feeds_process = _feeds_process(text, cmd)
            if self._print_values(text, cmd, view):
                flags |= W_PRINTS
            view.rewritten_word = _rewritten_word(text, cmd, context.scope.values)
        if (context.scope.made or context.scope.wild is not None) and words:
            view.made_word = self._evaluated_made(text, cmd)
        if flags & (W_VAR | W_SUBST) and view.made_word is None:
            view.made_word = self._made_word(text, cmd)
        if args is not None:
            view.args = args
        elif not flags & (W_GLOB | W_BRACE | W_VAR | W_PRINTS):  # nothing to expand anywhere (see `_expand`)
            view.args = args = [Arg(w.text, None, w.opaque, ANY if w.opaque else ONE, w) for w in words]
        else:
            view.args = args = self._expand(text, words, flags)
        tildes = self._tilde_found if self._tilde_text is text else self._tildes(text)
        if tildes:
            view.args = args = self._tilde_prefixes(text, args)
        if context.links:
            view.args = args = self._through_links(args, context.cwd)
        opening = _NO_OPENING
        if words and ((head := words[0].text)[:1] == "(" or head[-1:] == ")" or head in _SUBSHELL_HEADS):
            from polydeukes.stdlib.shell import inputs  # `( bash x.sh )`, `! (bash x.sh)`, `x) (bash x.sh)`

            opening = inputs.subshell_opening(words)
        if self._group_inputs or context.groups or context.fds or opening[1] \
                or cmd.redirects and _opens_descriptors(cmd):
            args = view.args = self._inputs(text, cmd, view, args, opening)
        # `_unwrap`'s common case answered here: a first word that is no assignment, reserved
        # word, wrapper or `case` pattern is the command (a call less per command).
        first = args[0].text if args else "="
        first_name = basename(first)
        if "=" in first or first in _RESERVED or first_name in _WRAPPER_NAMES or first.endswith(")") or first == "case":
            inner, view.via_xargs, wrapper_cd, xargs_at = _unwrap(args)
            name = basename(args[inner].text) if inner < len(args) and not args[inner].opaque else ""
        else:
            inner, wrapper_cd, xargs_at = 0, False, -1
            name = first_name if not args[0].opaque else ""
        view.inner = inner
        if inner == 0 and name.startswith("(") and not name.startswith("(("):
            name = basename(name.lstrip("("))  # `(cd sub && make)`: the group's first command
        if name in _NOEXEC_SHELLS and inner + 1 < len(args) and noexec(args[inner + 1 :]):
            # `bash -n x.sh`: a syntax check runs nothing; its script, `-c` code and heredoc
            # are read (a row of their own: `bash -n`)
            name += " -n"
        view.name = name
        if name == "history" and "HISTFILE" in context.scope.values:
            view.args = args = self._with_history_file(args, inner)
        if inner or context.scope.values and not _HOME_NAMES.isdisjoint(context.scope.values):
            view.configuration_home = self._configuration_home(view)
        if name in _OPTION_VARIABLES and (inner or not context.scope.values.keys().isdisjoint(_OPTION_VARIABLES[name])):
            view.args = args = self._with_environment_options(view, args, inner, name)
        model = E.COMMANDS.get(name)
        if model is None and name[-1:].isdigit():
            model = E.model_for(name)  # a versioned interpreter
        view.model = model
        if context.redefined and name:
            view.redefined = context.redefined.get(name)
        if cmd.heredocs or cmd.redirects or piped:
            view.env = self._env(cmd, piped)
        if view.group_input is not None and view.env.stdin_file is None and not (view.inputs and "0" in view.inputs) \
                and view.group_input.operator != "<&" and not view.group_input.target.opaque:
            view.env = E.Env(view.env.heredocs, view.group_input.target.text, view.env.piped)  # `{ make -f -; } < mk`
        if upstream and piped and _reads_stdin_as_program(cmd):
            # Judged as if the bodies were fed to it directly (`sh <<EOF`, `python3 <<EOF`,
            # `xargs rm <<EOF`): a filter between only passes on part of them.
            view.piped_code = tuple(upstream)
            env = view.env
            view.env = E.Env(tuple(upstream) + env.heredocs, env.stdin_file, piped)
        if cmd.redirects:
            view.targets = [(r, [Arg(r.target.text, None, r.target.opaque, ANY if r.target.opaque else ONE, r.target)]
                             if not r.target.flags & (W_GLOB | W_BRACE | W_VAR) and not flags & W_PRINTS
                             else self._expand(text, (r.target,), r.target.flags | (flags & W_PRINTS)))
                            for r in cmd.redirects]
            if tildes:
                view.targets = [(r, self._tilde_prefixes(text, targets)) for r, targets in view.targets]
            if context.links:
                view.targets = [(r, self._through_links(targets, context.cwd)) for r, targets in view.targets]
        if flags & W_GLOB and view.cwd is not None and not context.glob.noglob and self.disk is not None:
            view.option_glob = self._option_glob(args, view.cwd, name in VIEWERS)
        if name in _WORKING_DIRECTORY_OPTIONS and inner + 1 < len(args) \
                and (chdir := _unknown_chdir(args, inner, _WORKING_DIRECTORY_OPTIONS[name])
                     or (_unknown_option(args, inner) if name in _EXTRACTORS else None)) is not None:
            if name in _EXTRACTORS:
                # `tar -C c? -xf x.tar`: the archive is opened where the line is, its members
                # land in a directory the judge matches as a pattern (`deferred`)
                view.unknown_directory = chdir
            else:
                # `git -C c? rm gate.sh`, `make -C "$D"`: the directory the command works in is
                # unknown, as after `cd c?` (a glob may match a protected directory)
                if chdir.pattern is not None and not chdir.opaque and view.cwd is not None:
                    view.cwd_glob = (view.cwd, chdir.pattern)
                view.cwd = None
        elif name in _WORKING_DIRECTORY_OPTIONS and inner + 1 < len(args) and view.cwd is not None \
                and any(a.text.startswith(_WORKING_DIRECTORY_OPTIONS[name]) for a in args[inner + 1 :]) \
                and self.disk is not None:
            view.args = args = self._physical_options(args, inner, _WORKING_DIRECTORY_OPTIONS[name], view.cwd)
        if name in E.ENVIRONMENT_OPTIONS:
            options: list[str] = []
            for variable in E.ENVIRONMENT_OPTIONS[name]:
                if variable in context.scope.values or any(a.text.startswith(variable + "=") for a in args[:inner]):
                    value = self.environment(view, variable)
                    options.extend(value.split() if value is not None else ("?",))
            if options:
                env = view.env
                view.env = E.Env(env.heredocs, env.stdin_file, env.piped, tuple(options))
        if wrapper_cd:
            # `env -C dir`, `sudo -D dir`, `uv --directory dir`: followed when the word is literal
            directory = _wrapper_directory(args, inner)
            view.cwd = None if directory is None else self.absolute(directory, context.cwd)
            if view.cwd is not None and self.disk is not None:
                view.cwd = self._physical(view.cwd)
        if inner:
            view.prefix_roles, view.wrapper_scripts, view.wrapper = _wrapper_options(args, inner)
            strings = _WRAPPER_STRINGS.get(view.wrapper)
            if strings is not None and strings.defaults and E.WRITE not in view.prefix_roles.values():
                # (`cd .claude/hooks && nohup cmd` writes nohup.out there)
                view.wrapper_outputs = tuple(E.Extra(E.WRITE, path=n, rule="default-output") for n in strings.defaults)
            if any(basename(a.text) in _REROOTING for a in args[:inner]):
                view.new_root = _new_root(args, inner)
                if view.new_root is None and any(basename(a.text) == "chroot" for a in args[:inner]) \
                        and not any(a.text == "--skip-chdir" for a in args[:inner]):
                    view.cwd = ()  # (`chroot / cmd` runs cmd in `/`)
            if name == "-" and view.wrapper in _PYTHON_FILE_RUNNERS:
                view.name = name = "python"  # `uv run -`: python, its program read from stdin
                view.model = model = E.COMMANDS["python"]
        if inner + 1 < len(args) and args[inner].opaque and args[inner].count == ANY \
                and any(w is args[inner].word for w in words):  # (not a caller's word: `"$@"` in a function)
            # (round 9) `$O bash x.sh`, `env $O bash x.sh`, `xargs $O bash < list`: an unquoted
            # word of unknown value may expand to no word at all, and the next one is then the
            # command: the line without that word is walked too
            view.wrapper_scripts = (*view.wrapper_scripts, _without_word(text, cmd, args[inner].word))
        spelled = text[words[0].start : words[-1].end] if words else ""
        if "$(" in spelled or "`" in spelled:
            # A command substitution spelled inside quotes in a value the shell may evaluate
            # later (`x='a[$(rm -rf ci)]'; : $((x))`, `: ${x@P}`, `PS4='$(…)'`, `printf -v
            # 'a[$(…)]'`): walked as the script it may become.
            later = [script for a in args if not a.opaque and ("$(" in a.text or "`" in a.text)
                     and _EVALUATED_LATER().match(a.text) is not None
                     for script in heredoc_substitutions(a.text)]
            if later:
                view.wrapper_scripts = (*view.wrapper_scripts, *later)
        if name == "go" and inner + 1 < len(args):
            # (round 10) `go build -toolexec PROG`, `go vet -vettool=PROG`, `go test -exec PROG`:
            # go runs PROG, as does the same option in GOFLAGS the line gives it
            goflags = self.environment(view, "GOFLAGS") if "GOFLAGS" in context.scope.values or any(
                a.text.startswith("GOFLAGS=") for a in args[:inner]) else None
            programs = _go_programs([a.text for a in args[inner + 1 :] if not a.opaque] + (goflags or "").split())
            if programs:
                view.wrapper_scripts = (*view.wrapper_scripts, *programs)
        if name == "ip" and any(a.text.startswith(("-b", "--b")) for a in args[inner + 1 :]):
            # `ip -batch FILE`: its lines that run a command (`netns exec n1 CMD`)
            from polydeukes.stdlib.shell import scripts  # only such a command loads it

            batch = scripts.ip_batch_lines(self, view, args[inner + 1 :])
            if isinstance(batch, list):
                view.wrapper_scripts = (*view.wrapper_scripts, *batch)
            else:
                view.file_script = batch
        if name in JVM_OPTION_PREFIXES and inner + 1 < len(args) and any(
                a.text[:1] == "@" or a.text.startswith(("-XX:", "-J", "-R")) for a in args[inner + 1 :]):
            # (round 8) `java -XX:OnError=CMD`, `java @opts`, `javac -J-XX:OnError=CMD`: the
            # commands the JVM runs, and java with what its options files hold (scripts.py)
            from polydeukes.stdlib.shell import scripts  # only such a command loads it

            jvm = scripts.jvm_option_lines(self, view, args[inner + 1 :])
            if isinstance(jvm, list):
                view.wrapper_scripts = (*view.wrapper_scripts, *jvm)
            else:
                view.file_script = jvm
        if name == "parallel" and inner < len(args):
            view.wrapper_scripts = (*view.wrapper_scripts, *_parallel_lines(args[inner + 1 :]))
            texts = {a.text for a in args[inner + 1 :]}
            if "--pipepart" in texts:
                # (round 7) `--pipepart -a FILE CMD` gives CMD parts of FILE on its stdin: not followed
                view.items_refused = "--pipepart gives the command parts of it on its stdin"
            elif not texts.isdisjoint(("::::", "::::+")) and not texts.isdisjoint((":::", ":::+")):
                # (round 7) `parallel CMD ::: a :::: list`: the file's arguments combined with the words'
                view.items_refused = "it combines them with the arguments of its words"
        if inner or name in _DECLARATIONS or name in MAKES:
            # (make's operands may set variables too: `make SHELL=./x.sh`)
            run = _command_variables(args[:inner] if name not in _DECLARATIONS and name not in MAKES else args)
            if name in MAKES and (inner or any("=" in a.text for a in args) or "MAKEFLAGS" in context.scope.values
                                  or not _MAKE_RULE_FLAGS.isdisjoint(context.scope.values)):
                run += _make_variables(args, context.scope.values)
            if run:
                view.wrapper_scripts = (*view.wrapper_scripts, *run)
        if name in _CONFIGURED_PROGRAMS or view.wrapper:
            self._configured_programs(view, name, args, inner)
        if view.wrapper == "gdb" and inner < len(args):
            # `gdb -batch -x g.gdb --args prog`, `gdb -x g.gdb prog`: gdb runs its command files
            # and `-ex` commands whether or not they start the program: walked as gdb without it.
            at = next((k for k in range(inner) if basename(args[k].text) == "gdb"), None)
            if at is not None:
                options = args[at + 1 : inner]
                if any(a.opaque for a in options) and options[0].word is not None and options[-1].word is not None:
                    # (`gdb -x $(ls g.gdb) prog`: as spelled, so the walk expands it again)
                    line = "gdb " + text[options[0].word.start : options[-1].word.end]
                else:
                    line = _command_line("gdb", options)
                view.wrapper_scripts = (*view.wrapper_scripts, line)
        if name in NESTED_SHELLS and inner + 2 < len(args):
            # `bash --rcfile F`, `--init-file F`: an interactive bash sources F first (whether
            # it is interactive is not worked out: F is read as sourced).
            rc = [args[k + 1] for k in range(inner + 1, len(args) - 1) if args[k].text in ("--rcfile", "--init-file")]
            if rc:
                view.wrapper_scripts = (*view.wrapper_scripts,
                                        *("source '" + a.text.replace("'", "'\\''") + "'" for a in rc if not a.opaque))
        if inner < len(args) and (name in _BUILD_WRAPPERS or name in PROJECT_TOOLS and "/" in args[inner].text) \
                and not any(a.opaque for a in args[inner + 1 :]):
            # `./gradlew build`: the wrapper script is read as the script it is, and what it
            # hands its arguments to reads the project's build files as `gradle build` does;
            # `node_modules/.bin/eslint .`, `.venv/bin/nox`: the tool itself, run by its path.
            line = _command_line(_BUILD_WRAPPERS.get(name, name), args[inner + 1 :], quote_program=False)
            place = self.absolute(args[inner].text, view.cwd) if context.path_dirs else None
            if place is not None and place[:-1] in context.path_dirs:
                # (`. .venv/bin/activate && pip …`: the tool by its name is not looked up again
                # in the directory the line put first on PATH, which would run this path again)
                line = "PATH=$PATH " + line
            if name in ("pip", "pip3"):
                # (`.venv/bin/pip install x`: the venv's pip.conf goes with the line, which no
                # longer names the venv)
                from polydeukes.stdlib.shell import projectfiles

                site = projectfiles._pip_site_configuration(self, view)
                if site is not None:
                    line = projectfiles.SITE_CONFIGURATION + "=" + _argv_line([Arg(site, None, False, 1, None)]) + " " + line
            view.wrapper_scripts = (*view.wrapper_scripts, line)
        if context.path_followed != context.scope.path_assignments:
            if context.path_followed < 0:
                context.path_followed = context.scope.path_assignments  # (`_update` took it in)
            else:
                self._follow_path(view.cwd)
        if context.path_unknown and name and name not in BUILTINS and name not in _RESERVED \
                and inner < len(args) and "/" not in args[inner].text:
            view.path_unknown = True
        if (context.path_dirs or context.path_unknown or inner and any(a.text.startswith("PATH=") for a in args[:inner])) \
                and inner < len(args) and name and "/" not in args[inner].text and not args[inner].opaque \
                and name not in BUILTINS and name not in _RESERVED \
                and not any(a.opaque for a in args[inner + 1 :]) and self.disk is not None:
            # `PATH=bin:$PATH ls`, `export PATH=$PWD/bin:$PATH; git status`: a program of that
            # name in a directory the line put first on PATH is what runs.
            prefixed = [a for a in args[:inner] if a.text.startswith("PATH=")]
            directories = self._path_dirs(prefixed[-1].text[5:], view.cwd) if prefixed else context.path_dirs
            if prefixed and view.cwd is None and view.cwd_glob is None:
                # `cd "$D" && PATH=.:$PATH x.sh`: a relative PATH directory is below the unknown
                # one, so what runs is that relative program (which fails closed, scripts.py)
                relative = next((c or "." for c in prefixed[-1].text[5:].split(":")[:8]
                                 if c[:1] not in ("/", "~", "$")), None)
                if relative is not None:
                    view.wrapper_scripts = (*view.wrapper_scripts,
                                            _command_line(f"{relative}/{name}", args[inner + 1 :]))
            for directory in directories:
                kind = self.disk.kind([*directory, name])
                if isinstance(kind, str) and kind != "missing" or self._wrote_file((*directory, name)):
                    # (round 11: also a program the line itself put there, `cp /bin/rm bin/cat`)
                    binary = "/" + "/".join((*directory, name))
                    view.wrapper_scripts = (*view.wrapper_scripts, _command_line(binary, args[inner + 1 :]))
                    break
            else:
                if context.path_unknown and not prefixed:
                    # (round 11) PATH holds a directory the walk cannot name: a program of this
                    # name the line wrote anywhere may be what runs (`cp /bin/rm x/cat; read
                    # PATH; cat -rf *`)
                    planted = next((path for path in self.written() if path and path[-1] == name), None)
                    if planted is not None:
                        view.wrapper_scripts = (*view.wrapper_scripts, _command_line("/" + "/".join(planted),
                                                                                     args[inner + 1 :]))
        if name == "git" and cmd.flags & W_VAR and (unknown_global := _git_unknown_global(text, cmd, args, inner)):
            view.wrapper_scripts = (*view.wrapper_scripts, unknown_global)
        if name == "git" and self.disk is not None and (context.path_dirs or inner or "GIT_EXEC_PATH" in context.scope.values
                                                        or any(a.text.startswith("--exec-path=") for a in args[inner + 1 :])):
            program = self._git_external(view, args, inner)
            if program is not None:
                view.wrapper_scripts = (*view.wrapper_scripts, program)
        if inner < len(args) and name and "/" not in args[inner].text and not args[inner].opaque \
                and (view.wrapper in _NODE_BIN_RUNNERS or view.wrapper in _VENV_RUNNERS
                     or context.node_bin is not None and name not in BUILTINS and name not in _RESERVED) \
                and self.disk is not None:
            # `npx foo`, `npm exec foo`, a package.json script's `foo`: the package's
            # node_modules/.bin/foo (nearest first, up from the package's directory), a file
            # the agent can write, is what runs; `uv run foo`, `poetry run foo`: .venv/bin/foo.
            if view.wrapper in _VENV_RUNNERS:
                binary = self._node_binary(name, view.cwd, _VENV_BIN)
            else:
                binary = self._node_binary(name, view.cwd if view.wrapper in _NODE_BIN_RUNNERS else context.node_bin)
            if view.cwd is None and view.cwd_glob is None and (view.wrapper in _VENV_RUNNERS
                                                               or view.wrapper in _NODE_BIN_RUNNERS):
                # `cd "$D" && poetry run tool`: the tool of a project anywhere, as the relative
                # path it is found by (which fails closed, scripts.py)
                binary = "/".join((*(_VENV_BIN if view.wrapper in _VENV_RUNNERS else ("node_modules", ".bin")), name))
            if binary is not None and not any(a.opaque for a in args[inner + 1 :]):
                view.wrapper_scripts = (*view.wrapper_scripts, _command_line(binary, args[inner + 1 :]))
        if flowing is not None:
            view.stdin_listing = flowing
            if name in _NAMES_FROM_STDIN and _takes_names_from_stdin(name, [a.text for a in args[inner:]]):
                # (`git ls-files | zip -qm x.zip -@`: each listed path is one more operand)
                view.listed_argv = [*args, Arg("{}", None, False, ONE, args[-1].word)]
                view.listed = listers.within(flowing, (len(args),))
        if view.via_xargs:
            self._xargs(view, xargs_at)
        if context.listed and flags & W_VAR:
            self._listed_variables(view, text)
        if flags & W_SUBST and (inner < len(args) or view.wrapper == "gdb") \
                and (feeds_executor or not (model is not None and model.pure)):
            # (`gdb -batch -x $(ls g.gdb)`: gdb's own words; a reader's only where its output
            # reaches an executor, `sha1sum $(git ls-files) | xargs rm`)
            self._substituted_listings(view, text)
        if (name in _STDIN_PROGRAMS or view.wrapper == "gdb") \
                and (view.env.heredocs or cmd.redirects or view.group_input is not None):
            program = "gdb" if view.wrapper == "gdb" else name  # (`gdb -q --args prog <<EOF`: gdb's commands)
            if E.program_on_stdin(program, [a.text for a in args[inner + 1 :]]):
                view.stdin_program = program  # `ed -s <<EOF`, `cat x.ed | ed -s`, `awk -f - <<EOF`: its code
        if view.piped_code and not (name in NESTED_SHELLS or (model is not None and model.handler == "interpreter")
                                    or view.stdin_program or (xargs_at >= 0 and not view.via_xargs)):
            # `… | while read f; do …`, `… | source /dev/stdin`, `xargs` with operands it could
            # not read: the bodies are mentions nothing proves read-only (fail closed).
            view.piped_unread = view.piped_code
        if name == "sqlite3" and view.env.heredocs:
            # sqlite3's stdin (a heredoc, herestring or pipe) is SQL and dot-commands it runs:
            # a mention there fails closed (`.output ci/x`, `ATTACH 'ci/x'`), as in its operands
            view.piped_unread = view.env.heredocs
        if cmd.heredocs and model is None and (name or inner < len(args)) and not view.stdin_program \
                and name not in _STDIN_READ_ELSEWHERE:
            # A program no row models fed a heredoc (`mycli <<EOF`, `$P <<EOF`): what it does with the text
            # is not known; a mention there fails closed, as in its herestring or operands.
            view.piped_unread = (*view.piped_unread, *(h.body for h in cmd.heredocs))
        # Subshell group: a `(` opening the command saves the directory, a `)` closing it
        # restores it after the command.
        if opening[1]:
            context.groups.extend([context.cwd] * opening[1])
        if model is not None and inner + 1 < len(args) and (model.handler in ("git", "tar") or "=exec" in model.option_text) \
                and any(a.text[:1] == "-" or a.text[:5] == "ext::" or a.text == "config" for a in args[inner + 1 :]):
            view.runs_options = True  # (an option's value may be a command line: `_follow`)
        if flags & W_SUBST and inner + 1 < len(args) and (
                model is not None and model.handler == "interpreter" or name in _PROGRAM_FILE_OPTIONS):
            line = _substituted_program(args, inner, name in _PROGRAM_FILE_OPTIONS)
            if line is not None:
                view.wrapper_scripts = (*view.wrapper_scripts, line)
        if model is not None and (model.handler == "interpreter" or name in PROGRAM_FILE_READERS) \
                and (inner + 1 < len(args) or view.env.heredocs):
            view.code_runs = True  # (its code may hand a string to a shell: `_follow`)
        if view.wrapper_scripts or name in _RUNS_SCRIPTS or cmd.flags & W_SUBST or view.piped_code \
                or cmd.heredocs and _heredoc_runs(cmd) or view.runs_options or view.code_runs or view.stdin_program \
                or name in ("for", "select") and len(cmd.words) > 3 and cmd.words[2].text == "do":
            view.follow = True
        written_script = None
        if context.functions and inner < len(args) and not args[inner].opaque and args[inner].text in context.functions:
            self._function_call(view, args[inner].text, args[inner + 1 :])
        elif _NOT_FOUND_HANDLER in context.functions and inner < len(args) and model is None \
                and name not in BUILTINS and name not in NESTED_SHELLS:
            # a name no model knows may be no command at all: bash then calls the handler with
            # it and its arguments (`command_not_found_handle() { rm -rf "$1"; }; ci`)
            self._function_call(view, _NOT_FOUND_HANDLER, args[inner:])
        elif name == "deno" and inner + 1 < len(args) and args[inner + 1].text == "task":
            self._project_files(view)  # `deno task NAME`: deno.json's tasks, not a program file
        elif inner < len(args) and (name in _FILE_RUNNERS or (model is not None and model.handler == "interpreter")
                                    or "/" in args[inner].text or view.wrapper in _PYTHON_FILE_RUNNERS
                                    or name == "eval" and cmd.flags & W_SUBST or name in CODE_FILE_PROGRAMS
                                    or view.stdin_program and (cmd.redirects or view.group_input is not None)):
            if context.writers or context.written:
                written_script = self._runs_written_script(view)
            if written_script is None and view.runs_written is None and view.written_code is None:
                self._file_script(view)
        elif view.wrapper == "gdb" and inner >= len(args):  # `gdb -batch -x g.gdb`: its command files
            self._file_script(view)
        elif name == "git":
            self._git_runs(view)
        elif name in PROJECT_TOOLS and inner < len(args):
            self._project_files(view)
        return view, written_script

    def _function_call(self, view: View, name: str, arguments: Sequence[Arg]) -> None:
        """A call of a function the line defined: its body is walked again with `$1`…`$9`,
        `$@` and `$*` bound to the call's arguments, in the caller's shell (`f() { rm -rf
        "$1"; }; f .` removes the project; the body was walked once where it was defined,
        with the parameters unknown)."""
        from polydeukes.stdlib.shell.scripts import FileScript

        script = FileScript(f"function {name}", "the shell", True, False, arguments)
        script.text = self.context.functions[name]
        view.file_script = script
        view.follow = True

    def _follow(self, text: str, view: View, written_script: str | None) -> Iterator[Event]:
        """The scripts a command runs: substitutions in its words, a nested shell's script, a
        script the line wrote, alias values, `trap` actions, the commands `find -exec` runs."""
        context = self.context
        cmd = view.cmd
        args = view.args
        inner = view.inner
        name = view.name
        depth = view.depth
        fully_read = view.fully_read
        loop = name in ("for", "select")
        for word in cmd.words:
            if word.flags & W_SUBST:
                for inner_text in substitutions(text[word.start : word.end]):
                    self.printed = None
                    yield from self._substitution(inner_text, depth, fully_read)
                    if loop:  # `for f in $(git ls-files)`: `f` takes the paths it prints
                        printed = self.printed
                        view.loop_listing = None if printed is None else (*(view.loop_listing or ()), *printed)
        for r in cmd.redirects:
            if r.target.flags & W_SUBST:
                for inner_text in substitutions(text[r.target.start : r.target.end]):
                    yield from self._substitution(inner_text, depth, fully_read)
        if loop and len(cmd.words) > 3 and cmd.words[2].text == "do":
            # `for f do bash x.sh; done`: without `;`, `do` after `for NAME` still opens the
            # body, whose first command the tokenizer left among the loop's words
            words = cmd.words
            yield from self.nested(text[words[3].start : words[-1].end], depth, fully_read)
        for h in cmd.heredocs:
            if not h.literal:  # (an unquoted body's substitutions run when the heredoc is read)
                for inner_text in heredoc_substitutions(h.body):
                    yield from self.nested(inner_text, depth, fully_read)
        if name in NESTED_SHELLS and view.listed and (code := _command_code(view.listed_argv or args, inner)) \
                is not None and any(k >= code for extra in view.listed for k in extra.source):
            # `ls x.sh | xargs sh -c 'bash "$0"'`: the listed paths are the code's parameters
            yield from self._listed_command_mode(view, code, view.listed_argv or args, view.listed)
        elif name in NESTED_SHELLS and not view.via_xargs:
            sources, _known = shell_script_sources(args[inner:], cmd)
            called = command_mode_operands(args[inner:]) if sources and name != "eval" else None
            if called is not None:
                yield from self._command_mode(view, sources[0], called)
                sources = sources[1:]
            for source in sources + list(view.piped_code):
                yield from self.nested(source, depth, fully_read)
            if "HISTFILE" in context.scope.values and name != "eval" and _interactive(args[inner + 1 :]):
                # `bash -i` writes its history to $HISTFILE when it exits
                yield from self.nested("history -a", depth, fully_read)
        elif name in _SCHEDULERS and _scheduled_file(args[inner:]) is None:
            for source in [*_stdin_bodies(cmd), *view.piped_code]:  # `at now <<EOF`: the job
                yield from self.nested(_job_text(name, source), depth, fully_read)
        elif name == "alias":
            for a in args[inner + 1 :]:
                alias_name, eq, value = a.text.partition("=")
                if eq and not a.opaque:
                    context.redefined[alias_name] = "alias"
                    yield from self.nested(value, depth, fully_read)
        elif name == "trap":
            k = inner + 1 + (inner + 1 < len(args) and args[inner + 1].text == "--")  # (round 10: `trap -- 'cmd' RETURN`)
            if k < len(args) and not args[k].opaque and not args[k].text.startswith("-"):
                yield from self.nested(args[k].text, depth, fully_read)
        elif name in ("mapfile", "readarray"):
            for k in range(inner + 1, len(args)):
                t = args[k].text
                if t == "--":
                    break
                callback = args[k + 1] if t == "-C" and k + 1 < len(args) else (
                    Arg(t[2:], None, args[k].opaque, ONE, args[k].word) if t.startswith("-C") and len(t) > 2 else None)
                if callback is not None and not callback.opaque:  # (of unknown value: as `trap "$X"`)
                    yield from self.nested(callback.text, depth, fully_read)
        elif name == "find":
            found = view.effects
            for extra in found.extra if found is not None else ():
                if extra.kind == "command":
                    yield from self._synthetic(view, extra.argv, depth, extra)
        elif name in _FD:
            # `fd -e sh -x sed -i …`: its exec commands, as find's (readers.fd_commands)
            from polydeukes.stdlib.shell.readers import fd_commands  # only fd loads it

            for extra in fd_commands(args[inner + 1 :]):
                yield from self._synthetic(view, extra.argv, depth, extra)
        if name == "sqlite3":
            # sqlite3's `.shell CMD` and `.system CMD`, in its stdin, `-cmd`, SQL operands and
            # the files it reads (`-init`, `.read`, `< q.sql`): CMD is a command line it runs
            script = view.file_script
            texts = [*view.env.heredocs, *(a.text for a in args[inner + 1 :] if not a.opaque)]
            if script is not None and script.text is not None:
                texts.append(script.text)
            for code in texts:
                for line in sqlite_command_lines(code):
                    yield from self.nested(line, depth, fully_read)
        if view.code_runs or view.stdin_program:
            # A program's code that hands a string to a shell (`os.system("rm -rf c?")`, awk's
            # `system("…")`, an editor's `!cmd`): the string is walked as a command line
            # (imports.shell_strings, `_EDITOR_SHELL`).
            from polydeukes.stdlib.shell.imports import (  # only code loads it
                argv_lines,
                compile_lines,
                evaluated_code,
                list_lines,
                shell_strings,
                split_lines,
            )

            found = view.effects
            codes = [it.text for it in found.items if it.role == E.CODE] if found is not None else []
            script = view.file_script
            if script is not None and not script.shell and script.text is not None:
                codes.append(script.text)
            if view.stdin_program:
                codes.extend(view.env.heredocs)  # (`awk -f - <<EOF`, `ed -s <<EOF`)
            elif view.env.heredocs and view.model is not None and view.model.handler == "interpreter" \
                    and _reads_stdin_as_program(view.cmd):
                # (round 11) an interpreter's program on stdin: `python3 <<EOF`, `echo '…' |
                # python3 -`, `cat x.py | perl` (the text the stages before print, `upstream`)
                codes.extend(view.env.heredocs)
            editor = E.STDIN_PROGRAMS.get(view.stdin_program, ()) is None
            codes.extend(nested for code in codes[:8] for nested in evaluated_code(code))  # (`exec("…")`)
            for code in codes:
                lines = shell_strings(code)
                lines.extend(argv_lines(code))
                lines.extend(compile_lines(code))
                lines.extend(split_lines(code))
                lines.extend(line for program, line in list_lines(code) if basename(program) in _ARGUMENT_COMMANDS)
                if editor:
                    lines.extend(m.group(1) for m in _EDITOR_SHELL().finditer(code))
                lines = [line for line in lines[:64] if tokenized(line).fully_read]  # (`exec("print(1)")`: Python)
                if lines and _CODE_CHANGES_DIRECTORY().search(code) is not None:
                    # (round 11) `os.chdir("..")`, `cwd=`, `process.chdir`, `Dir.chdir`: where the
                    # code's command lines run is not followed; they are walked as run in a
                    # directory of unknown place
                    context = self.context
                    saved = (context.cwd, list(context.stack), context.oldpwd, context.cwd_glob, context.cwd_uncertain)
                    context.cwd = context.cwd_glob = None
                    for line in lines:
                        yield from self.nested(line, depth, fully_read)
                    context.cwd, context.stack, context.oldpwd, context.cwd_glob, context.cwd_uncertain = saved
                    continue
                for line in lines:
                    yield from self.nested(line, depth, fully_read)
            if name in _AWK_NAMES and codes and "BEGIN" in codes[0]:
                from polydeukes.stdlib.shell.readers import awk_assignments, awk_begin_commands

                # `awk -v x='make all' 'BEGIN{system(x)}'`: the command lines its `-v` values make
                values = awk_assignments(args[inner + 1 :])
                for line in (awk_begin_commands(codes[0], values) or ()) if values else ():
                    yield from self.nested(line, depth, fully_read)
        if view.runs_options:
            # An option whose value is a program the command runs through a shell (`git fetch
            # --upload-pack='…'`, `git filter-branch --tree-filter '…'`, `tar --to-command`,
            # `split --filter`, `rsync -e`): the value is walked as a command line; git's
            # `ext::CMD` transport runs CMD (`% ` a blank, `%%` a percent sign).
            found = view.effects
            for it in found.items if found is not None else ():
                if it.role == E.EXEC and not args[it.index].opaque and (
                        args[it.index].text[:1] == "-" or it.index and args[it.index - 1].text[:1] == "-"):
                    yield from self.nested(it.text, depth, fully_read)  # (an option's value only)
            for a in args[inner + 1 :]:
                if a.text.startswith("--checkpoint-action=exec=") and not a.opaque:  # (tar)
                    yield from self.nested(a.text[len("--checkpoint-action=exec="):], depth, fully_read)
            if name == "git":
                from polydeukes.stdlib.shell import gitruns  # only a git command loads it

                for line in gitruns.configured_lines(self, view):  # `git config alias.z '!…'`
                    yield from self.nested(line, depth, fully_read)
                for line in gitruns.path_programs(self, view):  # `git grep -Orm x` (round 2)
                    yield from self.nested(line, depth, fully_read)
                for a in args[inner + 1 :]:
                    if a.text.startswith("ext::") and not a.opaque:
                        yield from self.nested(a.text[5:].replace("%%", "\0").replace("% ", " ")
                                               .replace("\0", "%"), depth, fully_read)
        if name in PROGRAM_FILE_READERS:
            found = view.effects  # (sed's `e CMD` and `s/…/CMD/e`: command lines it runs)
            for extra in found.extra if found is not None else ():
                if extra.kind == "shell":
                    yield from self.nested(extra.argv[0], depth, fully_read)
            if name in _SED_AWK_NAMES and (view.file_script is not None or view.env.heredocs):
                from polydeukes.stdlib.shell import scripts  # loaded by `_file_script`

                # (round 11) `sed -f x.sed f` with an `e` in x.sed, `awk -f x.awk f` with
                # `{system($0)}`: the command with the files' text spelled on the line
                line = scripts.inline_program_line(self, view)
                if line is not None:
                    yield from self.nested(line, depth, fully_read)
        for source in view.wrapper_scripts:
            yield from self.nested(source, depth, fully_read)
        if written_script is not None:
            yield from self.nested(written_script, depth, fully_read)
        if view.file_script is not None:
            from polydeukes.stdlib.shell import scripts  # loaded by `_file_script`

            yield from scripts.walk_script(self, view)

    def _command_mode(self, view: View, code: str, operands: Sequence[Arg]) -> Iterator[Event]:
        """`sh -c CODE NAME ARG…`: the code is walked with `$0` bound to NAME (the shell's name
        without one) and `$1`…, `$@`, `$*` to the ARGs (`bash -c 'bash "$0"' x.sh` runs x.sh),
        in a scope of its own: it runs in a child shell."""
        from polydeukes.stdlib.shell.scripts import bind_positional

        context = self.context
        caller = context.scope
        context.scope = scope = caller.copy()
        bind_positional(scope.values, operands[1:])
        if not operands:
            scope.values["0"] = (Value(view.name),)
        else:
            scope.values["0"] = None if operands[0].opaque else (Value(operands[0].text, operands[0].pattern),)
        try:
            yield from self.nested(code, view.depth, view.fully_read)
        finally:
            context.scope = caller

    def _listed_command_mode(self, view: View, code: int, argv: Sequence[Arg], listing: Sequence[E.Extra]) -> Iterator[Event]:
        """`sh -c CODE NAME ARG…` with a lister's paths among NAME and ARGs (`find -exec … {}`,
        what xargs appends, a loop's variable; the indexes the listing's `source` names): the
        code is walked as `_command_mode` walks it, each parameter so filled bound to the
        listing (`context.listed`, read by `_listed_variables`); a `{}` inside the code itself
        (find and `xargs -I{}` put the path into the text) stands for the same listing."""
        context = self.context
        listing = tuple(listing)
        filled = {k for extra in listing for k in extra.source}
        text = argv[code].text
        listed_names = [str(k - code - 1) for k in filled if code < k <= code + 10]
        word = argv[code].word
        marker = view.replace_string
        if code in filled and word is not None and not word.opaque and marker and marker in word.text:
            text = word.text.replace(marker, '"$_pdks_found"')
            listed_names.append("_pdks_found")
        if any(k > code + 1 for k in filled):
            listed_names.extend(("@", "*"))
        operands = [Arg("{}", None, True, a.count, a.word) if k + code + 1 in filled else a
                    for k, a in enumerate(argv[code + 1 :])]
        saved = dict(context.listed)
        for name in listed_names:
            context.listed[name] = listing
        try:
            yield from self._command_mode(view, text, operands)
        finally:
            context.listed.clear()
            context.listed.update(saved)

    def _synthetic(self, parent: View, argv: tuple[Arg, ...], depth: int,
                   find_exec: E.Extra | None = None) -> Iterator[Event]:
        """A command another command runs with arguments it builds (`find … -exec cmd {} ;`)."""
        at = _unwrap(list(argv))[0]
        if at + 1 < len(argv) and argv[at].opaque and argv[at].count == ANY:
            # (round 9) `find … -exec $O bash {} \;`: the word may be no word at all, and the
            # next one is then the command: walked without it too (`{}`'s places shift by one)
            import msgspec  # (loaded already: the tokens are its structs)

            shifted = None if find_exec is None else msgspec.structs.replace(
                find_exec, source=tuple(k - (k > at) for k in find_exec.source if k != at))
            yield from self._synthetic(parent, (*argv[:at], *argv[at + 1 :]), depth, shifted)
        view = View()
        if find_exec is not None:
            view.listed = (find_exec,)
        view.cmd = parent.cmd
        view.words = parent.words
        view.depth = depth
        view.fully_read = parent.fully_read
        view.synthetic = True
        view.source = parent.source
        view.moves_directory = parent.moves_directory
        view.glob = parent.glob
        view.cwd = parent.cwd
        view.args = list(argv)
        inner, view.via_xargs, _, _ = _unwrap(view.args)
        view.inner = inner
        view.name = basename(argv[inner].text) if inner < len(argv) and not argv[inner].opaque else ""
        view.model = E.model_for(view.name) if view.name else None
        view.redefined = self.context.redefined.get(view.name)
        if find_exec is not None and view.name in NESTED_SHELLS and not view.redefined:
            from polydeukes.stdlib.shell import scripts  # only `find -exec SHELL` loads it

            # `find tests -name '*.sh' -exec bash {} \;`: every file found is a script it runs,
            # read as `ls *.sh | xargs -n1 bash` reads them
            script = scripts.found_script(view, find_exec)
            if script is not None:
                view.file_script = scripts.read(self, view, script)
        yield view
        if view.file_script is not None:
            from polydeukes.stdlib.shell import scripts  # (loaded above)

            yield from scripts.walk_script(self, view)
        elif inner < len(argv) and not any(a.opaque or "{}" in a.text for a in argv) and (
                "/" in argv[inner].text or view.model is not None and view.model.handler == "interpreter"
                or view.name in NESTED_SHELLS and inner + 1 < len(argv) and argv[inner + 1].text[:1] != "-"):
            # `find … -exec sh s.sh \;`, `-exec ./s.sh \;`, `-exec python3 x.py \;`: the same
            # command on every path, a script file it runs read as the line's own would be
            yield from self.nested(" ".join("'" + a.text.replace("'", "'\\''") + "'" for a in argv[inner:]),
                                   depth, parent.fully_read)
        elif view.name in NESTED_SHELLS and find_exec is not None and (code := _command_code(argv, inner)) is not None:
            # `find … -exec bash -c 'bash "$0"' {} \;`: `$0`, `$1`… and `"$@"` of the code that
            # `{}` fills take every path find lists, as a loop's variable over a listing does
            yield from self._listed_command_mode(view, code, argv, (find_exec,))
        elif view.name in NESTED_SHELLS:
            sources, _ = shell_script_sources(view.args[inner:], SimpleCommand((), (), (), ""))
            for source in sources:
                yield from self.nested(source, depth, parent.fully_read)

    def _print_values(self, text: str, cmd: SimpleCommand, view: View) -> bool:
        """Give each substitution that prints a file (`$(cat F)`, `$(< F)`: `expansion.
        file_prints`) in the command's words and redirect targets the text of F, read within
        bounds where the command runs, as the value of its spelling in the scope (the
        expansion then reads it like a variable's). False when it has none. F written earlier
        on the line: the content the line gave it, when computed, else unknown and noted in
        `view.prints_written` (code of unknown content, if a shell runs it); where F is is
        unknown: unknown; F missing: empty (cat fails, prints nothing); F past the bound or
        unreadable: unknown, and noted in `view.print_refused` (the judge fails closed)."""
        words = [w for w in cmd.words if w.flags & W_SUBST]
        words.extend(r.target for r in cmd.redirects if r.target.flags & W_SUBST)
        values = self.context.scope.values
        found = False
        for w in words:
            spelled_word = text[w.start : w.end]
            if ("pwd" in spelled_word or "real" in spelled_word or "readl" in spelled_word or "dirs" in spelled_word
                    or "toplevel" in spelled_word) and prints_directory(spelled_word):
                found = True  # `$(pwd)`: the working directory, as `$PWD` (`Scope.directories`)
            for spelling, spelled in file_prints(text[w.start : w.end]):
                found = True
                values.pop(spelling, None)
                if self.names_entry is not None and self.names_entry(spelling, self.context.cwd):
                    continue  # `$(cat ci/gate.sh)`: a protected path inside an opaque token (§8.5 (c))
                if spelled is None:  # `$(echo a b)`, `$(printf '%s/%s' a b)`: its own words
                    printed = _words_printed(printed_words(spelling), True)
                    if printed is not None:
                        # (a glob among the words prints whatever it matches: the value is then
                        # a pattern, as a loop's value over a glob is, split at its blanks)
                        values[spelling] = (Value(printed[0].rstrip("\n"), printed[1]),)
                    continue
                path = self.absolute(spelled, self.context.cwd)
                if path is None and self.context.cwd is None and self.context.cwd_glob is None \
                        and spelled[:1] not in ("/", "~", "$"):
                    view.print_refused = (spelled, UNKNOWN_DIRECTORY, True)  # (`cd "$D"`: code if a shell runs it)
                    continue
                if path is None or self.disk is None:
                    continue  # unknown where
                written = self.written()
                if path in written:
                    if written[path] is None:
                        view.prints_written = spelled
                    else:
                        values[spelling] = (Value(written[path].rstrip("\n")),)
                    continue
                from polydeukes.stdlib.shell.disk import PRINT_BYTES, Missing, Refused  # loaded by `self.disk`

                content = self.disk.read_text("/" + "/".join(path), PRINT_BYTES)
                if isinstance(content, Refused):
                    view.print_refused = (spelled, content.reason, False)
                    continue
                # (bash drops the trailing newlines of a substitution's output)
                values[spelling] = (Value("" if isinstance(content, Missing) else content.rstrip("\n")),)
        return found

    def _expand(self, text: str, words: Sequence[Word], flags: int = -1) -> list[Arg]:
        if not flags & (W_GLOB | W_BRACE | W_VAR | W_PRINTS):
            # Nothing to expand (an assignment prefix reads the same as any plain word).
            return [Arg(w.text, None, w.opaque, ANY if w.opaque else ONE, w) for w in words]
        out: list[Arg] = []
        scope = self.context.scope
        noglob = self.context.glob.noglob
        prefix = True
        for w in words:
            if prefix and is_assignment(w.text):
                if not w.opaque:
                    out.append(Arg(w.text, None, False, ONE, w))  # an assignment is not expanded
                    continue
                # Bash neither splits nor globs an assignment: with one known value it is one
                # word (`x=$(cat s.sh)`); otherwise expanded as any word (as before).
                name, _, raw_value = text[w.start : w.end].partition("=")
                values = word_values(w, raw_value, scope) if flags & W_PRINTS else None
                if values is not None and len(values) == 1:
                    out.append(Arg(name + "=" + values[0].text, None, False, ONE, w))
                    continue
            prefix = False
            if flags & W_PRINTS and w.flags & W_SUBST:
                # A file's text stands in for `$(cat F)`: expanded as a variable's value is.
                w = Word(w.text, w.opaque, w.start, w.end, w.flags | W_VAR)
            if not w.flags & (W_GLOB | W_BRACE | W_VAR):
                out.append(Arg(w.text, None, w.opaque, ANY if w.opaque else ONE, w))
                continue
            expanded = expand_word(w, text[w.start : w.end], scope)
            if noglob:
                expanded = [Arg(a.text, None, a.opaque, a.count if a.count != MANY else ONE, a.word)
                            if a.pattern is not None and a.pattern != "*" else a for a in expanded]
            out.extend(expanded)
        return out

    def _inputs(self, text: str, cmd: SimpleCommand, view: View, args: list[Arg],
                opening: tuple[int, int]) -> list[Arg]:
        """Where the command's input comes from (inputs.py): its reading redirects by fd (their
        fd-number words dropped from `args`), a group's around it, `exec`'s earlier; and
        `args` without the parentheses of a subshell around its words (`(bash x.sh)`, `( bash
        x.sh )`; `opening` from `inputs.subshell_opening`)."""
        from polydeukes.stdlib.shell import inputs

        context = self.context
        if cmd.redirects:
            view.inputs, numbers = inputs.input_fds(text, cmd)
            if numbers:
                args = inputs.without_numbers(args, numbers)
        if self._group_inputs:
            view.group_input = self._group_inputs.get(id(cmd))
        if context.fds:
            view.opened_fds = dict(context.fds)
        words = cmd.words
        if words:
            closes = (opening[1] or bool(context.groups)) and (words[-1].text.endswith(")")
                                                               or words[-1].text in AFTER_SUBSHELL)
            if opening[1] or closes:
                args = inputs.ungrouped(args, opening, closes)
        return args

    def _env(self, cmd: SimpleCommand, piped: bool) -> E.Env:
        if not cmd.heredocs:
            for r in cmd.redirects:
                if r.operator == "<<<" or r.operator == "<" or r.operator == "<>":
                    break
            else:  # no stdin source but the pipe (most redirects write)
                return _PIPED_ENV if piped else _NO_ENV
        bodies = [h.body for h in cmd.heredocs]
        bodies.extend(r.target.text + "\n" for r in cmd.redirects if r.operator == "<<<")
        stdin_file = next((r.target.text for r in cmd.redirects if r.operator in ("<", "<>") and not r.target.opaque),
                          None)
        return E.Env(tuple(bodies), stdin_file, piped)

    # -- xargs ------------------------------------------------------------------------------

    def _xargs(self, view: View, xargs_at: int) -> None:
        """Give `xargs CMD` the operands it reads, when they come from a file or a heredoc."""
        args = view.args
        source: str | None = None
        from_file: str | None = None
        delimiter: str | None = None
        replace: str | None = None
        grouped = False
        k = xargs_at + 1
        if basename(args[xargs_at].text) == "parallel":
            groups = [j for j in range(view.inner, len(args)) if args[j].text in _PARALLEL_GROUPS]
            command = args[view.inner : groups[0] if groups else len(args)]
            if len(groups) > 1 or groups and groups[0] + 2 != len(args):
                view.items_refused = "it combines them with other arguments"
                return
            if any(not a.opaque and _PARALLEL_REPLACEMENTS().search(a.text) for a in command):
                view.items_refused = "its replacement strings are not read"
                return
            if any(not a.opaque and _PARALLEL_SHELL_WORD().search(a.text) for a in command):
                view.items_refused = "its command line is run by a shell"
                return
            if any("{}" in a.text for a in command):
                replace = "{}"  # (parallel's own replacement string; without one, appended)
            if groups:
                # `parallel CMD :::: FILE`: xargs's `-a FILE`
                from_file = args[groups[0] + 1].text if not args[groups[0] + 1].opaque else None
                view.args = args = args[: groups[0]]
                if from_file is None:
                    view.items_refused = "its name is not known"
                    return
        while k < view.inner:
            t = args[k].text
            if t in ("-a", "--arg-file") and k + 1 < view.inner:
                from_file = args[k + 1].text
                k += 1
            elif t.startswith("--arg-file="):
                from_file = t.split("=", 1)[1]
            elif t.startswith("-a") and len(t) > 2:
                from_file = t[2:]
            elif t in ("-0", "--null"):
                delimiter = "\0"
            elif t in ("-d", "--delimiter") and k + 1 < view.inner:
                delimiter = _unescape(args[k + 1].text)
                k += 1
            elif t.startswith("-d") and len(t) > 2:
                delimiter = _unescape(t[2:])
            elif t in ("-I", "--replace") and k + 1 < view.inner:
                replace = args[k + 1].text
                k += 1
            elif t.startswith("-I") and len(t) > 2:
                replace = t[2:]
            elif t.startswith("-i") or t.startswith("--replace="):
                replace = t.split("=", 1)[1] if "=" in t else (t[2:] or "{}")
            elif t[:2] in ("-n", "-L", "-l") or t.startswith(("--max-args", "--max-lines")):
                grouped = True  # (one command per group of operands: each may be the script)
                k += t in ("-n", "-L", "--max-args", "--max-lines")
            k += 1
        if from_file is None:
            # `xargs rm <<< "$(git ls-files)"` (round 10: its items were the words `$(git` and
            # `ls-files)`), `exec < <(git ls-files); xargs rm`
            listed = next((script for r in view.cmd.redirects if (script := _listing_script(r)) is not None), None)
            if listed is None and (view.group_input is not None or self._exec_substitutions):
                from polydeukes.stdlib.shell import inputs

                listed = inputs.substitution_on("0", view.inputs, view.group_input, self._exec_substitutions)
            if listed is not None:
                from_file = "<(" + listed + ")"
        if from_file is None:
            bodies = view.env.heredocs
            if len(bodies) == 1 and view.env.stdin_file is None:
                source = bodies[0]
            elif view.env.stdin_file is not None and not bodies:
                from_file = view.env.stdin_file
            elif not bodies:
                from_file = next((r.target.text for r in view.cmd.redirects
                                  if r.operator == "<" and r.target.text.startswith("<(")), None)
        if from_file is not None and from_file.startswith("<(") and from_file.endswith(")"):
            # `xargs rm < <(git ls-files)`, `xargs -a <(find …) rm`: what the script prints
            view.stdin_listing = self._printed_by(from_file[2:-1], view.depth)
            rewriter = _data_rewriter(from_file[2:-1])
            if rewriter is not None and _reads_stdin_as_program(view.cmd):
                view.rewritten_operands = rewriter  # `xargs rm < <(rev list)`: made operands
            from_file = None
        if from_file is not None:
            path = self.absolute(from_file, view.cwd)
            if path is None or self.disk is None:
                return  # unknowable: operands arrive at run time
            written = self.written()
            if path in written:
                # `echo ci > l; xargs -a l rm`: the content the line gave it, if computed
                source = written[path]
                if source is None:
                    view.items_written = from_file
                    return
            else:
                found = self.disk.read_text("/" + "/".join(path))
                from polydeukes.stdlib.shell.disk import Missing, Refused  # loaded by `self.disk`

                if isinstance(found, Missing):
                    return  # xargs fails: nothing runs
                if isinstance(found, Refused):
                    view.items_refused = found.reason
                    return
                source = found
        if source is None:
            if view.stdin_listing is not None and view.inner < len(args):
                # `lister | xargs cmd`: cmd gets the listed paths, appended or for `-I` words.
                if replace is not None:
                    view.replace_string = replace
                    view.listed = listers.within(view.stdin_listing, tuple(
                        k for k in range(view.inner + 1, len(args)) if replace in args[k].text))
                else:
                    view.listed_argv = [*args, Arg("{}", None, False, ONE, args[-1].word)]
                    view.listed = listers.within(view.stdin_listing, (len(args),))
            return
        items = _xargs_items(source, delimiter)
        if items is None:
            view.items_refused = "too many operands to read"
            return
        if grouped and replace is None and len(items) > 1 and view.inner + 1 == len(args):
            # `xargs -n1 bash <<< "y.sh x.sh"`: each operand may be the script run: a listing
            view.listed_argv = [*args, Arg("{}", None, False, ONE, args[-1].word)]
            view.listed = listers.within(tuple(listers.printed_word(item, False, "xargs") for item in items),
                                         (len(args),))
            view.via_xargs = False
            return
        word = args[view.inner].word if view.inner < len(args) else args[-1].word
        extra = [Arg(item, None, False, ONE, word) for item in items]
        inner_args = args[view.inner :]
        if replace is not None:
            rebuilt: list[Arg] = []
            for a in inner_args:
                if replace in a.text:
                    rebuilt.extend(Arg(a.text.replace(replace, item.text), None, a.opaque, a.count, a.word)
                                   for item in extra)
                else:
                    rebuilt.append(a)
            view.args = args[: view.inner] + rebuilt
        else:
            view.args = args + extra
        view.via_xargs = False  # the operands are known now

    def _substituted_listings(self, view: View, text: str) -> None:
        """Arguments a substitution fills with the paths a lister prints (`rm $(git
        ls-files)`, `sed -i … `find …``)."""
        found: list = []
        for k in range(view.inner + 1 if view.inner < len(view.args) else 1, len(view.args)):
            word = view.args[k].word
            raw = text[word.start : word.end]
            if not word.flags & W_SUBST or raw.startswith(("<(", ">(")):
                continue  # (a process substitution is a file name, not the paths)
            for source in substitutions(raw):
                printed = self._printed_by(source, view.depth)
                if printed:
                    found.extend(listers.within(printed, (k,)))
        if found:
            view.listed = (*view.listed, *found)

    def _done_listing(self, done: SimpleCommand, depth: int) -> tuple | None:
        """What a loop reads when its `done` takes it from a substitution that lists paths
        (`done < <(git ls-files)`, `done <<< "$(git ls-files)"`)."""
        for r in done.redirects:
            script = _listing_script(r)
            if script is not None:
                return self._printed_by(script, depth, True)
        return None

    def _reader_listing(self, view: View, depth: int) -> tuple | None:
        """What `read`/`mapfile` reads, when its descriptor (`-u N`, else 0) was opened on a
        process substitution that lists paths: by its own redirects (`read f <&3`), a group's
        around it, or `exec` earlier on the line."""
        from polydeukes.stdlib.shell import inputs

        args = view.args
        fd = "0"
        for k in range(view.inner + 1, len(args)):
            t = args[k].text
            if t == "-u" and k + 1 < len(args):
                fd = args[k + 1].text
                if args[k + 1].opaque and (m := _COPROC_OUTPUT().fullmatch(fd)) is not None:
                    fd = m.group(1) or m.group(2)  # (`-u "${COPROC[0]}"`: the coprocess's output)
                break
            if t[:2] == "-u" and t[2:].isdigit():
                fd = t[2:]
                break
        script = inputs.substitution_on(fd, view.inputs, view.group_input, self._exec_substitutions)
        return self._printed_by(script, depth, True) if script is not None else None

    def _printed_by(self, source: str, depth: int, printers: bool = False) -> tuple | None:
        """What a substitution's script prints when it lists paths, read ahead of the command
        that takes it (its commands are walked and judged after that command, as any
        substitution's). It runs in a subshell: what it assigns or `cd`s stays there.
        `printers`: an `echo`/`printf` of globs prints their matches (`read x < <(echo c?/*)`;
        a word or value it fills is the pattern, `_print_values`)."""
        if printers and source[:1] in "ep" and (words := printed_words("$(" + source + ")")) is not None:
            printed = _words_printed(words, True)
            if printed is None or printed[1] is None:
                return None
            rule = words.split(None, 1)[0]
            return tuple(E.Extra("list", path=part, pattern=part, rule=rule)
                         for part in printed[1].split() if part)
        if depth + 1 >= MAX_NESTING or not any(
                type(cmd) is SimpleCommand and cmd.words and (basename(cmd.words[0].text) in listers.LISTERS
                                                              or cmd.flags & W_SUBST and cmd.words[0].text == "echo")
                for cmd in tokenized(source).commands):
            return None
        walk = Walk(source, root=self.root, home=None, disk=self.disk)
        walk.home_segs = self.home_segs
        context = walk.context
        context.cwd = self.context.cwd
        context.glob = self.context.glob
        context.scope = self.context.scope.copy()
        for _event in walk._script(source, tokenized(source), depth + 1, True):
            pass
        return walk.printed

    def _printed_listing(self, view: View, text: str) -> tuple | None:
        """The files `echo WORDS` or `printf FORMAT WORDS` (plain text, `%s`, `\\n`, `\\t`)
        names when its output is taken as paths (by xargs, or by a substitution a command takes
        as operands): each literal word, split as xargs splits it (a pattern is matched on disk
        as the shell would), and each path a lister prints in a word that is one substitution
        (`echo $(ls x.sh)`). None when a word is of other unknown value, or for another
        format: the rules for text of unknown value apply."""
        args = view.args[view.inner + 1 :]
        rule = view.name
        if rule == "printf":
            printed = _printf_text([a.text for a in args]) if not any(a.opaque for a in args) else None
            if printed is None:
                return None
            globbed = view.cmd.flags & W_GLOB
            return tuple(listers.printed_word(item, globbed, rule) for item in _xargs_items(printed, None) or ())
        while args and args[0].text in _ECHO_OPTIONS:
            if "e" in args[0].text and any("\\" in a.text for a in args[1:]):
                return None  # escapes this layer does not decode
            args = args[1:]
        out: list = []
        for a in args:
            if a.pattern is not None and not a.opaque:
                out.append(E.Extra("list", path=a.text, pattern=a.pattern, rule=rule))
                continue
            if not a.opaque:
                out.extend(listers.printed_word(item, False, rule) for item in _xargs_items(a.text, None) or ())
                continue
            raw = text[a.word.start : a.word.end] if a.word is not None else ""
            inner = substitutions(raw)
            if len(inner) != 1 or raw.strip('"') not in ("$(" + inner[0] + ")", "`" + inner[0] + "`"):
                return None
            printed = self._printed_by(inner[0], view.depth)
            if not printed:
                return None
            out.extend(printed)
        return tuple(out) or None

    def _listed_in(self, raw: str, name: str = "", before: tuple | None = None) -> list:
        """The paths the listed names that `raw` (a word as spelled) expands hold; `name` held
        `before` until the assignment being read (`a="$a $f"`)."""
        listed = self.context.listed
        found: list = []
        for m in _VARIABLE_REFERENCE().finditer(raw):
            held = before if m.group(1) == name and before is not None else listed.get(m.group(1))
            if held:
                found.extend(held)
        return found

    def _listed_variables(self, view: View, text: str) -> None:
        """Arguments that expand a loop variable taking a lister's paths (`rm "$f"`)."""
        listed = self.context.listed
        by_name: dict[str, list[int]] = {}
        # (from the command word on: `x=(rm "$f"); "${x[@]}"` runs a listed word, round 10;
        # not the rest of an array assignment taken for a command, `a=("${a[@]}" "$f")`)
        start = view.inner
        if any("=(" in a.text for a in view.args[:start]):
            start += 1
        for k in range(start, len(view.args)):
            word = view.args[k].word
            if word.flags & W_VAR:
                for m in _VARIABLE_REFERENCE().finditer(text, word.start, word.end):
                    if m.group(1) in listed:
                        by_name.setdefault(m.group(1), []).append(k)
        if by_name:
            view.listed = tuple(extra for var, indexes in by_name.items()
                                for extra in listers.within(listed[var], tuple(indexes)))
        # A write redirect's target of such a variable (`while read f; do : > "$f"; done`)
        # truncates each listed path (round 10: it passed as a target of unknown value)
        targets = [extra for r in view.cmd.redirects if r.target.flags & W_VAR and is_write_redirect(r)
                   for extra in self._listed_in(text[r.target.start : r.target.end])]
        if targets:
            view.listed_targets = tuple(targets)

    # -- state updates ----------------------------------------------------------------------

    def _update(self, view: View) -> None:
        context = self.context
        args = view.args
        inner = view.inner
        name = view.name
        # A command of assignments only sets shell variables; the assignments prefixing a
        # command only set its environment (the shell's own variables keep their values).
        first = 0
        while first < inner and args[first].text in _RESERVED:
            first += 1  # (`do a=(x y)`: round 10, the array in a loop's body was not followed)
        if inner >= len(args) or first < len(args) and "=(" in args[first].text and is_assignment(args[first].text):
            # (`a=(x y)` reads as the assignment `a=(x` prefixing a command `y)`: §8.7 #42
            # judges it so, a mention in it breaks; the walk still follows the array.)
            self._assign_all(args, first, view.source)
        if view.targets or (name and name in _WRITER_NAMES):
            context.writers.append(view)  # its writes are worked out when a script runs
            if MAKES_REPOSITORY not in self.file_scripts and _may_make_repository(view):
                self.file_scripts[MAKES_REPOSITORY] = True
        words = view.cmd.words
        if words and (name == "let" or words[0].text.startswith("((")
                      or view.cmd.flags & W_VAR and "((" in view.source[words[0].start : words[-1].end]):
            self._arithmetic(view)
        if inner < len(args) and args[inner].text.endswith("()") and _FUNCTION_DEFINITION().fullmatch(args[inner].text):
            context.redefined[args[inner].text[:-2]] = "function"
        if inner < len(args) and args[inner].text.startswith("BASH_CMDS[") and "]=" in args[inner].text:
            # (round 11) `BASH_CMDS[cat]=bin/cat` is `hash -p bin/cat cat` (an element
            # assignment, which the walk otherwise reads as a command word); a key of unknown
            # value may be any name
            key = args[inner].text[len("BASH_CMDS[") :].partition("]")[0].strip("'\"")
            if args[inner].opaque or not _NAME().fullmatch(key):
                context.scope.path_assignments += 1
                context.scope.values["BASH_CMDS"] = None
            else:
                context.redefined[key] = "hash -p"
        if name in _DECLARATIONS or inner >= len(args):
            # `export PATH=bin:$PATH`, `PATH=$PWD/bin:$PATH`: the directories put first on PATH;
            # `export PYTHONPATH=.`: Python's environment (`Context.python_environment`)
            assigning = inner >= len(args)
            for a in args[0 if assigning else inner + 1 :]:
                if a.text.startswith("PATH="):
                    if assigning or name in _DECLARATIONS:  # (`declare -x`, `local`, `readonly` too)
                        # (the words as spelled: `$PWD/bin:$PATH` has no value the scope knows)
                        context.path_dirs = self._path_dirs(a.text[5:], view.cwd)
                        context.path_unknown = not _names_every_directory(a.text[5:], context.path_dirs)
                        context.path_followed = -1
                elif a.text.startswith(_PYTHON_ASSIGNMENTS):
                    context.python_environment = True
        if inner and inner < len(args) and args[0].text == "coproc" and args[inner].word is not None:
            # `coproc git ls-files; while read -u "${COPROC[0]}" f`: what it prints is read there
            self._exec_substitutions[_coproc_name(args, inner)] = view.source[args[inner].word.start : view.cmd.words[-1].end]
        if view.inputs and args and args[-1].text == "exec":
            from polydeukes.stdlib.shell import inputs  # `exec 3<x.sh`: open for the rest of the line

            inputs.exec_fds(context.fds, view.inputs)
            for fd, r in view.inputs.items():
                # (round 11) where the descriptor leads, for `/dev/fd/N/…` (`_process_aliases`)
                if r is not None and not r.target.opaque and r.operator != "<&":
                    place = self.absolute(r.target.text, view.cwd)
                elif r is not None and r.operator == "<&" and r.target.text.isdigit():
                    place = context.fd_paths.get(r.target.text)
                else:
                    place = None
                if place is not None or context.fd_paths:
                    if context.fd_paths is _NO_FD_PATHS:
                        context.fd_paths = {}
                    context.fd_paths[fd] = place
                script = _listing_script(r) if r is not None else None
                if script is not None:
                    self._exec_substitutions[fd] = script
                else:
                    self._exec_substitutions.pop(fd, None)
        if name == "git":
            # (not in `_STATEFUL`: a git command that only reads keeps the fast path, which
            # makes no view; one that restores paths writes, so it is viewed and comes here)
            self._restored(args[inner + 1 :], view.cwd)
            return
        if (name == "source" or name == ".") and inner + 1 < len(args) and args[inner + 1].text.endswith("activate"):
            self._activated(args[inner + 1], view.cwd)
        elif view.model is not None and view.model.handler == "interpreter":
            self._code_writes(view)
        if name not in _STATEFUL:
            return
        rest = args[inner + 1 :]
        if name in DIRECTORY_CHANGES:
            cdpath = None
            if inner:  # `CDPATH=.. cd ci`
                for a in args[:inner]:
                    if a.text.startswith("CDPATH="):
                        cdpath = a
            self._directory(name, rest, view.cmd.connector, cdpath)
        elif name == "ln":
            self._link(rest, view.cwd)
        elif name in _DECLARATIONS:
            if name != "export" and any(a.text[:1] == "-" and "n" in a.text[1:] and not a.text.startswith("--")
                                        for a in rest):
                self._name_references(rest)  # `declare -n r=x`: `$r` is `$x`
            else:
                self._assign_all(rest, 0, view.source)
                for a in rest:
                    if a.opaque and "=" not in a.text and a.word.flags & (W_VAR | W_SUBST) \
                            and a.text[:1] not in ("-", "+"):
                        self._assign_unnamed(name, a, view.source)
                letters = set("".join(a.text[1:] for a in rest if a.text[:1] == "-" and not a.text.startswith("--")))
                if name != "export" and letters & set("luci"):
                    # `declare -l y=CI` (`-u`, `-c`): the value is changed as it is stored, made
                    # by the line; `-i`: it is an integer
                    for a in rest:
                        assigned = a.text.partition("=")[0]
                        if a.text[:1] == "-" or not _NAME().fullmatch(assigned):
                            continue
                        if letters & set("luc"):
                            self.context.scope.assign(assigned, None)
                            self.context.scope.made[assigned] = "is changed by an attribute declare gives it"
                        else:
                            self.context.scope.assign(assigned, _NUMBER)
        elif name == "unset":
            for a in rest:
                if not a.text.startswith("-"):
                    context.scope.assign(a.text, (Value(""),))
                    context.scope.unset.add(a.text)
        elif name in ("read", "mapfile", "readarray"):
            # `lister | while read f; do …`: `f` takes the paths the lister prints.
            listed = view.stdin_listing
            named = False
            for a in rest:
                if not a.text.startswith("-") and _NAME().fullmatch(a.text):
                    named = True
                    context.scope.assign(a.text, None)
                    if view.made_input is not None:
                        context.scope.made[a.text] = view.made_input
                    if listed is not None:
                        context.listed[a.text] = listed
            if listed is not None and not named:
                # (round 10) `read` without a name fills REPLY, mapfile MAPFILE (an option's
                # value, `-u 3`, is no name: `_NAME` takes no digit first)
                context.listed["REPLY" if name == "read" else "MAPFILE"] = listed
            if view.loop_values is not None:
                for var, values in view.loop_values.items():
                    context.scope.assign(var, values)
        elif name == "printf":
            for k, a in enumerate(rest[:-1]):
                if a.text == "-v":
                    # `printf -v p '%s/%s' ci gate.sh`: a format of plain `%s` is computed
                    value = _printf_value(rest[k + 2 :])
                    context.scope.assign(rest[k + 1].text, None if value is None else (Value(value),))
                    context.listed.pop(rest[k + 1].text, None)
                    taken = [extra for o in rest[k + 2 :] if o.word is not None and o.word.flags & W_VAR
                             for extra in self._listed_in(view.source[o.word.start : o.word.end])]
                    if taken:
                        context.listed[rest[k + 1].text] = tuple(taken)  # (`printf -v g %s "$f"`)
                    if value is None and not any(o.opaque for o in rest[k + 2 :]) and not (
                            rest[k + 2 : k + 3] and _DECIMAL_FORMAT().fullmatch(rest[k + 2].text)):
                        # (`printf -v x '%b' 'c\x69'`, `'%x' 12`: text the line formats; decimal
                        # numbers only, `'%d' 3`, spell no path)
                        context.scope.made[rest[k + 1].text] = "is formatted by printf in a way this layer does not work out"
        elif name in ("for", "select"):
            self._loop(rest, view.source)
            if rest and view.loop_listing is not None:
                context.listed[rest[0].text] = view.loop_listing
        elif name == "shift":
            if any(str(n) in context.scope.values for n in range(1, 10)):
                for n in range(1, 10):  # (the values move down: not followed)
                    context.scope.assign(str(n), None)
                    context.scope.made[str(n)] = _POSITIONAL
        elif name == "set":
            self._positional(rest, view.source)
            for k, a in enumerate(rest):
                if a.text in ("-f", "-o") and (a.text == "-f" or rest[k + 1 : k + 2] and rest[k + 1].text == "noglob"):
                    context.glob = context.glob.copy()
                    context.glob.noglob = True
                elif a.text in ("+f", "+o") and (a.text == "+f" or rest[k + 1 : k + 2] and rest[k + 1].text == "noglob"):
                    context.glob = context.glob.copy()
                    context.glob.noglob = False
        elif name == "shopt":
            on = any(a.text == "-s" for a in rest)
            off = any(a.text == "-u" for a in rest)
            if on or off:
                context.glob = context.glob.copy()
                for a in rest:
                    if a.text in ("dotglob", "extglob", "globstar", "nocaseglob"):
                        setattr(context.glob, a.text, on)
        elif name == "hash":
            texts = [a.text for a in rest]
            if "-p" in texts:
                for a in rest[texts.index("-p") + 2 :]:
                    context.redefined[a.text] = "hash -p"
        elif name == "enable":
            for a in rest:
                if not a.text.startswith("-"):
                    context.redefined[a.text] = "enable"
        elif name == "function" and rest:
            context.redefined[rest[0].text.rstrip("()")] = "function"

    def _assign_all(self, args: Sequence[Arg], k: int, source: str) -> None:
        """The assignments among `args` from `k` on, arrays (`a=(x y)`) included."""
        while k < len(args):
            a = args[k]
            if "=(" in a.text and is_assignment(a.text):
                end = _array_end(args, k)
                self._assign_array(args[k:end], source)
                k = end
                continue
            if not a.opaque and is_assignment(a.text) or a.word.flags & (W_VAR | W_SUBST) and "=" in a.text:
                self._assign(a, source)
            k += 1

    def _name_references(self, rest: Sequence[Arg]) -> None:
        """`declare -n r=x` (`local -n`, `typeset -n`): from now on `$r` and an assignment to r
        are x's; a reference to a name of unknown value, or one declared without a target, is
        of unknown value."""
        scope = self.context.scope
        for a in rest:
            if a.text.startswith("-") or a.text.startswith("+"):
                continue
            name, eq, target = a.text.partition("=")
            if not _NAME().fullmatch(name):
                continue
            known = eq and not a.opaque and _NAME().fullmatch(target) is not None
            scope.refer(name, target if known else None)
            if known and target in self.context.listed:
                self.context.listed[name] = self.context.listed[target]  # (`declare -n r=f`)

    def _assign_array(self, words: Sequence[Arg], source: str) -> None:
        """`NAME=(…)` / `NAME+=(…)` (its words already expanded, but for the first): the
        elements, unknown when one of them is (its spelling kept for the mention rules)."""
        first = words[0]
        name, _, value = first.text.partition("=")
        append = name.endswith("+")
        name = name.rstrip("+")
        if not _NAME().fullmatch(name):
            return
        listed_before = self.context.listed.pop(name, None)
        if self.context.listed or listed_before:
            # `arr+=("$f")`, `arr=("${arr[@]}" "$f")` in a read loop: the array takes the paths
            # (round 10)
            taken = [extra for a in words if a.word is not None and a.word.flags & W_VAR
                     for extra in self._listed_in(source[a.word.start : a.word.end], name, listed_before)]
            if append and listed_before:
                taken[:0] = listed_before
            if taken:
                self.context.listed[name] = tuple(taken)
        texts: list[str] = []
        known = True
        if first.word.flags & W_SUBST and not file_prints(source[first.word.start : first.word.end]):
            known = False
        elif first.word.flags & (W_VAR | W_SUBST):  # (`a=($(echo c?/*))`: what it prints, `_print_values`)
            raw = source[first.word.start : first.word.end].partition("=")[2]
            values = word_values(first.word, raw, self.context.scope)
            if values is None:
                known = False
            else:
                texts.extend(piece for v in values for piece in v.text.split())
        else:
            texts.extend(value.split())
        for a in words[1:]:
            known = known and not a.opaque
            texts.append(a.text)
        if texts:
            texts[0] = texts[0].removeprefix("(")
            texts[-1] = texts[-1].removesuffix(")")
        keyed = any(t.startswith("[") and "]=" in t for t in texts)
        texts = [t.split("]=", 1)[1] if t.startswith("[") and "]=" in t else t for t in texts]
        elements = tuple(Value(t, t if listers.GLOB_CHARACTERS & set(t) else None)
                         for t in texts if t) if known else None
        self.context.scope.assign_array(name, elements, " ".join(texts), append, keyed)

    def _option_glob(self, args: Sequence[Arg], cwd: tuple[str, ...], viewer: bool = False) -> tuple[str, str] | None:
        """A glob argument whose first segment matches a name beginning with `-` in the
        directory it is read from (on disk, or written by the line), and that name: bash puts
        the name in the word's place and the command takes it as an option (`sort ?o c?/* x`
        with a file `-o` writes its output to the last path; `cp -tc? f` with a file `-tci`).
        For a pager or editor (`viewer`), a name beginning with `+` too: `less *` with a file
        `+!sh x.sh` runs it (viewers.py)."""
        names: list[str] | None = None
        glob = self.context.glob
        for a in args[1:]:
            if a.pattern is None or a.opaque or a.pattern.startswith(("/", "~")):
                continue
            segment = compile_segment(a.pattern.split("/", 1)[0], glob.extglob, glob.globstar)
            if segment.literal is not None:
                continue
            if names is None:
                looks = _looks_like_viewer_option if viewer else _looks_like_option
                found = self.disk.names_in(cwd, looks)
                names = found if isinstance(found, list) else []
                names.extend(path[-1] for path in self.written() if path[:-1] == cwd and looks(path[-1]))
                if not names:
                    return None
            for name in names:
                if segment_matches(segment, name, dotglob=glob.dotglob):
                    return a.text, name
        return None

    def _made_word(self, text: str, cmd: SimpleCommand) -> tuple[str, str, bool] | None:
        """The first word or write redirect's target of `cmd` whose value the line makes of
        text the walk does not work out, as spelled, how (`_maker`), and whether it is a
        target. An assignment's value is no word of the command (`_assign` records it); a
        process substitution is a file name."""
        words = cmd.words
        for k, w in enumerate((*words, *(r.target for r in cmd.redirects))):
            if not w.flags & (W_VAR | W_SUBST):
                continue
            raw = text[w.start : w.end]
            if raw.startswith(("<(", ">(")) or is_assignment(w.text):
                continue
            if k >= len(words) and not is_write_redirect(cmd.redirects[k - len(words)]):
                continue  # (`< "$x"`: read)
            how = self._maker(raw, w.flags, True)
            if how is not None:
                return raw, how, k >= len(words)
        return None

    def _evaluated_made(self, text: str, cmd: SimpleCommand) -> tuple[str, str, bool] | None:
        """A name the line made of text it does not work out (`Scope.made`), evaluated again by
        the shell where it would run a `$(…)` in its value: arithmetic (`$((x))`, `((x))`,
        `let`, `[[ x -eq 1 ]]`, `declare -i`, an array subscript `${a[x]}`, an offset
        `${s:x}`), indirection `${!x}` and prompt expansion `${x@P}` (`x=$(rev f); : $((x))`
        ran the `a[$(…)]` that rev made). Taken as a target: a reader does not absolve it."""
        words = cmd.words
        spelled = text[words[0].start : words[-1].end]
        head = words[0].text
        spans = [(m.group(), "".join(m.groups(""))) for m in _EVALUATING_SPAN().finditer(spelled)]
        if head == "let" or head == "[[" and _ARITHMETIC_TEST().search(spelled) \
                or head in _DECLARATIONS and _INTEGER_OPTION().search(spelled):
            spans.append((spelled, spelled))
        scope = self.context.scope
        for whole, evaluated in spans:
            for m in _IDENTIFIER().finditer(evaluated):
                name = m.group()
                how = scope.made.get(name)
                if how is None and scope.wild is not None and name not in scope.wild_since:
                    how = scope.wild
                if how is not None:
                    return whole if len(whole) <= 60 else whole[:57] + "...", f"is evaluated again from {name}, which {how}", True
        return None

    def _maker(self, raw: str, flags: int, splits: bool) -> str | None:
        """How the line makes the value of a word spelled `raw` of text the walk does not work
        out, or None: a substitution that rewrites data (`$(rev f)`, `_data_rewriter`), a
        variable the line made so (`Scope.made`), or, for a word the shell splits (`splits`),
        any expansion while `IFS` holds other characters than blanks."""
        scope = self.context.scope
        if flags & W_SUBST:
            known = scope.values
            for script in substitutions(raw):
                if known.get("$(" + script + ")") or known.get("`" + script + "`"):
                    continue  # its text was worked out (`_print_values`)
                rewriter = _data_rewriter(script)
                if rewriter is not None:
                    return f"{rewriter} makes of other text"
                if prints_unworked_directory(script):
                    return _DIRECTORY_PRINTED
                printed = printed_file("$(" + script + ")")
                if printed is None:
                    picker = _file_picker(script)
                    if picker is not None:
                        return f"{picker} picks out of text this layer does not read whole"
                elif self.context.writers or self.context.written:
                    # `git ls-files > l; rm -f $(cat l)`: a file the line wrote, content unknown
                    path = self.absolute(printed, self.context.cwd)
                    written = self.written()
                    if path is not None and path in written and written[path] is None:
                        return f"is the text of {printed}, {_WRITTEN_UNCOMPUTED}"
        if scope.made and flags & W_VAR:
            for name, how in scope.made.items():
                if "$" + name in raw or "${" + name in raw:
                    return how
        if scope.wild is not None and flags & W_VAR:
            for m in _VARIABLE_REFERENCE().finditer(raw):
                if m.group(1) not in scope.wild_since and _NAME().fullmatch(m.group(1)):
                    return scope.wild
        if flags & W_VAR and ("$_" in raw or "${_" in raw or "BASH_" in raw) and _SHELL_MADE().search(raw):
            return _SHELL_TEXT
        if flags & W_VAR and "${" in raw and (scope.values or scope.directories):
            unworked = unworked_expansion(raw, scope)
            if unworked is not None:
                return _UNWORKED_DIRECTORY if unworked in ("PWD", "OLDPWD", "DIRSTACK", "HOME") \
                    and unworked not in scope.values else _UNWORKED
        if "IFS" in scope.values and ("[*]" in raw or "$*" in raw or "${*" in raw):
            return "joins words with the IFS this line sets"  # (`IFS=; rm -rf "${a[*]}"`)
        if splits and _ifs_splits(scope):
            return "is split on the IFS this line sets"
        return None

    def _assign(self, a: Arg, source: str) -> None:
        """`NAME=VALUE`: the values NAME may now hold (unknown after a substitution)."""
        name, eq, value = a.text.partition("=")
        append = name.endswith("+")
        name = name.rstrip("+")
        if not eq or not _NAME().fullmatch(name):
            return
        listed_before = self.context.listed.pop(name, None) if self.context.listed else None
        word = a.word
        scope = self.context.scope
        if word.flags & (W_VAR | W_SUBST) and not _spells_name(source[word.start : word.end], name):
            # `export $(cat .env)`, `declare "$x"`, `export T$s`: the `NAME=` itself is text an
            # expansion gave (a declaration builtin assigns what its operand expands to), so the
            # value is that text, not what follows a `=` the word does not spell
            self._assign_expanded(a, name, value, append, source)
            return
        if word.flags & W_SUBST and not file_prints(source[word.start : word.end]):
            values = None
        elif word.flags & (W_VAR | W_SUBST):
            raw = source[word.start : word.end]
            values = word_values(word, raw.partition("=")[2], scope)
        else:
            values = (Value(value),)
        if append:  # `x+=y`: what x held, then y (of unknown value, `$x` keeps spelling y)
            before = scope.value(name)
            values = None if before is None or values is None or len(before) * len(values) > 64 \
                else tuple(Value(b.text + v.text) for b in before for v in values)
        scope.assign(name, values)
        if word.flags & (W_VAR | W_SUBST):
            raw_value = source[word.start : word.end].partition("=")[2]
            how = self._maker(raw_value, word.flags, False)
            if how is not None:
                scope.made[name] = how  # (`x+=$(rev f)` too: part of it is made)
            if word.flags & W_SUBST:
                # `a=$(git ls-files); rm -f $a`: the name takes the paths a lister prints, as a
                # loop's variable over them does
                printed: list = []
                for inner_text in substitutions(raw_value):
                    found = self._printed_by(inner_text, 0)
                    if found:
                        printed.extend(found)
                if printed:
                    self.context.listed[name] = tuple(printed)
            if word.flags & W_VAR and (self.context.listed or listed_before):
                # `g=$f`, `g="${f%.sh}"`: the name takes the paths a listed name holds (round 10)
                taken = self._listed_in(raw_value, name, listed_before)
                if taken:
                    self.context.listed[name] = (*self.context.listed.get(name, ()), *taken)
        if append and listed_before:  # (`paths+=…` keeps what it held)
            self.context.listed[name] = (*listed_before, *self.context.listed.get(name, ()))
        if append and values is None:
            scope.spellings[name] = scope.spellings.get(name, "") + value
        if name == "GLOBIGNORE":
            self.context.glob = self.context.glob.copy()
            self.context.glob.dotglob = True

    def _assign_expanded(self, a: Arg, name: str, value: str, append: bool, source: str) -> None:
        """An assignment whose `NAME=` an expansion gave (`_assign`): the value is the rest of the
        expanded text, unknown where part of the word is; made as the word's expansion is."""
        scope = self.context.scope
        values = None if a.opaque else (Value(value),)
        if append:
            before = scope.value(name)
            values = None if before is None or values is None or len(before) > 64 \
                else tuple(Value(b.text + value) for b in before)
        scope.assign(name, values)
        how = self._maker(source[a.word.start : a.word.end], a.word.flags, False)
        if how is not None:
            scope.made[name] = how

    def _assign_unnamed(self, declaration: str, a: Arg, source: str) -> None:
        """A declaration's operand whose expansion is of unknown text (`export $(python3 env.py)`):
        it may assign any name. The values the line knew are unknown from here on; where the text
        is made of data the walk does not work out, every name not assigned again is made of it."""
        scope = self.context.scope
        for known in [n for n in scope.values if _NAME().fullmatch(n)]:
            scope.assign(known, None)
        how = self._maker(source[a.word.start : a.word.end], a.word.flags, False)
        if how is not None:
            scope.any_made(f"may come from {declaration} of text this layer does not work out")

    def _arithmetic(self, view: View) -> None:
        """Names `let`, `((…))` or `$((…))` assign (`((x=1))`, `let x++`, `: $((x+=2))`): set,
        to a number this layer does not work out, a pattern of digits (`((x=1)); rm -rf
        c${x:+i}` passed: the name was taken as unset, and `${x:+i}` as unknown)."""
        words = view.cmd.words
        raw = view.source[words[0].start : words[-1].end] if words else ""
        spans = [raw] if view.name == "let" else _ARITHMETIC_SPAN().findall(raw)
        scope = self.context.scope
        for span in spans:
            for m in _ARITHMETIC_ASSIGNED().finditer(span):
                assigned = m.group(1) or m.group(2) or m.group(3)
                scope.assign(assigned, _NUMBER)

    def _positional(self, rest: Sequence[Arg], source: str) -> None:
        """`set -- WORDS` (or `set WORDS`, options first): `$1`…`$9` take the words; `$@`,
        `$*` and `$#` are made of them as the walk does not follow (`Scope.made`)."""
        texts = [a.text for a in rest]
        if "--" in texts:
            operands = rest[texts.index("--") + 1 :]
        else:
            k = 0
            while k < len(rest) and rest[k].text[:1] in ("-", "+") and not rest[k].opaque:
                k += 2 if rest[k].text in ("-o", "+o") else 1
            if k >= len(rest):
                return  # options only: the positional parameters stay
            operands = rest[k:]
        scope = self.context.scope
        unknown = any(a.opaque or a.pattern is not None or a.word.flags & (W_VAR | W_SUBST) and self._maker(
            source[a.word.start : a.word.end], a.word.flags, True) is not None for a in operands)
        for n in range(1, 10):
            if unknown:
                scope.assign(str(n), None)
                scope.made[str(n)] = _POSITIONAL
            else:
                scope.assign(str(n), (Value(operands[n - 1].text if n <= len(operands) else ""),))
        for special in ("@", "*", "#"):
            scope.made[special] = _POSITIONAL

    def _loop(self, rest: Sequence[Arg], source: str = "") -> None:
        if not rest or rest[0].opaque:
            return
        var = rest[0].text
        if self.context.listed:
            self.context.listed.pop(var, None)
        if len(rest) >= 2 and rest[1].text == "in":
            if self.context.listed and source:
                # `for f in "${a[@]}"`, `for f in $a`, `for x in "$@"` over names that take a
                # lister's paths: the loop's variable takes them too (round 10: they passed)
                taken = [extra for a in rest[2:] if a.word is not None and a.word.flags & W_VAR
                         for extra in self._listed_in(source[a.word.start : a.word.end])]
                if taken:
                    self.context.listed[var] = tuple(taken)
            values = []
            for a in rest[2:]:
                if a.word.flags & (W_VAR | W_SUBST) and source:
                    how = self._maker(source[a.word.start : a.word.end], a.word.flags, True)
                    if how is not None:  # `for w in $v` with `IFS=_`: the words are made
                        self.context.scope.assign(var, None)
                        self.context.scope.made[var] = how
                        return
                if a.opaque:
                    self.context.scope.assign(var, None)
                    return
                values.append(Value(a.text, a.pattern))
            self.context.scope.assign(var, tuple(values) if values else None)
        else:  # `for x; do`: the positional parameters, as `"$@"` has them
            scope = self.context.scope
            scope.assign(var, scope.values.get("@"))
            if "@" in scope.made:
                scope.made[var] = scope.made["@"]
            if "@" in self.context.listed:  # (`find … -exec sh -c 'for f; do …' sh {} +`)
                self.context.listed[var] = self.context.listed["@"]

    def _loop_input(self, view: View, done: SimpleCommand) -> None:
        """`while read f; do …; done <<EOF` (or `<<<`, `< list.txt`): the loop's words come from
        the input of its `done`. A plain `read NAME…` condition gives its names the input's
        lines (split as bash splits them), so the body is judged with them as it is with a
        `for` loop's words; any other loop over such input reads words this layer does not
        follow, and a protected path the input mentions fails closed."""
        bodies = [h.body for h in done.heredocs]
        bodies.extend(r.target.text + "\n" for r in done.redirects if r.operator == "<<<" and not r.target.opaque)
        for r in done.redirects:
            target = r.target
            if r.operator == "<<<" and target.flags & (W_VAR | W_SUBST) or r.operator == "<" and target.flags & W_SUBST:
                # `read x <<< "$(rev f)"`, `done < <(base64 -d f)`: the names take made text
                how = self._maker(view.source[target.start : target.end], target.flags, False)
                if how is not None:
                    view.made_input = how
                    return
                if r.operator == "<<<":
                    # `read x <<< "$(cat f)"`, `<<< "$v"`: a herestring of one known value
                    found = word_values(target, view.source[target.start : target.end], self.context.scope)
                    if found is not None and len(found) == 1 and found[0].pattern is None:
                        bodies.append(found[0].text + "\n")
            if r.operator != "<":
                continue
            path = self.absolute(r.target.text, view.cwd) if not r.target.opaque else None
            if path is None or self.disk is None:
                return  # unknowable: the lines arrive at run time
            written = self.written()
            if path in written:
                # `echo ci > l; while read f; … done < l`: what the line wrote, if computed
                if written[path] is None:
                    view.made_input = f"is read from {r.target.text}, {_WRITTEN_UNCOMPUTED}"
                    return
                bodies.append(written[path])
                continue
            found = self.disk.read_text("/" + "/".join(path))
            from polydeukes.stdlib.shell.disk import Missing, Refused  # loaded by `self.disk`

            if isinstance(found, Refused):
                view.items_refused = found.reason
                return
            if not isinstance(found, Missing):  # a missing file: the loop reads nothing
                bodies.append(found)
        if not bodies:
            return
        if _splits_otherwise(self.context, view):
            view.piped_unread = tuple(bodies)  # another field separator: the split is not bash's default
            view.made_input = _OTHER_SPLIT
            return
        argv = view.args[view.inner :]
        text = "".join(bodies)
        values = _read_values(argv if view.name == "read" else (), text) if view.name not in _MAPFILES \
            else _mapfile_values(argv, text)
        if values is None:
            view.piped_unread = tuple(bodies)
            view.made_input = _OTHER_SPLIT
        else:
            view.loop_values = values
            if "$(" in text or "`" in text:
                # A command substitution in the text read (`read x < f; : $((x))`, `${x@P}`,
                # `${a[x]}`): the shell may evaluate the value again, and run it; walked as the
                # script it may become, as one spelled in an assignment is.
                later = tuple(script for found in values.values() for v in found
                              for script in heredoc_substitutions(v.text))
                if later:
                    view.wrapper_scripts = (*view.wrapper_scripts, *later)
                    view.follow = True

    def _directory(self, name: str, rest: Sequence[Arg], connector: str = "", cdpath: Arg | None = None) -> None:
        """`cd`, `pushd`, `popd`: where the rest of the line runs (`cdpath`: a `CDPATH=…` in
        front of the command)."""
        context = self.context
        if self._after_condition:
            # `A && cd X`, `A || cd X`: the `cd` may not run. What follows it with `&&` runs only
            # if it did (X); after the list, the directory is unknown (`_script`).
            if connector != "&&":
                context.cwd = context.oldpwd = None
                return
            context.cwd_uncertain = True
        values = context.scope.values
        if "PWD" in values or "OLDPWD" in values:
            values.pop("PWD", None)  # (`cd` sets them again: the directories the walk follows)
            values.pop("OLDPWD", None)
        if name != "cd" and self._directory_stack(name, rest):
            return
        operands = [a for a in rest if not a.text.startswith("-") or a.text == "-"]
        current = context.cwd
        context.cwd_glob = None
        if len(operands) == 1 and operands[0].pattern is not None and not operands[0].opaque and current is not None:
            context.cwd_glob = (current, operands[0].pattern)  # `cd .claude/hook? && rm h.sh`
        if not operands:
            home = self.home_now()
            target = home if name == "cd" and home is not None else None
            if name == "pushd":
                target = None
        elif len(operands) != 1 or operands[0].opaque or operands[0].pattern is not None:
            target = None
        elif operands[0].text == "-":
            target = context.oldpwd
        else:
            target = self.absolute(operands[0].text, current)
            if name != "popd" and (cdpath is not None or "CDPATH" in context.scope.values or self.cdable_vars):
                target = self._searched_directory(operands[0].text, target, current, cdpath)
        if target is not None and len(target) > MAX_DEPTH:
            target = None  # deeper than any path the kernel resolves: `cd` would fail
        if target is not None and target != current and connector != "&&" and self._tree_known() \
                and self.disk.kind(list(target)) == "missing" and target not in self.written():
            # A directory that is not there (nor made by the line) makes `cd` fail and the shell
            # stay where it was; after `;` the next command runs either way (after `&&` only
            # if it succeeded): where it runs, and `$OLDPWD`, are not known.
            if name == "pushd":
                context.stack.append(None)
            context.oldpwd = context.cwd = None
            return
        if name == "pushd":
            context.stack.append(current)
        context.oldpwd = current
        context.cwd = target

    def _physical_options(self, args: list[Arg], inner: int, options: tuple[str, ...],
                          cwd: tuple[str, ...]) -> list[Arg]:
        """`args` with the literal directory of a working-directory option that goes through a
        symbolic link on disk spelled as where it leads: `git -C l rm gate.sh`, `tar -C l -xf
        x.tar`, `unzip x.zip -d l` with `l -> ci` work in ci (as `cd l` does: `_physical`)."""
        out = args
        for k in range(inner + 1, len(args)):
            t = args[k].text
            for option in options:
                if t == option and k + 1 < len(args):
                    at, prefix, value = k + 1, "", args[k + 1].text
                elif t.startswith(option) and t != option and (
                        option.startswith("--") and t[len(option)] == "=" or len(option) == 2):
                    cut = len(option) + option.startswith("--")
                    at, prefix, value = k, t[:cut], t[cut:]
                else:
                    continue
                if args[at].opaque or args[at].pattern is not None or not value:
                    continue
                spelled = self.absolute(value, cwd)
                if spelled is None:
                    continue
                resolved = self.disk.resolve(list(spelled))
                if type(resolved) is list and resolved != list(spelled):
                    if out is args:
                        out = list(args)
                    a = args[at]
                    out[at] = Arg(prefix + "/" + "/".join(resolved), None, a.opaque, a.count, a.word)
        return out

    def _configuration_home(self, view: View) -> str | None:
        """`NAME=VALUE` when the command runs with a `CONFIGURATION_HOMES` variable the line
        gives a known value (in front of it or earlier), other than the real home directory."""
        named = [a.text.partition("=")[0] for a in view.args[: view.inner]]
        for variable in CONFIGURATION_HOMES:
            if variable not in named and variable not in self.context.scope.values:
                continue
            value = self.environment(view, variable)
            if not value:
                continue
            if variable == "HOME" and self.absolute(value, view.cwd) == self.home_segs:
                continue  # (the user's own home: docs/security.md)
            return f"{variable}={value}"
        return None

    def _with_environment_options(self, view: View, args: list[Arg], inner: int, name: str) -> list[Arg]:
        """The options a program takes from its environment (`_OPTION_VARIABLES`: assigned in
        front of it or earlier on the line), put in front of its own as it reads them; one of
        unknown value is an option of unknown value."""
        import shlex

        added: list[Arg] = []
        word = args[inner].word
        view.inner = inner  # (`environment` reads the assignments in front of the command)
        for variable in _OPTION_VARIABLES[name]:
            assigned = any(a.text.startswith(variable + "=") for a in args[:inner]) \
                or variable in self.context.scope.values
            if not assigned:
                continue
            value = self.environment(view, variable)
            if variable == PAGER_OPTIONS and (value is None or pager_log({variable: value}) is None):
                continue  # (its `+cmd` words are judged as the environment's: viewers.pager_environment)
            if value is not None and variable in _OPTION_FILE_VARIABLES:
                if any(a.text == "--no-config" for a in args[inner + 1 :]):
                    continue
                value = self._option_file_arguments(value, view)
                if value is not None:
                    added.extend(Arg(t, None, False, ONE, word) for t in value)
                    continue
            if value is None:
                added.append(Arg("$" + variable, None, True, ANY, word))
                continue
            try:
                texts = shlex.split(value)
            except ValueError:
                texts = value.split()
            added.extend(Arg(t, None, False, ONE, word) for t in texts)
        return [*args[: inner + 1], *added, *args[inner + 1 :]] if added else args

    def _option_file_arguments(self, spelled: str, view: View) -> list[str] | None:
        """The arguments a file of one argument per line gives (`RIPGREP_CONFIG_PATH`; blank
        lines and `#` comments skipped): none when it is missing (the program goes on without
        it); None where it is (an argument of unknown value); where the line wrote it with
        content not computed or it cannot be read within bounds, also noted in the view (the
        judge fails closed: `passes_written`, `passes_unreadable`)."""
        path = self.absolute(spelled, view.cwd)
        if path is None or self.disk is None:
            return None
        written = self.written()
        if path in written:
            text = written[path]
            if text is None:
                view.passes_written = spelled
                return None
        else:
            from polydeukes.stdlib.shell.disk import SCRIPT_BYTES, Missing, Refused  # loaded by `self.disk`

            text = self.read_file(path, SCRIPT_BYTES)  # (the walk's one reading of each file)
            if isinstance(text, Missing):
                return []
            if isinstance(text, Refused):
                view.passes_unreadable = (spelled, text.reason)
                return None
            if not isinstance(text, str):
                return None  # (a compiled file: arguments of unknown value)
        return [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]

    def _with_history_file(self, args: list[Arg], inner: int) -> list[Arg]:
        """`history -w` or `-a` without a file writes the history to `$HISTFILE`: the value
        the line gave it is its operand, judged as `history -w FILE` is (one the line does not
        set is the environment's: not seen, as any variable's)."""
        rest = args[inner + 1 :]
        if not rest or any(a.opaque or not a.text.startswith("-") for a in rest) \
                or not any(not a.text.startswith("--") and ("w" in a.text or "a" in a.text) for a in rest):
            return args  # (a file named, or no write)
        values = self.context.scope.values["HISTFILE"]
        word = args[-1].word
        if values is None:
            return [*args, Arg("$HISTFILE", None, True, ANY, word)]
        return [*args, *(Arg(v.text, v.pattern, False, ONE if v.pattern is None else MANY, word) for v in values)]

    def _searched_directory(self, text: str, target: tuple[str, ...] | None, current: tuple[str, ...] | None,
                            cdpath: Arg | None) -> tuple[str, ...] | None:
        """Where `cd TEXT` goes when the line sets `CDPATH` (`cdpath`, in front of the command,
        or earlier on the line) or turns `cdable_vars` on: a relative TEXT not starting with
        `.` is looked for in each CDPATH entry first (the first directory there wins), and
        with `cdable_vars` a TEXT that is no directory is a variable whose value is the
        directory. `target`: TEXT from the working directory. None (unknown) where a value,
        or what is on disk, is not known. A CDPATH the line does not set is taken as unset
        (the environment's is not seen)."""
        if text.startswith(("/", "./", "../")) or text in (".", ".."):
            return target
        if cdpath is not None:
            entries = None if cdpath.opaque or cdpath.pattern is not None else cdpath.text.partition("=")[2]
        else:
            values = self.context.scope.values.get("CDPATH", ())
            entries = "" if values == () else None if values is None or len(values) != 1 or \
                values[0].pattern is not None else values[0].text
        if entries is None:
            return None  # (`CDPATH=$X cd ci`: searched in unknown places)
        for entry in entries.split(":") if entries else ():
            found = self._directory_there(self.absolute((entry or ".") + "/" + text, current))
            if found is None:
                return None
            if found:
                return self.absolute((entry or ".") + "/" + text, current)
        if self.cdable_vars and _NAME().fullmatch(text):
            there = self._directory_there(target)
            if there is None:
                return None
            if not there:  # `shopt -s cdable_vars; d=ci; cd d`: the value of d
                values = self.context.scope.values.get(text)
                if not values or len(values) != 1 or values[0].pattern is not None:
                    return None  # (unset on the line: the environment's, unknown)
                return self.absolute(values[0].text, current) if values[0].text else None
        return target

    def _directory_there(self, path: tuple[str, ...] | None) -> bool | None:
        """Is there a directory (or a link) at `path`, on disk or made by the line? None when
        that is not known."""
        if path is None or not self._tree_known():
            return None
        if path in self.written():
            return True
        kind = self.disk.kind(list(path))
        return kind in ("dir", "link") if isinstance(kind, str) else None

    def _through_links(self, args: list[Arg], cwd: tuple[str, ...] | None) -> list[Arg]:
        """`args` with a path that goes through a symbolic link the line made spelled as where
        the link leads (`ln -s . l; rm -rf l/c?` removes `./c?`), patterns too; a link to
        somewhere unknown is left to the judge (`through_line_links`)."""
        links = self.context.links
        out = args
        for k, a in enumerate(args):
            if a.opaque or k == 0 or not a.text or a.text.startswith("-"):
                continue
            segments = a.text.split("/")
            pattern_segments = a.pattern.split("/") if a.pattern is not None else None
            if pattern_segments is not None and len(pattern_segments) != len(segments):
                continue
            for end in range(len(segments), 0, -1):
                prefix = self.absolute("/".join(segments[:end]) or "/", cwd)
                if prefix is None or prefix not in links:
                    continue
                target = links[prefix]
                if target is None:
                    break
                lead = "/" + "/".join(target)
                rest = segments[end:]
                text = "/".join([lead.rstrip("/"), *rest]) if rest else lead
                pattern = None
                if pattern_segments is not None:
                    pattern = "/".join([escape_pattern(lead).rstrip("/"), *pattern_segments[end:]])
                if out is args:
                    out = list(args)
                out[k] = Arg(text, pattern, a.opaque, a.count, a.word)
                break
        return out

    def _restored(self, rest: Sequence[Arg], cwd: tuple[str, ...] | None) -> None:
        """`git checkout [REV] -- PATH…`, `git restore [--source REV] PATH…`: each PATH gets the
        content a revision or the index holds for it, which may be a symbolic link (a branch
        that holds `l -> ci`, then `echo x > l/gate.sh`). What that content is, this reading
        does not look up (git's objects are not read): PATH is recorded as a link the line made
        to somewhere unknown, so a later write to or below it on the line fails closed (the next
        call finds the link on disk and follows it)."""
        k = 0
        while k < len(rest) and rest[k].text.startswith("-"):
            if rest[k].text == "-C" and k + 1 < len(rest) and cwd is not None:
                # (`git -C sub checkout REV -- l`: sub/l; a directory of unknown value: unknown)
                cwd = None if rest[k + 1].opaque or rest[k + 1].pattern is not None else self.absolute(rest[k + 1].text, cwd)
            k += 2 if rest[k].text in _GIT_VALUED_GLOBALS else 1
        if k >= len(rest) or rest[k].text not in ("checkout", "restore"):
            return
        words = rest[k + 1 :]
        texts = [a.text for a in words]
        if "--" in texts:
            paths = words[texts.index("--") + 1 :]
        else:
            operands = [a for a in words if not a.text.startswith("-")]
            # (`git checkout REV PATH…`: the first operand is the revision; one operand alone is
            # a branch switch, judged as the work tree rewritten)
            paths = operands[1:] if rest[k].text == "checkout" else operands
            if rest[k].text == "restore":
                valued = {w.text for j, w in enumerate(words[1:]) if words[j].text in ("-s", "--source")}
                paths = [a for a in paths if a.text not in valued]
        links = self.context.links
        for a in paths:
            place = None if a.opaque or a.pattern is not None or cwd is None else self.absolute(a.text, cwd)
            if place is not None:
                links[place] = None

    def _link(self, rest: Sequence[Arg], cwd: tuple[str, ...] | None) -> None:
        """`ln -s TARGET LINK` (`-sf`, `-t DIR`, one operand: a link named as the target in the
        working directory): the link the line makes, for the judge to write through
        (`Context.links`, judgment `through_symlink`). A relative TARGET is resolved from the
        link's own directory; one of unknown value, or a link whose place is unknown, is
        recorded as leading somewhere unknown (None)."""
        options = [a.text for a in rest if a.text.startswith("-") and a.text != "-"]
        if not any(o == "--symbolic" or not o.startswith("--") and "s" in o[1:] for o in options):
            return  # (a hard link shares a file: what it names is already judged as written)
        operands = [a for a in rest if not (a.text.startswith("-") and a.text != "-")]
        directory = None
        for k, a in enumerate(rest):
            if a.text in ("-t", "--target-directory") and k + 1 < len(rest):
                directory = rest[k + 1]
                operands = [o for o in operands if o is not directory]
        if not operands:
            return
        links = self.context.links
        if directory is not None or len(operands) == 1:
            pairs = [(t, None) for t in operands]
        else:
            pairs = [(operands[0], operands[1])]
        for target, link in pairs:
            if link is None:
                if directory is not None and (directory.opaque or directory.pattern is not None):
                    links[None] = None
                    continue
                name = target.text.rstrip("/").rsplit("/", 1)[-1]
                place = self.absolute((directory.text + "/" if directory is not None else "") + name, cwd)
            else:
                place = None if link.opaque or link.pattern is not None else self.absolute(link.text, cwd)
                if place is not None and self.disk is not None and self.disk.kind(list(place)) == "dir":
                    place = (*place, target.text.rstrip("/").rsplit("/", 1)[-1])  # `ln -s T DIR`: DIR/T
            if place is None:
                links[None] = None  # (a link somewhere unknown)
                continue
            if target.opaque or target.pattern is not None:
                links[place] = None
            else:
                links[place] = self.absolute(target.text, place[:-1])

    def _tree_known(self) -> bool:
        """Is the project's directory there to look at (a line judged for a project that is
        not on this machine, as the tables' `/home/u/proj`, says nothing about what exists)?"""
        known = self._root_there
        if known is None:
            known = self._root_there = self.disk is not None and self.root_segs is not None \
                and self.disk.kind(list(self.root_segs)) == "dir"
        return known

    def _directory_stack(self, name: str, rest: Sequence[Arg]) -> bool:
        """`popd` (`-n`, `+N`, `-N`) and `pushd` without a directory or with `+N`/`-N` (the
        stack rotated) or `-n DIR`, followed as bash does on the stack `[cwd, last pushed, …]`;
        False for a `pushd DIR`, which `_directory` follows as a `cd` that saves the directory.
        An operand of unknown value, or an index past the stack, leaves the directory unknown."""
        context = self.context
        words = [a for a in rest if a.text != "--"]
        no_change = any(a.text == "-n" for a in words)
        words = [a for a in words if a.text != "-n"]
        if name == "pushd" and words and not (words[0].text[:1] in "+-" and words[0].text[1:].isdigit()):
            if no_change and len(words) == 1 and not words[0].opaque:
                # `pushd -n DIR`: DIR kept as spelled (resolved only when the stack is used)
                context.stack.append(self.absolute(words[0].text, ()) if words[0].text.startswith("/") else None)
                return True
            return False
        stack = [context.cwd, *reversed(context.stack)]
        if any(a.opaque for a in words) or len(words) > 1:
            index = None
        elif words and not (words[0].text[:1] in "+-" and words[0].text[1:].isdigit()):
            return True  # `popd a.txt`: an invalid argument, nothing changes
        elif not words:
            index = 1 if name == "pushd" else 0  # `pushd`: swap the top two; `popd`: drop the top
        else:
            n = int(words[0].text[1:])
            index = n if words[0].text[0] == "+" else len(stack) - 1 - n
        if index is None:
            context.oldpwd, context.cwd = context.cwd, None
            return True
        if not 0 <= index < len(stack) or len(stack) < 2 and (name == "popd" or not words):
            return True  # an index past the stack, or no other directory: an error, nothing changes
        if None in stack[1:]:
            # An entry of unknown value (a `pushd` that may have failed): what is where is unknown.
            context.oldpwd = context.cwd = None
            return True
        current = context.cwd
        if name == "pushd":
            if not words:
                stack[0], stack[1] = stack[1], stack[0]
            else:
                stack = stack[index:] + stack[:index]  # rotated: entry N comes to the top
        else:
            if index == 0 and no_change:
                index = 1  # `popd -n`: the first entry below the working directory
            del stack[index]
        if no_change and name == "pushd":
            context.oldpwd, context.cwd = context.cwd, None  # (a rotation kept out of the cwd: not followed)
            return True
        changes = name == "pushd" or index == 0  # (`popd +N` only drops an entry)
        context.cwd = stack[0]
        context.stack = list(reversed(stack[1:]))
        if changes:
            context.oldpwd = current  # (bash's `cd`, even into the directory it is in)
        return True

    def written(self) -> dict[tuple[str, ...], str | None]:
        """The files the line has written so far (their content when computable: a script
        written and then run on the same line is read as the script it is)."""
        context = self.context
        for view in context.writers:
            self._record_writes(view)
        context.writers.clear()
        return context.written

    def written_since(self, seen: int) -> list[tuple[str, ...]]:
        """The files the line first wrote after the first `seen` of `written()`, in order. The
        written files only grow, in order, so the new ones are the last: read from the end, a
        long script's readers of written files pay for what is new, not again for all the
        earlier ones (a run over the dict from the start did, per Python command)."""
        written = self.written()
        new = len(written) - seen
        if new <= 0:
            return []
        out = list(islice(reversed(written), new))
        out.reverse()
        return out

    def written_named(self, key: Hashable, accept) -> list[tuple[str, ...]]:
        """The files the line has written so far whose name `accept`s (test files, configuration
        files), in order. The line's written files only grow, in order: each is looked at once
        per analysis and `key`, however many commands of a long script ask."""
        seen, found = self.file_scripts.get(key, (0, []))
        new = self.written_since(seen)
        if new:
            found = found + [w for w in new if w and accept(w[-1])]
            self.file_scripts[key] = (seen + len(new), found)
        return found

    def _record_writes(self, view: View | QuietCommand) -> None:
        written = self.context.written
        removed = self.context.removed
        for r, targets in view.targets:
            if not is_write_redirect(r):
                continue
            for t in targets:
                path = self.absolute(t.text, view.cwd) if not t.opaque and t.pattern is None else None
                if path is None:
                    continue
                content, refusal = stdout_content(view.cmd)
                removed.discard(path)
                if refusal is not None or r.operator not in (">", ">>", ">|", "1>", "1>>", "1>|"):
                    written[path] = None
                elif r.operator.endswith(">>"):
                    # Appending to a file the line did not write: its old content is unknown.
                    before = written.get(path)
                    written[path] = None if before is None else before + content
                else:
                    written[path] = content
        model = view.model
        if model is None or model.pure:
            return
        found = view.effects
        setting = None  # (is it a `git config -f F KEY VALUE`: asked on its first write)
        for it in found.items if found is not None else ():
            if it.role in E.WRITING and it.role != E.CHMOD:  # `chmod +x` keeps the content
                if setting is None:
                    setting = view.name == "git" and _sets_git_config(view)
                path = self.absolute(it.text, view.cwd)
                if path is not None:
                    context = self.context
                    by = context.written_by
                    # Written only as settings `git config` keeps as such, where git's reading
                    # cares (gitruns.py; a removal is `Context.removed`)
                    how = GIT_CONFIG if setting and (path not in written or by.get(path) == GIT_CONFIG) else None
                    written[path] = None
                    if it.role in _REMOVING:
                        removed.add(path)
                    else:
                        removed.discard(path)
                    if how is not None:
                        if by is _NO_WRITERS:
                            context.written_by = by = {}
                        by[path] = how
                    elif by:
                        by.pop(path, None)
        for extra in found.extra if found is not None else ():
            if extra.kind in E.WRITING and extra.path and extra.pattern is None and not extra.tree:
                path = self.absolute(extra.path, view.cwd)
                if path is not None:
                    written[path] = None
                    if extra.kind in _REMOVING:
                        removed.add(path)
                    else:
                        removed.discard(path)
            elif extra.kind in _TREE_WRITES and (extra.tree or extra.pattern is not None):
                # (a pattern's members land below the directory its fixed part names)
                spelled = extra.path if extra.pattern is None else _fixed_directory(extra.pattern)
                path = self.absolute(spelled or ".", view.cwd)
                if path is not None:
                    if self.context.trees_written is _NO_PATHS:
                        self.context.trees_written = set()
                    self.context.trees_written.add(path)
                if extra.kind == "extract" and (path is not None or view.cwd is None or view.unknown_directory):
                    # (None: below a directory of unknown place, `tar xf h.tar -C "$D"`)
                    self.file_scripts.setdefault(EXTRACTED, []).append((path, extra, view.cwd))

    # -- scripts the line wrote -------------------------------------------------------------

    def _runs_written_script(self, view: View) -> str | None:
        """The text of a shell script this command runs that an earlier command on the line
        wrote with computable content. A script for another interpreter lands in
        `view.written_code`; a script whose content is unknown in `view.runs_written`."""
        args = view.args
        inner = view.inner
        if inner >= len(args):
            return None
        name = view.name
        model = view.model
        interpreter = model is not None and model.handler == "interpreter"
        candidate: Arg | None = None
        if name in NESTED_SHELLS - {"eval"} or name in ("source", ".") or interpreter:
            for a in args[inner + 1 :]:
                if a.text.startswith("-") and a.text != "-":
                    if a.text in ("-c", "-e", "-E", "-m"):
                        return None
                    continue
                candidate = a
                break
        elif "/" in args[inner].text:
            candidate = args[inner]  # `./build.sh`
        if candidate is None or candidate.opaque:
            return None
        path = self.absolute(candidate.text, view.cwd)
        written = self.written()
        if path is None or path not in written:
            return None
        content = written[path]
        if content is None:
            view.runs_written = candidate.text
            return None
        if interpreter:
            view.written_code = content
            return None
        return content

    def _configured_programs(self, view: View, name: str, args: Sequence[Arg], inner: int) -> None:
        """The programs a tool runs that its options or configuration files name (one set
        lookup per command decides to look: `_CONFIGURED_PROGRAMS`, or a wrapper), walked as
        command lines after it (`view.wrapper_scripts`)."""
        if name == "cmake" and any(a.text[:2] == "-D" for a in args):
            # `cmake -DCMAKE_C_COMPILER=$PWD/e.sh`: the programs cmake runs as it configures
            # (to test the compiler) and its build runs
            view.wrapper_scripts = (*view.wrapper_scripts, *_cmake_programs(args))
        elif name == "sqlite3":
            view.follow = True  # (its `.shell` lines: `_follow`)
            texts = [*view.env.heredocs, *(a.text for a in args[inner + 1 :] if not a.opaque)]
            if any("edit" in code.lower() and sqlite_editors(code) is None for code in texts):
                # `select edit('x', 'sh e' || '.sh')`: the editor is computed in SQL (fails closed)
                from polydeukes.stdlib.shell.scripts import sqlite_refusal  # only such a program loads it

                view.file_script = sqlite_refusal()
        if (name in _NPM_TOOLS or view.wrapper.partition(" ")[0] in _NPM_TOOLS) \
                and any(a.text.startswith(_NPM_SHELL_OPTIONS) for a in args):
            # `npm run t --script-shell=./s.sh`, `npx --script-shell ./s.sh x`, `pnpm
            # --config.script-shell=…`: the shell npm runs scripts and `exec` commands with, as
            # npm_config_script_shell gives it (`_COMMAND_VARIABLES`)
            view.wrapper_scripts = (*view.wrapper_scripts, *_npm_shells(args))
        tool = name if name in _PROJECT_CODE_TOOLS else view.wrapper.partition(" ")[0]
        if tool in _PROJECT_CODE_TOOLS:
            # `pnpm install` runs .pnpmfile.cjs's hooks, `yarn` a pinned yarn binary and its
            # plugins (scripts.package_manager_code): walked as the node programs they are
            from polydeukes.stdlib.shell import scripts  # only such a command loads it

            # (`pnpm -C sub exec x`: the wrapper's directory is the command's already)
            code = scripts.package_manager_code(self, view, tool, args[view.inner + 1 :] if tool == name else [
                a for a in args[:inner] if a.text.partition("=")[0] not in scripts.MANAGER_DIRECTORY])
            if isinstance(code, list):
                view.wrapper_scripts = (*view.wrapper_scripts, *code)
            else:
                view.file_script = code  # (a directory of unknown value: fails closed)
        if view.wrapper in _NPM_EXECS:
            # `npx x`, `npm exec -- x` run x through the script shell the npmrc files name
            from polydeukes.stdlib.shell import scripts  # only such a command loads it

            for rc in scripts.npm_config_files(self, view, args[:inner], "."):
                shell = scripts.npmrc_script_shell(self, view, rc)
                if isinstance(shell, str):
                    view.wrapper_scripts = (*view.wrapper_scripts, f"{shell} -c ''")
                elif shell is not None:
                    view.file_script = shell  # (cannot be read, or of unknown name: fails closed)

    def _file_script(self, view: View) -> None:
        """The script file on disk this command runs (`bash x.sh`, `./x.sh`, `python3 t.py`,
        a makefile's recipes, package.json's scripts), read into `view.file_script`
        (scripts.py); its shell commands are walked after it."""
        from polydeukes.stdlib.shell import scripts  # only a command that runs a file loads it

        if view.file_script is not None and view.file_script.refused is not None:
            return  # (a refusal of `_configured_programs`: `yarn --cwd "$D"`)
        if view.name in PROGRAM_RUNNERS or view.name in PROGRAM_FILE_READERS:
            view.file_script = script = self._in_glob_directory(view, scripts.runner_script)
        else:
            script = None
            if view.name == "bun" and scripts.bun_package_call(view):
                # (`bun run build`, `bun install`: package.json's scripts, as npm's; none of
                # that name: the file, below)
                view.file_script = script = self._in_glob_directory(view, scripts.runner_script)
            script = script or (_wrapped_script(view) if view.wrapper or view.name in _SCHEDULERS else None)
            script = script or scripts.located(view)
            if script is not None:
                view.file_script = script = scripts.read(self, view, script)
                if script is not None and script.text is not None and view.name in ("crontab", "unshar"):
                    script.text = _job_text(view.name, script.text)  # (its lines' commands, a shar's body)
            if script is None and view.model is not None and view.model.handler == "interpreter":
                # `python3 -m pip install -e .`: pip, as the `pip` command; `python3 -m sphinx`:
                # sphinx-build (projectfiles.py)
                args = view.args
                at = next((k for k in range(view.inner + 1, len(args) - 1)
                           if args[k].text == "-m" and args[k + 1].text in _TOOL_MODULES), None)
                if at is not None:
                    from polydeukes.stdlib.shell import projectfiles

                    tool = _TOOL_MODULES[args[at + 1].text]
                    view.file_script = script = (
                        projectfiles._pip_project(self, view, args[at + 2 :]) if tool == "pip"
                        else projectfiles.python_builder(self, view, args[at + 2 :], tool) if tool == "pyproject-build"
                        else projectfiles.pre_commit(self, view, args[at + 2 :]) if tool == "pre-commit"
                        else projectfiles.module_tool(self, view, args[at + 2 :], tool) if tool in projectfiles.TOOLS
                        else projectfiles._configuration(self, view, args[at + 2 :], tool))
        if script is not None and script.shell and script.text is not None:
            view.follow = True

    def _in_glob_directory(self, view: View, reader):
        """`reader(self, view)`: the project file (a Makefile, package.json …) a tool runs,
        read where it runs; below a `cd` pattern (`cd s?b && make`), read in the one directory
        the pattern matches on disk that holds one; in several, or past the bounds, it fails
        closed. Its lines are still walked where the command runs (of unknown place: their
        relative names are matched below the pattern)."""
        if view.cwd is not None or view.cwd_glob is None:
            return reader(self, view)
        from polydeukes.stdlib.shell.scripts import FileScript, glob_matches

        base, pattern = view.cwd_glob
        directories = glob_matches(self, view, pattern, base, absolute=True)
        found = []
        why = directories.reason if not isinstance(directories, list) else None
        for directory in directories if why is None else ():
            view.cwd = tuple(s for s in directory.split("/") if s)
            try:
                script = reader(self, view)
            finally:
                view.cwd = None
            if script is not None:
                found.append(script)
        if why is None and len(found) <= 1:
            return found[0] if found else None
        script = FileScript(pattern, view.name, True, True, None)
        script.refused = why or f"it runs in each of {len(found)} directories the pattern '{pattern}' matches"
        return script

    def _project_files(self, view: View) -> None:
        """The project file a build tool or task runner runs (projectfiles.py), read into
        `view.file_script`; a justfile's recipes are walked after it."""
        from polydeukes.stdlib.shell import projectfiles  # only such a tool loads it

        view.file_script = script = self._in_glob_directory(view, projectfiles.project_script)
        if script is not None and script.shell and script.lines or view.wrapper_scripts:
            view.follow = True  # (dotnet's `<Exec>` lines: `wrapper_scripts`)
        elif script is not None and not script.shell and script.text is not None and script.refused is None:
            # a task file of code (tasks.py, dodo.py, a Rakefile): the strings it hands to a
            # shell (`c.run("…")`, doit's `actions`) are walked as command lines (round r8)
            view.code_runs = view.follow = True

    def _code_writes(self, view: View) -> None:
        """The Python files a program's code on the line (`-c`/`-e` code, a heredoc) may
        write: a string literal naming a module, a start-up file or a compiled module
        (`open('x.pth', 'w')`, `Path('x.py').write_text(…)`), or spelled in literals joined
        (`'x.' + 'pth'`), in code that calls something that writes. Each is written with content
        this layer does not compute (a later import of it fails closed); a start-up file or
        compiled module is kept in `python_written` too, and so is the site directory such code
        names (`site.getsitepackages()`) when no start-up file name is spelled."""
        words = view.cmd.words
        spelled = view.source[words[0].start : words[-1].end] if words else ""
        if ".py" not in spelled and "pth" not in spelled and "customize" not in spelled \
                and "__pycache__" not in spelled and "$" not in spelled and "`" not in spelled \
                and "site" not in spelled and "+" not in spelled and "' '" not in spelled and '" "' not in spelled \
                and not view.cmd.heredocs:
            return  # (the cheap test first: most programs name no Python file, nor take code of a value)
        found = view.effects
        codes = [it.text for it in found.items if it.role == E.CODE] if found is not None else []
        if not codes:
            codes = [h.body for h in view.cmd.heredocs]
        for code in codes:
            if ".py" not in code and "pth" not in code and "customize" not in code and "__pycache__" not in code \
                    and "site" not in code and "+" not in code and "' '" not in code and '" "' not in code:
                continue  # (the cheap test first: most programs name no Python file)
            from polydeukes.stdlib.shell import coded, imports  # only such code loads them

            if not coded.calls_writer(code) and "py_compile" not in code and "compileall" not in code:
                continue  # (py_compile and compileall write the pyc files their calls name)
            context = self.context
            # (a name in one literal, or in literals joined: `'x.' + 'pth'`, `'x.p' 'th'`; round r7)
            names = [m.group(1) for m in _PYTHON_FILE_LITERAL().finditer(code)]
            if "+" in code or "' '" in code or '" "' in code:
                names.extend(joined for joined in _joined_literals(code) if _PYTHON_FILE_NAME().fullmatch(joined))
            startup = False
            for name in names:
                path = self.absolute(name, view.cwd)
                if path is None:
                    continue
                self.written()  # (the earlier writers first: `written` keeps the line's order)
                context.written[path] = None
                context.removed.discard(path)
                if imports.is_compiled(path) or path[-1].endswith(".pth") or path[-1] in imports.STARTUP_MODULES:
                    context.python_written = (*context.python_written, path)
                    startup = True
            if not startup and ("site" in code or "purelib" in code or "platlib" in code):
                # Code that writes and names a site directory (`site.getsitepackages()`,
                # `'…/site-packages/'`, sysconfig's `purelib`) may write a start-up file there
                # under a name computed at run time (round r7): a later Python run fails closed
                if _SITE_DIRECTORY().search(code):
                    site = (*view.cwd, "site-packages") if view.cwd is not None else ("site-packages",)
                    context.python_written = (*context.python_written, site)

    def _activated(self, script: Arg, cwd: tuple[str, ...] | None) -> None:
        """`source .venv/bin/activate`: a venv's activate script (a `bin/activate` beside the
        venv's `pyvenv.cfg`) puts that `bin` first on PATH, whatever its text spells it as (an
        absolute path inside a `case` or an `if`, or computed from `BASH_SOURCE`, which the
        walk of the script does not follow): its `python3`, `pytest` and `pip` then run."""
        path = self.absolute(script.text, cwd) if not script.opaque and self.disk is not None else None
        if path is None or len(path) < 3 or path[-2] != "bin" or path[-1] != "activate":
            return
        if self.disk.kind([*path[:-2], "pyvenv.cfg"]) == "file":
            directory = path[:-1]
            self.context.path_dirs = (directory, *(d for d in self.context.path_dirs if d != directory))

    def _git_external(self, view: View, args: list[Arg], inner: int) -> str | None:
        """`git SUB …` runs `git-SUB` from its exec path (`--exec-path=DIR`, `GIT_EXEC_PATH`),
        then from PATH, when SUB is no built-in: in a directory the line names there (`PATH=
        notes/ex:$PATH git foo` and `GIT_EXEC_PATH=notes/ex git foo` ran notes/ex/git-foo), the
        line that runs it; None when none is there. (A built-in of that name runs instead; the
        file is read all the same.)"""
        rest = args[inner + 1 :]
        directories: list[tuple[str, ...]] = []
        k = 0
        while k < len(rest) and rest[k].text.startswith("-"):
            if rest[k].text.startswith("--exec-path="):
                place = self.absolute(rest[k].text[len("--exec-path="):], view.cwd)
                if place is not None:
                    directories.append(place)
            k += 2 if rest[k].text in _GIT_VALUED_GLOBALS else 1
        if k >= len(rest) or rest[k].opaque or "/" in rest[k].text:
            return None
        if not directories:
            spelled = self.environment(view, "GIT_EXEC_PATH")
            place = self.absolute(spelled, view.cwd) if spelled else None
            if place is not None:
                directories.append(place)
        prefixed = [a for a in args[:inner] if a.text.startswith("PATH=")]
        directories.extend(self._path_dirs(prefixed[-1].text[5:], view.cwd) if prefixed else self.context.path_dirs)
        name = "git-" + rest[k].text
        for directory in directories:
            kind = self.disk.kind([*directory, name])
            if isinstance(kind, str) and kind != "missing":
                return _command_line("/" + "/".join((*directory, name)), rest[k + 1 :])
        return None

    def _wrote_file(self, path: tuple[str, ...]) -> bool:
        """Has the line written `path`, or a directory above it (`cp -r tools bin`: its members
        are not known), or a tree of unknown members around it (an archive extracted)?"""
        written = self.written()
        if any(path[:end] in written for end in range(1, len(path) + 1)):
            return True
        trees = self.context.trees_written
        return bool(trees) and any(path[:end] in trees for end in range(len(path)))

    def _follow_path(self, cwd: tuple[str, ...] | None) -> None:
        """The line gave PATH a value since `path_dirs` was worked out, other than by a spelled
        `PATH=…` (`printf -v PATH`, `read PATH`, `for PATH in`, `declare -x`, a reference, an
        element of `BASH_CMDS`): the directories it puts first when its value is known and
        literal, else a PATH of unknown value (`Context.path_unknown`)."""
        context = self.context
        scope = context.scope
        context.path_followed = scope.path_assignments
        values = scope.values.get("PATH", ())
        dirs: tuple[tuple[str, ...], ...] = ()
        known = "BASH_CMDS" not in scope.values and values is not None and len(values) <= 1 \
            and (not values or values[0].pattern is None)
        if known and values:
            dirs = self._path_dirs(values[0].text, cwd)
            known = _names_every_directory(values[0].text, dirs)
        context.path_unknown = not known
        context.path_dirs = dirs if known else ()

    def _path_dirs(self, value: str, cwd: tuple[str, ...] | None) -> tuple[tuple[str, ...], ...]:
        """The directories a PATH value puts before `$PATH` (`bin:$PATH`, `$PWD/bin:…`), as
        absolute paths; a component of other unknown value ends the list."""
        out = []
        for component in value.split(":"):
            if component in ("$PATH", "${PATH}"):
                break
            if component.startswith(("$PWD/", "${PWD}/")):
                component = component.split("/", 1)[1]
            if "$" in component or "`" in component:
                break
            place = self.absolute(component or ".", cwd)
            if place is not None:
                out.append(place)
        return tuple(out)

    def _node_binary(self, name: str, directory: tuple[str, ...] | None,
                     bin_directory: tuple[str, ...] = ("node_modules", ".bin")) -> str | None:
        """The absolute path of `node_modules/.bin/NAME` (or `bin_directory`'s NAME) in
        `directory` or the nearest directory above it that has one (as npm puts them on a
        script's PATH, and uv and poetry find the project's .venv), or None."""
        if directory is None:
            return None
        disk = self.disk
        for end in range(len(directory), -1, -1):
            path = [*directory[:end], *bin_directory, name]
            kind = disk.kind(path)
            if not isinstance(kind, str):
                return None  # (past the disk's bounds: not followed, as any lookup)
            if kind != "missing":
                return "/" + "/".join(path)
        return None

    def _pager_set(self) -> bool:
        """Did the line give less's environment a value earlier (`export LESS='+!…'`, `LESSKEY=k`)?
        Then a program that pages with less is judged with it (`_Judge.viewer`), not passed by
        the quiet path."""
        return not self.context.scope.values.keys().isdisjoint(LESS_VARIABLES)  # (one call: asked for every git command)

    def _git_may_run(self, spelled: str) -> bool:
        """Could the git command `spelled` here run a hook, an alias or a configured program
        (gitruns.py)?"""
        from polydeukes.stdlib.shell import gitruns  # only a git command loads it

        if "-C" in spelled or "--git-dir" in spelled or "--work-tree" in spelled:
            return True  # (another repository than the directory's: `git -C sub status`)
        context = self.context
        if context.cwd is None and context.cwd_glob is None:
            return True  # (`cd "$D" && git status`: a repository anywhere, gitruns.py)
        # (what the line set before it may name a hook or configuration git reads; what it
        # wrote may be one, in a repository)
        if self.file_scripts.get(gitruns.SETTINGS) or self.file_scripts.get(gitruns.TEMPLATES) \
                or EXTRACTED in self.file_scripts \
                or gitruns.UNKNOWN_SETTINGS in self.file_scripts \
                or gitruns.LINE_VARIABLES & context.scope.values.keys():
            return True
        return gitruns.may_run(self, context.cwd, bool(context.writers or context.written or context.trees_written))

    def _git_runs(self, view: View) -> None:
        """The hooks, alias and configured programs a `git` command runs (gitruns.py), read
        into `view.file_script` and walked after it like a makefile's recipes."""
        from polydeukes.stdlib.shell import gitruns  # only a git command loads it

        view.file_script = script = gitruns.git_script(self, view)
        if script is not None and script.text is not None:
            view.follow = True

    # -- paths ------------------------------------------------------------------------------

    def home_now(self) -> tuple[str, ...] | None:
        """The home directory `~` names here: unknown once the line assigns HOME (followed
        no further: `HOME=…; cd ~` leaves the directory unknown)."""
        return None if "HOME" in self.context.scope.values else self.home_segs

    def absolute(self, text: str, cwd: tuple[str, ...] | None) -> tuple[str, ...] | None:
        """The absolute, dot-resolved segments of a spelled path, or None when unknowable
        (a relative path under an unknown directory, another user's home, a variable)."""
        if text.startswith("/"):
            base: tuple[str, ...] = ()
            rest = text
        elif text == "~" or text.startswith("~/"):
            home = self.home_now()
            if home is None:
                return None
            base, rest = home, text[1:]
        elif text.startswith(("~", "$")):
            return None
        else:
            if cwd is None:
                return None
            base, rest = cwd, text
        parts = [s for s in rest.split("/") if s]
        segs = dot_resolve([*base, *parts]) if ("." in parts or ".." in parts) else [*base, *parts]
        while segs and segs[0] == "..":
            segs = segs[1:]
        return tuple(segs)


_NO_ENV = View.env
_TREE_WRITES = E.WRITING | {"extract", "patch"}


def _fixed_directory(pattern: str) -> str:
    """The directory a pathname pattern's matches all lie below: its segments before the first
    one with a glob character (`.git/hooks/*` -> `.git/hooks`)."""
    fixed = []
    for segment in pattern.split("/"):
        if any(c in segment for c in "*?[\\"):
            break
        fixed.append(segment)
    else:
        fixed.pop()
    return "/".join(fixed)
_GROUP_ENDS = frozenset({"}", "done", "fi", "esac"})


def _opens_descriptors(cmd: SimpleCommand) -> bool:
    """Does a redirect of the command read (`<`, `<>`, `<&`), or is it `exec`, whose writing
    redirects close what an earlier `exec 3<x.sh` opened (`inputs.input_fds`)?"""
    for r in cmd.redirects:
        if r.operator in ("<", "<>", "<&"):
            return True
    return bool(cmd.words) and cmd.words[0].text == "exec"
_PIPED_ENV = E.Env(piped=True)
_WRITER_NAMES = E.names_with_effects()


def _may_make_repository(view: View) -> bool:
    """Could this writer make a git repository (gitruns.py): a word or a redirect target that
    spells `.git`, or an archive it extracts (whose members may be one)?"""
    if any(".git" in a.text for a in view.args) or any(".git" in t.text for _, targets in view.targets for t in targets):
        return True
    found = view.effects if view.model is not None else None
    return found is not None and any(extra.kind == "extract" for extra in found.extra)
_NO_ROLES: dict[int, str] = {}
# Commands after which the walk reads another script.
# (round 10) `mapfile -C CALLBACK` and `readarray -C` evaluate CALLBACK as code every `-c` lines
_RUNS_SCRIPTS = NESTED_SHELLS | _SCHEDULERS | _FD | {"alias", "trap", "find", "sed", "gsed", "mapfile", "readarray"}
# First pipeline stages whose output is whole lines of their file operands (some of them, in
# another order at most): what they pass on to an executor is those files' text (scripts.py).
# The copiers among them print their input as it is: `dd if=F` (without `conv=`), `tee` (its
# stdin; its operands are written), `pv`, and the pagers, which copy when their output is a pipe.
FILE_COPIERS = frozenset({"dd", "tee", "pv", "more", "less"})
FILE_PASSERS = frozenset({"cat", "tac", "sort", "uniq", "head", "tail", "grep", "egrep", "fgrep", "shuf",
                          *FILE_COPIERS})
# First stages whose output the walk follows into the stages it feeds (a lister's paths, a
# file's lines).
_FLOWING_SOURCES = listers.LISTERS | FILE_PASSERS
# Commands that may run a script file the line wrote (besides interpreters and `./path`).
_SCRIPT_RUNNERS = (NESTED_SHELLS - {"eval"}) | {"source", "."}
# Commands that run a script from a file (besides interpreters and `./path`): scripts.py.
# (split: its `--filter` command reads each piece of the file, `split --filter=sh x.sh` runs it;
# parallel without a command runs each line of its input)
_FILE_RUNNERS = _SCRIPT_RUNNERS | PROGRAM_RUNNERS | PROGRAM_FILE_READERS | _SCHEDULERS | {"split", "parallel"}
# Commands that change the line's state (besides assignments and writes).
_STATEFUL = DIRECTORY_CHANGES | _DECLARATIONS | frozenset({
    "unset", "read", "mapfile", "readarray", "printf", "for", "select", "set", "shopt", "hash",
    "enable", "function", "ln", "shift",
})
# git's options before the subcommand that take the next word as their value.
_GIT_VALUED_GLOBALS = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace",
                                 "--super-prefix", "--config-env", "--exec-path"})
# Commands with a row that can write (so in `_NAMES_WITH_EFFECTS`) whose effects the model
# decides from their argv and stdin, and that change nothing else: the fast path asks the model
# whether a given call of theirs only reads (`_reads_only`). Not an interpreter (its code is
# always read for mentions), nor `tee` and `sed` (§8.2 reads their operands as write targets
# itself), nor `find` (the walk follows what it runs).
_MODELLED_WRITERS = frozenset(
    name for name, model in E.COMMANDS.items() if not model.pure and model.handler != "interpreter"
) - NESTED_SHELLS - DIRECTORY_CHANGES - _RESERVED - _DECLARATIONS - BUILTINS - _WRAPPER_NAMES \
    - _RUNS_SCRIPTS - _STATEFUL - frozenset({"tee", "sed"}) - VIEWERS \
    - frozenset(name for name, options in E.STDIN_PROGRAMS.items() if options is None)  # (lftp: its stdin is code)
# Names the fast path takes with their words as arguments: the writers above, and `cd`,
# `pushd`, `popd`, whose directory it follows as `_update` would.
_QUIET_WITH_ARGS = _MODELLED_WRITERS | DIRECTORY_CHANGES
# Quiet builtins that may index an array named in a quoted word (`test -v 'a[$(…)]'`, `[ -v …
# ]`): bash evaluates the subscript, so a spelled substitution sends them down the full walk.
_ELEMENT_TESTS = frozenset({"test", "["})


def _spells_substitution(spelled: str) -> bool:
    return "$(" in spelled or "`" in spelled


def _root_segments(root: str) -> tuple[str, ...] | None:
    if not isinstance(root, str) or not root.startswith("/"):
        return None
    segs = dot_resolve([s for s in root.split("/") if s])
    return None if ".." in segs else tuple(segs)


def call_directory(cwd: str, root: tuple[str, ...] | None) -> tuple[str, ...] | None:
    """The directory a call runs in, as segments: an absolute `cwd` as spelled (`..` resolved),
    a relative one below the root; None (a directory of unknown value: relative paths are then
    judged as after `cd "$D"`) when it cannot be read as one. The root itself is the root's own
    tuple, which the walk tells apart by identity."""
    if not isinstance(cwd, str) or not cwd or "\0" in cwd:
        return None
    if not cwd.startswith("/"):
        if root is None:
            return None
        cwd = "/" + "/".join(root) + "/" + cwd
    segs = _root_segments(cwd)
    if segs is not None and root is not None and segs[: len(root)] != root:
        # Spelled outside the project, but a host may spell through a link what the judge's
        # root (the process's working directory, always physical) spells resolved: `/var/…`
        # for `/private/var/…`, a linked home. Where it is on disk decides.
        import os

        real, real_root = _root_segments(os.path.realpath(cwd)), _root_segments(os.path.realpath("/" + "/".join(root)))
        if real is not None and real_root is not None and real[: len(real_root)] == real_root:
            segs = root + real[len(real_root) :]
    return root if segs is not None and segs == root else segs


def _home_segments(home: str | None) -> tuple[str, ...] | None:
    if not isinstance(home, str) or not home.startswith("/"):
        return None
    segs = [s for s in home.split("/") if s]
    if any(s in (".", "..") for s in segs):
        return None
    return tuple(segs)  # `()` for a home of `/`


def _unescape(text: str) -> str:
    return {"\\n": "\n", "\\t": "\t", "\\0": "\0"}.get(text, text[:1] or "\n")


_XARGS_TOKEN = LazyPattern(r"""'([^']*)'|"([^"]*)"|((?:\\.|[^\s'"\\])+)""")


def _xargs_items(text: str, delimiter: str | None, limit: int = 10_000) -> list[str] | None:
    """xargs's reading of its input: blank-separated words with quotes and backslashes, or
    items split on `-0` / `-d`."""
    if delimiter is not None:
        items = [item for item in text.split(delimiter) if item != ""]
    else:
        items = []
        for m in _XARGS_TOKEN().finditer(text):
            single, double, plain = m.groups()
            items.append(single if single is not None else double if double is not None
                         else re.sub(r"\\(.)", r"\1", plain))
            if len(items) > limit:
                return None
    return items if len(items) <= limit else None


def _unwrap(args: Sequence[Arg] | Sequence[Word]) -> tuple[int, bool, bool, int]:
    """Index of the command a chain of reserved words and wrappers finally runs.

    Returns (index, via_xargs, changes_directory, index of the xargs word or -1). The index
    equals `len(args)` when there is no inner command (`env` alone, `command -v x`)."""
    n = len(args)
    if not n:
        return 0, False, False, -1
    first = args[0].text
    if "=" not in first and first not in _RESERVED and basename(first) not in _WRAPPER_NAMES and not first.endswith(")") \
            and first != "case":
        return 0, False, False, -1  # the common case: a plain command, nothing to unwrap
    k = 0
    via_xargs = False
    changes_directory = False
    xargs_at = -1
    while k < n:
        a = args[k]
        if k == 0 and a.text[-1:] == ")" and _is_case_pattern(a) and (n > 1 or "(" not in a.text):
            k += 1  # an arm's pattern opening a line (`x)`, `*)`; `(x)` only before its command)
            continue
        if a.opaque and not (type(a) is Arg and a.word is not None and is_assignment(a.word.text)):
            break  # (an assignment of unknown value is still an assignment: `PATH=bin:$PATH ls`)
        if a.text == "case" and k + 2 < n and args[k + 2].text == "in" and not args[k + 2].opaque:
            # `case WORD in PATTERN) CMD …` on one line (a `;;`, `;&` or `;;&` ends the arm and
            # the next arm opens its own command): the subject is data, the pattern no command.
            # Without a `)` the pattern goes on past a `|` (`a|b)`), which ends this command.
            k += 3
            while k < n:
                k += 1
                if _is_case_pattern(args[k - 1]):
                    break
            continue
        if is_assignment(a.text) or a.text in _RESERVED and a.text not in _WRAPPERS:
            k += 1  # an assignment prefix, a reserved word (`time` reads its options as a wrapper's)
            continue
        name = basename(a.text)
        spec = _WRAPPERS.get(name)
        if spec is not None:
            k += 1
        else:
            spec, k, moved = _subcommand_row(args, k, name)
            if spec is None:
                break  # no wrapper, or a program whose subcommand runs no command (`npm run x`)
            changes_directory = changes_directory or moved
        short_args, long_args, positionals, assignments = spec
        if name == "xargs" or name == "parallel" and _PARALLEL_PIPES.isdisjoint(a.text for a in args[k:]):
            via_xargs = True  # (GNU parallel with a command and its arguments from stdin or files)
            xargs_at = k - 1
        elif name == "setarch" and k < n and not args[k].text.startswith("-"):
            k += 1  # `setarch x86_64 -R cmd`
        elif name == "bwrap":
            k = _past_bwrap(args, k)
        k, moved = _past_options(args, k, name, short_args, long_args, assignments)
        if k < 0:
            return n, via_xargs, changes_directory, xargs_at  # `command -v`: a lookup, not an execution
        changes_directory = changes_directory or moved
        if name == "runuser" and not any(a.text in ("-u", "--user") or a.text.startswith("--user=")
                                         for a in args[:k]):
            positionals = 1 << 16  # su's form (`runuser -l user -c 'cmd'`): no command word
        k += positionals
        if name == "coproc" and k + 1 < n and not args[k].opaque and (
                args[k + 1].text in _COMPOUND_OPENERS or args[k + 1].text[:1] == "("):
            k += 1  # (its NAME)
        if name == "flock" and k < n and args[k].text in ("-c", "--command"):
            k = n  # `flock FILE -c 'cmd'`: the string is the command
    return min(k, n), via_xargs, changes_directory, xargs_at


_COMPOUND_OPENERS = frozenset({"{", "while", "until", "for", "select", "if", "case", "[["})


def _past_options(args: Sequence[Arg] | Sequence[Word], k: int, name: str, short_args: frozenset[str],
                  long_args: frozenset[str], assignments: bool) -> tuple[int, bool]:
    """Index past the options of wrapper `name` that start at `args[k]` (their values and a `--`
    ending them included), and whether one runs the command in another directory (`env -C`,
    `uv --directory`); -1 for `command -v`, which looks a name up and runs nothing."""
    n = len(args)
    changes_directory = False
    while k < n:
        text = args[k].text
        if text == "--":
            return k + 1, changes_directory
        if name == "command" and text in ("-v", "-V"):
            return -1, changes_directory
        if text.startswith("-") and len(text) > 1:
            option = text.split("=", 1)[0]
            if text.startswith("--") or option in long_args:  # (gdb's and screen's `-ex`, `-Logfile`)
                changes_directory = changes_directory or (name, option) in _CHDIR_OPTIONS
                k += 2 if option in long_args and "=" not in text else 1
                continue
            # A bundle (`sudo -Eu root cmd`): the first letter that takes an argument ends
            # it, and takes the next word when it is the bundle's last letter.
            step = 1
            for pos in range(1, len(text)):
                flag = text[pos]
                changes_directory = changes_directory or (name, "-" + flag) in _CHDIR_OPTIONS
                if flag in short_args:
                    step = 2 if pos == len(text) - 1 else 1
                    break
            k += step
        elif assignments and is_assignment(text):
            k += 1
        else:
            break
    return k, changes_directory


# bwrap's options by the number of words they take (any other takes none).
_BWRAP_VALUES = {
    **dict.fromkeys(("--bind", "--bind-try", "--dev-bind", "--dev-bind-try", "--ro-bind", "--ro-bind-try",
                     "--symlink", "--setenv", "--file", "--bind-data", "--ro-bind-data", "--chmod", "--bind-fd",
                     "--ro-bind-fd"), 2),
    "--overlay": 3,
    **dict.fromkeys(("--args", "--argv0", "--userns", "--userns2", "--pidns", "--lock-file", "--sync-fd",
                     "--info-fd", "--json-status-fd", "--block-fd", "--userns-block-fd", "--uid", "--gid",
                     "--hostname", "--chdir", "--unsetenv", "--remount-ro", "--exec-label", "--file-label",
                     "--proc", "--dev", "--tmpfs", "--mqueue", "--dir", "--seccomp", "--add-seccomp-fd",
                     "--cap-add", "--cap-drop", "--perms", "--size", "--overlay-src", "--tmp-overlay",
                     "--ro-overlay"), 1),
}
# bwrap's options that place a source at a destination: the same files only where both are one path.
_BWRAP_BINDS = frozenset({"--bind", "--bind-try", "--dev-bind", "--dev-bind-try", "--ro-bind", "--ro-bind-try"})


def _past_bwrap(args: Sequence[Arg] | Sequence[Word], k: int) -> int:
    """Index past bwrap's options that start at `args[k]` (`_BWRAP_VALUES`)."""
    while k < len(args) and args[k].text.startswith("--") and args[k].text != "--":
        k += 1 + _BWRAP_VALUES.get(args[k].text, 0)
    return k


# The wrappers `_new_root` reads, and the options of unshare, nsenter and chpst that change
# the root directory (`-r`/`-w` of nsenter take their value attached, or none: the target's).
_REROOTING = frozenset({"chroot", "bwrap", "proot", "schroot", "systemd-nspawn", "unshare", "nsenter", "chpst"})
_ROOT_OPTIONS = {"unshare": ("--root", "-R"), "nsenter": ("--root", "-r", "--wd", "-w"), "chpst": ("-/",)}


def _new_root(args: Sequence[Arg], inner: int) -> tuple[str, str] | None:
    """The wrapper before `args[inner]` and the root directory (as the message names it) it
    runs the command under, when the paths the command names are not the line's files
    (`chroot . sh x.sh`, `bwrap --bind . /w sh /w/x.sh`, `unshare -R d`); None when they are
    (`chroot / cmd` with its directory `/`, bwrap's binds of a path onto itself)."""
    for k in range(inner):
        name = basename(args[k].text)
        if name == "chroot":
            at = k + 1
            while at < inner and args[at].text.startswith("-"):
                at += 2 if args[at].text in ("--userspec", "--groups") else 1
            if at < inner and (args[at].opaque or args[at].text.rstrip("/") != ""):
                return name, "its operand" if args[at].opaque else args[at].text
        elif name == "bwrap":
            at = k + 1
            while at < inner and args[at].text.startswith("--") and args[at].text != "--":
                option = args[at].text
                if option in ("--args", "--overlay", "--tmp-overlay", "--ro-overlay", "--symlink", "--file",
                              "--bind-data", "--ro-bind-data", "--bind-fd", "--ro-bind-fd") or option in _BWRAP_BINDS \
                        and (at + 2 >= inner or args[at + 1].opaque or args[at + 1].text != args[at + 2].text):
                    return name, "the files its options place"
                at += 1 + _BWRAP_VALUES.get(option, 0)
        elif name in ("proot", "schroot", "systemd-nspawn"):
            return name, "the files its options or configuration place"
        elif name in _ROOT_OPTIONS:
            spellings = _ROOT_OPTIONS[name]
            for a in args[k + 1 : inner]:
                if a.text.split("=", 1)[0] in spellings or any(
                        a.text.startswith(s) for s in spellings if not s.startswith("--")):
                    return name, "the directory its options name"
    return None


def _wrapper_directory(args: Sequence[Arg], inner: int) -> str | None:
    """The directory the wrappers before `args[inner]` run their command in, as spelled (the
    last `env -C DIR`, `sudo -D DIR`, `--chdir=DIR`, `uv --directory DIR` …); None when one
    is of unknown value (or a pattern)."""
    found: Arg | str | None = None
    wrapper = ""
    for k in range(inner):
        text = args[k].text
        if basename(text) in _WRAPPER_NAMES and not text.startswith("-"):
            wrapper = basename(text)
        if (wrapper, text.split("=", 1)[0]) in _CHDIR_OPTIONS:
            found = text.split("=", 1)[1] if "=" in text else args[k + 1] if k + 1 < len(args) else None
        elif text.startswith("-") and not text.startswith("--") and len(text) > 1:
            for pos in range(1, len(text)):  # a bundle: `sudo -ED dir`, `env -Cdir`
                if (wrapper, "-" + text[pos]) in _CHDIR_OPTIONS:
                    found = text[pos + 1 :] or (args[k + 1] if k + 1 < len(args) else None)
                    break
    if isinstance(found, Arg):
        return None if found.opaque or found.pattern is not None else found.text
    return found


def _subcommand_row(args: Sequence[Arg] | Sequence[Word], k: int,
                    name: str) -> tuple[_WrapperRow | None, int, bool]:
    """For a program at `args[k]` that wraps under a subcommand (`_SUBCOMMAND_WRAPPERS`): the
    row its words after the subcommand are read with, the index of the first of them, and
    whether its global options move the command to another directory; (None, k, False) when
    the program is no such wrapper or its subcommand runs no command of the line's."""
    program = _SUBCOMMAND_WRAPPERS.get(name)
    if program is None:
        return _ip_exec_row(args, k) if name == "ip" else _parallel_row(args, k) if name == "parallel" \
            else (None, k, False)
    short_args, long_args, rows = program
    j, moved = _past_options(args, k + 1, name, short_args, long_args, False)
    if j < len(args) and not args[j].opaque and args[j - 1].text != "--":
        row = rows.get(args[j].text)
        if row is not None:
            return row, j + 1, moved
    row = rows.get("")
    return (row, j, moved) if row is not None else (None, k, False)


# ip's global options in the order ip tries them, each with whether it takes the next word: a
# word is the first whose name it begins (`-n` is `-netns`, `-b` `-batch`, `-r` `-resolve` but
# `-rc` `-rcvbuf`; two dashes as one). iproute2 6.1's ip.c.
_IP_OPTIONS = (
    ("-loops", True), ("-family", True), ("-human", False), ("-iec", False), ("-stats", False),
    ("-statistics", False), ("-details", False), ("-resolve", False), ("-oneline", False),
    ("-timestamp", False), ("-tshort", False), ("-Version", False), ("-force", False), ("-batch", True),
    ("-brief", False), ("-json", False), ("-pretty", False), ("-rcvbuf", True), ("-help", False),
    ("-netns", True), ("-Numeric", False), ("-all", False),
)
# The objects whose `exec` runs a command (the spellings ip's first match gives them: `n` and `ne`
# are `neighbor`), and how many names stand between `exec` and the command.
_IP_EXEC_OBJECTS = {"net": 1, "netn": 1, "netns": 1, "v": 1, "vr": 1, "vrf": 1}


def ip_option(text: str) -> tuple[str, bool] | None:
    """The global option of ip a word spells (`_IP_OPTIONS`), or None."""
    word = text[1:] if text.startswith("--") else text
    return next((row for row in _IP_OPTIONS if row[0].startswith(word)), None) if len(word) > 1 else None


def _ip_exec_row(args: Sequence[Arg] | Sequence[Word], k: int) -> tuple[_WrapperRow | None, int, bool]:
    """`_subcommand_row` for ip (`ip [OPTIONS] netns exec NAME CMD`, `ip -all netns exec CMD`,
    `ip vrf exec NAME CMD`, each word as ip abbreviates it: `ip net e n1 CMD`); (None, k,
    False) for any other ip command."""
    j = k + 1
    every = False
    while j < len(args) and args[j].text.startswith("-") and not args[j].opaque:
        option = ip_option(args[j].text)
        every = every or option is not None and option[0] == "-all"
        j += 2 if option is not None and option[1] else 1
    if j + 1 >= len(args) or args[j].opaque or args[j + 1].opaque or not args[j + 1].text \
            or not "exec".startswith(args[j + 1].text) or args[j].text not in _IP_EXEC_OBJECTS:
        return None, k, False
    names = 0 if every and args[j].text.startswith("net") else _IP_EXEC_OBJECTS[args[j].text]
    return (_NO_VALUES, _NO_VALUES, names, False), j + 2, False


def _is_case_pattern(a: Arg | Word) -> bool:
    """Is the word a `case` arm's pattern (`x)`, `(x)`, `*.sh)`, the `b)` of `a|b)`)? A function
    definition (`f()`) is none, nor is a word that ends in a command substitution (`$(echo rm)`
    runs it)."""
    text = a.text
    return text.endswith(")") and ("(" not in text or text[:1] == "(" and text[1:2] != "(") and not (
        (a.word if type(a) is Arg else a).flags & W_SUBST)


def _array_end(args: Sequence[Arg] | Sequence[Word], k: int) -> int:
    """Index past the words of an array assignment opening at `args[k]` (`a=(x`, `y`, `z)`)."""
    if args[k].text.endswith(")"):
        return k + 1
    j = k + 1
    while j < len(args) and not args[j].text.endswith(")"):
        j += 1
    return min(j + 1, len(args))


# Readers whose output names each file they read (with a checksum, a count or a type beside
# it), not its text.
_NAME_PRINTERS = frozenset({"md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "b2sum",
                            "cksum", "sum", "wc", "file", "stat"})


def _flows_out(view: View, flowing: tuple | None) -> tuple | None:
    """The paths a stage prints when they are listed paths: a lister's own, or those it was fed
    when it only passes on some of its lines (`find … | grep x | xargs rm`); a stage that may
    rewrite the lines it was fed passes on any path at all."""
    if view.name in listers.LISTERS:
        listed = listers.listing(view)
        if listed is not None:
            return listed
    if flowing is None:
        return None
    return flowing if listers.selects(view) else listers.anywhere(flowing)


def _joined_literals(code: str) -> list[str]:
    """The text of each run of string literals in `code` joined as Python joins them
    (`'x.' + 'pth'` -> `x.pth`)."""
    return ["".join(a or b for a, b in _LITERAL().findall(m.group(0))) for m in _LITERAL_RUN().finditer(code)]


def _inert(cmd: SimpleCommand) -> bool:
    """A command like a plain line (`tokenizer.PlainRun`): plain words only (no expansion,
    substitution, group parenthesis), no redirect or heredoc, and a name with no effects of
    its own. Without a mention it changes nothing any judge looks at."""
    if cmd.flags or cmd.redirects or cmd.heredocs or not cmd.words:
        return False
    name = cmd.words[0].text
    # (A name ending in a digit may be a versioned interpreter, `python3.12`: `E.model_for`.)
    if "/" in name or "=" in name or name in _NAMES_WITH_EFFECTS or name[-1:].isdigit():
        return False
    # A parenthesis glued to a word is a group or `case` marker (§8.6 reads those). (A plain
    # loop: `any` over a generator costs more for the few words a command has.)
    for w in cmd.words:
        if w.text.startswith("(") or w.text.endswith(")"):
            return False
    return True


def _reads_only(name: str, args: list[Arg], env: E.Env) -> bool:
    """Do the model's effects of a `_MODELLED_WRITERS` command on these arguments and stdin
    only read (`sort`, `uniq -c`, `rg x`, `git diff --stat`: no `-o`, no output operand, no
    work-tree rewrite)? Then, without a mention, the judge finds nothing in it but its
    redirects."""
    found = E.effects_of(name, args[1:], env, 1, E.COMMANDS[name])
    if found is None or found.extra or found.unproven is not None:
        return False
    for it in found.items:
        if it.role not in E.HARMLESS:
            return False
    return True


def _moves_directory(cmd: SimpleCommand) -> bool:
    """Does the command change directory, itself or through a wrapper (`env -C`, `sudo -D`)?"""
    words = cmd.words
    if not words:
        return False
    k = name_index(words)
    if k < len(words) and not words[k].opaque and basename(words[k].text) in DIRECTORY_CHANGES:
        return True
    if basename(words[0].text) not in _MOVING_WRAPPERS and "=" not in words[0].text:
        return False
    return _unwrap(words)[2]


def _uv_run_with(args: Sequence[Arg]) -> list[tuple[str, Arg]]:
    """The requirements `uv run --with X`/`--with-editable X` (`=X` too) installs: ("-e " for
    an editable one, else "", X) each."""
    out: list[tuple[str, Arg]] = []
    for k, a in enumerate(args):
        option, eq, value = a.text.partition("=")
        if option in ("--with", "--with-editable"):
            editable = "-e " if option == "--with-editable" else ""
            if eq:
                out.append((editable, Arg(value, None, a.opaque, a.count, a.word)))
            elif k + 1 < len(args):
                out.append((editable, args[k + 1]))
    return out


# The directories `direnv exec DIR` looks in for an .envrc: DIR and those above it.
_ENVRC_LEVELS = 6
# Wrappers whose `-c`/`--command` string is a command line run by a shell.
_COMMAND_STRING_WRAPPERS = frozenset({"flock", "su", "runuser", "sg", "script"})


def _wrapper_options(args: Sequence[Arg], inner: int) -> tuple[dict[int, str], list[str], str]:
    """Roles of the wrapper words before the command that are not plain data, the command
    strings wrappers run, and the wrapper that runs the command (`_WRAPPER_STRINGS`' key, `uv
    run` for a subcommand). Command strings: `env -S 'cmd …'`, `flock -c 'cmd'`, `nix-shell
    --run 'cmd'`, hyperfine's and tmux's operands (walked as scripts: the real command is in the
    string); writes: `time -o file`, `strace -o file`."""
    roles: dict[int, str] = {}
    scripts: list[str] = []
    wrapper = ""
    strings: _WrapperStrings | None = None
    k = 0
    while k < inner:
        text = args[k].text
        name = basename(text)
        program = _SUBCOMMAND_WRAPPERS.get(wrapper)
        if program is not None and text in program[2]:
            wrapper = f"{wrapper} {text}"  # `perf stat`, `tmux new-session`
            if wrapper in ("bundle exec", "bundle e"):
                scripts.append("bundle check")  # (the Gemfile it evaluates first)
            elif wrapper == "nix develop":
                # (round r8) its shell hook runs first, in this shell: flake.nix, read as
                # projectfiles.TOOLS says for `nix print-dev-env`
                scripts.append("nix print-dev-env")
            elif wrapper == "uv run":
                # It installs the project first, and what `--with`/`--with-editable` name
                # (projectfiles.python_builder reads the code that builds them).
                if not any(a.text in _UV_RUN_NO_SYNC for a in args[k + 1 : inner]):
                    scripts.append("uv sync")
                scripts.extend(f"uv pip install {editable}{_command_line('', [value], False, True)}"
                               for editable, value in _uv_run_with(args[k + 1 : inner]))
            elif wrapper == "direnv exec" and k + 1 < inner and not args[k + 1].opaque:
                # (round 8) `direnv exec DIR cmd` sources the .envrc of DIR, or of the nearest
                # directory above it that has one (bash, run in the .envrc's directory): each
                # is read as sourced first: those above DIR from where the line is, then DIR's
                # from DIR itself, as direnv runs it (its relative paths are DIR's; last, as
                # the walk of a wrapper's lines keeps that `cd` for the lines after it)
                base = args[k + 1].text.rstrip("/") or "/"
                scripts.extend("source " + _argv_line([Arg(base + "/.." * up + "/.envrc", None, False, 1, None)])
                               for up in range(1, _ENVRC_LEVELS))
                scripts.append("source .envrc" if base == "." else
                               "cd " + _argv_line([Arg(base, None, False, 1, None)]) + " && source .envrc")
            strings = _WRAPPER_STRINGS.get(wrapper)
            if strings is not None and (strings.operands or strings.argv_options) and program[2][text][2] >= 1 << 16:
                _operand_lines(args, k + 1, inner, program[2][text], strings, roles, scripts)
                break
        elif name in _WRAPPER_NAMES and not text.startswith("-"):
            wrapper = name
            if name == "uvx":  # (it builds the projects its `--from`/`--with` name first)
                scripts.append("uv tool run" + _command_line("", args[k + 1 : inner], False, True))
            elif name == "nix-shell" and not any(a.text in ("-p", "--packages", "-E", "--expr")
                                                 for a in args[k + 1 : inner]):
                # (round r8) the shell hook of shell.nix (else default.nix) runs first, in the
                # shell: both read as projectfiles.TOOLS says for `nix print-dev-env --file`
                scripts.extend(("nix print-dev-env --file shell.nix", "nix print-dev-env --file default.nix"))
            strings = _WRAPPER_STRINGS.get(wrapper)
            row = _WRAPPERS.get(name)
            if strings is not None and strings.operands and row is not None and row[2] >= 1 << 16:
                _operand_lines(args, k + 1, inner, row, strings, roles, scripts)  # hyperfine's commands
                break
        elif wrapper == "env" and (text.startswith("--split-string") or _env_split_at(text) > 0):
            # (`-S` may end a bundle of options that take no value: `env -vS 'cmd'`, `-iS'cmd'`)
            at = _env_split_at(text)
            ends = text == "--split-string" or at == len(text) - 1
            value = args[k + 1] if ends and k + 1 < len(args) else None
            script = value.text if value is not None else text.split("=", 1)[-1] if at < 0 else text[at + 1 :]
            scripts.append(script + " " + " ".join(a.text for a in args[inner:]))
            roles[k] = E.CODE
            if value is not None:
                roles[k + 1] = E.CODE
                k += 1
        elif wrapper in _COMMAND_STRING_WRAPPERS and k + 1 < len(args) and (
                text in ("-c", "--command", "--session-command")
                or text.startswith("-") and not text.startswith("--") and text.endswith("c")
                and all(letter not in _WRAPPERS[wrapper][0] for letter in text[1:-1])):
            scripts.append(args[k + 1].text)  # (`script -qc 'cmd' log`: the bundle ends in -c)
            roles[k + 1] = E.CODE
            k += 1
        elif wrapper == "sg" and not text.startswith("-") and k + 1 < len(args) and args[k + 1].text != "-c":
            scripts.append(args[k + 1].text)  # `sg GROUP 'cmd'`: sh runs it, as `-c`'s
            roles[k + 1] = E.CODE
            break
        elif strings is not None and text.startswith("-"):
            k = _string_option(args, k, strings, roles, scripts)
        k += 1
    if wrapper == "script":
        _typescript(args, inner, roles)
    if strings is not None and strings.operands == "joined" and inner < len(args) \
            and not any(a.text in ("-x", "--exec") for a in args[:inner]) \
            and any(_SHELL_SYNTAX().search(a.text) for a in args[inner:]):
        # `watch 'make && rm x'`, `watch ls ';' rm x`: watch hands its words, joined, to `sh -c`.
        scripts.append(" ".join(a.text for a in args[inner:]))
    return roles, scripts, wrapper


def _typescript(args: Sequence[Arg], inner: int, roles: dict[int, str]) -> None:
    """`script [options] [FILE]`: FILE (the typescript, `typescript` when there is none) is
    written, as are the files of `-O`/`-I`/`-B`/`-T` (`--log-out`, `--log-in`, `--log-io`,
    `--log-timing`); `-c`'s value is the command (`_COMMAND_STRING_WRAPPERS`)."""
    at = next((k for k in range(inner) if basename(args[k].text) == "script"), None)
    if at is None:
        return
    short_args, long_args = _WRAPPERS["script"][0], _WRAPPERS["script"][1]
    k = at + 1
    while k < inner:
        text = args[k].text
        option = text.split("=", 1)[0]
        if text == "--":
            k += 1
            break
        if text.startswith("--"):
            if option in _SCRIPT_LOGS and "=" not in text and k + 1 < inner:
                roles.setdefault(k + 1, E.WRITE)
            elif option in _SCRIPT_LOGS:
                roles.setdefault(k, E.WRITE)
            k += 2 if option in long_args and "=" not in text else 1
            continue
        if text.startswith("-") and len(text) > 1:
            step = 1
            for pos in range(1, len(text)):
                if text[pos] in short_args:
                    if "-" + text[pos] in _SCRIPT_LOGS:
                        # (`-Olog`: attached; `-O log`: the next word)
                        roles.setdefault(k if pos < len(text) - 1 else k + 1, E.WRITE)
                    step = 2 if pos == len(text) - 1 else 1
                    break
            k += step
            continue
        break
    while k < inner and k in roles:
        k += 1  # (a `-c` value given its role already)
    if k < inner:
        roles.setdefault(k, E.WRITE)


_SCRIPT_LOGS = frozenset({"-O", "--log-out", "-I", "--log-in", "-B", "--log-io", "-T", "--log-timing"})


def _env_split_at(text: str) -> int:
    """The index of the `S` that takes env's `--split-string` value in a bundle of short
    options (`-S`, `-vS`, `-iS'cmd'`), or -1 when none does (a letter before it takes a value
    of its own: `-uS`)."""
    if text[:1] != "-" or text[1:2] == "-":
        return -1
    for j in range(1, len(text)):
        if text[j] in _WRAPPERS["env"][0]:
            return j if text[j] == "S" else -1
    return -1


def _stdin_bodies(cmd: SimpleCommand) -> list[str]:
    """The heredoc and herestring bodies a command reads on stdin."""
    bodies = [h.body for h in cmd.heredocs]
    bodies.extend(r.target.text + "\n" for r in cmd.redirects if r.operator == "<<<" and not r.target.opaque)
    return bodies


def _job_text(name: str, text: str) -> str:
    """The shell script a scheduler's job text runs: at's is one; a crontab's lines are
    `MIN HOUR DAY MONTH WEEKDAY COMMAND` (or `@reboot COMMAND`, `@daily` …), whose COMMAND runs
    up to its first unescaped `%` (the rest is its stdin); comments and `NAME=value` lines set
    nothing the walk needs."""
    if name == "unshar":
        return _shar_body(text)
    if name != "crontab":
        return text
    commands = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#") or _CRON_ASSIGNMENT().match(line):
            continue
        fields = line.split(None, 1 if line.startswith("@") else 5)
        command = fields[-1] if len(fields) == (2 if line.startswith("@") else 6) else ""
        percent = _CRON_PERCENT().search(command)
        commands.append(command[: percent.start()] if percent else command)
    return "\n".join(commands)


def _shar_body(text: str) -> str:
    """A shell archive as unshar runs it: a mail header before it (`Name: value` lines, their
    indented continuations, blank lines) is not part of the script. Everything after it is
    walked (unshar may skip more lines of text before the archive: walking them only reads
    more)."""
    lines = text.split("\n")
    k = 0
    while k < len(lines) and (not lines[k].strip() or _MAIL_HEADER().match(lines[k])
                              or k and lines[k][:1] in (" ", "\t") and _MAIL_HEADER().match(lines[k - 1] or "")):
        k += 1
    return "\n".join(lines[k:])


_MAIL_HEADER = LazyPattern(r"(From |[A-Za-z][A-Za-z0-9-]*: )")
_CRON_ASSIGNMENT = LazyPattern(r"[A-Za-z_][A-Za-z0-9_]*\s*=")
_CRON_PERCENT = LazyPattern(r"(?<!\\)%")


_UNSHAR_VALUES = frozenset({"--directory", "--split-at", "--load-opts"})


def _unshar_refusal(words: Sequence[Arg], first: Arg | Word) -> str | None:
    """Why unshar's run is not walked as `sh FILE` here: it runs in another directory (`-d`),
    takes options from a file (`-r`), or runs more than one archive; else None."""
    for a in words:
        t = a.text
        if t in ("-d", "--directory") or t.startswith(("-d", "--di")):
            return "it is run in the directory -d names, which this reading does not follow"
        if t in ("-r", "--load-opts") or t.startswith(("-r", "--lo")):
            return "it takes options from a file (-r)"
        if a is not first and t != "-" and not t.startswith("-") and a.text != first.text:
            return "it runs more than one archive"
    return None


def _first_operand(words: Sequence[Arg] | Sequence[Word], takes_value) -> tuple[Arg | Word, str] | None:
    """The first word after the program's that is no option (`-` is stdin: none), skipping
    the value of each option `takes_value` says has one; None when there is none."""
    k = 1
    while k < len(words):
        text = words[k].text
        if takes_value(text):
            k += 2
            continue
        if text != "-" and not text.startswith("-"):
            return words[k], text
        k += 1
    return None


def _scheduled_file(words: Sequence[Arg] | Sequence[Word]) -> tuple[Arg | Word, str] | None:
    """The script file of `at -f FILE …` / `batch -f FILE` (`words[0]` is the program), or the
    table of `crontab [-u USER] FILE`: the word that spells it and its text; None when the job
    is read from stdin (`crontab -`, or no FILE). Options may follow the time (`at now -f FILE`:
    glibc's getopt reads them wherever they stand)."""
    if words and basename(words[0].text) == "unshar":
        return _first_operand(words, lambda t: t in ("-d", "-E", "-r") or t.startswith("--") and "=" not in t
                              and t in _UNSHAR_VALUES)
    if words and basename(words[0].text) == "crontab":
        return _first_operand(words, lambda t: t in ("-u", "-c"))
    k = 1
    while k < len(words):
        text = words[k].text
        if text == "--":
            break
        if not text.startswith("-"):
            k += 1  # (a word of the time: `now`, `+`, `1`, `minute`)
            continue
        if text in ("-q", "-t"):
            k += 2
            continue
        if not text.startswith("--") and "f" in text:  # `-f FILE`, `-fFILE`, `-mf FILE`
            value = text[text.index("f") + 1 :]
            if value:
                return words[k], value
            return (words[k + 1], words[k + 1].text) if k + 1 < len(words) else None
        k += 1
    return None


def _wrapped_script(view: View) -> FileScript | None:
    """The script file a wrapper or a scheduler runs where `scripts.located` sees none: the
    job file of `at -f FILE` or `at < FILE` (a shell script), the `.py` command of `uv run`
    (python's)."""
    from polydeukes.stdlib.shell import scripts

    args = view.args
    inner = view.inner
    if view.name in _SCHEDULERS:
        found = _scheduled_file(args[inner:])
        if found is None:
            stdin = [r for r in view.cmd.redirects if r.operator == "<"]
            if not stdin or view.cmd.heredocs or any(r.operator == "<<<" for r in view.cmd.redirects):
                return None  # heredocs and herestrings are walked as the job (`Walk._follow`)
            found = stdin[-1].target, stdin[-1].target.text
        word, text = found
        if word.opaque or (type(word) is Arg and word.pattern is not None):
            return None  # of unknown value, like `bash "$f"`
        script = scripts.FileScript(text, view.name, True, True, ())
        if view.name == "unshar":
            refused = _unshar_refusal(args[inner + 1 :], word)
            if refused is not None:
                script.refused = refused
        return script
    if view.wrapper in _PYTHON_FILE_RUNNERS and inner < len(args):
        a = args[inner]
        if a.opaque or a.pattern is not None:
            return None
        if a.text.endswith(".py") or any(w.text in ("-s", "--script") for w in args[:inner]):
            return scripts.FileScript(a.text, "python", False, True, ())
    return None


# A character that makes a word mean more to a shell than one argument (blanks included).
_SHELL_SYNTAX = LazyPattern(r"[^A-Za-z0-9_./=:,+@%^-]")
# tmux key names that type a character (others are keys the walk cannot replay: kept as text).
_TMUX_KEYS = {"Enter": "\n", "C-m": "\n", "C-j": "\n", "KPEnter": "\n", "Space": " ", "Tab": "\t"}


def _string_option(args: Sequence[Arg], k: int, strings: _WrapperStrings, roles: dict[int, str],
                   scripts: list[str]) -> int:
    """Read the option at `args[k]` of a wrapper with `_WrapperStrings`: a value that is a command
    line goes to `scripts` (its word a CODE role), a file the wrapper writes gets a WRITE role.
    Returns the index of the option's last word (its value's, when separate)."""
    text = args[k].text
    kinds = strings.options | strings.outputs
    if text in kinds:
        if k + 1 >= len(args):
            return k
        option, at, value = text, k + 1, args[k + 1].text
    elif "=" in text and text.split("=", 1)[0] in kinds:
        option, at, value = text.split("=", 1)[0], k, text.split("=", 1)[1]
    elif not text.startswith("--") and len(text) > 2 and text[:2] in kinds:
        option, at, value = text[:2], k, text[2:]  # `strace -otrace.txt`
    else:
        return k
    if option in strings.options:
        prefix = next((p for p in strings.prefixes if value.startswith(p)), None)
        if prefix is not None or not strings.prefixes:
            scripts.append(value[len(prefix or ""):])
            roles[at] = E.CODE
        else:  # gdb's `-ex run`: a command of the wrapper's own (a mention there is unproven)
            roles[at] = E.WRITE if option in strings.outputs else E.CODE
    else:
        roles[at] = E.WRITE
    return at


def _argv_line(words: Sequence[Arg]) -> str:
    """A command line that runs `words` as an argv, not split or expanded again by a shell:
    each word single-quoted (shlex.quote's way; shlex itself would cost the hot path its import)."""
    return " ".join("'" + a.text.replace("'", "'\\''") + "'" for a in words)


def _operand_lines(args: Sequence[Arg], k: int, end: int, row: _WrapperRow, strings: _WrapperStrings,
                   roles: dict[int, str], scripts: list[str]) -> None:
    """The command lines in the words `args[k:end]` of a wrapper that runs no command word
    (hyperfine, `tmux new-session`): its operands ("each" a line, or "joined" into one, or
    "keys" typed), and its options' command lines and output files."""
    short_args, long_args = row[0], row[1]
    operands: list[int] = []
    while k < end:
        text = args[k].text
        if text in strings.argv_options:
            scripts.append(_argv_line(args[k + 1 : end]))
            roles.update((index, E.CODE) for index in range(k + 1, end))
            break
        if text.startswith("-") and len(text) > 1 and not operands:
            last = _string_option(args, k, strings, roles, scripts)
            if last == k:
                option = text.split("=", 1)[0]
                takes_value = (option in long_args and "=" not in text) if text.startswith("--") \
                    else text[-1] in short_args and not any(letter in short_args for letter in text[1:-1])
                last = k + 1 if takes_value else k
            k = last + 1
            continue
        operands.append(k)
        k += 1
    if not strings.operands:
        return  # (installables, not commands)
    for index in operands:
        roles[index] = E.CODE
    if strings.operands == "each":
        scripts.extend(args[index].text for index in operands)
    elif strings.operands == "keys":
        scripts.append("".join(_TMUX_KEYS.get(args[index].text, args[index].text) for index in operands))
    elif strings.operands == "argv" and len(operands) > 1:
        scripts.append(_argv_line([args[index] for index in operands]))
    elif operands:
        scripts.append(" ".join(args[index].text for index in operands))


# GNU parallel's options that take the next word as their value.
_PARALLEL_VALUES = frozenset({
    "-j", "--jobs", "-P", "--max-procs", "-S", "--sshlogin", "-a", "--arg-file", "-d", "--delimiter",
    "-E", "--eof", "-I", "-n", "--max-args", "-N", "-L", "--max-lines", "-s", "--max-chars", "-C",
    "--colsep", "--results", "--res", "--joblog", "--tmpdir", "--workdir", "--wd", "--halt",
    "--retries", "--timeout", "--delay", "--memfree", "--load", "-l", "--tag-string", "--tagstring",
    "--sshloginfile", "--slf", "--basefile", "--bf", "--return", "--transfer-file", "--tf",
    "--env", "--shebang-wrap", "--limit", "--termseq", "--seqreplace", "--tmux", "-X",
})
_PARALLEL_LIMIT = 64  # command lines worked out per call; past it the rest is not followed


# (round 7) GNU parallel with a command whose arguments come from stdin, `-a FILE` or `::::
# FILE` reads them as xargs does (`_xargs`); with `--pipe` it is a wrapper whose command reads
# parallel's stdin. (`:::` arguments: `_parallel_lines`.)
_PARALLEL_ROW: _WrapperRow = (
    frozenset(o[1] for o in _PARALLEL_VALUES if len(o) == 2 and o != "-X"),
    frozenset(o for o in _PARALLEL_VALUES if o.startswith("--")), 0, False)
_PARALLEL_PIPES = frozenset({"--pipe", "--spreadstdin"})
_PARALLEL_GROUPS = frozenset({":::", ":::+", "::::", "::::+"})
# parallel's replacement strings other than `{}` (`{.}`, `{/}`, `{//}`, `{/.}`, `{#}`, `{%}`,
# `{3}`, `{=perl=}`): what they make of an argument is not worked out.
_PARALLEL_REPLACEMENTS = LazyPattern(r"\{(?:\.|/|//|/\.|#|%|\d+[./]*|=)")
# A word parallel's shell reads as more than one word (parallel joins the command's words and
# runs them with a shell): `'rm {}'`.
_PARALLEL_SHELL_WORD = LazyPattern(r"[\s;&|<>()`$\\\"'*?\[~]")


def _parallel_row(args: Sequence[Arg] | Sequence[Word], k: int) -> tuple[_WrapperRow | None, int, bool]:
    """`_subcommand_row` for parallel: its row when it runs a command of the line with arguments
    from stdin or files (`ls | parallel rm`, `parallel -a list bash`, `parallel bash :::: list`)
    or its stdin's blocks (`--pipe`); (None, k, False) without a command, with `:::` arguments
    (`_parallel_lines`) or `--pipepart` (its file's parts on the command's stdin: not followed)."""
    j, _ = _past_options(args, k + 1, "parallel", *_PARALLEL_ROW[:2], False)
    if j >= len(args) or args[j].text in _PARALLEL_GROUPS or any(
            a.text in (":::", ":::+", "--pipepart") for a in args[k + 1 :]):
        return None, k, False
    return _PARALLEL_ROW, k + 1, False


def _parallel_lines(words: Sequence[Arg]) -> list[str]:
    """The command lines `parallel [options] COMMAND … ::: ARGS …` runs: the command with each
    argument in place of `{}` (or appended), one line per argument of each `:::` group, each
    run by a shell as parallel does; without a command, each argument is a command line.
    Arguments read from files (`::::`, `-a`) or stdin are not known here (`_parallel_row` reads
    them for a command without `:::` words); a word of unknown value leaves the lines out."""
    k = 0
    while k < len(words) and words[k].text.startswith("-") and words[k].text not in (":::", "::::"):
        k += 2 if words[k].text in _PARALLEL_VALUES and words[k].text != "-X" else 1
    template: list[str] = []
    while k < len(words) and words[k].text not in (":::", ":::+", "::::", "::::+"):
        if words[k].opaque:
            return []
        template.append(words[k].text)
        k += 1
    values: list[str] = []
    while k < len(words):
        marker = words[k].text
        k += 1
        while k < len(words) and words[k].text not in (":::", ":::+", "::::", "::::+"):
            if marker.startswith(":::") and not marker.startswith("::::"):
                if words[k].opaque:
                    return []
                values.append(words[k].text)
            k += 1
    if not template:
        return values[:_PARALLEL_LIMIT]  # `parallel ::: 'cmd1' 'cmd2'`: the arguments are the commands
    command = " ".join(template)
    lines = []
    for value in values[:_PARALLEL_LIMIT]:
        lines.append(command.replace("{}", value) if "{}" in command else f"{command} {value}")
    return lines


def _command_variables(args: Sequence[Arg]) -> list[str]:
    """The lines that assignments among `args` of `_COMMAND_VARIABLES` make a program run
    (`PAGER='sh x.sh'`: `sh x.sh`; `BASH_ENV=x.sh`: `source x.sh`; `LESSOPEN='|cmd %s'`: `cmd`);
    an assignment of unknown value runs what this layer cannot know (not judged, as a
    command of unknown value is not)."""
    out: list[str] = []
    for a in args:
        if a.opaque or "=" not in a.text:
            continue
        name, _, value = a.text.partition("=")
        if name == "LESSOPEN":
            value = value.lstrip("|-").replace("%s", "\"$1\"")  # `|cmd %s`: the file less opens, unknown here
            out.append(value)
            continue
        form = _COMMAND_VARIABLES.get(name)
        if form is None and name.startswith(("CARGO_TARGET_", "CARGO_ALIAS_", "CARGO_REGISTRIES_")):
            # `CARGO_TARGET_<TRIPLE>_RUNNER`/`_LINKER`, a registry's credential provider, and an
            # alias: a cargo command line
            form = "cargo {}" if name.startswith("CARGO_ALIAS_") else "{}" if name.endswith(
                ("_RUNNER", "_LINKER", "_CREDENTIAL_PROVIDER")) else None
        if form is None or not value.strip():
            continue
        if form.startswith(("source", "python3", ":", "{}/")):
            value = "'" + value.replace("'", "'\\''") + "'"  # a file name: one word
        line = form.replace("{}", value)  # (a command line, or options: as they are)
        if name == "PERL5OPT":
            # (`PERL5OPT=-Mevil PERL5LIB=. perl x.pl`: the modules are looked up on that @INC)
            lib = next((b.text for b in reversed(args) if b.text.startswith("PERL5LIB=") and not b.opaque), None)
            if lib is not None:
                line = "'" + lib.replace("'", "'\\''") + "' " + line
        out.append(line)
    return out


def _make_variables(args: Sequence[Arg], values: dict) -> list[str]:
    """The text make may put in a recipe line from the variables a call hands it: any
    `NAME=value` in front of make or among its operands (a built-in rule's `$(CC)`,
    `$(CFLAGS)`, `$(COMPILE.c)` … or the makefile's own `$(NAME)` is replaced by it, and the
    shell runs the line), and the built-in rules' flags the line assigned before make (their
    programs are `_COMMAND_VARIABLES`). Each value is walked as a line (`make CC=./x.sh`:
    `./x.sh`); a value of unknown value is not judged, as a command of unknown value is not."""
    out: list[str] = []
    texts = [a.text for a in args if not a.opaque]
    flags = next((t[10:] for t in reversed(texts) if t.startswith("MAKEFLAGS=")), None)
    if flags is None and values.get("MAKEFLAGS"):
        flags = " ".join(v.text for v in values["MAKEFLAGS"])
    given = len(texts)  # (`_command_variables` walks those of `_COMMAND_VARIABLES` among the words)
    if flags:
        texts += flags.split()  # (MAKEFLAGS carries variables too: `MAKEFLAGS='-- CC=./x.sh'`)
    for k, text in enumerate(texts):
        if "=" not in text or text[:1] == "-":
            continue
        name, _, value = text.partition("=")
        name = name.rstrip(":+?!")
        if value.strip() and name != "MAKEFLAGS" and _MAKE_NAME().fullmatch(name) \
                and (k >= given or name not in _COMMAND_VARIABLES):
            out.append(value)
    for name in _MAKE_RULE_FLAGS.intersection(values):
        known = values[name]
        if known is not None and not any(a.text.startswith(name + "=") for a in args):
            out.extend(v.text for v in known if v.text.strip())
    return out


_MAKE_NAME = LazyPattern(r"[^\s=:#$]+")


# The variables that place the .curlrc curl reads (scripts._CONFIG_HOMES): assigned earlier on
# the line, a `curl` that only reads still gets its view.
_CURL_HOMES = frozenset({"CURL_HOME", "XDG_CONFIG_HOME", "HOME"})
# Variables that say where programs find their user configuration (round 8). Set by the line to
# a place an agent can write, they make a program run what it finds there: `HOME=notes git st`
# ran notes/.gitconfig's alias, `HOME=notes gdb -batch` notes/.gdbinit, `HOME=notes bash -i`
# notes/.bashrc (each deleted the gate). A program run so fails closed (judgment.py), but for pure
# readers and those whose files there are read (`HOME_READ`: curl's, wget's, Python's user site).
CONFIGURATION_HOMES = ("HOME", "XDG_CONFIG_HOME", "CARGO_HOME", "GRADLE_USER_HOME", "KUBECONFIG",
                       "AWS_CONFIG_FILE", "NPM_CONFIG_USERCONFIG", "npm_config_userconfig", "GOENV",
                       "PSQLRC", "IPYTHONDIR", "JUPYTER_CONFIG_DIR", "R_PROFILE_USER", "GNUPGHOME",
                       "R_PROFILE", "R_ENVIRON_USER", "IRBRC", "PRYRC", "JULIA_DEPOT_PATH")
_HOME_NAMES = frozenset(CONFIGURATION_HOMES)  # (iterates the line's few names: `isdisjoint`)
# Programs that read nothing there: the commands of the table's plain rows (`Model.handler` None:
# coreutils and the like), pure readers, and these wrappers, which read none of their own (the
# command they run is asked in turn).
_HOME_NEUTRAL = frozenset({
    "env", "nice", "nohup", "timeout", "time", "stdbuf", "ionice", "taskset", "chrt", "setsid",
    "flock", "command", "builtin", "exec", "xargs", "caffeinate", "prlimit", "numactl", "setarch",
    "linux32", "linux64", "arch", "i386", "x86_64", "uname26", "unbuffer", "eatmydata", "nocache",
    "timelimit", "softlimit", "cpulimit", "trickle", "chpst", "setlock", "lckdo", "with-lock-ex",
    "ifne", "chronic", "dumb-init", "tini", "catchsegv", "gamemoderun", "prime-run", "vglrun",
    "setuidgid", "envuidgid", "envdir", "cgexec",
})
# The programs whose files there are read where the line puts them (scripts.py, projectfiles.py):
# curl's and wget's, yarn's `.yarnrc.yml`, Python's user site, cargo's and npm's configuration.
_HOME_READ = {
    "HOME": frozenset({"curl", "wget", "yarn"}), "XDG_CONFIG_HOME": frozenset({"curl"}),
    "CARGO_HOME": frozenset({"cargo"}), "NPM_CONFIG_USERCONFIG": frozenset({"npm"}),
    "npm_config_userconfig": frozenset({"npm"}),
}


def configuration_reader(view: View) -> str | None:
    """The first program of a command run with a configuration home the line sets
    (`View.configuration_home`) that may read configuration files there this layer does not: a
    wrapper in front (`HOME=notes npm run t`: npm) or the command itself; None when none may."""
    variable = (view.configuration_home or "").partition("=")[0]
    read = _HOME_READ.get(variable, frozenset())
    programs = [basename(a.text) for a in view.args[: view.inner] if not a.opaque and "=" not in a.text]
    if view.inner < len(view.args):
        programs.append(view.name)
    for program in programs:
        model = E.COMMANDS.get(program)
        if not program or program in _HOME_NEUTRAL or program in read or program.startswith("python") \
                or model is not None and (model.pure or model.handler is None):
            continue
        return program
    return None
# Environment variables whose value a program reads as options in front of its own (round 8):
# `TAR_OPTIONS=--to-command=./x.sh tar xf a.tar` runs x.sh, `UNZIP='-d ci' unzip a.zip`
# extracts into ci, `XZ_OPT=-k` keeps the input. (gzip 1.12 takes only harmless options from
# GZIP: not listed.) Checked with GNU tar 1.34, zip 3.0, unzip 6.0, xz 5.4 and bzip2 1.0.8.
_OPTION_VARIABLES = {
    **dict.fromkeys(("tar", "gtar"), ("TAR_OPTIONS",)),
    "zip": ("ZIPOPT",), **dict.fromkeys(("unzip", "zipinfo"), ("UNZIP", "UNZIPOPT")),
    **dict.fromkeys(("xz", "unxz", "xzcat", "lzma", "unlzma", "lzcat"), ("XZ_DEFAULTS", "XZ_OPT")),
    **dict.fromkeys(("bzip2", "bunzip2", "bzcat"), ("BZIP2", "BZIP")),
    # (round 10) ripgrep's configuration file: one argument per line (`--pre=CMD` runs CMD);
    # bat's too (`--pager=CMD`); less's options (`-oFILE` writes its log there)
    "rg": ("RIPGREP_CONFIG_PATH",), "bat": ("BAT_CONFIG_PATH",), "less": ("LESS",),
}
# The variables of `_OPTION_VARIABLES` that name a file of arguments rather than hold them.
_OPTION_FILE_VARIABLES = frozenset({"RIPGREP_CONFIG_PATH", "BAT_CONFIG_PATH"})
# sqlite3's command lines: `.shell`/`.system` run the rest of their line; `.read`, `.import`,
# `.output` and `.once` run a file name that starts with `|` (sqlite3's shell documentation;
# after options and words before it, `.import --csv '|cmd' t`; unquoted, `.output`'s and
# `.once`'s take the rest of the line).
_SQLITE_SHELL = LazyPattern(
    r"(?m)^[ \t]*\.(?:shell|system)[ \t]+(.+)$"
    r"|^[ \t]*\.(?:output|once)(?:[ \t]+-\S+)*[ \t]+(?:'\|([^'\n]*)'|\"\|([^\"\n]*)\"|\|(.+)$)"
    r"|^[ \t]*\.(?:read|import)(?:[ \t]+[^\s'\"|]+)*?[ \t]+(?:'\|([^'\n]*)'|\"\|([^\"\n]*)\"|\|(\S+))")
# (round 7) The SQL function `edit(TEXT, EDITOR)` runs the shell line `EDITOR FILE` (`edit(TEXT)`:
# the VISUAL variable's, `_COMMAND_VARIABLES`). A function name is any case and may be quoted,
# with comments before its parenthesis (`EDIT ( …`, `"edit"(…)`, `edit/**/(…)`: each passed).
_SQLITE_EDIT = LazyPattern(r"(?is)(?:\bedit\b|\"edit\"|\[edit\]|`edit`)(?:\s|/\*.*?\*/|--[^\n]*\n)*\(")
# One SQL string literal (sqlite3's shell also takes a double-quoted one as a string).
_SQL_LITERAL = LazyPattern(r"\s*(?:'((?:[^']|'')*)'|\"((?:[^\"]|\"\")*)\")\s*")


def _sql_arguments(code: str, at: int) -> list[str] | None:
    """The texts of a SQL call's arguments from `code[at]` (past its `(`), split at the commas
    outside quotes, brackets, comments and inner parentheses; None when the call does not close."""
    args: list[str] = []
    depth = 0
    start = k = at
    n = len(code)
    while k < n:
        c = code[k]
        if c in "'\"`[":
            end = code.find("]" if c == "[" else c, k + 1)
            while end > 0 and c in "'\"" and code[end + 1 : end + 2] == c:
                end = code.find(c, end + 2)  # (a doubled quote inside the literal)
            if end < 0:
                return None
            k = end
        elif code.startswith("/*", k) or code.startswith("--", k):
            end = code.find("*/" if c == "/" else "\n", k + 2)
            if end < 0:
                return None
            k = end
        elif c == "(":
            depth += 1
        elif c == ")" and depth:
            depth -= 1
        elif c in ",)" and not depth:
            args.append(code[start:k])
            if c == ")":
                return args
            start = k + 1
        k += 1
    return None


def sqlite_editors(code: str) -> list[str] | None:
    """The command lines the `edit()` calls of sqlite3's program `code` run (`EDITOR x`, the
    file it edits); None when an editor is not one string literal (`'sh e' || '.sh'`, a
    column's value: computed in SQL, not read here) or a call does not close."""
    lines: list[str] = []
    for m in _SQLITE_EDIT().finditer(code):
        args = _sql_arguments(code, m.end())
        if args is None:
            return None
        if len(args) != 2:
            continue  # (one: VISUAL's program; another count: sqlite3 refuses the call)
        literal = _SQL_LITERAL().fullmatch(args[1])
        if literal is None:
            return None
        editor = literal.group(1).replace("''", "'") if literal.group(1) is not None \
            else literal.group(2).replace('""', '"')
        lines.append(editor + " x")  # (the editor's file)
    return lines


def sqlite_command_lines(code: str) -> list[str]:
    """The command lines sqlite3 runs from `code`, its program (`_SQLITE_SHELL`, `edit()`'s
    editor; one that is computed refuses where the program is read, `sqlite_editors`)."""
    lines = [m.group(m.lastindex or 0) for m in _SQLITE_SHELL().finditer(code)] \
        if ".s" in code or "|" in code else []
    if "edit" in code.lower():
        lines += sqlite_editors(code) or []
    return lines


# cmake's cache variables whose value is a program it or its build runs
_CMAKE_PROGRAMS = LazyPattern(r"CMAKE_\w+_(?:COMPILER|COMPILER_LAUNCHER|LINKER_LAUNCHER)|CMAKE_(?:LINKER|AR|RANLIB"
                              r"|MAKE_PROGRAM|OBJCOPY|OBJDUMP|STRIP|NM|ADDR2LINE|READELF|DLLTOOL)")


def _cmake_programs(args: Sequence[Arg]) -> list[str]:
    """The values of `-D VAR=PROG` (`-DVAR:FILEPATH=PROG`, or as two words) for the
    `_CMAKE_PROGRAMS` variables; one of unknown value is not judged, as a command's is not."""
    out: list[str] = []
    for k, a in enumerate(args):
        word = a if a.text[:2] == "-D" and len(a.text) > 2 else args[k + 1] if a.text == "-D" and k + 1 < len(args) \
            else None
        if word is None or word.opaque:
            continue
        name, equals, value = word.text.removeprefix("-D").partition("=")
        if equals and value and _CMAKE_PROGRAMS().fullmatch(name.partition(":")[0]):
            out.append(value)
    return out


_CONFIGURED_PROGRAMS = frozenset({"cmake", "sqlite3", "npm", "npx", "pnpm", "pnpx", "yarn"})
_NPM_EXECS = frozenset({"npx", "npm exec", "npm x"})
_NPM_TOOLS = frozenset({"npm", "npx", "pnpm", "pnpx", "yarn"})
_PROJECT_CODE_TOOLS = frozenset({"pnpm", "yarn"})  # (tools that load project code for any command)
# npm's options (pnpm's `--config.NAME`) that name the program it runs scripts with
_NPM_SHELL_OPTIONS = ("--script-shell", "--config.script-shell", "--shell", "--config.shell")


def _npm_shells(args: Sequence[Arg]) -> list[str]:
    """The lines the shells `_NPM_SHELL_OPTIONS` name run (`--script-shell=./s.sh`, or the
    value in the next word): `'./s.sh' -c ''`; a value of unknown value is not judged, as
    npm_config_script_shell's is not."""
    out: list[str] = []
    for k, a in enumerate(args):
        option, equals, value = a.text.partition("=")
        if option not in _NPM_SHELL_OPTIONS:
            continue
        word = a if equals else args[k + 1] if k + 1 < len(args) else None
        if word is None or word.opaque:
            continue
        value = value if equals else word.text
        if value:
            out.append("'" + value.replace("'", "'\\''") + "' -c ''")
    return out


def _names_every_directory(value: str, dirs: tuple[tuple[str, ...], ...]) -> bool:
    """Did `Walk._path_dirs` name every directory a PATH value puts before `$PATH` (all of
    them, when it names no `$PATH`)? Not when one is of unknown value (`$HOME/.cargo/bin`)."""
    count = 0
    for component in value.split(":"):
        if component in ("$PATH", "${PATH}"):
            break
        count += 1
    return len(dirs) == count


def _argument_commands(words: Sequence[Word], known: dict[str, str]) -> list[int]:
    """Where the arguments of an unknown program start a command it may run: the indices of
    its words that name a program of `_ARGUMENT_COMMANDS` (not an option, not opaque), past
    assignments, reserved words and wrappers (`nice runcon x find . -delete`). None for a
    program the table knows, or one the line defined (`known`: its functions, walked as such),
    nor for a function's definition (its body is walked where it is called)."""
    head = words[0].text
    if head.endswith(("()", "(){")) or head == "function":
        return []
    inner = _unwrap(words)[0]
    if inner + 1 >= len(words) or words[inner].opaque:
        return []
    name = basename(words[inner].text)
    if name in _KNOWN_NAMES or name in known or words[inner].text.startswith("("):
        return []
    found = []
    for j in range(inner + 1, len(words)):
        word = words[j]
        if not word.opaque and word.text[:1] != "-" and basename(word.text) in _ARGUMENT_COMMANDS:
            found.append(j)
            if len(found) == MAX_ARGUMENT_COMMANDS:
                break
    return found


def _code_on_stdin(cmd: SimpleCommand | PlainRun) -> bool:
    """(round 11) Does the stage run the text piped into it as its program: an interpreter
    that reads its code from stdin (`python3 -`, `perl`, `ruby -`), or sed, awk or make given
    `-f -`? (xargs and loops take it as operands or lines: their own rules.)"""
    if type(cmd) is PlainRun or not cmd.words or cmd.words[0].opaque:
        return False
    head = basename(cmd.words[0].text)
    model = E.model_for(head)
    if not (model is not None and model.handler == "interpreter" or head in _PROGRAM_FILE_OPTIONS):
        return False
    return _reads_stdin_as_program(cmd)


def _substituted_program(args: Sequence[Arg], inner: int, after_option: bool) -> str | None:
    """(round 11) A program read from a process substitution: `python3 <(CMD)` (the first
    operand after options that give no code), `sed -f <(CMD) f`, `awk -f <(CMD)`, `make -f
    <(CMD)` (after `-f`/`--file`). The line that feeds CMD's output to the program on stdin
    (`CMD | python3 -`), which the walk reads as it reads piped code; None for none."""
    for k in range(inner + 1, len(args)):
        word = args[k].word
        raw = word.text if word is not None else ""
        if raw.startswith("<(") and raw.endswith(")"):
            before = args[k - 1].text
            if after_option and before not in ("-f", "--file") \
                    or not after_option and any(a.text in _CODE_OPTIONS for a in args[inner + 1 : k]):
                return None
            return raw[2:-1] + " | " + _argv_line([*args[inner:k], Arg("-", None, False, ONE, None), *args[k + 1 :]])
        if not after_option and not args[k].text.startswith("-"):
            return None  # (the script is another operand)
    return None


def _tail_text(text: str, cmd: SimpleCommand, j: int) -> str:
    """The command from its word `j` on, with its redirects and heredocs (`W xargs rm < list`,
    `W sh <<EOF`): the line the walk reads for an unknown program's argument command."""
    end = cmd.words[-1].end
    for r in cmd.redirects:
        end = max(end, r.target.end)
    tail = text[cmd.words[j].start : end]
    for h in cmd.heredocs:
        tail += "\n" + h.body + ("" if h.body.endswith("\n") or not h.body else "\n") + h.delimiter
    return tail


def name_index(words: Sequence[Word]) -> int:
    """Index of the command-name word past `NAME=VALUE` prefixes (§8.1.7)."""
    k = 0
    while k < len(words) and not words[k].opaque and is_assignment(words[k].text):
        k += 1
    return k


def shell_script_sources(words: Sequence[Arg | Word], cmd: SimpleCommand) -> tuple[list[str], bool]:
    """Script texts a nested shell at `words[0]` will run, and whether they are all known.

    `eval` runs its words joined by spaces; `sh -c SCRIPT` runs SCRIPT; a shell with neither
    `-c` nor a script file reads its script from stdin (heredoc or herestring). A script file,
    an opaque script or a piped stdin make the script unknown.
    """
    name = basename(words[0].text)
    rest = words[1:]
    if name == "eval":
        if any(w.opaque for w in rest):
            # (round 9) `eval $O bash x.sh`: words of unknown value only where a variable is
            # expanded are walked as spelled, as `-c` code is (`_spelled_code`)
            if all(_spelled_code(w) for w in rest if w.opaque):
                return [" ".join(w.text for w in rest)], False
            return [], False
        return [" ".join(w.text for w in rest)], True
    options = shell_options(rest)
    if options is None:
        # (round 9) A word of unknown value after `-c` is the code, or an option, and then the
        # next word is (`bash -c "$O" 'bash x.sh'` with O=-x ran x.sh, and passed unread)
        at = next((k for k, w in enumerate(rest) if w.opaque), len(rest))
        before = shell_options(rest[:at])
        if before is None or "c" not in before[1] or before[0] != at:
            return [], False
        sources = _spelled_code(rest[at])
        if at + 1 < len(rest) and not rest[at + 1].opaque:
            sources.append(rest[at + 1].text)
        return sources, False
    k, letters = options
    operands = rest[k:]
    if "c" in letters:
        if not operands:
            return [], False
        if operands[0].opaque:
            return _spelled_code(operands[0]), False
        return [operands[0].text], True
    if operands:
        return [], False  # a script file: its text is not ours to read
    stdin = _stdin_bodies(cmd)
    stdin_sources = len(cmd.heredocs) + sum(1 for r in cmd.redirects if r.operator in ("<<<", "<"))
    if not stdin or len(stdin) != stdin_sources:
        return [], False
    return stdin, True


def _spelled_code(code: Arg | Word) -> list[str]:
    """`-c` code of unknown value where only a variable is expanded (`bash -c "$O bash x.sh"`),
    as spelled: walked with the variables unknown (with $O empty, bash ran x.sh, which passed
    unread). None of it for code a substitution makes (scripts.py reads what it prints)."""
    word = getattr(code, "word", code)  # (an `Arg`'s word, or the `Word` itself)
    return [code.text] if word is not None and word.flags == W_VAR else []


def _interactive(words: Sequence[Arg]) -> bool:
    """Do a shell's options make it interactive (`-i`, in a bundle too)?"""
    options = shell_options(words)
    return options is None or "i" in options[1]


def command_mode_operands(words: Sequence[Arg]) -> Sequence[Arg] | None:
    """The operands after a shell's `-c` code (`sh -c CODE NAME ARG…`: NAME, then the ARGs),
    None when the shell at `words[0]` runs no `-c` code."""
    options = shell_options(words[1:])
    if options is None or "c" not in options[1]:
        return None
    return words[1 + options[0] + 1 :]


# Shells whose `-n` (noexec) was seen to run nothing at all: not the script, its `-c` code or
# stdin, nor BASH_ENV, `--rcfile` or a login shell's profile, interactive or not (bash 5.2,
# dash 0.5.12). zsh and ksh are not among them: not tried, so their `-n` is not trusted.
_NOEXEC_SHELLS = frozenset({"bash", "sh", "dash", "rbash"})


def noexec(words: Sequence[Arg]) -> bool:
    """Do a shell's options (its arguments, after its name) leave noexec set: `-n` (in a bundle
    too: `-vn`) or `-o noexec`, not undone by a later `+n` or `+o noexec`? False when an option
    word, or an `-o` value, is of unknown value (it may be `+n`)."""
    read = _shell_option_list(words)
    if read is None:
        return False
    on = False
    for sign, letter, value in read[1]:
        if letter == "n":
            on = sign == "-"
        elif letter == "o" and value is not None:
            if value.opaque:
                return False
            if value.text == "noexec":
                on = sign == "-"
    return on


def shell_options(words: Sequence[Arg | Word]) -> tuple[int, str] | None:
    """Where a shell's operands start in `words` (its arguments, after its name), and the
    letters of the options before them (`c`: command mode, `s`: the script is stdin); None
    when a word there is of unknown value."""
    read = _shell_option_list(words)
    return None if read is None else (read[0], "".join([letter for _sign, letter, _value in read[1]]))


def _shell_option_list(words: Sequence[Arg | Word]) -> tuple[int, list[tuple[str, str, Arg | Word | None]]] | None:
    """A shell's options, read once for `shell_options` and `noexec`: where its operands start
    in `words` (its arguments, after its name), and each option letter in order as (its sign,
    `-` or `+`; the letter; the word an `o` or `O` takes, or None); None when a word where an
    option may be is of unknown value."""
    letters: list[tuple[str, str, Arg | Word | None]] = []
    k = 0
    while k < len(words):
        t = words[k].text
        if t.startswith(("<(", ">(")):
            break  # a process substitution is a path (`/dev/fd/N`), never an option
        if words[k].opaque:
            return None
        if t == "--" or t == "-":
            return k + 1, letters
        if t in ("--rcfile", "--init-file"):
            k += 2
            continue
        if t.startswith("--"):
            k += 1
            continue
        if t[:1] in ("-", "+") and len(t) > 1:
            # each `o` / `O` of a bundle takes the next word (`-euo pipefail`, `-o errexit`)
            at = k + 1
            for letter in t[1:]:
                value = None
                if letter in ("o", "O"):
                    value = words[at] if at < len(words) else None
                    at += 1
                letters.append((t[0], letter, value))
            k = at
            continue
        break
    return min(k, len(words)), letters


def _runs_stdin_as_code(cmd: SimpleCommand) -> bool:
    """Does this pipeline stage run the text it reads as a script or program (a shell, an
    interpreter, `source`), not as operands or loop words?"""
    if not _reads_stdin_as_program(cmd):
        return False
    words = cmd.words
    index, via_xargs, _, _ = _unwrap(words)
    return not via_xargs and index < len(words) and basename(words[index].text) not in _STDIN_OPERAND_READERS


_STDIN_OPERAND_READERS = frozenset({"xargs", "parallel", "while", "until"})
_AWK_NAMES = frozenset({"awk", "gawk", "mawk", "nawk"})
# dd's operands that leave the bytes it copies as they are; pv's options whose value is the next word.
_DD_COPYING = frozenset({"bs", "ibs", "obs", "status"})
_PV_VALUES = frozenset({"-L", "-s", "-i", "-w", "-H", "-N", "-B", "-d", "-A", "-F", "-D", "-x", "-R", "-P",
                        "--rate-limit", "--size", "--interval", "--width", "--height", "--name",
                        "--buffer-size", "--watchfd", "--last-written", "--format", "--delay-start",
                        "--extra-display", "--remote", "--pidfile"})


def _stdin_shell(cmd: SimpleCommand) -> bool:
    """Is this stage a shell that runs its stdin's lines as commands (`| sh`, `| (bash)`)?"""
    words = cmd.words
    if words and words[0].text.startswith("(") and not words[0].opaque:
        from polydeukes.stdlib.shell import inputs  # (`| (bash)`: the subshell's command)

        words = inputs.bare_words(words)
    index, via_xargs, _, _ = _unwrap(words)
    return not via_xargs and index < len(words) and basename(words[index].text) in NESTED_SHELLS

# Programs whose output is their input rewritten (or decoded): text they pass to an executor is
# text nobody read. A stage not listed still rewrites when it sits between two stages, unless it
# is a proven pass-through (`_passes_through`).
_REWRITERS = frozenset({
    "sed", "awk", "gawk", "mawk", "nawk", "tr", "perl", "cut", "rev", "tac", "base64", "base32",
    "basenc", "xxd", "od", "uudecode", "gunzip", "zcat", "gzip", "bzip2", "bzcat", "xz", "xzcat",
    "unxz", "zstd", "zstdcat", "openssl", "iconv", "envsubst", "m4", "jq", "yq", "sort", "uniq",
    "fold", "fmt", "expand", "unexpand", "paste", "column", "rot13", "recode", "dos2unix", "unix2dos",
    # filters that print their files' lines numbered, paged, compared or picked apart (`nl -b n`
    # and `pr -t` keep each line whole, `diff --line-format=%L` prints it as it is)
    "nl", "pr", "strings", "look", "comm", "join", "diff", "diff3", "sdiff", "hexdump", "hd",
})
# Names a program may write its output to besides its stdout: what it writes there (`cp x.sh
# /dev/stdout | sh`) is its output too.
_STDOUT_NAMES = frozenset({"/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"})
_GREP_VERBATIM = frozenset("viyEFGPwxsaU")  # grep letters that print matching lines as they are


def _rewrites_text(cmd: SimpleCommand, first: bool) -> str | None:
    """The name of a pipeline stage whose output is not text this layer read, or None.

    The first stage is the source: `cat <<EOF`, `echo`/`printf` without escapes or directives,
    a program's output (as before, judged by mention), unless it is a listed rewriter or fed a
    heredoc or herestring it does not pass through. A later stage passes its input on verbatim
    only as `cat`, `tee` or `grep` printing whole lines; anything else rewrites it."""
    words = cmd.words
    index, via_xargs, _, _ = _unwrap(words)
    if via_xargs or index >= len(words) or words[index].opaque:
        if first and via_xargs and any(r.operator == "<" and r.target.text.startswith("<(") for r in cmd.redirects):
            return "xargs"  # `xargs cat < <(ls x.sh) | sh`: made of what the substitution prints
        return None if first else (words[index].text if index < len(words) else "xargs")
    name = basename(words[index].text)
    operands = [w.text for w in words[index + 1 :]]
    if name in _REWRITERS:
        return name
    if not first:
        return None if _passes_through(name, operands) else name
    if name in _PRINTS_UNREAD:
        # (a group's or loop's output is what its body prints, which the walk does not
        # follow; a lister's paths, or what `find -exec` runs prints, are no text read:
        # `find -exec cat {} +` is read by the walk, `scripts.found_texts`)
        return _PRINTS_UNREAD[name]
    if name == "git" and "ls-files" in operands:
        return name
    if name in FILE_PASSERS:
        # (`dd conv=lcase` rewrites what it copies; `cat <(…)` passes on what the substitution
        # prints, which `passed_files` does not read)
        return name if name == "dd" and any(t.startswith("conv=") for t in operands) \
            or cmd.flags & W_SUBST and any(t.startswith("<(") for t in operands) else None
    if _filters_files(cmd, name, operands):
        return name
    if name == "echo":
        options = []
        for t in operands:
            if not t.startswith("-") or t == "-":
                break
            options.append(t)
        escapes = any("e" in t for t in options) or any("\\" in t for t in operands)
        return name if escapes else None
    if name == "printf":
        format_ = next((t for t in operands if not t.startswith("-")), "")
        if not ("%" in format_ or "\\" in format_):
            return None
        return name if any(w.opaque for w in words[index + 1 :]) or _printf_text(operands) is None else None
    fed = cmd.heredocs or any(r.operator == "<<<" for r in cmd.redirects)
    return name if fed and not _passes_through(name, operands) else None


def _filters_files(cmd: SimpleCommand, name: str, operands: Sequence[str]) -> bool:
    """Does a first stage that is no file passer print something made of files on disk: a
    command fed a file on its stdin (`foo < x.sh`), a modelled reader of file operands (`wc`,
    `ls x.sh`), or a program that writes a copy to its stdout (`cp x.sh /dev/stdout`)? What
    it prints is no text the walk read."""
    for r in cmd.redirects:
        if r.operator == "<":
            return True
    model = E.COMMANDS.get(name)
    if model is not None and model.pure and "read" in model.layout and operands:
        return True
    return any(t in _STDOUT_NAMES for t in operands)


def _passes_through(name: str, operands: Sequence[str]) -> bool:
    """Does a middle stage print (some of) its input lines exactly as they came?"""
    if name == "cat":
        return all(t == "-" for t in operands)
    if name == "tee":
        return True  # it also writes its operands: judged as a writer on its own
    if name == "dd":
        # block sizes and its report only (`conv=`, `cbs=`, `skip=`, `count=`, `if=`, `iflag=`
        # make other text of it, or print another file)
        return all(t.split("=", 1)[0] in _DD_COPYING for t in operands)
    if name == "pv":
        return all(t.startswith("-") and t not in _PV_VALUES for t in operands)  # (a file operand: its text)
    if name not in ("grep", "egrep", "fgrep"):
        return False
    patterns = 0
    k = 0
    while k < len(operands):
        t = operands[k]
        if t in ("-e", "--regexp"):
            patterns, k = patterns + 1, k + 2
            continue
        if t.startswith("--regexp="):
            patterns += 1
        elif t.startswith("-") and len(t) > 1:
            if not set(t[1:]) <= _GREP_VERBATIM:
                return False  # `-o`, `-n`, `-c`, `-l`, `-H`, a file of patterns …
        elif patterns == 0:
            patterns = 1  # the pattern operand
        else:
            return False  # a file operand: what it prints is that file's lines
        k += 1
    return True


def _opens_input_loop(cmd: SimpleCommand) -> bool:
    """Does the command open a `while`/`until` loop (after `do`, `then` …)?"""
    for w in cmd.words:
        if w.text in ("while", "until"):
            return True
        if w.text not in _RESERVED:
            return False
    return False


_LOOP_OPENERS = frozenset({"while", "until", "for", "select"})


# Builtins a loop that only reads may hold besides the model's pure commands.
_LOOP_BUILTINS = frozenset({"read", "break", "continue", ":", "true", "false", "test", "[", "[[", "]]", "printf", "echo"})


def _reads_only_loop(commands: Sequence[SimpleCommand | PlainRun], opener: int, done: int, text: str) -> bool:
    """Does nothing the loop from `opener` to its `done` reads (`done < <(cat f)`) reach a
    writer? Its commands are each a pure command of the model or a builtin that reads, with no
    write redirect, no substitution and no assignment that outlives them (`NAME=…` alone,
    `printf -v`); and the names its `read`s and `mapfile`s fill, which keep a last line
    without a newline after the loop, are not used after it (`$NAME`, `${NAME…}`, nor through
    `eval` or `${!…}`)."""
    names: list[str] = []
    for k in range(opener, done + 1):
        cmd = commands[k]
        if type(cmd) is PlainRun:
            continue  # plain lines: names without effects of their own
        if cmd.flags & W_SUBST and k != done:
            return False
        for r in cmd.redirects:
            if is_write_redirect(r) and r.target.text != "/dev/null":
                return False
        words = cmd.words
        at = 0
        while at < len(words) and (words[at].text in _RESERVED or is_assignment(words[at].text)):
            at += 1
        if at == len(words):
            if any(is_assignment(w.text) for w in words):
                return False  # `x=$l`: the value outlives the loop
            continue
        name = words[at].text
        if name in _READERS_OF_LINES:
            names.extend(w.text for w in words[at + 1 :] if not w.text.startswith("-"))
        elif name == "printf" and any(w.text.startswith("-v") for w in words[at + 1 :]):
            return False
        model = E.COMMANDS.get(name)
        if name not in _LOOP_BUILTINS and (model is None or not model.pure):
            return False
    done_cmd = commands[done]
    ends = [w.end for w in done_cmd.words] + [r.target.end for r in done_cmd.redirects]
    rest = text[max(ends) :] if ends else ""
    if "eval" in rest or "${!" in rest:
        return False
    return not any(f"${n}" in rest or f"${{{n}" in rest for n in names)


def _loop_ends(commands: Sequence[SimpleCommand | PlainRun]) -> dict[int, int]:
    """For each command that opens a loop, the index of the `done` that closes it (one pass
    over the script, so a script of many loops is not scanned again per loop)."""
    ends: dict[int, int] = {}
    open_loops: list[int] = []
    for k, cmd in enumerate(commands):
        if type(cmd) is PlainRun:
            continue  # plain lines: no reserved word among them
        words = cmd.words
        if words and words[0].text == "done" and open_loops:
            ends[open_loops.pop()] = k
        for w in words:  # the loops opened after leading reserved words (`do while …`)
            if w.text in _LOOP_OPENERS:
                open_loops.append(k)
            elif w.text not in _RESERVED:
                break
    return ends


_READ_FLAGS = frozenset("rse")  # `read` options without an argument that leave splitting as is
_READ_LINES = 256  # lines a loop's input may give its `read` names (past it: fail closed)
_MAPFILES = frozenset({"mapfile", "readarray"})
# Commands that give names the lines of their input (a loop's `read`, or one reading its own).
_READERS_OF_LINES = frozenset({"read"}) | _MAPFILES


_NOT_FOUND_HANDLER = "command_not_found_handle"


def _opened_definition(cmd: SimpleCommand) -> SimpleCommand:
    """`cmd` with its first word `NAME(){` read as bash reads it: `NAME()`, then `{`."""
    head = cmd.words[0]
    words = (Word(head.text[:-1], False, head.start, head.end - 1, 0), Word("{", False, head.end - 1, head.end, 0),
             *cmd.words[1:])
    return SimpleCommand(words, cmd.redirects, cmd.heredocs, cmd.connector, cmd.flags)


def _function_definition(commands: Sequence, k: int, text: str, functions: dict[str, str]) -> None:
    """Record the function that `commands[k]` starts to define (`f() { …; }`, `f() ( … )`,
    `function f { …; }`): its name and the text of its body, up to the `}` or `)` that closes
    it (groups inside it counted). A body whose end is not on the line is not recorded."""
    words = commands[k].words
    if words[0].text == "function":
        if len(words) < 2:
            return
        name, at = words[1].text.removesuffix("()"), 2
    else:
        name, at = words[0].text[:-2], 1
    if at >= len(words) or words[at].text not in ("{", "(") or _FUNCTION_DEFINITION().fullmatch(name + "()") is None:
        return
    opener = words[at].text
    closer = "}" if opener == "{" else ")"
    start = words[at].end
    depth = 0
    for j in range(k, len(commands)):
        cmd = commands[j]
        if type(cmd) is PlainRun:
            continue
        for w in cmd.words[at + 1 :] if j == k else cmd.words:
            if w.text == opener:
                depth += 1
            elif w.text == closer and (closer == ")" or w is cmd.words[0]):
                # (`}` closes only as a command's first word; `)` wherever it stands)
                if depth == 0:
                    functions[name] = text[start : w.start]
                    return
                depth -= 1


def _looks_like_option(name: str) -> bool:
    return name[:1] == "-"


def _looks_like_viewer_option(name: str) -> bool:
    return name[:1] in ("-", "+")


# A file the line writes with content the walk does not compute (`stdout_content`).
_WRITTEN_UNCOMPUTED = "written by this line with content this layer does not compute"
# How `Scope.made` names say a value is made, for the judge's message.
_POSITIONAL = "comes from the positional parameters this line sets"
_OTHER_SPLIT = "read takes with a split or options this layer does not follow"
_SHELL_TEXT = "is text bash keeps of the line's own commands or matches"
_UNWORKED = "is an expansion of a value this line assigns that this layer does not work out"
_DIRECTORY_PRINTED = "is a directory a command prints that this layer does not work out"
_UNWORKED_DIRECTORY = "is an expansion of a directory the shell knows that this layer does not work out"
_NUMBER = (Value("0", "+([-0-9])"),)  # a value arithmetic gives: some integer
_DECIMAL_FORMAT = LazyPattern(r"(?:[^%\\]|%%|%[-+ 0]*[0-9]*[diu])*")
_ARITHMETIC_SPAN = LazyPattern(r"\(\((.*?)\)\)", re.DOTALL)
# A name arithmetic assigns: `x=`, `x+=` … (not `==`), `x++`, `--x`, array elements too.
_ARITHMETIC_ASSIGNED = LazyPattern(
    r"(?<![A-Za-z0-9_$])([A-Za-z_][A-Za-z0-9_]*)(?:\[[^\]]*\])?\s*(?:[-+*/%&|^]|<<|>>)?=(?!=)"
    r"|(?<![A-Za-z0-9_$])([A-Za-z_][A-Za-z0-9_]*)\s*(?:\+\+|--)|(?:\+\+|--)\s*([A-Za-z_][A-Za-z0-9_]*)")
# Variables bash fills with the line's own text: the last argument of the previous command
# (`$_`), the command about to run (`BASH_COMMAND`, in a trap), a `[[ =~ ]]` match: code or a
# path made of words a reader was given (`echo "rm -rf ci" >/dev/null; eval "$_"`).
_SHELL_MADE = LazyPattern(r"\$(?:_(?![A-Za-z0-9_])|\{_\}|\{?(?:BASH_COMMAND|BASH_REMATCH|BASH_ARGV|"
                          r"BASH_EXECUTION_STRING)(?![A-Za-z0-9_]))|\$\{[#!]?(?:_|BASH_COMMAND|BASH_REMATCH)[^A-Za-z0-9_]")
# First stages that print data as it is (a file's lines, their own words): what a rewriter
# later in the pipeline makes of it is made text (`_data_rewriter`).
_DATA_SOURCES = frozenset({"cat", "head", "tail", "grep", "egrep", "fgrep", "echo", "printf", *_GROUP_ENDS})
# First stages whose output reaching an executor is text the walk did not read (round r6): a
# group or loop (what its body prints: `{ cat x.sh; } | sh`, `for …; done | xargs rm`) and
# the listers whose output is always paths (`find . -name x.sh | sh` runs ./x.sh), by the
# name a message gives them.
_PATH_PRINTERS = frozenset({"find", "ls", "fd", "fdfind", "tree", "du", "stat", "compgen", "git"})
_PRINTS_UNREAD = {"}": "the group { … }", "done": "the loop … done", "fi": "if … fi", "esac": "case … esac",
                  **{name: name for name in _PATH_PRINTERS - {"git"}}}


def _ifs_splits(scope: Scope) -> bool:
    """Does `IFS` hold other characters than blanks (or an unknown value) on the line?"""
    if "IFS" not in scope.values:
        return False
    values = scope.values["IFS"]
    return values is None or any(v.text.strip(" \t\n") for v in values)


def _data_rewriter(script: str) -> str | None:
    """The rewriter when a substitution's script makes its output of data the walk does not
    work out: a pipeline whose first stage reads files, its input or its own words (a rewriter
    itself, `rev f`, `tr X i < f`, or `cat`, `echo`, … of `_DATA_SOURCES`) and one of whose
    stages rewrites the text (`_rewrites_text`). A program's output (`git log | sed …`) stays
    of unknown value, as before."""
    inner = tokenized(script)
    stages = inner.commands
    if not stages or not inner.fully_read:
        return None
    for c in stages:
        if type(c) is not SimpleCommand or c.connector not in ("|", "") or not c.words:
            return None
    head = basename(stages[0].words[0].text)
    if head not in _REWRITERS and head not in _DATA_SOURCES:
        return None
    for k, stage in enumerate(stages):
        rewriter = _rewrites_text(stage, k == 0)
        # (a later stage that only picks lines, `| head -1`, passes text on as it is)
        if rewriter is not None and (k == 0 or rewriter in _REWRITERS):
            return rewriter
    return None


# Programs whose output is part of a file's text, or of their own words (`$(head -1 l)`,
# `$(grep c l)`, `$(xargs -a l)`, `$(basename /x/ci)`): the value is the line's making.
_FILE_PICKERS = frozenset({"head", "tail", "grep", "egrep", "fgrep", "rg", "cat", "tac", "xargs", "readlink", "realpath",
                           "basename", "dirname", "expr", "look", "shuf", "nl", "fmt", "strings"}) | FILE_COPIERS


def _file_picker(script: str) -> str | None:
    """The first stage's name when a substitution's script is a pipeline that starts by picking
    text out of files, its input or its own words (`_FILE_PICKERS`, or `git show REV:PATH` /
    `git cat-file -p`). `$(cat F)` of one plain file is read whole instead
    (`Walk._print_values`)."""
    inner = tokenized(script)
    stages = inner.commands
    if not stages or not inner.fully_read or type(stages[0]) is not SimpleCommand or not stages[0].words:
        return None
    first = stages[0]
    words = first.words
    head = basename(words[0].text)
    if head == "git":
        sub = [w.text for w in words[1:] if not w.text.startswith("-")]
        return "git" if sub[:1] in (["show"], ["cat-file"]) and any(":" in t for t in sub[1:]) else None
    # (with no operand it picks from its input: `… | rm -f $(cat)` takes what a lister prints)
    return head if head in _FILE_PICKERS else None


# Rewriters whose output lines are input lines (`uniq` but for `-c`): a path they pass on is
# one a reader of their input saw.
_LINE_KEEPERS = frozenset({"sort", "tac", "shuf", "uniq"})


def _data_source(cmd: SimpleCommand) -> bool:
    """Does this first stage of a pipeline print data (a file's text, its words, a heredoc),
    not a program's output?"""
    if cmd.heredocs or any(r.operator == "<<<" for r in cmd.redirects):
        return True
    if not cmd.words or cmd.words[0].opaque:
        return False
    head = basename(cmd.words[0].text)
    return head in _REWRITERS or head in _DATA_SOURCES


def _operand_rewriter(commands: Sequence, start: int, end: int) -> str | None:
    """The first stage from `start` up to `end` that makes other text of the data the
    pipeline's first stage reads or prints (`rev l | xargs rm`), when it starts with data
    (`_data_source`; a program's output keeps its own rule); a stage that only reorders or
    drops whole lines (`sort`, `uniq` without `-c`) makes nothing new."""
    if not _data_source(commands[start]):
        return None
    for k in range(start, end):
        cmd = commands[k]
        rewrites = _rewrites_text(cmd, k == start)
        if rewrites is not None and not (rewrites in _LINE_KEEPERS and not _counts_lines(rewrites, cmd)):
            return rewrites
    return None


def _counts_lines(name: str, cmd: SimpleCommand) -> bool:
    """Is it `uniq -c` (`--count`, or `c` in a bundle), which puts a count before each line?"""
    return name == "uniq" and any(w.text == "--count" or w.text.startswith("-") and not w.text.startswith("--")
                                  and "c" in w.text for w in cmd.words[1:])


def _splits_otherwise(context: Context, view: View) -> bool:
    """Does the line give `IFS` a value with other characters than blanks (before the command,
    or earlier on the line)? `IFS= read -r f`, the usual idiom, only keeps the blanks."""
    values = [a.text.split("=", 1)[1] for a in view.args[: view.inner] if a.text.startswith("IFS=")]
    return any(value.strip(" \t\n") for value in values) or _ifs_splits(context.scope)


def _mapfile_values(argv: Sequence[Arg], text: str) -> dict[str, tuple[Value, ...]] | None:
    """What `mapfile [-t] [-d D] [-n N] [-s N] [-O N] [ARRAY]` stores from `text`: every line is
    a value the array's elements may take (a superset: `-n`/`-s` are not applied). None for a
    callback (`-C`, which runs code), another fd (`-u`), an opaque word or too many lines."""
    name = "MAPFILE"
    delimiter = "\n"
    k = 1
    while k < len(argv):
        a = argv[k]
        if a.opaque:
            return None
        t = a.text
        if t == "-t":
            k += 1
            continue
        if t in ("-d", "-n", "-s", "-O") and k + 1 < len(argv):
            if t == "-d":
                delimiter = argv[k + 1].text[:1] or "\0"
            k += 2
            continue
        if t.startswith("-") or not _NAME().fullmatch(t):
            return None
        name = t
        k += 1
    lines = [line for line in dict.fromkeys(text.split(delimiter)) if line]
    if len(lines) > _READ_LINES:
        return None
    return {name: tuple(Value(line) for line in lines)} if lines else None


def _rewritten_word(text: str, cmd: SimpleCommand, known: dict) -> str | None:
    """The rewriter, when a word of the command is the output of a substitution that rewrites
    text spelled on the line (`"$(rev <<< hs.etag/ic)"`, `$(echo … | base64 -d)`, `$(tr a-z
    n-za-m <<< …)`): its source is an `echo`/`printf` of plain words or a literal herestring or
    heredoc, and one of its stages is a rewriter (`_rewrites_text`). Such a word spells a path
    no mention test can read. None otherwise (a substitution that reads files or runs a
    program is of unknown value, as before; one whose text the walk worked out, `known` in the
    scope under its spelling, is no rewriting: `_print_values`)."""
    for w in cmd.words:
        if not w.flags & W_SUBST:
            continue
        for script in substitutions(text[w.start : w.end]):
            if known.get("$(" + script + ")") or known.get("`" + script + "`"):
                continue
            inner = tokenized(script)  # (the walk reads the same script when it follows it)
            stages = [c for c in inner.commands if type(c) is SimpleCommand]
            if not stages or not inner.fully_read or any(c.connector not in ("|", "") for c in stages):
                continue
            source = stages[0]
            literal = not source.flags and (
                source.words and source.words[0].text in ("echo", "printf") or any(
                    r.operator == "<<<" for r in source.redirects) or any(h.literal or "$" not in h.body
                                                                         for h in source.heredocs))
            if not literal:
                continue
            for k, stage in enumerate(stages):
                rewriter = _rewrites_text(stage, k == 0)
                if rewriter is not None:
                    return rewriter
    return None


_PLAIN_WORD = LazyPattern(r"[\w@%+=:,./-]*")


def _quoted(text: str) -> str:
    """A word's text as a shell word that gives it back (echo's operands are spelled again for
    `_words_printed`: unquoted, `echo "select edit('x', 'y')"` lost its inner quotes, round 7)."""
    return text if _PLAIN_WORD().fullmatch(text) else "'" + text.replace("'", "'\\''") + "'"


def _words_printed(command: str | None, expanded: bool = False) -> tuple[str, str | None] | None:
    """What `echo WORDS` (`-n`; no `-e` with a backslash) or `printf FORMAT ARGS`
    (`_printf_value`) prints, the words read as the tokenizer reads them, and, when a glob
    among them (`c?`, taken as written) may print its matches instead, the printed text as a
    pattern (its blanks split it, as they split the unquoted output); None when unknown.
    `expanded`: braces expand and the printed globs keep their own patterns (`$(echo {c,d}i)`,
    `$(echo "a b"*)`: `_expanded_words_printed`), for a value the walk keeps."""
    if command is None:
        return None
    script = tokenize(command)
    if len(script.commands) != 1 or not script.fully_read:
        return None
    cmd = script.commands[0]
    if type(cmd) is not SimpleCommand or cmd.redirects or cmd.heredocs:
        return None
    if expanded and cmd.flags & (W_GLOB | W_BRACE) and not cmd.flags & ~(W_GLOB | W_BRACE):
        return _expanded_words_printed(command, cmd)
    if cmd.flags & ~W_GLOB:
        return None
    globbed = bool(cmd.flags & W_GLOB)
    argv = [Arg(w.text, None, w.opaque and not w.flags & W_GLOB, ONE, w) for w in cmd.words[1:]]
    if cmd.words[0].text == "printf":
        text = _printf_value(argv)
        return None if text is None else (text, text if globbed else None)
    argv = _echo_operands(argv)
    if argv is None:
        return None
    text = " ".join(a.text for a in argv)
    return text, text if globbed else None


def _echo_operands(argv: list[Arg]) -> list[Arg] | None:
    """`echo`'s words past its options, None when `-e` has escapes to decode."""
    # (`-n` changes nothing here: a substitution drops the trailing newlines anyway)
    while argv and argv[0].text in ("-n", "-e", "-E", "-ne", "-en"):
        if "e" in argv[0].text[1:] and any("\\" in a.text for a in argv[1:]):
            return None  # escapes this layer does not decode
        argv = argv[1:]
    return argv


def _expanded_words_printed(command: str, cmd: SimpleCommand) -> tuple[str, str | None] | None:
    """`_words_printed` of an `echo`/`printf` whose words hold globs or braces: each word
    expanded, a glob printing its matches in its place, or its own text when nothing matches
    (which an unquoted use globs again: `$(echo c\\?/*)` prints `c?/*`), so the text is the
    pattern. `printf`'s format is applied to each argument on its own when it holds one `%s`
    (and `\\n`); with several, one pass takes the arguments, as without a glob."""
    argv: list[Arg] = []
    for w in cmd.words[1:]:
        argv.extend(expand_word(w, command[w.start : w.end], None))
    if any(a.opaque for a in argv):
        return None
    globbed = any(a.pattern is not None for a in argv)
    if cmd.words[0].text == "printf":
        if not argv or argv[0].pattern is not None:
            return None
        form = argv[0].text.replace("\\n", "\n")
        before, conversion, after = form.partition("%s")
        if "\\" in form:
            return None
        if not conversion or "%" in before.replace("%%", "") + after.replace("%%", ""):
            text = _printf_value(argv)
        else:
            before, after = before.replace("%%", "%"), after.replace("%%", "%")
            text = "".join(before + a.text + after for a in argv[1:] or [Arg("", None, False, ONE, cmd.words[0])])
    else:
        operands = _echo_operands(argv)
        text = None if operands is None else " ".join(a.text for a in operands)
    if text is None:
        return None
    text = text.rstrip("\n")
    return text, text if globbed else None  # (braces only: the words are known)


_ECHO_OPTIONS = frozenset({"-n", "-e", "-E", "-ne", "-en", "-nE", "-En"})


def _into_xargs(commands: Sequence, k: int) -> bool:
    """Does stage `k` pipe into `xargs` (`echo x.sh | xargs bash`), maybe through stages that
    keep or drop whole lines (`| sort | xargs bash`, judged by `listers.selects`)?"""
    for following in commands[k + 1 :]:
        if type(following) is not SimpleCommand or not following.words:
            return False
        if following.words[0].text in ("xargs", "parallel"):
            return True  # (GNU parallel reads its arguments from stdin as xargs does: round 7)
        if following.connector != "|" or following.words[0].text not in listers.SELECTING:
            return False
    return False


def _command_code(argv: Sequence[Arg], inner: int) -> int | None:
    """The index of a shell's `-c` code in `argv` (`bash -c CODE`, `sh -ec CODE`), or None."""
    for k in range(inner + 1, len(argv) - 1):
        t = argv[k].text
        if not t.startswith("-") or t.startswith("--"):
            return None
        if "c" in t[1:] and not argv[k + 1].opaque:
            return k + 1
    return None


def _printf_text(words: Sequence[str]) -> str | None:
    """What `printf FORMAT WORDS…` prints when FORMAT holds only plain text, `%s`, `%%`, `\\n`
    and `\\t` (`printf '%s\\n' x.sh y.sh`); None otherwise."""
    if not words or words[0].startswith("-"):
        return None
    form = words[0]
    if "\\" in form:
        form = form.replace("\\n", "\n").replace("\\t", "\t")
        if "\\" in form:
            return None  # another escape (`\\\\n` leaves one)
    per_pass = form.replace("%%", "").count("%s")
    passes = -(-(len(words) - 1) // per_pass) if per_pass else 1  # (the format is used again for the rest)
    arguments = list(words[1:]) + [""] * (passes * per_pass - (len(words) - 1))
    return _printf_value([Arg(form * max(passes, 1), None, False, ONE, None)]
                         + [Arg(w, None, False, ONE, None) for w in arguments])


def _printf_value(argv: Sequence[Arg]) -> str | None:
    """The text `printf FORMAT ARGS…` makes when FORMAT holds only plain text, `%s` and `%%`
    and one pass over it takes every argument; None otherwise."""
    if not argv or any(a.opaque for a in argv):
        return None
    form, args = argv[0].text, [a.text for a in argv[1:]]
    if "\\" in form:
        return None
    out = []
    used = 0
    k = 0
    while k < len(form):
        c = form[k]
        if c != "%":
            out.append(c)
            k += 1
            continue
        spec = form[k + 1 : k + 2]
        if spec == "%":
            out.append("%")
        elif spec == "s":
            out.append(args[used] if used < len(args) else "")
            used += 1
        else:
            return None
        k += 2
    return "".join(out) if used >= len(args) else None


def _read_values(argv: Sequence[Arg], text: str) -> dict[str, tuple[Value, ...]] | None:
    """What `read [-r] [-s] [-e] [-p P] [-t N] NAME…` assigns over the lines of `text`, per
    name, or None when another option, an opaque word or too many lines leave it unknown."""
    if not argv:
        return None
    names: list[str] = []
    raw = False
    k = 1
    while k < len(argv):
        a = argv[k]
        if a.opaque:
            return None
        if a.text.startswith("-") and not names:
            letters = a.text[1:]
            if letters in ("p", "t"):
                k += 2
                continue
            if not letters or not set(letters) <= _READ_FLAGS:
                return None
            raw = raw or "r" in letters
        elif _NAME().fullmatch(a.text):
            names.append(a.text)
        else:
            return None
        k += 1
    names = names or ["REPLY"]
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if len(lines) > _READ_LINES or (not raw and any(line.endswith("\\") for line in lines)):
        return None
    found: dict[str, list[str]] = {name: [] for name in names}
    for line in lines:
        if not raw:
            line = re.sub(r"\\(.)", r"\1", line)
        fields = line.split(None, len(names) - 1) if len(names) > 1 else [line.strip(" \t")]
        for index, name in enumerate(names):
            value = fields[index] if index < len(fields) else ""
            if value not in found[name]:
                found[name].append(value)
    return {name: tuple(Value(v) for v in values) for name, values in found.items()}


def _feeds_process(text: str, cmd: SimpleCommand) -> str | None:
    """The first output process substitution among the command's words and redirect targets
    whose command runs what it reads (`cat x.sh > >(sh)`, `tee >(bash)`, `exec 3> >(sh)` then
    `>&3`): what the line writes into it is code nobody reads. None when there is none."""
    raws = [raw for w in cmd.words if w.flags & W_SUBST and ">(" in (raw := text[w.start : w.end])]
    raws.extend(r.target.text for r in cmd.redirects if ">(" in r.target.text)
    for raw in raws:
        at = raw.find(">(")
        while at >= 0:
            end = group_end(raw, at + 1, "(", ")")
            inner = raw[at + 2 : end - 1 if raw[end - 1 : end] == ")" else end]
            first = next((c for c in tokenized(inner).commands if type(c) is SimpleCommand), None)
            if first is not None and _reads_stdin_as_program(first):
                return raw[at:end]
            at = raw.find(">(", end)
    return None


def _reads_stdin_as_program(cmd: SimpleCommand) -> bool:
    """Does this pipeline stage turn the bytes it reads into commands, command operands, code
    or patches?"""
    words = cmd.words
    if not words:
        return False
    first = words[0]
    if first.text.startswith("(") and not first.text.startswith("((") and not first.opaque:
        from polydeukes.stdlib.shell import inputs  # `… | (bash)`: the subshell's command

        words = inputs.bare_words(words)
        if not words:
            return False
        first = words[0]
    grouped = first.text == "{" and len(words) > 1 and not first.opaque
    if grouped:
        words = words[1:]  # `… | { while read f; do …; done; }` (round 10: it passed)
        first = words[0]
    if not first.opaque:
        if first.text in ("while", "until"):
            return True  # `… | while read f; do …`: the loop runs what it reads
        if grouped and first.text in _READERS_OF_LINES:
            return True  # `… | { read f; rm "$f"; }`: the group's later commands take what it read
        # Most stages are a plain reader or filter (`| sort`, `| wc -l`): a name that is no
        # executor, shell, wrapper, reserved word or interpreter cannot run what it reads.
        if untrusted_program_path(first.text):
            return True  # `… | notes/cat`: the file may be a shell whatever its name
        if "=" not in first.text and not first.text.endswith(")"):
            head = basename(first.text)
            if head in _NAMES_FROM_STDIN:
                return _takes_names_from_stdin(head, [w.text for w in words])
            if head in _STDIN_PROGRAMS:
                return E.program_on_stdin(head, [w.text for w in words[1:]])  # `… | ed -s`, `… | awk -f -`
            if head not in _MAY_RUN_STDIN and not head[-1:].isdigit():
                return False
    index, via_xargs, _, _ = _unwrap(words)
    if index == len(words) and first.text == "case":
        return True  # `… | case x in` with its arms on later lines: they read the pipe
    words = words[index:]
    if via_xargs:
        return not words or not _pure_reader(words)
    if not words or words[0].opaque:
        return False
    if untrusted_program_path(words[0].text):
        return True  # (`… | env notes/cat`)
    head = basename(words[0].text)
    if head in _STDIN_EXECUTORS or head == "sqlite3":
        return True  # (sqlite3 with SQL operands reads no stdin: not worked out, read as its program)
    if head in _SCHEDULERS:
        return _scheduled_file(words) is None  # `… | at now`: the job is what it reads
    if head in NESTED_SHELLS and head != "eval":
        _, known = shell_script_sources(words, cmd)
        return not known and not any(not w.text.startswith(("-", "+")) for w in words[1:])
    if head in _STDIN_PROGRAMS:
        return E.program_on_stdin(head, [w.text for w in words[1:]])  # (`… | sudo ed -s`)
    model = E.model_for(head)
    if model is not None and model.handler == "interpreter":
        operands = [w.text for w in words[1:] if not w.text.startswith("-") or w.text == "-"]
        return not any(w.text in _CODE_OPTIONS for w in words[1:]) and (not operands or operands[0] == "-")
    return False


# (round 11) Code that changes the directory its command lines run in: Python's `os.chdir`
# and `cwd=`, Node's `process.chdir` and `cwd:`, Ruby's `Dir.chdir` and `chdir:`, Perl's and
# awk-less `chdir`, PHP's `chdir`.
_CODE_CHANGES_DIRECTORY = LazyPattern(r"\bchdir\b|\bcwd\s*[=:]|\bfchdir\b")
# A shell escape among the commands a program reads on stdin (`E.STDIN_PROGRAMS` whose stdin
# is always a program): ed's and ex's `!cmd`, `r !cmd`, `w !cmd`, `e !cmd`, vim's `:!cmd`,
# `:%!cmd`, `:silent !cmd`, gdb's `!cmd` and `shell cmd`, mail's `~!cmd`, ftp's `!cmd`, psql's
# and mysql's `\! cmd` and `system cmd`: the rest of the line is a command line.
_EDITOR_SHELL = LazyPattern(r"(?m)^[ \t:]*(?:(?:[0-9.$,;'+%-]*[ \t]*(?:(?:r|read|w|write|W|e|edit|sil|silent|exe)!?"
                            r"[ \t]*)?|~|\\)!(?!=)|(?:shell|system)[ \t]|\\[og][ \t]*\|)[ \t]*(.+)$")
# Commands without a row whose stdin the walk reads on its own terms (shells, builtins, loops,
# schedulers, make, sqlite3), and gh, whose stdin is a body or API input it sends to GitHub.
_STDIN_READ_ELSEWHERE = (NESTED_SHELLS | BUILTINS | _STDIN_EXECUTORS | _SCHEDULERS | _RESERVED | PROGRAM_RUNNERS
                         | {"sqlite3", "gh"})
# The first names of the stages `_reads_stdin_as_program` must read further (a versioned
# interpreter name, `python3.12`, ends in a digit and is read further too).
_MAY_RUN_STDIN = (_STDIN_EXECUTORS | NESTED_SHELLS | _RESERVED | _WRAPPER_NAMES | _SCHEDULERS | {"case", "sqlite3"}
                  | frozenset(name for name, model in E.COMMANDS.items() if model.handler == "interpreter"))


def _pure_reader(words: Sequence[Word]) -> bool:
    if untrusted_program_path(words[0].text):
        return False
    model = E.model_for(basename(words[0].text))
    return model is not None and model.pure


# Archivers that take the names of their operands from stdin (`zip -@`, `tar -T -`): a lister
# piped into one gives it operands, as into `xargs` (`git ls-files | zip -qm x.zip -@` moves
# every listed file into the archive, deleting it).
_NAMES_FROM_STDIN = frozenset({"zip", "tar", "bsdtar"})


def _takes_names_from_stdin(head: str, texts: list[str]) -> bool:
    if head == "zip":
        return "-@" in texts or "--names-stdin" in texts or any(
            t.startswith("-") and not t.startswith("--") and "@" in t for t in texts[1:])
    return any(t in ("-T", "--files-from") and k + 1 < len(texts) and texts[k + 1] == "-"
               or t in ("-T-", "--files-from=-") for k, t in enumerate(texts))


def _pipeline_feeds_executor(commands: Sequence[SimpleCommand | PlainRun], start: int) -> list[bool]:
    """Per stage of the pipeline from `commands[start]` to its last stage: does the stage's
    stdout reach, through `|`, a later stage that executes its input? (Only stages that pipe
    into another need asking, so the walk asks once per pipeline, at its first stage.)"""
    end = start
    while end < len(commands) and type(commands[end]) is not PlainRun and commands[end].connector == "|":
        end += 1
    # commands[start:end] pipe into their successor; commands[end] (if any) is the last stage.
    flags = [False] * (end - start)
    downstream_executes = False
    for k in range(end, start, -1):
        cmd = commands[k] if k < len(commands) else None
        if type(cmd) is SimpleCommand and _reads_stdin_as_program(cmd):
            downstream_executes = True
        flags[k - 1 - start] = downstream_executes
    return flags


_COPROC_OUTPUT = LazyPattern(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\[0\]\}|\$([A-Za-z_][A-Za-z0-9_]*)")


def _coproc_name(args: Sequence[Arg], inner: int) -> str:
    """The name a `coproc` gives its descriptors: its NAME before a compound command, else COPROC."""
    return args[1].text if inner > 2 and args[1].text not in _COMPOUND_OPENERS else "COPROC"


_GO_PROGRAM_OPTIONS = ("-toolexec", "-vettool", "-exec")


def _go_programs(words: Sequence[str]) -> list[str]:
    """The programs go's options run (`-toolexec PROG`, `--vettool=PROG`, `-exec PROG`), each
    as a command line (go splits `-toolexec` at its blanks)."""
    found: list[str] = []
    for k, w in enumerate(words):
        option, eq, value = w.partition("=")
        if option.startswith("--"):
            option = option[1:]
        if option in _GO_PROGRAM_OPTIONS:
            if not eq:
                if k + 1 >= len(words):
                    continue
                value = words[k + 1]
            if value:
                found.append(value)
    return found


def _listing_script(r: Redirect) -> str | None:
    """The script whose output a reading redirect gives as input, when it is a substitution
    whole: `< <(git ls-files)`, `<<< "$(git ls-files)"`, ``<<< `git ls-files` ``."""
    t = r.target.text
    if r.operator == "<":
        return t[2:-1] if t.startswith("<(") and t.endswith(")") else None
    if r.operator != "<<<" or not r.target.opaque:
        return None
    if t.startswith("$(") and not t.startswith("$((") and group_end(t, 1, "(", ")") == len(t):
        return t[2:-1]
    if len(t) > 1 and t[0] == "`" and t.count("`") == 2 and t[-1] == "`":
        return t[1:-1]
    return None


def _heredoc_runs(cmd: SimpleCommand) -> bool:
    """Does an unquoted heredoc body of `cmd` hold a command substitution?"""
    return any(not h.literal and ("$(" in h.body or "`" in h.body) for h in cmd.heredocs)


def heredoc_substitutions(body: str) -> list[str]:
    """The scripts of the command substitutions in an unquoted heredoc body: `$(…)` and
    backquotes, where quotes are plain characters (`'$(x)'` runs x) and only a backslash
    escapes (`\\$(x)` does not run)."""
    out: list[str] = []
    i, n = 0, len(body)
    while i < n:
        c = body[i]
        if c == "\\" or c == "$" and body.startswith("$", i + 1):  # (an escape; `$$`, the shell's pid)
            i += 2
            continue
        if c == "$" and body.startswith("(", i + 1) and not body.startswith("((", i + 1):
            end = group_end(body, i + 1, "(", ")")
            out.append(body[i + 2 : end - 1 if end <= n and body[end - 1 : end] == ")" else end])
            i = end
            continue
        if c == "`":
            j = i + 1
            while j < n and body[j] != "`":
                j += 2 if body[j] == "\\" else 1
            out.append(body[i + 1 : j])
            i = j + 1
            continue
        i += 1
    return out


def substitutions(raw: str) -> list[str]:
    """The scripts of the command and process substitutions in one word's raw spelling:
    `$(…)`, backquotes, `<(…)`, `>(…)` (an arithmetic `$((…))` is no script, but one inside it
    is), also inside double quotes and parameter-expansion operators (`${x:-$(…)}`).

    A single quote quotes only outside double quotes: `"'$(x)'"` runs x, and so does
    `"${v:-'$(x)'}"` (within double quotes it is a plain character inside `${…}` too, as
    bash reads it for `:-`; read so for every operator, which can only find more). `$'…'`
    ends at an unescaped quote (`$'\\''$(x)'…'` runs x)."""
    out: list[str] = []
    i, n = 0, len(raw)
    # What encloses the cursor, innermost last: `"` (double quotes), `{` (a `${…}` outside
    # double quotes), `q` (a `${…}` within them).
    within: list[str] = []
    while i < n:
        c = raw[i]
        if c == "\\":
            i += 2
            continue
        quoted = within and within[-1] in _WITHIN_DOUBLE_QUOTES
        if c == "'":
            if quoted:
                i += 1
            else:
                j = raw.find("'", i + 1)
                i = n if j < 0 else j + 1
            continue
        if c == '"':
            if within and within[-1] == '"':
                within.pop()
            else:
                within.append('"')
            i += 1
            continue
        if c == "}" and within and within[-1] != '"':
            within.pop()
            i += 1
            continue
        if c == "$" and raw.startswith("{", i + 1):
            within.append("q" if quoted else "{")
            i += 2
            continue
        if c == "$" and raw.startswith("'", i + 1) and not quoted:
            j = i + 2
            while j < n and raw[j] != "'":
                j += 2 if raw[j] == "\\" else 1
            i = j + 1
            continue
        if c in "$<>" and raw.startswith("(", i + 1) and not raw.startswith("((", i + 1):
            end = group_end(raw, i + 1, "(", ")")
            out.append(raw[i + 2 : end - 1 if end <= n and raw[end - 1 : end] == ")" else end])
            i = end
            continue
        if c == "`":
            j = i + 1
            while j < n and raw[j] != "`":
                j += 2 if raw[j] == "\\" else 1
            out.append(raw[i + 1 : j])
            i = j + 1
            continue
        i += 1
    return out


_WITHIN_DOUBLE_QUOTES = frozenset('"q')


def stdout_content(cmd: SimpleCommand) -> tuple[str, str | None]:
    """What a single stdout redirect writes, or the reason it cannot be computed (§8.6 case 3)."""
    words = cmd.words
    if not words:
        return "", None
    stdin_redirects = [r for r in cmd.redirects if r.operator in ("<", "<<<", "<&", "<>")]
    heredocs: Sequence[Heredoc] = cmd.heredocs
    if stdin_redirects or heredocs:
        if len(words) != 1 or words[0].opaque or basename(words[0].text) != "cat":
            return "", f"stdin of {words[0].text} is not copied verbatim"
        if len(stdin_redirects) + len(heredocs) > 1:
            return "", "more than one stdin source"
        if heredocs:
            h = heredocs[0]
            if not h.literal and any(ch in h.body for ch in "$`\\"):
                return "", "an unquoted heredoc body carries an expansion or escape"
            return h.body, None
        r = stdin_redirects[0]
        if r.operator == "<<<":
            if r.target.opaque:
                return "", "the herestring is opaque"
            return r.target.text + "\n", None
        return "", f"stdin comes from file {r.target.text}"
    head = words[0]
    if head.opaque:
        return "", "the writing command is opaque"
    if basename(head.text) != "echo":
        return "", f"the output of {head.text} is not computable"
    args = words[1:]
    if args and args[0].text.startswith("-"):
        return "", "echo flag semantics are not computed"
    if any(w.opaque for w in args):
        return "", "an echo argument is opaque"
    if any(w.flags & W_GLOB or w.flags & W_BRACE and brace_expand(w.text) != [w.text] for w in args):
        return "", "an echo argument is a pattern"  # (`echo c? > l` writes what c? matches)
    return " ".join(w.text for w in args) + "\n", None
