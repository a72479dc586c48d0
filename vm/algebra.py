"""What every extraction step, filter predicate, combinator and relation means (spec 03 §7–§11).

Small pure functions over item lists; they know nothing of plans, slots or worlds, so the VM's
opcode handlers call them with values they have already resolved. An item is a tuple
`(key: str, value)`; a step takes a list of items (plus its validated arguments) and returns a
new list, never mutating its input. A step drops what it cannot read; a present value it must
read and cannot (`json` on invalid text) raises `SupplyFailure`.

Python names follow the vocabulary (`keyByPattern` ↔ `key_by_pattern`); a trailing underscore
avoids a clash: `items_` (step `items`; every step's parameter is called `items`), `filter_`
(builtin), `is_` (keyword; `agentType`'s `is`). Two signatures differ from
the plain vocabulary: `source_at(items, of)` is only the **non-first** `source` step (a first
`source` reads the world, which is the VM's business: it starts from `[("0", world[of])]`), and
`empty(a)` takes no extraction name (only `non_empty` reports one).

A regex argument is a ready `polydeukes.vm.jsregex.JsRegex` (with `i` already folded in).
A witness is `(key, value, side, before)`: `side` is `"left"`/`"right"` for `equal` and None
otherwise; `before` is the pre value of an `unchanged` witness and `MISSING` for every other one.
"""

from __future__ import annotations

from typing import Any

from polydeukes.vm.values import (
    UNDEFINED,
    canonical,
    js_equal,
    js_json_parse,
    js_keys,
    js_number,
    js_string,
    js_string_key,
    js_trim,
)

Item = tuple[str, Any]
Items = list[Item]
Witness = tuple[str, Any, "str | None", Any]

NOT_JSON = "the value is not valid JSON"
NOT_A_PAIR = "'state' must be a before/after pair — an object carrying 'pre' and 'post'"


class SupplyFailure(Exception):
    """A present value a step cannot read; the VM names the source and reports it unjudgeable."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class _Missing:
    """The `before` of a witness that has none (every relation but `unchanged`)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"


MISSING = _Missing()


def _is_number(v: object) -> bool:
    t = type(v)
    return t is int or t is float  # a bool is never a number


def _is_snapshot(v: object) -> bool:
    # A session snapshot carries both lists; the raw sidecar text, null or a bare array do not.
    return (
        type(v) is dict
        and type(v.get("userMessages")) is list
        and type(v.get("toolCalls")) is list
    )


# -- steps (spec 03 §8) ------------------------------------------------------------------------


def source_at(items: Items, of: str) -> Items:
    """A `source` step after the first position: a keyed `field` that resets every key to '0'."""
    return [("0", v.get(of, UNDEFINED)) for _, v in items if type(v) is dict]


def json(items: Items) -> Items:
    """Parse each value as JSON text; a non-string is parsed as its `String()` text."""
    out = []
    for key, value in items:
        try:
            out.append((key, js_json_parse(value if type(value) is str else js_string(value))))
        except ValueError:
            raise SupplyFailure(NOT_JSON) from None
    return out


def select(items: Items, path: str) -> Items:
    """Project a dot path through plain objects; a reached array spreads into '0', '1', …"""
    segments = path.split(".")
    out: Items = []
    for key, value in items:
        reached = value
        for segment in segments:
            if type(reached) is not dict:
                break  # passing through an array, null or a scalar projects to nothing
            reached = reached.get(segment, UNDEFINED)
            if reached is UNDEFINED:
                break  # a key holding UNDEFINED is missing
        else:
            if type(reached) is list:
                out.extend((str(i), element) for i, element in enumerate(reached))
            else:
                out.append((key, reached))
    return out


def items_(items: Items) -> Items:
    """Spread each array value one level into position-keyed items; drop everything else."""
    out: Items = []
    for _, value in items:
        if type(value) is list:
            out.extend((str(i), element) for i, element in enumerate(value))
    return out


def key_by(items: Items, field: str) -> Items:
    """Re-key by a scalar, non-null direct property of an object value."""
    out = []
    for _, value in items:
        if type(value) is dict:
            prop = value.get(field, UNDEFINED)
            if prop is not UNDEFINED and prop is not None and type(prop) not in (dict, list):
                out.append((js_string(prop), value))
    return out


