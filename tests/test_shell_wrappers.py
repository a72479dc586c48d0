"""Wrappers never weaken a verdict (issue 11 hardening, round 2).

A wrapper that runs a command C cannot hide what C does: `W [options] C` is judged at least as
strictly as C alone. Three forms of the law:

- for every row of the analyzer's wrapper tables (`_WRAPPERS`, `_SUBCOMMAND_WRAPPERS`) with
  options drawn from the row (each option that takes a value, in both spellings): the reading
  machinery honours every row (bundles, `--opt=value`, positionals, subcommands; Hypothesis);
- for wrappers spelled as their manuals show (`MANUAL_PREFIXES`, written here and not taken from
  the tables): a row missing an option that takes a value reads the value as the command;
- for the wrappers that run C as a string (`nix-shell --run 'C'`, `hyperfine 'C'`, `tmux new
  -d 'C'`, `at now <<< 'C'` …).

Options that move the command to another directory (`env -C`, `uv --directory`) are left out:
there C's relative paths name other files. The oracle is the judge on C alone.
"""

from __future__ import annotations

import shlex

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from polydeukes.stdlib.shell import analysis as A
from polydeukes.stdlib.shell import judge_shell_mod
from shell_tree import make_tree

PROTECTED = ["ci/gate.sh", ".claude/hooks"]
TREE = {
    "ci/gate.sh": "x\n",
    "script.sh": "rm -f ci/gate.sh\n",
    "ok.sh": "echo hi\n",
    "tool.py": "import os\nos.remove('ci/' + 'gate.sh')\n",
    "list": "ci/gate.sh\n",
    "src/a.py": "",
    "dist/evil.zip": {"zip": {"ci/gate.sh": "evil"}},
}
PROGRAMS = ["rm -f", "rm -rf", "cat", "cp src/a.py", "tee", "bash", "sh", "python3", "unzip -o", "touch",
            "mv src/a.py", "chmod +x", "sed -i s/a/b/", "ls", "head -3", "xargs rm <", "truncate -s 0"]
OPERANDS = ["ci/gate.sh", "ci", "c?/gate.sh", "script.sh", "tool.py", "dist/evil.zip", "src/a.py", "ok.sh",
            "list", "'ci/gate.sh'", "./script.sh"]
# Rows whose command is no command word (su's `-c` string, a typescript file, a nix file stand
# there) are covered by the string law below; `runuser` without `-u` reads su's way.
_NO_COMMAND_WORD = {name for name, row in A._WRAPPERS.items() if row[2] >= 1 << 16} | {"runuser"}
_STRING_OPTIONS = {option for strings in A._WRAPPER_STRINGS.values() for option in strings.options}
# (`env -S`'s string is a command line too; `flock -c`, `su -c` are `_COMMAND_STRING_WRAPPERS`'.)
_LEFT_OUT = _STRING_OPTIONS | {"-S", "--split-string", "-c", "--command", "--session-command"}


def _options(name: str, short: frozenset[str], long: frozenset[str]) -> list[list[str]]:
    """Each option of a row that takes a value, spelled with a value (both spellings of a long one)."""
    spelled = [[f"-{letter}", "v1"] for letter in sorted(short)
               if (name, f"-{letter}") not in A._CHDIR_OPTIONS and f"-{letter}" not in _LEFT_OUT]
    for option in sorted(long - _LEFT_OUT):
        if (name, option) not in A._CHDIR_OPTIONS:
            spelled += [[option, "v1"], [f"{option}=v1"]]
    return spelled


def _prefixes() -> list[tuple[list[str], list[list[str]], list[str]]]:
    """(the wrapper's words before its options, its options, its words between options and command)."""
    out = []
    for name, (short, long, positionals, _assignments) in sorted(A._WRAPPERS.items()):
        if name not in _NO_COMMAND_WORD:
            # (setarch's first word is the architecture: `setarch rm -f ci` runs nothing)
            head = [name, "x86_64"] if name == "setarch" else [name]
            out.append((head, _options(name, short, long), ["1"] * positionals))
    for name, (short, long, rows) in sorted(A._SUBCOMMAND_WRAPPERS.items()):
        for sub, (row_short, row_long, positionals, _assignments) in sorted(rows.items()):
            if positionals >= 1 << 16:
                continue  # tmux's: the string law
            head = [name, *(o for option in _options(name, short, long)[:1] for o in option)]
            out.append(([*head, sub] if sub else head, _options(name, row_short, row_long), ["."] * positionals))
    return out


