/**
 * Checking scored targets against planted truth (`truth/targets.csv` of a simulated corpus,
 * lib/simulate): every planted target must be found with the same decisions, and no other
 * target may appear.
 *
 * @module
 */
import pl from "nodejs-polars";
import { Buffer } from "node:buffer";
import { rowsOf } from "./build.ts";
import type { TargetRow } from "./schema.ts";

/** Columns compared between truth and scored targets. */
export const TRUTH_COLUMNS = [
  "kind",
  "implemented",
  "read",
  "reused",
  "reimplemented",
  "reimplemented_by",
  "file",
  "start",
  "body_start",
  "end",
  "callees",
] as const;

/** Result of {@link checkTruth}. */
export interface TruthCheck {
  /** Planted targets. */
  truth: number;
  /** Scored targets. */
  scored: number;
  /** Planted targets the scorer did not find (keys). */
  missing: string[];
  /** Scored targets that were not planted (keys). */
  extra: string[];
  /** Column → number of targets whose value differs, with up to 5 examples. */
  mismatches: Record<string, { count: number; examples: string[] }>;
  /** True when nothing is missing, extra or different. */
  ok: boolean;
}

const KEYS = ["harness", "model", "memory", "chain", "turn", "target"] as const;

function norm(column: string, v: unknown): string {
  if (v === null || v === undefined) return "";
  const s = String(v);
  // truth names the re-implementing function, the scorer gives its qualified id
  if (column === "reimplemented_by") return s.slice(s.lastIndexOf(".") + 1);
  return s;
}

/**
 * Compares a scored `targets` frame with a truth CSV (same key columns; the columns of
 * {@link TRUTH_COLUMNS} that the truth file has are compared as text, `reimplemented_by` by its
 * last name component).
 */
export async function checkTruth(targets: pl.DataFrame, truthCsv: string): Promise<TruthCheck> {
  const truth = pl.readCSV(Buffer.from(await Deno.readFile(truthCsv)), { inferSchemaLength: 0 });
  const key = (r: Record<string, unknown>) => KEYS.map((k) => String(r[k])).join("|");
  const planted = new Map(
    (truth.toRecords() as Record<string, unknown>[]).map((r) => [key(r), r] as const),
  );
  const scored = new Map(rowsOf<TargetRow>(targets).map((r) => [key({ ...r }), r] as const));
  const columns = TRUTH_COLUMNS.filter((c) => truth.columns.includes(c));
  const out: TruthCheck = {
    truth: planted.size,
    scored: scored.size,
    missing: [],
    extra: [],
    mismatches: {},
    ok: true,
  };
  for (const [k, t] of planted) {
    const g = scored.get(k) as Record<string, unknown> | undefined;
    if (!g) {
      out.missing.push(k);
      continue;
    }
    for (const c of columns) {
      if (norm(c, t[c]) === norm(c, g[c])) continue;
      const m = out.mismatches[c] ??= { count: 0, examples: [] };
      m.count++;
      if (m.examples.length < 5) m.examples.push(`${k}: truth ${t[c]}, scored ${g[c]}`);
    }
  }
  for (const k of scored.keys()) if (!planted.has(k)) out.extra.push(k);
  out.ok = !out.missing.length && !out.extra.length && !Object.keys(out.mismatches).length;
  return out;
}

/** Turn columns compared by {@link checkTurnsTruth}: scored column ← truth column. */
export const TURN_TRUTH_COLUMNS: Record<string, string> = {
  submitted: "submitted",
  n_repo: "n_repo",
  n_self: "n_self",
  tests: "tests",
  passed: "passed",
  resolved: "resolved",
  reimplemented: "reimplemented",
  files: "files_planned",
  lines: "lines_planned",
};

/**
 * Compares a scored `turns` frame with a truth `turns.csv` (planted submissions, target counts,
 * test outcomes, re-implementations, and the planner's Files/Lines), same result shape as
 * {@link checkTruth}. Columns the truth file lacks are skipped.
 */
export async function checkTurnsTruth(turns: pl.DataFrame, truthCsv: string): Promise<TruthCheck> {
  const truth = pl.readCSV(Buffer.from(await Deno.readFile(truthCsv)), { inferSchemaLength: 0 });
  const keys = KEYS.slice(0, 5);
  const key = (r: Record<string, unknown>) => keys.map((k) => String(r[k])).join("|");
  const planted = new Map(
    (truth.toRecords() as Record<string, unknown>[]).map((r) => [key(r), r] as const),
  );
  const scored = new Map(
    (turns.toRecords() as Record<string, unknown>[]).map((r) => [key(r), r] as const),
  );
  const out: TruthCheck = {
    truth: planted.size,
    scored: scored.size,
    missing: [],
    extra: [],
    mismatches: {},
    ok: true,
  };
  const columns = Object.entries(TURN_TRUTH_COLUMNS).filter(([, t]) => truth.columns.includes(t));
  for (const [k, t] of planted) {
    const g = scored.get(k);
    if (!g) {
      out.missing.push(k);
      continue;
    }
    for (const [c, tc] of columns) {
      if (norm(c, t[tc]) === norm(c, g[c])) continue;
      const m = out.mismatches[c] ??= { count: 0, examples: [] };
      m.count++;
      if (m.examples.length < 5) m.examples.push(`${k}: truth ${t[tc]}, scored ${g[c]}`);
    }
  }
  for (const k of scored.keys()) if (!planted.has(k)) out.extra.push(k);
  out.ok = !out.missing.length && !out.extra.length && !Object.keys(out.mismatches).length;
  return out;
}
