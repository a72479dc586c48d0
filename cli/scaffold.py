"""`pdks init`: the agent-neutral scaffold (spec 05 §5). Idempotent; never overwrites."""

from __future__ import annotations

import os

from polydeukes.vm.project import AMBIGUOUS_CONFIG, CONFIG_NAMES, present_config_names

GITIGNORE = ".gitignore"
IGNORE_RULE = ".polydeukes/"
IGNORE_BLOCK = "# Polydeukes telemetry \u2014 local observation data, never committed.\n.polydeukes/\n"

STARTER_CONFIG = """\
# Polydeukes covenants for this project. `pdks explain` shows what this file registers.

# Informational language profiles; no judgment reads them.
languages:
  placeholder:
    productionGlob: 'src/**'
    testCmd: 'echo "set a verification command for {scope}"'

# Paths no agent tool may modify: the gate definitions of the session adapters. This config file
# protects itself automatically, so an edit that would lower the gates is judged like any other.
protectedPaths:
  - '.claude/hooks'
  - '.claude/settings.json'
  - '.grok/hooks'
  - '.codex/hooks'

# The human valve: a person types the token alone on the first line of a message, and for
# ttlMinutes a blocked call can go through as `witnessed`. Removing this section leaves no way
# to open a block from the session.
witness:
  token: 'pdks witness'
  ttlMinutes: 10

# Disciplines are your team's practices, written as data. Three rungs, from prose to a gate
# (uncomment to adopt; `pdks explain` then lists them):
#
# disciplines:
#   # 1. A draft: prose registered ahead of promotion; never judged, never a row.
#   - id: 'docs-stay-bilingual'
#     why: 'every English page under docs/ has its Korean twin.'
#     draft: true
#
#   # 2. Promoted at advise: a break is recorded and reported; the call goes through.
#   - id: 'no-focused-tests'
#     why: 'a focused test must not land in shared source.'
#     enforce: advise
#     declare:
#       mechanism: 'added-only'
#       scope: { source: 'target.path', include: ['^src/', '^test/'] }
#       supply: { pre: 'empty', post: 'empty' }
#       extract:
#         before:
#           - { op: 'source', of: 'pre' }
#           - { op: 'lines' }
#           - { op: 'keyByPattern', re: '(\\.only\\()' }
#         after:
#           - { op: 'source', of: 'post' }
#           - { op: 'lines' }
#           - { op: 'keyByPattern', re: '(\\.only\\()' }
#         added:
#           - { op: 'onlyIn', of: 'after', notIn: 'before' }
#       relate:
#         - id: 'nothing-added'
#           relation: { op: 'empty', of: 'added' }
#           message: 'adds {key}: {value}'
#
#   # 3. The same shape at block: under `--enforce block` (what agent hooks pass) a break
#   #    stops the call.
#   - id: 'no-debugger-statements'
#     why: 'a debugger statement must not reach shared source.'
#     enforce: block
#     declare:
#       mechanism: 'added-only'
#       scope: { source: 'target.path', include: ['^src/'] }
#       supply: { pre: 'empty', post: 'empty' }
#       extract:
#         before:
#           - { op: 'source', of: 'pre' }
#           - { op: 'lines' }
#           - { op: 'keyByPattern', re: '(\\bdebugger\\b)' }
#         after:
#           - { op: 'source', of: 'post' }
#           - { op: 'lines' }
#           - { op: 'keyByPattern', re: '(\\bdebugger\\b)' }
#         added:
#           - { op: 'onlyIn', of: 'after', notIn: 'before' }
#       relate:
#         - id: 'nothing-added'
#           relation: { op: 'empty', of: 'added' }
#           message: 'adds {key}: {value}'
"""


