/**
 * The one way the log readers read files from disk: a regular file (never a FIFO, a device or a
 * directory: `/dev/zero` would never end, a FIFO would wait for a writer) of bounded size, and for
 * a log made of several files (an OpenHands conversation directory, a session with its sub-agent
 * sessions) a bounded total. Every failure is a {@link LogFormatError} naming the file.
 *
 * @module
 */
import { LogFormatError } from "./errors.ts";
import { readBounded } from "../util/mod.ts";

/** Largest log read: 256 MiB in one file, and in all the files of one log together. */
export const MAX_LOG_BYTES = 256 * 2 ** 20;

/** What is left to read of one log's files (shared by the parts of a log made of many). */
export interface LogBudget {
  /** The log as a whole (a directory or the session file), for the message. */
  log: string;
  left: number;
}

/** A budget of {@link MAX_LOG_BYTES} for the files of one log. */
export function logBudget(log: string, bytes = MAX_LOG_BYTES): LogBudget {
  return { log, left: bytes };
}

const mib = (n: number) => `${Math.round(n / 2 ** 20 * 10) / 10} MiB`;

/**
 * A log file's bytes as text (invalid UTF-8 replaced): a regular file within the limit and, with
 * a budget, within what is left of it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { logBudget, readLogText } from "./files.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/a.json`, "[1]");
 * assert.equal(readLogText(`${dir}/a.json`), "[1]");
 * assert.throws(() => readLogText(dir), /: cannot read the file: not a regular file/);
 * const budget = logBudget(dir, 5);
 * readLogText(`${dir}/a.json`, budget);
 * assert.throws(() => readLogText(`${dir}/a.json`, budget), /its files are over the 256 MiB limit of one log/);
 * ```
 */
export function readLogText(path: string, budget?: LogBudget): string {
  const over = () =>
    new LogFormatError(
      budget!.log,
      `its files are over the ${mib(MAX_LOG_BYTES)} limit of one log (at ${path})`,
    );
  let bytes: Uint8Array;
  try {
    // a file within the limit but past what is left of the log's: refused before it is read
    const info = Deno.statSync(path);
    if (budget && info.isFile && info.size <= MAX_LOG_BYTES && info.size > budget.left) {
      throw over();
    }
    bytes = readBounded(path, MAX_LOG_BYTES);
  } catch (e) {
    if (e instanceof LogFormatError) throw e;
    throw new LogFormatError(path, `cannot read the file: ${e instanceof Error ? e.message : e}`);
  }
  if (budget) {
    if (bytes.length > budget.left) throw over();
    budget.left -= bytes.length;
  }
  return new TextDecoder("utf-8", { fatal: false }).decode(bytes);
}

/**
 * Refuses a log made of `files` whose sizes add up to more than the budget, before any is read
 * (a LogFormatError naming the log); files that cannot be stat'ed are left to the read.
 */
export function checkTotal(files: readonly string[], budget: LogBudget): void {
  let total = 0;
  for (const f of files) {
    try {
      total += Deno.statSync(f).size;
    } catch {
      // reported when read
    }
  }
  if (total > budget.left) {
    throw new LogFormatError(
      budget.log,
      `its files are over the ${mib(MAX_LOG_BYTES)} limit of one log (${
        mib(total)
      } in ${files.length} files)`,
    );
  }
}

/** The first `bytes` of a regular file as text ("" when it is not one or cannot be read). */
export function readLogHead(path: string, bytes: number): string {
  try {
    if (!Deno.statSync(path).isFile) return "";
    const f = Deno.openSync(path);
    try {
      const buf = new Uint8Array(bytes);
      const n = f.readSync(buf) ?? 0;
      return new TextDecoder("utf-8", { fatal: false }).decode(buf.subarray(0, n));
    } finally {
      f.close();
    }
  } catch {
    // an unreadable file has no head to sniff: detection sees nothing
    return "";
  }
}
