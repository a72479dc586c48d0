"""`pdks demo`: a throw-away project, one upheld call and one blocked call, shown end to end.

Each check runs as its own `pdks covenant check` process, exactly as a host hook spawns it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

from polydeukes.cli.scaffold import STARTER_CONFIG, run_init

DISCIPLINES = r"""
disciplines:
  - id: 'no-focused-tests'
    why: 'a focused test must not land in shared source.'
    enforce: block
    declare:
      mechanism: 'added-only'
      scope: { source: 'target.path', include: ['^src/', '^test/'] }
      supply: { pre: 'empty', post: 'empty' }
      extract:
        before:
          - { op: 'source', of: 'pre' }
          - { op: 'lines' }
          - { op: 'keyByPattern', re: '(\.only\()' }
        after:
          - { op: 'source', of: 'post' }
          - { op: 'lines' }
          - { op: 'keyByPattern', re: '(\.only\()' }
        added:
          - { op: 'onlyIn', of: 'after', notIn: 'before' }
      relate:
        - id: 'nothing-added'
          relation: { op: 'empty', of: 'added' }
          message: 'adds {key}: {value}'
  - id: 'database-location'
    why: 'Keep database files under data/.'
    enforce: block
    declare:
      mechanism: 'naming'
      scope: { source: 'target.path', include: ['\.db$'] }
      extract:
        outside:
          - { op: 'source', of: 'target.path' }
          - { op: 'matches', re: '^(?!data/)' }
      relate:
        - id: 'location'
          relation: { op: 'empty', of: 'outside' }
          message: '{value} must be under data/'
"""

BEFORE = "describe('login', () => {\n  it('works', () => {});\n});\n"
CALLS = [
    ("Edit test/login.test.ts: renames the test", BEFORE,
     BEFORE.replace("it('works'", "it('logs in'")),
    ("Edit test/login.test.ts: focuses the test with it.only", BEFORE,
     BEFORE.replace("  it(", "  it.only(")),
]
TOOLS = {"mutating": ["Edit", "Write"], "shell": ["Bash"], "commandArgs": ["command"]}


def _payload(pre: str, post: str) -> bytes:
    path = "test/login.test.ts"
    return json.dumps({
        "toolCalls": [{"name": "Edit", "args": {"file_path": path},
                       "fileChange": {"kind": "modify", "path": path, "pre": pre, "post": post}}],
        "subagentSpawns": [],
        "userMessages": [],
        "tools": TOOLS,
    }).encode()


def run_demo(echo) -> int:
    with tempfile.TemporaryDirectory(prefix="pdks-demo-") as root:
        run_init(root)
        with open(os.path.join(root, "polydeukes.config.yaml"), "w", encoding="utf-8") as handle:
            handle.write(STARTER_CONFIG + DISCIPLINES)
        echo(f"pdks demo — a throw-away project in {root}")
        echo("  polydeukes.config.yaml: the `pdks init` scaffold plus two disciplines at "
             "enforce: block (no-focused-tests, database-location)")
        codes = []
        for title, pre, post in CALLS:
            echo("")
            echo(f"$ pdks covenant check --enforce block    # {title}")
            done = subprocess.run(
                [sys.executable, "-m", "polydeukes.cli", "covenant", "check", "--enforce", "block"],
                input=_payload(pre, post), cwd=root, capture_output=True, check=False,
            )
            for line in done.stderr.decode("utf-8", errors="replace").splitlines():
                echo(f"  stderr: {line}")
            verdict = {0: "upheld: the edit may happen", 2: "blocked: the edit is refused"}
            echo(f"  exit {done.returncode} ({verdict.get(done.returncode, 'unexpected')})")
            codes.append(done.returncode)
        echo("")
        echo("telemetry rows (.polydeukes/roi.log):")
        try:
            with open(os.path.join(root, ".polydeukes", "roi.log"), encoding="utf-8") as log:
                for line in log:
                    echo("  " + line.rstrip("\n").replace("\t", "  "))
        except OSError as exc:
            echo(f"  (no log: {exc.strerror})")
    return 0 if codes == [0, 2] else 2
