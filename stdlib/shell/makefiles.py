"""What `make` runs from its makefiles (issue 11, "Reading the working tree, read-only").

scripts.py finds and reads the makefiles (`-f FILE`, the default names, `include`s, `--eval`
text, a makefile on stdin); this module reads them as make does, far enough to say which shell
lines a call can run and which text the mention rule reads:

- **The recipes of the goals and of what they depend on.** The goals are the call's target
  operands, else the default goal (the first target of the first rule, not a pattern and not
  starting with `.`, or `.DEFAULT_GOAL`); make also remakes every makefile it read, so rules for
  those names count as goals. The prerequisites are followed from rule to rule. A rule for a
  pattern (`%.o: %.c`) or a suffix (`.c.o:`), or for a name of unknown value, may serve any
  target, so its recipe always counts, and so does every rule whose target a pattern's
  prerequisite may name. A recipe of any other rule is not run and is not read. When the
  reading cannot name the targets (a prerequisite or goal of unknown value, `$(eval …)`, a
  `.DEFAULT_GOAL` of unknown value, secondary expansion, `-e`), every recipe counts, as it did
  before this reading.
- **Every other place make runs a shell**: `$(shell CMD)` anywhere (assignments, rule lines,
  recipes, directives, conditionals) and `VAR != CMD`; a recipe after `;` on the rule line;
  the program `SHELL` names and the flags `.SHELLFLAGS` gives it; `.ONESHELL` (a rule's lines run
  in one shell, so a `cd` carries over). `$(MAKE)` is `make`, which the walk reads again.
- **make's variables, where their value is plain text**: `NAME = value`, `:=`, `::=`, `?=`,
  `+=` and the call's `NAME=value` operands, expanded in rule lines (to name the targets) and
  in recipes (`rm -f $(GATE)` is `rm -f ci/gate.sh`). A variable assigned under a conditional,
  by `!=`, for one target only, or never (it may come from the environment) has no known value:
  it stays spelled, a value of unknown value to the shell.
- **make's functions and automatic variables**: the text functions of known words are computed
  (`_compute`), `$(wildcard P)` is the glob P, `$@`, `$<`, `$^`, `$*` … are the rule's
  (`_automatics`; a pattern rule's stems from the names the call may make, `_stems`). A value
  make computes that this reading does not work out is MARK, the shell word COMPUTED in a walked
  line, which the judge fails closed on where it is written.
- **What cannot be read fails closed**: `load` (a compiled object make runs), `$(guile …)`.

The mention rule then reads each makefile without the rule lines and recipes of the rules the
call does not run; every other line (assignments, directives, conditionals) stays, since a
variable it sets may reach a recipe that runs.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Callable

from polydeukes.vm.sre import LazyPattern

# A value no expansion can know (a function, `!=`, an environment variable).
UNKNOWN = None
# A value make computes from the makefiles' text that this reading does not work out (a function
# of a value it cannot compute, a pattern rule's stem, `$(shell …)`'s output): inside a value it
# is one private character, and in a walked recipe line the shell word `COMPUTED`, which the
# judge reads as a value that may name any path (judgment.py: a written word holding it with no
# literal tail fails closed). An environment variable's value stays spelled instead, as the
# shell's `$V` does.
MARK = "\ue000"
COMPUTED = "${PDKS_MAKE_COMPUTED}"
_TAINTS = frozenset("*?[\ue000")  # a glob's characters (`$(wildcard …)`'s value) and MARK
_FOREACH_WORDS = 256  # words a `$(foreach …)` is worked out for (past: MARK)
_PER_TARGET = 16  # targets a rule's recipe is expanded for one by one (past: automatic values MARK)

_DIRECTIVES = frozenset({"ifeq", "ifneq", "ifdef", "ifndef", "else", "endif", "include", "-include", "sinclude",
                         "vpath", "unexport", "undefine", "export", "override", "private"})
_CONDITIONAL_OPEN = frozenset({"ifeq", "ifneq", "ifdef", "ifndef"})
_ASSIGNMENT_PREFIXES = ("export ", "override ", "private ", "unexport ")
# make's automatic variables: their value depends on the rule being run.
_AUTOMATIC = frozenset("@<^+?*%|")
_SHELL_CALL = LazyPattern(r"\$[({]shell[ \t]")
# make's functions: `$(NAME ARGS)`. Their arguments may be commands a variable later runs.
_FUNCTIONS = frozenset({
    "subst", "patsubst", "strip", "findstring", "filter", "filter-out", "sort", "word", "wordlist",
    "words", "firstword", "lastword", "dir", "notdir", "suffix", "basename", "addsuffix",
    "addprefix", "join", "wildcard", "realpath", "abspath", "error", "warning", "info", "shell",
    "origin", "flavor", "foreach", "if", "or", "and", "call", "eval", "file", "value", "let",
    "intcmp", "guile",
})
_NAME = LazyPattern(r"[^\s:#=$(){}]+")
# Environment variables make does not import as variables (MAKEFLAGS and MAKEFILES are read
# as make's own: scripts._makefile).
_NOT_IMPORTED = frozenset({"SHELL", "MAKEFLAGS", "MAKEFILES", "MAKELEVEL", "MFLAGS"})


class MakeProgram:
    """What one make call runs: the shell lines, the makefiles' text the mention rule reads,
    or why it cannot be read (`refused`)."""

    __slots__ = ("lines", "texts", "refused")

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.texts: list[tuple[str, str]] = []
        self.refused: str | None = None


class _Rule:
    __slots__ = ("targets", "prerequisites", "inline", "recipes", "lines", "always", "file", "known", "static")

    def __init__(self, targets: list[str], prerequisites: list[str] | None, inline: str | None,
                 header: tuple[int, int], file: int, known: bool) -> None:
        self.targets = targets
        self.prerequisites = prerequisites  # None: of unknown value
        self.inline = inline  # the recipe after `;` on the rule line
        self.recipes: list[str] = []  # recipe lines (prefix and continuations as written)
        self.lines = list(range(header[0], header[1] + 1))  # its physical lines: rule line, recipes
        self.file = file
        self.known = known  # every target's name is known
        # A static pattern rule's (`objs: %.o: %.c`) stem and prerequisites of each target.
        self.static: dict[str, tuple[str, list[str]]] | None = None
        # A pattern or suffix rule, or one for names of unknown value: may serve any target.
        self.always = not known or any("%" in t or _suffix_rule(t) for t in targets)


# Special targets that carry no recipe worth running but name others (.PHONY) or set modes.
_SPECIAL_TARGETS = frozenset({".PHONY", ".SUFFIXES", ".PRECIOUS", ".INTERMEDIATE", ".NOTINTERMEDIATE",
                              ".SECONDARY", ".SECONDEXPANSION", ".DELETE_ON_ERROR", ".IGNORE",
                              ".LOW_RESOLUTION_TIME", ".SILENT", ".EXPORT_ALL_VARIABLES",
                              ".NOTPARALLEL", ".ONESHELL", ".POSIX", ".WAIT"})


def _suffix_rule(target: str) -> bool:
    """`.c.o` or `.c`: a rule for every file name with that suffix (a special target, or a
    path such as `.claude/x`, is none)."""
    return target.startswith(".") and "/" not in target and target not in _SPECIAL_TARGETS


def group_end(s: str, i: int) -> int:
    """Index just past the `$(…)` or `${…}` whose `$` is at `i` (len(s) when unclosed);
    make counts only the parenthesis (or brace) it opened with."""
    opening = s[i + 1]
    closing = ")" if opening == "(" else "}"
    depth = 0
    j = i + 1
    n = len(s)
    while j < n:
        c = s[j]
        if c == opening:
            depth += 1
        elif c == closing:
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    return n


def references(text: str):
    """`text` as make reads its references, in order: (literal, None, "") for a run of plain
    text (`$$` is `$`), (the text inside, the name or the function call, its spelling) for a
    reference: `$(NAME)`, `${NAME}`, `$(fn args)`, or `$X` (a one-character name: the
    spelling is two characters)."""
    start = 0
    i = text.find("$")
    n = len(text)
    while 0 <= i < n - 1:
        following = text[i + 1]
        if following == "$":
            yield text[start:i] + "$", None, ""
            start = i = i + 2
        else:
            if start < i:
                yield text[start:i], None, ""
            end = group_end(text, i) if following in "({" else i + 2
            yield "", text[i + 2 : end - 1] if end - i > 2 else following, text[i:end]
            start = i = end
        i = text.find("$", i)
    if start < n:
        yield text[start:], None, ""


def _top_level(s: str, chars: str) -> list[tuple[int, str]]:
    """The positions of `chars` in `s` outside `$(…)`/`${…}` (and not a `$X` reference)."""
    out: list[tuple[int, str]] = []
    i = 0
    n = len(s)
    while i < n:
        c = s[i]
        if c == "$" and i + 1 < n:
            i = group_end(s, i) if s[i + 1] in "({" else i + 2
            continue
        if c in chars:
            out.append((i, c))
        i += 1
    return out


def shell_calls(text: str) -> list[str]:
    """The commands of every `$(shell CMD)` in `text` (nested ones too), as make passes them
    to the shell once the function's own argument is expanded (`$$` is `$`)."""
    out: list[str] = []
    for found in _SHELL_CALL().finditer(text):
        end = group_end(text, found.start())
        inner = text[found.end() : end - 1]
        out.append(inner)
    return out


