"""JavaScript itself as the oracle for compiler/regex.py (used by tests/test_regex_js.py).

`node` runs tests/js_regex.mjs, which asks JavaScript's own `RegExp` (no `u` flag, as the
original compiles declaration patterns) for the first match of a pattern in a subject. Our side
translates the same pattern with compiler/regex.py and runs it through vm/jsregex.py. Both
answers have one shape, a JSON-ready dict:

    {"error": text}                        the pattern is a syntax error
    {"refused": text}                      valid JavaScript this implementation refuses
                                           (only we say this: an unsupported construct or the
                                           backtracking guard, both documented refusals)
    {"groups": N, "match": None}           no match
    {"groups": N, "match": [[start, end, text] | None, ...]}   group 0 first

with spans in UTF-16 code units. `disagreement` compares two answers.

Also here: one grammar of patterns and subjects that both the seeded table generator and the
Hypothesis strategy draw from (through a `pick(options)` callable), and the curated table
inputs that cover the dialect's risky corners.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from polydeukes.compiler.regex import JsRegex, RegexRefused, reset_groups, translate

TESTS = Path(__file__).resolve().parent
SCRIPT = TESTS / "js_regex.mjs"
TABLE = TESTS / "cases" / "regex" / "javascript.jsonl"
NODE = shutil.which("node")
NO_NODE = "node is not on PATH: the live comparison with JavaScript needs it (the checked-in table still runs)"

Answer = dict[str, Any]
Case = tuple[str, str, str]  # pattern, flags ("" or "i"), subject


# -- the two sides -----------------------------------------------------------------------------


def _line(case: Case) -> str:
    pattern, flags, subject = case
    # ensure_ascii: node's readline must never see a raw line separator inside a case.
    return json.dumps({"re": pattern, "flags": flags, "subject": subject}, ensure_ascii=True)


def node_answers(cases: Sequence[Case]) -> list[Answer]:
    """JavaScript's answers for many cases from one node process."""
    assert NODE is not None, NO_NODE
    text = "".join(_line(c) + "\n" for c in cases)
    done = subprocess.run([NODE, str(SCRIPT)], input=text, capture_output=True, encoding="utf-8",
                          check=True, timeout=300)
    # split("\n"), not splitlines(): JSON.stringify leaves U+2028 raw inside strings.
    answers = [json.loads(line) for line in done.stdout.split("\n") if line]
    assert len(answers) == len(cases), done.stderr
    return answers


class NodeSession:
    """One long-lived node process answering one case at a time (for Hypothesis)."""

    def __init__(self) -> None:
        assert NODE is not None, NO_NODE
        self._proc = subprocess.Popen([NODE, str(SCRIPT)], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, text=True, encoding="utf-8")

    def answer(self, case: Case) -> Answer:
        assert self._proc.stdin is not None and self._proc.stdout is not None
        self._proc.stdin.write(_line(case) + "\n")
        self._proc.stdin.flush()
        return json.loads(self._proc.stdout.readline())

    def close(self) -> None:
        assert self._proc.stdin is not None
        self._proc.stdin.close()
        self._proc.wait(timeout=30)


def our_answer(case: Case) -> Answer:
    """What compiler/regex.py + vm/jsregex.py make of the case."""
    pattern, flags, subject = case
    try:
        translated = translate(pattern, flags == "i", reads_group1=False)
    except RegexRefused as e:
        return {"error": e.reason} if e.syntax_error else {"refused": e.reason}
    groups = translated.group_count
    m = JsRegex.from_translated(translated).search(subject)
    if m is None:
        return {"groups": groups, "match": None}
    match = []
    for n in range(groups + 1):
        span = m.span(n)
        match.append(None if span is None else [span[0], span[1], m.group(n)])
    return {"groups": groups, "match": match}


