"""The baseline comparison (stdlib/baseline.py, spec 06 §8): the case table plus the absent /
invalid baseline row, admission by the guard's own record (never the log), determinism of the
walk and fail-open behaviour."""

from __future__ import annotations

import json
import os
import pathlib
import shutil
import tempfile
from typing import Callable

import pytest
import yaml

from polydeukes.stdlib import baseline
from polydeukes.vm.telemetry import TelemetryWriter, read_records

CASES = pathlib.Path(__file__).parent / "cases" / "meta" / "baseline.yaml"


def _cases() -> list:
    data = yaml.safe_load(CASES.read_text(encoding="utf-8"))
    return [pytest.param({"protected": data["protected"], **case}, id=f"baseline-{i}")
            for i, case in enumerate(data["cases"])]


def _build(root: pathlib.Path, tree: dict) -> None:
    """Make `root` hold exactly `tree` (besides .polydeukes/)."""
    for child in root.iterdir():
        if child.name != ".polydeukes":
            shutil.rmtree(child) if child.is_dir() else child.unlink()
    for rel, text in tree.items():
        path = root / rel
        if rel.endswith("/"):
            path.mkdir(parents=True, exist_ok=True)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")


def _unattributed(log: pathlib.Path) -> list[str]:
    records, corrupt = read_records(str(log))
    assert corrupt == 0
    rows = [r for r in records if r["event"] == "unattributed"]
    assert all(r["label"] == "baseline" for r in rows)
    return [r["subject"] for r in rows]


def _log_rows(log: pathlib.Path, rows: list[tuple[str, str, str, str]]) -> None:
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("a", encoding="utf-8") as handle:
        for stamp, event, label, subject in rows:
            handle.write(f"{stamp}\t{event}\t{label}\t{subject}\n")


@pytest.mark.parametrize("case", _cases())
def test_case(case: dict, tmp_path: pathlib.Path) -> None:
    root, log = tmp_path, tmp_path / ".polydeukes" / "roi.log"
    _build(root, case["before"])
    verdicts = [tuple(v) for v in case.get("verdicts", [])]
    baseline.update(str(root), case["protected"],
                    baseline.admitted_by(verdicts, case["protected"]))
    _build(root, case["after"])
    protected = case.get("protected_after", case["protected"])
    baseline.compare(str(root), protected, TelemetryWriter(str(log)))
    assert _unattributed(log) == case["want"]


# -- the log explains nothing ------------------------------------------------------------------


@pytest.mark.parametrize("event", ["witnessed", "advised", "bypassed"])
def test_a_row_appended_to_the_log_does_not_explain_a_change(event, tmp_path):
    """A forged `witnessed` row (issue 15 attack 5) is only text in a file the agent can
    reach; the baseline reads what the guard recorded itself."""
    (tmp_path / "a").write_text("x")
    baseline.update(str(tmp_path), ["a"])
    log = tmp_path / ".polydeukes" / "roi.log"
    _log_rows(log, [("2999-01-01T00:00:00.000Z", event, "self-mod", "a")])
    (tmp_path / "a").write_text("y")
    baseline.compare(str(tmp_path), ["a"], TelemetryWriter(str(log)))
    assert _unattributed(log) == ["a"]


def test_an_admission_is_spent_by_the_next_update(tmp_path: pathlib.Path) -> None:
    (tmp_path / "a").write_text("x")
    baseline.update(str(tmp_path), ["a"], ["a"])
    (tmp_path / "a").write_text("y")
    log = tmp_path / "roi.log"
    baseline.compare(str(tmp_path), ["a"], TelemetryWriter(str(log)))
    baseline.update(str(tmp_path), ["a"], [])  # this run let nothing through
    (tmp_path / "a").write_text("z")
    baseline.compare(str(tmp_path), ["a"], TelemetryWriter(str(log)))
    assert _unattributed(log) == ["a"]


def test_a_baseline_written_before_admissions_existed_admits_nothing(tmp_path):
    (tmp_path / "a").write_text("x")
    baseline.update(str(tmp_path), ["a"], ["a"])
    path = tmp_path / ".polydeukes" / "baseline.json"
    data = json.loads(path.read_text())
    del data["admitted"]
    path.write_text(json.dumps(data))
    (tmp_path / "a").write_text("y")
    log = tmp_path / "roi.log"
    baseline.compare(str(tmp_path), ["a"], TelemetryWriter(str(log)))
    assert _unattributed(log) == ["a"]


# -- absent or invalid baseline ----------------------------------------------------------------


