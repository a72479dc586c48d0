"""The declaration grammar: its vocabulary and its textual form (spec 03; grammar/declarations.lark).

How the two surface forms meet
------------------------------
A `declare` block arrives either as a YAML mapping (the compatibility form every config uses)
or as a string in the compact textual form. Both become the *same plain data* first: the YAML
loader already gives a mapping, and `parse_text` turns the text into exactly the mapping the
YAML form would have spelled (`a = source(of: pre) | lines` is `{a: [{op: source, of: pre},
{op: lines}]}`), together with the character offset of every value by data path. From there
one code path, compiler/declare.py, runs the load-time checks of spec 03 §17.1 and §15.3 and
builds the typed AST (compiler/nodes.py). So both forms meet the same messages in the same
order, and a fault inside a text points into the text (declare.py rebases the offsets onto the
YAML file with SourceMap.text_position and grafts them into the SourceMap).
compiler/render.py writes an AST back as text, and parse -> check -> render -> parse -> check
gives the same AST (tests/test_declare_roundtrip.py).

Where the vocabulary lives
--------------------------
Only in grammar/declarations.lark. Its second part writes every closed set of the algebra
(mechanisms, keys, fixed sources, binding kinds, supply policies) as a rule whose alternatives
are the names, and every combinator, relation, step and filter operator as a signature rule
(`key_by_pattern: "keyByPattern" "(" "re" ":" pattern ["," "i" ":" flag] ")"`). `vocabulary()`
reads those rules from the Lark parser built once per process and derives the Python registries
(names in order, argument names, kinds, required or optional). Nothing else spells the lists:
messages that enumerate names are formatted from `vocabulary()`, and `_check_nodes` refuses to
build when a signature and its node class in compiler/nodes.py disagree.

Lark is imported here and in compiler/parser_table.py only, lazily, the first time a parser or
the vocabulary is asked for. The parser is not built from the grammar at every compile: the
built one is stored beside the grammar as data (compiler/parser_table.py says how, and how to
regenerate it).
"""

from __future__ import annotations

import functools
import json
import math
import re
from pathlib import Path
from typing import Any, NamedTuple

import msgspec

from polydeukes.compiler import declaration_messages as M
from polydeukes.compiler import nodes

GRAMMAR_PATH = Path(__file__).resolve().parent.parent / "grammar" / "declarations.lark"

# The closed sets of part 2 of the grammar, by rule name.
_NAME_SETS = (
    "mechanism_name", "declare_key", "scope_key", "relate_key", "message_side", "witness_key",
    "fixed_source", "binding_kind", "supply_policy",
)
# The signature families of part 2: the group rule, whose alternatives are signature rules.
_SIGNATURE_GROUPS = ("combinator", "relation", "step", "predicate_operator")

BAREWORD = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*")


class ArgumentSpec(NamedTuple):
    name: str
    kind: str  # an argument kind of the grammar: text, pattern, flag, extract_name, ...
    required: bool


class Signature(NamedTuple):
    name: str  # the vocabulary spelling, e.g. keyByPattern
    rule: str  # the grammar rule, e.g. key_by_pattern
    arguments: tuple[ArgumentSpec, ...]

    def argument(self, name: str) -> ArgumentSpec | None:
        for spec in self.arguments:
            if spec.name == name:
                return spec
        return None


class Vocabulary(NamedTuple):
    mechanisms: tuple[str, ...]
    declare_keys: tuple[str, ...]
    scope_keys: tuple[str, ...]
    relate_keys: tuple[str, ...]
    message_sides: tuple[str, ...]
    witness_keys: tuple[str, ...]
    fixed_sources: tuple[str, ...]
    binding_kinds: tuple[str, ...]
    supply_policies: tuple[str, ...]
    combinators: dict[str, Signature]
    relations: dict[str, Signature]
    steps: dict[str, Signature]
    predicate_operators: dict[str, Signature]
    keywords: frozenset[str]  # words of the textual form a bare name must not spell


