"""Formatters, fixers and bulk editors: programs that rewrite every file of their kind below the
directories they are given (round 8, r8-formatters; docs/shell-axis.md "Formatters and fixers").

`shfmt -w .`, `prettier --write .`, `black .`, `ruff check --fix .`, `codespell -w`, `cargo fmt`
name no protected path, yet rewrite `ci/gate.sh` or `.claude/hooks/x.py`. Each program has a row
of `REWRITERS` (data): how it is put into its writing mode, which options take a value, which
operand it takes when given none (the directory it runs in, or the project's root), and which
files it rewrites (extensions, file names, a shell shebang, or every file). The judge
(judgment.py) calls `judge` for a command named in the table (`FORMATTERS`), after unwrapping
(`npx prettier`, `uv run black`, `sudo …`); this module is imported only for such a command.

In its writing mode, each operand (a file, a directory, a glob the tool expands itself) is
resolved as a path of the line; a protected entry it is, or lies inside, is rewritten whatever
its kind (a file named on the command line is formatted whatever its extension); a protected
entry below it is rewritten when it is a directory (anything may be inside), or a file of the
tool's kind (its extension or name; for shfmt an extensionless file whose first line is a `#!`
line, read from disk within bounds). An operand of unknown value, a glob the shell expands, or a
word of unknown value where an option may stand fails closed. Ignore files (.prettierignore,
.gitignore, `extend-exclude` …) are not read: a protected path they exclude still blocks (name
the directories to format instead); a configuration that widens a tool's kinds is not read
either (docs "Still open").

`pre-commit run` is read here for its remote hooks (`pre_commit`): hooks of a `repo:` that is not
`local` or `meta` are code fetched at a pinned revision, not on disk; many are fixers. With
`--all-files`, `--from-ref`/`--to-ref` or `--files`, they may rewrite any tracked file given: a
protected entry among them blocks. A plain `pre-commit run` gives the hooks the staged files
only: it passes (a protected file with staged changes was written by an earlier command, which
was judged). Local hooks are walked as shell lines (projectfiles.pre_commit_lines).
"""

from __future__ import annotations

import msgspec

from polydeukes.stdlib.shell.containers import _UNKNOWN, _absolute, _hits, _unknown
from polydeukes.vm.sre import LazyPattern

REWRITES = "{what} rewrites {path}, which reaches protected path {p}"
REWRITES_BELOW = "{what} rewrites the {kind} below {path}, which can include protected path {p} ({hint})"
REWRITES_UNKNOWN = "{what} rewrites {path}, whose value is unknown: it may reach protected path {p}"
OPTIONS_UNKNOWN = ("{what} takes {word}, whose value is unknown, where it reads its options: "
                   "it may rewrite protected path {p}")
HOOKS = ("{what} runs the hooks of {repo}, code that is not on disk and may rewrite the files it "
         "is given, over {files}, which can include protected path {p} (name the files: pre-commit run "
         "--files …)")

PROJECT_ROOT = "<root>"  # an operand: the project's root (cargo fmt's workspace, go's module)


class Rewriter(msgspec.Struct, frozen=True, gc=False):
    """One row: a program (or one of its subcommands) that rewrites files in place.

    `kind`: what it rewrites, for messages. `extensions`/`names`: the files below a directory
    it rewrites (`every_file`: all of them); `shebang`: a pattern for the first line of a file
    with no extension that it rewrites too (shfmt). `subcommand`: the word that must follow the
    program's options (`go fmt`, `ruff format`); None: none. `writes`: the options that put it
    into its writing mode (None: it always writes); `checks`: the options after which it writes
    nothing (exact spellings only: an abbreviation is taken as writing). `values`: the options
    that take the next word. `default`: the operand when none is given: "" none (it reads stdin
    or does nothing), "." the directory it runs in, `PROJECT_ROOT`. `globs`: it expands glob
    operands itself (prettier, eslint). `bundles`: short options may be bundled (`-wq`)."""

    kind: str
    extensions: tuple[str, ...] = ()
    names: tuple[str, ...] = ()
    every_file: bool = False
    shebang: str = ""
    subcommand: tuple[str, ...] | None = None
    writes: frozenset[str] | None = None
    checks: frozenset[str] = frozenset()
    values: frozenset[str] = frozenset()
    default: str = ""
    globs: bool = False
    bundles: bool = True
    widens: frozenset[str] = frozenset()  # options after which it may rewrite any file (`--include`)
    skips: str = ""  # a pattern for the names of directories below an operand it never enters
    hint: str = "name the directories to format instead"  # how to get through, for messages


