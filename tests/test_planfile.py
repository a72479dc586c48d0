"""plan.bin itself (vm/planfile.py), in-process: what is trusted, what reads as "no plan", and
the lazily decoded lists behaving as the lists they stand for.

Each check of the header and body is broken alone, so a plan that fails exactly one of them is
seen to be refused; the layout (MAGIC, 4-byte big-endian header length, header, body) is the
one the module's docstring gives.
"""

from __future__ import annotations

import json
import os
import struct
import zlib

import msgspec
import pytest

from polydeukes.compiler import compile_config
from polydeukes.vm import ENGINE_VERSION, planfile

NAME = "polydeukes.config.yaml"
CONFIG = b"protectedPaths: ['.claude/hooks']\n"


@pytest.fixture(scope="module")
def plan():
    return compile_config("/p", NAME, CONFIG).plan


@pytest.fixture(scope="module")
def key():
    return planfile.plan_key(NAME, CONFIG)


def _split(data: bytes) -> tuple[planfile.PlanHeader, bytes]:
    start = len(planfile.MAGIC) + 4
    (length,) = struct.unpack(">I", data[len(planfile.MAGIC):start])
    header = msgspec.msgpack.decode(data[start:start + length], type=planfile.PlanHeader)
    return header, data[start + length:]


def _join(header: planfile.PlanHeader, body: bytes) -> bytes:
    raw = msgspec.msgpack.encode(header)
    return planfile.MAGIC + struct.pack(">I", len(raw)) + raw + body


def test_the_layout_is_magic_length_header_body(plan, key):
    data = planfile.encode_plan(plan, key)
    assert data.startswith(b"PDKSPLAN")
    header, body = _split(data)
    assert header == planfile.PlanHeader(planfile.FORMAT, ENGINE_VERSION, key,
                                         zlib.crc32(body))
    assert msgspec.msgpack.decode(body, type=type(plan)) == plan
    assert _join(header, body) == data


def test_a_small_plan_is_decoded_whole_and_equal(plan, key):
    read = planfile.decode_plan(planfile.encode_plan(plan, key), key)
    assert read == plan
    assert type(read.entries) is list and type(read.spans) is list


@pytest.mark.parametrize("field, value", [
    ("format", planfile.FORMAT + 1),
    ("format", planfile.FORMAT - 1),
    ("engine", ENGINE_VERSION + ".1"),
    ("key", "0" * 64),
    ("body_crc", -1),  # a header written without a CRC matches no body
])
def test_a_header_that_differs_in_one_field_is_no_plan(plan, key, field, value):
    header, body = _split(planfile.encode_plan(plan, key))
    forged = msgspec.structs.replace(header, **{field: value})
    assert planfile.decode_plan(_join(forged, body), key) is None
    assert planfile.decode_plan(_join(header, body), key) == plan  # the control


def test_a_small_body_with_one_changed_byte_that_still_decodes_is_no_plan(plan, key):
    data = planfile.encode_plan(plan, key)
    at = data.rindex(b".claude/hooks")
    damaged = data[:at] + b".chaude/hooks" + data[at + 13:]
    header, body = _split(damaged)
    assert msgspec.msgpack.decode(body, type=type(plan)).protected != plan.protected  # decodes
    assert planfile.decode_plan(damaged, key) is None


@pytest.mark.parametrize("data", [
    b"", b"PDKSPLA", b"PDKSPLAN", b"PDKSPLAN\x00\x00\x00",  # shorter than magic and length
    b"PDKSPLAN\x00\x00\x00\x00",  # an empty header
    b"PDKSPLAN\xff\xff\xff\xff\x93",  # a header length past the end
    b"NOTAPLAN\x00\x00\x00\x01\xc0",
], ids=repr)
def test_what_is_not_a_whole_plan_file_is_no_plan(data, key):
    assert planfile.decode_plan(data, key) is None


def test_a_body_from_another_plan_is_no_plan(plan, key):
    other = compile_config("/p", NAME, b"protectedPaths: ['x']\n").plan
    header, _ = _split(planfile.encode_plan(plan, key))
    _, other_body = _split(planfile.encode_plan(other, key))
    assert planfile.decode_plan(_join(header, other_body), key) is None