_MAKE_BLANKS = " \t\n\v\f\r"  # (what GNU make's strip_whitespace takes off: isspace in C)


class _Reader:
    """One pass over the makefiles in read order."""

    def __init__(self, overrides: dict[str, str | None], environment_overrides: bool,
                 environment: Callable[[str], str | None]) -> None:
        self.values: dict[str, str | None] = {}
        self.raw: dict[str, str] = {}
        self.flavours: dict[str, str] = {}  # "simple" (`:=`) or "recursive" (`=`)
        self.overrides = overrides
        self.overridden: set[str] = set()  # assigned with `override`
        self.environment_overrides = environment_overrides
        self.environment = environment  # the value the line gives an environment variable, if known
        self.rules: list[_Rule] = []
        self.shell_lines: list[str] = []  # `$(shell …)`, `!=`, SHELL, orphan recipe lines
        self.refused: str | None = None
        self.precise = True
        self.default_goal: str | None = None  # `.DEFAULT_GOAL`'s
        self.default_goal_set = False
        # Each file's first target that may be the default goal, and the files that include
        # another before their first rule. Included files are read after the makefiles here,
        # not in place as make reads them: see `_reachable`.
        self.first_targets: dict[int, str] = {}
        self.includes_first: set[int] = set()
        self.oneshell = False
        self.recipe_prefix = "\t"
        # The automatic variables of the rule whose recipe is being expanded (None: none is).
        self.autos: dict[str, str] | None = None

    # -- variables ----------------------------------------------------------------------------

    def expand(self, text: str, depth: int = 0) -> str | None:
        """`text` with its variable references and function calls replaced (None when a
        variable has no known value: the environment's, or one assigned under a conditional;
        a function whose value is not worked out gives MARK)."""
        if "$" not in text:
            return text
        if depth > 16:
            return MARK
        out: list[str] = []
        for literal, name, _ in references(text):
            value = literal if name is None else self.value(name, depth)
            if value is None:
                return None
            out.append(value)
        return "".join(out)

    def value(self, name: str, depth: int = 0) -> str | None:
        if not name:
            return None
        if name[0] in _AUTOMATIC and (len(name) == 1 or name[1:] in ("D", "F")):
            return self.automatic(name)
        head = _FUNCTION_HEAD().match(name)
        if head is not None and head.group(1) in _FUNCTIONS:
            return self.function(head.group(1), name[head.end():], depth)
        if _NAME().fullmatch(name) is None:
            return self.substitution(name, depth)
        if name in self.overrides and name not in self.overridden:
            return self.overrides[name]
        if self.environment_overrides or name not in self.values:
            # (from the environment: make imports it as a variable, recursively expanded; known
            # when the line sets it, else unknown; SHELL is never imported)
            imported = self.environment(name) if name not in _NOT_IMPORTED else None
            if imported is None and self.environment_overrides and name in self.values:
                return None  # (`-e`: the environment may hold it, and then wins)
            return None if imported is None else self.expand(imported, depth + 1)
        raw = self.values[name]
        if raw is None:
            return None
        return raw if self.flavours.get(name) == "simple" else self.expand(raw, depth + 1)

    # -- computed values ----------------------------------------------------------------------

    def automatic(self, name: str) -> str:
        """`$@`, `$<`, `$^`, `$+`, `$?`, `$*`, `$|`, `$%` and their `D`/`F` forms, from the
        rule whose recipe is being expanded (`self.autos`); MARK where not known."""
        autos = self.autos
        value = autos.get(name[0], MARK) if autos is not None else MARK
        if len(name) == 1:
            return value
        return " ".join(_directory(w) if name[1] == "D" else _file(w) for w in value.split())

    def substitution(self, name: str, depth: int) -> str | None:
        """`$(VAR:a=b)` (a substitution reference), as `$(patsubst %a,%b,$(VAR))`."""
        variable, colon, rest = name.partition(":")
        if not colon or "=" not in rest or _NAME().fullmatch(variable.strip()) is None:
            return None  # syntax this reading does not know (as before: unknown)
        words = self.value(variable.strip(), depth)
        if words is None:
            return None
        old, _, new = rest.partition("=")
        old, new = self.expand(old, depth + 1), self.expand(new, depth + 1)
        if old is None or new is None or _tainted(old) or _tainted(new):
            return MARK
        if "%" not in old:
            old, new = "%" + old, "%" + new
        return _patsubst(old, new, words)

    def function(self, name: str, text: str, depth: int) -> str | None:
        """The value of make's function `name` called with `text`: worked out where its
        arguments' values are known (a glob from `$(wildcard …)` goes through the functions
        that keep each word's glob in place), else MARK."""
        if depth > 16:
            return MARK
        if name == "call":
            called = _called(self, "call " + text)
            return MARK if called is None else self.expand(called, depth + 1)
        if name in ("shell", "guile", "file", "origin", "flavor", "abspath", "realpath", "let", "intcmp"):
            return MARK  # (run-time values, or the disk's)
        if name == "eval":
            return ""  # (its text makes rules: the reading is no longer precise, see `read`)
        if name == "value":
            raw = self.raw.get(text.strip())
            return MARK if raw is None else raw
        if name == "foreach":
            return self.foreach(text, depth)
        pieces = _arguments(text)
        if name in ("if", "or", "and"):
            return self.conditional(name, pieces, depth)
        if name in ("info", "warning", "error"):
            return ""
        if name in ("subst", "patsubst", "findstring", "filter", "filter-out", "word", "wordlist", "join",
                    "addprefix", "addsuffix", "intcmp"):
            if len(pieces) < 2:
                return MARK
            pieces = pieces[:2] + [",".join(pieces[2:])] if name in ("subst", "patsubst", "wordlist") \
                else [pieces[0], ",".join(pieces[1:])]
        else:
            pieces = [text]
        values: list[str] = []
        for piece in pieces:
            value = self.expand(piece, depth + 1)
            if value is None:
                return MARK  # (a function of the environment's value)
            values.append(value)
        return _compute(name, values)

    def foreach(self, text: str, depth: int) -> str:
        pieces = _arguments(text)
        if len(pieces) < 3:
            return MARK
        variable = self.expand(pieces[0], depth + 1)
        words = self.expand(pieces[1], depth + 1)
        if variable is None or words is None or _tainted(words) or _tainted(variable):
            return MARK
        body = ",".join(pieces[2:])
        variable = variable.strip()
        words_list = words.split()
        if len(words_list) > _FOREACH_WORDS:
            return MARK
        saved = (self.values.get(variable, MARK), self.flavours.get(variable), variable in self.values)
        out: list[str] = []
        try:
            for word in words_list:
                self.values[variable] = word
                self.flavours[variable] = "simple"
                value = self.expand(body, depth + 1)
                out.append(MARK if value is None else value)
        finally:
            if saved[2]:
                self.values[variable] = saved[0]
            else:
                self.values.pop(variable, None)
            if saved[1] is None:
                self.flavours.pop(variable, None)
            else:
                self.flavours[variable] = saved[1]
        return " ".join(out)

    def conditional(self, name: str, pieces: list[str], depth: int) -> str:
        """`$(if C,THEN,ELSE)`, `$(or …)`, `$(and …)`: each argument expanded only as make
        does, in order, until one decides. As GNU make, a condition's text is stripped of
        blanks *before* it is expanded, and what it expands to counts as true when it is not
        empty, blanks included (`$(or $(notdir ./ ./),x)` is a blank), and is the value."""
        if name == "if":
            condition = self.expand(pieces[0].strip(_MAKE_BLANKS), depth + 1)
            if condition is None or _tainted(condition):
                return MARK
            chosen = (pieces[1] if len(pieces) > 1 else "") if condition else ",".join(pieces[2:])
            value = self.expand(chosen, depth + 1)
            return MARK if value is None else value
        value = ""
        for piece in pieces:
            value = self.expand(piece.strip(_MAKE_BLANKS), depth + 1)
            if value is None or _tainted(value):
                return MARK
            if (name == "or") == bool(value):
                return value if name == "or" else ""
        return "" if name == "or" else value

    def assign(self, name: str, operator: str, value: str, conditional: bool) -> None:
        # (the text as written, whatever its value: what `$(call NAME,…)` and a function's
        # arguments are read from)
        self.raw[name] = f"{self.raw[name]} {value}" if operator == "+=" and name in self.raw else value
        if name == "SHELL" or name == ".SHELLFLAGS":
            # The program make runs recipes with (and its flags): walked as a command.
            expanded = self.expand(value) if value else value
            line = (expanded if expanded is not None else value).strip()
            if line:
                self.shell_lines.append(line if name == "SHELL" else f"sh {line}")
        if name == ".RECIPEPREFIX":
            expanded = self.expand(value)
            self.recipe_prefix = (expanded or "\t")[:1] if expanded is not None else "\t"
        if name == ".DEFAULT_GOAL":
            self.default_goal_set = True
            expanded = self.expand(value)
            goals = expanded.split() if expanded is not None else None
            if not goals or len(goals) > 1:
                self.precise = False
            else:
                self.default_goal = goals[0] if goals else None
        if operator == "!=":
            self.shell_lines.append(value)
            self.values[name] = None
            return
        if conditional:
            self.values[name] = None
            return
        if operator == "?=":
            # (the environment may hold the variable, and then wins: unknown either way, unless
            # the line gives the environment's value: then that value stays)
            if name in self.values or self.environment(name) is None:
                self.values[name] = None
            return
        if operator == "+=":
            if name not in self.values:
                self.values[name] = value
                self.flavours[name] = "recursive"
            elif self.values[name] is not None:
                if self.flavours.get(name) == "simple":
                    expanded = self.expand(value)
                    self.values[name] = None if expanded is None else f"{self.values[name]} {expanded}".strip()
                else:
                    self.values[name] = f"{self.values[name]} {value}".strip()
            return
        if operator == "=":
            self.values[name] = value
            self.flavours[name] = "recursive"
        else:  # `:=`, `::=`, `:::=`: expanded now
            self.values[name] = self.expand(value)
            self.flavours[name] = "simple"

    # -- lines --------------------------------------------------------------------------------

    def read(self, index: int, text: str) -> None:
        lines = text.split("\n")
        rule: _Rule | None = None
        conditionals = 0
        defining = 0
        defined = ("", "=")  # the variable a `define` makes, and its operator
        body_lines: list[str] = []
        k = 0
        while k < len(lines):
            first = k
            line = lines[k]
            k += 1
            if defining:
                word = line.strip().split(None, 1)[0] if line.strip() else ""
                if word == "endef":
                    defining -= 1
                    if not defining:
                        self.assign(defined[0], defined[1], "\n".join(body_lines), conditionals > 0)
                        continue
                elif word == "define" or line.lstrip().startswith(("define ", "override define ", "export define ")):
                    defining += 1
                elif line.startswith(self.recipe_prefix):
                    # (a recipe in a variable: the walk reads it as it always did)
                    self.shell_lines.append(_recipe_text([line], self.recipe_prefix))
                self.shell_lines.extend(shell_calls(line))
                body_lines.append(line[len(self.recipe_prefix):] if line.startswith(self.recipe_prefix) else line)
                continue
            if line.startswith(self.recipe_prefix) and (rule is not None or self.recipe_prefix != "\t" or line.strip()):
                parts = [line]
                while _continued(parts[-1]) and k < len(lines):
                    parts.append(lines[k])
                    k += 1
                if rule is not None:
                    rule.recipes.append(_recipe_text(parts, self.recipe_prefix))
                    rule.lines.extend(range(first, k))
                else:
                    # (before any rule, or after a line that ended the rule: walked anyway)
                    self.shell_lines.append(_recipe_text(parts, self.recipe_prefix))
                continue
            parts = [line]
            while _continued(parts[-1]) and k < len(lines):
                parts.append(lines[k])
                k += 1
            logical = " ".join(p[:-1] if p.endswith("\\") else p for p in parts)
            body = _uncommented(logical).strip()
            if not body:
                continue  # a blank or comment line keeps the rule open
            self.shell_lines.extend(shell_calls(body))
            word = body.split(None, 1)[0]
            if word in ("load", "-load") or "$(guile" in body or "${guile" in body:
                self.refused = "it loads code make runs itself (load, guile)"
                return
            if word == "define" or body.startswith(("override define", "export define")):
                # `define NAME [=|:=|::=|+=|?=]` … `endef`: a variable of several lines
                words = body.split()
                words = words[words.index("define") + 1 :] if "define" in words else []
                name = words[0] if words else ""
                operator = words[1] if len(words) > 1 and words[1] in ("=", ":=", "::=", ":::=", "+=", "?=", "!=") else "="
                defined = (name, operator)
                body_lines: list[str] = []
                defining = 1
                rule = None
                continue
            if "$(eval" in body or "${eval" in body:
                self.precise = False  # rules made at run time
            if word in _CONDITIONAL_OPEN:
                conditionals += 1
                continue
            if word == "endif":
                conditionals = max(0, conditionals - 1)
                continue
            if word in ("include", "-include", "sinclude") and index not in self.first_targets:
                self.includes_first.add(index)
            if word in ("else", "include", "-include", "sinclude", "vpath", "undefine", "unexport"):
                if word == "undefine":
                    for name in body.split()[1:]:
                        self.values[name] = None
                continue
            if self._assignment(body, conditionals > 0):
                rule = None
                continue
            if word in ("export", "unexport", "override", "private") and not _top_level(body, ":"):
                continue  # `export NAME`: no value given here
            rule = self._rule(body, index, (first, k - 1), conditionals > 0)

    def _assignment(self, body: str, conditional: bool) -> bool:
        text = body
        for prefix in _ASSIGNMENT_PREFIXES:
            while text.startswith(prefix):
                text = text[len(prefix):].lstrip()
        marks = _top_level(text, ":=")
        if not marks:
            return False
        position, char = marks[0]
        if char == ":" and not text.startswith(("=", ":=", "::="), position + 1):
            return False  # a rule (or a target-specific assignment, `_rule`)
        # The operator: `=`, `:=`, `::=`, `:::=`, `?=`, `+=`, `!=`.
        if char == ":":
            end = text.index("=", position) + 1
            operator, start = text[position:end], position
        else:
            start = position - 1 if position and text[position - 1] in "?+!" else position
            operator, end = text[start : position + 1], position + 1
        name = text[:start].strip()
        if not name or " " in name or "\t" in name:
            expanded = self.expand(name)
            if expanded is None or len(expanded.split()) != 1:
                self.precise = False  # a variable named by a value: unknown which
                return True
            name = expanded.strip()
        if body is not text and "override " in body[: len(body) - len(text)]:
            self.overridden.add(name)  # the makefile's value beats the call's
        self.assign(name, operator, text[end:].strip(), conditional)
        return True

    def _rule(self, body: str, index: int, header: tuple[int, int], conditional: bool) -> _Rule | None:
        colons = [p for p, _ in _top_level(body, ":")]
        if not colons:
            self.precise = False  # a line make would reject, or syntax this reading does not know
            return None
        first = colons[0]
        targets_text = body[:first]
        rest = body[first + 1 :]
        if rest.startswith(":"):
            rest = rest[1:]  # a double-colon rule
        grouped = targets_text.rstrip().endswith("&")
        if grouped:
            targets_text = targets_text.rstrip()[:-1]
        expanded = self.expand(targets_text)
        known = expanded is not None and MARK not in expanded
        targets = expanded.split() if expanded is not None else []
        inline = None
        semicolons = _top_level(rest, ";")
        if semicolons:
            inline = rest[semicolons[0][0] + 1 :]
            rest = rest[: semicolons[0][0]]
        if _top_level(rest, "="):
            # `target: VAR = value`: a variable for that target's recipes only.
            marks = [p for p, _ in _top_level(rest, "=")]
            name = rest[: marks[0]].rstrip("?+!:").split()
            for n in name[-1:]:
                self.values[n] = None
            return None
        static = [p for p, _ in _top_level(rest, ":")]
        if static:
            # `objs: %.o: %.c`: each target's prerequisites are the patterns with its stem.
            pattern = self.expand(rest[: static[0]])
            patterns = self.expand(rest[static[0] + 1 :])
            prerequisites: list[str] | None = []
            static_targets: dict[str, tuple[str, list[str]]] | None = {}
            if pattern is None or patterns is None or len(pattern.split()) != 1 or not known \
                    or _tainted(pattern) or _tainted(patterns):
                prerequisites = static_targets = None
            else:
                before, _, after = pattern.strip().partition("%")
                for target in targets:
                    if target.startswith(before) and target.endswith(after) and len(target) >= len(before) + len(after):
                        stem = target[len(before) : len(target) - len(after)]
                        own = [p.replace("%", stem, 1) for p in patterns.split() if p != "|"]
                        prerequisites.extend(own)
                        static_targets[target] = (stem, own)
        else:
            static_targets = None
            words = self.expand(rest)
            prerequisites = [w for w in words.split() if w != "|"] if words is not None and MARK not in words \
                else None  # (a glob's words, `$(wildcard …)`'s, name the targets they match: `_reachable`)
        if "$$" in rest and self.secondary_expansion:
            prerequisites = None
        rule = _Rule(targets, prerequisites, inline, header, index, known)
        rule.static = static_targets
        if conditional:
            rule.always = True  # (which branch make takes is not worked out)
        self.rules.append(rule)
        if ".ONESHELL" in targets:
            self.oneshell = True
        if known and index not in self.first_targets:
            for target in targets:
                if "%" not in target and (not target.startswith(".") or "/" in target):
                    self.first_targets[index] = target
                    break
        return rule

    @property
    def secondary_expansion(self) -> bool:
        return any(".SECONDEXPANSION" in r.targets for r in self.rules)


