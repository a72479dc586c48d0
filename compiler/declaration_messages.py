"""Every message of a `declare` block (spec 03 §9, §15.3, §17.1, §17.2), one named constant each.

Texts are the spec's, verbatim. `{where}` is the spec's `L` = `<loc> declare`. Lists of names
(`{names}`) are formatted from the grammar's vocabulary, quoted and comma-separated
(`'a', 'b'`), so no list of names is spelled here. Positions never appear inside a text.
"""

# -- load time: the block (§17.1) ------------------------------------------------------------------
UNKNOWN_KEY = "unknown key '{key}' in {where}"
MECHANISM_NOT_STRING = "{where} mechanism must be a non-empty string"
EXTRACT_MISSING = "{where} needs an extract block"
RELATE_MISSING = "{where} needs a relate array"

# -- load time: sources ----------------------------------------------------------------------------
SOURCES_NOT_OBJECT = "{where}.sources must be an object"
SOURCES_EMPTY_NAME = "{where}.sources carries an empty source name"
SOURCES_SHADOWS = (
    "{where}.sources.{name} shadows the world's own source of that name — the fixed names are "
    "{names}"
)
BINDING_NOT_OBJECT = "{where}.sources.{name} must be an object naming one kind"
BINDING_KIND_COUNT = "{where}.sources.{name} must name exactly one kind, one of {names}"
BINDING_NOT_TRUE = "{where}.sources.{name}.{kind} must be the literal true"
FILE_NOT_STRING = "{where}.sources.{name}.file must be a non-empty string"
FILE_ABSOLUTE = "{where}.sources.{name}.file must be a repo-relative path, not '{path}'"
FILE_DOT_DOT = "{where}.sources.{name}.file carries a '..' segment: '{path}'"

# -- load time: scope ------------------------------------------------------------------------------
SCOPE_NOT_OBJECT = "{where} scope must be an object"
SCOPE_SOURCE_NOT_STRING = "{where} scope.source must be a non-empty string"
SCOPE_SOURCE_NOT_STRING_VALUED = (
    "{where} scope.source '{source}' is not a string-valued source; scope admits "
    "'target.path', 'pre', 'post', 'command', or a file source"
)
SCOPE_PATTERNS_NOT_STRINGS = "{where} scope.{key} must be an array of strings"
SCOPE_PATTERN_NOT_COMPILABLE = "{where} scope.{key} must be a compilable regular expression"
# (Python design) valid JavaScript that this implementation refuses to run (spec 03 §19.3 #2).
SCOPE_PATTERN_REFUSED = "{where} scope.{key} '{pattern}' is refused: {reason}"
SCOPE_IGNORE_CASE_NOT_BOOLEAN = "{where} scope.excludeIgnoreCase must be a boolean"

# -- load time: supply -----------------------------------------------------------------------------
SUPPLY_NOT_OBJECT = "{where} supply must be an object"
SUPPLY_UNKNOWN_SOURCE = (
    "{where} supply names the source '{source}', which is neither one of {names} and this "
    "declaration binds none"
)
SUPPLY_UNKNOWN_SOURCE_BOUND = (
    "{where} supply names the source '{source}', which is neither one of {names} or {bound}"
)
SUPPLY_POLICY = "{where} supply.{source} is '{value}' — must be one of {names}"
SUPPLY_STATE_EMPTY = (
    "{where} supply.state: 'empty' does not apply to the paired source — it holds a before/after "
    "pair, and an absent pair is not two empty states"
)

