""".polydeukes/plan.bin: a content-keyed cache of the compiled plan (spec 05 §8).

Layout: MAGIC, a 4-byte big-endian header length, the msgpack header, the msgpack plan. The
header is decoded alone first, so a plan for other config bytes, another engine or another
format is rejected before its body is read. A plan is distrusted by default: anything that does
not check out reads as "no plan", and a plan problem is never a verdict.

A large plan's entries, compiled patterns and spans are decoded lazily (`LazyList`,
`LazyWhole`): a check decodes only the entries its surface's route index lets through, which is
what a large config's start-up is made of; and no plan's instructions are decoded through
msgspec's types (see `_Decoders`). The header carries a CRC-32 of the body, checked whatever
the plan's size before any byte of the body is trusted: a damaged body reads as "no plan" (a
flipped bit that still decodes would otherwise judge with `.chaude/hooks` for `.claude/hooks`).

The file itself is read like every file of the guard's own state (vm/safeio.py): never through
a final symlink, never a FIFO or a device, at most PLAN_LIMIT bytes. Anything else is "no plan"
too, and the check rebuilds the plan in memory.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import msgspec

from polydeukes.vm import ENGINE_VERSION
from polydeukes.vm.opcodes import ARITY
from polydeukes.vm.plan import (
    Binding,
    Coordinate,
    Declare,
    Draft,
    Entry,
    Fault,
    Pattern,
    Plan,
    Program,
    RelateEntry,
    RouteIndex,
    Scope,
    SourceSpan,
    Surface,
)
from polydeukes.vm.safeio import MiB, read_regular
from polydeukes.vm.sre import CarriedPattern, CompiledPattern

MAGIC = b"PDKSPLAN"
FORMAT = 5  # bump whenever what plan bytes mean changes (a field, its order, an opcode)
PLAN_DIR = ".polydeukes"
PLAN_FILE = "plan.bin"
_LENGTH_SIZE = 4  # big-endian lengths, packed by hand: `struct` costs every check ~0.9 M


def _length(value: int) -> bytes:
    return value.to_bytes(_LENGTH_SIZE, "big")
PLAN_LIMIT = 64 * MiB  # a plan past this size is not read (a 1,000-discipline plan is ~1 MiB)


class PlanHeader(msgspec.Struct, frozen=True, array_like=True):
    format: int
    engine: str
    key: str  # sha256 hex over engine, format, config name and config bytes
    body_crc: int = -1  # CRC-32 of the plan bytes; the default matches no body


class _Lazy(Sequence):
    """A list read from plan.bin that stays undecoded bytes until first looked up.

    Equal to a list with the same items, and encoded as one (`_enc_hook`), so a plan read
    lazily is interchangeable with the plan it was written from.
    """

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (list, _Lazy)):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment] - it stands for a list

    def __repr__(self) -> str:
        return repr(list(self))


class LazyList(_Lazy):
    """Decoded item by item: a check looks up only the entries it routes."""

    __slots__ = ("_raw", "_decode", "_items")

    def __init__(self, raw: list[msgspec.Raw], decode) -> None:
        self._raw = raw
        self._decode = decode
        self._items: dict[int, object] = {}

    def __len__(self) -> int:
        return len(self._raw)

    def __getitem__(self, index):
        found = self._items.get(index) if type(index) is int else None
        if found is not None:  # the common case: an entry already looked up
            return found
        if isinstance(index, slice):
            return [self[i] for i in range(len(self._raw))[index]]
        index = range(len(self._raw))[index]  # negative indices; IndexError past the end
        found = self._items.get(index)
        if found is None:
            found = self._items[index] = self._decode(self._raw[index])
        return found


class LazyWhole(_Lazy):
    """Decoded whole on first use: for a list a check never reads (the spans, for explain and
    fault locations), whose items are too many and too small to keep as bytes one by one."""

    __slots__ = ("_raw", "_decode", "_list")

    def __init__(self, raw: msgspec.Raw, decode) -> None:
        self._raw = raw
        self._decode = decode
        self._list: list | None = None

    def _items(self) -> list:
        if self._list is None:
            self._list = self._decode(self._raw)
        return self._list

    def __len__(self) -> int:
        return len(self._items())

    def __getitem__(self, index):
        return self._items()[index]


class StoredCode(_Lazy):
    """A program's instructions as plan.bin stores them, `[opcode, operand, ..., span]`, each
    checked against opcodes.ARITY: what the VM runs (`raw`, vm/ops.py `bind`) without creating
    the instruction classes. Looked up or iterated, it yields the instruction objects
    (vm/instructions.py) the compiler built, for explain and for comparisons."""

    __slots__ = ("raw", "_objects")

    def __init__(self, raw: list[list]) -> None:
        for item in raw:
            if not (type(item) is list and item and type(item[0]) is int
                    and len(item) == ARITY.get(item[0], -2) + 1):
                raise msgspec.ValidationError(f"not an instruction: {item!r}")
        self.raw = raw
        self._objects: list | None = None

    def _items(self) -> list:
        if self._objects is None:
            from polydeukes.vm.instructions import INSTR_BY_OP

            self._objects = [INSTR_BY_OP[item[0]](*item[1:]) for item in self.raw]
        return self._objects

    def __len__(self) -> int:
        return len(self.raw)

    def __getitem__(self, index):
        return self._items()[index]


def _enc_hook(value: object) -> object:
    if isinstance(value, StoredCode):
        return value.raw  # an instruction's array-like tagged encoding is exactly this list
    if isinstance(value, _Lazy):
        return list(value)
    raise NotImplementedError(f"cannot encode {type(value).__name__}")


LAZY_FROM = 1 << 16  # body bytes from which a plan's entries are decoded lazily
_HEADER_DECODER = msgspec.msgpack.Decoder(PlanHeader)
_ENCODER = msgspec.msgpack.Encoder(enc_hook=_enc_hook)


# The plan as a check reads it. Building a msgspec decoder walks every type the decoder can
# meet (msgspec reads each Struct's annotations in Python: ~0.15 M instructions a type, on
# every check), and creating the instruction classes costs ~4.4 M more. So the plan's records
# are read as the plain lists their array-like encoding is and built here by position, field
# order being the classes' own; an instruction is read, and run, as its stored list
# `[opcode, operand, ..., span]` (StoredCode); and the entries, their compiled patterns and the
# spans are kept as undecoded bytes until looked up (LazyList, LazyWhole). What is not built
# by position (the plan's scalars and plain lists) is read without a type: the content key and
# the CRC, not the decoder, are what vouch for a plan's bytes.
_RAW_FIELDS = {"entries": list[msgspec.Raw], "compiled": list[msgspec.Raw],
               "carried": msgspec.Raw, "spans": msgspec.Raw}
_TOP = None  # the decoder of the plan's outer array, built on first use
_decode = msgspec.msgpack.decode


def _top_decoder() -> msgspec.msgpack.Decoder:
    global _TOP
    if _TOP is None:
        stored = msgspec.defstruct("_StoredPlan", [(name, _RAW_FIELDS.get(name, Any))
                                                   for name in Plan.__struct_fields__],
                                   array_like=True)
        _TOP = msgspec.msgpack.Decoder(stored)
    return _TOP


def _float(value):
    """A `float | None` field as msgspec's typed decode reads it (an int becomes a float)."""
    if value is None or type(value) is float:
        return value
    if type(value) is int:
        return float(value)
    raise msgspec.ValidationError(f"expected a number, got {value!r}")


