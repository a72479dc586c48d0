"""polydeukes.vm — the hot path: standard library and msgspec only."""

# The engine version: part of every plan key, so a new engine never trusts an old plan.
ENGINE_VERSION = "0.8.0"
