/**
 * Which harness wrote a log, against what the configuration says: a log of one harness filed
 * under a configuration of another would be scored under the wrong name. Harness names are free
 * text; only names of a known family are checked (`mini-SWE-agent`, `OpenCode`, `SWE-agent`, in
 * any case and punctuation), so an unknown name is never a mismatch.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { harnessMismatch } from "./harness.ts";
 * assert.equal(harnessMismatch("mini-swe-agent", "mini-swe-agent-1.1"), undefined);
 * assert.match(harnessMismatch("OpenCode", "swe-agent") ?? "", /says "OpenCode"/);
 * ```
 * @module
 */
import type { FileSource, ReadsResult } from "./types.ts";
import { LogFormatError } from "./errors.ts";
import { parseLog } from "./parse.ts";

/** Log format prefix → the family's display name and its harness name (lower case, alphanumeric). */
const FAMILIES: readonly { format: string; name: string; harness: string }[] = [
  { format: "mini-swe-agent", name: "mini-SWE-agent", harness: "minisweagent" },
  { format: "opencode", name: "OpenCode", harness: "opencode" },
  { format: "swe-agent", name: "SWE-agent", harness: "sweagent" },
];

const key = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, "");

/**
 * Why a log of `format` does not belong to a configuration whose harness is `harness`, or
 * undefined when it does (or when either is not of a known family).
 */
export function harnessMismatch(harness: string, format: string): string | undefined {
  const h = key(harness);
  const expected = FAMILIES.find((f) => h.startsWith(f.harness));
  const actual = FAMILIES.find((f) => format.startsWith(f.format));
  if (!expected || !actual || expected === actual) return undefined;
  return `the configuration says "${harness}" but this is a ${format} log (${actual.name}): ` +
    `a log filed under the wrong configuration?`;
}

/**
 * What keeps a read log from being scored: a harness mismatch, or a problem of the log as a whole
 * (`problems`, e.g. a wrong cwd); undefined when there is none.
 */
export function logProblem(reads: ReadsResult, harness?: string): string | undefined {
  const all = [
    ...(harness === undefined ? [] : [harnessMismatch(harness, reads.format)]),
    ...(reads.problems ?? []),
  ].filter((p): p is string => p !== undefined);
  return all.length ? all.join("; ") : undefined;
}

/**
 * What `validate` checks of a log: its format and, with the workspace W0 (`files`), everything
 * that keeps the scorer from scoring it ({@link logProblem}: a wrong cwd, a log of another
 * harness). Throws a {@link LogFormatError} naming `file`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkLogText } from "./harness.ts";
 * const log = JSON.stringify({ info: {}, messages: [], trajectory_format: "mini-swe-agent-1" });
 * await checkLogText(log, { file: "log.json", harness: "mini-SWE-agent" });
 * await assert.rejects(() => checkLogText(log, { file: "log.json", harness: "OpenCode" }), /says "OpenCode"/);
 * ```
 */
export async function checkLogText(
  text: string,
  opts: { file: string; files?: FileSource; cwd?: string; harness?: string },
): Promise<void> {
  const reads = await parseLog(text, { file: opts.file, files: opts.files, cwd: opts.cwd });
  const problem = logProblem(reads, opts.harness);
  if (problem) throw new LogFormatError(opts.file, problem);
}
