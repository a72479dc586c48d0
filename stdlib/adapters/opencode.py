"""OpenCode: the plugin's tool call as a CovenantInput IR, and the installer.

Console script `pdks-opencode` (`init`, `hook`). OpenCode has no command hooks; it loads the
JavaScript plugins of `.opencode/plugins/` and awaits each plugin's `tool.execute.before(input,
output)` before a tool runs; a handler that throws stops the call, and the error's message is
what the model reads. `init` writes `.opencode/plugins/polydeukes.js`, whose handler runs the
same command every other host registers (so the project's delegator finds the judge exactly as
it does for them) with `{tool, sessionID, callID, args, directory}` on stdin, and throws
`new Error(reason)` unless the hook exits 0, including when it cannot be started, dies or hangs.

Tools: `bash {command}`, `write {filePath, content}`, `edit {filePath, oldString, newString,
replaceAll}` (an empty `oldString` writes `newString` as the whole file), `multiedit {filePath,
edits}`, `apply_patch {patchText}` (V4A, paths relative to `directory`). OpenCode's edit falls
back to approximate matching when the exact text is not found, so an edit whose result cannot be
computed is blocked (adapters/evidence.py). No session.
"""

from __future__ import annotations

import json

from polydeukes.stdlib.adapters import evidence
from polydeukes.stdlib.adapters.runner import Host, PreSpawnFailure, envelope

PLUGIN = ".opencode/plugins/polydeukes.js"
PATCH_TOOL = "apply_patch"
NO_PATCH = "the apply_patch call carries no patchText"
TIMEOUT_MILLISECONDS = 60000

PATHS = ("filePath", "path", "file_path")
_EDIT = {"old": ("oldString", "old_string"), "new": ("newString", "new_string"),
         "replace_all": ("replaceAll", "replace_all"), "empty_old": "write"}
FILE_TOOLS = {
    "write": evidence.FileTool(evidence.WRITE, path=PATHS),
    "edit": evidence.FileTool(evidence.EDIT, path=PATHS, **_EDIT),
    "multiedit": evidence.FileTool(evidence.MULTI_EDIT, path=PATHS, **_EDIT),
}


class OpenCode(Host):
    name = "opencode"
    module = "opencode"
    title = "OpenCode"
    folder = ".opencode"
    root_variable = ""  # the plugin runs the command from the project root it lives in
    registration = PLUGIN
    roster = {"mutating": ["edit", "write", "multiedit", PATCH_TOOL], "shell": ["bash"],
              "commandArgs": ["command"]}
    # The whole plugins folder: another plugin there runs after this one and could rewrite a
    # judged call's arguments. The project's config files: a plugin they name (`"plugin"`,
    # `"plugins"`) is code OpenCode loads at its next start, unjudged.
    gate = (".opencode/hooks", ".opencode/plugins", "opencode.json", "opencode.jsonc",
            ".opencode/opencode.json", ".opencode/opencode.jsonc")
    detect = (".opencode", "opencode.json")

    def translate(self, raw: bytes, root: str) -> dict:
        payload, name, args = envelope(raw, ("tool",), ("args",))
        directory = payload.get("directory")
        cwd = directory if isinstance(directory, str) and directory else None
        if name == PATCH_TOOL:
            patch = args.get("patchText")
            if not isinstance(patch, str):
                raise PreSpawnFailure(NO_PATCH)
            calls = [{"name": PATCH_TOOL, "fileChange": change}
                     for change in evidence.patch_changes(patch, cwd or root, root)]
        else:
            calls = [evidence.tool_call(name, args, cwd, root, FILE_TOOLS)]
            if name in self.roster["shell"]:
                # bash's `workdir` ("use this instead of `cd`"), relative to the directory
                evidence.in_directory(calls[0], cwd, args.get("workdir"))
        return {"toolCalls": calls, "subagentSpawns": [], "userMessages": [],
                "tools": self.roster}

    def register(self, root: str, state: object, command: str) -> list[str]:
        from polydeukes.stdlib.adapters import install

        return [install.write_new(root, PLUGIN, plugin_text(self))]

    def is_registered(self, root: str) -> bool:
        try:
            with open(f"{root}/{PLUGIN}", encoding="utf-8") as handle:
                return json.dumps(_script(self), ensure_ascii=False) in handle.read()
        except (OSError, UnicodeDecodeError):
            return False

    def notes(self) -> list[str]:
        return ["next: OpenCode loads .opencode/plugins/ at start: restart OpenCode in this "
                "project; `pdks docs opencode` explains what is judged"]


