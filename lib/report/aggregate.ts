/**
 * The paper's aggregate metrics in report units (rates in %, Files and Lines as counts), computed
 * from turn rows with the scorer's macro-averaging (`averageByConfig` / `averageByTurn` in
 * lib/metrics/macro.ts), so Tables 2–5 agree with `frames.averages` and the same code yields the
 * point estimates and every bootstrap replicate.
 *
 * Conventions (paper §4.1, Tables 2–5 captions): every metric macro-averaged over turns where it is
 * defined; self metrics from turn 2; C_dup (eq. 3) of a configuration is the mean of the cumulative
 * turn-wise rates C_dup(1..T).
 *
 * @module
 */
import type pl from "nodejs-polars";
import {
  addMeanSums,
  averageByConfig,
  averageByTurn,
  C_dup,
  type ConfigKey,
  FIRST_LAST_METRICS,
  meanC_dup,
  type MeanMetric,
  meansOf,
  type MeanSums,
  meanSums,
  reimplementationCounts,
  TURN_COLUMNS,
  type TurnRow,
} from "../metrics/mod.ts";
import { decodeRows } from "../frames/mod.ts";
import { HARNESSES, MEMORIES, MODELS, orderIndex } from "./paper.ts";

export type { ConfigKey, TurnRow };

/** The metrics of Tables 2 and 4, in the paper's column order (the same list as Tables 3 and 5). */
export const METRICS: typeof FIRST_LAST_METRICS = FIRST_LAST_METRICS;
/** A Table 2 metric. */
export type Metric = typeof METRICS[number];

/** Metrics reported as percentages (the others are counts). */
export const PERCENT_METRICS: ReadonlySet<Metric> = new Set([
  "reuse_repo",
  "reuse_self",
  "recall_repo",
  "recall_self",
  "resolve",
  "pass",
  "c_dup",
]);

/** Columns of the `turns` frame the report needs. */
export const REQUIRED_TURN_COLUMNS = [
  "harness",
  "model",
  "memory",
  "chain",
  "turn",
  "n_repo",
  "n_self",
  "reuse_repo",
  "reuse_self",
  "recall_repo",
  "recall_self",
  "files",
  "lines",
  "tests",
  "pass_rate",
  "resolved",
  "reimplemented",
  "dup_chain",
] as const satisfies readonly (keyof TurnRow)[];

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Typed rows of a `turns` frame (every column of lib/metrics/rows.ts `TURN_COLUMNS`, decoded by
 * lib/frames `decodeRows`), sorted by configuration, chain and turn (integers arriving as Float64
 * are plain numbers). Throws naming the missing columns when the frame lacks one the report needs
 * ({@link REQUIRED_TURN_COLUMNS}).
 */
export function turnRows(turns: pl.DataFrame): TurnRow[] {
  const rows = decodeRows(turns, TURN_COLUMNS, REQUIRED_TURN_COLUMNS);
  return rows.sort((a, b) =>
    cmp(a.harness, b.harness) || cmp(a.model, b.model) || cmp(a.memory, b.memory) ||
    cmp(a.chain, b.chain) || a.turn - b.turn
  );
}

/** The rows of a `turns` frame ({@link turnRows}), or the rows themselves. */
export function asTurnRows(turns: pl.DataFrame | TurnRow[]): TurnRow[] {
  return Array.isArray(turns) ? turns : turnRows(turns);
}

/** Paper order of configurations: harness, model, memory as in the paper, unknown ones after. */
export function configOrder(a: ConfigKey, b: ConfigKey): number {
  return orderIndex(HARNESSES, a.harness) - orderIndex(HARNESSES, b.harness) ||
    a.harness.localeCompare(b.harness) ||
    orderIndex(MODELS, a.model) - orderIndex(MODELS, b.model) ||
    a.model.localeCompare(b.model) ||
    orderIndex(MEMORIES, a.memory) - orderIndex(MEMORIES, b.memory) ||
    a.memory.localeCompare(b.memory);
}

