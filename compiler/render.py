"""A declaration AST -> its textual form (grammar/declarations.lark, part 1).

`pdks explain --source` prints every declaration this way, and the text reads back to the same
AST: parse -> check -> render -> parse -> check is the identity up to spans
(tests/test_declare_roundtrip.py). Defaults are left out (`strict: false`, an empty include
list), exactly as the checker fills them in when they are absent.
"""

from __future__ import annotations

import json
import math
from typing import Any

import msgspec

from polydeukes.compiler import nodes
from polydeukes.compiler.parse import BAREWORD, node_class, vocabulary

_INDENT = "  "


def render_declaration_text(decl: nodes.Declaration) -> str:
    """The declaration in the textual form, one clause or pipeline or relate entry a line."""
    lines = [f"mechanism {render_value(decl.mechanism)}"]
    if decl.scope is not None:
        lines.append(_scope(decl.scope))
    if decl.sources:
        lines.append("sources " + ", ".join(_binding(b) for b in decl.sources))
    if decl.supply:
        supply = (f"{render_name(s.source)}: {render_value(s.policy)}" for s in decl.supply)
        lines.append("supply " + ", ".join(supply))
    lines += _extract(decl.extract, "")
    lines += _relate(decl.relate, "")
    if decl.witness is not None:
        lines.append("witness")
        if decl.witness.extract:
            lines += _extract(decl.witness.extract, _INDENT)
        lines += _relate(decl.witness.relate, _INDENT)
    return "\n".join(lines) + "\n"


def _scope(scope: nodes.Scope) -> str:
    text = f"scope {render_value(scope.source)}"
    if scope.include:
        text += f" include {render_value(list(scope.include))}"
    if scope.exclude:
        text += f" exclude {render_value(list(scope.exclude))}"
    if scope.exclude_ignore_case:
        text += " excludeIgnoreCase true"
    return text


def _binding(binding: nodes.Binding) -> str:
    text = f"{render_name(binding.name)} = {binding.kind}"
    if binding.file is not None:
        text += f" {render_value(binding.file)}"
    return text


def _extract(pipelines: tuple[nodes.Pipeline, ...], indent: str) -> list[str]:
    lines = [f"{indent}extract"]
    for pipeline in pipelines:
        calls = [_node_call(pipeline.combinator)] if pipeline.combinator is not None else []
        calls += [_step(step) for step in pipeline.steps]
        lines.append(f"{indent}{_INDENT}{render_name(pipeline.name)} = " + " | ".join(calls))
    return lines


def _relate(entries: tuple[nodes.RelateEntry, ...], indent: str) -> list[str]:
    lines = [f"{indent}relate"]
    for entry in entries:
        text = f"{indent}{_INDENT}{render_name(entry.id)}: {_node_call(entry.relation)}"
        if entry.message is not None:
            text += f" message {render_value(entry.message)}"
        if entry.message_by_side is not None:
            sides = {"left": entry.message_by_side.left, "right": entry.message_by_side.right}
            text += f" messageBySide {render_value(sides)}"
        lines.append(text)
    return lines


def _step(step: nodes.Step) -> str:
    arguments = [(argument.name, argument.value) for argument in step.arguments]
    return _call(step.op, arguments)


def _node_call(node: Any) -> str:
    """A combinator or relation node as `op(argument: value, ...)`, defaults left out."""
    name = _call_names()[type(node)]
    arguments = []
    for field in msgspec.structs.fields(node):
        if field.name == "span":
            continue
        value = getattr(node, field.name)
        if field.default is not msgspec.NODEFAULT and value == field.default:
            continue
        arguments.append((field.encode_name, list(value) if isinstance(value, tuple) else value))
    return _call(name, arguments)


def _call_names() -> dict[type, str]:
    vocab = vocabulary()
    families = (*vocab.combinators.values(), *vocab.relations.values())
    return {node_class(signature.rule): signature.name for signature in families}


def _call(op: str, arguments: list[tuple[str, Any]]) -> str:
    if not arguments:
        return render_name(op)
    inner = ", ".join(f"{render_name(name)}: {render_value(value)}" for name, value in arguments)
    return f"{render_name(op)}({inner})"


def render_name(name: str) -> str:
    """A name bare when the grammar reads it back as that name, quoted otherwise."""
    if BAREWORD.fullmatch(name) and name not in vocabulary().keywords:
        return name
    return _quote(name)


def render_value(value: Any) -> str:
    """Plain YAML/JSON data in the textual form's value syntax."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return ".nan"
        if math.isinf(value):
            return ".inf" if value > 0 else "-.inf"
        return repr(value)
    if isinstance(value, str):
        return render_name(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(render_value(item) for item in value) + "]"
    if isinstance(value, dict):
        members = (f"{render_name(k)}: {render_value(v)}" for k, v in value.items())
        return "{" + ", ".join(members) + "}"
    raise TypeError(f"not declaration data: {type(value).__name__}")


def _quote(text: str) -> str:
    # Raw single quotes keep regexes readable (backslashes as written); text that a line
    # cannot carry (line breaks, controls) takes JSON escapes.
    if text.isprintable():
        return "'" + text.replace("'", "''") + "'"
    return json.dumps(text, ensure_ascii=False)
