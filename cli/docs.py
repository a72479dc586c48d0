"""`pdks docs`: read the documentation bundled with the package, offline (spec 05 §7).

The bundle is the repository's docs/ folder, shipped as the package data of `polydeukes.docs`
(every `*.md`, found by walking the folder: nothing to keep in step by hand). A document's id
is its path inside docs/ without `.md` (`verdicts`, `hosts/codex` for a nested page); a
section's id is the GitHub-style anchor of its heading, so links in the Markdown and ids here
agree.

    pdks docs                                    catalogue: topics and documents
    pdks docs <topic> [--lang en]                one document (a topic or any document id)
    pdks docs search <query> [--lang en] [--limit N] [--json]
    pdks docs show <document-id> [--lang en] [--section <section-id>] [--json]

Exit 0 with an answer (an empty search is an answer); exit 2 with `pdks docs: <message>` on
stderr and nothing on stdout for anything else. No config is read, no judge runs, no network.
"""

from __future__ import annotations

import os
import re
import sys

from polydeukes.cli import write_stderr

LANGUAGES = ("en",)       # what this bundle carries
KNOWN_LANGUAGES = ("en", "ko")  # what the command line accepts (upstream also ships Korean)
DEFAULT_LIMIT = 5
MAX_LIMIT = 50
EXCERPT_WIDTH = 160

# The upstream topics, each a document id and optionally one of its sections. Every document id
# is a topic as well.
TOPICS = {
    "install": ("getting-started", None),
    "config": ("configuration", None),
    "discipline": ("declarations", None),
    "covenant": ("covenant-check", None),
    "witness": ("verdicts", "witnessed-opening-a-block"),
}


class DocsError(Exception):
    """Ends the command: `pdks docs: <message>` on stderr, nothing on stdout, exit 2."""


# -- the bundle ---------------------------------------------------------------------------------


class Section:
    __slots__ = ("id", "title", "level", "line", "own", "whole")

    def __init__(self, id: str, title: str, level: int, line: int) -> None:
        self.id = id
        self.title = title
        self.level = level
        self.line = line  # 1-based line of the heading
        self.own = ""     # heading to the next heading of any level (what search scores)
        self.whole = ""   # heading to the next heading of the same or a higher level (show)


class Document:
    def __init__(self, id: str, source: str, markdown: str) -> None:
        self.id = id
        self.source = source
        self.markdown = markdown
        self.sections = _sections(markdown)
        self.title = self.sections[0].title if self.sections else id

    def section(self, section_id: str) -> Section | None:
        return next((s for s in self.sections if s.id == section_id), None)


_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$")


def _sections(markdown: str) -> list[Section]:
    lines = markdown.split("\n")
    found: list[tuple[Section, int]] = []  # (section, index of its heading line)
    fence = None
    seen: dict[str, int] = {}
    for index, line in enumerate(lines):
        opener = _FENCE.match(line)
        if opener:
            marker = opener.group(1)
            if fence is None:
                fence = marker
            elif marker[0] == fence[0] and len(marker) >= len(fence):
                fence = None
            continue
        if fence is not None:
            continue  # a heading inside fenced code is content
        heading = _HEADING.match(line)
        if heading:
            title = heading.group(2)
            slug = anchor(title)
            count = seen.get(slug, 0)
            seen[slug] = count + 1
            section = Section(slug if count == 0 else f"{slug}-{count}", title,
                              len(heading.group(1)), index + 1)
            found.append((section, index))
    for position, (section, start) in enumerate(found):
        following = [i for s, i in found[position + 1:]]
        own_end = following[0] if following else len(lines)
        whole_end = next((i for s, i in found[position + 1:] if s.level <= section.level),
                         len(lines))
        section.own = "\n".join(lines[start:own_end]).rstrip("\n") + "\n"
        section.whole = "\n".join(lines[start:whole_end]).rstrip("\n") + "\n"
    return [section for section, _ in found]