# -- load time: extract (`{block}` is `extract` or `witness.extract`) -------------------------------
EXTRACT_NOT_OBJECT = "{where} {block} must be an object"
PIPELINE_NOT_ARRAY = "{where} {block}.{name} must be a non-empty array of steps"
STEP_NOT_OBJECT = "{where} {block}.{name}[{index}] must be an object"
STEP_OP_NOT_STRING = "{where} {block}.{name}[{index}] op must be a non-empty string"
STEP_UNKNOWN_COMBINATOR = (
    "{where} {block}.{name}[{index}] op '{op}' references two extractions but is not one of "
    "{names}"
)
STEP_COMBINATOR_WHERE = "{where} {block}.{name}[{index}] ({op})"  # the unknown-key location
ONLY_IN_SHAPE = "{where} {block}.{name}[{index}] 'onlyIn' takes a string 'of' and a string 'notIn'"
ONLY_IN_SAME = (
    "{where} {block}.{name}[{index}] 'onlyIn' names '{ref}' on both sides — the result is always "
    "empty"
)
PAIR_SHAPE = "{where} {block}.{name}[{index}] '{op}' takes 'of' as two extract names"
PAIR_SAME = (
    "{where} {block}.{name}[{index}] '{op}' names '{ref}' on both sides — the result is that "
    "extraction itself"
)
COMBINATOR_NOT_FIRST = (
    "{where} {block}.{name}[{index}] a combinator stands only as the first step of a pipeline"
)
REFERENCE_UNDEFINED = "{where} {block} '{name}' references '{ref}', which no extract defines"
REFERENCE_CYCLE = "{where} {block} '{name}' takes part in a reference cycle"

# -- load time: relate (`{block}` is `relate` or `witness relate`) -----------------------------------
RELATE_NOT_ARRAY = "{where} {block} must be a non-empty array"
RELATE_ENTRY_NOT_OBJECT = "{where} {block}[{index}] must be an object"
RELATE_ENTRY_WHERE = "{where} {block}[{index}]"  # the unknown-key location
RELATE_ID_NOT_STRING = "{where} {block}[{index}] id must be a non-empty string"
RELATE_DUPLICATE_ID = "{where} {block}[{index}] duplicates the entry id '{id}'"
RELATION_NOT_OBJECT = "{where} {block}[{index}] '{id}' relation must be an object"
RELATION_UNKNOWN_OP = (
    "{where} {block}[{index}] '{id}' relation op is '{op}' — must be one of {names}"
)
RELATION_WHERE = "{where} {block}[{index}] '{id}' relation ({op})"  # the unknown-key location
RELATION_EQUAL_SHAPE = "{where} {block}[{index}] '{id}' relation equal takes 'of' as two extract names"
RELATION_EQUAL_SAME = (
    "{where} {block}[{index}] '{id}' relation equal names '{ref}' on both sides — it can never "
    "break"
)
RELATION_NEEDS_NAME = (
    "{where} {block}[{index}] '{id}' relation {op} needs '{argument}' as an extract name"
)
RELATION_FLAG = "{where} {block}[{index}] '{id}' relation {op} {argument} must be a boolean"
RELATE_UNDEFINED = (
    "{where} {block}[{index}] '{id}' references '{ref}', which no extract in scope defines"
)
MESSAGE_EXACTLY_ONE = (
    "{where} {block}[{index}] '{id}' needs exactly one of 'message' and 'messageBySide'"
)
MESSAGE_NOT_STRING = "{where} {block}[{index}] '{id}' message must be a non-empty string"
MESSAGE_BY_SIDE_RELATION = (
    "{where} {block}[{index}] '{id}' carries messageBySide on {op} — only equal has two sides"
)
MESSAGE_BY_SIDE_NOT_OBJECT = "{where} {block}[{index}] '{id}' messageBySide must be an object"
MESSAGE_BY_SIDE_WHERE = "{where} {block}[{index}] '{id}' messageBySide"  # unknown-key location
MESSAGE_BY_SIDE_SIDES = (
    "{where} {block}[{index}] '{id}' messageBySide needs a non-empty 'left' and 'right'"
)

# -- load time: witness (§14) ----------------------------------------------------------------------
WITNESS_NOT_OBJECT = "{where} witness must be an object"
WITNESS_WHERE = "{where} witness"  # the unknown-key location
WITNESS_SHADOWS = (
    "{where} witness.extract '{name}' shadows the body extract of the same name — the two blocks "
    "share one namespace"
)

