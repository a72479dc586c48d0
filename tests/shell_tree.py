"""Working-tree fixtures for shell cases that depend on files on disk (`tree:` in a case).

A tree maps a path (relative to the project root) to what is there:

    notes/a.txt: "text"                      a regular file with that content
    notes/link: {symlink: ../ci}             a symbolic link (the target as written)
    h: {hardlink: ci/gate.sh}                another name (a hard link) of a file made earlier
                                             in the tree (relative to the root)
    dist/app.tar: {tar: {ci/gate.sh: "x"}}   a tar archive holding those members; a member
                                             value {symlink: target} is a link member
    dist/app.tgz: {tar.gz: {...}}            the same, gzip-compressed
    dist/app.zip: {zip: {...}}               a zip archive (its members stored)
    app.pyz: {zip-deflated: {...}}           a zip archive of deflated members
    lib/x.a: {ar: {a.o: "x"}}                a GNU ar archive (names over 15 bytes in `//`)
    lib/y.a: {ar-bsd: {a.o: "x"}}            a BSD ar archive (`#1/LEN` names)
    dist/a.7z: {bytes: "7z\xbc\xaf"}           a file of those bytes (latin-1)
    big.sh: {size: 70000}                    a text file of that many bytes (comment lines)
    build/: {dir: true}                      an empty directory
    queue: {fifo: true}                      a FIFO (the analyzer must not block on it)

Paths and link targets may spell the table's root `/home/u/proj` or home `/home/u`; they are
rebased like the rest of the case.
"""

from __future__ import annotations

import io
import os
import tarfile
import zipfile
from pathlib import Path

ROOT = "/home/u/proj"
HOME = "/home/u"


def rebase(value, root: str, home: str):
    """The table's root and home spelled as the scratch directory's."""
    if isinstance(value, str):
        return value.replace(ROOT, root).replace(HOME, home)
    if isinstance(value, list):
        return [rebase(v, root, home) for v in value]
    if isinstance(value, dict):
        return {k: rebase(v, root, home) for k, v in value.items()}
    return value


def make_tree(root: Path | str, tree: dict) -> None:
    root = Path(root)
    home = str(root.parent)
    for rel, spec in tree.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(spec, str):
            path.write_text(spec, encoding="utf-8")
        elif "dir" in spec:
            path.mkdir(parents=True, exist_ok=True)
        elif "symlink" in spec:
            os.symlink(rebase(spec["symlink"], str(root), home), path)
        elif "hardlink" in spec:
            os.link(root / spec["hardlink"], path)
        elif "fifo" in spec:
            os.mkfifo(path)
        elif "tar" in spec or "tar.gz" in spec or "tar.bz2" in spec:
            members = spec.get("tar") or spec.get("tar.gz") or spec.get("tar.bz2")
            mode = "w:gz" if "tar.gz" in spec else "w:bz2" if "tar.bz2" in spec else "w"
            with tarfile.open(path, mode) as archive:
                for name, content in members.items():
                    info = tarfile.TarInfo(name)
                    if isinstance(content, dict):
                        info.type = tarfile.SYMTYPE
                        info.linkname = content["symlink"]
                        archive.addfile(info)
                    else:
                        data = content.encode("utf-8")
                        info.size = len(data)
                        archive.addfile(info, io.BytesIO(data))
        elif "zip" in spec or "zip-deflated" in spec:
            method = zipfile.ZIP_DEFLATED if "zip-deflated" in spec else zipfile.ZIP_STORED
            with zipfile.ZipFile(path, "w", method) as archive:
                for name, content in (spec.get("zip") or spec["zip-deflated"]).items():
                    if isinstance(content, dict):
                        info = zipfile.ZipInfo(name)
                        info.external_attr = (0o120777 << 16)
                        archive.writestr(info, content["symlink"])
                    else:
                        archive.writestr(name, content)
        elif "ar" in spec or "ar-bsd" in spec:
            path.write_bytes(_ar_bytes(spec.get("ar") or spec["ar-bsd"], bsd="ar-bsd" in spec))
        elif "size" in spec:
            line = "#" * 63 + "\n"
            path.write_text((line * (spec["size"] // len(line) + 1))[: spec["size"]], encoding="utf-8")
        elif "bytes" in spec:
            path.write_bytes(rebase(spec["bytes"], str(root), home).encode("latin-1"))
        else:
            raise ValueError(f"unknown tree entry {rel}: {spec}")


def _ar_header(name: bytes, size: int) -> bytes:
    return name.ljust(16) + b"0".ljust(12) + b"0".ljust(6) + b"0".ljust(6) + b"100644".ljust(8) \
        + str(size).encode().ljust(10) + b"`\n"


def _ar_bytes(members: dict, *, bsd: bool) -> bytes:
    """An ar archive as GNU ar (with a symbol table and a long-name table) or BSD ar writes it."""
    out = [b"!<arch>\n"]

    def add(name: bytes, data: bytes) -> None:
        out.append(_ar_header(name, len(data)) + data + (b"\n" if len(data) % 2 else b""))

    if bsd:
        for name, content in members.items():
            raw = name.encode()
            add(b"#1/" + str(len(raw)).encode(), raw + content.encode())
        return b"".join(out)
    add(b"/", b"\0\0\0\0")  # an empty symbol table
    long_names = b""
    names = {}
    for name in members:
        raw = name.encode()
        if len(raw) > 15:
            names[name] = b"/" + str(len(long_names)).encode()
            long_names += raw + b"/\n"
        else:
            names[name] = raw + b"/"
    if long_names:
        add(b"//", long_names)
    for name, content in members.items():
        add(names[name], content.encode())
    return b"".join(out)
