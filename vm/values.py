"""The JavaScript value model the declarations were written against (spec 03 §12).

A value is a JS value spelled in Python: `str`, `int`/`float` (JS numbers; a `bool` is a boolean
and never a number), `bool`, `None` (null), `UNDEFINED`, `list`, `dict` (a plain object). These
helpers reproduce what the original's runtime does with such values: `String(v)`, number
formatting, structural equality and its hashable canonical form, UTF-16 string order, own-property
order, `JSON.parse`, `String.prototype.trim`, and what `JSON.stringify` writes.
"""

from __future__ import annotations

import math

from polydeukes.vm.jsregex import to_code_units


class _Undefined:
    """JavaScript `undefined`: distinct from `null` (None). Produced by steps, never by input."""

    __slots__ = ()
    _instance = None

    def __new__(cls) -> "_Undefined":
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNDEFINED"

    def __bool__(self) -> bool:
        return False

    def __reduce__(self) -> str:
        return "UNDEFINED"


UNDEFINED = _Undefined()

MAX_SAFE_INTEGER = 2**53 - 1
_MAX_INDEX = 2**32 - 2  # the largest array index; bigger digit strings are ordinary keys
# JS `trim` set (spec 03 §12.6); Python's `strip()` differs (U+001C–U+001F, U+0085, U+FEFF).
_JS_WHITESPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)


# -- String(v) -------------------------------------------------------------------------------


def js_number_string(x: float | int) -> str:
    """ECMAScript Number::toString(x) in radix 10 (spec 03 §12.2)."""
    if type(x) is int:
        if -MAX_SAFE_INTEGER <= x <= MAX_SAFE_INTEGER:
            return str(x)
        # A JS number is a double: a big integer prints as the double it rounds to.
        try:
            x = float(x)
        except OverflowError:
            return "Infinity" if x > 0 else "-Infinity"
    if x != x:
        return "NaN"
    if x == math.inf:
        return "Infinity"
    if x == -math.inf:
        return "-Infinity"
    if x == 0:
        return "0"  # -0 included
    if x.is_integer() and -MAX_SAFE_INTEGER <= x <= MAX_SAFE_INTEGER:
        return str(int(x))  # exact; larger doubles print their shortest digits, zero-padded
    sign = "-" if x < 0 else ""
    # repr gives the shortest round-trip digits (as JS does); only the layout differs.
    mantissa, _, exponent = repr(abs(x)).partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = (whole + fraction).lstrip("0")
    # n: the decimal point position with value = 0.d1…dk × 10^n.
    n = len(whole) + (int(exponent) if exponent else 0) - (len(whole + fraction) - len(digits))
    digits = digits.rstrip("0")
    k = len(digits)
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return sign + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * -n + digits
    e = n - 1
    exp = ("e+" if e >= 0 else "e-") + str(abs(e))
    if k == 1:
        return sign + digits + exp
    return sign + digits[0] + "." + digits[1:] + exp


def js_string(v: object) -> str:
    """JS `String(v)` over the value model (spec 03 §12.2)."""
    t = type(v)
    if t is str:
        return v  # type: ignore[return-value]
    if t is bool:
        return "true" if v else "false"
    if t is int or t is float:
        return js_number_string(v)  # type: ignore[arg-type]
    if v is None:
        return "null"
    if v is UNDEFINED:
        return "undefined"
    if isinstance(v, list):
        # Array.prototype.join: null and undefined elements become empty strings.
        return ",".join("" if e is None or e is UNDEFINED else js_string(e) for e in v)
    if isinstance(v, dict):
        return "[object Object]"
    raise TypeError(f"not a JS value: {v!r}")


# -- equality ----------------------------------------------------------------------------------


def js_number(v: int | float) -> int | float:
    """A number as JS holds it: integers beyond 2^53 round to the nearest double, so that
    comparisons and arithmetic see what JavaScript sees (2**53 + 1 equals 2**53)."""
    if type(v) is int and not -MAX_SAFE_INTEGER <= v <= MAX_SAFE_INTEGER:
        try:
            return float(v)
        except OverflowError:
            return math.inf if v > 0 else -math.inf
    return v