def _surface(items: list) -> Surface:
    entries, disciplines, own_list, route = items
    return Surface(entries, disciplines, own_list, RouteIndex(*route))


def _entry(raw: msgspec.Raw) -> Entry:
    try:
        items = _decode(raw)
        if items[0] == "fault":
            return Fault(*items[1:])
        if items[0] != "declare":
            raise msgspec.ValidationError(f"not an entry: {items[0]!r}")
        (label, list_name, enforce, why, scope, bindings, slots, body, witness, coordinate,
         source_text, span) = items[1:]
        return Declare(label, list_name, enforce, why,
                       None if scope is None else Scope(*scope),
                       [Binding(*binding) for binding in bindings], slots, _program(body),
                       None if witness is None else _program(witness), Coordinate(*coordinate),
                       source_text, span)
    except msgspec.ValidationError:
        raise  # already names what is wrong (and is a ValueError: not wrapped twice)
    except (TypeError, ValueError, IndexError, KeyError) as exc:  # a shape no entry has
        raise msgspec.ValidationError(f"not an entry: {exc}") from None


def _program(items: list) -> Program:
    code, relate = items
    return Program(StoredCode(code), [RelateEntry(*entry) for entry in relate])


def _compiled(raw: msgspec.Raw) -> CompiledPattern | None:
    items = _decode(raw)
    return None if items is None else CompiledPattern(*items)


