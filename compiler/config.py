"""Loading the project config (and an optional layer) into a ResolvedConfig (spec 02 §1, §8)."""

from __future__ import annotations

import os

from polydeukes.compiler import messages as M
from polydeukes.compiler.diagnostics import ConfigError
from polydeukes.compiler.load import parse_config_text
from polydeukes.compiler.source import SourceMap, Span
from polydeukes.compiler.validate import (
    LIST_NAMES,
    ResolvedConfig,
    define_config,
    define_config_layer,
)
from polydeukes.stdlib.protected import with_config_file
from polydeukes.vm.project import CONFIG_LIMIT
from polydeukes.vm.safeio import read_regular, refusal_text


def decode_text(raw: bytes, label: str) -> str:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        problem = f"the file is not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start})"
        raise ConfigError(M.PARSE_ONE.format(file=label, problem=problem)) from None
    return text[1:] if text.startswith("\ufeff") else text


def parse_document(raw: bytes, label: str) -> tuple[object, SourceMap]:
    data, source_map = parse_config_text(decode_text(raw, label), label)
    # `$schema` is an editor hint, never part of the resolution (spec 02 §1.3).
    if isinstance(data, dict) and "$schema" in data:
        data = {k: v for k, v in data.items() if k != "$schema"}
    return data, source_map


class LayeredSourceMap(SourceMap):
    """Positions for a config merged with a layer: layer entries keep their own file's spans."""

    def __init__(self, base: SourceMap, layer: SourceMap, offsets: dict[str, int]) -> None:
        super().__init__(base.file)
        self.base, self.layer, self.offsets = base, layer, offsets

    def _route(self, path: tuple) -> tuple[SourceMap, tuple]:
        path = tuple(path)
        if len(path) >= 2 and path[0] in self.offsets and isinstance(path[1], int):
            offset = self.offsets[path[0]]
            if path[1] >= offset:
                return self.layer, (path[0], path[1] - offset) + path[2:]
        return self.base, path

    def span(self, path: tuple) -> Span | None:
        source_map, local = self._route(path)
        return source_map.span(local)

    def key_span(self, path: tuple) -> Span | None:
        source_map, local = self._route(path)
        return source_map.key_span(local)

    def text_position(self, path: tuple, offset: int) -> Span | None:
        source_map, local = self._route(path)
        return source_map.text_position(local, offset)

    def graft(self, path: tuple, spans: dict[tuple, Span]) -> None:
        source_map, local = self._route(path)
        source_map.graft(local, spans)


def load_config(
    root: str, config_name: str, config_bytes: bytes, layer_path: str | None = None
) -> ResolvedConfig:
    """Parse, merge, validate and self-protect. Raises ConfigError with the full message."""
    data, source_map = parse_document(config_bytes, config_name)
    if layer_path is None:
        try:
            resolved = define_config(data, source_map, config_name)
        except ConfigError as exc:
            raise exc.wrapped(M.INVALID_CONFIG.format(file=config_name)) from None
    else:
        resolved = _load_with_layer(root, config_name, data, source_map, layer_path)
    protected = with_config_file(resolved.protected_paths, config_name)
    return _replace(resolved, protected_paths=protected)


def resolve_layer_path(root: str, layer_path: str) -> str:
    return os.path.normpath(os.path.join(root, layer_path))


def read_layer(root: str, layer_path: str) -> tuple[str, object, SourceMap]:
    absolute = resolve_layer_path(root, layer_path)
    try:
        raw = read_regular(absolute, limit=CONFIG_LIMIT)
    except OSError as exc:
        raise ConfigError(f"cannot read config layer {absolute}: {refusal_text(exc)}") from None
    data, layer_map = parse_document(raw, absolute)
    try:
        define_config_layer(data, layer_map)
    except ConfigError as exc:
        raise exc.wrapped(M.INVALID_LAYER.format(layer=absolute)) from None
    return absolute, data, layer_map


def merge_layer(data: object, layer: dict) -> tuple[object, dict[str, int]]:
    """Append each layer list after the config's list of the same name (spec 02 §8)."""
    if not isinstance(data, dict):
        return data, {}
    merged = dict(data)
    offsets: dict[str, int] = {}
    for name in LIST_NAMES:
        if name not in layer:
            continue
        base = merged.get(name)
        base_list = base if isinstance(base, list) else []
        if name in merged and not isinstance(base, list):
            continue  # the config's own malformed list is reported by validation
        offsets[name] = len(base_list)
        merged[name] = base_list + list(layer[name])
    return merged, offsets


def _load_with_layer(
    root: str, config_name: str, data: object, source_map: SourceMap, layer_path: str
) -> ResolvedConfig:
    absolute, layer_data, layer_map = read_layer(root, layer_path)
    merged, offsets = merge_layer(data, layer_data if isinstance(layer_data, dict) else {})
    combined = LayeredSourceMap(source_map, layer_map, offsets)
    try:
        return define_config(merged, combined, config_name)
    except ConfigError as exc:
        prefix = M.INVALID_CONFIG_WITH_LAYER.format(file=config_name, layer=absolute)
        raise exc.wrapped(prefix) from None


def _replace(resolved: ResolvedConfig, **changes) -> ResolvedConfig:
    import msgspec

    return msgspec.structs.replace(resolved, **changes)
