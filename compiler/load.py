"""Config text -> plain data + SourceMap (spec 02 §1.2).

YAML 1.2 core schema on top of PyYAML's composer: PyYAML resolves plain scalars by YAML 1.1
rules (``yes``/``on`` are booleans, ``0777`` is octal, ``1:30`` is sexagesimal), so we take its
node tree and resolve every plain scalar ourselves. Config is data: an explicit tag other than
the core schema's own is an error, never a constructor call. Every value and key keeps its
position so that validation messages can point at the file.
"""

from __future__ import annotations

import math
import re

import yaml

from polydeukes.compiler.diagnostics import ConfigError
from polydeukes.compiler.source import SourceMap, Span

_CORE = "tag:yaml.org,2002:"
_PLAIN = "tag:polydeukes:plain"  # an untagged plain scalar: resolved by the core schema below
_QUOTED = "tag:polydeukes:quoted"  # an untagged quoted or block scalar: always a string

_NULL = re.compile(r"~|null|Null|NULL|")
_TRUE = re.compile(r"true|True|TRUE")
_FALSE = re.compile(r"false|False|FALSE")
_INT10 = re.compile(r"[-+]?[0-9]+")
_INT8 = re.compile(r"0o[0-7]+")
_INT16 = re.compile(r"0x[0-9a-fA-F]+")
_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?")
_INF = re.compile(r"[-+]?(\.inf|\.Inf|\.INF)")
_NAN = re.compile(r"\.nan|\.NaN|\.NAN")

# Alias expansion is bounded so that a "billion laughs" document cannot exhaust memory.
MAX_NODES = 200_000
# (Python design) A config nests a dozen levels; the bound keeps every recursive pass over the
# document (PyYAML's composer, the builder below, validation) far from Python's stack limit.
MAX_NESTING = 100


class _Resolver(yaml.resolver.BaseResolver):
    """Marks untagged scalars instead of resolving them (we resolve by the 1.2 core schema)."""

    def resolve(self, kind, value, implicit):  # noqa: D102 - PyYAML hook
        if kind is yaml.ScalarNode:
            return _PLAIN if implicit[0] else _QUOTED
        return super().resolve(kind, value, implicit)


# PyYAML's pure-Python composer decides what loads and where every message points (interface).
# libyaml's (`yaml.cyaml.CParser`) composes about eight times faster but differs at the edges:
# it reads `a\t` and `|#c`, which PyYAML refuses, places empty values elsewhere, and refuses
# some documents PyYAML reads (a lone-surrogate escape). So libyaml composes only a document
# that cannot reach those edges (`_libyaml_may_compose`, on the text, and `_same_as_pure`, on
# the tree it gives), and anything it refuses is composed again by PyYAML, whose message is the
# one reported. tests/test_config_yaml_hybrid.py compares the two over generated documents.
class _Loader(
    yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser, yaml.composer.Composer,
    _Resolver,
):
    def __init__(self, stream: str) -> None:
        yaml.reader.Reader.__init__(self, stream)
        yaml.scanner.Scanner.__init__(self)
        yaml.parser.Parser.__init__(self)
        yaml.composer.Composer.__init__(self)
        _Resolver.__init__(self)


_CLoader = None
if getattr(yaml, "__with_libyaml__", False):
    from yaml.cyaml import CParser

    class _CLoader(CParser, _Resolver):  # type: ignore[no-redef]
        def __init__(self, stream: str) -> None:
            CParser.__init__(self, stream)
            _Resolver.__init__(self)


# Texts libyaml is not given: a tab anywhere (libyaml reads tabs after values and in places
# PyYAML refuses), a line break other than \n, a byte-order mark, a control character, a
# directive or document marker; `|` or `>` followed by `#` on one line without a blank between
# (libyaml reads `|#c` as a header and a comment).
_LIBYAML_EDGES = re.compile(
    r"[\t\r\x85\u2028\u2029\ufeff\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]"
    r"|^(?:---|\.\.\.|%)|[|>][-+0-9]*#", re.MULTILINE)
