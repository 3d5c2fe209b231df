/**
 * The read-but-unused analysis of missed targets (notebook 05, not in the paper).
 *
 * @module
 */

import pl from "nodejs-polars";
import { Chart } from "../display.ts";
import { CHART_CONFIG, OUTCOME_COLORS, OUTCOME_LABELS, percentShare } from "../style.ts";
import { type MissedOutcome, targetOutcome } from "../../metrics/mod.ts";

/** Display labels of the gaps of lib/metrics/outcomes.ts (the classes of `missed_targets`). */
const GAP_LABELS = {
  never_read: OUTCOME_LABELS.never_read,
  read_not_used: OUTCOME_LABELS.read_not_used,
  absent: OUTCOME_LABELS.absent,
} as const satisfies Record<MissedOutcome, string>;

/** Gap classes, in display order. */
export const GAPS = Object.values(GAP_LABELS);
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
 * import { gapOf } from "./unused.ts";
 * if (gapOf({ implemented: true, read: true }) !== "read but not reused") throw new Error();
 * if (gapOf({ implemented: true, read: false }) !== "never read") throw new Error();
 * if (gapOf({ implemented: false, read: false }) !== "absent") throw new Error();
 * ```
 */
export function gapOf(t: { implemented: boolean | null; read: boolean | null }): Gap {
  return GAP_LABELS[targetOutcome({ ...t, reused: false }) as MissedOutcome];
}

/**
 * The missed targets (`reused` false) of a `targets` frame, with two added columns: `gap` (a
 * {@link Gap}) and `size` (a {@link SIZE_BUCKETS} label of `body_lines`). Rows keep the frame's
 * column order and are sorted by the turn keys and target.
 *
 * ```ts
 * import pl from "nodejs-polars";
 * import { classifyMisses } from "./unused.ts";
 * const targets = pl.DataFrame({
 *   harness: ["h", "h", "h"], model: ["m", "m", "m"], memory: ["none", "none", "none"],
 *   chain: ["c", "c", "c"], turn: [2, 2, 2], target: ["a", "b", "c"],
 *   kind: ["repo", "self", "self"], implemented: [true, true, false],
 *   read: [true, true, false], reused: [false, true, false], reimplemented: [true, false, false],
 *   body_lines: [12, 4, null],
 * });
 * const missed = classifyMisses(targets);
 * if (missed.height !== 2) throw new Error();
 * if (missed.getColumn("gap").toArray().join() !== "read but not reused,absent") throw new Error();
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

/** Display order of grouping columns whose values are not sorted alphabetically. */
const KEY_ORDER: Record<string, readonly string[]> = {
  size: [...SIZE_BUCKETS.map((b) => b.label), "unknown"],
  memory: ["none", "interface", "source"],
};

/**
 * Counts missed targets by `by` (one or more columns of {@link classifyMisses}' frame) and gap:
 * one row per group with `missed` and, per gap class, the count and its share of the group
 * (`never read`, `never read %`, …, in %, rounded to 0.1). Groups are sorted; size buckets in bucket
 * order, memory settings in the paper's order (none, interface, source).
 *
 * ```ts
 * import pl from "nodejs-polars";
 * import { gapBreakdown } from "./unused.ts";
 * const missed = pl.DataFrame({ kind: ["repo", "repo", "self", "repo"],
 *   gap: ["never read", "read but not reused", "read but not reused", "never read"] });
 * const t = gapBreakdown(missed, "kind").toRecords();
 * if (t[0].kind !== "repo" || t[0].missed !== 3 || t[0]["never read"] !== 2) throw new Error();
 * if (t[0]["never read %"] !== 66.7) throw new Error(); // rounded to 0.1
 * if (t[1]["read but not reused %"] !== 100) throw new Error();
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
      pl.col(g).cast(pl.Float64).mul(100).div(pl.col("missed").cast(pl.Float64)).round(1)
        .alias(`${g} %`),
    );
  }
  // drop the "absent" columns when no group has any (repo-only analyses)
  if ((out.getColumn("absent").sum() as number) === 0) out = out.drop("absent", "absent %");
  const orderCols = keys.map((k) => `__order_${k}`);
  for (const k of keys) {
    const order = KEY_ORDER[k];
    const col = order
      ? pl.Series(
        `__order_${k}`,
        out.getColumn(k).toArray().map((v) => {
          const i = order.indexOf(String(v));
          return i < 0 ? order.length : i;
        }),
        pl.Int32,
      )
      : out.getColumn(k).alias(`__order_${k}`);
    out = out.withColumns(col);
  }
  return out.sort(orderCols).drop(orderCols);
}

const GAP_COLORS: Record<Gap, string> = {
  "never read": OUTCOME_COLORS[OUTCOME_LABELS.never_read],
  "read but not reused": OUTCOME_COLORS[OUTCOME_LABELS.read_not_used],
  "absent": OUTCOME_COLORS[OUTCOME_LABELS.absent],
};

/** Readable axis and panel titles of the grouping columns. */
const KEY_TITLES: Record<string, string> = {
  turn: "Turn",
  kind: "Target kind",
  size: "Target size (body lines)",
  reimplemented: "Re-implemented",
  memory: "Memory",
  config: "Configuration",
  model: "Model",
  harness: "Harness",
};

