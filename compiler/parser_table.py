"""The declaration grammar's LALR parser, built once and stored as data beside the grammar.

Building Lark's LALR parser from grammar/declarations.lark (reading the grammar, the LALR
analysis, the tables) was the largest single cost of a compile, paid by every `pdks compile`
and every check that finds its plan stale. The built parser is therefore stored in the package,
grammar/declarations.parser.json, in Lark's own serialized form (`Lark.memo_serialize`, what
`lark.tools.serialize` and Lark's standalone generator write) and loaded with
`Lark._load_from_dict`, which is how Lark's standalone parsers load that form.

It is JSON, decoded and never executed: `Lark.save` writes a pickle, and a pickle runs code for
whoever can write the file. JSON has neither tuples nor integer keys, which Lark's form holds,
so the file tags them — `{"#tuple": [...]}` and `{"#items": [[key, value], ...]}` — and
decoding gives back exactly the structure that was encoded. Lark numbers its parse states and
tokens in set-iteration order, which differs from run to run; the stored table is renumbered
into one canonical order (tokens by name, states in breadth-first order from the start states),
so the same grammar always gives the same file and a test can compare it byte for byte.

The file records the sha256 of the grammar text, the Lark options and the Lark version it was
built with; `stored_parser` returns None unless all three match the running ones, and the
compiler then builds the parser from the grammar as it always did (slower, never different).
After editing the grammar, or with another Lark, regenerate it:

    python -m polydeukes.compiler.parser_table          # rewrites the file
    python -m polydeukes.compiler.parser_table --check  # exit 1 unless it is what that writes

tests/test_parser_table.py runs the check, so the stored form cannot drift from the grammar.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

GRAMMAR_DIR = Path(__file__).resolve().parent.parent / "grammar"
GRAMMAR_PATH = GRAMMAR_DIR / "declarations.lark"
TABLE_PATH = GRAMMAR_DIR / "declarations.parser.json"
COMMAND = "python -m polydeukes.compiler.parser_table"

_TUPLE = "#tuple"
_ITEMS = "#items"


def grammar_key(grammar: str, options: dict) -> str:
    """What the stored parser was built from: the grammar text and the Lark options."""
    text = grammar + "\0" + json.dumps(options, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def stored_parser(grammar: str, options: dict):
    """The Lark parser stored for this grammar and these options under the running Lark, or
    None (no file, another grammar, other options, another Lark version, a file that does not
    read): the caller then builds the parser from the grammar."""
    import lark

    try:
        stored = json.loads(TABLE_PATH.read_text(encoding="utf-8"), object_hook=_decoded)
        if stored["grammar"] != grammar_key(grammar, options) or stored["lark"] != lark.__version__:
            return None
        return lark.Lark._load_from_dict(stored["data"], stored["memo"])
    except Exception:  # noqa: BLE001 - a stored form that does not load: build from the grammar
        return None


def table_text(parser, grammar: str, options: dict) -> str:
    """The file's text for a parser built from `grammar` with `options`."""
    import lark
    from lark.grammar import Rule
    from lark.lexer import TerminalDef

    data, memo = parser.memo_serialize([TerminalDef, Rule])
    frontend = data["parser"]
    frontend["parser"] = _canonical_table(frontend["parser"])
    stored = {"grammar": grammar_key(grammar, options), "lark": lark.__version__,
              "data": _encoded(data), "memo": _encoded(memo)}
    return json.dumps(stored, separators=(",", ":"), ensure_ascii=True) + "\n"


def _canonical_table(table: dict) -> dict:
    """Lark's serialized LALR table with tokens numbered by name and states in breadth-first
    order from the start states, taken by name (actions in token-name order): Lark's numbering
    came from iterating sets, which is not the same from one run to the next."""
    names = table["tokens"]  # token number -> name
    states = table["states"]  # state -> {token number: (0, next state) | (1, rule)}
    order = sorted(names.values())
    token_number = {name: i for i, name in enumerate(order)}
    by_name = {state: sorted(((names[token], action) for token, action in actions.items()),
                             key=lambda pair: pair[0])
               for state, actions in states.items()}
    renumbered: dict[int, int] = {}
    starts, ends = sorted(table["start_states"].items()), sorted(table["end_states"].items())
    pending = [state for _, state in starts + ends]
    while pending:
        following = []
        for state in pending:
            if state not in renumbered:
                renumbered[state] = len(renumbered)
                following.extend(target for _, (kind, target) in by_name[state] if kind == 0)
        pending = following
    if len(renumbered) != len(states):  # pragma: no cover - every LALR state is reachable
        raise RuntimeError("the LALR table has states no start state reaches")
    return {
        "tokens": {i: name for i, name in enumerate(order)},
        "states": {
            renumbered[state]: {
                token_number[name]: (kind, renumbered[target] if kind == 0 else target)
                for name, (kind, target) in by_name[state]
            }
            for state in sorted(states, key=renumbered.__getitem__)
        },
        "start_states": {start: renumbered[state] for start, state in starts},
        "end_states": {start: renumbered[state] for start, state in ends},
    }


def _encoded(value):
    if isinstance(value, tuple):
        return {_TUPLE: [_encoded(item) for item in value]}
    if isinstance(value, list):
        return [_encoded(item) for item in value]
    if isinstance(value, dict):
        plain = all(isinstance(key, str) for key in value)
        if plain and _TUPLE not in value and _ITEMS not in value:
            return {key: _encoded(item) for key, item in value.items()}
        return {_ITEMS: [[_encoded(key), _encoded(item)] for key, item in value.items()]}
    if value is None or isinstance(value, (str, int, float)):  # bool is an int
        return value
    raise TypeError(f"Lark's serialized parser holds a {type(value).__name__}")


def _decoded(obj: dict):
    if len(obj) == 1:
        if _TUPLE in obj:
            return tuple(obj[_TUPLE])
        if _ITEMS in obj:
            return {key: item for key, item in obj[_ITEMS]}
    return obj


def main(argv: list[str]) -> int:
    from polydeukes.compiler import parse

    if argv not in ([], ["--check"]):
        print(f"usage: {COMMAND} [--check]", file=sys.stderr)
        return 2
    grammar = GRAMMAR_PATH.read_text(encoding="utf-8")
    text = table_text(parse.build_parser(grammar), grammar, parse.LARK_OPTIONS)
    if argv == ["--check"]:
        current = TABLE_PATH.read_text(encoding="utf-8") if TABLE_PATH.exists() else None
        if current != text:
            import lark

            print(f"{TABLE_PATH.name} is not the parser of {GRAMMAR_PATH.name} under Lark "
                  f"{lark.__version__}: run `{COMMAND}`", file=sys.stderr)
            return 1
        return 0
    TABLE_PATH.write_text(text, encoding="utf-8")
    print(f"wrote {TABLE_PATH}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