@pytest.mark.parametrize("content", [
    None, "", "not json", "[]", '"x"', '{"cutAt": "x"}', '{"entries": []}', '{"entries": {"a": 1}}',
    '{"entries": null}', '{"entries": {}, "admitted": "a"}', '{"entries": {}, "admitted": [1]}',
])
def test_an_absent_or_invalid_baseline_is_one_row_naming_its_absolute_path(
    content: str | None, tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "a").write_text("x")
    if content is not None:
        (tmp_path / ".polydeukes").mkdir()
        (tmp_path / ".polydeukes" / "baseline.json").write_text(content)
    monkeypatch.chdir(tmp_path)
    log = tmp_path / "roi.log"
    # A relative root still yields the absolute path of the state file.
    baseline.compare(".", ["a"], TelemetryWriter(str(log)))
    rows = [line.split("\t")[1:] for line in log.read_text().splitlines()]
    assert rows == [["unattributed", "baseline", str(tmp_path / ".polydeukes" / "baseline.json")]]


@pytest.mark.parametrize("plant", ["symlink", "fifo"])
def test_a_baseline_that_is_not_a_regular_file_counts_as_absent(plant, tmp_path):
    """Never read through a final symlink (a link to an older copy would blind it), never
    opened blocking (a FIFO would hang the check)."""
    (tmp_path / "a").write_text("x")
    baseline.update(str(tmp_path), ["a"])
    state = tmp_path / ".polydeukes" / "baseline.json"
    copy = tmp_path / "copy.json"
    state.rename(copy)
    if plant == "symlink":
        state.symlink_to(copy)
    else:
        os.mkfifo(state)
    log = tmp_path / "roi.log"
    baseline.compare(str(tmp_path), ["a"], TelemetryWriter(str(log)))
    assert _unattributed(log) == [str(state)]


def test_compare_reports_again_over_the_same_state(tmp_path: pathlib.Path) -> None:
    """compare's own rows never attribute: a second compare over the same state reports again."""
    (tmp_path / "a").write_text("x")
    baseline.update(str(tmp_path), ["a"])
    (tmp_path / "a").write_text("y")
    log = tmp_path / "roi.log"
    for _ in range(2):
        baseline.compare(str(tmp_path), ["a"], TelemetryWriter(str(log)))
    assert _unattributed(log) == ["a", "a"]


# -- update ------------------------------------------------------------------------------------


def test_update_writes_entries_a_cut_and_the_admissions(tmp_path: pathlib.Path) -> None:
    (tmp_path / "a").write_text("x")
    baseline.update(str(tmp_path), ["a", "missing"], ["a"])
    data = json.loads((tmp_path / ".polydeukes" / "baseline.json").read_text())
    assert list(data) == ["entries", "cutAt", "admitted"]
    assert data["admitted"] == ["a"]
    assert data["entries"] == baseline.snapshot(str(tmp_path), ["a", "missing"])
    assert len(data["cutAt"]) == 24 and data["cutAt"].endswith("Z")
    assert [p.name for p in (tmp_path / ".polydeukes").iterdir()] == ["baseline.json"]


def test_update_then_compare_reports_nothing(tmp_path: pathlib.Path) -> None:
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "f").write_text("x")
    baseline.update(str(tmp_path), ["d"])
    log = tmp_path / "roi.log"
    baseline.compare(str(tmp_path), ["d"], TelemetryWriter(str(log)))
    assert not log.exists()


# -- the walk ----------------------------------------------------------------------------------


def _tree(root: pathlib.Path, order: list[str]) -> None:
    for name in order:
        path = root / "e" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(name)


def test_the_walk_is_deterministic_whatever_the_creation_order(tmp_path: pathlib.Path) -> None:
    names = ["b", "a/z", "a/y", "c", "B", "a/x/1"]
    _tree(tmp_path / "one", names)
    _tree(tmp_path / "two", list(reversed(names)))
    one = baseline.snapshot(str(tmp_path / "one"), ["e"])
    assert one == baseline.snapshot(str(tmp_path / "two"), ["e"])
    assert one == baseline.snapshot(str(tmp_path / "one"), ["e"])
    assert len(one["e"]) == 64


def test_missing_empty_and_file_states_all_differ(tmp_path: pathlib.Path) -> None:
    missing = baseline.snapshot(str(tmp_path), ["e"])["e"]
    (tmp_path / "e").mkdir()
    empty = baseline.snapshot(str(tmp_path), ["e"])["e"]
    (tmp_path / "e").rmdir()
    (tmp_path / "e").write_text("")
    empty_file = baseline.snapshot(str(tmp_path), ["e"])["e"]
    assert len({missing, empty, empty_file}) == 3