def disagreement(case: Case, js: Answer, ours: Answer) -> str | None:
    """Why the two answers differ, or None when they agree.

    A syntax error must be a syntax error on both sides. A pattern JavaScript accepts may be
    refused by us only with a documented refusal ("refused"); then there is nothing to compare.
    The groups JavaScript resets between repetitions (`reset_groups`, spec 03 §19.2 row 18) are
    left out: the translator never lets a verdict read them.
    """
    if "error" in js or "error" in ours:
        if ("error" in js) != ("error" in ours):
            return f"JavaScript says {js}, we say {ours}"
        return None
    if "refused" in ours:
        return None
    if js["groups"] != ours["groups"]:
        return f"group count: JavaScript {js['groups']}, ours {ours['groups']}"
    if (js["match"] is None) != (ours["match"] is None):
        return f"match: JavaScript {js['match']}, ours {ours['match']}"
    if js["match"] is None:
        return None
    skip = reset_groups(case[0], case[1] == "i")
    for n, (a, b) in enumerate(zip(js["match"], ours["match"])):
        if n not in skip and a != b:
            return f"group {n}: JavaScript {a}, ours {b}"
    return None


# -- one grammar for generated cases -----------------------------------------------------------
#
# Each drawn term comes with a sampler: a function that spells a text the term (probably)
# matches, so that a subject built around the samples matches often and the interesting
# questions get asked (which span, which groups, how many rounds). Quantified terms sample a
# number of rounds at and around both bounds, one past the upper bound included.

Pick = Callable[[Sequence[Any]], Any]
Sampler = Callable[[], str]

# (pattern text, texts it matches or nearly matches, to sample from)
_LITERALS = [("a", "aA"), ("a", "a"), ("b", "bB"), ("A", "Aa"), ("-", "-"), ("é", "éÉ"),
             ("\u017f", "\u017fsS"), ("\u212a", "\u212akK"), ("\\.", ".x"), ("\\-", "-"),
             ("\\/", "/"), ("_", "_"), (" ", " \u3000")]
_ESCAPES = [("\\d", "1\u0663"), ("\\D", "a1"), ("\\w", "aé_"), ("\\W", "-é"),
            ("\\s", " \ufeff\x85\x1c\n"), ("\\S", "a\x1c "), (".", "a\n\r\u2028\U0001F600\x85"),
            ("\\u0061", "a"), ("\\x41", "Aa"), ("\\u00e9", "éÉ"), ("\\x4", ["x4"]),
            ("\\u41", ["u41"]), ("\\n", "\n"), ("\\t", "\t"), ("\\cJ", "\n"), ("\\0", "\x00"),
            ("\\a", "a\x07"), ("\\e", "e"), ("\\u{2}", ["uu", "u{2}"]), ("\\p{L}", ["p{L}", "a"]),
            ("\\8", "8")]
_CLASS_ITEMS = [("a", "a"), ("b-d", "bce"), ("A-Z", "QK\u212a"), ("\\d", "5"), ("\\w", "w_"),
                ("\\s", " \t"), ("\\W", "!é"), ("-", "-"), ("\\-", "-"), ("\\b", "\x08b"),
                ("é", "éÉ"), ("\\u00e0-\\u00ff", "üÜ"), (".", ".a"), ("\\n", "\n"), ("_", "_"),
                ("\u017f", "\u017fs"), ("\\x41-\\x43", "Bb")]
_NOISE = ["a", "b", "A", "1", " ", "\n", "-", "é", "\U0001F600", "\ud83d", "x"]
_FIXED = ["", "", "", "", "", "{2}", "{,2}"]  # no choice of how many rounds ("{,2}" is literal)
_QUANTIFIERS = _FIXED + ["*", "+", "?", "{0}", "{0,1}", "{1,2}", "{2,3}", "{0,2}", "{1,3}",
                         "{1,}", "{2,}", "{2,2}"]
_BOUNDS = {"": (1, 1), "{2}": (2, 2), "*": (0, None), "+": (1, None), "?": (0, 1)}


def _bounds(quantifier: str) -> tuple[int, int | None]:
    if quantifier in _BOUNDS:
        return _BOUNDS[quantifier]
    if quantifier == "{,2}":
        return 1, 1  # literal text, sampled as one round of the atom (the braces are noise)
    lo, _, hi = quantifier.strip("{}").partition(",")
    return int(lo), (int(lo) if "," not in quantifier else (int(hi) if hi else None))


