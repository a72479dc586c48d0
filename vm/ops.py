"""One small handler per opcode, collected in HANDLERS (conventions rule 9).

A handler reads its operands from the instruction and the frame, calls the algebra, and writes
a slot or records a relation's witnesses. The loop that runs them stays dumb (vm/machine.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Callable

from msgspec.structs import astuple

from polydeukes.vm import algebra as A
from polydeukes.vm import plan as P
from polydeukes.vm.opcodes import NAMES, Op

Stored = Sequence  # an instruction as stored: (opcode, operand, ..., span)


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

    __slots__ = ("plan", "world", "slots", "witnesses", "regex", "lines", "groups")

    def __init__(self, plan: P.Plan, world: dict, slot_count: int,
                 regex: Callable[[int], Any], lines: dict | None = None,
                 groups: dict | None = None) -> None:
        self.plan = plan
        self.world = world
        self.slots: list[Any] = [None] * slot_count
        self.witnesses: dict[int, list] = {}  # relate entry index -> its witnesses
        self.regex = regex
        # The `lines` of a text, shared by the frames of one run: most declarations of a config
        # start `source pre|post · lines`, so the same texts are split once, not once each.
        self.lines = {} if lines is None else lines
        # keyByPattern's group of a text, per pattern, shared the same way: an edit's pre and
        # post states hold mostly the same lines.
        self.groups = {} if groups is None else groups


def _absent(frame: Frame, source: str, policy: int) -> list:
    if policy == P.POLICY_EMPTY:
        return []
    raise SupplyProblem(policy == P.POLICY_PASS, source, ABSENT.format(source=source))


# Each handler gets the instruction as stored, `(opcode, operand, ..., span)` in the field order
# of its class in vm/instructions.py, and unpacks the operands it reads by position.


def op_source(f: Frame, ins: Stored) -> None:
    _, dst, of, policy, _ = ins
    of = f.plan.strings[of]
    world = f.world
    f.slots[dst] = [("0", world[of])] if of in world else _absent(f, of, policy)


def op_source_pair(f: Frame, ins: Stored) -> None:
    _, dst_pre, dst_post, policy, _ = ins
    if "state" not in f.world:
        # `empty` is refused for state at load time, so absence is a pass or an error.
        raise SupplyProblem(policy == P.POLICY_PASS, "state", ABSENT.format(source="state"))
    try:
        pre, post = A.state_pair(f.world["state"])
    except A.SupplyFailure as failure:
        raise SupplyProblem(False, "state", failure.reason) from None
    f.slots[dst_pre] = [("0", pre)]
    f.slots[dst_post] = [("0", post)]


def _combinator(function: Callable[[list, list], list]):
    def handler(f: Frame, ins: Stored) -> None:
        _, dst, left, right, _ = ins
        f.slots[dst] = function(f.slots[left], f.slots[right])
    return handler


def op_json(f: Frame, ins: Stored) -> None:
    _, dst, src, label, _ = ins
    try:
        f.slots[dst] = A.json(f.slots[src])
    except A.SupplyFailure as failure:
        # A present value that cannot be read is a supply error whatever the policy.
        raise SupplyProblem(False, f.plan.strings[label], failure.reason) from None


def _with_string(function: Callable[[list, str], list]):
    """(dst, src, string operand): sourceAt's `of`, select's `path`, keyBy's `field`, ..."""
    def handler(f: Frame, ins: Stored) -> None:
        _, dst, src, string, _ = ins
        f.slots[dst] = function(f.slots[src], f.plan.strings[string])
    return handler


def _with_regex(function: Callable[[list, Any], list]):
    def handler(f: Frame, ins: Stored) -> None:
        _, dst, src, pattern, _ = ins
        f.slots[dst] = function(f.slots[src], f.regex(pattern))
    return handler


def _unary(function: Callable[[list], list]):
    def handler(f: Frame, ins: Stored) -> None:
        _, dst, src, _ = ins
        f.slots[dst] = function(f.slots[src])
    return handler


def op_filter(f: Frame, ins: Stored) -> None:
    _, dst, src, predicates, _ = ins
    f.slots[dst] = A.filter_(f.slots[src], [tuple(p) for p in f.plan.constants[predicates]])


