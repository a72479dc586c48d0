"""`define_config`: plain config data -> ResolvedConfig, in spec order (spec 02 §2–§8).

The first failure raises ConfigValidationError with the spec's message and the position of the
value (or key) it is about. Declaration grammar beyond placement is delegated to
compiler/declare.py (spec 03), which raises the same error type.
"""

from __future__ import annotations

import math
from typing import Any

import msgspec

from polydeukes.compiler import messages as M
from polydeukes.compiler.diagnostics import ConfigValidationError
from polydeukes.compiler.source import SourceMap, Span

META_LABELS = ("self-mod", "shell-mod", "transcript-mod")
BACKSTOP_LABEL = "shell-unjudgeable"
LIST_NAMES = ("disciplines", "sessionDisciplines", "changeSetDisciplines")
TOP_LEVEL_KEYS = (
    "$schema", "languages", "protectedPaths", "adapters", "memory", "telemetry", "witness",
    "deadlineSeconds", *LIST_NAMES,
)
# The closed key sets and value sets below are the one definition both this validator and the
# config's JSON Schema (compiler/config_schema.py) are built from.
LANGUAGE_PROFILE_KEYS = ("productionGlob", "testCmd")
TELEMETRY_KEYS = ("logPath",)
WITNESS_KEYS = ("token", "ttlMinutes")
JUDGED_ENTRY_KEYS = ("id", "why", "enforce", "declare")
DRAFT_ENTRY_KEYS = ("id", "why", "draft")
ENFORCE_LEVELS = ("block", "advise")
MAX_DEADLINE_SECONDS = 3600
DEFAULT_LOG_PATH = ".polydeukes/roi.log"
SESSION_CHANNELS = ("transcript", "channel", "command", "actor")
CHANNEL_ORDER = ("transcript", "channel", "command", "actor", "changes")


class Entry(msgspec.Struct, frozen=True):
    """A judged discipline entry as validated; `declare` is carried through intact."""

    list_name: str
    index: int
    id: str
    declare: Any  # the raw declaration data (mapping, or text in the textual form)
    why: str | None = None  # None when the key is absent (`why: ''` stays '')
    enforce: str | None = None  # 'block' | 'advise' | None (absent = advise)
    channels: tuple[str, ...] = ()
    declaration: Any = None  # compiler.nodes.Declaration once the grammar has checked it
    span: Span | None = None

    @property
    def location(self) -> str:
        return entry_location(self.list_name, self.index, self.id)


class Draft(msgspec.Struct, frozen=True):
    index: int
    id: str
    why: str
    span: Span | None = None


class Witness(msgspec.Struct, frozen=True):
    token: str
    ttl_minutes: float


class ResolvedConfig(msgspec.Struct, frozen=True):
    config_name: str
    protected_paths: list[str] | None  # raw as written; the loader appends the config file
    telemetry_log_path: str
    languages: dict[str, Any]
    adapters: dict[str, Any] | None
    memory: dict[str, Any] | None
    witness: Witness | None
    deadline_seconds: float | None  # None: the environment's or the default deadline
    # Absent lists stay None: presence is observable in explain and in layer merging.
    disciplines: list[Entry] | None
    session_disciplines: list[Entry] | None
    change_set_disciplines: list[Entry] | None
    drafts: list[Draft] | None


def entry_location(list_name: str, index: int, entry_id: str) -> str:
    return f"{list_name}[{index}] ('{entry_id}')"


class _Validator:
    def __init__(self, source_map: SourceMap, root_path: tuple = ()) -> None:
        self.source_map = source_map
        self.root = root_path

    def fail(self, message: str, path: tuple, *, key: bool = False) -> ConfigValidationError:
        full = self.root + tuple(path)
        span = self.source_map.key_span(full) if key else self.source_map.span(full)
        return ConfigValidationError(message, span)

    def span(self, path: tuple) -> Span | None:
        return self.source_map.span(self.root + tuple(path))


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _non_empty_string(value: object) -> bool:
    return isinstance(value, str) and value != ""


def _string_list(value: object, *, non_empty_items: bool) -> bool:
    return isinstance(value, list) and all(
        isinstance(item, str) and (item != "" or not non_empty_items) for item in value
    )


