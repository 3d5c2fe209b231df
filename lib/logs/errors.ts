/**
 * Errors of the run-log readers.
 *
 * @module
 */

/**
 * A log that cannot be read: unknown format, invalid JSON, wrong types. The message names the
 * file and says what is wrong.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LogFormatError } from "./errors.ts";
 * const e = new LogFormatError("runs/a/log.json", "not JSON");
 * assert.ok(e.message === "runs/a/log.json: not JSON");
 * ```
 */
export class LogFormatError extends Error {
  override name = "LogFormatError";
  /** The log file. */
  readonly file: string;
  constructor(file: string, message: string) {
    super(`${file}: ${message}`);
    this.file = file;
  }
}
