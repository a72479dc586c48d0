"""The typed AST of a `declare` block (spec 03): frozen msgspec Structs, data only.

Two layers:

* `Declaration` is what the load-time checks (compiler/declare.py) accept. Combinators and
  relations are closed at load time and therefore typed; unary steps are not (spec 03 §17.1:
  the grammar leaves the step vocabulary open), so a step is kept as written: `Step(op,
  arguments)`.
* `ResolvedDeclaration` is what compiler/resolve.py makes of a Declaration once every step
  resolved against the step registry (spec 03 §17.2): each step becomes its own typed node and
  each regex carries its translation.

Class names are the grammar's rule names in CamelCase and field names are the vocabulary's
argument names (`key_by_pattern` <-> `KeyByPattern(re, i)` <-> `keyByPattern`, conventions
rule 10; where an argument is a Python keyword the field carries a trailing underscore and the
vocabulary spelling as its encoded name). compiler/parse.py refuses to build its parser when a
signature of grammar/declarations.lark and its node class disagree.

Every node carries `span` (a keyword field inherited from `Node`). Spans are positions,
not meaning: `strip_spans` gives the node with every span cleared, which is how two ASTs of
the same declaration (YAML form, textual form) compare equal.
"""

from __future__ import annotations

from typing import Any, Union as TypingUnion

import msgspec

from polydeukes.compiler.source import Span


class Node(msgspec.Struct, frozen=True, kw_only=True):
    span: Span | None = None


# -- sources, scope, supply ---------------------------------------------------------------------


class Binding(Node, frozen=True, kw_only=True):
    """One `sources` entry: a new source name bound to a file, the sidecar or the transcript."""

    name: str
    kind: str  # one of the vocabulary's binding kinds
    file: str | None = None  # the normalized-on-use path of a `file` binding


class Scope(Node, frozen=True, kw_only=True):
    source: str
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    exclude_ignore_case: bool = msgspec.field(default=False, name="excludeIgnoreCase")


class Supply(Node, frozen=True, kw_only=True):
    source: str
    policy: str


# -- pipelines ---------------------------------------------------------------------------------


class Argument(Node, frozen=True, kw_only=True):
    name: str
    value: Any  # plain YAML/JSON data, as written


class Step(Node, frozen=True, kw_only=True):
    """A unary step as written; resolve.py turns it into one of the typed step nodes below."""

    op: str
    arguments: tuple[Argument, ...] = ()


class Union(Node, frozen=True, kw_only=True):
    of: tuple[str, str]


class OnlyIn(Node, frozen=True, kw_only=True):
    of: str
    not_in: str = msgspec.field(name="notIn")


class Intersect(Node, frozen=True, kw_only=True):
    of: tuple[str, str]


Combinator = TypingUnion[Union, OnlyIn, Intersect]


class Pipeline(Node, frozen=True, kw_only=True):
    """One named extraction: an optional leading combinator, then the steps in order."""

    name: str
    combinator: Combinator | None = None
    steps: tuple[Step, ...] = ()

    def references(self) -> tuple[str, ...]:
        """The extractions its combinator names, left operand first."""
        combinator = self.combinator
        if combinator is None:
            return ()
        if isinstance(combinator, OnlyIn):
            return (combinator.of, combinator.not_in)
        return tuple(combinator.of)


# -- relations ---------------------------------------------------------------------------------


class Empty(Node, frozen=True, kw_only=True):
    of: str


class NonEmpty(Node, frozen=True, kw_only=True):
    of: str


class Equal(Node, frozen=True, kw_only=True):
    of: tuple[str, str]


class Subset(Node, frozen=True, kw_only=True):
    of: str
    in_: str = msgspec.field(name="in")


class Implies(Node, frozen=True, kw_only=True):
    of: str
    requires: str


class Ordered(Node, frozen=True, kw_only=True):
    of: str
    strict: bool = False


class Unchanged(Node, frozen=True, kw_only=True):
    of: str


Relation = TypingUnion[Empty, NonEmpty, Equal, Subset, Implies, Ordered, Unchanged]


def relation_references(relation: Relation) -> tuple[str, ...]:
    """The extractions a relation reads, in argument order."""
    if isinstance(relation, Equal):
        return tuple(relation.of)
    if isinstance(relation, Subset):
        return (relation.of, relation.in_)
    if isinstance(relation, Implies):
        return (relation.of, relation.requires)
    return (relation.of,)


class MessageBySide(Node, frozen=True, kw_only=True):
    left: str
    right: str


class RelateEntry(Node, frozen=True, kw_only=True):
    id: str
    relation: Relation
    message: str | None = None
    message_by_side: MessageBySide | None = msgspec.field(default=None, name="messageBySide")


class Witness(Node, frozen=True, kw_only=True):
    extract: tuple[Pipeline, ...] = ()
    relate: tuple[RelateEntry, ...] = ()


class Declaration(Node, frozen=True, kw_only=True):
    """A `declare` block that passed every load-time check (spec 03 §17.1, §15.3)."""

    mechanism: str
    scope: Scope | None = None
    sources: tuple[Binding, ...] = ()
    supply: tuple[Supply, ...] = ()
    extract: tuple[Pipeline, ...] = ()
    relate: tuple[RelateEntry, ...] = ()
    witness: Witness | None = None


