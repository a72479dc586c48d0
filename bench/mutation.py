"""Mutation score per module, with mutmut 3 (a development tool, not a runtime dependency).

    pip install -e '.[dev]'
    nice -n 19 python bench/mutation.py                       # the stable modules
    nice -n 10 python bench/mutation.py vm/machine.py cli/check.py --max-children 2
    nice -n 10 python bench/mutation.py stdlib/shell/paths.py  # one file of the shell package
    nice -n 19 python bench/mutation.py compiler/regex.py --sample 60  # 60 mutants drawn at random
    python bench/mutation.py --survivors vm/algebra.py         # list what survived last time

For each module given (a repository path), the script lays a scratch copy of the repository out
the way mutmut expects — `src/polydeukes/<component>/…` as a regular package, the tests beside
it, a pyproject.toml whose [tool.mutmut] mutates that one file — and runs `mutmut run` there, so
the worktree is never touched. mutmut first runs the module's test selection once to learn which
tests reach which function, then runs, for each mutant, only the tests that reach the mutated
function. PYTHONPATH points at the mutated copy, so tests that spawn `pdks` see the mutant too.

The score is mutmut's: (killed + timeout) / (mutants tested - skipped). Results stay under
`--workdir` (default `.mutation/`, ignored by git) for `--survivors` and `mutmut show` there.
A score is a figure to read, not a test: it depends on the test selection below.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
COMPONENTS = ("cli", "compiler", "grammar", "stdlib", "vm")

# The tests that judge each module (pytest paths). mutmut runs them once to map tests to
# functions, then each mutant runs only the tests that reached its function, so a generous
# selection costs one slow run, not one per mutant.
MODULE_TESTS: dict[str, list[str]] = {
    "vm/algebra.py": ["tests/test_algebra.py", "tests/test_algebra_differential.py"],
    "vm/values.py": ["tests/test_values.py", "tests/test_algebra.py",
                     "tests/test_algebra_differential.py", "tests/test_laws.py"],
    # The table holds JavaScript's recorded answers; the live node property would only add time.
    "compiler/regex.py": ["tests/test_regex.py", "tests/test_regex_js.py", "-k",
                          "not generated_cases"],
    # The judge cases compile their configs in this process (project.check, IN_PROCESS_JUDGING),
    # so every mechanism's lowering meets a verdict a user would see.
    "compiler/lower.py": ["tests/test_differential.py", "tests/test_plan_properties.py",
                          "tests/test_declare_forms.py", "tests/test_declare_roundtrip.py",
                          "tests/test_machine.py", "tests/test_judge_cases.py",
                          "tests/test_lazy_plan.py", "-k",
                          "not test_judge_case_through_a_lazily_read_plan"],
    # Tests that spawn `pdks` other than through `project.check` map to nothing (see
    # IN_PROCESS_JUDGING), so they are left out; test_lazy_plan's pass over the judge cases
    # repeats test_judge_cases.
    "vm/machine.py": ["tests/test_judge_cases.py", "tests/test_machine.py",
                      "tests/test_verdict.py", "tests/test_lazy_plan.py", "-k",
                      "not test_judge_case_through_a_lazily_read_plan"],
    "vm/planfile.py": ["tests/test_planfile.py", "tests/test_plan_properties.py"],
    # Left out: a `pdks` spawned by git's hook (it runs mutmut's trampolines outside mutmut),
    # and a test that reads the repository's .pre-commit-hooks.yaml (not in the copy).
    "cli/check.py": ["tests/test_cli.py", "tests/test_fail_closed.py", "tests/test_check.py",
                     "tests/test_judge_cases.py", "tests/test_change_set.py",
                     "tests/test_baseline.py", "tests/test_lazy_plan.py", "tests/test_deadline.py",
                     "-k", "not test_init_git_installs_a_hook and not pre_commit_framework and "
                     "(not test_lazy_plan or unreadable_file_source) and (not test_deadline or "
                     "bounded_with_it or configured_deadline_replaces)"],
    # Left out as well: an import probe, which sees mutmut's trampolines imported with the
    # mutated module.
    "stdlib/diff.py": ["tests/test_diff.py", "tests/test_change_set.py", "-k",
                       "not test_init_git_installs_a_hook and not pre_commit_framework and "
                       "not test_import_pulls_in_nothing_else"],
}
# The shell package (stdlib/shell/): every file is judged by the same in-process tables.
# Left out: the test that reads the package's source for forbidden imports and calls (in the
# copy it would read mutmut's trampolines).
SHELL_TESTS = ["tests/test_shell.py", "tests/test_shell_bash.py", "tests/test_meta.py", "-k",
               "not test_the_analysis_imports_no_heavy_module_and_never_runs_or_writes"]
MODULE_TESTS.update({f"stdlib/shell/{name}.py": SHELL_TESTS for name in (
    "judgment", "effects", "paths", "analysis", "disk", "evidence", "expansion", "git",
    "readers", "tokenizer", "transcript")})
STABLE = ["vm/algebra.py", "vm/values.py", "compiler/regex.py", "compiler/lower.py"]


# Appended to the scratch copy's tests/conftest.py. mutmut maps tests to functions by what runs
# in its own process, so a judgment it cannot see maps to nothing and its mutants are never
# tested. Two things hide judgments from it, and in the copy (never in the repository) both
# are brought into the pytest process:
# * `run_check` judges in a forked child (the hard deadline, cli/deadline.py). In the copy it
#   takes the path a platform without fork takes: the same judgment, in this process, under a
#   SIGALRM deadline. Only test_deadline.py's tests of the fork itself tell the two apart.
# * `Project.check` (tests/conftest.py) spawns `pdks covenant check`. In the copy it calls
#   `run_check` with the same argv, stdin, environment and working directory, and collects
#   the same exit code, stdout, stderr and rows. Every other command still spawns `pdks`.
IN_PROCESS_JUDGING = """