# A block scalar's header as PyYAML reads it: indicators, then a comment after a blank, or nothing.
_BLOCK_HEADER = re.compile(r"[|>](?:[-+][1-9]?|[1-9][-+]?)?(?:[ ]+#[^\n]*|[ ]*)$", re.MULTILINE)
_MAPPING_OR_SEQUENCE = (_CORE + "map", _CORE + "seq")
# A plain scalar inside `[...]` or `{...}` that both read alike: words of letters, digits and
# `_.-/+~^$()=<;` on one line (they part on indicators there: `{\? a: b}`).
_FLOW_PLAIN = re.compile(r"[\w.\-/+~^$()=<;]+(?: [\w.\-/+~^$()=<;]+)*")


def _libyaml_may_compose(text: str) -> bool:
    return _CLoader is not None and _LIBYAML_EDGES.search(text) is None


def _same_as_pure(text: str, root: yaml.Node) -> bool:
    """Whether PyYAML composes this tree of libyaml's to the same tree, values, tags and
    positions: no empty plain value (placed elsewhere), no alias, no explicit tag (nor a lone
    `!`, which libyaml reads as a string), every block
    scalar's header one PyYAML reads, only words as plain scalars inside flow collections, and
    no deeper than MAX_NESTING (deeper, PyYAML's recursive composer may fail before any other
    message)."""
    pending, seen = [(root, 0, False)], set()
    while pending:
        node, depth, in_flow = pending.pop()
        if depth > MAX_NESTING:
            return False
        if id(node) in seen:
            return False  # an alias: PyYAML's own composer decides what it refers to
        seen.add(id(node))
        if isinstance(node, yaml.ScalarNode):
            if node.tag not in (_PLAIN, _QUOTED):
                return False
            if node.tag == _QUOTED and not node.style:
                return False  # a plain scalar resolved as a string: libyaml's reading of a lone
                #               `!` tag (`a: !` is '' there, null in PyYAML; found by the
                #               hybrid differential)
            if node.tag == _PLAIN and (node.value == "" or in_flow and not (
                    _FLOW_PLAIN.fullmatch(node.value)
                    and node.start_mark.line == node.end_mark.line)):
                return False
            if node.style in ("|", ">") and not _BLOCK_HEADER.match(text, node.start_mark.index):
                return False
            continue
        if node.tag not in _MAPPING_OR_SEQUENCE:
            return False
        in_flow = in_flow or bool(node.flow_style)
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                pending += ((key, depth + 1, in_flow), (value, depth + 1, in_flow))
        else:
            pending += ((item, depth + 1, in_flow) for item in node.value)
    return True


def _compose(text: str) -> yaml.Node | None:
    """The document's node tree, by libyaml where it gives PyYAML's tree, else by PyYAML.
    Raises PyYAML's errors."""
    if _libyaml_may_compose(text):
        try:
            loader = _CLoader(text)  # (it encodes the text first: a lone surrogate fails here)
            try:
                root = loader.get_single_node()
            finally:
                loader.dispose()
        except Exception:  # noqa: BLE001 - whatever libyaml refuses, PyYAML decides and words
            root = None
        if root is not None and _same_as_pure(text, root):
            return root
    loader = _Loader(text)
    try:
        return loader.get_single_node()
    except (ValueError, OverflowError):
        # PyYAML's scanner turns `\UXXXXXXXX` into a character with chr(), which refuses a
        # code point past U+10FFFF with a bare ValueError (found by the hybrid differential),
        # and one of 2**31 or more (`\U80000000`) with an OverflowError.
        raise yaml.scanner.ScannerError(
            "while scanning a double-quoted scalar", None,
            "found an escape sequence past the last Unicode code point U+10FFFF",
            _back(loader.get_mark(), 2)) from None  # at its backslash, not its digits
    finally:
        loader.dispose()


