/**
 * Reading the planted truth of a simulated corpus (`truth/targets.csv`, `truth/turns.csv`) and
 * comparing it with scored targets: every planted (configuration, chain, turn, target) must be
 * scored with the same kind, implemented, read, reused, reimplemented (and by which function),
 * body location and callee count, and no other target may be scored.
 *
 * @example
 * ```ts
 * import { compareTruth, parseTruthCsv } from "./truth.ts";
 * const truth = parseTruthCsv(
 *   "harness,model,memory,chain,turn,target,kind,implemented,read,reused,reimplemented,callees\n" +
 *     "h,m,interface,c1,1,p.f,repo,true,true,false,false,3\n",
 * );
 * const scored = [{ harness: "h", model: "m", memory: "interface", chain: "c1", turn: 1, target: "p.f",
 *   kind: "repo", implemented: true, read: true, reused: false, reimplemented: false, callees: 3 }];
 * const r = compareTruth(truth, scored);
 * console.assert(r.matched === 1 && r.mismatches.length === 0 && r.extra.length === 0);
 * ```
 * @module
 */

/** One row of a truth CSV (all values as text). */
export type TruthRow = Record<string, string>;

/** Columns compared by {@link compareTruth}. */
export const TRUTH_COLUMNS = [
  "kind",
  "implemented",
  "read",
  "reused",
  "reimplemented",
  "reimplemented_by",
  "file",
  "start",
  "end",
  "body_start",
  "callees",
] as const;

/** Parses a truth CSV (RFC 4180 quoting). */
export function parseTruthCsv(text: string): TruthRow[] {
  const rows: string[][] = [];
  let field = "", row: string[] = [], quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') field += '"', i++;
      else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") row.push(field), field = "";
    else if (ch === "\n") row.push(field), rows.push(row), row = [], field = "";
    else if (ch !== "\r") field += ch;
  }
  if (field !== "" || row.length) row.push(field), rows.push(row);
  const [head, ...body] = rows;
  return body.map((r) => Object.fromEntries(head.map((c, i) => [c, r[i] ?? ""])));
}

/** Reads and parses one truth CSV; errors name the file. */
export async function readTruthCsv(path: string): Promise<TruthRow[]> {
  try {
    return parseTruthCsv(await Deno.readTextFile(path));
  } catch (e) {
    throw new Error(`${path}: ${(e as Error).message}`);
  }
}

/** Reads `<dir>/truth/targets.csv` and `<dir>/truth/turns.csv`. */
export async function readTruth(dir: string): Promise<{ targets: TruthRow[]; turns: TruthRow[] }> {
  return {
    targets: await readTruthCsv(`${dir}/truth/targets.csv`),
    turns: await readTruthCsv(`${dir}/truth/turns.csv`),
  };
}

/** Result of {@link compareTruth}. */
export interface TruthComparison {
  planted: number;
  /** Distinct scored keys. */
  scored: number;
  matched: number;
  /** Planted targets the scorer did not produce (keys). */
  missing: string[];
  /** Scored targets that were not planted (keys). */
  extra: string[];
  mismatches: { key: string; column: string; planted: string; scored: string }[];
}

/** Options of {@link compareTruth}. */
export interface CompareTruthOptions {
  /** Compare only configurations present in the scored rows. */
  onlyScoredConfigs?: boolean;
  /** Columns identifying a row (default: harness, model, memory, chain, turn, target). */
  keys?: readonly string[];
  /**
   * Compared columns as scored column → truth column (default: every {@link TRUTH_COLUMNS} under
   * its own name). A column the truth row lacks is skipped.
   */
  columns?: Readonly<Record<string, string>>;
  /** Maps a value (null/undefined already ""), per scored column, before comparing. */
  normalize?: (column: string, value: string) => string;
}

/** Key columns of a target row. */
export const TARGET_KEYS = ["harness", "model", "memory", "chain", "turn", "target"] as const;

const text = (v: unknown) => v === null || v === undefined ? "" : String(v);

/**
 * Compares planted truth rows with scored rows (`targets` frame rows, any value types, by default;
 * other tables through `keys` and `columns`). Values are compared as text.
 */
export function compareTruth(
  truth: readonly TruthRow[],
  scoredRows: readonly object[],
  opts: CompareTruthOptions = {},
): TruthComparison {
  const keys = opts.keys ?? TARGET_KEYS;
  const columns = Object.entries(
    opts.columns ?? Object.fromEntries(TRUTH_COLUMNS.map((c) => [c, c])),
  );
  const norm = opts.normalize ?? ((_c: string, v: string) => v);
  const keyOf = (r: Record<string, unknown>) => keys.map((k) => r[k]).join(" | ");
  const scored = scoredRows as Record<string, unknown>[];
  const configs = new Set(scored.map((r) => [r.harness, r.model, r.memory].join(" | ")));
  const planted = opts.onlyScoredConfigs
    ? truth.filter((r) => configs.has([r.harness, r.model, r.memory].join(" | ")))
    : truth;
  const byKey = new Map(scored.map((r) => [keyOf(r), r]));
  const out: TruthComparison = {
    planted: planted.length,
    scored: byKey.size,
    matched: 0,
    missing: [],
    extra: [],
    mismatches: [],
  };
  const seen = new Set<string>();
  for (const t of planted) {
    const k = keyOf(t);
    seen.add(k);
    const s = byKey.get(k);
    if (!s) {
      out.missing.push(k);
      continue;
    }
    let ok = true;
    for (const [c, tc] of columns) {
      if (t[tc] === undefined) continue;
      const v = text(s[c]);
      if (norm(c, v) !== norm(c, t[tc])) {
        ok = false;
        out.mismatches.push({ key: k, column: c, planted: t[tc], scored: v });
      }
    }
    if (ok) out.matched++;
  }
  for (const k of byKey.keys()) if (!seen.has(k)) out.extra.push(k);
  return out;
}
