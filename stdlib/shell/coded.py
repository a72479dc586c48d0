"""Text a program makes at run time out of codes or encodings, and escapes in its strings.

A program's code is read for the protected paths it spells (judgment.code_candidates joins its
string fragments as the program would). A name made at run time from character codes
(`chr(99)`, `String.fromCharCode(99)`, `pack("c*", 99)`, `"%c" % 99`), an encoding (base64,
hex, rot13, a decompressed stream, URL escapes), a string turned around (`'ic'[::-1]`) or a name
read from a directory (`os.walk('.')`, `readdirSync`) is spelled nowhere: such code, when it also calls something that writes, deletes, renames or runs
(`unlink`, `os.remove`, `rmSync`, `system`, `open(…, 'w')`, `eval`), fails closed. Code that
only computes (`print(chr(65))`) is read as before. Both sides are data (`MAKERS`, `CALLS`).

The escapes a string literal may hold (`"\\x63i"`, `"\\143i"`, `"\\u0063i"`, Perl's
`"\\x{63}"`, Lua's decimal `"\\99"`) are decoded before the mention test instead
(`decoded_variants`): they spell a name the program names as plainly as its letters would.
"""

from __future__ import annotations

import re

from polydeukes.vm.sre import LazyPattern

# What makes text of codes or encodings, as (what the message calls it, substrings one of
# which any match holds, pattern). (The substrings are tested first: a search with one of these
# patterns costs tens of microseconds on a line of code, a substring test a few hundred
# nanoseconds.)
MAKERS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("character codes (chr)", ("chr", ".char"), r"\bchr\b|\b(?:string|utf8)\.char\b"),
    ("character codes (fromCharCode)", ("fromC",), r"\bfrom(?:CharCode|CodePoint)\b"),
    ("packed bytes (pack)", ("pack",), r"\b(?:un)?pack1?\b"),
    ("a %c format", ("%c", ":c}"), r"%c|\{[^{}'\"]*:c\}"),
    ("a list of byte values", ("byte", "Buffer", "Uint8Array"),
     r"\b(?:bytes|bytearray)\s*\(\s*[\[(]|\bBuffer\.from\s*\(\s*\[|\bUint8Array\b|\.to_bytes\b"),
    ("hexadecimal", ("hex", "a2b_", "b16"),
     r"\bfromhex\b|\bunhexlify\b|\ba2b_\w+|\bhex2bin\b|\bb16decode\b|['\"]hex['\"]"),
    ("base64", ("decode", "atob", "base64"),
     r"\b(?:urlsafe_|standard_)?b(?:64|32|85)decode\b|\ba85decode\b|\bdecodebytes\b"
     r"|\bdecode_?base64\b|\bdecode64\b|\bbase64_decode\b|\batob\b|['\"]base64(?:url)?['\"]"),
    ("rot13", ("rot",), r"rot[_-]?13"),
    ("a character translation", ("tr/", "tr{", "tr(", "tr (", "tr /", "y/", "y /", "maketrans", "strtr"),
     r"\bmaketrans\b|\btr ?[/{(]|\by ?/|\.tr ?\(|\bstrtr\b"),
    ("a reversed string", ("::", ": :", "rev"), r"\[\s*:\s*:\s*-|\breversed\b|\breverse\b(?!\s*=)|\bstrrev\b"),
    ("URL escapes", ("unquote", "decodeURI", "unescape", "urldecode"),
     r"\bunquote\w*|\bdecodeURI\w*|\bunescape\b|\b(?:raw)?urldecode\b"),
    ("a decompressed stream", ("ompress", "inflate", "gunzip"),
     r"\bdecompress\w*|\binflate\w*|\bgunzip\w*|\buncompress\w*"),
    ("named escapes", ("\\N{",), r"\\N\{"),
    ("a codec", ("codecs.",), r"\bcodecs\.(?:de|en)code\b"),
    # (round 10, last: `made_text(listings=True)` only) Names a program reads from a directory (`[os.remove(os.path.join(r, f)) for
    # r, _, fs in os.walk('.') for f in fs if f.endswith('.sh')]` emptied the project's scripts):
    # spelled nowhere either. A glob of a literal pattern is not among them: its pattern is
    # matched as the mention test reads it (`glob.glob('c?/*.sh')`).
    ("a directory listing", ("walk", "listdir", "scandir", "iterdir", "glob", "readdir", "opendir", "Dir.", "Find",
                             "lfs.dir", "DirectoryIterator"),
     r"\bos\.(?:f?walk|listdir|scandir)\b|(?<!glob)\.(?:iterdir|r?glob|walk)\s*\("
     r"|\b(?:i?glob|globSync)\s*\(\s*(?!['\"]|r['\"])|\b(?:readdir|opendir)(?:Sync)?\b|\bscandir\b"
     r"|\bDir\.(?:children|entries|each_child|foreach)\b|\bDir\.glob\s*\(\s*(?!['\"])|\bFind\.find\b"
     r"|\bFile::Find\b|\blfs\.dir\b|DirectoryIterator\b"),
)
# What writes, deletes, moves, changes the mode of, or runs a name (or code) it is given, as
# (what the message calls it, "" for the call as spelled; substrings; pattern): calls, and the
# mode of an `open` that writes (`'w'`, `'a+'`, Perl's `'>'`, `">x"` and `'|-'`, Node's
# `flag: 'w'`).
CALLS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("", ("remove", "unlink", "rmtree", "rmdir", "rmSync", "rename", "os.replace", "move", "copy", "chmod",
          "chown", "truncate", "write_", "writeFile", "appendFile", "createWriteStream", "syswrite", "sysopen",
          "link", "utime", "system", "exec", "spawn", "popen", "fork", "eval", "Function", "subprocess",
          "child_process", "shell_exec", "passthru", "proc_open", "getattr", "__import__", "importlib", "qx",
          "File", "Dir.delete", "O_"),
     r"\b(?:remove\w*|unlink\w*|rmtree|rmdir\w*|rmSync|rename\w*|os\.replace|move\w*|copy\w*"
     r"|chmod\w*|chown\w*|lchown|truncate\w*|write_text|write_bytes|writeFile\w*|appendFile\w*"
     r"|createWriteStream|syswrite|sysopen|symlink\w*|link\w*|utimes?\w*|system|exec\w*|spawn\w*"
     r"|popen\w*|fork|eval|Function|subprocess|child_process|shell_exec|passthru|proc_open|getattr"
     r"|__import__|importlib|qx|File\.(?:delete|write|open|rename)|FileUtils|Dir\.delete"
     r"|O_(?:WRONLY|RDWR|TRUNC|CREAT|APPEND))\b"),
    ("require", ("require",), r"\brequire\s*\(\s*[^'\"`\s)]"),
    ("backquotes", ("`",), r"`"),
    ("open for writing", (",", "flag"),
     r",\s*(?:mode\s*=\s*)?['\"](?:[wax][bt]?\+?[bt]?|r[bt]?\+[bt]?|\+?>>?&?|\+<|\|-?|-\|)['\"]"
     r"|,\s*['\"]\s*(?:\+?>|\|)|\bflags?\s*:\s*['\"][wa]"),
)
_MAKERS = tuple((label, needles, LazyPattern(pattern)) for label, needles, pattern in MAKERS)
_CALLS = tuple((label, needles, LazyPattern(pattern)) for label, needles, pattern in CALLS)
# A string literal indexed or sliced (`'xci'[1:]`), found from the literal itself.
_SLICED_LITERAL = LazyPattern(r"""(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")[ \t]*\[""")
SLICED = "a sliced string literal"
# A long program is searched around each place a substring appears, not whole: the patterns
# start with `\b`, which CPython's engine tries at every position (a search of a 170 KB file
# with one of them took up to a quarter of a second). The window reaches this far before and
# after the substring; past this many places of one substring, the whole text is searched.
_WHOLE, _BEFORE, _AFTER, _PLACES = 2048, 200, 64, 256


