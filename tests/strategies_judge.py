"""Hypothesis strategies for the VM differential (tests/test_differential.py).

`configs()` draws a whole config (one or two judged entries) as JSON text — JSON is YAML 1.2, so
the real loader reads it — whose declarations pass every load-time check and every compile-time
check: references run backwards (no cycle), combinators and relations name single extractions,
`unchanged` names a paired one, ids are unique across body and witness, the list fits the
channels read (spec 03 §16) and the mechanism fits the axes and relations (§15; when none of
the unpinned mechanisms fits, the entry takes a witness block and becomes a `scoped-valve`).

`worlds()` draws worlds as the runner would build them (§3.2 — strings for texts, a
`{pre, post}` state, an actor object, file sources, a transcript snapshot), each source present
or absent, plus the occasional shape no runner builds (a malformed `state`) to reach the supply
errors of §7.3.
"""

from __future__ import annotations

import json

from hypothesis import strategies as st

from polydeukes.compiler.catalogue import mechanisms
from polydeukes.vm.values import UNDEFINED

# -- what a declaration can read ---------------------------------------------------------------

FILE_BINDINGS = {"en": "locales/en.json", "ko": "locales/ko.json"}
TRANSCRIPT = "session"
SINGLE_SOURCES = ["pre", "post", "target.path", "command", "actor", "en", "ko", TRANSCRIPT]
SESSION_CHANNEL_SOURCES = {"command", "actor", TRANSCRIPT}

# Names that are also placeholders or `$` patterns: a nonEmpty witness key is the extraction
# name, and §13.2's passes substitute placeholder text arriving inside a key.
PIPELINE_NAMES = ["a", "b", "c", "d", "e", "f", "g", "{value}", "$&k", "x.y"]

MATCH_PATTERNS = ["a", "^a", "b$", r"\d", "TODO", r"^\s*x", "(a|b)", "é", ".", "^$", "[{]", "o",
                  r"\bit\b", "😀"]
GROUP_PATTERNS = ["(a)", r"^(\w+)", r"(\d+)", "(x)?1", "(T)ODO", r"(\.only\()", "([^ ]*)",
                  "(?<n>b)", "(é|😀)", r"^(.+?)(?<!\.ko)\.json$"]
TEXT_PATTERNS = ["merge", "^/allow", "a", "^pdks witness$"]
PATHS = ["a", "b", "a.b", "k", "args.command", "0", "agentType"]
FIELDS = ["a", "b", "k", "name", "index", "text", "agentType", "ageMs", "succeeded"]
CONSTANTS = [1, 0, "a", True, False, None, [1], {"a": 1}, 600000, 1.5]
MESSAGE_PIECES = ["{key}", "{value}", "{before}", " ", "x", "$&", "$$", "$`", "$'", "$1", "é",
                  ": "]


def _predicate(draw) -> dict:
    field = draw(st.sampled_from(FIELDS))
    op = draw(st.sampled_from(["eq", "ne", "size", "notIn", "lte", "gte"]))
    if op in ("eq", "ne"):
        constant = draw(st.sampled_from(CONSTANTS))
    elif op == "notIn":
        constant = draw(st.lists(st.sampled_from(CONSTANTS), max_size=3))
    elif op == "size":
        constant = draw(st.sampled_from([0, 1, 2]))
    else:
        constant = draw(st.sampled_from([0, 1, 2, 600000, 1.5]))
    return {"field": field, op: constant}


@st.composite
def unary_steps(draw, sources: list[str]) -> dict:
    op = draw(st.sampled_from([
        "json", "select", "items", "keyBy", "keyByPattern", "field", "filter", "flattenKeys",
        "sort", "lines", "lines", "matches", "matches", "first", "source", "agentType",
        "toolUses", "userTexts", "ageMs",
    ]))
    step: dict = {"op": op}
    if op == "select":
        step["path"] = draw(st.sampled_from(PATHS))
    elif op == "keyBy":
        step["field"] = draw(st.sampled_from(FIELDS))
    elif op == "field":
        step["name"] = draw(st.sampled_from(FIELDS))
    elif op in ("keyByPattern", "matches", "userTexts"):
        pool = {"keyByPattern": GROUP_PATTERNS, "matches": MATCH_PATTERNS,
                "userTexts": TEXT_PATTERNS}[op]
        step["re"] = draw(st.sampled_from(pool))
        if draw(st.booleans()):
            step["i"] = draw(st.booleans())
    elif op == "filter":
        step["when"] = [_predicate(draw) for _ in range(draw(st.integers(0, 2)))]
    elif op == "source":
        step["of"] = draw(st.sampled_from(sources))
    elif op == "agentType":
        step["is"] = draw(st.sampled_from(["x", "reviewer"]))
    elif op == "toolUses":
        if draw(st.booleans()):
            step["names"] = draw(st.sampled_from([["Bash"], [], ["Bash", "Agent"]]))
        if draw(st.booleans()):
            step["subagentType"] = draw(st.sampled_from(["x", ""]))
    return step


