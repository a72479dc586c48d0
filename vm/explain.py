"""`pdks explain`: the plan's registration tables, rendered byte-exact (spec 05 §4).

Everything printed comes from the plan; nothing here reads the config.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from polydeukes.vm import plan as P
from polydeukes.vm import sre
from polydeukes.vm.opcodes import NAMES, Op

SELF_MOD = "self-mod"
TRANSCRIPT_MOD = "transcript-mod"
BACKSTOP = "shell-unjudgeable"
BACKSTOP_TEXT = "a shell command whose write target this layer cannot determine"
DRAFT_TEXT = "unpromoted \u2014 no judgment"
DOT = " \u00b7 "
CHECK, DASH = "\u2713", "\u2014"

SESSION_HEADER = (
    "input: call IR (one call, stdin) · disciplines {d} · sessionDisciplines {s} · "
    "disciplines: advise unless enforce: block · meta: block"
)
CHANGE_SET_HEADER = (
    "input: --diff (change set, stdin) · disciplines {d} · changeSetDisciplines {c} · "
    "disciplines: advise unless enforce: block"
)


def fault_line(fault: P.Fault) -> str:
    """The stderr line of a config-fault entry, once per assembled surface (spec 03 §17.2)."""
    return f"discipline '{fault.label}': {fault.location}: {fault.reason} \u2014 skipped, not judged"


def surface_rows(plan: P.Plan, surface: P.Surface, *, session: bool) -> list[tuple[str, str, str]]:
    """(kind, label, description) in assembly order, as explain assembles it (spec 05 §4.1):
    the session as for a call with a session and no tool roster, the change set with neither."""
    rows = [("meta", SELF_MOD, f"paths {len(plan.protected)} (common; includes the config file itself)")]
    if session:
        rows.append(("meta", TRANSCRIPT_MOD, "content predicate · conditional: session.evidencePath"))
    for index in surface.entries:
        entry = plan.entries[index]
        if isinstance(entry, P.Fault):
            rows.append(("skip", entry.label, f"{entry.location}: {entry.reason}"))
        else:
            rows.append(("declare", entry.label, coordinate_text(entry)))
    rows.append(("skip", BACKSTOP, BACKSTOP_TEXT))
    return rows


def coordinate_text(entry: P.Declare) -> str:
    c = entry.coordinate
    kinds = [f"{kind} {count}" for kind, count in
             (("sidecar", c.sidecar_sources), ("transcript", c.transcript_sources)) if count]
    sources = f"sources {c.sources}" + (f" ({', '.join(kinds)})" if kinds else "")
    parts = [
        c.mechanism,
        ",".join(c.axes),
        ",".join(c.relations) + " " + ", ".join(c.relate_ids),
        f"scope {c.scope}" if c.scope is not None else "scope every world",
        f"include {c.include}",
        f"exclude {c.exclude}",
        sources,
        f"valve {CHECK if c.valve else DASH}",
        f"why {CHECK if entry.why is not None else DASH}",
    ]
    if entry.enforce is not None:
        parts.append(f"enforce: {entry.enforce}")
    return DOT.join(parts)


def _block(header: str, rows: list[tuple[str, str, str]], drafts: list[P.Draft]) -> list[str]:
    counts = {kind: sum(1 for row in rows if row[0] == kind) for kind in ("declare", "skip", "meta")}
    width = max([len(label) for _, label, _ in rows] + [len(d.id) for d in drafts])
    lines = [
        header,
        f"  registrations {counts['meta'] + counts['declare'] + counts['skip']} · "
        f"declare {counts['declare']} · skip {counts['skip']} · meta {counts['meta']} · "
        f"draft {len(drafts)}",
    ]
    for kind, label, text in rows + [("draft", d.id, DRAFT_TEXT) for d in drafts]:
        lines.append("  " + kind.ljust(8) + " " + label.ljust(width) + " " + text)
    return lines


def render(plan: P.Plan) -> str:
    session = _block(
        SESSION_HEADER.format(d=plan.session.disciplines, s=plan.session.own_list),
        surface_rows(plan, plan.session, session=True), plan.drafts,
    )
    change_set = _block(
        CHANGE_SET_HEADER.format(d=plan.change_set.disciplines, c=plan.change_set.own_list),
        surface_rows(plan, plan.change_set, session=False), plan.drafts,
    )
    return "\n".join([f"pdks explain \u2014 {plan.config_name}", "", *session, "", *change_set]) + "\n"


def located_faults(plan: P.Plan) -> list[str]:
    """What `pdks compile`, `pdks explain` and `pdks test` say about config faults: each entry
    that did not compile once (not once per surface), pointing into the config file. The
    location goes after the spec's line, as every load error carries it (` (at FILE:L:C)`)."""
    lines = []
    for entry in plan.entries:
        if isinstance(entry, P.Fault):
            where = "" if entry.span == P.NONE else f" (at {plan.where(entry.span)})"
            lines.append(fault_line(entry) + where)
    return lines