def _options(text: str) -> frozenset[str]:
    return frozenset(text.split())


_PYTHON = (".py", ".pyi", ".ipynb", ".pyw")
_HELP = " -h --help --version -V "
_BLACK = Rewriter(
    "Python files", _PYTHON,
    checks=_options("--check --diff -c --code" + _HELP), widens=_options("--include"),
    values=_options("-l --line-length -t --target-version --include --exclude --extend-exclude "
                    "--force-exclude --stdin-filename -W --workers --config --required-version "
                    "--python-cell-magics --enable-unstable-feature -c --code"))
_RUFF_VALUES = _options("--config --target-version --line-length --exclude --extend-exclude --stdin-filename "
                        "--cache-dir --range --select --ignore --extend-select --extend-ignore --fixable "
                        "--unfixable --extend-fixable --per-file-ignores --extend-per-file-ignores "
                        "--output-format --output-file -o --dummy-variable-rgx")
_RUFF_FORMAT = Rewriter("Python files", _PYTHON, subcommand=("format",),
                        checks=_options("--check --diff" + _HELP), values=_RUFF_VALUES, default=".")
# `ruff check` writes with `--fix`/`--unsafe-fixes`/`--fix-only`, or with `fix = true` in its
# configuration (`_ruff_fixes`).
_RUFF_CHECK = Rewriter("Python files", _PYTHON, subcommand=("check",),
                       writes=_options("--fix --unsafe-fixes --fix-only"),
                       checks=_options("--diff --show-files --show-settings" + _HELP),
                       values=_RUFF_VALUES, default=".")
_ISORT = Rewriter(
    "Python files", (*_PYTHON, ".pyx", ".pxd", ".pxi"),
    checks=_options("--check-only --check -c --diff --df --show-files --show-config" + _HELP),
    widens=_options("--ext --extension --supported-extension"),
    values=_options("--settings-path --settings-file --sp --settings --resolve-all-configs --config-root "
                    "-l -w --line-length --line-width -m --multi-line -n --lines-after-imports "
                    "--lines-between-types --lai --lbt -p --project -o --thirdparty -k --known-local-folder "
                    "--virtual-env --conda-env --python-version --py -j --jobs -s --skip --skip-glob "
                    "--sg --ext --extension --supported-extension --blocked-extension "
                    "--src --src-path -a --add-import -r --rm --remove-import --profile -t --top "
                    "--sd --section-default -b --builtin --extra-builtin --future -f --indent -i "
                    "--wl --wrap-length --ot --order-by-type --ff --from-first --treat-comment-as-code "
                    "--af --comment --filename --interactive-mode -e --balanced --known-first-party "
                    "--known-third-party --default-section --line-ending --le --magic-placement "
                    "--dt --dont-follow-links --star-first"))
_AUTOPEP8 = Rewriter("Python files", (".py", ".pyi", ".pyw"), writes=_options("-i --in-place"),
                     checks=_options("--list-fixes" + _HELP),
                     values=_options("--global-config --ignore-local-config -p --pep8-passes -j --jobs "
                                     "--exclude --select --ignore --max-line-length --line-range --range "
                                     "--indent-size --hang-closing --exit-code -a")
                     - _options("--ignore-local-config --hang-closing --exit-code -a"))
_YAPF = Rewriter("Python files", (".py", ".pyi", ".pyw"), writes=_options("-i --in-place"),
                 checks=_options(_HELP),
                 values=_options("--style -l --lines -e --exclude -p --parallel --style-help")
                 - _options("-p --parallel --style-help"))
