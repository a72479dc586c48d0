"""Micro-benchmark of the shell analyzer (not a test): prints per-call timings.

Targets (issue 5): a 1,000-line script analysed in at most 10 ms; a one-line command well under
a millisecond. Run: python bench/bench_shell.py
"""

from __future__ import annotations

import time

from polydeukes.stdlib.shell.evidence import shell_writes
from polydeukes.stdlib.shell.judgment import judge_shell_mod
from polydeukes.stdlib.shell.tokenizer import tokenize
from polydeukes.stdlib.shell.transcript import TranscriptTarget, judge_transcript_line

PROTECTED = ["packages/core/dist", ".claude/settings.json", "src/core", "polydeukes.config.yaml"]
ROOT = "/home/u/proj"
HOME = "/home/u"
# transcript-mod judges every Bash call too (meta covenant), against the live session file.
TRANSCRIPT = TranscriptTarget("/home/u/.claude/projects/-home-u-proj/session.jsonl", root=ROOT, home=HOME)

# A representative mix: plain commands, quoting, pipes, redirects, a heredoc, substitutions.
_BLOCK = [
    "cd build && make -j4 all",
    "echo \"building $TARGET\" >> build.log",
    "grep -rn 'TODO' src/ | sort | uniq -c > todo.txt",
    "cat packages/core/dist/index.js | wc -l",
    "python3 -m pytest tests/ -q --maxfail=1 2>&1 | tee test.log",
    "for f in src/*.py; do ruff check \"$f\"; done",
    "cat > notes/out.md <<'EOF'",
    "# heading with $HOME inside a quoted heredoc",
    "EOF",
    "git status packages/core/dist && git diff --stat",
]
SCRIPT = "\n".join(_BLOCK[k % len(_BLOCK)] for k in range(1000))
ONE_LINE = "grep -rn 'needle' packages/core/dist/index.js | head -n 20 > /tmp/hits.txt"


def best_of(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    figures = [
        ("tokenize, 1,000-line script", lambda: tokenize(SCRIPT), 20),
        ("judge_shell_mod, 1,000-line script", lambda: judge_shell_mod(SCRIPT, PROTECTED, root=ROOT, home=HOME), 20),
        ("shell_writes, 1,000-line script", lambda: shell_writes(SCRIPT, root=ROOT, home=HOME, read_file=None), 20),
        ("judge_shell_mod, one line", lambda: judge_shell_mod(ONE_LINE, PROTECTED, root=ROOT, home=HOME), 2000),
        ("shell_writes, one line", lambda: shell_writes(ONE_LINE, root=ROOT, home=HOME, read_file=None), 2000),
        ("judge_transcript_line, 1,000-line script", lambda: judge_transcript_line(SCRIPT, TRANSCRIPT), 20),
        ("judge_transcript_line, one line", lambda: judge_transcript_line(ONE_LINE, TRANSCRIPT), 2000),
    ]
    print(f"script: {len(SCRIPT.splitlines())} lines, {len(SCRIPT)} chars")
    for label, fn, repeat in figures:
        seconds = best_of(fn, repeat)
        print(f"{label:40s} {seconds * 1e3:9.3f} ms (best of {repeat})")


if __name__ == "__main__":
    main()
