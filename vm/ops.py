"""One small handler per opcode, collected in HANDLERS (conventions rule 9).

A handler reads its operands from the instruction and the frame, calls the algebra, and writes
a slot or records a relation's witnesses. The loop that runs them stays dumb (vm/machine.py).
"""

from __future__ import annotations

from typing import Any, Callable

from polydeukes.vm import algebra as A
from polydeukes.vm import plan as P
from polydeukes.vm.opcodes import Op


class SupplyProblem(Exception):
    """The first supply problem ends a world's judgment (spec 03 §7.3 step 6).

    `passed` is True for an absent source under `supply: pass`; otherwise it is a supply error
    (unjudgeable) naming `source` and `reason`.
    """

    def __init__(self, passed: bool, source: str, reason: str) -> None:
        super().__init__(reason)
        self.passed = passed
        self.source = source
        self.reason = reason


ABSENT = "the world carries no source named '{source}'"


class Frame:
    """What one program run over one world can touch."""

    __slots__ = ("plan", "world", "slots", "witnesses", "regex", "lines")

    def __init__(self, plan: P.Plan, world: dict, slot_count: int,
                 regex: Callable[[int], Any], lines: dict | None = None) -> None:
        self.plan = plan
        self.world = world
        self.slots: list[Any] = [None] * slot_count
        self.witnesses: dict[int, list] = {}  # relate entry index -> its witnesses
        self.regex = regex
        # The `lines` of a text, shared by the frames of one run: most declarations of a config
        # start `source pre|post · lines`, so the same texts are split once, not once each.
        self.lines = {} if lines is None else lines


def _absent(frame: Frame, source: str, policy: int) -> list:
    if policy == P.POLICY_EMPTY:
        return []
    raise SupplyProblem(policy == P.POLICY_PASS, source, ABSENT.format(source=source))


def op_source(f: Frame, ins: P.Source) -> None:
    of = f.plan.strings[ins.of]
    world = f.world
    f.slots[ins.dst] = [("0", world[of])] if of in world else _absent(f, of, ins.policy)


def op_source_pair(f: Frame, ins: P.SourcePair) -> None:
    if "state" not in f.world:
        # `empty` is refused for state at load time, so absence is a pass or an error.
        raise SupplyProblem(ins.policy == P.POLICY_PASS, "state", ABSENT.format(source="state"))
    try:
        pre, post = A.state_pair(f.world["state"])
    except A.SupplyFailure as failure:
        raise SupplyProblem(False, "state", failure.reason) from None
    f.slots[ins.dst_pre] = [("0", pre)]
    f.slots[ins.dst_post] = [("0", post)]


def _combinator(function: Callable[[list, list], list]):
    def handler(f: Frame, ins: Any) -> None:
        f.slots[ins.dst] = function(f.slots[ins.left], f.slots[ins.right])
    return handler


def op_source_at(f: Frame, ins: P.SourceAt) -> None:
    f.slots[ins.dst] = A.source_at(f.slots[ins.src], f.plan.strings[ins.of])


def op_json(f: Frame, ins: P.Json) -> None:
    try:
        f.slots[ins.dst] = A.json(f.slots[ins.src])
    except A.SupplyFailure as failure:
        # A present value that cannot be read is a supply error whatever the policy.
        raise SupplyProblem(False, f.plan.strings[ins.label], failure.reason) from None


def _with_string(function: Callable[[list, str], list], operand: str):
    def handler(f: Frame, ins: Any) -> None:
        f.slots[ins.dst] = function(f.slots[ins.src], f.plan.strings[getattr(ins, operand)])
    return handler


def _with_regex(function: Callable[[list, Any], list]):
    def handler(f: Frame, ins: Any) -> None:
        f.slots[ins.dst] = function(f.slots[ins.src], f.regex(ins.pattern))
    return handler


def _unary(function: Callable[[list], list]):
    def handler(f: Frame, ins: Any) -> None:
        f.slots[ins.dst] = function(f.slots[ins.src])
    return handler


def op_filter(f: Frame, ins: P.Filter) -> None:
    predicates = [tuple(p) for p in f.plan.constants[ins.predicates]]
    f.slots[ins.dst] = A.filter_(f.slots[ins.src], predicates)


