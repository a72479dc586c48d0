"""The compiled plan: registrations of flat instruction programs (imports nothing else of ours
but the compiled-pattern record of vm/sre.py, and vm/instructions.py on first use).

A plan is data only. Strings, regular expressions and constants are interned in tables and
referenced by index; every instruction and registration carries `span`, an index into
`Plan.spans`, so that faults and `pdks explain --code` can point back at the config.
"""

# No `from __future__ import annotations`: msgspec builds the plan decoder on every check, and
# string annotations would make it evaluate each field's type by name (~1.2 ms of start-up).

from typing import Any, Union

import msgspec

from polydeukes.vm.sre import CarriedPattern, CompiledPattern

NONE = -1  # an optional table index that is absent

# Supply policies, as SOURCE / SOURCE_PAIR operands (spec 03 §6).
POLICY_ERROR = 0
POLICY_PASS = 1
POLICY_EMPTY = 2
POLICY_NAMES = ("error", "pass", "empty")


# -- tables -----------------------------------------------------------------------------------


class Pattern(msgspec.Struct, frozen=True, array_like=True, gc=False):
    """A JavaScript regex as translated at compile time: compiled once per process, lazily."""

    js: str  # the author's pattern, for explain and messages
    ignore_case: bool
    source: str  # the Python `re` source
    flags: int
    group_count: int
    needs_utf16: bool
    required: str  # a literal every match contains: a cheap "cannot match" test ('' = none)


class SourceSpan(msgspec.Struct, frozen=True, array_like=True, gc=False):
    file: int  # strings index
    line: int
    col: int


# -- registrations ----------------------------------------------------------------------------


class Binding(msgspec.Struct, frozen=True, array_like=True, gc=False):
    name: int  # strings index of the bound source name
    kind: str  # 'file' | 'sidecar' | 'transcript'
    file: int = NONE  # strings index of the normalized path of a `file` binding


class Scope(msgspec.Struct, frozen=True, array_like=True):
    source: int  # strings index
    include: list[int]  # patterns indices
    exclude: list[int]


class RelateEntry(msgspec.Struct, frozen=True, array_like=True, gc=False):
    id: str
    message: str | None  # exactly one of message and (left, right)
    left: str | None
    right: str | None


class Coordinate(msgspec.Struct, frozen=True, array_like=True, gc=False):
    """What `pdks explain` prints about a declaration: its place in the catalogue."""

    mechanism: str
    axes: list[str]
    relations: list[str]
    relate_ids: list[str]
    scope: str | None
    include: int
    exclude: int
    sources: int
    sidecar_sources: int
    transcript_sources: int
    valve: bool


class Program(msgspec.Struct, frozen=True, array_like=True):
    # Instruction objects (vm/instructions.py) as the compiler builds them; a plan read from
    # plan.bin holds a planfile.StoredCode, which yields the same objects on demand. A string
    # annotation, resolved (by msgspec, when a decoder for Plan is built) once `Instruction`
    # has been re-exported here (`__getattr__` below).
    code: "list[Instruction]"
    relate: list[RelateEntry]


class Declare(msgspec.Struct, frozen=True, array_like=True, tag="declare"):
    label: str
    list_name: str
    enforce: str | None  # as the entry declares it; None = advise
    why: str | None  # raw; None when the key is absent
    scope: Scope | None
    bindings: list[Binding]
    slots: int
    body: Program
    witness: Program | None
    coordinate: Coordinate
    source_text: str  # the declaration in the textual form (pdks explain --source)
    span: int


class Fault(msgspec.Struct, frozen=True, array_like=True, tag="fault"):
    """An entry that did not compile: a skip registration that routes nothing (spec 02 §1.6)."""

    label: str
    list_name: str
    location: str
    reason: str
    span: int


Entry = Union[Declare, Fault]


class Draft(msgspec.Struct, frozen=True, array_like=True):
    id: str
    why: str
    span: int


