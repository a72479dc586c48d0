"""The instructions of a plan's programs: one frozen, int-tagged msgspec Struct per opcode
(conventions rule 2), stored array-like as `[opcode, operand, ..., span]`.

What the compiler builds, `pdks explain` prints and tests compare. A check does not create
these classes (29 Struct classes cost every check ~4.4 M instructions): a plan read from
plan.bin keeps its code as the stored lists (planfile.StoredCode), and the VM's handlers read
operands by position (vm/ops.py `bind`). `vm.plan` re-exports every name here on first use.
"""

# No `from __future__ import annotations`, as in vm/plan.py: msgspec reads the annotations.

from typing import Union

import msgspec

from polydeukes.vm.opcodes import ARITY, Op


class Instr(msgspec.Struct, frozen=True, array_like=True, gc=False, tag_field="op"):
    pass


def _instr(op: int):
    return {"tag": op}


class Source(Instr, **_instr(Op.SOURCE)):
    dst: int
    of: int
    policy: int
    span: int


class SourcePair(Instr, **_instr(Op.SOURCE_PAIR)):
    dst_pre: int
    dst_post: int
    policy: int
    span: int


class UnionOf(Instr, **_instr(Op.UNION)):
    dst: int
    left: int
    right: int
    span: int


class OnlyIn(Instr, **_instr(Op.ONLY_IN)):
    dst: int
    left: int
    right: int
    span: int


class Intersect(Instr, **_instr(Op.INTERSECT)):
    dst: int
    left: int
    right: int
    span: int


class SourceAt(Instr, **_instr(Op.SOURCE_AT)):
    dst: int
    src: int
    of: int
    span: int


class Json(Instr, **_instr(Op.JSON)):
    dst: int
    src: int
    label: int  # the source (or combinator-headed pipeline) a failure is reported against
    span: int


class Select(Instr, **_instr(Op.SELECT)):
    dst: int
    src: int
    path: int
    span: int


class Items(Instr, **_instr(Op.ITEMS)):
    dst: int
    src: int
    span: int


class KeyBy(Instr, **_instr(Op.KEY_BY)):
    dst: int
    src: int
    field: int
    span: int


class KeyByPattern(Instr, **_instr(Op.KEY_BY_PATTERN)):
    dst: int
    src: int
    pattern: int
    span: int


class Field(Instr, **_instr(Op.FIELD)):
    dst: int
    src: int
    name: int
    span: int


class Filter(Instr, **_instr(Op.FILTER)):
    dst: int
    src: int
    predicates: int  # constants index: [[field, operator, constant], ...]
    span: int


class FlattenKeys(Instr, **_instr(Op.FLATTEN_KEYS)):
    dst: int
    src: int
    span: int


class Sort(Instr, **_instr(Op.SORT)):
    dst: int
    src: int
    span: int


class Lines(Instr, **_instr(Op.LINES)):
    dst: int
    src: int
    span: int


class Matches(Instr, **_instr(Op.MATCHES)):
    dst: int
    src: int
    pattern: int
    span: int


class ToolUses(Instr, **_instr(Op.TOOL_USES)):
    dst: int
    src: int
    names: int  # constants index of the names list, or NONE for "no names filter"
    subagent_type: int  # strings index, or NONE
    span: int


class UserTexts(Instr, **_instr(Op.USER_TEXTS)):
    dst: int
    src: int
    pattern: int
    span: int


class AgentType(Instr, **_instr(Op.AGENT_TYPE)):
    dst: int
    src: int
    is_: int
    span: int


class First(Instr, **_instr(Op.FIRST)):
    dst: int
    src: int
    span: int


class AgeMs(Instr, **_instr(Op.AGE_MS)):
    dst: int
    src: int
    span: int


class Empty(Instr, **_instr(Op.EMPTY)):
    entry: int
    of: int
    span: int


class NonEmpty(Instr, **_instr(Op.NON_EMPTY)):
    entry: int
    of: int
    name: int
    span: int


class Equal(Instr, **_instr(Op.EQUAL)):
    entry: int
    left: int
    right: int
    span: int


class Subset(Instr, **_instr(Op.SUBSET)):
    entry: int
    of: int
    in_: int
    span: int


class Implies(Instr, **_instr(Op.IMPLIES)):
    entry: int
    of: int
    requires: int
    span: int


class Ordered(Instr, **_instr(Op.ORDERED)):
    entry: int
    of: int
    strict: bool
    span: int


class Unchanged(Instr, **_instr(Op.UNCHANGED)):
    entry: int
    pre: int
    post: int
    span: int


Instruction = Union[
    Source, SourcePair, UnionOf, OnlyIn, Intersect, SourceAt, Json, Select, Items, KeyBy,
    KeyByPattern, Field, Filter, FlattenKeys, Sort, Lines, Matches, ToolUses, UserTexts,
    AgentType, First, AgeMs, Empty, NonEmpty, Equal, Subset, Implies, Ordered, Unchanged,
]

# Instr class per opcode, for the opcode reference and explain.
INSTR_BY_OP: dict[int, type] = {cls.__struct_config__.tag: cls for cls in Instruction.__args__}
assert all(len(cls.__struct_fields__) == ARITY[op] for op, cls in INSTR_BY_OP.items()), \
    "opcodes.ARITY counts every instruction class's fields"