def _back(mark: yaml.Mark, columns: int) -> yaml.Mark:
    return yaml.Mark(mark.name, mark.index - columns, mark.line, mark.column - columns,
                     mark.buffer, mark.pointer)


def _parse_error(file_label: str, problem: str, mark) -> ConfigError:
    """`failed to parse <file>: <problem>`, located like every other config message."""
    span = None if mark is None else Span(file_label, mark.line + 1, mark.column + 1)
    return ConfigError(f"failed to parse {file_label}: {problem}", span)


def _problem(exc: yaml.YAMLError) -> str:
    problem = getattr(exc, "problem", None) or str(exc)
    context = getattr(exc, "context", None)
    return f"{context}, {problem}" if context else problem


def parse_config_text(text: str, file_label: str) -> tuple[object, SourceMap]:
    """Parse one config document. Raises ConfigError(`failed to parse <file>: <problem>`)."""
    source_map = SourceMap(file_label)
    try:
        root = _compose(text)
    except yaml.composer.ComposerError as exc:
        if "expected a single document" in str(exc):
            problem = "Source contains multiple documents; a config is one YAML document"
            raise _parse_error(file_label, problem, exc.problem_mark) from None
        raise _parse_error(file_label, _problem(exc), exc.problem_mark) from None
    except yaml.YAMLError as exc:
        raise _parse_error(file_label, _problem(exc), getattr(exc, "problem_mark", None)) from None
    except RecursionError:  # PyYAML's composer recurses per level, hundreds of levels down
        raise _too_deep(text, file_label) from None
    if root is None:
        source_map.record_value((), 0, 0)  # an empty document is located at its start
        return None, source_map
    builder = _Builder(text, file_label, source_map)
    data = builder.build(root, ())
    return data, source_map


def _too_deep(text: str, file_label: str) -> ConfigError:
    """Where the document first nests deeper than MAX_NESTING: PyYAML's events come from an
    explicit stack, so walking them cannot overflow where composing did."""
    loader = _Loader(text)
    depth, mark = 0, None
    try:
        while True:
            event = loader.get_event()
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > MAX_NESTING:
                    mark = event.start_mark
                    break
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
            elif isinstance(event, yaml.StreamEndEvent):
                break
    except (yaml.YAMLError, RecursionError):
        pass
    finally:
        loader.dispose()
    return _parse_error(file_label, _TOO_DEEP, mark)


_TOO_DEEP = f"the document nests deeper than {MAX_NESTING} levels"


