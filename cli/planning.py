"""Obtaining the plan a command runs on: the cached plan.bin when its key matches, else a
fresh compile (spec 05 §8.2). Hot-path safe: the compiler is imported only on a cache miss."""

from __future__ import annotations

import os

from polydeukes.cli import deadline
from polydeukes.vm.plan import Plan
from polydeukes.vm.planfile import PLAN_DIR, PLAN_FILE, plan_key, read_plan, write_plan
from polydeukes.vm.project import ProjectError, discover_config, read_bytes


class PlanUnavailable(Exception):
    """The config cannot be found, read or loaded; ``str(e)`` is the one-line message.

    `config_name` and `config_bytes` are set when exactly one config was found and read but
    did not load: the case the session surface's config repair (spec 05 §3.8) starts from.
    """

    def __init__(self, message: str, config_name: str | None = None,
                 config_bytes: bytes | None = None) -> None:
        super().__init__(message)
        self.config_name = config_name
        self.config_bytes = config_bytes


def obtain_plan(root: str, layer_path: str | None = None, *, refresh: bool = True) -> Plan:
    try:
        name = discover_config(root)
        raw = read_bytes(os.path.join(root, name), name)
    except ProjectError as exc:
        raise PlanUnavailable(str(exc)) from None
    if layer_path is not None:
        # The plan on disk always describes the project config alone (spec 05 §8.3).
        return _compile(root, name, raw, layer_path)
    key = plan_key(name, raw)
    plan = read_plan(root, key)
    if plan is not None:
        return plan
    plan = _compile(root, name, raw, None)
    if refresh:
        try:
            write_plan(root, plan, key)
        except OSError:
            pass  # a read-only project still judges, compiling in memory each run
    return plan


def _compile(root: str, name: str, raw: bytes, layer_path: str | None) -> Plan:
    from polydeukes.compiler import compile_config
    from polydeukes.compiler.diagnostics import ConfigError

    # A check that meets its deadline here says so: a config whose compile alone outlasts the
    # deadline is compiled once by `pdks compile`, which judges nothing and has no deadline.
    deadline.settle_phase(f"compiling {name}")
    try:
        return compile_config(root, name, raw, layer_path).plan
    except ConfigError as exc:
        raise PlanUnavailable(exc.located(), name, raw) from None
    finally:
        deadline.settle_phase(None)


def load_error(root: str, name: str, raw: bytes, layer_path: str | None = None) -> str | None:
    """Why these config bytes (with the layer) do not load; None when they do."""
    from polydeukes.compiler.config import load_config
    from polydeukes.compiler.diagnostics import ConfigError

    try:
        load_config(root, name, raw, layer_path)
    except ConfigError as exc:
        return exc.located()
    return None


def compile_to_disk(root: str) -> tuple[Plan, str]:
    """`pdks compile`: always compiles afresh and writes the plan; returns it and its path."""
    try:
        name = discover_config(root)
        raw = read_bytes(os.path.join(root, name), name)
    except ProjectError as exc:
        raise PlanUnavailable(str(exc)) from None
    plan = _compile(root, name, raw, None)
    try:
        write_plan(root, plan, plan_key(name, raw))
    except OSError as exc:
        raise PlanUnavailable(f"cannot write the plan: {exc.strerror or exc}") from None
    return plan, os.path.join(PLAN_DIR, PLAN_FILE)


def config_label(root: str, path: str) -> str:
    """How a config named by path (`pdks test --config`, `Judge(config=...)`) is called in
    messages and protected: relative to the project root when it lies inside, else absolute."""
    absolute = os.path.abspath(os.path.join(root, path))
    relative = os.path.relpath(absolute, root)
    return absolute if relative.startswith(os.pardir) else relative.replace(os.sep, "/")


def plan_from_file(root: str, path: str) -> Plan:
    """The plan of the config at `path` instead of the project's: compiled in memory, never
    cached in plan.bin (which always describes the project's own config, spec 05 §8.3)."""
    name = config_label(root, path)
    try:
        raw = read_bytes(os.path.join(root, path), name)
    except ProjectError as exc:
        raise PlanUnavailable(str(exc)) from None
    return _compile(root, name, raw, None)
