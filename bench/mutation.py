"""Mutation score per module, with mutmut 3 (a development tool, not a runtime dependency).

    pip install -e '.[dev]'
    nice -n 19 python bench/mutation.py                       # the stable modules
    nice -n 19 python bench/mutation.py vm/machine.py cli/check.py --max-children 2
    python bench/mutation.py --survivors vm/algebra.py         # list what survived last time

For each module given (a repository path), the script lays a scratch copy of the repository out
the way mutmut expects — `src/polydeukes/<component>/…` as a regular package, the tests beside
it, a pyproject.toml whose [tool.mutmut] mutates that one file — and runs `mutmut run` there, so
the worktree is never touched. mutmut first runs the module's test selection once to learn which
tests reach which function, then runs, for each mutant, only the tests that reach the mutated
function. PYTHONPATH points at the mutated copy, so tests that spawn `pdks` see the mutant too.

The score is mutmut's: (killed + timeout) / (mutants - skipped). Results stay under
`--workdir` (default `.mutation/`, ignored by git) for `--survivors` and `mutmut show` there.
A score is a figure to read, not a test: it depends on the test selection below.
"""

from __future__ import annotations

import argparse
import json
import os
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
    "compiler/lower.py": ["tests/test_differential.py", "tests/test_plan_properties.py",
                          "tests/test_lazy_plan.py"],
    "vm/machine.py": ["tests/test_differential.py", "tests/test_verdict.py",
                      "tests/test_judge_cases.py"],
    "vm/planfile.py": ["tests/test_lazy_plan.py", "tests/test_plan_properties.py",
                       "tests/test_compile_explain.py"],
    "stdlib/shell.py": ["tests/test_shell.py", "tests/test_shell_check.py", "tests/test_meta.py"],
    "stdlib/shell_tokenizer.py": ["tests/test_shell.py", "tests/test_shell_check.py"],
    "stdlib/shell_paths.py": ["tests/test_shell.py", "tests/test_shell_check.py"],
    "stdlib/shell_transcript.py": ["tests/test_shell.py", "tests/test_meta.py"],
    "stdlib/diff.py": ["tests/test_diff.py", "tests/test_change_set.py"],
    "cli/check.py": ["tests/test_cli.py", "tests/test_fail_closed.py",
                     "tests/test_properties_foundation.py", "tests/test_judge_cases.py"],
}
STABLE = ["vm/algebra.py", "vm/values.py", "compiler/regex.py", "compiler/lower.py"]


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
              'pytest_add_cli_args = ["-p", "no:cacheprovider"]', ""]
    (root / "pyproject.toml").write_text("\n".join(lines))
    # mutmut writes the mutated copy here. It must exist before Python starts: a PYTHONPATH
    # entry that is missing at start-up stays unusable for the whole process, and mutmut's
    # test-to-function map would silently come out empty.
    (root / "mutants" / "src").mkdir(parents=True)
    return root


def run(module: str, tests: list[str], workdir: Path, max_children: int) -> dict:
    root = stage(module, tests, workdir)
    env = dict(os.environ)
    # Tests that spawn `python -m polydeukes.cli` import the mutated copy as well.
    env["PYTHONPATH"] = os.pathsep.join([str(root / "mutants" / "src"), env.get("PYTHONPATH", "")])
    command = [sys.executable, "-m", "mutmut", "run", "--max-children", str(max_children)]
    print(f"== {module}: mutmut run in {root} (tests: {' '.join(tests)})", flush=True)
    subprocess.run(command, cwd=root, env=env, check=False)
    return summary(root)


def summary(root: Path) -> dict:
    subprocess.run([sys.executable, "-m", "mutmut", "export-cicd-stats"], cwd=root, check=True,
                   capture_output=True)
    return json.loads((root / "mutants" / "mutmut-cicd-stats.json").read_text())


def score(stats: dict) -> float:
    tested = stats["total"] - stats["skipped"]
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
            continue
        stats = run(module, tests, args.workdir, args.max_children)
        rows.append((module, stats))
    if rows:
        print(f"\n{'module':28} {'score':>7} {'killed':>7} {'timeout':>7} {'survived':>8} "
              f"{'no tests':>8} {'total':>6}")
        for module, s in rows:
            print(f"{module:28} {score(s):6.1f}% {s['killed']:7} {s['timeout']:7} "
                  f"{s['survived']:8} {s['no_tests']:8} {s['total']:6}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
