"""Covenant test files: the YAML format rule authors keep beside the config (docs/testing-disciplines.md).

    cases:
      - name: an added focused test is blocked
        edit: {path: src/app.test.ts, before: "it('a')\\n", after: "it.only('a')\\n"}
        expect: {no-focused-tests: blocked}
        exit: 2

The format is the msgspec Structs below: they decode a file (read with the config's own YAML
1.2 loader, so every value keeps its position) and they generate its JSON Schema
(`pdks schema tests`, stdlib/schemas/polydeukes-tests.schema.json), so the two cannot drift.
A broken file is a `CaseFileError` whose message ends in ` (at FILE:LINE:COL)`.
"""

from __future__ import annotations

import os
import re
from typing import Annotated, Any, Literal, Union

import msgspec
from msgspec import Meta

from polydeukes.compiler.source import SourceMap

DEFAULT_FILES = ("polydeukes.tests.yaml",)
DEFAULT_FOLDER = os.path.join("tests", "covenants")
# The call forms, exactly one per case. `edit`, `write`, `bash` become the IR Claude Code's hook
# would send; `delete` and `diff` are the change-set surface (`pdks covenant check --diff`).
CALL_FORMS = ("edit", "write", "delete", "bash", "diff", "ir")

Event = Annotated[Literal["passed", "advised", "blocked", "witnessed", "skipped", "not-routed"],
                  Meta(description="not-routed: the registration wrote no row for this call.")]
Text = Annotated[str, Meta(min_length=1)]


class _Closed(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    pass


class Edit(_Closed):
    """Claude Code's Edit: the file's text before, and either its whole text after or one
    `old` -> `new` replacement (with `replace_all`), applied under the tool's own rules."""

    path: Annotated[Text, Meta(description="Repo-relative path of the edited file.")]
    before: Annotated[str | None, Meta(description="The file's text before the edit.")] = None
    after: Annotated[str | None, Meta(description="The file's whole text after the edit.")] = None
    old: str | None = None
    new: str | None = None
    replace_all: bool | None = None


class Write(_Closed):
    """Claude Code's Write: the new content; `before` is the file's text if it exists."""

    path: Text
    content: str
    before: str | None = None


class Delete(_Closed):
    """A deleted file, as a staged change set shows it (`git diff --cached`)."""

    path: Text
    before: str


class Said(_Closed):
    text: str
    ago: Annotated[str | int, Meta(description="How long before the call: 90s, 5m, 2h, 1d, "
                                               "or milliseconds.")] = 0


class PriorCall(_Closed):
    """A tool call earlier in the session, with its outcome (null: no result recorded)."""

    name: Text
    args: dict[str, Any] = {}
    succeeded: bool | None = True


class RowExpectation(_Closed):
    event: Event
    relate: Annotated[str | None, Meta(
        description="The id of a relate entry the break lists in its witnesses.")] = None
    message: Annotated[str | None, Meta(
        description="A substring of the line the row's verdict printed on stderr.")] = None
    subject: Annotated[str | None, Meta(description="The judged path, or '-'.")] = None
    reason: Annotated[str | None, Meta(
        description="A skipped row's reason: no-observation, config-fault, supply-pass.")] = None


Expectation = Union[Event, RowExpectation, list[Union[Event, RowExpectation]]]


class Case(_Closed):
    name: Annotated[Text, Meta(description="The case's id; unique within its file.")]
    edit: Edit | None = None
    write: Write | None = None
    delete: Delete | None = None
    bash: Annotated[str | None, Meta(description="A shell command line (Claude Code's Bash).")] = None
    diff: Annotated[str | None, Meta(description="A unified diff (the change-set surface).")] = None
    ir: Annotated[dict[str, Any] | None, Meta(
        description="A CovenantInput as is, for any other call (session surface).")] = None
    files: Annotated[dict[str, str], Meta(
        description="Files in the case's working tree (read by file sources).")] = {}
    user_says: Annotated[list[Union[str, Said]], Meta(
        description="Human messages earlier in the session, newest last.")] = []
    prior_calls: list[PriorCall] = []
    spawns: Annotated[list[Union[str, dict[str, Any]]], Meta(
        description="Subagent spawn records (the sidecar channel); a string is an agentType.")] = []
    actor: Annotated[str | None, Meta(
        description="The subagent type the call comes from (absent: the main session).")] = None
    enforce: Annotated[Literal["block", "advise"], Meta(
        description="The run's posture; block is what agent hooks pass.")] = "block"
    unattended: bool = False
    expect: Annotated[dict[str, Expectation], Meta(
        description="Per discipline id or meta label: the event its row records.")] = {}
    exit: Annotated[Literal[0, 2] | None, Meta(description="The expected exit code.")] = None

    def form(self) -> str:
        return next(name for name in CALL_FORMS if getattr(self, name) is not None)


class CaseFile(_Closed):
    cases: list[Case]
    config: Annotated[str | None, Meta(
        description="The config these cases judge, relative to this file (default: the "
                    "project's).")] = None


class CaseFileError(Exception):
    """A test file that cannot be used; ``str(e)`` is one line ending in its location."""


class LoadedCase(msgspec.Struct, frozen=True):
    case: Case
    file: str  # as given on the command line or found
    line: int
    index: int  # position in its file, for --update

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"


class LoadedFile(msgspec.Struct):
    path: str
    text: str
    config: str | None  # the `config:` key resolved against the file's directory
    cases: list[LoadedCase]


def schema() -> dict[str, Any]:
    """The JSON Schema of a test file, from the same Structs the loader decodes with."""
    generated = msgspec.json.schema(CaseFile)
    case = generated["$defs"]["Case"]
    case["oneOf"] = [{"required": [form]} for form in CALL_FORMS]
    case["description"] = "One call (exactly one of " + ", ".join(CALL_FORMS) + ") and what it "
    case["description"] += "should record."
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "covenant test file (polydeukes.tests.yaml, tests/covenants/*.yaml)",
            **generated}


