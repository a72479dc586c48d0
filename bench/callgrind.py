"""Instructions a whole command executes, counted by valgrind's callgrind: a figure that the
load of a shared machine does not change, where wall times do."""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path


def instructions(argv: list[str], cwd, stdin: bytes, env: dict) -> int:
    """Instructions of the command and every process it starts. A forked child's count starts
    as a copy of its parent's (callgrind forks with it): `--zero-before=PyOS_AfterFork_Child`
    zeroes it in the child, so a check's judging child is not counted twice. The deadline is
    lifted: under valgrind a check runs some fifty times slower."""
    with tempfile.TemporaryDirectory() as out:
        subprocess.run(["valgrind", "--tool=callgrind", "--trace-children=yes",
                        "--zero-before=PyOS_AfterFork_Child", f"--callgrind-out-file={out}/%p",
                        *argv], cwd=cwd, input=stdin,
                       env=dict(env, PYTHONHASHSEED="0", POLYDEUKES_DEADLINE_SECONDS="3600"),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        total = 0
        for name in os.listdir(out):
            for line in Path(out, name).read_text(errors="replace").splitlines():
                if line.startswith("summary:"):
                    total += int(line.split()[1])
        return total