# -- added by bench/mutation.py: judgments in the pytest process, where mutmut sees them ------
import io as _io

# mutmut routes every call of the mutated module through a trampoline of a few frames, so the
# regex parser's 100 levels of nesting (compiler/regex.py's _MAX_DEPTH) need several times
# Python's default stack of 1,000 frames before the parser's own refusal can be reached.
sys.setrecursionlimit(20_000)

from polydeukes.cli import deadline as _deadline


def _judge_in_this_process(fn, watch, fail_closed):
    raise _deadline._ForkFailed


_deadline._forked = _judge_in_this_process
_spawn_pdks = Project.run


def _check_in_this_process(self, *args, stdin=b"", env=None, log=None):
    if args[:2] != ("covenant", "check"):
        return _spawn_pdks(self, *args, stdin=stdin, env=env, log=log)
    from polydeukes.cli.check import run_check

    environment = pdks_environment(env)
    saved = dict(os.environ), os.getcwd(), sys.stdin, sys.stdout, sys.stderr
    stdout, stderr = _io.StringIO(), _io.StringIO()
    try:
        os.environ.clear()
        os.environ.update(environment)
        os.chdir(self.root)
        sys.stdin = _io.TextIOWrapper(_io.BytesIO(stdin_bytes(stdin) or b""), encoding="utf-8")
        sys.stdout, sys.stderr = stdout, stderr
        code = run_check(list(args[2:]))
    finally:
        os.environ.clear()
        os.environ.update(saved[0])
        os.chdir(saved[1])
        sys.stdin, sys.stdout, sys.stderr = saved[2:]
    assert "Traceback" not in stderr.getvalue(), stderr.getvalue()
    return Result(code, stdout.getvalue(), stderr.getvalue(), rows_of(log or self.log))


Project.run = _check_in_this_process


# A mutant that breaks the import of a test module (the shell tests run the analysis at
# import) fails the collection. pytest then ends in a usage error when it finds none of the
# test ids mutmut names in that module (the fork server records exit 255, which mutmut counts
# as a timeout), or "interrupted" (exit 2, which mutmut counts as stopped by the user). Either
# way the mutant broke the tests: it ends as failed tests (exit 1), a kill. A plugin rather
# than hooks of this conftest: the session's own collection report, the last chance before
# "not found", reaches only plugins and the conftests of the root directory.
class _BrokenCollectionIsAKill:
    def __init__(self):
        self.errors = []

    def pytest_collectreport(self, report):
        if report.failed:
            self.errors.append(report.nodeid)
        if not report.nodeid and self.errors:  # the session's report: the tests are collected
            pytest.exit(f"cannot collect {self.errors[0]}", returncode=pytest.ExitCode.TESTS_FAILED)

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session, exitstatus):
        if self.errors and exitstatus == pytest.ExitCode.INTERRUPTED:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_configure(config):
    config.pluginmanager.register(_BrokenCollectionIsAKill(), "broken-collection-is-a-kill")
