"""Compile time for configs of 20, 200 and 1,000 declarations, and plan decode time.

    python bench/bench_compile.py

Targets (issue 3): 200 declarations compile in <= 1 s; the plan of 1,000 decodes in <= 5 ms.
The declarations are the `disciplines` worked examples of spec 03 §20 under fresh ids.
Compile time includes loading the grammar's stored Lark parser once, as a cold
`pdks compile` pays it (grammar/declarations.parser.json, compiler/parser_table.py).
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

import yaml

from polydeukes.compiler import compile_config
from polydeukes.vm import planfile

EXAMPLES = Path(__file__).parent.parent / "tests" / "cases" / "declare" / "forms" / "worked_examples.yaml"


def config_of(count: int) -> bytes:
    entries = []
    for case in yaml.safe_load(EXAMPLES.read_text(encoding="utf-8")):
        entries.extend(yaml.safe_load(case["config"]).get("disciplines", []))
    chosen = []
    for i in range(count):
        entry = dict(entries[i % len(entries)])
        entry["id"] = f"{entry['id']}-{i}"
        chosen.append(entry)
    return yaml.safe_dump({"protectedPaths": [".claude/hooks"], "disciplines": chosen}).encode()


def main() -> None:
    for count in (20, 200, 1000):
        raw = config_of(count)
        start = time.perf_counter()
        plan = compile_config("/project", "polydeukes.config.yaml", raw).plan
        compile_seconds = time.perf_counter() - start
        key = planfile.plan_key("polydeukes.config.yaml", raw)
        data = planfile.encode_plan(plan, key)
        decodes = []
        for _ in range(50):
            start = time.perf_counter()
            assert planfile.decode_plan(data, key) is not None
            decodes.append(time.perf_counter() - start)
        print(f"{count:5d} declarations: compile {compile_seconds * 1000:8.1f} ms · "
              f"plan {len(data) / 1024:7.1f} KiB · decode median "
              f"{statistics.median(decodes) * 1000:6.2f} ms")


if __name__ == "__main__":
    main()
