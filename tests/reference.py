"""A test-only evaluator of one declaration over one world, written from spec 03 alone.

This is the differential oracle for the VM (tests/test_differential.py). It shares no code with
vm/: not the slot machine, not vm/ops.py, not vm/algebra.py's steps and relations, not
vm/values.py's JavaScript value model, not vm/jsregex.py. Each of those is written again here
from the spec text, deliberately in a different way where there is a choice (pairwise equality
instead of canonical forms, Decimal digits for number formatting, UTF-16 bytes for string
order), so that a mistake in one is not repeated in the other.

What it does take from the product: the resolved AST (`compiler.nodes.ResolvedDeclaration`, the
same input the VM's plan is lowered from) and, for each regular expression, the compiler's
translation into Python `re` source — the translation has its own oracle, JavaScript itself
(tests/test_regex_js.py). Running that source over UTF-16 code units is done here again.

The judgment is the lazy walk of spec 03 §7.3:
* relate entries in declaration order;
* each resolves the extractions it names on demand, left operand first, and a resolved
  extraction is cached for the rest of the world's judgment (the witness block included);
* a source-headed pipeline starts from `[('0', world[source])]`, or from `[]` under
  `supply: empty`; any other absence is a supply problem;
* a paired pipeline (`source state`) runs its steps over `state.pre` and `state.post`;
* the first supply problem ends the judgment and discards the breaks found so far.

Values are JavaScript values spelled in Python: str, int/float (numbers; a bool is not one),
bool, None (null), this module's `UNDEFINED`, list/tuple (arrays), dict (plain objects). An item
is `(key, value)`; a witness is `(key, value, side, before)` with `side` "left"/"right" for
`equal` and None otherwise, and `before` = `NO_BEFORE` except for `unchanged`.
"""

from __future__ import annotations

import json as _json
import math
import re
from decimal import Decimal
from typing import Any, NamedTuple

from polydeukes.compiler import nodes

PASSED, BROKEN, SUPPLY_PASS, SUPPLY_ERROR = "passed", "broken", "supply-pass", "supply-error"
ABSENT = "the world carries no source named '{source}'"  # §7.3
NOT_JSON = "the value is not valid JSON"  # §8.2
NOT_A_PAIR = "'state' must be a before/after pair — an object carrying 'pre' and 'post'"  # §7.3


class _Marker:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


UNDEFINED = _Marker("undefined")  # JavaScript `undefined`, never None (spec 03 conventions)
NO_BEFORE = _Marker("no-before")  # the `before` of a witness of any relation but `unchanged`


# -- JavaScript values (spec 03 §12) -----------------------------------------------------------


def _number(v: Any) -> bool:
    return type(v) in (int, float)  # bool is a subclass of int and must not count


def _object(v: Any) -> bool:
    return type(v) is dict


def _array(v: Any) -> bool:
    return type(v) in (list, tuple)


def _double(x: int | float) -> float:
    """The JavaScript number a Python number stands for (integers past 2**53 round)."""
    try:
        return float(x)
    except OverflowError:
        return math.inf if x > 0 else -math.inf


def number_text(x: int | float) -> str:
    """Number::toString (§12.2): shortest round-trip digits d1…dk with value 0.d1…dk × 10^n."""
    x = _double(x)
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "0"
    sign = "-" if x < 0 else ""
    # repr is the shortest text that reads back as the same double; Decimal splits it.
    _, digit_tuple, exponent = Decimal(repr(abs(x))).as_tuple()
    digits = "".join(map(str, digit_tuple))
    stripped = digits.rstrip("0")
    exponent += len(digits) - len(stripped)
    digits, k = stripped, len(stripped)
    n = k + exponent
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return sign + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * (-n) + digits
    e = f"e{'+' if n - 1 >= 0 else '-'}{abs(n - 1)}"
    return sign + digits[0] + ("." + digits[1:] if k > 1 else "") + e


