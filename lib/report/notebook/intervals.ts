/**
 * Intervals and paired comparisons as frames and charts (notebooks 02, 04, 07).
 *
 * @module
 */

import pl from "nodejs-polars";
import { configId, type Metric, METRICS, PERCENT_METRICS } from "../aggregate.ts";
import type { CellInterval, PairedComparison } from "../ci.ts";
import { Chart } from "../display.ts";
import { fmt } from "../table.ts";

/** Digits a metric is shown with. */
function digitsOf(m: Metric): number {
  return m === "lines" ? 0 : 1;
}

/**
 * The cluster-bootstrap intervals of `cellIntervals()` as a wide frame: one row per configuration,
 * one text column per metric, `estimate [low, high]`.
 */
export function intervalFrame(
  cells: readonly CellInterval[],
  metrics: readonly Metric[] = METRICS,
): pl.DataFrame {
  const rows = new Map<string, Record<string, unknown>>();
  for (const c of cells) {
    if (!metrics.includes(c.metric)) continue;
    const id = configId(c.config);
    const row = rows.get(id) ??
      {
        harness: c.config.harness,
        model: c.config.model,
        memory: c.config.memory,
        chains: c.chains,
      };
    const d = digitsOf(c.metric);
    const i = c.interval;
    row[c.metric] = `${fmt(i.estimate, d)} [${fmt(i.low, d)}, ${fmt(i.high, d)}]`;
    rows.set(id, row);
  }
  const recs = [...rows.values()];
  return pl.DataFrame({
    harness: recs.map((r) => r.harness as string),
    model: recs.map((r) => r.model as string),
    memory: recs.map((r) => r.memory as string),
    chains: pl.Series("chains", recs.map((r) => r.chains as number), pl.Int32),
    ...Object.fromEntries(
      metrics.map((m) => [m, pl.Series(m, recs.map((r) => (r[m] as string) ?? "–"), pl.Utf8)]),
    ),
  });
}

/**
 * Point estimates with 95% error bars per configuration, one panel per metric (rates in %).
 */
export function intervalChart(
  cells: readonly CellInterval[],
  metrics: readonly Metric[] = ["reuse_repo", "reuse_self", "recall_repo", "resolve"],
  opts: { title?: string; provenance?: string } = {},
): Chart {
  const values = cells.filter((c) => metrics.includes(c.metric) && c.interval.estimate !== null)
    .map((c) => ({
      config: `${c.config.harness} · ${c.config.model}`,
      memory: c.config.memory,
      metric: c.metric,
      estimate: c.interval.estimate,
      low: c.interval.low,
      high: c.interval.high,
    }));
  const t = opts.title ?? "Estimates with 95% cluster-bootstrap intervals";
  const y = { field: "config", type: "nominal", title: null, sort: null };
  return new Chart({
    title: opts.provenance ? { text: t, subtitle: `Data: ${opts.provenance}` } : t,
    data: { values },
    facet: { column: { field: "metric", type: "nominal", sort: [...metrics], title: null } },
    spec: {
      width: 150,
      layer: [
        {
          mark: { type: "rule" },
          encoding: {
            y,
            x: { field: "low", type: "quantitative", title: "%" },
            x2: { field: "high" },
          },
        },
        {
          mark: { type: "point", filled: true },
          encoding: {
            y,
            x: { field: "estimate", type: "quantitative" },
            color: { field: "memory", type: "nominal", title: "Memory" },
            tooltip: [
              { field: "config" },
              { field: "memory" },
              { field: "estimate", format: ".1f" },
              { field: "low", format: ".1f" },
              { field: "high", format: ".1f" },
            ],
          },
        },
      ],
    },
    resolve: { scale: { x: "independent" } },
  }, t);
}

/**
 * A paired comparison as two frames: per-metric A, B and the paired-bootstrap Δ = A − B with its
 * interval; per target kind the McNemar table of per-target reuse.
 */