def find_files(root: str, paths: list[str]) -> list[str]:
    """The test files named (a folder: its *.yaml and *.yml), or the default places."""
    if not paths:
        found = [name for name in DEFAULT_FILES if os.path.isfile(os.path.join(root, name))]
        paths = found + ([DEFAULT_FOLDER] if os.path.isdir(os.path.join(root, DEFAULT_FOLDER))
                         else [])
    files = []
    for path in paths:
        full = os.path.join(root, path)
        if os.path.isdir(full):
            files.extend(os.path.join(path, name) for name in sorted(os.listdir(full))
                         if name.endswith((".yaml", ".yml")))
        elif os.path.exists(full):
            files.append(path)
        else:
            raise CaseFileError(f"no such test file or folder: {path}")
    return files


def load_file(root: str, path: str) -> LoadedFile:
    from polydeukes.compiler.diagnostics import ConfigError
    from polydeukes.compiler.load import parse_config_text

    from polydeukes.vm.safeio import PROJECT_FILE_LIMIT, read_regular, refusal_text

    try:  # a FIFO, a device or an endless file planted as a test file must not hang the run
        raw = read_regular(os.path.join(root, path), limit=PROJECT_FILE_LIMIT)
        text = raw.decode("utf-8")
    except OSError as exc:
        raise CaseFileError(f"cannot read {path}: {refusal_text(exc)}") from None
    except UnicodeDecodeError as exc:
        raise CaseFileError(f"{path} is not UTF-8 text (offset {exc.start})") from None
    try:
        data, source_map = parse_config_text(text, path)
    except ConfigError as exc:
        raise CaseFileError(exc.located().replace("failed to parse", "cannot read", 1)) from None
    try:
        decoded = msgspec.convert(data, CaseFile)
    except msgspec.ValidationError as exc:
        raise _located(str(exc), data, source_map, path) from None
    except UnicodeEncodeError:  # a `\ud800`-style escape: a lone surrogate is no text
        raise CaseFileError(f"{path} carries an escaped lone surrogate, which is not text") from None
    cases = []
    seen: dict[str, int] = {}
    for index, case in enumerate(decoded.cases):
        at = ("cases", index)
        forms = [name for name in CALL_FORMS if getattr(case, name) is not None]
        if len(forms) != 1:
            found = ", ".join(forms) if forms else "none"
            raise _error(f"case '{case.name}' needs exactly one of {', '.join(CALL_FORMS)} "
                         f"(found {found})", source_map, at)
        if case.name in seen:
            raise _error(f"case name '{case.name}' is used twice in {path}", source_map,
                         at + ("name",))
        seen[case.name] = index
        for said_index, said in enumerate(case.user_says):
            if isinstance(said, Said) and age_ms(said.ago) is None:
                raise _error(f"case '{case.name}' user_says[{said_index}].ago must be a "
                             "duration such as 90s, 5m, 2h, 1d, or milliseconds",
                             source_map, at + ("user_says", said_index, "ago"))
        for label, expected in case.expect.items():
            if isinstance(expected, list) and (not expected or any(
                    _event_of(item) == "not-routed" for item in expected)):
                raise _error(f"case '{case.name}' expect.{label}: a list names one row per "
                             "item and cannot be empty or say not-routed",
                             source_map, at + ("expect", label))
        span = source_map.span(at)
        cases.append(LoadedCase(case, path, span.line if span else 1, index))
    config = None
    if decoded.config is not None:
        config = os.path.normpath(os.path.join(os.path.dirname(path), decoded.config))
    return LoadedFile(path, text, config, cases)


