"""The git wiring of the change-set surface: a pre-commit hook that pipes the staged diff into
`pdks covenant check --diff` (spec 07 §5.1). `pdks` itself never runs git while judging; only
this adapter (the hook runner and the installer) does.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys

# The producer spec 05 §3.6 recommends: colours, external diff drivers and textconv would hand
# the judge text that exists nowhere; mnemonic prefixes would not be stripped.
DIFF_COMMAND = [
    "git", "diff", "--cached", "--no-color", "--no-ext-diff", "--no-textconv",
    "--src-prefix=a/", "--dst-prefix=b/",
]
HOOK_MARKER = "# polydeukes pre-commit hook"


class GitError(Exception):
    pass


def staged_diff(root: str) -> bytes:
    """The staged change set as a unified diff; raises GitError when git cannot produce it."""
    try:
        done = subprocess.run(DIFF_COMMAND, cwd=root, capture_output=True, check=False)
    except OSError as exc:
        raise GitError(f"git could not be started: {exc.strerror or exc}") from None
    if done.returncode != 0:
        detail = done.stderr.decode("utf-8", errors="replace").strip().splitlines()
        raise GitError(f"git diff failed: {detail[0] if detail else f'exit {done.returncode}'}")
    return done.stdout


def git_path(root: str, name: str) -> str:
    """Where git keeps `name` (`hooks`, `config`) for this repository (honours core.hooksPath
    and worktrees)."""
    try:
        done = subprocess.run(["git", "rev-parse", "--git-path", name], cwd=root,
                              capture_output=True, check=False, text=True)
    except OSError as exc:
        raise GitError(f"git could not be started: {exc.strerror or exc}") from None
    if done.returncode != 0:
        raise GitError("not a git repository (run `git init` first)")
    return os.path.normpath(os.path.join(root, done.stdout.strip()))


def hooks_dir(root: str) -> str:
    """Where git looks for hooks here."""
    return git_path(root, "hooks")


def hook_gate(root: str) -> list[str]:
    """What protectedPaths must cover once the hook is installed: the pre-commit file, when git
    keeps its hooks inside the project (an agent that deletes or rewrites it disarms the gate for
    every later commit), with the repository's config file (a `core.hooksPath` written into it
    points git at other hooks), and the virtual environment of the interpreter the hook names,
    when it lies inside the project (the judge is that interpreter and everything it imports).
    A hooks directory outside the project (a linked worktree's, a `core.hooksPath` elsewhere) is
    not the project's to protect."""
    from polydeukes.stdlib.adapters.install import _inside

    entries = []
    hook = os.path.join(hooks_dir(root), "pre-commit")
    for path in ((hook, git_path(root, "config")) if _inside(root, hook) is not None else ()) + (
            (sys.prefix,) if sys.prefix != sys.base_prefix else ()):
        relative = _inside(root, path)
        if relative is not None:
            entries.append(relative.replace(os.sep, "/"))
    return entries


def hook_script() -> str:
    # The interpreter is named by its absolute path: a hook's PATH often lacks the virtual
    # environment pdks lives in, and a hook that cannot start pdks blocks the commit (exit 127).
    command = shlex.join([sys.executable, "-m", "polydeukes.cli", "hook", "git"])
    return (
        "#!/bin/sh\n"
        f"{HOOK_MARKER}, installed by `pdks init --git`.\n"
        "# Judges the staged change set; exit 2 blocks the commit and stderr says why.\n"
        f"exec {command} \"$@\"\n"
    )


def install_hook(root: str) -> tuple[str, str]:
    """Install the pre-commit hook unless one exists; returns (status, root-relative path)."""
    directory = hooks_dir(root)
    path = os.path.join(directory, "pre-commit")
    shown = os.path.relpath(path, root)
    if os.path.lexists(path):
        with open(path, encoding="utf-8", errors="replace") as handle:
            ours = HOOK_MARKER in handle.read()
        return ("present" if ours else "foreign"), shown
    os.makedirs(directory, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o755)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(hook_script())
    return "created", shown