def js_equal(a: object, b: object) -> bool:
    """Structural equality (spec 03 §12.1): used by equal, subset, unchanged, eq, ne, notIn."""
    ta, tb = type(a), type(b)
    if ta is str or tb is str:
        return ta is tb and a == b
    if ta is bool or tb is bool:
        return ta is tb and a == b  # never a number: True == 1 must not hold
    if ta in (int, float):
        # Numbers are compared with `===`: 0 equals -0, NaN equals nothing.
        return tb in (int, float) and js_number(a) == js_number(b)  # type: ignore[arg-type]
    if a is None or a is UNDEFINED or b is None or b is UNDEFINED:
        return a is b
    if isinstance(a, list):
        if not isinstance(b, list) or len(a) != len(b):
            return False
        return all(js_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        if not isinstance(b, dict):
            return False
        # A key holding UNDEFINED is the same as a missing key; key order is ignored.
        ka = [k for k, v in a.items() if v is not UNDEFINED]
        if len(ka) != sum(1 for v in b.values() if v is not UNDEFINED):
            return False
        return all(js_equal(a[k], b.get(k, UNDEFINED)) for k in ka)
    return False


_NULL = ("null",)
_UNDEF = ("undefined",)


def canonical(v: object) -> object:
    """A hashable, type-tagged form: canonical(a) == canonical(b) exactly when js_equal(a, b).

    Strings stand for themselves (every other form is a tuple, so no collision is possible);
    the tags keep Python's `1 == True` and `hash(1) == hash(True)` from merging values. NaN
    gets a fresh object each time because it equals nothing, not even itself.
    """
    t = type(v)
    if t is str:
        return v
    if t is bool:
        return ("bool", v)
    if t is int or t is float:
        n = js_number(v)  # type: ignore[arg-type]
        return ("number", object() if n != n else n)  # 1 and 1.0, 0 and -0.0 hash alike
    if v is None:
        return _NULL
    if v is UNDEFINED:
        return _UNDEF
    if isinstance(v, list):
        return ("array", tuple(canonical(e) for e in v))
    if isinstance(v, dict):
        return ("object", frozenset((k, canonical(x)) for k, x in v.items() if x is not UNDEFINED))
    raise TypeError(f"not a JS value: {v!r}")


# -- ordering ----------------------------------------------------------------------------------


def js_string_key(s: str) -> str:
    """A sort key ordering strings as JS does, by UTF-16 code units (spec 03 §12.3).

    Code-point order agrees with code-unit order except where a character above U+FFFF meets
    one in U+D800–U+FFFF; splitting astral characters into surrogates removes that case.
    """
    if s.isascii() or max(s) <= "\uffff":
        return s
    return to_code_units(s)


def js_compare_strings(a: str, b: str) -> int:
    """-1, 0 or 1 as `a < b` / `a === b` / `a > b` in JS (no locale collation)."""
    if a == b:
        return 0
    return -1 if js_string_key(a) < js_string_key(b) else 1


def _is_index(k: str) -> bool:
    # A canonical decimal integer 0 … 2^32−2: no sign, no leading zero, ASCII digits only.
    return (
        k.isdigit() and k.isascii() and (k == "0" or k[0] != "0") and int(k) <= _MAX_INDEX
    )


def js_keys(obj: dict) -> list[str]:
    """Own property order of a JS object: array-index keys ascending, then insertion order."""
    keys = list(obj)
    index = [k for k in keys if k[:1].isdigit() and _is_index(k)]
    if not index:
        return keys
    index.sort(key=int)
    chosen = set(index)
    return index + [k for k in keys if k not in chosen]


def js_trim(s: str) -> str:
    """JS `String.prototype.trim` (spec 03 §12.6)."""
    return s.strip(_JS_WHITESPACE)


# -- JSON --------------------------------------------------------------------------------------


def _refuse_constant(name: str) -> float:
    raise ValueError(f"JSON.parse refuses {name}")


def _parse_int(text: str) -> int | float:
    # JS numbers are doubles: an integer literal past 2^53 must round exactly as JS rounds it.
    if len(text) <= 16:
        v = int(text)
        if -MAX_SAFE_INTEGER <= v <= MAX_SAFE_INTEGER:
            return v
    return float(text)


def _js_object(pairs: list[tuple[str, object]]) -> dict:
    # Later duplicates win at the first one's position, exactly as JS property assignment does.
    obj = dict(pairs)
    if any(k[:1].isdigit() for k in obj):
        return {k: obj[k] for k in js_keys(obj)}
    return obj


_decoder = None  # built on first use: most checks never parse JSON, so never import json


def _json_decoder():
    global _decoder
    if _decoder is None:
        import json

        _decoder = json.JSONDecoder(
            object_pairs_hook=_js_object, parse_int=_parse_int, parse_constant=_refuse_constant
        )
    return _decoder


def js_json_parse(text: str) -> object:
    """JS `JSON.parse(text)` (spec 03 §12.5); raises ValueError where JS throws.

    Python's decoder already refuses a leading BOM, control characters in strings and trailing
    data, and skips exactly JSON's four whitespace characters; NaN/Infinity are refused here.
    """
    try:
        return _json_decoder().decode(text)
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None


def js_json_value(v: object) -> object:
    """`v` as plain data that `json.dumps` writes the way `JSON.stringify` does, nearly.

    Integral floats become ints (JS prints `1`, not `1.0`), NaN and ±Infinity become None,
    UNDEFINED-valued object keys are dropped and UNDEFINED array elements become None, objects
    are rebuilt in JS property order. A top-level UNDEFINED is returned as is (JS writes no
    value at all; the caller drops the key). Remaining difference: `json.dumps` writes a
    fraction below 1e-4 in Python's layout (`1e-05`, `1e-07`) where JS writes `0.00001`,
    `1e-7`; `js_json_stringify` gives the exact text.
    """
    t = type(v)
    if t is str or t is bool or v is None or v is UNDEFINED:
        return v
    if t is int:
        n = js_number(v)  # type: ignore[arg-type]
        if type(n) is int:
            return n
        v = n  # a big integer is the double JS rounds it to; written like any float
    if type(v) is float:
        if v != v or v in (math.inf, -math.inf):
            return None
        if v.is_integer() and -1e21 < v < 1e21:  # type: ignore[union-attr, operator]
            # JS writes these positionally with its shortest digits, zero-padded past 2^53; an
            # int spelled with those digits makes json.dumps write the very same text.
            return int(js_number_string(v))  # type: ignore[arg-type]
        return v
    if isinstance(v, list):
        return [None if e is UNDEFINED else js_json_value(e) for e in v]
    if isinstance(v, dict):
        return {k: js_json_value(v[k]) for k in js_keys(v) if v[k] is not UNDEFINED}
    raise TypeError(f"not a JS value: {v!r}")


def _json_string(s: str) -> str:
    import json  # lazily: only a break's witnesses are ever serialized

    text = json.dumps(s, ensure_ascii=False)
    if any("\ud800" <= c <= "\udfff" for c in s):
        # Well-formed JSON.stringify escapes lone surrogates; Python would pass them through.
        text = "".join(f"\\u{ord(c):04x}" if "\ud800" <= c <= "\udfff" else c for c in text)
    return text


def js_json_stringify(v: object) -> str | None:
    """JS `JSON.stringify(v)` without indentation: the exact text, or None for UNDEFINED."""
    t = type(v)
    if t is str:
        return _json_string(v)  # type: ignore[arg-type]
    if t is bool:
        return "true" if v else "false"
    if t is int or t is float:
        n = js_number(v)  # type: ignore[arg-type]
        return "null" if n != n or n in (math.inf, -math.inf) else js_number_string(n)
    if v is None:
        return "null"
    if v is UNDEFINED:
        return None
    if isinstance(v, list):
        return "[" + ",".join(js_json_stringify(e) or "null" for e in v) + "]"
    if isinstance(v, dict):
        parts = []
        for k in js_keys(v):
            text = js_json_stringify(v[k])
            if text is not None:
                parts.append(_json_string(k) + ":" + text)
        return "{" + ",".join(parts) + "}"
    raise TypeError(f"not a JS value: {v!r}")