/**
 * Stacked bars of missed targets by gap class along one dimension of {@link classifyMisses}' frame
 * (`turn`, `kind`, `size`, `reimplemented`, `model`, …), as shares of the group's missed targets;
 * with `facet`, one panel per value of that column (e.g. `kind`).
 */
export function gapChart(
  missed: pl.DataFrame,
  by: string,
  opts: { facet?: string; title?: string; provenance?: string } = {},
): Chart {
  const keys = opts.facet ? [opts.facet, by] : [by];
  const table = gapBreakdown(missed, keys).toRecords() as Record<string, unknown>[];
  const present = GAPS.filter((g) => g in (table[0] ?? {}));
  const order = [...new Set(table.map((r) => String(r[by])))];
  const values = table.flatMap((r) =>
    present.map((g, i) => ({
      [by]: String(r[by]),
      ...(opts.facet ? { [opts.facet]: String(r[opts.facet]) } : {}),
      gap: g,
      order: i,
      count: r[g] as number,
      share: r[`${g} %`] as number,
      missed: r.missed as number,
    }))
  );
  const byTitle = KEY_TITLES[by] ?? by;
  const t = opts.title ??
    `Missed targets by ${byTitle.toLowerCase()}: never read vs read but not reused`;
  // long category names (configurations) read better as horizontal bars
  const horizontal = order.length > 6 || order.some((v) => v.length > 12);
  const category = {
    field: by,
    type: "ordinal",
    sort: order,
    title: byTitle,
    axis: horizontal ? { labelLimit: 260 } : { labelAngle: 0 },
  };
  const share = percentShare("% of missed targets");
  const inner = {
    ...(horizontal
      ? { width: 220, height: { step: 18 } }
      : { width: Math.max(120, 40 * order.length), height: 200 }),
    mark: "bar",
    encoding: {
      ...(horizontal ? { y: category, x: share } : { x: category, y: share }),
      color: {
        field: "gap",
        type: "nominal",
        title: "Missed target",
        sort: present,
        scale: { domain: present, range: present.map((g) => GAP_COLORS[g]) },
      },
      order: { field: "order", type: "quantitative" },
      tooltip: [
        { field: by },
        ...(opts.facet ? [{ field: opts.facet }] : []),
        { field: "gap" },
        { field: "count" },
        { field: "missed" },
        { field: "share", format: ".1f" },
      ],
    },
  };
  const head = opts.provenance
    ? { text: t, subtitle: `Data: ${opts.provenance}`, subtitleColor: "#b00000" }
    : t;
  return new Chart(
    opts.facet
      ? {
        title: head,
        config: CHART_CONFIG,
        data: { values },
        facet: {
          column: {
            field: opts.facet,
            type: "nominal",
            title: KEY_TITLES[opts.facet] ?? opts.facet,
          },
        },
        spec: inner,
      }
      : { title: head, config: CHART_CONFIG, data: { values }, ...inner },
    t,
  );
}

/** Rows of one gap class of {@link classifyMisses}' frame. */
export function gapIs(gap: string): pl.Expr {
  return pl.col("gap").eq(pl.lit(gap));
}