class _Builder:
    """Draws one pattern and a sampler for it; tracks groups so references can point at them.

    The shapes are chosen so most patterns translate: inside a repeated group (or a
    look-behind) only fixed counts and no back-references are drawn, because variable
    repetition there is what the backtracking guard and the look-behind rule refuse.
    """

    def __init__(self, pick: Pick) -> None:
        self.pick = pick
        self.groups = 0
        self.names: list[str] = []

    def disjunction(self, depth: int, fixed: bool) -> tuple[str, Sampler]:
        count = self.pick([1, 1, 1, 2] if depth else [1, 1, 1, 2, 3])
        alts = [self.alternative(depth, fixed) for _ in range(count)]
        return "|".join(a for a, _ in alts), lambda: self.pick(alts)[1]()

    def alternative(self, depth: int, fixed: bool) -> tuple[str, Sampler]:
        count = self.pick([1, 1, 2, 2, 3, 4] if depth == 0 else [1, 1, 2])
        terms = [self.term(depth, fixed) for _ in range(count)]
        return "".join(t for t, _ in terms), lambda: "".join(sample() for _, sample in terms)

    def term(self, depth: int, fixed: bool) -> tuple[str, Sampler]:
        pick = self.pick
        kinds = ["literal"] * 4 + ["escape", "escape", "class", "class", "anchor"]
        if not fixed:
            kinds += ["backref"]
        if depth < 2:
            kinds += ["group", "named", "plain", "ahead"] + (["behind"] if not fixed else [])
        kind = pick(kinds)
        if kind == "anchor":
            anchor = pick(["^", "$", "\\b", "\\B"])
            return anchor, lambda: pick(["", "", "\n"])  # "$" before a final newline
        if kind == "behind":  # a quantified look-behind is a syntax error on both sides
            body, _ = self.disjunction(depth + 1, True)
            return f"(?<{pick(['=', '!'])}{body})", lambda: ""
        quantifier = pick(_FIXED if fixed else _QUANTIFIERS)
        inner_fixed = fixed or quantifier not in _FIXED
        sample: Sampler
        if kind == "backref":
            atom = pick(["\\1", "\\2", "\\1"] + [f"\\k<{n}>" for n in self.names])
            sample = lambda: pick(["", "a", "\x01"])  # noqa: E731
        elif kind in ("literal", "escape"):
            atom, texts = pick(_LITERALS if kind == "literal" else _ESCAPES)
            sample = lambda: pick(texts)  # noqa: E731
        elif kind == "class":
            items = [pick(_CLASS_ITEMS) for _ in range(pick([0, 1, 1, 2, 3]))]
            atom = f"[{pick(['', '', '^'])}{''.join(i for i, _ in items)}]"
            texts = "".join(t for _, t in items) + "z"
            sample = lambda: pick(texts)  # noqa: E731
        elif kind == "ahead":
            body, _ = self.disjunction(depth + 1, inner_fixed)
            atom, sample = f"(?{pick(['=', '!'])}{body})", lambda: ""
        elif kind == "plain":
            body, sample = self.disjunction(depth + 1, inner_fixed)
            atom = f"(?:{body})"
        else:
            self.groups += 1
            opener = "("
            if kind == "named":
                # A fresh name each time: Node 20 refuses even the duplicate names ES2025 allows.
                name = f"n{self.groups}"
                self.names.append(name)
                opener = f"(?<{name}>"
            body, sample = self.disjunction(depth + 1, inner_fixed)
            atom = f"{opener}{body})"
        lo, hi = _bounds(quantifier)
        edges = [lo, lo + 1] + ([lo - 1] if lo else []) + ([hi, hi + 1] if hi is not None else [lo + 2])
        lazy = pick(["", "", "?"]) if quantifier not in _FIXED else ""
        return atom + quantifier + lazy, lambda: "".join(sample() for _ in range(pick(edges)))


def draw_case(pick: Pick) -> Case:
    pattern, sample = _Builder(pick).disjunction(0, False)
    flags = pick(["", "", "i"])
    noise = lambda: "".join(pick(_NOISE) for _ in range(pick([0, 0, 1, 2])))  # noqa: E731
    return pattern, flags, noise() + sample() + noise()


