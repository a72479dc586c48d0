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
from typing import Union

import msgspec

from polydeukes.vm import ENGINE_VERSION
from polydeukes.vm.opcodes import ARITY
from polydeukes.vm.plan import Declare, Entry, Fault, Plan, Program, SourceSpan
from polydeukes.vm.safeio import MiB, read_regular
from polydeukes.vm.sre import CompiledPattern

MAGIC = b"PDKSPLAN"
FORMAT = 4  # bump whenever what plan bytes mean changes (a field, its order, an opcode)
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
# meet, and the instruction classes are most of the plan's types (~1.5 ms to walk, on every
# check; creating them, ~4.4 M instructions more). So an instruction is read, and run, as the
# plain list its array-like tagged encoding is, `[opcode, operand, ..., span]` (StoredCode);
# and the entries, their compiled
# patterns and the spans are kept as undecoded bytes until looked up (LazyList, LazyWhole).
def _stored(name: str, cls: type, replaced: dict, **config) -> type:
    """`cls` as stored: the same fields in the same order, some read as other types."""
    return msgspec.defstruct(
        name, [(field, replaced.get(field, cls.__annotations__[field]))
               for field in cls.__struct_fields__], array_like=True, **config)


class _Decoders:
    """Each decoder is built on first use: a check that looks up no entry builds none of the
    entries' types."""

    def __getattr__(self, name: str) -> msgspec.msgpack.Decoder:
        if name == "plan":
            stored = _stored("_StoredPlan", Plan, {"entries": list[msgspec.Raw],
                                                   "compiled": list[msgspec.Raw],
                                                   "spans": msgspec.Raw})
        elif name == "entry":
            program = _stored("_StoredProgram", Program, {"code": list[list]})
            declare = _stored("_StoredDeclare", Declare,
                              {"body": program, "witness": Union[program, None]}, tag="declare")
            stored = Union[declare, Fault]
        elif name == "compiled":
            stored = Union[CompiledPattern, None]
        elif name == "spans":
            stored = list[SourceSpan]
        else:
            raise AttributeError(name)
        made = msgspec.msgpack.Decoder(stored)
        setattr(self, name, made)
        return made


_decoders = _Decoders()
_BODY = Declare.__struct_fields__.index("body")
_WITNESS = Declare.__struct_fields__.index("witness")


def _entry(raw: msgspec.Raw) -> Entry:
    stored = _decoders.entry.decode(raw)
    if isinstance(stored, Fault):
        return stored
    fields = list(msgspec.structs.astuple(stored))
    fields[_BODY] = _program(fields[_BODY])
    if fields[_WITNESS] is not None:
        fields[_WITNESS] = _program(fields[_WITNESS])
    return Declare(*fields)


def _program(stored) -> Program:
    return Program(StoredCode(stored.code), stored.relate)


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
        stored = _decoders.plan.decode(body)
        fields = {name: getattr(stored, name) for name in Plan.__struct_fields__}
        if len(body) < LAZY_FROM:
            fields["entries"] = [_entry(raw) for raw in stored.entries]
            fields["compiled"] = [_decoders.compiled.decode(raw) for raw in stored.compiled]
            fields["spans"] = _decoders.spans.decode(stored.spans)
        else:
            fields["entries"] = LazyList(stored.entries, _entry)
            fields["compiled"] = LazyList(stored.compiled, _decoders.compiled.decode)
            fields["spans"] = LazyWhole(stored.spans, _decoders.spans.decode)
    except (msgspec.DecodeError, msgspec.ValidationError, ValueError, TypeError):
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