# prettier's languages (prettier 3): extensions and file names; a plugin (`--plugin`, or
# `plugins` in its configuration) adds others, read as every file (`_prettier_plugins`).
_PRETTIER = Rewriter(
    "files prettier formats",
    (".js", ".jsx", ".mjs", ".cjs", ".es", ".es6", ".jsm", ".ts", ".tsx", ".mts", ".cts", ".json", ".json5",
     ".jsonc", ".jsonl", ".webmanifest", ".har", ".importmap", ".code-workspace", ".code-snippets",
     ".css", ".pcss", ".postcss", ".scss", ".less", ".html", ".htm", ".xhtml", ".inc", ".mjml", ".vue",
     ".md", ".markdown", ".mkd", ".mkdn", ".mdwn", ".mdown", ".ronn", ".workbook", ".mdx", ".yaml", ".yml",
     ".graphql", ".gql", ".graphqls", ".hbs", ".handlebars", ".component.html", ".frag", ".mcmeta",
     ".gltf", ".avsc", ".geojson", ".topojson", ".babelrc", ".jscsrc", ".jshintrc", ".jslintrc",
     ".prettierrc", ".eslintrc", ".swcrc", ".sublime-settings", ".sublime-project", ".jsb", ".jake",
     ".javascript", ".jsb", ".jss", ".sjs", ".ssjs", ".xsjs", ".xsjslib", ".wxs", ".gs", ".jsproj",
     ".syntax", ".sublime-syntax", ".mir", ".reek", ".rviz", ".yaml-tmlanguage", ".yaml.sed", ".yml.mysql",
     ".4DForm", ".4DProject", ".ice", ".tfstate", ".tfstate.backup", ".zon", ".livemd", ".scd"),
    names=("package.json", "package-lock.json", "composer.json", "composer.lock", ".prettierrc", ".babelrc",
           ".jscsrc", ".jshintrc", ".jslintrc", ".swcrc", ".eslintrc", ".clang-format", ".clang-tidy",
           ".gemrc", "CITATION.cff", "glide.lock", ".clangd", ".stylelintrc", ".lintstagedrc", "Jakefile",
           ".all-contributorsrc", ".arcconfig", ".auto-changelog", ".c8rc", ".htmlhintrc", ".imgbotconfig",
           ".nycrc", ".tern-config", ".tern-project", ".watchmanconfig", ".babelrc.json", "README",
           "contents.lr", "pylintrc", ".markdownlintrc", "flake.lock", "mcmod.info", ".mdlrc"),
    writes=_options("--write -w"), checks=_options(_HELP),
    values=_options("--config --ignore-path --plugin --parser --stdin-filepath --cache-location "
                    "--cache-strategy --config-precedence --log-level --end-of-line --print-width "
                    "--tab-width --trailing-comma --arrow-parens --embedded-language-formatting "
                    "--html-whitespace-sensitivity --prose-wrap --quote-props --object-wrap "
                    "--experimental-operator-position --cursor-offset --range-start --range-end "
                    "--plugin-search-dir"),
    globs=True, bundles=False)
# eslint: the files its configuration (code: projectfiles.CONFIG_TOOLS) names, with plugins for
# any language: every file.
_ESLINT = Rewriter("files eslint lints", every_file=True, writes=_options("--fix"),
                   checks=_options("--fix-dry-run --print-config --init" + _HELP),
                   values=_options("-c --config --env --ext --global --parser --parser-options "
                                   "--resolve-plugins-relative-to --rulesdir --plugin --rule --ignore-path "
                                   "--ignore-pattern --stdin-filename --max-warnings -o --output-file "
                                   "-f --format --fix-type --cache-location --cache-strategy "
                                   "--report-unused-disable-directives-severity --flag --concurrency "
                                   "--inspect-config --suppressions-location"),
                   default=".", globs=True, bundles=False)
_GO = (".go",)
_GOFMT = Rewriter("Go files", _GO, writes=_options("-w"), checks=_options(_HELP),
                  values=_options("-r -cpuprofile"), bundles=False)
# `go fmt [packages]` runs `gofmt -l -w` on the packages' files: `./...` every one below, none
# the one of the directory it runs in; an import path: its module's, anywhere in the project.
_GO_FMT = Rewriter("Go files", _GO, subcommand=("fmt",), checks=_options("-n" + _HELP), skips=r"[._].*|testdata",
                   values=_options("-mod -modfile -C"), default=".", bundles=False)
_CARGO_FMT = Rewriter("Rust files", (".rs",), subcommand=("fmt",), checks=_options("--check" + _HELP),
                      values=_options("-p --package --manifest-path --message-format"), default=PROJECT_ROOT,
                      hint="run rustfmt on the files to format instead")
_RUSTFMT = Rewriter("Rust files", (".rs",), checks=_options("--check --emit" + _HELP),
                    values=_options("--config --config-path --edition --style-edition --color -l")
                    - _options("-l"))
_RUBY = (".rb", ".rake", ".gemspec", ".ru", ".rbw", ".builder", ".jbuilder", ".podspec", ".thor", ".arb",
         ".axlsx", ".cgi", ".fcgi", ".god", ".mspec", ".opal", ".pluginspec", ".rabl", ".rbuild", ".rbx",
         ".ruby", ".watchr", ".irbrc", ".pryrc", ".simplecov", ".gemfile", ".schema", ".rbi", ".jb", ".lock")
