"""Every user-facing config message of spec 02, verbatim, one named constant per table row.

Positions never appear inside these texts; they travel beside them (diagnostics.ConfigError).
Declaration-level messages (spec 03) live in compiler/declaration_messages.py.
"""

# -- discovery and parsing (spec 02 §1; raised by polydeukes.vm.project) -------------------
PARSE_ONE = "failed to parse {file}: {problem}"
PARSE_MANY = "failed to parse {file}: {count} problems"
INVALID_CONFIG = "invalid config in {file}: "
INVALID_CONFIG_WITH_LAYER = "invalid config in {file} with layer {layer}: "
INVALID_LAYER = "invalid config layer in {layer}: "

# -- top level (§2) --------------------------------------------------------------------------
CONFIG_NOT_OBJECT = "config must be a plain object"
UNKNOWN_KEY = "unknown key '{key}' in {where}"
SCHEMA_NOT_STRING = "$schema must be a string"

# -- languages (§3.1) ------------------------------------------------------------------------
LANGUAGES_NOT_OBJECT = "languages must be an object — to declare no languages, remove the key"
LANGUAGE_NOT_OBJECT = "languages.{key} must be an object"
PRODUCTION_GLOB = (
    "languages.{key}.productionGlob must be a non-empty string or non-empty array of "
    "non-empty strings"
)
TEST_CMD = "languages.{key}.testCmd must be a non-empty string template"

# -- protectedPaths (§3.2) -------------------------------------------------------------------
PROTECTED_NOT_STRINGS = "protectedPaths must be an array of strings"
PROTECTED_EMPTY_STRING = "protectedPaths must not contain an empty string"

# -- adapters (§3.3) -------------------------------------------------------------------------
ADAPTERS_NOT_MAP = (
    "adapters must be an object map of adapter namespaces — the directory-list form was "
    "removed; move directories to protectedPaths"
)
ADAPTER_NOT_OBJECT = "adapters.{name} must be an object"

# -- memory (§3.5) ---------------------------------------------------------------------------
MEMORY_NOT_OBJECT = "memory must be an object"
MEMORY_INCLUDE = "memory.include must be a non-empty array of non-empty strings"
MEMORY_EXCLUDE = "memory.exclude must be an array of non-empty strings"
MEMORY_MAP_NOT_OBJECT = "memory.{field} must be an object"
MEMORY_MAP_VALUE = "memory.{field}.{key} has an invalid value"
MEMORY_LIST_NOT_ARRAY = "memory.{field} must be an array"
MEMORY_RULE_NOT_OBJECT = "{loc} must be an object"
MEMORY_FIELD_NOT_STRING = "{loc}.{field} must be a string"
MEMORY_FIELD_INVALID = "{loc}.{field} is invalid"

# -- telemetry (§3.6) ------------------------------------------------------------------------
TELEMETRY_NOT_OBJECT = "telemetry must be an object"
LOG_PATH_NOT_STRING = "telemetry.logPath must be a string"
LOG_PATH_EMPTY = "telemetry.logPath must be a non-empty string after trimming"

# -- witness (§3.7) --------------------------------------------------------------------------
WITNESS_NOT_OBJECT = "witness must be an object"
WITNESS_TOKEN = "witness.token must be a non-empty string after trimming"
WITNESS_TTL = "witness.ttlMinutes must be a finite number greater than 0"

# -- deadlineSeconds (Python design, beyond 0.8: the hard deadline of every check) -----------
DEADLINE_SECONDS = "deadlineSeconds must be a number of seconds greater than 0 and at most 3600"

# -- discipline entries (§4.3) ---------------------------------------------------------------
LIST_NOT_ARRAY = "{list} must be an array"
ENTRY_NOT_OBJECT = "{list}[{index}] must be an object"
ENTRY_ID = "{list}[{index}].id must be a non-empty string"
DUPLICATE_ID = "{loc} duplicates the id of an earlier entry"
META_LABEL_ID = "{loc} id collides with a meta-covenant label"
# (Python design, spec 03 §1.3) the backstop's label is reserved too: its rows would be ambiguous.
BACKSTOP_LABEL_ID = "{loc} id collides with the shell-unjudgeable registration label"
DRAFT_OUTSIDE_DISCIPLINES = "{loc} a draft belongs in disciplines"
DRAFT_EXTRA_KEY = "{loc} allows only id, why, draft on a draft entry (found '{key}')"
DRAFT_NOT_TRUE = "{loc} draft must be the literal true"
DRAFT_WHY = (
    "{loc} why must be a non-empty string on a draft entry — the prose is its whole body"
)
WHY_NOT_STRING = "{loc} why must be a string"
ENFORCE_VALUE = "{loc} enforce must be 'block' or 'advise'"
DECLARE_NOT_OBJECT = "{loc} declare must be an object"
DECLARE_CARRIES_DISCIPLINE = "{loc} declare must not carry discipline — the entry id is the name"

# -- placement (§7.4) ------------------------------------------------------------------------
PLACEMENT_WRONG_LIST = "{loc} reads {channels}: it belongs in {destination}"
PLACEMENT_IMPOSSIBLE = (
    "{loc} reads {channels}: no surface observes both changes and a session channel"
)
NO_EVIDENCE_CHANNEL = "no evidence channel"

# -- config layers (§8) ----------------------------------------------------------------------
LAYER_NOT_OBJECT = (
    "config layer must be a plain object: a config layer carries only disciplines, "
    "sessionDisciplines, changeSetDisciplines"
)
LAYER_UNKNOWN_KEY = (
    "unknown key '{key}' in config layer: a config layer carries only disciplines, "
    "sessionDisciplines, changeSetDisciplines"
)
