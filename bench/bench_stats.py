"""How long `pdks stats` takes on a large generated roi.log, and how much memory it holds.

    python bench/bench_stats.py [--size-mb 1024] [--runs 3] [--shape sessions|uniform] [--naive]
                                [--instructions]

Generates the log once (cached in the temp directory by size, shape and seed), then runs
`pdks stats --log <file>` and `pdks stats --json --log <file>` as whole processes, each `--runs`
times, and prints the median wall time, CPU time and peak RSS. With `--naive`, also times a
plain per-line loop over `vm.telemetry.parse_record_line` (spec 06 §11's reader) on the same
file, in the same run, for a ratio. `--instructions` adds one `pdks stats` run under valgrind's
callgrind, a figure the load of a shared machine does not change (some fifty times slower than
a plain run: use it with `--size-mb 20`). Target (issue 14): a 1 GB log summarized in <= 10 s on
one core, in constant memory. Not a test: read the figures.

Measured on the shared 2-core development machine (AMD EPYC VM, load average about 7 from other
jobs), 1 GB `sessions` log, 11,165,479 rows: `pdks stats` 8.1-11.6 s CPU per run (medians 8.4,
9.5 and 9.9 s in three sessions), peak RSS 53 MiB; the previous reader 12.9 s in the session
that gave 8.4 (paired, ratio 0.65). `--size-mb 20 --instructions`: 1,226 M instructions (the
previous reader 1,390 M; 425 M of either is start-up). `uniform`: about 3.5 times the
instructions per row of `sessions`.

Shapes:
* `sessions` (default): agents working in sessions on a few files at a time (Zipf-popular files
  of a 4,000-file repository), each call writing the rows a real config writes — the
  covenant-check pass, meta-covenants on protected paths, scoped disciplines passing, advising
  with witnesses and blocking, shell skips, the odd witness, baseline and config-fault row.
* `uniform`: every row drawn independently (random file, label and event): no two rows of an
  hour alike, the worst case for the aggregation's grouping.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

from callgrind import instructions  # bench/ is the script's path

DAY_MS = 86_400_000
START_MS = 1_775_000_000_000  # 2026-03-31
PROTECTED = [".claude/settings.json", "polydeukes.config.yaml", ".polydeukes"]
DISCIPLINES = {
    ".ts": ["no-focused-tests", "no-console-log", "no-todo-added"],
    ".py": ["no-todo-added", "no-print-debugging"],
    ".md": ["docs-stay-bilingual"],
    ".json": ["locale-parity", "manifest-needs-npm-view"],
}
EXTENSIONS = [".ts"] * 5 + [".py"] * 2 + [".md", ".json", ".yaml"]


def stamp(ms: int) -> str:
    seconds, millis = divmod(ms, 1000)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)) + f".{millis:03d}Z"


def witnesses(rng: random.Random, rule: str) -> str:
    text = f"// TODO: {rng.choice(['fix', 'remove', 'check', 'rename'])} {int(rng.paretovariate(1.2))}"
    return json.dumps([{"id": rule.split("-")[-1], "witnesses": [{"key": "1", "value": text}],
                        "total": 1}], separators=(",", ":"))


WORDS = ["components", "settings", "profile", "billing", "auth", "hooks", "utils", "server",
         "routes", "models", "services", "middleware", "locales", "docs", "tests", "shared",
         "dashboard", "reports", "notifications", "payments", "search", "admin", "session"]


def repository(rng: random.Random) -> list[str]:
    """4,000 paths shaped like a monorepo's (two to five directories, ~45 characters)."""
    files = []
    for i in range(4000):
        dirs = [rng.choice(["packages", "apps", "services"]), rng.choice(WORDS)]
        dirs += [rng.choice(WORDS) for _ in range(rng.randint(0, 3))]
        name = f"{rng.choice(WORDS)}{rng.choice(WORDS).title()}{i}{rng.choice(EXTENSIONS)}"
        files.append("/".join(dirs + [name]))
    return files


def sessions(rng: random.Random):
    files = repository(rng)
    now = START_MS
    while True:
        now += int(rng.expovariate(1 / 600_000))  # a new session every ~10 minutes
        touched = [files[min(int(rng.paretovariate(0.8)) - 1, len(files) - 1)]
                   for _ in range(rng.randint(3, 12))]
        if rng.random() < 0.05:
            yield now, "unattributed", "baseline", rng.choice(PROTECTED), None
        for _ in range(rng.randint(20, 400)):
            now += rng.randint(500, 20_000)
            kind = rng.random()
            if kind < 0.7:
                path = rng.choice(touched)
                if rng.random() < 0.02:
                    protected = rng.choice(PROTECTED)
                    roll = rng.random()
                    event = "witnessed" if roll < 0.1 else "blocked" if roll < 0.6 else "passed"
                    yield now, event, "self-mod", protected, None
                    continue
                rules = DISCIPLINES.get(os.path.splitext(path)[1], [])
                if not rules:
                    yield now, "passed", "covenant-check", path, None
                for rule in rules:
                    roll = rng.random()
                    if rule == "manifest-needs-npm-view" and roll < 0.3:
                        yield now, "skipped", rule, path, "supply-pass"
                    elif roll < 0.04:
                        yield now, "advised", rule, path, witnesses(rng, rule)
                    elif roll < 0.05:
                        yield now, "blocked", rule, path, witnesses(rng, rule)
                    else:
                        yield now, "passed", rule, path, None
            elif kind < 0.95:
                roll = rng.random()
                if roll < 0.3:
                    yield now, "skipped", "shell-unjudgeable", "-", "no-observation"
                elif roll < 0.35:
                    yield now, "blocked", "shell-mod", rng.choice(PROTECTED), None
                else:
                    yield now, "passed", "covenant-check", "-", None
            else:
                yield now, "skipped", "broken-rule", rng.choice(touched), "config-fault"