def test_from_lazy_from_bytes_of_body_the_plan_is_read_lazily(plan, key, monkeypatch):
    data = planfile.encode_plan(plan, key)
    _, body = _split(data)
    monkeypatch.setattr(planfile, "LAZY_FROM", len(body) + 1)
    assert type(planfile.decode_plan(data, key).entries) is list
    monkeypatch.setattr(planfile, "LAZY_FROM", len(body))
    read = planfile.decode_plan(data, key)
    assert isinstance(read.entries, planfile.LazyList)
    assert isinstance(read.spans, planfile.LazyWhole)
    assert read == plan and read.entries == plan.entries and read.spans == plan.spans
    assert planfile.encode_plan(read, key) == data


def test_a_lazy_list_indexes_slices_and_decodes_each_item_once():
    decoded = []

    def decode(raw):
        decoded.append(raw)
        return msgspec.msgpack.decode(raw)

    items = [msgspec.Raw(msgspec.msgpack.encode(n)) for n in (10, 20, 30)]
    lazy = planfile.LazyList(items, decode)
    assert decoded == []  # nothing decoded until looked up
    assert len(lazy) == 3
    assert (lazy[0], lazy[-1], lazy[1]) == (10, 30, 20)
    assert lazy[0] == 10 and len(decoded) == 3  # the second look-up is the cached item
    assert lazy[1:] == [20, 30] and lazy[::-1] == [30, 20, 10] and lazy[5:] == []
    with pytest.raises(IndexError):
        lazy[3]
    with pytest.raises(IndexError):
        lazy[-4]
    assert list(lazy) == [10, 20, 30] and 20 in lazy
    assert lazy == [10, 20, 30] and lazy != [10, 20] and lazy == planfile.LazyList(items, decode)
    assert lazy != (10, 20, 30)  # a list, not any sequence
    assert repr(lazy) == "[10, 20, 30]"
    with pytest.raises(TypeError):
        hash(lazy)


def test_a_lazy_whole_decodes_once_on_first_use():
    calls = []

    def decode(raw):
        calls.append(raw)
        return msgspec.msgpack.decode(raw)

    whole = planfile.LazyWhole(msgspec.Raw(msgspec.msgpack.encode([1, 2, 3])), decode)
    assert calls == []
    assert len(whole) == 3 and whole[-1] == 3 and whole[0:2] == [1, 2]
    assert len(calls) == 1
    assert whole == [1, 2, 3] and repr(whole) == "[1, 2, 3]"


def test_only_lazy_lists_are_encoded_as_lists():
    with pytest.raises(NotImplementedError, match="cannot encode object"):
        planfile._ENCODER.encode(object())


def test_the_key_tells_apart_name_bytes_engine_and_format(monkeypatch):
    base = planfile.plan_key(NAME, CONFIG)
    assert len(base) == 64 and set(base) <= set("0123456789abcdef")
    assert planfile.plan_key(NAME, CONFIG) == base  # deterministic
    # Each part is length-prefixed: moving a byte from the name to the config is another key.
    assert planfile.plan_key("ab", b"c") != planfile.plan_key("a", b"bc")
    assert planfile.plan_key(NAME + "x", CONFIG) != base
    assert planfile.plan_key(NAME, CONFIG + b" ") != base
    monkeypatch.setattr(planfile, "FORMAT", planfile.FORMAT + 1)
    assert planfile.plan_key(NAME, CONFIG) != base
    monkeypatch.undo()
    monkeypatch.setattr(planfile, "ENGINE_VERSION", "9.9.9")
    assert planfile.plan_key(NAME, CONFIG) != base


def test_write_then_read(tmp_path, plan, key):
    planfile.write_plan(str(tmp_path), plan, key)
    assert planfile.plan_path(str(tmp_path)) == str(tmp_path / ".polydeukes" / "plan.bin")
    assert planfile.read_plan(str(tmp_path), key) == plan
    assert planfile.read_plan(str(tmp_path), "0" * 64) is None
    assert os.listdir(tmp_path / ".polydeukes") == ["plan.bin"]  # no temporary file left


def test_a_failed_write_leaves_the_old_plan_and_no_temporary_file(tmp_path, plan, key,
                                                                  monkeypatch):
    planfile.write_plan(str(tmp_path), plan, key)
    before = (tmp_path / ".polydeukes" / "plan.bin").read_bytes()

    def refuse(source, target):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(planfile.os, "replace", refuse)
    with pytest.raises(OSError, match="No space"):
        planfile.write_plan(str(tmp_path), plan, "1" * 64)
    assert os.listdir(tmp_path / ".polydeukes") == ["plan.bin"]
    assert (tmp_path / ".polydeukes" / "plan.bin").read_bytes() == before