def _carried(raw: msgspec.Raw) -> list[CarriedPattern]:
    return [CarriedPattern(source, flags, CompiledPattern(*form))
            for source, flags, form in _decode(raw)]


def _spans(raw: msgspec.Raw) -> list[SourceSpan]:
    return [SourceSpan(*items) for items in _decode(raw)]


try:  # the builtin module: importing hashlib costs OpenSSL's start-up on every check
    from _sha256 import sha256 as _sha256
except ImportError:  # pragma: no cover - a Python built without it
    from hashlib import sha256 as _sha256


def plan_key(config_name: str, config_bytes: bytes) -> str:
    digest = _sha256()
    for part in (ENGINE_VERSION.encode(), str(FORMAT).encode(), config_name.encode("utf-8")):
        digest.update(_length(len(part)))
        digest.update(part)
    digest.update(config_bytes)
    return digest.hexdigest()


def plan_path(root: str) -> str:
    return os.path.join(root, PLAN_DIR, PLAN_FILE)


def _crc32(data) -> int:
    # binascii's CRC-32 is zlib's, at half zlib's import cost; every check pays for it.
    from binascii import crc32

    return crc32(data)


def encode_plan(plan: Plan, key: str) -> bytes:
    body = _ENCODER.encode(plan)
    header = _ENCODER.encode(PlanHeader(FORMAT, ENGINE_VERSION, key, _crc32(body)))
    return MAGIC + _length(len(header)) + header + body


def decode_plan(data: bytes, key: str) -> Plan | None:
    """The plan if `data` is a whole plan file for exactly this key; None otherwise."""
    start = len(MAGIC) + _LENGTH_SIZE
    if len(data) < start or not data.startswith(MAGIC):
        return None
    length = int.from_bytes(data[len(MAGIC):start], "big")
    try:
        header = _HEADER_DECODER.decode(data[start:start + length])
        if header.format != FORMAT or header.engine != ENGINE_VERSION or header.key != key:
            return None
        body = memoryview(data)[start + length:]  # no copy: the lazy items point into it
        if _crc32(body) != header.body_crc:
            return None
        stored = _top_decoder().decode(body)
        fields = {name: getattr(stored, name) for name in Plan.__struct_fields__}
        fields["session"] = _surface(fields["session"])
        fields["change_set"] = _surface(fields["change_set"])
        fields["drafts"] = [Draft(*draft) for draft in fields["drafts"]]
        fields["patterns"] = [Pattern(*pattern) for pattern in fields["patterns"]]
        fields["witness_ttl_minutes"] = _float(fields["witness_ttl_minutes"])
        fields["deadline_seconds"] = _float(fields["deadline_seconds"])
        if len(body) < LAZY_FROM:
            fields["entries"] = [_entry(raw) for raw in stored.entries]
            fields["compiled"] = [_compiled(raw) for raw in stored.compiled]
            fields["spans"] = _spans(stored.spans)
        else:
            fields["entries"] = LazyList(stored.entries, _entry)
            fields["compiled"] = LazyList(stored.compiled, _compiled)
            fields["spans"] = LazyWhole(stored.spans, _spans)
        # Decoded when a check first compiles one of the standard library's patterns (and
        # then all at once: a handful, ~3 KiB); forms that fail to decode compile from source.
        fields["carried"] = LazyWhole(stored.carried, _carried)
    except (msgspec.DecodeError, msgspec.ValidationError, ValueError, TypeError, IndexError,
            KeyError):
        return None
    return Plan(**fields)


def read_plan(root: str, key: str) -> Plan | None:
    """The cached plan for `key`; None when it is absent, unreadable, not a regular file (a
    FIFO, a device, a symlink), too large, damaged, or for other config bytes."""
    try:
        data = read_regular(plan_path(root), limit=PLAN_LIMIT, follow_symlinks=False)
    except OSError:
        return None
    return decode_plan(data, key)


def write_plan(root: str, plan: Plan, key: str) -> None:
    """Atomic: a temporary file in the same directory, then rename. Raises OSError."""
    import tempfile  # only a stale plan pays for it

    directory = os.path.join(root, PLAN_DIR)
    os.makedirs(directory, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=".plan-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(encode_plan(plan, key))
        os.replace(temporary, plan_path(root))
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise
