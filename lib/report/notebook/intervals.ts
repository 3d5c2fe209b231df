/**
 * Intervals and paired comparisons as frames and charts (notebooks 02, 04, 07).
 *
 * @module
 */

import pl from "nodejs-polars";
import { configId, type ConfigKey, type Metric, METRICS, PERCENT_METRICS } from "../aggregate.ts";
import { paperRecords } from "../paper.ts";
import {
  CHART_CONFIG,
  configScale,
  lowerIsBetter,
  metricLabel,
  modelScale,
  modelShapes,
  NEUTRAL,
  PAPER_LAYER,
  paperLabel,
  paperMark,
} from "../style.ts";
import type { CellInterval, PairedComparison } from "../ci.ts";
import { Chart } from "../display.ts";
import { fmt } from "../table_render.ts";
import { formatP, formatPermutationP } from "../stats.ts";

export { formatP };

/** Digits a metric is shown with. */
function digitsOf(m: Metric): number {
  return m === "lines" ? 0 : 1;
}

/**
 * The cluster-bootstrap intervals of `cellIntervals()` as a long frame to compute on: one row per
 * configuration × metric with numeric `estimate`, `low`, `high` (f64; rates in %) and the
 * formatted `interval` ("62.8 [58.1, 67.5]") for reading.
 */
export function intervalFrame(
  cells: readonly CellInterval[],
  metrics: readonly Metric[] = METRICS,
): pl.DataFrame {
  const rows = cells.filter((c) => metrics.includes(c.metric));
  const num = (name: string, f: (c: CellInterval) => number | null) =>
    pl.Series(name, rows.map(f), pl.Float64);
  return pl.DataFrame({
    harness: rows.map((c) => c.config.harness),
    model: rows.map((c) => c.config.model),
    memory: rows.map((c) => c.config.memory),
    metric: rows.map((c) => c.metric),
    chains: pl.Series("chains", rows.map((c) => c.chains), pl.Int32),
    estimate: num("estimate", (c) => c.interval.estimate),
    low: num("low", (c) => c.interval.low),
    high: num("high", (c) => c.interval.high),
    interval: pl.Series("interval", rows.map((c) => intervalText(c)), pl.Utf8),
  });
}

function intervalText(c: CellInterval): string {
  const d = digitsOf(c.metric);
  const i = c.interval;
  return i.estimate === null ? "–" : `${fmt(i.estimate, d)} [${fmt(i.low, d)}, ${fmt(i.high, d)}]`;
}

/**
 * The same intervals as a wide table to read: one row per configuration, one formatted column per
 * metric, `estimate [low, high]` (compute on {@link intervalFrame} instead).
 */
