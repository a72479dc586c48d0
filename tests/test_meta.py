"""The meta-covenants' judges (stdlib/meta.py): case tables under tests/cases/meta/ plus unit
checks of what the tables cannot state (never raising, exact message constants, home lookup)."""

from __future__ import annotations

import os

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from meta_support import call_of, calls_of, load
from polydeukes.stdlib import meta
from polydeukes.stdlib.routing import gather_candidates, route_by_paths, route_shell_mod
from polydeukes.vm.ir import ToolCall


def _outcome(want: dict | None) -> meta.Outcome | None:
    return None if want is None else meta.Outcome(want["exit"], want.get("reason"))


@pytest.mark.parametrize("case", load("self-mod"))
def test_self_mod(case: dict) -> None:
    calls = calls_of(case)
    wants = case["want"] if isinstance(case["want"], list) else [case["want"]]
    assert len(calls) == len(wants)
    for call, want in zip(calls, wants):
        got = meta.judge_self_mod(call, protected=case["protected"], mutating=case["mutating"], root=case["root"])
        assert got == _outcome(want), call
    if "route" in case:
        route = route_by_paths(gather_candidates(calls[0], root=case["root"]), case["protected"], root=case["root"])
        assert route == (case["route"]["subject"], case["route"]["failed"])


@pytest.mark.parametrize("case", load("shell-mod"))
def test_shell_mod(case: dict) -> None:
    (call,) = calls_of(case)
    kwargs = dict(shell=case["shell"], command_args=case["command_args"], root=case["root"], home=case["home"])
    got = meta.judge_shell_mod_call(call, protected=case["protected"], **kwargs)
    assert got == _outcome(case["want"])
    if "route" in case:
        candidates = gather_candidates(call, root=case["root"])
        route = route_shell_mod(call, candidates, case["protected"], **kwargs)
        assert route == (case["route"]["subject"], case["route"]["failed"])


@pytest.mark.parametrize("case", load("transcript-mod"))
def test_transcript_mod(case: dict) -> None:
    (call,) = calls_of(case)
    got = meta.transcript_mod_matches(
        call,
        evidence_path=case["evidence_path"],
        mutating=case["mutating"],
        shell=case["shell"],
        command_args=case["command_args"],
        root=case["root"],
        home=case["home"],
    )
    assert got == _outcome(case["want"])


def _scope(prefixes: list[str]):
    return lambda path: any(path == p or path.startswith(p + "/") for p in prefixes)


@pytest.mark.parametrize("case", load("shell-skip"))
def test_shell_skips(case: dict) -> None:
    (call,) = calls_of(case)
    kwargs = dict(shell=case["shell"], command_args=case["command_args"], root=case["root"], home=case["home"])
    assert meta.shell_backstop_routes(call, **kwargs) is case["want"]["backstop"]
    arm = meta.shell_skip_arm_subject(call, in_scope=_scope(case["scope"]), has_session=case["session"], **kwargs)
    assert arm == case["want"]["arm"]


def test_the_tables_cover_the_brief() -> None:
    assert len(load("self-mod")) >= 30
    assert len(load("shell-mod")) >= 12
    assert len(load("transcript-mod")) >= 40


# -- messages ----------------------------------------------------------------------------------


def test_break_messages_are_the_spec_wording() -> None:
    assert meta.SELF_MOD_BREAK.format(tool="Edit", path="p") == "Edit would modify protected path p"
    assert meta.SHELL_NO_COMMAND.format(tool="Bash") == (
        "unjudgeable shell call Bash: no command string under any command-arg name"
    )
    assert meta.TRANSCRIPT_CHANGE.format(tool="Edit", path="/t") == "Edit would modify the session transcript /t"
    assert meta.TRANSCRIPT_ARGS.format(tool="Write", path="/t") == (
        "Write names the session transcript /t with no proven target"
    )


# -- never raising -----------------------------------------------------------------------------

_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)
_shellish = st.text(alphabet="ab/.~$'\"\\;|&<>() -=*{}\n", max_size=40)
# Paths and commands that name what the judges protect, so that they break often.
_named = st.sampled_from(["src/core/x.py", "a/b", "/r/a/b/c", "/home/u/.t/s.jsonl", "rm -rf src/core",
                          "echo x >> /home/u/.t/s.jsonl", "cat a/b"])


@settings(max_examples=150, deadline=None)
@given(args=st.dictionaries(st.sampled_from(["command", "file_path", "x"]), _json | _shellish | _named,
                            max_size=3),
       name=st.sampled_from(["Bash", "Edit", "Other"]))
def test_judges_never_raise_and_answer_a_known_code(args: dict, name: str) -> None:
    call = ToolCall(name=name, args=args)
    protected = ["src/core", "a/b"]
    self_mod = meta.judge_self_mod(call, protected=protected, mutating=["Edit"], root="/r").exit_code
    assert self_mod in (0, 1)
    shell = meta.judge_shell_mod_call(
        call, protected=protected, shell=["Bash"], command_args=["command"], root="/r", home="/home/u")
    assert shell.exit_code in (0, 1)
    assert (shell.exit_code == 1) == (shell.reason is not None)
    got = meta.transcript_mod_matches(
        call, evidence_path="/home/u/.t/s.jsonl", mutating=["Edit"], shell=["Bash"],
        command_args=["command"], root="/r", home="/home/u")
    assert got is None or (got.exit_code == 1 and got.reason)
    broken = [label for label, code in (("self-mod", self_mod), ("shell-mod", shell.exit_code),
                                        ("transcript-mod", 0 if got is None else 1)) if code]
    event("broken: " + ", ".join(broken) if broken else "nothing broken")


def test_a_raising_judge_is_unjudgeable(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(meta, "path_matches", boom)
    monkeypatch.setattr(meta, "judge_shell_mod", boom)
    edit = call_of({"name": "Edit", "fileChange": {"kind": "delete", "path": "src/a"}})
    assert meta.judge_self_mod(edit, protected=["src"], mutating=["Edit"], root="/r") == meta.UNJUDGEABLE
    assert meta.judge_shell_mod_call(
        call_of("ls"), protected=["src"], shell=["Bash"], command_args=["command"],
        root="/r", home=None) == meta.UNJUDGEABLE


# -- home --------------------------------------------------------------------------------------


def test_resolve_home_prefers_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", "/somewhere/else")
    assert meta.resolve_home() == "/somewhere/else"


def test_resolve_home_falls_back_to_passwd(monkeypatch: pytest.MonkeyPatch) -> None:
    import pwd

    monkeypatch.delenv("HOME", raising=False)
    assert meta.resolve_home() == pwd.getpwuid(os.getuid()).pw_dir


def test_empty_home_variable_counts_as_absent(monkeypatch: pytest.MonkeyPatch) -> None:
    import pwd

    monkeypatch.setenv("HOME", "")
    assert meta.resolve_home() == pwd.getpwuid(os.getuid()).pw_dir
