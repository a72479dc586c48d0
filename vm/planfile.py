""".polydeukes/plan.bin: a content-keyed cache of the compiled plan (spec 05 §8).

Layout: MAGIC, a 4-byte big-endian header length, the msgpack header, the msgpack plan. The
header is decoded alone first, so a plan for other config bytes, another engine or another
format is rejected before its body is read. A plan is distrusted by default: anything that does
not check out reads as "no plan", and a plan problem is never a verdict.
"""

from __future__ import annotations

import os
import struct

import msgspec

from polydeukes.vm import ENGINE_VERSION
from polydeukes.vm.plan import Plan

MAGIC = b"PDKSPLAN"
FORMAT = 1  # bump whenever what plan bytes mean changes (a field, its order, an opcode)
PLAN_DIR = ".polydeukes"
PLAN_FILE = "plan.bin"
_LENGTH = struct.Struct(">I")


class PlanHeader(msgspec.Struct, frozen=True, array_like=True):
    format: int
    engine: str
    key: str  # sha256 hex over engine, format, config name and config bytes


_HEADER_DECODER = msgspec.msgpack.Decoder(PlanHeader)
_PLAN_DECODER = msgspec.msgpack.Decoder(Plan)
_ENCODER = msgspec.msgpack.Encoder()


try:  # the builtin module: importing hashlib costs OpenSSL's start-up on every check
    from _sha256 import sha256 as _sha256
except ImportError:  # pragma: no cover - a Python built without it
    from hashlib import sha256 as _sha256


def plan_key(config_name: str, config_bytes: bytes) -> str:
    digest = _sha256()
    for part in (ENGINE_VERSION.encode(), str(FORMAT).encode(), config_name.encode("utf-8")):
        digest.update(_LENGTH.pack(len(part)))
        digest.update(part)
    digest.update(config_bytes)
    return digest.hexdigest()


def plan_path(root: str) -> str:
    return os.path.join(root, PLAN_DIR, PLAN_FILE)


def encode_plan(plan: Plan, key: str) -> bytes:
    header = _ENCODER.encode(PlanHeader(FORMAT, ENGINE_VERSION, key))
    return MAGIC + _LENGTH.pack(len(header)) + header + _ENCODER.encode(plan)


def decode_plan(data: bytes, key: str) -> Plan | None:
    """The plan if `data` is a whole plan file for exactly this key; None otherwise."""
    start = len(MAGIC) + _LENGTH.size
    if len(data) < start or not data.startswith(MAGIC):
        return None
    (length,) = _LENGTH.unpack_from(data, len(MAGIC))
    try:
        header = _HEADER_DECODER.decode(data[start:start + length])
        if header.format != FORMAT or header.engine != ENGINE_VERSION or header.key != key:
            return None
        return _PLAN_DECODER.decode(data[start + length:])
    except (msgspec.DecodeError, msgspec.ValidationError, ValueError, TypeError):
        return None


def read_plan(root: str, key: str) -> Plan | None:
    try:
        with open(plan_path(root), "rb") as handle:
            data = handle.read()
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