_FUNCTION_HEAD = LazyPattern(r"([a-z-]+)[ \t]+")


def _tainted(text: str) -> bool:
    """Does `text` hold a glob (from `$(wildcard …)`) or MARK?"""
    return any(c in _TAINTS for c in text)


def _directory(word: str) -> str:
    """`$(dir WORD)`: up to its last `/` (`./` without one); MARK after that `/` (a stem may
    hold more directories) makes it MARK."""
    head, slash, tail = word.rpartition("/")
    if MARK in tail:
        return MARK
    return head + slash if slash else "./"


def _file(word: str) -> str:
    """`$(notdir WORD)`; MARK after its last `/` makes it MARK."""
    tail = word.rpartition("/")[2]
    return MARK if MARK in tail else tail


def _pattern_word(pattern: str, replacement: str, word: str) -> str:
    """`$(patsubst PATTERN,REPLACEMENT,WORD)` for one word (the pattern holds a `%`): a word
    with a glob or MARK is replaced only when its stem holds them, else it is MARK."""
    before, _, after = pattern.partition("%")
    matches = word.startswith(before) and word.endswith(after) and len(word) >= len(before) + len(after)
    if _tainted(word):
        first = min(word.index(c) for c in _TAINTS if c in word)
        last = max(word.rindex(c) for c in _TAINTS if c in word)
        if not (matches and first >= len(before) and last < len(word) - len(after)):
            return MARK  # (whether its values match, and how, is not worked out)
    if not matches:
        return word
    stem = word[len(before): len(word) - len(after)]
    return replacement.replace("%", stem, 1) if "%" in replacement else replacement