_RUBOCOP = Rewriter(
    "Ruby files", _RUBY,
    names=("Gemfile", "Rakefile", "Guardfile", "Podfile", "Vagrantfile", "Berksfile", "Brewfile", "Capfile",
           "Dangerfile", "Deliverfile", "Fastfile", "Appraisals", "Cheffile", "Puppetfile", "Thorfile",
           "Steepfile", "Snapfile", "Mavenfile", "Jarfile", "Buildfile", "Gemfile.lock", "config.ru",
           ".irbrc", ".pryrc", ".simplecov", "buildfile", "rakefile", "Schemafile", "Matchfile", "Scanfile"),
    shebang=r"#!.*\b(?:ruby|jruby|macruby|rake|rbx|rubinius)\b",
    writes=_options("-a -A -x --autocorrect --autocorrect-all --auto-correct --auto-correct-all --fix-layout"),
    checks=_options("-L --list-target-files --show-cops --show-docs-url" + _HELP),
    values=_options("-c --config -f --format -o --out -r --require --only --except --fail-level "
                    "--exclude-limit --cache-root --cache -C --target-ruby-version --plugin --stdin -s "
                    "--ignore-unrecognized-cops"),
    default=".", bundles=True)
_TERRAFORM_FMT = Rewriter("Terraform files", (".tf", ".tfvars", ".tftest.hcl", ".tfmock.hcl"), subcommand=("fmt",),
                          checks=_options("-check -write=false" + _HELP), default=".", bundles=False)
_MARKDOWN = (".md", ".markdown", ".mdown", ".mkdn", ".mkd", ".mdwn", ".mkdown", ".ron", ".mdx")
_MARKDOWNLINT = Rewriter("Markdown files", _MARKDOWN, writes=_options("--fix"),
                         values=_options("-c --config -i --ignore -p --ignore-path -r --rules -o --output "
                                         "--configPointer -s --stdin -j --json --enable --disable")
                         - _options("-s --stdin -j --json"),
                         default=".", globs=True, bundles=False)
# Spelling fixers: any text file.
_CODESPELL = Rewriter("text files", every_file=True, writes=_options("-w --write-changes"),
                      values=_options("-d -D --dictionary --builtin -I --ignore-words -L --ignore-words-list "
                                      "--uri-ignore-words-list -r --regex --ignore-regex --ignore-multiline-regex "
                                      "--uri-regex -s -S --skip -x --exclude-file -i --interactive -q --quiet-level "
                                      "-e -A --after-context -B --before-context -C --context --count "
                                      "--config --toml -m --check-filenames")
                      - _options("-e --count -m --check-filenames"),
                      checks=_options(_HELP), default=".")
_TYPOS = Rewriter("text files", every_file=True, writes=_options("-w --write-changes"),
                  checks=_options("--files --identifiers --words --dump-config --type-list" + _HELP),
                  values=_options("-c --config --exclude --file-list --format --locale -j --threads --color"),
                  default=".")
_SHFMT = Rewriter("shell files", (".sh", ".bash", ".mksh", ".bats", ".zsh"),
                  shebang=r"#!\s?/(?:usr/)?bin/(?:env\s+)?(?:\S*/)?(?:sh|bash|mksh|bats|zsh|dash|ksh)(?:\s|$)",
                  writes=_options("-w --write"),
                  checks=_options("--to-json --from-json -tojson" + _HELP),
                  values=_options("-i --indent -ln --language-dialect --filename --apply-ignore")
                  - _options("--apply-ignore"),
                  bundles=False)
_DENO_FMT = Rewriter("files deno formats",
                     (".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts", ".json", ".jsonc", ".md",
                      ".markdown", ".ipynb", ".css", ".scss", ".sass", ".less", ".html", ".svelte", ".vue",
                      ".astro", ".yml", ".yaml", ".sql", ".vto", ".njk"),
                     subcommand=("fmt",), checks=_options("--check" + _HELP),
                     values=_options("--config -c --ext --ignore --indent-width --line-width --prose-wrap "
                                     "--import-map --log-level"),
                     default=".", bundles=False)

REWRITERS: dict[str, tuple[Rewriter, ...]] = {
    "black": (_BLACK,),
    "ruff": (_RUFF_FORMAT, _RUFF_CHECK),
    "isort": (_ISORT,), "autopep8": (_AUTOPEP8,), "yapf": (_YAPF,),
    "prettier": (_PRETTIER,), "eslint": (_ESLINT,),
    "gofmt": (_GOFMT,), "go": (_GO_FMT,), "cargo": (_CARGO_FMT,), "rustfmt": (_RUSTFMT,),
    "rubocop": (_RUBOCOP,), "terraform": (_TERRAFORM_FMT,), "tofu": (_TERRAFORM_FMT,),
    "markdownlint": (_MARKDOWNLINT,), "markdownlint-cli2": (_MARKDOWNLINT,),
    "codespell": (_CODESPELL,), "typos": (_TYPOS,), "shfmt": (_SHFMT,), "deno": (_DENO_FMT,),
}
# (analysis.FORMATTERS, the judge's lookup, names these rows' programs and pre-commit.)
# Legacy `ruff [options] PATH…` (before ruff 0.5) is `ruff check`.
_RUFF_SUBCOMMANDS = frozenset({"check", "format", "rule", "config", "linter", "clean", "version", "help",
                               "server", "analyze", "generate-shell-completion"})