def text(v: Any) -> str:
    """JavaScript String(v) (§12.2)."""
    if type(v) is str:
        return v
    if type(v) is bool:
        return "true" if v else "false"
    if _number(v):
        return number_text(v)
    if v is None:
        return "null"
    if v is UNDEFINED:
        return "undefined"
    if _array(v):
        return ",".join("" if e is None or e is UNDEFINED else text(e) for e in v)
    if _object(v):
        return "[object Object]"
    raise TypeError(f"not a JavaScript value: {v!r}")


def same(a: Any, b: Any) -> bool:
    """Structural equality (§12.1)."""
    if a is UNDEFINED or b is UNDEFINED or a is None or b is None:
        return a is b
    if type(a) is bool or type(b) is bool:
        return type(a) is bool and type(b) is bool and a == b
    if _number(a) or _number(b):
        return _number(a) and _number(b) and _double(a) == _double(b)
    if type(a) is str or type(b) is str:
        return type(a) is str and type(b) is str and a == b
    if _array(a) or _array(b):
        return (_array(a) and _array(b) and len(a) == len(b)
                and all(same(x, y) for x, y in zip(a, b)))
    if _object(a) and _object(b):
        # Key order is ignored, and a key holding undefined is the same as no key at all.
        keys_a = {k for k, v in a.items() if v is not UNDEFINED}
        keys_b = {k for k, v in b.items() if v is not UNDEFINED}
        return keys_a == keys_b and all(same(a[k], b[k]) for k in keys_a)
    return False


def _utf16(s: str) -> bytes:
    return s.encode("utf-16-be", "surrogatepass")


def precedes(a: str, b: str) -> bool:
    """JavaScript `a < b` for strings: UTF-16 code units, no locale (§12.3)."""
    return _utf16(a) < _utf16(b)


_INDEX = re.compile(r"0|[1-9][0-9]*")


def own_keys(obj: dict) -> list[str]:
    """Property order (§12.4): array-index keys ascending, then the rest as inserted."""
    def is_index(k: str) -> bool:
        return _INDEX.fullmatch(k) is not None and int(k) <= 2**32 - 2

    return sorted((k for k in obj if is_index(k)), key=int) + [k for k in obj if not is_index(k)]


_JS_SPACE = "\t\n\v\f\r \u00a0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff" + "".join(
    chr(c) for c in range(0x2000, 0x200B))


def trim(s: str) -> str:
    """String.prototype.trim with the JavaScript whitespace set (§12.6)."""
    return s.strip(_JS_SPACE)


class _NotJson(Exception):
    pass


def _refuse(name: str) -> Any:
    raise _NotJson(name)


def _integer(digits: str) -> int | float:
    value = int(digits)
    return value if abs(value) <= 2**53 - 1 else float(digits)  # JavaScript numbers are doubles


def parse_json(s: str) -> Any:
    """JSON.parse (§12.5); raises _NotJson where JavaScript throws."""
    try:
        # dict() keeps a duplicate key at its first position with the last value, as JS does.
        return _json.loads(s, object_pairs_hook=dict, parse_constant=_refuse, parse_int=_integer)
    except (ValueError, RecursionError):
        raise _NotJson(s) from None


# -- regular expressions: the compiler's translation, run over UTF-16 code units (§19) ---------

_compiled: dict[tuple[str, int], re.Pattern] = {}


def _units(s: str) -> str:
    out = []
    for c in s:
        cp = ord(c)
        if cp > 0xFFFF:
            cp -= 0x10000
            out += [chr(0xD800 + (cp >> 10)), chr(0xDC00 + (cp & 0x3FF))]
        else:
            out.append(c)
    return "".join(out)


def _joined(units: str) -> str:
    return units.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def first_match(translated: Any, subject: str) -> tuple[bool, str | None]:
    """(matched, group 1 text or None when group 1 took no part) of the first match."""
    key = (translated.source, translated.flags)
    if key not in _compiled:
        _compiled[key] = re.compile(translated.source, translated.flags)
    astral = any(ord(c) > 0xFFFF for c in subject)
    view = _units(subject) if translated.needs_utf16 and astral else subject
    m = _compiled[key].search(view)
    if m is None:
        return False, None
    group1 = m.group(1) if translated.group_count >= 1 else None
    if group1 is not None and view is not subject:
        group1 = _joined(group1)
    return True, group1