# The starter cases: what the starter config promises, as `pdks test` checks it. The commented
# cases test the config's commented rungs; uncomment both together.
STARTER_TESTS = """\
# Covenant test cases for polydeukes.config.yaml. `pdks test` runs them (docs: testing-disciplines).
# Each case is one agent call and the verdicts it must get; cases never touch this project's files.
cases:
  - name: an ordinary edit goes through
    edit:
      path: README.md
      before: "# The project\\n"
      after: "# The project\\n\\nIt answers 42.\\n"
    expect: {covenant-check: passed}
    exit: 0

  - name: the agent may not rewrite its hook settings
    write: {path: .claude/settings.json, before: "{}\\n", content: "{\\"hooks\\": {}}\\n"}
    expect: {self-mod: blocked}
    exit: 2

  - name: nor reach the hooks through the shell
    bash: "echo 'exit 0' > .claude/hooks/covenant-pretooluse.mjs"
    expect: {shell-mod: blocked}
    exit: 2

  - name: the config protects itself
    edit:
      path: polydeukes.config.yaml
      before: "witness:\\n  token: 'pdks witness'\\n  ttlMinutes: 10\\n"
      after: "{}\\n"
    expect: {self-mod: blocked}
    exit: 2

  - name: a human's fresh witness token opens a block
    write: {path: .claude/settings.json, before: "{}\\n", content: "{\\"hooks\\": {}}\\n"}
    user_says: ["pdks witness"]
    expect: {self-mod: witnessed}
    exit: 0

  - name: a token older than ttlMinutes does not
    write: {path: .claude/settings.json, before: "{}\\n", content: "{\\"hooks\\": {}}\\n"}
    user_says: [{text: "pdks witness", ago: 11m}]
    expect: {self-mod: blocked}
    exit: 2

# The rungs commented out in polydeukes.config.yaml, once adopted (uncomment them with it):
#
#   - name: an added focused test is advised, not blocked
#     edit:
#       path: src/app.test.ts
#       before: "it('adds', () => {});\\n"
#       after: "it.only('adds', () => {});\\n"
#     expect: {no-focused-tests: {event: advised, relate: nothing-added}}
#     exit: 0
#
#   - name: an added debugger statement is blocked
#     write: {path: src/debug.ts, content: "debugger;\\n"}
#     expect: {no-debugger-statements: {event: blocked, message: "adds debugger"}}
#     exit: 2
"""
TESTS_NAME = "polydeukes.tests.yaml"


class InitError(Exception):
    pass


def schema_directive(root: str, name: str = "config") -> str:
    """The editor line naming a shipped schema, relative to the file in the project root (spec
    02 §9) — or nothing when the schema lies outside the project (a global or pipx install):
    the file is committed, and a path out of the project names nothing on another machine."""
    from polydeukes.stdlib import schema_path

    schema = os.path.realpath(schema_path(name))
    relative = os.path.relpath(schema, os.path.realpath(root))
    if not os.path.isfile(schema) or relative == ".." or relative.startswith(".." + os.sep):
        return ""
    return f"# yaml-language-server: $schema={relative.replace(os.sep, '/')}\n"


def run_init(root: str) -> list[str]:
    """Create what is missing; returns the report lines (created first, then skipped)."""
    found = present_config_names(root)
    if len(found) > 1:  # preflight: nothing is written
        raise InitError(
            AMBIGUOUS_CONFIG.format(root=root, found=" and ".join(found)) + " and re-run"
        )
    created: list[str] = []
    skipped: list[str] = []

    config_name = CONFIG_NAMES[0]
    if found:
        skipped.append(found[0])  # presence, never parse success: a broken config is kept
    else:
        _create_exclusive(os.path.join(root, config_name), schema_directive(root) + STARTER_CONFIG)
        created.append(config_name)

    if _ignores_state(os.path.join(root, GITIGNORE)):
        skipped.append(GITIGNORE)
    else:
        _append_ignore(os.path.join(root, GITIGNORE))
        created.append(GITIGNORE)

    # The starter cases test the starter config: written beside a config this run created.
    if os.path.lexists(os.path.join(root, TESTS_NAME)):
        skipped.append(TESTS_NAME)
    elif not found:
        _create_exclusive(os.path.join(root, TESTS_NAME),
                          schema_directive(root, "tests") + STARTER_TESTS)
        created.append(TESTS_NAME)

    return [f"created {p}" for p in created] + [f"skipped {p} (already present)" for p in skipped]