def _patsubst(pattern: str, replacement: str, text: str) -> str:
    pattern, replacement = _unescape_percent(pattern), _unescape_percent(replacement)
    if "%" not in pattern:
        return " ".join(replacement if w == pattern else (MARK if _tainted(w) else w) for w in text.split())
    return " ".join(_pattern_word(pattern, replacement, w) for w in text.split())


def _unescape_percent(pattern: str) -> str:
    return pattern  # (`\%` quoting is rare; a pattern holding one is read as written)


def _filter_match(pattern: str, word: str) -> bool:
    before, percent, after = pattern.partition("%")
    if not percent:
        return word == pattern
    return word.startswith(before) and word.endswith(after) and len(word) >= len(before) + len(after)


def _compute(name: str, values: list[str]) -> str:
    """The text functions of make on known arguments (`values`, expanded): as GNU make 4
    computes them (tests/test_makefiles.py holds this to make itself). An argument holding a
    glob or MARK gives MARK, except in the functions that keep each word's glob in place."""
    if name == "wildcard":
        return " ".join(values[0].split())  # (the glob itself: the shell's words match as make's do)
    if name in ("addprefix", "addsuffix"):
        fix, words = values
        if _tainted(fix) and MARK not in fix:
            return MARK
        return " ".join(fix + w if name == "addprefix" else w + fix for w in words.split())
    if name in ("firstword", "lastword", "strip"):
        words = values[0].split()
        if name == "strip":
            return " ".join(words)
        return (words[0] if name == "firstword" else words[-1]) if words else ""
    if name == "sort":
        return " ".join(sorted(set(values[0].split())))
    if name in ("dir", "notdir"):
        return " ".join(_directory(w) if name == "dir" else _file(w) for w in values[0].split())
    if name == "patsubst":
        pattern, replacement, text = values
        if _tainted(pattern) or _tainted(replacement):
            return MARK
        return _patsubst(pattern.strip(), replacement.strip(), text)
    if any(_tainted(v) for v in values):
        return MARK
    if name == "subst":
        old, new, text = values
        return text.replace(old, new) if old else text + new
    if name == "findstring":
        return values[0] if values[0] in values[1] else ""
    if name in ("filter", "filter-out"):
        patterns = values[0].split()
        keep = name == "filter"
        return " ".join(w for w in values[1].split() if any(_filter_match(p, w) for p in patterns) == keep)
    if name in ("word", "wordlist", "words"):
        if name == "words":
            return str(len(values[0].split()))
        try:
            numbers = [int(v.strip()) for v in values[: 1 if name == "word" else 2]]
        except ValueError:
            return MARK  # (make stops with an error)
        words = values[-1].split()
        if name == "word":
            return words[numbers[0] - 1] if 0 < numbers[0] <= len(words) else ("" if numbers[0] > 0 else MARK)
        start, end = numbers
        return " ".join(words[start - 1: end]) if start > 0 else MARK
    if name == "join":
        first, second = values[0].split(), values[1].split()
        n = max(len(first), len(second))
        return " ".join((first[k] if k < len(first) else "") + (second[k] if k < len(second) else "")
                        for k in range(n))
    if name in ("suffix", "basename"):
        out: list[str] = []
        for w in values[0].split():
            dot = w.rfind(".")
            has = dot > w.rfind("/")
            if name == "suffix":
                if has:
                    out.append(w[dot:])
            else:
                out.append(w[:dot] if has else w)
        return " ".join(out)
    return MARK