# -- pdks explain --code ---------------------------------------------------------------------


# Operands that index plan.strings, per instruction; every other int operand is a slot
# (printed `sN`), an entry index, a pattern, a constant or a policy.
# By opcode, so that importing this module (a config fault's line) creates no instruction class.
_STRING_OPERANDS = {
    Op.SOURCE: ("of",), Op.SOURCE_AT: ("of",), Op.JSON: ("label",), Op.SELECT: ("path",),
    Op.KEY_BY: ("field",), Op.FIELD: ("name",), Op.AGENT_TYPE: ("is_",),
    Op.TOOL_USES: ("subagent_type",), Op.NON_EMPTY: ("name",),
}
_SLOT_OPERANDS = frozenset(
    {"dst", "src", "dst_pre", "dst_post", "left", "right", "of", "in_", "requires", "pre", "post"}
)


def _pattern_text(plan: P.Plan, index: int) -> str:
    pattern = plan.patterns[index]
    return "/" + pattern.js + "/" + ("i" if pattern.ignore_case else "")


def _operand(plan: P.Plan, instr: P.Instruction, name: str) -> str:
    value = getattr(instr, name)
    if name in _STRING_OPERANDS.get(instr.__struct_config__.tag, ()):
        return "-" if value == P.NONE else repr(plan.strings[value])
    if name == "pattern":
        return _pattern_text(plan, value)
    if name in ("predicates", "names"):
        return "-" if value == P.NONE else msgspec.json.encode(plan.constants[value]).decode()
    if name == "policy":
        return P.POLICY_NAMES[value]
    if name in _SLOT_OPERANDS:
        return f"s{value}"
    return str(value).lower() if isinstance(value, bool) else str(value)


def render_instruction(plan: P.Plan, offset: int, instr: P.Instruction) -> str:
    name = NAMES[instr.__struct_config__.tag]
    fields = [f for f in instr.__struct_fields__ if f != "span"]
    operands = " ".join(f"{f.rstrip('_')}={_operand(plan, instr, f)}" for f in fields)
    return f"  {offset:4d}  {name:<15} {operands:<52} {plan.where(instr.span)}"


SRE_FALLBACK = (
    "patterns: compiled for {plan_key}, not for this Python ({key}): each is compiled with "
    "re.compile when a check first runs it; `pdks compile` under this Python stores them for it"
)


def render_code(plan: P.Plan) -> str:
    lines = [f"pdks explain --code \u2014 {plan.config_name}"]
    if plan.patterns and not sre.usable(plan.sre_key):
        lines.append(SRE_FALLBACK.format(plan_key=plan.sre_key or "no Python", key=sre.KEY))
    for entry in plan.entries:
        lines.append("")
        if isinstance(entry, P.Fault):
            lines.append(f"skip {entry.label} ({plan.where(entry.span)})")
            lines.append(f"  config-fault: {entry.location}: {entry.reason}")
            continue
        lines.append(f"declare {entry.label} ({plan.where(entry.span)}) · slots {entry.slots}")
        if entry.scope is not None:
            include = " ".join(_pattern_text(plan, i) for i in entry.scope.include)
            exclude = " ".join(_pattern_text(plan, i) for i in entry.scope.exclude)
            lines.append(f"  route: scope {plan.strings[entry.scope.source]}"
                         f" include [{include}] exclude [{exclude}]")
        else:
            lines.append("  route: every world")
        for title, program in (("body", entry.body), ("witness", entry.witness)):
            if program is None:
                continue
            lines.append(f"  {title}: relate " + ", ".join(r.id for r in program.relate))
            lines.extend(render_instruction(plan, i, ins) for i, ins in enumerate(program.code))
    return "\n".join(lines) + "\n"


def render_source(plan: P.Plan) -> str:
    """Every declaration in the textual form, which parses back to the same declaration."""
    chunks = []
    for entry in plan.entries:
        if isinstance(entry, P.Declare):
            chunks.append(f"# {entry.list_name} · {entry.label} ({plan.where(entry.span)})\n"
                          + entry.source_text)
    return "\n".join(chunks)


def render_json(plan: P.Plan) -> str:
    """The plan with named fields (its binary form is positional) and opcodes by name."""
    return msgspec.json.format(msgspec.json.encode(_named(plan)), indent=2).decode() + "\n"


def _named(value: object) -> object:
    if isinstance(value, msgspec.Struct):
        named = {}
        tag = value.__struct_config__.tag
        if isinstance(value, P.Instr):
            named["op"] = NAMES[tag]
        elif tag is not None:
            named["kind"] = tag
        for field in value.__struct_fields__:
            named[field.rstrip("_")] = _named(getattr(value, field))
        return named
    if isinstance(value, Sequence) and not isinstance(value, (str, bytes)):
        return [_named(item) for item in value]  # a list, or a plan's lazily decoded one
    return value