/** Stable string id of a configuration. */
export function configId(c: ConfigKey): string {
  return `${c.harness} · ${c.model} · ${c.memory}`;
}

/** Rows grouped by configuration (sorted by key). */
export function byConfig(rows: readonly TurnRow[]): { key: ConfigKey; rows: TurnRow[] }[] {
  const groups = new Map<string, { key: ConfigKey; rows: TurnRow[] }>();
  for (const r of rows) {
    const id = configId(r);
    let g = groups.get(id);
    if (!g) {
      g = { key: { harness: r.harness, model: r.model, memory: r.memory }, rows: [] };
      groups.set(id, g);
    }
    g.rows.push(r);
  }
  return [...groups.entries()].sort((a, b) => cmp(a[0], b[0])).map(([, g]) => g);
}

/** Rows of one configuration grouped into chains (clusters for the bootstrap), sorted by chain. */
export function byChain(rows: readonly TurnRow[]): TurnRow[][] {
  const groups = new Map<string, TurnRow[]>();
  for (const r of rows) {
    const g = groups.get(r.chain);
    if (g) g.push(r);
    else groups.set(r.chain, [r]);
  }
  return [...groups.entries()].sort((a, b) => cmp(a[0], b[0])).map(([, g]) => g);
}

/**
 * Rows of a resample of chains, each drawn chain renamed after its draw position so a chain drawn
 * twice counts as two chains (in C_dup's denominator too). One configuration only.
 */
export function resampledRows(chains: readonly (readonly TurnRow[])[]): TurnRow[] {
  const out: TurnRow[] = [];
  chains.forEach((c, i) => {
    for (const r of c) out.push({ ...r, harness: "", model: "", memory: "", chain: `#${i}` });
  });
  return out;
}

/** Distinct turn numbers of the rows, ascending. */
export function turnsOf(rows: readonly TurnRow[]): number[] {
  return [...new Set(rows.map((r) => r.turn))].sort((a, b) => a - b);
}

/** Metrics in report units: {@link PERCENT_METRICS} × 100, the others as they are. */
function reportUnits(
  s: Partial<Record<Metric, number | null>> | undefined,
): Record<Metric, number | null> {
  const out = {} as Record<Metric, number | null>;
  for (const m of METRICS) out[m] = s?.[m] ?? null;
  return toPercent(out);
}

const PERCENT_LIST = METRICS.filter((m) => PERCENT_METRICS.has(m));

/** Scales the {@link PERCENT_METRICS} present in `rec` from fractions to %, in place. */
function toPercent<T extends Partial<Record<Metric, number | null>>>(rec: T): T {
  for (const m of PERCENT_LIST) {
    const v = rec[m];
    if (v !== null && v !== undefined) (rec as Record<Metric, number>)[m] = 100 * v;
  }
  return rec;
}

function single(rows: readonly TurnRow[]): readonly TurnRow[] {
  if (rows.length && rows.some((r) => configId(r) !== configId(rows[0]))) {
    throw new Error("aggregate: rows of several configurations; group them with byConfig first");
  }
  return rows;
}

/**
 * All Table 2/4 metrics of one configuration's rows (or a bootstrap resample), in report units.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { configMetrics } from "./aggregate.ts";
 * import { rowOf, TURN_COLUMNS } from "../metrics/rows.ts";
 * const base = { harness: "h", model: "m", memory: "interface", chain: "c", n_repo: 1, files: 2,
 *   lines: 10, tests: 2, passed: 2, pass_rate: 1, resolved: true, submitted: true, recall_repo: 1,
 *   recall_self: 1, coverage: 1 };
 * const rows = [
 *   rowOf(TURN_COLUMNS, { ...base, turn: 1, reuse_repo: 0.5 }),
 *   rowOf(TURN_COLUMNS, { ...base, turn: 2, n_self: 1, reuse_repo: 1, reuse_self: 1, reimplemented: 1, dup_chain: true }),
 * ];
 * const m = configMetrics(rows);
 * assert.equal(m.reuse_repo, 75);
 * assert.equal(m.reuse_self, 100); // from turn 2
 * assert.equal(m.c_dup, 50); // mean of C_dup(1) = 0 and C_dup(2) = 100
 * ```
 */
