"""Load-time checks of a `declare` block (spec 03 §17.1 then §15.3) and its channels (§16.1).

Both surface forms arrive here as plain data: the YAML mapping as loaded, the textual form
through compiler/parse.py (see there for how the two meet). The checks run in the spec's order —
unknown keys, mechanism type, sources, scope, supply, extract, the body reference graph, relate,
witness, then the catalogue — and the first failure raises ConfigValidationError with the
spec's text and the position of the offending value (inside a textual declaration too).
The unary step vocabulary stays open here (§17.1): steps are kept as written and resolved by
compiler/resolve.py, whose failures are compile faults, not load errors.
"""

from __future__ import annotations

from typing import Any

from polydeukes.compiler import catalogue
from polydeukes.compiler import declaration_messages as M
from polydeukes.compiler import nodes
from polydeukes.compiler.diagnostics import ConfigValidationError
from polydeukes.compiler.parse import TextSyntaxError, node_class, parse_text, vocabulary
from polydeukes.compiler.source import SourceMap
from polydeukes.vm.values import js_string  # JS String(), as messages interpolate it

# The sources whose value is a string, besides `file` bindings: what a scope can search (§4).
_STRING_VALUED = ("target.path", "pre", "post", "command")

# §16.1: channel names in their fixed order, and the source steps that reveal them.
_CHANNELS = ("transcript", "channel", "command", "actor", "changes")
_SOURCE_CHANNELS = ("command", "actor", "changes")


# -- channels (§16.1, spec 02 §7.2) ------------------------------------------------------------


def declaration_channels(body: Any) -> list[str]:
    """The evidence channels a declaration reads, syntactically; never raises on any input.

    A textual body is read first; text that does not read has no channels (the grammar
    check reports it afterwards).
    """
    if isinstance(body, str):
        try:
            body = parse_text(body).data
        except (TextSyntaxError, RecursionError):
            return []
    if not isinstance(body, dict):
        return []
    found: set[str] = set()
    sources = body.get("sources")
    if isinstance(sources, dict):
        for binding in sources.values():
            if isinstance(binding, dict):
                if "transcript" in binding:
                    found.add("transcript")
                if "sidecar" in binding:
                    found.add("channel")
    scope = body.get("scope")
    if isinstance(scope, dict) and _is(scope.get("source"), "command"):
        found.add("command")
    witness = body.get("witness")
    blocks = [body.get("extract"), witness.get("extract") if isinstance(witness, dict) else None]
    for block in blocks:
        if not isinstance(block, dict):
            continue
        for steps in block.values():
            if not isinstance(steps, list):
                continue
            for step in steps:
                if isinstance(step, dict) and _is(step.get("op"), "source"):
                    of = step.get("of")
                    for channel in _SOURCE_CHANNELS:
                        if _is(of, channel):
                            found.add(channel)
    return [channel for channel in _CHANNELS if channel in found]


def _is(value: Any, text: str) -> bool:
    return isinstance(value, str) and value == text


# -- the load-time check -----------------------------------------------------------------------


def check_declaration(
    body: Any, *, where: str, path: tuple, source_map: SourceMap
) -> nodes.Declaration:
    """Every load-time check of a `declare` value; returns its typed AST.

    `where` is the message prefix `<loc> declare`; `path` the YAML path of the value.
    Raises ConfigValidationError at the first failure, in the spec's order.
    """
    if isinstance(body, str):
        body = _read_text(body, where=where, path=path, source_map=source_map)
    declaration = _Checker(where, tuple(path), source_map).declaration(body)
    catalogue.check_catalogue(declaration, where)
    return declaration