_FALSE = frozenset({"false", "0", "no", "off"})
_GO_FLAGS = frozenset({"gofmt", "go", "terraform", "tofu"})


def judge(j, view, name: str, start: int) -> None:
    """Judge one formatter's command (`j`: the `judgment._Judge`; `view`: its view; `name`: the
    formatter, whose arguments start at `view.args[start]`)."""
    args = view.args[start:]
    if name == "pre-commit":
        _pre_commit(j, view, args)
        return
    for row in REWRITERS[name]:
        _rewriter(j, view, name, row, args)


def _rewriter(j, view, name: str, row: Rewriter, args) -> None:
    k = 0
    what = name
    moved = False  # `go -C DIR fmt`, `terraform -chdir=DIR fmt`: it runs in another directory
    if row.subcommand is not None:
        # The program's own options before the subcommand (`cargo +nightly fmt`).
        while k < len(args) and args[k].text.startswith(("-", "+")) and not args[k].opaque:
            moved = moved or args[k].text in ("-C", "--C") or args[k].text.startswith(("-chdir", "--chdir", "-C="))
            k += 1
        if k + 1 < len(args) and moved and args[k].text not in row.subcommand:
            k += 1  # (`-C DIR`: the directory, then the subcommand)
        if k >= len(args):
            return
        word = args[k]
        if word.opaque:
            return  # (`go "$X"`: not known to be its formatter; the mention rule stands)
        legacy = name == "ruff" and row.subcommand == ("check",) and word.text not in _RUFF_SUBCOMMANDS
        if word.text not in row.subcommand and not legacy:
            return
        if legacy:
            k = 0  # (`ruff --fix .`, before ruff 0.5: `ruff check`; every word is its own)
        else:
            what = f"{name} {word.text}"
            k += 1
    writes = row.writes is None
    operands = []  # the operands
    maybe = []  # words that may be operands: option values (if the row is wrong about one)
    unknown_option = None
    done = False
    while k < len(args):
        a = args[k]
        t = a.text
        k += 1
        if done or not t.startswith("-") or t == "-":
            if a.opaque and not done and row.writes is not None and t[:1] in ("$", "`") and unknown_option is None:
                unknown_option = a  # (`ruff check $FLAGS`: it may be `--fix`)
                writes = True
            operands.append(a)
            continue
        if t == "--":
            done = True
            continue
        if a.opaque:
            unknown_option = unknown_option or a  # (`-$X`: any option)
            writes = True
            continue
        option, equals, value = t.partition("=")
        if name in _GO_FLAGS and option.startswith("--"):
            option = option[1:]  # (Go's flag package: `--w` is `-w`)
        if option in row.widens:
            row = msgspec.structs.replace(row, every_file=True, kind="files " + option + " names")
        if option == "-write" and equals:  # terraform fmt -write=false
            if value.lower() in _FALSE:
                return
            continue
        if option in row.checks and not (equals and value.lower() in _FALSE):
            return
        takes = option in row.values and not equals and not (len(option) == 2 and len(t) > 2)
        if row.writes is not None and _writes(row, option, equals, value):
            writes = True
        elif not option.startswith("--") and len(option) > 2 and row.bundles:
            letters = ["-" + c for c in option[1:]]
            if row.writes is not None and any(letter in row.writes for letter in letters):
                writes = True
            for at, letter in enumerate(letters):
                if letter in row.values:
                    takes = at == len(letters) - 1
                    break
        elif option not in row.values and not equals:
            takes = True  # an option the row does not list: its value may be the next word
        if takes and k < len(args) and not args[k].text.startswith("-"):
            if not args[k].opaque:
                maybe.append(args[k])  # (a value: `-l 100`; an operand if the row is wrong)
            k += 1
    if name == "ruff" and row.subcommand == ("check",) and not writes:
        writes = _ruff_fixes(j, view, args)
    if name == "prettier" and writes and _prettier_plugins(j, view, args):
        row = msgspec.structs.replace(row, every_file=True, kind="files prettier's plugins format")
    if name == "cargo":
        # `cargo fmt [-- RUSTFMT_OPTIONS]`: it takes no paths, the words after `--` are rustfmt's
        if any(a.text in ("--check", "--emit") or a.text.startswith("--emit=") for a in operands):
            return
        operands = []
    if not writes:
        return
    if unknown_option is not None:
        _unknown(j, OPTIONS_UNKNOWN.format(what=what, word=unknown_option.text, p=j.p.entries[0]))
        return
    if moved or not operands and row.default == PROJECT_ROOT:
        if j.p.root_segs is not None:
            _operand(j, view, what, row, None, "/" + "/".join(j.p.root_segs), "the project")
        return
    if not operands and row.default:
        _operand(j, view, what, row, None, row.default, row.default, shallow=name == "go")
    for a in (*operands, *maybe):
        if a.text == "-" and not a.opaque:
            continue  # stdin to stdout
        if name == "go" and not a.opaque:
            _go_package(j, view, what, row, a)
            continue
        _operand(j, view, what, row, a, a.text, a.text)