def define_config(data: object, source_map: SourceMap, config_name: str) -> ResolvedConfig:
    """Validate parsed config data (with `$schema` already stripped by the loader)."""
    v = _Validator(source_map)
    if not isinstance(data, dict):
        raise v.fail(M.CONFIG_NOT_OBJECT, ())
    for key in data:
        if key not in TOP_LEVEL_KEYS:
            raise v.fail(M.UNKNOWN_KEY.format(key=key, where="config"), (key,), key=True)
    if "$schema" in data and not isinstance(data["$schema"], str):
        raise v.fail(M.SCHEMA_NOT_STRING, ("$schema",))

    languages = _languages(v, data)
    protected = _protected_paths(v, data)
    adapters = _adapters(v, data)
    memory = _memory(v, data)
    lists, drafts = _discipline_lists(v, data)
    log_path = _telemetry(v, data)
    witness = _witness(v, data)
    deadline_seconds = _deadline_seconds(v, data)
    return ResolvedConfig(
        config_name=config_name,
        protected_paths=protected,
        telemetry_log_path=log_path,
        languages=languages,
        adapters=adapters,
        memory=memory,
        witness=witness,
        deadline_seconds=deadline_seconds,
        disciplines=lists["disciplines"],
        session_disciplines=lists["sessionDisciplines"],
        change_set_disciplines=lists["changeSetDisciplines"],
        drafts=drafts,
    )


# -- non-discipline keys --------------------------------------------------------------------


def _languages(v: _Validator, data: dict) -> dict[str, Any]:
    if "languages" not in data:
        return {}
    languages = data["languages"]
    if not isinstance(languages, dict):
        raise v.fail(M.LANGUAGES_NOT_OBJECT, ("languages",))
    for name, profile in languages.items():
        at = ("languages", name)
        if not isinstance(profile, dict):
            raise v.fail(M.LANGUAGE_NOT_OBJECT.format(key=name), at)
        for key in profile:
            if key not in LANGUAGE_PROFILE_KEYS:
                where = f"languages.{name}"
                raise v.fail(M.UNKNOWN_KEY.format(key=key, where=where), at + (key,), key=True)
        glob = profile.get("productionGlob")
        glob_ok = _non_empty_string(glob) or (
            isinstance(glob, list) and glob != [] and all(_non_empty_string(g) for g in glob)
        )
        if not glob_ok:
            raise v.fail(M.PRODUCTION_GLOB.format(key=name), at + ("productionGlob",))
        if not _non_empty_string(profile.get("testCmd")):
            raise v.fail(M.TEST_CMD.format(key=name), at + ("testCmd",))
    return languages


def _protected_paths(v: _Validator, data: dict) -> list[str] | None:
    if "protectedPaths" not in data:
        return None
    paths = data["protectedPaths"]
    if not _string_list(paths, non_empty_items=False):
        raise v.fail(M.PROTECTED_NOT_STRINGS, ("protectedPaths",))
    for i, path in enumerate(paths):
        if path == "":
            raise v.fail(M.PROTECTED_EMPTY_STRING, ("protectedPaths", i))
    return list(paths)


def _adapters(v: _Validator, data: dict) -> dict[str, Any] | None:
    if "adapters" not in data:
        return None
    adapters = data["adapters"]
    if not isinstance(adapters, dict):
        raise v.fail(M.ADAPTERS_NOT_MAP, ("adapters",))
    for name, settings in adapters.items():
        if not isinstance(settings, dict):
            raise v.fail(M.ADAPTER_NOT_OBJECT.format(name=name), ("adapters", name))
    return adapters


def _telemetry(v: _Validator, data: dict) -> str:
    if "telemetry" not in data:
        return DEFAULT_LOG_PATH
    telemetry = data["telemetry"]
    if not isinstance(telemetry, dict):
        raise v.fail(M.TELEMETRY_NOT_OBJECT, ("telemetry",))
    for key in telemetry:
        if key not in TELEMETRY_KEYS:
            where = "telemetry"
            raise v.fail(M.UNKNOWN_KEY.format(key=key, where=where), ("telemetry", key), key=True)
    if "logPath" not in telemetry:
        return DEFAULT_LOG_PATH
    log_path = telemetry["logPath"]
    if not isinstance(log_path, str):
        raise v.fail(M.LOG_PATH_NOT_STRING, ("telemetry", "logPath"))
    if log_path.strip() == "":
        raise v.fail(M.LOG_PATH_EMPTY, ("telemetry", "logPath"))
    return log_path


