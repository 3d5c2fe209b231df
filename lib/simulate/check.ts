/**
 * Checking scored targets against planted truth (`truth/targets.csv` of a simulated corpus,
 * lib/simulate): every planted target must be found with the same decisions, and no other
 * target may appear. Here, beside the simulator, so that the scoring stack (lib/frames) does not
 * load it.
 *
 * @module
 */
import type pl from "nodejs-polars";
import { rowsOf } from "../frames/mod.ts";
import type { TargetRow } from "../metrics/mod.ts";
import {
  compareTruth,
  type CompareTruthOptions,
  readTruthCsv,
  TARGET_KEYS,
  TRUTH_COLUMNS,
  type TruthComparison,
} from "./truth.ts";

/** Columns compared between truth and scored targets (the simulator's list). */
export { TRUTH_COLUMNS };

/** Result of {@link checkTruth}. */
export interface TruthCheck {
  /** Planted targets. */
  truth: number;
  /** Scored targets. */
  scored: number;
  /** Planted targets found with every compared value equal. */
  matched: number;
  /** Planted targets the scorer did not find (keys). */
  missing: string[];
  /** Scored targets that were not planted (keys). */
  extra: string[];
  /** Column → number of targets whose value differs, with up to 5 examples. */
  mismatches: Record<string, { count: number; examples: string[] }>;
  /** Every differing value (key, column, truth's and the scorer's value), in truth order. */
  differences: TruthComparison["mismatches"];
  /** True when nothing is missing, extra or different. */
  ok: boolean;
}

// truth names the re-implementing function, the scorer gives its qualified id
const lastName = (column: string, v: string) =>
  column === "reimplemented_by" ? v.slice(v.lastIndexOf(".") + 1) : v;

/** Runs lib/simulate's {@link compareTruth} and counts its mismatches by column. */
async function check(
  scored: readonly object[],
  truthCsv: string,
  opts: CompareTruthOptions,
): Promise<TruthCheck> {
  const r = compareTruth(await readTruthCsv(truthCsv), scored, { ...opts, normalize: lastName });
  const mismatches: TruthCheck["mismatches"] = {};
  for (const d of r.mismatches) {
    const m = mismatches[d.column] ??= { count: 0, examples: [] };
    m.count++;
    if (m.examples.length < 5) m.examples.push(`${d.key}: truth ${d.planted}, scored ${d.scored}`);
  }
  return {
    truth: r.planted,
    scored: r.scored,
    matched: r.matched,
    missing: r.missing,
    extra: r.extra,
    mismatches,
    differences: r.mismatches,
    ok: !r.missing.length && !r.extra.length && !r.mismatches.length,
  };
}

/**
 * Compares a scored `targets` frame with a truth CSV (same key columns; the columns of
 * {@link TRUTH_COLUMNS} that the truth file has are compared as text, `reimplemented_by` by its
 * last name component).
 */
export function checkTruth(targets: pl.DataFrame, truthCsv: string): Promise<TruthCheck> {
  return check(rowsOf<TargetRow>(targets), truthCsv, {});
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
export function checkTurnsTruth(turns: pl.DataFrame, truthCsv: string): Promise<TruthCheck> {
  return check(turns.toRecords() as Record<string, unknown>[], truthCsv, {
    keys: TARGET_KEYS.slice(0, 5),
    columns: TURN_TRUTH_COLUMNS,
  });
}
