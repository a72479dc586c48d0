"""The one numbered, append-only opcode list (conventions rule 1).

Never reuse or reorder a number; changing what an opcode means bumps planfile.FORMAT.
Operands are slot numbers and table indices (plan.strings, plan.patterns, plan.constants);
the comment after each opcode gives its operands and effect. An instruction is stored as
`[opcode, operand, ..., span]` (vm/instructions.py: one class per opcode, same field order).

The opcodes are plain ints, named by `NAMES` (explain prints the names): an IntEnum of 29
members cost every check ~2.9 M instructions to create and buys nothing at run time.
"""


class Op:
    # -- pipeline heads: read the world --------------------------------------------------------
    SOURCE = 1  # dst, of:str, policy -> [('0', world[of])]; absent: policy decides
    SOURCE_PAIR = 2  # dst_pre, dst_post, policy -> the two sides of `state`
    # -- combinators (first step only) ---------------------------------------------------------
    UNION = 3  # dst, left, right -> items of left, then of right
    ONLY_IN = 4  # dst, left, right -> items of left whose key is nowhere in right
    INTERSECT = 5  # dst, left, right -> items of left whose key occurs in right
    # -- unary steps (dst may equal src: a pipeline is transformed in place) -------------------
    SOURCE_AT = 6  # dst, src, of:str -> each object value's property `of`, keyed '0'
    JSON = 7  # dst, src, label:str -> each value parsed as JSON; failure: supply failure
    SELECT = 8  # dst, src, path:str -> dot-path projection; arrays spread
    ITEMS = 9  # dst, src -> each array value spread one level
    KEY_BY = 10  # dst, src, field:str -> re-keyed by a scalar property
    KEY_BY_PATTERN = 11  # dst, src, pattern -> re-keyed by capture group 1
    FIELD = 12  # dst, src, name:str -> value replaced by one property
    FILTER = 13  # dst, src, predicates:const -> items satisfying every predicate
    FLATTEN_KEYS = 14  # dst, src -> dot paths of nested object leaves
    SORT = 15  # dst, src -> stable ascending sort by value
    LINES = 16  # dst, src -> trimmed non-empty lines keyed by line number
    MATCHES = 17  # dst, src, pattern -> items whose value matches
    TOOL_USES = 18  # dst, src, names:const|-1, subagent_type:str|-1 -> snapshot tool calls
    USER_TEXTS = 19  # dst, src, pattern -> matching snapshot user messages
    AGENT_TYPE = 20  # dst, src, is:str -> sidecar records of one agent type
    FIRST = 21  # dst, src -> the first item only
    AGE_MS = 22  # dst, src -> ageMs added from the snapshot clock
    # -- relations: record the witnesses of relate entry `entry` -------------------------------
    EMPTY = 23  # entry, of -> every item of `of`
    NON_EMPTY = 24  # entry, of, name:str -> one witness (name, null) when `of` is empty
    EQUAL = 25  # entry, left, right -> values on one side only, with their side
    SUBSET = 26  # entry, of, in -> items of `of` whose value is not in `in`
    IMPLIES = 27  # entry, of, requires -> items of `of` whose key is not in `requires`
    ORDERED = 28  # entry, of, strict -> the later item of each descending pair
    UNCHANGED = 29  # entry, pre, post -> post items whose value differs from pre's


NAMES: dict[int, str] = {value: name for name, value in vars(Op).items() if name.isupper()}

# How many operands (the span included) an instruction of each opcode stores after its opcode:
# a plan read from plan.bin is checked against it before any instruction is run.
ARITY: dict[int, int] = {
    Op.SOURCE: 4, Op.SOURCE_PAIR: 4, Op.UNION: 4, Op.ONLY_IN: 4, Op.INTERSECT: 4,
    Op.SOURCE_AT: 4, Op.JSON: 4, Op.SELECT: 4, Op.ITEMS: 3, Op.KEY_BY: 4,
    Op.KEY_BY_PATTERN: 4, Op.FIELD: 4, Op.FILTER: 4, Op.FLATTEN_KEYS: 3, Op.SORT: 3,
    Op.LINES: 3, Op.MATCHES: 4, Op.TOOL_USES: 5, Op.USER_TEXTS: 4, Op.AGENT_TYPE: 4,
    Op.FIRST: 3, Op.AGE_MS: 3, Op.EMPTY: 3, Op.NON_EMPTY: 4, Op.EQUAL: 4, Op.SUBSET: 4,
    Op.IMPLIES: 4, Op.ORDERED: 4, Op.UNCHANGED: 4,
}