def _search(code: str, needles: tuple[str, ...], pattern: LazyPattern) -> re.Match | None:
    """`pattern`'s first match in `code` that holds one of `needles` (None: none)."""
    short = len(code) <= _WHOLE
    for needle in needles:
        at = code.find(needle)
        places = 0
        while at >= 0:
            if short:
                return pattern().search(code)  # (the first needle found: one search of it all)
            found = pattern().search(code, max(0, at - _BEFORE), at + len(needle) + _AFTER)
            if found is not None:
                return found
            places += 1
            if places > _PLACES:
                return pattern().search(code)
            at = code.find(needle, at + 1)
    return None


def made_text(code: str, listings: bool = False) -> tuple[str, str] | None:
    """(what makes text, the call that can write or run) when `code` both makes text of codes
    or encodings and calls something that writes, deletes or runs; else None. A directory
    listing counts only with `listings` (code on the line: a project's modules and test files
    list directories and write files as a matter of course)."""
    how = next((label for label, needles, pattern in (_MAKERS if listings else _MAKERS[:-1])
                if _search(code, needles, pattern) is not None), None)
    if how is None:
        if "'[" not in code and '"[' not in code and "' [" not in code and '" [' not in code \
                or _SLICED_LITERAL().search(code) is None:
            return None
        how = SLICED
    for label, needles, pattern in _CALLS:
        call = _search(code, needles, pattern)
        if call is not None:
            return how, label or call.group()
    return None


# A call that changes the case of a string (Python, JavaScript, Perl, Ruby, PHP, Lua): the
# mention test then reads string literals in either case (`'CI/GATE.SH'.lower()`).
_CASE_NEEDLES = ("lower", "upper", "casefold", "swapcase", "capitalize", "title", "lc", "uc", "LowerCase",
                 "UpperCase", "downcase", "upcase")
_CASE_CHANGE = LazyPattern(r"\b(?:lower|upper|casefold|swapcase|capitalize|title|lc|uc|lcfirst|ucfirst"
                           r"|toLowerCase|toUpperCase|toLocaleLowerCase|toLocaleUpperCase|downcase|upcase"
                           r"|strtolower|strtoupper)\b")


def changes_case(code: str) -> bool:
    return _search(code, _CASE_NEEDLES, _CASE_CHANGE) is not None


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


def calls_writer(code: str) -> bool:
    """Does `code` call something that writes, deletes, renames or runs (`CALLS`)?"""
    return any(_search(code, needles, pattern) is not None for _, needles, pattern in _CALLS)