LARK_OPTIONS = {
    "parser": "lalr",
    "start": ["declaration", *_NAME_SETS, *_SIGNATURE_GROUPS],
    "propagate_positions": True,
    "maybe_placeholders": True,
}


@functools.cache
def _lark():
    """The parser of the grammar: the one stored beside it (compiler/parser_table.py), or,
    when that was built from another grammar or under another Lark, built here."""
    from polydeukes.compiler.parser_table import stored_parser

    grammar = GRAMMAR_PATH.read_text(encoding="utf-8")
    return stored_parser(grammar, LARK_OPTIONS) or build_parser(grammar)


def build_parser(grammar: str):
    """Lark's LALR parser built from the grammar text: some 700 M instructions, which the
    stored parser saves every compile."""
    from lark import Lark

    return Lark(grammar, **LARK_OPTIONS)


@functools.cache
def vocabulary() -> Vocabulary:
    """Every registry of the algebra, read from grammar/declarations.lark."""
    parser = _lark()
    literal = {
        t.name: t.pattern.value for t in parser.terminals if t.pattern.type == "str"
    }
    expansions: dict[str, list[list[str]]] = {}
    for rule in parser.rules:
        expansions.setdefault(rule.origin.name, []).append([s.name for s in rule.expansion])

    def names(rule: str) -> tuple[str, ...]:
        return tuple(literal[alternative[0]] for alternative in expansions[rule])

    def signature(rule: str) -> Signature:
        found: dict[str, tuple[str, int]] = {}
        for expansion in expansions[rule]:
            for index in range(len(expansion) - 2):
                head, colon, kind = expansion[index : index + 3]
                if head in literal and literal.get(colon) == ":":
                    name = literal[head]
                    _, count = found.get(name, (kind, 0))
                    found[name] = (kind, count + 1)
        total = len(expansions[rule])
        arguments = tuple(
            ArgumentSpec(name, kind, count == total) for name, (kind, count) in found.items()
        )
        return Signature(literal[expansions[rule][0][0]], rule, arguments)

    def group(rule: str) -> dict[str, Signature]:
        signatures = (signature(alternative[0]) for alternative in expansions[rule])
        return {s.name: s for s in signatures}

    # Words of the textual form (part 1): a bare name spelling one of them must be quoted.
    reachable: set[str] = set()
    pending = ["declaration"]
    while pending:
        rule = pending.pop()
        if rule not in reachable:
            reachable.add(rule)
            pending.extend(s for e in expansions[rule] for s in e if s in expansions)
    keywords = {
        literal[symbol]
        for rule in reachable
        for expansion in expansions[rule]
        for symbol in expansion
        if symbol in literal and BAREWORD.fullmatch(literal[symbol])
    }
    result = Vocabulary(
        *(names(rule) for rule in _NAME_SETS),
        *(group(rule) for rule in _SIGNATURE_GROUPS),
        keywords=frozenset(keywords),
    )
    _check_nodes(result)
    return result


def node_class(rule: str) -> type:
    """The node class of a signature rule: `key_by_pattern` -> nodes.KeyByPattern."""
    return getattr(nodes, "".join(part.capitalize() for part in rule.split("_")))


def _check_nodes(vocab: Vocabulary) -> None:
    """Grammar and node classes must agree, or the vocabulary would have two spellings."""
    families = (vocab.combinators, vocab.relations, vocab.steps, vocab.predicate_operators)
    for family in families:
        for signature in family.values():
            cls = node_class(signature.rule)
            fields = {f.encode_name for f in msgspec.structs.fields(cls)} - {"span", "translated"}
            expected = {a.name for a in signature.arguments}
            if family is vocab.predicate_operators:
                expected |= {"field"}
            if fields != expected:
                raise RuntimeError(
                    f"grammar rule '{signature.rule}' takes {sorted(expected)} but "
                    f"nodes.{cls.__name__} carries {sorted(fields)}"
                )