PREFIXES = _prefixes()
# Wrappers that run a command line: `{}` stands for the quoted line.
STRING_FORMS = [
    "nix-shell --run {}", "nix-shell -p hello --command {}", "hyperfine {}", "hyperfine --warmup 3 --prepare {} ls",
    "hyperfine -c {} ls", "tmux new -d {}", "tmux new-session -s s -d {}", "tmux split-window -h {}",
    "tmux run-shell {}", "tmux send-keys -t 0 {} Enter", "watch {}", "watch -n 1 {}", "npx -c {}",
    "npm exec -c {}", "perf stat --pre {} ls", "strace -o '|'{} ls", "gdb -batch -ex 'shell '{} ./a.out",
    "tmux new -d sh -c {}", "nix develop --command sh -c {}", "nix shell nixpkgs#hello -c bash -c {}",
    "su -c {}", "flock /tmp/l -c {}", "env -S {}", "entr -s {} < list", "at now <<< {}", "batch <<< {}",
]


# Real spellings from the programs' manuals, written here and not derived from the tables: a
# table row missing an option that takes a value reads the value as the command.
MANUAL_PREFIXES = [
    "uv run --with requests --python 3.12", "uv run -p 3.12 --env-file .env --", "uv run --extra dev --group test",
    "uv --project . run", "uvx --from ruff", "uvx --python 3.12 --with rich", "poetry run", "poetry -P . run",
    "pipenv run", "pipenv --python 3.12 run", "npx --yes", "npx -p cowsay --", "npm exec --package=cowsay --",
    "npm -w app exec --", "npm x --yes --", "pnpm exec --filter app", "pnpm --filter app exec",
    "pnpm dlx --package cowsay", "pnpx --package cowsay", "yarn exec", "yarn dlx -p cowsay", "bunx --bun",
    "bunx -p cowsay", "direnv exec .", "dotenv -e .env --", "dotenv -e .env -v A=1 --", "dotenv -f .env run",
    "dotenv -f .env run --", "pkexec --user root", "pkexec --disable-internal-agent", "systemd-run --user --scope",
    "systemd-run --user -p MemoryMax=1G --unit job --wait", "systemd-run -E A=1 --pty", "xvfb-run -a",
    "xvfb-run --auto-servernum --server-args='-screen 0 1024x768x24'", "xvfb-run -s '-screen 0 1x1x8' -n 5",
    "xvfb-run -e err.log -f auth", "catchsegv", "strace -f -e trace=file -s 256 -o trace.txt", "strace -c -S time",
    "strace -yy -X verbose -E A=1", "strace -P /tmp -a 40 -u root", "ltrace -f -s 64 -o lt.txt",
    "ltrace -e malloc -n 2 -l libc.so.6", "valgrind --tool=memcheck --leak-check=full --log-file=vg.log",
    "valgrind -q --trace-children=yes", "gdb -q -batch -ex run -ex bt --args", "gdb -nx -x cmds.gdb --args",
    "gdb --batch --ex run --args", "gdb -iex 'set pagination off' -ex run --args", "perf stat -e cycles -r 5 --",
    "perf stat -x , -o stat.txt", "perf stat -I 1000 -a", "perf record -F 99 -g --call-graph dwarf -o perf.data --",
    "perf record -e cpu-clock -c 1000", "perf trace -s", "entr -r", "entr -c -p", "screen -dmS build",
    "screen -S build -L -Logfile s.log -dm", "screen -d -m", "screen -c screenrc -dm", "watch -n 2 -d",
    "watch --interval=2 --differences", "watch -g -t", "nice -n 10", "timeout -s KILL 5", "timeout --kill-after=2 5",
    "ionice -c 3", "taskset -c 0", "stdbuf -oL", "sudo -u root -E", "env -u HOME A=1", "flock /tmp/l", "setsid -f",
    "time -p", "time -o t.txt", "chrt -f 10", "unbuffer", "caffeinate -i",
    "ip netns exec n1", "ip -all netns exec", "ip -n n0 -4 netns exec n1", "ip net e n1", "ip vrf exec red",
    "ip -s -b /dev/null vrf exec red",
]


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    home = tmp_path_factory.mktemp("wrappers") / "u"
    root = home / "proj"
    root.mkdir(parents=True)
    make_tree(root, TREE)
    return str(root), str(home)


