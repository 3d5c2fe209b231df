/**
 * The one JSON Lines reader of the run-log readers. Every line that parses is kept with its
 * 1-based line number in the file (blank lines count, so a message names the line an editor
 * shows). A line that does not parse is, by default, kept as a bad line, so a session reader
 * (Claude Code, Codex CLI) can list it instead of failing; with `strict` (the Gemini CLI,
 * OpenHands and OpenCode streams) it is a {@link LogFormatError} naming the file, the line and
 * the reason, except a cut last line (a killed process), which is dropped.
 *
 * @module
 */
import { LogFormatError } from "../errors.ts";
import { otherEvent } from "../event.ts";
import type { Event } from "../types.ts";

/** One parsed line of a JSONL file. */
export interface JsonlRecord {
  /** 1-based line number in the file. */
  line: number;
  value: unknown;
}

/** A line that is not JSON. */
export interface JsonlBad {
  line: number;
  /** The start of the line, for the message. */
  text: string;
  error: string;
}

/** What {@link parseJsonl} returns. */
export interface Jsonl {
  records: JsonlRecord[];
  bad: JsonlBad[];
}

/** A parsed JSONL file given beside a session: a sub-agent transcript or rollout. */
export interface JsonlFile {
  file: string;
  jsonl: Jsonl;
}

/** How {@link parseJsonl} reads. */
export interface JsonlOptions {
  /** Stop once this many values are parsed. */
  values?: number;
  /** Stop after this many non-blank lines. */
  lines?: number;
  /**
   * Throw on a line that is not JSON, unless it is the last non-blank line (a cut last line is
   * dropped, and listed in `bad`): `file` and `what` ("a JSONL stream") name the log in the
   * message.
   */
  strict?: { file: string; what: string };
}

/**
 * Parses JSON Lines; blank lines are skipped, unparseable lines collected in `bad` (or, with
 * `strict`, an error unless it is the last).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseJsonl } from "./jsonl.ts";
 * const r = parseJsonl('{"a":1}\n\n{"b":2}\n{"c":');
 * assert.ok(r.records.length === 2 && r.records[1].line === 3);
 * assert.ok(r.bad.length === 1 && r.bad[0].line === 4);
 * // strict: the cut last line is dropped, a bad middle line names the file and the line
 * const strict = { file: "run.jsonl", what: "a JSONL stream" };
 * assert.ok(parseJsonl('{"a":1}\n{"c":', { strict }).records.length === 1);
 * assert.throws(() => parseJsonl('{"a":1}\n\n{"c":\n{"d":4}', { strict }), /run\.jsonl: .*line 3/);
 * ```
 */
export function parseJsonl(text: string, options: JsonlOptions = {}): Jsonl {
  const { values = Infinity, lines = Infinity, strict } = options;
  const records: JsonlRecord[] = [];
  const bad: JsonlBad[] = [];
  let start = 0;
  let n = 0;
  let seen = 0;
  while (start <= text.length && records.length < values && seen < lines) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    n++;
    let line = text.slice(start, end);
    if (line.endsWith("\r")) line = line.slice(0, -1);
    if (line.trim()) {
      seen++;
      if (strict && bad.length) {
        throw new LogFormatError(
          strict.file,
          `invalid JSON on line ${bad[0].line} of ${strict.what} (${bad[0].error})`,
        );
      }
      try {
        records.push({ line: n, value: JSON.parse(line) });
      } catch (e) {
        bad.push({
          line: n,
          text: line.slice(0, 60),
          error: e instanceof Error ? e.message : String(e),
        });
      }
    }
    if (end === text.length) break;
    start = end + 1;
  }
  return { records, bad };
}

/**
 * The values of a JSONL log that must be whole but for a cut last line (see `strict` in
 * {@link JsonlOptions}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { jsonlValues } from "./jsonl.ts";
 * assert.deepEqual(jsonlValues('{"a":1}\n{"b":2}\n{"c"', "x.jsonl", "a JSONL log"), [{ a: 1 }, { b: 2 }]);
 * ```
 */
export function jsonlValues(text: string, file: string, what: string): unknown[] {
  return parseJsonl(text, { strict: { file, what } }).records.map((r) => r.value);
}

/**
 * The first few parsed values of a JSONL text (for format probes), without parsing it all: at
 * most `count` values from the first `4 × count` non-blank lines.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { headValues } from "./jsonl.ts";
 * assert.ok(headValues('{"a":1}\nnot json\n{"b":2}\n', 2).length === 2);
 * ```
 */
export function headValues(text: string, count: number): unknown[] {
  return parseJsonl(text, { values: count, lines: count * 4 }).records.map((r) => r.value);
}

/**
 * A bad line of a tolerant session read, listed as an uninterpreted action at `step`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { badLineEvent, parseJsonl } from "./jsonl.ts";
 * const [bad] = parseJsonl('{"a":1}\n{"b"').bad;
 * assert.match(badLineEvent("s.jsonl", bad, 3).note!, /^s\.jsonl:2: invalid JSON \(/);
 * ```
 */
export function badLineEvent(file: string, bad: JsonlBad, step: number): Event {
  return otherEvent(step, "?", bad.text, `${file}:${bad.line}: invalid JSON (${bad.error})`);
}
