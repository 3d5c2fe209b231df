/**
 * Read-but-unused analysis (notebook 05, not in the paper): every missed reuse target — a target
 * the submission does not call — is classed by the paper's §3.3.2 reading of recall vs reuse:
 *
 * - `never read` — an **exploration gap**: the agent's file reads never overlapped the target's body;
 * - `read, not used` — an **execution gap**: the agent saw the code but did not call it;
 * - `absent` — a self target the agent never implemented in its earlier turn, so there was nothing
 *   to read or call (kept apart so it inflates neither gap).
 *
 * Works on the `targets` frame of `lib/frames/schema.ts`.
 *
 * @module
 */

import pl from "nodejs-polars";

/** Gap classes, in display order. */
export const GAPS = ["never read", "read, not used", "absent"] as const;
/** A gap class. */
export type Gap = typeof GAPS[number];

/** Target-size buckets by body lines, in display order (upper bounds inclusive). */
export const SIZE_BUCKETS: readonly { label: string; max: number }[] = [
  { label: "1-10", max: 10 },
  { label: "11-25", max: 25 },
  { label: "26-50", max: 50 },
  { label: ">50", max: Infinity },
];

/** The size bucket label of a target body of `lines` lines (`"unknown"` for null). */
export function sizeBucket(lines: number | null | undefined): string {
  if (lines == null || !Number.isFinite(lines)) return "unknown";
  return SIZE_BUCKETS.find((b) => lines <= b.max)!.label;
}

/**
 * The gap class of one missed target.
 *
 * ```ts
 * import { gapOf } from "./notebook.ts";
 * if (gapOf({ implemented: true, read: true }) !== "read, not used") throw new Error();
 * if (gapOf({ implemented: true, read: false }) !== "never read") throw new Error();
 * if (gapOf({ implemented: false, read: false }) !== "absent") throw new Error();
 * ```
 */
export function gapOf(t: { implemented: boolean | null; read: boolean | null }): Gap {
  if (t.implemented === false) return "absent";
  return t.read ? "read, not used" : "never read";
}

/**
 * The missed targets (`reused` false) of a `targets` frame, with two added columns: `gap` (a
 * {@link Gap}) and `size` (a {@link SIZE_BUCKETS} label of `body_lines`). Rows keep the frame's
 * column order and are sorted by the turn keys and target.
 *
 * ```ts
 * import pl from "nodejs-polars";
 * import { classifyMisses } from "./notebook.ts";
 * const targets = pl.DataFrame({
 *   harness: ["h", "h", "h"], model: ["m", "m", "m"], memory: ["none", "none", "none"],
 *   chain: ["c", "c", "c"], turn: [2, 2, 2], target: ["a", "b", "c"],
 *   kind: ["repo", "self", "self"], implemented: [true, true, false],
 *   read: [true, true, false], reused: [false, true, false], reimplemented: [true, false, false],
 *   body_lines: [12, 4, null],
 * });
 * const missed = classifyMisses(targets);
 * if (missed.height !== 2) throw new Error();
 * if (missed.getColumn("gap").toArray().join() !== "read, not used,absent") throw new Error();
 * if (missed.getColumn("size").toArray().join() !== "11-25,unknown") throw new Error();
 * ```
 */
export function classifyMisses(targets: pl.DataFrame): pl.DataFrame {
  for (
    const c of ["kind", "implemented", "read", "reused", "reimplemented", "body_lines", "turn"]
  ) {
    if (!targets.columns.includes(c)) {
      throw new Error(
        `classifyMisses: the targets frame has no '${c}' column (see lib/frames/schema.ts)`,
      );
    }
  }
  const missed = targets.filter(pl.col("reused").eq(pl.lit(false)));
  const rows = missed.select("implemented", "read", "body_lines").toRecords() as {
    implemented: boolean | null;
    read: boolean | null;
    body_lines: number | null;
  }[];
  const sortKeys = ["harness", "model", "memory", "chain", "turn", "target"].filter((c) =>
    missed.columns.includes(c)
  );
  return missed
    .withColumns(
      pl.Series("gap", rows.map(gapOf), pl.Utf8),
      pl.Series("size", rows.map((r) => sizeBucket(r.body_lines)), pl.Utf8),
      pl.col("turn").cast(pl.Int32),
    )
    .sort(sortKeys);
}

/**
 * Counts missed targets by `by` (one or more columns of {@link classifyMisses}' frame) and gap:
 * one row per group with `missed` and, per gap class, the count and its share of the group
 * (`never read`, `never read %`, …, in %). Groups are sorted; size buckets in bucket order.
 *
 * ```ts
 * import pl from "nodejs-polars";
 * import { gapBreakdown } from "./notebook.ts";
 * const missed = pl.DataFrame({ kind: ["repo", "repo", "self", "repo"],
 *   gap: ["never read", "read, not used", "read, not used", "never read"] });
 * const t = gapBreakdown(missed, "kind").toRecords();
 * if (t[0].kind !== "repo" || t[0].missed !== 3 || t[0]["never read"] !== 2) throw new Error();
 * if (Math.abs((t[0]["never read %"] as number) - 66.667) > 0.01) throw new Error();
 * if (t[1]["read, not used %"] !== 100) throw new Error();
 * ```
 */
export function gapBreakdown(missed: pl.DataFrame, by: string | string[]): pl.DataFrame {
  const keys = Array.isArray(by) ? by : [by];
  const exprs: pl.Expr[] = [pl.len().cast(pl.Int32).alias("missed")];
  for (const g of GAPS) {
    exprs.push(pl.col("gap").eq(pl.lit(g)).cast(pl.Int32).sum().cast(pl.Int32).alias(g));
  }
  let out = missed.groupBy(keys).agg(...exprs);
  for (const g of GAPS) {
    out = out.withColumns(
      pl.col(g).cast(pl.Float64).mul(100).div(pl.col("missed").cast(pl.Float64)).alias(`${g} %`),
    );
  }
  // drop the "absent" columns when no group has any (repo-only analyses)
  if ((out.getColumn("absent").sum() as number) === 0) out = out.drop("absent", "absent %");
  const rank = (v: unknown) => {
    const i = SIZE_BUCKETS.findIndex((b) => b.label === v);
    return i < 0 ? SIZE_BUCKETS.length : i;
  };
  const orderCols = keys.map((k) => `__order_${k}`);
  for (const k of keys) {
    const col = k === "size"
      ? pl.Series(`__order_${k}`, out.getColumn(k).toArray().map(rank), pl.Int32)
      : out.getColumn(k).alias(`__order_${k}`);
    out = out.withColumns(col);
  }
  return out.sort(orderCols).drop(orderCols);
}