def _writes(row: Rewriter, option: str, equals: str, value: str) -> bool:
    """Does `option` (with `=value`) put the tool in its writing mode? A long option's
    abbreviation counts (argparse and getopt take any unambiguous prefix: `--write` is
    codespell's `--write-changes`)."""
    if equals and value.lower() in _FALSE:
        return False
    if option in row.writes:
        return True
    return option.startswith("--") and len(option) > 3 and any(w.startswith(option) for w in row.writes)


def _go_package(j, view, what: str, row: Rewriter, a) -> None:
    """A `go fmt` package pattern: `./x/...`, a directory, or an import path (of the module,
    anywhere in the project)."""
    text = a.text
    if text.endswith("/...") or text == "...":
        text = text[:-4] or "."
    if text.startswith((".", "/")):
        _operand(j, view, what, row, a, text, a.text, shallow=not a.text.endswith("..."))
    elif j.p.root_segs is not None:
        _operand(j, view, what, row, None, "/" + "/".join(j.p.root_segs), a.text)


_GLOB = frozenset("*?[{")


def _operand(j, view, what: str, row: Rewriter, a, text: str, shown: str, shallow: bool = False) -> None:
    """One operand: the protected entries it is or lies inside are rewritten; those below it
    when of the tool's kind (with `shallow`, those right in it: `go fmt ./pkg`)."""
    p = j.p
    if a is not None and a.pattern is not None:
        # A glob the shell expands: each file it matches is named, whatever its kind.
        hits = p.pattern_hits(a.pattern, view.cwd, view.glob)
        if hits:
            j.reached.update(hits)
            j.found("effect", REWRITES.format(what=what, path=shown, p=p.entries[hits[0]]))
        return
    if a is not None and row.globs and _GLOB & set(text):
        # A glob the tool expands: what lies below its fixed directories, of the tool's kind.
        cut = min(text.find(c) for c in _GLOB if c in text)
        text = text[:cut].rpartition("/")[0] or "."
    if a is not None:
        absolute = _absolute(j, view, a, text)
    else:
        absolute = j.walk.absolute(text, view.cwd)
        if absolute is None:
            absolute = _UNKNOWN  # (`cd "$D" && codespell -w`: anywhere)
    if absolute is _UNKNOWN:
        _unknown(j, REWRITES_UNKNOWN.format(what=what, path=shown, p=p.entries[0]))
        return
    hits, why = _hits(j, absolute)
    if why is not None:
        _unknown(j, REWRITES_UNKNOWN.format(what=what, path=shown, p=p.entries[0]))
        return
    for index in hits:
        target = p.absolute[index] if p.absolute is not None else ()
        if len(absolute) >= len(target):
            j.reached.add(index)
            j.found("effect", REWRITES.format(what=what, path=shown, p=p.entries[index]))
            return
        if shallow and (len(target) > len(absolute) + 1 or _is_directory(j, index)):
            continue
        if row.skips and len(target) > len(absolute) and any(
                LazyPattern(row.skips)().fullmatch(segment) for segment in target[len(absolute) : -1]
                if segment):
            continue  # (`go fmt ./...` enters no `.x`, `_x` or testdata directory)
        if _rewritable(j, row, index):
            j.reached.add(index)
            j.found("effect", REWRITES_BELOW.format(what=what, kind=row.kind, path=shown, p=p.entries[index],
                                                    hint=row.hint))
            return


_SHEBANG_BYTES = 256