def _witness(v: _Validator, data: dict) -> Witness | None:
    if "witness" not in data:
        return None
    witness = data["witness"]
    if not isinstance(witness, dict):
        raise v.fail(M.WITNESS_NOT_OBJECT, ("witness",))
    for key in witness:
        if key not in WITNESS_KEYS:
            raise v.fail(M.UNKNOWN_KEY.format(key=key, where="witness"), ("witness", key), key=True)
    token = witness.get("token")
    if not isinstance(token, str) or token.strip() == "":
        raise v.fail(M.WITNESS_TOKEN, ("witness", "token"))
    ttl = witness.get("ttlMinutes")
    if not _is_number(ttl) or not math.isfinite(ttl) or ttl <= 0:
        raise v.fail(M.WITNESS_TTL, ("witness", "ttlMinutes"))
    return Witness(token=token, ttl_minutes=ttl)


# -- memory (§3.5): validated because every command loads the same config --------------------

MEMORY_KEYS = ("include", "exclude", "typeMap", "ticket", "weights", "obligations", "supersedes")
TICKET_KEYS = ("type", "from", "key", "pattern")
TICKET_FROM = ("title", "frontmatter", "path")
OBLIGATION_LINE_KEYS = ("line", "key")
OBLIGATION_SECTION_KEYS = ("section",)
SUPERSEDES_KEYS = ("line", "key", "direction")
DIRECTIONS = ("supersedes", "superseded-by")


def _deadline_seconds(v: _Validator, data: dict) -> float | None:
    """(Python design) The hard deadline of every check, in seconds (docs/security.md)."""
    if "deadlineSeconds" not in data:
        return None
    value = data["deadlineSeconds"]
    if not (_is_number(value) and math.isfinite(value) and 0 < value <= MAX_DEADLINE_SECONDS):
        raise v.fail(M.DEADLINE_SECONDS, ("deadlineSeconds",))
    return float(value)


def _compilable(pattern: str) -> bool:
    from polydeukes.compiler.regex import RegexRefused, translate

    try:
        translate(pattern, reads_group1=False)  # memory patterns are only ever tested
    except RegexRefused:
        return False
    return True


def _memory(v: _Validator, data: dict) -> dict[str, Any] | None:
    if "memory" not in data:
        return None
    memory = data["memory"]
    at = ("memory",)
    if not isinstance(memory, dict):
        raise v.fail(M.MEMORY_NOT_OBJECT, at)
    for key in memory:
        if key not in MEMORY_KEYS:
            raise v.fail(M.UNKNOWN_KEY.format(key=key, where="memory"), at + (key,), key=True)
    include = memory.get("include")
    if not (isinstance(include, list) and include and all(_non_empty_string(g) for g in include)):
        raise v.fail(M.MEMORY_INCLUDE, at + ("include",))
    if "exclude" in memory:
        exclude = memory["exclude"]
        if not (isinstance(exclude, list) and all(_non_empty_string(g) for g in exclude)):
            raise v.fail(M.MEMORY_EXCLUDE, at + ("exclude",))
    if "typeMap" in memory:
        _memory_map(v, memory, "typeMap", _non_empty_string)
    if "ticket" in memory:
        for loc, rule, path in _memory_rules(v, memory, "ticket"):
            _ticket_rule(v, loc, rule, path)
    if "weights" in memory:
        _memory_map(
            v, memory, "weights", lambda w: _is_number(w) and math.isfinite(w) and w >= 0
        )
    if "obligations" in memory:
        for loc, rule, path in _memory_rules(v, memory, "obligations"):
            keys = OBLIGATION_SECTION_KEYS if "section" in rule else OBLIGATION_LINE_KEYS
            _closed_rule(v, loc, rule, path, keys)
            for field in keys:
                _regex_field(v, loc, rule, path, field)
    if "supersedes" in memory:
        for loc, rule, path in _memory_rules(v, memory, "supersedes"):
            _closed_rule(v, loc, rule, path, SUPERSEDES_KEYS)
            _regex_field(v, loc, rule, path, "line")
            _regex_field(v, loc, rule, path, "key")
            if rule.get("direction") not in DIRECTIONS:
                raise v.fail(M.MEMORY_FIELD_INVALID.format(loc=loc, field="direction"),
                             path + ("direction",))
    return memory


def _memory_map(v: _Validator, memory: dict, field: str, valid) -> None:
    value = memory[field]
    if not isinstance(value, dict):
        raise v.fail(M.MEMORY_MAP_NOT_OBJECT.format(field=field), ("memory", field))
    for key, item in value.items():
        if not valid(item):
            raise v.fail(M.MEMORY_MAP_VALUE.format(field=field, key=key), ("memory", field, key))