# Where a yarn release or plugin a project pins is kept: a file there is protected through its
# directory, so `yarn set version` (a new file name) stays covered.
_YARN_DIRECTORIES = (".yarn/releases", ".yarn/plugins")


def pinned_yarn_entries(root: str) -> list[str]:
    """The protectedPaths entries that cover the yarn release and plugins the project pins
    (`.yarnrc.yml`'s `yarnPath` and `plugins`, yarn 1's `.yarnrc` `yarn-path`), inside the
    project. Yarn runs that file instead of itself on every command, so the shell axis reads a
    pinned file as code unless it is protected (docs/shell-axis.md): a real release, a 3-4 MB
    bundle, trips the mention rule and would block every yarn command. Protected, it is the
    user's, and an agent cannot replace it. Unreadable or odd files name nothing."""
    named: list[str] = []
    try:
        with open(os.path.join(root, ".yarnrc.yml"), encoding="utf-8") as handle:
            import yaml

            settings = yaml.safe_load(handle.read(1 << 20))
    except Exception:  # noqa: BLE001 - missing, unreadable or not YAML: it pins nothing
        settings = None
    if isinstance(settings, dict):
        if isinstance(settings.get("yarnPath"), str):
            named.append(settings["yarnPath"])
        plugins = settings.get("plugins")
        for plugin in plugins if isinstance(plugins, list) else ():
            path = plugin.get("path") if isinstance(plugin, dict) else plugin
            if isinstance(path, str):
                named.append(path)
    try:
        with open(os.path.join(root, ".yarnrc"), encoding="utf-8") as handle:
            for line in handle.read(1 << 20).splitlines():
                key, _, value = line.strip().partition(" ")
                if key.strip("'\"") == "yarn-path" and value.strip():
                    named.append(value.strip().strip("'\""))
    except (OSError, UnicodeDecodeError):
        pass
    entries: list[str] = []
    real_root = os.path.realpath(root)
    for path in named:
        full = os.path.realpath(os.path.join(root, path))
        if os.path.commonpath([full, real_root]) != real_root or full == real_root:
            continue  # (a release outside the project is not the project's to protect)
        relative = os.path.relpath(full, real_root).replace(os.sep, "/")
        entry = next((d for d in _YARN_DIRECTORIES if relative.startswith(d + "/")), relative)
        if entry not in entries:
            entries.append(entry)
    return entries


def _create_exclusive(path: str, text: str) -> None:
    # O_EXCL: a file that appeared since the check is never overwritten.
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except OSError as exc:
        raise InitError(f"cannot create {os.path.basename(path)}: {exc.strerror or exc}") from None
    with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)


def _ignores_state(path: str) -> bool:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return any(line.strip() == IGNORE_RULE for line in handle)
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise InitError(f"cannot read {GITIGNORE}: {exc.strerror or exc}") from None


def _append_ignore(path: str) -> None:
    try:
        with open(path, "ab") as handle:
            handle.seek(0, os.SEEK_END)
            needs_newline = handle.tell() > 0 and not _ends_with_newline(path)
            block = ("\n" if needs_newline else "") + IGNORE_BLOCK
            handle.write(block.encode("utf-8"))
    except OSError as exc:
        raise InitError(f"cannot write {GITIGNORE}: {exc.strerror or exc}") from None


def _ends_with_newline(path: str) -> bool:
    with open(path, "rb") as handle:
        handle.seek(-1, os.SEEK_END)
        return handle.read(1) == b"\n"
