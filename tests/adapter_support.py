"""Adapter tests as the user's tools run them: the installer in a git project, then the exact
command it registered, read back from the host's own file and run through `sh -c` with the
host's environment variable and working directory."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

import yaml

from conftest import PDKS, Result, rows_of

BIN = Path(sys.executable).parent
CASES = Path(__file__).parent / "cases" / "adapters"

# Where each host keeps the command it runs, and the variable it sets to the project root.
HOST_FILES = {
    "claude-code": ".claude/settings.json",
    "codex": ".codex/hooks.json",
    "grok": ".grok/hooks/covenant-pretooluse.json",
}
ROOT_VARIABLES = {"claude-code": "CLAUDE_PROJECT_DIR", "grok": "GROK_WORKSPACE_ROOT"}


def clean_env(**extra: str) -> dict:
    env = {k: v for k, v in os.environ.items()
           if k not in ("POLYDEUKES_TELEMETRY_PATH", "CLAUDE_PROJECT_DIR", "GROK_WORKSPACE_ROOT")}
    env.update(extra)
    return env


def run(argv: list[str], cwd: Path, stdin: bytes = b"", env: dict | None = None,
        log: Path | None = None) -> Result:
    done = subprocess.run(argv, input=stdin, cwd=cwd, env=env or clean_env(),
                          capture_output=True, timeout=120)
    stderr = done.stderr.decode("utf-8")
    assert "Traceback" not in stderr, stderr
    return Result(done.returncode, done.stdout.decode("utf-8"), stderr,
                  rows_of(log) if log is not None else [])


def git_project(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    return root


def install(host: str, root: Path, env: dict | None = None) -> Result:
    return run([str(BIN / f"pdks-{host}"), "init"], root, env=env)


def registered_commands(host: str, root: Path) -> list[str]:
    """Every command the host would run for a PreToolUse call, read from its own file."""
    document = json.loads((root / HOST_FILES[host]).read_text(encoding="utf-8"))
    return [handler["command"] for entry in document["hooks"]["PreToolUse"]
            for handler in entry["hooks"] if "covenant-pretooluse" in handler.get("command", "")]


def registered_command(host: str, root: Path) -> str:
    commands = registered_commands(host, root)
    assert len(commands) == 1, commands
    return commands[0]


def run_hook(host: str, root: Path, payload: bytes, *, cwd: Path | None = None,
             env: dict | None = None, command: str | None = None) -> Result:
    """The registered command through `sh -c`, as the host spawns it."""
    command = command or registered_command(host, root)
    variables = {ROOT_VARIABLES[host]: str(root)} if host in ROOT_VARIABLES else {}
    return run(["sh", "-c", command], cwd or root, payload, env=env or clean_env(**variables),
               log=root / ".polydeukes" / "roi.log")


def check(root: Path, ir: bytes) -> Result:
    """`pdks covenant check --enforce block` with this IR piped in: what the hook must equal."""
    return run([*PDKS, "covenant", "check", "--enforce", "block"], root, ir,
               log=root / ".polydeukes" / "roi.log")


# -- YAML cases ---------------------------------------------------------------------------------


class Ago:
    """`!ago <seconds>`: an ISO timestamp that long before the moment the case runs."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def iso(self) -> str:
        moment = datetime.fromtimestamp(time.time() - self.seconds, tz=timezone.utc)
        return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


class _Loader(yaml.SafeLoader):
    pass


_Loader.add_constructor("!ago", lambda loader, node: Ago(float(loader.construct_scalar(node))))


def load_cases(name: str) -> list[dict]:
    return yaml.load((CASES / name).read_text(encoding="utf-8"), Loader=_Loader)


def materialize(value, places: dict[str, str]):
    """Placeholders filled: `{root}`, `{transcript}`, `{alias}`, … and `!ago` timestamps."""
    if isinstance(value, Ago):
        return value.iso()
    if isinstance(value, str):
        for key, text in places.items():
            value = value.replace("{" + key + "}", text)
        return value
    if isinstance(value, list):
        return [materialize(v, places) for v in value]
    if isinstance(value, dict):
        return {k: materialize(v, places) for k, v in value.items()}
    return value


def transcript_text(path: Path, places: dict[str, str]) -> str:
    """A JSONL fixture with `@AGO:<seconds>@` placeholders turned into ISO timestamps."""
    text = path.read_text(encoding="utf-8")
    while "@AGO:" in text:
        start = text.index("@AGO:")
        end = text.index("@", start + 5)
        text = text[:start] + Ago(float(text[start + 5:end])).iso() + text[end + 1:]
    return materialize(text, places)


def prepare(case: dict, root: Path, scratch: Path) -> dict[str, str]:
    """Lay out the case's project state; returns the placeholders for payload and wants."""
    transcript = scratch / "claude" / "projects" / "-work-project" / "5f1e7c9a-session.jsonl"
    places = {"root": str(root), "transcript": str(transcript), "scratch": str(scratch)}
    if case.get("alias"):
        alias = scratch / "alias"
        alias.symlink_to(root)
        places["alias"] = str(alias)
    config = root / "polydeukes.config.yaml"
    if "config" in case:
        config.write_text(case["config"], encoding="utf-8")
    if "config_append" in case:
        with config.open("a", encoding="utf-8") as handle:
            handle.write("\n" + case["config_append"])
    for name, text in (case.get("files") or {}).items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(materialize(text, places), encoding="utf-8")
    for name in case.get("fifos") or []:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        os.mkfifo(root / name)
    for name in case.get("dirs") or []:
        (root / name).mkdir(parents=True, exist_ok=True)
    if "transcript" in case or "transcript_file" in case:
        transcript.parent.mkdir(parents=True, exist_ok=True)
        lines = []
        if "transcript_file" in case:
            lines.append(transcript_text(CASES / case["transcript_file"], places).rstrip("\n"))
        for entry in materialize(case.get("transcript") or [], places):
            lines.append(entry if isinstance(entry, str) else json.dumps(entry))
        transcript.write_text("\n".join(lines) + "\n", encoding="utf-8")
    if case.get("transcript_fifo"):
        transcript.parent.mkdir(parents=True, exist_ok=True)
        os.mkfifo(transcript)
    for name, record in (case.get("sidecar") or {}).items():
        directory = transcript.with_suffix("") / "subagents"
        directory.mkdir(parents=True, exist_ok=True)
        (directory / name).write_text(record if isinstance(record, str) else json.dumps(record),
                                      encoding="utf-8")
    return places


def reset_state(root: Path) -> None:
    """Forget what a run left (rows, baseline), so a second run starts where the first did."""
    for name in ("roi.log", "baseline.json"):
        try:
            (root / ".polydeukes" / name).unlink()
        except FileNotFoundError:
            pass