# -- load time: the mechanism catalogue (§15.3) ----------------------------------------------------
MECHANISM_UNKNOWN = "{where} mechanism is '{mechanism}' — must be one of {names}"
MECHANISM_RESERVED = (
    "{where} mechanism '{mechanism}' is reserved for the definition-time evaluator, which does "
    "not exist yet"
)
SOURCE_UNKNOWN = (
    "{where} reads the source '{source}', which is neither one of {names} and this declaration "
    "binds none"
)
SOURCE_UNKNOWN_BOUND = (
    "{where} reads the source '{source}', which is neither one of {names} or {bound}"
)
WITNESS_REQUIRED = (
    "{where} mechanism '{mechanism}' needs a witness block — the valve is its whole shape"
)
SCOPE_PINNED_NO_SCOPE = (
    "{where} mechanism '{mechanism}' scopes on '{source}' — this declaration has no scope block"
)
SCOPE_PINNED_OTHER = (
    "{where} mechanism '{mechanism}' scopes on '{source}' — this declaration scopes on '{actual}'"
)
MECHANISM_SHAPE = (
    "{where} mechanism '{mechanism}' expects relations {relations} on axes {axes}; this "
    "declaration relates {declared_relations} on {declared_axes}"
)

# -- load time: the textual form (Python design: the spec has no textual form) ----------------------
TEXT_SYNTAX = "{where} does not read as a declaration: {problem}"
TEXT_UNEXPECTED_TOKEN = "unexpected '{found}' — expected {expected}"
TEXT_UNEXPECTED_END = "the text ends too early — expected {expected}"
TEXT_UNEXPECTED_CHARACTER = "unexpected character '{char}'"
TEXT_DUPLICATE = "'{key}' is written twice"
TEXT_TOO_DEEP = "the text nests too deeply"
TEXT_BAD_ESCAPE = "a double-quoted string carries an escape JSON does not know"

# -- compile faults (§17.2): locations -------------------------------------------------------------
LOCATION_EXTRACT = "{id} {block} {name}"  # block: extract | witness.extract
LOCATION_RELATE = "{id} {block} '{entry}'"  # block: relate | witness relate
LOCATION_SCOPE = "{id} scope"

# -- compile faults (§17.2, §9): reasons -----------------------------------------------------------
FAULT_FIRST_STEP = "a pipeline begins with 'source' or one of {combinators} — found '{op}'"
FAULT_FIRST_STEP_EMPTY = (
    "a pipeline begins with 'source' or one of {combinators} — found an empty pipeline"
)
FAULT_UNKNOWN_STEP = "'{op}' is not a registered extract step — the registry carries {steps}"
FAULT_UNKNOWN_ARGUMENT = "'{op}' does not take the argument '{argument}'"
FAULT_NEEDS_TEXT = "'{op}' needs '{argument}' as a non-empty string"
FAULT_FLAG = "'{op}' takes '{argument}' as a boolean"
FAULT_TOOL_NAMES = "'{op}' takes '{argument}' as an array of tool names"
FAULT_STRING = "'{op}' takes '{argument}' as a string"
FAULT_NOT_COMPILABLE = "'{op}' cannot compile the expression '{pattern}'"
# (Python design) valid JavaScript that this implementation refuses to run (spec 03 §19.3 #2).
FAULT_REFUSED = "'{op}' refuses the expression '{pattern}': {reason}"
FAULT_NO_CAPTURE_GROUP = "'{op}' needs at least one capture group in '{pattern}'"
FAULT_COMBINES_PAIRED = (
    "'{name}' combines '{ref}', which reads a before/after pair — a combinator takes single "
    "extractions"
)
FAULT_UNCHANGED_SINGLE = (
    "'unchanged' compares a before/after pair, and '{ref}' reads a single state"
)
FAULT_RELATION_PAIRED = "'{op}' takes a single extraction, and '{ref}' reads a before/after pair"
FAULT_SCOPE_PATTERN = "cannot compile the expression '{pattern}'"
FILTER_WHEN = "'filter' needs 'when' as an array of predicates"
FILTER_FIELD = "each 'filter' predicate needs a string 'field'"
FILTER_ONE_OPERATOR = "each 'filter' predicate takes exactly one of {operators}"
FILTER_NUMBER = "'filter' predicate '{operator}' compares against a number"
FILTER_VALUES = "'filter' predicate '{operator}' takes an array of values"