def key_by_pattern(items: Items, regex: Any, groups: dict | None = None) -> Items:
    """Re-key by capture group 1 of the first match over `String(value)`.

    `groups`, when given, remembers each text's group for this regex: the VM shares one per
    pattern across a run, so a line that the pre and post states both hold is matched once."""
    out = []
    for _, value in items:
        text = js_string(value)
        if groups is None:
            group = regex.group1(text)
        else:
            group = groups.get(text, MISSING)
            if group is MISSING:
                group = groups[text] = regex.group1(text)
        if type(group) is str:  # None: no match; UNSET: group 1 took no part
            out.append((group, value))
    return out


def field(items: Items, name: str) -> Items:
    """Replace each object value by its own property `name` (UNDEFINED when absent)."""
    return [(key, value.get(name, UNDEFINED)) for key, value in items if type(value) is dict]


def filter_(items: Items, predicates: list[tuple[str, str, Any]]) -> Items:
    """Keep the items satisfying every predicate; no predicates keeps everything."""
    if not predicates:
        return list(items)
    return [it for it in items if all(predicate_holds(it[1], p) for p in predicates)]


def _leaves(obj: dict, prefix: str, out: Items) -> None:
    for k in js_keys(obj):
        child = obj[k]
        path = prefix + k
        if type(child) is dict:
            if child:  # an empty object contributes nothing, at any depth
                _leaves(child, path + ".", out)
        else:
            out.append((path, path))


def flatten_keys(items: Items) -> Items:
    """The dot path of every leaf of each object value, in JS property order, as key and value."""
    out: Items = []
    for _, value in items:
        if type(value) is dict:
            _leaves(value, "", out)
    return out


def _numeric(items: Items) -> bool:
    return all(_is_number(v) for _, v in items)


def sort(items: Items) -> Items:
    """Stable ascending sort by value: numeric when every value is a number, else by String()."""
    if _numeric(items):
        return sorted(items, key=lambda it: js_number(it[1]))
    return sorted(items, key=lambda it: js_string_key(js_string(it[1])))


def lines(items: Items) -> Items:
    """Trimmed non-empty lines of `String(value)`, keyed by 1-based line number."""
    out = []
    for _, value in items:
        # Only `\n` splits; a trailing `\r` goes with the JS trim, a lone `\r` stays inside.
        for number, piece in enumerate(js_string(value).split("\n"), 1):
            text = js_trim(piece)
            if text:
                out.append((str(number), text))
    return out


def matches(items: Items, regex: Any) -> Items:
    """Keep the items whose `String(value)` the regex finds a match in."""
    return [it for it in items if regex.test(js_string(it[1]))]


def tool_uses(items: Items, names: list | None, subagent_type: str | None) -> Items:
    """Tool calls of each session snapshot, keyed by their observation ordinal."""
    out = []
    for _, value in items:
        if not _is_snapshot(value):
            continue
        for call in value["toolCalls"]:
            if type(call) is not dict:
                continue  # only a parsed JSON look-alike of a snapshot can hold one
            # `names: []` admits nothing; a non-string element never equals a tool name.
            if names is not None and not any(
                type(n) is str and n == call.get("name") for n in names
            ):
                continue
            if subagent_type is not None:
                args = call.get("args")
                if type(args) is not dict:
                    continue
                kind = args.get("subagent_type")
                if type(kind) is not str or kind != subagent_type:
                    continue
            out.append((js_string(call.get("index", UNDEFINED)), call))
    return out


def user_texts(items: Items, regex: Any) -> Items:
    """User turns of each snapshot whose text matches, carrying the snapshot's observedAtMs."""
    out = []
    for _, value in items:
        if not _is_snapshot(value):
            continue
        observed = value.get("observedAtMs", UNDEFINED)
        for message in value["userMessages"]:
            if type(message) is not dict:
                continue  # as for tool calls: only a JSON look-alike can hold one
            if regex.test(js_string(message.get("text", UNDEFINED))):
                turn = dict(message)
                turn["observedAtMs"] = observed
                out.append((js_string(message.get("index", UNDEFINED)), turn))
    return out


def agent_type(items: Items, is_: str) -> Items:
    """Sidecar records whose agentType is exactly `is_`, keyed by position in their array."""
    out = []
    for _, value in items:
        if type(value) is list:
            candidates = enumerate(value)
        elif type(value) is dict:
            candidates = enumerate((value,))  # a lone record is position 0
        else:
            continue
        for position, record in candidates:
            if type(record) is dict:
                kind = record.get("agentType")
                if type(kind) is str and kind == is_:
                    out.append((str(position), record))
    return out


def first(items: Items) -> Items:
    """Only the first item, keeping its own key."""
    return items[:1]


