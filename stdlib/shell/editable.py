"""setuptools' generated editable finder (round r8): data, not code.

`pip install -e .` of a flat-layout project built by setuptools 64 or later (PEP 660; the
default `editable_mode`, not `compat`, nor a src layout whose `.pth` is a plain directory)
writes two files into site-packages: `__editable__.NAME-VERSION.pth`, whose one line
`import __editable___NAME_VERSION_finder; __editable___NAME_VERSION_finder.install()` Python
runs at start-up, and that module, `__editable___NAME_VERSION_finder.py`, written from the
template `_FINDER_TEMPLATE` of setuptools' `setuptools/command/editable_wheel.py`
(`_finder_template(name, mapping, namespaces)`). Its only varying parts are three constants:

    MAPPING = {'core': '/home/u/proj/core'}              (a dict of str to str)
    NAMESPACES = {}                                      (a dict of str to lists of str)
    PATH_PLACEHOLDER = '__editable__.core-0.1.finder' + ".__path_hook__"

(`MAPPING: dict[str, str] = …` and `NAMESPACES: dict[str, list[str]] = …` from setuptools
70.) MAPPING names the package directories, so a project whose package directory is
protected had every run of its venv's Python judged as importing code that mentions it.
The rest of the file maps module names to those directories at import time: it writes nothing.

`generated_finder` recognises such a file exactly: each constant's value must be the `repr`
setuptools writes of a value of that shape (decoded here and written back with `repr`, which
must give the same text: no `ast`, nothing evaluated), and the text with the three values
replaced by `…` must have one of the SHA-256 digests below, byte for byte. Anything else (an
extra import, a changed method, a constant that is not a plain literal) is read as code, as
any other module is.
"""

from __future__ import annotations

import hashlib

from polydeukes.vm.sre import LazyPattern

# The digests of `_FINDER_TEMPLATE` of each setuptools release since the first with the finder
# (64.0.0), normalised as `_normalised` does: obtained from the tags of the setuptools
# repository (`git show vX:setuptools/command/editable_wheel.py`, the template formatted with a
# sample name, mapping and namespaces, for every tag v64.0.0 … v84.0.0: eight texts), and
# checked against the finder that `pip install --no-build-isolation -e .` wrote in a venv with
# setuptools 64.0.0, 65.1.1, 65.3.0, 68.1.0, 68.1.2, 68.2.0, 70.0.0, 80.9.0 and 84.2.1 (the
# newest on PyPI then; 68.1.1 was yanked; pip 23.2.1, CPython 3.11.7). tests/test_shell.py
# `test_a_generated_editable_finder_is_known_by_its_digest` regenerates one from such a file.
FINDER_DIGESTS = {
    "aa6b24dfd7a6bd84a8fc35601f749018ecd4851d111cbe4b7f522a5464df1c22": "64.0.0 - 65.1.0",
    "7fb343f26c6a8d9d85a645c9682ec954a04b7a248e4a9f4a32a175d294389f2a": "65.1.1 - 65.2.0",
    "5e3f8c259438b6f2d21cfd8d5e5e6945b089098edf38c8f26009fad9f637e27c": "65.3.0 - 68.0.0",
    "a62e7ac05d0bd873ea7740685aa5f76724ac3d28354748e3cb3466936ca5a9d0": "68.1.0",
    "0cb09f0e2c4d58dd18d1743aa5b9c8621687f37aba54e81515016a5b99582874": "68.1.1 - 68.1.2",
    "078aeb4efb1d6290e1bf541934cd39e2be3f54a6aee3c16f6f9ae1125e5384b1": "68.2.0 - 69.5.1",
    "4ea60ca4d420ba38c449b623ad3e053ce2d5809b135ca0dd07950c212cc93f44": "70.0.0 - 70.3.0",
    "e332226b0e45a6608195cff068441688d112b0ae4085abb1dbdb3d4a5e0466da": "71.0.0 - 84.2.1",
}

_CONSTANT = LazyPattern(r"(?m)^(MAPPING|NAMESPACES|PATH_PLACEHOLDER)((?:: [^=\n]*)? = )(.*)$")
_STRING = r"""'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*\""""
_PAIR = LazyPattern(r"(%s): (%s)" % (_STRING, _STRING))
_LISTED = LazyPattern(r"(%s): \[((?:(?:%s)(?:, )?)*)\]" % (_STRING, _STRING))
_ITEM = LazyPattern(_STRING)
_ESCAPE = LazyPattern(r"\\(x[0-9a-f]{2}|u[0-9a-f]{4}|U[0-9a-f]{8}|.)")
_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", "\\": "\\", "'": "'", '"': '"'}
_HOOK = ' + ".__path_hook__"'


def _normalised(text: str) -> tuple[str, dict[str, str]] | None:
    """The text with each constant's value replaced by `…`, and the values; None when a
    constant is missing or assigned twice at the start of a line."""
    values: dict[str, str] = {}
    parts: list[str] = []
    last = 0
    for m in _CONSTANT().finditer(text):
        if m.group(1) in values:
            return None
        values[m.group(1)] = m.group(3)
        parts.append(text[last:m.start(3)] + "\u2026")
        last = m.end(3)
    if len(values) != 3:
        return None
    parts.append(text[last:])
    return "".join(parts), values


def digest(text: str) -> str | None:
    """The SHA-256 of a finder's normalised text (None: not of the finder's form)."""
    normal = _normalised(text)
    if normal is None:
        return None
    return hashlib.sha256(normal[0].encode("utf-8", "surrogatepass")).hexdigest()


def _string(literal: str) -> str | None:
    """The string a `repr` of a str spells, or None when `repr` would not spell it so."""
    def escape(m) -> str:
        code = m.group(1)
        return chr(int(code[1:], 16)) if len(code) > 1 else _ESCAPES.get(code, "\0\0")
    value = _ESCAPE().sub(escape, literal[1:-1])
    return value if repr(value) == literal else None


def _mapping(text: str) -> dict[str, str] | None:
    pairs = {}
    for m in _PAIR().finditer(text):
        key, value = _string(m.group(1)), _string(m.group(2))
        if key is None or value is None:
            return None
        pairs[key] = value
    return pairs if repr(pairs) == text else None


def _namespaces(text: str) -> dict[str, list[str]] | None:
    listed: dict[str, list[str]] = {}
    for m in _LISTED().finditer(text):
        key = _string(m.group(1))
        items = [_string(s) for s in _ITEM().findall(m.group(2))]
        if key is None or None in items:
            return None
        listed[key] = items  # type: ignore[assignment]
    return listed if repr(listed) == text else None


def generated_finder(stem: str, text: str) -> list[str] | None:
    """The package directories (MAPPING's values) when `text` is setuptools' generated editable
    finder module `stem` (`__editable___core_0_1_finder`) byte for byte, its constants plain
    literals of their shape; else None (the file is code)."""
    normal = _normalised(text)
    if normal is None:
        return None
    if hashlib.sha256(normal[0].encode("utf-8", "surrogatepass")).hexdigest() not in FINDER_DIGESTS:
        return None
    values = normal[1]
    mapping = _mapping(values["MAPPING"])
    placeholder = values["PATH_PLACEHOLDER"]
    name = _string(placeholder[: -len(_HOOK)]) if placeholder.endswith(_HOOK) else None
    if mapping is None or _namespaces(values["NAMESPACES"]) is None or name is None:
        return None
    # (the module is named after the same name: `safe_identifier("__editable__.core-0.1.finder")`)
    if "".join(c if c.isalnum() or c == "_" else "_" for c in name) != stem:
        return None
    return list(mapping.values())