def _rewritable(j, row: Rewriter, index: int) -> bool:
    """Can the tool rewrite protected entry `index`, found below a directory it was given? A
    file of its kind (by extension or name; by its first line for a shebang tool); a directory
    that holds one (looked up on disk within bounds, as find's `-name` filters are: a line that
    makes one there first is judged at that write); anything that cannot be looked at within
    bounds."""
    p = j.p
    name = p.entries[index].rstrip("/").rsplit("/", 1)[-1]
    if _of_kind(row, name):
        return True
    disk = j.walk.disk
    if disk is None or p.root_segs is None:
        return True
    absolute = [*p.root_segs, *p.resolved[index]]
    kind = disk.kind(absolute)
    if kind == "missing":
        return False
    if kind == "dir":
        found = disk.tree_has_file(absolute, lambda n: _of_kind(row, n) or _may_have_shebang(row, n))
        return found if isinstance(found, bool) else True
    if kind != "file":
        return True  # past the bounds
    if not _may_have_shebang(row, name):
        return False
    head = disk.read_bytes("/" + "/".join(absolute), _SHEBANG_BYTES)
    if not isinstance(head, bytes):
        return not _missing(head)
    first = head.split(b"\n", 1)[0].decode("utf-8", "replace")
    return LazyPattern(row.shebang)().match(first) is not None


def _of_kind(row: Rewriter, name: str) -> bool:
    return row.every_file or name.endswith(row.extensions) or name in row.names


def _may_have_shebang(row: Rewriter, name: str) -> bool:
    """A file the tool takes by its first line: one with no extension (shfmt's rule)."""
    return bool(row.shebang) and "." not in name[1:]


def _is_directory(j, index: int) -> bool:
    disk = j.walk.disk
    if disk is None or j.p.root_segs is None:
        return False
    return disk.kind([*j.p.root_segs, *j.p.resolved[index]]) == "dir"


def _missing(found) -> bool:
    from polydeukes.stdlib.shell.disk import Missing

    return isinstance(found, Missing)


# -- configuration that makes a check a fix ------------------------------------------------------

_RUFF_FIX = LazyPattern(r"(?m)^[ \t]*(?:fix|unsafe-fixes)[ \t]*=[ \t]*true\b")
_RUFF_FILES = ("ruff.toml", ".ruff.toml", "pyproject.toml")


def _ruff_fixes(j, view, args) -> bool:
    """`ruff check` without `--fix`: does a configuration say `fix = true`? The one `--config`
    names, else ruff.toml, .ruff.toml or pyproject.toml from where it runs up to the project's
    root, any of them (a file that cannot be read within bounds, or a `--config` of unknown value
    or given as `key = value`, counts as fixing)."""
    if any(a.text == "--no-fix" for a in args):
        return False
    named = [args[k + 1] for k in range(len(args) - 1) if args[k].text == "--config"]
    named += [_Text(a.text.split("=", 1)[1], a.opaque) for a in args if a.text.startswith("--config=")]
    candidates: list[str] = []
    for a in named:
        if a.opaque or "=" in a.text:
            return True  # (`--config "fix = true"`: an inline setting)
        candidates.append(a.text)
    if not candidates:
        candidates = _present_candidates(j.walk, view, _RUFF_FILES)
    return _any_says(j, view, candidates, _RUFF_FIX)


def _present_candidates(walk, view, names) -> list[str]:
    """The files `names` in the directory the command runs in and each one above it up to the
    root (`projectfiles._upward`), less those in a directory missing on disk that the line does
    not write: nothing is there to read (a script that keeps `cd`-ing down a missing `build/`
    ran a ruff per level with a look at every level above it: the bench's script went from
    0.27 G to 2.2 G instructions)."""
    from polydeukes.stdlib.shell import projectfiles

    disk, cwd, root = walk.disk, view.cwd, walk.root_segs
    if disk is None or cwd is None or root is None or cwd[: len(root)] != root or len(cwd) == len(root):
        return [prefix + n for prefix in projectfiles._upward(walk, view) for n in names]
    # (directories cwd[:level], level from len(cwd) up to len(root); from the length `gone` on
    # down, none is there)
    gone = disk.first_missing(cwd, len(root))
    written_at: dict[int, set[str]] = {}  # level -> the candidates the line wrote there
    if gone <= len(cwd):
        for path in walk.written_named(("formatters.written", names), names.__contains__):
            if len(path) > gone and path[:-1] == cwd[: len(path) - 1]:
                written_at.setdefault(len(path) - 1, set()).add(path[-1])
    out: list[str] = []
    for level in sorted(written_at, reverse=True):
        out.extend("../" * (len(cwd) - level) + n for n in names if n in written_at[level])
    for level in range(min(gone, len(cwd) + 1) - 1, len(root) - 1, -1):
        out.extend("../" * (len(cwd) - level) + n for n in names)
    return out


