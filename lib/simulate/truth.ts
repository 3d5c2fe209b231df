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

/** Reads `<dir>/truth/targets.csv` and `<dir>/truth/turns.csv`. */
export async function readTruth(dir: string): Promise<{ targets: TruthRow[]; turns: TruthRow[] }> {
  const read = async (name: string) => {
    try {
      return parseTruthCsv(await Deno.readTextFile(`${dir}/truth/${name}`));
    } catch (e) {
      throw new Error(`${dir}/truth/${name}: ${(e as Error).message}`);
    }
  };
  return { targets: await read("targets.csv"), turns: await read("turns.csv") };
}

/** Result of {@link compareTruth}. */
export interface TruthComparison {
  planted: number;
  matched: number;
  /** Planted targets the scorer did not produce (keys). */
  missing: string[];
  /** Scored targets that were not planted (keys). */
  extra: string[];
  mismatches: { key: string; column: string; planted: string; scored: string }[];
}

const keyOf = (r: Record<string, unknown>) =>
  [r.harness, r.model, r.memory, r.chain, r.turn, r.target].join(" | ");

/**
 * Compares planted truth rows with scored target rows (`targets` frame rows, any value types).
 * Only configurations present in the scored rows are compared when `onlyScoredConfigs` is set.
 */
export function compareTruth(
  truth: TruthRow[],
  scoredRows: readonly object[],
  opts: { onlyScoredConfigs?: boolean } = {},
): TruthComparison {
  const scored = scoredRows as Record<string, unknown>[];
  const configs = new Set(scored.map((r) => [r.harness, r.model, r.memory].join(" | ")));
  const planted = opts.onlyScoredConfigs
    ? truth.filter((r) => configs.has([r.harness, r.model, r.memory].join(" | ")))
    : truth;
  const byKey = new Map(scored.map((r) => [keyOf(r), r]));
  const out: TruthComparison = {
    planted: planted.length,
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
    for (const c of TRUTH_COLUMNS) {
      if (t[c] === undefined) continue;
      const v = s[c] === null || s[c] === undefined ? "" : String(s[c]);
      if (v !== t[c]) {
        ok = false;
        out.mismatches.push({ key: k, column: c, planted: t[c], scored: v });
      }
    }
    if (ok) out.matched++;
  }
  for (const k of byKey.keys()) if (!seen.has(k)) out.extra.push(k);
  return out;
}