export function pairedFrames(p: PairedComparison): { deltas: pl.DataFrame; targets: pl.DataFrame } {
  const r = (x: number | null, d: number) => x === null ? null : Number(x.toFixed(d));
  const deltas = pl.DataFrame({
    metric: p.deltas.map((d) => d.metric),
    unit: p.deltas.map((d) => PERCENT_METRICS.has(d.metric) ? "%" : "count"),
    a: pl.Series("a", p.deltas.map((d) => r(d.a, 2)), pl.Float64),
    b: pl.Series("b", p.deltas.map((d) => r(d.b, 2)), pl.Float64),
    delta: pl.Series("delta", p.deltas.map((d) => r(d.delta.estimate, 2)), pl.Float64),
    low: pl.Series("low", p.deltas.map((d) => r(d.delta.low, 2)), pl.Float64),
    high: pl.Series("high", p.deltas.map((d) => r(d.delta.high, 2)), pl.Float64),
    excludes_zero: p.deltas.map((d) =>
      d.delta.low !== null && d.delta.high !== null && (d.delta.low > 0 || d.delta.high < 0)
    ),
  });
  const targets = pl.DataFrame({
    kind: p.targets.map((t) => t.kind),
    pairs: pl.Series("pairs", p.targets.map((t) => t.pairs), pl.Int32),
    both: pl.Series("both", p.targets.map((t) => t.both), pl.Int32),
    only_a: pl.Series("only_a", p.targets.map((t) => t.aOnly), pl.Int32),
    only_b: pl.Series("only_b", p.targets.map((t) => t.bOnly), pl.Int32),
    neither: pl.Series("neither", p.targets.map((t) => t.neither), pl.Int32),
    test: p.targets.map((t) => t.test.method),
    statistic: pl.Series("statistic", p.targets.map((t) => r(t.test.statistic, 3)), pl.Float64),
    p: pl.Series("p", p.targets.map((t) => t.test.p), pl.Float64),
  });
  return { deltas, targets };
}

/** Forest plot of paired Δ = A − B (with intervals) for several comparisons, rates only. */
export function pairedChart(
  comparisons: readonly PairedComparison[],
  opts: { title?: string; provenance?: string } = {},
): Chart {
  const values = comparisons.flatMap((p) =>
    p.deltas.filter((d) => PERCENT_METRICS.has(d.metric) && d.delta.estimate !== null).map((d) => ({
      comparison: `${configId(p.a)} − ${configId(p.b)}`,
      metric: d.metric,
      delta: d.delta.estimate,
      low: d.delta.low,
      high: d.delta.high,
    }))
  );
  const t = opts.title ?? "Paired differences A − B (percentage points, 95% paired bootstrap)";
  const y = { field: "metric", type: "nominal", title: null, sort: [...METRICS] };
  return new Chart({
    title: opts.provenance ? { text: t, subtitle: `Data: ${opts.provenance}` } : t,
    data: { values },
    width: 360,
    layer: [
      { mark: { type: "rule", color: "#999", strokeDash: [4, 4] }, encoding: { x: { datum: 0 } } },
      {
        mark: "rule",
        encoding: {
          y,
          yOffset: { field: "comparison" },
          x: { field: "low", type: "quantitative", title: "Δ (points)" },
          x2: { field: "high" },
          color: { field: "comparison", type: "nominal", legend: { orient: "bottom", columns: 1 } },
        },
      },
      {
        mark: { type: "point", filled: true },
        encoding: {
          y,
          yOffset: { field: "comparison" },
          x: { field: "delta", type: "quantitative" },
          color: { field: "comparison", type: "nominal" },
          tooltip: [
            { field: "comparison" },
            { field: "metric" },
            { field: "delta", format: ".1f" },
            { field: "low", format: ".1f" },
            { field: "high", format: ".1f" },
          ],
        },
      },
    ],
  }, t);
}

/**
 * The intervals of one harness × model keyed `${memory}:${metric}`, as `memoryFigure(…, {intervals})`
 * expects.
 */
export function memoryIntervals(
  cells: readonly CellInterval[],
  which: { harness: string; model: string },
): Record<string, CellInterval["interval"]> {
  const out: Record<string, CellInterval["interval"]> = {};
  for (const c of cells) {
    if (c.config.harness === which.harness && c.config.model === which.model) {
      out[`${c.config.memory}:${c.metric}`] = c.interval;
    }
  }
  return out;
}