def op_tool_uses(f: Frame, ins: P.ToolUses) -> None:
    names = None if ins.names == P.NONE else f.plan.constants[ins.names]
    subagent = None if ins.subagent_type == P.NONE else f.plan.strings[ins.subagent_type]
    f.slots[ins.dst] = A.tool_uses(f.slots[ins.src], names, subagent)


def op_lines(f: Frame, ins: P.Lines) -> None:
    items = f.slots[ins.src]
    if len(items) == 1 and type(items[0][1]) is str:
        # One text (a source's value): its lines do not depend on the key, only on the text.
        text = items[0][1]
        found = f.lines.get(text)
        if found is None:
            found = f.lines[text] = A.lines(items)
        # Shared between frames: safe because no step or relation mutates its input.
        f.slots[ins.dst] = found
    else:
        f.slots[ins.dst] = A.lines(items)


def _record(f: Frame, entry: int, witnesses: list) -> None:
    if witnesses:
        f.witnesses[entry] = witnesses


def op_empty(f: Frame, ins: P.Empty) -> None:
    _record(f, ins.entry, A.empty(f.slots[ins.of]))


def op_non_empty(f: Frame, ins: P.NonEmpty) -> None:
    _record(f, ins.entry, A.non_empty(f.slots[ins.of], f.plan.strings[ins.name]))


def op_equal(f: Frame, ins: P.Equal) -> None:
    _record(f, ins.entry, A.equal(f.slots[ins.left], f.slots[ins.right]))


def op_subset(f: Frame, ins: P.Subset) -> None:
    _record(f, ins.entry, A.subset(f.slots[ins.of], f.slots[ins.in_]))


def op_implies(f: Frame, ins: P.Implies) -> None:
    _record(f, ins.entry, A.implies(f.slots[ins.of], f.slots[ins.requires]))


def op_ordered(f: Frame, ins: P.Ordered) -> None:
    _record(f, ins.entry, A.ordered(f.slots[ins.of], ins.strict))


def op_unchanged(f: Frame, ins: P.Unchanged) -> None:
    _record(f, ins.entry, A.unchanged(f.slots[ins.pre], f.slots[ins.post]))


HANDLERS: dict[Op, Callable[[Frame, Any], None]] = {
    Op.SOURCE: op_source,
    Op.SOURCE_PAIR: op_source_pair,
    Op.UNION: _combinator(A.union),
    Op.ONLY_IN: _combinator(A.only_in),
    Op.INTERSECT: _combinator(A.intersect),
    Op.SOURCE_AT: op_source_at,
    Op.JSON: op_json,
    Op.SELECT: _with_string(A.select, "path"),
    Op.ITEMS: _unary(A.items_),
    Op.KEY_BY: _with_string(A.key_by, "field"),
    Op.KEY_BY_PATTERN: _with_regex(A.key_by_pattern),
    Op.FIELD: _with_string(A.field, "name"),
    Op.FILTER: op_filter,
    Op.FLATTEN_KEYS: _unary(A.flatten_keys),
    Op.SORT: _unary(A.sort),
    Op.LINES: op_lines,
    Op.MATCHES: _with_regex(A.matches),
    Op.TOOL_USES: op_tool_uses,
    Op.USER_TEXTS: _with_regex(A.user_texts),
    Op.AGENT_TYPE: _with_string(A.agent_type, "is_"),
    Op.FIRST: _unary(A.first),
    Op.AGE_MS: _unary(A.age_ms),
    Op.EMPTY: op_empty,
    Op.NON_EMPTY: op_non_empty,
    Op.EQUAL: op_equal,
    Op.SUBSET: op_subset,
    Op.IMPLIES: op_implies,
    Op.ORDERED: op_ordered,
    Op.UNCHANGED: op_unchanged,
}

assert set(HANDLERS) == set(Op), "every opcode has exactly one handler"


# Handler by instruction class: what `bind` looks up (an IntEnum call per instruction costs more).
_HANDLER_OF = {P.INSTR_BY_OP[op]: handler for op, handler in HANDLERS.items()}


def bind(code: list[P.Instruction]) -> list[tuple[Callable[[Frame, Any], None], Any]]:
    """Pair each instruction with its handler once, so the run loop does no lookups."""
    return [(_HANDLER_OF[type(ins)], ins) for ins in code]