def _message(draw) -> str:
    return "".join(draw(st.lists(st.sampled_from(MESSAGE_PIECES), min_size=1, max_size=4)))


class _Block:
    """Pipelines drawn so far, across the body and the witness block (one namespace)."""

    def __init__(self) -> None:
        self.extract: dict[str, list] = {}
        self.paired: set[str] = set()
        self.single: list[str] = []
        self.heads: list[str] = []  # source names read by a first step


@st.composite
def _pipeline(draw, block: _Block, name: str) -> None:
    head_sources = SINGLE_SOURCES + ["state"]
    if len(block.single) >= 2 and draw(st.integers(0, 2)) == 0:
        left, right = draw(st.lists(st.sampled_from(block.single), min_size=2, max_size=2,
                                    unique=True))
        kind = draw(st.sampled_from(["union", "onlyIn", "intersect"]))
        head = {"op": kind, "of": left, "notIn": right} if kind == "onlyIn" else {
            "op": kind, "of": [left, right]}
        paired = False
    else:
        of = draw(st.sampled_from(head_sources))
        head = {"op": "source", "of": of}
        block.heads.append(of)
        paired = of == "state"
    steps = draw(st.lists(unary_steps(SINGLE_SOURCES), max_size=3))
    block.extract[name] = [head, *steps]
    if paired:
        block.paired.add(name)
    else:
        block.single.append(name)


@st.composite
def _relate_entry(draw, block: _Block, names: list[str], entry_id: str) -> dict:
    single = [n for n in names if n not in block.paired]
    paired = [n for n in names if n in block.paired]
    choices = []
    if single:
        choices += ["empty", "nonEmpty", "ordered", "subset", "implies"]
    if len(single) >= 2:
        choices.append("equal")
    if paired:
        choices.append("unchanged")
    op = draw(st.sampled_from(choices))
    pick = st.sampled_from(single) if single else None
    entry: dict = {"id": entry_id}
    if op == "equal":
        left, right = draw(st.lists(pick, min_size=2, max_size=2, unique=True))
        entry["relation"] = {"op": "equal", "of": [left, right]}
        if draw(st.booleans()):
            entry["messageBySide"] = {"left": _message(draw), "right": _message(draw)}
    elif op == "subset":
        entry["relation"] = {"op": "subset", "of": draw(pick), "in": draw(pick)}
    elif op == "implies":
        entry["relation"] = {"op": "implies", "of": draw(pick), "requires": draw(pick)}
    elif op == "ordered":
        entry["relation"] = {"op": "ordered", "of": draw(pick)}
        if draw(st.booleans()):
            entry["relation"]["strict"] = draw(st.booleans())
    elif op == "unchanged":
        entry["relation"] = {"op": "unchanged", "of": draw(st.sampled_from(paired))}
    else:
        entry["relation"] = {"op": op, "of": draw(pick)}
    if "messageBySide" not in entry:
        entry["message"] = _message(draw)
    return entry


def _source_steps(extract: dict[str, list]) -> list[str]:
    return [step["of"] for steps in extract.values() for step in steps
            if step["op"] == "source"]


def _axes(read: list[str]) -> set[str]:
    axes = set()
    for source in read:
        if source == "actor":
            axes.add("actor")
        elif source in FILE_BINDINGS:
            axes.add("world")
        elif source == TRANSCRIPT:
            axes.add("history")
        else:
            axes.add("change")
    return axes