# -- the seventeen steps (§8): each takes and returns a list of (key, value) -------------------


class Unreadable(Exception):
    """A present value a step must read and cannot (§6: an error whatever the policy)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _snapshot(v: Any) -> bool:
    return _object(v) and _array(v.get("userMessages")) and _array(v.get("toolCalls"))


def step_source(items: list, of: str) -> list:
    """§7.2: a `source` step after the first position."""
    return [("0", v[of] if of in v else UNDEFINED) for _, v in items if _object(v)]


def step_json(items: list) -> list:
    out = []
    for k, v in items:
        try:
            out.append((k, parse_json(v if type(v) is str else text(v))))
        except _NotJson:
            raise Unreadable(NOT_JSON) from None
    return out


def step_select(items: list, path: str) -> list:
    out = []
    for k, v in items:
        reached = v
        for segment in path.split("."):
            if not _object(reached) or reached.get(segment, UNDEFINED) is UNDEFINED:
                reached = UNDEFINED
                break
            reached = reached[segment]
        if reached is UNDEFINED:
            continue
        if _array(reached):
            out += [(str(i), e) for i, e in enumerate(reached)]
        else:
            out.append((k, reached))
    return out


def step_items(items: list) -> list:
    return [(str(i), e) for _, v in items if _array(v) for i, e in enumerate(v)]


def step_key_by(items: list, field: str) -> list:
    out = []
    for _, v in items:
        if _object(v):
            prop = v.get(field, UNDEFINED)
            if prop is not UNDEFINED and prop is not None and not _object(prop) and not _array(prop):
                out.append((text(prop), v))
    return out


def step_key_by_pattern(items: list, translated: Any) -> list:
    out = []
    for _, v in items:
        matched, group1 = first_match(translated, text(v))
        if matched and group1 is not None:
            out.append((group1, v))
    return out


def step_field(items: list, name: str) -> list:
    return [(k, v.get(name, UNDEFINED)) for k, v in items if _object(v)]


def holds(predicate: Any, value: Any) -> bool:
    """One filter predicate (§9) over one item value."""
    if not _object(value):
        return False
    prop = value.get(predicate.field, UNDEFINED)
    if isinstance(predicate, nodes.Eq):
        return same(prop, predicate.eq)
    if isinstance(predicate, nodes.Ne):
        return not same(prop, predicate.ne)
    if isinstance(predicate, nodes.Size):
        return _array(prop) and len(prop) == predicate.size
    if isinstance(predicate, nodes.NotIn):
        return all(not same(prop, c) for c in predicate.not_in)
    if isinstance(predicate, nodes.Lte):
        return _number(prop) and _double(prop) <= _double(predicate.lte)
    if isinstance(predicate, nodes.Gte):
        return _number(prop) and _double(prop) >= _double(predicate.gte)
    raise AssertionError(predicate)


def step_filter(items: list, when: tuple) -> list:
    return [(k, v) for k, v in items if all(holds(p, v) for p in when)]


def step_flatten_keys(items: list) -> list:
    out: list = []

    def walk(obj: dict, prefix: str) -> None:
        for k in own_keys(obj):
            child = obj[k]
            if _object(child):
                walk(child, prefix + k + ".")  # an empty object adds nothing, at any depth
            else:
                out.append((prefix + k, prefix + k))

    for _, v in items:
        if _object(v):
            walk(v, "")
    return out


def step_sort(items: list) -> list:
    if all(_number(v) for _, v in items):
        return sorted(items, key=lambda item: _double(item[1]))
    return sorted(items, key=lambda item: _utf16(text(item[1])))  # sorted() is stable


def step_lines(items: list) -> list:
    out = []
    for _, v in items:
        for number, piece in enumerate(text(v).split("\n"), start=1):
            if trim(piece):
                out.append((str(number), trim(piece)))
    return out


def step_matches(items: list, translated: Any) -> list:
    return [(k, v) for k, v in items if first_match(translated, text(v))[0]]


def step_tool_uses(items: list, names: tuple | None, subagent_type: str | None) -> list:
    out = []
    for _, v in items:
        if not _snapshot(v):
            continue
        for call in v["toolCalls"]:
            if not _object(call):
                continue  # unspecified (a runner's snapshot holds only objects); dropped
            if names is not None and not any(type(n) is str and n == call.get("name")
                                             for n in names):
                continue
            if subagent_type is not None:
                args = call.get("args")
                kind = args.get("subagent_type") if _object(args) else None
                if type(kind) is not str or kind != subagent_type:
                    continue
            out.append((text(call.get("index", UNDEFINED)), call))
    return out


def step_user_texts(items: list, translated: Any) -> list:
    out = []
    for _, v in items:
        if not _snapshot(v):
            continue
        for message in v["userMessages"]:
            if not _object(message):
                continue  # unspecified, as for tool calls
            if first_match(translated, text(message.get("text", UNDEFINED)))[0]:
                turn = {**message, "observedAtMs": v.get("observedAtMs", UNDEFINED)}
                out.append((text(message.get("index", UNDEFINED)), turn))
    return out


def step_agent_type(items: list, is_: str) -> list:
    out = []
    for _, v in items:
        candidates = list(v) if _array(v) else [v] if _object(v) else []
        for position, record in enumerate(candidates):
            if _object(record) and type(record.get("agentType")) is str \
                    and record["agentType"] == is_:
                out.append((str(position), record))
    return out


def step_first(items: list) -> list:
    return items[:1]


def step_age_ms(items: list) -> list:
    out = []
    for k, v in items:
        if not _object(v):
            continue
        stamp, clock = v.get("timestampMs"), v.get("observedAtMs")
        if not (_number(stamp) and _number(clock)):
            continue
        age = _double(clock) - _double(stamp)  # JavaScript subtracts doubles
        if age >= 0:  # a message stamped after the clock is not fresh (NaN fails too)
            out.append((k, {**v, "ageMs": age}))
    return out


def apply_step(step: Any, items: list) -> list:
    if isinstance(step, nodes.Source):
        return step_source(items, step.of)
    if isinstance(step, nodes.Json):
        return step_json(items)
    if isinstance(step, nodes.Select):
        return step_select(items, step.path)
    if isinstance(step, nodes.Items):
        return step_items(items)
    if isinstance(step, nodes.KeyBy):
        return step_key_by(items, step.field)
    if isinstance(step, nodes.KeyByPattern):
        return step_key_by_pattern(items, step.translated)
    if isinstance(step, nodes.Field):
        return step_field(items, step.name)
    if isinstance(step, nodes.Filter):
        return step_filter(items, step.when)
    if isinstance(step, nodes.FlattenKeys):
        return step_flatten_keys(items)
    if isinstance(step, nodes.Sort):
        return step_sort(items)
    if isinstance(step, nodes.Lines):
        return step_lines(items)
    if isinstance(step, nodes.Matches):
        return step_matches(items, step.translated)
    if isinstance(step, nodes.ToolUses):
        return step_tool_uses(items, step.names, step.subagent_type)
    if isinstance(step, nodes.UserTexts):
        return step_user_texts(items, step.translated)
    if isinstance(step, nodes.AgentType):
        return step_agent_type(items, step.is_)
    if isinstance(step, nodes.First):
        return step_first(items)
    if isinstance(step, nodes.AgeMs):
        return step_age_ms(items)
    raise AssertionError(f"unknown step {step!r}")


# -- combinators (§10) and relations (§11) -----------------------------------------------------


def combine(head: Any, left: list, right: list) -> list:
    right_keys = [k for k, _ in right]
    if isinstance(head, nodes.Union):
        return left + right
    if isinstance(head, nodes.OnlyIn):
        return [(k, v) for k, v in left if k not in right_keys]
    return [(k, v) for k, v in left if k in right_keys]  # intersect


def _witness(item: tuple, side: str | None = None, before: Any = NO_BEFORE) -> tuple:
    return (item[0], item[1], side, before)


def _has_value(items: list, value: Any) -> bool:
    return any(same(value, v) for _, v in items)


def relate_empty(a: list) -> list:
    return [_witness(item) for item in a]


def relate_non_empty(a: list, name: str) -> list:
    return [] if a else [_witness((name, None))]


def relate_equal(a: list, b: list) -> list:
    return ([_witness(item, "left") for item in a if not _has_value(b, item[1])]
            + [_witness(item, "right") for item in b if not _has_value(a, item[1])])


def relate_subset(a: list, b: list) -> list:
    return [_witness(item) for item in a if not _has_value(b, item[1])]


def relate_implies(a: list, b: list) -> list:
    keys = [k for k, _ in b]
    return [_witness(item) for item in a if item[0] not in keys]


def relate_ordered(a: list, strict: bool) -> list:
    numeric = all(_number(v) for _, v in a)
    out = []
    for prev, cur in zip(a, a[1:]):
        if numeric:
            x, y = _double(prev[1]), _double(cur[1])
            descends, ties = y < x, x == y
        else:
            x, y = text(prev[1]), text(cur[1])
            descends, ties = precedes(y, x), x == y
        if descends or (strict and ties):
            out.append(_witness(cur))
    return out


def relate_unchanged(pre: list, post: list) -> list:
    last_pre = {}
    for k, v in pre:
        last_pre[k] = v  # a later duplicate key overwrites an earlier one
    return [_witness((k, v), before=last_pre[k]) for k, v in post
            if k in last_pre and not same(last_pre[k], v)]


# -- message rendering (§13.2) -----------------------------------------------------------------


def _expand(replacement: str, template: str, at: int, placeholder: str) -> str:
    """JS GetSubstitution for a string pattern: `$$`, `$&`, `` $` ``, `$'`; any other `$` stays."""
    out, i = [], 0
    while i < len(replacement):
        pair = replacement[i:i + 2]
        if pair == "$$":
            out.append("$")
        elif pair == "$&":
            out.append(placeholder)
        elif pair == "$`":
            out.append(template[:at])
        elif pair == "$'":
            out.append(template[at + len(placeholder):])
        else:
            out.append(replacement[i])
            i += 1
            continue
        i += 2
    return "".join(out)