class _Text(msgspec.Struct, frozen=True, gc=False):
    text: str
    opaque: bool


_PLUGINS = LazyPattern(r"plugins")
_PRETTIER_FILES = (".prettierrc", ".prettierrc.json", ".prettierrc.json5", ".prettierrc.yaml", ".prettierrc.yml",
                   ".prettierrc.toml", "package.json", "package.yaml")


def _prettier_plugins(j, view, args) -> bool:
    """Does prettier run with a plugin (a language of its own): `--plugin`, or `plugins` in a
    configuration file (its program files are read as code by projectfiles.CONFIG_TOOLS; the
    data files here, from where it runs up to the root; one that cannot be read counts)."""
    from polydeukes.stdlib.shell import projectfiles

    if any(a.opaque or a.text.startswith("--plugin") for a in args):
        return True
    config = [args[k + 1].text for k in range(len(args) - 1) if args[k].text == "--config"]
    candidates = config or _present_candidates(j.walk, view, (*_PRETTIER_FILES,
                                                              *projectfiles.CONFIG_TOOLS["prettier"][0]))
    return _any_says(j, view, candidates, _PLUGINS)


def _any_says(j, view, candidates: list[str], pattern: LazyPattern) -> bool:
    from polydeukes.stdlib.shell import scripts

    for candidate in candidates:
        text = scripts._read_file(j.walk, view, candidate)
        if text is None:
            continue
        if not isinstance(text, str) or pattern().search(text) is not None:
            return True
    return False


# -- pre-commit ------------------------------------------------------------------------------------

_PRE_COMMIT_VALUES = frozenset({"-c", "--config", "--hook-stage", "--from-ref", "--to-ref", "--source", "--origin",
                                "-s", "-o", "--color", "--remote-branch", "--local-branch", "--remote-name",
                                "--remote-url", "--commit-msg-filename", "--prepare-commit-message-source",
                                "--commit-object-name", "--checkout-type", "--is-squash-merge",
                                "--rewrite-command", "--ref", "--rev"})


def _pre_commit(j, view, args) -> None:
    """`pre-commit run` (or bare `pre-commit`, `try-repo`): its remote hooks over the files it
    gives them (see the module's docstring)."""
    from polydeukes.stdlib.shell import projectfiles

    words = []
    files: list = []
    every = False
    k = 0
    while k < len(args):
        a = args[k]
        t = a.text
        if a.opaque and t.startswith("-") or a.opaque and not words:
            every = True  # (`$OPTS`: it may be `--all-files`)
        if t in ("-a", "--all-files") or t.startswith(("--from-ref", "--to-ref", "--source", "--origin")) \
                or t in ("-s", "-o"):
            every = True
        if t == "--files":
            k += 1
            while k < len(args) and not args[k].text.startswith("-"):
                files.append(args[k])
                k += 1
            continue
        if t in _PRE_COMMIT_VALUES:
            k += 2
            continue
        if not t.startswith("-"):
            words.append(a)
        k += 1
    if words and not words[0].opaque and words[0].text not in ("run", "try-repo"):
        return
    if words and words[0].text == "try-repo":
        repositories = [("the repository " + (words[1].text if len(words) > 1 else "given"), ())]
        hook_ids = words[2:3]
    else:
        script = view.file_script
        if script is None or script.text is None:
            return  # (no configuration; one that cannot be read is refused where it is read)
        repositories = [(f"{repo or 'a repository'} ({script.path})", ids)
                        for repo, ids in projectfiles.pre_commit_repositories(script.text)
                        if repo not in ("local", "meta")]
        hook_ids = words[1:2]
    if hook_ids and not hook_ids[0].opaque:
        repositories = [(repo, ids) for repo, ids in repositories if not ids or hook_ids[0].text in ids]
    if not repositories:
        return
    what = "pre-commit " + (words[0].text if words else "run")
    if every:
        if j.p.root_segs is None:
            return
        hits, _ = _hits(j, tuple(j.p.root_segs))
        for index in hits:
            j.reached.add(index)
            j.found("effect", HOOKS.format(what=what, repo=repositories[0][0], files="every file of the repository",
                                           p=j.p.entries[index]))
            return
    for a in files:
        absolute = _absolute(j, view, a, a.text)
        if absolute is _UNKNOWN:
            _unknown(j, REWRITES_UNKNOWN.format(what=what, path=a.text, p=j.p.entries[0]))
            return
        hits, why = _hits(j, absolute)
        for index in hits:
            j.reached.add(index)
            j.found("effect", HOOKS.format(what=what, repo=repositories[0][0], files=a.text, p=j.p.entries[index]))
            return