"""


# FRESH_PROCESS_PER_MUTANT. By default mutmut lists the tests, maps them, and runs the clean
# selection in its own process, then forks each mutant's test run from it. Two things then leak
# from the unmutated runs into every mutant:
# * state the product builds on first use: a mutant of the builder never runs. The shell
#   analysis memoises effects per command (stdlib/shell/effects.py's `_MEMO`), filled by the
#   clean run with the very commands the mutant's tests then ask about: 23.3 % for
#   effects.py, where re-running the survivors by hand killed most of them.
# * pytest's own state: the ids a parametrize mark generated are stored on the mark, and a
#   second session in the same process escapes them again (`\\r` becomes `\\\\r`), so a
#   test whose id holds a backslash or a non-ASCII character is "not found" — pytest's usage
#   error, exit 4, which stopped stdlib/diff.py's clean run (pytest 9.2, tests/cases/diff's
#   CRLF and octal-escape rows).
# mutmut's fork server avoids both: the main process never imports pytest or the tests, and
# each run (listing, mapping, clean run, every mutant) is forked from a server that imported
# only the third-party libraries below, so it imports the product and the tests itself and
# runs one pytest session, as a check process starts with nothing built.
PRELOADED = ["pytest", "xdist", "hypothesis", "yaml", "msgspec", "lark", "click"]


def stage(module: str, tests: list[str], workdir: Path) -> Path:
    """A scratch copy of the repository in mutmut's layout; returns its root."""
    root = workdir / module.replace("/", "_").removesuffix(".py")
    if root.exists():
        shutil.rmtree(root)
    package = root / "src" / "polydeukes"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")  # a regular package: it wins over the editable one
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for component in COMPONENTS:
        shutil.copytree(REPO / component, package / component, ignore=ignore)
    shutil.copytree(REPO / "tests", root / "tests", ignore=ignore)
    pytest_options = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["pytest"]
    ini = pytest_options["ini_options"]
    mutated = f"src/polydeukes/{module}"
    lines = ["[tool.pytest.ini_options]"]
    lines += [f"{key} = {json.dumps(value)}" for key, value in ini.items()]
    lines += ["", "[tool.mutmut]", 'source_paths = ["src"]', f"only_mutate = [{json.dumps(mutated)}]",
              f"pytest_add_cli_args_test_selection = {json.dumps(tests)}",
              # In one process: mutmut maps tests to functions by what runs in its own process,
              # and the repository's `-n auto` (pytest-xdist) would move every test into a
              # worker, leaving the map empty and every mutant untested.
              'pytest_add_cli_args = ["-p", "no:cacheprovider", "-n", "0"]',
              # Each mutant's tests in a process that has run no test and collected nothing:
              # see FRESH_PROCESS_PER_MUTANT.
              'process_isolation = "forkserver"', 'forkserver_warmup = "import"',
              # A mutant's wall-time limit is (its tests' mapped time + this) x 15 s. In a fresh
              # process the tests are collected again first (the shell tables: 3.4 s of CPU,
              # 16 s of wall time at nice 19 on the shared machine), about all that mutmut's
              # default of 1 s leaves a mutant whose tests take a tenth of a second.
              "timeout_constant = 8.0",
              f"preload_modules_file = {json.dumps(str(root / 'preload.txt'))}", ""]
    (root / "pyproject.toml").write_text("\n".join(lines))
    (root / "preload.txt").write_text("\n".join(PRELOADED) + "\n")
    with open(root / "tests" / "conftest.py", "a", encoding="utf-8") as conftest:
        conftest.write(IN_PROCESS_JUDGING)
    # mutmut writes the mutated copy here. It must exist before Python starts: a PYTHONPATH
    # entry that is missing at start-up stays unusable for the whole process, and mutmut's
    # test-to-function map would silently come out empty.
    (root / "mutants" / "src").mkdir(parents=True)
    return root