_PLUGIN = """\
// polydeukes: the OpenCode plugin, written by `pdks-opencode init`.
//
// OpenCode awaits every plugin's `tool.execute.before` before a tool runs, and a handler that
// throws stops the call. This one hands each call of a judged tool to the project's hook: it
// runs, from the project root (two folders above this file), the command every other host
// registers, which finds .opencode/hooks/covenant-pretooluse.sh and through it the judge, with
// {tool, sessionID, callID, args, directory} on stdin. Exit 0 lets the call run; anything else
// (a block, a hook that cannot start, dies or hangs) throws with the reason the judge gave.
//
// Only node:child_process, node:path and node:url: APIs Bun (OpenCode's runtime) and Node share.
import { spawn } from "node:child_process"
import { dirname, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..")
const JUDGED = new Set(@TOOLS@)
const SCRIPT = @SCRIPT@
const TIMEOUT_MS = @TIMEOUT@

function failed(why) {
  return { code: null, reason: `covenant hook failed closed: ${why}` }
}

function judge(call) {
  return new Promise((settle) => {
    let child
    try {
      // detached: its own process group, so a hook that hangs is killed with all it started
      child = spawn("/bin/sh", ["-c", SCRIPT],
                    { cwd: ROOT, stdio: ["pipe", "ignore", "pipe"], detached: true })
    } catch (error) {
      settle(failed(`cannot start /bin/sh (${error.message})`))
      return
    }
    let stderr = ""
    let done = false
    const finish = (result) => {
      if (done) return
      done = true
      clearTimeout(timer)
      settle(result)
    }
    const timer = setTimeout(() => {
      try { process.kill(-child.pid, "SIGKILL") } catch { child.kill("SIGKILL") }
      finish(failed(`the judge gave no verdict within ${TIMEOUT_MS / 1000} s`))
    }, TIMEOUT_MS)
    child.on("error", (error) => finish(failed(`cannot start the hook (${error.message})`)))
    child.stderr.setEncoding("utf8")
    child.stderr.on("data", (chunk) => { stderr += chunk })
    child.on("close", (code, signal) => finish({
      code,
      reason: stderr.trim() || failed(`the hook ended (${signal ?? code}) without a reason`).reason,
    }))
    child.stdin.on("error", () => {})
    child.stdin.end(JSON.stringify(call))
  })
}

export const Polydeukes = async ({ directory }) => ({
  "tool.execute.before": async (input, output) => {
    if (!JUDGED.has(input.tool)) return
    const { code, reason } = await judge({
      tool: input.tool, sessionID: input.sessionID, callID: input.callID,
      args: output.args, directory,
    })
    if (code !== 0) throw new Error(reason)
  },
})
"""


def plugin_text(host: OpenCode) -> str:
    tools = host.roster["mutating"] + host.roster["shell"]
    return (_PLUGIN.replace("@TOOLS@", json.dumps(tools))
            .replace("@SCRIPT@", json.dumps(_script(host), ensure_ascii=False))
            .replace("@TIMEOUT@", str(TIMEOUT_MILLISECONDS)))


def _script(host: OpenCode) -> str:
    from polydeukes.stdlib.adapters import install

    return install.registered_script(host)


HOST = OpenCode()
hook, main = HOST.entry_points()
