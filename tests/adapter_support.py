"""Adapter tests as the user's tools run them: the installer in a git project, then the exact
command it registered, read back from the host's own file and run through `sh -c` with the
host's environment variable and working directory."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
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
    "gemini": ".gemini/settings.json",
    "copilot": ".github/hooks/polydeukes.json",
    "cursor": ".cursor/hooks.json",
    "opencode": ".opencode/plugins/polydeukes.js",
}
ROOT_VARIABLES = {"claude-code": "CLAUDE_PROJECT_DIR", "grok": "GROK_WORKSPACE_ROOT",
                  "gemini": "GEMINI_PROJECT_DIR"}
HOST_VARIABLES = ("POLYDEUKES_TELEMETRY_PATH", "CLAUDE_PROJECT_DIR", "GROK_WORKSPACE_ROOT",
                  "GEMINI_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT")


def clean_env(**extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in HOST_VARIABLES}
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


def installed_in_process(root: Path, host) -> tuple[int, str, str]:
    """The installer in this process (the console script's `init`), in `root`."""
    from polydeukes.stdlib.adapters.install import install as run_installer

    out, err = io.StringIO(), io.StringIO()
    previous = os.getcwd()
    os.chdir(root)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = run_installer(host)
    finally:
        os.chdir(previous)
    return code, out.getvalue(), err.getvalue()


def tree(root: Path) -> dict[str, bytes]:
    """Every file under root (but .git), with its bytes."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and ".git" not in p.relative_to(root).parts}


def install(host: str, root: Path, env: dict | None = None) -> Result:
    return run([str(BIN / f"pdks-{host}"), "init"], root, env=env)


def registered_commands(host: str, root: Path) -> list[str]:
    """Every command the host would run before a tool call, read from its own file (for
    OpenCode, the command its plugin runs with /bin/sh -c)."""
    text = (root / HOST_FILES[host]).read_text(encoding="utf-8")
    if host == "opencode":
        script = json.loads(re.search(r"^const SCRIPT = (.*)$", text, re.M).group(1))
        return [f"/bin/sh -c '{script}'"]
    hooks = json.loads(text)["hooks"]
    if host in ("copilot", "cursor"):  # flat lists of handlers
        key = "bash" if host == "copilot" else "command"
        handlers = [h for event in hooks.values() for h in event]
        commands = [h[key] for h in handlers if "covenant-pretooluse" in h.get(key, "")]
        return sorted(set(commands))  # Cursor runs the same command for two events
    event = "BeforeTool" if host == "gemini" else "PreToolUse"
    return [handler["command"] for entry in hooks[event]
            for handler in entry["hooks"] if "covenant-pretooluse" in handler.get("command", "")]


def as_the_host_expands(host: str, command: str, cwd: str) -> str:
    """The command string as the host hands it to its shell. Gemini CLI substitutes
    `$GEMINI_PROJECT_DIR`, `$GEMINI_CWD` and `$CLAUDE_PROJECT_DIR` in the text, shell-quoted
    (hookRunner.ts expandCommand); a registered command must survive that unchanged."""
    if host != "gemini":
        return command
    quoted = "'" + cwd.replace("'", "'\\''") + "'"
    return re.sub(r"\$(GEMINI_PROJECT_DIR|GEMINI_CWD|CLAUDE_PROJECT_DIR)", lambda m: quoted,
                  command)


def registered_command(host: str, root: Path) -> str:
    commands = registered_commands(host, root)
    assert len(commands) == 1, commands
    return commands[0]


def run_hook(host: str, root: Path, payload: bytes, *, cwd: Path | None = None,
             env: dict | None = None, command: str | None = None) -> Result:
    """The registered command through `sh -c`, as the host spawns it."""
    command = as_the_host_expands(host, command or registered_command(host, root), str(root))
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
