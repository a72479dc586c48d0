// JavaScript's own answer for the regex differential (tests/test_regex_js.py).
//
// Reads JSON lines {"re": pattern, "flags": "" | "i", "subject": text} on stdin and writes one
// JSON line per input, in order, as soon as it is computed (so one process serves a whole
// session, batch or interactive):
//   {"error": "<SyntaxError message>"}                         the RegExp constructor refused
//   {"groups": N, "match": null}                               no match
//   {"groups": N, "match": [[start, end, text] | null, ...]}   group 0 first; null = unset group
// Spans are UTF-16 code-unit offsets, as JavaScript counts them. The `d` flag only records the
// spans; it changes nothing about what matches. No npm packages: node's standard library only.
import { createInterface } from "node:readline";

function judge({ re, flags, subject }) {
  let rx;
  try {
    rx = new RegExp(re, flags + "d");
  } catch (e) {
    return { error: String(e.message) };
  }
  // Capturing groups counted without matching: an empty alternative always matches "".
  const groups = new RegExp(`(?:${re})|`, flags).exec("").length - 1;
  const m = rx.exec(subject);
  if (m === null) return { groups, match: null };
  const match = [];
  for (let n = 0; n < m.length; n++) {
    match.push(m[n] === undefined ? null : [m.indices[n][0], m.indices[n][1], m[n]]);
  }
  return { groups, match };
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (line.trim() === "") continue;
  process.stdout.write(JSON.stringify(judge(JSON.parse(line))) + "\n");
}
