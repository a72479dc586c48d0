"""What a check loads: the shell tokenizer, the diff parser, the baseline and the break messages
only when the call needs them (issue 13); and the router's one-plain-word shortcut answers what
the tokenizer would."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polydeukes.stdlib import routing
from polydeukes.stdlib.shell.paths import path_candidates
from polydeukes.stdlib.shell.tokenizer import tokenize

ROSTER = {"mutating": ["Edit", "Write"], "shell": ["Bash"], "commandArgs": ["command"]}
TOKENIZER, DIFF, BASELINE = ("polydeukes.stdlib.shell.tokenizer", "polydeukes.stdlib.diff",
                             "polydeukes.stdlib.baseline")
MESSAGES, ANALYSIS = "polydeukes.vm.messages", "polydeukes.stdlib.shell.analysis"
# The instruction classes: a plan read from plan.bin is run from its stored lists.
INSTRUCTIONS = "polydeukes.vm.instructions"
DISK, TRANSCRIPT = "polydeukes.stdlib.shell.disk", "polydeukes.stdlib.shell.transcript"
WATCHED = (TOKENIZER, DIFF, BASELINE, MESSAGES, ANALYSIS, INSTRUCTIONS, DISK, TRANSCRIPT,
           "polydeukes.compiler",
           "yaml", "lark", "click")


def _input(call: dict, **extra) -> str:
    return json.dumps({"toolCalls": [call], "subagentSpawns": [], "userMessages": [],
                       "tools": ROSTER, **extra})


EDIT = {"name": "Edit", "args": {"file_path": "src/app.py"},
        "fileChange": {"kind": "modify", "path": "src/app.py", "pre": "a\n", "post": "b\n"}}
# (case, stdin, flags, modules the judging child must have loaded among WATCHED)
CASES = [
    ("an Edit naming its file by a plain path", _input(EDIT), [], set()),
    ("an Edit whose args hold text: the router tokenizes it",
     _input(dict(EDIT, args={"file_path": "src/app.py", "old_string": "a = 1", "new_string": "b"})),
     [], {TOKENIZER}),
    ("a session: the baseline comparison",
     _input(EDIT, session={"userMessages": [], "toolCalls": []}), [], {BASELINE}),
    ("a Bash call: the shell analyzer, without the working tree (it only reads) or the "
     "transcript judge (no session)",
     _input({"name": "Bash", "args": {"command": "cat .claude/hooks/a.sh"}}), [],
     {TOKENIZER, ANALYSIS}),
    ("a Bash call that writes: the working tree too (a link may lead the write elsewhere)",
     _input({"name": "Bash", "args": {"command": "echo x > notes.txt"}}), [],
     {TOKENIZER, ANALYSIS, DISK}),
    ("a break: its message", _input(dict(EDIT, args={"file_path": "src/x.py"}, fileChange={
        "kind": "modify", "path": "src/x.py", "pre": "", "post": "TODO\n"})), [], {MESSAGES}),
    ("--diff: the diff parser",
     "diff --git a/src/app.py b/src/app.py\n--- a/src/app.py\n+++ b/src/app.py\n"
     "@@ -1 +1 @@\n-a\n+b\n",
     ["--diff"], {DIFF}),
]
CONFIG = """\
protectedPaths: [".claude/hooks"]
disciplines:
  - id: "no-todo"
    declare:
      mechanism: "added-only"
      scope: { source: "target.path", include: ["^src/x"] }
      supply: { pre: "empty", post: "empty" }
      extract:
        after: [{ op: "source", of: "post" }, { op: "lines" }, { op: "matches", re: "TODO" }]
      relate:
        - id: "none"
          relation: { op: "empty", of: "after" }
          message: "adds {value}"
"""
# Reports, from inside the judging child, which WATCHED modules it loaded, for each case.
PROBE = """
import io, json, os, sys, types
cases = json.loads(sys.argv[1])
watched = json.loads(sys.argv[2])
from polydeukes.cli import check
for stdin, flags in cases:
    pid = os.fork()  # each case in a process of its own, as a hook spawns one per call
    if pid == 0:
        judge = check._judge_observation
        def probed(*args):
            code = judge(*args)
            print(json.dumps(sorted(m for m in watched if m in sys.modules)), flush=True)
            return code
        check._judge_observation = probed
        check.run_check(flags, stdin=stdin.encode())
        os._exit(0)
    os.waitpid(pid, 0)
"""


@pytest.fixture(scope="module")
def loaded(tmp_path_factory):
    root = tmp_path_factory.mktemp("imports")
    (root / "polydeukes.config.yaml").write_text(CONFIG, encoding="utf-8")
    subprocess.run([sys.executable, "-m", "polydeukes.cli", "compile"], cwd=root, check=True,
                   capture_output=True)
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps([[c[1], c[2]] for c in CASES]),
         json.dumps(WATCHED)], cwd=root, capture_output=True, text=True, timeout=120)
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == len(CASES), done.stderr
    return dict(zip((c[0] for c in CASES), answers))


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_a_check_loads_what_its_call_needs(loaded, case):
    name, _, _, expected = case
    assert set(loaded[name]) == expected


# The router's shortcut (routing.string_candidate_parts) against the tokenizer it stands for.
PLAIN_WORDS = st.text(alphabet=sorted(routing._ONE_PLAIN_WORD), max_size=30)


@settings(max_examples=300, deadline=None)
@given(PLAIN_WORDS)
def test_one_plain_word_is_what_the_tokenizer_reads(text):
    script = tokenize(text)
    words = [w for cmd in script.commands for w in cmd.words]
    redirects = [r for cmd in script.commands for r in cmd.redirects]
    expected = [c for w in words for c in path_candidates(w.text, w.opaque)]
    assert not redirects and script.fully_read
    assert routing.string_candidate_parts(text) == (expected, True, [])
