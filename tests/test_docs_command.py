"""`pdks docs` (spec 05 §7): the bundled documentation, offline. Exit 0 with an answer (an empty
search is one), exit 2 with `pdks docs: <message>` and nothing on stdout otherwise."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from polydeukes.cli import docs as D

REPO = Path(__file__).resolve().parent.parent
DOCS = REPO / "docs"


def pdks_docs(*args: str, cwd: Path | None = None):
    done = subprocess.run([sys.executable, "-m", "polydeukes.cli", "docs", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=60)
    assert "Traceback" not in done.stderr
    return done.returncode, done.stdout, done.stderr


def every_page() -> list[str]:
    return sorted(str(p.relative_to(DOCS))[:-3] for p in DOCS.rglob("*.md"))


def test_the_catalogue_lists_every_page_and_every_topic(tmp_path):
    code, out, err = pdks_docs(cwd=tmp_path)  # no config needed, none read
    assert (code, err) == (0, "")
    listed = [line.split()[0] for line in out.split("Documents")[1].splitlines()[1:]
              if line.startswith("  ")]
    assert listed == every_page()
    for topic in ("install", "config", "discipline", "covenant", "witness"):
        assert f"\n  {topic} " in out


@pytest.mark.parametrize("topic, page", [("install", "getting-started"),
                                         ("config", "configuration"),
                                         ("discipline", "declarations"),
                                         ("covenant", "covenant-check"),
                                         ("claude-code", "claude-code"),
                                         ("codex", "codex"), ("grok", "grok")])
def test_a_topic_prints_its_page(topic, page):
    assert D._answer([topic]) == (DOCS / f"{page}.md").read_text(encoding="utf-8")


def test_the_witness_topic_is_its_section():
    text = D._answer(["witness"])
    assert text.startswith("## `witnessed`: opening a block\n")
    assert "### The TTL witness valve" in text and "## Rows you did not ask for" not in text


def test_show_a_document_and_a_section():
    assert D._answer(["show", "verdicts"]) == (DOCS / "verdicts.md").read_text(encoding="utf-8")
    shown = json.loads(D._answer(["show", "verdicts", "--section", "skipped", "--json"]))
    assert shown == {"schemaVersion": 1, "packageVersion": "0.8.0", "language": "en",
                     "documentId": "verdicts", "sectionId": "skipped",
                     "source": "docs/verdicts.md",
                     "markdown": D._answer(["show", "verdicts", "--section", "skipped"])}
    assert shown["markdown"].startswith("## `skipped`\n")


def test_search_ranks_sections_with_the_matching_line(tmp_path):
    (tmp_path / "b.md").write_text(
        "# Beta\n## Witness token\nThe token opens.\n## Other\nwitness here\nand a token there\n"
        "a witness token line\n", encoding="utf-8")
    (tmp_path / "c.md").write_text("# Gamma\n## Notes\nwitness and token\n", encoding="utf-8")
    (tmp_path / "a.md").write_text("# Alpha\n## Notes\nwitness and token\n## Witness\nno\n",
                                   encoding="utf-8")
    hits = D.search(D.load_bundle(str(tmp_path)), "Witness TOKEN", 10)
    assert [(h.document.id, h.section.id, h.score) for h in hits] == [
        ("b", "witness-token", 23),   # both words in the heading (10 each) and the text
        ("b", "other", 4),            # each word twice in the text
        ("a", "notes", 2),            # a tie: by document id
        ("c", "notes", 2),
    ]                                 # a/witness lacks "token": every word must match
    assert [h.excerpt for h in hits] == ["The token opens.", "a witness token line",
                                         "witness and token", "witness and token"]
    assert [h.section.id for h in D.search(D.load_bundle(str(tmp_path)), "token", 1)] == \
        ["witness-token"]


def test_search_over_the_bundle(tmp_path):
    out = D._answer(["search", "witness token", "--limit", "3"])
    first, excerpt, command = out.splitlines()[:3]
    assert "#" in first and first.endswith(")")
    assert command.startswith("    pdks docs show ")
    answer = json.loads(D._answer(["search", "witness token", "--json"]))
    assert answer["query"] == "witness token" and answer["count"] == len(answer["results"]) == 5
    scores = [r["score"] for r in answer["results"]]
    assert scores == sorted(scores, reverse=True)
    assert set(answer["results"][0]) == {"documentId", "sectionId", "title", "excerpt", "source",
                                         "command", "score"}


def test_an_empty_search_is_an_answer():
    assert D._answer(["search", "zzqx-no-such-word"]) == \
        "no section matches every word of 'zzqx-no-such-word'\n"
    empty = json.loads(D._answer(["search", "zzqx-no-such-word", "--json"]))
    assert (empty["count"], empty["results"]) == (0, [])
    assert D._answer(["search", "--zzqx-flag"]) == "no section matches every word of '--zzqx-flag'\n"


@pytest.mark.parametrize("args, message", [
    (["search"], "search needs a query"),
    (["search", "a", "b"], "search takes one query (quote a query of several words)"),
    (["search", "   "], "the query is empty"),
    (["search", "a", "--limit", "0"], "--limit takes a whole number from 1 to 50"),
    (["search", "a", "--limit", "51"], "--limit takes a whole number from 1 to 50"),
    (["search", "a", "--limit"], "--limit needs a value"),
    (["search", "a", "--json", "--json"], "--json given more than once"),
    (["search", "a", "--worktree"], "unknown flag --worktree for pdks docs search"),
    (["search", "a", "--lang", "fr"], "unsupported language 'fr' (this bundle has: en)"),
    (["search", "a", "--lang", "ko"], "this installation bundles no documentation in 'ko' (it "
                                      "has: en)"),
    (["show"], "show needs a document id — `pdks docs` lists the ids"),
    (["show", "a", "b"], "show takes one document id"),
    (["show", "../pyproject"], "'../pyproject' is a path, not a document id — `pdks docs` lists "
                               "the ids"),
    (["show", "/etc/passwd"], "'/etc/passwd' is a path, not a document id — `pdks docs` lists "
                              "the ids"),
    (["show", "verdicts.md"], "'verdicts.md' is a path, not a document id — `pdks docs` lists "
                              "the ids"),
    (["show", "nope"], "no document 'nope' — `pdks docs` lists the ids"),
    (["show", "grok", "--section", "nope"], None),
    (["nope"], "no topic or document 'nope' — `pdks docs` lists them"),
    (["install", "extra"], "give one topic — `pdks docs` lists them"),
    (["install", "--json"], "unknown flag --json for pdks docs"),
])
def test_errors_exit_2_with_nothing_on_stdout(args, message):
    code, out, err = pdks_docs(*args)
    assert (code, out) == (2, "")
    assert err.startswith("pdks docs: ") and err.count("\n") == 1
    if message is not None:
        assert err == f"pdks docs: {message}\n"


def test_sections_end_at_the_next_heading_of_their_level_and_fences_are_content(tmp_path):
    (tmp_path / "guide.md").write_text(
        "# Guide\nintro\n## One\n```sh\n# not a heading\n```\n### Deeper\ntext\n## Two\nend\n"
        "## One\nagain\n", encoding="utf-8")
    (tmp_path / "nested").mkdir()
    (tmp_path / "nested" / "page.md").write_text("# Nested\n", encoding="utf-8")
    [guide, nested] = D.load_bundle(str(tmp_path))
    assert (guide.id, nested.id, nested.source) == ("guide", "nested/page", "docs/nested/page.md")
    assert [s.id for s in guide.sections] == ["guide", "one", "deeper", "two", "one-1"]
    assert guide.section("one").whole == "## One\n```sh\n# not a heading\n```\n### Deeper\ntext\n"
    assert guide.section("one").own == "## One\n```sh\n# not a heading\n```\n"


def test_a_damaged_or_empty_bundle_fails_closed(tmp_path):
    with pytest.raises(D.DocsError, match="the documentation bundle is empty"):
        D.load_bundle(str(tmp_path))
    (tmp_path / "bad.md").write_bytes(b"\xff\xfe")
    with pytest.raises(D.DocsError, match="the documentation bundle is damaged: bad.md"):
        D.load_bundle(str(tmp_path))


def test_the_wheel_bundles_every_page_and_the_console_scripts(tmp_path):
    """Package data is picked up by a glob, never a hand-kept list: build the real wheel."""
    source = tmp_path / "src"
    tracked = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                             cwd=REPO, capture_output=True, text=True, check=True).stdout.split()
    for name in tracked:
        if (REPO / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, source / name)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w",
                    str(tmp_path / "dist"), str(source)], check=True, capture_output=True,
                   timeout=300)
    [wheel] = (tmp_path / "dist").glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert sorted(n[len("polydeukes/docs/"):-3] for n in names
                  if n.startswith("polydeukes/docs/") and n.endswith(".md")) == every_page()
    entry_points = zipfile.ZipFile(wheel).read(
        next(n for n in names if n.endswith("entry_points.txt"))).decode()
    for script in ("pdks-claude-code", "pdks-codex", "pdks-grok"):
        assert f"{script} = polydeukes.stdlib.adapters." in entry_points
