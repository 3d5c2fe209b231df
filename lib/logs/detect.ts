/**
 * Format detection: which harness wrote a log, from its content alone. Every reader of the
 * registry (`readers/index.ts`) tests the log for its format's own required markers; exactly one
 * must claim it. A log no reader claims is refused with one line — "unsupported log format: looks
 * like …" (a known format no reader reads, or what its shape is), the supported formats and
 * `--format` — and a log two readers claim is refused too: detection never guesses.
 *
 * @module
 */
import { LogFormatError } from "./errors.ts";
import { obj, str } from "./readers/common.ts";
import { FORMATS, readerOf, READERS } from "./readers/index.ts";
import { type LogInput, logInput, type LogReader, NOT_JSON } from "./readers/reader.ts";
import { looksLikeUnsupported } from "./readers/unsupported.ts";

export { FORMATS };
/** One of {@link FORMATS}. */
export type Format = string;

/** A log's format, its reader, and the log as the reader reads it. */
export interface Sniffed {
  format: Format;
  reader: LogReader;
  input: LogInput;
}

/** Every reader's claim on a log. */
function claims(input: LogInput): { reader: LogReader; format: string }[] {
  const out: { reader: LogReader; format: string }[] = [];
  for (const reader of READERS) {
    const format = reader.detect(input);
    if (format !== undefined) out.push({ reader, format });
  }
  return out;
}

/** What a log that no reader claims looks like, for the message. */
function shapeOf(input: LogInput): string {
  const v = input.json();
  const keys = (o: Record<string, unknown>) => Object.keys(o).slice(0, 8).join(", ");
  if (v !== NOT_JSON) {
    const o = obj(v);
    if (o) return `a JSON object with keys ${keys(o) || "(none)"}`;
    if (Array.isArray(v)) {
      const first = obj(v.find((x) => obj(x)));
      return first
        ? `a JSON array of ${v.length} values (the first object has keys ${keys(first)})`
        : `a JSON array of ${v.length} values, no object`;
    }
    return `a JSON ${v === null ? "null" : typeof v}`;
  }
  const head = input.head(8);
  if (head.length) {
    const types = [...new Set(head.map((h) => str(obj(h)?.type)).filter((t) => t))];
    const first = obj(head[0]);
    return types.length
      ? `JSON Lines with record types ${types.slice(0, 6).join(", ")}`
      : first
      ? `JSON Lines whose first record has keys ${keys(first)}`
      : "JSON Lines of values that are not objects";
  }
  return `plain text, not JSON (invalid JSON: ${input.jsonError() || "no value"})`;
}

/** The one-line refusal of a log no reader reads. */
function unsupported(input: LogInput): LogFormatError {
  if (/^\s*[[{]/.test(input.text) && input.json() === NOT_JSON && !input.head(1).length) {
    // JSON that does not parse (a cut file): not a format question
    return new LogFormatError(input.file, `invalid JSON (${input.jsonError()})`);
  }
  const known = looksLikeUnsupported(input);
  const what = known
    ? `${known.looksLike}${known.reason ? ` — ${known.reason}` : ""}`
    : shapeOf(input);
  return new LogFormatError(
    input.file,
    `unsupported log format: looks like ${what}. Supported: ${FORMATS.join(", ")} ` +
      `(give --format NAME when the log is one of them; docs/harnesses.md)`,
  );
}

/** A log several readers claim: a label against the shape, or two shapes. */
function ambiguous(
  input: LogInput,
  found: { reader: LogReader; format: string }[],
): LogFormatError {
  const v = obj(input.json());
  const label = str(v?.trajectory_format);
  const labelled = found.find((c) => c.format === label);
  const other = found.find((c) => c !== labelled);
  if (labelled && other) {
    return new LogFormatError(
      input.file,
      `labelled ${labelled.format} (trajectory_format) but shaped like ${other.format} log: a log of another harness?`,
    );
  }
  return new LogFormatError(
    input.file,
    `ambiguous log: it has the markers of ${
      found.map((c) => c.format).join(" and ")
    }; give --format NAME`,
  );
}

/**
 * Detects the format of a log text. Throws {@link LogFormatError} naming the file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sniff } from "./detect.ts";
 * const s = sniff('{"info": {}, "messages": [], "trajectory_format": "mini-swe-agent-1"}', "log.json");
 * assert.ok(s.format === "mini-swe-agent-1" && s.reader.name === "mini-swe-agent");
 * ```
 */
export function sniff(text: string, file: string): Sniffed {
  if (typeof text !== "string") throw new LogFormatError(file, "log content is not text");
  const input = logInput(text, file);
  if (!input.text.trim()) throw new LogFormatError(file, "empty log");
  const found = claims(input);
  if (found.length === 1) return { ...found[0], input };
  if (found.length > 1) throw ambiguous(input, found);
  throw unsupported(input);
}

/**
 * Reads a log text as the given format (`reads --format`): what its reader claims, or what it
 * accepts when told (the JSONL session formats, whose first lines may say nothing); any other
 * log is refused, naming what it reads as.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sniffAs } from "./detect.ts";
 * const s = sniffAs('{"type":"user","message":{"content":"hi"}}\n', "log.jsonl", "claude-code");
 * assert.ok(s.format === "claude-code");
 * ```
 */
export function sniffAs(text: string, file: string, format: Format): Sniffed {
  const reader = readerOf(format);
  if (!reader) {
    throw new LogFormatError(file, `unknown format ${format} (one of ${FORMATS.join(", ")})`);
  }
  const input = logInput(text, file);
  if (!input.text.trim()) throw new LogFormatError(file, "empty log");
  const own = reader.detect(input);
  if (own !== undefined && (own === format || reader.formats.includes(own))) {
    return { format: own === format ? format : own, reader, input };
  }
  if (reader.accepts?.(input, format)) return { format, reader, input };
  if (reader.accepts) throw new LogFormatError(file, `not a ${format} log: no JSON line`);
  const found = claims(input);
  const as = found.length ? found.map((c) => c.format).join(" and ") : undefined;
  throw new LogFormatError(
    file,
    as
      ? `not a ${format} log (it reads as ${as})`
      : `not a ${format} log (${unsupported(input).message.slice(file.length + 2)})`,
  );
}

/**
 * The format of a log text (see {@link FORMATS}); throws {@link LogFormatError} naming the file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { detectFormat } from "./detect.ts";
 * assert.ok(detectFormat('{"trajectory": [], "history": [], "info": {}}', "x.traj") === "swe-agent");
 * let msg = "";
 * try { detectFormat('{"hello": 1}', "runs/x/log.json"); } catch (e) { msg = String(e); }
 * assert.ok(msg.includes("runs/x/log.json") && msg.includes("unsupported log format"));
 * ```
 */
export function detectFormat(text: string, file: string): Format {
  return sniff(text, file).format;
}
