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
 * import { LogFormatError } from "./errors.ts";
 * const e = new LogFormatError("runs/a/log.json", "not JSON");
 * console.assert(e.message === "runs/a/log.json: not JSON");
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