def _blocks(command: str, project: tuple[str, str]) -> bool:
    root, home = project
    return judge_shell_mod(command, PROTECTED, root=root, home=home).broken


@pytest.fixture(scope="module")
def blocking_commands(project) -> list[str]:
    """Every inner command (program x operand) that blocks on its own."""
    found = [f"{program} {operand}" for program in PROGRAMS for operand in OPERANDS
             if _blocks(f"{program} {operand}", project)]
    assert len(found) > len(PROGRAMS)  # the inner commands do reach the protected file
    return found


inner_commands = st.builds(lambda program, operand: f"{program} {operand}",
                           st.sampled_from(PROGRAMS), st.sampled_from(OPERANDS))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(prefix=st.sampled_from(PREFIXES), picks=st.lists(st.integers(0, 1 << 10), max_size=2),
       dashes=st.booleans(), inner=inner_commands)
def test_a_wrapper_never_weakens_the_verdict_of_its_command(project, prefix, picks, dashes, inner) -> None:
    head, options, between = prefix
    chosen = [word for pick in picks if options for word in options[pick % len(options)]]
    words = [*head, *chosen, *between, *(["--"] if dashes and not between else [])]
    command = " ".join(words) + " " + inner
    if _blocks(inner, project):
        assert _blocks(command, project), command


@pytest.mark.parametrize("form", STRING_FORMS)
def test_a_command_string_never_weakens_the_verdict_of_its_command(project, blocking_commands, form) -> None:
    weaker = [inner for inner in blocking_commands if not _blocks(form.format(shlex.quote(inner)), project)]
    assert weaker == [], form


@pytest.mark.parametrize("prefix", MANUAL_PREFIXES)
def test_a_wrapper_spelled_as_its_manual_shows_never_weakens_its_command(project, blocking_commands, prefix) -> None:
    weaker = [inner for inner in blocking_commands if not _blocks(f"{prefix} {inner}", project)]
    assert weaker == [], f"{prefix} …"


def test_the_laws_see_every_wrapper() -> None:
    """Every table row is generated (a row added later is covered without editing this file)."""
    named = {head[0] for head, _, _ in PREFIXES} | {form.split()[0] for form in STRING_FORMS}
    assert set(A._WRAPPERS) - {"runuser", "sg", "script"} <= named
    assert set(A._SUBCOMMAND_WRAPPERS) <= named


# (round 11) A program no row models may be a wrapper the tables do not list (`runcon CTX`,
# `retry -t 3 --`, `flatpak-spawn --host`): its arguments that name a program are read as the
# command it may run. Names drawn at random (none the analyzer knows), with option words that
# name no program.
unknown_programs = st.from_regex(r"[a-z][a-z0-9-]{2,10}", fullmatch=True).filter(
    lambda name: name not in A._KNOWN_NAMES and name not in A.BUILTINS)
option_words = st.lists(st.sampled_from(["-t", "3", "--host", "--", "-v", "u:r:t:s0", "--until", "true", "x=1"]),
                        max_size=3)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=unknown_programs, options=option_words, inner=inner_commands)
def test_an_unknown_program_never_weakens_the_command_in_its_arguments(project, name, options, inner) -> None:
    command = " ".join([name, *options, inner])
    if _blocks(inner, project):
        assert _blocks(command, project), command
