"""Instructions the shell tokenizer spends, per line shape, beside the tokenizer it replaced (not a test).

    python bench/bench_tokenizer.py [--jobs N] [--only TEXT]

Counted with valgrind's callgrind, which load does not move: a child process tokenizes a text
once (first-call costs), then N times; the same child with N = 0 is subtracted and the
difference divided by N and by the text's line count. `new` is stdlib/shell/tokenizer.py, `old`
the previous tokenizer, kept as the tests' oracle (tests/shell_tokenizer_oracle.py). Shapes:
each line of bench_shell.py's block repeated 100 times, the 1,000-line script itself, a few
single lines (one call each, so the call's fixed cost is in), and the first call of a fresh
process on one short line (`first call`: what a check pays once, compiling the regular
expressions included; N = 1 minus N = 0 of a child that only imports).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ORACLE = os.path.join(os.path.dirname(HERE), "tests", "shell_tokenizer_oracle.py")
SINGLE_LINES = ["echo hi", 'echo "building $TARGET" >> build.log', "ls -la  foo\tbar",
                "x=$(date +%s) && echo \"$x\" 2>/dev/null", "cat <<-EOF\n\tbody $x\n\tEOF\necho done",
                "a=1 b='two words' c=\"three\" cmd --flag=value 'quoted arg' \"dq\" | grep -v x &> out.txt"]


def shapes() -> list[tuple[str, str, int, int]]:
    """(name, text, lines, calls): `calls` 0 for the first call of a fresh process."""
    sys.path.insert(0, HERE)
    import bench_shell

    block = [(line, "\n".join([line] * 100), 100, 5) for line in bench_shell._BLOCK
             if not line.startswith(("#", "EOF", "cat >"))]
    heredoc = "\n".join(bench_shell._BLOCK[6:9])
    return (block + [("the heredoc's three lines", "\n".join([heredoc] * 100), 300, 5),
                     ("script (1,000 lines)", bench_shell.SCRIPT, 1000, 5)]
            + [(line, line, 1, 200) for line in SINGLE_LINES]
            + [("first call: echo hi", "echo hi", 1, 0)])


def _tokenize(impl: str):
    if impl == "new":
        from polydeukes.stdlib.shell.tokenizer import tokenize
        return tokenize
    spec = importlib.util.spec_from_file_location("shell_tokenizer_oracle", ORACLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.tokenize


def drive(impl: str, index: int, calls: int, first: bool) -> None:
    tokenize = _tokenize(impl)
    _, text, _, _ = shapes()[index]
    if first:
        if calls:
            tokenize(text)
        return
    tokenize(text)
    for _ in range(calls):
        tokenize(text)


def count(impl: str, index: int, calls: int, first: bool) -> int:
    with tempfile.TemporaryDirectory() as out:
        command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}/c", sys.executable,
                   os.path.abspath(__file__), "--drive", impl, str(index), str(calls), str(int(first))]
        subprocess.run(command, env=dict(os.environ, PYTHONHASHSEED="0"), stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=True)
        with open(f"{out}/c", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("summary:"):
                    return int(line.split()[1])
    raise RuntimeError("callgrind wrote no summary")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", default="")
    args = parser.parse_args()
    rows = [(k, shape) for k, shape in enumerate(shapes()) if args.only in shape[0]]
    with ThreadPoolExecutor(args.jobs) as pool:
        jobs = {}
        for k, (_, _, _, calls) in rows:
            first = calls == 0
            for impl in ("old", "new"):
                jobs[impl, k] = (pool.submit(count, impl, k, 1 if first else calls, first),
                                 pool.submit(count, impl, k, 0, first), 1 if first else calls)
        figures = {key: (a.result() - b.result()) / n for key, (a, b, n) in jobs.items()}
    print(f"{'instructions per line':60s} {'old':>12s} {'new':>12s} {'new/old':>8s}")
    for k, (name, _, lines, _) in rows:
        old, new = figures["old", k] / lines, figures["new", k] / lines
        print(f"{name.replace(chr(10), ' ⏎ ').replace(chr(9), ' ⇥ ')[:60]:60s} {old:12,.0f} {new:12,.0f} "
              f"{new / old:8.2f}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--drive"]:
        drive(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5] == "1")
    else:
        main()
