/**
 * Run logs: what the agent actually saw. Readers for mini-SWE-agent (v1, v2), OpenCode (export
 * JSON, `run --format json` JSONL) and SWE-agent `.traj`, with format detection; each action
 * becomes an {@link Event}; shell commands are parsed with tree-sitter-bash and only the lines
 * shown to the model are credited.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseLog } from "./mod.ts";
 * const fence = "`".repeat(3);
 * const log = {
 *   info: {}, trajectory_format: "mini-swe-agent-1",
 *   messages: [
 *     { role: "assistant", content: `${fence}bash\ncat /etc/passwd\n${fence}` },
 *     { role: "user", content: "<returncode>0</returncode>\n<output>\nroot:x:0:0\n</output>" },
 *   ],
 * };
 * const r = await parseLog(JSON.stringify(log), { file: "log.json" });
 * assert.ok(r.lines === 0 && r.files === 0);
 * ```
 * @module
 */
export * from "./types.ts";
export { LogFormatError } from "./errors.ts";
export { countLines, mergeRanges, rangesOf, unionRanges } from "./ranges.ts";
export { detectFormat, type Format, FORMATS, sniff } from "./detect.ts";
export { parseLog, readLog, summarize } from "./parse.ts";
export { dirSource, Workspace } from "./workspace.ts";
export { analyzeShell, bashParser, type ShellObservation } from "./shell/analyze.ts";
