"""The JSON Schema of `polydeukes.config.yaml`, built from the validator's own definitions.

Nothing here spells a key, a name or an enum: top-level keys, closed key sets and value sets
come from compiler/validate.py, the declaration vocabulary (mechanisms, steps with their
arguments and kinds, combinators, relations, fixed sources, binding kinds, supply policies)
from the grammar through `vocabulary()`, and each mechanism's admitted relations, pinned scope
and witness requirement from compiler/catalogue.py. So the schema changes when they change.
Descriptions of the algebra's words are read from the tables of docs/declarations.md
(`doc_descriptions`), so an editor's hover text is the documentation's.

The shipped file, stdlib/schemas/polydeukes.schema.json, is this module's output; a test
rebuilds it and compares byte for byte (`pytest --update-golden` rewrites it). `pdks schema`
prints the shipped file, so the command needs neither lark nor the docs.

What JSON Schema cannot say stays the validator's alone: ids unique across the three lists,
regular expressions that compile in the JavaScript dialect, references between extractions
(defined, acyclic, distinct from the witness's own), relate ids unique, source names bound in
`sources`, a mechanism's admitted axes, and everything inside the textual form of `declare`.
"""

from __future__ import annotations

import json
import re
from typing import Any, Mapping

from polydeukes.compiler import validate as V
from polydeukes.compiler.catalogue import mechanisms
from polydeukes.compiler.parse import Signature, vocabulary

DIALECT = "https://json-schema.org/draft/2020-12/schema"

# Top-level and section descriptions, condensed from docs/configuration.md.
_SECTION_TEXT = {
    "$schema": "An editor hint naming this schema; ignored by pdks.",
    "languages": "Informational language profiles; no judgment reads them.",
    "protectedPaths": (
        "Paths no agent may modify, through editor tools or the shell. The config file itself "
        "is always added."
    ),
    "adapters": "Adapter name -> that adapter's own settings; only the shape is checked here.",
    "memory": "Read only by `pdks memory` (the pdks-memory extension).",
    "telemetry": "Where judging runs append their rows.",
    "witness": (
        "The human valve: the token typed alone on a message's first line opens a blocked "
        "call for ttlMinutes."
    ),
    "deadlineSeconds": (
        "The hard deadline of every check, in seconds (default 10); past it the call is "
        "blocked. See docs/security.md."
    ),
    "disciplines": "Judged on both surfaces; declarations read only the changed file and files.",
    "sessionDisciplines": (
        "Judged on agent sessions only; declarations read the transcript, sidecar, command or "
        "actor, never changes."
    ),
    "changeSetDisciplines": (
        "Judged on change sets (`--diff`) only; declarations read changes and no session channel."
    ),
}
_KEY_TEXT = {
    "productionGlob": "A non-empty glob, or a non-empty list of non-empty globs.",
    "testCmd": "A command template; every literal {scope} is replaced.",
    "logPath": "Relative paths resolve against the project root. Default .polydeukes/roi.log.",
    "token": "What a human types, alone on the first line of a message.",
    "ttlMinutes": "How long after that message a blocked call may be witnessed.",
    "id": "The entry's telemetry label; one id space across the three lists.",
    "why": "Prose appended to break messages (` — why: …`).",
    "enforce": "block: a break stops the call under --enforce block. Absent = advise.",
    "declare": (
        "One declaration: a mapping, or the same in the textual form (a string). "
        "See docs/declarations.md."
    ),
    "draft": "Marks prose registered ahead of promotion: never judged, never a row.",
}

# The column that describes a word, by the header of its docs/declarations.md table.
_DOC_COLUMNS = ("Does", "Holds when", "Result", "Meaning", "Operand", "Example use")
_CELL_SPLIT = re.compile(r"(?<!\\)\|")  # a cell boundary: a pipe not escaped as `\|`
_NAME_CELL = re.compile(r"^`([^`]+)`$")


