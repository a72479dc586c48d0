"""The golden-file mechanism itself (tests/golden.py): one way to refresh, and a refresh fails.

Runs a scratch test suite in a child pytest with the plugin, so the session's exit status is
observed exactly as CI sees it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent

SUITE = '''
from pathlib import Path
import golden

def test_output_matches_its_golden_file():
    golden.check(Path(__file__).parent / "out.golden", "new text\\n")
'''


def _pytest(root: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    full_env = {**os.environ, "PYTHONPATH": str(TESTS), **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "golden", "-p", "no:cacheprovider", "-p", "no:hypothesispytest",
         "--rootdir", str(root), str(root / "test_scratch.py"), *args],
        cwd=root, env=full_env, capture_output=True, text=True, timeout=120,
    )


def test_a_stale_golden_file_fails_and_only_the_flag_refreshes_it(tmp_path: Path) -> None:
    (tmp_path / "test_scratch.py").write_text(SUITE, encoding="utf-8")
    golden_file = tmp_path / "out.golden"
    golden_file.write_text("old text\n", encoding="utf-8")

    # An environment variable is no second switch: the stale file fails and stays as it was.
    stale = _pytest(tmp_path, env={"UPDATE_GOLDEN": "1"})
    assert stale.returncode == 1, stale.stdout
    assert "differs from the golden file" in stale.stdout
    assert golden_file.read_text(encoding="utf-8") == "old text\n"

    # The flag rewrites the file, and the session fails although every test passed.
    refresh = _pytest(tmp_path, "--update-golden")
    assert refresh.returncode == 1, refresh.stdout
    assert "1 passed" in refresh.stdout
    assert f"rewritten: {golden_file}" in refresh.stdout
    assert "a --update-golden run always fails" in refresh.stdout
    assert golden_file.read_text(encoding="utf-8") == "new text\n"

    # Without the flag the refreshed file now passes.
    assert _pytest(tmp_path).returncode == 0


def test_a_missing_golden_file_names_the_refresh_command(tmp_path: Path) -> None:
    (tmp_path / "test_scratch.py").write_text(SUITE, encoding="utf-8")
    missing = _pytest(tmp_path)
    assert missing.returncode == 1
    assert "write it with: pytest --update-golden" in missing.stdout
    assert not (tmp_path / "out.golden").exists()