@st.composite
def declarations(draw, entry_id: str) -> tuple[str, dict]:
    """(list name, entry) for one judged entry with id `entry_id`."""
    names = iter(draw(st.permutations(PIPELINE_NAMES)))
    block = _Block()
    body_names = [next(names) for _ in range(draw(st.integers(1, 4)))]
    for name in body_names:
        draw(_pipeline(block, name))
    body_extract = dict(block.extract)
    relate = [draw(_relate_entry(block, body_names, f"r{i}"))
              for i in range(draw(st.integers(1, 3)))]
    relations = {entry["relation"]["op"] for entry in relate}

    def fitting(axes: set[str]) -> list[str]:
        return [m.name for m in mechanisms() if not m.reserved and not m.needs_witness
                and m.scope_source is None and axes <= set(m.axes)
                and relations <= set(m.relations)]

    witness = None
    if draw(st.booleans()) or not fitting(_axes(_source_steps(body_extract))):
        witness_names = [next(names) for _ in range(draw(st.integers(0, 2)))]
        for name in witness_names:
            draw(_pipeline(block, name))
        witness_relate = [
            draw(_relate_entry(block, body_names + witness_names, f"w{i}"))
            for i in range(draw(st.integers(1, 2)))
        ]
        witness = {"relate": witness_relate}
        if witness_names:
            witness["extract"] = {n: block.extract[n] for n in witness_names}
        mechanism = "scoped-valve"
    else:
        mechanism = draw(st.sampled_from(fitting(_axes(_source_steps(body_extract)))))

    read = _source_steps(block.extract)
    declare: dict = {"mechanism": mechanism}
    bound = {}
    for name in read:
        if name in FILE_BINDINGS:
            bound[name] = {"file": FILE_BINDINGS[name]}
        elif name == TRANSCRIPT:
            bound[name] = {"transcript": True}
    if bound:
        declare["sources"] = bound
    supply = {}
    for source in sorted(set(block.heads)):
        policies = ["error", "pass"] if source == "state" else ["error", "pass", "empty"]
        policy = draw(st.sampled_from([None, *policies]))
        if policy is not None:
            supply[source] = policy
    if supply:
        declare["supply"] = supply
    declare["extract"] = body_extract
    declare["relate"] = relate
    if witness is not None:
        declare["witness"] = witness
    entry = {"id": entry_id, "declare": declare}
    session = any(source in SESSION_CHANNEL_SOURCES for source in read)
    return ("sessionDisciplines" if session else "disciplines"), entry


@st.composite
def configs(draw) -> str:
    """A config (JSON text) with one or two judged entries."""
    config: dict = {}
    for n in range(draw(st.integers(1, 2))):
        list_name, entry = draw(declarations(f"d{n}"))
        config.setdefault(list_name, []).append(entry)
    return json.dumps(config, ensure_ascii=False)


# -- worlds ------------------------------------------------------------------------------------

LINES = ["a", "b", "  a  ", "x 1", "TODO fix", "it.only(x)", "", "\t", '{"a": 1}', "$&", "$'",
         "{value}", "10", "2", "é", "😀", "b.ko.json"]
_json_leaf = st.sampled_from([None, True, False, 0, 1, 2, 1.5, "a", "b", "x", ""])
json_data = st.recursive(
    _json_leaf,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["a", "b", "k", "0", "1", "agentType"]), inner, max_size=3),
    max_leaves=6,
)
line_texts = st.lists(st.sampled_from(LINES), max_size=5).map("\n".join)
json_texts = json_data.map(lambda v: json.dumps(v, ensure_ascii=False))
texts = line_texts | json_texts | st.sampled_from(["", "not json", "{"])


@st.composite
def snapshots(draw) -> dict:
    """A `{transcript: true}` value (§3.4): UNDEFINED where the host gave nothing."""
    observed = 1_700_000_000_000
    messages = [
        {"index": i, "text": draw(st.sampled_from(["merge it", "/allow log", "pdks witness",
                                                  "a", "A\nmerge"])),
         "timestampMs": draw(st.sampled_from([UNDEFINED, observed - 1000, observed - 700_000,
                                              observed + 5]))}
        for i in range(draw(st.integers(0, 2)))
    ]
    calls = [
        {"index": i, "name": draw(st.sampled_from(["Bash", "Agent", "Edit"])),
         "args": draw(st.sampled_from([{}, {"command": "npm view x"}, {"subagent_type": "x"}])),
         "succeeded": draw(st.sampled_from([UNDEFINED, True, False]))}
        for i in range(draw(st.integers(0, 2)))
    ]
    return {"observedAtMs": observed, "userMessages": messages, "toolCalls": calls}


@st.composite
def worlds(draw) -> dict:
    world: dict = {}

    def maybe(name: str, strategy) -> None:
        if draw(st.integers(0, 3)):  # present three times in four
            world[name] = draw(strategy)

    maybe("target.path", st.sampled_from(["src/a.ts", "locales/en.json", "b.ko.json", "x.db"]))
    maybe("pre", texts)
    maybe("post", texts)
    if "pre" in world and "post" in world and draw(st.integers(0, 5)):
        world["state"] = {"pre": world["pre"], "post": world["post"]}
    else:
        maybe("state", st.sampled_from(["not a pair", {"pre": "a"}, {"pre": "a\nb", "post": "b"}]))
    maybe("command", line_texts)
    maybe("actor", st.sampled_from([{}, {"agentType": "x"}, {"agentType": "reviewer"}]))
    maybe("en", texts)
    maybe("ko", texts)
    maybe(TRANSCRIPT, snapshots())
    return world
