"""A test-only evaluator of one declaration over one world, written straight from spec 03 §7.3.

This is the differential oracle for the VM (tests/test_differential.py). It deliberately shares
nothing with the compiler's lowering, the slot machine or vm/ops.py: it walks the resolved AST
(`compiler.nodes.ResolvedDeclaration`) lazily, the way the spec describes the judgment —

* relate entries in declaration order;
* each resolves the extractions it names on demand, left operand first, and a resolved
  extraction is cached for the rest of the world's judgment (the witness block included);
* a source-headed pipeline starts from `[('0', world[source])]`, or from `[]` under
  `supply: empty`; any other absence is a supply problem;
* a paired pipeline (`source state`) runs its steps over `state.pre` and `state.post`;
* the first supply problem ends the judgment and discards the breaks found so far.

What it does reuse: vm/algebra.py's step, combinator and relation functions (they have their own
case and law tests) and vm/jsregex.py to run the regexes the resolver translated. Message
rendering is re-implemented here from §13.2 so the VM's renderer is checked too.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from polydeukes.compiler import nodes
from polydeukes.vm import algebra as A
from polydeukes.vm.jsregex import JsRegex
from polydeukes.vm.values import UNDEFINED, js_string

PASSED, BROKEN, SUPPLY_PASS, SUPPLY_ERROR = "passed", "broken", "supply-pass", "supply-error"
ABSENT = "the world carries no source named '{source}'"


class Problem(Exception):
    """A supply problem: `passed` under `supply: pass`, otherwise a supply error."""

    def __init__(self, passed: bool, source: str, reason: str) -> None:
        super().__init__(reason)
        self.passed, self.source, self.reason = passed, source, reason


class Break(NamedTuple):
    id: str
    message: str
    witnesses: list  # algebra witnesses: (key, value, side, before)


class Judgment(NamedTuple):
    status: str
    breaks: list[Break]
    source: str = ""
    reason: str = ""


# -- message rendering (§13.2), written independently of vm/messages.py -----------------------


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
        text = entry.message
    else:
        text = entry.message_by_side.left if side == "left" else entry.message_by_side.right
    text = replace_all(text, "{key}", key)
    text = replace_all(text, "{value}", js_string(value))
    shown = "" if before is A.MISSING or before is UNDEFINED else js_string(before)
    text = replace_all(text, "{before}", shown)
    return text + (f" (+{len(witnesses) - 1})" if len(witnesses) > 1 else "")


# -- the lazy evaluator ------------------------------------------------------------------------


def _regex(step: Any) -> JsRegex:
    return JsRegex.from_translated(step.translated)


def _predicate(predicate: Any) -> tuple[str, str, Any]:
    for operator, attribute in (("eq", "eq"), ("ne", "ne"), ("size", "size"),
                                ("notIn", "not_in"), ("lte", "lte"), ("gte", "gte")):
        if hasattr(predicate, attribute):
            constant = getattr(predicate, attribute)
            return predicate.field, operator, list(constant) if type(constant) is tuple else constant
    raise AssertionError(predicate)


def apply_step(step: Any, items: list) -> list:
    """One unary step (§8); a `source` here is the non-first meaning of §7.2."""
    if isinstance(step, nodes.Source):
        return A.source_at(items, step.of)
    if isinstance(step, nodes.Json):
        return A.json(items)
    if isinstance(step, nodes.Select):
        return A.select(items, step.path)
    if isinstance(step, nodes.Items):
        return A.items_(items)
    if isinstance(step, nodes.KeyBy):
        return A.key_by(items, step.field)
    if isinstance(step, nodes.KeyByPattern):
        return A.key_by_pattern(items, _regex(step))
    if isinstance(step, nodes.Field):
        return A.field(items, step.name)
    if isinstance(step, nodes.Filter):
        return A.filter_(items, [_predicate(p) for p in step.when])
    if isinstance(step, nodes.FlattenKeys):
        return A.flatten_keys(items)
    if isinstance(step, nodes.Sort):
        return A.sort(items)
    if isinstance(step, nodes.Lines):
        return A.lines(items)
    if isinstance(step, nodes.Matches):
        return A.matches(items, _regex(step))
    if isinstance(step, nodes.ToolUses):
        names = None if step.names is None else list(step.names)
        return A.tool_uses(items, names, step.subagent_type)
    if isinstance(step, nodes.UserTexts):
        return A.user_texts(items, _regex(step))
    if isinstance(step, nodes.AgentType):
        return A.agent_type(items, step.is_)
    if isinstance(step, nodes.First):
        return A.first(items)
    if isinstance(step, nodes.AgeMs):
        return A.age_ms(items)
    raise AssertionError(f"unknown step {step!r}")


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
        except A.SupplyFailure as failure:
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
                if type(value) is not dict or "pre" not in value or "post" not in value:
                    raise Problem(False, "state", A.NOT_A_PAIR)
                return (self._run(pipeline.steps, [("0", value["pre"])], of),
                        self._run(pipeline.steps, [("0", value["post"])], of))
            return self._run(pipeline.steps, [("0", value)], of)
        if isinstance(head, nodes.OnlyIn):
            left, right, combine = head.of, head.not_in, A.only_in
        else:
            left, right = head.of
            combine = A.union if isinstance(head, nodes.Union) else A.intersect
        left_items = self.resolve(left)  # left operand first (§7.3 step 2)
        right_items = self.resolve(right)
        return self._run(pipeline.steps, combine(left_items, right_items), pipeline.name)

    def witnesses(self, relation: Any) -> list:
        if isinstance(relation, nodes.Empty):
            return A.empty(self.resolve(relation.of))
        if isinstance(relation, nodes.NonEmpty):
            return A.non_empty(self.resolve(relation.of), relation.of)
        if isinstance(relation, nodes.Equal):
            left = self.resolve(relation.of[0])
            return A.equal(left, self.resolve(relation.of[1]))
        if isinstance(relation, nodes.Subset):
            of = self.resolve(relation.of)
            return A.subset(of, self.resolve(relation.in_))
        if isinstance(relation, nodes.Implies):
            of = self.resolve(relation.of)
            return A.implies(of, self.resolve(relation.requires))
        if isinstance(relation, nodes.Ordered):
            return A.ordered(self.resolve(relation.of), relation.strict)
        if isinstance(relation, nodes.Unchanged):
            pre, post = self.resolve(relation.of)
            return A.unchanged(pre, post)
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