export function configMetrics(rows: readonly TurnRow[]): Record<Metric, number | null> {
  return reportUnits(averageByConfig(single(rows))[0]);
}

/** One metric of one configuration's rows, in report units. */
export function metric(rows: readonly TurnRow[], m: Metric): number | null {
  return configMetrics(rows)[m];
}

/** All metrics of one configuration's rows at each turn (C_dup(t) for `c_dup`), by turn. */
export function metricsByTurn(
  rows: readonly TurnRow[],
): Map<number, Record<Metric, number | null>> {
  return new Map(averageByTurn(single(rows)).map((s) => [s.turn, reportUnits(s)]));
}

/** A metric of one configuration's rows at one turn. */
export function metricAtTurn(rows: readonly TurnRow[], m: Metric, turn: number): number | null {
  return metricsByTurn(rows).get(turn)?.[m] ?? null;
}

/** Sufficient statistics of one chain for the bootstrap (see {@link chainStats}). */
export interface ChainStats {
  /** Sums and counts of the averaged metrics over the chain's turns. */
  all: MeanSums;
  /** The same at each turn (index t − 1; undefined where the chain has no such turn). */
  byTurn: (MeanSums | undefined)[];
  /** |R_{c,t}| at each turn (index t − 1), as {@link C_dup} takes a chain. */
  reimplemented: number[];
}

/**
 * Sufficient statistics of a chain: the bootstrap adds these up instead of re-running the
 * macro-averaging on every resample ({@link metricsOfStats} equals {@link configMetrics} on the same
 * chains — tests/report_stats_test.ts checks it). The arithmetic is lib/metrics/macro.ts's.
 */
export function chainStats(rows: readonly TurnRow[]): ChainStats {
  const byTurn: (TurnRow[] | undefined)[] = [];
  for (const r of rows) if (r.turn >= 1) (byTurn[r.turn - 1] ??= []).push(r);
  return {
    all: meanSums(rows),
    byTurn: Array.from(byTurn, (at) => (at ? meanSums(at) : undefined)),
    reimplemented: reimplementationCounts(rows),
  };
}

/**
 * Report units of macro averages (fractions) beside a C_dup already in percent (the bootstrap's
 * C_dup is scaled before its division: `unit` 100 of lib/metrics/redundancy.ts).
 */
function statsUnits(
  means: Record<MeanMetric, number | null>,
  cDupPercent: number | null,
): Record<Metric, number | null> {
  const out = toPercent(means) as Record<Metric, number | null>; // a fresh object of meansOf
  out.c_dup = cDupPercent;
  return out;
}

/**
 * Metrics (report units) of a multiset of chains at one turn — equal to {@link metricsByTurn} on the
 * same chains; `c_dup` is C_dup(t) over all the chains (a shorter chain counts with its turns).
 */
export function metricsAtTurnOfStats(
  chains: readonly ChainStats[],
  turn: number,
): Record<Metric, number | null> {
  const means = meansOf(addMeanSums(chains.map((c) => c.byTurn[turn - 1])));
  return statsUnits(means, C_dup(chains.map((c) => c.reimplemented), turn, 100));
}

/** Table 2/4 metrics (report units) of a multiset of chains given by their statistics. */
export function metricsOfStats(chains: readonly ChainStats[]): Record<Metric, number | null> {
  const means = meansOf(addMeanSums(chains.map((c) => c.all)));
  return statsUnits(means, meanC_dup(chains.map((c) => c.reimplemented), 100));
}