# -- the textual form ----------------------------------------------------------------------------


class TextSyntaxError(Exception):
    """A textual declaration that does not read; `problem` is a declaration_messages text."""

    def __init__(self, problem: str, offset: int) -> None:
        super().__init__(problem)
        self.problem = problem
        self.offset = offset


class ParsedText(NamedTuple):
    data: dict[str, Any]  # exactly what the YAML mapping form would have spelled
    offsets: dict[tuple, int]  # data path (relative to the declaration) -> character offset


def parse_text(text: str) -> ParsedText:
    """Read a textual declaration into plain data. Raises TextSyntaxError."""
    from lark.exceptions import UnexpectedCharacters, UnexpectedToken

    try:
        tree = _lark().parse(text, start="declaration")
    except UnexpectedCharacters as exc:
        raise TextSyntaxError(
            M.TEXT_UNEXPECTED_CHARACTER.format(char=text[exc.pos_in_stream]), exc.pos_in_stream
        ) from None
    except UnexpectedToken as exc:
        token = exc.token
        expected = _describe_expected(exc.accepts or exc.expected)
        if token.type == "$END":
            raise TextSyntaxError(M.TEXT_UNEXPECTED_END.format(expected=expected), len(text))
        raise TextSyntaxError(
            M.TEXT_UNEXPECTED_TOKEN.format(found=token.value, expected=expected),
            token.start_pos,
        ) from None
    reader = _Reader()
    return ParsedText(reader.declaration(tree), reader.offsets)


def _describe_expected(terminals) -> str:
    literal = {t.name: t.pattern.value for t in _lark().terminals if t.pattern.type == "str"}
    named = {"BAREWORD": "a name", "SQ_STRING": "a string", "DQ_STRING": "a string",
             "NUMBER": "a number", "$END": "the end of the text"}
    words = set()
    for terminal in terminals:
        if terminal in literal:
            words.add(f"'{literal[terminal]}'")
        elif terminal in named:
            words.add(named[terminal])
    return ", ".join(sorted(words))