def _memory_rules(v: _Validator, memory: dict, field: str):
    rules = memory[field]
    if not isinstance(rules, list):
        raise v.fail(M.MEMORY_LIST_NOT_ARRAY.format(field=field), ("memory", field))
    for i, rule in enumerate(rules):
        loc, path = f"memory.{field}[{i}]", ("memory", field, i)
        if not isinstance(rule, dict):
            raise v.fail(M.MEMORY_RULE_NOT_OBJECT.format(loc=loc), path)
        yield loc, rule, path


def _closed_rule(v: _Validator, loc: str, rule: dict, path: tuple, keys: tuple) -> None:
    for key in rule:
        if key not in keys:
            raise v.fail(M.UNKNOWN_KEY.format(key=key, where=loc), path + (key,), key=True)


def _regex_field(v: _Validator, loc: str, rule: dict, path: tuple, field: str) -> None:
    value = rule.get(field)
    if not isinstance(value, str):
        raise v.fail(M.MEMORY_FIELD_NOT_STRING.format(loc=loc, field=field), path + (field,))
    if not _compilable(value):
        raise v.fail(M.MEMORY_FIELD_INVALID.format(loc=loc, field=field), path + (field,))


def _ticket_rule(v: _Validator, loc: str, rule: dict, path: tuple) -> None:
    _closed_rule(v, loc, rule, path, TICKET_KEYS)
    if "type" in rule and not _non_empty_string(rule["type"]):
        raise v.fail(M.MEMORY_FIELD_INVALID.format(loc=loc, field="type"), path + ("type",))
    source = rule.get("from")
    if source not in TICKET_FROM:
        raise v.fail(M.MEMORY_FIELD_INVALID.format(loc=loc, field="from"), path + ("from",))
    # `key` names the frontmatter field, so it is required with `from: frontmatter` only.
    key_ok = _non_empty_string(rule.get("key")) if source == "frontmatter" else "key" not in rule
    if not key_ok:
        raise v.fail(M.MEMORY_FIELD_INVALID.format(loc=loc, field="key"), path + ("key",))
    if "pattern" in rule:
        pattern = rule["pattern"]
        if not isinstance(pattern, str):
            raise v.fail(M.MEMORY_FIELD_NOT_STRING.format(loc=loc, field="pattern"),
                         path + ("pattern",))
        if not _compilable(pattern):
            raise v.fail(M.MEMORY_FIELD_INVALID.format(loc=loc, field="pattern"),
                         path + ("pattern",))


# -- discipline lists (§4, §7) ---------------------------------------------------------------


def _discipline_lists(
    v: _Validator, data: dict
) -> tuple[dict[str, list[Entry] | None], list[Draft] | None]:
    seen_ids: set[str] = set()
    lists: dict[str, list[Entry] | None] = {}
    drafts: list[Draft] = []
    for list_name in LIST_NAMES:
        if list_name not in data:
            lists[list_name] = None
            continue
        raw = data[list_name]
        if not isinstance(raw, list):
            raise v.fail(M.LIST_NOT_ARRAY.format(list=list_name), (list_name,))
        entries: list[Entry] = []
        for index, element in enumerate(raw):
            checked = _entry(v, list_name, index, element, seen_ids)
            if isinstance(checked, Draft):
                drafts.append(checked)
            else:
                entries.append(checked)
        lists[list_name] = entries
    return lists, (drafts or None)


def _entry(v: _Validator, list_name: str, index: int, element: object, seen_ids: set[str]):
    at = (list_name, index)
    if not isinstance(element, dict):
        raise v.fail(M.ENTRY_NOT_OBJECT.format(list=list_name, index=index), at)
    entry_id = element.get("id")
    if not _non_empty_string(entry_id):
        raise v.fail(M.ENTRY_ID.format(list=list_name, index=index), at + ("id",))
    loc = entry_location(list_name, index, entry_id)
    if entry_id in seen_ids:
        raise v.fail(M.DUPLICATE_ID.format(loc=loc), at + ("id",))
    if entry_id in META_LABELS:
        raise v.fail(M.META_LABEL_ID.format(loc=loc), at + ("id",))
    if entry_id == BACKSTOP_LABEL:
        raise v.fail(M.BACKSTOP_LABEL_ID.format(loc=loc), at + ("id",))
    seen_ids.add(entry_id)

    if "draft" in element:
        return _draft(v, list_name, index, element, loc)

    for key in element:
        if key not in JUDGED_ENTRY_KEYS:
            raise v.fail(M.UNKNOWN_KEY.format(key=key, where=loc), at + (key,), key=True)
    why = element.get("why")
    if "why" in element and not isinstance(why, str):
        raise v.fail(M.WHY_NOT_STRING.format(loc=loc), at + ("why",))
    enforce = element.get("enforce")
    if "enforce" in element and enforce not in ENFORCE_LEVELS:
        raise v.fail(M.ENFORCE_VALUE.format(loc=loc), at + ("enforce",))

    declare = element.get("declare")
    channels: tuple[str, ...] = ()
    # Placement comes before the grammar, so a misplaced entry is told where it belongs
    # rather than meeting a grammar error the move would not fix (spec 02 §7.4).
    if isinstance(declare, dict) or (isinstance(declare, str) and _text_reads(declare)):
        channels = tuple(_channels(declare))
        _check_placement(v, list_name, loc, channels, at + ("declare",))
    if not isinstance(declare, (dict, str)):
        raise v.fail(M.DECLARE_NOT_OBJECT.format(loc=loc), at + ("declare",))
    if isinstance(declare, dict) and "discipline" in declare:
        raise v.fail(
            M.DECLARE_CARRIES_DISCIPLINE.format(loc=loc), at + ("declare", "discipline"), key=True
        )
    declaration = _check_declaration(v, declare, f"{loc} declare", at + ("declare",))
    return Entry(
        list_name=list_name,
        index=index,
        id=entry_id,
        declare=declare,
        why=why if "why" in element else None,
        enforce=enforce,
        channels=channels,
        declaration=declaration,
        span=v.span(at),
    )