@pytest.mark.parametrize("shape", ["absent", "directory", "symlink", "too-large"])
def test_a_plan_file_that_cannot_be_read_safely_is_no_plan(tmp_path, plan, key, monkeypatch,
                                                           shape):
    state = tmp_path / ".polydeukes"
    state.mkdir()
    target = state / "plan.bin"
    good = planfile.encode_plan(plan, key)
    if shape == "directory":
        target.mkdir()
    elif shape == "symlink":
        (tmp_path / "elsewhere.bin").write_bytes(good)
        target.symlink_to(tmp_path / "elsewhere.bin")
    elif shape == "too-large":
        target.write_bytes(good)
        monkeypatch.setattr(planfile, "PLAN_LIMIT", len(good) - 1)
    assert planfile.read_plan(str(tmp_path), key) is None
    if shape == "too-large":
        monkeypatch.setattr(planfile, "PLAN_LIMIT", len(good))
        assert planfile.read_plan(str(tmp_path), key) == plan


def test_the_plan_is_written_beside_itself_under_a_recognisable_temporary_name(
        tmp_path, plan, key, monkeypatch):
    # In the same directory, so the rename is atomic (one filesystem); named .plan-*.tmp, so a
    # write cut short by a crash leaves a hidden file that is plainly not the plan.
    renames = []
    real_replace = os.replace

    def replace(source, target):
        renames.append((source, target, open(source, "rb").read()))
        real_replace(source, target)

    monkeypatch.setattr(planfile.os, "replace", replace)
    planfile.write_plan(str(tmp_path), plan, key)
    ((source, target, data),) = renames
    directory, name = os.path.split(source)
    assert directory == str(tmp_path / ".polydeukes")
    assert target == planfile.plan_path(str(tmp_path))
    assert name.startswith(".plan-") and name.endswith(".tmp")
    assert data == planfile.encode_plan(plan, key)


DECLARING = b"""\
deadlineSeconds: 5
witness: { token: "pdks witness", ttlMinutes: 10 }
disciplines:
  - id: "no-todo"
    declare:
      mechanism: "added-only"
      scope: { source: "target.path", include: ["^src/"] }
      supply: { pre: "empty", post: "empty" }
      extract:
        after: [{ op: "source", of: "post" }, { op: "lines" }, { op: "matches", re: "TODO" }]
      relate:
        - id: "none"
          relation: { op: "empty", of: "after" }
          message: "adds {value}"
"""


PLAN_FIELDS = list(planfile.Plan.__struct_fields__)
DECLARE_FIELDS = list(planfile.Declare.__struct_fields__)


def _entry_code(body: list) -> list:
    """The body program's code of the plan's one declaration, in a generically decoded body."""
    (entry,) = body[PLAN_FIELDS.index("entries")]
    return entry[DECLARE_FIELDS.index("body") + 1][0]  # + 1: the tag comes first



def _broken_entry_tag(body):
    body[PLAN_FIELDS.index("entries")][0][0] = "declared"


def _unknown_opcode(body):
    _entry_code(body)[0][0] = 99


def _operand_missing(body):
    _entry_code(body)[0].pop()


def _declare_field_missing(body):
    body[PLAN_FIELDS.index("entries")][0].pop()


def _surface_short(body):
    body[PLAN_FIELDS.index("session")].pop()


def _ttl_text(body):
    body[PLAN_FIELDS.index("witness_ttl_minutes")] = "10"


@pytest.mark.parametrize("forge", [None, _broken_entry_tag, _unknown_opcode, _operand_missing,
                                   _surface_short, _ttl_text],
                         ids=lambda forge: getattr(forge, "__name__", "control"))