class _Builder:
    def __init__(self, text: str, file_label: str, source_map: SourceMap) -> None:
        self.lines = text.split("\n")
        self.file_label = file_label
        self.source_map = source_map
        self.count = 0
        self.active: set[int] = set()

    def fail(self, node: yaml.Node, problem: str) -> ConfigError:
        return _parse_error(self.file_label, problem, node.start_mark)

    def build(self, node: yaml.Node, path: tuple) -> object:
        self.count += 1
        if self.count > MAX_NODES:
            raise self.fail(node, f"the document expands to more than {MAX_NODES} values")
        if len(path) >= MAX_NESTING and not isinstance(node, yaml.ScalarNode):
            raise self.fail(node, _TOO_DEEP)
        self.source_map.record_value(path, node.start_mark.line, node.start_mark.column)
        if isinstance(node, yaml.ScalarNode):
            return self.scalar(node, path)
        if id(node) in self.active:
            raise self.fail(node, "an alias refers to a node that contains it")
        self.active.add(id(node))
        try:
            if isinstance(node, yaml.SequenceNode):
                if node.tag not in (_CORE + "seq",):
                    raise self.fail(node, f"unresolved tag {node.tag}")
                return [self.build(item, path + (i,)) for i, item in enumerate(node.value)]
            if node.tag not in (_CORE + "map",):
                raise self.fail(node, f"unresolved tag {node.tag}")
            result: dict[str, object] = {}
            key_marks: dict[str, yaml.Node] = {}
            for key_node, value_node in node.value:
                key = self.key(key_node)
                if key in key_marks:
                    raise self.fail(key_node, f"Map keys must be unique; '{key}' is repeated")
                key_marks[key] = key_node
                self.source_map.record_key(
                    path + (key,), key_node.start_mark.line, key_node.start_mark.column
                )
                result[key] = self.build(value_node, path + (key,))
            return result
        finally:
            self.active.discard(id(node))

    def key(self, node: yaml.Node) -> str:
        if not isinstance(node, yaml.ScalarNode):
            raise self.fail(node, "a mapping key must be a scalar")
        value = self.scalar(node, None)
        # Keys become strings, as they do in the original's JavaScript objects.
        if isinstance(value, str):
            return value
        return _key_text(value)

    def scalar(self, node: yaml.ScalarNode, path: tuple | None) -> object:
        tag, text = node.tag, node.value
        if tag == _QUOTED or tag == _CORE + "str":
            if not text.isascii():
                text = self.text(node, text)
            if path is not None and node.style == "|":
                self._record_block(node, path, text)
            return text
        if tag == _PLAIN:
            return resolve_plain(text)
        if tag == _CORE + "null" and _NULL.fullmatch(text):
            return None
        if tag == _CORE + "bool":
            if _TRUE.fullmatch(text):
                return True
            if _FALSE.fullmatch(text):
                return False
        if tag == _CORE + "int" or tag == _CORE + "float":
            value = resolve_plain(text)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                return value
        raise self.fail(node, f"unresolved tag {tag} for the value {text!r}")

    def text(self, node: yaml.ScalarNode, text: str) -> str:
        """A string as JavaScript reads it: `"\\uD83D\\uDE00"` escapes one astral character as
        two surrogates, which are joined here; a surrogate left alone is not text (nothing
        downstream could encode it) and is refused where it stands."""
        try:
            text.encode("utf-8")
            return text
        except UnicodeEncodeError:
            pass
        try:
            return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le")
        except UnicodeDecodeError as exc:
            unit = int.from_bytes(exc.object[exc.start:exc.start + 2], "little")
            raise self.fail(node, f"a string holds the lone surrogate \\u{unit:04x}, "
                                  "which is not text") from None

    def _record_block(self, node: yaml.ScalarNode, path: tuple, value: str) -> None:
        # A literal block's content starts on the line after the indicator; each content line
        # is one file line, indented by the block's indentation.
        first = node.start_mark.line + 1
        starts = []
        indent = None
        for offset, _ in enumerate(value.split("\n")):
            line0 = first + offset
            if line0 >= len(self.lines):
                break
            raw = self.lines[line0]
            stripped = len(raw) - len(raw.lstrip(" "))
            if indent is None and raw.strip():
                indent = stripped
            starts.append((line0, indent if indent is not None else stripped))
        self.source_map.record_block_scalar(path, value, tuple(starts))


def resolve_plain(text: str) -> object:
    """YAML 1.2 core schema resolution of a plain scalar."""
    if _NULL.fullmatch(text):
        return None
    if _TRUE.fullmatch(text):
        return True
    if _FALSE.fullmatch(text):
        return False
    if _INT10.fullmatch(text):
        try:
            return int(text, 10)
        except ValueError:  # past Python's 4,300-digit conversion limit: a Number, as in JS
            return float(text)
    if _INT8.fullmatch(text):
        return int(text[2:], 8)
    if _INT16.fullmatch(text):
        return int(text[2:], 16)
    if _FLOAT.fullmatch(text):
        return float(text)
    if _INF.fullmatch(text):
        return -math.inf if text.startswith("-") else math.inf
    if _NAN.fullmatch(text):
        return math.nan
    return text


def _key_text(value: object) -> str:
    if value is None:
        return ""
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e21:
            return str(int(value))
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
    return str(value)