def run(module: str, tests: list[str], workdir: Path, max_children: int,
        sample: int | None = None, seed: int = 16) -> dict:
    root = stage(module, tests, workdir)
    env = dict(os.environ)
    # Tests that spawn `python -m polydeukes.cli` import the mutated copy as well.
    env["PYTHONPATH"] = os.pathsep.join([str(root / "mutants" / "src"), env.get("PYTHONPATH", "")])
    command = [sys.executable, "-m", "mutmut", "run", "--max-children", str(max_children)]
    print(f"== {module}: mutmut run in {root} (tests: {' '.join(tests)})", flush=True)
    names = None
    if sample is not None:
        # A first run that names no real mutant generates every mutant and maps the tests to
        # functions, then stops (its output is dropped: when mapping fails, the second run
        # fails the same way and shows why); the second run tests the drawn mutants only. A
        # uniform draw, because mutmut tests the mutants of quickly tested functions first: a
        # run stopped part-way describes only those.
        subprocess.run(command + ["__no_such_mutant__"], cwd=root, env=env, check=False,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        every = sorted(exit_codes(root, module))
        if not every:
            raise SystemExit(f"{module}: mutmut generated no mutants (see `mutmut run` in {root})")
        names = sorted(random.Random(seed).sample(every, min(sample, len(every))))
        (root / "sample.txt").write_text("\n".join(names) + "\n")
        print(f"   {len(names)} of {len(every)} mutants drawn with seed {seed} "
              f"(listed in {root / 'sample.txt'})", flush=True)
        command += names
    subprocess.run(command, cwd=root, env=env, check=False)
    return tally(root, module, names)


def exit_codes(root: Path, module: str) -> dict[str, int | None]:
    """mutmut's recorded exit code per mutant of `module` (None: not tested yet)."""
    meta = root / "mutants" / "src" / "polydeukes" / f"{module}.meta"
    if not meta.exists():
        return {}
    return json.loads(meta.read_text())["exit_code_by_key"]


def tally(root: Path, module: str, names: list[str] | None = None) -> dict:
    """Mutants per mutmut status (killed, survived, timeout, no tests, …), over `names` if given."""
    from mutmut.stats import status_by_exit_code  # a dev dependency: imported when measuring

    codes = exit_codes(root, module)
    counts = {"killed": 0, "timeout": 0, "survived": 0, "no tests": 0, "skipped": 0,
              "not checked": 0, "suspicious": 0, "total": 0}
    for name in names if names is not None else codes:
        status = status_by_exit_code[codes.get(name)]
        counts[status if status in counts else "suspicious"] += 1
        counts["total"] += 1
    return counts


def score(stats: dict) -> float:
    tested = stats["total"] - stats["skipped"] - stats["not checked"]
    return 100.0 * (stats["killed"] + stats["timeout"]) / tested if tested else 0.0


def survivors(root: Path) -> list[str]:
    done = subprocess.run([sys.executable, "-m", "mutmut", "results"], cwd=root, check=True,
                          capture_output=True, text=True)
    return [line.strip() for line in done.stdout.splitlines() if line.strip()]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("modules", nargs="*", default=STABLE,
                        help="repository paths, e.g. vm/algebra.py (default: %(default)s)")
    parser.add_argument("--tests", nargs="+", help="test selection, instead of MODULE_TESTS")
    parser.add_argument("--workdir", type=Path, default=REPO / ".mutation")
    parser.add_argument("--max-children", type=int, default=1,
                        help="mutants tested at once (the machine is shared: keep it low)")
    parser.add_argument("--sample", type=int, metavar="N",
                        help="test N mutants drawn at random (seeded) instead of all of them")
    parser.add_argument("--seed", type=int, default=16, help="the draw's seed (default: 16)")
    parser.add_argument("--survivors", action="store_true",
                        help="print last run's surviving mutants instead of running")
    args = parser.parse_args()
    rows = []
    for module in args.modules:
        if not (REPO / module).is_file():
            parser.error(f"no such module: {module}")
        tests = args.tests or MODULE_TESTS.get(module)
        if tests is None:
            parser.error(f"no test selection for {module}: pass --tests")
        # Files not in this checkout are left out; other pytest arguments (-k …) stay.
        tests = [t for t in tests if not t.startswith("tests/") or (REPO / t.split("::")[0]).exists()]
        root = args.workdir / module.replace("/", "_").removesuffix(".py")
        if args.survivors:
            print(f"== {module}")
            print("\n".join(survivors(root)) or "(none)")
            sample = root / "sample.txt"
            names = sample.read_text().split() if sample.exists() else None
            rows.append((module, tally(root, module, names)))
            continue
        stats = run(module, tests, args.workdir, args.max_children, args.sample, args.seed)
        rows.append((module, stats))
    if rows:
        print(f"\n{'module':28} {'score':>7} {'killed':>7} {'timeout':>7} {'survived':>8} "
              f"{'no tests':>8} {'unchecked':>9} {'mutants':>7}")
        for module, s in rows:
            print(f"{module:28} {score(s):6.1f}% {s['killed']:7} {s['timeout']:7} "
                  f"{s['survived']:8} {s['no tests']:8} {s['not checked']:9} {s['total']:7}")
            if s["killed"] + s["timeout"] + s["survived"] == 0:
                print(f"{'':28} not measured: no mutant was tested (see mutmut's output above)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
