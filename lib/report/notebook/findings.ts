/**
 * What a notebook section found, as sentences computed from the data with their intervals (never
 * typed in): the statistics behind them — chain-resampled intervals of within-configuration
 * differences, of correlations across configurations and of gap shares — and {@link finding},
 * which displays a sentence as the section's closing paragraph.
 *
 * Every interval resamples whole chains, within each configuration (the unit throughout the
 * report; docs/statistics.md), with a seeded PRNG.
 *
 * @module
 */

import pl from "nodejs-polars";
import { sampleRankCorrelation } from "simple-statistics";
import { asTurnRows, byChain, byConfig, configId, type TurnRow } from "../aggregate.ts";
import type { PairedComparison } from "../ci.ts";
import {
  type BootstrapOptions,
  DEFAULT_B,
  DEFAULT_SEED,
  formatP,
  type Interval,
  mulberry32,
  quantileSorted,
} from "../stats.ts";
import { metricLabel } from "../style.ts";
import { fmt } from "../table_render.ts";
import { Markdown } from "./show.ts";

/** A finding: the closing sentences of a notebook section, shown as a highlighted paragraph. */
export function finding(...sentences: string[]): Markdown {
  return new Markdown(`> **Finding.** ${sentences.filter((s) => s).join(" ")}`);
}

/**
 * An estimate with its interval as text: `+4.2 [−3.1, +11.0]`.
 *
 * ```ts
 * import { withInterval } from "./findings.ts";
 * const i = { estimate: 4.2, low: -3.1, high: 11, replicates: 9, B: 9, seed: 1, level: 0.95 };
 * console.assert(withInterval(i, 1, true) === "+4.2 [-3.1, +11.0]");
 * ```
 */
export function withInterval(i: Interval, digits = 1, signed = false): string {
  return `${fmt(i.estimate, digits, signed)} [${fmt(i.low, digits, signed)}, ${
    fmt(i.high, digits, signed)
  }]`;
}

/**
 * A statistic of several groups of clusters with its stratified cluster-bootstrap interval: each
 * replicate resamples the clusters of every group with replacement, within the group.
 */
export function stratifiedBootstrap<T>(
  groups: readonly (readonly T[])[],
  stat: (groups: T[][]) => number | null,
  opts: BootstrapOptions = {},
): Interval {
  const B = opts.B ?? DEFAULT_B, seed = opts.seed ?? DEFAULT_SEED, level = opts.level ?? 0.95;
  const estimate = stat(groups.map((g) => [...g]));
  const rng = mulberry32(seed);
  const reps: number[] = [];
  for (let b = 0; b < B; b++) {
    const v = stat(groups.map((g) => g.map(() => g[Math.floor(rng() * g.length)])));
    if (v !== null && Number.isFinite(v)) reps.push(v);
  }
  reps.sort((a, c) => a - c);
  const alpha = (1 - level) / 2;
  return {
    estimate: estimate !== null && Number.isFinite(estimate) ? estimate : null,
    low: reps.length ? quantileSorted(reps, alpha) : null,
    high: reps.length ? quantileSorted(reps, 1 - alpha) : null,
    replicates: reps.length,
    B,
    seed,
    level,
  };
}

/** Repository-reuse buckets of a turn. */
export const REUSE_BUCKETS = ["< 1/3", "1/3 – 2/3", "≥ 2/3"] as const;

/** The reuse bucket of a turn's repository reuse (a fraction), null when undefined. */
export function reuseBucket(reuse: number | null): typeof REUSE_BUCKETS[number] | null {
  if (reuse === null || !Number.isFinite(reuse)) return null;
  return reuse < 1 / 3 ? REUSE_BUCKETS[0] : reuse < 2 / 3 ? REUSE_BUCKETS[1] : REUSE_BUCKETS[2];
}

/** Resolve rate (%) of turns, null without turns. */
function resolveRate(rows: readonly TurnRow[]): number | null {
  return rows.length ? (100 * rows.filter((r) => r.resolved).length) / rows.length : null;
}

/**
 * Reuse and correctness **inside** configurations: per configuration, its turns bucketed by their
 * repository reuse and the resolve rate of each bucket (`table`), and the mean over
 * configurations of (resolve of high-reuse turns − resolve of low-reuse turns), with a
 * chain-bootstrap interval resampled within each configuration (`delta`, in points).
 * Configurations lacking either bucket are left out of the mean (`configs` says how many count).
 */
