"""Text a program makes at run time out of codes or encodings, and escapes in its strings.

A program's code is read for the protected paths it spells (judgment.code_candidates joins its
string fragments as the program would). A name made at run time from character codes
(`chr(99)`, `String.fromCharCode(99)`, `pack("c*", 99)`, `"%c" % 99`), an encoding (base64,
hex, rot13, a decompressed stream, URL escapes) or a string turned around (`'ic'[::-1]`) is
spelled nowhere: such code, when it also calls something that writes, deletes, renames or runs
(`unlink`, `os.remove`, `rmSync`, `system`, `open(…, 'w')`, `eval`), fails closed. Code that
only computes (`print(chr(65))`) is read as before. Both sides are data (`MAKERS`, `CALLS`).

The escapes a string literal may hold (`"\\x63i"`, `"\\143i"`, `"\\u0063i"`, Perl's
`"\\x{63}"`, Lua's decimal `"\\99"`) are decoded before the mention test instead
(`decoded_variants`): they spell a name the program names as plainly as its letters would.
"""

from __future__ import annotations

import re

from polydeukes.vm.sre import LazyPattern

# What makes text of codes or encodings, as (what the message calls it, pattern).
MAKERS: tuple[tuple[str, str], ...] = (
    ("character codes (chr)", r"\bchr\b|\b(?:string|utf8)\.char\b"),
    ("character codes (fromCharCode)", r"\bfrom(?:CharCode|CodePoint)\b"),
    ("packed bytes (pack)", r"\b(?:un)?pack1?\b"),
    ("a %c format", r"%c|\{[^{}'\"]*:c\}"),
    ("a list of byte values", r"\b(?:bytes|bytearray)\s*\(\s*[\[(]|\bBuffer\.from\s*\(\s*\[|\bUint8Array\b"
                              r"|\.to_bytes\b"),
    ("hexadecimal", r"\bfromhex\b|\bunhexlify\b|\ba2b_\w+|\bhex2bin\b|\bb16decode\b|['\"]hex['\"]"),
    ("base64", r"\b(?:urlsafe_|standard_)?b(?:64|32|85)decode\b|\ba85decode\b|\bdecodebytes\b"
               r"|\bdecode_?base64\b|\bdecode64\b|\bbase64_decode\b|\batob\b|['\"]base64(?:url)?['\"]"),
    ("rot13", r"rot[_-]?13"),
    ("a character translation", r"\bmaketrans\b|\btr\s*[/{(]|\by\s*/|\.tr\s*\(|\bstrtr\b"),
    ("a reversed string", r"\[\s*:\s*:\s*-|\breversed\b|\breverse\b(?!\s*=)|\bstrrev\b"),
    ("URL escapes", r"\bunquote\w*|\bdecodeURI\w*|\bunescape\b|\b(?:raw)?urldecode\b"),
    ("a decompressed stream", r"\bdecompress\w*|\binflate\w*|\bgunzip\w*|\buncompress\w*"),
    ("named escapes", r"\\N\{"),
    ("a codec", r"\bcodecs\.(?:de|en)code\b"),
)
# What writes, deletes, moves, changes the mode of, or runs a name (or code) it is given, as
# (what the message calls it, pattern; "" for the call as spelled): calls, and the mode of an
# `open` that writes (`'w'`, `'a+'`, Perl's `'>'`, `">x"` and `'|-'`, Node's `flag: 'w'`).
CALLS: tuple[tuple[str, str], ...] = (
    ("", r"\b(?:remove\w*|unlink\w*|rmtree|rmdir\w*|rm|rmSync|rename\w*|os\.replace|move\w*|copy\w*"
         r"|chmod\w*|chown\w*|lchown|truncate\w*|write_text|write_bytes|writeFile\w*|appendFile\w*"
         r"|createWriteStream|syswrite|sysopen|symlink\w*|link\w*|utimes?\w*|system|exec\w*|spawn\w*"
         r"|popen\w*|fork|eval|Function|subprocess|child_process|shell_exec|passthru|proc_open|getattr"
         r"|__import__|importlib|qx|File\.(?:delete|write|open|rename)|FileUtils|Dir\.delete"
         r"|O_(?:WRONLY|RDWR|TRUNC|CREAT|APPEND))\b"),
    ("require", r"\brequire\s*\(\s*[^'\"`\s)]"),
    ("backquotes", r"`"),
    ("open for writing", r",\s*(?:mode\s*=\s*)?['\"](?:[wax][bt]?\+?[bt]?|r[bt]?\+[bt]?|\+?>>?&?|\+<|\|-?|-\|)['\"]"
                         r"|,\s*['\"]\s*(?:\+?>|\|)|\bflags?\s*:\s*['\"][wa]"),
)
_MAKER = LazyPattern("|".join(f"(?P<m{k}>{pattern})" for k, (_label, pattern) in enumerate(MAKERS)))
_CALL = LazyPattern("|".join(f"(?P<c{k}>{pattern})" for k, (_label, pattern) in enumerate(CALLS)))
# A string literal indexed or sliced (`'xci'[1:]`), found from the literal itself.
_SLICED_LITERAL = LazyPattern(r"""(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")[ \t]*\[""")
SLICED = "a sliced string literal"


def made_text(code: str) -> tuple[str, str] | None:
    """(what makes text, the call that can write or run) when `code` both makes text of codes
    or encodings and calls something that writes, deletes or runs; else None."""
    m = _MAKER().search(code)
    if m is not None:
        how = MAKERS[int(m.lastgroup[1:])][0]
    elif ("'" in code or '"' in code) and "[" in code and _SLICED_LITERAL().search(code):
        how = SLICED
    else:
        return None
    call = _CALL().search(code)
    if call is None:
        return None
    return how, CALLS[int(call.lastgroup[1:])][0] or call.group()


# -- escapes -------------------------------------------------------------------------------------

_ESCAPE = LazyPattern(r"\\(?:x\{([0-9A-Fa-f]{1,6})\}|x([0-9A-Fa-f]{1,2})|u\{([0-9A-Fa-f]{1,6})\}"
                      r"|u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|N\{U\+([0-9A-Fa-f]{1,6})\}|([0-7]{1,3})|(.))",
                      re.DOTALL)
_DECIMAL_ESCAPE = LazyPattern(r"\\([0-9]{1,3})")
_SIMPLE = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "a": "\a", "b": "\b", "f": "\f", "v": "\v", "e": "\x1b"}


def _character(value: int) -> str:
    return chr(value) if value <= 0x10FFFF else "\ufffd"


def _escape(m: re.Match) -> str:
    x_braced, x, u_braced, u, big_u, named, octal, other = m.groups()
    for hexadecimal in (x_braced, x, u_braced, u, big_u, named):
        if hexadecimal is not None:
            return _character(int(hexadecimal, 16))
    if octal is not None:
        return _character(int(octal, 8))
    return _SIMPLE.get(other, other)


def decoded_variants(value: str) -> list[str]:
    """A string literal's value with its escapes decoded (C, Python, JavaScript, Perl, Ruby
    spellings; octal `\\143`, and Lua's decimal `\\99` as a second reading): [] when it has
    none, or when decoding changes nothing but the backslashes a path never holds."""
    if "\\" not in value:
        return []
    out = []
    decoded = _ESCAPE().sub(_escape, value)
    if decoded != value:
        out.append(decoded)
    decimal = _DECIMAL_ESCAPE().sub(lambda m: _character(int(m.group(1))), value)
    if decimal != value and "\\" in decimal:
        decimal = _ESCAPE().sub(_escape, decimal)
    if decimal != value and decimal not in out:
        out.append(decimal)
    return out