def _continued(line: str) -> bool:
    """Does a trailing backslash (an odd run of them) continue this line?"""
    stripped = line.rstrip("\\")
    return (len(line) - len(stripped)) % 2 == 1


def _uncommented(line: str) -> str:
    """The line before its comment: a `#` outside a variable reference or function call, not
    escaped (`\\#`)."""
    for position, _ in _top_level(line, "#"):
        if position == 0 or line[position - 1] != "\\":
            return line[:position]
    return line


def _recipe_text(parts: list[str], prefix: str) -> str:
    """A recipe line as the shell gets it: the recipe prefix dropped from it and from each
    continued line, the continuation kept, make's `@`, `-` and `+` prefixes dropped."""
    lines = [p[len(prefix):] if p.startswith(prefix) else p for p in parts]
    return "\n".join(lines).lstrip(" \t@-+")


def read_makefiles(files: list[tuple[str, str]], goals: list[str] | None, overrides: dict[str, str | None],
                   environment_overrides: bool = False, included_from: int | None = None,
                   missing: list[str] | None = None,
                   environment: Callable[[str], str | None] = lambda name: None) -> MakeProgram:
    """What a make call with these makefiles (in read order: `--eval` text, the makefiles,
    then from `included_from` the files they include) runs for `goals` (None: of unknown
    value; []: the default goal) and its `NAME=value` operands (`overrides`; None: unknown).
    `missing`: included makefiles found nowhere; one that a rule may make is made and then
    read by make, with text this reading does not have: it fails closed. `environment`: the
    value of an environment variable make imports, when the line gives it one."""
    program = MakeProgram()
    if any(COMPUTED[2:-1] in text for _, text in files):
        program.refused = f"it spells {COMPUTED[2:-1]}, the name this reading gives values make computes"
        return program
    reader = _Reader(overrides, environment_overrides, environment)
    for index, (_, text) in enumerate(files):
        reader.read(index, text)
        if reader.refused is not None:
            program.refused = reader.refused
            return program
    for name in missing or ():
        for rule in reader.rules:
            if name in rule.targets or not rule.known or any(
                    "%" in t and _stem(t, name) is not None for t in rule.targets):
                program.refused = f"a rule may make its included makefile {name}, which make then reads"
                return program
    names: set[str] = set()
    reachable = _reachable(reader, files, goals, len(files) if included_from is None else included_from, names)
    stems = _stems(reader, names) if reachable is not None else None
    merged: dict[str, list[str]] = {}  # each explicit target's prerequisites over all its rules
    for rule in reader.rules:
        if rule.known and rule.prerequisites is not None:
            for target in rule.targets:
                merged.setdefault(target, []).extend(rule.prerequisites)
    for rule in reader.rules:
        if reachable is not None and rule not in reachable:
            continue
        inline = _recipe_text([rule.inline], "") if rule.inline else ""
        recipes = ([inline] if inline.strip() else []) + rule.recipes
        if reader.oneshell and recipes:
            recipes = ["\n".join(recipes)]
        if not recipes:
            continue
        for autos in _automatics(rule, merged, stems):
            reader.autos = autos
            for recipe in recipes:
                expanded = _expanded_recipe(reader, recipe)
                if expanded not in program.lines:
                    program.lines.append(expanded)
        reader.autos = None
        for recipe in recipes:
            # (make runs a `$(shell …)` while it expands the line, whatever shell quotes
            # surround it: `echo '$(shell x)'` runs x)
            program.lines.extend(_expanded_recipe(reader, call) for call in shell_calls(recipe))
            program.lines.extend(_expanded_recipe(reader, piece) for piece in function_arguments(recipe))
    program.lines.extend(_expanded_recipe(reader, line) for line in reader.shell_lines)
    for raw in reader.raw.values():
        program.lines.extend(_expanded_recipe(reader, piece) for piece in function_arguments(raw))
    skipped: dict[int, set[int]] = {}
    if reachable is not None:
        for rule in reader.rules:
            if rule not in reachable:
                skipped.setdefault(rule.file, set()).update(rule.lines)
    for index, (name, text) in enumerate(files):
        lines = skipped.get(index)
        if lines:
            text = "\n".join(line for k, line in enumerate(text.split("\n")) if k not in lines)
        program.texts.append((name, text))
    return program