def anchor(title: str) -> str:
    """GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", title.lower().replace("`", ""))
    return text.replace(" ", "-")


def bundle_directory() -> str:
    try:
        import polydeukes.docs as bundle
    except ImportError:
        raise DocsError("the documentation bundle is missing from this installation — "
                        "reinstall polydeukes") from None
    for entry in getattr(bundle, "__path__", []):
        if os.path.isdir(entry):
            return entry
    raise DocsError("the documentation bundle is missing from this installation — "
                    "reinstall polydeukes")


def load_bundle(directory: str | None = None) -> list[Document]:
    directory = bundle_directory() if directory is None else directory
    documents = []
    for folder, subfolders, files in os.walk(directory):
        subfolders[:] = sorted(d for d in subfolders if not d.startswith((".", "__")))
        for name in sorted(files):
            if not name.endswith(".md"):
                continue
            path = os.path.join(folder, name)
            relative = os.path.relpath(path, directory).replace(os.sep, "/")
            try:
                with open(path, "rb") as handle:
                    markdown = handle.read().decode("utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                raise DocsError(f"the documentation bundle is damaged: {relative} cannot be "
                                f"read ({exc}) — reinstall polydeukes") from None
            documents.append(Document(relative[:-3], f"docs/{relative}", markdown))
    if not documents:
        raise DocsError("the documentation bundle is empty — reinstall polydeukes")
    documents.sort(key=lambda d: d.id.encode("utf-8"))
    return documents


# -- arguments ----------------------------------------------------------------------------------


def _parse(args: list[str], form: str, flags: dict[str, bool]) -> tuple[list[str], dict]:
    """Positionals and flag values of `pdks docs <form>`; `flags` maps each accepted flag to
    whether it takes a value. The first positional of `search` may look like a flag (a query
    such as `--worktree`); later unknown flags are errors."""
    positionals: list[str] = []
    values: dict[str, object] = {}
    i = 0
    while i < len(args):
        token = args[i]
        if token.startswith("--") and not (form == "search" and not positionals):
            if token not in flags:
                raise DocsError(f"unknown flag {token} for {' '.join(['pdks docs', form]).strip()}")
            if token in values:
                raise DocsError(f"{token} given more than once")
            if flags[token]:
                if i + 1 >= len(args) or args[i + 1].startswith("--"):
                    raise DocsError(f"{token} needs a value")
                values[token] = args[i + 1]
                i += 1
            else:
                values[token] = True
        else:
            positionals.append(token)
        i += 1
    language = values.get("--lang", "en")
    if language not in KNOWN_LANGUAGES:
        raise DocsError(f"unsupported language '{language}' (this bundle has: "
                        f"{', '.join(LANGUAGES)})")
    if language not in LANGUAGES:
        raise DocsError(f"this installation bundles no documentation in '{language}' "
                        f"(it has: {', '.join(LANGUAGES)})")
    return positionals, values


def _document_id(text: str) -> str:
    """A document id as typed; a path (absolute, `..`, `./`, a file name) is refused."""
    if (not text or text.startswith(("/", "./", "\\")) or text.endswith(".md") or "\\" in text
            or any(part in ("", ".", "..") for part in text.split("/"))):
        raise DocsError(f"'{text}' is a path, not a document id — `pdks docs` lists the ids")
    return text


def _find(documents: list[Document], document_id: str) -> Document:
    found = next((d for d in documents if d.id == document_id), None)
    if found is None:
        raise DocsError(f"no document '{document_id}' — `pdks docs` lists the ids")
    return found


# -- answers ------------------------------------------------------------------------------------


def run_docs(args: list[str]) -> int:
    try:
        text = _answer(list(args))
    except DocsError as exc:
        write_stderr(f"pdks docs: {exc}\n")
        return 2
    sys.stdout.write(text)  # rendered whole first: never a partial answer
    sys.stdout.flush()
    return 0


def _answer(args: list[str]) -> str:
    if not args:
        return catalogue(load_bundle())
    verb = args[0]
    if verb == "search":
        positionals, values = _parse(args[1:], "search", {"--lang": True, "--limit": True,
                                                          "--json": False})
        if len(positionals) != 1:
            raise DocsError("search takes one query (quote a query of several words)"
                            if positionals else "search needs a query")
        query = positionals[0]
        if not query.split():
            raise DocsError("the query is empty")
        limit = _limit(values.get("--limit"))
        results = search(load_bundle(), query, limit)
        return (_search_json(query, results) if values.get("--json")
                else _search_text(query, results))
    if verb == "show":
        positionals, values = _parse(args[1:], "show", {"--lang": True, "--section": True,
                                                        "--json": False})
        if len(positionals) != 1:
            raise DocsError("show takes one document id" if positionals
                            else "show needs a document id — `pdks docs` lists the ids")
        document = _find(load_bundle(), _document_id(positionals[0]))
        section_id = values.get("--section")
        markdown = document.markdown
        if section_id is not None:
            section = document.section(section_id)
            if section is None:
                raise DocsError(f"no section '{section_id}' in '{document.id}' — its sections: "
                                + ", ".join(s.id for s in document.sections))
            markdown = section.whole
        if values.get("--json"):
            return _json({"schemaVersion": 1, "packageVersion": _version(), "language": "en",
                          "documentId": document.id, "sectionId": section_id,
                          "source": document.source, "markdown": markdown})
        return markdown
    positionals, values = _parse(args, "", {"--lang": True})
    if len(positionals) != 1:
        raise DocsError("give one topic — `pdks docs` lists them")
    documents = load_bundle()
    topic = positionals[0]
    if topic in TOPICS:
        document_id, section_id = TOPICS[topic]
    else:
        document_id, section_id = _document_id(topic), None
    document = next((d for d in documents if d.id == document_id), None)
    if document is None:
        raise DocsError(f"no topic or document '{topic}' — `pdks docs` lists them")
    section = document.section(section_id) if section_id else None
    return section.whole if section is not None else document.markdown


def _limit(value: object) -> int:
    if value is None:
        return DEFAULT_LIMIT
    if not re.fullmatch(r"[0-9]+", str(value)) or not 1 <= int(value) <= MAX_LIMIT:
        raise DocsError(f"--limit takes a whole number from 1 to {MAX_LIMIT}")
    return int(value)


def _version() -> str:
    from polydeukes.vm import ENGINE_VERSION

    return ENGINE_VERSION


def _json(value: dict) -> str:
    import json

    return json.dumps(value, ensure_ascii=False) + "\n"


def catalogue(documents: list[Document]) -> str:
    by_id = {d.id: d for d in documents}
    width = max(len(d.id) for d in documents)
    out = [f"polydeukes documentation, bundled with pdks {_version()} (offline)", "",
           "Topics (pdks docs <topic>):"]
    for topic, (document_id, section_id) in TOPICS.items():
        document = by_id.get(document_id)
        if document is None:
            continue
        where = document_id + (f" --section {section_id}" if section_id else "")
        out.append(f"  {topic:<11} {where}")
    out += ["", "Documents (pdks docs <document-id>, or pdks docs show <document-id>):"]
    out += [f"  {d.id:<{width}}  {d.title}" for d in documents]
    out += ["", 'Search: pdks docs search "<words>" (every word must match; best first).',
            "One section: pdks docs show <document-id> --section <section-id>."]
    return "\n".join(out) + "\n"


class Hit:
    __slots__ = ("document", "section", "score", "excerpt")

    def __init__(self, document: Document, section: Section, score: int, excerpt: str) -> None:
        self.document = document
        self.section = section
        self.score = score
        self.excerpt = excerpt


def search(documents: list[Document], query: str, limit: int) -> list[Hit]:
    """Sections where every term occurs (in the section, its title, the document's title or
    id), case-insensitively; best first, ties by document id then section id (ASCII)."""
    terms = [t.lower() for t in query.split()]
    hits = []
    for document in documents:
        context = f"{document.id} {document.title}".lower()
        for section in document.sections:
            title = section.title.lower()
            body = section.own.lower()
            if not all(t in body or t in context for t in terms):
                continue
            score = 0
            for term in terms:
                score += 10 * (term in title) + 3 * (term in context) + min(body.count(term), 5)
            hits.append(Hit(document, section, score, _excerpt(section, terms)))
    hits.sort(key=lambda h: (-h.score, h.document.id.encode("utf-8"), h.section.id.encode("utf-8")))
    return hits[:limit]


def _excerpt(section: Section, terms: list[str]) -> str:
    """The body line matching the most terms (first such line); the heading when none does."""
    best, best_count = "", 0
    for line in section.own.split("\n")[1:]:
        count = sum(t in line.lower() for t in terms)
        if count > best_count:
            best, best_count = line.strip(), count
    text = best or section.title
    return text if len(text) <= EXCERPT_WIDTH else text[:EXCERPT_WIDTH - 1] + "\u2026"


def _show_command(hit: Hit) -> str:
    return f"pdks docs show {hit.document.id} --section {hit.section.id}"


def _search_text(query: str, hits: list[Hit]) -> str:
    if not hits:
        return f"no section matches every word of '{query}'\n"
    out = []
    for hit in hits:
        out.append(f"{hit.document.id}#{hit.section.id}  {hit.section.title}  (score {hit.score})")
        out.append(f"    {hit.excerpt}")
        out.append(f"    {_show_command(hit)}")
    return "\n".join(out) + "\n"


def _search_json(query: str, hits: list[Hit]) -> str:
    return _json({
        "schemaVersion": 1, "packageVersion": _version(), "language": "en", "query": query,
        "count": len(hits),
        "results": [{"documentId": h.document.id, "sectionId": h.section.id,
                     "title": h.section.title, "excerpt": h.excerpt,
                     "source": f"{h.document.source}:{h.section.line}",
                     "command": _show_command(h), "score": h.score} for h in hits],
    })