def replace_all(template: str, placeholder: str, replacement: str) -> str:
    """JS `template.replaceAll(placeholder, replacement)`: every occurrence, left to right."""
    pieces = template.split(placeholder)
    if len(pieces) == 1:
        return template
    out, at = [pieces[0]], len(pieces[0])
    for piece in pieces[1:]:
        out.append(_expand(replacement, template, at, placeholder))
        out.append(piece)
        at += len(placeholder) + len(piece)
    return "".join(out)


def render(entry: nodes.RelateEntry, witnesses: list) -> str:
    key, value, side, before = witnesses[0]
    if entry.message is not None:
        template = entry.message
    else:
        template = entry.message_by_side.left if side == "left" else entry.message_by_side.right
    template = replace_all(template, "{key}", key)
    template = replace_all(template, "{value}", text(value))
    shown = "" if before is NO_BEFORE or before is UNDEFINED else text(before)
    template = replace_all(template, "{before}", shown)
    return template + (f" (+{len(witnesses) - 1})" if len(witnesses) > 1 else "")


# -- the lazy evaluator (§7.3) -----------------------------------------------------------------


class Problem(Exception):
    """A supply problem: `passed` under `supply: pass`, otherwise a supply error."""

    def __init__(self, passed: bool, source: str, reason: str) -> None:
        super().__init__(reason)
        self.passed, self.source, self.reason = passed, source, reason