def test_content_cannot_impersonate_a_path_boundary(tmp_path: pathlib.Path) -> None:
    (tmp_path / "one" / "e").mkdir(parents=True)
    (tmp_path / "one" / "e" / "a").write_text("bc")
    (tmp_path / "two" / "e").mkdir(parents=True)
    (tmp_path / "two" / "e" / "ab").write_text("c")
    assert baseline.snapshot(str(tmp_path / "one"), ["e"]) != baseline.snapshot(str(tmp_path / "two"), ["e"])


def test_a_symlink_loop_cannot_trap_the_walk(tmp_path: pathlib.Path) -> None:
    (tmp_path / "e").mkdir()
    os.symlink(tmp_path / "e", tmp_path / "e" / "loop")
    assert len(baseline.snapshot(str(tmp_path), ["e"])["e"]) == 64


def test_a_fifo_or_a_device_in_an_entry_is_never_read(tmp_path: pathlib.Path) -> None:
    """A FIFO would block the walk and /dev/zero would never end: each is a state of its own."""
    (tmp_path / "e").mkdir()
    missing = baseline.snapshot(str(tmp_path), ["e/p"])["e/p"]
    os.mkfifo(tmp_path / "e" / "p")
    fifo = baseline.snapshot(str(tmp_path), ["e/p"])["e/p"]
    (tmp_path / "e" / "p").unlink()
    (tmp_path / "e" / "p").symlink_to("/dev/zero")
    device = baseline.snapshot(str(tmp_path), ["e/p"])["e/p"]
    assert fifo == device != missing


NOBODY = 65534


def _unprivileged(work: Callable[[], object]) -> object:
    """`work()` without the power to read every file: as root, in a forked child that drops to
    `nobody` and answers through a pipe (the child never returns into pytest)."""
    if os.geteuid() != 0:
        return work()
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(read_end)
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            os.write(write_end, json.dumps(work()).encode("utf-8"))
        finally:
            os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as pipe:
        answer = pipe.read()
    os.waitpid(pid, 0)
    assert answer, "the unprivileged child failed"
    return json.loads(answer)


def _readable(path: str) -> bool:
    try:
        with open(path, "rb"):
            return True
    except PermissionError:
        return False


def test_an_unreadable_file_hashes_as_absent() -> None:
    # Not tmp_path: the child running as nobody must be able to reach the directory.
    root = tempfile.mkdtemp(prefix="pdks-baseline-")
    try:
        os.chmod(root, 0o755)
        secret = os.path.join(root, "e")
        with open(secret, "w", encoding="utf-8") as handle:
            handle.write("secret")
        readable_hash = baseline.snapshot(root, ["e"])
        os.chmod(secret, 0)
        could_read, unreadable = _unprivileged(
            lambda: [_readable(secret), baseline.snapshot(root, ["e"])])
        assert could_read is False
        os.unlink(secret)
        absent = baseline.snapshot(root, ["e"])
        assert unreadable == absent
        assert readable_hash != absent
    finally:
        shutil.rmtree(root, ignore_errors=True)


# -- fail-open ---------------------------------------------------------------------------------


class _ExplodingWriter(TelemetryWriter):
    def record(self, *args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")


def test_compare_never_raises_and_changes_nothing_but_the_log(tmp_path: pathlib.Path) -> None:
    # A writer that explodes while recording the absent-baseline row: swallowed, nothing written.
    assert baseline.compare(str(tmp_path), ["a"], _ExplodingWriter(None)) is None
    assert os.listdir(tmp_path) == []
    # A root that does not exist: the absent baseline is still one legible row, and no
    # directory is created for it.
    log = tmp_path / "roi.log"
    missing_root = tmp_path / "no" / "such"
    assert baseline.compare(str(missing_root), ["a"], TelemetryWriter(str(log))) is None
    assert _unattributed(log) == [str(missing_root / ".polydeukes" / "baseline.json")]
    assert not missing_root.exists()


def test_update_never_raises_and_leaves_no_temporary(tmp_path: pathlib.Path) -> None:
    (tmp_path / "root").write_text("a file where the root should be")
    baseline.update(str(tmp_path / "root"), ["a"])
    (tmp_path / "proj" / ".polydeukes" / "baseline.json").mkdir(parents=True)  # os.replace fails
    baseline.update(str(tmp_path / "proj"), ["a"])
    assert os.listdir(tmp_path / "proj" / ".polydeukes") == ["baseline.json"]