def _reachable(reader: _Reader, files: list[tuple[str, str]], goals: list[str] | None,
               included_from: int, names: set[str] | None = None) -> set[_Rule] | None:
    """The rules a call may run (None: every rule, the targets could not be worked out);
    `names` receives every name make may be asked to make."""
    if not reader.precise or goals is None or reader.secondary_expansion:
        return None
    if goals:
        wanted = list(goals)
    elif reader.default_goal_set:
        wanted = [reader.default_goal] if reader.default_goal else []
    else:
        # The first target of the first makefile read that has one; if a makefile read until
        # then includes another before its first rule, that file's first target may come
        # first (any included file's: which file holds it is not worked out).
        wanted = []
        for index in range(included_from):
            if index in reader.includes_first:
                wanted.extend(t for i, t in reader.first_targets.items() if i >= included_from)
            if index in reader.first_targets:
                wanted.append(reader.first_targets[index])
                break
    # make remakes every makefile it read before anything else.
    wanted.extend(name.rsplit("/", 1)[-1] for name, _ in files if name)
    wanted.extend(name for name, _ in files if name)
    by_target: dict[str, list[_Rule]] = {}
    for rule in reader.rules:
        for target in rule.targets:
            by_target.setdefault(target, []).append(rule)
    reachable: set[_Rule] = set()
    patterns: list[re.Pattern[str]] = []
    for rule in reader.rules:
        if rule.always:
            if rule.prerequisites is None:
                return None
            reachable.add(rule)
            for prerequisite in rule.prerequisites:
                if "%" in prerequisite:
                    patterns.append(re.compile(".*".join(re.escape(p) for p in prerequisite.split("%")) + r"\Z"))
                else:
                    wanted.append(prerequisite)
            for target in rule.targets:
                if _suffix_rule(target) and target.count(".") in (1, 2):
                    # a suffix rule `.c.o:` (or `.c:`): a target ending in its first suffix is a source
                    source = "." + target.split(".")[1]
                    patterns.append(re.compile(".*" + re.escape(source) + r"\Z"))
    if patterns:
        wanted.extend(t for t in by_target if any(p.match(t) for p in patterns))
    seen: set[str] = set()
    while wanted:
        target = wanted.pop()
        if target in seen:
            continue
        seen.add(target)
        if names is not None:
            names.add(target)
        if _tainted(target):
            wanted.extend(t for t in by_target if "%" not in t and fnmatch.fnmatchcase(t, target))  # (a glob's matches)
        for rule in by_target.get(target, ()):
            if rule.prerequisites is None:
                return None
            reachable.add(rule)
            wanted.extend(rule.prerequisites)
    return reachable