def age_ms(items: Items) -> Items:
    """Add `ageMs = observedAtMs − timestampMs`; drop untimed, unclocked or future items."""
    out = []
    for key, value in items:
        if type(value) is not dict:
            continue
        stamp = value.get("timestampMs")
        clock = value.get("observedAtMs")
        if not (_is_number(stamp) and _is_number(clock)):
            continue
        age = js_number(clock) - js_number(stamp)
        if not age >= 0:  # negative ("stamped after the clock"), or NaN from infinities
            continue
        aged = dict(value)
        aged["ageMs"] = age
        out.append((key, aged))
    return out


def state_pair(value: Any) -> tuple[Any, Any]:
    """The two sides of a present `state`, or the supply failure of spec 03 §7.3 step 4."""
    if type(value) is not dict or "pre" not in value or "post" not in value:
        raise SupplyFailure(NOT_A_PAIR)
    return value["pre"], value["post"]


# -- filter predicates (spec 03 §9) ------------------------------------------------------------


def predicate_holds(value: Any, predicate: tuple[str, str, Any]) -> bool:
    """Whether an item value satisfies `(field, operator, constant)`; non-objects never do."""
    if type(value) is not dict:
        return False
    name, operator, constant = predicate
    prop = value.get(name, UNDEFINED)
    if operator == "eq":
        return js_equal(prop, constant)
    if operator == "ne":
        return not js_equal(prop, constant)
    if operator == "lte":
        return _is_number(prop) and js_number(prop) <= js_number(constant)
    if operator == "gte":
        return _is_number(prop) and js_number(prop) >= js_number(constant)
    if operator == "size":
        return type(prop) is list and len(prop) == constant
    if operator == "notIn":
        return not any(js_equal(prop, c) for c in constant)
    raise ValueError(f"unknown filter operator {operator!r}")


# -- combinators (spec 03 §10) -----------------------------------------------------------------


def union(a: Items, b: Items) -> Items:
    """All items of `a`, then all items of `b`."""
    return a + b


def only_in(a: Items, b: Items) -> Items:
    """Items of `a` whose key occurs nowhere in `b`, in `a` order."""
    keys = {k for k, _ in b}
    return [it for it in a if it[0] not in keys]


def intersect(a: Items, b: Items) -> Items:
    """Items of `a` whose key occurs in `b`, in `a` order, with `a`'s values."""
    keys = {k for k, _ in b}
    return [it for it in a if it[0] in keys]


# -- relations (spec 03 §11): each returns its witnesses; none means it holds -----------------


def empty(a: Items) -> list[Witness]:
    return [(k, v, None, MISSING) for k, v in a]


def non_empty(a: Items, name: str) -> list[Witness]:
    return [] if a else [(name, None, None, MISSING)]


def equal(a: Items, b: Items) -> list[Witness]:
    """Values of either side missing from the other: left-only items, then right-only items."""
    ca = [canonical(v) for _, v in a]
    cb = [canonical(v) for _, v in b]
    in_a, in_b = set(ca), set(cb)
    witnesses = [(k, v, "left", MISSING) for (k, v), c in zip(a, ca) if c not in in_b]
    witnesses += [(k, v, "right", MISSING) for (k, v), c in zip(b, cb) if c not in in_a]
    return witnesses


def subset(a: Items, b: Items) -> list[Witness]:
    in_b = {canonical(v) for _, v in b}
    return [(k, v, None, MISSING) for k, v in a if canonical(v) not in in_b]


def implies(a: Items, b: Items) -> list[Witness]:
    keys = {k for k, _ in b}
    return [(k, v, None, MISSING) for k, v in a if k not in keys]


def ordered(a: Items, strict: bool) -> list[Witness]:
    """The later item of every adjacent pair that descends (or, under `strict`, ties)."""
    if _numeric(a):
        order = [js_number(v) for _, v in a]
    else:
        order = [js_string_key(js_string(v)) for _, v in a]
    witnesses = []
    for i in range(1, len(order)):
        prev, cur = order[i - 1], order[i]
        if cur < prev or (strict and not prev < cur and not cur < prev):
            k, v = a[i]
            witnesses.append((k, v, None, MISSING))
    return witnesses


def unchanged(pre_items: Items, post_items: Items) -> list[Witness]:
    """Post items whose key the pre side also has, with a different value (the last pre wins)."""
    before = dict(pre_items)
    witnesses = []
    for k, v in post_items:
        if k in before and not js_equal(before[k], v):
            witnesses.append((k, v, None, before[k]))
    return witnesses
