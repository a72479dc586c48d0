"""Stage 5 (evidence): the file writes a shell command makes, for declarations (spec 04 §8.6, §4.3).

`shell_writes(text, root=..., home=..., read_file=...) -> ShellWrites`:

- `computed`: `ComputedWrite(path, repo_path, content, mode)` per computable write (a literal
  `echo` redirect, a bare `> f`, a heredoc or herestring copied by a bare `cat`), in command
  order; `path` as spelled, `repo_path` relative to the project root or None outside it;
- `uncomputable`: `UncomputableWrite(path, repo_path, reason)` — the target is known, the
  content is not: `tee`, `sed -i`, `printf >`, `2>`, and (from the effect model) every other
  operand a command writes, creates, deletes, moves or changes the mode of (`cp x f`, `rm f`,
  `touch f`, `perl -pi … f`);
- `undeterminable`: reasons of writes whose target cannot be determined at all (an opaque or
  `~` target, a relative target beside a directory change, a nested shell whose script is not
  literal, a glob or an unknown operand under a writing command, a command that rewrites the
  whole work tree, unread text). The `shell-unjudgeable` backstop records `skipped` when this is
  non-empty;
- `changes`: with a `read_file`, each computed in-project write completed into
  `ShellFileChange(path, kind, pre, post)` (`kind` `create` | `modify`; writes to one path chain
  in command order); None without a pre-state channel;
- `pre_state_error`: set when `read_file` raised (the judge must then answer unjudgeable).

Commands that write nothing leave both lists empty (`ls *.md`, `echo $HOME`, `pnpm build`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

import msgspec

from polydeukes.stdlib.shell import effects as E
from polydeukes.stdlib.shell.analysis import (
    MAX_NESTING,
    NESTED_SHELLS,
    View,
    Walk,
    basename,
    is_write_redirect,
    shell_script_sources,
    stdout_content,
)
from polydeukes.stdlib.shell.paths import relative_to_root, root_segments, segments
from polydeukes.stdlib.shell.tokenizer import UnreadSpan, Word

__all__ = ["ComputedWrite", "ShellFileChange", "ShellWrites", "UncomputableWrite", "shell_writes"]


class ComputedWrite(msgspec.Struct, frozen=True):
    path: str
    repo_path: str | None
    content: str
    mode: Literal["truncate", "append"]


class UncomputableWrite(msgspec.Struct, frozen=True):
    path: str
    repo_path: str | None
    reason: str


class ShellFileChange(msgspec.Struct, frozen=True):
    path: str
    kind: Literal["create", "modify"]
    pre: str | None
    post: str


class ShellWrites(msgspec.Struct, frozen=True):
    computed: tuple[ComputedWrite, ...]
    uncomputable: tuple[UncomputableWrite, ...]
    undeterminable: tuple[str, ...]
    changes: tuple[ShellFileChange, ...] | None
    pre_state_error: str | None

    @property
    def target_undeterminable(self) -> bool:
        return bool(self.undeterminable)


SUBSHELL = "subshell group syntax is not parsed here"
_STDOUT_OPERATORS = frozenset({">", ">>", ">|", "1>", "1>>", "1>|"})


def _has_subshell_marker(words: Sequence[Word]) -> bool:
    for w in words:
        if w.text.startswith("(") or w.text.endswith(")"):
            return True
    return False


class _Deriver:
    def __init__(self, root: str, home: str | None) -> None:
        self.root_segs = root_segments(root)
        self.home = home if _valid_home(home) else None
        self.computed: list[ComputedWrite] = []
        self.uncomputable: list[UncomputableWrite] = []
        self.undeterminable: list[str] = []

    def repo_path(self, path: str, cwd: Sequence[str] | None = None) -> str | None:
        rel = self.root_relative(path, cwd)
        return "/".join(rel) if rel else None

    def root_relative(self, path: str, cwd: Sequence[str] | None = None) -> list[str] | None:
        if self.root_segs is None:
            return None
        return relative_to_root(path, self.root_segs, cwd if cwd is not None else self.root_segs, self.home)

    def known(self, path: str, reason: str, cwd: Sequence[str] | None = None) -> None:
        self.uncomputable.append(UncomputableWrite(path, self.repo_path(path, cwd), reason))

    def run(self, walk: Walk) -> None:
        for event in walk.events():
            if type(event) is UnreadSpan:
                if event.reason != "nesting too deep":
                    self.undeterminable.append(event.reason)
                else:
                    self.undeterminable.append("nested shell execution: nesting too deep")
            else:
                self.command(event)

    def command(self, view: View) -> None:
        cmd = view.cmd
        words = view.words
        name = view.name
        moves_directory = view.moves_directory
        if view.synthetic:
            self.effect_writes(view, moves_directory)
            return
        if view.redefined is not None:
            self.undeterminable.append(f"{name} is redefined on this line")
        # 1. nested shell: its script's commands arrive as views of their own when known
        if name in NESTED_SHELLS:
            _, known = shell_script_sources(view.args[view.inner :], cmd)
            script = view.file_script  # a script file read from disk (scripts.py) is known too
            known = known or script is not None and script.shell and script.text is not None
            if not known or view.depth >= MAX_NESTING or view.via_xargs:
                self.undeterminable.append(f"nested shell execution: {name}")
                return
            self.redirect_writes(view, moves_directory)  # the shell's own stdout redirects
            return
        # 2. subshell marker
        if _has_subshell_marker(words):
            writes = [r for r in cmd.redirects if is_write_redirect(r)]
            for r in writes:
                if r.target.opaque:
                    self.undeterminable.append(SUBSHELL)
                else:
                    self.known(r.target.text, SUBSHELL)
            if not writes:
                self.undeterminable.append(SUBSHELL)
            return
        # 3. write redirects
        wrote = self.redirect_writes(view, moves_directory)
        # 4. tee and sed-in-place, on the command itself and on what its wrappers run
        detected = False
        inner_words = words[_inner_word(view) :]
        views = [words] if _inner_word(view) == 0 else [words, inner_words]
        for seen in views:
            if not seen or basename(seen[0].text) not in ("tee", "sed"):
                continue
            for rule, detect in (("tee", _tee_targets), ("sed-in-place", _sed_targets)):
                for w in detect(seen):
                    self.known(w.text, f"{rule} writes content this layer does not compute")
                    detected = True
                if view.via_xargs and seen is inner_words and _rule_applies(rule, seen):
                    # xargs appends operands read from stdin: the files are unknowable here.
                    self.undeterminable.append(f"{rule} targets arrive through xargs")
                    detected = True
        # 5. the effect model's other writes; a writer whose operands xargs reads at run time
        # writes paths nobody can name here
        if name not in ("tee", "sed"):
            detected = self.effect_writes(view, moves_directory) or detected
            if view.via_xargs and view.model is not None and not view.model.pure:
                self.undeterminable.append(f"{name} operands arrive through xargs")
                detected = True
        # 6. an opaque word under a head that is not proven read-only (§8.6 reads the head as
        # written: `do echo $l` is under `do`). Beyond §8.6 case 5, also beside a known write when
        # the word stands where a writer's operand or option may (`rm -f a.txt $V`, `cp x $D`):
        # the write it may bring must not vanish from the evidence.
        if (((not wrote and not detected) or _unknown_beside_writes(view))
                and any(w.opaque for w in words) and not _proven_reader(view, words)):
            head = words[0].text if words else ""
            self.undeterminable.append(f"opaque token under {head} that is not proven read-only")

    def effect_writes(self, view: View, moves_directory: bool) -> bool:
        """Operands the model says the command writes, creates, deletes, moves or chmods."""
        model = view.model
        if model is None or model.pure:
            return False
        found = view.effects
        if found is None:
            return False
        name = view.name
        detected = False
        for it in found.items:
            if it.role not in E.WRITING:
                continue
            a = view.args[it.index]
            if not a.text and not a.opaque:
                continue  # an empty word names no file (`rm -rf "$@"` in a script called without arguments)
            detected = True
            if a.opaque or (it.whole and a.pattern is not None):
                self.undeterminable.append(f"{name} {E.VERBS[it.role]} a path this layer cannot determine")
            elif moves_directory and not it.text.startswith(("/", "~")):
                self.undeterminable.append(f"relative target {it.text} of {name} beside a directory change")
            else:
                self.known(it.text, f"{name} {E.VERBS[it.role]} it; the result is not computed", view.cwd)
        deletes_starts = any(it.role == E.DELETE for it in found.items)
        for extra in found.extra:
            if extra.kind in ("command", "list", "hooks", E.STAGE) or extra.rule in ("into", "index-patch"):
                continue  # judged on its own / what find prints / the judge's reading of `dest` / the index
            if extra.rule == "find-delete" and deletes_starts:
                continue  # the start paths are recorded as deleted
            detected = True
            if extra.rule == "whole-tree":
                self.undeterminable.append(f"{name} rewrites the work tree")
            elif extra.kind in ("extract", "patch"):
                self.undeterminable.append(f"{name} writes files named inside {'an archive' if extra.kind == 'extract' else 'a patch'}")
            elif extra.pattern is not None or extra.tree or not extra.path:
                self.undeterminable.append(f"{name} {E.VERBS.get(extra.kind, 'writes')} paths this layer cannot determine")
            elif moves_directory and not extra.path.startswith(("/", "~")):
                self.undeterminable.append(f"relative target {extra.path} of {name} beside a directory change")
            else:
                self.known(extra.path, f"{name} {E.VERBS.get(extra.kind, 'writes')} it; the result is not computed", view.cwd)
        return detected

    def redirect_writes(self, view: View, moves_directory: bool) -> bool:
        """§8.6 case 3; answers whether the command has any write redirect."""
        cmd = view.cmd
        if not cmd.redirects:
            return False
        writes = [r for r in cmd.redirects if is_write_redirect(r)]
        if not writes:
            return False
        if len(writes) > 1:
            for r in writes:
                if r.target.opaque:
                    self.undeterminable.append("the command carries more than one write")
                else:
                    self.known(r.target.text, "the command carries more than one write")
            return True
        r = writes[0]
        target = r.target.text
        if r.target.opaque:
            self.undeterminable.append(f"write target {target} is opaque")
            return True
        if target.startswith("~"):
            rel = self.root_relative(target) if self.home else None
            if rel is None:
                self.undeterminable.append(f"write target {target} is home-relative")
                return True
        if moves_directory and not target.startswith(("/", "~")):
            self.undeterminable.append(f"relative write target {target} beside a directory change")
            return True
        if r.operator not in _STDOUT_OPERATORS:
            self.known(target, f"redirect {r.operator} does not carry stdout")
            return True
        content, refusal = stdout_content(cmd)
        if refusal is not None:
            self.known(target, refusal)
        else:
            mode: Literal["truncate", "append"] = "append" if r.operator.endswith(">>") else "truncate"
            self.computed.append(ComputedWrite(target, self.repo_path(target), content, mode))
        return True


def _inner_word(view: View) -> int:
    """The index in `view.words` of the word the command runs (wrappers peeled off)."""
    if view.inner >= len(view.args):
        return len(view.words)
    word = view.args[view.inner].word
    for k, w in enumerate(view.words):
        if w is word:
            return k
    return 0


def _unknown_beside_writes(view: View) -> bool:
    """Does a word of unknown value stand where the effect model could not give it a role, under
    a command that writes?"""
    model = view.model
    found = view.effects
    if model is None or model.pure or found is None:
        return False
    return any(it.role == E.UNKNOWN and view.args[it.index].opaque for it in found.items)


def _proven_reader(view: View, words: Sequence[Word]) -> bool:
    if not words or words[0].opaque or basename(words[0].text) != view.name:
        return False
    model = view.model
    if model is None or not model.pure:
        return False
    found = view.effects
    return found is not None and found.unproven is None


def _tee_targets(words: Sequence[Word]) -> list[Word]:
    from polydeukes.stdlib.shell.judgment import tee_targets

    return tee_targets(words)


def _sed_targets(words: Sequence[Word]) -> list[Word]:
    from polydeukes.stdlib.shell.judgment import sed_in_place_targets

    return sed_in_place_targets(words)


def _rule_applies(rule: str, words: Sequence[Word]) -> bool:
    """Would `rule` fire on operands xargs appends? (`xargs tee`, `xargs sed -i …`)"""
    if not words:
        return False
    head = basename(words[0].text)
    if rule == "tee":
        return head == "tee"
    return head == "sed" and any(w.text.startswith("-i") or w.text.startswith("--in-place") for w in words[1:])


def _valid_home(home: str | None) -> bool:
    return isinstance(home, str) and home.startswith("/") and bool(segments(home))


def shell_writes(
    text: str,
    *,
    root: str,
    home: str | None,
    read_file: Callable[[str], str | None] | None,
    cwd: str | None = None,
) -> ShellWrites:
    """Derive the file writes one shell command string makes (spec 04 §8.6, §4.3), run in `cwd`
    (the call's directory, when the host tells it; the root otherwise)."""
    deriver = _Deriver(root, home)
    # Plain lines write nothing (their names are no writers): they are never read.
    walk = Walk(text, root=root, home=home, wants_run=lambda _text, _context: False, track_moves=True, cwd=cwd)
    try:
        deriver.run(walk)
    finally:
        walk.close()
    changes: tuple[ShellFileChange, ...] | None = None
    error: str | None = None
    if read_file is not None:
        completed: list[ShellFileChange] = []
        state: dict[str, str | None] = {}
        for write in deriver.computed:
            path = write.repo_path
            if path is None:
                continue  # outside the project: no world
            if path not in state:
                try:
                    state[path] = read_file(path)
                except Exception as exc:  # noqa: BLE001 - the judge turns this into unjudgeable
                    error = f"cannot read the pre-state of {path}: {exc}"
                    break
            pre = state[path]
            post = (pre or "") + write.content if write.mode == "append" else write.content
            completed.append(ShellFileChange(path, "create" if pre is None else "modify", pre, post))
            state[path] = post
        changes = tuple(completed)
    return ShellWrites(
        tuple(deriver.computed),
        tuple(deriver.uncomputable),
        tuple(deriver.undeterminable),
        changes,
        error,
    )