def seeded_cases(count: int, seed: int = 16) -> list[Case]:
    rng = random.Random(seed)
    return [draw_case(rng.choice) for _ in range(count)]


# -- curated inputs: the dialect's risky corners, each with subjects on both sides of the edge -


def _each(patterns: Iterable[str], subjects: Iterable[str], flags: str = "") -> list[Case]:
    subjects = list(subjects)
    return [(p, flags, s) for p in patterns for s in subjects]


def curated_cases() -> list[Case]:
    runs = ["", "a", "aa", "aaa", "aaaa", "aaaaa", "xaaaab"]
    cases = []
    # Quantifier bounds, greedy and lazy, with runs shorter than, equal to and past each bound.
    cases += _each(["a{2}", "a{0}", "a{2,}", "a{1,3}", "a{0,2}", "a{3,3}", "a{2,4}", "^a{1,3}$",
                    "a{1,3}?", "a{2,3}?b", "a{1,}?", "a{0,2}?a", "(?:ab){1,2}", "x?a{1,2}b",
                    "(a{1,2}){2}", "[ab]{2,3}", "a{2,3}a{1,2}", "a{1,2}?a{1,2}$"], runs)
    cases += _each(["\\d{2,3}", "\\d{2,3}?", ".{0,3}b", ".{1,2}?b", "[^b]{2,}?b"],
                   ["1", "12", "1234", "abab", "aaab", "\nab"])
    cases += _each(["x{,3}", "a{b}", "a{1", "{", "a{2}{3}", "a{2,1}", "{1}"],
                   ["x{,3}", "xxx", "a{b}", "a{1", "{"])
    # Classes.
    cases += _each(["[abc]+", "[^abc]+", "[a-c]+", "[^a-c]", "[\\d-z]+", "[\\w-]+", "[\\s\\S]",
                    "[]", "a[]", "[^]", "[\\b]", "[-a]+", "[a-]+", "[\\u0041-\\u005A]+",
                    "[\\x41-\\x43]+", "[\\cJ]", "[\\c1]", "[\\0]", "[\\1]", "[\\8]", "[.]",
                    "[\\^]", "[a-z]+", "[z-a]"],
                   ["abc", "xyz-9", "A\nB", "\b", "\x00\x01", "81.", "ABCD", "^x"])
    cases += _each(["[a-z]+", "[^a-z]+", "[A-Z]", "\\u017f", "s", "k", "\\u212a", "[k]",
                    "\\w+", "[\\w]+", "[^\\W]+", "\u00e5", "\u00df", "\u03c3", "(a)\\1"],
                   ["ABC", "\u017fS", "\u212aK", "\u212b\u00c5", "\u1e9e", "\u03c2\u03a3", "aA"],
                   flags="i")
    # Unicode and ASCII escapes.
    cases += _each(["\\d", "\\D", "\\w", "\\W", "\\s", "\\S", "\\u00e9", "\\xe9", "\\x41",
                    "\\u41", "\\x4", "\\u{41}", "\\cJ", "\\cj", "\\c1", "\\c", "\\0", "\\01",
                    "\\08", "\\377", "\\400", "\\a", "\\e", "\\A", "\\Z", "\\z", "\\p{L}",
                    "\\/", "\\-", "\\t\\v\\f", "\\."],
                   ["\u0663", "a_9", "é", "A", "uuuu u41 x4", "\n", "\\c1", "\x00\x01",
                    "\x008", "\u00ff 0", "azAZ", "p{L}", "/-.", "\t\x0b\x0c",
                    "\ufeff\u0085", "\x1c\u3000"])
    # A legacy octal escape with more pattern after it: `\01` is U+0001, not NUL and then "1".
    cases += _each(["\\01a", "[\\01]", "[\\01b]"], ["\x01a", "\x001a", "1", "b"])
    cases += _each(["\\bmerge\\b", "\\Bmerge", "merge\\b", "\\b", "\\B"],
                   ["\uba38\uc9c0merge", "\u00e9merge", "amerge", " merge ", "", "a"])
    # Anchors with trailing newlines (JavaScript's `$` is the end of input only).
    cases += _each(["^a$", "a$", "^$", "$", "^", "TODO$", "a\\n$", "^\\s*$", "a$|b"],
                   ["a", "a\n", "a\r\n", "\n", "a\n\n", "a\u2028", "x TODO\n", "", "b\n"])
    cases += _each(["^.$", ".", "^..$", "[^a]", "\U0001F600", "^\ud83d", "[\U0001F600]"],
                   ["\U0001F600", "é", "a\U0001F600", "\ud83d"])
    # Look-arounds.
    cases += _each(["(?=a)", "(?!a)", "a(?=b)", "a(?!b)", "(?<=a)b", "(?<!a)b", "(?<=^|/)x",
                    "(?<!a|bc)d", "(?<!\\.ko)\\.md$", "(?=(a))", "(?=(a))+a", "(?=a)*b",
                    "(?<=(a))b", "(?<=a+)b", "(?<=a)*b", "^(?!data/)", "(?=(\\w+))\\1:",
                    "(?<=\\d{2})x"],
                   ["ab", "bb", "a/x", "x", "bcd ad xd", "guide.ko.md", "guide.md",
                    "data/x", "src/x", "abc:", "12x"])
    # Named groups.
    cases += _each(["(?<n>a)\\k<n>", "(?<year>\\d{4})-(?<m>\\d\\d)", "\\k<n>", "\\k",
                    "(?<n>a)\\k<m>", "(?<n>a)(?<n>b)", "(?<$x>a)", "(?<\u00e9t\u00e9>a)",
                    "(?<1a>x)", "(?<a\\u0062>x)\\k<ab>", "(?<n>a)[\\k]", "[\\k]"],
                   ["aa", "on 2024-05", "k<n>", "k", "ab", "xx"])
    # Back-references.
    cases += _each(["(a)\\1", "(a)?b\\1c", "\\1(a)", "(a\\1)", "(a|b)\\1", "(a)|b\\1",
                    "(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)\\10", "(a)\\10", "\\1", "a\\12", "\\18",
                    "([\"'])x\\1", "(?:(a)|b)\\1", "(a*)b\\1"],
                   ["aa", "bc", "abc", "bb", "abcdefghijj", "a\b", "\x01", "a\n", "\x018",
                    "'x'", "\"x'", "aabaa", "ab"])
    # Case-insensitive back-references compare by JavaScript's Canonicalize, not `re`'s
    # lowercase (found by this differential: `re` matched `(k)\1` against "k" and the Kelvin sign).
    cases += _each(["(k)\\1", "(\u212a)\\1", "(\u00df)\\1", "(\u1e9e)\\1", "(i)\\1",
                    "(\u0130)\\1", "(\u03c3)\\1", "(\u00e5)\\1", "(\u00e9)\\1",
                    "(\\w+) \\1", "(.)\\1", "([a-z]+)-\\1", "(?<q>[\"'])\\k<q>"],
                   ["k\u212a", "kK", "\u212ak", "\u00df\u1e9e", "\u1e9e\u00df", "iI",
                    "\u0130i", "\u03c3\u03c2", "\u00e5\u212b", "\u00e9\u00c9",
                    "ok OK", "aA", "ab-AB", "'x'"], flags="i")
    # Python-only syntax that JavaScript refuses.
    cases += _each(["(?P<n>a)", "(?P=n)", "(?#c)", "(a)(?(1)b|c)", "(?>a)", "a*+", "a++",
                    "a{2}+", "(?i)a", "(?s)a", "^*", "\\b*"], ["a"])
    return cases


def table_inputs() -> list[Case]:
    """Every input of the checked-in table: the curated corners, then seeded generated cases."""
    return curated_cases() + seeded_cases(300)


def read_table() -> list[tuple[Case, Answer]]:
    rows = []
    for line in TABLE.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        rows.append(((row["re"], row["flags"], row["subject"]), row["js"]))
    return rows


def table_text(cases: Sequence[Case], answers: Sequence[Answer]) -> str:
    return "".join(
        json.dumps({"re": p, "flags": f, "subject": s, "js": a}, ensure_ascii=True) + "\n"
        for (p, f, s), a in zip(cases, answers)
    )