def _stems(reader: _Reader, names: set[str]) -> dict[str, list[tuple[str, str]]]:
    """For each pattern rule's target pattern, the (name, stem) pairs make may match it
    with: the names the call may make (`_reachable`) and, as make's built-in rules change or
    add a suffix, each such name with its suffix replaced by the pattern's or added; the
    prerequisites a match gives are names in turn (a chain of pattern rules). A pattern whose
    names are past `_PER_TARGET` * 4 gets MARK (`_automatics`)."""
    patterns = [t for rule in reader.rules if rule.known for t in rule.targets if "%" in t]
    out: dict[str, list[tuple[str, str]]] = {t: [] for t in patterns}
    if not patterns:
        return out
    prerequisites: dict[str, list[str]] = {}
    for rule in reader.rules:
        if rule.prerequisites is not None:
            for target in rule.targets:
                if target in out:
                    prerequisites.setdefault(target, []).extend(rule.prerequisites)
    # A pattern whose prerequisite is a pattern chains without end on the names it makes
    # (`%.o: %.c` matches x.c.o, asks for x.c.c, ...): such a chain is cut at `deepest`
    # steps, each name longer than the last, and the pattern's runs are then MARK, as past the
    # name bound. (Walking the chain to the 1024-name bound took a quarter of a second for a
    # six-line Makefile, past the working tree's time bound on a loaded machine.)
    deepest = 2 * len(patterns) + 2
    endless: set[str] = set()
    pending = [(name, 0) for name in sorted(names)]
    seen: set[str] = set(names)
    while pending and len(seen) < 1024:
        name, depth = pending.pop()
        base = name[: name.rfind(".")] if name.rfind(".") > name.rfind("/") else name
        for pattern in patterns:
            if pattern in endless:
                continue
            after = pattern.partition("%")[2]
            for candidate in dict.fromkeys((name, base + after, name + after)):
                stem = _stem(pattern, candidate)
                if stem is None or (candidate, stem) in out[pattern]:
                    continue
                out[pattern].append((candidate, stem))
                for prerequisite in prerequisites.get(pattern, ()):
                    made = _instance(prerequisite, candidate, stem)
                    if made not in seen:
                        if depth >= deepest:
                            endless.add(pattern)
                            break
                        seen.add(made)
                        pending.append((made, depth + 1))
    for pattern in endless:
        del out[pattern]  # (`_automatics`: no names, so MARK)
    return out


def _stem(pattern: str, name: str) -> str | None:
    """The stem of `name` matched against the target pattern (None: no match): a pattern
    without `/` matches the part after the name's last `/`, and the stem carries the
    directory, as make does. A glob in the name must lie inside the stem (else MARK)."""
    directory = ""
    if "/" not in pattern and "/" in name:
        directory, _, name = name.rpartition("/")
        directory += "/"
    before, _, after = pattern.partition("%")
    if not (name.startswith(before) and name.endswith(after) and len(name) >= len(before) + len(after)):
        if _tainted(name):
            # (a glob's matches may match when its literal ends allow: which, and how, is not
            # worked out)
            taints = [k for k, c in enumerate(name) if c in _TAINTS]
            head, tail = name[: taints[0]], name[taints[-1] + 1 :]
            # (a glob's `*` and `?` match no `/`: the pattern's directories are then literal)
            directories = before[: before.rfind("/") + 1] if MARK not in name else ""
            if (head.startswith(before) or before.startswith(head)) and (tail.endswith(after) or after.endswith(tail)) \
                    and head.startswith(directories):
                return MARK
        return None
    stem = name[len(before): len(name) - len(after)]
    if _tainted(before + after) or _tainted(name[: len(before)]) or _tainted(name[len(name) - len(after):]):
        return MARK
    return directory + stem


