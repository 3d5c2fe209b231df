/**
 * Which harness wrote a log, against what the configuration says: a log of one harness filed
 * under a configuration of another would be scored under the wrong name. Harness names are free
 * text; a name belongs to a reader's family when, in lower case and without punctuation, it starts
 * with one of the reader's `harnessNames` (the registry, `readers/index.ts`: `claude-code`,
 * `Claude Code`, `codex`, `gemini-cli`, …). An unknown name is never a mismatch.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { harnessMismatch } from "./harness.ts";
 * assert.equal(harnessMismatch("mini-swe-agent", "mini-swe-agent-1.1"), undefined);
 * assert.match(harnessMismatch("OpenCode", "swe-agent") ?? "", /says "OpenCode"/);
 * assert.match(harnessMismatch("claude-code", "codex") ?? "", /Codex CLI/);
 * ```
 * @module
 */
import type { FileSource, ReadsResult } from "./types.ts";
import { LogFormatError } from "./errors.ts";
import { parseLog } from "./parse.ts";
import { readerOf, READERS } from "./readers/index.ts";
import type { LogReader } from "./readers/reader.ts";

const key = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, "");

/** The reader whose family a configured harness name belongs to (the longest name that fits). */
export function harnessFamily(harness: string): LogReader | undefined {
  const h = key(harness);
  let best: { reader: LogReader; n: number } | undefined;
  for (const reader of READERS) {
    for (const n of reader.harnessNames) {
      if (h.startsWith(n) && (!best || n.length > best.n)) best = { reader, n: n.length };
    }
  }
  return best?.reader;
}

/**
 * Why a log of `format` does not belong to a configuration whose harness is `harness`, or
 * undefined when it does (or when the harness is of no known family).
 */
export function harnessMismatch(harness: string, format: string): string | undefined {
  const expected = harnessFamily(harness);
  const actual = readerOf(format);
  // a family may have several readers (Gemini CLI: session recordings and chat exports)
  if (!expected || !actual || expected.harness === actual.harness) return undefined;
  return `the configuration says "${harness}" but this is a ${format} log (${actual.harness}): ` +
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
