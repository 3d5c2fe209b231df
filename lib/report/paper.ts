/**
 * The paper's published Tables 1–5, read from `data/paper/*.csv` (transcribed exactly; see
 * `data/paper/README.md`).
 *
 * @module
 */
import { MEMORIES as LAYOUT_MEMORIES } from "../layout/mod.ts";

/**
 * Parses RFC 4180 CSV text into records keyed by the header.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseCSV } from "./paper.ts";
 * const rows = parseCSV('a,b\n1,"x, ""y"""\n');
 * assert(rows[0].b === 'x, "y"');
 * ```
 */
export function parseCSV(text: string): Record<string, string>[] {
  const records: string[][] = [];
  let field = "", row: string[] = [], quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(field);
      field = "";
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      records.push(row);
      row = [];
      field = "";
    } else field += ch;
  }
  if (field !== "" || row.length) {
    row.push(field);
    records.push(row);
  }
  const [head, ...body] = records.filter((r) => !(r.length === 1 && r[0] === ""));
  if (!head) return [];
  return body.map((r) => Object.fromEntries(head.map((h, j) => [h, r[j] ?? ""])));
}

/** Directory of the paper's CSVs. */
export const PAPER_DIR = new URL("../../data/paper/", import.meta.url);

const cache = new Map<string, Record<string, string>[]>();

/** Records of `data/paper/table<n>.csv`. */
export function paperRecords(n: 1 | 2 | 3 | 4 | 5): Record<string, string>[] {
  const name = `table${n}.csv`;
  let rows = cache.get(name);
  if (!rows) {
    const url = new URL(name, PAPER_DIR);
    try {
      rows = parseCSV(Deno.readTextFileSync(url));
    } catch (e) {
      throw new Error(
        `cannot read the paper's ${name} at ${url.pathname}: ${(e as Error).message}`,
      );
    }
    cache.set(name, rows);
  }
  return rows;
}

/** A record's numeric fields (all but the listed key fields). */
export function numericFields(
  rec: Record<string, string>,
  keys: readonly string[],
): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const [k, v] of Object.entries(rec)) {
    if (keys.includes(k)) continue;
    const n = Number(v);
    out[k] = v === "" || !Number.isFinite(n) ? null : n;
  }
  return out;
}

/** Paper memory keys → row labels (Tables 4–5). */
export const MEMORY_LABELS: Record<string, string> = {
  none: "No memory",
  interface: "Interface memory",
  source: "Source memory",
};

/** Display label of a memory setting (the setting itself when it has none). */
export function memoryLabel(memory: string): string {
  return MEMORY_LABELS[memory] ?? memory;
}

/** Position of `v` in a paper order (`list.length` for a value the list lacks). */
export function orderIndex(list: readonly string[], v: string): number {
  const i = list.indexOf(v);
  return i < 0 ? list.length : i;
}

/** Paper harness order (Tables 2–3). */
export const HARNESSES = ["mini-SWE-agent", "OpenCode"];
/** Paper model order (Tables 2–3). */
export const MODELS = ["GPT-5.6 Terra", "DeepSeek-v4.1-flash", "Qwen3.7-plus", "GLM-5.3"];
/** Paper memory order (Tables 4–5): lib/layout's config.json memory values, in that order. */
export const MEMORIES: readonly string[] = LAYOUT_MEMORIES;