class RouteIndex(msgspec.Struct, frozen=True, array_like=True):
    """Which of a surface's declarations a call's paths can route, known without asking each
    one (vm/machine.py `Declarations`): built once at compile time by `route_index`, because
    a check that has to look at a thousand entries to skip them pays for it on every call.

    A declaration scoped on `target.path` admits a path only if one of its include patterns'
    required literals occurs in it; `position` numbers the surface's declarations in order.
    """

    declarations: list[int]  # indices into Plan.entries of the surface's Declare entries
    always: list[int]  # positions that no literal can rule out: asked about every call
    # (literals[k], holders[k]): position holders[k] needs literals[k] in the path. Two flat
    # lists rather than a dict of lists: half the objects to decode on every check.
    literals: list[str]
    holders: list[int]
    files: dict[int, list[str]]  # indexed positions -> their `file` bindings' paths, in order


def route_index(entries: list[Entry], surface_entries: list[int], strings: list[str],
                patterns: list[Pattern]) -> RouteIndex:
    declarations = [i for i in surface_entries if isinstance(entries[i], Declare)]
    always: list[int] = []
    literals: list[str] = []
    holders: list[int] = []
    files: dict[int, list[str]] = {}
    for position, index in enumerate(declarations):
        entry = entries[index]
        scope = entry.scope
        needed = None
        # A binding named target.path would replace the path the scope tests.
        if (scope is not None and scope.include and strings[scope.source] == "target.path"
                and all(strings[b.name] != "target.path" for b in entry.bindings)):
            needed = sorted({patterns[i].required for i in scope.include})
        if not needed or "" in needed:
            always.append(position)
            continue
        literals.extend(needed)
        holders.extend([position] * len(needed))
        bound = [strings[b.file] for b in entry.bindings if b.kind == "file"]
        if bound:
            files[position] = bound
    return RouteIndex(declarations, always, literals, holders, files)


class Surface(msgspec.Struct, frozen=True, array_like=True):
    entries: list[int]  # indices into Plan.entries, in assembly order
    disciplines: int  # judged entries of `disciplines`, for the explain header
    own_list: int  # judged entries of the surface's own list
    route: RouteIndex


class Plan(msgspec.Struct, frozen=True, array_like=True):
    config_name: str
    protected: list[str]  # normalized, the config file included, then the guard's own state
    telemetry_log_path: str
    witness_token: str | None
    witness_ttl_minutes: float | None
    deadline_seconds: float | None  # the config's deadlineSeconds; None when absent
    entries: list[Entry]
    session: Surface
    change_set: Surface
    drafts: list[Draft]
    strings: list[str]
    patterns: list[Pattern]
    # Per pattern, its SRE code as `pdks compile` made it under the interpreter `sre_key`
    # names (vm/sre.py); a check under another interpreter compiles the sources instead.
    sre_key: str
    compiled: list[Union[CompiledPattern, None]]
    # The standard library's own patterns a shell check always compiles (the tokenizer's), with
    # their SRE forms made under `sre_key`: a check rebuilds them rather than parse and compile
    # them (vm/sre.py `carry`); under another interpreter they compile from source as before.
    carried: list[CarriedPattern]
    constants: list[Any]
    spans: list[SourceSpan]

    def where(self, span: int) -> str:
        if span == NONE:
            return "-"
        found = self.spans[span]
        return f"{self.strings[found.file]}:{found.line}:{found.col}"


def __getattr__(name: str):
    """`Source`, `Instruction`, `INSTR_BY_OP`, ...: the instruction classes, created (and
    re-exported into this module) only when something asks for one (PEP 562)."""
    if name.startswith("__"):  # `__path__`, `__file__`, ...: what the import system probes
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from polydeukes.vm import instructions

    exported = {key: value for key, value in vars(instructions).items()
                if not key.startswith("__") and key not in ("Union", "msgspec", "ARITY", "Op")}
    globals().update(exported)
    if name not in exported:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return exported[name]