def op_tool_uses(f: Frame, ins: Stored) -> None:
    _, dst, src, names, subagent_type, _ = ins
    names = None if names == P.NONE else f.plan.constants[names]
    subagent = None if subagent_type == P.NONE else f.plan.strings[subagent_type]
    f.slots[dst] = A.tool_uses(f.slots[src], names, subagent)


def op_lines(f: Frame, ins: Stored) -> None:
    _, dst, src, _ = ins
    items = f.slots[src]
    if len(items) == 1 and type(items[0][1]) is str:
        # One text (a source's value): its lines do not depend on the key, only on the text.
        text = items[0][1]
        found = f.lines.get(text)
        if found is None:
            found = f.lines[text] = A.lines(items)
        # Shared between frames: safe because no step or relation mutates its input.
        f.slots[dst] = found
    else:
        f.slots[dst] = A.lines(items)


def op_key_by_pattern(f: Frame, ins: Stored) -> None:
    _, dst, src, pattern, _ = ins
    groups = f.groups.get(pattern)
    if groups is None:
        groups = f.groups[pattern] = {}
    f.slots[dst] = A.key_by_pattern(f.slots[src], f.regex(pattern), groups)


def _record(f: Frame, entry: int, witnesses: list) -> None:
    if witnesses:
        f.witnesses[entry] = witnesses


def op_empty(f: Frame, ins: Stored) -> None:
    _, entry, of, _ = ins
    _record(f, entry, A.empty(f.slots[of]))


def op_non_empty(f: Frame, ins: Stored) -> None:
    _, entry, of, name, _ = ins
    _record(f, entry, A.non_empty(f.slots[of], f.plan.strings[name]))


def _relation(function: Callable[[list, Any], list], *, operand_is_slot: bool = True):
    """(entry, of, second): equal's left/right, subset's in, implies' requires (slots), or
    ordered's `strict` (a flag)."""
    def handler(f: Frame, ins: Stored) -> None:
        _, entry, of, second, _ = ins
        _record(f, entry, function(f.slots[of], f.slots[second] if operand_is_slot else second))
    return handler


HANDLERS: dict[int, Callable[[Frame, Stored], None]] = {
    Op.SOURCE: op_source,
    Op.SOURCE_PAIR: op_source_pair,
    Op.UNION: _combinator(A.union),
    Op.ONLY_IN: _combinator(A.only_in),
    Op.INTERSECT: _combinator(A.intersect),
    Op.SOURCE_AT: _with_string(A.source_at),
    Op.JSON: op_json,
    Op.SELECT: _with_string(A.select),
    Op.ITEMS: _unary(A.items_),
    Op.KEY_BY: _with_string(A.key_by),
    Op.KEY_BY_PATTERN: op_key_by_pattern,
    Op.FIELD: _with_string(A.field),
    Op.FILTER: op_filter,
    Op.FLATTEN_KEYS: _unary(A.flatten_keys),
    Op.SORT: _unary(A.sort),
    Op.LINES: op_lines,
    Op.MATCHES: _with_regex(A.matches),
    Op.TOOL_USES: op_tool_uses,
    Op.USER_TEXTS: _with_regex(A.user_texts),
    Op.AGENT_TYPE: _with_string(A.agent_type),
    Op.FIRST: _unary(A.first),
    Op.AGE_MS: _unary(A.age_ms),
    Op.EMPTY: op_empty,
    Op.NON_EMPTY: op_non_empty,
    Op.EQUAL: _relation(A.equal),
    Op.SUBSET: _relation(A.subset),
    Op.IMPLIES: _relation(A.implies),
    Op.ORDERED: _relation(A.ordered, operand_is_slot=False),
    Op.UNCHANGED: _relation(A.unchanged),
}

assert set(HANDLERS) == set(NAMES), "every opcode has exactly one handler"


def stored(code: Sequence) -> list:
    """A program's instructions as stored, `[opcode, operand, ..., span]`: a plan read from
    plan.bin has them already (planfile.StoredCode); the compiler's instruction objects are
    turned into them here."""
    raw = getattr(code, "raw", None)
    if raw is not None:
        return raw
    return [(ins.__struct_config__.tag, *astuple(ins)) for ins in code]


def bind(code: Sequence) -> list[tuple[Callable[[Frame, Stored], None], Stored]]:
    """Pair each instruction with its handler once, so the run loop does no lookups."""
    return [(HANDLERS[ins[0]], ins) for ins in stored(code)]
