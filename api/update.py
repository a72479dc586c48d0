"""`pdks test --update`: rewrite failing cases' `expect` (and `exit`) from their actual rows.

Only the text of those values changes: the file is edited in place at the positions YAML
reports for them, so every comment, every other case and the rest of each case stay as written.
A value keeps its style (a flow `{…}` stays on one line, a block mapping stays a block at its
indentation); a case without `expect` gets one after its last key.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any

import yaml

from polydeukes.casefile import LoadedFile, RowExpectation
from polydeukes.testing import CaseResult, display_subject, relate_ids

_PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-/]*")
_YAML_WORDS = {"true", "false", "null", "yes", "no", "on", "off", "y", "n", "~"}


def new_expectation(result: CaseResult) -> dict[str, Any]:
    """Per label the case named (all labels with rows when it named none): the actual rows,
    keeping the detail fields the old expectation used."""
    case, verdict, root = result.loaded.case, result.verdict, result.root
    labels = list(case.expect) or list(dict.fromkeys(row.label for row in verdict.rows))
    expectation: dict[str, Any] = {}
    for label in labels:
        old = case.expect.get(label)
        rows = verdict.of(label)
        if not rows:
            expectation[label] = "not-routed"
            continue
        items = []
        for index, row in enumerate(rows):
            model = old[min(index, len(old) - 1)] if isinstance(old, list) else old
            items.append(_row_expectation(row, model, root))
        expectation[label] = items[0] if len(items) == 1 else items
    return expectation


def _row_expectation(row, model: Any, root: str) -> Any:
    if not isinstance(model, RowExpectation):
        return row.event
    value: dict[str, Any] = {"event": row.event}
    if model.subject is not None:
        value["subject"] = display_subject(row.subject, root)
    if model.relate is not None and relate_ids(row):
        value["relate"] = relate_ids(row)[0]
    if model.reason is not None and row.event == "skipped" and row.detail:
        value["reason"] = row.detail
    if model.message is not None and row.message:
        value["message"] = model.message if model.message in row.message else row.message
    return value


def rewrite_expectations(root: str, files: list[LoadedFile], failed: list[CaseResult]) -> list[str]:
    """Rewrite every failing case in place; returns one report line per file."""
    lines = []
    for loaded in files:
        mine = [result for result in failed if result.loaded.file == loaded.path]
        if not mine:
            continue
        text = rewritten(loaded.text, mine)
        path = os.path.join(root, loaded.path)
        temporary = path + ".pdks-update"
        with open(temporary, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        os.replace(temporary, path)
        lines.append(f"updated {len(mine)} case(s) in {loaded.path}")
    return lines


def rewritten(text: str, results: list[CaseResult]) -> str:
    """The file's text with each result's case expectations replaced (edits applied from the
    end of the file backwards, so earlier offsets stay valid)."""
    offsets = _line_offsets(text)
    root_node = yaml.compose(text, Loader=yaml.SafeLoader)
    cases = _value(root_node, "cases")
    edits: list[tuple[int, int, str]] = []
    for result in results:
        case_node = cases.value[result.loaded.index]
        keys = {key.value: (key, value) for key, value in case_node.value}
        expectation = new_expectation(result)
        verdict = result.verdict
        wants_exit = "exit" in keys or not result.loaded.case.expect
        replacements = [("expect", expectation)]
        if wants_exit:
            replacements.append(("exit", verdict.exit_code))
        for key, value in replacements:
            if key in keys:
                node = keys[key][1]
                start = _index(offsets, node.start_mark)
                end = _index(offsets, _end_mark(node))
                edits.append((start, end, _render(value, node, indent=node.start_mark.column)))
            else:
                last = case_node.value[-1][1]
                at = _index(offsets, _end_mark(last))
                column = case_node.value[0][0].start_mark.column
                if case_node.flow_style:
                    edits.append((at, at, f", {key}: {_flow(value)}"))
                else:
                    edits.append((at, at, "\n" + " " * column + f"{key}: "
                                  + _render(value, None, indent=column + 2)))
    # From the end backwards; two insertions at one point keep their order (expect, then exit).
    ordered = sorted(enumerate(edits), key=lambda item: (item[1][0], item[0]), reverse=True)
    for _, (start, end, replacement) in ordered:
        text = text[:start] + replacement + text[end:]
    return text


def _value(mapping: yaml.MappingNode, key: str) -> Any:
    for key_node, value_node in mapping.value:
        if key_node.value == key:
            return value_node
    raise KeyError(key)


def _end_mark(node: yaml.Node):
    """Where a value's own text ends: a block collection ends at its last value, not at the
    next key (which would take the comments in between along)."""
    if isinstance(node, yaml.MappingNode) and not node.flow_style and node.value:
        return _end_mark(node.value[-1][1])
    if isinstance(node, yaml.SequenceNode) and not node.flow_style and node.value:
        return _end_mark(node.value[-1])
    return node.end_mark


def _line_offsets(text: str) -> list[int]:
    offsets = [0]
    for line in text.split("\n"):
        offsets.append(offsets[-1] + len(line) + 1)
    return offsets


def _index(offsets: list[int], mark) -> int:
    return offsets[mark.line] + mark.column


def _render(value: Any, node: yaml.Node | None, *, indent: int) -> str:
    """A value in the style of the node it replaces: flow on one line, or a block mapping."""
    flow = node is None or getattr(node, "flow_style", True) or not isinstance(value, dict)
    if flow or not value:
        return _flow(value)
    lines = []
    for key, item in value.items():
        lines.append(f"{_scalar(key)}: {_flow(item)}")
    return ("\n" + " " * indent).join(lines)


def _flow(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_scalar(k)}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(item) for item in value) + "]"
    return _scalar(value)


def _scalar(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int):
        return str(value)
    text = str(value)
    if _PLAIN.fullmatch(text) and text.lower() not in _YAML_WORDS:
        return text
    return json.dumps(text, ensure_ascii=False)