def _instance(prerequisite: str, name: str, stem: str) -> str:
    """A pattern rule's prerequisite for a match (`name`, `stem`): `%` is the stem (a pattern
    without `/` gets the stem's directory in front, which the stem carries already)."""
    return prerequisite.replace("%", stem, 1) if "%" in prerequisite else prerequisite


def _automatics(rule: _Rule, merged: dict[str, list[str]],
                stems: dict[str, list[tuple[str, str]]] | None) -> list[dict[str, str] | None]:
    """The automatic variables of each run of `rule`'s recipe (make runs it once per target):
    `@` the target, `<` the first prerequisite, `^`, `+`, `?` and `|` the prerequisites (all
    of them: a superset of the newer and the order-only ones), `*` the stem. A pattern's stem
    (and so the names built from it) is MARK, as is every value of a rule of unknown names;
    None: all MARK."""
    if not rule.known or len(rule.targets) > _PER_TARGET:
        return [None]
    out: list[dict[str, str] | None] = []
    for target in rule.targets or [""]:
        matched = stems.get(target) if stems is not None and "%" in target else None
        if matched is not None and len(matched) <= _PER_TARGET * 4:
            for name, stem in matched:
                own = [_instance(p, name, stem) for p in rule.prerequisites] if rule.prerequisites is not None else None
                if MARK in stem:
                    name = target.replace("%", MARK, 1)
                if own is None:
                    out.append({"@": name, "*": stem})
                    continue
                out.append({"@": name, "*": stem, "<": own[0] if own else "", "^": " ".join(dict.fromkeys(own)),
                            "+": " ".join(own), "?": " ".join(dict.fromkeys(own)), "|": " ".join(own)})
            continue
        if "%" in target or _suffix_rule(target):
            if "%" in target:
                made = target.replace("%", MARK, 1)
                own = [p.replace("%", MARK, 1) for p in rule.prerequisites] if rule.prerequisites is not None else None
            else:
                suffixes = target.split(".")
                made = MARK + ("." + suffixes[2] if len(suffixes) > 2 else "")
                own = [MARK + "." + suffixes[1]]
            if own is None:
                out.append({"@": made})
                continue
            out.append({"@": made, "<": own[0] if own else "", "^": " ".join(dict.fromkeys(own)),
                        "+": " ".join(own), "?": " ".join(dict.fromkeys(own)), "|": " ".join(own)})
            continue
        stem = MARK
        own = rule.prerequisites
        if rule.static is not None and target in rule.static:
            stem, own = rule.static[target]
        if own is None:
            out.append({"@": target, "*": stem})
            continue
        every = own + [p for p in merged.get(target, []) if p not in own]
        out.append({"@": target, "*": stem, "<": own[0] if own else (every[0] if every else ""),
                    "^": " ".join(dict.fromkeys(every)), "+": " ".join(every),
                    "?": " ".join(dict.fromkeys(every)), "|": " ".join(dict.fromkeys(every))})
    return out


def _called(reader: _Reader, inner: str) -> str | None:
    """The text `call NAME,ARG1,…` stands for: NAME's value as written, `$(1)`… its arguments
    (None: NAME has no value in the makefiles)."""
    pieces = _arguments(inner[5:])
    body = reader.raw.get(pieces[0].strip())
    if body is None:
        return None
    for k, argument in enumerate(pieces[1:], 1):
        body = body.replace(f"$({k})", argument).replace(f"${{{k}}}", argument).replace(f"${k}", argument)
    return body


def _arguments(text: str) -> list[str]:
    """A function's arguments: `text` split at its top-level commas."""
    out: list[str] = []
    start = 0
    for position, _ in _top_level(text, ","):
        out.append(text[start:position])
        start = position + 1
    out.append(text[start:])
    return out


def function_arguments(text: str) -> list[str]:
    """Every argument of every make function called in `text` (nested calls too): a variable
    may run one as a command (`RUN = $(if $(CI),bash x.sh)` … `$(RUN)`), so each is walked."""
    out: list[str] = []
    pending = [text]
    while pending:
        current = pending.pop()
        i = current.find("$")
        while 0 <= i < len(current) - 1:
            if current[i + 1] in "({":
                end = group_end(current, i)
                inner = current[i + 2 : end - 1]
                name, _, rest = inner.partition(" ")
                if name in _FUNCTIONS and rest:
                    for piece in _arguments(rest):
                        out.append(piece)
                        pending.append(piece)
                i = current.find("$", end)
            else:
                i = current.find("$", i + 2)
    return out


def _expanded_recipe(reader: _Reader, recipe: str, depth: int = 0) -> str:
    """A recipe line with make's expansions done: `$$` is `$`, a variable or function of
    known value is its text, `$(MAKE)` is `make`, `$(shell CMD)` is the shell's `$(CMD)`; a
    variable of unknown value (the environment's) stays spelled (to the shell, a value of
    unknown value); a value make computes that the reading does not work out (MARK) is the
    shell word `COMPUTED`, which fails closed where it is written."""
    out: list[str] = []
    for literal, inner, spelled in references(recipe):
        if inner is None:
            out.append(literal)
        elif inner in ("MAKE", "MAKE_COMMAND"):
            out.append("make")
        elif inner.startswith(("shell ", "shell\t")):
            out.append("$(" + _expanded_recipe(reader, inner[6:], depth + 1) + ")")
        else:
            value = reader.value(inner)
            if value is not None:
                out.append(value.replace(MARK, COMPUTED))
            elif len(spelled) == 2:
                out.append(spelled)  # (a one-letter variable of the environment)
            else:
                # (a function's arguments may hold `$(shell …)`: taken apart the same way)
                out.append(spelled[:2] + _expanded_recipe(reader, inner, depth + 1) + spelled[-1])
    return "".join(out)
