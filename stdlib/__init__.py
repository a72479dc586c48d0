"""polydeukes.stdlib — what every plan carries, and the JSON Schemas shipped as package data."""

import os

SCHEMAS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "schemas")
# `pdks schema <name>` -> the shipped file (stdlib/schemas/).
SCHEMA_FILES = {
    "config": "polydeukes.schema.json",
    "tests": "polydeukes-tests.schema.json",
    "input": "covenant-input.schema.json",
}


def schema_path(name: str) -> str:
    return os.path.join(SCHEMAS_DIR, SCHEMA_FILES[name])