def _read_text(text: str, *, where: str, path: tuple, source_map: SourceMap) -> dict:
    """A textual declaration -> plain data, its positions grafted into the SourceMap."""
    try:
        parsed = parse_text(text)
    except TextSyntaxError as exc:
        raise ConfigValidationError(
            M.TEXT_SYNTAX.format(where=where, problem=exc.problem),
            source_map.text_position(path, exc.offset),
        ) from None
    except RecursionError:
        raise ConfigValidationError(
            M.TEXT_SYNTAX.format(where=where, problem=M.TEXT_TOO_DEEP),
            source_map.span(path),
        ) from None
    spans = {}
    for sub, offset in parsed.offsets.items():
        span = source_map.text_position(path, offset)
        if span is not None:
            spans[sub] = span
    source_map.graft(path, spans)
    return parsed.data


def _quoted(names) -> str:
    return ", ".join(f"'{name}'" for name in names)


def _non_empty_string(value: Any) -> bool:
    return isinstance(value, str) and value != ""


class _Missing:
    """An absent key, as JS would interpolate it."""

    def __str__(self) -> str:
        return "undefined"


_MISSING = _Missing()


class _Checker:
    def __init__(self, where: str, root: tuple, source_map: SourceMap) -> None:
        self.where = where
        self.root = root
        self.source_map = source_map
        self.vocab = vocabulary()

    # -- helpers -------------------------------------------------------------------------------
    def span(self, *sub):
        return self.source_map.span(self.root + sub)

    def fail(self, message: str, *sub) -> ConfigValidationError:
        return ConfigValidationError(message, self.span(*sub))

    def unknown_key(self, key: str, where: str, *sub) -> ConfigValidationError:
        span = self.source_map.key_span(self.root + sub + (key,))
        return ConfigValidationError(M.UNKNOWN_KEY.format(key=key, where=where), span)

    def closed(self, data: dict, allowed, where: str, *sub) -> None:
        for key in data:
            if key not in allowed:
                raise self.unknown_key(key, where, *sub)

    # -- the block -----------------------------------------------------------------------------
    def declaration(self, data: dict) -> nodes.Declaration:
        w = self.where
        self.closed(data, self.vocab.declare_keys, w)
        mechanism = data.get("mechanism")
        if not _non_empty_string(mechanism):
            raise self.fail(M.MECHANISM_NOT_STRING.format(where=w), "mechanism")
        sources = self.sources(data["sources"]) if "sources" in data else ()
        bound = [binding.name for binding in sources]
        files = [binding.name for binding in sources if binding.kind == "file"]
        scope = self.scope(data["scope"], files) if "scope" in data else None
        supply = self.supply(data["supply"], bound) if "supply" in data else ()
        if "extract" not in data:
            raise self.fail(M.EXTRACT_MISSING.format(where=w))
        extract = self.extract(data["extract"], "extract", ("extract",), body=())
        self.references(extract, "extract", ("extract",), known=())
        if "relate" not in data:
            raise self.fail(M.RELATE_MISSING.format(where=w))
        ids: list[str] = []
        names = [pipeline.name for pipeline in extract]
        relate = self.relate(data["relate"], "relate", ("relate",), names, ids)
        witness = None
        if "witness" in data:
            witness = self.witness(data["witness"], extract, ids)
        return nodes.Declaration(
            mechanism=mechanism, scope=scope, sources=sources, supply=supply, extract=extract,
            relate=relate, witness=witness, span=self.span(),
        )

    # -- sources -------------------------------------------------------------------------------
    def sources(self, data: Any) -> tuple[nodes.Binding, ...]:
        w = self.where
        if not isinstance(data, dict):
            raise self.fail(M.SOURCES_NOT_OBJECT.format(where=w), "sources")
        result = []
        for name, binding in data.items():
            at = ("sources", name)
            if name == "":
                raise self.fail(M.SOURCES_EMPTY_NAME.format(where=w), *at)
            if name in self.vocab.fixed_sources:
                raise self.fail(
                    M.SOURCES_SHADOWS.format(
                        where=w, name=name, names=_quoted(self.vocab.fixed_sources)
                    ),
                    *at,
                )
            if not isinstance(binding, dict):
                raise self.fail(M.BINDING_NOT_OBJECT.format(where=w, name=name), *at)
            self.closed(binding, self.vocab.binding_kinds, f"{w}.sources.{name}", *at)
            if len(binding) != 1:
                raise self.fail(
                    M.BINDING_KIND_COUNT.format(
                        where=w, name=name, names=_quoted(self.vocab.binding_kinds)
                    ),
                    *at,
                )
            ((kind, value),) = binding.items()
            if kind == "file":
                if not _non_empty_string(value):
                    raise self.fail(M.FILE_NOT_STRING.format(where=w, name=name), *at, kind)
                if value.startswith("/"):
                    raise self.fail(
                        M.FILE_ABSOLUTE.format(where=w, name=name, path=value), *at, kind
                    )
                if ".." in value.split("/"):
                    raise self.fail(
                        M.FILE_DOT_DOT.format(where=w, name=name, path=value), *at, kind
                    )
                result.append(nodes.Binding(name=name, kind=kind, file=value, span=self.span(*at)))
            else:
                if value is not True:
                    raise self.fail(
                        M.BINDING_NOT_TRUE.format(where=w, name=name, kind=kind), *at, kind
                    )
                result.append(nodes.Binding(name=name, kind=kind, span=self.span(*at)))
        return tuple(result)

    # -- scope ---------------------------------------------------------------------------------
    def scope(self, data: Any, files: list[str]) -> nodes.Scope:
        w = self.where
        if not isinstance(data, dict):
            raise self.fail(M.SCOPE_NOT_OBJECT.format(where=w), "scope")
        self.closed(data, self.vocab.scope_keys, f"{w} scope", "scope")
        source = data.get("source")
        if not _non_empty_string(source):
            raise self.fail(M.SCOPE_SOURCE_NOT_STRING.format(where=w), "scope", "source")
        if source not in _STRING_VALUED and source not in files:
            raise self.fail(
                M.SCOPE_SOURCE_NOT_STRING_VALUED.format(where=w, source=source),
                "scope", "source",
            )
        lists = {}
        for key in ("include", "exclude"):
            patterns = data.get(key, [])
            if not isinstance(patterns, list) or not all(isinstance(p, str) for p in patterns):
                raise self.fail(
                    M.SCOPE_PATTERNS_NOT_STRINGS.format(where=w, key=key), "scope", key
                )
            lists[key] = tuple(patterns)
        ignore_case = data.get("excludeIgnoreCase", False)
        if not isinstance(ignore_case, bool):
            raise self.fail(
                M.SCOPE_IGNORE_CASE_NOT_BOOLEAN.format(where=w), "scope", "excludeIgnoreCase"
            )
        from polydeukes.compiler.regex import RegexRefused
        from polydeukes.compiler.resolve import translate_pattern

        for key, flag in (("include", False), ("exclude", ignore_case)):
            for index, pattern in enumerate(lists[key]):
                try:
                    translate_pattern(pattern, flag)
                except RegexRefused as exc:
                    if exc.syntax_error:
                        message = M.SCOPE_PATTERN_NOT_COMPILABLE.format(where=w, key=key)
                    else:
                        message = M.SCOPE_PATTERN_REFUSED.format(
                            where=w, key=key, pattern=pattern, reason=exc.reason
                        )
                    raise self.fail(message, "scope", key, index) from None
        return nodes.Scope(
            source=source, include=lists["include"], exclude=lists["exclude"],
            exclude_ignore_case=ignore_case, span=self.span("scope"),
        )

    # -- supply --------------------------------------------------------------------------------
    def supply(self, data: Any, bound: list[str]) -> tuple[nodes.Supply, ...]:
        w = self.where
        if not isinstance(data, dict):
            raise self.fail(M.SUPPLY_NOT_OBJECT.format(where=w), "supply")
        result = []
        for source, policy in data.items():
            if source not in self.vocab.fixed_sources and source not in bound:
                template = M.SUPPLY_UNKNOWN_SOURCE_BOUND if bound else M.SUPPLY_UNKNOWN_SOURCE
                raise ConfigValidationError(
                    template.format(
                        where=w, source=source, names=_quoted(self.vocab.fixed_sources),
                        bound=_quoted(bound),
                    ),
                    self.source_map.key_span(self.root + ("supply", source)),
                )
            if not isinstance(policy, str) or policy not in self.vocab.supply_policies:
                raise self.fail(
                    M.SUPPLY_POLICY.format(
                        where=w, source=source, value=js_string(policy),
                        names=_quoted(self.vocab.supply_policies),
                    ),
                    "supply", source,
                )
            if source == "state" and policy == "empty":
                raise self.fail(M.SUPPLY_STATE_EMPTY.format(where=w), "supply", source)
            result.append(nodes.Supply(source=source, policy=policy, span=self.span("supply", source)))
        return tuple(result)

    # -- extract -------------------------------------------------------------------------------
    def extract(
        self, data: Any, block: str, at: tuple, *, body: tuple[nodes.Pipeline, ...]
    ) -> tuple[nodes.Pipeline, ...]:
        w = self.where
        if not isinstance(data, dict):
            raise self.fail(M.EXTRACT_NOT_OBJECT.format(where=w, block=block), *at)
        body_names = {pipeline.name for pipeline in body}
        result = []
        for name, steps in data.items():
            if name in body_names:
                raise self.fail(M.WITNESS_SHADOWS.format(where=w, name=name), *at, name)
            if not isinstance(steps, list) or not steps:
                raise self.fail(
                    M.PIPELINE_NOT_ARRAY.format(where=w, block=block, name=name), *at, name
                )
            combinator = None
            unary = []
            for index, step in enumerate(steps):
                step_at = at + (name, index)
                names = dict(where=w, block=block, name=name, index=index)
                if not isinstance(step, dict):
                    raise self.fail(M.STEP_NOT_OBJECT.format(**names), *step_at)
                op = step.get("op")
                if not _non_empty_string(op):
                    raise self.fail(M.STEP_OP_NOT_STRING.format(**names), *step_at, "op")
                if op in self.vocab.combinators:
                    if index > 0:
                        raise self.fail(M.COMBINATOR_NOT_FIRST.format(**names), *step_at)
                    combinator = self.combinator(step, op, names, step_at)
                    continue
                if isinstance(step.get("of"), list) or "notIn" in step:
                    raise self.fail(
                        M.STEP_UNKNOWN_COMBINATOR.format(
                            op=op, names=_quoted(self.vocab.combinators), **names
                        ),
                        *step_at, "op",
                    )
                arguments = tuple(
                    nodes.Argument(name=key, value=value, span=self.span(*step_at, key))
                    for key, value in step.items()
                    if key != "op"
                )
                unary.append(nodes.Step(op=op, arguments=arguments, span=self.span(*step_at)))
            result.append(
                nodes.Pipeline(
                    name=name, combinator=combinator, steps=tuple(unary),
                    span=self.span(*at, name),
                )
            )
        return tuple(result)

    def combinator(self, step: dict, op: str, names: dict, at: tuple) -> nodes.Combinator:
        signature = self.vocab.combinators[op]
        allowed = ["op", *(argument.name for argument in signature.arguments)]
        self.closed(step, allowed, M.STEP_COMBINATOR_WHERE.format(op=op, **names), *at)
        values = {}
        for argument in signature.arguments:
            value = step.get(argument.name)
            if argument.kind == "extract_pair":
                if not (
                    isinstance(value, list)
                    and len(value) == 2
                    and all(_non_empty_string(v) for v in value)
                ):
                    raise self.fail(M.PAIR_SHAPE.format(op=op, **names), *at, argument.name)
                if value[0] == value[1]:
                    raise self.fail(
                        M.PAIR_SAME.format(op=op, ref=value[0], **names), *at, argument.name
                    )
                value = tuple(value)
            elif not isinstance(value, str):
                raise self.fail(M.ONLY_IN_SHAPE.format(**names), *at)
            values[argument.name] = value
        pair = list(values.values())
        if len(pair) == 2 and pair[0] == pair[1]:
            raise self.fail(M.ONLY_IN_SAME.format(ref=pair[0], **names), *at)
        return nodes.build(node_class(signature.rule), values, self.span(*at))

    def references(
        self, pipelines: tuple[nodes.Pipeline, ...], block: str, at: tuple, *, known: tuple
    ) -> None:
        """Combinator references must exist (§7.2) and must not form a cycle."""
        w = self.where
        defined = {p.name for p in known} | {p.name for p in pipelines}
        for pipeline in pipelines:
            for ref in pipeline.references():
                if ref not in defined:
                    raise self.fail(
                        M.REFERENCE_UNDEFINED.format(
                            where=w, block=block, name=pipeline.name, ref=ref
                        ),
                        *at, pipeline.name, 0,
                    )
        graph = {p.name: p.references() for p in pipelines}
        for pipeline in pipelines:
            if _reaches(graph, pipeline.name, pipeline.name):
                raise self.fail(
                    M.REFERENCE_CYCLE.format(where=w, block=block, name=pipeline.name),
                    *at, pipeline.name,
                )

    # -- relate --------------------------------------------------------------------------------
    def relate(
        self, data: Any, block: str, at: tuple, in_scope: list[str], ids: list[str]
    ) -> tuple[nodes.RelateEntry, ...]:
        w = self.where
        if not isinstance(data, list) or not data:
            raise self.fail(M.RELATE_NOT_ARRAY.format(where=w, block=block), *at)
        result = []
        for index, entry in enumerate(data):
            entry_at = at + (index,)
            names = dict(where=w, block=block, index=index)
            if not isinstance(entry, dict):
                raise self.fail(M.RELATE_ENTRY_NOT_OBJECT.format(**names), *entry_at)
            self.closed(
                entry, self.vocab.relate_keys, M.RELATE_ENTRY_WHERE.format(**names), *entry_at
            )
            entry_id = entry.get("id")
            if not _non_empty_string(entry_id):
                raise self.fail(M.RELATE_ID_NOT_STRING.format(**names), *entry_at, "id")
            if entry_id in ids:
                raise self.fail(
                    M.RELATE_DUPLICATE_ID.format(id=entry_id, **names), *entry_at, "id"
                )
            ids.append(entry_id)
            names["id"] = entry_id
            relation, op = self.relation(entry.get("relation"), names, entry_at + ("relation",))
            for ref in nodes.relation_references(relation):
                if ref not in in_scope:
                    raise self.fail(
                        M.RELATE_UNDEFINED.format(ref=ref, **names), *entry_at, "relation"
                    )
            message, by_side = self.message(entry, op, names, entry_at)
            result.append(
                nodes.RelateEntry(
                    id=entry_id, relation=relation, message=message, message_by_side=by_side,
                    span=self.span(*entry_at),
                )
            )
        return tuple(result)

    def relation(self, data: Any, names: dict, at: tuple) -> tuple[nodes.Relation, str]:
        if not isinstance(data, dict):
            raise self.fail(M.RELATION_NOT_OBJECT.format(**names), *at)
        op = data.get("op", _MISSING)
        if not isinstance(op, str) or op not in self.vocab.relations:
            raise self.fail(
                M.RELATION_UNKNOWN_OP.format(
                    op=op if isinstance(op, _Missing) else js_string(op),
                    names=_quoted(self.vocab.relations), **names,
                ),
                *at, "op",
            )
        signature = self.vocab.relations[op]
        allowed = ["op", *(argument.name for argument in signature.arguments)]
        self.closed(data, allowed, M.RELATION_WHERE.format(op=op, **names), *at)
        values = {}
        for argument in signature.arguments:
            if argument.name not in data and not argument.required:
                continue
            value = data.get(argument.name)
            if argument.kind == "extract_pair":
                if not (
                    isinstance(value, list)
                    and len(value) == 2
                    and all(_non_empty_string(v) for v in value)
                ):
                    raise self.fail(M.RELATION_EQUAL_SHAPE.format(**names), *at, argument.name)
                if value[0] == value[1]:
                    raise self.fail(
                        M.RELATION_EQUAL_SAME.format(ref=value[0], **names), *at, argument.name
                    )
                value = tuple(value)
            elif argument.kind == "extract_name":
                if not _non_empty_string(value):
                    raise self.fail(
                        M.RELATION_NEEDS_NAME.format(op=op, argument=argument.name, **names),
                        *at, argument.name,
                    )
            elif argument.kind == "flag":
                if not isinstance(value, bool):
                    raise self.fail(
                        M.RELATION_FLAG.format(op=op, argument=argument.name, **names),
                        *at, argument.name,
                    )
            else:  # pragma: no cover - the grammar gives relations no other argument kind
                raise AssertionError(argument.kind)
            values[argument.name] = value
        return nodes.build(node_class(signature.rule), values, self.span(*at)), op

    def message(self, entry: dict, op: str, names: dict, at: tuple):
        has_message = "message" in entry
        has_by_side = "messageBySide" in entry
        if has_message == has_by_side:
            raise self.fail(M.MESSAGE_EXACTLY_ONE.format(**names), *at)
        if has_message:
            if not _non_empty_string(entry["message"]):
                raise self.fail(M.MESSAGE_NOT_STRING.format(**names), *at, "message")
            return entry["message"], None
        if op != "equal":
            raise self.fail(
                M.MESSAGE_BY_SIDE_RELATION.format(op=op, **names), *at, "messageBySide"
            )
        by_side = entry["messageBySide"]
        if not isinstance(by_side, dict):
            raise self.fail(M.MESSAGE_BY_SIDE_NOT_OBJECT.format(**names), *at, "messageBySide")
        self.closed(
            by_side, self.vocab.message_sides, M.MESSAGE_BY_SIDE_WHERE.format(**names),
            *at, "messageBySide",
        )
        if not all(_non_empty_string(by_side.get(side)) for side in self.vocab.message_sides):
            raise self.fail(M.MESSAGE_BY_SIDE_SIDES.format(**names), *at, "messageBySide")
        sides = nodes.MessageBySide(
            left=by_side["left"], right=by_side["right"], span=self.span(*at, "messageBySide")
        )
        return None, sides

    # -- witness (§14) -------------------------------------------------------------------------
    def witness(
        self, data: Any, body: tuple[nodes.Pipeline, ...], ids: list[str]
    ) -> nodes.Witness:
        w = self.where
        if not isinstance(data, dict):
            raise self.fail(M.WITNESS_NOT_OBJECT.format(where=w), "witness")
        self.closed(data, self.vocab.witness_keys, M.WITNESS_WHERE.format(where=w), "witness")
        extract: tuple[nodes.Pipeline, ...] = ()
        if "extract" in data:
            at = ("witness", "extract")
            extract = self.extract(data["extract"], "witness.extract", at, body=body)
            self.references(extract, "witness.extract", at, known=body)
        in_scope = [p.name for p in body] + [p.name for p in extract]
        relate = self.relate(
            data.get("relate"), "witness relate", ("witness", "relate"), in_scope, ids
        )
        return nodes.Witness(extract=extract, relate=relate, span=self.span("witness"))


def _reaches(graph: dict[str, tuple[str, ...]], start: str, target: str) -> bool:
    seen: set[str] = set()
    pending = list(graph.get(start, ()))
    while pending:
        name = pending.pop()
        if name == target:
            return True
        if name not in seen:
            seen.add(name)
            pending.extend(graph.get(name, ()))
    return False
