/**
 * Claude Code `claude -p --output-format json` output when verbose mode is on (`--verbose`, or
 * `viewMode: "verbose"` in the settings): one JSON **array** of every stream message, the
 * `result` last — the same messages as `--output-format stream-json`, which the Claude Code
 * reader reads line by line (the Agent SDKs' message stream is that stream too: they run the CLI
 * with `--output-format stream-json --verbose`). Without verbose mode the flag prints the final
 * `result` object only, which holds no tool call and is refused (`unsupported.ts`).
 *
 * The array's messages are read as the lines of a stream: `system`/`init` gives the workspace
 * root (`cwd`), `assistant` messages carry `tool_use` blocks, `user` messages the `tool_result`
 * blocks whose `content` is what the model saw; a sub-agent's messages carry its `Task` / `Agent`
 * call's id in `parent_tool_use_id`.
 *
 * @module
 */
import { obj, str } from "./common.ts";
import { readClaude } from "./claude.ts";
import type { Jsonl } from "./jsonl.ts";
import type { LogReader } from "./reader.ts";

/**
 * True when a parsed value is the verbose `--output-format json` array: a `system` / `init`
 * message among stream messages that each have a `type` and the run's `session_id`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isClaudeJsonArray } from "./claude_json.ts";
 * const init = { type: "system", subtype: "init", session_id: "s", cwd: "/r", tools: [] };
 * assert.ok(isClaudeJsonArray([init, { type: "result", subtype: "success", session_id: "s" }]));
 * assert.ok(!isClaudeJsonArray([{ type: "result", session_id: "s" }]));
 * ```
 */
export function isClaudeJsonArray(v: unknown): v is unknown[] {
  if (!Array.isArray(v) || !v.length) return false;
  const init = v.find((m) => str(obj(m)?.type) === "system" && str(obj(m)?.subtype) === "init");
  if (!init || !("tools" in obj(init)! || "claude_code_version" in obj(init)!)) return false;
  const sid = str(obj(init)!.session_id);
  return sid !== undefined && v.every((m) => {
    const o = obj(m);
    return !!o && typeof o.type === "string" && (!("session_id" in o) || o.session_id === sid);
  });
}

/** The Claude Code headless JSON reader (registry entry). */
export const reader: LogReader = {
  name: "claude-code-json",
  harness: "Claude Code",
  harnessNames: ["claudecode", "claude"],
  formats: ["claude-json"],
  files: ["stdout of `claude -p --output-format json --verbose`"],
  detect: (input) => isClaudeJsonArray(input.json()) ? "claude-json" : undefined,
  async read(input, format, opts) {
    const v = input.json();
    if (!isClaudeJsonArray(v)) throw new Error(`${input.file}: not a Claude Code JSON array`);
    const jsonl: Jsonl = { records: v.map((value, i) => ({ line: i + 1, value })), bad: [] };
    return { ...(await readClaude(jsonl, opts, opts.companions())), format };
  },
  doc: {
    versions:
      '`claude -p --output-format json` with verbose mode on (`--verbose` or `viewMode: "verbose"`): a JSON array of the stream messages (seen on 2.1.x); the Agent SDK message stream saved as such an array. Agent SDK transcripts on disk are Claude Code session JSONL (`~/.claude/projects/…`, or a `SessionStore` mirror of its entries), and its message stream saved one a line is `stream-json`: both read by the `claude-code` reader',
    read:
      "as the Claude Code reader reads `stream-json`: `Read`, `Bash` via the shell analysis, `Grep`, sub-agent messages (`parent_tool_use_id`)",
    search: "`Grep`, `Bash`",
    listing: "`Glob`, `LS`, `Bash`",
    refused:
      "without verbose mode the flag prints only the final `result` object (no tool calls): refused, saying so. Since 2.1.211 a sub-agent's text is forwarded only with `--forward-subagent-text`; the session transcript is complete",
    log:
      "stdout of `claude -p … --output-format json --verbose` (the `claude-code` preset collects the session transcript instead)",
  },
};