export function reuseResolveWithin(
  turns: pl.DataFrame | TurnRow[],
  opts: BootstrapOptions & { memory?: string } = {},
): { table: pl.DataFrame; delta: Interval; configs: number } {
  const memory = opts.memory ?? "interface";
  const groups = byConfig(asTurnRows(turns)).filter((g) => g.key.memory === memory);
  const rec: Record<string, unknown>[] = [];
  for (const g of groups) {
    for (const b of REUSE_BUCKETS) {
      const rows = g.rows.filter((r) => reuseBucket(r.reuse_repo) === b);
      rec.push({
        harness: g.key.harness,
        model: g.key.model,
        reuse_repo_bucket: b,
        turns: rows.length,
        resolve: resolveRate(rows),
      });
    }
  }
  const stat = (cs: TurnRow[][][]) => {
    const diffs = cs.flatMap((chains) => {
      const rows = chains.flat();
      const lo = resolveRate(rows.filter((r) => reuseBucket(r.reuse_repo) === REUSE_BUCKETS[0]));
      const hi = resolveRate(rows.filter((r) => reuseBucket(r.reuse_repo) === REUSE_BUCKETS[2]));
      return lo === null || hi === null ? [] : [hi - lo];
    });
    return diffs.length ? diffs.reduce((a, b) => a + b, 0) / diffs.length : null;
  };
  const chains = groups.map((g) => byChain(g.rows));
  const counted = chains.filter((cs) => stat([cs]) !== null).length;
  return {
    table: pl.DataFrame({
      harness: rec.map((r) => r.harness as string),
      model: rec.map((r) => r.model as string),
      reuse_repo_bucket: rec.map((r) => r.reuse_repo_bucket as string),
      turns: pl.Series("turns", rec.map((r) => r.turns as number), pl.Int32),
      resolve: pl.Series("resolve", rec.map((r) => r.resolve as number | null), pl.Float64),
    }),
    delta: stratifiedBootstrap(chains, stat, opts),
    configs: counted,
  };
}

/**
 * Spearman's rank correlation across configurations of two per-configuration statistics (each
 * computed from a configuration's chains), with a chain-bootstrap interval resampled within each
 * configuration.
 */
export function configCorrelation(
  turns: pl.DataFrame | TurnRow[],
  x: (rows: TurnRow[]) => number | null,
  y: (rows: TurnRow[]) => number | null,
  opts: BootstrapOptions & { memory?: string } = {},
): { rho: Interval; configs: number } {
  const memory = opts.memory ?? "interface";
  const groups = byConfig(asTurnRows(turns)).filter((g) => g.key.memory === memory);
  const stat = (cs: TurnRow[][][]) => {
    const pts = cs.map((chains) => [x(chains.flat()), y(chains.flat())])
      .filter((p): p is [number, number] => p[0] !== null && p[1] !== null);
    if (pts.length < 3) return null;
    const r = sampleRankCorrelation(pts.map((p) => p[0]), pts.map((p) => p[1]));
    return Number.isFinite(r) ? r : null;
  };
  return {
    rho: stratifiedBootstrap(groups.map((g) => byChain(g.rows)), stat, opts),
    configs: groups.length,
  };
}

/**
 * The share (%) of the rows of `frame` for which `is` holds, with a chain-bootstrap interval
 * (clusters: each configuration's chains, resampled within the configuration).
 */
export function shareInterval(
  frame: pl.DataFrame,
  is: (row: Record<string, unknown>) => boolean,
  opts: BootstrapOptions = {},
): Interval {
  const configs = new Map<string, Map<string, boolean[]>>();
  for (const r of frame.toRecords() as Record<string, unknown>[]) {
    const id = configId({
      harness: String(r.harness),
      model: String(r.model),
      memory: String(r.memory),
    });
    const chains = configs.get(id) ?? new Map<string, boolean[]>();
    configs.set(id, chains);
    const c = chains.get(String(r.chain)) ?? [];
    chains.set(String(r.chain), c);
    c.push(is(r));
  }
  const groups = [...configs.values()].map((m) => [...m.values()]);
  return stratifiedBootstrap(groups, (gs) => {
    const all = gs.flat(2);
    return all.length ? (100 * all.filter((b) => b).length) / all.length : null;
  }, opts);
}

/**
 * One sentence per paired comparison: the metrics whose Holm-adjusted p is below `alpha` with Δ
 * and its interval, and those that did not differ.
 */
export function comparisonSentence(p: PairedComparison, alpha = 0.05): string {
  const side = (k: PairedComparison["a"]) =>
    (["harness", "model", "memory"] as const).filter((f) => p.a[f] !== p.b[f]).map((f) => k[f])
      .join(" · ");
  const unit = (m: string) => (m === "files" || m === "lines" ? "" : " pts");
  const differ = p.deltas.filter((d) => d.pHolm !== undefined && d.pHolm < alpha);
  const same = p.deltas.filter((d) => d.pHolm !== undefined && d.pHolm >= alpha);
  const dg = (m: string) => (m === "lines" ? 0 : 1);
  const parts = differ.map((d) =>
    `${metricLabel(d.metric)} ${withInterval(d.delta, dg(d.metric), true)}${unit(d.metric)} ` +
    `(p Holm ${formatP(d.pHolm)})`
  );
  return `${side(p.a)} vs ${side(p.b)} (${p.chains} chains): ` +
    (parts.length ? `differs in ${parts.join("; ")}` : "no metric differs at the family's level") +
    (same.length
      ? `; no difference shown in ${same.map((d) => metricLabel(d.metric)).join(", ")}.`
      : ".");
}

/**
 * Where an interval lies relative to `zero`: "lies above 0", "lies below 0" or "includes 0"
 * (undefined: "is undefined"), for sentences whose words must follow the data.
 *
 * ```ts
 * import { side } from "./findings.ts";
 * const i = (low: number, high: number) => ({ estimate: 1, low, high, replicates: 9, B: 9, seed: 1, level: 0.95 });
 * console.assert(side(i(0.2, 0.9)) === "lies above 0" && side(i(-1, 2)) === "includes 0");
 * ```
 */
export function side(i: Interval, zero = 0): string {
  if (i.low === null || i.high === null) return "is undefined";
  return i.low > zero
    ? `lies above ${zero}`
    : i.high < zero
    ? `lies below ${zero}`
    : `includes ${zero}`;
}