class Break(NamedTuple):
    id: str
    message: str
    witnesses: list  # (key, value, side, before)


class Judgment(NamedTuple):
    status: str
    breaks: list[Break]
    source: str = ""
    reason: str = ""


class Evaluator:
    """One world's judgment of one declaration; `cache` lives as long as the world's judgment."""

    def __init__(self, decl: nodes.ResolvedDeclaration, world: dict) -> None:
        self.world = world
        self.supply = {s.source: s.policy for s in decl.declaration.supply}
        self.pipelines = {p.name: p for p in decl.extract}
        if decl.witness is not None:
            self.pipelines.update({p.name: p for p in decl.witness.extract})
        self.cache: dict[str, Any] = {}

    def resolve(self, name: str) -> Any:
        """A single extraction's items, or a paired one's `(pre items, post items)`."""
        if name not in self.cache:
            self.cache[name] = self._compute(self.pipelines[name])
        return self.cache[name]

    def _run(self, steps: tuple, items: list, source: str) -> list:
        try:
            for step in steps:
                items = apply_step(step, items)
        except Unreadable as failure:
            # A present value a step cannot read is an error whatever the policy (§6).
            raise Problem(False, source, failure.reason) from None
        return items

    def _compute(self, pipeline: nodes.ResolvedPipeline) -> Any:
        head = pipeline.head
        if isinstance(head, nodes.Source):
            of = head.of
            policy = self.supply.get(of, "error")
            if of not in self.world:
                if policy == "empty" and not pipeline.paired:
                    return self._run(pipeline.steps, [], of)
                raise Problem(policy == "pass", of, ABSENT.format(source=of))
            value = self.world[of]
            if pipeline.paired:
                if not _object(value) or "pre" not in value or "post" not in value:
                    raise Problem(False, "state", NOT_A_PAIR)
                return (self._run(pipeline.steps, [("0", value["pre"])], of),
                        self._run(pipeline.steps, [("0", value["post"])], of))
            return self._run(pipeline.steps, [("0", value)], of)
        left, right = (head.of, head.not_in) if isinstance(head, nodes.OnlyIn) else head.of
        left_items = self.resolve(left)  # left operand first (§7.3 step 2)
        right_items = self.resolve(right)
        return self._run(pipeline.steps, combine(head, left_items, right_items), pipeline.name)

    def witnesses(self, relation: Any) -> list:
        if isinstance(relation, nodes.Empty):
            return relate_empty(self.resolve(relation.of))
        if isinstance(relation, nodes.NonEmpty):
            return relate_non_empty(self.resolve(relation.of), relation.of)
        if isinstance(relation, nodes.Equal):
            left = self.resolve(relation.of[0])
            return relate_equal(left, self.resolve(relation.of[1]))
        if isinstance(relation, nodes.Subset):
            of = self.resolve(relation.of)
            return relate_subset(of, self.resolve(relation.in_))
        if isinstance(relation, nodes.Implies):
            of = self.resolve(relation.of)
            return relate_implies(of, self.resolve(relation.requires))
        if isinstance(relation, nodes.Ordered):
            return relate_ordered(self.resolve(relation.of), relation.strict)
        if isinstance(relation, nodes.Unchanged):
            pre, post = self.resolve(relation.of)
            return relate_unchanged(pre, post)
        raise AssertionError(f"unknown relation {relation!r}")

    def relate(self, entries: tuple[nodes.RelateEntry, ...]) -> list[Break]:
        found = []
        for entry in entries:
            witnesses = self.witnesses(entry.relation)
            if witnesses:
                found.append(Break(entry.id, render(entry, witnesses), witnesses))
        return found


def judge(decl: nodes.ResolvedDeclaration, world: dict) -> tuple[Judgment, Evaluator]:
    """The body's judgment of one admitted world, and the evaluator (for the witness block)."""
    evaluator = Evaluator(decl, world)
    try:
        breaks = evaluator.relate(decl.relate)
    except Problem as problem:
        status = SUPPLY_PASS if problem.passed else SUPPLY_ERROR
        return Judgment(status, [], problem.source, problem.reason), evaluator
    return Judgment(BROKEN if breaks else PASSED, breaks), evaluator


def witness_opens(decl: nodes.ResolvedDeclaration, evaluator: Evaluator) -> bool:
    """§14: on the world that broke, every witness relate entry holds and nothing is absent."""
    if decl.witness is None:
        return False
    try:
        return not evaluator.relate(decl.witness.relate)
    except Problem:
        return False