# -- resolved steps (spec 03 §8) ---------------------------------------------------------------
# A field named `translated` holds the regex helper's TranslatedPattern (source, flags,
# group_count, needs_utf16) of the step's `re`; it is the one field that is not an argument.


class Source(Node, frozen=True, kw_only=True):
    of: str


class Json(Node, frozen=True, kw_only=True):
    pass


class Select(Node, frozen=True, kw_only=True):
    path: str


class Items(Node, frozen=True, kw_only=True):
    pass


class KeyBy(Node, frozen=True, kw_only=True):
    field: str


class KeyByPattern(Node, frozen=True, kw_only=True):
    re: str
    i: bool = False
    translated: Any = None


class Field(Node, frozen=True, kw_only=True):
    name: str


class Filter(Node, frozen=True, kw_only=True):
    when: tuple[Predicate, ...] = ()


class FlattenKeys(Node, frozen=True, kw_only=True):
    pass


class Sort(Node, frozen=True, kw_only=True):
    pass


class Lines(Node, frozen=True, kw_only=True):
    pass


class Matches(Node, frozen=True, kw_only=True):
    re: str
    i: bool = False
    translated: Any = None


class ToolUses(Node, frozen=True, kw_only=True):
    names: tuple[Any, ...] | None = None  # None: no `names` filter; () admits no call
    subagent_type: str | None = msgspec.field(default=None, name="subagentType")


class UserTexts(Node, frozen=True, kw_only=True):
    re: str
    i: bool = False
    translated: Any = None


class AgentType(Node, frozen=True, kw_only=True):
    is_: str = msgspec.field(name="is")


class First(Node, frozen=True, kw_only=True):
    pass


class AgeMs(Node, frozen=True, kw_only=True):
    pass


ResolvedStep = TypingUnion[
    Source, Json, Select, Items, KeyBy, KeyByPattern, Field, Filter, FlattenKeys, Sort, Lines,
    Matches, ToolUses, UserTexts, AgentType, First, AgeMs,
]


# -- filter predicates (spec 03 §9): the property `field` and one operator ----------------------


class Eq(Node, frozen=True, kw_only=True):
    field: str
    eq: Any


class Ne(Node, frozen=True, kw_only=True):
    field: str
    ne: Any


class Size(Node, frozen=True, kw_only=True):
    field: str
    size: int | float


class NotIn(Node, frozen=True, kw_only=True):
    field: str
    not_in: tuple[Any, ...] = msgspec.field(name="notIn")


class Lte(Node, frozen=True, kw_only=True):
    field: str
    lte: int | float


class Gte(Node, frozen=True, kw_only=True):
    field: str
    gte: int | float


Predicate = TypingUnion[Eq, Ne, Size, NotIn, Lte, Gte]


# -- the resolved declaration ------------------------------------------------------------------


class ResolvedPipeline(Node, frozen=True, kw_only=True):
    """`head` is the first step (`Source` or a combinator); `steps` run after it in order.

    `paired` marks a pipeline headed by `source` of `state`: its steps run over each side.
    A `Source` inside `steps` has the non-first meaning of spec 03 §7.2.
    """

    name: str
    paired: bool
    head: TypingUnion[Source, Union, OnlyIn, Intersect]
    steps: tuple[ResolvedStep, ...] = ()


class ResolvedScope(Node, frozen=True, kw_only=True):
    scope: Scope
    include: tuple[Any, ...] = ()  # TranslatedPattern per include pattern
    exclude: tuple[Any, ...] = ()  # TranslatedPattern per exclude pattern (with `i` if asked)


class ResolvedWitness(Node, frozen=True, kw_only=True):
    extract: tuple[ResolvedPipeline, ...] = ()
    relate: tuple[RelateEntry, ...] = ()


class ResolvedDeclaration(Node, frozen=True, kw_only=True):
    id: str
    declaration: Declaration
    scope: ResolvedScope | None = None
    extract: tuple[ResolvedPipeline, ...] = ()
    relate: tuple[RelateEntry, ...] = ()
    witness: ResolvedWitness | None = None


def build(cls: type, values: dict[str, Any], span: Span | None = None) -> Any:
    """A node from vocabulary-spelled field values (`{"notIn": ...}` fills `not_in`)."""
    by_encode_name = {f.encode_name: f.name for f in msgspec.structs.fields(cls)}
    return cls(span=span, **{by_encode_name[key]: value for key, value in values.items()})


# -- spans -------------------------------------------------------------------------------------


def strip_spans(value: Any) -> Any:
    """The same AST with every `span` cleared: equality of meaning, not of position."""
    if isinstance(value, Node):
        changes = {}
        for name in value.__struct_fields__:
            item = getattr(value, name)
            stripped = None if name == "span" else strip_spans(item)
            if stripped is not item:
                changes[name] = stripped
        return msgspec.structs.replace(value, **changes) if changes else value
    if isinstance(value, tuple) and any(isinstance(item, Node) for item in value):
        return tuple(strip_spans(item) for item in value)
    return value
