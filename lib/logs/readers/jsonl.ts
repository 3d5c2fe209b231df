/**
 * Tolerant JSON Lines parsing for the session readers (Claude Code, Codex CLI): every line that
 * parses is kept with its 1-based line number; a line that does not (a cut last line, a
 * corrupted middle line) is kept as a bad line, so the reader can list it instead of failing.
 *
 * @module
 */

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

/**
 * Parses JSON Lines; blank lines are skipped, unparseable lines collected in `bad`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseJsonl } from "./jsonl.ts";
 * const r = parseJsonl('{"a":1}\n\n{"b":2}\n{"c":');
 * assert.ok(r.records.length === 2 && r.records[1].line === 3);
 * assert.ok(r.bad.length === 1 && r.bad[0].line === 4);
 * ```
 */
export function parseJsonl(text: string): Jsonl {
  const records: JsonlRecord[] = [];
  const bad: JsonlBad[] = [];
  let start = 0;
  let n = 0;
  while (start <= text.length) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    n++;
    let line = text.slice(start, end);
    if (line.endsWith("\r")) line = line.slice(0, -1);
    if (line.trim()) {
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
 * The first few parsed values of a JSONL text (for format probes), without parsing it all.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { headValues } from "./jsonl.ts";
 * assert.ok(headValues('{"a":1}\nnot json\n{"b":2}\n', 2).length === 2);
 * ```
 */
export function headValues(text: string, count: number): unknown[] {
  const out: unknown[] = [];
  let start = 0;
  let seen = 0;
  while (start < text.length && out.length < count && seen < count * 4) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end).trim();
    if (line) {
      seen++;
      try {
        out.push(JSON.parse(line));
      } catch {
        // probes look at the lines that parse
      }
    }
    start = end + 1;
  }
  return out;
}