def uniform(rng: random.Random):
    labels = ["self-mod", "shell-mod", "shell-unjudgeable", "covenant-check", "baseline"] + [
        f"rule-{i}" for i in range(30)]
    files = repository(rng)[:3000] + ["-"]
    events = ["passed"] * 70 + ["advised"] * 10 + ["blocked"] * 8 + ["skipped"] * 9 + [
        "witnessed", "unattributed"]
    now = START_MS
    while True:
        now += rng.randint(0, 600)
        event, label = rng.choice(events), rng.choice(labels)
        if event == "skipped":
            extra = rng.choice(["no-observation", "config-fault", "supply-pass"])
        elif event in ("advised", "blocked", "witnessed") and label.startswith("rule"):
            extra = witnesses(rng, label)
        else:
            extra = None
        yield now, event, label, rng.choice(files), extra


def generate(path: str, size: int, shape: str, seed: int) -> int:
    rng = random.Random(seed)
    rows = sessions(rng) if shape == "sessions" else uniform(rng)
    written = lines = 0
    with open(path + ".part", "w", encoding="utf-8") as out:
        batch = []
        for ms, event, label, subject, extra in rows:
            line = f"{stamp(ms)}\t{event}\t{label}\t{subject}" + (f"\t{extra}\n" if extra else "\n")
            batch.append(line)
            written += len(line)
            lines += 1
            if len(batch) == 50_000:
                out.write("".join(batch))
                batch = []
            if written >= size:
                break
        out.write("".join(batch))
    os.replace(path + ".part", path)
    return lines


# Peak RSS as VmHWM read by the child at exit (ru_maxrss of a child also counts the fork).
PROBE = ("import atexit,sys,resource\n"
         "def _hwm():\n"
         "    for l in open('/proc/self/status'):\n"
         "        if l.startswith('VmHWM'): sys.stderr.write('HWM '+l.split()[1]+'\\n')\n"
         "atexit.register(_hwm)\n"
         "from polydeukes.cli import main\n"
         "sys.argv=['pdks']+sys.argv[1:]\n"
         "main()\n")


def run(args: list[str], cwd: str) -> tuple[float, float, int, str | None]:
    """(wall s, cpu s, peak RSS KiB, None or why it failed) of one `pdks` process."""
    before = os.times()
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", PROBE, *args], cwd=cwd, capture_output=True,
                          text=True)
    wall = time.perf_counter() - start
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system
                                                          - before.children_system)
    hwm = 0
    for line in done.stderr.splitlines():
        if line.startswith("HWM "):
            hwm = int(line.split()[1])
    failure = None if done.returncode == 0 else f"exit {done.returncode}: {done.stderr[-500:]}"
    return wall, cpu, hwm, failure


NAIVE = ("import sys\n"
         "from polydeukes.vm.telemetry import parse_record_line\n"
         "n = bad = 0\n"
         "with open(sys.argv[1], encoding='utf-8', errors='replace') as f:\n"
         "    for line in f:\n"
         "        if parse_record_line(line) is None: bad += 1\n"
         "        else: n += 1\n"
         "print(n, bad)\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size-mb", type=int, default=1024)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--shape", choices=["sessions", "uniform"], default="sessions")
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--naive", action="store_true")
    parser.add_argument("--instructions", action="store_true",
                        help="also count one `pdks stats` run's instructions under callgrind")
    options = parser.parse_args()
    size = options.size_mb * 1_000_000
    path = os.path.join(tempfile.gettempdir(),
                        f"pdks-bench-roi-{options.shape}-{options.size_mb}mb-{options.seed}.log")
    if not os.path.exists(path):
        start = time.perf_counter()
        lines = generate(path, size, options.shape, options.seed)
        print(f"generated {path}: {lines:,} rows in {time.perf_counter() - start:.0f} s")
    print(f"log {path}: {os.path.getsize(path) / 1e6:,.0f} MB, shape {options.shape}")
    cwd = tempfile.mkdtemp(prefix="pdks-bench-stats-")  # no config: the log alone
    for label, args in (("pdks stats", ["stats", "--log", path]),
                        ("pdks stats --json", ["stats", "--json", "--log", path])):
        walls, cpus, hwms = [], [], []
        for _ in range(options.runs):
            wall, cpu, hwm, failure = run(args, cwd)
            if failure is not None:
                sys.exit(f"{label}: {failure}")
            walls.append(wall)
            cpus.append(cpu)
            hwms.append(hwm)
        print(f"{label:20} wall median {statistics.median(walls):6.2f} s  "
              f"cpu median {statistics.median(cpus):6.2f} s  peak RSS {max(hwms) / 1024:6.1f} MiB")
    if options.instructions:
        count = instructions([sys.executable, "-c", PROBE, "stats", "--log", path], cwd, b"",
                             dict(os.environ))
        print(f"{'pdks stats':20} instructions {count / 1e6:,.0f} M (callgrind)")
    if options.naive:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", NAIVE, path], check=True, capture_output=True)
        print(f"{'naive per-line loop':20} wall {time.perf_counter() - start:6.2f} s "
              "(spec 06 §11 parse_record_line on every line)")


if __name__ == "__main__":
    main()