def test_records_of_a_shape_no_plan_has_are_no_plan_even_with_a_matching_crc(forge):
    """Records are built by position from their plain lists (no typed decoder): a body that
    checks out by CRC yet holds a record of the wrong shape still reads as no plan."""
    declaring = compile_config("/p", NAME, DECLARING).plan
    key = planfile.plan_key(NAME, DECLARING)
    header, body = _split(planfile.encode_plan(declaring, key))
    generic = msgspec.msgpack.decode(body)
    if forge is not None:
        forge(generic)
    else:  # whole numbers where the fields are floats: msgpack keeps an int an int
        for name in ("deadline_seconds", "witness_ttl_minutes"):
            generic[PLAN_FIELDS.index(name)] = int(generic[PLAN_FIELDS.index(name)])
    forged = msgspec.msgpack.encode(generic)
    read = planfile.decode_plan(
        _join(msgspec.structs.replace(header, body_crc=zlib.crc32(forged)), forged), key)
    if forge is None:
        assert read == declaring
        # As msgspec's typed decode read them: a whole number of a float field is a float.
        assert (read.deadline_seconds, read.witness_ttl_minutes) == (5.0, 10.0)
        assert type(read.deadline_seconds) is float and type(read.witness_ttl_minutes) is float
        assert read.entries[0].body.code == declaring.entries[0].body.code
    else:
        assert read is None


FAULTED = b"""\
disciplines:
  - id: "hostile"
    declare:
      mechanism: "added-only"
      extract: { a: [{ op: "source", of: "post" }, { op: "matches", re: "^(a+)+$" }] }
      relate: [{ id: "r", relation: { op: "empty", of: "a" }, message: "m" }]
"""


@pytest.mark.parametrize("lazily", [False, True], ids=["whole", "lazily"])
def test_a_plan_holding_a_compile_fault_is_read_back(lazily, monkeypatch):
    """A declaration that did not compile stays in the plan as a fault entry (spec 02 §1.6):
    its plan is cached like any other, not compiled again at every check."""
    faulted = compile_config("/p", NAME, FAULTED).plan
    assert [type(entry).__name__ for entry in faulted.entries] == ["Fault"]
    key = planfile.plan_key(NAME, FAULTED)
    if lazily:
        monkeypatch.setattr(planfile, "LAZY_FROM", 0)
    read = planfile.decode_plan(planfile.encode_plan(faulted, key), key)
    assert read is not None and read.entries[0] == faulted.entries[0] and read == faulted


@pytest.mark.parametrize("forge, named", [
    (_broken_entry_tag, "not an entry: 'declared'"),
    (_unknown_opcode, "not an instruction: [99, 0, 1, 2, 1]"),
    (_operand_missing, "not an instruction: [1, 0, 1, 2]"),
    (_declare_field_missing, "not an entry: not enough values to unpack (expected 12, got 11)")],
    ids=["entry-tag", "opcode", "operand", "declare-field"])
def test_a_lazily_read_record_of_a_shape_no_entry_has_blocks_naming_it(forge, named, project,
                                                                        monkeypatch, capsys):
    """A large plan's entries are decoded when first routed, past the CRC: a forged record
    then fails the check closed, and the stderr line names what is wrong with it."""
    monkeypatch.chdir(project.root)
    monkeypatch.delenv("POLYDEUKES_TELEMETRY_PATH", raising=False)
    project.config(DECLARING.decode())
    declaring = compile_config(str(project.root), NAME, DECLARING).plan
    key = planfile.plan_key(NAME, DECLARING)
    header, body = _split(planfile.encode_plan(declaring, key))
    generic = msgspec.msgpack.decode(body)
    forge(generic)
    forged = msgspec.msgpack.encode(generic)
    plan_bin = project.root / ".polydeukes" / "plan.bin"
    plan_bin.parent.mkdir(exist_ok=True)
    header = msgspec.structs.replace(header, body_crc=zlib.crc32(forged))
    plan_bin.write_bytes(_join(header, forged))
    monkeypatch.setattr(planfile, "LAZY_FROM", 0)
    call = {"name": "Write", "args": {"file_path": "src/a.py"},
            "fileChange": {"kind": "create", "path": "src/a.py", "post": "x = 1\n"}}
    payload = {"toolCalls": [call], "subagentSpawns": [], "userMessages": [],
               "tools": {"mutating": ["Edit", "Write"], "shell": ["Bash"],
                         "commandArgs": ["command"]}}
    capsys.readouterr()
    from polydeukes.cli.check import run_check

    code = run_check(["--enforce", "block"], stdin=json.dumps(payload).encode("utf-8"))
    assert code == 2
    assert capsys.readouterr().err == (
        f"covenant check failed closed: internal error: ValidationError: {named}\n")
