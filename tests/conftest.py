"""Shared fixtures: a scratch project and the real `pdks` process."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

# `pytest --update-golden`, the one way to refresh golden files, lives in tests/golden.py;
# tests/test_pytest_plugin.py runs pytest inside pytest (pytester).
pytest_plugins = ["golden", "pytester"]

PDKS = [sys.executable, "-m", "polydeukes.cli"]
PACKAGE_ROOT = Path(__file__).resolve().parent.parent
PACKAGE_DIRS = ("api", "cli", "compiler", "docs", "grammar", "stdlib", "vm")  # pyproject's package-dir


def pytest_configure(config) -> None:
    """Compile the package's modules to bytecode once, before any test starts a `pdks` process.

    The suite starts a few thousand `pdks` processes. Where PYTHONDONTWRITEBYTECODE is set (as
    on the machines this suite runs on), an editable install never gets `__pycache__` files, and
    each of those processes would compile the shell analysis from source again (about 0.2 s of
    CPU each). The flag only stops Python *writing* bytecode; compiled files present are still
    read. (A user's `pip install` compiles at install time: this gives the tests the same.)
    `compile_dir` skips files whose bytecode is current, so each xdist worker repeating it costs
    little, and it writes each file atomically.
    """
    import compileall

    for name in PACKAGE_DIRS:
        directory = PACKAGE_ROOT / name
        if directory.is_dir():
            compileall.compile_dir(str(directory), quiet=2)


STAMP = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$")


@dataclass
class Result:
    code: int
    stdout: str
    stderr: str
    rows: list[list[str]]


def rows_of(log: Path) -> list[list[str]]:
    """Telemetry rows without their timestamps (asserted to be well-formed on the way)."""
    if not log.exists():
        return []
    rows = []
    for line in log.read_text(encoding="utf-8").split("\n"):
        if not line:
            continue
        fields = line.split("\t")
        assert STAMP.match(fields[0]), line
        rows.append(fields[1:])
    return rows


def stdin_bytes(stdin: bytes | str | dict | None) -> bytes | None:
    """What `pdks` reads: a dict as JSON, text as UTF-8."""
    if isinstance(stdin, dict):
        stdin = json.dumps(stdin)
    if isinstance(stdin, str):
        stdin = stdin.encode("utf-8")
    return stdin


def pdks_environment(env: dict | None) -> dict:
    """This process's environment without a telemetry path, plus `env`."""
    full_env = {k: v for k, v in os.environ.items() if k != "POLYDEUKES_TELEMETRY_PATH"}
    full_env.update(env or {})
    return full_env


class Project:
    def __init__(self, root: Path) -> None:
        self.root = root

    @property
    def log(self) -> Path:
        return self.root / ".polydeukes" / "roi.log"

    def write(self, name: str, text: str) -> Path:
        path = self.root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path

    def config(self, text: str, name: str = "polydeukes.config.yaml") -> Path:
        return self.write(name, text)

    def run(self, *args: str, stdin: bytes | str | dict | None = b"", env: dict | None = None,
            log: Path | None = None) -> Result:
        done = subprocess.run(
            [*PDKS, *args], input=stdin_bytes(stdin), cwd=self.root, env=pdks_environment(env),
            capture_output=True, timeout=60,
        )
        stderr = done.stderr.decode("utf-8")
        assert "Traceback" not in stderr, stderr
        return Result(done.returncode, done.stdout.decode("utf-8"), stderr,
                      rows_of(log or self.log))

    def check(self, payload, *flags: str, **kwargs) -> Result:
        return self.run("covenant", "check", *flags, stdin=payload, **kwargs)


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return Project(tmp_path)


EMPTY_INPUT = {"toolCalls": [], "subagentSpawns": [], "userMessages": []}


def uncommented(text: str, marker: str) -> str:
    """`text` with the commented-out block that starts at the line `marker` starts adopted:
    one `# ` (or a lone `#`) taken off each line from there on, as a user would."""
    start = text.index(marker)
    return text[:start] + "\n".join(
        line[2:] if line.startswith("# ") else "" if line == "#" else line
        for line in text[start:].split("\n"))


def _starter_rungs() -> str:
    from polydeukes.cli.scaffold import STARTER_CONFIG

    return uncommented(STARTER_CONFIG, "# disciplines:")


# The starter config with its commented disciplines adopted (an advise rung, a block rung).
RUNGS = _starter_rungs()