def _draft(v: _Validator, list_name: str, index: int, element: dict, loc: str) -> Draft:
    at = (list_name, index)
    if list_name != "disciplines":
        raise v.fail(M.DRAFT_OUTSIDE_DISCIPLINES.format(loc=loc), at + ("draft",), key=True)
    for key in element:
        if key not in DRAFT_ENTRY_KEYS:
            raise v.fail(M.DRAFT_EXTRA_KEY.format(loc=loc, key=key), at + (key,), key=True)
    if element["draft"] is not True:
        raise v.fail(M.DRAFT_NOT_TRUE.format(loc=loc), at + ("draft",))
    why = element.get("why")
    if not _non_empty_string(why):
        raise v.fail(M.DRAFT_WHY.format(loc=loc), at + ("why",))
    return Draft(index=index, id=element["id"], why=why, span=v.span(at))


def _channels(declare: object) -> list[str]:
    from polydeukes.compiler.declare import declaration_channels

    return declaration_channels(declare)


def _text_reads(text: str) -> bool:
    """Whether a textual declaration parses: one that does not gets its located syntax error
    from the grammar check instead of a placement verdict derived from nothing."""
    from polydeukes.compiler.parse import TextSyntaxError, parse_text

    try:
        parse_text(text)
    except (TextSyntaxError, RecursionError):
        return False
    return True


def _check_placement(
    v: _Validator, list_name: str, loc: str, channels: tuple[str, ...], path: tuple
) -> None:
    session = any(c in SESSION_CHANNELS for c in channels)
    changes = "changes" in channels
    rendered = ", ".join(channels) if channels else M.NO_EVIDENCE_CHANNEL
    if session and changes:
        raise v.fail(M.PLACEMENT_IMPOSSIBLE.format(loc=loc, channels=rendered), path, key=True)
    if session:
        destination = "sessionDisciplines"
    elif changes:
        destination = "changeSetDisciplines"
    else:
        destination = "disciplines"
    if destination != list_name:
        raise v.fail(
            M.PLACEMENT_WRONG_LIST.format(loc=loc, channels=rendered, destination=destination),
            path,
            key=True,  # the entry's `declare` key: what the message is about is the whole body
        )


def _check_declaration(v: _Validator, declare: object, where: str, path: tuple):
    from polydeukes.compiler.declare import check_declaration

    return check_declaration(declare, where=where, path=v.root + path, source_map=v.source_map)


# -- config layers (§8) ----------------------------------------------------------------------


def define_config_layer(data: object, source_map: SourceMap) -> dict[str, Any]:
    """Validate a layer on its own; returns the lists it carries, as given."""
    v = _Validator(source_map)
    if not isinstance(data, dict):
        raise v.fail(M.LAYER_NOT_OBJECT, ())
    for key in data:
        if key not in LIST_NAMES and key != "$schema":
            raise v.fail(M.LAYER_UNKNOWN_KEY.format(key=key), (key,), key=True)
    if "$schema" in data and not isinstance(data["$schema"], str):
        raise v.fail(M.SCHEMA_NOT_STRING, ("$schema",))
    _discipline_lists(v, data)
    return {name: data[name] for name in LIST_NAMES if name in data}