export function intervalTable(
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
    row[c.metric] = intervalText(c);
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
 * Point estimates with 95% error bars per configuration, one panel per metric (rates in %), three
 * panels a row so it fits a notebook column; colour = model (as in every chart), and the paper's
 * Table 2 value of each interface-memory cell as a hollow diamond just below the computed one.
 */
export function intervalChart(
  cells: readonly CellInterval[],
  metrics: readonly Metric[] = ["reuse_repo", "reuse_self", "recall_repo", "resolve"],
  opts: { title?: string; provenance?: string; paper?: boolean } = {},
): Chart {
  const COMPUTED = "computed";
  const PAPER = paperLabel(2);
  const values: Record<string, unknown>[] = cells.filter((c) =>
    metrics.includes(c.metric) && c.interval.estimate !== null
  ).map((c) => ({
    config: `${c.config.harness} · ${c.config.model}`,
    harness: c.config.harness,
    model: c.config.model,
    memory: c.config.memory,
    metric: metricLabel(c.metric) + (lowerIsBetter(c.metric) ? " ↓" : ""),
    source: COMPUTED,
    estimate: c.interval.estimate,
    low: c.interval.low,
    high: c.interval.high,
  }));
  if (opts.paper !== false) {
    for (const v of [...values]) {
      if (v.memory !== "interface") continue;
      const rec = paperRecords(2).find((r) => r.harness === v.harness && r.model === v.model);
      const metric = metrics.find((m) =>
        metricLabel(m) + (lowerIsBetter(m) ? " ↓" : "") === v.metric
      );
      const x = metric && rec ? Number(rec[metric]) : NaN;
      if (Number.isFinite(x)) {
        values.push({ ...v, source: PAPER, estimate: x, low: null, high: null });
      }
    }
  }
  const hasPaper = values.some((v) => v.source === PAPER);
  const t = opts.title ?? "Estimates with 95% cluster-bootstrap intervals";
  const subtitle = [
    ...(opts.provenance ? [`Data: ${opts.provenance}`] : []),
    `dot and bar: computed, 95% interval${
      hasPaper ? " · hollow diamond: the paper's Table 2" : ""
    }` +
    (metrics.some(lowerIsBetter) ? " · ↓ lower is better" : ""),
  ];
  const configs = configScale(values.map((v) => String(v.config)));
  const y = {
    field: "config",
    type: "nominal",
    title: null,
    sort: configs.domain,
    axis: { labelLimit: 260 },
  };
  const yOffset = { field: "source", type: "nominal", sort: [COMPUTED, PAPER] };
  const models = modelScale(values.map((v) => String(v.model)));
  return new Chart({
    title: { text: t, subtitle, subtitleColor: opts.provenance ? "#b00000" : undefined },
    config: CHART_CONFIG,
    data: { values },
    facet: {
      field: "metric",
      type: "nominal",
      sort: metrics.map((m) => metricLabel(m) + (lowerIsBetter(m) ? " ↓" : "")),
      title: null,
    },
    columns: 3,
    spec: {
      width: 150,
      height: { step: 11 },
      layer: [
        {
          transform: [{ filter: `datum.source === '${COMPUTED}'` }],
          mark: { type: "rule", strokeWidth: 1.5 },
          encoding: {
            y,
            yOffset,
            x: {
              field: "low",
              type: "quantitative",
              title: "%",
              scale: { zero: false, padding: 8 },
            },
            x2: { field: "high" },
            color: { field: "model", type: "nominal", title: "Model", scale: models },
          },
        },
        {
          transform: [{ filter: `datum.source === '${COMPUTED}'` }],
          mark: { type: "point", filled: true, size: 40, opacity: 1 },
          encoding: {
            y,
            yOffset,
            x: { field: "estimate", type: "quantitative" },
            color: { field: "model", type: "nominal", title: "Model", scale: models },
            shape: {
              field: "model",
              type: "nominal",
              title: "Model",
              scale: modelShapes(values.map((v) => String(v.model))),
            },
            tooltip: [
              { field: "config" },
              { field: "memory" },
              { field: "metric" },
              { field: "estimate", format: ".1f" },
              { field: "low", format: ".1f" },
              { field: "high", format: ".1f" },
            ],
          },
        },
        ...(hasPaper
          ? [{
            transform: [{ filter: `datum.source === '${PAPER}'` }],
            name: PAPER_LAYER,
            mark: { type: "point", shape: "diamond", filled: false, size: 45, strokeWidth: 1.5 },
            encoding: {
              y,
              yOffset,
              x: { field: "estimate", type: "quantitative" },
              color: { field: "model", type: "nominal", title: "Model", scale: models },
              ...paperMark(2).legend,
              tooltip: [{ field: "config" }, { field: "metric" }, {
                field: "estimate",
                title: "paper",
              }],
            },
          }]
          : []),
      ],
    },
    resolve: { scale: { x: "independent" } },
  }, t);
}

/**
 * A paired comparison as two frames to read and compute on. `deltas`: per metric (human names), A,
 * B, the paired-bootstrap Δ = A − B with its interval, the chain-level permutation p and the Holm p
 * within the comparison's family. `targets`: per target kind, the matched targets' counts, the
 * chains holding them (and how many are discordant), Δ reused (pair-weighted, %) with its
 * chain-bootstrap interval, the chain-level sign-flip p, Obuchowski's χ² and p, and the Holm p.
 * p-values are numbers (`p_value`, `p_holm`) beside their readable text (`p`, `p (Holm)`).
 */
export function pairedFrames(p: PairedComparison): { deltas: pl.DataFrame; targets: pl.DataFrame } {
  const r = (x: number | null, d: number) => x === null ? null : Number(x.toFixed(d));
  const f64 = (name: string, xs: (number | null | undefined)[]) =>
    pl.Series(name, xs.map((x) => x ?? null), pl.Float64);
  const deltas = pl.DataFrame({
    metric: p.deltas.map((d) => metricLabel(d.metric)),
    unit: p.deltas.map((d) => PERCENT_METRICS.has(d.metric) ? "%" : "count"),
    a: f64("a", p.deltas.map((d) => r(d.a, 2))),
    b: f64("b", p.deltas.map((d) => r(d.b, 2))),
    delta: f64("delta", p.deltas.map((d) => r(d.delta.estimate, 2))),
    low: f64("low", p.deltas.map((d) => r(d.delta.low, 2))),
    high: f64("high", p.deltas.map((d) => r(d.delta.high, 2))),
    p_value: f64("p_value", p.deltas.map((d) => d.test?.p)),
    p_holm: f64("p_holm", p.deltas.map((d) => d.pHolm)),
    p: pl.Series("p", p.deltas.map((d) => formatPermutationP(d.test)), pl.Utf8),
    "p (Holm)": pl.Series("p (Holm)", p.deltas.map((d) => formatP(d.pHolm)), pl.Utf8),
  });
  const ts = p.targets.filter((t) => t.pairs > 0);
  const i32 = (name: string, xs: number[]) => pl.Series(name, xs, pl.Int32);
  const targets = pl.DataFrame({
    kind: ts.map((t) => t.kind),
    pairs: i32("pairs", ts.map((t) => t.pairs)),
    chains: i32("chains", ts.map((t) => t.clustered.chains)),
    discordant_chains: i32(
      "discordant_chains",
      ts.map((t) => t.clustered.signFlip.discordantChains),
    ),
    both: i32("both", ts.map((t) => t.both)),
    only_a: i32("only_a", ts.map((t) => t.aOnly)),
    only_b: i32("only_b", ts.map((t) => t.bOnly)),
    neither: i32("neither", ts.map((t) => t.neither)),
    delta: f64("delta", ts.map((t) => r(t.delta.estimate, 2))),
    low: f64("low", ts.map((t) => r(t.delta.low, 2))),
    high: f64("high", ts.map((t) => r(t.delta.high, 2))),
    p_value: f64("p_value", ts.map((t) => t.clustered.signFlip.p)),
    obuchowski: f64("obuchowski", ts.map((t) => r(t.clustered.obuchowski.statistic, 3))),
    p_obuchowski: f64("p_obuchowski", ts.map((t) => t.clustered.obuchowski.p)),
    p_holm: f64("p_holm", ts.map((t) => t.pHolm)),
    p: pl.Series("p", ts.map((t) => formatP(t.clustered.signFlip.p)), pl.Utf8),
    "p (Holm)": pl.Series("p (Holm)", ts.map((t) => formatP(t.pHolm)), pl.Utf8),
  });
  return { deltas, targets };
}

/**
 * How two configurations differ, naming only what differs ("interface − none" for two memory
 * settings of one harness × model).
 *
 * ```ts
 * import { comparisonLabel } from "./intervals.ts";
 * const k = { harness: "OpenCode", model: "Qwen3.7-plus" };
 * console.assert(comparisonLabel({ ...k, memory: "interface" }, { ...k, memory: "none" }) === "interface − none");
 * ```
 */
export function comparisonLabel(a: ConfigKey, b: ConfigKey): string {
  const parts = (["harness", "model", "memory"] as const).filter((k) => a[k] !== b[k]);
  if (!parts.length) return `${configId(a)} − ${configId(b)}`;
  const side = (k: ConfigKey) => parts.map((p) => k[p]).join(" · ");
  return `${side(a)} − ${side(b)}`;
}

/** Forest plot of paired Δ = A − B (with intervals) for several comparisons, rates only. */
export function pairedChart(
  comparisons: readonly PairedComparison[],
  opts: { title?: string; provenance?: string } = {},
): Chart {
  const values = comparisons.flatMap((p) =>
    p.deltas.filter((d) => PERCENT_METRICS.has(d.metric) && d.delta.estimate !== null).map((d) => ({
      comparison: comparisonLabel(p.a, p.b),
      metric: metricLabel(d.metric) + (lowerIsBetter(d.metric) ? " ↓" : ""),
      delta: d.delta.estimate,
      low: d.delta.low,
      high: d.delta.high,
    }))
  );
  // what every comparison shares (e.g. "OpenCode · Qwen3.7-plus"), named once in the subtitle
  const shared = comparisons.length
    ? (["harness", "model", "memory"] as const).filter((k) =>
      comparisons.every((p) => p.a[k] === comparisons[0].a[k] && p.b[k] === comparisons[0].a[k])
    ).map((k) => comparisons[0].a[k]).join(" · ")
    : "";
  const t = opts.title ?? "Paired differences A − B (percentage points, 95% paired bootstrap)";
  const subtitle = [
    ...(opts.provenance ? [`Data: ${opts.provenance}`] : []),
    `${shared ? `${shared}; ` : ""}↓ lower is better`,
  ];
  const order = METRICS.filter((m) => PERCENT_METRICS.has(m)).map((m) =>
    metricLabel(m) + (lowerIsBetter(m) ? " ↓" : "")
  );
  const labels = [...new Set(values.map((v) => v.comparison))];
  const names = { harness: "Harness", model: "Model", memory: "Memory" } as const;
  const differs = (["harness", "model", "memory"] as const)
    .filter((k) => comparisons.some((p) => p.a[k] !== p.b[k]))
    .map((k, i) => i ? names[k].toLowerCase() : names[k]);
  // comparisons told apart by shape (colour means models in every figure)
  const shapes = {
    domain: labels,
    range: labels.map((_, i) => ["circle", "square", "triangle-up", "diamond", "cross"][i % 5]),
  };
  const y = { field: "metric", type: "nominal", title: null, sort: order };
  const x = { type: "quantitative", scale: { padding: 10 } };
  const legendTitle = `${differs.length ? differs.join(" / ") : "Configuration"} compared (A − B)`;
  return new Chart({
    title: { text: t, subtitle, subtitleColor: opts.provenance ? "#b00000" : undefined },
    config: CHART_CONFIG,
    data: { values },
    width: 380,
    height: { step: 14 },
    layer: [
      { mark: { type: "rule", color: "#999", strokeDash: [4, 4] }, encoding: { x: { datum: 0 } } },
      {
        mark: { type: "rule", strokeWidth: 1.5 },
        encoding: {
          y,
          yOffset: { field: "comparison" },
          x: { field: "low", ...x, title: "Δ (percentage points)" },
          x2: { field: "high" },
          color: { value: NEUTRAL },
        },
      },
      {
        mark: { type: "point", filled: true, size: 45, color: NEUTRAL },
        encoding: {
          y,
          yOffset: { field: "comparison" },
          x: { field: "delta", ...x },
          shape: { field: "comparison", type: "nominal", title: legendTitle, scale: shapes },
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