def doc_descriptions(markdown: str) -> dict[str, str]:
    """Word -> description from the tables of docs/declarations.md: the column headed `Does`
    (steps), `Holds when` (relations), `Result` (combinators), `Meaning` (block keys),
    `Operand` (filter operators) or `Example use` (mechanisms, after their axes and
    relations). The first table that describes a word wins."""
    found: dict[str, str] = {}
    header: list[str] = []
    for line in markdown.splitlines():
        if not line.startswith("|"):
            header = []
            continue
        cells = [cell.strip() for cell in _CELL_SPLIT.split(line.strip().strip("|"))]
        if not header:
            header = cells
            continue
        name = _NAME_CELL.match(cells[0])
        column = next((title for title in _DOC_COLUMNS if title in header), None)
        if name is None or column is None:
            continue
        text = cells[header.index(column)].replace("\\|", "|")
        if column == "Example use":
            text = f"Axes: {cells[1]}. Relations: {cells[2]}. Example: {text}"
        found.setdefault(name.group(1), text)
    return found


def build(descriptions: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The whole schema as plain data (deterministic: insertion order is the output order)."""
    return _Builder(descriptions or {}).config()


def render(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def _non_empty_string() -> dict:
    return {"type": "string", "minLength": 1}


def _trimmed_non_empty() -> dict:
    return {"type": "string", "pattern": r"\S"}


def _string_list(*, non_empty_items: bool, min_items: int = 0) -> dict:
    schema: dict[str, Any] = {"type": "array",
                              "items": _non_empty_string() if non_empty_items else {"type": "string"}}
    if min_items:
        schema["minItems"] = min_items
    return schema


def _closed(properties: dict, required: tuple[str, ...] = (), **extra) -> dict:
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = list(required)
    schema["additionalProperties"] = False
    schema.update(extra)
    return schema


def _ref(name: str) -> dict:
    return {"$ref": f"#/$defs/{name}"}


class _Builder:
    def __init__(self, descriptions: Mapping[str, str]) -> None:
        self.text = descriptions
        self.vocab = vocabulary()
        self.defs: dict[str, Any] = {}

    def described(self, schema: dict, word: str, fallback: str | None = None) -> dict:
        text = self.text.get(word, fallback)
        return {"description": text, **schema} if text else schema

    # -- the document ------------------------------------------------------------------------
    def config(self) -> dict:
        properties = {
            "$schema": {"type": "string"},
            "languages": self.languages(),
            "protectedPaths": {"type": "array", "items": _non_empty_string()},
            "adapters": {"type": "object", "additionalProperties": {"type": "object"}},
            "memory": self.memory(),
            "telemetry": _closed({"logPath": _trimmed_non_empty()}),
            "witness": _closed(
                {"token": _trimmed_non_empty(),
                 "ttlMinutes": {"type": "number", "exclusiveMinimum": 0}},
                V.WITNESS_KEYS,
            ),
            "deadlineSeconds": {"type": "number", "exclusiveMinimum": 0,
                                "maximum": V.MAX_DEADLINE_SECONDS},
        }
        for list_name in V.LIST_NAMES:
            properties[list_name] = {"type": "array", "items": self.entry(list_name)}
        if set(properties) != set(V.TOP_LEVEL_KEYS):
            raise RuntimeError("config_schema and validate.TOP_LEVEL_KEYS disagree")
        for key, schema in properties.items():
            if key in _SECTION_TEXT:
                properties[key] = {"description": _SECTION_TEXT[key], **schema}
        for key in ("witness", "telemetry"):
            for name, schema in properties[key]["properties"].items():
                properties[key]["properties"][name] = {"description": _KEY_TEXT[name], **schema}
        self.define_declaration()
        return {
            "$schema": DIALECT,
            "title": "polydeukes.config.yaml",
            "description": (
                "The covenants of one project for pdks (polydeukes). Generated from the "
                "validator's definitions by compiler/config_schema.py; do not edit."
            ),
            "type": "object",
            "properties": {key: properties[key] for key in V.TOP_LEVEL_KEYS},
            "additionalProperties": False,
            "$defs": self.defs,
        }

    def languages(self) -> dict:
        glob = {"anyOf": [_non_empty_string(), _string_list(non_empty_items=True, min_items=1)]}
        profile = _closed(
            {"productionGlob": {"description": _KEY_TEXT["productionGlob"], **glob},
             "testCmd": {"description": _KEY_TEXT["testCmd"], **_non_empty_string()}},
            V.LANGUAGE_PROFILE_KEYS,
        )
        return {"type": "object", "additionalProperties": profile}

    def memory(self) -> dict:
        regex = _non_empty_string()
        ticket = _closed(
            {"type": _non_empty_string(), "from": {"enum": list(V.TICKET_FROM)},
             "key": _non_empty_string(), "pattern": {"type": "string"}},
            ("from",),
            # `key` names the frontmatter field: required with `from: frontmatter`, else absent.
            **{"if": {"properties": {"from": {"const": "frontmatter"}}},
               "then": {"required": ["key"]}, "else": {"not": {"required": ["key"]}}},
        )
        assert set(ticket["properties"]) == set(V.TICKET_KEYS)
        obligation = {"anyOf": [
            _closed({key: regex for key in V.OBLIGATION_LINE_KEYS}, V.OBLIGATION_LINE_KEYS),
            _closed({key: regex for key in V.OBLIGATION_SECTION_KEYS}, V.OBLIGATION_SECTION_KEYS),
        ]}
        supersedes = _closed(
            {"line": regex, "key": regex, "direction": {"enum": list(V.DIRECTIONS)}},
            V.SUPERSEDES_KEYS,
        )
        properties = {
            "include": _string_list(non_empty_items=True, min_items=1),
            "exclude": _string_list(non_empty_items=True),
            "typeMap": {"type": "object", "additionalProperties": _non_empty_string()},
            "ticket": {"type": "array", "items": ticket},
            "weights": {"type": "object",
                        "additionalProperties": {"type": "number", "minimum": 0}},
            "obligations": {"type": "array", "items": obligation},
            "supersedes": {"type": "array", "items": supersedes},
        }
        if tuple(properties) != V.MEMORY_KEYS:
            raise RuntimeError("config_schema and validate.MEMORY_KEYS disagree")
        return _closed(properties, ("include",))

    # -- discipline entries ----------------------------------------------------------------------
    def entry(self, list_name: str) -> dict:
        entry_id = {
            "description": _KEY_TEXT["id"], **_non_empty_string(),
            "not": {"enum": [*V.META_LABELS, V.BACKSTOP_LABEL]},
        }
        judged = _closed(
            {"id": entry_id,
             "why": {"description": _KEY_TEXT["why"], "type": "string"},
             "enforce": {"description": _KEY_TEXT["enforce"], "enum": list(V.ENFORCE_LEVELS)},
             "declare": {"description": _KEY_TEXT["declare"],
                         "anyOf": [{"type": "string"}, self.placed(list_name)]}},
            ("id", "declare"),
        )
        if tuple(judged["properties"]) != V.JUDGED_ENTRY_KEYS:
            raise RuntimeError("config_schema and validate.JUDGED_ENTRY_KEYS disagree")
        if list_name != "disciplines":
            return judged  # closed: a draft's marker is an unknown key here
        draft = _closed(
            {"id": entry_id, "why": _non_empty_string(),
             "draft": {"description": _KEY_TEXT["draft"], "const": True}},
            V.DRAFT_ENTRY_KEYS,
        )
        # A draft is selected by the presence of its marker (spec 02 §4.2).
        return {"if": {"type": "object", "required": ["draft"]}, "then": draft, "else": judged}

    def placed(self, list_name: str) -> dict:
        """A declaration as this list admits it: the placement rule (spec 02 §7.3) over the
        channels derived exactly as declaration_channels derives them."""
        for channel in V.CHANNEL_ORDER:
            self.defs.setdefault(f"reads-{channel}", self.reads(channel))
        reads = {channel: _ref(f"reads-{channel}") for channel in V.CHANNEL_ORDER}
        session = {"anyOf": [reads[c] for c in V.SESSION_CHANNELS]}
        if list_name == "disciplines":
            rule = {"not": {"anyOf": [session, reads["changes"]]}}
        elif list_name == "sessionDisciplines":
            rule = {"allOf": [session, {"not": reads["changes"]}]}
        else:
            rule = {"allOf": [reads["changes"], {"not": session}]}
        return {"allOf": [_ref("declaration"), rule]}

    def reads(self, channel: str) -> dict:
        if channel in ("transcript", "channel"):
            kind = "transcript" if channel == "transcript" else "sidecar"
            # Some binding carries the kind's key (any value counts, spec 02 §7.2).
            return {"required": ["sources"], "properties": {"sources": {
                "type": "object",
                "not": {"additionalProperties": {"not": {"type": "object", "required": [kind]}}},
            }}}
        step = {"type": "object", "required": ["op", "of"],
                "properties": {"op": {"const": "source"}, "of": {"const": channel}}}
        in_block = {"type": "object",
                    "not": {"additionalProperties": {"not": {"type": "array", "contains": step}}}}
        options = [
            {"required": ["extract"], "properties": {"extract": in_block}},
            {"required": ["witness"], "properties": {"witness": {
                "type": "object", "required": ["extract"], "properties": {"extract": in_block}}}},
        ]
        if channel == "command":
            options.insert(0, {"required": ["scope"], "properties": {"scope": {
                "type": "object", "required": ["source"],
                "properties": {"source": {"const": "command"}}}}})
        return {"anyOf": options}

    # -- the declaration algebra -----------------------------------------------------------------
    def define_declaration(self) -> None:
        vocab = self.vocab
        admitted = [m for m in mechanisms() if not m.reserved]
        self.defs["declaration"] = self.described(_closed(
            {
                "mechanism": self.described(
                    {"anyOf": [self.described({"const": m.name}, m.name) for m in admitted]},
                    "mechanism"),
                "scope": self.described(_ref("scope"), "scope"),
                "sources": self.described(_ref("sources"), "sources"),
                "supply": self.described(_ref("supply"), "supply"),
                "extract": self.described(_ref("extract"), "extract"),
                "relate": self.described(_ref("relate"), "relate"),
                "witness": self.described(_ref("witness"), "witness"),
            },
            ("mechanism", "extract", "relate"),
            allOf=[self.catalogue(m) for m in admitted if self.catalogue(m)],
        ), "declare")
        if tuple(self.defs["declaration"]["properties"]) != vocab.declare_keys:
            raise RuntimeError("config_schema and the grammar's declare_key disagree")
        self.defs["scope"] = _closed(
            {"source": {"description": "target.path, pre, post, command or a file binding.",
                        **_non_empty_string()},
             "include": {"type": "array", "items": {"type": "string"}},
             "exclude": {"type": "array", "items": {"type": "string"}},
             "excludeIgnoreCase": {"type": "boolean"}},
            ("source",),
        )
        if tuple(self.defs["scope"]["properties"]) != vocab.scope_keys:
            raise RuntimeError("config_schema and the grammar's scope_key disagree")
        self.defs["sources"] = {
            "type": "object",
            "propertyNames": {"minLength": 1, "not": {"enum": list(vocab.fixed_sources)}},
            "additionalProperties": {"oneOf": [self.binding(k) for k in vocab.binding_kinds]},
        }
        self.defs["supply"] = {
            "type": "object",
            "properties": {"state": {"enum": [p for p in vocab.supply_policies if p != "empty"]}},
            "additionalProperties": {"enum": list(vocab.supply_policies)},
        }
        self.defs["extract"] = {"type": "object", "additionalProperties": _ref("pipeline")}
        source_step = {"allOf": [_ref("step"), {"properties": {"op": {"const": "source"}}}]}
        self.defs["pipeline"] = {
            "description": "Steps in order: a combinator or a source step first.",
            "type": "array", "minItems": 1,
            "prefixItems": [{"anyOf": [_ref("combinator"), source_step]}],
            "items": _ref("step"),
        }
        self.defs["combinator"] = self.family(vocab.combinators)
        self.defs["step"] = self.family(vocab.steps)
        self.defs["predicate"] = self.predicate()
        self.defs["relation"] = self.family(vocab.relations)
        self.defs["relate"] = {"type": "array", "minItems": 1, "items": self.relate_entry()}
        self.defs["witness"] = _closed(
            {"extract": _ref("extract"), "relate": _ref("relate")}, ("relate",))
        if tuple(self.defs["witness"]["properties"]) != vocab.witness_keys:
            raise RuntimeError("config_schema and the grammar's witness_key disagree")

    def binding(self, kind: str) -> dict:
        if kind == "file":
            value = {"description": "A repo-relative path with no '..' segment.",
                     **_non_empty_string(), "pattern": r"^(?!/)(?!(.*/)?\.\.(/|$))"}
        else:
            value = {"const": True}
        return _closed({kind: value}, (kind,))

    def catalogue(self, mechanism) -> dict:
        """What one mechanism admits (spec 03 §15), as a conditional on its name."""
        then: dict[str, Any] = {}
        required = []
        if len(mechanism.relations) < len(self.vocab.relations):
            then["properties"] = {"relate": {"items": {"properties": {"relation": {
                "properties": {"op": {"enum": list(mechanism.relations)}}}}}}}
        if mechanism.needs_witness:
            required.append("witness")
        if mechanism.scope_source is not None:
            required.append("scope")
            then.setdefault("properties", {})["scope"] = {
                "properties": {"source": {"const": mechanism.scope_source}}}
        if required:
            then["required"] = required
        if not then:
            return {}
        return {"if": {"properties": {"mechanism": {"const": mechanism.name}},
                       "required": ["mechanism"]},
                "then": then}

    def family(self, signatures: dict[str, Signature]) -> dict:
        """Ops of one family, each a closed mapping of its arguments, told apart by `op`."""
        branches = []
        for name, signature in signatures.items():
            properties = {"op": {"const": name}}
            for argument in signature.arguments:
                properties[argument.name] = self.kind(argument.kind)
            required = ("op", *(a.name for a in signature.arguments if a.required))
            branches.append({"if": {"properties": {"op": {"const": name}}, "required": ["op"]},
                             "then": _closed(properties, required)})
        return {"type": "object", "required": ["op"],
                "properties": {"op": {"oneOf": [
                    self.described({"const": name}, name) for name in signatures]}},
                "allOf": branches}

    def kind(self, kind: str) -> dict:
        """An argument kind of the grammar (see its part 2 legend) as a JSON Schema."""
        if kind in ("text", "extract_name"):
            return _non_empty_string()
        if kind == "pattern":
            return {"description": "A JavaScript regular expression.", **_non_empty_string()}
        if kind == "flag":
            return {"type": "boolean"}
        if kind == "string":
            return {"type": "string"}
        if kind == "number":
            return {"type": "number"}
        if kind == "tool_names":
            return {"type": "array", "items": {"type": "string"}}
        if kind == "constant":
            return {}
        if kind == "constants":
            return {"type": "array"}
        if kind == "predicates":
            return {"type": "array", "items": _ref("predicate")}
        if kind == "extract_pair":
            return {"type": "array", "items": _non_empty_string(), "minItems": 2, "maxItems": 2,
                    "uniqueItems": True}
        raise RuntimeError(f"config_schema knows no argument kind '{kind}'")

    def predicate(self) -> dict:
        """`{field, <exactly one operator>: operand}` (spec 03 §9)."""
        operators = self.vocab.predicate_operators
        return {"description": "{field: <direct property>, <one operator>: <operand>}",
                "oneOf": [
                    _closed({"field": {"type": "string"},
                             name: self.kind(signature.arguments[0].kind)},
                            ("field", name))
                    for name, signature in operators.items()
                ]}

    def relate_entry(self) -> dict:
        sides = _closed({side: _non_empty_string() for side in self.vocab.message_sides},
                        self.vocab.message_sides)
        entry = _closed(
            {"id": _non_empty_string(), "relation": _ref("relation"),
             "message": {"description": "Uses {key}, {value} and {before} of the first witness.",
                         **_non_empty_string()},
             "messageBySide": {"description": "Only with equal: one message per side.", **sides}},
            ("id", "relation"),
            # Exactly one of message and messageBySide; messageBySide only with equal.
            oneOf=[{"required": ["message"]}, {"required": ["messageBySide"]}],
        )
        entry["if"] = {"required": ["messageBySide"]}
        entry["then"] = {"properties": {"relation": {"properties": {"op": {"const": "equal"}}}}}
        if tuple(entry["properties"]) != self.vocab.relate_keys:
            raise RuntimeError("config_schema and the grammar's relate_key disagree")
        return entry
