/**
 * Run logs: what the agent actually saw. Readers for mini-SWE-agent (v1, v2), OpenCode (export
 * JSON, `run --format json` JSONL), SWE-agent `.traj`, Claude Code sessions (with their
 * sub-agent files), Codex CLI rollouts, OpenHands (V0 event stream, V1 SDK events), Gemini CLI
 * (session JSON / JSONL) and Aider (LLM history), with format detection; each action
 * becomes an {@link Event}; shell commands are parsed with tree-sitter-bash and only the lines
 * shown to the model are credited.
 *
 * Rules (paper §3.3: Files and Lines):
 * - Lines: the (file, line) pairs printed to the model. With the workspace (`files`), each
 *   pipeline is simulated over the files as they are at that step (the agent's earlier writes in
 *   the turn included) and the simulation is matched against the observed output (line count and
 *   first line, or the block located in the output); the simulation then decides which lines were
 *   shown. Without it (or when the output disagrees), line numbers printed in the output (`nl`,
 *   `cat -n`, `grep -n`, OpenCode `N: `/`00001| `, SWE-agent windows) are used, else the window a
 *   command names (`sed -n 'a,bp'`, `head -n`, `awk NR`) clipped by the output's line count;
 *   what cannot be placed gets `placed: false`.
 * - Harness truncation: mini shows the first and last 5,000 characters of an output of 10,000
 *   or more; only lines at least partly inside those are credited.
 * - A command that failed (non-zero status with output not matching a successful simulation,
 *   a missing file) reads nothing; writes (`>`, heredocs, `tee`, `sed -i`, `cp`, OpenCode
 *   write/edit/patch) are `write` events, never reads.
 * - Files: distinct operands viewed, searched or listed — a file read, a file or directory
 *   grepped, a directory listed (`ls pkg` counts `pkg` once; the workspace root is `.`).
 * - Paths are workspace-relative; anything outside the workspace is ignored and never read. When
 *   no action names a workspace path but an absolute path is a workspace file under another root,
 *   the `cwd` is wrong: `problems` says so (and the scorer does not score the log).
 * - With the workspace known, every line shown goes through one check (`TurnWorkspace.credit`):
 *   credited only for a regular file inside the workspace, a line the file has, and shown text
 *   that is the file's line; anything else is not credited and flags the event `placed: false`.
 *   CRLF line endings read as LF.
 * - Formats come from the registry of readers (`readers/index.ts`): exactly one reader must claim
 *   a log by its format's own markers; any other log is refused ("unsupported log format: looks
 *   like …").
 * - `coverage`: share of actions with no `other` event (not interpretable) and no unplaced read or
 *   search.
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
export { detectFormat, type Format, FORMATS, sniff, sniffAs } from "./detect.ts";
export { sessionFiles } from "./session.ts";
export {
  cwdProblem,
  type InstanceSummary,
  MAX_LOG_BYTES,
  normalizeNewlines,
  parseLog,
  readInstances,
  readLog,
  totals,
} from "./parse.ts";
export { type EvalInstance, evalInstances, layoutInstances } from "./instances.ts";
export { checkLogText, harnessFamily, harnessMismatch, logProblem } from "./harness.ts";
export { FORMATS as READER_FORMATS, readerOf, READERS } from "./readers/index.ts";
export type {
  CollectContext,
  DocRow,
  LogInput,
  LogReader,
  RunPreset,
  Unsupported,
} from "./readers/reader.ts";
export { bundleLog } from "./bundle.ts";
export { type Credit, dirSource, sameLine, type ShownLine, TurnWorkspace } from "./workspace.ts";
export { logBudget, readLogText } from "./files.ts";
export { analyzeShell, bashParser, type ShellObservation } from "./shell/analyze.ts";
export { claudeProjectDir } from "./readers/claude.ts";
export { renderReaders, withGenerated } from "./readers/docs.ts";
export { UNSUPPORTED } from "./readers/unsupported.ts";
export { type LogLabels, type ReadsScore, recall, scoreReads } from "./eval.ts";