class _Reader:
    """Parse tree -> the mapping form's plain data, recording an offset per data path."""

    def __init__(self) -> None:
        self.offsets: dict[tuple, int] = {}

    def at(self, path: tuple, item) -> None:
        self.offsets[path] = _offset(item)

    @staticmethod
    def put(target: dict, key: str, value, item) -> None:
        if key in target:
            raise TextSyntaxError(M.TEXT_DUPLICATE.format(key=key), _offset(item))
        target[key] = value

    def declaration(self, tree) -> dict[str, Any]:
        data: dict[str, Any] = {}
        for clause in tree.children:
            if clause is not None:
                keyword = clause.children[0]
                self.put(data, str(keyword), None, keyword)
                data[str(keyword)] = self.clause(clause, (str(keyword),))
        return data

    def clause(self, clause, path: tuple):
        kind = clause.data
        keyword, *rest = clause.children
        self.at(path, keyword)
        if kind == "mechanism":
            return self.value(rest[0], path)
        if kind == "scope":
            source, *fields = rest
            scope: dict[str, Any] = {}
            if source is not None:
                scope["source"] = self.value(source, path + ("source",))
            for scope_field in fields:
                key_token, value = scope_field.children
                self.put(scope, str(key_token), None, key_token)
                scope[str(key_token)] = self.value(value, path + (str(key_token),))
            return scope
        if kind == "sources":
            bindings: dict[str, Any] = {}
            for binding in rest:
                if binding is None:
                    continue
                name_tree, kind_token, value = binding.children
                name = self.name(name_tree)
                self.put(bindings, name, None, name_tree)
                self.at(path + (name,), name_tree)
                self.at(path + (name, str(kind_token)), value if value is not None else kind_token)
                bindings[name] = {
                    str(kind_token): True
                    if value is None
                    else self.value(value, path + (name, str(kind_token)))
                }
            return bindings
        if kind == "supply":
            return self.members([m for m in rest if m is not None], path)
        if kind == "extract":
            pipelines: dict[str, Any] = {}
            for pipeline in rest:
                name_tree, *calls = pipeline.children
                name = self.name(name_tree)
                self.put(pipelines, name, None, name_tree)
                self.at(path + (name,), name_tree)
                pipelines[name] = [
                    self.call(call, path + (name, index)) for index, call in enumerate(calls)
                ]
            return pipelines
        if kind == "relate":
            return [self.relate_entry(entry, path + (i,)) for i, entry in enumerate(rest)]
        if kind == "witness":
            witness: dict[str, Any] = {}
            for part in rest:
                if part is not None:
                    key = str(part.children[0])
                    witness[key] = self.clause(part, path + (key,))
            return witness
        raise AssertionError(kind)  # pragma: no cover - the grammar has no other clause

    def relate_entry(self, entry, path: tuple) -> dict[str, Any]:
        name_tree, call, *message_fields = entry.children
        self.at(path, name_tree)
        self.at(path + ("id",), name_tree)
        result: dict[str, Any] = {"id": self.name(name_tree)}
        result["relation"] = self.call(call, path + ("relation",))
        for message_field in message_fields:
            key_token, value = message_field.children
            self.put(result, str(key_token), None, key_token)
            result[str(key_token)] = self.value(value, path + (str(key_token),))
        return result

    def call(self, call, path: tuple) -> dict[str, Any]:
        name_tree, arguments = call.children
        self.at(path, call)
        self.at(path + ("op",), name_tree)
        result: dict[str, Any] = {"op": self.name(name_tree)}
        if arguments is None:
            return result
        members = [m for m in arguments.children if m is not None]
        return self.members(members, path, result)

    def members(self, members, path: tuple, result: dict | None = None) -> dict[str, Any]:
        result = {} if result is None else result
        for member in members:
            name_tree, value = member.children
            key = self.name(name_tree)
            self.put(result, key, None, name_tree)
            result[key] = self.value(value, path + (key,))
        return result

    def name(self, tree) -> str:
        (item,) = tree.children
        if getattr(item, "type", None) == "BAREWORD":
            return str(item)
        return _string(item)

    def value(self, item, path: tuple):
        self.at(path, item)
        kind = getattr(item, "data", None)
        if kind is None:  # pragma: no cover - every value is a tree (aliases keep them)
            raise AssertionError(item)
        if kind == "string":
            return _string(item)
        if kind == "number_literal":
            return _number(str(item.children[0]))
        if kind == "true_literal":
            return True
        if kind == "false_literal":
            return False
        if kind == "null_literal":
            return None
        if kind == "bareword_literal":
            return str(item.children[0])
        if kind == "array":
            return [
                self.value(element, path + (index,))
                for index, element in enumerate(c for c in item.children if c is not None)
            ]
        if kind == "object":
            return self.members([c for c in item.children if c is not None], path)
        raise AssertionError(kind)  # pragma: no cover


def _offset(item) -> int:
    if hasattr(item, "start_pos"):
        return item.start_pos
    if item.meta.empty:  # pragma: no cover - every tree here holds at least one token
        return 0
    return item.meta.start_pos


def _string(tree) -> str:
    (string,) = tree.children
    if string.type == "SQ_STRING":
        return string[1:-1].replace("''", "'")
    try:
        return json.loads(string)
    except ValueError:
        raise TextSyntaxError(M.TEXT_BAD_ESCAPE, string.start_pos) from None


def _number(text: str) -> int | float:
    if re.fullmatch(r"-?[0-9]+", text):
        return int(text)
    body = text.lstrip("-")
    sign = -1.0 if text.startswith("-") else 1.0
    if body == ".inf":
        return sign * math.inf
    if body == ".nan":
        return math.nan
    return float(text)