def _event_of(item: Any) -> str:
    return item if isinstance(item, str) else item.event


_AGE = re.compile(r"(\d+)(ms|s|m|h|d)")
_UNIT_MS = {"ms": 1, "s": 1000, "m": 60_000, "h": 3_600_000, "d": 86_400_000}


def age_ms(value: str | int) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if value >= 0 else None
    match = _AGE.fullmatch(value.strip())
    return int(match.group(1)) * _UNIT_MS[match.group(2)] if match else None


def _error(message: str, source_map: SourceMap, path: tuple) -> CaseFileError:
    span = source_map.span(path)
    return CaseFileError(message + (f" (at {span})" if span else ""))


# msgspec names a dict's failing value `[...]`; these are the typed mappings of the format,
# checked value by value to find the key (and so the line) it means.
_MAPPING_VALUES = {"expect": Expectation, "files": str}
_UNKNOWN_FIELD = re.compile(r"Object contains unknown field `(.*)`$")
_PATH_PART = re.compile(r"\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+|\.\.\.)\]")


def _located(message: str, data: Any, source_map: SourceMap, file: str) -> CaseFileError:
    """A msgspec ValidationError (`… - at `$.cases[0].edit.path``) as `<file>: … (at F:L:C)`."""
    text, _, where = message.rpartition(" - at `")
    if not text:
        text, where = message, "$"
    path: list = []
    node = data
    for field, index in _PATH_PART.findall(where.rstrip("`")):
        if field:
            path.append(field)
            node = node.get(field) if isinstance(node, dict) else None
        elif index == "...":
            wanted = _MAPPING_VALUES.get(path[-1]) if path else None
            key = _failing_key(node, wanted) if wanted is not None else None
            if key is None:
                break
            path.append(key)
            node = node[key]
        else:
            path.append(int(index))
            node = node[int(index)] if isinstance(node, list) else None
    label = "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in path)
    label = label.lstrip(".") or "the file"
    unknown = _UNKNOWN_FIELD.match(text)
    if unknown:  # point at the key itself
        span = source_map.key_span(tuple(path) + (unknown.group(1),))
        return CaseFileError(f"{file}: {label}: {text}" + (f" (at {span})" if span else ""))
    return _error(f"{file}: {label}: {text}", source_map, tuple(path))


def _failing_key(node: Any, wanted: Any) -> str | None:
    if not isinstance(node, dict):
        return None
    for key, value in node.items():
        try:
            msgspec.convert(value, wanted)
        except msgspec.ValidationError:
            return key
    return None


__all__ = ["Case", "CaseFile", "CaseFileError", "LoadedCase", "LoadedFile", "age_ms",
           "find_files", "load_file", "schema"]
