"""polydeukes.compiler — the cold path: the only place yaml and lark are imported."""

from __future__ import annotations


def compile_config(root: str, config_name: str, config_bytes: bytes, layer_path: str | None = None):
    """Config bytes (and an optional layer) -> LoweredConfig (the plan and its compile faults).

    Raises ConfigError when the config does not load.
    """
    from polydeukes.compiler.config import load_config
    from polydeukes.compiler.lower import lower_config

    return lower_config(load_config(root, config_name, config_bytes, layer_path))
